/*
 * The rack elevation (engine_rack.c; docs/design.md, "The rack
 * elevation") against answers worked out by hand from the shipped
 * catalog's figures: HGX H100 8U at 10,200 W plus 8 fabric NICs at 25 W
 * (10,400 W; its BOM lists only the storage NICs), ib-ndr-400's QM9700 1U
 * at 1,720 W with 17.5 W per link, GB200 NVL72 48U at 132,000 W plus 72
 * NICs (133,800 W), 42U and 40 kW racks by default, 2 PDUs a rack.  The
 * facility networks (defaults.networks): a pair of 2U SN4600C front-end
 * switches per 64 node ports (2 a node) and a 1U SN2201 out-of-band
 * switch per 48 nodes, no power figure (0 W), below the scale-out ones.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "engine.h"
#include "fixture.h"
#include "tap.h"

static struct catalog *cat;

/* A sized result as eng_cost() leaves it, by hand. */
static struct engine_result result(const char *platform, const char *fabric, int nodes, int spares,
				   int leaf, int spine, int cables, double rack_kw)
{
	struct engine_result r;
	memset(&r, 0, sizeof r);
	r.platform = catalog_platform(cat, platform);
	ck_assert_ptr_nonnull(r.platform);
	r.fabric = fabric ? catalog_fabric(cat, fabric) : NULL;
	r.nodes = nodes;
	r.spare_nodes = spares;
	r.leaf_switches = leaf;
	r.spine_switches = spine;
	r.cables = cables;
	r.rack_kw_set = rack_kw > 0;
	r.rack_kw = rack_kw > 0 ? rack_kw : cat->defaults.rack_kw.value;
	return r;
}

static char line[160];
static const char *rack_line(const struct engine_elevation *e, int i)
{
	return engine_elevation_rack_line(e, i, line, sizeof line);
}

/* 4 nodes, no fabric, 40 kW: floor(40 / 10.2) = 3 a rack (floor(42 / 8)
 * = 5 by space), so 2 racks: nodes 1-3 at U1, U9, U17, node 4 at U1; the
 * front-end pair (8 ports) and the OOB switch from the top of rack 1. */
START_TEST(four_nodes_at_40_kw)
{
	struct engine_result r = result("hgx-h100-8", NULL, 4, 0, 0, 0, 0, 0);
	struct engine_elevation e;
	engine_elevation(cat, &r, &e);
	ck_assert_int_eq(e.racks, 2);
	ck_assert_int_eq(e.compute_racks, 2);
	ck_assert_int_eq(e.network_racks, 0);
	ck_assert_int_eq(e.nodes_per_rack, 3);
	ck_assert(!e.rack_kw_set && !e.over_kw);
	struct engine_rack_slot s[8];
	double kw;
	ck_assert_uint_eq(engine_elevation_rack(&e, 0, s, 8, &kw), 6);
	ck_assert_double_eq_tol(kw, 30.6, 1e-9);
	/* top down: the front-end pair, the OOB switch, node 3 at U17, node 2
	 * at U9, node 1 at U1 */
	ck_assert_int_eq(s[0].kind, RACK_FRONTEND);
	ck_assert_int_eq(s[0].number, 1);
	ck_assert_int_eq(s[0].u, 41);
	ck_assert_int_eq(s[0].height, 2);
	ck_assert_str_eq(s[0].sku, "MSN4600C");
	ck_assert_int_eq(s[2].kind, RACK_OOB);
	ck_assert_int_eq(s[2].u, 38);
	ck_assert_str_eq(s[2].sku, "MSN2201");
	ck_assert_int_eq(s[3].number, 3);
	ck_assert_int_eq(s[3].u, 17);
	ck_assert_ptr_null(s[3].sku);
	ck_assert_int_eq(s[5].number, 1);
	ck_assert_int_eq(s[5].u, 1);
	ck_assert_int_eq(s[5].height, 8);
	ck_assert_int_eq(s[5].kind, RACK_NODE);
	ck_assert_str_eq(rack_line(&e, 0), "rack 1: node 1-3 U1-24, oob 1 U38, front-end 1-2 U39-42; 30.6 of 40 kW");
	ck_assert_uint_eq(engine_elevation_rack(&e, 1, s, 8, &kw), 1);
	ck_assert_double_eq_tol(kw, 10.2, 1e-9);
	ck_assert_str_eq(rack_line(&e, 1), "rack 2: node 4 U1-8; 10.2 of 40 kW");
	ck_assert_uint_eq(engine_elevation_rack(&e, 2, s, 8, &kw), 0);
}
END_TEST

/* --rack-kw 15: one 10.2 kW node a rack, whatever the units allow. */
START_TEST(fifteen_kw_racks_hold_one_node)
{
	struct engine_result r = result("hgx-h100-8", NULL, 4, 0, 0, 0, 0, 15);
	struct engine_elevation e;
	engine_elevation(cat, &r, &e);
	ck_assert_int_eq(e.racks, 4);
	ck_assert_int_eq(e.nodes_per_rack, 1);
	ck_assert(e.rack_kw_set);
	ck_assert_str_eq(rack_line(&e, 3), "rack 4: node 4 U1-8; 10.2 of 15 kW");
}
END_TEST

/* 4 working + 1 spare on InfiniBand, 1 leaf, 40 links: 10.4 kW nodes, 3 a
 * rack; the leaf (1,720 + 40 x 17.5 = 2,420 W) goes on top of rack 1
 * (8.8 kW left there); the spare is node 5 in rack 2.  54.42 kW in all:
 * 5 x 10,200 + 1,720 + 40 x 17.5 + 40 x 25. */
START_TEST(spares_and_a_leaf_switch)
{
	struct engine_result r = result("hgx-h100-8", "ib-ndr-400", 4, 1, 1, 0, 40, 0);
	struct engine_elevation e;
	engine_elevation(cat, &r, &e);
	ck_assert_double_eq_tol(e.node_w, 10400, 1e-9);
	ck_assert_double_eq_tol(e.switch_w, 2420, 1e-9);
	ck_assert_int_eq(e.racks, 2);
	ck_assert_int_eq(e.switches_per_compute_rack, 3);
	ck_assert_int_eq(e.switches_in_compute_racks, 1);
	struct engine_rack_slot s[8];
	double kw1, kw2;
	ck_assert_uint_eq(engine_elevation_rack(&e, 0, s, 8, &kw1), 7);
	ck_assert_int_eq(s[0].kind, RACK_LEAF);
	ck_assert_int_eq(s[0].u, 42);
	ck_assert_str_eq(rack_line(&e, 0),
			 "rack 1: node 1-3 U1-24, oob 1 U37, front-end 1-2 U38-41, leaf 1 U42; 33.6 of 40 kW");
	ck_assert_uint_eq(engine_elevation_rack(&e, 1, s, 8, &kw2), 2);
	ck_assert_int_eq(s[0].kind, RACK_SPARE);
	ck_assert_int_eq(s[0].number, 5);
	ck_assert_int_eq(s[0].u, 9);
	ck_assert_str_eq(rack_line(&e, 1), "rack 2: node 4 U1-8, spare 5 U9-16; 20.8 of 40 kW");
	ck_assert_double_eq_tol(kw1 + kw2, 54.42, 1e-9);
}
END_TEST

/* 20 leaves + 10 spines, 600 links (2,070 W a switch): rack 1 keeps 4 on
 * top of its 3 nodes (8.8 kW / 2.07), rack 2 with one node 14 (29.6 kW /
 * 2.07), the other 12 go to one network rack (19 fit by power). */
START_TEST(switches_overflow_to_a_network_rack)
{
	struct engine_result r = result("hgx-h100-8", "ib-ndr-400", 4, 0, 20, 10, 600, 0);
	struct engine_elevation e;
	engine_elevation(cat, &r, &e);
	ck_assert_double_eq_tol(e.switch_w, 2070, 1e-9);
	ck_assert_int_eq(e.compute_racks, 2);
	ck_assert_int_eq(e.switches_per_compute_rack, 4);
	ck_assert_int_eq(e.switches_in_compute_racks, 18);
	ck_assert_int_eq(e.switches_per_network_rack, 19);
	ck_assert_int_eq(e.network_racks, 1);
	ck_assert_int_eq(e.racks, 3);
	ck_assert_str_eq(rack_line(&e, 0),
			 "rack 1: node 1-3 U1-24, oob 1 U34, front-end 1-2 U35-38, leaf 1-4 U39-42; 39.5 of 40 kW");
	ck_assert_str_eq(rack_line(&e, 1), "rack 2: node 4 U1-8, leaf 5-18 U29-42; 39.4 of 40 kW");
	ck_assert_str_eq(rack_line(&e, 2), "rack 3: spine 21-30 U31-40, leaf 19-20 U41-42; 24.8 of 40 kW");
}
END_TEST

/* GB200 NVL72: each node is its own 48U rack (133.8 kW, over a 40 kW
 * feed, flagged), its switches and the facility ones in a network rack. */
START_TEST(whole_rack_nodes)
{
	struct engine_result r = result("gb200-nvl72", "ib-ndr-400", 2, 0, 3, 0, 144, 0);
	struct engine_elevation e;
	engine_elevation(cat, &r, &e);
	ck_assert(e.whole_rack && e.over_kw);
	ck_assert_int_eq(e.compute_racks, 2);
	ck_assert_int_eq(e.network_racks, 1);
	ck_assert_int_eq(e.racks, 3);
	ck_assert_str_eq(rack_line(&e, 0), "rack 1: node 1 U1-48; 133.8 of 40 kW (over)");
	ck_assert_str_eq(rack_line(&e, 2), "rack 3: oob 1 U35, front-end 1-2 U36-39, leaf 1-3 U40-42; 7.7 of 40 kW");
}
END_TEST

/* A node over the rack's power still gets a rack, flagged; a facility
 * switch with no power figure takes units only, so it still goes in. */
START_TEST(node_over_the_rack_limit)
{
	struct engine_result r = result("hgx-h100-8", NULL, 2, 0, 0, 0, 0, 5);
	struct engine_elevation e;
	engine_elevation(cat, &r, &e);
	ck_assert(e.over_kw);
	ck_assert_int_eq(e.nodes_per_rack, 1);
	ck_assert_int_eq(e.racks, 2);
	ck_assert_str_eq(rack_line(&e, 0), "rack 1: node 1 U1-8, oob 1 U38, front-end 1-2 U39-42; 10.2 of 5 kW (over)");
}
END_TEST

/* Racks full of 2U PCIe L4 servers (21 a rack at 200 kW): 63 nodes leave
 * no room in their 3 racks, so the front-end pair (126 ports) and the two
 * OOB switches (63 ports) get a rack of their own; with a 64th node the
 * last compute rack has room for all four (the alike full racks are
 * passed as one run). */
START_TEST(facility_switches_where_there_is_room)
{
	struct engine_result r = result("pcie-l4-8", NULL, 63, 0, 0, 0, 0, 200);
	struct engine_elevation e;
	engine_elevation(cat, &r, &e);
	ck_assert_int_eq(e.nodes_per_rack, 21);
	ck_assert_int_eq(e.compute_racks, 3);
	ck_assert_int_eq(e.n_facility, 2);
	ck_assert_int_eq(e.facility[0].switches, 2);
	ck_assert_int_eq(e.facility[1].switches, 2);
	ck_assert_int_eq(e.facility_racks, 1);
	ck_assert_int_eq(e.racks, 4);
	ck_assert_str_eq(rack_line(&e, 1), "rack 2: node 22-42 U1-42; 44.1 of 200 kW");
	ck_assert_str_eq(rack_line(&e, 3), "rack 4: oob 1-2 U37-38, front-end 1-2 U39-42; 0.0 of 200 kW");

	r = result("pcie-l4-8", NULL, 64, 0, 0, 0, 0, 200);
	engine_elevation(cat, &r, &e);
	ck_assert_int_eq(e.compute_racks, 4);
	ck_assert_int_eq(e.facility_racks, 0);
	ck_assert_int_eq(e.racks, 4);
	ck_assert_str_eq(rack_line(&e, 0), "rack 1: node 1-21 U1-42; 44.1 of 200 kW");
	ck_assert_str_eq(rack_line(&e, 3), "rack 4: node 64 U1-2, oob 1-2 U37-38, front-end 1-2 U39-42; 2.1 of 200 kW");
}
END_TEST

/* The engine's own sizing: its rack count is the elevation's, and the
 * racks' draws add up to its power_kw. */
START_TEST(engine_racks_are_the_elevation)
{
	struct workload w;
	engine_workload_init(&w, cat);
	engine_workload_class_defaults(&w, WL_PRETRAIN);
	w.model = catalog_model(cat, "llama-3.1-70b");
	w.accel = catalog_accel(cat, "h100-sxm");
	w.gpus = 256;
	w.rack_kw = 30;
	struct engine_result r;
	engine_evaluate(cat, &w, w.accel, &r);
	ck_assert(r.fits);
	struct engine_elevation e;
	engine_elevation(cat, &r, &e);
	ck_assert_int_eq(e.racks, (int)r.racks);
	double sum = 0;
	int nodes = 0;
	for (int i = 0; i < e.racks; i++) {
		struct engine_rack_slot s[64];
		double kw;
		size_t k = engine_elevation_rack(&e, i, s, 64, &kw);
		ck_assert(kw <= 30 + 1e-9);
		for (size_t j = 0; j < k && j < 64; j++)
			nodes += s[j].kind == RACK_NODE || s[j].kind == RACK_SPARE;
		sum += kw;
	}
	ck_assert_int_eq(nodes, r.nodes + r.spare_nodes);
	/* The front-end and OOB switches are placed (their power_w, where the
	 * catalog gives it, in their racks' draws); the optics across racks
	 * have no rack of their own: the engine's power has them on top. */
	double optics_w = 0;
	long all_nodes = r.nodes + r.spare_nodes;
	for (size_t i = 0; i < cat->defaults.n_networks; i++) {
		const struct catalog_network *nw = &cat->defaults.networks[i];
		optics_w += r.racks > 1 ? (double)all_nodes * nw->ports_per_node * nw->optics_power_w : 0;
	}
	ck_assert_double_eq_tol(sum + optics_w / 1000, r.power_kw, 1e-6);
}
END_TEST

int main(void)
{
	cat = fixture_shipped_catalog();
	Suite *s = suite_create("rack");
	TAP_ADD(s, four_nodes_at_40_kw);
	TAP_ADD(s, fifteen_kw_racks_hold_one_node);
	TAP_ADD(s, spares_and_a_leaf_switch);
	TAP_ADD(s, switches_overflow_to_a_network_rack);
	TAP_ADD(s, whole_rack_nodes);
	TAP_ADD(s, node_over_the_rack_limit);
	TAP_ADD(s, facility_switches_where_there_is_room);
	TAP_ADD(s, engine_racks_are_the_elevation);
	int rc = tap_run(s);
	catalog_free(cat);
	return rc;
}
