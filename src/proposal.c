/*
 * proposal: gathering the figures (proposal_build) and writing them as
 * HTML or Markdown through one small writer (struct pw), so that every
 * section is written once for both formats (proposal.h says what comes
 * from where).  The charts are in proposal_charts.c.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "atomic.h"
#include "out.h"
#include "proposal_internal.h"

/* ---- formats and names ---- */

static const char *const format_names[PROPOSAL_FORMAT_COUNT] = { "html", "md" };

const char *proposal_format_name(enum proposal_format f)
{
	return f < PROPOSAL_FORMAT_COUNT ? format_names[f] : "?";
}

bool proposal_format_parse(const char *s, enum proposal_format *out)
{
	for (int i = 0; i < PROPOSAL_FORMAT_COUNT; i++)
		if (!strcmp(s, format_names[i])) {
			*out = (enum proposal_format)i;
			return true;
		}
	if (!strcmp(s, "markdown")) {
		*out = PROPOSAL_MD;
		return true;
	}
	return false;
}

bool proposal_format_of_path(const char *path, enum proposal_format *out)
{
	const char *dot = strrchr(path, '.');
	if (!dot || strchr(dot, '/'))
		return false;
	if (!strcasecmp(dot, ".html") || !strcasecmp(dot, ".htm"))
		*out = PROPOSAL_HTML;
	else if (!strcasecmp(dot, ".md") || !strcasecmp(dot, ".markdown"))
		*out = PROPOSAL_MD;
	else
		return false;
	return true;
}

void proposal_default_path(const char *scenario_path, char *buf, size_t n)
{
	const char *dflt = "./accelsizer-proposal.html";
	if (!scenario_path || !*scenario_path) {
		snprintf(buf, n, "%s", dflt);
		return;
	}
	const char *slash = strrchr(scenario_path, '/');
	const char *base = slash ? slash + 1 : scenario_path;
	const char *dot = strrchr(base, '.');
	size_t stem = dot && dot > base ? (size_t)(dot - base) : strlen(base);
	if (!stem) {
		snprintf(buf, n, "%s", dflt);
		return;
	}
	int dir = slash ? (int)(slash - scenario_path + 1) : 0;
	snprintf(buf, n, "%.*s%.*s-proposal.html", dir, scenario_path, (int)stem, base);
}

/* ---- gathering the figures ---- */

static const struct engine_result *first_fitting(const struct engine_report *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->results[i].fits && !r->results[i].filtered)
			return &r->results[i];
	return NULL;
}

static void pick_alternatives(struct proposal *p)
{
	p->n_alt = 0;
	for (size_t i = 0; i < p->rep.n && p->n_alt < PROPOSAL_ALTERNATIVES; i++) {
		const struct engine_result *r = &p->rep.results[i];
		if (r != p->rec && r->fits && !r->filtered && r->platform)
			p->alt[p->n_alt++] = r;
	}
}

/* Several workloads: the chosen (or best-ranked) accelerator's cluster is
 * the recommendation, the next-ranked clusters the alternatives; a plan
 * per workload and the shared cluster's. */
static enum proposal_status build_several(struct proposal *p, const struct accuracy_bands *bands,
					  char *err, size_t errsz)
{
	p->several = true;
	if (!cluster_size(p->c, p->s, bands, &p->cl)) {
		snprintf(err, errsz, "out of memory");
		return PROPOSAL_FAILED;
	}
	size_t a = cluster_choose(&p->cl);
	if (a >= p->cl.n_accel || !p->cl.cl[a].fits || !p->cl.cl[a].total.platform) {
		if (p->w.accel)
			snprintf(err, errsz, "%s cannot hold every workload of the scenario "
				 "('recommend --scenario' shows which does not fit)", p->w.accel->name);
		else
			snprintf(err, errsz, "no accelerator in the catalog can hold every workload of the "
				 "scenario on one cluster (accelsizer recommend shows why)");
		return PROPOSAL_UNMET;
	}
	p->rec_accel = a;
	p->rec = &p->cl.cl[a].total;
	for (size_t k = 0; k < p->cl.n_accel && p->n_alt < PROPOSAL_ALTERNATIVES; k++) {
		const struct engine_result *t = &p->cl.cl[p->cl.order[k]].total;
		if (p->cl.order[k] != a && t->fits && !t->filtered && t->platform)
			p->alt[p->n_alt++] = t;
	}
	const struct engine_cluster_item *items = &p->cl.items[a * p->cl.n_entries];
	for (size_t i = 0; i < p->cl.n_items[a]; i++)
		engine_validation_plan(p->c, items[i].w, items[i].used, &p->plans[i]);
	engine_cluster_plan(p->c, items, p->cl.n_items[a], &p->cl.cl[a], &p->plan);
	if (!bom_build(p->c, &p->w, p->rec, p->w.prices, &p->bom, err, errsz))
		return PROPOSAL_FAILED;
	return PROPOSAL_OK;
}

enum proposal_status proposal_build(struct proposal *p, const struct catalog *c,
				    const struct scenario *s, const struct accuracy_bands *bands,
				    char *err, size_t errsz)
{
	memset(p, 0, sizeof *p);
	bom_init(&p->bom);
	p->c = c;
	p->s = s;
	/* several workloads: the first entry's (the shared settings are every
	 * entry's; the wizard's s->w is the one on screen) */
	p->w = s->n_entries > 1 ? s->entries[0].w : s->w;
	engine_workload_derive(&p->w);
	out_date(p->date, sizeof p->date);
	p->currency = prices_currency(p->w.prices);	/* the price list's (t17b) */
	if (s->n_entries > 1)
		return build_several(p, bands, err, errsz);
	if (!engine_report_init(&p->rep, c)) {
		snprintf(err, errsz, "out of memory");
		return PROPOSAL_FAILED;
	}
	engine_run(c, &p->w, &p->rep);
	accuracy_bands_apply_report(bands, &p->rep);
	p->rec = p->w.accel ? engine_report_find(&p->rep, p->w.accel) : first_fitting(&p->rep);
	if (!p->rec || !p->rec->fits || !p->rec->platform) {
		char rb[ENGINE_REASON_MAX];
		if (p->w.accel)
			snprintf(err, errsz, "%s cannot meet this workload: %s", p->w.accel->name,
				 p->rec ? engine_result_reason(p->rec, rb, sizeof rb) : "not sized");
		else
			snprintf(err, errsz, "no accelerator in the catalog can meet this workload "
				 "(accelsizer recommend shows why)");
		return PROPOSAL_UNMET;
	}
	pick_alternatives(p);
	engine_validation_plan(c, &p->w, p->rec, &p->plan);
	if (!bom_build(c, &p->w, p->rec, p->w.prices, &p->bom, err, errsz))
		return PROPOSAL_FAILED;
	engine_tradeoff_curve(c, &p->w, p->rec, &p->curve);
	return PROPOSAL_OK;
}

void proposal_fini(struct proposal *p)
{
	if (p->several)
		cluster_fini(&p->cl);
	bom_fini(&p->bom);
	if (p->rep.results)
		engine_report_fini(&p->rep);
	memset(p, 0, sizeof *p);
}

/* ---- the writer: one call per element, HTML or Markdown ---- */

void pw_raw(struct pw *w, const char *s)
{
	if (w->ok && fputs(s, w->fp) == EOF)
		w->ok = false;
}

void pw_text(struct pw *w, const char *s)
{
	if (w->ok)
		w->ok = w->f == PROPOSAL_HTML ? out_html(w->fp, s) : out_md(w->fp, s);
}

void pw_textf(struct pw *w, const char *fmt, ...)
{
	char small[1024], *s = small;
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= 0 && (size_t)n >= sizeof small && (s = malloc((size_t)n + 1)))
		vsnprintf(s, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	va_end(ap);
	if (n < 0 || !s)
		w->ok = false;
	else
		pw_text(w, s);
	if (s != small)
		free(s);
}

/* Markup we write ourselves (no user text in fmt's arguments). */
void pw_rawf(struct pw *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (w->ok && vfprintf(w->fp, fmt, ap) < 0)
		w->ok = false;
	va_end(ap);
}

static void section(struct pw *w, const char *id, const char *title, const char *cls)
{
	if (w->f == PROPOSAL_HTML) {
		pw_rawf(w, "<section id=\"%s\"%s%s%s>\n<h2>", id, cls ? " class=\"" : "", cls ? cls : "",
			cls ? "\"" : "");
		pw_text(w, title);
		pw_raw(w, "</h2>\n");
	} else {
		pw_raw(w, "## ");
		pw_text(w, title);
		pw_raw(w, "\n\n");
	}
}

static void section_end(struct pw *w)
{
	if (w->f == PROPOSAL_HTML)
		pw_raw(w, "</section>\n");
}

void pw_para_begin(struct pw *w)
{
	if (w->f == PROPOSAL_HTML)
		pw_raw(w, "<p>");
}

void pw_para_end(struct pw *w)
{
	pw_raw(w, w->f == PROPOSAL_HTML ? "</p>\n" : "\n\n");
}

void pw_strong(struct pw *w, const char *s)
{
	pw_raw(w, w->f == PROPOSAL_HTML ? "<strong>" : "**");
	pw_text(w, s);
	pw_raw(w, w->f == PROPOSAL_HTML ? "</strong>" : "**");
}

/* A table: align is one letter a column, l or r. */
void pw_table(struct pw *w, const char *cls, const char *align, const char *const *head, size_t n)
{
	if (w->f == PROPOSAL_HTML) {
		pw_rawf(w, "<table class=\"%s\">\n<thead><tr>", cls);
		for (size_t i = 0; i < n; i++) {
			pw_rawf(w, "<th%s>", align[i] == 'r' ? " class=\"num\"" : "");
			pw_text(w, head[i]);
			pw_raw(w, "</th>");
		}
		pw_raw(w, "</tr></thead>\n<tbody>\n");
		return;
	}
	pw_raw(w, "|");
	for (size_t i = 0; i < n; i++) {
		pw_raw(w, " ");
		pw_text(w, head[i][0] ? head[i] : " ");
		pw_raw(w, " |");
	}
	pw_raw(w, "\n|");
	for (size_t i = 0; i < n; i++)
		pw_raw(w, align[i] == 'r' ? " ---: |" : " --- |");
	pw_raw(w, "\n");
}

/* One row; strong: a total or the first column as a label. */
void pw_row(struct pw *w, const char *align, const char *const *cells, size_t n, bool strong)
{
	if (w->f == PROPOSAL_HTML) {
		pw_raw(w, strong ? "<tr class=\"total\">" : "<tr>");
		for (size_t i = 0; i < n; i++) {
			bool head = i == 0 && !strong;
			pw_rawf(w, "<%s%s>", head ? "th" : "td", align[i] == 'r' ? " class=\"num\"" : "");
			pw_text(w, cells[i] ? cells[i] : "");
			pw_rawf(w, "</%s>", head ? "th" : "td");
		}
		pw_raw(w, "</tr>\n");
		return;
	}
	pw_raw(w, "|");
	for (size_t i = 0; i < n; i++) {
		pw_raw(w, " ");
		if (strong && cells[i] && cells[i][0])
			pw_strong(w, cells[i]);
		else
			pw_text(w, cells[i] && cells[i][0] ? cells[i] : " ");
		pw_raw(w, " |");
	}
	pw_raw(w, "\n");
}

void pw_table_end(struct pw *w)
{
	pw_raw(w, w->f == PROPOSAL_HTML ? "</tbody>\n</table>\n" : "\n");
}

/* ---- figures as words ---- */

/* 5e7 -> "50M", 1e12 -> "1T", 70.6e9 -> "70.6B", 2000 -> "2,000". */
void pw_si(double v, char *buf, size_t n)
{
	static const struct { double at; const char *suffix; } units[] = {
		{ 1e12, "T" }, { 1e9, "B" }, { 1e6, "M" },
	};
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (fabs(v) >= units[i].at) {
			double x = v / units[i].at;
			snprintf(buf, n, "%.*f%s", x == floor(x) || x >= 100 ? 0 : 1, x, units[i].suffix);
			return;
		}
	out_grouped(v, v == floor(v) ? 0 : 1, buf, n);
}

/* The currency the figures are in: "$" for US dollars, else the ISO
 * code and a space ("EUR 1,234"). */
static const char *money_prefix(const struct proposal *p, char *buf, size_t n)
{
	if (!strcmp(p->currency, "USD"))
		return "$";
	snprintf(buf, n, "%s ", p->currency);
	return buf;
}

/* "$1,333,308": whole units, a projection. */
void pw_usd(const struct proposal *p, double v, char *buf, size_t n)
{
	char g[48], cur[16];
	if (!isfinite(v)) {
		snprintf(buf, n, "-");
		return;
	}
	snprintf(buf, n, "%s%s", money_prefix(p, cur, sizeof cur), out_grouped(v, 0, g, sizeof g));
}

/* "$1,333,307.68": cents, a price. */
void pw_cents(const struct proposal *p, int64_t cents, char *buf, size_t n)
{
	char plain[32], g[48], cur[16];
	bom_format_cents(cents, plain, sizeof plain);
	snprintf(buf, n, "%s%s", money_prefix(p, cur, sizeof cur),
		 out_grouped(strtod(plain, NULL), 2, g, sizeof g));
}

/* A figure with as many decimals as its size needs: 1 under 100, none
 * for a whole number ("14 days", "20.5 tokens/s"). */
void pw_num(double v, char *buf, size_t n)
{
	out_grouped(v, isfinite(v) && fabs(v) < 100 && v != floor(v) ? 1 : 0, buf, n);
}

void pw_hours(double h, char *buf, size_t n)
{
	char num[32];
	if (!isfinite(h)) {
		snprintf(buf, n, "-");
		return;
	}
	if (h >= 48)
		snprintf(buf, n, "%s days", (pw_num(h / 24, num, sizeof num), num));
	else
		snprintf(buf, n, "%s hours", (pw_num(h, num, sizeof num), num));
}

/* ---- the document ---- */

static const char *customer_or(const struct proposal *p, const char *dflt)
{
	return p->s->customer && *p->s->customer ? p->s->customer : dflt;
}

static void write_head(struct pw *w, const struct proposal *p)
{
	const char *cat = p->c->defaults.version ? p->c->defaults.version : "unknown";
	if (w->f == PROPOSAL_HTML) {
		pw_raw(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
		       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>");
		pw_textf(w, "Sizing proposal: %s", customer_or(p, "AI infrastructure"));
		pw_raw(w, "</title>\n<style>\n");
		pw_raw(w, proposal_css);
		pw_raw(w, "</style>\n</head>\n<body>\n<header>\n<h1>Sizing proposal</h1>\n"
		       "<table class=\"meta\">\n");
	} else {
		pw_raw(w, "# Sizing proposal\n\n");
	}
	const char *rows[][2] = {
		{ "Customer", p->s->customer }, { "Opportunity", p->s->opportunity },
	};
	for (size_t i = 0; i < 2; i++) {
		if (!rows[i][1] || !*rows[i][1])
			continue;
		if (w->f == PROPOSAL_HTML) {
			pw_rawf(w, "<tr><th>%s</th><td>", rows[i][0]);
			pw_text(w, rows[i][1]);
			pw_raw(w, "</td></tr>\n");
		} else {
			pw_strong(w, rows[i][0]);
			pw_raw(w, ": ");
			pw_text(w, rows[i][1]);
			pw_raw(w, "  \n");
		}
	}
	if (w->f == PROPOSAL_HTML) {
		pw_rawf(w, "<tr><th>Date</th><td>%s</td></tr>\n<tr><th>Prepared with</th><td>accelsizer %s, "
			"catalog ", p->date, PACKAGE_VERSION);
		pw_text(w, cat);
		pw_raw(w, "</td></tr>\n</table>\n</header>\n");
	} else {
		pw_rawf(w, "**Date**: %s  \n**Prepared with**: accelsizer %s, catalog ", p->date, PACKAGE_VERSION);
		pw_text(w, cat);
		pw_raw(w, "\n\n");
	}
}

static void write_notes(struct pw *w, const struct proposal *p)
{
	const char *notes = p->s->notes;
	if (!notes || !*notes)
		return;
	/* a YAML block ends with a newline: no empty line after the last */
	size_t len = strlen(notes);
	while (len && notes[len - 1] == '\n')
		len--;
	char *text = strndup(notes, len);
	section(w, "notes", "Notes and assumptions", NULL);
	pw_para_begin(w);
	if (!text)
		w->ok = false;
	if (w->ok)
		w->ok = w->f == PROPOSAL_HTML ? out_html_lines(w->fp, text) : out_md_lines(w->fp, text);
	free(text);
	pw_para_end(w);
	section_end(w);
}

static const char *model_name(const struct workload *wl)
{
	return wl->model && wl->model->name ? wl->model->name : "a custom model";
}

static void model_words(const struct workload *wl, char *buf, size_t n)
{
	char p[32], a[32];
	const struct catalog_model *m = wl->model;
	if (!m) {
		snprintf(buf, n, "%s", model_name(wl));
		return;
	}
	pw_si(m->params, p, sizeof p);
	if (m->active_params > 0 && m->active_params < m->params) {
		pw_si(m->active_params, a, sizeof a);
		snprintf(buf, n, "%s (%s parameters, %s active per token)", model_name(wl), p, a);
	} else {
		snprintf(buf, n, "%s (%s parameters)", model_name(wl), p);
	}
}

static void workload_inference(struct pw *w, const struct workload *wl, const char *model)
{
	char in[32], out[32], who[64], x[32];
	out_grouped((double)wl->input_tokens, 0, in, sizeof in);
	out_grouped((double)wl->output_tokens, 0, out, sizeof out);
	if (wl->arrival_rate > 0)
		snprintf(who, sizeof who, "%g requests a second", wl->arrival_rate);
	else if (wl->concurrency_max)
		snprintf(who, sizeof who, "as many concurrent users as memory holds");
	else
		snprintf(who, sizeof who, "%s concurrent user%s",
			 out_grouped((double)wl->concurrency, 0, x, sizeof x), wl->concurrency == 1 ? "" : "s");
	pw_textf(w, "Serve %s at %s (KV cache %s) to %s, each sending %s-token prompts and "
		 "receiving %s-token answers", model, precision_name(wl->precision),
		 precision_name(wl->kv_precision), who, in, out);
	if (wl->tokens_per_s_per_user > 0)
		pw_textf(w, ", at least %g tokens a second for each user (p99)", wl->tokens_per_s_per_user);
	if (wl->ttft_ms > 0)
		pw_textf(w, ", the first token within %s ms (p99)", out_grouped(wl->ttft_ms, 0, x, sizeof x));
	if (wl->target_tokens_per_s > 0)
		pw_textf(w, ", %s tokens a second in all", out_grouped(wl->target_tokens_per_s, 0, x, sizeof x));
	if (wl->prefix_cache_hit > 0)
		pw_textf(w, ", %g%% of prompt tokens already in the prefix cache", wl->prefix_cache_hit * 100);
	pw_text(w, ".");
}

static void workload_training(struct pw *w, const struct workload *wl, const char *model)
{
	char tok[32], seq[32], when[48];
	pw_si(wl->tokens, tok, sizeof tok);
	out_grouped((double)wl->seq_len, 0, seq, sizeof seq);
	when[0] = '\0';
	if (wl->target_hours > 0) {
		char h[32];
		pw_hours(wl->target_hours, h, sizeof h);
		snprintf(when, sizeof when, " in %s", h);
	}
	if (wl->cls == WL_PRETRAIN) {
		char gb[32];
		pw_si(wl->global_batch_tokens, gb, sizeof gb);
		pw_textf(w, "Pretrain %s at %s on %s tokens%s, in sequences of %s tokens and steps of %s "
			 "tokens.", model, precision_name(wl->precision), tok, when, seq, gb);
		return;
	}
	char method[48];
	if (wl->method == FT_FULL)
		snprintf(method, sizeof method, "A full fine-tune");
	else
		snprintf(method, sizeof method, "A %s fine-tune (adapter rank %d)",
			 wl->method == FT_QLORA ? "QLoRA" : "LoRA", wl->lora_rank);
	pw_textf(w, "%s of %s at %s on %s tokens, %g epoch%s%s, in sequences of %s tokens.", method, model,
		 precision_name(wl->precision), tok, wl->epochs, wl->epochs == 1 ? "" : "s", when, seq);
}

static void workload_limits(struct pw *w, const struct proposal *p)
{
	const struct workload *wl = &p->w;
	char x[48];
	pw_text(w, "Ranked by ");
	pw_text(w, objective_name(wl->objective));
	if (wl->stack >= 0)
		pw_textf(w, "; only accelerators on the %s software stack", stack_name((enum stack)wl->stack));
	if (wl->form != FORMF_ANY)
		pw_textf(w, "; %s boards only", form_filter_name(wl->form));
	if (wl->max_power_kw > 0)
		pw_textf(w, "; at most %g kW", wl->max_power_kw);
	if (wl->budget_usd > 0)
		pw_textf(w, "; a budget of %s for the quote", (pw_usd(p, wl->budget_usd, x, sizeof x), x));
	if (p->rec->rack_kw_set)
		pw_textf(w, "; racks of at most %g kW", p->rec->rack_kw);
	if (wl->accel)
		pw_text(w, "; the accelerator was chosen: ");
	if (wl->accel)
		pw_text(w, wl->accel->name);
	pw_text(w, ".");
}

/* Several workloads: each in words under its name, then the limits they
 * share. */
static void write_workloads(struct pw *w, const struct proposal *p)
{
	char model[256];
	section(w, "workload", "The workloads, on one cluster", NULL);
	for (size_t e = 0; e < p->s->n_entries; e++) {
		const struct scenario_entry *se = &p->s->entries[e];
		struct workload wl = se->w;
		engine_workload_derive(&wl);
		model_words(&wl, model, sizeof model);
		pw_para_begin(w);
		pw_strong(w, se->name);
		pw_text(w, ": ");
		if (wl.cls == WL_INFERENCE)
			workload_inference(w, &wl, model);
		else
			workload_training(w, &wl, model);
		if (wl.cls != WL_INFERENCE && se->share < 1)
			pw_textf(w, " It runs %.3g hours a week.", se->share * 168.0);
		pw_para_end(w);
	}
	pw_para_begin(w);
	pw_text(w, p->s->share_gpus ? "Training may borrow the serving GPUs for its hours of the week. "
				    : "Training gets GPUs of its own. ");
	workload_limits(w, p);
	pw_para_end(w);
	section_end(w);
}

static void write_workload(struct pw *w, const struct proposal *p)
{
	char model[256], a[32], b[32];
	const struct engine_requirements *q = &p->rep.req;
	if (p->several) {
		write_workloads(w, p);
		return;
	}
	section(w, "workload", "The workload", NULL);
	model_words(&p->w, model, sizeof model);
	pw_para_begin(w);
	if (p->w.cls == WL_INFERENCE)
		workload_inference(w, &p->w, model);
	else
		workload_training(w, &p->w, model);
	pw_para_end(w);
	pw_para_begin(w);
	workload_limits(w, p);
	pw_para_end(w);
	pw_para_begin(w);
	if (p->w.cls == WL_INFERENCE)
		pw_textf(w, "It needs %s GB of weights and %s bytes of KV cache per token.",
			 out_grouped(q->weights_gb, 1, a, sizeof a), out_grouped(q->kv_bytes_per_token, 0, b, sizeof b));
	else
		pw_textf(w, "It needs %s GB of weights and %s GB of optimizer state.",
			 out_grouped(q->weights_gb, 1, a, sizeof a), out_grouped(q->optimizer_gb, 1, b, sizeof b));
	pw_para_end(w);
	section_end(w);
}

/* ---- the configurations side by side ---- */

void pw_layout(const struct workload *wl, const struct engine_result *r, char *buf, size_t n)
{
	const char *rs = r->replicas == 1 ? "" : "s";
	if (wl->cls != WL_INFERENCE && r->cp > 1)
		snprintf(buf, n, "TP%d PP%d CP%d DP%d, ZeRO-%d", r->tp, r->pp, r->cp, r->dp, r->zero_stage);
	else if (wl->cls != WL_INFERENCE)
		snprintf(buf, n, "TP%d PP%d DP%d, ZeRO-%d", r->tp, r->pp, r->dp, r->zero_stage);
	else if (r->partition)
		snprintf(buf, n, "%d replica%s on %s slices", r->replicas, rs, r->partition->profile);
	else if (r->pp > 1)
		snprintf(buf, n, "%d replica%s of TP%d PP%d", r->replicas, rs, r->tp, r->pp);
	else
		snprintf(buf, n, "%d replica%s of TP%d", r->replicas, rs, r->tp);
}

/* Several workloads: what entry e gets of accelerator a's cluster. */
static void share_words(const struct proposal *p, size_t e, size_t a, char *buf, size_t n)
{
	const struct engine_result *r = cluster_used(&p->cl, e, a);
	char lay[96];
	if (!r || !r->fits) {
		snprintf(buf, n, "does not fit");
		return;
	}
	pw_layout(&p->s->entries[e].w, r, lay, sizeof lay);
	if (r->partition)
		snprintf(buf, n, "%s (%d a GPU)", lay, r->partitions_per_gpu);
	else
		snprintf(buf, n, "%d GPU%s: %s", r->gpus, r->gpus == 1 ? "" : "s", lay);
}

/* One row of the side-by-side table: the label and a value per result. */
typedef void (*cell_fn)(const struct proposal *p, const struct engine_result *r, char *buf, size_t n);

static void c_accel(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	snprintf(b, n, "%s", r->accel->name);
}

static void c_server(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	snprintf(b, n, "%s", r->platform ? r->platform->name : "-");
}

static void c_gpus(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	if (r->gpus_installed > r->gpus)
		snprintf(b, n, "%d used, %d installed", r->gpus, r->gpus_installed);
	else
		snprintf(b, n, "%d", r->gpus);
}

static void c_nodes(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	snprintf(b, n, "%d x %d GPUs + %d spare", r->nodes, r->gpus_per_node, r->spare_nodes);
}

static void c_layout(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	pw_layout(&p->w, r, b, n);
}

static void c_fabric(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	snprintf(b, n, "%s", r->fabric ? r->fabric->name : "none (one node)");
}

static void c_power(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	char kw[32];
	pw_num(r->power_kw, kw, sizeof kw);
	snprintf(b, n, "%s kW in %.0f rack%s", kw, r->racks, r->racks == 1 ? "" : "s");
}

static void c_tps(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	pw_num(r->output_tokens_per_s, b, n);
}

static void c_tpu(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	pw_num(r->tokens_per_s_per_user, b, n);
}

static void c_ttft(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	pw_num(isfinite(r->ttft_p99_ms) ? r->ttft_p99_ms : r->ttft_ms, b, n);
}

static void c_train(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	pw_hours(r->train_hours, b, n);
}

static void c_gpuh(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	out_grouped(r->gpu_hours, 0, b, n);
}

static void c_mfu(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	if (isfinite(r->mfu))
		snprintf(b, n, "%.0f%%", r->mfu * 100);
	else
		snprintf(b, n, "-");
}

/* A money cell by the result's price state (engine_price_state()): no
 * figure when the GPU has no price, the BOM's "*" when lines are left out. */
static void money_cell(const struct proposal *p, const struct engine_result *r, double v, char *b, size_t n)
{
	enum engine_price_state s = engine_price_state(r);
	if (s == PRICE_UNKNOWN) {
		snprintf(b, n, "no GPU price");
		return;
	}
	pw_usd(p, v, b, n);
	size_t k = strlen(b);
	if (s == PRICE_PARTIAL && k + 1 < n)
		snprintf(b + k, n - k, "*");
}

static void c_capex(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	money_cell(p, r, r->capex_usd, b, n);
}

static void c_tco(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	money_cell(p, r, r->tco_usd, b, n);
}

static void c_unit_cost(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	enum engine_price_state s = engine_price_state(r);
	if (p->w.cls == WL_INFERENCE && s == PRICE_UNKNOWN)
		snprintf(b, n, "no GPU price");
	else if (p->w.cls == WL_INFERENCE && !isfinite(r->usd_per_mtok))
		snprintf(b, n, "-");
	else if (p->w.cls == WL_INFERENCE) {
		char cur[16];
		snprintf(b, n, "%s%.3f%s", money_prefix(p, cur, sizeof cur), r->usd_per_mtok,
			 s == PRICE_PARTIAL ? "*" : "");
	}
	else
		money_cell(p, r, r->run_cost_usd, b, n);
}

static void c_rent(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	char usd[48], be[96];
	engine_rent_breakeven(r, be, sizeof be);
	if (r->rent_basis < 0 || !isfinite(r->rent_usd)) {
		if (r->rent_asked >= 0 && r->rent_asked < RENT_TERM_COUNT)
			snprintf(b, n, "no %s rate", engine_rent_term_name((enum engine_rent_term)r->rent_asked));
		else
			snprintf(b, n, "no rental price");
		return;
	}
	pw_usd(p, r->rent_usd, usd, sizeof usd);
	snprintf(b, n, "%s %s (%s); %s", usd, r->cls == WL_INFERENCE ? "a year" : "the run",
		 engine_rent_term_name((enum engine_rent_term)r->rent_basis), be);
}

static void c_binding(const struct proposal *p, const struct engine_result *r, char *b, size_t n)
{
	(void)p;
	snprintf(b, n, "%s", resource_name(r->binding));
}

static void write_configurations(struct pw *w, const struct proposal *p)
{
	static const struct { const char *label; cell_fn fn; unsigned classes; } rows[] = {
		{ "Accelerator", c_accel, ENGINE_CLASSES_ALL },
		{ "Server", c_server, ENGINE_CLASSES_ALL },
		{ "GPUs", c_gpus, ENGINE_CLASSES_ALL },
		{ "Nodes", c_nodes, ENGINE_CLASSES_ALL },
		{ "Layout", c_layout, ENGINE_CLASSES_ALL },
		{ "Fabric", c_fabric, ENGINE_CLASSES_ALL },
		{ "Power", c_power, ENGINE_CLASSES_ALL },
		{ "Output tokens/s", c_tps, ENGINE_CLASS(WL_INFERENCE) },
		{ "Tokens/s per user", c_tpu, ENGINE_CLASS(WL_INFERENCE) },
		{ "First token, p99 ms", c_ttft, ENGINE_CLASS(WL_INFERENCE) },
		{ "Time to train", c_train, ENGINE_CLASS(WL_PRETRAIN) | ENGINE_CLASS(WL_FINETUNE) },
		{ "GPU-hours", c_gpuh, ENGINE_CLASS(WL_PRETRAIN) | ENGINE_CLASS(WL_FINETUNE) },
		{ "MFU", c_mfu, ENGINE_CLASS(WL_PRETRAIN) | ENGINE_CLASS(WL_FINETUNE) },
		{ "Capex (the quote)", c_capex, ENGINE_CLASSES_ALL },
		{ "TCO", c_tco, ENGINE_CLASSES_ALL },
		{ "Cost per M tokens", c_unit_cost, ENGINE_CLASS(WL_INFERENCE) },
		{ "Cost of the run", c_unit_cost, ENGINE_CLASS(WL_PRETRAIN) | ENGINE_CLASS(WL_FINETUNE) },
		{ "Renting instead", c_rent, ENGINE_CLASSES_ALL },
		{ "Binding resource", c_binding, ENGINE_CLASSES_ALL },
	};
	const struct engine_result *col[1 + PROPOSAL_ALTERNATIVES] = { p->rec };
	size_t ncol = 1;
	for (size_t i = 0; i < p->n_alt; i++)
		col[ncol++] = p->alt[i];
	static const char *const heads[] = { "", "Recommended", "Alternative 1", "Alternative 2" };
	static const char align[] = "llll";
	char vals[1 + PROPOSAL_ALTERNATIVES][160], tco[48];
	section(w, "configurations", "Recommended configuration and alternatives", NULL);
	pw_table(w, "configs", align, heads, ncol + 1);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		/* a cluster: the rows of any class but one workload's layout and
		 * binding resource; each workload's share follows */
		bool skip = p->several ? rows[i].classes != ENGINE_CLASSES_ALL || rows[i].fn == c_layout ||
					 rows[i].fn == c_binding
				       : !(rows[i].classes & ENGINE_CLASS(p->w.cls));
		if (skip)
			continue;
		const char *cells[2 + PROPOSAL_ALTERNATIVES] = { rows[i].label };
		if (rows[i].fn == c_tco) {
			snprintf(tco, sizeof tco, "TCO over %d years", p->rec->tco_years);
			cells[0] = tco;
		}
		for (size_t k = 0; k < ncol; k++) {
			rows[i].fn(p, col[k], vals[k], sizeof vals[k]);
			cells[k + 1] = vals[k];
		}
		pw_row(w, align, cells, ncol + 1, false);
	}
	for (size_t e = 0; p->several && e < p->s->n_entries; e++) {
		const char *cells[2 + PROPOSAL_ALTERNATIVES] = { p->s->entries[e].name };
		for (size_t k = 0; k < ncol; k++) {
			share_words(p, e, (size_t)(col[k]->accel - p->c->accels), vals[k], sizeof vals[k]);
			cells[k + 1] = vals[k];
		}
		pw_row(w, align, cells, ncol + 1, false);
	}
	pw_table_end(w);
	if (p->several && p->rec->reason[0]) {
		pw_para_begin(w);
		pw_textf(w, "How they share the recommended cluster: %s.", p->rec->reason);
		pw_para_end(w);
	}
	if (p->rec->filtered) {
		pw_para_begin(w);
		pw_textf(w, "The chosen %s is outside the filters: %s.", p->rec->accel->name,
			 p->rec->filter_reason);
		pw_para_end(w);
	}
	if (!p->n_alt) {
		pw_para_begin(w);
		pw_text(w, "No other accelerator in the catalog meets this workload within the filters.");
		pw_para_end(w);
	}
	section_end(w);
}

/* ---- predicted performance ---- */

static void band_words(struct pw *w, const struct engine_band *b, const char *unit)
{
	char lo[32], hi[32];
	if (b->n <= 0) {
		pw_text(w, " (not yet checked against published results)");
		return;
	}
	pw_num(b->low, lo, sizeof lo);
	pw_num(b->high, hi, sizeof hi);
	pw_textf(w, " (error band %s to %s %s, from %d published result%s)", lo, hi, unit, b->n,
		 b->n == 1 ? "" : "s");
}

static void figure(struct pw *w, const char *label, double v, const char *unit,
		   const struct engine_band *b)
{
	char num[32];
	if (!isfinite(v))
		return;
	pw_raw(w, w->f == PROPOSAL_HTML ? "<li>" : "- ");
	pw_textf(w, "%s: ", label);
	pw_num(v, num, sizeof num);
	pw_strong(w, num);
	pw_textf(w, " %s", unit);
	if (b)
		band_words(w, b, unit);
	pw_raw(w, w->f == PROPOSAL_HTML ? "</li>\n" : "\n");
}

/* Several workloads: each one's headline figures on its share of the
 * recommended cluster, and what binds it. */
static void write_performance_several(struct pw *w, const struct proposal *p)
{
	static const char *const head[] = { "Workload", "On", "Predicted", "Binding resource" };
	static const char align[] = "llll";
	section(w, "performance", "Predicted performance", NULL);
	pw_para_begin(w);
	pw_textf(w, "Each workload on its share of the recommended %d x %s:", p->rec->gpus, p->rec->accel->name);
	pw_para_end(w);
	pw_table(w, "perf", align, head, 4);
	for (size_t e = 0; e < p->s->n_entries; e++) {
		const struct engine_result *r = cluster_used(&p->cl, e, p->rec_accel);
		if (!r)
			continue;
		char on[160], pred[160], a[32], b[32], c[32];
		share_words(p, e, p->rec_accel, on, sizeof on);
		if (r->cls == WL_INFERENCE) {
			pw_num(r->output_tokens_per_s, a, sizeof a);
			pw_num(r->tokens_per_s_per_user, b, sizeof b);
			pw_num(r->ttft_p99_ms, c, sizeof c);
			snprintf(pred, sizeof pred, "%s tokens/s, %s each user, first token p99 %s ms", a, b, c);
		} else {
			pw_hours(r->train_hours, a, sizeof a);
			pw_num(r->mfu * 100, b, sizeof b);
			snprintf(pred, sizeof pred, "%s to train at %s%% MFU", a, b);
		}
		const char *cells[] = { p->s->entries[e].name, on, pred, resource_name(r->binding) };
		pw_row(w, align, cells, 4, false);
	}
	pw_table_end(w);
	section_end(w);
}

static void write_performance(struct pw *w, const struct proposal *p)
{
	const struct engine_result *r = p->rec;
	char rb[ENGINE_REASON_MAX];
	if (p->several) {
		write_performance_several(w, p);
		return;
	}
	section(w, "performance", "Predicted performance", NULL);
	pw_para_begin(w);
	pw_textf(w, "On the recommended %d x %s: ", r->gpus, r->accel->name);
	pw_para_end(w);
	pw_raw(w, w->f == PROPOSAL_HTML ? "<ul>\n" : "");
	if (p->w.cls == WL_INFERENCE) {
		figure(w, "Output", r->output_tokens_per_s, "tokens/s", &r->band[BAND_OUTPUT_TOKENS_PER_S]);
		figure(w, "Each user", r->tokens_per_s_per_user, "tokens/s", &r->band[BAND_TOKENS_PER_S_PER_USER]);
		figure(w, "First token, one request", r->ttft_ms, "ms", &r->band[BAND_TTFT_MS]);
		figure(w, "First token at this load, p99", r->ttft_p99_ms, "ms", NULL);
	} else {
		figure(w, "Time to train", r->train_hours, "hours", &r->band[BAND_TRAIN_HOURS]);
		figure(w, "GPU-hours", r->gpu_hours, "GPU-hours", &r->band[BAND_GPU_HOURS]);
		figure(w, "Model FLOPs utilisation", r->mfu * 100, "%", NULL);
		figure(w, "Goodput", r->goodput * 100, "% of wall-clock time training", NULL);
	}
	pw_raw(w, w->f == PROPOSAL_HTML ? "</ul>\n" : "\n");
	pw_para_begin(w);
	pw_strong(w, "Binding resource:");
	pw_textf(w, " %s. %s", resource_name(r->binding), engine_result_reason(r, rb, sizeof rb));
	pw_para_end(w);
	if (w->f == PROPOSAL_HTML)
		pw_raw(w, "<div class=\"charts\">\n");
	proposal_fit_bars(w, p);
	proposal_tradeoff(w, p);
	if (w->f == PROPOSAL_HTML)
		pw_raw(w, "</div>\n");
	section_end(w);
}

/* ---- validation plan ---- */

static void plan_table(struct pw *w, const struct engine_plan *plan)
{
	static const char *const head[] = { "Benchmark", "Metric", "Predicted", "Accept if", "Notes" };
	static const char align[] = "llrrl";
	pw_table(w, "plan", align, head, 5);
	for (size_t i = 0; i < plan->n; i++) {
		const struct engine_plan_row *row = &plan->rows[i];
		char pred[64], thr[64], num[32];
		pw_num(row->predicted, num, sizeof num);
		snprintf(pred, sizeof pred, "%s %s", num, row->unit);
		pw_num(row->threshold, num, sizeof num);
		snprintf(thr, sizeof thr, "%s %s %s", row->higher_is_better ? "\u2265" : "\u2264", num, row->unit);
		const char *cells[] = { row->benchmark, row->metric, pred, thr, row->notes };
		pw_row(w, align, cells, 5, false);
	}
	pw_table_end(w);
}

/* A titled part of the validation plan (several workloads). */
static void plan_part(struct pw *w, const char *title, const struct engine_plan *plan)
{
	pw_para_begin(w);
	pw_strong(w, title);
	pw_para_end(w);
	plan_table(w, plan);
}

static void write_validation(struct pw *w, const struct proposal *p)
{
	section(w, "validation", "Validation plan", "page2");
	pw_para_begin(w);
	pw_textf(w, "Run these on the candidate hardware (%d x %s) before the order is final; each "
		 "threshold is where a measurement says the sizing is wrong.", p->rec->gpus,
		 p->rec->accel->name);
	pw_para_end(w);
	if (!p->several) {
		plan_table(w, &p->plan);
		section_end(w);
		return;
	}
	const struct engine_cluster_item *items = &p->cl.items[p->rec_accel * p->cl.n_entries];
	char title[160];
	for (size_t i = 0; i < p->cl.n_items[p->rec_accel]; i++) {
		snprintf(title, sizeof title, "%s", items[i].name);
		plan_part(w, title, &p->plans[i]);
	}
	plan_part(w, "The shared cluster, every workload at once", &p->plan);
	section_end(w);
}

/* ---- the bill of materials ---- */

static void write_bom(struct pw *w, const struct proposal *p)
{
	static const char *const head[] = { "Category", "Lines", "Extended price" };
	static const char align[] = "lrr";
	const struct bom *b = &p->bom;
	int64_t sum[BOM_CATEGORY_COUNT] = { 0 };
	size_t lines[BOM_CATEGORY_COUNT] = { 0 }, unpriced[BOM_CATEGORY_COUNT] = { 0 };
	/* Cables in the network's row: every cluster has the front-end and
	 * management networks' cables, and the two pages have no room for a
	 * row of their own. */
	for (size_t i = 0; i < b->n; i++) {
		enum bom_category c = b->lines[i].category == BOM_CABLE ? BOM_NETWORK
									: b->lines[i].category;
		sum[c] += b->lines[i].extended_cents;
		lines[c]++;
		unpriced[c] += !b->lines[i].priced;
	}
	section(w, "bom", "Bill of materials", NULL);
	pw_table(w, "bom", align, head, 3);
	for (int c = 0; c < BOM_CATEGORY_COUNT; c++) {
		if (!lines[c])
			continue;
		char n[64], usd[48];
		snprintf(n, sizeof n, "%zu%s", lines[c], unpriced[c] ? "*" : "");
		pw_cents(p, sum[c], usd, sizeof usd);
		const char *cells[] = { c == BOM_NETWORK ? "network and cables"
					: bom_category_name((enum bom_category)c), n, usd };
		pw_row(w, align, cells, 3, false);
	}
	char n[64], usd[48];
	snprintf(n, sizeof n, "%zu%s", b->n, b->n_unpriced ? "*" : "");
	pw_cents(p, b->total_cents, usd, sizeof usd);
	char label[32];
	snprintf(label, sizeof label, "Total (%s)", p->currency);
	const char *total[] = { label, n, usd };
	pw_row(w, align, total, 3, true);
	pw_table_end(w);
	char kw[32];
	pw_num(b->total_power_w / 1000.0, kw, sizeof kw);
	pw_para_begin(w);
	pw_textf(w, "%s kW and %.0f rack units in %d rack%s. %s", kw, b->total_rack_units, b->racks,
		 b->racks == 1 ? "" : "s",
		 p->w.prices ? "Prices are from your price list where it names the part, else indicative "
			       "catalog list prices."
			     : "Prices are indicative catalog list prices, not a quote.");
	/* An unpriced line (no source, no price list line) is marked * in the
	 * table and said here; the page has room for one sentence. */
	if (b->n_unpriced)
		pw_textf(w, " *%zu line%s unpriced (price list), not in the total. The full list is the BOM "
			 "(accelsizer bom), to the cent.", b->n_unpriced, b->n_unpriced == 1 ? "" : "s");
	else
		pw_textf(w, " The full list, line by line, is the BOM (accelsizer bom) for the same "
			 "scenario; its total is this one to the cent.");
	pw_para_end(w);
	section_end(w);
}

/* ---- total cost of ownership ---- */

static void write_tco(struct pw *w, const struct proposal *p)
{
	static const char *const head[] = { "Year", "Capex", "Energy", "Colocation", "Support",
					    "Licences", "Total" };
	static const char align[] = "lrrrrrr";
	const struct engine_result *r = p->rec;
	char title[64];
	snprintf(title, sizeof title, "Total cost of ownership over %d year%s", r->tco_years,
		 r->tco_years == 1 ? "" : "s");
	section(w, "tco", title, NULL);
	pw_table(w, "tco", align, head, 7);
	for (int y = 1; y <= r->tco_years; y++) {
		struct engine_tco_year t;
		engine_tco_year(r, y, &t);
		const double v[] = { t.capex_usd, t.energy_usd, t.colocation_usd, t.support_usd,
				     t.licence_usd, t.total_usd };
		char s[7][40];
		snprintf(s[0], sizeof s[0], "%d", y);
		for (int i = 0; i < 6; i++)
			pw_usd(p, v[i], s[i + 1], sizeof s[i + 1]);
		const char *cells[] = { s[0], s[1], s[2], s[3], s[4], s[5], s[6] };
		pw_row(w, align, cells, 7, false);
	}
	char cap[40], en[40], co[40], su[40], li[40], tot[40];
	pw_usd(p, r->capex_usd, cap, sizeof cap);
	pw_usd(p, r->tco_energy_usd, en, sizeof en);
	pw_usd(p, r->tco_colocation_usd, co, sizeof co);
	pw_usd(p, r->tco_support_usd, su, sizeof su);
	pw_usd(p, r->tco_licence_usd, li, sizeof li);
	pw_usd(p, r->tco_usd, tot, sizeof tot);
	const char *total[] = { "Total", cap, en, co, su, li, tot };
	pw_row(w, align, total, 7, true);
	pw_table_end(w);
	pw_para_begin(w);
	pw_textf(w, "Projected, %s: the capex is the quote above (support for its term "
		 "included), the other columns what running it costs by the assumptions below.",
		 strcmp(p->currency, "USD") ? "in whole units" : "to the dollar");
	pw_para_end(w);
	section_end(w);
}

/* ---- rent or buy (engine_rent(); docs/design.md, "Rent or buy") ---- */

/* The rented GPUs' cost, term by term where a rate is known, the month
 * buying breaks even against each, and the engine's one-sentence answer
 * (against the cheapest term, the figures recommend --format yaml
 * prints as rent_usd and breakeven_months). */
static void write_rent(struct pw *w, const struct proposal *p)
{
	static const char *const head_serve[] = { "Term", "Per GPU-hour", "A month", "A year",
						  "Buying breaks even" };
	static const char *const head_train[] = { "Term", "Per GPU-hour", "A month", "The run",
						  "Buying breaks even" };
	static const char align[] = "lrrrl";
	static const char *const from[] = { "catalog, indicative", "your price list" };
	const struct engine_result *r = p->rec;
	struct engine_rent rb;
	char sentence[192];
	engine_rent(p->c, &p->w, r, &rb);
	engine_rent_statement(r, sentence, sizeof sentence);
	section(w, "rent", "Rent or buy", NULL);
	bool any = false;
	for (int t = 0; t < RENT_TERM_COUNT; t++)
		any |= rb.rate[t] > 0;
	if (!any) {
		char sku[96];
		pw_para_begin(w);
		pw_textf(w, "No rental price for the %s (a price-list line %s gives one).", r->accel->name,
			 engine_rent_sku(rb.asked >= 0 ? (enum engine_rent_term)rb.asked : RENT_ON_DEMAND,
					 r->accel->id, sku, sizeof sku));
		pw_para_end(w);
		section_end(w);
		return;
	}
	pw_table(w, "rent", align, r->cls == WL_INFERENCE ? head_serve : head_train, 5);
	for (int t = 0; t < RENT_TERM_COUNT; t++) {
		char term[64], rate[48], month[40], run[40], be[64], cur[16];
		snprintf(term, sizeof term, "%s (%s)", engine_rent_term_name((enum engine_rent_term)t),
			 from[rb.from_prices[t]]);
		if (!(rb.rate[t] > 0)) {
			snprintf(term, sizeof term, "%s", engine_rent_term_name((enum engine_rent_term)t));
			const char *cells[] = { term, "no published rate", "-", "-", "-" };
			pw_row(w, align, cells, 5, false);
			continue;
		}
		snprintf(rate, sizeof rate, "%s%.2f", money_prefix(p, cur, sizeof cur), rb.rate[t]);
		pw_usd(p, rb.month[t], month, sizeof month);
		pw_usd(p, rb.rent[t], run, sizeof run);
		if (rb.buy_unpriced)
			snprintf(be, sizeof be, "no GPU price");
		else if (rb.breakeven[t] > 0)
			snprintf(be, sizeof be, "after %d month%s", rb.breakeven[t],
				 rb.breakeven[t] == 1 ? "" : "s");
		else
			snprintf(be, sizeof be, "not within %d year%s", r->tco_years,
				 r->tco_years == 1 ? "" : "s");
		const char *cells[] = { term, rate, month, run, be };
		pw_row(w, align, cells, 5, t == rb.basis);
	}
	pw_table_end(w);
	char gpus[64];
	snprintf(gpus, sizeof gpus, "%d working GPU%s", r->gpus, r->gpus == 1 ? "" : "s");
	pw_para_begin(w);
	pw_strong(w, "The answer:");
	pw_textf(w, " %s. Renting: the %s (a provider replaces a failed one), %s.", sentence, gpus,
		 r->cls == WL_INFERENCE ? "every hour"
		 : rb.basis > RENT_ON_DEMAND ? "every hour of the reserved term, the run shorter or not"
		 : "the hours the run is busy");
	pw_para_end(w);
	section_end(w);
}

/* ---- the rack elevation (engine_elevation(); docs/design.md, "The rack
 * elevation") ---- */

#define ELEV_SLOTS 256

/* Whether racks a and b hold the same kinds at the same units and draw
 * the same: one row of the table says both. */
static bool racks_alike(const struct engine_elevation *e, int a, int b)
{
	struct engine_rack_slot sa[ELEV_SLOTS], sb[ELEV_SLOTS];
	double ka, kb;
	size_t na = engine_elevation_rack(e, a, sa, ELEV_SLOTS, &ka);
	size_t nb = engine_elevation_rack(e, b, sb, ELEV_SLOTS, &kb);
	if (na != nb || na > ELEV_SLOTS || fabs(ka - kb) > 1e-9)
		return false;
	for (size_t i = 0; i < na; i++)
		if (sa[i].kind != sb[i].kind || sa[i].u != sb[i].u || sa[i].height != sb[i].height)
			return false;
	return true;
}

/* Racks first..last (0-based, alike): their numbers, what they hold (the
 * first's and the last's contents, as bom --elevation writes each) and
 * what each draws. */
static void elevation_row(struct pw *w, const struct engine_elevation *e, int first, int last)
{
	static const char align[] = "llr";
	char racks[32], holds[512], a[240], b[240], draw[64];
	double kw;
	engine_elevation_rack(e, first, NULL, 0, &kw);
	engine_elevation_rack_contents(e, first, a, sizeof a);
	if (first == last) {
		snprintf(racks, sizeof racks, "%d", first + 1);
		snprintf(holds, sizeof holds, "%s", a);
	} else {
		snprintf(racks, sizeof racks, "%d-%d", first + 1, last + 1);
		engine_elevation_rack_contents(e, last, b, sizeof b);
		snprintf(holds, sizeof holds, "%s; ... rack %d: %s", a, last + 1, b);
	}
	snprintf(draw, sizeof draw, "%.1f of %.0f kW%s%s", kw, e->rack_kw,
		 kw > e->rack_kw + 1e-9 ? " (over)" : "", first == last ? "" : " each");
	const char *cells[] = { racks, holds, draw };
	pw_row(w, align, cells, 3, false);
}

/* Which node sits in which rack at which unit, the PDUs and each rack's
 * draw: the same packing as the BOM's racks and `bom --elevation`. */
static void write_elevation(struct pw *w, const struct proposal *p)
{
	static const char *const head[] = { "Rack", "Holds, from U1 up", "Draw" };
	struct engine_elevation e;
	engine_elevation(p->c, &p->bom.result, &e);
	if (!e.platform)
		return;
	char kw[32], nw[32];
	pw_num(e.rack_kw, kw, sizeof kw);
	pw_num(round(e.node_w / 100.0) / 10.0, nw, sizeof nw);
	section(w, "elevation", "Rack elevation", NULL);
	pw_para_begin(w);
	pw_textf(w, "%d node%s (%d working + %d spare) of %s in %d rack%s of %dU at %s kW (%s)",
		 e.nodes + e.spare_nodes, e.nodes + e.spare_nodes == 1 ? "" : "s", e.nodes, e.spare_nodes,
		 e.platform->name, e.racks, e.racks == 1 ? "" : "s", e.rack_u, kw,
		 e.rack_kw_set ? "your input" : "defaults.rack_kw");
	if (e.whole_rack)
		pw_textf(w, "; each node is a rack of its own, with its own power shelves");
	else
		pw_textf(w, ", %d PDU%s each (0U, at the rear); up to %d node%s a rack, %dU and %s kW "
			 "each%s", e.pdus_per_rack, e.pdus_per_rack == 1 ? "" : "s", e.nodes_per_rack,
			 e.nodes_per_rack == 1 ? "" : "s", e.node_u, nw,
			 e.over_kw ? " (one node draws more than a rack feeds)" : "");
	pw_textf(w, "%s.", e.leaf_switches + e.spine_switches > 0 ? "; switches from the top" : "");
	pw_para_end(w);
	pw_table(w, "elevation", "llr", head, 3);
	for (int i = 0; i < e.racks;) {
		int j = i;
		while (j + 1 < e.racks && racks_alike(&e, i, j + 1))
			j++;
		elevation_row(w, &e, i, j);
		i = j + 1;
	}
	pw_table_end(w);
	section_end(w);
}

/* ---- assumptions and their sources ---- */

/* One assumption: a table row in Markdown; in HTML an item of a list
 * that runs the page's whole width (a table's name and value columns
 * would leave the long sources a third of it, and the second page). */
static void assumption(struct pw *w, const char *name, const char *value, const char *source)
{
	static const char align[] = "lrl";
	if (w->f == PROPOSAL_MD) {
		const char *cells[] = { name, value, source };
		pw_row(w, align, cells, 3, false);
		return;
	}
	pw_raw(w, "<li><strong>");
	pw_text(w, name);
	pw_raw(w, "</strong> ");
	pw_text(w, value);
	pw_raw(w, ": ");
	pw_text(w, source);
	pw_raw(w, "</li>\n");
}

/* The defaults the quote rests on (CATALOG_DEFAULTS keys), with their
 * sources, besides the TCO's inputs (write_tco_inputs(): the support term
 * and share among them, as used) and the spare nodes (by class); the
 * engine's others are named by count. */
#define PROPOSAL_COST_DEFAULTS(X) \
	X(rack_units) X(rack_price_usd) X(pdu_per_rack) X(pdu_price_usd) X(burn_in_usd_per_node)

static void write_tco_inputs(struct pw *w, const struct proposal *p)
{
	static const char *const from[] = { "catalog defaults.yaml: ", "your input", "your price list" };
	struct engine_tco_inputs in;
	engine_tco_inputs(p->c, &p->w, &in);
	for (int i = 0; i < TCO_INPUT_COUNT; i++) {
		const struct engine_field *f = engine_field(engine_tco_field((enum engine_tco_input)i));
		const struct sourced *d = NULL;
#define X(name, unit, doc) \
		if (!strcmp(engine_tco_default_key((enum engine_tco_input)i), #name)) \
			d = &p->c->defaults.name;
		CATALOG_DEFAULTS(X)
#undef X
		char v[64], num[32], src[1024], key[64];
		const char *unit = f->unit ? f->unit : "";
		bom_format_number(in.v[i], num, sizeof num);
		/* a money input is in the list's currency (engine_tco_inputs()
		 * converts the catalog's USD): "EUR/kWh", electricity_eur_per_kwh */
		if (!strncmp(unit, "USD", 3))
			snprintf(v, sizeof v, "%s %s%s", num, p->currency, unit + 3);
		else
			snprintf(v, sizeof v, "%s %s", num, unit);
		snprintf(src, sizeof src, "%s%s", from[in.from[i]],
			 in.from[i] == TCO_FROM_CATALOG && d && d->source ? d->source : "");
		assumption(w, prices_money_name(f->key, p->currency, key, sizeof key), v, src);
	}
}

/* What the accelerator reaches of its peaks, as the engine reads it: the
 * serving shares, or the training MFU (the catalog default when the
 * accelerator has none). */
static void write_efficiencies(struct pw *w, const struct proposal *p, const struct catalog_accel *a)
{
	char num[32];
	/* serving's two shares, training's MFU: those of the classes sized */
	bool serves = p->w.cls == WL_INFERENCE, trains = !serves;
	const struct workload *tw = trains ? &p->w : NULL;	/* the first training workload */
	for (size_t i = 0; p->several && i < p->s->n_entries; i++) {
		serves |= p->s->entries[i].w.cls == WL_INFERENCE;
		trains |= p->s->entries[i].w.cls != WL_INFERENCE;
		if (!tw && p->s->entries[i].w.cls != WL_INFERENCE)
			tw = &p->s->entries[i].w;
	}
	const struct sourced *e[3];
	const char *label[3];
	size_t n = 0;
	if (serves) {
		e[n] = &a->eff_compute;
		label[n++] = "share of peak compute reached";
		e[n] = &a->eff_mem_bw;
		label[n++] = "share of memory bandwidth reached";
	}
	if (trains) {
		/* the one the engine applied: its stack's and precision's */
		e[n] = engine_training_share(p->c, tw, a);
		label[n++] = "training MFU before communication and bubbles";
	}
	for (size_t i = 0; i < n; i++) {
		bom_format_number(e[i]->value, num, sizeof num);
		assumption(w, label[i], num, e[i]->source ? e[i]->source : "");
	}
}

static void write_assumptions(struct pw *w, const struct proposal *p)
{
	static const char *const head[] = { "Assumption", "Value", "Source" };
	const struct catalog_defaults *d = &p->c->defaults;
	const struct engine_result *r = p->rec;
	char v[64], num[32];
	section(w, "assumptions", "Assumptions and their sources", NULL);
	if (w->f == PROPOSAL_MD)
		pw_table(w, "sources", "lrl", head, 3);
	else
		pw_raw(w, "<ul class=\"sources\">\n");
	write_tco_inputs(w, p);
	/* the rental term, when one was asked for (auto is the rent
	 * section's own rule) */
	enum engine_tco_origin term_from;
	int term = engine_rent_term_asked(&p->w, &term_from);
	if (term >= 0)
		assumption(w, "rent_term", engine_rent_term_name((enum engine_rent_term)term),
			   term_from == TCO_FROM_PRICES ? "your price list" : "your input");
	bom_format_number(r->rack_kw, num, sizeof num);
	snprintf(v, sizeof v, "%s kW", num);
	assumption(w, "rack_kw", v, r->rack_kw_set ? "your input"
		   : d->rack_kw.source ? d->rack_kw.source : "catalog defaults.yaml");
#define X(name) \
	bom_format_number(d->name.value, num, sizeof num); \
	assumption(w, #name, num, d->name.source ? d->name.source : "catalog defaults.yaml");
	PROPOSAL_COST_DEFAULTS(X)
#undef X
	/* N+1 for serving, none for training (engine_node.c) */
	const struct sourced *sp = r->cls == WL_INFERENCE ? &d->spare_nodes_serving : &d->spare_nodes;
	snprintf(v, sizeof v, "%d", r->spare_nodes);
	assumption(w, r->cls == WL_INFERENCE ? "spare_nodes_serving" : "spare_nodes", v,
		   p->w.spare_nodes >= 0 ? "your input" : sp->source ? sp->source : "catalog defaults.yaml");
	const struct catalog_accel *a = r->accel;
	for (size_t i = 0; i < p->bom.n; i++) {
		const struct bom_line *l = &p->bom.lines[i];
		if (l->category != BOM_ACCELERATOR)
			continue;
		pw_cents(p, l->unit_cents, v, sizeof v);
		assumption(w, "price of one accelerator", v, l->from_price_list ? "your price list"
			   : a->price.source ? a->price.source : "");
		break;
	}
	write_efficiencies(w, p, a);
	if (w->f == PROPOSAL_MD)
		pw_table_end(w);
	else
		pw_raw(w, "</ul>\n");
	pw_para_begin(w);
	pw_textf(w, "Error bands: where published results (MLPerf, vendor tables) put the true value "
		 "for predictions like these (10th to 90th percentile of their errors). The engine's "
		 "other assumptions, each with its source, are in the catalog's defaults.yaml "
		 "(version %s).", d->version ? d->version : "unknown");
	pw_para_end(w);
	section_end(w);
}

static void write_foot(struct pw *w, const struct proposal *p)
{
	if (w->f == PROPOSAL_HTML)
		pw_raw(w, "<footer>");
	pw_textf(w, "Prepared on %s with accelsizer %s. Predictions are the sizing model's, checked "
		 "against published results where the error bands say so; prices are indicative "
		 "unless they come from your price list.", p->date, PACKAGE_VERSION);
	pw_raw(w, w->f == PROPOSAL_HTML ? "</footer>\n</body>\n</html>\n" : "\n");
}

bool proposal_fwrite(const struct proposal *p, enum proposal_format f, FILE *fp)
{
	struct pw w = { .fp = fp, .f = f, .ok = true };
	write_head(&w, p);
	write_notes(&w, p);
	write_workload(&w, p);
	write_configurations(&w, p);
	write_performance(&w, p);
	/* the first page's end: the configuration's racks (the second page
	 * has the plan, the BOM, the TCO and the sources) */
	write_elevation(&w, p);
	write_validation(&w, p);
	/* side by side in HTML: the second page's room */
	pw_raw(&w, f == PROPOSAL_HTML ? "<div class=\"pair\">\n" : "");
	write_bom(&w, p);
	/* the TCO and renting instead, one under the other beside the BOM */
	pw_raw(&w, f == PROPOSAL_HTML ? "<div class=\"stack\">\n" : "");
	write_tco(&w, p);
	write_rent(&w, p);
	pw_raw(&w, f == PROPOSAL_HTML ? "</div>\n</div>\n" : "");
	write_assumptions(&w, p);
	write_foot(&w, p);
	return w.ok && !ferror(fp);
}

struct write_args {
	const struct proposal *p;
	enum proposal_format f;
};

static bool write_cb(FILE *fp, void *ctx, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	const struct write_args *a = ctx;
	return proposal_fwrite(a->p, a->f, fp);
}

bool proposal_write(const struct proposal *p, enum proposal_format f, const char *path,
		    char *err, size_t errsz)
{
	struct write_args a = { p, f };
	return atomic_write(path, write_cb, &a, err, errsz);
}
