/*
 * accuracy.c and ledger.c on the bundled catalog: every ledger entry is
 * predicted by the same engine functions `recommend` uses (the figure equals
 * engine_run's result for that accelerator), the statistics and the budget,
 * and the error bands: percentiles, the family/class/precision fallback and
 * how they are laid onto a result.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy.h"
#include "catalog.h"
#include "engine.h"
#include "ledger.h"
#include "fixture.h"
#include "tap.h"

static struct catalog *cat;
static struct ledger *led;
static struct engine_report rep;

static void load(void)
{
	cat = fixture_shipped_catalog();
	struct catalog_errors e;
	if (!(led = ledger_load(cat, &e)) || !engine_report_init(&rep, cat)) {
		printf("Bail out! the shipped catalog's ledger does not load\n");
		exit(EXIT_FAILURE);
	}
	catalog_errors_fini(&e);
}

/* The entry's metric as the CLI would read it off engine_run's report. */
static double from_report(const struct ledger_entry *e, const struct engine_result *r)
{
	switch (e->metric) {
	case LM_OUTPUT_TOKENS_PER_S: return r->output_tokens_per_s;
	case LM_TOKENS_PER_S_PER_USER: return r->tokens_per_s_per_user;
	/* first-token times at the load served (accuracy.c) */
	case LM_TTFT_MS: case LM_TTFT_P50_MS: return r->ttft_p50_ms;
	case LM_TTFT_P99_MS: return r->ttft_p99_ms;
	case LM_TPOT_MS: return 1000.0 / r->tokens_per_s_per_user;
	case LM_REQUEST_LATENCY_S:
		return r->ttft_p50_ms / 1000.0 + (double)(e->w.output_tokens - 1) / r->tokens_per_s_per_user;
	case LM_REQUESTS_PER_S: return r->output_tokens_per_s / (double)e->w.output_tokens;
	case LM_SAMPLES_PER_S: return r->tokens_per_s_per_gpu * r->gpus / (double)e->w.seq_len;
	case LM_TOKENS_PER_S_PER_GPU: return r->tokens_per_s_per_gpu;
	case LM_MFU: return r->mfu;
	case LM_STEP_S: return r->step_s;
	/* MLPerf's clock runs on a run that finished: the report's hours
	 * without the interruptions goodput counts (accuracy.c) */
	case LM_TRAIN_MINUTES: return r->train_hours * r->goodput * 60;
	case LM_GPU_HOURS: return r->gpu_hours;
	default: return NAN;
	}
}

START_TEST(every_entry_as_recommend_sees_it)
{
	struct accuracy_row row;
	size_t mapped = 0;
	for (size_t i = 0; i < led->n; i++) {
		const struct ledger_entry *e = &led->entries[i];
		accuracy_run(cat, e, &row);
		if (!row.mapped) {
			ck_assert_msg(row.why[0], "%s: not mapped without a reason", e->id);
			continue;
		}
		mapped++;
		engine_run(cat, &e->w, &rep);
		const struct engine_result *r = engine_report_find(&rep, e->accel);
		ck_assert_ptr_nonnull(r);
		double v = from_report(e, r);
		ck_assert_msg(v == row.predicted, "%s: accuracy %g, recommend %g", e->id, row.predicted, v);
		ck_assert_msg(fabs(row.error_pct - (v - e->value) / e->value * 100) < 1e-9, "%s", e->id);
	}
	ck_assert_uint_gt(mapped, led->n / 2);
}
END_TEST

/* Issue 16: never refuse a workload a published layout holds.  A training
 * entry whose source gives its layout (the entry's layout block: TP, PP,
 * CP, EP, the micro-batch) runs in it, forced, and the engine sizes it.
 * Two calibration entries still run the searched layout, because their
 * figure was set there: the Llama 3 paper's 8,192 H100 (at Meta's TP8 PP16
 * the memory model needs ZeRO-3 and gives -33%: it counts more
 * activations in flight than Meta's schedule keeps, which ran without
 * activation checkpointing) and the Megatron-Bridge 26.02 GB300 Llama 3
 * 70B NVFP4 row (its fp4 share was solved at the searched layout; forced:
 * -4.8%); docs/accuracy.md, "Published layouts forced". */
static bool layout_left_searched(const char *id)
{
	return !strcmp(id, "paper-llama3-405b-h100x8192-mfu") ||
	       !strcmp(id, "mbridge2602-gb300x64-llama3-70b-nvfp4");
}

static void check_forced(const struct ledger_entry *e, int idx, int got, const char *key)
{
	long want = e->layout[idx];
	if (want > 0)
		ck_assert_msg(got == want, "%s: the source's %s %ld is not forced (workload %s %d)", e->id,
			      key, want, key, got);
}

START_TEST(training_entries_run_their_published_layout)
{
	struct accuracy_row row;
	size_t forced = 0;
	for (size_t i = 0; i < led->n; i++) {
		const struct ledger_entry *e = &led->entries[i];
		if (e->w.cls == WL_INFERENCE)
			continue;
		if (!layout_left_searched(e->id)) {
			check_forced(e, LEDGER_TP, e->w.tp, "tp");
			check_forced(e, LEDGER_PP, e->w.pp, "pp");
			check_forced(e, LEDGER_CP, e->w.cp, "cp");
			check_forced(e, LEDGER_EP, e->w.ep, "ep");
			check_forced(e, LEDGER_BATCH, e->w.micro_batch, "micro-batch");
			forced += e->layout[LEDGER_TP] > 0;
		}
		accuracy_run(cat, e, &row);
		ck_assert_msg(row.mapped || !strstr(row.why, "cannot size"), "%s refused: %s", e->id, row.why);
	}
	ck_assert_uint_gt(forced, 80);
}
END_TEST

START_TEST(calibration_entries_are_named_by_figures)
{
	/* every calibrated_from id is a calibration entry (the loader checks
	 * it; here the other way round: the H100's compute figure names the
	 * MLPerf H100 Offline entry, which is calibration) */
	const struct catalog_accel *h = catalog_accel(cat, "h100-sxm");
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(h->eff_compute.calibrated_from, "mlpinf41-h100x8-llama2-70b-offline");
	const struct ledger_entry *e = ledger_find(led, "mlpinf41-h100x8-llama2-70b-offline");
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->role, LEDGER_CALIBRATION);
	ck_assert_uint_gt(ledger_count(led, LEDGER_CALIBRATION), 0);
	ck_assert_uint_eq(ledger_count(led, LEDGER_CALIBRATION) + ledger_count(led, LEDGER_VALIDATION),
			  led->n);
}
END_TEST

/* rows whose errors are given, for the statistics */
static void fake_rows(struct accuracy_row *rows, const double *err, size_t n, enum ledger_role role,
		      struct ledger_entry *ents)
{
	for (size_t i = 0; i < n; i++) {
		memset(&rows[i], 0, sizeof rows[i]);
		ents[i] = led->entries[0];
		ents[i].role = role;
		rows[i].e = &ents[i];
		rows[i].mapped = true;
		rows[i].error_pct = err[i];
	}
}

START_TEST(stats_median_worst_budget)
{
	struct accuracy_row rows[5];
	struct ledger_entry ents[5];
	const double err[5] = { -4, 12, 2, -30, 6 };
	fake_rows(rows, err, 5, LEDGER_VALIDATION, ents);
	struct accuracy_stats st;
	accuracy_stats(rows, 5, LEDGER_VALIDATION, &st);
	ck_assert_uint_eq(st.n, 5);
	ck_assert_double_eq_tol(st.median_abs_pct, 6, 1e-12);	/* 2 4 6 12 30 */
	ck_assert_double_eq_tol(st.worst_pct, -30, 1e-12);
	ck_assert(!accuracy_within_budget(&st));		/* one over 25% */
	accuracy_stats(rows, 4, LEDGER_VALIDATION, &st);	/* -4 12 2 -30: median (4 + 12) / 2 */
	ck_assert_double_eq_tol(st.median_abs_pct, 8, 1e-12);
	accuracy_stats(rows, 3, LEDGER_VALIDATION, &st);	/* -4 12 2 */
	ck_assert(accuracy_within_budget(&st));
	accuracy_stats(rows, 5, LEDGER_CALIBRATION, &st);
	ck_assert_uint_eq(st.n, 0);
	rows[1].error_pct = 11;
	rows[2].error_pct = -11;
	accuracy_stats(rows, 3, LEDGER_VALIDATION, &st);	/* 4 11 11: median over 10% */
	ck_assert(!accuracy_within_budget(&st));
}
END_TEST

/* A ledger of n validation entries on one setup, published at
 * predicted / factor[i], so that predicted / published = factor[i]. */
static struct ledger *setup_ledger(const char *accel, const double *factor, size_t n)
{
	struct ledger *l = calloc(1, sizeof *l);
	l->entries = calloc(n, sizeof *l->entries);
	l->n = n;
	struct workload w;
	engine_workload_init(&w, cat);
	w.model = catalog_model(cat, "llama-2-70b");
	w.precision = w.kv_precision = PREC_FP8;
	w.input_tokens = w.output_tokens = 300;
	w.concurrency_max = true;
	w.accel = catalog_accel(cat, accel);
	w.gpus = 8;
	struct engine_result r;
	engine_evaluate(cat, &w, w.accel, &r);
	for (size_t i = 0; i < n; i++) {
		struct ledger_entry *e = &l->entries[i];
		e->role = LEDGER_VALIDATION;
		e->metric = LM_OUTPUT_TOKENS_PER_S;
		e->accel = w.accel;
		e->gpus = 8;
		e->w = w;
		e->has_lengths = true;
		e->value = r.output_tokens_per_s / factor[i];
	}
	return l;
}

static void free_setup(struct ledger *l)
{
	free(l->entries);
	free(l);
}

START_TEST(bands_percentiles_and_fallback)
{
	const double f[5] = { 1.2, 0.8, 1.0, 1.1, 0.9 };
	struct ledger *l = setup_ledger("h100-sxm", f, 5);
	struct accuracy_bands *b = accuracy_bands_build(cat, l);
	ck_assert_ptr_nonnull(b);

	/* an H100 fp8 serving result: its own group (Hopper, inference, fp8) */
	struct engine_result r;
	engine_evaluate(cat, &l->entries[0].w, l->entries[0].accel, &r);
	accuracy_bands_apply(b, &r);
	double v = r.output_tokens_per_s;
	/* sorted 0.8 0.9 1.0 1.1 1.2: 10th percentile 0.84, 90th 1.16 */
	ck_assert_int_eq(r.band[BAND_OUTPUT_TOKENS_PER_S].n, 5);
	ck_assert_double_eq_tol(r.band[BAND_OUTPUT_TOKENS_PER_S].low, v / 1.16, 1e-9 * v);
	ck_assert_double_eq_tol(r.band[BAND_OUTPUT_TOKENS_PER_S].high, v / 0.84, 1e-9 * v);
	/* nothing covers first-token time or training here */
	ck_assert_int_eq(r.band[BAND_TTFT_MS].n, 0);
	ck_assert_int_eq(r.band[BAND_TRAIN_HOURS].n, 0);

	/* another family falls back to the inference class */
	struct workload w = l->entries[0].w;
	w.accel = catalog_accel(cat, "mi300x");
	engine_evaluate(cat, &w, w.accel, &r);
	accuracy_bands_apply(b, &r);
	ck_assert_int_eq(r.band[BAND_OUTPUT_TOKENS_PER_S].n, 5);
	ck_assert_double_eq_tol(r.band[BAND_OUTPUT_TOKENS_PER_S].low, r.output_tokens_per_s / 1.16,
				1e-9 * r.output_tokens_per_s);

	/* a training result: unvalidated */
	engine_workload_class_defaults(&w, WL_PRETRAIN);
	w.accel = NULL;
	w.gpus = -1;
	engine_evaluate(cat, &w, catalog_accel(cat, "h100-sxm"), &r);
	accuracy_bands_apply(b, &r);
	ck_assert_int_eq(r.band[BAND_TRAIN_HOURS].n, 0);
	accuracy_bands_free(b);
	free_setup(l);
}
END_TEST

/* The n of the H100's own serving band from a setup ledger of factors. */
static int h100_band_n(const double *f, size_t n, enum ledger_role role)
{
	struct ledger *l = setup_ledger("h100-sxm", f, n);
	for (size_t i = 0; i < l->n; i++)
		l->entries[i].role = role;
	struct accuracy_bands *b = accuracy_bands_build(cat, l);
	ck_assert_ptr_nonnull(b);
	struct engine_result r;
	engine_evaluate(cat, &l->entries[0].w, l->entries[0].accel, &r);
	accuracy_bands_apply(b, &r);
	int got = r.band[BAND_OUTPUT_TOKENS_PER_S].n;
	accuracy_bands_apply(NULL, &r);		/* no table: unvalidated */
	ck_assert_int_eq(r.band[BAND_OUTPUT_TOKENS_PER_S].n, 0);
	accuracy_bands_free(b);
	free_setup(l);
	return got;
}

START_TEST(bands_need_three_results)
{
	const double f[3] = { 1.1, 0.9, 1.0 };
	ck_assert_int_eq(h100_band_n(f, 2, LEDGER_VALIDATION), 0);	/* two: unvalidated */
	ck_assert_int_eq(h100_band_n(f, 3, LEDGER_VALIDATION), 3);
}
END_TEST

START_TEST(calibration_entries_never_make_bands)
{
	const double f[4] = { 1.5, 1.5, 1.5, 1.5 };
	ck_assert_int_eq(h100_band_n(f, 4, LEDGER_CALIBRATION), 0);
}
END_TEST

START_TEST(metric_table)
{
	enum ledger_metric m;
	ck_assert(ledger_metric_parse("gpu_hours", &m));
	ck_assert_int_eq(m, LM_GPU_HOURS);
	ck_assert_str_eq(ledger_metric(m)->unit, "h");
	ck_assert(ledger_metric(m)->training && !ledger_metric(m)->higher_is_better);
	ck_assert(!ledger_metric_parse("tok/s", &m));
	for (int i = 0; i < LM_COUNT; i++) {
		ck_assert_ptr_nonnull(ledger_metric(i)->name);
		ck_assert(ledger_metric_parse(ledger_metric(i)->name, &m) && (int)m == i);
	}
	char fam[48];
	accuracy_family(catalog_accel(cat, "h200-sxm"), fam, sizeof fam);
	ck_assert_str_eq(fam, "Hopper");
}
END_TEST

#define ADD(s, fn) TAP_ADD_TIMEOUT(s, fn, 300)

int main(void)
{
	load();
	Suite *s = suite_create("accuracy");
	ADD(s, every_entry_as_recommend_sees_it);
	ADD(s, calibration_entries_are_named_by_figures);
	ADD(s, training_entries_run_their_published_layout);
	ADD(s, stats_median_worst_budget);
	ADD(s, bands_percentiles_and_fallback);
	ADD(s, bands_need_three_results);
	ADD(s, calibration_entries_never_make_bands);
	ADD(s, metric_table);
	int rc = tap_run(s);
	engine_report_fini(&rep);
	ledger_free(led);
	catalog_free(cat);
	return rc;
}
