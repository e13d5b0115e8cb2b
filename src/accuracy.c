/*
 * accuracy: published results against the engine, and error bands (see
 * accuracy.h).
 */
#include "accuracy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- one entry ---- */

static bool not_mapped(struct accuracy_row *out, const char *why)
{
	out->mapped = false;
	snprintf(out->why, sizeof out->why, "%s", why);
	return false;
}

/* The entry's metric from the engine's result, in the entry's unit. */
static bool metric_value(const struct ledger_entry *e, const struct engine_result *r,
			 struct accuracy_row *out)
{
	const struct workload *w = &e->w;
	double v = NAN;
	/* A serving figure depends on the prompt and answer lengths; the
	 * catalog's default lengths would compare another workload. */
	if (w->cls == WL_INFERENCE && !e->has_lengths)
		return not_mapped(out, "the source gives no input and output lengths");
	switch (e->metric) {
	case LM_OUTPUT_TOKENS_PER_S: v = r->output_tokens_per_s; break;
	case LM_TOKENS_PER_S_PER_USER: v = r->tokens_per_s_per_user; break;
	/* first-token times at the load served (a published mean is read
	 * against the median: the queue is short where means are published) */
	case LM_TTFT_MS:
	case LM_TTFT_P50_MS: v = r->ttft_p50_ms; break;
	case LM_TTFT_P99_MS: v = r->ttft_p99_ms; break;
	case LM_TPOT_MS: v = 1000.0 / r->tokens_per_s_per_user; break;
	/* a request from its arrival to its last token: the first token,
	 * then the other O - 1 at the per-user speed */
	case LM_REQUEST_LATENCY_S:
		v = r->ttft_p50_ms / 1000.0 + (double)(w->output_tokens - 1) / r->tokens_per_s_per_user;
		break;
	case LM_REQUESTS_PER_S: v = r->output_tokens_per_s / (double)w->output_tokens; break;
	case LM_SAMPLES_PER_S:
		if (!e->has_seq_len)
			return not_mapped(out, "the source gives no sequence length, so no samples to "
					  "count");
		v = r->tokens_per_s_per_gpu * r->gpus / (double)w->seq_len;
		break;
	case LM_TOKENS_PER_S_PER_GPU: v = r->tokens_per_s_per_gpu; break;
	case LM_MFU: v = r->mfu; break;
	case LM_STEP_S:
		if (!e->has_batch)
			return not_mapped(out, "the source gives no global batch, so no step to compare");
		v = r->step_s;
		break;
	case LM_TRAIN_MINUTES:
	case LM_GPU_HOURS:
		if (!e->has_tokens)
			return not_mapped(out, e->metric == LM_TRAIN_MINUTES
						       ? "no run log read for the samples the run needed, so no "
							 "time to compare"
						       : "the source gives no training tokens, so no time to "
							 "compare");
		/* MLPerf's time to train runs from run_start (after the
		 * initialisation) to run_stop of a run that finished: steps and
		 * evaluations, no interruption, so no goodput; a model card's
		 * GPU-hours are a whole run's, interruptions included */
		v = e->metric == LM_GPU_HOURS ? r->gpu_hours : r->train_hours * r->goodput * 60;
		break;
	case LM_COUNT: break;
	}
	if (!isfinite(v) || !(v > 0)) {
		char why[160];
		snprintf(why, sizeof why, "the engine gives no %s for this setup",
			 ledger_metric(e->metric)->name);
		return not_mapped(out, why);
	}
	out->predicted = v;
	return true;
}

void accuracy_run(const struct catalog *c, const struct ledger_entry *e, struct accuracy_row *out)
{
	memset(out, 0, sizeof *out);
	out->e = e;
	out->predicted = out->error_pct = NAN;
	char why[192];
	if (!engine_workload_valid(&e->w, why, sizeof why)) {
		not_mapped(out, why);
		return;
	}
	engine_evaluate(c, &e->w, e->accel, &out->res);
	if (!out->res.fits) {
		out->mapped = false;
		char rb[ENGINE_REASON_MAX];
		snprintf(out->why, sizeof out->why, "the engine cannot size it: %s",
			 engine_result_reason(&out->res, rb, sizeof rb));
		return;
	}
	if (!metric_value(e, &out->res, out))
		return;
	out->mapped = true;
	out->error_pct = (out->predicted - e->value) / e->value * 100.0;
}

void accuracy_family(const struct catalog_accel *a, char *buf, size_t sz)
{
	const char *arch = a && a->architecture ? a->architecture : "?";
	snprintf(buf, sz, "%.*s", (int)catalog_family_len(arch), arch);
}

/* ---- statistics ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void accuracy_stats(const struct accuracy_row *rows, size_t n, enum ledger_role role,
		    struct accuracy_stats *out)
{
	memset(out, 0, sizeof *out);
	double *abs_err = malloc((n ? n : 1) * sizeof *abs_err);
	if (!abs_err)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct accuracy_row *r = &rows[i];
		if (!r->mapped || (role != LEDGER_ROLE_COUNT && r->e->role != role))
			continue;
		abs_err[out->n++] = fabs(r->error_pct);
		if (!out->worst || fabs(r->error_pct) > fabs(out->worst_pct)) {
			out->worst = r->e;
			out->worst_pct = r->error_pct;
		}
	}
	if (out->n) {
		qsort(abs_err, out->n, sizeof *abs_err, cmp_double);
		size_t h = out->n / 2;
		out->median_abs_pct = out->n % 2 ? abs_err[h] : (abs_err[h - 1] + abs_err[h]) / 2;
	}
	free(abs_err);
}

bool accuracy_within_budget(const struct accuracy_stats *v)
{
	return v->median_abs_pct <= ACCURACY_MEDIAN_BUDGET_PCT &&
	       fabs(v->worst_pct) <= ACCURACY_WORST_BUDGET_PCT;
}

/* ---- bands ---- */

/* Which published metrics judge which figure: throughput by throughput,
 * per-user speed by speed or inter-token time, first-token time by
 * first-token time; a training run's time by any training figure (each
 * measures how fast the same steps go). */
#define BIT(m) (1u << (m))
static const unsigned band_covers[BAND_COUNT] = {
	[BAND_OUTPUT_TOKENS_PER_S] = BIT(LM_OUTPUT_TOKENS_PER_S) | BIT(LM_REQUESTS_PER_S) |
				     BIT(LM_TOKENS_PER_S_PER_GPU),
	[BAND_TOKENS_PER_S_PER_USER] = BIT(LM_TOKENS_PER_S_PER_USER) | BIT(LM_TPOT_MS),
	[BAND_TTFT_MS] = BIT(LM_TTFT_MS) | BIT(LM_TTFT_P50_MS),
	[BAND_TRAIN_HOURS] = BIT(LM_SAMPLES_PER_S) | BIT(LM_TOKENS_PER_S_PER_GPU) | BIT(LM_MFU) |
			     BIT(LM_STEP_S) | BIT(LM_TRAIN_MINUTES) | BIT(LM_GPU_HOURS),
	[BAND_GPU_HOURS] = BIT(LM_SAMPLES_PER_S) | BIT(LM_TOKENS_PER_S_PER_GPU) | BIT(LM_MFU) |
			   BIT(LM_STEP_S) | BIT(LM_TRAIN_MINUTES) | BIT(LM_GPU_HOURS),
};
/* The figures are rates (higher is better) or times. */
static const bool band_is_rate[BAND_COUNT] = { true, true, false, false, false };

struct band_group {
	char family[48];		/* "" = any family (the class level) */
	enum workload_class cls;
	int precision;			/* -1 = any (the class level) */
	int figure;
	size_t n, cap;
	double *ratio;			/* predicted / true, in the figure's direction */
	double gmin, gmax;		/* their 10th and 90th percentiles (resolve()) */
};

/* The band each (accelerator, class, precision, figure) gets
 * (struct accuracy_band_cell), resolved once with the fallback rule so a
 * result's lookup is an index. */
#define band_cell accuracy_band_cell

struct accuracy_bands {
	struct band_group *g;
	size_t n, cap;
	const struct catalog_accel *accels;	/* the catalog's array */
	size_t n_accels;
	struct band_cell *cell;		/* [n_accels][WL_COUNT][PREC_COUNT][BAND_COUNT] */
};

static size_t cell_index(size_t a, int cls, int prec, int fig)
{
	return ((a * WL_COUNT + (size_t)cls) * PREC_COUNT + (size_t)prec) * BAND_COUNT + (size_t)fig;
}


static struct band_group *group_find(const struct accuracy_bands *b, const char *family,
				     enum workload_class cls, int precision, int figure)
{
	for (size_t i = 0; i < b->n; i++) {
		struct band_group *g = &b->g[i];
		if (g->cls == cls && g->precision == precision && g->figure == figure &&
		    !strcmp(g->family, family))
			return g;
	}
	return NULL;
}

static bool group_add(struct accuracy_bands *b, const char *family, enum workload_class cls,
		      int precision, int figure, double ratio)
{
	struct band_group *g = group_find(b, family, cls, precision, figure);
	if (!g) {
		if (b->n == b->cap) {
			size_t cap = b->cap ? b->cap * 2 : 32;
			struct band_group *n = realloc(b->g, cap * sizeof *n);
			if (!n)
				return false;
			b->g = n;
			b->cap = cap;
		}
		g = &b->g[b->n++];
		memset(g, 0, sizeof *g);
		snprintf(g->family, sizeof g->family, "%s", family);
		g->cls = cls;
		g->precision = precision;
		g->figure = figure;
	}
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 8;
		double *n = realloc(g->ratio, cap * sizeof *n);
		if (!n)
			return false;
		g->ratio = n;
		g->cap = cap;
	}
	g->ratio[g->n++] = ratio;
	return true;
}

static int cmp_ratio(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The p-th percentile of sorted v[0..n), linearly between ranks. */
static double percentile(const double *v, size_t n, double p)
{
	double at = p * (double)(n - 1);
	size_t i = (size_t)at;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (v[i + 1] - v[i]) * (at - (double)i);
}

/* The band is the central 80% of a group's errors: the spread most
 * predictions of that kind had, without letting one setup the engine
 * does not model (a first-token time dominated by fixed costs, a
 * published run with another software release) stretch it for all. */
static void spread(struct accuracy_bands *b)
{
	for (size_t i = 0; i < b->n; i++) {
		struct band_group *g = &b->g[i];
		qsort(g->ratio, g->n, sizeof *g->ratio, cmp_ratio);
		g->gmin = percentile(g->ratio, g->n, 0.10);
		g->gmax = percentile(g->ratio, g->n, 0.90);
	}
}

/* Family, class and precision when they have enough entries, else the
 * class, else nothing. */
static bool resolve(struct accuracy_bands *b)
{
	b->cell = calloc(b->n_accels * WL_COUNT * PREC_COUNT * BAND_COUNT + 1, sizeof *b->cell);
	if (!b->cell)
		return false;
	spread(b);
	char family[48];
	for (size_t a = 0; a < b->n_accels; a++) {
		accuracy_family(&b->accels[a], family, sizeof family);
		for (int cls = 0; cls < WL_COUNT; cls++)
			for (int prec = 0; prec < PREC_COUNT; prec++)
				for (int k = 0; k < BAND_COUNT; k++) {
					const struct band_group *g = group_find(b, family, cls, prec, k);
					if (!g || g->n < ACCURACY_BAND_MIN)
						g = group_find(b, "", cls, -1, k);
					if (!g || g->n < ACCURACY_BAND_MIN)
						continue;
					struct band_cell *c = &b->cell[cell_index(a, cls, prec, k)];
					c->gmin = g->gmin;
					c->gmax = g->gmax;
					c->n = (int)g->n;
				}
	}
	return true;
}

static bool add_row(struct accuracy_bands *b, const struct accuracy_row *r)
{
	const struct ledger_entry *e = r->e;
	char family[48];
	accuracy_family(e->accel, family, sizeof family);
	double f = r->predicted / e->value;
	bool rate = ledger_metric(e->metric)->higher_is_better;
	for (int k = 0; k < BAND_COUNT; k++) {
		if (!(band_covers[k] & BIT(e->metric)))
			continue;
		double g = rate == band_is_rate[k] ? f : 1.0 / f;
		if (!group_add(b, family, e->w.cls, (int)e->w.precision, k, g) ||
		    !group_add(b, "", e->w.cls, -1, k, g))
			return false;
	}
	return true;
}

struct accuracy_bands *accuracy_bands_build(const struct catalog *c, const struct ledger *l)
{
	struct accuracy_bands *b = calloc(1, sizeof *b);
	struct accuracy_row *row = malloc(sizeof *row);
	bool ok = b && row;
	for (size_t i = 0; ok && l && i < l->n; i++) {
		if (l->entries[i].role != LEDGER_VALIDATION)
			continue;
		accuracy_run(c, &l->entries[i], row);
		if (row->mapped)
			ok = add_row(b, row);
	}
	free(row);
	if (ok) {
		b->accels = c->accels;
		b->n_accels = c->n_accels;
		ok = resolve(b);
	}
	if (!ok) {
		accuracy_bands_free(b);
		return NULL;
	}
	return b;
}

void accuracy_bands_free(struct accuracy_bands *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n; i++)
		free(b->g[i].ratio);
	free(b->g);
	free(b->cell);
	free(b);
}

const struct accuracy_band_cell *accuracy_bands_cells(const struct accuracy_bands *b)
{
	return b->cell;
}

struct accuracy_bands *accuracy_bands_from_cells(const struct catalog *c,
						 const struct accuracy_band_cell *cells, size_t n)
{
	if (n != ACCURACY_BAND_CELLS(c))
		return NULL;
	/* a cell read from a cache image must still give a finite, ordered,
	 * positive band */
	for (size_t i = 0; i < n; i++)
		if (cells[i].n < 0 || (cells[i].n && !(isfinite(cells[i].gmin) &&
						       isfinite(cells[i].gmax) && cells[i].gmin > 0 &&
						       cells[i].gmin <= cells[i].gmax)))
			return NULL;
	struct accuracy_bands *b = calloc(1, sizeof *b);
	if (!b || !(b->cell = malloc((n + 1) * sizeof *b->cell))) {
		free(b);
		return NULL;
	}
	memcpy(b->cell, cells, n * sizeof *cells);
	b->accels = c->accels;
	b->n_accels = c->n_accels;
	return b;
}

static double figure_value(const struct engine_result *r, int k)
{
	switch (k) {
	case BAND_OUTPUT_TOKENS_PER_S: return r->output_tokens_per_s;
	case BAND_TOKENS_PER_S_PER_USER: return r->tokens_per_s_per_user;
	case BAND_TTFT_MS: return r->ttft_ms;
	case BAND_TRAIN_HOURS: return r->train_hours;
	case BAND_GPU_HOURS: return r->gpu_hours;
	default: return NAN;
	}
}

void accuracy_bands_apply(const struct accuracy_bands *b, struct engine_result *res)
{
	memset(res->band, 0, sizeof res->band);
	if (!b || !res->accel || res->accel < b->accels || res->accel >= b->accels + b->n_accels ||
	    res->cls >= WL_COUNT || res->precision_used >= PREC_COUNT)
		return;
	size_t a = (size_t)(res->accel - b->accels);
	for (int k = 0; k < BAND_COUNT; k++) {
		const struct band_cell *c = &b->cell[cell_index(a, res->cls, res->precision_used, k)];
		double v = figure_value(res, k);
		if (!c->n || !isfinite(v))
			continue;
		res->band[k].low = v / c->gmax;
		res->band[k].high = v / c->gmin;
		res->band[k].n = c->n;
	}
}

void accuracy_bands_apply_report(const struct accuracy_bands *b, struct engine_report *r)
{
	for (size_t i = 0; i < r->n; i++)
		accuracy_bands_apply(b, &r->results[i]);
}
