/*
 * tui_step5: Validate & export.  The validation plan the engine proposes
 * for the chosen accelerator (benchmark, metric, predicted value and the
 * acceptance threshold), a preview of the bill of materials built by the
 * same bom_build() as `accelsizer bom`, and the file keys: e exports the
 * BOM CSV, s saves the scenario, o opens one.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bom.h"
#include "cli_outputs.h"
#include "proposal.h"
#include "tui.h"

struct tui_bom {
	struct bom bom;
	bool ok;
	char err[256];
};

void tui_step5_init(struct tui *t)
{
	t->validate.preview = calloc(1, sizeof *t->validate.preview);
	if (t->validate.preview)
		bom_init(&t->validate.preview->bom);
}

void tui_step5_fini(struct tui *t)
{
	if (t->validate.preview) {
		bom_fini(&t->validate.preview->bom);
		free(t->validate.preview);
		t->validate.preview = NULL;
	}
}

void tui_step5_refresh(struct tui *t)
{
	struct tui_bom *b = t->validate.preview;
	if (!b)
		return;
	bom_fini(&b->bom);
	bom_init(&b->bom);
	b->ok = false;
	b->err[0] = '\0';
	const struct engine_result *r = tui_chosen(t);
	if (!r) {
		snprintf(b->err, sizeof b->err, "no accelerator");
		return;
	}
	/* Several workloads: the BOM of the cluster that holds them all, as
	 * `bom --scenario` writes it. */
	const struct engine_cluster *cl = tui_wl_cluster(t, r->accel);
	if (cl && !cl->fits) {
		snprintf(b->err, sizeof b->err, "%s cannot hold every workload of the scenario (step 4 "
			 "shows which does not fit)", tui_accel_name(r->accel));
		return;
	}
	if (cl)
		r = &cl->total;
	if (!r->fits) {
		char rb[ENGINE_REASON_MAX];
		snprintf(b->err, sizeof b->err, "%s does not fit this workload: %s", tui_accel_name(r->accel),
			 engine_result_reason(r, rb, sizeof rb));
		return;
	}
	b->ok = bom_build(t->cat, &t->sc.w, r, t->have_prices ? &t->prices : NULL, &b->bom,
			  b->err, sizeof b->err);
}

/* "~/x" -> "$HOME/x", as a shell would. */
static void expand_path(const char *in, char *out, size_t n)
{
	const char *home = getenv("HOME");
	if (in[0] == '~' && in[1] == '/' && home && *home)
		snprintf(out, n, "%s%s", home, in + 1);
	else
		snprintf(out, n, "%s", in);
}

/* The wizard writes files only: a FIFO (or a link to one) would block the
 * input loop in open(2) until a reader came, and q with it; a device is
 * no place for a BOM (issue 13 item 9).  stat(2) never blocks. */
static bool regular_target(struct tui *t, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
		return true;	/* a new file, or a plain one */
	tui_status(t, true, "Cannot write '%s': not a regular file (the wizard writes files only).",
		   path);
	return false;
}

/* Whether writing path would replace a file the user has: ask first. */
static bool ask_overwrite(struct tui *t, enum tui_prompt of, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	t->overwrite_of = of;
	snprintf(t->overwrite_path, sizeof t->overwrite_path, "%s", path);
	t->prompt = PROMPT_OVERWRITE;
	return true;
}

int tui_do_export(struct tui *t, const char *path_in, bool force)
{
	char path[PATH_MAX], err[512], total[32];
	expand_path(path_in, path, sizeof path);
	if (!t->validate.preview || !t->validate.preview->ok) {
		tui_status(t, true, "Nothing to export: %s", t->validate.preview ? t->validate.preview->err : "out of memory");
		return TUI_HANDLED;
	}
	if (!regular_target(t, path))
		return TUI_HANDLED;
	/* Never over an input: the scenario, the price list, the catalog. */
	const struct atomic_name outs[] = { { "export", path } };
	if (!cli_outputs_distinct(t->cat, t->scenario_path[0] ? t->scenario_path : NULL,
				  t->have_prices ? t->prices.path : NULL, NULL, outs, 1, err, sizeof err)) {
		tui_status(t, true, "%s", err);
		return TUI_HANDLED;
	}
	if (!force && ask_overwrite(t, PROMPT_EXPORT, path))
		return TUI_HANDLED;
	if (t->test_mode) {
		tui_status(t, false, "Test mode: would export the BOM to %s.", path);
		return TUI_HANDLED;
	}
	if (!bom_write_csv(&t->validate.preview->bom, path, err, sizeof err)) {
		tui_status(t, true, "%s", err);
		return TUI_HANDLED;
	}
	bom_format_cents(t->validate.preview->bom.total_cents, total, sizeof total);
	tui_status(t, false, "Exported %zu BOM lines to %s (total %s %s).", t->validate.preview->bom.n,
		   path, t->validate.preview->bom.result.currency, total);
	return TUI_HANDLED;
}

int tui_proposal_prompt(struct tui *t)
{
	char path[PATH_MAX];
	proposal_default_path(t->scenario_path, path, sizeof path);
	tui_prompt_start(t, PROMPT_PROPOSAL, path);
	return TUI_HANDLED;
}

int tui_do_proposal(struct tui *t, const char *path_in, bool force)
{
	char path[PATH_MAX], err[512], total[32];
	enum proposal_format fmt;
	expand_path(path_in, path, sizeof path);
	if (!proposal_format_of_path(path, &fmt)) {
		tui_status(t, true, "Name the proposal .html or .md: '%s'.", path);
		return TUI_HANDLED;
	}
	if (!regular_target(t, path))
		return TUI_HANDLED;
	const struct atomic_name outs[] = { { "proposal", path } };
	if (!cli_outputs_distinct(t->cat, t->scenario_path[0] ? t->scenario_path : NULL,
				  t->have_prices ? t->prices.path : NULL, NULL, outs, 1, err, sizeof err)) {
		tui_status(t, true, "%s", err);
		return TUI_HANDLED;
	}
	if (!force && ask_overwrite(t, PROMPT_PROPOSAL, path))
		return TUI_HANDLED;
	if (t->test_mode) {
		tui_status(t, false, "Test mode: would write the proposal to %s.", path);
		return TUI_HANDLED;
	}
	/* the same call as `accelsizer proposal`, on the scenario as it stands */
	struct proposal p;
	bool ok = proposal_build(&p, t->cat, &t->sc, t->bands, err, sizeof err) == PROPOSAL_OK &&
		  proposal_write(&p, fmt, path, err, sizeof err);
	if (ok) {
		bom_format_cents(p.bom.total_cents, total, sizeof total);
		tui_status(t, false, "Wrote the proposal to %s (BOM total USD %s).", path, total);
	} else {
		tui_status(t, true, "No proposal: %s", err);
	}
	proposal_fini(&p);
	return TUI_HANDLED;
}

int tui_do_save(struct tui *t, const char *path_in, bool force)
{
	char path[PATH_MAX], err[512];
	expand_path(path_in, path, sizeof path);
	if (!regular_target(t, path))
		return TUI_HANDLED;
	/* Over the scenario it was opened from is what saving means; over
	 * the price list or a catalog file it is data loss. */
	const struct atomic_name outs[] = { { "save", path } };
	if (!cli_outputs_distinct(t->cat, NULL, t->have_prices ? t->prices.path : NULL, NULL, outs, 1,
				  err, sizeof err)) {
		tui_status(t, true, "%s", err);
		return TUI_HANDLED;
	}
	/* Over the scenario's own file is what saving means: no question. */
	if (!force && strcmp(path, t->scenario_path) && ask_overwrite(t, PROMPT_SAVE, path))
		return TUI_HANDLED;
	if (t->test_mode) {
		tui_status(t, false, "Test mode: would save the scenario to %s.", path);
		return TUI_HANDLED;
	}
	/* Several workloads: the one on screen goes back into the list, which
	 * is saved whole. */
	tui_wl_store(t);
	if (!scenario_save(path, &t->sc, err, sizeof err)) {
		tui_status(t, true, "%s", err);
		return TUI_HANDLED;
	}
	snprintf(t->scenario_path, sizeof t->scenario_path, "%s", path);
	t->dirty = false;
	tui_status(t, false, "Saved the scenario to %s.", path);
	return TUI_HANDLED;
}

int tui_do_open(struct tui *t, const char *path_in)
{
	char path[PATH_MAX], err[512];
	expand_path(path_in, path, sizeof path);
	if (!tui_open_scenario(t, path, err, sizeof err)) {
		tui_status(t, true, "%s", err);
		return TUI_HANDLED;
	}
	tui_recompute(t);
	tui_status(t, false, "Opened %s.", path);
	return TUI_HANDLED;
}

/* ---- drawing ---- */

/* As `accelsizer validate` prints a plan: 1 decimal under 100, else 0. */
static void fmt_plan_value(char *buf, size_t n, double v, const char *unit)
{
	char num[48];
	tui_fmt_num(num, sizeof num, v, v < 100 ? 1 : 0);
	snprintf(buf, n, "%s %s", num, unit);
}

/* One line per row when the benchmark has room, else two: the benchmark,
 * then metric, predicted value and threshold under it. */
static bool plan_one_line(int w)
{
	return w >= 110;
}

static int plan_rows_height(const struct engine_plan *p, int w)
{
	return 2 + (int)p->n * (plan_one_line(w) ? 1 : 2);
}

static int plan_height(const struct tui *t, int w)
{
	if (!t->plan.n)
		return 2;
	int h = plan_rows_height(&t->plan, w);
	return t->cl_plan.n ? h + 1 + plan_rows_height(&t->cl_plan, w) : h;
}

/* A title, then [Benchmark] | Metric | Predicted | Accept if. */
static int draw_plan_rows(struct tui *t, WINDOW *win, int y, int w, const char *head,
			  const struct engine_plan *plan)
{
	tui_put(t, win, y++, 0, w, ROLE_header, head);
	bool one = plan_one_line(w);
	int vw = 14, mw = 24;
	int bw = one ? w - mw - 2 * vw - 4 : 0;
	int mx = one ? 1 + bw + 1 : 3;
	if (!one)
		mw = w - mx - 2 * vw - 2;
	int px = mx + mw, ax = px + vw + 1;
	if (one)
		tui_put(t, win, y, 1, bw, ROLE_field, "Benchmark");
	tui_put(t, win, y, mx, mw, ROLE_field, one ? "Metric" : "Benchmark / metric");
	tui_put_right(t, win, y, px, vw, ROLE_field, "Predicted");
	tui_put_right(t, win, y, ax, vw, ROLE_field, "Accept if");
	y++;
	for (size_t i = 0; i < plan->n; i++, y++) {
		const struct engine_plan_row *p = &plan->rows[i];
		char pred[96], thr[128], num[96];
		if (one) {
			tui_put(t, win, y, 1, bw, ROLE_value, p->benchmark);
		} else {
			tui_put(t, win, y, 1, w - 1, ROLE_value, p->benchmark);
			y++;
		}
		tui_put(t, win, y, mx, mw - 1, ROLE_field, p->metric);
		fmt_plan_value(pred, sizeof pred, p->predicted, p->unit);
		tui_put_right(t, win, y, px, vw, ROLE_value, pred);
		fmt_plan_value(num, sizeof num, p->threshold, p->unit);
		snprintf(thr, sizeof thr, "%s %s",
			 tui_glyph(t, p->higher_is_better ? GLYPH_at_least : GLYPH_at_most), num);
		tui_put_right(t, win, y, ax, vw, ROLE_bar_fits, thr);
	}
	return y;
}

/* The workload's plan; with several workloads, which one, then the shared
 * cluster's (as `validate --scenario` writes them). */
static int draw_plan(struct tui *t, WINDOW *win, int y, int w)
{
	const struct engine_result *r = tui_chosen(t);
	char head[200];
	if (tui_wl_multi(t))
		snprintf(head, sizeof head, "Validation plan for %s: %s, %d GPU%s",
			 t->sc.entries[t->workload.current].name, r ? tui_accel_name(r->accel) : "-", r ? r->gpus : 0,
			 r && r->gpus == 1 ? "" : "s");
	else
		snprintf(head, sizeof head, "Validation plan: %s, %d GPU%s", r ? tui_accel_name(r->accel) : "-",
			 r ? r->gpus : 0, r && r->gpus == 1 ? "" : "s");
	if (!t->plan.n) {
		tui_put(t, win, y++, 0, w, ROLE_header, head);
		tui_put(t, win, y++, 2, w - 2, ROLE_muted, "No plan: the accelerator does not fit.");
		return y;
	}
	y = draw_plan_rows(t, win, y, w, head, &t->plan);
	const struct engine_cluster *cl = r ? tui_wl_cluster(t, r->accel) : NULL;
	if (t->cl_plan.n && cl) {
		snprintf(head, sizeof head, "The shared cluster, all %zu workloads at once: %d GPUs, %d node%s",
			 t->sc.n_entries, cl->total.gpus, cl->total.nodes, cl->total.nodes == 1 ? "" : "s");
		y = draw_plan_rows(t, win, y + 1, w, head, &t->cl_plan);
	}
	return y;
}

static void draw_bom(struct tui *t, WINDOW *win, int y, int h, int w)
{
	struct tui_bom *b = t->validate.preview;
	char total[32], head[160];
	if (!b || !b->ok) {
		tui_put(t, win, y++, 0, w, ROLE_header, "Bill of materials");
		tui_put(t, win, y, 2, w - 2, ROLE_muted, b ? b->err : "out of memory");
		return;
	}
	bom_format_cents(b->bom.total_cents, total, sizeof total);
	char kw[32];
	char without[48] = "";
	if (b->bom.n_unpriced)	/* the total leaves them out: said beside it */
		snprintf(without, sizeof without, " (%zu " BOM_UNPRICED " not in it)", b->bom.n_unpriced);
	snprintf(head, sizeof head, "Bill of materials: %zu lines, %s %s%s, %s kW, %.0fU", b->bom.n,
		 b->bom.result.currency, total, without,
		 tui_fmt_kw(kw, sizeof kw, b->bom.total_power_w / 1000.0), b->bom.total_rack_units);
	tui_put(t, win, y++, 0, w, ROLE_header, head);

	int qw = 6, ew = 14;
	int dw = w - qw - ew - 3;
	tui_put_right(t, win, y, 0, qw, ROLE_field, "Qty");
	tui_put(t, win, y, qw + 1, dw, ROLE_field, "Description");
	char ext[24];
	snprintf(ext, sizeof ext, "Extended %s", b->bom.result.currency);
	tui_put_right(t, win, y, qw + 2 + dw, ew, ROLE_field, ext);
	y++;
	int rows = h - y - 1;
	if (rows < 1)
		rows = 1;
	int n = (int)b->bom.n;
	struct tui_list *list = &t->validate.bom;
	tui_list_clamp_top(list, n, rows);
	const int *top = &list->top;
	for (int i = *top; i < n && y < h - 1; i++, y++) {
		const struct bom_line *l = &b->bom.lines[i];
		char q[24], e[32];
		snprintf(q, sizeof q, "%ld", l->qty);
		tui_put_right(t, win, y, 0, qw, ROLE_value, q);
		tui_put(t, win, y, qw + 1, dw, ROLE_value, l->description);
		if (l->priced)
			bom_format_cents(l->extended_cents, e, sizeof e);
		else
			snprintf(e, sizeof e, BOM_UNPRICED);
		tui_put_right(t, win, y, qw + 2 + dw, ew, l->priced ? ROLE_value : ROLE_bar_tight, e);
	}
	if (*top > 0 || *top + rows < n) {
		snprintf(head, sizeof head, "lines %d-%d of %d (Up/Down scroll)", *top + 1,
			 *top + rows < n ? *top + rows : n, n);
		tui_put(t, win, h - 1, 0, w, ROLE_muted, head);
	}
}

/* Both parts when they fit (the BOM with at least four lines), else one
 * at a time: Tab switches. */
static bool both_fit(const struct tui *t, int h, int w)
{
	return plan_height(t, w) + 1 + 2 + 4 + 1 <= h;
}

static void draw(struct tui *t, WINDOW *win, int h, int w)
{
	/* a choice the last workload change made stale, on the first line */
	char note[320];
	int y0 = 0;
	if (tui_stale_note(t, note, sizeof note)) {
		int x = tui_put(t, win, 0, 0, w, ROLE_error, tui_glyph(t, GLYPH_tight));
		tui_put(t, win, 0, x + 1, w - x - 1, ROLE_error, note);
		y0 = 1;
	}
	if (both_fit(t, h - y0, w)) {
		int y = draw_plan(t, win, y0, w) + 1;
		draw_bom(t, win, y, h, w);
		return;
	}
	bool bom = t->validate.show_bom;
	if (bom)
		draw_bom(t, win, y0, h, w);
	else
		draw_plan(t, win, y0, w);
	/* the other half is one key away: say so on the title line */
	char hint[48];
	snprintf(hint, sizeof hint, "  %s: %s", tui_key(ACT_NEXT_FIELD), bom ? "validation plan" : "bill of materials");
	int hw = tui_width(hint);
	tui_put(t, win, y0, w - hw, hw, ROLE_muted, hint);
}

static int key(struct tui *t, enum tui_action a, int ch)
{
	(void)ch;
	struct tui_validate_state *V = &t->validate;
	if (a == ACT_NEXT_FIELD || a == ACT_PREV_FIELD) {
		V->show_bom = !V->show_bom;
		return TUI_HANDLED;
	}
	int n = V->preview ? (int)V->preview->bom.n : 0;
	return tui_list_scroll_key(&V->bom, a, n, 0) ? TUI_HANDLED : TUI_UNHANDLED;
}

static bool missing(const struct tui *t)
{
	const struct engine_result *r = tui_chosen(t);
	return !r || !r->fits;
}

const struct tui_step tui_step5 = {
	.name = "Validate",
	.draw = draw,
	.key = key,
	.missing = missing,
};
