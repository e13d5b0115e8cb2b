/*
 * engine_rank: evaluating every accelerator, applying the user's filters
 * and ranking the results under the chosen objective.
 *
 * Order: fitting and unfiltered first (by the objective), then the ones a
 * filter excluded (they stay visible with the reason), then those that
 * cannot meet the workload.  engine_run() sorts an index array held by the
 * report, so it never allocates.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "prices.h"

bool engine_report_init(struct engine_report *r, const struct catalog *c)
{
	memset(r, 0, sizeof *r);
	size_t n = c && c->n_accels ? c->n_accels : 1;
	r->results = calloc(n, sizeof *r->results);
	r->scratch_ = calloc(n, sizeof *r->scratch_);
	r->order_ = calloc(2 * n, sizeof *r->order_);	/* the second half: merge buffer */
	r->key_ = calloc(n, sizeof *r->key_);
	r->tcache_ = eng_tcache_new();
	if (!r->results || !r->scratch_ || !r->order_ || !r->key_ || !r->tcache_) {
		engine_report_fini(r);
		return false;
	}
	r->cap_ = n;
	return true;
}

void engine_report_fini(struct engine_report *r)
{
	free(r->results);
	free(r->scratch_);
	free(r->order_);
	free(r->key_);
	eng_tcache_free(r->tcache_);
	memset(r, 0, sizeof *r);
}

void eng_result_clear(struct engine_result *r, const struct catalog_accel *a)
{
	memset(r, 0, sizeof *r);
	r->accel = a;
	r->binding = RES_NONE;
	r->tp = r->pp = r->dp = r->ep = r->replicas = r->virtual_stages = 1;
	r->cp = r->micro_batch = 1;
	r->samples_per_s = r->goodput = r->interruptions_per_day = NAN;
	r->output_tokens_per_s = r->tokens_per_s_per_user = r->ttft_ms = r->step_ms = NAN;
	r->ttft_p50_ms = r->ttft_p99_ms = r->tpot_p99_ms = r->arrival_rate = NAN;
	r->spec_acceptance = r->spec_tokens_per_step = NAN;
	r->train_hours = r->gpu_hours = r->scaling_efficiency = r->step_s = r->mfu = NAN;
	r->usd_per_mtok = r->run_cost_usd = r->perf_per_watt = NAN;
	r->rent_usd = r->breakeven_months = NAN;
	r->rent_basis = -1;
	r->rent_asked = -1;
	r->currency = "USD";
	r->t_compute_s = r->t_memory_s = r->t_comm_s = r->t_bubble_s = r->prefill_s = NAN;
	r->tokens_per_s_per_gpu = NAN;
	r->link_gb_s_used = r->nic_gb_s_per_gpu = NAN;
}

/* Appends one filter's reason ("; " between several). */
static void add_reason(struct engine_result *r, const char *text)
{
	size_t len = strlen(r->filter_reason), cap = sizeof r->filter_reason - 1;
	if (len && len + 2 <= cap) {
		memcpy(r->filter_reason + len, "; ", 2);
		len += 2;
	}
	size_t n = strlen(text);
	if (n > cap - len)
		n = cap - len;
	memcpy(r->filter_reason + len, text, n);
	r->filter_reason[len + n] = '\0';
	r->filtered = true;
}

static bool form_matches(enum form_filter f, enum form_factor form)
{
	switch (f) {
	case FORMF_SXM_OAM:
		return form == FORM_SXM || form == FORM_OAM || form == FORM_SUPERCHIP;
	case FORMF_PCIE:
		return form == FORM_PCIE;
	default:
		return true;
	}
}

/* The configuration choices no platform of the accelerator meets (the
 * platform chooser took them where one did, engine_node.c). */
static void platform_filters(const struct workload *w, struct engine_result *r)
{
	const struct catalog_platform *p = r->platform;
	char buf[160];
	if (!p)
		return;
	if (w->node_gpus > 0 && p->gpus_per_node != w->node_gpus) {
		snprintf(buf, sizeof buf, "no %d-GPU server for it in the catalog (--node-gpus)",
			 w->node_gpus);
		add_reason(r, buf);
	}
	if (w->cooling == COOLF_AIR && eng_platform_liquid(p)) {
		snprintf(buf, sizeof buf, "%s needs liquid cooling, the site has air (--cooling)", p->id);
		add_reason(r, buf);
	}
	const char *asked = w->fabric != FABRICF_AUTO ? fabric_choice_name(w->fabric) : NULL;
	if (asked && r->fabric && !eng_platform_runs(p, asked)) {
		snprintf(buf, sizeof buf, "%s's NICs do not run %s (nics.fabrics; --fabric)", p->id, asked);
		add_reason(r, buf);
	}
	if (w->fabric_speed > 0 && r->fabric && !eng_platform_speed_runs(p, w->fabric_speed)) {
		char a[16], b[16];
		snprintf(a, sizeof a, "%g", p->nic_gbit);
		snprintf(b, sizeof b, "%g", p->nic_split_gbit);
		snprintf(buf, sizeof buf, "%s's NICs run %s%s%s Gb/s, not %d (nics.speed_gbit%s; --fabric-speed)",
			 p->id, a, p->nic_split_gbit > 0 ? " or " : "", p->nic_split_gbit > 0 ? b : "",
			 w->fabric_speed, p->nic_split_gbit > 0 ? ", nics.split_gbit" : "");
		add_reason(r, buf);
	}
}

void eng_filters(const struct workload *w, struct engine_result *r)
{
	const struct catalog_accel *a = r->accel;
	char buf[128];
	r->filtered = false;
	r->filter_reason[0] = '\0';
	if (w->stack >= 0 && w->stack < STACK_COUNT && a->stack != (enum stack)w->stack) {
		snprintf(buf, sizeof buf, "runs %s, not %s", stack_name(a->stack),
			 stack_name((enum stack)w->stack));
		add_reason(r, buf);
	}
	if (w->cls == WL_INFERENCE && w->serving_stack >= 0 && !r->serving_stack) {
		snprintf(buf, sizeof buf, "runs no %s (a %s accelerator)",
			 serving_stack_name((enum serving_stack)w->serving_stack), stack_name(a->stack));
		add_reason(r, buf);
	}
	if (w->cls != WL_INFERENCE && w->training_stack >= 0 && !r->training_stack) {
		snprintf(buf, sizeof buf, "runs no %s (a %s accelerator)",
			 training_stack_name((enum training_stack)w->training_stack), stack_name(a->stack));
		add_reason(r, buf);
	}
	if (!form_matches(w->form, a->form)) {
		snprintf(buf, sizeof buf, "%s form factor, not %s", form_factor_name(a->form),
			 form_filter_name(w->form));
		add_reason(r, buf);
	}
	platform_filters(w, r);
	if (w->max_power_kw > 0 && r->power_kw > w->max_power_kw) {
		snprintf(buf, sizeof buf, "draws %.1f kW, over the %.3g kW limit", r->power_kw,
			 w->max_power_kw);
		add_reason(r, buf);
	}
	if (w->budget_usd > 0) {
		bool priced = r->platform ? engine_price_state(r) != PRICE_UNKNOWN
			      : a->price.usd > 0 || prices_find(w->prices, a->id);
		if (!priced) {
			add_reason(r, "price unknown: load a price list to check the budget");
		} else if (r->capex_usd > w->budget_usd * prices_usd_rate(w->prices)) {
			/* the budget is USD (--budget-usd); the capex is in the price
			 * list's currency: compared at its rate, said in it */
			const char *cur = prices_currency(w->prices);
			if (!strcmp(cur, "USD"))
				snprintf(buf, sizeof buf, "costs $%ld, over the $%ld budget",
					 eng_l(r->capex_usd), eng_l(w->budget_usd));
			else
				snprintf(buf, sizeof buf, "costs %s %ld, over the %s %ld budget (USD %ld)", cur,
					 eng_l(r->capex_usd), cur,
					 eng_l(w->budget_usd * prices_usd_rate(w->prices)), eng_l(w->budget_usd));
			add_reason(r, buf);
		}
	}
}

static void place_with(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
		       int group, enum eng_spans spans, const struct engine_tco_inputs *tin,
		       struct engine_result *out);
/* The platform, nodes, fabric, capex and power for out->gpus of a sized
 * for out->cls (replicas of tp x pp for serving). */
static void nodes_with(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
		       const struct engine_tco_inputs *tin, struct engine_result *out);

/* engine_evaluate() with the reason kept unwritten; invalid is why the
 * workload is not valid (engine_workload_valid(), checked once per run),
 * or NULL; tc the run's training cache, or NULL; tin engine_tco_inputs()
 * of (c, w), worked out once per run. */
static void evaluate(const struct catalog *c, const struct workload *w,
		     const struct catalog_accel *a, struct eng_tcache *tc, const struct engine_tco_inputs *tin,
		     struct engine_result *out, const char *invalid)
{
	eng_result_clear(out, a);
	out->cls = w->cls;
	if (invalid) {
		out->fits = false;
		snprintf(out->reason, sizeof out->reason, "%s", invalid);
		return;
	}
	if (w->cls == WL_INFERENCE) {
		eng_infer(c, w, a, out);
		eng_partition_try(c, w, a, out);
		eng_disagg_try(c, w, a, out);
	} else
		eng_train(c, w, a, tc, out);

	nodes_with(c, w, a, tin, out);
	eng_filters(w, out);
}

void eng_result_place(const struct catalog *c, const struct workload *w,
		      const struct catalog_accel *a, int group, enum eng_spans spans,
		      struct engine_result *out)
{
	struct engine_tco_inputs tin;
	engine_tco_inputs(c, w, &tin);
	place_with(c, w, a, group, spans, &tin, out);
}

static void place_with(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
		       int group, enum eng_spans spans, const struct engine_tco_inputs *tin,
		       struct engine_result *out)
{
	if (out->gpus < 1)
		return;
	const struct catalog_platform *p = eng_platform_choose(c, w, a, group, out->gpus);
	if (!p)
		return;
	struct eng_node n;
	eng_node_size(c, w, a, p, out->gpus, &n);
	/* A scale-out fabric when GPUs of one job talk across nodes: any
	 * multi-node training, or a serving replica spanning nodes.
	 * Independent single-node replicas only need the front-end network. */
	if (spans == ENG_SPANS_AUTO)
		spans = (out->cls == WL_INFERENCE ? out->tp * out->pp > p->gpus_per_node : n.nodes > 1)
			? ENG_SPANS_YES : ENG_SPANS_NO;
	if (spans == ENG_SPANS_YES)
		eng_node_fabric(c, w, &n);
	eng_cost(c, w, a, &n, tin, out);
	eng_cost_rates(c, w, tin, out);
}

static void nodes_with(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
		       const struct engine_tco_inputs *tin, struct engine_result *out)
{
	/* training assumes the big node */
	int group = out->cls != WL_INFERENCE ? eng_max_node_gpus(c, w, a) : out->tp;
	place_with(c, w, a, group, ENG_SPANS_AUTO, tin, out);
}


void engine_evaluate(const struct catalog *c, const struct workload *w,
		     const struct catalog_accel *a, struct engine_result *out)
{
	char why[160];
	bool valid = engine_workload_valid(w, why, sizeof why);
	struct engine_tco_inputs tin;
	engine_tco_inputs(c, w, &tin);
	evaluate(c, w, a, NULL, &tin, out, valid ? NULL : why);
	eng_reason_write(out);
}

static double key_or_inf(double v)
{
	return isfinite(v) ? v : INFINITY;
}

/* Lower is better.  A cost objective cannot rank a configuration whose
 * GPU has no price (no source gave one and the price list names none):
 * its capex leaves the GPUs out, so it would win for being unpriced.  It
 * sorts after every priced one, still shown, its capex saying what is
 * priced and its unpriced_lines what is not. */
static double objective_key(const struct workload *w, const struct engine_result *r)
{
	bool inf = w->cls == WL_INFERENCE;
	bool cost = w->objective == OBJ_CAPEX || w->objective == OBJ_COST_PER_TOKEN ||
		    w->objective == OBJ_TCO;
	if (cost && engine_price_state(r) == PRICE_UNKNOWN)
		return INFINITY;
	switch (w->objective) {
	case OBJ_COST_PER_TOKEN:
		return key_or_inf(inf ? r->usd_per_mtok : r->run_cost_usd);
	case OBJ_TIME:
		if (!inf)
			return key_or_inf(r->train_hours);
		if (w->concurrency_max || w->target_tokens_per_s > 0)
			return isfinite(r->output_tokens_per_s) ? -r->output_tokens_per_s : INFINITY;
		return key_or_inf(r->ttft_ms);
	case OBJ_GPUS:
		return (double)r->gpus;
	case OBJ_TCO:
		return key_or_inf(r->tco_usd);
	case OBJ_PERF_PER_WATT:
		return isfinite(r->perf_per_watt) ? -r->perf_per_watt : INFINITY;
	default:
		return key_or_inf(r->capex_usd);
	}
}

static int group_of(const struct engine_result *r)
{
	if (r->fits && !r->filtered)
		return 0;
	return r->fits ? 1 : 2;
}

/* Results res[ia] and res[ib] in ranking order; key[]: their
 * objective_key(), worked out once per result. */
static int cmp_results(const struct workload *w, const struct engine_result *res, const double *key, size_t ia,
		       size_t ib)
{
	const struct engine_result *a = &res[ia], *b = &res[ib];
	int ga = group_of(a), gb = group_of(b);
	if (ga != gb)
		return ga - gb;
	if (ga < 2) {
		double ka = key[ia], kb = key[ib];
		if (ka < kb)
			return -1;
		if (ka > kb)
			return 1;
		if (w->objective == OBJ_TIME && w->cls == WL_INFERENCE) {
			double ua = key_or_inf(-a->tokens_per_s_per_user), ub = key_or_inf(-b->tokens_per_s_per_user);
			if (ua != ub)
				return ua < ub ? -1 : 1;
		}
		if (a->gpus != b->gpus)
			return a->gpus - b->gpus;
		if (a->capex_usd != b->capex_usd)
			return a->capex_usd < b->capex_usd ? -1 : 1;
	}
	return strcmp(a->accel->id, b->accel->id);
}

/* Insertion sort of idx[lo..hi): the runs the merge starts from. */
static void insertion_sort(const struct workload *w, const struct engine_result *res, const double *key,
			   size_t *idx, size_t lo, size_t hi)
{
	for (size_t i = lo + 1; i < hi; i++) {
		size_t v = idx[i], j = i;
		while (j > lo && cmp_results(w, res, key, idx[j - 1], v) > 0) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
}

/*
 * Stable sort of the index array idx[0..n) with tmp[0..n) as scratch:
 * insertion-sorted runs of 16 merged bottom-up.  A catalog of a few dozen
 * accelerators is one run (plain insertion sort, as before); a large one
 * costs n log n comparisons rather than n^2 / 4.  Stable, like insertion
 * sort, so equal results keep the catalog's order either way.
 */
static void sort_order(const struct workload *w, const struct engine_result *res, const double *key, size_t *idx,
		       size_t *tmp, size_t n)
{
	enum { RUN = 16 };
	for (size_t lo = 0; lo < n; lo += RUN)
		insertion_sort(w, res, key, idx, lo, lo + RUN < n ? lo + RUN : n);
	size_t *src = idx, *dst = tmp;
	for (size_t width = RUN; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				dst[k++] = cmp_results(w, res, key, src[j], src[i]) < 0 ? src[j++] : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		size_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != idx)
		memcpy(idx, src, n * sizeof *idx);
}

void engine_run(const struct catalog *c, const struct workload *w, struct engine_report *r)
{
	engine_requirements(c, w, &r->req);
	size_t n = c->n_accels < r->cap_ ? c->n_accels : r->cap_;
	char why[160];
	bool valid = engine_workload_valid(w, why, sizeof why);
	if (r->tcache_)
		eng_tcache_begin(r->tcache_);
	struct engine_tco_inputs tin;
	engine_tco_inputs(c, w, &tin);
	for (size_t i = 0; i < n; i++) {
		evaluate(c, w, &c->accels[i], r->tcache_, &tin, &r->scratch_[i], valid ? NULL : why);
		if (!r->lazy_reasons)
			eng_reason_write(&r->scratch_[i]);
		r->order_[i] = i;
		r->key_[i] = objective_key(w, &r->scratch_[i]);
	}
	sort_order(w, r->scratch_, r->key_, r->order_, r->order_ + r->cap_, n);
	r->n_fitting = 0;
	for (size_t k = 0; k < n; k++) {
		r->results[k] = r->scratch_[r->order_[k]];
		r->results[k].rank = (int)k + 1;
		if (r->results[k].fits && !r->results[k].filtered)
			r->n_fitting++;
	}
	r->n = n;
}

const struct engine_result *engine_report_find(const struct engine_report *r,
					       const struct catalog_accel *a)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->results[i].accel == a)
			return &r->results[i];
	return NULL;
}
