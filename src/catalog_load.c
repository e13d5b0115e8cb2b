/*
 * catalog_load: reads a catalog folder into struct catalog and refuses it,
 * with every problem as "file:line:col: message", when anything is wrong.
 *
 * Validation is data-driven: each kind of file has a table of its keys
 * (dotted path, type, where it goes in the struct, range, required), so
 * every key is checked the same way and the table doubles as the list of
 * known keys for "did you mean" hints.  The rules follow catalog/SCHEMA.md;
 * ranges beyond the schema reject values no real part has (a 20 TB GPU, a
 * 300 kW board) because such a figure is a typo, and a typo in a catalog
 * quietly skews every recommendation made from it.
 */
#include "catalog.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_schema.h"
#include "ytree.h"

/* A folder with more files than this is refused before anything is read,
 * so a stray directory of generated files cannot exhaust memory. */
#define MAX_FILES 5000
#define MAX_FIELDS 192		/* rows in the largest table (defaults) */
#define KEY_MAX 120

/* ---- key tables (the types are in catalog_schema.h) ---- */

#define REQ CF_REQ
#define OPTGROUP CF_OPTGROUP
#define GT_MIN CF_GT_MIN
#define SRC CF_SOURCE
#define ZERO_OK CF_ZERO_OK

#define NUM(k, T, m, fl, lo, hi) \
	{ .key = k, .type = CF_NUM, .flags = (fl), .off = offsetof(T, m), .min = lo, .max = hi }
#define INT(k, T, m, fl, lo, hi) \
	{ .key = k, .type = CF_INT, .flags = (fl), .off = offsetof(T, m), .min = lo, .max = hi }
#define STR(k, T, m, fl) { .key = k, .type = CF_STR, .flags = (fl), .off = offsetof(T, m) }
#define DATE(k, T, m, fl) { .key = k, .type = CF_DATE, .flags = (fl), .off = offsetof(T, m) }
#define ID(T) { .key = "id", .type = CF_ID, .flags = REQ, .off = offsetof(T, id) }
#define SOURCES(T) { .key = "sources", .type = CF_STRLIST, .flags = REQ | SRC, \
		     .off = offsetof(T, sources), .off_n = offsetof(T, n_sources) }
/* A sourced figure {value, source} is two rows, so a missing or unknown
 * key inside it reads like any other. */
#define SOURCED(k, T, m, fl, lo, hi) \
	NUM(k ".value", T, m.value, (fl) | REQ, lo, hi), \
	STR(k ".source", T, m.source, (fl) | REQ | SRC), \
	{ .key = k ".calibrated_from", .type = CF_IDLIST, .off = offsetof(T, m.calibrated_from) }
/* One of an enum's words (catalog_schema.h); the message lists them. */
#define ENUM(k, T, m, fl, words, n) \
	{ .key = k, .type = CF_ENUM, .flags = (fl), .off = offsetof(T, m), .names = words, .count = n }
/* A list of mappings, each read with the table sub: the array at m, its
 * length at n_m. */
#define LIST(k, T, m, fl, sub_) { .key = k, .type = CF_LIST, .flags = (fl), .off = offsetof(T, m), \
				  .off_n = offsetof(T, n_##m), .sub = &(sub_) }
/* The table of a list's elements (a file kind's is SCHEMA, below). */
#define LIST_SCHEMA(what, f, T) { what, f, sizeof f / sizeof f[0], sizeof(T), false, 0, NULL }
/* A part bought by the unit, as a fabric names its cable and NIC.  Its
 * price is optional: absent when no source gives one, and the BOM line is
 * then unpriced until a price list fills it (0 is refused: absent says it). */
#define PART(k, T, m, max_usd, max_w) \
	STR(k ".sku", T, m##_sku, REQ), \
	STR(k ".description", T, m##_description, REQ), \
	NUM(k ".price_usd", T, m##_price_usd, 0, 0.01, max_usd), \
	NUM(k ".power_w", T, m##_power_w, REQ, 0, max_w)
#define PRICE(T, hi) \
	NUM("price.usd", T, price.usd, REQ, 0, hi), \
	DATE("price.date", T, price.date, REQ), \
	STR("price.source", T, price.source, REQ | SRC)

/* A rental price {usd_per_gpu_hour, date, source}: the mapping is
 * optional (no first-hand figure: absent), its keys required in it.  A
 * GPU-hour above USD 1,000 is a typo. */
#define RENT(k, i) \
	NUM("rent_" k ".usd_per_gpu_hour", A, rent[i].usd, REQ | OPTGROUP, 0.01, 1000), \
	DATE("rent_" k ".date", A, rent[i].date, REQ | OPTGROUP), \
	STR("rent_" k ".source", A, rent[i].source, REQ | OPTGROUP | SRC)

#define PEAK(p) NUM("peak_tflops." #p, struct catalog_accel, peak_tflops[PREC_##p##_IDX], \
		    0, 0.001, 1e6)
/* Peaks from 1 GFLOPS to 1e6 TFLOPS (fifty times the largest accelerator
 * shipping).  Every range below is physical, not merely positive: a figure
 * the engine divides by must not be 1e-300 (issue 13 item 5: rack_kw 1e-300
 * printed a 300-digit capex). */
#define PREC_fp64_IDX PREC_FP64
#define PREC_fp32_IDX PREC_FP32
#define PREC_tf32_IDX PREC_TF32
#define PREC_bf16_IDX PREC_BF16
#define PREC_fp16_IDX PREC_FP16
#define PREC_fp8_IDX PREC_FP8
#define PREC_int8_IDX PREC_INT8
#define PREC_int4_IDX PREC_INT4
#define PREC_fp4_IDX PREC_FP4

#define PT struct catalog_partition
static const struct catalog_field partition_fields[] = {
	STR("profile", PT, profile, REQ),
	NUM("memory_gb", PT, memory_gb, REQ, 1, 12000),
	/* MIG has 7 compute slices (A100, H100, H200, B200, B300), the RTX PRO
	 * 6000 4; 64 leaves room for a vendor with finer slices. */
	INT("compute_slices", PT, compute_slices, REQ, 1, 64),
	INT("max_per_gpu", PT, max_per_gpu, REQ, 1, 64),
};
#undef PT
const struct catalog_schema catalog_partition_schema =
	LIST_SCHEMA("partition", partition_fields, struct catalog_partition);

#define AP struct catalog_ar_point
static const struct catalog_field ar_point_fields[] = {
	/* a message of one byte to 64 GB; a call of 0.1 us to 100 s */
	NUM("bytes", AP, bytes, REQ, 1, 64e9),
	NUM("us", AP, us, REQ, 0.1, 1e8),
};
#undef AP
const struct catalog_schema catalog_ar_point_schema =
	LIST_SCHEMA("all-reduce point", ar_point_fields, struct catalog_ar_point);

#define A struct catalog_accel
static const struct catalog_field accel_fields[] = {
	ID(A),
	STR("name", A, name, REQ),
	STR("vendor", A, vendor, REQ),
	STR("architecture", A, architecture, REQ),
	ENUM("form_factor", A, form, REQ, catalog_form_names, FORM_COUNT),
	NUM("memory.capacity_gb", A, mem_gb, REQ, 1, 10000),
	STR("memory.type", A, mem_type, REQ),
	NUM("memory.bandwidth_tb_s", A, mem_bw_tb_s, REQ, 0.01, 1000),
	NUM("memory.usable_fraction", A, mem_usable_fraction, REQ, 0.05, 1),
	/* Optional; its range against capacity_gb is in check_accel(). */
	NUM("memory.addressable_gb", A, mem_addressable_gb, 0, 1, 12000),
	PEAK(fp64), PEAK(fp32), PEAK(tf32),
	{ .key = "peak_tflops.bf16", .type = CF_NUM, .flags = REQ,
	  .off = offsetof(A, peak_tflops[PREC_BF16]), .min = 0.001, .max = 1e6 },
	PEAK(fp16), PEAK(fp8), PEAK(int8), PEAK(int4), PEAK(fp4),
	STR("link.kind", A, link_kind, REQ),
	NUM("link.bandwidth_gb_s", A, link_gb_s, REQ, 0.1, 100000),
	INT("link.domain_size", A, link_domain, REQ, 1, 100000),
	SOURCED("link.allreduce_latency_us", A, link_ar_lat, OPTGROUP, 0.1, 1000),
	INT("link.allreduce_curve.gpus", A, ar_curve_gpus, REQ | OPTGROUP, 2, 100000),
	STR("link.allreduce_curve.source", A, ar_curve_source, REQ | OPTGROUP | SRC),
	LIST("link.allreduce_curve.points", A, ar_curve, REQ | OPTGROUP, catalog_ar_point_schema),
	STR("host_interface", A, host_interface, REQ),
	/* Optional: PCIe x16 is 64 (Gen4) or 128 (Gen5) GB/s both ways. */
	NUM("host_pcie_gb_s", A, host_pcie_gb_s, 0, 1, 2048),
	NUM("power_w", A, power_w, REQ, 1, 100000),
	/* An empty list: the part has no MIG-like partitions. */
	LIST("partitions", A, partitions, REQ, catalog_partition_schema),
	ENUM("stack", A, stack, REQ, catalog_stack_names, STACK_COUNT),
	SOURCED("efficiency.compute", A, eff_compute, 0, 0.01, 1),
	SOURCED("efficiency.memory_bw", A, eff_mem_bw, 0, 0.01, 1),
	SOURCED("efficiency.link", A, eff_link, 0, 0.01, 1),
	SOURCED("efficiency.training", A, eff_training, OPTGROUP, 0.01, 1),
	SOURCED("efficiency.compute_fp4", A, eff_compute_fp4, OPTGROUP, 0.01, 1),
	SOURCED("efficiency.training_fp8", A, eff_training_fp8, OPTGROUP, 0.01, 1),
	SOURCED("efficiency.training_fp4", A, eff_training_fp4, OPTGROUP, 0.01, 1),
	PRICE(A, 1e7),
	RENT("on_demand", 0), RENT("reserved_1y", 1), RENT("reserved_3y", 2),
	SOURCES(A),
};
#undef A

#define L struct catalog_bom_line
static const struct catalog_field bom_fields[] = {
	STR("sku", L, sku, REQ),
	/* The categories the BOM groups lines by (docs/design.md, "The bill of materials"). */
	{ .key = "category", .type = CF_CHOICE, .flags = REQ, .off = offsetof(L, category),
	  .choices = "accelerator, server, network, cable, rack, power, support, service" },
	STR("description", L, description, REQ),
	INT("qty", L, qty, REQ, 1, 10000),
	NUM("unit_price_usd", L, unit_price_usd, REQ, 0, 1e8),
	NUM("power_w", L, power_w, REQ, 0, 100000),
	STR("source", L, source, REQ | SRC),
};
#undef L
const struct catalog_schema catalog_bom_schema =
	LIST_SCHEMA("BOM line", bom_fields, struct catalog_bom_line);

#define P struct catalog_platform
static const struct catalog_field platform_fields[] = {
	ID(P),
	STR("name", P, name, REQ),
	{ .key = "accelerator", .type = CF_ACCEL_REF, .flags = REQ, .off = offsetof(P, accel_id),
	  .off_n = offsetof(P, accel) },
	INT("gpus_per_node", P, gpus_per_node, REQ, 1, 128),
	ENUM("topology", P, topology, REQ, catalog_topology_names, TOPO_COUNT),
	INT("nics.count", P, nic_count, REQ, 0, 1024),
	NUM("nics.speed_gbit", P, nic_gbit, REQ, 1, 10000),
	NUM("nics.split_gbit", P, nic_split_gbit, 0, 1, 10000),
	STR("nics.kind", P, nic_kind, REQ),
	/* the fabric rule is this list, never the kind's wording (checked in
	 * check_platform: infiniband or ethernet, each once) */
	{ .key = "nics.fabrics", .type = CF_STRLIST, .flags = REQ, .off = offsetof(P, nic_fabrics),
	  .off_n = offsetof(P, n_nic_fabrics) },
	{ .key = "nics.on_accelerator", .type = CF_BOOL, .off = offsetof(P, nics_on_accel) },
	INT("rack_units", P, rack_units, REQ, 1, 48),
	NUM("max_power_w", P, max_power_w, REQ, 10, 1e6),
	{ .key = "whole_rack", .type = CF_BOOL, .off = offsetof(P, whole_rack) },
	{ .key = "cooling", .type = CF_CHOICE, .off = offsetof(P, cooling), .choices = "air, liquid" },
	STR("sku", P, sku, REQ),
	PRICE(P, 1e8),
	LIST("bom", P, bom, REQ, catalog_bom_schema),
	SOURCES(P),
};
#undef P

#define F struct catalog_fabric
static const struct catalog_field fabric_fields[] = {
	ID(F),
	STR("name", F, name, REQ),
	{ .key = "kind", .type = CF_CHOICE, .flags = REQ, .off = offsetof(F, kind),
	  .choices = "infiniband, ethernet" },
	NUM("port_speed_gbit", F, port_gbit, REQ, 1, 10000),
	{ .key = "breakout", .type = CF_BOOL, .off = offsetof(F, breakout) },
	STR("switch.sku", F, switch_sku, REQ),
	STR("switch.name", F, switch_name, REQ),
	INT("switch.radix", F, switch_radix, REQ, 4, 10000),
	INT("switch.rack_units", F, switch_rack_units, REQ, 1, 48),
	NUM("switch.power_w", F, switch_power_w, REQ, 0, 100000),
	NUM("switch.price_usd", F, switch_price_usd, 0, 0.01, 1e8),	/* as PART's */
	PART("cable", F, cable, 1e6, 1000),
	STR("copper.sku", F, copper_sku, 0),
	STR("copper.description", F, copper_description, 0),
	NUM("copper.price_usd", F, copper_price_usd, 0, 0.01, 1e6),
	NUM("copper.power_w", F, copper_power_w, 0, 0, 1000),
	PART("nic", F, nic, 1e6, 1000),
	SOURCED("efficiency", F, efficiency, 0, 0.01, 1),
	NUM("latency_us", F, latency_us, REQ | GT_MIN, 0, 1e6),
	SOURCES(F),
};
#undef F

/* catalog/serving-stacks/ID.yaml: where a serving stack runs and its
 * figures there (docs/accuracy.md, "Calibration entries for the serving
 * stacks").  compute is a factor on the accelerator's own serving share,
 * which was calibrated on its vendor's default stack (factor 1 there);
 * 0.05 to 2: a stack a twentieth as fast, or twice as fast, as the one the
 * accelerator was measured on.  Fixed costs from 1 us to 1 s an iteration,
 * 1 ns to 1 ms a layer; each optional on its own (absent: the
 * defaults').  kv_free_fraction, optional: a stack that sizes its KV cache
 * as a share of the memory left after loading (absent: a share of the
 * whole, the accelerator's usable_fraction).  activation_layers, optional:
 * activation buffers of that many layers at the token budget (1 to 1000
 * layers; absent: defaults.serving_workspace_gb).  window_kv_kept, optional:
 * the share of a sliding-window layer's tokens past its window its KV cache
 * stores (0 to 1; absent: 0, the window only).  attention_dp, optional:
 * 1 when the stack runs attention data parallel with expert parallel, so
 * the layout search offers DEP (its only value; absent: only forced). */
#define SP struct catalog_stack_platform
static const struct catalog_field stack_platform_fields[] = {
	ENUM("platform", SP, platform, REQ, catalog_stack_names, STACK_COUNT),
	{ .key = "default", .type = CF_BOOL, .off = offsetof(SP, is_default) },
	SOURCED("compute", SP, compute, 0, 0.05, 2),
	SOURCED("step_overhead_us", SP, step_overhead_us, OPTGROUP, 1, 1e6),
	SOURCED("layer_overhead_us", SP, layer_overhead_us, OPTGROUP, 0.001, 1000),
	SOURCED("kv_free_fraction", SP, kv_free_fraction, OPTGROUP, 0.05, 1),
	SOURCED("activation_layers", SP, activation_layers, OPTGROUP, 1, 1000),
	SOURCED("window_kv_kept", SP, window_kv_kept, OPTGROUP, 0, 1),
	SOURCED("attention_dp", SP, attention_dp, OPTGROUP, 1, 1),
};
#undef SP
const struct catalog_schema catalog_stack_platform_schema =
	LIST_SCHEMA("platform entry", stack_platform_fields, struct catalog_stack_platform);

#define SS struct catalog_serving_stack
static const struct catalog_field serving_stack_fields[] = {
	ID(SS),
	STR("name", SS, name, REQ),
	LIST("runs_on", SS, runs_on, REQ, catalog_stack_platform_schema),
	SOURCES(SS),
};
#undef SS

/* catalog/training-stacks/ID.yaml: where a training stack runs and its own
 * share of the peak per accelerator family and precision, in place of the
 * accelerators' efficiency.training* (docs/accuracy.md, "A training share
 * per stack"); a family or precision it has no figure for takes the
 * accelerator's. */
#define TP struct catalog_train_platform
static const struct catalog_field train_platform_fields[] = {
	ENUM("platform", TP, platform, REQ, catalog_stack_names, STACK_COUNT),
	{ .key = "default", .type = CF_BOOL, .off = offsetof(TP, is_default) },
};
#undef TP
const struct catalog_schema catalog_train_platform_schema =
	LIST_SCHEMA("platform entry", train_platform_fields, struct catalog_train_platform);

#define TE struct catalog_train_share
static const struct catalog_field train_share_fields[] = {
	STR("family", TE, family, REQ),
	ENUM("precision", TE, precision, REQ, catalog_train_prec_names, TPREC_COUNT),
	SOURCED("training", TE, share, 0, 0.01, 1),
};
#undef TE
const struct catalog_schema catalog_train_share_schema =
	LIST_SCHEMA("efficiency entry", train_share_fields, struct catalog_train_share);

#define TS struct catalog_training_stack
static const struct catalog_field training_stack_fields[] = {
	ID(TS),
	STR("name", TS, name, REQ),
	LIST("runs_on", TS, runs_on, REQ, catalog_train_platform_schema),
	LIST("efficiency", TS, efficiency, 0, catalog_train_share_schema),
	ENUM("dp_overlap.mode", TS, dp_overlap, REQ | OPTGROUP, catalog_dp_overlap_names, DPO_COUNT),
	STR("dp_overlap.source", TS, dp_overlap_source, REQ | OPTGROUP | SRC),
	SOURCED("moe_host_layer_ms", TS, moe_host_layer_ms, OPTGROUP, 0.001, 1000),
	SOURCES(TS),
};
#undef TS

#define M struct catalog_model
/* The figures come from the table the scenario's custom_model, the wizard
 * and the engine's bounds share (CATALOG_MODEL_FIGURES in catalog.h). */
#define MF_FLAGS(cat) (((cat) & CATALOG_MF_REQ ? REQ : ZERO_OK) | ((cat) & CATALOG_MF_GROUP ? OPTGROUP : 0))
#define MF_ROW(id, k, member, t, lo, hi, cat, custom, label, unit, step, hint) \
	{ .key = k, .type = (t) == MFT_BILLIONS ? CF_NUM : (t) == MFT_LONG ? CF_LONG : CF_INT, \
	  .flags = MF_FLAGS(cat), .off = offsetof(M, member), .min = lo, .max = hi, \
	  .scale = (t) == MFT_BILLIONS ? 1e9 : 0 },
static const struct catalog_field model_fields[] = {
	ID(M),
	STR("name", M, name, REQ),
	STR("family", M, family, REQ),
	CATALOG_MODEL_FIGURES(MF_ROW)
	SOURCES(M),
};
#undef MF_ROW
#undef MF_FLAGS
#undef M

#define LI struct catalog_licence
static const struct catalog_field licence_fields[] = {
	STR("sku", LI, sku, REQ),
	STR("name", LI, name, REQ),
	STR("vendor", LI, vendor, REQ),
	NUM("usd_per_gpu_year", LI, usd_per_gpu_year, REQ, 1, 1e6),
	DATE("date", LI, date, REQ),
	STR("source", LI, source, REQ | SRC),
};
#undef LI
const struct catalog_schema catalog_licence_schema =
	LIST_SCHEMA("licence", licence_fields, struct catalog_licence);

#define NW struct catalog_network
static const struct catalog_field network_fields[] = {
	{ .key = "role", .type = CF_CHOICE, .flags = REQ, .off = offsetof(NW, role),
	  .choices = "frontend, oob" },
	STR("switch.sku", NW, sku, REQ),
	STR("switch.name", NW, name, REQ),
	INT("switch.ports", NW, ports, REQ, 1, 10000),
	/* a redundant pair is bought whole: 2; absent: 1 */
	INT("switch.min", NW, min_switches, 0, 1, 16),
	INT("ports_per_node", NW, ports_per_node, REQ, 1, 64),
	INT("switch.rack_units", NW, rack_units, REQ, 1, 48),
	/* Prices and power only where a source gives them: absent, the line
	 * is quoted without a price (a price list gives it) and the switch
	 * adds no power (its BOM line says so). */
	NUM("switch.power_w", NW, power_w, 0, 1, 100000),
	NUM("switch.price_usd", NW, price_usd, 0, 0.01, 1e8),
	STR("copper.sku", NW, copper_sku, REQ),
	STR("copper.description", NW, copper_description, REQ),
	NUM("copper.price_usd", NW, copper_price_usd, 0, 0.01, 1e6),
	STR("optics.sku", NW, optics_sku, REQ),
	STR("optics.description", NW, optics_description, REQ),
	NUM("optics.price_usd", NW, optics_price_usd, 0, 0.01, 1e6),
	NUM("optics.power_w", NW, optics_power_w, 0, 0.01, 1000),
	SOURCES(NW),
};
#undef NW
const struct catalog_schema catalog_network_schema =
	LIST_SCHEMA("network", network_fields, struct catalog_network);

/* defaults.yaml: the rows come from CATALOG_DEFAULTS, the ranges from the
 * unit (see default_range). */
#define D struct catalog_defaults
static const struct catalog_field default_fields[] = {
	STR("version", D, version, REQ),
#define X(name, unit, doc) SOURCED(#name, D, name, 0, 0, 0),
	CATALOG_DEFAULTS(X)
#undef X
	/* Optional: software sold per GPU per year. */
	LIST("licences", D, licences, 0, catalog_licence_schema),
	/* Optional: the front-end and out-of-band networks (engine_quote()). */
	LIST("networks", D, networks, 0, catalog_network_schema),
};
#undef D

static void check_accel(struct catalog_load_ctx *x, void *item, const struct ynode *root);
static void check_platform(struct catalog_load_ctx *x, void *item, const struct ynode *root);
static void check_model(struct catalog_load_ctx *x, void *item, const struct ynode *root);
static void check_serving_stack(struct catalog_load_ctx *x, void *item, const struct ynode *root);
static void check_training_stack(struct catalog_load_ctx *x, void *item, const struct ynode *root);

#define SCHEMA(what, f, T, check) \
	{ what, f, sizeof f / sizeof f[0], sizeof(T), true, offsetof(T, file), check }
const struct catalog_schema catalog_accel_schema =
	SCHEMA("accelerator", accel_fields, struct catalog_accel, check_accel);
const struct catalog_schema catalog_platform_schema =
	SCHEMA("platform", platform_fields, struct catalog_platform, check_platform);
const struct catalog_schema catalog_fabric_schema =
	SCHEMA("fabric", fabric_fields, struct catalog_fabric, NULL);
const struct catalog_schema catalog_model_schema =
	SCHEMA("model", model_fields, struct catalog_model, check_model);
const struct catalog_schema catalog_serving_stack_schema =
	SCHEMA("serving stack", serving_stack_fields, struct catalog_serving_stack, check_serving_stack);
const struct catalog_schema catalog_training_stack_schema =
	SCHEMA("training stack", training_stack_fields, struct catalog_training_stack, check_training_stack);
const struct catalog_schema catalog_defaults_schema =
	SCHEMA("defaults", default_fields, struct catalog_defaults, NULL);

_Static_assert(sizeof default_fields / sizeof default_fields[0] <= MAX_FIELDS,
	       "raise MAX_FIELDS");
_Static_assert(sizeof accel_fields / sizeof accel_fields[0] <= MAX_FIELDS,
	       "raise MAX_FIELDS");

#define KIND(d, s, arr, T, opt) { d, &s, offsetof(struct catalog, arr), \
	offsetof(struct catalog, n_##arr), offsetof(T, id), offsetof(T, line), opt }
const struct catalog_kind catalog_kinds[CATALOG_N_KINDS] = {
	KIND("accelerators", catalog_accel_schema, accels, struct catalog_accel, false),
	KIND("platforms", catalog_platform_schema, platforms, struct catalog_platform, false),
	KIND("fabrics", catalog_fabric_schema, fabrics, struct catalog_fabric, false),
	KIND("models", catalog_model_schema, models, struct catalog_model, false),
	/* a catalog without it serves on the figures of its accelerators alone */
	KIND("serving-stacks", catalog_serving_stack_schema, serving_stacks,
	     struct catalog_serving_stack, true),
	/* without it every accelerator trains on its own figures */
	KIND("training-stacks", catalog_training_stack_schema, training_stacks,
	     struct catalog_training_stack, true),
};

/* ---- error collection ---- */

struct pending {
	int line, col;
	size_t seq;
	char *msg;
};

struct catalog_load_ctx {
	struct catalog *cat;
	struct catalog_errors *errs;
	size_t kind;			/* index into kinds of the folder being read */
	const char *file;		/* path of the file being read, for messages */
	const char *stem;		/* its name without .yaml: the expected id */
	/* One file's problems, sorted by position before they are kept, so
	 * the user reads them top to bottom whatever order the checks ran. */
	struct pending pend[CATALOG_MAX_ERRORS];
	size_t npend;
	bool pend_over;
	bool oom;
};

static bool errs_full(const struct catalog_load_ctx *x)
{
	return x->errs->n >= CATALOG_MAX_ERRORS;
}

static void add_error(struct catalog_load_ctx *x, char *msg)
{
	if (!catalog_errors_add(x->errs, msg))
		x->oom = true;
}

static char *vformat(const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return NULL;
	char *s = malloc((size_t)n + 1);
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(fmt, ap);
	va_end(ap);
	return s;
}

/* A problem at node n of the current file (n NULL: the file as a whole). */
static void err_at(struct catalog_load_ctx *x, const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void err_at(struct catalog_load_ctx *x, const struct ynode *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *what = vformat(fmt, ap);
	va_end(ap);
	char *msg = NULL, *safe = NULL;
	/* Messages quote values from the file: keep them inert on a terminal. */
	if (what && (safe = ytree_escape_dup(what)))
		msg = n ? format("%s:%d:%d: %s", x->file, n->line, n->col, safe)
			: format("%s: %s", x->file, safe);
	free(what);
	free(safe);
	if (!msg) {
		x->oom = true;
		return;
	}
	if (x->npend == CATALOG_MAX_ERRORS) {
		x->pend_over = true;
		free(msg);
		return;
	}
	x->pend[x->npend] = (struct pending){ n ? n->line : 0, n ? n->col : 0, x->npend, msg };
	x->npend++;
}

static int pending_cmp(const void *a, const void *b)
{
	const struct pending *p = a, *q = b;
	if (p->line != q->line)
		return p->line < q->line ? -1 : 1;
	if (p->col != q->col)
		return p->col < q->col ? -1 : 1;
	return p->seq < q->seq ? -1 : p->seq > q->seq;
}

static void flush_file_errors(struct catalog_load_ctx *x)
{
	qsort(x->pend, x->npend, sizeof x->pend[0], pending_cmp);
	for (size_t i = 0; i < x->npend; i++)
		add_error(x, x->pend[i].msg);
	if (x->pend_over)
		x->errs->truncated = true;
	x->npend = 0;
	x->pend_over = false;
}

/* ---- "did you mean" ---- */

struct suggest {
	const char *best;
	size_t best_len;
	int dist;
};

static void suggest_try(struct suggest *s, const char *word, const char *cand, size_t len)
{
	int d = catalog_edit_distance(word, cand, len);
	if (d <= 2 && d < s->dist) {
		s->best = cand;
		s->best_len = len;
		s->dist = d;
	}
}

/* ---- walking a mapping with a table ---- */

/* Is key inside the mapping at prefix? */
static bool under(const char *key, const char *prefix, size_t plen)
{
	/* inline rather than strncmp: this runs for every row of every
	 * mapping of every file */
	for (size_t i = 0; i < plen; i++)
		if (key[i] != prefix[i])
			return false;
	return true;
}

/* Length of key's component after the prefix (up to the next dot), and
 * whether more follows (a group rather than a leaf). */
static size_t component(const char *key, size_t plen, bool *group)
{
	const char *dot = strchr(key + plen, '.');
	*group = dot != NULL;
	return dot ? (size_t)(dot - key) - plen : strlen(key + plen);
}

/* "capacity_gb, type, ..." : the keys a mapping at prefix may hold. */
static void list_keys(const struct catalog_schema *s, const char *prefix, char *buf, size_t sz)
{
	size_t plen = strlen(prefix), used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < s->n; i++) {
		const char *k = s->f[i].key;
		if (!under(k, prefix, plen))
			continue;
		bool group;
		size_t len = component(k, plen, &group);
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++) {
			const char *o = s->f[j].key;
			bool g2;
			dup = under(o, prefix, plen) && component(o, plen, &g2) == len &&
			      !strncmp(o + plen, k + plen, len);
		}
		if (dup)
			continue;
		int n = snprintf(buf + used, sz - used, "%s%.*s", used ? ", " : "", (int)len,
				 k + plen);
		if (n < 0 || (size_t)n >= sz - used)
			return;
		used += (size_t)n;
	}
}

static void *at(void *base, size_t off)
{
	return (char *)base + off;
}

static char *dup_str(struct catalog_load_ctx *x, const char *s)
{
	char *d = strdup(s);
	if (!d)
		x->oom = true;
	return d;
}

/* A string value: any scalar but an empty or null one. */
static const char *want_string(struct catalog_load_ctx *x, const struct catalog_field *f, const struct ynode *v)
{
	char what[80];
	if (v->kind != YN_SCALAR || ynode_is_null(v) || !v->scalar[0]) {
		err_at(x, v, "%s: expected a string, got %s", f->key,
		       ynode_describe(v, what, sizeof what));
		return NULL;
	}
	return v->scalar;
}

/* "2024-06" or "2024-06-30": the price date a quote is judged by. */
bool catalog_date_ok(const char *s)
{
	size_t len = strlen(s);
	if (len != 7 && len != 10)
		return false;
	for (size_t i = 0; i < len; i++) {
		bool dash = i == 4 || i == 7;
		if (dash ? s[i] != '-' : (s[i] < '0' || s[i] > '9'))
			return false;
	}
	int month = (s[5] - '0') * 10 + (s[6] - '0');
	int day = len == 10 ? (s[8] - '0') * 10 + (s[9] - '0') : 1;
	return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

static bool in_choices(const char *s, const char *choices)
{
	size_t len = strlen(s);
	for (const char *c = choices; *c;) {
		size_t n = strcspn(c, ",");
		if (n == len && !strncmp(c, s, len))
			return true;
		c += n;
		c += strspn(c, ", ");
	}
	return false;
}

/* defaults.yaml ranges by unit: what a sane assumption can be. */
static void default_range(const char *key, double *lo, double *hi, unsigned *flags, bool *integer)
{
	static const struct {
		const char *unit;
		double lo, hi;
		unsigned flags;
		bool integer;
	} units[] = {
		{ "ratio", 0.001, 1, 0, false },
		{ "GB", 0, 10000, 0, false },
		{ "us", 0, 1e6, 0, false },
		{ "GB/s", 0.1, 100000, 0, false },
		{ "bytes", 0, 1000, 0, false },
		{ "bits", 1, 64, 0, false },
		{ "count", 0, 1000, 0, true },
		{ "seqs", 1, 1e6, 0, true },
		{ "tokens", 1, 1e7, 0, true },
		{ "USD/kWh", 0, 10, 0, false },
		{ "years", 0.1, 50, 0, false },
		{ "USD/kW/month", 0, 100000, 0, false },
		{ "USD/GPU/year", 0, 1e7, 0, false },
		{ "kW", 0.1, 10000, 0, false },
		{ "U", 1, 100, 0, true },
		{ "USD", 0, 1e9, 0, false },
		{ "nodes", 0, 10000, 0, true },
		{ "GPUs", 1, 100000, 0, true },
		{ "per day", 0, 1000, 0, false },
		{ "min", 0, 10000, 0, false },
	};
	/* Ratios that are not shares of something. */
	static const struct {
		const char *name;
		double lo, hi;
		unsigned flags;
	} special[] = {
		{ "pue", 1, 5, 0 },			/* 1.0 is a perfect data centre */
		{ "training_overlap", 0, 1, 0 },	/* 0: nothing overlaps */
		{ "support_fraction_per_year", 0, 1, 0 },	/* 0: no support line */
		{ "prefill_efficiency", 0.01, 4, 0 },	/* a factor on eff_compute */
		{ "serving_overlap", 0, 1, 0 },		/* 0: memory and compute add up */
		{ "power_clock_exponent", 0.1, 10, 0 },	/* 1 linear, 3 the cube law */
	};
	static const struct {
		const char *name, *unit;
	} unit_of[] = {
#define X(name, unit, doc) { #name, unit },
		CATALOG_DEFAULTS(X)
#undef X
	};
	*lo = 0, *hi = 1e9, *flags = 0, *integer = false;
	size_t klen = strcspn(key, ".");
	for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
		if (strlen(special[i].name) == klen && !strncmp(special[i].name, key, klen)) {
			*lo = special[i].lo, *hi = special[i].hi, *flags = special[i].flags;
			return;
		}
	}
	for (size_t i = 0; i < sizeof unit_of / sizeof unit_of[0]; i++) {
		if (strlen(unit_of[i].name) != klen || strncmp(unit_of[i].name, key, klen))
			continue;
		for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
			if (!strcmp(units[u].unit, unit_of[i].unit)) {
				*lo = units[u].lo, *hi = units[u].hi;
				*flags = units[u].flags, *integer = units[u].integer;
				return;
			}
		}
	}
}

/* 1000000 rather than 1e+06 in messages. */
static const char *fmt_num(double v, char *buf, size_t sz)
{
	if (v == (double)(long long)v && v > -1e15 && v < 1e15)
		snprintf(buf, sz, "%lld", (long long)v);
	else
		snprintf(buf, sz, "%g", v);
	return buf;
}

static bool range_ok(struct catalog_load_ctx *x, const struct catalog_field *f, const struct ynode *v, double val,
		     double lo, double hi, unsigned flags)
{
	bool gt = flags & GT_MIN;
	if (((gt ? val > lo : val >= lo) && val <= hi) || ((flags & ZERO_OK) && val == 0))
		return true;
	char a[32], b[32];
	err_at(x, v, "%s must be in %c%s, %s], got %s", f->key, gt ? '(' : '[',
	       fmt_num(lo, a, sizeof a), fmt_num(hi, b, sizeof b), v->scalar);
	return false;
}

static void read_map(struct catalog_load_ctx *x, const struct catalog_schema *s, const struct ynode *map,
		     const char *prefix, void *base, unsigned char *seen);

static const struct catalog_accel *find_accel(const struct catalog *c, const char *id)
{
	/* The accelerators are sorted by id by the time platforms are read. */
	size_t lo = 0, hi = c->n_accels;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(id, c->accels[mid].id);
		if (!r)
			return &c->accels[mid];
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Ids name files and appear on command lines and in CSV cells: keep them
 * to characters that need no quoting anywhere. */
static bool id_chars_ok(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' ||
		      *s == '.' || *s == '_'))
			return false;
	return true;
}

/* path inside the catalog folder, for messages that name a second file */
static const char *relative(const struct catalog_load_ctx *x, const char *path)
{
	size_t n = strlen(x->cat->dir);
	if (!strncmp(path, x->cat->dir, n) && path[n] == '/')
		return path + n + 1;
	if (n && x->cat->dir[n - 1] == '/' && !strncmp(path, x->cat->dir, n))
		return path + n;
	return path;
}

/* Is id already taken by an item of an earlier folder?  Ids are unique
 * across the catalog so that `catalog show ID` means one thing. */
static const char *id_taken(struct catalog_load_ctx *x, const char *id)
{
	for (size_t k = 0; k < x->kind && k < CATALOG_N_KINDS; k++) {
		const struct catalog_kind *kd = &catalog_kinds[k];
		size_t n;
		char *arr = catalog_kind_items(x->cat, k, &n);
		for (size_t i = 0; i < n; i++) {
			char *item = arr + i * kd->s->size;
			const char *other = *(char **)(item + kd->id_off);
			if (other && !strcmp(other, id))
				return *(char **)(item + kd->s->file_off);
		}
	}
	return NULL;
}

static void read_list(struct catalog_load_ctx *x, const struct catalog_field *f, const struct ynode *v, void *base)
{
	char what[80];
	if (v->kind != YN_SEQ) {
		err_at(x, v, "%s: expected a list, got %s", f->key, ynode_describe(v, what, sizeof what));
		return;
	}
	if (f->type == CF_STRLIST) {
		if (!v->n && (f->flags & REQ)) {
			err_at(x, v, "%s: the list is empty; name at least one source", f->key);
			return;
		}
		char **list = calloc(v->n ? v->n : 1, sizeof *list);
		if (!list) {
			x->oom = true;
			return;
		}
		size_t n = 0;
		for (size_t i = 0; i < v->n; i++) {
			const char *s = want_string(x, f, v->items[i]);
			if (s && (list[n] = dup_str(x, s)))
				n++;
		}
		*(char ***)at(base, f->off) = list;
		*(size_t *)at(base, f->off_n) = n;
		return;
	}
	const struct catalog_schema *sub = f->sub;
	char *arr = calloc(v->n ? v->n : 1, sub->size);
	if (!arr) {
		x->oom = true;
		return;
	}
	*(void **)at(base, f->off) = arr;
	*(size_t *)at(base, f->off_n) = v->n;
	for (size_t i = 0; i < v->n; i++) {
		const struct ynode *e = v->items[i];
		if (e->kind != YN_MAP) {
			char keys[256];
			list_keys(sub, "", keys, sizeof keys);
			err_at(x, e, "%s: expected a %s mapping (keys: %s), got %s", f->key, sub->what,
			       keys, ynode_describe(e, what, sizeof what));
			continue;
		}
		unsigned char seen[MAX_FIELDS] = { 0 };
		read_map(x, sub, e, "", arr + i * sub->size, seen);
	}
}

/* A list of ids ("calibrated_from: [a, b]"), kept as the string "a, b":
 * whether each names a ledger entry is for ledger.c, which reads the
 * ledger after the catalog. */
static void read_idlist(struct catalog_load_ctx *x, const struct catalog_field *f, const struct ynode *v, void *base)
{
	char what[80];
	if (v->kind != YN_SEQ) {
		err_at(x, v, "%s: expected a list of ledger entry ids, got %s", f->key,
		       ynode_describe(v, what, sizeof what));
		return;
	}
	size_t len = 1;
	for (size_t i = 0; i < v->n; i++) {
		const char *s = want_string(x, f, v->items[i]);
		if (!s)
			return;
		if (!id_chars_ok(s)) {
			err_at(x, v->items[i], "%s: '%s' is not a ledger entry id", f->key, s);
			return;
		}
		len += strlen(s) + 2;
	}
	char *joined = malloc(len);
	if (!joined) {
		x->oom = true;
		return;
	}
	joined[0] = '\0';
	for (size_t i = 0; i < v->n; i++) {
		if (i)
			strcat(joined, ", ");
		strcat(joined, v->items[i]->scalar);
	}
	free(*(char **)at(base, f->off));
	*(char **)at(base, f->off) = joined;
}

/* The file's id: it names the file, it is unique and it needs no quoting. */
static void read_id(struct catalog_load_ctx *x, const struct catalog_field *f, const struct ynode *v)
{
	const char *s = want_string(x, f, v);
	if (!s)
		return;
	if (strcmp(s, x->stem)) {
		err_at(x, v, "id '%s' does not match the file name (expected '%s')", s, x->stem);
		return;
	}
	if (!id_chars_ok(s)) {
		err_at(x, v, "id '%s' may only use a-z, 0-9, '-', '.' and '_' "
		       "(starting with a letter or digit, at most 64)", s);
		return;
	}
	const char *other = id_taken(x, s);
	if (other)
		err_at(x, v, "id '%s' is already used by %s (ids are unique across the catalog)",
		       s, relative(x, other));
	/* the id itself was set from the file name */
}

/* A string, a date or one of the row's choices. */
static void read_text(struct catalog_load_ctx *x, const struct catalog_field *f, const struct ynode *v,
		      void *base)
{
	char what[80];
	const char *s = want_string(x, f, v);
	if (!s)
		return;
	if (f->type == CF_DATE && !catalog_date_ok(s)) {
		err_at(x, v, "%s: expected a date like 2024-06 or 2024-06-30, got %s", f->key,
		       ynode_describe(v, what, sizeof what));
		return;
	}
	if (f->type == CF_CHOICE && !in_choices(s, f->choices)) {
		err_at(x, v, "%s: expected one of %s, got %s", f->key, f->choices,
		       ynode_describe(v, what, sizeof what));
		return;
	}
	free(*(char **)at(base, f->off));
	*(char **)at(base, f->off) = dup_str(x, s);
}

/* An accelerator's id, kept as written and resolved to the accelerator. */
static void read_accel_ref(struct catalog_load_ctx *x, const struct catalog_field *f, const struct ynode *v,
			   void *base)
{
	const char *s = want_string(x, f, v);
	if (!s)
		return;
	free(*(char **)at(base, f->off));
	*(char **)at(base, f->off) = dup_str(x, s);
	const struct catalog_accel *a = find_accel(x->cat, s);
	if (a) {
		*(const struct catalog_accel **)at(base, f->off_n) = a;
		return;
	}
	const char *best = catalog_suggest(x->cat, CATALOG_ACCELERATORS, s);
	if (best)
		err_at(x, v, "unknown accelerator '%s'; did you mean '%s'?", s, best);
	else
		err_at(x, v, "unknown accelerator '%s' (no accelerators/%s.yaml)", s, s);
}

/* A number within the row's range (a defaults row: its unit's), whole for
 * an integer row. */
static void read_number(struct catalog_load_ctx *x, const struct catalog_field *f, const struct ynode *v,
			void *base)
{
	char what[80];
	double d, lo = f->min, hi = f->max;
	long l = 0;
	unsigned flags = f->flags;
	bool integer = f->type != CF_NUM;
	if (f->type == CF_NUM && hi == 0 && lo == 0)	/* defaults: by unit */
		default_range(f->key, &lo, &hi, &flags, &integer);
	if (!ynode_number(v, &d)) {
		err_at(x, v, "%s: expected %s, got %s", f->key,
		       integer ? "an integer" : "a number", ynode_describe(v, what, sizeof what));
		return;
	}
	if (integer && (!ynode_integer(v, &l) || (double)l != d)) {
		err_at(x, v, "%s: expected an integer, got %s", f->key,
		       ynode_describe(v, what, sizeof what));
		return;
	}
	if (!range_ok(x, f, v, d, lo, hi, flags))
		return;
	if (f->type == CF_INT)
		*(int *)at(base, f->off) = (int)l;
	else if (f->type == CF_LONG)
		*(long *)at(base, f->off) = l;
	else
		*(double *)at(base, f->off) = f->scale ? d * f->scale : d;
}

/* One of the row's words, kept as its index (CF_ENUM slots are int-sized,
 * catalog_image.c asserts it); else the message lists the words. */
static void read_enum(struct catalog_load_ctx *x, const struct catalog_field *f, const struct ynode *v,
		      void *base)
{
	int i = v->kind == YN_SCALAR ? catalog_name_find(f->names, f->count, v->scalar) : -1;
	if (i >= 0) {
		memcpy(at(base, f->off), &i, sizeof i);
		return;
	}
	char words[160], what[80];
	size_t used = 0;
	words[0] = '\0';
	for (int k = 0; k < f->count && used < sizeof words; k++) {
		int w = snprintf(words + used, sizeof words - used, "%s%s", k ? ", " : "", f->names[k]);
		used += w > 0 ? (size_t)w : 0;
	}
	err_at(x, v, "%s: expected one of %s, got %s", f->key, words, ynode_describe(v, what, sizeof what));
}

/* Reads one value v for row f into base. */
static void read_value(struct catalog_load_ctx *x, const struct catalog_field *f, const struct ynode *v, void *base)
{
	char what[80];
	bool b;
	switch (f->type) {
	case CF_ID:
		read_id(x, f, v);
		return;
	case CF_STR:
	case CF_DATE:
	case CF_CHOICE:
		read_text(x, f, v, base);
		return;
	case CF_ENUM:
		read_enum(x, f, v, base);
		return;
	case CF_ACCEL_REF:
		read_accel_ref(x, f, v, base);
		return;
	case CF_NUM:
	case CF_INT:
	case CF_LONG:
		read_number(x, f, v, base);
		return;
	case CF_BOOL:
		if (!ynode_bool(v, &b))
			err_at(x, v, "%s: expected true or false, got %s", f->key,
			       ynode_describe(v, what, sizeof what));
		else
			*(bool *)at(base, f->off) = b;
		return;
	case CF_STRLIST:
	case CF_LIST:
		read_list(x, f, v, base);
		return;
	case CF_IDLIST:
		read_idlist(x, f, v, base);
		return;
	}
}

/* 1 when the schema key is full itself, 2 when it sits under full
 * ("memory.type" under "memory"), 0 otherwise: strcmp and strncmp in one
 * pass that mostly stops at the first character. */
static int key_match(const char *key, const char *full, size_t flen)
{
	size_t i = 0;
	while (i < flen && key[i] == full[i])
		i++;
	if (i < flen)
		return 0;
	return key[flen] == '\0' ? 1 : key[flen] == '.' ? 2 : 0;
}

/* The row of table s whose key is full (flen bytes), or SIZE_MAX; *is_group
 * when full is a group of rows ("memory" of "memory.type").  Files list
 * their keys mostly in the table's order, so the search starts at
 * *next_row, after the previous match, and wraps around; keys are unique
 * in a table, so where it starts cannot change which row matches. */
static size_t find_row(const struct catalog_schema *s, const char *full, size_t flen, size_t *next_row,
		       bool *is_group)
{
	*is_group = false;
	for (size_t c = 0; c < s->n; c++) {
		size_t r = *next_row + c < s->n ? *next_row + c : *next_row + c - s->n;
		switch (key_match(s->f[r].key, full, flen)) {
		case 1:
			*next_row = r + 1 < s->n ? r + 1 : 0;
			return r;
		case 2:
			*is_group = true;
			break;
		default:
			break;
		}
	}
	return SIZE_MAX;
}

/* A group's value (full is its dotted key, with room for one more byte):
 * a mapping read at the next level, else the error that lists its keys. */
static void read_group(struct catalog_load_ctx *x, const struct catalog_schema *s, const struct ynode *v,
		       char *full, size_t flen, void *base, unsigned char *seen)
{
	char what[80];
	full[flen] = '.';
	full[flen + 1] = '\0';
	if (v->kind == YN_MAP) {
		read_map(x, s, v, full, base, seen);
		return;
	}
	char keys[256];
	list_keys(s, full, keys, sizeof keys);
	full[flen] = '\0';
	err_at(x, v, "%s: expected a mapping (keys: %s), got %s", full, keys,
	       ynode_describe(v, what, sizeof what));
}

/* Keys offered as "did you mean": their absence is that typo, not a
 * second problem, so it is not reported again as missing. */
struct offered {
	struct suggest sg[MAX_FIELDS];
	size_t n;
};

/* Key k matches no row under prefix: the nearest key at its level, if any. */
static void report_unknown(struct catalog_load_ctx *x, const struct catalog_schema *s, const struct ynode *k,
			   const char *prefix, size_t plen, struct offered *o)
{
	struct suggest sg = { NULL, 0, 99 };
	for (size_t r = 0; r < s->n; r++) {
		if (!under(s->f[r].key, prefix, plen))
			continue;
		bool group;
		size_t len = component(s->f[r].key, plen, &group);
		suggest_try(&sg, k->scalar, s->f[r].key + plen, len);
	}
	if (!sg.best) {
		err_at(x, k, "unknown key '%s'", k->scalar);
		return;
	}
	err_at(x, k, "unknown key '%s'; did you mean '%.*s'?", k->scalar, (int)sg.best_len, sg.best);
	if (o->n < MAX_FIELDS)
		o->sg[o->n++] = sg;
}

static bool was_offered(const struct offered *o, const char *name, size_t len)
{
	for (size_t j = 0; j < o->n; j++)
		if (o->sg[j].best_len == len && !strncmp(o->sg[j].best, name, len))
			return true;
	return false;
}

/* Does a row before r already stand for the group name (len bytes) under
 * prefix?  Then that row reported it. */
static bool group_seen_before(const struct catalog_schema *s, size_t r, const char *prefix, size_t plen,
			      const char *name, size_t len)
{
	for (size_t j = 0; j < r; j++) {
		bool g2;
		if (under(s->f[j].key, prefix, plen) && component(s->f[j].key, plen, &g2) == len && g2 &&
		    !strncmp(s->f[j].key + plen, name, len))
			return true;
	}
	return false;
}

/* The group key[0..glen) is required if one of its rows (from r on) is,
 * unless that row's own (innermost) mapping is this optional group. */
static bool group_required(const struct catalog_schema *s, size_t r, const char *key, size_t glen)
{
	for (size_t j = r; j < s->n; j++) {
		const char *o = s->f[j].key;
		if (strncmp(o, key, glen) || o[glen] != '.' || !(s->f[j].flags & REQ))
			continue;
		const char *last = strrchr(o, '.');
		bool innermost = (size_t)(last - o) == glen;
		if (!((s->f[j].flags & OPTGROUP) && innermost))
			return true;
	}
	return false;
}

/* Missing keys, reported at the mapping that should hold them. */
static void report_missing(struct catalog_load_ctx *x, const struct catalog_schema *s, const struct ynode *map,
			   const char *prefix, size_t plen, const unsigned char *seen, const struct offered *o)
{
	for (size_t r = 0; r < s->n; r++) {
		const char *key = s->f[r].key;
		if (seen[r] || !under(key, prefix, plen))
			continue;
		bool group;
		size_t len = component(key, plen, &group);
		if (was_offered(o, key + plen, len))
			continue;
		if (!group) {
			if (s->f[r].flags & REQ)
				err_at(x, map, "missing required key '%s'", key);
			continue;
		}
		char name[KEY_MAX + 1];
		size_t nlen = len < sizeof name - 1 ? len : sizeof name - 1;
		memcpy(name, key + plen, nlen);
		name[nlen] = '\0';
		if (ytree_get(map, name))
			continue;	/* present: its own level reported what it lacks */
		if (group_seen_before(s, r, prefix, plen, name, len))
			continue;
		size_t glen = plen + len;
		if (group_required(s, r, key, glen))
			err_at(x, map, "missing required key '%.*s'", (int)glen, key);
	}
}

/* Reads mapping map, which sits at dotted prefix ("" or "memory.") of
 * table s, into base.  seen marks the rows found, shared across levels. */
static void read_map(struct catalog_load_ctx *x, const struct catalog_schema *s, const struct ynode *map,
		     const char *prefix, void *base, unsigned char *seen)
{
	size_t plen = strlen(prefix);
	char full[KEY_MAX + 2];
	struct offered offered;
	offered.n = 0;
	size_t next_row = 0;
	for (size_t i = 0; i < map->n; i++) {
		const struct ynode *k = map->keys[i], *v = map->items[i];
		/* "memory.type: x" written flat would match a row by name; the
		 * schema nests, so say how to write it. */
		if (strchr(k->scalar, '.')) {
			size_t dot = strcspn(k->scalar, ".");
			err_at(x, k, "unknown key '%s' (nest it: '%.*s:' then '%s:' indented below)",
			       k->scalar, (int)dot, k->scalar, k->scalar + dot + 1);
			continue;
		}
		/* prefix + key, as snprintf would join them (memcpy and the
		 * one-pass match: this loop runs for every key of every file,
		 * and snprintf/strcmp were a tenth of a whole `accelsizer
		 * recommend`) */
		size_t klen = strlen(k->scalar), flen = plen + klen;
		size_t keep = flen < sizeof full - 1 ? flen : sizeof full - 1;
		size_t kp = keep < plen ? keep : plen;
		memcpy(full, prefix, kp);
		memcpy(full + kp, k->scalar, keep - kp);
		full[keep] = '\0';
		bool is_group = false;
		size_t row = flen > 0 && flen < KEY_MAX ? find_row(s, full, flen, &next_row, &is_group)
							: SIZE_MAX;
		if (row != SIZE_MAX) {
			seen[row] = 1;
			read_value(x, &s->f[row], v, base);
		} else if (is_group) {
			read_group(x, s, v, full, flen, base, seen);
		} else {
			report_unknown(x, s, k, prefix, plen, &offered);
		}
	}
	report_missing(x, s, map, prefix, plen, seen, &offered);
}

/* ---- checks across keys ---- */

/* The node at a dotted path, for positions in cross-key messages. */
static const struct ynode *node_at(const struct ynode *root, const char *path)
{
	char part[KEY_MAX];
	const struct ynode *n = root;
	while (n && *path) {
		size_t len = strcspn(path, ".");
		if (len >= sizeof part)
			return NULL;
		memcpy(part, path, len);
		part[len] = '\0';
		n = ytree_get(n, part);
		path += len + (path[len] == '.');
	}
	return n;
}

/* The i-th item of a list node, for the position of a message about that
 * item; `fallback` where the list is missing or shorter. */
static const struct ynode *item_at(const struct ynode *list, size_t i, const struct ynode *fallback)
{
	return list && list->kind == YN_SEQ && i < list->n ? list->items[i] : fallback;
}

/* What the runtime reports is the marketed capacity give or take what the
 * vendor rounds and reserves: an "80GB" H100 shows 85.5 GB (81,559 MiB),
 * a "94GB" H100 NVL 100.5 GB.  Outside 0.9 to 1.2 times the marketed
 * figure it is a typo (GiB for GB, another part's figure). */
#define ADDRESSABLE_MIN 0.9
#define ADDRESSABLE_MAX 1.2

/* MIG profiles must fit the GPU they slice: one profile's instances
 * together hold no more memory than the GPU has (its marketed capacity, up
 * to what the runtime can report: the GB200's 7g.189gb on a "186GB" part)
 * and no more compute slices than its largest profile, the whole GPU. */
static void check_partitions(struct catalog_load_ctx *x, const struct catalog_accel *a,
			     const struct ynode *root)
{
	const struct ynode *list = node_at(root, "partitions");
	int slices = 0;
	for (size_t i = 0; i < a->n_partitions; i++)
		if (a->partitions[i].compute_slices > slices)
			slices = a->partitions[i].compute_slices;
	for (size_t i = 0; i < a->n_partitions; i++) {
		const struct catalog_partition *p = &a->partitions[i];
		const struct ynode *n = item_at(list, i, root);
		if (!p->profile || p->max_per_gpu <= 0 || p->compute_slices <= 0)
			continue;	/* already reported */
		for (size_t j = 0; j < i; j++)
			if (a->partitions[j].profile && !strcmp(a->partitions[j].profile, p->profile))
				err_at(x, n, "partitions: profile '%s' is listed twice", p->profile);
		char m[32], t[32], c[32];
		double total = p->memory_gb * p->max_per_gpu;
		if (a->mem_gb > 0 && total > a->mem_gb * ADDRESSABLE_MAX)
			err_at(x, n, "partitions: %d x %s GB of profile '%s' is %s GB, more than "
			       "1.2 x memory.capacity_gb %s", p->max_per_gpu,
			       fmt_num(p->memory_gb, m, sizeof m), p->profile,
			       fmt_num(total, t, sizeof t), fmt_num(a->mem_gb, c, sizeof c));
		if (p->compute_slices * p->max_per_gpu > slices)
			err_at(x, n, "partitions: %d x %d compute slices of profile '%s' is more than "
			       "the largest profile's %d", p->max_per_gpu, p->compute_slices,
			       p->profile, slices);
	}
}

/* link.allreduce_curve: at least two points, the messages increasing and
 * within the domain the curve was measured on. */
static void check_ar_curve(struct catalog_load_ctx *x, const struct catalog_accel *a, const struct ynode *root)
{
	if (!a->ar_curve_gpus)
		return;
	const struct ynode *n = node_at(root, "link.allreduce_curve.points");
	if (a->n_ar_curve < 2) {
		err_at(x, n ? n : root, "link.allreduce_curve.points: give at least two measured points");
		return;
	}
	for (size_t i = 1; i < a->n_ar_curve; i++) {
		if (a->ar_curve[i].bytes > a->ar_curve[i - 1].bytes)
			continue;
		char b[32], p[32];
		err_at(x, n ? n : root, "link.allreduce_curve.points: point %zu's bytes %s must be larger "
		       "than the point before's (%s)", i + 1, fmt_num(a->ar_curve[i].bytes, b, sizeof b),
		       fmt_num(a->ar_curve[i - 1].bytes, p, sizeof p));
		return;
	}
	const struct ynode *g = node_at(root, "link.allreduce_curve.gpus");
	if (a->ar_curve_gpus > a->link_domain)
		err_at(x, g ? g : root, "link.allreduce_curve.gpus %d is more than link.domain_size %d",
		       a->ar_curve_gpus, a->link_domain);
}

static void check_accel(struct catalog_load_ctx *x, void *item, const struct ynode *root)
{
	const struct catalog_accel *a = item;
	check_partitions(x, a, root);
	check_ar_curve(x, a, root);
	if (!(a->mem_addressable_gb > 0) || !(a->mem_gb > 0))
		return;
	double lo = a->mem_gb * ADDRESSABLE_MIN, hi = a->mem_gb * ADDRESSABLE_MAX;
	if (a->mem_addressable_gb >= lo && a->mem_addressable_gb <= hi)
		return;
	const struct ynode *n = node_at(root, "memory.addressable_gb");
	char v[32], c[32], l[32], h[32];
	err_at(x, n ? n : root, "memory.addressable_gb %s must be between 0.9 and 1.2 x "
	       "memory.capacity_gb %s (%s to %s GB)", fmt_num(a->mem_addressable_gb, v, sizeof v),
	       fmt_num(a->mem_gb, c, sizeof c), fmt_num(lo, l, sizeof l), fmt_num(hi, h, sizeof h));
}

/* nics.fabrics: each a fabric kind the catalog knows, none twice. */
static void check_nic_fabrics(struct catalog_load_ctx *x, const struct catalog_platform *p,
			      const struct ynode *root)
{
	const struct ynode *n = node_at(root, "nics.fabrics");
	if (p->n_nic_fabrics == 0) {
		err_at(x, n ? n : root, "nics.fabrics: list at least one fabric kind the NICs run "
		       "(infiniband, ethernet)");
		return;
	}
	for (size_t i = 0; i < p->n_nic_fabrics; i++) {
		const char *k = p->nic_fabrics[i];
		if (strcmp(k, "infiniband") && strcmp(k, "ethernet")) {
			err_at(x, n ? n : root, "nics.fabrics: '%s' is not a fabric kind (expected "
			       "infiniband or ethernet)", k);
			return;
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(k, p->nic_fabrics[j])) {
				err_at(x, n ? n : root, "nics.fabrics: '%s' is listed twice", k);
				return;
			}
	}
}

static void check_platform(struct catalog_load_ctx *x, void *item, const struct ynode *root)
{
	const struct catalog_platform *p = item;
	check_nic_fabrics(x, p, root);
	/* max_power_w is the whole node at full load (SCHEMA.md), so it cannot
	 * be less than its accelerators and BOM lines draw. */
	if (!p->accel || p->max_power_w <= 0 || p->gpus_per_node <= 0)
		return;
	double gpus = p->gpus_per_node * p->accel->power_w, lines = 0;
	for (size_t i = 0; i < p->n_bom; i++)
		lines += p->bom[i].qty * p->bom[i].power_w;
	if (p->max_power_w >= gpus + lines)
		return;
	const struct ynode *n = node_at(root, "max_power_w");
	char a[32], b[32], c[32];
	if (lines > 0)
		err_at(x, n ? n : root, "max_power_w %s is less than the node's accelerators and BOM "
		       "lines draw (%d x %s W + %s W)", fmt_num(p->max_power_w, a, sizeof a),
		       p->gpus_per_node, fmt_num(p->accel->power_w, b, sizeof b),
		       fmt_num(lines, c, sizeof c));
	else
		err_at(x, n ? n : root, "max_power_w %s is less than the node's accelerators draw "
		       "(%d x %s W)", fmt_num(p->max_power_w, a, sizeof a), p->gpus_per_node,
		       fmt_num(p->accel->power_w, b, sizeof b));
}

/* "a, b, c": every id a stack name table knows, for the error that lists
 * them, so the message follows the table (catalog.c) rather than a copy. */
static const char *stack_ids(char *buf, size_t size, const char *(*id_at)(size_t), size_t n)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++) {
		int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", id_at(i));
		used += w > 0 ? (size_t)w : 0;
	}
	return buf;
}

static const char *serving_id_at(size_t i) { return serving_stack_name((enum serving_stack)i); }
static const char *training_id_at(size_t i) { return training_stack_name((enum training_stack)i); }

/* A serving and a training stack are different structs with the same
 * frame: an id, a file and a runs_on list whose items each name a platform
 * and whether the stack is its default.  A kind reads that frame from its
 * own struct, so the checks below walk either kind. */
struct stack_on {
	const char *id, *file;		/* the stack's */
	enum stack platform;
	bool is_default;
};

struct stack_kind {
	const char *word;		/* "stack", "training stack": in messages */
	size_t size;			/* one stack of the kind, in its catalog array */
	/* runs_on item j of `stack` into *on; false past the last */
	bool (*on_at)(const void *stack, size_t j, struct stack_on *on);
	/* the stack the catalog takes as the platform's default (catalog.c) */
	const void *(*default_on)(const struct catalog *c, enum stack platform);
};

static bool serving_on_at(const void *stack, size_t j, struct stack_on *on)
{
	const struct catalog_serving_stack *s = stack;
	if (j >= s->n_runs_on)
		return false;
	*on = (struct stack_on){ s->id, s->file, s->runs_on[j].platform, s->runs_on[j].is_default };
	return true;
}

static bool training_on_at(const void *stack, size_t j, struct stack_on *on)
{
	const struct catalog_training_stack *s = stack;
	if (j >= s->n_runs_on)
		return false;
	*on = (struct stack_on){ s->id, s->file, s->runs_on[j].platform, s->runs_on[j].is_default };
	return true;
}

static const void *serving_default_on(const struct catalog *c, enum stack platform)
{
	return catalog_stack_default(c, platform, NULL);
}

static const void *training_default_on(const struct catalog *c, enum stack platform)
{
	return catalog_train_stack_default(c, platform);
}

static const struct stack_kind serving_kind = { "stack", sizeof(struct catalog_serving_stack), serving_on_at,
						 serving_default_on };
static const struct stack_kind training_kind = { "training stack", sizeof(struct catalog_training_stack),
						  training_on_at, training_default_on };

/* runs_on item i names a platform an earlier item named: one error each. */
static void check_named_once(struct catalog_load_ctx *x, const struct stack_kind *k, const void *stack, size_t i,
			     const struct ynode *n)
{
	struct stack_on a, b;
	if (!k->on_at(stack, i, &a))
		return;
	for (size_t j = 0; j < i && k->on_at(stack, j, &b); j++)
		if (b.platform == a.platform)
			err_at(x, n, "runs_on: platform %s is listed twice", stack_name(a.platform));
}

/* A stack (of `kind`) in `file` marked the default on a platform that the
 * catalog's first default, `first` in `first_file`, already holds. */
static void second_default(struct catalog_load_ctx *x, const char *kind, const char *id, const char *file,
			   enum stack platform, const char *first, const char *first_file)
{
	x->file = file;
	err_at(x, NULL, "%s is marked the default %s on %s, which already has one: %s (%s)", id, kind,
	       stack_name(platform), first, first_file);
	flush_file_errors(x);
}

/* One default stack of a kind per platform, across its folder: the `n`
 * stacks of the catalog's array `stacks`. */
static void check_one_default(struct catalog_load_ctx *x, const struct stack_kind *k, const void *stacks, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const void *s = (const char *)stacks + i * k->size;
		struct stack_on on, first;
		for (size_t j = 0; k->on_at(s, j, &on); j++) {
			const void *d = on.is_default ? k->default_on(x->cat, on.platform) : NULL;
			/* d holds a default, so it has a runs_on item that says who it is */
			if (d && d != s && k->on_at(d, 0, &first))
				second_default(x, k->word, on.id, on.file, on.platform, first.id, first.file);
		}
	}
}

/* A serving stack's id is one the engine knows (enum serving_stack); it
 * names each platform once; on the vendor's default stack the factor is 1,
 * because the accelerators' own figures were measured on it. */
static void check_serving_stack(struct catalog_load_ctx *x, void *item, const struct ynode *root)
{
	struct catalog_serving_stack *s = item;
	enum serving_stack which;
	char known[128];
	if (s->id && !serving_stack_parse(s->id, &which))
		err_at(x, node_at(root, "id"), "unknown serving stack '%s' (known: %s)", s->id,
		       stack_ids(known, sizeof known, serving_id_at, SS_COUNT));
	const struct ynode *list = node_at(root, "runs_on");
	for (size_t i = 0; i < s->n_runs_on; i++) {
		const struct ynode *n = item_at(list, i, list);
		check_named_once(x, &serving_kind, s, i, n);
		if (s->runs_on[i].is_default && s->runs_on[i].compute.value != 1)
			err_at(x, node_at(n, "compute.value"), "compute of a default stack is 1 (the "
			       "accelerators' efficiency.compute was measured on it)");
	}
}

/* A training stack's id is one the engine knows (enum training_stack); it
 * names each platform once and each family at one precision once. */
static void check_training_stack(struct catalog_load_ctx *x, void *item, const struct ynode *root)
{
	struct catalog_training_stack *s = item;
	enum training_stack which;
	char known[128];
	if (s->id && !training_stack_parse(s->id, &which))
		err_at(x, node_at(root, "id"), "unknown training stack '%s' (known: %s)", s->id,
		       stack_ids(known, sizeof known, training_id_at, TS_COUNT));
	const struct ynode *list = node_at(root, "runs_on");
	for (size_t i = 0; i < s->n_runs_on; i++)
		check_named_once(x, &training_kind, s, i, item_at(list, i, list));
	list = node_at(root, "efficiency");
	for (size_t i = 0; i < s->n_efficiency; i++) {
		const struct ynode *n = item_at(list, i, list);
		const struct catalog_train_share *e = &s->efficiency[i];
		for (size_t j = 0; j < i; j++)
			if (e->family && s->efficiency[j].family && !strcmp(e->family, s->efficiency[j].family) &&
			    e->precision == s->efficiency[j].precision)
				err_at(x, n, "efficiency: %s at %s is listed twice", e->family,
				       catalog_train_prec_names[e->precision]);
	}
}

static void check_model(struct catalog_load_ctx *x, void *item, const struct ynode *root)
{
	struct catalog_model *m = item;
	const struct ynode *n;
	if (m->active_params > 0 && m->params > 0 && m->active_params > m->params) {
		n = node_at(root, "active_params_b");
		err_at(x, n, "active_params_b is larger than params_b");
	}
	if (m->active_params == 0)
		m->active_params = m->params;
	if (m->kv_heads > 0 && m->heads > 0 && m->kv_heads > m->heads) {
		n = node_at(root, "kv_heads");
		err_at(x, n, "kv_heads (%d) is larger than attention_heads (%d)", m->kv_heads, m->heads);
	}
	if (m->experts_active > 0 && m->experts > 0 && m->experts_active > m->experts) {
		n = node_at(root, "experts.active");
		err_at(x, n, "experts.active (%d) is larger than experts.total (%d)",
		       m->experts_active, m->experts);
	}
	if (m->dense_layers > 0 && m->layers > 0 && m->dense_layers >= m->layers) {
		n = node_at(root, "experts.dense_layers");
		err_at(x, n, "experts.dense_layers (%d) leaves no MoE layer of %d", m->dense_layers,
		       m->layers);
	}
	if (m->dense_layers > 0 && m->dense_ffn == 0) {
		n = node_at(root, "experts.dense_layers");
		err_at(x, n, "experts.dense_layers needs experts.dense_ffn_size (their FFN width)");
	}
	if (m->sliding_layers > 0 && m->layers > 0 && m->sliding_layers > m->layers) {
		n = node_at(root, "sliding_window.layers");
		err_at(x, n, "sliding_window.layers (%d) is larger than layers (%d)",
		       m->sliding_layers, m->layers);
	}
}

/* ---- files and folders ---- */

/* a, b and c end to end in a new string: format() without printf's cost,
 * for the paths built for every file of every load. */
static char *concat3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *s = malloc(la + lb + lc + 1);
	if (s) {
		memcpy(s, a, la);
		memcpy(s + la, b, lb);
		memcpy(s + la + lb, c, lc + 1);
	}
	return s;
}

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a);
	return concat3(a, la && a[la - 1] == '/' ? "" : "/", b);
}

/* Parses one file into item (already zeroed) with table s; problems go to
 * the current file's pending list. */
static void load_file(struct catalog_load_ctx *x, const struct catalog_schema *s, const char *path, void *item)
{
	char err[512];
	struct ytree *t = ytree_parse_file(path, err, sizeof err);
	if (!t) {
		char *m = dup_str(x, err);
		if (m)
			x->pend[x->npend++] = (struct pending){ 0, 0, 0, m };
		return;
	}
	const struct ynode *root = t->root;
	char what[80];
	if (!root) {
		err_at(x, NULL, "the file is empty (expected a %s mapping)", s->what);
	} else if (root->kind != YN_MAP) {
		err_at(x, root, "expected a mapping of keys at the top of the file, got %s",
		       ynode_describe(root, what, sizeof what));
	} else {
		unsigned char seen[MAX_FIELDS] = { 0 };
		read_map(x, s, root, "", item, seen);
		if (s->check)
			s->check(x, item, root);
	}
	ytree_free(t);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len > n && !strcmp(s + len - n, suffix);
}

/* The ids (file names without .yaml) in folder dir, sorted.  NULL with an
 * error recorded on failure. */
static char **list_folder(struct catalog_load_ctx *x, const char *dir, size_t *count, bool optional)
{
	*count = 0;
	DIR *d = opendir(dir);
	if (!d && optional && errno == ENOENT)
		return NULL;
	if (!d) {
		x->file = dir;
		err_at(x, NULL, "cannot open the folder: %s (a catalog has accelerators/, "
		       "platforms/, fabrics/ and models/)", strerror(errno));
		return NULL;
	}
	size_t n = 0, cap = 16;
	char **names = malloc(cap * sizeof *names);
	bool ok = names != NULL;
	struct dirent *e;
	while (ok && (e = readdir(d))) {
		const char *name = e->d_name;
		size_t len = strlen(name);
		if (name[0] == '.')
			continue;	/* hidden and editor lock files */
		if (ends_with(name, len, ".yml")) {
			char *p = join(dir, name);
			x->file = p ? p : dir;
			err_at(x, NULL, "catalog files must end in .yaml");
			flush_file_errors(x);
			free(p);
			continue;
		}
		if (!ends_with(name, len, ".yaml"))
			continue;	/* README and the like */
		if (n == MAX_FILES) {
			x->file = dir;
			err_at(x, NULL, "too many files (more than %d)", MAX_FILES);
			ok = false;
			break;
		}
		if (n == cap) {
			char **nn = realloc(names, (cap *= 2) * sizeof *names);
			if (!nn) {
				x->oom = true;
				ok = false;
				break;
			}
			names = nn;
		}
		if (!(names[n] = strndup(name, len - 5))) {
			x->oom = true;
			ok = false;
			break;
		}
		n++;
	}
	closedir(d);
	if (!ok) {
		for (size_t i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return NULL;
	}
	qsort(names, n, sizeof *names, cmp_str);
	*count = n;
	return names;
}

static void load_kind(struct catalog_load_ctx *x, const char *dir, size_t k)
{
	const struct catalog_kind *kd = &catalog_kinds[k];
	const struct catalog_schema *s = kd->s;
	char *folder = join(dir, kd->dir);
	if (!folder) {
		x->oom = true;
		return;
	}
	x->kind = k;
	size_t n;
	char **names = list_folder(x, folder, &n, kd->optional);
	flush_file_errors(x);
	if (!names) {
		free(folder);
		return;
	}
	char *items = calloc(n ? n : 1, s->size);
	if (!items)
		x->oom = true;
	*(char **)at(x->cat, kd->arr_off) = items;
	for (size_t i = 0; i < n && items; i++) {
		char *item = items + i * s->size;
		/* The item exists (with its id) even when its file is broken, so
		 * that references to it do not add a second, misleading error. */
		*(char **)(item + kd->id_off) = names[i];
		names[i] = NULL;
		*(size_t *)at(x->cat, kd->n_off) = i + 1;
		char *base = concat3(*(char **)(item + kd->id_off), ".yaml", "");
		char *path = base ? join(folder, base) : NULL;
		free(base);
		if (!path) {
			x->oom = true;
			break;
		}
		*(char **)(item + kd->s->file_off) = path;
		*(int *)(item + kd->line_off) = 1;
		x->file = path;
		x->stem = *(char **)(item + kd->id_off);
		if (!errs_full(x))
			load_file(x, s, path, item);
		else
			x->errs->truncated = true;	/* files left unread */
		flush_file_errors(x);
	}
	if (!n && k == 0) {
		x->file = folder;
		err_at(x, NULL, "no accelerators (a catalog needs at least one .yaml file here)");
		flush_file_errors(x);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(folder);
}

static void load_defaults(struct catalog_load_ctx *x, const char *dir)
{
	char *path = join(dir, "defaults.yaml");
	if (!path) {
		x->oom = true;
		return;
	}
	x->cat->defaults.file = path;
	x->file = path;
	x->stem = "defaults";
	x->kind = CATALOG_N_KINDS;
	load_file(x, &catalog_defaults_schema, path, &x->cat->defaults);
	flush_file_errors(x);
}

struct catalog *catalog_load(const char *dir, struct catalog_errors *errs)
{
	struct catalog_errors ignored;
	if (!errs)
		errs = &ignored;	/* the caller only wants yes or no */
	memset(errs, 0, sizeof *errs);
	struct catalog_load_ctx *x = calloc(1, sizeof *x);
	struct catalog *c = calloc(1, sizeof *c);
	if (!x || !c || !(c->dir = strdup(dir))) {
		free(x);
		catalog_free(c);
		add_error(&(struct catalog_load_ctx){ .errs = errs }, strdup("out of memory"));
		return NULL;
	}
	x->cat = c;
	x->errs = errs;

	DIR *d = opendir(dir);
	if (!d) {
		x->file = dir;
		err_at(x, NULL, "cannot open the catalog folder: %s", strerror(errno));
		flush_file_errors(x);
	} else {
		closedir(d);
		for (size_t k = 0; k < CATALOG_N_KINDS && !errs_full(x) && !x->oom; k++)
			load_kind(x, dir, k);
		if (!errs_full(x) && !x->oom)
			check_one_default(x, &serving_kind, x->cat->serving_stacks, x->cat->n_serving_stacks);
		if (!errs_full(x) && !x->oom)
			check_one_default(x, &training_kind, x->cat->training_stacks, x->cat->n_training_stacks);
		if (!errs_full(x) && !x->oom)
			load_defaults(x, dir);
		else if (errs_full(x))
			errs->truncated = true;		/* gave up before the end */
	}
	if (!x->oom && !errs->n && !catalog_index(c))
		x->oom = true;
	if (x->oom)
		add_error(x, strdup("out of memory while reading the catalog"));
	bool failed = errs->n > 0 || errs->truncated;
	free(x);
	if (errs == &ignored)
		catalog_errors_fini(errs);
	if (failed) {
		catalog_free(c);
		return NULL;
	}
	return c;
}

/* ---- ranges of a catalog that was not read from YAML ---- */

/* The field's value in base is one catalog_load() could have stored: in
 * its range, or 0 when the key is optional (left out). */
static bool value_ok(const struct catalog_field *f, const void *base)
{
	double lo = f->min, hi = f->max, v;
	unsigned flags = f->flags;
	bool integer = f->type != CF_NUM;
	if (f->type == CF_NUM && hi == 0 && lo == 0)	/* defaults: by unit */
		default_range(f->key, &lo, &hi, &flags, &integer);
	const char *p = (const char *)base + f->off;
	if (f->type == CF_INT) {
		int i;
		memcpy(&i, p, sizeof i);
		v = i;
	} else if (f->type == CF_LONG) {
		long l;
		memcpy(&l, p, sizeof l);
		v = (double)l;
	} else {
		memcpy(&v, p, sizeof v);
		if (f->scale) {
			lo *= f->scale;
			hi *= f->scale;
		}
	}
	if (v == 0 && (!(f->flags & REQ) || (f->flags & OPTGROUP)))
		return true;
	bool gt = flags & GT_MIN;
	if (!((gt ? v > lo : v >= lo) && v <= hi))
		return false;	/* NaN too */
	return !integer || f->type != CF_NUM || v == (double)(long long)v;
}

static bool values_ok(const struct catalog_schema *s, const void *item)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct catalog_field *f = &s->f[i];
		if (f->type == CF_NUM || f->type == CF_INT || f->type == CF_LONG) {
			if (!value_ok(f, item))
				return false;
		} else if (f->type == CF_ID) {
			/* as the loader checks an id: a forged image could hold
			 * control characters there (found by fuzz/fuzz_cache.c) */
			const char *id;
			memcpy(&id, (const char *)item + f->off, sizeof id);
			if (!id || !id_chars_ok(id))
				return false;
		} else if (f->type == CF_LIST) {
			const char *list;
			size_t n;
			memcpy(&list, (const char *)item + f->off, sizeof list);
			memcpy(&n, (const char *)item + f->off_n, sizeof n);
			for (size_t j = 0; j < n; j++)
				if (!values_ok(f->sub, list + j * f->sub->size))
					return false;
		}
	}
	return true;
}

/* Ids unique within each kind, as the loader insists (lookups return the
 * first match: a duplicate would hide an item). */
_Static_assert(offsetof(struct catalog_accel, id) == 0 && offsetof(struct catalog_platform, id) == 0 &&
	       offsetof(struct catalog_fabric, id) == 0 && offsetof(struct catalog_model, id) == 0,
	       "ids_unique() reads the id at the start of each item");
static bool ids_unique(const char *arr, size_t n, size_t size)
{
	for (size_t i = 1; i < n; i++) {
		const char *a;
		memcpy(&a, arr + i * size, sizeof a);	/* id is each struct's first member */
		for (size_t j = 0; j < i; j++) {
			const char *b;
			memcpy(&b, arr + j * size, sizeof b);
			if (!strcmp(a, b))
				return false;
		}
	}
	return true;
}

bool catalog_values_ok(const struct catalog *c)
{
	if (!c)
		return false;
	for (size_t k = 0; k < CATALOG_N_KINDS; k++) {
		size_t n;
		const char *arr = catalog_kind_items(c, k, &n);
		for (size_t i = 0; i < n; i++)
			if (!values_ok(catalog_kinds[k].s, arr + i * catalog_kinds[k].s->size))
				return false;
		if (!ids_unique(arr, n, catalog_kinds[k].s->size))
			return false;
	}
	return values_ok(&catalog_defaults_schema, &c->defaults);
}
