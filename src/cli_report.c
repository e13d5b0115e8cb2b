/*
 * cli_report: writing engine reports for people (aligned table) and for
 * scripts (CSV and YAML through the one output layer, out.h).  The X-macro below is the one list of result fields: its name,
 * its kind and how to read it from a result.  A number that does not apply
 * is NAN in the result and comes out empty (CSV) or null (YAML).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_fmt.h"
#include "cli_report.h"

#include "prices.h"
#include "out.h"
#include "scenario.h"

/* X(name, kind, decimals, expression of r) */
#define RESULT_FIELDS(X) \
	X(rank,                  INT,  0, r->rank) \
	X(accelerator,           STR,  0, r->accel ? r->accel->id : NULL) \
	X(platform,              STR,  0, r->platform ? r->platform->id : NULL) \
	X(gpus,                  INT,  0, r->gpus) \
	X(gpus_installed,        INT,  0, r->gpus_installed) \
	X(nodes,                 INT,  0, r->nodes) \
	X(spare_nodes,           INT,  0, r->spare_nodes) \
	X(tp,                    INT,  0, r->tp) \
	X(pp,                    INT,  0, r->pp) \
	X(dp,                    INT,  0, r->dp) \
	X(ep,                    INT,  0, r->ep) \
	X(cp,                    NUMI, 0, train ? (double)r->cp : NAN) \
	X(micro_batch,           NUMI, 0, train ? (double)r->micro_batch : NAN) \
	X(recompute,             STR,  0, train ? recompute_name(r->recompute_used) : NULL) \
	X(partition,             TEXT, 0, r->partition ? r->partition->profile : NULL) \
	X(partitions_per_gpu,    NUMI, 0, r->partition ? (double)r->partitions_per_gpu : NAN) \
	X(zero_stage,            NUMI, 0, train ? (double)r->zero_stage : NAN) \
	X(replicas,              NUMI, 0, train ? NAN : (double)r->replicas) \
	X(batch_per_replica,     NUMI, 0, train ? NAN : (double)r->batch_per_replica) \
	X(fits,                  BOOL, 0, r->fits) \
	X(filtered,              BOOL, 0, r->filtered) \
	X(filter_reason,         TEXT, 0, r->filtered ? r->filter_reason : NULL) \
	X(binding,               STR,  0, r->binding != RES_NONE ? resource_key(r->binding) : NULL) \
	X(reason,                TEXT, 0, reason_of(r, rbuf)) \
	X(precision_used,        STR,  0, precision_name(r->precision_used)) \
	X(precision_fallback,    BOOL, 0, r->precision_fallback) \
	X(serving_stack,         STR,  0, r->serving_stack ? r->serving_stack->id : NULL) \
	X(training_stack,        STR,  0, r->training_stack ? r->training_stack->id : NULL) \
	X(prefill_gpus,          NUMI, 0, r->disaggregated ? (double)r->prefill_gpus : NAN) \
	X(decode_gpus,           NUMI, 0, r->disaggregated ? (double)r->decode_gpus : NAN) \
	X(kv_transfer_ms,        NUM,  2, r->disaggregated ? fin(r->kv_transfer_ms) : NAN) \
	X(aggregated_gpus,       NUMI, 0, r->disaggregated && r->aggregated_gpus ? (double)r->aggregated_gpus : NAN) \
	X(mem_required_gb,       NUM,  1, pos(r->mem_required_gb)) \
	X(mem_per_gpu_gb,        NUM,  1, pos(r->mem_per_gpu_gb)) \
	X(mem_avail_per_gpu_gb,  NUM,  1, pos(r->mem_avail_per_gpu_gb)) \
	X(mem_util_pct,          NUM,  1, pos(r->mem_util_pct)) \
	X(bw_util_pct,           NUM,  1, pos(r->bw_util_pct)) \
	X(link_util_pct,         NUM,  1, r->tp * r->pp > 1 || (train && r->gpus > 1) ? r->link_util_pct : NAN) \
	X(output_tokens_per_s,   NUM,  0, r->output_tokens_per_s) \
	X(output_tokens_per_s_low, NUM, 0, band_low(r, BAND_OUTPUT_TOKENS_PER_S)) \
	X(output_tokens_per_s_high, NUM, 0, band_high(r, BAND_OUTPUT_TOKENS_PER_S)) \
	/* serving output tokens, or training tokens, per second per GPU */ \
	X(tokens_per_s_per_gpu,  NUM,  train ? 1 : 0, r->tokens_per_s_per_gpu) \
	X(tokens_per_s_per_user, NUM,  1, r->tokens_per_s_per_user) \
	X(tokens_per_s_per_user_low, NUM, 1, band_low(r, BAND_TOKENS_PER_S_PER_USER)) \
	X(tokens_per_s_per_user_high, NUM, 1, band_high(r, BAND_TOKENS_PER_S_PER_USER)) \
	X(ttft_ms,               NUM,  1, r->ttft_ms) \
	X(ttft_ms_low,           NUM,  1, band_low(r, BAND_TTFT_MS)) \
	X(ttft_ms_high,          NUM,  1, band_high(r, BAND_TTFT_MS)) \
	X(ttft_p50_ms,           NUM,  1, fin(r->ttft_p50_ms)) \
	X(ttft_p99_ms,           NUM,  1, fin(r->ttft_p99_ms)) \
	X(tpot_p99_ms,           NUM,  2, fin(r->tpot_p99_ms)) \
	X(step_ms,               NUM,  2, r->step_ms) \
	/* speculative decoding as sized: k drafted, acceptance, tokens a step */ \
	X(spec_k,                NUMI, 0, r->spec_k > 0 ? (double)r->spec_k : NAN) \
	X(spec_acceptance,       NUM,  2, r->spec_k > 0 ? r->spec_acceptance : NAN) \
	X(spec_tokens_per_step,  NUM,  2, r->spec_k > 0 ? r->spec_tokens_per_step : NAN) \
	X(train_hours,           NUM,  2, r->train_hours) \
	X(train_hours_low,       NUM,  2, band_low(r, BAND_TRAIN_HOURS)) \
	X(train_hours_high,      NUM,  2, band_high(r, BAND_TRAIN_HOURS)) \
	X(gpu_hours,             NUM,  0, r->gpu_hours) \
	X(gpu_hours_low,         NUM,  0, band_low(r, BAND_GPU_HOURS)) \
	X(gpu_hours_high,        NUM,  0, band_high(r, BAND_GPU_HOURS)) \
	X(band_n,                NUMI, 0, band_n(r)) \
	X(step_s,                NUM,  3, r->step_s) \
	X(mfu,                   NUM,  3, r->mfu) \
	X(scaling_efficiency,    NUM,  3, r->scaling_efficiency) \
	X(samples_per_s,         NUM,  3, r->samples_per_s) \
	X(goodput,               NUM,  3, r->goodput) \
	X(fabric,                STR,  0, r->fabric ? r->fabric->id : NULL) \
	X(nics,                  NUMI, 0, r->fabric ? (double)r->nics : NAN) \
	X(leaf_switches,         NUMI, 0, r->fabric ? (double)r->leaf_switches : NAN) \
	X(spine_switches,        NUMI, 0, r->fabric ? (double)r->spine_switches : NAN) \
	X(cables,                NUMI, 0, r->fabric ? (double)r->cables : NAN) \
	X(capex_usd,             NUM,  2, priced(r, pos(r->capex_usd))) \
	X(capex_hardware_usd,    NUM,  2, r->platform ? r->capex_hardware_usd : NAN) \
	X(capex_fabric_usd,      NUM,  2, r->platform ? r->capex_fabric_usd : NAN) \
	X(capex_racks_usd,       NUM,  2, r->platform ? r->capex_racks_usd : NAN) \
	X(capex_support_usd,     NUM,  2, r->platform ? r->capex_support_usd : NAN) \
	X(capex_services_usd,    NUM,  2, r->platform ? r->capex_services_usd : NAN) \
	X(capex_licences_usd,    NUM,  2, r->platform ? r->capex_licences_usd : NAN) \
	X(capex_margin_usd,      NUM,  2, r->platform ? r->capex_margin_usd : NAN) \
	/* quote lines no price covers: capex and all built on it exclude them */ \
	X(unpriced_lines,        NUMI, 0, r->platform ? (double)r->unpriced_lines : NAN) \
	/* priced, partial or unknown: engine_price_state(); unknown leaves the money blank */ \
	X(price_state,           STR,  0, r->platform ? price_state_name(r) : NULL) \
	X(power_kw,              NUM,  2, pos(r->power_kw)) \
	X(rack_units,            NUM,  0, pos(r->rack_units)) \
	X(racks,                 NUM,  0, pos(r->racks)) \
	X(energy_kwh_year,       NUM,  0, pos(r->energy_kwh_year)) \
	X(tco_years,             NUMI, 0, r->platform ? (double)r->tco_years : NAN) \
	X(tco_usd,               NUM,  2, priced(r, pos(r->tco_usd))) \
	X(tco_energy_usd,        NUM,  2, r->platform ? r->tco_energy_usd : NAN) \
	X(tco_colocation_usd,    NUM,  2, r->platform ? r->tco_colocation_usd : NAN) \
	X(tco_support_usd,       NUM,  2, r->platform ? r->tco_support_usd : NAN) \
	X(tco_licence_usd,       NUM,  2, r->platform ? r->tco_licence_usd : NAN) \
	X(usd_per_hour,          NUM,  2, priced(r, pos(r->usd_per_hour))) \
	X(usd_per_mtok,          NUM,  4, priced(r, r->usd_per_mtok)) \
	X(run_cost_usd,          NUM,  0, priced(r, r->run_cost_usd)) \
	/* rent or buy (engine_rent()): the run or a year of serving rented */ \
	X(rent_basis,            STR,  0, r->rent_basis >= 0 ? engine_rent_term_key(r->rent_basis) : NULL) \
	X(rent_usd,              NUM,  2, r->rent_usd) \
	X(breakeven_months,      NUM,  0, fin(r->breakeven_months)) \
	X(perf_per_watt,         NUM,  4, r->perf_per_watt)

/* NUMI: an integer that may not apply (NAN). */
/* STR: an id or a word of the program's own (catalog ids are checked by
 * the loader: a-z, 0-9, '-', '.', '_'); TEXT: free text that quotes user
 * or catalog strings (a model's name), neutralised in CSV. */
enum { K_INT = CLI_FIELD_INT, K_NUM = CLI_FIELD_NUM, K_STR = CLI_FIELD_STR,
       K_BOOL = CLI_FIELD_BOOL, K_NUMI = 100, K_TEXT = 101 };

static const struct cli_field fields[] = {
#define X(name, kind, dec, expr) { #name, (enum cli_field_kind)(K_##kind == K_NUMI ? K_INT : \
								  K_##kind == K_TEXT ? K_STR : K_##kind) },
	RESULT_FIELDS(X)
#undef X
};

#define N_FIELDS (sizeof fields / sizeof fields[0])

enum field_id {
#define X(name, kind, dec, expr) F_##name,
	RESULT_FIELDS(X)
#undef X
};

const struct cli_field *cli_result_fields(size_t *n)
{
	*n = N_FIELDS;
	return fields;
}

const char *cli_result_name(size_t i, const char *currency, char *buf, size_t n)
{
	return prices_money_name(i < N_FIELDS ? fields[i].name : "?", currency, buf, n);
}

/* The currency of a report's money columns: its results'. */
static const char *report_currency(const struct engine_report *r)
{
	return r->n ? r->results[0].currency : NULL;
}

/* The band of published validation errors around a figure (accuracy.h);
 * empty where nothing covers it.  band_n: how many results are behind the
 * headline figure's band (output tokens/s serving, hours training), 0 when
 * the figure is unvalidated, empty when there is no figure. */
static double band_low(const struct engine_result *r, int k)
{
	return r->band[k].n ? r->band[k].low : NAN;
}

static double band_high(const struct engine_result *r, int k)
{
	return r->band[k].n ? r->band[k].high : NAN;
}

static double band_n(const struct engine_result *r)
{
	int k = r->cls == WL_INFERENCE ? BAND_OUTPUT_TOKENS_PER_S : BAND_TRAIN_HOURS;
	double v = k == BAND_OUTPUT_TOKENS_PER_S ? r->output_tokens_per_s : r->train_hours;
	return isfinite(v) ? (double)r->band[k].n : NAN;
}

/* A size or price of zero means the engine never got that far. */
static double pos(double v)
{
	return v > 0 ? v : NAN;
}

/* A money figure of a result whose GPU has no price would leave the GPUs
 * out: none (engine_price_state()). */
static double priced(const struct engine_result *r, double v)
{
	return engine_price_state(r) == PRICE_UNKNOWN ? NAN : v;
}

static const char *price_state_name(const struct engine_result *r)
{
	static const char *const names[] = { "priced", "partial", "unknown" };
	return names[engine_price_state(r)];
}

/* A time that may be unbounded (a queue that never drains): none. */
static double fin(double v)
{
	return isfinite(v) ? v : NAN;
}

/* cli_fmt and memcpy rather than snprintf: the same text, at a fraction
 * of the cost that matters when sweep writes millions of rows. */
static bool put_num(double v, int dec, char *buf, size_t n)
{
	if (!isfinite(v))
		return false;
	cli_fmt_fixed(buf, n, v, dec);
	return true;
}

static bool put_int(long v, char *buf, size_t n)
{
	cli_fmt_long(buf, n, v);
	return true;
}

static bool put_str(const char *s, char *buf, size_t n)
{
	if (!s)
		return false;
	if (n) {
		size_t len = strlen(s);
		if (len > n - 1)
			len = n - 1;
		memcpy(buf, s, len);
		buf[len] = '\0';
	}
	return true;
}

static bool put_bool(bool b, char *buf, size_t n)
{
	return put_str(b ? "true" : "false", buf, n);
}

#define put_INT(expr, dec) put_int((long)(expr), buf, bufsz)
#define put_NUMI(expr, dec) put_num((expr), 0, buf, bufsz)
#define put_NUM(expr, dec) put_num((expr), (dec), buf, bufsz)
#define put_STR(expr, dec) put_str((expr), buf, bufsz)
#define put_TEXT(expr, dec) put_str((expr), buf, bufsz)
#define put_BOOL(expr, dec) put_bool((expr), buf, bufsz)

/* The reason, written now if the engine kept it unwritten (sweep), or
 * NULL when there is none. */
static const char *reason_of(const struct engine_result *r, char *tmp)
{
	const char *s = engine_result_reason(r, tmp, ENGINE_REASON_MAX);
	return s[0] ? s : NULL;
}

bool cli_result_value(size_t i, const struct engine_result *r, char *buf, size_t bufsz)
{
	bool train = r->cls != WL_INFERENCE;
	char rbuf[ENGINE_REASON_MAX];
	buf[0] = '\0';
	switch ((enum field_id)i) {
#define X(name, kind, dec, expr) case F_##name: return put_##kind(expr, dec);
		RESULT_FIELDS(X)
#undef X
	}
	return false;
}

bool cli_format_parse(const char *flag, const char *s, enum cli_format *out)
{
	static const char *const names[] = { "table", "csv", "yaml" };
	for (int i = 0; i < 3; i++)
		if (s && !strcmp(s, names[i])) {
			*out = (enum cli_format)i;
			return true;
		}
	fprintf(stderr, "accelsizer: %s: '%s' is not one of table, csv, yaml\n", flag, s ? s : "");
	return false;
}

/* ---- CSV ---- */

static void clamp_range(const struct engine_report *r, size_t *first, size_t *count)
{
	if (*first > r->n)
		*first = r->n;
	if (!*count || *first + *count > r->n)
		*count = r->n - *first;
}

enum out_cell cli_result_cell(size_t i)
{
	static const bool text[] = {
#define X(name, kind, dec, expr) K_##kind == K_TEXT,
		RESULT_FIELDS(X)
#undef X
	};
	return i < N_FIELDS && text[i] ? OUT_TEXT : OUT_PLAIN;
}

bool cli_report_csv(FILE *f, const struct engine_report *r, size_t first, size_t count)
{
	char buf[256];
	struct out_csv o;
	clamp_range(r, &first, &count);
	out_csv_begin(&o, f, OUT_CSV_QUOTE_ALL);
	const char *cur = report_currency(r);
	for (size_t i = 0; i < N_FIELDS; i++)
		out_csv_cell(&o, cli_result_name(i, cur, buf, sizeof buf), OUT_PLAIN);
	out_csv_end(&o);
	for (size_t k = first; k < first + count; k++) {
		for (size_t i = 0; i < N_FIELDS; i++) {
			if (!cli_result_value(i, &r->results[k], buf, sizeof buf))
				buf[0] = '\0';
			out_csv_cell(&o, buf, cli_result_cell(i));
		}
		out_csv_end(&o);
	}
	return out_csv_finish(&o);
}

/* ---- YAML ---- */

/* The workload's inputs, with the scenario file's words. */
struct setting_ctx {
	struct out_yaml *m;
	const char *section;
};

static void emit_setting(const char *section, const char *key, const char *value, void *ctx)
{
	struct setting_ctx *s = ctx;
	if (strcmp(section, s->section))
		return;
	out_yaml_scalar(s->m, key, OUT_YAML_PLAIN);
	/* Numbers and words plain, texts quoted only when YAML needs it. */
	char *end;
	strtod(value, &end);
	bool number = *value && !*end;
	out_yaml_scalar(s->m, value, number ? OUT_YAML_PLAIN : OUT_YAML_TEXT);
}

/* The TCO year by year (engine_tco_year()): capex in year 1, support
 * once the quoted term has run out.  YAML only: a CSV stays one row per
 * configuration. */
static void emit_tco_years(struct out_yaml *m, const struct engine_result *res)
{
	out_yaml_key(m, "tco_by_year");
	if (!res->platform || !(res->tco_usd > 0)) {
		out_yaml_scalar(m, "null", OUT_YAML_PLAIN);
		return;
	}
	out_yaml_seq(m, true);
	for (int y = 1; y <= res->tco_years; y++) {
		struct engine_tco_year t;
		engine_tco_year(res, y, &t);
		out_yaml_map(m, true);
		out_yaml_num(m, "year", y, 0);
		const char *cur = res->currency;
		char k[32];
		out_yaml_num(m, prices_money_name("capex_usd", cur, k, sizeof k), t.capex_usd, 2);
		out_yaml_num(m, prices_money_name("energy_usd", cur, k, sizeof k), t.energy_usd, 2);
		out_yaml_num(m, prices_money_name("colocation_usd", cur, k, sizeof k), t.colocation_usd, 2);
		out_yaml_num(m, prices_money_name("support_usd", cur, k, sizeof k), t.support_usd, 2);
		out_yaml_num(m, prices_money_name("licence_usd", cur, k, sizeof k), t.licence_usd, 2);
		out_yaml_num(m, prices_money_name("total_usd", cur, k, sizeof k), t.total_usd, 2);
		out_yaml_map(m, false);
	}
	out_yaml_seq(m, false);
}

static void emit_result(struct out_yaml *m, const struct engine_result *res)
{
	char buf[256];
	out_yaml_map(m, true);
	for (size_t i = 0; i < N_FIELDS; i++) {
		out_yaml_scalar(m, cli_result_name(i, res->currency, buf, sizeof buf), OUT_YAML_PLAIN);
		if (!cli_result_value(i, res, buf, sizeof buf))
			out_yaml_scalar(m, "null", OUT_YAML_PLAIN);
		else
			out_yaml_scalar(m, buf, fields[i].kind == CLI_FIELD_STR ? OUT_YAML_TEXT
										 : OUT_YAML_PLAIN);
	}
	emit_tco_years(m, res);
	/* The rent-or-buy answer in words (engine_rent_statement()). */
	if (res->platform) {
		engine_rent_statement(res, buf, sizeof buf);
		out_yaml_scalar(m, "rent_or_buy", OUT_YAML_PLAIN);
		out_yaml_scalar(m, buf, OUT_YAML_TEXT);
	}
	out_yaml_map(m, false);
}

bool cli_report_yaml(FILE *f, const struct catalog *c, const struct workload *w,
		     const struct engine_report *r, size_t first, size_t count)
{
	(void)c;
	struct out_yaml m;
	clamp_range(r, &first, &count);
	if (!out_yaml_begin(&m, f))
		return false;
	out_yaml_map(&m, true);

	out_yaml_scalar(&m, "workload", OUT_YAML_PLAIN);
	out_yaml_map(&m, true);
	struct setting_ctx s = { &m, "workload" };
	scenario_each_setting(w, emit_setting, &s);
	const struct engine_requirements *q = &r->req;
	out_yaml_num(&m, "weights_gb", q->weights_gb, 2);
	out_yaml_num(&m, "kv_bytes_per_token", q->kv_bytes_per_token, 0);
	out_yaml_num(&m, "kv_gb", w->cls == WL_INFERENCE ? q->kv_gb : NAN, 2);
	out_yaml_num(&m, "activations_gb", w->cls != WL_INFERENCE ? q->activations_gb : NAN, 2);
	out_yaml_num(&m, "optimizer_gb", w->cls != WL_INFERENCE ? q->optimizer_gb : NAN, 2);
	out_yaml_num(&m, "trained_params", w->cls != WL_INFERENCE ? q->trained_params : NAN, 0);
	out_yaml_num(&m, "adapter_params", q->adapter_params > 0 ? q->adapter_params : NAN, 0);
	out_yaml_num(&m, "flops_total", q->flops_total, 0);
	out_yaml_num(&m, "flops_per_token", q->flops_per_token, 0);
	out_yaml_num(&m, "bytes_per_token", q->bytes_per_token, 0);
	out_yaml_num(&m, "link_bytes_per_step", q->link_bytes_per_step, 0);
	out_yaml_map(&m, false);

	out_yaml_scalar(&m, "filters", OUT_YAML_PLAIN);
	out_yaml_map(&m, true);
	s.section = "filters";
	scenario_each_setting(w, emit_setting, &s);
	out_yaml_map(&m, false);
	s.section = "";
	scenario_each_setting(w, emit_setting, &s);
	out_yaml_scalar(&m, "costs", OUT_YAML_PLAIN);
	out_yaml_map(&m, true);
	s.section = "costs";
	scenario_each_setting(w, emit_setting, &s);
	out_yaml_map(&m, false);

	out_yaml_scalar(&m, "results", OUT_YAML_PLAIN);
	out_yaml_seq(&m, true);
	for (size_t k = first; k < first + count; k++)
		emit_result(&m, &r->results[k]);
	out_yaml_seq(&m, false);
	out_yaml_map(&m, false);
	return out_yaml_end(&m, NULL) && !ferror(f);
}

/* ---- table for people ---- */

/* 1234567.8 -> "1,234,568" (no locale: the same on every machine). */
static const char *grouped(double v, int dec, char *buf, size_t n)
{
	return out_grouped(v, dec, buf, n);
}

static const char *money(double v, const char *cur, char *buf, size_t n)
{
	char pre[8];
	if (!isfinite(v) || v <= 0 || n < 2) {
		snprintf(buf, n, "-");
		return buf;
	}
	/* the prefix, then the grouped figure in place after it */
	size_t k = (size_t)snprintf(buf, n, "%s", prices_money_prefix(cur, pre, sizeof pre));
	if (k < n - 1)
		grouped(v, 0, buf + k, n - k);
	return buf;
}

/* A money cell of the table by the result's price state: no figure when
 * the GPU has no price, the figure marked with UNPRICED_MARK when it
 * leaves unpriced lines out (the footnote says what the mark means). */
#define UNPRICED_MARK "*"
static const char *cost_cell(const struct engine_result *r, const char *fig, char *buf, size_t n)
{
	enum engine_price_state s = engine_price_state(r);
	if (s == PRICE_UNKNOWN || !strcmp(fig, "-"))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%s%s", fig, s == PRICE_PARTIAL ? UNPRICED_MARK : "");
	return buf;
}

/* A line built in a buffer and written once: the table's rows cost a few
 * hundred instructions this way, against several thousand through fprintf
 * (the same bytes as the formats noted at each call). */
struct line {
	FILE *f;	/* NULL: text past the buffer is cut */
	char b[512];
	size_t n;
};

static void line_raw(struct line *l, const char *s, size_t len)
{
	while (len) {
		if (l->n == sizeof l->b - 1) {
			if (!l->f)
				break;
			fwrite(l->b, 1, l->n, l->f);
			l->n = 0;
		}
		size_t k = sizeof l->b - 1 - l->n;
		if (k > len)
			k = len;
		memcpy(l->b + l->n, s, k);
		l->n += k;
		s += k;
		len -= k;
	}
	l->b[l->n] = '\0';
}

/* printf's "%*s": width > 0 pads on the left, < 0 on the right; a longer
 * text is never cut. */
static void line_str(struct line *l, const char *s, int width)
{
	static const char blanks[] = "                                ";
	size_t len = strlen(s), w = (size_t)abs(width);
	size_t pad = len < w ? w - len : 0;
	if (width <= 0)
		line_raw(l, s, len);
	while (pad) {
		size_t k = pad < sizeof blanks - 1 ? pad : sizeof blanks - 1;
		line_raw(l, blanks, k);
		pad -= k;
	}
	if (width > 0)
		line_raw(l, s, len);
}

static void line_long(struct line *l, long v, int width)
{
	char t[24];
	cli_fmt_long(t, sizeof t, v);
	line_str(l, t, width);
}

static void line_end(struct line *l)
{
	if (l->f && l->n)
		fwrite(l->b, 1, l->n, l->f);
	l->n = 0;
}

static void layout_text(const struct workload *w, const struct engine_result *r, char *buf, size_t n)
{
	engine_result_layout(r, w->cls, buf, n);
}

/* "%.0f%%" of a share, "-" when it does not apply. */
static const char *percent(double v, char *buf, size_t n)
{
	if (!isfinite(v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	int k = cli_fmt_fixed(buf, n, 100 * v, 0);
	if (k >= 0 && (size_t)k + 1 < n) {
		buf[k] = '%';
		buf[k + 1] = '\0';
	}
	return buf;
}

static void headline(FILE *f, const struct catalog *c, const struct workload *w,
		     const struct engine_report *r)
{
	(void)c;
	const struct engine_requirements *q = &r->req;
	char a[32], b[32], d[32], nb[256];
	const char *name = out_inert(w->model && w->model->name ? w->model->name : "custom model",
				     nb, sizeof nb);
	if (w->cls == WL_INFERENCE) {
		char conc[32];
		if (w->arrival_rate > 0)
			snprintf(conc, sizeof conc, "%g req/s arriving", w->arrival_rate);
		else if (w->concurrency_max)
			snprintf(conc, sizeof conc, "max concurrency");
		else
			snprintf(conc, sizeof conc, "%ld user%s", w->concurrency,
				 w->concurrency == 1 ? "" : "s");
		fprintf(f, "%s inference at %s (KV %s), %ld in / %ld out tokens, %s",
			name, precision_name(w->precision), precision_name(w->kv_precision),
			w->input_tokens, w->output_tokens, conc);
		if (w->tokens_per_s_per_user > 0)
			fprintf(f, ", %g tok/s per user (p99)", w->tokens_per_s_per_user);
		if (w->ttft_ms > 0)
			fprintf(f, ", TTFT <= %g ms (p99)", w->ttft_ms);
		if (w->target_tokens_per_s > 0)
			fprintf(f, ", %s tok/s in all", grouped(w->target_tokens_per_s, 0, a, sizeof a));
		fprintf(f, "\nNeeds: %s GB of weights, %s bytes of KV cache per token", grouped(q->weights_gb, 1, a, sizeof a),
			grouped(q->kv_bytes_per_token, 0, b, sizeof b));
		if (!w->concurrency_max && !(w->arrival_rate > 0))
			fprintf(f, " (%s GB for all users at full context)", grouped(q->kv_gb, 1, a, sizeof a));
		fputs(".\n", f);
		if (q->spec_tokens > 0)
			fprintf(f, "Speculative decoding: %d token%s drafted a step by %s, accepted at %g: %.2f tokens "
				"per step of the model, a draft token costs %.1f%% of a step, %.2fx one user's speed "
				"before the batch's share.\n",
				q->spec_tokens, q->spec_tokens == 1 ? "" : "s",
				w->draft_model == &engine_draft_mtp ? "its MTP modules" : w->draft_model->name,
				w->spec_acceptance,
				q->spec_tokens_per_step, 100.0 * q->spec_draft_cost, q->spec_speedup);
	} else {
		bool ft = w->cls == WL_FINETUNE;
		fprintf(f, "%s %s at %s: %s tokens, sequence %ld, %s tokens per step",
			name, ft ? (w->method == FT_LORA ? "LoRA fine-tune" : w->method == FT_QLORA ? "QLoRA fine-tune"
				     : "full fine-tune") : "pretraining",
			precision_name(w->precision), grouped(w->tokens, 0, a, sizeof a),
			w->seq_len, grouped(w->global_batch_tokens, 0, b, sizeof b));
		if (ft)
			fprintf(f, ", %g epoch%s", w->epochs, w->epochs == 1 ? "" : "s");
		if (w->target_hours > 0)
			fprintf(f, ", target %g h", w->target_hours);
		fprintf(f, "\nNeeds: %s GB of weights, %s GB of optimizer state, %s GB of activations per sequence, %.3g FLOPs.\n",
			grouped(q->weights_gb, 1, a, sizeof a), grouped(q->optimizer_gb, 1, b, sizeof b),
			grouped(q->activations_gb, 1, d, sizeof d), q->flops_total);
	}
}

/* Which serving stack the serving figures assume: the one asked for, or
 * each platform's default (catalog/serving-stacks/). */
static void stacks_line(FILE *f, const struct catalog *c, const struct workload *w)
{
	if (w->serving_stack >= 0) {
		const char *id = serving_stack_name((enum serving_stack)w->serving_stack);
		const struct catalog_serving_stack *s = catalog_serving_stack(c, id);
		fprintf(f, "Serving stack: %s (--serving-stack %s) on every accelerator it runs on; "
			"the others are filtered out.\n", s ? s->name : id, id);
		return;
	}
	bool any = false;
	for (int p = 0; p < STACK_COUNT; p++) {
		const struct catalog_serving_stack *s = catalog_stack_default(c, (enum stack)p, NULL);
		if (!s)
			continue;
		fprintf(f, "%s%s on %s", any ? ", " : "Serving stack: each vendor's best published, ", s->name,
			stack_name((enum stack)p));
		any = true;
	}
	if (any)
		fputs(" (--serving-stack chooses another).\n", f);
}

/* Which training stack the training figures assume: the one asked for, or
 * each platform's default (catalog/training-stacks/). */
static void train_stacks_line(FILE *f, const struct catalog *c, const struct workload *w)
{
	if (w->training_stack >= 0) {
		const char *id = training_stack_name((enum training_stack)w->training_stack);
		const struct catalog_training_stack *s = catalog_training_stack(c, id);
		fprintf(f, "Training stack: %s (--training-stack %s) on every accelerator it runs on; "
			"the others are filtered out.\n", s ? s->name : id, id);
		return;
	}
	bool any = false;
	for (int p = 0; p < STACK_COUNT; p++) {
		const struct catalog_training_stack *s = catalog_train_stack_default(c, (enum stack)p);
		if (!s)
			continue;
		fprintf(f, "%s%s on %s", any ? ", " : "Training stack: each vendor's best published, ", s->name,
			stack_name((enum stack)p));
		any = true;
	}
	if (any)
		fputs(" (--training-stack chooses another).\n", f);
}

bool cli_report_table(FILE *f, const struct catalog *c, const struct workload *w,
		      const struct engine_report *r, size_t first, size_t count)
{
	char lay[48], m1[32], m2[32], m3[32], m4[32], cap[32], runc[32], tco[32], tcoh[16];
	bool inf = w->cls == WL_INFERENCE;
	clamp_range(r, &first, &count);
	headline(f, c, w, r);
	fputc('\n', f);
	struct engine_tco_inputs tin;
	engine_tco_inputs(c, w, &tin);
	snprintf(tcoh, sizeof tcoh, "%.0fy TCO", tin.v[TCO_YEARS]);
	/* Money columns say their currency when it is not the dollar the
	 * figures' "$" already shows. */
	const char *cur = prices_currency(w->prices);
	bool usd = !strcmp(cur, "USD");
	char caph[16], mtokh[16], runh[16], pre[8];
	snprintf(caph, sizeof caph, usd ? "capex" : "capex %s", cur);
	snprintf(mtokh, sizeof mtokh, "%s/Mtok", usd ? "$" : cur);
	snprintf(runh, sizeof runh, usd ? "run cost" : "run %s", cur);
	if (!usd)
		snprintf(tcoh, sizeof tcoh, "%.0fy TCO %s", tin.v[TCO_YEARS], cur);
	prices_money_prefix(cur, pre, sizeof pre);
	if (inf)
		fprintf(f, "%-4s %-16s %5s %5s %-13s %10s %8s %8s %12s %13s %7s %9s  %-12s %s\n", "rank",
			"accelerator", "gpus", "nodes", "layout", "tok/s", "tok/s/u", "ttft ms", caph,
			tcoh, "kW", mtokh, "binding", "why");
	else
		fprintf(f, "%-4s %-16s %5s %5s %-17s %10s %10s %5s %6s %12s %13s %7s %11s  %-12s %s\n", "rank",
			"accelerator", "gpus", "nodes", "layout", "hours", "GPU-hours", "MFU", "scale",
			caph, tcoh, "kW", runh, "binding", "why");
	for (size_t k = first; k < first + count; k++) {
		const struct engine_result *res = &r->results[k];
		char rank[8];
		/* Filtered and unfit rows stay visible, marked instead of ranked
		 * by number (the table's grey). */
		if (!res->fits)
			snprintf(rank, sizeof rank, "no");
		else if (res->filtered)
			snprintf(rank, sizeof rank, "(%d)", res->rank);
		else
			cli_fmt_long(rank, sizeof rank, res->rank);
		layout_text(w, res, lay, sizeof lay);
		char rb[ENGINE_REASON_MAX], safe[400];
		const char *why = out_inert(engine_result_why(res, rb, sizeof rb), safe, sizeof safe);
		const char *bind = res->binding != RES_NONE ? resource_key(res->binding) : "-";
		/* inference: "%-4s %-16s %5d %5d %-13s %10s %8s %8s %12s %13s %7.1f %9s  %-12s %s\n"
		 * training:  "%-4s %-16s %5d %5d %-17s %10s %10s %5s %6s %12s %13s %7.1f %11s  %-12s %s\n" */
		struct line l = { .f = f, .n = 0 };
		line_str(&l, rank, -4);
		line_str(&l, " ", 0);
		line_str(&l, res->accel->id, -16);
		line_str(&l, " ", 0);
		line_long(&l, res->gpus, 5);
		line_str(&l, " ", 0);
		line_long(&l, res->nodes, 5);
		line_str(&l, " ", 0);
		line_str(&l, lay, inf ? -13 : -17);
		line_str(&l, " ", 0);
		if (inf) {
			line_str(&l, grouped(res->output_tokens_per_s, 0, m1, sizeof m1), 10);
			line_str(&l, " ", 0);
			line_str(&l, grouped(res->tokens_per_s_per_user, 1, m2, sizeof m2), 8);
			line_str(&l, " ", 0);
			line_str(&l, grouped(res->ttft_ms, 0, m3, sizeof m3), 8);
		} else {
			line_str(&l, grouped(res->train_hours, 1, m1, sizeof m1), 10);
			line_str(&l, " ", 0);
			line_str(&l, grouped(res->gpu_hours, 0, m2, sizeof m2), 10);
			line_str(&l, " ", 0);
			line_str(&l, percent(res->mfu, m3, sizeof m3), 5);
			line_str(&l, " ", 0);
			line_str(&l, percent(res->scaling_efficiency, m4, sizeof m4), 6);
		}
		line_str(&l, " ", 0);
		char cell[40];
		line_str(&l, cost_cell(res, money(res->capex_usd, res->currency, cap, sizeof cap), cell, sizeof cell), 12);
		line_str(&l, " ", 0);
		line_str(&l, cost_cell(res, money(res->tco_usd, res->currency, tco, sizeof tco), cell, sizeof cell), 13);
		line_str(&l, " ", 0);
		char kw[32];
		cli_fmt_fixed(kw, sizeof kw, res->power_kw, 1);
		line_str(&l, kw, 7);
		line_str(&l, " ", 0);
		if (inf)
			line_str(&l, cost_cell(res, isfinite(res->usd_per_mtok) ? grouped(res->usd_per_mtok, 3, m4, sizeof m4) : "-",
					       cell, sizeof cell), 9);
		else
			line_str(&l, cost_cell(res, money(res->run_cost_usd, res->currency, runc, sizeof runc), cell, sizeof cell), 11);
		line_str(&l, "  ", 0);
		line_str(&l, bind, -12);
		line_str(&l, " ", 0);
		if (res->filtered && res->fits) {
			char whybuf[400];	/* cut where the text was always cut */
			snprintf(whybuf, sizeof whybuf, "filtered: %s", why);
			line_str(&l, whybuf, 0);
		} else {
			line_str(&l, why, 0);
		}
		line_str(&l, "\n", 0);
		line_end(&l);
	}
	fprintf(f, "\nObjective: %s. '(n)' = filtered out, 'no' = cannot meet the workload.\n",
		objective_name(w->objective));
	fprintf(f, "Prices: the catalog's where a source gives one, else your price list's (--prices); "
		UNPRICED_MARK " = leaves out BOM lines no price covers (accelsizer bom lists them), "
		"'-' = the GPU has no price: ranked after every priced one by cost.\n");
	fprintf(f, "TCO over %.0f years: capex + energy (%s%.3g/kWh x PUE %.3g x %.0f%% utilisation) + "
		"colocation (%s%.2f/kW/month) + support after the quoted term + licences (%s%.2f/GPU/year); "
		"%s spread over it.\n", tin.v[TCO_YEARS], pre, tin.v[TCO_ELECTRICITY], tin.v[TCO_PUE],
		100 * tin.v[TCO_UTILISATION], pre, tin.v[TCO_COLOCATION], pre, tin.v[TCO_LICENCE],
		inf ? mtokh : "run cost");
	if (inf)
		stacks_line(f, c, w);
	else
		train_stacks_line(f, c, w);
	return !ferror(f);
}

/* ---- validation plan ---- */

static void plan_csv_rows(struct out_csv *o, const char *name, const char *accel,
			  const struct engine_plan *plan)
{
	char p[32], t[32];
	for (size_t i = 0; i < plan->n; i++) {
		const struct engine_plan_row *row = &plan->rows[i];
		snprintf(p, sizeof p, "%.4g", row->predicted);
		snprintf(t, sizeof t, "%.4g", row->threshold);
		const char *cells[] = { accel, row->benchmark, row->metric, row->unit, p, t,
					row->higher_is_better ? ">=" : "<=", row->notes };
		if (name)
			out_csv_cell(o, name, OUT_TEXT);
		for (size_t k = 0; k < 8; k++)
			out_csv_cell(o, cells[k], k == 4 || k == 5 ? OUT_PLAIN : OUT_TEXT);
		out_csv_end(o);
	}
}

static void plan_csv_header(struct out_csv *o, bool named)
{
	static const char *const hdr[] = { "workload", "accelerator", "benchmark", "metric", "unit",
					   "predicted", "threshold", "pass_if", "notes" };
	out_csv_row(o, named ? hdr : hdr + 1, named ? 9 : 8, OUT_PLAIN);
}

/* "plan:" and its rows. */
static void plan_yaml_rows(struct out_yaml *m, const struct engine_plan *plan)
{
	char p[32], t[32];
	out_yaml_scalar(m, "plan", OUT_YAML_PLAIN);
	out_yaml_seq(m, true);
	for (size_t i = 0; i < plan->n; i++) {
		const struct engine_plan_row *row = &plan->rows[i];
		out_yaml_map(m, true);
		out_yaml_scalar(m, "benchmark", OUT_YAML_PLAIN);
		out_yaml_scalar(m, row->benchmark, OUT_YAML_TEXT);
		out_yaml_scalar(m, "metric", OUT_YAML_PLAIN);
		out_yaml_scalar(m, row->metric, OUT_YAML_TEXT);
		out_yaml_scalar(m, "unit", OUT_YAML_PLAIN);
		out_yaml_scalar(m, row->unit, OUT_YAML_TEXT);
		snprintf(p, sizeof p, "%.4g", row->predicted);
		snprintf(t, sizeof t, "%.4g", row->threshold);
		out_yaml_scalar(m, "predicted", OUT_YAML_PLAIN);
		out_yaml_scalar(m, p, OUT_YAML_PLAIN);
		out_yaml_scalar(m, "threshold", OUT_YAML_PLAIN);
		out_yaml_scalar(m, t, OUT_YAML_PLAIN);
		out_yaml_scalar(m, "pass_if", OUT_YAML_PLAIN);
		out_yaml_scalar(m, row->higher_is_better ? ">=" : "<=", OUT_YAML_TEXT);
		out_yaml_scalar(m, "notes", OUT_YAML_PLAIN);
		out_yaml_scalar(m, row->notes, OUT_YAML_TEXT);
		out_yaml_map(m, false);
	}
	out_yaml_seq(m, false);
}

/* "workload:" and the workload's settings. */
static void plan_yaml_settings(struct out_yaml *m, const char *key, const struct workload *w)
{
	out_yaml_scalar(m, key, OUT_YAML_PLAIN);
	out_yaml_map(m, true);
	struct setting_ctx s = { m, "workload" };
	scenario_each_setting(w, emit_setting, &s);
	out_yaml_map(m, false);
}

static void plan_table_rows(FILE *f, const struct engine_plan *plan)
{
	char p[32], t[32];
	for (size_t i = 0; i < plan->n; i++) {
		const struct engine_plan_row *row = &plan->rows[i];
		out_line(f, "%zu. %s", i + 1, row->benchmark);
		out_line(f, "   %-26s predicted %10s %-6s pass if %s %s %s", row->metric,
			 grouped(row->predicted, row->predicted < 100 ? 1 : 0, p, sizeof p),
			 row->unit, row->higher_is_better ? ">=" : "<=",
			 grouped(row->threshold, row->threshold < 100 ? 1 : 0, t, sizeof t), row->unit);
		if (row->notes[0])
			out_line(f, "   %s", row->notes);
	}
}

static const char *accel_name(const struct catalog_accel *a)
{
	return a->name ? a->name : a->id;
}

bool cli_plan_write(FILE *f, enum cli_format fmt, const struct workload *w,
		    const struct engine_result *res, const struct engine_plan *plan)
{
	if (fmt == CLI_FMT_CSV) {
		struct out_csv o;
		out_csv_begin(&o, f, OUT_CSV_QUOTE_ALL);
		plan_csv_header(&o, false);
		plan_csv_rows(&o, NULL, res->accel->id, plan);
		return out_csv_finish(&o);
	}
	if (fmt == CLI_FMT_YAML) {
		struct out_yaml m;
		if (!out_yaml_begin(&m, f))
			return false;
		out_yaml_map(&m, true);
		out_yaml_scalar(&m, "accelerator", OUT_YAML_PLAIN);
		out_yaml_scalar(&m, res->accel->id, OUT_YAML_TEXT);
		plan_yaml_settings(&m, "workload", w);
		plan_yaml_rows(&m, plan);
		out_yaml_map(&m, false);
		return out_yaml_end(&m, NULL) && !ferror(f);
	}
	char nb[256];
	fprintf(f, "Validation plan for %s (%d GPUs, %d node%s): run these before you buy.\n\n",
		out_inert(accel_name(res->accel), nb, sizeof nb),
		res->gpus, res->nodes, res->nodes == 1 ? "" : "s");
	plan_table_rows(f, plan);
	return !ferror(f);
}

static bool plans_yaml(FILE *f, const struct cli_plan_part *parts, size_t n)
{
	struct out_yaml m;
	if (!out_yaml_begin(&m, f))
		return false;
	out_yaml_map(&m, true);
	out_yaml_scalar(&m, "accelerator", OUT_YAML_PLAIN);
	out_yaml_scalar(&m, parts[0].res->accel->id, OUT_YAML_TEXT);
	out_yaml_scalar(&m, "plans", OUT_YAML_PLAIN);
	out_yaml_seq(&m, true);
	for (size_t i = 0; i < n; i++) {
		const struct cli_plan_part *pt = &parts[i];
		out_yaml_map(&m, true);
		out_yaml_str(&m, "workload", pt->w ? pt->name : "total");
		out_yaml_num(&m, "gpus", pt->res->gpus, 0);
		if (pt->w)
			plan_yaml_settings(&m, "settings", pt->w);
		else
			out_yaml_num(&m, "nodes", pt->res->nodes, 0);
		plan_yaml_rows(&m, pt->plan);
		out_yaml_map(&m, false);
	}
	out_yaml_seq(&m, false);
	out_yaml_map(&m, false);
	return out_yaml_end(&m, NULL) && !ferror(f);
}

bool cli_plans_write(FILE *f, enum cli_format fmt, const struct cli_plan_part *parts, size_t n)
{
	if (n == 0)
		return true;
	if (fmt == CLI_FMT_CSV) {
		struct out_csv o;
		out_csv_begin(&o, f, OUT_CSV_QUOTE_ALL);
		plan_csv_header(&o, true);
		for (size_t i = 0; i < n; i++)
			plan_csv_rows(&o, parts[i].w ? parts[i].name : "total", parts[i].res->accel->id,
				      parts[i].plan);
		return out_csv_finish(&o);
	}
	if (fmt == CLI_FMT_YAML)
		return plans_yaml(f, parts, n);
	char nb[256], ab[256];
	for (size_t i = 0; i < n; i++) {
		const struct cli_plan_part *pt = &parts[i];
		const struct engine_result *res = pt->res;
		const char *an = out_inert(accel_name(res->accel), ab, sizeof ab);
		if (pt->w)
			fprintf(f, "%sValidation plan for %s on %s (%d GPU%s): run these before you buy.\n\n",
				i ? "\n" : "", out_inert(pt->name, nb, sizeof nb), an, res->gpus,
				res->gpus == 1 ? "" : "s");
		else
			fprintf(f, "\nValidation plan for the shared cluster on %s (%d GPUs, %d node%s): all "
				"of them at once.\n\n", an, res->gpus, res->nodes, res->nodes == 1 ? "" : "s");
		plan_table_rows(f, pt->plan);
	}
	return !ferror(f);
}

void cli_warn_unpriced(int n, const char *accel_id, const char *which)
{
	if (n <= 0)
		return;
	fprintf(stderr, "accelsizer: warning: the capex of %s excludes %d unpriced BOM line%s (%s): "
		"no source gives their price; a price list (--prices) does, and until then the "
		"ranking, budget and TCO leave them out\n", accel_id, n, n == 1 ? "" : "s",
		which ? which : "accelsizer bom lists them");
}
