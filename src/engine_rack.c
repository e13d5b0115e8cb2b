/*
 * engine_rack: the rack elevation (docs/design.md, "The rack elevation").
 *
 * The packing rule, in the order a data-centre engineer fills a row:
 * - a compute rack holds as many nodes as both its units
 *   (defaults.rack_units) and its power (--rack-kw, else defaults.rack_kw)
 *   allow, at the node's maximum draw (what the rack's feed must carry);
 *   at least one, flagged over_kw when a node alone is over the limit;
 * - nodes fill from the bottom (the heaviest part low), the working nodes
 *   first, then the spares, rack after rack;
 * - the scale-out switches (leaves, then spines) go from the top of the
 *   compute racks into the units and power the nodes leave, and what does
 *   not fit goes into network racks packed the same way;
 * - the facility networks' switches (front-end, then out-of-band:
 *   defaults.networks, as many as the quote buys) go below them, into the
 *   room the compute racks and then the network racks leave, rack after
 *   rack from the first, and what does not fit into racks of their own;
 * - a whole-rack node (GB200 NVL72) is a rack of its own, with its own
 *   power shelves: nothing is added to it, its switches go into network
 *   racks;
 * - a switch carries its share of the links' transceiver power, so the
 *   racks' draws add up to the result's power_kw (a facility switch draws
 *   its catalog power_w, none when no source gives it).
 * Every rack is counted in closed form (all full compute racks are alike)
 * or, for the facility switches, by a walk that takes a whole run of alike
 * racks at once when they have no room, so eng_cost() can call it for
 * every candidate.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

/* How many of `each` fit in `room` (whole ones; none for a negative room). */
static int how_many(double room, double each)
{
	if (!(room > 0))
		return 0;
	if (!(each > 0))
		return 1 << 20;
	double k = floor(room / each + 1e-9);
	return k > (1 << 20) ? 1 << 20 : (int)k;
}

static int imin(int a, int b)
{
	return a < b ? a : b;
}

/* Switches above `nodes` nodes in a compute rack: the room they leave. */
static int switch_room(const struct engine_elevation *e, int nodes, double limit_w)
{
	if (e->leaf_switches + e->spine_switches < 1 || e->whole_rack)
		return 0;
	int by_u = how_many(e->rack_u - nodes * e->node_u, e->switch_u);
	int by_w = how_many(limit_w - nodes * e->node_w, e->switch_w);
	return imin(by_u, by_w);
}

/* Rack i's scale-out switches: the number before its first, and how many
 * (compute racks from the top, every full one alike; the last takes the
 * rest). */
static void fabric_share(const struct engine_elevation *e, int i, int *first, int *count)
{
	int switches = e->leaf_switches + e->spine_switches;
	if (i < e->compute_racks) {
		long before = (long)i * e->switches_per_compute_rack;
		int f = before < e->switches_in_compute_racks ? (int)before : e->switches_in_compute_racks;
		int k = imin(e->switches_in_compute_racks - f, e->switches_per_compute_rack);
		if (i == e->compute_racks - 1)
			k = e->switches_in_compute_racks - f;
		*first = f;
		*count = k;
		return;
	}
	int j = i - e->compute_racks;
	int f = e->switches_in_compute_racks + j * e->switches_per_network_rack;
	*first = f;
	*count = f < switches ? imin(e->switches_per_network_rack, switches - f) : 0;
}

/* The units and watts rack i (a compute or network rack) leaves below its
 * nodes and scale-out switches; none in a whole-rack node. */
static void rack_room(const struct engine_elevation *e, int i, int *u, double *w)
{
	int first, k;
	fabric_share(e, i, &first, &k);
	int here = 0;
	if (i < e->compute_racks) {
		int all = e->nodes + e->spare_nodes;
		here = imin(e->nodes_per_rack, all - i * e->nodes_per_rack);
	}
	*u = e->rack_u - here * e->node_u - k * e->switch_u;
	*w = e->rack_kw * 1000.0 - here * e->node_w - k * e->switch_w;
	if (i < e->compute_racks && e->whole_rack)
		*u = 0;
}

/* The first rack after i that is not alike: the same nodes and scale-out
 * switches, so the same room (full compute racks with all their switches,
 * then the one with part, then none; the last compute rack; full network
 * racks, then the last). */
static int run_end(const struct engine_elevation *e, int i)
{
	int last_compute = e->compute_racks - 1;
	if (i < last_compute) {
		int per = e->switches_per_compute_rack;
		int full = per > 0 ? e->switches_in_compute_racks / per : 0;
		int end = i < full ? full : i == full && per > 0 && e->switches_in_compute_racks % per ? full + 1
									     : last_compute;
		return end > i && end <= last_compute ? end : i + 1;
	}
	int last = e->compute_racks + e->network_racks - 1;
	return i >= e->compute_racks && i < last ? last : i + 1;
}

/* Fills one rack's room with what is left of the facility switches, in
 * the networks' order: took[k] of each, left[] less them. */
static int fill_room(const struct engine_elevation *e, int u, double w, int *left, int *took)
{
	int n = 0;
	for (int k = 0; k < e->n_facility; k++) {
		const struct engine_facility *f = &e->facility[k];
		/* a switch with no power figure takes units only (it adds no
		 * draw, even to a rack a node alone is over) */
		int by_w = f->w > 0 ? how_many(w, f->w) : 1 << 20;
		int t = imin(left[k], imin(how_many(u, f->u), by_w));
		took[k] = t;
		left[k] -= t;
		u -= t * f->u;
		w -= t * f->w;
		n += t;
	}
	return n;
}

/* Walks the compute and network racks from the first, each taking what
 * is left of the facility switches: rack `want`'s share in took[] and the
 * numbers before its first of each in before[]; left[] what no such rack
 * holds.  A run of alike racks that takes none is passed whole, so the
 * walk is a step per switch placed plus one per run. */
static void facility_walk(const struct engine_elevation *e, int want, int *left, int *took,
			  int *before)
{
	int all_racks = e->compute_racks + e->network_racks;
	for (int k = 0; k < e->n_facility; k++) {
		left[k] = e->facility[k].switches;
		took[k] = before[k] = 0;
	}
	int tk[ENGINE_FACILITY_MAX];
	for (int i = 0; i < all_racks;) {
		int u;
		double w;
		rack_room(e, i, &u, &w);
		int left_before[ENGINE_FACILITY_MAX];
		memcpy(left_before, left, sizeof left_before);
		int n = fill_room(e, u, w, left, tk);
		if (i == want) {
			for (int k = 0; k < e->n_facility; k++) {
				took[k] = tk[k];
				before[k] = e->facility[k].switches - left_before[k];
			}
			return;
		}
		if (n > 0) {
			i++;
			continue;
		}
		int end = run_end(e, i);
		if (want > i && want < end) {
			for (int k = 0; k < e->n_facility; k++)
				before[k] = e->facility[k].switches - left[k];
			return;	/* rack `want` is alike: it takes none either */
		}
		bool any = false;
		for (int k = 0; k < e->n_facility; k++)
			any |= left[k] > 0;
		if (!any && want < 0)
			return;
		i = end;
	}
}

/* The facility racks: an empty rack each, filled in order, at least one
 * switch a rack (as a node alone over the limit). */
static int facility_racks(const struct engine_elevation *e, const int *left_in, int want, int *took,
			  int *before)
{
	int left[ENGINE_FACILITY_MAX], racks = 0;
	memcpy(left, left_in, sizeof left);
	for (;;) {
		bool any = false;
		for (int k = 0; k < e->n_facility; k++)
			any |= left[k] > 0;
		if (!any)
			return racks;
		int lb[ENGINE_FACILITY_MAX], tk[ENGINE_FACILITY_MAX];
		memcpy(lb, left, sizeof lb);
		if (fill_room(e, e->rack_u, e->rack_kw * 1000.0, left, tk) == 0) {
			for (int k = 0; k < e->n_facility; k++)
				if (left[k] > 0) {
					tk[k] = 1;
					left[k]--;
					break;
				}
		}
		if (racks == want) {
			for (int k = 0; k < e->n_facility; k++) {
				took[k] = tk[k];
				before[k] = e->facility[k].switches - lb[k];
			}
		}
		racks++;
	}
}

/* The facility networks' switches the quote buys (quote_networks()). */
static void facility_of(const struct catalog *c, long all_nodes, struct engine_elevation *e)
{
	const struct catalog_defaults *d = &c->defaults;
	for (size_t i = 0; i < d->n_networks && e->n_facility < ENGINE_FACILITY_MAX; i++) {
		const struct catalog_network *nw = &d->networks[i];
		long sw = eng_network_switches(nw, all_nodes);
		if (sw < 1)
			continue;
		e->facility[e->n_facility++] = (struct engine_facility){
			.kind = nw->role && !strcmp(nw->role, "oob") ? RACK_OOB : RACK_FRONTEND, .sku = nw->sku,
			.switches = sw > 1 << 20 ? 1 << 20 : (int)sw, .u = nw->rack_units,
			.w = nw->power_w > 0 ? nw->power_w : 0 };
	}
}

void engine_elevation(const struct catalog *c, const struct engine_result *r,
		      struct engine_elevation *e)
{
	memset(e, 0, sizeof *e);
	const struct catalog_platform *p = r ? r->platform : NULL;
	if (!p || r->nodes < 1)
		return;
	const struct catalog_defaults *d = &c->defaults;
	const struct catalog_fabric *f = r->fabric;
	e->platform = p;
	e->fabric = f;
	e->rack_u = (int)lround(d->rack_units.value);
	e->rack_kw = r->rack_kw > 0 ? r->rack_kw : d->rack_kw.value;
	e->rack_kw_set = r->rack_kw_set;
	e->whole_rack = p->whole_rack;
	e->nodes = r->nodes;
	e->spare_nodes = r->spare_nodes > 0 ? r->spare_nodes : 0;
	e->node_u = p->rack_units;
	e->node_w = p->max_power_w;
	e->pdus_per_rack = (int)lround(d->pdu_per_rack.value);
	int switches = 0;
	if (f) {
		e->leaf_switches = r->leaf_switches;
		e->spine_switches = r->spine_switches;
		switches = e->leaf_switches + e->spine_switches;
		e->switch_u = f->switch_rack_units;
		double link_w = r->fabric_copper ? f->copper_power_w : f->cable_power_w;
		e->switch_w = f->switch_power_w + (switches > 0 ? (double)r->cables * link_w / switches : 0);
		if (!eng_lists_nic(p, f))
			e->node_w += p->nic_count * f->nic_power_w;
	}
	double limit_w = e->rack_kw * 1000.0;
	int all = e->nodes + e->spare_nodes;
	e->over_kw = e->node_w > limit_w;
	if (e->whole_rack) {
		e->nodes_per_rack = 1;
	} else {
		int k = imin(how_many(e->rack_u, e->node_u), how_many(limit_w, e->node_w));
		e->nodes_per_rack = imin(k < 1 ? 1 : k, all);
	}
	e->compute_racks = (int)eng_ceil_div(all, e->nodes_per_rack);
	int last = all - (e->compute_racks - 1) * e->nodes_per_rack;
	e->switches_per_compute_rack = switch_room(e, e->nodes_per_rack, limit_w);
	long fitted = (long)(e->compute_racks - 1) * e->switches_per_compute_rack +
		      switch_room(e, last, limit_w);
	e->switches_in_compute_racks = fitted < switches ? (int)fitted : switches;
	int rest = switches - e->switches_in_compute_racks;
	if (rest > 0) {
		int per = imin(how_many(e->rack_u, e->switch_u), how_many(limit_w, e->switch_w));
		e->switches_per_network_rack = per < 1 ? 1 : per;
		e->network_racks = (int)eng_ceil_div(rest, e->switches_per_network_rack);
	}
	facility_of(c, all, e);
	int left[ENGINE_FACILITY_MAX], took[ENGINE_FACILITY_MAX], before[ENGINE_FACILITY_MAX];
	facility_walk(e, -1, left, took, before);
	e->facility_racks = facility_racks(e, left, -1, took, before);
	e->racks = e->compute_racks + e->network_racks + e->facility_racks;
}

static void put(struct engine_rack_slot *slots, size_t max, size_t *k,
		struct engine_rack_slot s, double *watts)
{
	if (*k < max)
		slots[*k] = s;
	(*k)++;
	*watts += s.watts;
}

/* Rack i's facility switches (each network's count and the numbers
 * before them) from unit `top` down. */
static void put_facility(const struct engine_elevation *e, int i, int top, struct engine_rack_slot *slots,
			 size_t max, size_t *k, double *watts)
{
	int left[ENGINE_FACILITY_MAX], took[ENGINE_FACILITY_MAX] = { 0 }, before[ENGINE_FACILITY_MAX] = { 0 };
	int racks = e->compute_racks + e->network_racks;
	facility_walk(e, i < racks ? i : -1, left, took, before);
	if (i >= racks)
		facility_racks(e, left, i - racks, took, before);
	for (int n = 0; n < e->n_facility; n++) {
		const struct engine_facility *f = &e->facility[n];
		for (int s = 0; s < took[n]; s++) {
			top -= f->u;
			put(slots, max, k, (struct engine_rack_slot){
				.kind = f->kind, .u = top + 1, .height = f->u,
				.number = before[n] + s + 1, .watts = f->w, .sku = f->sku }, watts);
		}
	}
}

/* Switches from number first + 1, count of them, from unit `top` down. */
static void put_switches(const struct engine_elevation *e, int first, int count, int top,
			 struct engine_rack_slot *slots, size_t max, size_t *k, double *watts)
{
	for (int s = 0; s < count; s++) {
		int number = first + s + 1;
		put(slots, max, k, (struct engine_rack_slot){
			.kind = number <= e->leaf_switches ? RACK_LEAF : RACK_SPINE,
			.u = top - (s + 1) * e->switch_u + 1, .height = e->switch_u,
			.number = number, .watts = e->switch_w }, watts);
	}
}

size_t engine_elevation_rack(const struct engine_elevation *e, int i,
			     struct engine_rack_slot *slots, size_t max, double *kw)
{
	size_t k = 0;
	double watts = 0;
	if (kw)
		*kw = 0;
	if (!e || i < 0 || i >= e->racks)
		return 0;
	int sw_first = 0, sw = 0;
	if (i < e->compute_racks + e->network_racks)
		fabric_share(e, i, &sw_first, &sw);
	put_switches(e, sw_first, sw, e->rack_u, slots, max, &k, &watts);
	put_facility(e, i, e->rack_u - sw * e->switch_u, slots, max, &k, &watts);
	if (i < e->compute_racks) {
		int all = e->nodes + e->spare_nodes;
		int first = i * e->nodes_per_rack;
		int here = imin(e->nodes_per_rack, all - first);
		for (int j = here - 1; j >= 0; j--) {
			int number = first + j + 1;
			put(slots, max, &k, (struct engine_rack_slot){
				.kind = number <= e->nodes ? RACK_NODE : RACK_SPARE,
				.u = 1 + j * e->node_u, .height = e->node_u,
				.number = number, .watts = e->node_w }, &watts);
		}
	}
	if (kw)
		*kw = watts / 1000.0;
	return k;
}

const char *engine_rack_kind_name(enum engine_rack_kind k)
{
	static const char *const names[RACK_KIND_COUNT] = {
		"node", "spare node", "leaf switch", "spine switch", "front-end switch",
		"out-of-band switch",
	};
	return (unsigned)k < RACK_KIND_COUNT ? names[k] : "?";
}

static const char *const short_names[RACK_KIND_COUNT] = {
	"node", "spare", "leaf", "spine", "front-end", "oob",
};

/* Appends with snprintf's rules, never past n. */
static size_t add(char *buf, size_t n, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t add(char *buf, size_t n, size_t at, const char *fmt, ...)
{
	if (at >= n)
		return at;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + at, n - at, fmt, ap);
	va_end(ap);
	return k < 0 ? at : at + (size_t)k;
}

#define LINE_SLOTS 64

/* Rack i's contents bottom up into buf from `at`; returns where it ended
 * and the rack's draw in *kw. */
static size_t contents(const struct engine_elevation *e, int i, char *buf, size_t n, size_t at,
		       double *kw)
{
	struct engine_rack_slot s[LINE_SLOTS];
	size_t k = engine_elevation_rack(e, i, s, LINE_SLOTS, kw);
	if (k > LINE_SLOTS)
		k = LINE_SLOTS;
	/* Bottom up, runs of one kind with consecutive numbers grouped. */
	for (size_t a = k; a > 0;) {
		size_t b = a - 1;
		while (b > 0 && s[b - 1].kind == s[b].kind && abs(s[b - 1].number - s[b].number) == 1 &&
		       (b + 1 == a || s[b - 1].number - s[b].number == s[b].number - s[b + 1].number))
			b--;
		const struct engine_rack_slot *lo = &s[a - 1], *hi = &s[b];
		int n_lo = imin(lo->number, hi->number), n_hi = lo->number + hi->number - n_lo;
		int u_hi = hi->u + hi->height - 1;
		at = add(buf, n, at, "%s%s %d", a == k ? "" : ", ", short_names[lo->kind], n_lo);
		if (n_hi != n_lo)
			at = add(buf, n, at, "-%d", n_hi);
		at = add(buf, n, at, " U%d", lo->u);
		if (u_hi != lo->u)
			at = add(buf, n, at, "-%d", u_hi);
		a = b;
	}
	return at;
}

char *engine_elevation_rack_contents(const struct engine_elevation *e, int i, char *buf, size_t n)
{
	double kw;
	if (buf && n > 0) {
		buf[0] = '\0';
		contents(e, i, buf, n, 0, &kw);
	}
	return buf;
}

char *engine_elevation_rack_line(const struct engine_elevation *e, int i, char *buf, size_t n)
{
	if (!buf || n == 0)
		return buf;
	buf[0] = '\0';
	double kw;
	size_t at = add(buf, n, 0, "rack %d: ", i + 1);
	at = contents(e, i, buf, n, at, &kw);
	add(buf, n, at, "; %.1f of %.0f kW%s", kw, e->rack_kw,
	    kw > e->rack_kw + 1e-9 ? " (over)" : "");
	return buf;
}
