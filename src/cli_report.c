/*
 * cli_report: writing engine reports for people (aligned table) and for
 * scripts (CSV through libcsv's csv_fwrite, YAML through libyaml's
 * emitter).  The X-macro below is the one list of result fields: its name,
 * its kind and how to read it from a result.  A number that does not apply
 * is NAN in the result and comes out empty (CSV) or null (YAML).
 */
#include <csv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cli_fmt.h"
#include "cli_report.h"
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
	X(zero_stage,            NUMI, 0, train ? (double)r->zero_stage : NAN) \
	X(replicas,              NUMI, 0, train ? NAN : (double)r->replicas) \
	X(batch_per_replica,     NUMI, 0, train ? NAN : (double)r->batch_per_replica) \
	X(fits,                  BOOL, 0, r->fits) \
	X(filtered,              BOOL, 0, r->filtered) \
	X(filter_reason,         STR,  0, r->filtered ? r->filter_reason : NULL) \
	X(binding,               STR,  0, r->binding != RES_NONE ? resource_key(r->binding) : NULL) \
	X(reason,                STR,  0, reason_of(r, rbuf)) \
	X(precision_used,        STR,  0, precision_name(r->precision_used)) \
	X(precision_fallback,    BOOL, 0, r->precision_fallback) \
	X(mem_required_gb,       NUM,  1, pos(r->mem_required_gb)) \
	X(mem_per_gpu_gb,        NUM,  1, pos(r->mem_per_gpu_gb)) \
	X(mem_avail_per_gpu_gb,  NUM,  1, pos(r->mem_avail_per_gpu_gb)) \
	X(mem_util_pct,          NUM,  1, pos(r->mem_util_pct)) \
	X(bw_util_pct,           NUM,  1, pos(r->bw_util_pct)) \
	X(link_util_pct,         NUM,  1, r->tp * r->pp > 1 || (train && r->gpus > 1) ? r->link_util_pct : NAN) \
	X(output_tokens_per_s,   NUM,  0, r->output_tokens_per_s) \
	X(tokens_per_s_per_user, NUM,  1, r->tokens_per_s_per_user) \
	X(ttft_ms,               NUM,  1, r->ttft_ms) \
	X(step_ms,               NUM,  2, r->step_ms) \
	X(train_hours,           NUM,  2, r->train_hours) \
	X(gpu_hours,             NUM,  0, r->gpu_hours) \
	X(step_s,                NUM,  3, r->step_s) \
	X(mfu,                   NUM,  3, r->mfu) \
	X(scaling_efficiency,    NUM,  3, r->scaling_efficiency) \
	X(fabric,                STR,  0, r->fabric ? r->fabric->id : NULL) \
	X(nics,                  NUMI, 0, r->fabric ? (double)r->nics : NAN) \
	X(leaf_switches,         NUMI, 0, r->fabric ? (double)r->leaf_switches : NAN) \
	X(spine_switches,        NUMI, 0, r->fabric ? (double)r->spine_switches : NAN) \
	X(cables,                NUMI, 0, r->fabric ? (double)r->cables : NAN) \
	X(capex_usd,             NUM,  2, pos(r->capex_usd)) \
	X(capex_hardware_usd,    NUM,  2, r->platform ? r->capex_hardware_usd : NAN) \
	X(capex_fabric_usd,      NUM,  2, r->platform ? r->capex_fabric_usd : NAN) \
	X(capex_racks_usd,       NUM,  2, r->platform ? r->capex_racks_usd : NAN) \
	X(capex_support_usd,     NUM,  2, r->platform ? r->capex_support_usd : NAN) \
	X(capex_services_usd,    NUM,  2, r->platform ? r->capex_services_usd : NAN) \
	X(power_kw,              NUM,  2, pos(r->power_kw)) \
	X(rack_units,            NUM,  0, pos(r->rack_units)) \
	X(racks,                 NUM,  0, pos(r->racks)) \
	X(energy_kwh_year,       NUM,  0, pos(r->energy_kwh_year)) \
	X(tco_years,             NUMI, 0, r->platform ? (double)r->tco_years : NAN) \
	X(tco_usd,               NUM,  2, pos(r->tco_usd)) \
	X(tco_energy_usd,        NUM,  2, r->platform ? r->tco_energy_usd : NAN) \
	X(tco_colocation_usd,    NUM,  2, r->platform ? r->tco_colocation_usd : NAN) \
	X(tco_support_usd,       NUM,  2, r->platform ? r->tco_support_usd : NAN) \
	X(tco_licence_usd,       NUM,  2, r->platform ? r->tco_licence_usd : NAN) \
	X(usd_per_hour,          NUM,  2, pos(r->usd_per_hour)) \
	X(usd_per_mtok,          NUM,  4, r->usd_per_mtok) \
	X(run_cost_usd,          NUM,  0, r->run_cost_usd) \
	X(perf_per_watt,         NUM,  4, r->perf_per_watt)

/* NUMI: an integer that may not apply (NAN). */
enum { K_INT = CLI_FIELD_INT, K_NUM = CLI_FIELD_NUM, K_STR = CLI_FIELD_STR,
       K_BOOL = CLI_FIELD_BOOL, K_NUMI = 100 };

static const struct cli_field fields[] = {
#define X(name, kind, dec, expr) { #name, (enum cli_field_kind)(K_##kind == K_NUMI ? K_INT : K_##kind) },
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

/* A size or price of zero means the engine never got that far. */
static double pos(double v)
{
	return v > 0 ? v : NAN;
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
#define put_BOOL(expr, dec) put_bool((expr), buf, bufsz)

/* The reason, written now if the engine kept it unwritten (sweep), or
 * NULL when there is none. */
static const char *reason_of(const struct engine_result *r, char *tmp)
{
	const char *s = engine_result_reason(r, tmp, sizeof r->reason);
	return s[0] ? s : NULL;
}

bool cli_result_value(size_t i, const struct engine_result *r, char *buf, size_t bufsz)
{
	bool train = r->cls != WL_INFERENCE;
	char rbuf[sizeof r->reason];
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

static bool csv_cell(FILE *f, const char *s, bool first)
{
	if (!first && fputc(',', f) == EOF)
		return false;
	return csv_fwrite(f, s, strlen(s)) == 0;
}

static void clamp_range(const struct engine_report *r, size_t *first, size_t *count)
{
	if (*first > r->n)
		*first = r->n;
	if (!*count || *first + *count > r->n)
		*count = r->n - *first;
}

bool cli_report_csv(FILE *f, const struct engine_report *r, size_t first, size_t count)
{
	char buf[256];
	clamp_range(r, &first, &count);
	for (size_t i = 0; i < N_FIELDS; i++)
		if (!csv_cell(f, fields[i].name, i == 0))
			return false;
	fputc('\n', f);
	for (size_t k = first; k < first + count; k++) {
		for (size_t i = 0; i < N_FIELDS; i++) {
			if (!cli_result_value(i, &r->results[k], buf, sizeof buf))
				buf[0] = '\0';
			/* An empty cell stays empty: csv_fwrite would write "". */
			if (!buf[0]) {
				if (i && fputc(',', f) == EOF)
					return false;
				continue;
			}
			if (!csv_cell(f, buf, i == 0))
				return false;
		}
		fputc('\n', f);
	}
	return !ferror(f);
}

/* ---- YAML ---- */

struct ym {
	yaml_emitter_t e;
	yaml_event_t ev;
	bool ok;
};

static int ym_write(void *data, unsigned char *buf, size_t size)
{
	return fwrite(buf, 1, size, (FILE *)data) == size;
}

static void ym_emit(struct ym *m)
{
	if (m->ok && !yaml_emitter_emit(&m->e, &m->ev))
		m->ok = false;
}

/* Would this text read back as something other than a string (null, a
 * boolean, a number) if written plain? */
static bool reads_as_other(const char *s)
{
	static const char *const words[] = { "null", "Null", "NULL", "~", "true", "True", "TRUE",
					     "false", "False", "FALSE", "yes", "Yes", "YES", "no",
					     "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y",
					     "Y", "n", "N", "" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (!strcmp(s, words[i]))
			return true;
	char *end;
	strtod(s, &end);
	return end != s && !*end;
}

/* string false: a number, boolean, null or key, written plain.  string
 * true: text that must read back as a string; plain where YAML allows it
 * (the emitter quotes what needs quoting), quoted if it looks like another
 * type. */
static void ym_scalar(struct ym *m, const char *s, bool string)
{
	if (!m->ok)
		return;
	bool force_quotes = string && reads_as_other(s);
	yaml_scalar_event_initialize(&m->ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s),
				     !force_quotes, 1,
				     string ? YAML_ANY_SCALAR_STYLE : YAML_PLAIN_SCALAR_STYLE);
	ym_emit(m);
}

static void ym_map(struct ym *m, bool start)
{
	if (!m->ok)
		return;
	if (start)
		yaml_mapping_start_event_initialize(&m->ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	else
		yaml_mapping_end_event_initialize(&m->ev);
	ym_emit(m);
}

static void ym_seq(struct ym *m, bool start)
{
	if (!m->ok)
		return;
	if (start)
		yaml_sequence_start_event_initialize(&m->ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	else
		yaml_sequence_end_event_initialize(&m->ev);
	ym_emit(m);
}

static void ym_num(struct ym *m, const char *key, double v, int dec)
{
	char buf[64];
	ym_scalar(m, key, false);
	if (isfinite(v)) {
		if (fabs(v) >= 1e15 || (v != 0 && fabs(v) < 1e-3))
			snprintf(buf, sizeof buf, "%.6g", v);
		else
			snprintf(buf, sizeof buf, "%.*f", dec, v);
		ym_scalar(m, buf, false);
	} else {
		ym_scalar(m, "null", false);
	}
}

static bool ym_begin(struct ym *m, FILE *f)
{
	memset(m, 0, sizeof *m);
	if (!yaml_emitter_initialize(&m->e))
		return false;
	yaml_emitter_set_output(&m->e, ym_write, f);
	yaml_emitter_set_unicode(&m->e, 1);
	yaml_emitter_set_width(&m->e, 4096);
	m->ok = true;
	yaml_stream_start_event_initialize(&m->ev, YAML_UTF8_ENCODING);
	ym_emit(m);
	if (m->ok) {
		yaml_document_start_event_initialize(&m->ev, NULL, NULL, NULL, 1);
		ym_emit(m);
	}
	return m->ok;
}

static bool ym_end(struct ym *m)
{
	if (m->ok) {
		yaml_document_end_event_initialize(&m->ev, 1);
		ym_emit(m);
	}
	if (m->ok) {
		yaml_stream_end_event_initialize(&m->ev);
		ym_emit(m);
	}
	if (m->ok && !yaml_emitter_flush(&m->e))
		m->ok = false;
	yaml_emitter_delete(&m->e);
	return m->ok;
}

/* The workload's inputs, with the scenario file's words. */
struct setting_ctx {
	struct ym *m;
	const char *section;
};

static void emit_setting(const char *section, const char *key, const char *value, void *ctx)
{
	struct setting_ctx *s = ctx;
	if (strcmp(section, s->section))
		return;
	ym_scalar(s->m, key, false);
	/* Numbers and words plain, texts quoted only when YAML needs it. */
	char *end;
	strtod(value, &end);
	bool number = *value && !*end;
	ym_scalar(s->m, value, !number);
}

/* The TCO year by year (engine_tco_year()): capex in year 1, support
 * once the quoted term has run out.  YAML only: a CSV stays one row per
 * configuration. */
static void emit_tco_years(struct ym *m, const struct engine_result *res)
{
	ym_scalar(m, "tco_by_year", false);
	if (!res->platform || !(res->tco_usd > 0)) {
		ym_scalar(m, "null", false);
		return;
	}
	ym_seq(m, true);
	for (int y = 1; y <= res->tco_years; y++) {
		struct engine_tco_year t;
		engine_tco_year(res, y, &t);
		ym_map(m, true);
		ym_num(m, "year", y, 0);
		ym_num(m, "capex_usd", t.capex_usd, 2);
		ym_num(m, "energy_usd", t.energy_usd, 2);
		ym_num(m, "colocation_usd", t.colocation_usd, 2);
		ym_num(m, "support_usd", t.support_usd, 2);
		ym_num(m, "licence_usd", t.licence_usd, 2);
		ym_num(m, "total_usd", t.total_usd, 2);
		ym_map(m, false);
	}
	ym_seq(m, false);
}

static void emit_result(struct ym *m, const struct engine_result *res)
{
	char buf[256];
	ym_map(m, true);
	for (size_t i = 0; i < N_FIELDS; i++) {
		ym_scalar(m, fields[i].name, false);
		if (!cli_result_value(i, res, buf, sizeof buf))
			ym_scalar(m, "null", false);
		else
			ym_scalar(m, buf, fields[i].kind == CLI_FIELD_STR);
	}
	emit_tco_years(m, res);
	ym_map(m, false);
}

bool cli_report_yaml(FILE *f, const struct catalog *c, const struct workload *w,
		     const struct engine_report *r, size_t first, size_t count)
{
	(void)c;
	struct ym m;
	clamp_range(r, &first, &count);
	if (!ym_begin(&m, f)) {
		yaml_emitter_delete(&m.e);
		return false;
	}
	ym_map(&m, true);

	ym_scalar(&m, "workload", false);
	ym_map(&m, true);
	struct setting_ctx s = { &m, "workload" };
	scenario_each_setting(w, emit_setting, &s);
	const struct engine_requirements *q = &r->req;
	ym_num(&m, "weights_gb", q->weights_gb, 2);
	ym_num(&m, "kv_bytes_per_token", q->kv_bytes_per_token, 0);
	ym_num(&m, "kv_gb", w->cls == WL_INFERENCE ? q->kv_gb : NAN, 2);
	ym_num(&m, "activations_gb", w->cls != WL_INFERENCE ? q->activations_gb : NAN, 2);
	ym_num(&m, "optimizer_gb", w->cls != WL_INFERENCE ? q->optimizer_gb : NAN, 2);
	ym_num(&m, "trained_params", w->cls != WL_INFERENCE ? q->trained_params : NAN, 0);
	ym_num(&m, "adapter_params", q->adapter_params > 0 ? q->adapter_params : NAN, 0);
	ym_num(&m, "flops_total", q->flops_total, 0);
	ym_num(&m, "flops_per_token", q->flops_per_token, 0);
	ym_num(&m, "bytes_per_token", q->bytes_per_token, 0);
	ym_num(&m, "link_bytes_per_step", q->link_bytes_per_step, 0);
	ym_map(&m, false);

	ym_scalar(&m, "filters", false);
	ym_map(&m, true);
	s.section = "filters";
	scenario_each_setting(w, emit_setting, &s);
	ym_map(&m, false);
	s.section = "";
	scenario_each_setting(w, emit_setting, &s);
	ym_scalar(&m, "costs", false);
	ym_map(&m, true);
	s.section = "costs";
	scenario_each_setting(w, emit_setting, &s);
	ym_map(&m, false);

	ym_scalar(&m, "results", false);
	ym_seq(&m, true);
	for (size_t k = first; k < first + count; k++)
		emit_result(&m, &r->results[k]);
	ym_seq(&m, false);
	ym_map(&m, false);
	return ym_end(&m) && !ferror(f);
}

/* ---- table for people ---- */

/* 1234567.8 -> "1,234,568" (no locale: the same on every machine). */
static const char *grouped(double v, int dec, char *buf, size_t n)
{
	if (!isfinite(v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	char raw[64];
	cli_fmt_fixed(raw, sizeof raw, fabs(v), dec);
	char *dot = strchr(raw, '.');
	size_t ilen = dot ? (size_t)(dot - raw) : strlen(raw);
	size_t o = 0;
	if (v < 0 && o + 1 < n)
		buf[o++] = '-';
	for (size_t i = 0; i < ilen && o + 2 < n; i++) {
		buf[o++] = raw[i];
		size_t left = ilen - i - 1;
		if (left && left % 3 == 0)
			buf[o++] = ',';
	}
	if (dot)
		for (const char *p = dot; *p && o + 1 < n; p++)
			buf[o++] = *p;
	buf[o] = '\0';
	return buf;
}

static const char *money(double v, char *buf, size_t n)
{
	char g[48];
	if (!isfinite(v) || v <= 0) {
		snprintf(buf, n, "-");
		return buf;
	}
	snprintf(buf, n, "$%s", grouped(v, 0, g, sizeof g));
	return buf;
}

static void layout_text(const struct workload *w, const struct engine_result *r, char *buf, size_t n)
{
	if (r->gpus < 1) {
		snprintf(buf, n, "-");
		return;
	}
	if (w->cls == WL_INFERENCE) {
		if (r->pp > 1)
			snprintf(buf, n, "%dx TP%d PP%d", r->replicas, r->tp, r->pp);
		else
			snprintf(buf, n, "%dx TP%d", r->replicas, r->tp);
	} else {
		snprintf(buf, n, "TP%d PP%d DP%d Z%d", r->tp, r->pp, r->dp, r->zero_stage);
	}
}

static void headline(FILE *f, const struct catalog *c, const struct workload *w,
		     const struct engine_report *r)
{
	(void)c;
	const struct engine_requirements *q = &r->req;
	const char *name = w->model && w->model->name ? w->model->name : "custom model";
	char a[32], b[32], d[32];
	if (w->cls == WL_INFERENCE) {
		char conc[32];
		if (w->concurrency_max)
			snprintf(conc, sizeof conc, "max concurrency");
		else
			snprintf(conc, sizeof conc, "%ld user%s", w->concurrency,
				 w->concurrency == 1 ? "" : "s");
		fprintf(f, "%s inference at %s (KV %s), %ld in / %ld out tokens, %s",
			name, precision_name(w->precision), precision_name(w->kv_precision),
			w->input_tokens, w->output_tokens, conc);
		if (w->tokens_per_s_per_user > 0)
			fprintf(f, ", %g tok/s per user", w->tokens_per_s_per_user);
		if (w->ttft_ms > 0)
			fprintf(f, ", TTFT <= %g ms", w->ttft_ms);
		if (w->target_tokens_per_s > 0)
			fprintf(f, ", %s tok/s in all", grouped(w->target_tokens_per_s, 0, a, sizeof a));
		fprintf(f, "\nNeeds: %s GB of weights, %s bytes of KV cache per token", grouped(q->weights_gb, 1, a, sizeof a),
			grouped(q->kv_bytes_per_token, 0, b, sizeof b));
		if (!w->concurrency_max)
			fprintf(f, " (%s GB for all users at full context)", grouped(q->kv_gb, 1, a, sizeof a));
		fputs(".\n", f);
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
	if (inf)
		fprintf(f, "%-4s %-16s %5s %5s %-13s %10s %8s %8s %12s %13s %7s %9s  %-12s %s\n", "rank",
			"accelerator", "gpus", "nodes", "layout", "tok/s", "tok/s/u", "ttft ms", "capex",
			tcoh, "kW", "$/Mtok", "binding", "why");
	else
		fprintf(f, "%-4s %-16s %5s %5s %-17s %10s %10s %5s %6s %12s %13s %7s %11s  %-12s %s\n", "rank",
			"accelerator", "gpus", "nodes", "layout", "hours", "GPU-hours", "MFU", "scale",
			"capex", tcoh, "kW", "run cost", "binding", "why");
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
			snprintf(rank, sizeof rank, "%d", res->rank);
		layout_text(w, res, lay, sizeof lay);
		const char *why = res->filtered ? res->filter_reason : res->reason;
		char whybuf[400];
		if (res->filtered && res->fits)
			snprintf(whybuf, sizeof whybuf, "filtered: %s", why);
		else
			snprintf(whybuf, sizeof whybuf, "%s", why);
		const char *bind = res->binding != RES_NONE ? resource_key(res->binding) : "-";
		if (inf)
			fprintf(f, "%-4s %-16s %5d %5d %-13s %10s %8s %8s %12s %13s %7.1f %9s  %-12s %s\n", rank,
				res->accel->id, res->gpus, res->nodes, lay,
				grouped(res->output_tokens_per_s, 0, m1, sizeof m1),
				grouped(res->tokens_per_s_per_user, 1, m2, sizeof m2),
				grouped(res->ttft_ms, 0, m3, sizeof m3), money(res->capex_usd, cap, sizeof cap),
				money(res->tco_usd, tco, sizeof tco), res->power_kw, isfinite(res->usd_per_mtok) ? grouped(res->usd_per_mtok, 3, m4, sizeof m4) : "-",
				bind, whybuf);
		else
			fprintf(f, "%-4s %-16s %5d %5d %-17s %10s %10s %5s %6s %12s %13s %7.1f %11s  %-12s %s\n", rank,
				res->accel->id, res->gpus, res->nodes, lay,
				grouped(res->train_hours, 1, m1, sizeof m1),
				grouped(res->gpu_hours, 0, m2, sizeof m2),
				isfinite(res->mfu) ? (snprintf(m3, sizeof m3, "%.0f%%", 100 * res->mfu), m3) : "-",
				isfinite(res->scaling_efficiency)
				? (snprintf(m4, sizeof m4, "%.0f%%", 100 * res->scaling_efficiency), m4) : "-",
				money(res->capex_usd, cap, sizeof cap), money(res->tco_usd, tco, sizeof tco),
				res->power_kw, money(res->run_cost_usd, runc, sizeof runc), bind, whybuf);
	}
	fprintf(f, "\nObjective: %s. Prices are indicative list prices from the catalog; "
		"'(n)' = filtered out, 'no' = cannot meet the workload.\n", objective_name(w->objective));
	fprintf(f, "TCO over %.0f years: capex + energy ($%.3g/kWh x PUE %.3g x %.0f%% utilisation) + "
		"colocation ($%.2f/kW/month) + support after the quoted term + licences ($%.2f/GPU/year); "
		"%s spread over it.\n", tin.v[TCO_YEARS], tin.v[TCO_ELECTRICITY], tin.v[TCO_PUE],
		100 * tin.v[TCO_UTILISATION], tin.v[TCO_COLOCATION], tin.v[TCO_LICENCE],
		inf ? "$/Mtok" : "run cost");
	return !ferror(f);
}

/* ---- validation plan ---- */

bool cli_plan_write(FILE *f, enum cli_format fmt, const struct workload *w,
		    const struct engine_result *res, const struct engine_plan *plan)
{
	char p[32], t[32];
	if (fmt == CLI_FMT_CSV) {
		const char *hdr[] = { "accelerator", "benchmark", "metric", "unit", "predicted",
				      "threshold", "pass_if", "notes" };
		for (size_t i = 0; i < 8; i++)
			if (!csv_cell(f, hdr[i], i == 0))
				return false;
		fputc('\n', f);
		for (size_t i = 0; i < plan->n; i++) {
			const struct engine_plan_row *row = &plan->rows[i];
			snprintf(p, sizeof p, "%.4g", row->predicted);
			snprintf(t, sizeof t, "%.4g", row->threshold);
			const char *cells[] = { res->accel->id, row->benchmark, row->metric, row->unit, p, t,
						row->higher_is_better ? ">=" : "<=", row->notes };
			for (size_t k = 0; k < 8; k++)
				if (!csv_cell(f, cells[k], k == 0))
					return false;
			fputc('\n', f);
		}
		return !ferror(f);
	}
	if (fmt == CLI_FMT_YAML) {
		struct ym m;
		if (!ym_begin(&m, f)) {
			yaml_emitter_delete(&m.e);
			return false;
		}
		ym_map(&m, true);
		ym_scalar(&m, "accelerator", false);
		ym_scalar(&m, res->accel->id, true);
		ym_scalar(&m, "workload", false);
		ym_map(&m, true);
		struct setting_ctx s = { &m, "workload" };
		scenario_each_setting(w, emit_setting, &s);
		ym_map(&m, false);
		ym_scalar(&m, "plan", false);
		ym_seq(&m, true);
		for (size_t i = 0; i < plan->n; i++) {
			const struct engine_plan_row *row = &plan->rows[i];
			ym_map(&m, true);
			ym_scalar(&m, "benchmark", false);
			ym_scalar(&m, row->benchmark, true);
			ym_scalar(&m, "metric", false);
			ym_scalar(&m, row->metric, true);
			ym_scalar(&m, "unit", false);
			ym_scalar(&m, row->unit, true);
			snprintf(p, sizeof p, "%.4g", row->predicted);
			snprintf(t, sizeof t, "%.4g", row->threshold);
			ym_scalar(&m, "predicted", false);
			ym_scalar(&m, p, false);
			ym_scalar(&m, "threshold", false);
			ym_scalar(&m, t, false);
			ym_scalar(&m, "pass_if", false);
			ym_scalar(&m, row->higher_is_better ? ">=" : "<=", true);
			ym_scalar(&m, "notes", false);
			ym_scalar(&m, row->notes, true);
			ym_map(&m, false);
		}
		ym_seq(&m, false);
		ym_map(&m, false);
		return ym_end(&m) && !ferror(f);
	}
	fprintf(f, "Validation plan for %s (%d GPUs, %d node%s): run these before you buy.\n\n",
		res->accel->name ? res->accel->name : res->accel->id, res->gpus, res->nodes,
		res->nodes == 1 ? "" : "s");
	for (size_t i = 0; i < plan->n; i++) {
		const struct engine_plan_row *row = &plan->rows[i];
		fprintf(f, "%zu. %s\n   %-26s predicted %10s %-6s pass if %s %s %s\n", i + 1, row->benchmark,
			row->metric, grouped(row->predicted, row->predicted < 100 ? 1 : 0, p, sizeof p), row->unit,
			row->higher_is_better ? ">=" : "<=",
			grouped(row->threshold, row->threshold < 100 ? 1 : 0, t, sizeof t), row->unit);
		if (row->notes[0])
			fprintf(f, "   %s\n", row->notes);
	}
	return !ferror(f);
}

/* ---- the same writers for other commands' rows (accuracy) ---- */

bool cli_csv_row(FILE *f, const char *const *cells, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = cells[i] ? cells[i] : "";
		if (!s[0]) {
			if (i && fputc(',', f) == EOF)
				return false;
			continue;
		}
		if (!csv_cell(f, s, i == 0))
			return false;
	}
	return fputc('\n', f) != EOF;
}

struct cli_yaml {
	struct ym m;
};

struct cli_yaml *cli_yaml_begin(FILE *f)
{
	struct cli_yaml *y = malloc(sizeof *y);
	if (y && !ym_begin(&y->m, f)) {
		ym_end(&y->m);
		free(y);
		return NULL;
	}
	return y;
}

bool cli_yaml_end(struct cli_yaml *y)
{
	bool ok = ym_end(&y->m);
	free(y);
	return ok;
}

void cli_yaml_map(struct cli_yaml *y, bool start) { ym_map(&y->m, start); }
void cli_yaml_seq(struct cli_yaml *y, bool start) { ym_seq(&y->m, start); }
void cli_yaml_key(struct cli_yaml *y, const char *key) { ym_scalar(&y->m, key, false); }
void cli_yaml_num(struct cli_yaml *y, const char *key, double v, int dec) { ym_num(&y->m, key, v, dec); }

void cli_yaml_str(struct cli_yaml *y, const char *key, const char *value)
{
	ym_scalar(&y->m, key, false);
	if (value)
		ym_scalar(&y->m, value, true);
	else
		ym_scalar(&y->m, "null", false);
}
