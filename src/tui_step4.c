/*
 * tui_step4: Node.  The shape the engine chose for the chosen (or
 * top-ranked) accelerator: platform, GPU count, parallel layout, nodes,
 * spare nodes, fabric, rack units, power and cost.  The GPU count, the
 * spare nodes, the rack power, the site's cooling, the fabric kind and the
 * GPUs per node can be set (workload fields); everything else recomputes
 * from them.
 */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "tui.h"

#define R_OR_DASH(buf, n, r) do { if (!(r)) { snprintf(buf, n, "-"); return; } } while (0)

/* Overrides apply to the chosen accelerator only: overriding the
 * top-ranked one chooses it. */
static void choose_shown(struct tui *t)
{
	if (!t->sc.w.accel) {
		const struct engine_result *r = tui_chosen(t);
		if (r)
			t->sc.w.accel = r->accel;
	}
}

static double auto_gpus(const struct tui *t)
{
	const struct engine_result *r = tui_chosen(t);
	return r && r->fits ? r->gpus : NAN;
}

static double auto_spares(const struct tui *t)
{
	const struct engine_result *r = tui_chosen(t);
	return r ? r->spare_nodes : NAN;
}

static double auto_rack_kw(const struct tui *t)
{
	const struct engine_result *r = tui_chosen(t);
	return r && r->platform ? r->rack_kw : NAN;
}

static double auto_years(const struct tui *t)
{
	const struct engine_result *r = tui_chosen(t);
	return r && r->platform ? r->tco_years : NAN;
}

static double auto_support_years(const struct tui *t)
{
	const struct engine_result *r = tui_chosen(t);
	return r && r->platform ? r->tco_support_years_paid : NAN;
}

static void info_accel(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	snprintf(buf, n, "%s%s", tui_accel_name(r->accel),
		 t->sc.w.accel ? "" : "  (top ranked; choose in step 3)");
}

/* A choice the last workload change made stale, on its own row. */
static bool stale_shown(const struct tui *t)
{
	char note[160];
	return tui_stale_note(t, note, sizeof note) != NULL;
}

static void info_stale(const struct tui *t, char *buf, size_t n)
{
	if (!tui_stale_note(t, buf, n))
		snprintf(buf, n, "-");
}

static void info_platform(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	if (!r->platform) {
		snprintf(buf, n, "no platform in the catalog");
		return;
	}
	snprintf(buf, n, "%s: %d GPUs, %s, %dU", r->platform->name, r->platform->gpus_per_node,
		 topology_name(r->platform->topology), r->platform->rack_units);
}

static void info_layout(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	if (!r->fits) {
		char rb[ENGINE_REASON_MAX];
		snprintf(buf, n, "does not fit: %s", engine_result_reason(r, rb, sizeof rb));
		return;
	}
	if (t->sc.w.cls == WL_INFERENCE && r->disaggregated)
		snprintf(buf, n, "%d prefill + %d decode GPUs (decode TP %d, batch %ld)", r->prefill_gpus,
			 r->decode_gpus, r->tp, r->batch_per_replica);
	else if (t->sc.w.cls == WL_INFERENCE)
		snprintf(buf, n, "TP %d x PP %d, %d replica%s, batch %ld each", r->tp, r->pp, r->replicas,
			 r->replicas == 1 ? "" : "s", r->batch_per_replica);
	else if (r->cp > 1)
		snprintf(buf, n, "TP %d x PP %d x CP %d x DP %d, ZeRO-%d", r->tp, r->pp, r->cp, r->dp,
			 r->zero_stage);
	else
		snprintf(buf, n, "TP %d x PP %d x DP %d, ZeRO-%d", r->tp, r->pp, r->dp, r->zero_stage);
}

/* Serving: the stack the figures assume, as the CLI's serving_stack. */
static bool serving_shown(const struct tui *t)
{
	return t->sc.w.cls == WL_INFERENCE;
}

static void info_stack(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	if (!r->serving_stack) {
		snprintf(buf, n, "-");
		return;
	}
	snprintf(buf, n, "%s (%s)", r->serving_stack->name,
		 t->sc.w.serving_stack >= 0 ? "as chosen on step 1" : "the vendor's best published");
}

/* Training: the stack the figures assume, as the CLI's training_stack. */
static bool training_shown(const struct tui *t)
{
	return t->sc.w.cls != WL_INFERENCE;
}

static void info_train_stack(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	if (!r->training_stack) {
		snprintf(buf, n, "-");
		return;
	}
	snprintf(buf, n, "%s (%s)", r->training_stack->name,
		 t->sc.w.training_stack >= 0 ? "as chosen on step 1" : "the vendor's best published");
}

static void info_nodes(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	/* r->nodes are the working nodes; the spares come on top (as the
	 * CLI's nodes and spare_nodes columns and the BOM count them). */
	int total = r->nodes + r->spare_nodes;
	snprintf(buf, n, "%d working + %d spare = %d node%s, %d GPUs installed", r->nodes,
		 r->spare_nodes, total, total == 1 ? "" : "s", r->gpus_installed);
}

static void info_fabric(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	if (!r->fabric) {
		snprintf(buf, n, "none: one node, GPUs talk over %s", r->accel->link_kind);
		return;
	}
	snprintf(buf, n, "%s", r->fabric->name);
}

static void info_network(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	if (!r->fabric) {
		snprintf(buf, n, "-");
		return;
	}
	snprintf(buf, n, "%d NICs, %d leaf + %d spine switches, %d cables", r->nics, r->leaf_switches,
		 r->spine_switches, r->cables);
}

static void info_space(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	char kw[32];
	snprintf(buf, n, "%.0fU in %.0f rack%s, %s kW", r->rack_units, r->racks, r->racks == 1 ? "" : "s",
		 tui_fmt_kw(kw, sizeof kw, r->power_kw));
}

/* The rack elevation (engine_elevation()): how the racks are packed, and
 * the first and last rack as `bom --elevation` heads them. */
static bool elevation_of(const struct tui *t, struct engine_elevation *e)
{
	const struct engine_result *r = tui_chosen(t);
	engine_elevation(t->cat, r && r->fits ? r : NULL, e);
	return e->racks > 0;
}

static void info_elevation(const struct tui *t, char *buf, size_t n)
{
	struct engine_elevation e;
	R_OR_DASH(buf, n, elevation_of(t, &e));
	char net[48] = "";
	if (e.network_racks > 0)
		snprintf(net, sizeof net, ", %d network rack%s", e.network_racks,
			 e.network_racks == 1 ? "" : "s");
	if (e.whole_rack)
		snprintf(buf, n, "%d rack%s of one node each%s", e.compute_racks,
			 e.compute_racks == 1 ? "" : "s", net);
	else
		snprintf(buf, n, "%d node%s per %dU rack at %.0f kW%s%s", e.nodes_per_rack,
			 e.nodes_per_rack == 1 ? "" : "s", e.rack_u, e.rack_kw,
			 e.over_kw ? " (a node is over it)" : "", net);
}

static void info_rack_first(const struct tui *t, char *buf, size_t n)
{
	struct engine_elevation e;
	R_OR_DASH(buf, n, elevation_of(t, &e));
	engine_elevation_rack_line(&e, 0, buf, n);
}

static bool several_racks(const struct tui *t)
{
	struct engine_elevation e;
	return elevation_of(t, &e) && e.racks > 1;
}

static void info_rack_last(const struct tui *t, char *buf, size_t n)
{
	struct engine_elevation e;
	R_OR_DASH(buf, n, elevation_of(t, &e));
	engine_elevation_rack_line(&e, e.racks - 1, buf, n);
}

/* Capex is the quote (engine_quote()): the BOM's total to the cent, and
 * its five parts below it add up to it. */
static void info_capex(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	char a[48];
	if (engine_price_state(r) == PRICE_UNKNOWN)
		snprintf(buf, n, "none: the %s has no price (a price list names %s); %d unpriced line%s",
			 tui_accel_short(r->accel), r->accel->id, r->unpriced_lines,
			 r->unpriced_lines == 1 ? "" : "s");
	else if (r->unpriced_lines > 0)
		snprintf(buf, n, "%s  %d unpriced line%s NOT in it",
			 tui_fmt_usd_cents(a, sizeof a, r->capex_usd, r->currency), r->unpriced_lines,
			 r->unpriced_lines == 1 ? "" : "s");
	else
		snprintf(buf, n, "%s  the BOM total", tui_fmt_usd_cents(a, sizeof a, r->capex_usd, r->currency));
}

static void capex_part(const struct tui *t, char *buf, size_t n, double usd, const char *what)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r && r->platform);
	char a[48];
	snprintf(buf, n, "%s%s%s", tui_fmt_usd_cents(a, sizeof a, usd, r->currency), *what ? "  " : "", what);
}

static void info_hardware(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	char g[48], s[48], what[128];
	snprintf(what, sizeof what, "GPUs %s, servers %s", tui_fmt_usd_cents(g, sizeof g, r->capex_gpus_usd, r->currency),
		 tui_fmt_usd_cents(s, sizeof s, r->capex_nodes_usd, r->currency));
	capex_part(t, buf, n, r->capex_hardware_usd, what);
}

static void info_fabric_usd(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	capex_part(t, buf, n, r->capex_fabric_usd, r->fabric ? "NICs, switches, cables" : "");
}

static void info_racks_usd(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	capex_part(t, buf, n, r->capex_racks_usd, "enclosures and PDUs");
}

static void info_support_usd(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	capex_part(t, buf, n, r->capex_support_usd, "hardware support contract");
}

static void info_services_usd(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	capex_part(t, buf, n, r->capex_services_usd, "installation and burn-in");
}

static void info_licences_usd(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	char what[64];
	snprintf(what, sizeof what, "software per GPU, %d year%s", r->tco_support_years_paid,
		 r->tco_support_years_paid == 1 ? "" : "s");
	capex_part(t, buf, n, r->capex_licences_usd, what);
}

static bool licences_shown(const struct tui *t)
{
	const struct engine_result *r = tui_chosen(t);
	return r && r->capex_licences_usd > 0;
}

static void info_margin_usd(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	capex_part(t, buf, n, r->capex_margin_usd, "the price list's MARGIN");
}

static bool margin_shown(const struct tui *t)
{
	const struct engine_result *r = tui_chosen(t);
	return r && r->capex_margin_usd > 0;
}

/* Rent or buy (engine_rent()): what renting the working GPUs costs, and
 * the month buying breaks even, in the engine's own sentence. */
static void info_rent(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r && r->platform && r->rent_basis >= 0);
	char a[48];
	bool train = r->cls != WL_INFERENCE;
	snprintf(buf, n, "%s%s, %s, %d GPU%s", tui_fmt_usd(a, sizeof a, r->rent_usd, r->currency),
		 train ? " for the run" : "/year", engine_rent_term_name(r->rent_basis), r->gpus,
		 r->gpus == 1 ? "" : "s");
}

static void info_rent_or_buy(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r && r->platform);
	/* the term is on the Rent row above: the sentence's first half fits */
	engine_rent_breakeven(r, buf, n);
}

static void info_running(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	char h[32], e[32];
	snprintf(buf, n, "%s/hour all-in, %s kWh/year", tui_fmt_usd_hour(h, sizeof h, r->usd_per_hour, r->currency),
		 tui_fmt_rate(e, sizeof e, r->energy_kwh_year));
}

/* The TCO (engine_result.tco_usd) and what it holds beyond the capex. */
static void info_tco(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r && r->platform);
	char a[48];
	snprintf(buf, n, "%s  over %d year%s, capex included", tui_fmt_usd_cents(a, sizeof a, r->tco_usd, r->currency),
		 r->tco_years, r->tco_years == 1 ? "" : "s");
}

static void tco_pair(const struct tui *t, char *buf, size_t n, double a, double b)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r && r->platform);
	char x[32], y[32];
	snprintf(buf, n, "%s + %s", tui_fmt_usd(x, sizeof x, a, r->currency), tui_fmt_usd(y, sizeof y, b, r->currency));
}

static void info_tco_power(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	tco_pair(t, buf, n, r ? r->tco_energy_usd : 0, r ? r->tco_colocation_usd : 0);
}

static void info_tco_support(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	tco_pair(t, buf, n, r ? r->tco_support_usd : 0, r ? r->tco_licence_usd : 0);
}

static void info_perf(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	char a[32], b[32], c[32];
	if (t->sc.w.cls == WL_INFERENCE)
		snprintf(buf, n, "%s tok/s, %s tok/s per user, TTFT %s ms",
			 tui_fmt_rate(a, sizeof a, r->output_tokens_per_s),
			 tui_fmt_rate1(b, sizeof b, r->tokens_per_s_per_user), tui_fmt_ms(c, sizeof c, r->ttft_ms));
	else
		snprintf(buf, n, "%s to train, %s GPU-hours, scaling %s",
			 tui_fmt_hours(a, sizeof a, r->train_hours), tui_fmt_rate(b, sizeof b, r->gpu_hours),
			 tui_fmt_pct(c, sizeof c, r->scaling_efficiency * 100));
}

/* The headline figure's error band from the published results. */
static void info_band(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	R_OR_DASH(buf, n, r);
	bool inf = t->sc.w.cls == WL_INFERENCE;
	char b[80];
	if (tui_fmt_band(t, r, inf ? BAND_OUTPUT_TOKENS_PER_S : BAND_TRAIN_HOURS,
			 inf ? r->output_tokens_per_s : r->train_hours, b, sizeof b))
		snprintf(buf, n, "%s %s", inf ? "throughput" : "time to train", b);
	else
		snprintf(buf, n, "unvalidated (no published result covers it)");
}

static bool band_muted(const struct tui *t)
{
	const struct engine_result *r = tui_chosen(t);
	int k = t->sc.w.cls == WL_INFERENCE ? BAND_OUTPUT_TOKENS_PER_S : BAND_TRAIN_HOURS;
	return !r || r->band[k].n <= 0;
}

/* Several workloads: what each one gets of the chosen accelerator's
 * cluster (GPUs and their layout, or MIG slices), one row a workload, and
 * the cluster's total (what `bom --scenario` quotes). */
static void share_of(const struct tui *t, size_t e, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	if (!r || !tui_wl_share(t, e, r->accel, buf, n))
		snprintf(buf, n, "-");
}

#define WL_SLOT(i) \
	static void share_##i(const struct tui *t, char *buf, size_t n) { share_of(t, i, buf, n); } \
	static bool shown_##i(const struct tui *t) { return tui_wl_multi(t) && t->sc.n_entries > i; }
WL_SLOT(0) WL_SLOT(1) WL_SLOT(2) WL_SLOT(3) WL_SLOT(4) WL_SLOT(5) WL_SLOT(6) WL_SLOT(7)
WL_SLOT(8) WL_SLOT(9) WL_SLOT(10) WL_SLOT(11) WL_SLOT(12) WL_SLOT(13) WL_SLOT(14) WL_SLOT(15)
#undef WL_SLOT
_Static_assert(SCENARIO_MAX_WORKLOADS == 16, "one row a workload: WL_SLOT(0..15)");

static void cluster_total(const struct tui *t, char *buf, size_t n)
{
	const struct engine_result *r = tui_chosen(t);
	if (!r || !tui_wl_total(t, r->accel, buf, n))
		snprintf(buf, n, "-");
}

#define WL_ROW(i) { .label = "", .kind = TF_INFO, .info = share_##i, .shown = shown_##i }

static const struct tui_field rows[] = {
	{ .label = "Node", .kind = TF_HEADING },
	{ .label = "Accelerator", .kind = TF_INFO, .info = info_accel },
	{ .label = "Workloads", .kind = TF_INFO, .info = share_0, .shown = shown_0 },
	WL_ROW(1), WL_ROW(2), WL_ROW(3), WL_ROW(4), WL_ROW(5), WL_ROW(6), WL_ROW(7), WL_ROW(8),
	WL_ROW(9), WL_ROW(10), WL_ROW(11), WL_ROW(12), WL_ROW(13), WL_ROW(14), WL_ROW(15),
	{ .label = "All of them", .kind = TF_INFO, .info = cluster_total, .shown = tui_wl_multi },
	{ .label = "This workload", .kind = TF_HEADING, .shown = tui_wl_multi },
	{ .label = "! Stale choice", .kind = TF_INFO, .info = info_stale, .shown = stale_shown },
	{ .label = "Node shape", .kind = TF_INFO, .info = info_platform },
	{ .field = EF_GPUS + 1, .auto_value = auto_gpus, .after_set = choose_shown },
	{ .field = EF_SPARE_NODES + 1, .auto_value = auto_spares, .after_set = choose_shown },
	{ .field = EF_RACK_KW + 1, .auto_value = auto_rack_kw },
	{ .label = "Parallel layout", .kind = TF_INFO, .info = info_layout },
	{ .label = "Serving stack", .kind = TF_INFO, .info = info_stack, .shown = serving_shown },
	{ .label = "Training stack", .kind = TF_INFO, .info = info_train_stack, .shown = training_shown },
	{ .label = "Nodes", .kind = TF_INFO, .info = info_nodes },
	{ .label = "Scale-out", .kind = TF_INFO, .info = info_fabric },
	{ .label = "Network", .kind = TF_INFO, .info = info_network },
	{ .label = "Space and power", .kind = TF_INFO, .info = info_space },
	{ .label = "Rack elevation", .kind = TF_INFO, .info = info_elevation },
	{ .label = " First rack", .kind = TF_INFO, .info = info_rack_first },
	{ .label = " Last rack", .kind = TF_INFO, .info = info_rack_last, .shown = several_racks },
	{ .field = EF_COOLING + 1 },
	{ .field = EF_FABRIC + 1 },
	{ .field = EF_FABRIC_SPEED + 1 },
	{ .field = EF_NODE_GPUS + 1 },
	{ .field = EF_PLATFORM + 1 },
	{ .label = "Capex", .kind = TF_INFO, .info = info_capex },
	{ .label = "Hardware", .kind = TF_INFO, .info = info_hardware },
	{ .label = "Fabric", .kind = TF_INFO, .info = info_fabric_usd },
	{ .label = "Racks and PDUs", .kind = TF_INFO, .info = info_racks_usd },
	{ .label = "Support", .kind = TF_INFO, .info = info_support_usd },
	{ .label = "Services", .kind = TF_INFO, .info = info_services_usd },
	{ .label = "Licences", .kind = TF_INFO, .info = info_licences_usd, .shown = licences_shown },
	{ .label = "Margin", .kind = TF_INFO, .info = info_margin_usd, .shown = margin_shown },
	{ .field = EF_SUPPORT_YEARS + 1, .auto_value = auto_support_years },
	{ .field = EF_YEARS + 1, .auto_value = auto_years },
	{ .label = "TCO", .kind = TF_INFO, .info = info_tco },
	{ .label = " Energy + colocation", .kind = TF_INFO, .info = info_tco_power },
	{ .label = " Support + licences", .kind = TF_INFO, .info = info_tco_support },
	{ .label = "Running cost", .kind = TF_INFO, .info = info_running },
	{ .field = EF_RENT_TERM + 1 },
	{ .label = "Rent", .kind = TF_INFO, .info = info_rent },
	{ .label = "Rent or buy", .kind = TF_INFO, .info = info_rent_or_buy },
	{ .label = "Predicted", .kind = TF_INFO, .info = info_perf },
	{ .label = "Error band", .kind = TF_INFO, .info = info_band, .muted = band_muted },
};
#define NFIELDS ((int)(sizeof rows / sizeof rows[0]))

static void draw(struct tui *t, WINDOW *win, int h, int w)
{
	struct tui_field fields[NFIELDS];
	tui_fields_resolve(rows, fields, NFIELDS);
	tui_form_draw(t, win, h, w, fields, NFIELDS, &t->node.form);
}

static int key(struct tui *t, enum tui_action a, int ch)
{
	struct tui_field fields[NFIELDS];
	tui_fields_resolve(rows, fields, NFIELDS);
	return tui_form_key(t, a, ch, fields, NFIELDS, &t->node.form);
}

const struct tui_step tui_step4 = {
	.name = "Node",
	.draw = draw,
	.key = key,
};
