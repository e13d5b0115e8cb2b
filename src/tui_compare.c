/*
 * tui_compare: the accelerators marked in step 3, side by side.  Every
 * figure the wizard shows for one accelerator, in aligned columns; rows
 * where they differ are highlighted, and the best value of a row with a
 * direction (fewer GPUs, more tokens/s...) carries the "best" glyph.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui.h"

enum row_kind { RK_NUM, RK_BAR, RK_TEXT, RK_BAND };

struct cmp_row {
	const char *label;
	enum row_kind kind;
	int better;		/* -1 lower is better, +1 higher, 0 no order */
	unsigned classes;	/* 0 = every class */
	double (*value)(const struct engine_result *r);
	void (*text)(const struct tui *t, const struct engine_result *r, char *buf, size_t n);
};

#define INF TUI_CLASS(WL_INFERENCE)
#define TRN (TUI_CLASS(WL_PRETRAIN) | TUI_CLASS(WL_FINETUNE))

static double v_gpus(const struct engine_result *r) { return r->gpus; }
static double v_nodes(const struct engine_result *r) { return r->nodes; }
static double v_mem_req(const struct engine_result *r) { return r->mem_required_gb; }
static double v_mem(const struct engine_result *r) { return r->mem_util_pct; }
static double v_bw(const struct engine_result *r) { return r->bw_util_pct; }
static double v_link(const struct engine_result *r) { return r->link_util_pct; }
static double v_tps(const struct engine_result *r) { return r->output_tokens_per_s; }
static double v_tpu(const struct engine_result *r) { return r->tokens_per_s_per_user; }
static double v_ttft(const struct engine_result *r) { return r->ttft_ms; }
static double v_hours(const struct engine_result *r) { return r->train_hours; }
static double v_gpuh(const struct engine_result *r) { return r->gpu_hours; }
static double v_scal(const struct engine_result *r) { return r->scaling_efficiency * 100; }
/* money of a GPU with no price is no figure: never the best */
static double priced(const struct engine_result *r, double v)
{
	return engine_price_state(r) == PRICE_UNKNOWN ? NAN : v;
}
static double v_capex(const struct engine_result *r) { return priced(r, r->capex_usd); }
static double v_tco(const struct engine_result *r) { return priced(r, r->tco_usd); }
static double v_kw(const struct engine_result *r) { return r->power_kw; }
static double v_ru(const struct engine_result *r) { return r->rack_units; }
static double v_mtok(const struct engine_result *r) { return priced(r, r->usd_per_mtok); }
static double v_run(const struct engine_result *r) { return priced(r, r->run_cost_usd); }
static double v_hour(const struct engine_result *r) { return priced(r, r->usd_per_hour); }
static double v_ppw(const struct engine_result *r) { return r->perf_per_watt; }

static void t_int(const struct tui *t, const struct engine_result *r, char *b, size_t n, double v)
{
	(void)t; (void)r;
	snprintf(b, n, "%.0f", v);
}
static void t_gpus(const struct tui *t, const struct engine_result *r, char *b, size_t n) { t_int(t, r, b, n, r->gpus); }
static void t_nodes(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	(void)t;
	snprintf(b, n, "%d (%d spare)", r->nodes, r->spare_nodes);
}
static void t_layout(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	if (t->sc.w.cls == WL_INFERENCE)
		snprintf(b, n, "TP%d x%d", r->tp, r->replicas);
	else
		snprintf(b, n, "TP%d PP%d DP%d", r->tp, r->pp, r->dp);
}
static void t_platform(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	(void)t;
	snprintf(b, n, "%s", r->platform ? r->platform->name : "-");
}
static void t_mem_req(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	(void)t;
	char x[24];
	snprintf(b, n, "%s GB", tui_fmt_gb(x, sizeof x, r->mem_required_gb));
}
static void t_mem_gpu(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	(void)t;
	char x[24], y[24];
	snprintf(b, n, "%s/%s GB", tui_fmt_gb(x, sizeof x, r->mem_per_gpu_gb),
		 tui_fmt_gb(y, sizeof y, r->mem_avail_per_gpu_gb));
}
static void t_pct(const struct tui *t, const struct engine_result *r, char *b, size_t n, double v)
{
	(void)t; (void)r;
	tui_fmt_pct(b, n, v);
}
static void t_mem(const struct tui *t, const struct engine_result *r, char *b, size_t n) { t_pct(t, r, b, n, r->mem_util_pct); }
static void t_bw(const struct tui *t, const struct engine_result *r, char *b, size_t n) { t_pct(t, r, b, n, r->bw_util_pct); }
static void t_link(const struct tui *t, const struct engine_result *r, char *b, size_t n) { t_pct(t, r, b, n, r->link_util_pct); }
static void t_binding(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	(void)t;
	snprintf(b, n, "%s", r->binding != RES_NONE ? resource_name(r->binding) : "-");
}
static void t_prec(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	(void)t;
	snprintf(b, n, "%s%s", precision_name(r->precision_used), r->precision_fallback ? " (fallback)" : "");
}
static void t_tps(const struct tui *t, const struct engine_result *r, char *b, size_t n) { (void)t; tui_fmt_rate(b, n, r->output_tokens_per_s); }
static void t_tpu(const struct tui *t, const struct engine_result *r, char *b, size_t n) { (void)t; tui_fmt_rate1(b, n, r->tokens_per_s_per_user); }
static void t_ttft(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	(void)t;
	char x[24];
	snprintf(b, n, "%s ms", tui_fmt_ms(x, sizeof x, r->ttft_ms));
}
static void t_hours(const struct tui *t, const struct engine_result *r, char *b, size_t n) { (void)t; tui_fmt_hours(b, n, r->train_hours); }
static void t_gpuh(const struct tui *t, const struct engine_result *r, char *b, size_t n) { (void)t; tui_fmt_rate(b, n, r->gpu_hours); }
/* The error bands of the published results: text, muted when unvalidated
 * (RK_BAND). */
static void t_band(const struct tui *t, const struct engine_result *r, char *b, size_t n,
		   enum engine_band_figure k, double v)
{
	tui_fmt_band(t, r, k, v, b, n);
}
static void t_tps_band(const struct tui *t, const struct engine_result *r, char *b, size_t n) { t_band(t, r, b, n, BAND_OUTPUT_TOKENS_PER_S, r->output_tokens_per_s); }
static void t_hours_band(const struct tui *t, const struct engine_result *r, char *b, size_t n) { t_band(t, r, b, n, BAND_TRAIN_HOURS, r->train_hours); }
static void t_scal(const struct tui *t, const struct engine_result *r, char *b, size_t n) { t_pct(t, r, b, n, r->scaling_efficiency * 100); }
static void t_capex(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	char x[32];
	tui_fmt_priced(t, r, tui_fmt_usd(x, sizeof x, r->capex_usd, r->currency), b, n);
}
static void t_tco(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	char x[32], y[40];
	snprintf(b, n, "%s over %d year%s", tui_fmt_priced(t, r, tui_fmt_usd(x, sizeof x, r->tco_usd, r->currency), y, sizeof y), r->tco_years,
		 r->tco_years == 1 ? "" : "s");
}
static void t_kw(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	(void)t;
	char x[24];
	snprintf(b, n, "%s kW", tui_fmt_kw(x, sizeof x, r->power_kw));
}
static void t_ru(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	(void)t;
	snprintf(b, n, "%.0fU", r->rack_units);
}
static void t_mtok(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	char x[32];
	tui_fmt_priced(t, r, tui_fmt_usd_mtok(x, sizeof x, r->usd_per_mtok, r->currency), b, n);
}
static void t_run(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	char x[32];
	tui_fmt_priced(t, r, tui_fmt_usd(x, sizeof x, r->run_cost_usd, r->currency), b, n);
}
static void t_hour(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	char x[32];
	tui_fmt_priced(t, r, tui_fmt_usd_hour(x, sizeof x, r->usd_per_hour, r->currency), b, n);
}
static void t_ppw(const struct tui *t, const struct engine_result *r, char *b, size_t n)
{
	/* four decimals, as the CLI's perf_per_watt column */
	char x[32];
	tui_fmt_num(x, sizeof x, r->perf_per_watt, 4);
	snprintf(b, n, "%s%s", x, t->sc.w.cls == WL_INFERENCE ? " tok/s/W" : "");
}

static const struct cmp_row rows[] = {
	{ "Node shape", RK_TEXT, 0, 0, NULL, t_platform },
	{ "GPUs", RK_NUM, -1, 0, v_gpus, t_gpus },
	{ "Nodes", RK_NUM, -1, 0, v_nodes, t_nodes },
	{ "Parallel layout", RK_TEXT, 0, 0, NULL, t_layout },
	{ "Memory required", RK_NUM, -1, 0, v_mem_req, t_mem_req },
	{ "Memory per GPU", RK_TEXT, 0, 0, NULL, t_mem_gpu },
	{ "Memory fit", RK_BAR, -1, 0, v_mem, t_mem },
	{ "Bandwidth", RK_BAR, -1, 0, v_bw, t_bw },
	{ "Interconnect", RK_BAR, -1, 0, v_link, t_link },
	{ "Binding", RK_TEXT, 0, 0, NULL, t_binding },
	{ "Precision", RK_TEXT, 0, 0, NULL, t_prec },
	{ "Throughput (tok/s)", RK_NUM, +1, INF, v_tps, t_tps },
	{ "  error band", RK_BAND, 0, INF, NULL, t_tps_band },
	{ "Per user (tok/s)", RK_NUM, +1, INF, v_tpu, t_tpu },
	{ "Time to first token", RK_NUM, -1, INF, v_ttft, t_ttft },
	{ "Time to train", RK_NUM, -1, TRN, v_hours, t_hours },
	{ "  error band", RK_BAND, 0, TRN, NULL, t_hours_band },
	{ "GPU-hours", RK_NUM, -1, TRN, v_gpuh, t_gpuh },
	{ "Scaling efficiency", RK_NUM, +1, TRN, v_scal, t_scal },
	{ "Capex", RK_NUM, -1, 0, v_capex, t_capex },
	{ "TCO", RK_NUM, -1, 0, v_tco, t_tco },
	{ "Power", RK_NUM, -1, 0, v_kw, t_kw },
	{ "Rack units", RK_NUM, -1, 0, v_ru, t_ru },
	{ "Cost per Mtok", RK_NUM, -1, INF, v_mtok, t_mtok },
	{ "Cost of the run", RK_NUM, -1, TRN, v_run, t_run },
	{ "Cost per hour", RK_NUM, -1, 0, v_hour, t_hour },
	{ "Performance per watt", RK_NUM, +1, 0, v_ppw, t_ppw },
};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))

/* A column's accelerator on rows 1 and 2: the full name, else the short
 * one, else the short one over the two rows, broken at a space; never cut. */
static void column_name(struct tui *t, WINDOW *win, int x, int w, const struct engine_result *r)
{
	enum theme_role hr = r == tui_chosen(t) ? ROLE_selection : ROLE_header;
	const char *name = tui_accel_name(r->accel);
	if (tui_width(name) > w)
		name = tui_accel_short(r->accel);
	int len = (int)strlen(name), cut = len;
	if (tui_width(name) > w)
		for (cut = len; cut > 0 && (name[cut] != ' ' || tui_width(name) - cut > w); cut--)
			;
	if (cut > 0 && cut < len) {
		char first[96];
		snprintf(first, sizeof first, "%.*s", cut, name);
		tui_put(t, win, 1, x, w, hr, first);
		tui_put(t, win, 2, x, w, hr, name + cut + 1);
	} else {
		tui_put(t, win, 2, x, w, hr, name);
	}
}

/* An error band no published result backs reads muted. */
static enum theme_role band_role(const struct cmp_row *row, const char *txt, enum theme_role r)
{
	return row->kind == RK_BAND && !strcmp(txt, "unvalidated") ? ROLE_muted : r;
}

static void draw(struct tui *t, WINDOW *win, int h, int w)
{
	/* the marked ones in rank order (the report's), however they were marked */
	const struct engine_result *res[TUI_MAX_MARKED];
	int k = 0;
	for (size_t i = 0; i < t->rep.n && k < TUI_MAX_MARKED; i++)
		if (tui_is_marked(t, t->rep.results[i].accel))
			res[k++] = &t->rep.results[i];
	char head[160];
	snprintf(head, sizeof head, "Compare %d accelerators", k);
	int x = tui_put(t, win, 0, 0, w, ROLE_header, head);
	snprintf(head, sizeof head, "   differences in bold, %s best; %s closes, %s/%s scroll",
		 tui_glyph(t, GLYPH_best), tui_key(ACT_BACK), tui_key(ACT_UP), tui_key(ACT_DOWN));
	tui_put(t, win, 0, x, w - x, ROLE_muted, head);
	if (!k)
		return;
	int lw = 22;
	int cw = (w - lw) / k;
	if (cw > 30)
		cw = 30;
	for (int j = 0; j < k; j++)
		column_name(t, win, lw + j * cw, cw - 1, res[j]);
	tui_hline(t, win, 3, 0, lw + k * cw, ROLE_frame);

	int vis[NROWS], nv = 0;
	for (int i = 0; i < NROWS; i++)
		if (!rows[i].classes || rows[i].classes & TUI_CLASS(t->sc.w.cls))
			vis[nv++] = i;
	int avail = h - 4;
	tui_list_clamp_top(&t->compare.list, nv, avail);
	for (int vi = t->compare.list.top, y = 4; vi < nv && y < h; vi++, y++) {
		const struct cmp_row *row = &rows[vis[vi]];
		char txt[TUI_MAX_MARKED][96];
		bool differ = false;
		int best = -1;
		for (int j = 0; j < k; j++) {
			if (res[j]->filtered || !res[j]->fits)
				snprintf(txt[j], sizeof txt[j], "%s", res[j]->filtered ? "filtered" : "does not fit");
			else
				row->text(t, res[j], txt[j], sizeof txt[j]);
			if (j && strcmp(txt[j], txt[0]))
				differ = true;
			if (row->better && row->value && res[j]->fits && !res[j]->filtered) {
				double v = row->value(res[j]);
				if (isfinite(v) && (best < 0 || (row->better < 0 ? v < row->value(res[best])
								     : v > row->value(res[best]))))
					best = j;
			}
		}
		if (!differ)
			best = -1;	/* all equal: no winner */
		/* every column showing the best value wins, ties included */
		bool best_of[TUI_MAX_MARKED] = { false };
		for (int j = 0; j < k && best >= 0; j++)
			best_of[j] = !strcmp(txt[j], txt[best]);
		tui_put(t, win, y, 1, lw - 2, differ ? ROLE_field : ROLE_muted, row->label);
		for (int j = 0; j < k; j++) {
			int cx = lw + j * cw;
			enum theme_role r = differ ? ROLE_value : ROLE_muted;
			if (row->kind == RK_BAR && res[j]->fits && !res[j]->filtered) {
				int bw = cw - 10;
				if (bw > 3) {
					tui_bar(t, win, y, cx, bw, row->value(res[j]));
					cx += bw + 1;
				}
				int used = tui_put_right(t, win, y, cx, 5, r, txt[j]);
				(void)used;
				enum tui_state st = tui_state_of(t, row->value(res[j]));
				tui_put(t, win, y, cx + 6, 1, tui_state_role(st), tui_glyph(t, tui_state_glyph(st)));
				if (best_of[j])
					tui_put(t, win, y, cx + 7, 1, ROLE_bar_fits, tui_glyph(t, GLYPH_best));
				continue;
			}
			int used = tui_put(t, win, y, cx, cw - 3, best_of[j] ? ROLE_bar_fits
					   : band_role(row, txt[j], r), txt[j]);
			if (best_of[j])
				tui_put(t, win, y, cx + used + 1, 1, ROLE_bar_fits, tui_glyph(t, GLYPH_best));
		}
	}
}

static int key(struct tui *t, enum tui_action a, int ch)
{
	(void)ch;
	if (tui_list_scroll_key(&t->compare.list, a, NROWS, 0))
		return TUI_HANDLED;
	switch (a) {
	case ACT_COMPARE:
	case ACT_BACK:
		tui_close_overlay(t);
		return TUI_HANDLED;
	default:
		return TUI_UNHANDLED;
	}
}

static void enter(struct tui *t)
{
	t->compare.list.top = 0;
}

const struct tui_step tui_compare_view = {
	.name = "Compare",
	.draw = draw,
	.key = key,
	.enter = enter,
	.full_width = true,
};

/* ---- the pin: the pinned scenario beside the current one ----
 * The chosen (or top-ranked) accelerator's figures of each, by the rows
 * above, then every setting as the scenario file names it (compare.h, the
 * table `accelsizer compare` writes), the rows that differ marked. */

struct pin_line {
	const char *label;		/* a result row's; NULL: a setting's */
	char key[72];
	char v[2][COMPARE_VALUE_MAX];
	bool differs, heading;
};
#define PIN_LINES (NROWS + COMPARE_MAX_ROWS + 4)

static void result_text(const struct tui *t, const struct cmp_row *row, const struct engine_result *r,
			char *buf, size_t n)
{
	if (!r)
		snprintf(buf, n, "-");
	else if (r->filtered || !r->fits)
		snprintf(buf, n, "%s", r->filtered ? "filtered" : "does not fit");
	else
		row->text(t, r, buf, n);
}

static int pin_heading(struct pin_line *out, int n, const char *title)
{
	memset(&out[n], 0, sizeof out[n]);
	snprintf(out[n].key, sizeof out[n].key, "%s", title);
	out[n].heading = true;
	return n + 1;
}

/* The lines of the view, in out (PIN_LINES of them at most). */
static int pin_lines(struct tui *t, struct pin_line *out, bool narrow)
{
	const struct tui_history *h = &t->history;
	const struct engine_result *res[2] = { h->pin_has_result ? &h->pin_result : NULL, tui_chosen(t) };
	unsigned cls = TUI_CLASS(h->pin.w.cls) | TUI_CLASS(t->sc.w.cls);
	int n = pin_heading(out, 0, "Result");
	memset(&out[n], 0, sizeof out[n]);
	out[n].label = "Accelerator";
	for (int j = 0; j < 2; j++)
		snprintf(out[n].v[j], sizeof out[n].v[j], "%s", !res[j] ? "-"
			 : narrow ? tui_accel_short(res[j]->accel) : tui_accel_name(res[j]->accel));
	out[n].differs = strcmp(out[n].v[0], out[n].v[1]) != 0;
	n++;
	for (int i = 0; i < NROWS; i++) {
		if (rows[i].classes && !(rows[i].classes & cls))
			continue;
		struct pin_line *l = &out[n++];
		memset(l, 0, sizeof *l);
		l->label = rows[i].label;
		for (int j = 0; j < 2; j++)
			result_text(t, &rows[i], res[j], l->v[j], sizeof l->v[j]);
		l->differs = strcmp(l->v[0], l->v[1]) != 0;
	}
	struct compare *c = &t->pin_view.settings;
	compare_init(c, 2);
	compare_add_settings(c, 0, &h->pin.w);
	compare_add_settings(c, 1, &t->sc.w);
	compare_finish(c);
	n = pin_heading(out, n, "Settings");
	for (size_t i = 0; i < c->n_rows && n < PIN_LINES; i++) {
		const struct compare_row *r = &c->rows[i];
		struct pin_line *l = &out[n++];
		memset(l, 0, sizeof *l);
		snprintf(l->key, sizeof l->key, "%s%s%s", r->section, r->section[0] ? "." : "", r->key);
		for (int j = 0; j < 2; j++)
			snprintf(l->v[j], sizeof l->v[j], "%s", r->has[j] ? r->value[j] : "-");
		l->differs = r->differs;
	}
	return n;
}

static void pin_draw(struct tui *t, WINDOW *win, int h, int w)
{
	static struct pin_line lines[PIN_LINES];	/* 50 kB: not on the stack */
	int n = pin_lines(t, lines, w < 110), nd = 0;
	for (int i = 0; i < n; i++)
		nd += lines[i].differs;
	char head[200];
	snprintf(head, sizeof head, "Pinned vs current: %d row%s differ", nd, nd == 1 ? "" : "s");
	int x = tui_put(t, win, 0, 0, w, ROLE_header, head);
	snprintf(head, sizeof head, "  %s marks them; %s re-pins, %s undoes, %s closes",
		 tui_glyph(t, GLYPH_differs), tui_key(ACT_PIN), tui_key(ACT_UNDO), tui_key(ACT_BACK));
	tui_put(t, win, 0, x, w - x, ROLE_muted, head);
	int lw = w >= 110 ? 36 : 26, cw = (w - lw) / 2;
	tui_put(t, win, 1, lw, cw - 1, ROLE_header, "Pinned");
	tui_put(t, win, 1, lw + cw, cw - 1, ROLE_header, "Current");
	tui_hline(t, win, 2, 0, w, ROLE_frame);
	int avail = h - 3;
	struct tui_list *l = &t->pin_view.list;
	tui_list_clamp_top(l, n, avail);
	for (int i = l->top, y = 3; i < n && y < h; i++, y++) {
		const struct pin_line *p = &lines[i];
		if (p->heading) {
			tui_put(t, win, y, 0, w, ROLE_header, p->key);
			continue;
		}
		enum theme_role r = p->differs ? ROLE_value : ROLE_muted;
		if (p->differs)
			tui_put(t, win, y, 0, 1, ROLE_binding, tui_glyph(t, GLYPH_differs));
		tui_put(t, win, y, 2, lw - 3, p->differs ? ROLE_field : ROLE_muted, p->label ? p->label : p->key);
		tui_put(t, win, y, lw, cw - 1, r, p->v[0]);
		tui_put(t, win, y, lw + cw, cw - 1, r, p->v[1]);
	}
	tui_list_marks(t, win, l, avail, n, 3, h - 1, w - 1);
}

static int pin_key(struct tui *t, enum tui_action a, int ch)
{
	(void)ch;
	if (tui_list_scroll_key(&t->pin_view.list, a, PIN_LINES, 0))
		return TUI_HANDLED;
	switch (a) {
	case ACT_PIN:
		return tui_pin(t);	/* the current one becomes the pin */
	case ACT_BACK:
		tui_close_overlay(t);
		return TUI_HANDLED;
	default:
		return TUI_UNHANDLED;
	}
}

static void pin_enter(struct tui *t)
{
	t->pin_view.list.top = 0;
}

const struct tui_step tui_pin_view = {
	.name = "Pinned",
	.draw = pin_draw,
	.key = pin_key,
	.enter = pin_enter,
	.full_width = true,
};
