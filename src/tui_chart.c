/*
 * tui_chart: the serving trade-off as a picture (step 3, g): for the
 * accelerators marked for comparison, or else the one under the cursor,
 * output tokens/s per GPU (up) against tokens/s per user (right) as the
 * batch grows, from engine_tradeoff_curve() (engine.h).  Each accelerator
 * has its own point glyph; the segments between points are dots; the
 * operating point the sizing chose has its glyph; the per-user speed
 * target is a vertical line; points that miss a target are drawn muted.
 * Glyphs come from the theme's table (chart_*), so --ascii and mono
 * themes draw it in ASCII.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

#define LABEL_W 8		/* the y axis's figures */

struct plot {
	int top, left, rows, cols;	/* the plotting area in the window */
	double xmax, ymax;
};

/* The results the chart shows: the marked ones in rank order, else the
 * one under step 3's cursor. */
static int chosen_results(const struct tui *t, const struct engine_result **res)
{
	int k = 0;
	for (size_t i = 0; i < t->rep.n && k < TUI_MAX_MARKED; i++)
		if (tui_is_marked(t, t->rep.results[i].accel))
			res[k++] = &t->rep.results[i];
	int f = t->silicon.table.focus;	/* step 3's cursor */
	if (!k && f >= 0 && (size_t)f < t->rep.n)
		res[k++] = &t->rep.results[f];
	return k;
}

static const enum theme_glyph curve_glyph[TUI_MAX_MARKED] = { GLYPH_chart_1, GLYPH_chart_2, GLYPH_chart_3 };

static int col_of(const struct plot *p, double x)
{
	return p->left + (int)lround(x / p->xmax * (p->cols - 1));
}

static int row_of(const struct plot *p, double y)
{
	return p->top + (p->rows - 1) - (int)lround(y / p->ymax * (p->rows - 1));
}

static void scale(struct plot *p, const struct engine_curve *cv, int k)
{
	p->xmax = p->ymax = 0;
	for (int j = 0; j < k; j++) {
		for (size_t i = 0; i < cv[j].n; i++) {
			p->xmax = fmax(p->xmax, cv[j].pts[i].tokens_per_s_per_user);
			p->ymax = fmax(p->ymax, cv[j].pts[i].tokens_per_s_per_gpu);
		}
		p->xmax = fmax(p->xmax, cv[j].target_tokens_per_s_per_user);
	}
	/* a margin, so the last point is not on the frame */
	p->xmax = p->xmax > 0 ? p->xmax * 1.05 : 1;
	p->ymax = p->ymax > 0 ? p->ymax * 1.05 : 1;
}

static void draw_axes(struct tui *t, WINDOW *win, const struct plot *p, const struct engine_curve *cv)
{
	char b[32];
	for (int i = 0; i < p->rows; i++)
		tui_put(t, win, p->top + i, p->left - 1, 1, ROLE_frame, tui_glyph(t, GLYPH_vline));
	tui_hline(t, win, p->top + p->rows, p->left - 1, p->cols + 1, ROLE_frame);
	tui_put_right(t, win, p->top, 0, LABEL_W - 2, ROLE_unit, tui_fmt_rate(b, sizeof b, p->ymax));
	tui_put_right(t, win, p->top + p->rows / 2, 0, LABEL_W - 2, ROLE_unit,
		      tui_fmt_rate(b, sizeof b, p->ymax * (p->rows - 1 - p->rows / 2) / (p->rows - 1)));
	tui_put_right(t, win, p->top + p->rows - 1, 0, LABEL_W - 2, ROLE_unit, "0");
	int y = p->top + p->rows + 1;
	tui_put(t, win, y, p->left, 4, ROLE_unit, "0");
	tui_put_right(t, win, y, p->left + p->cols / 2 - 4, 8, ROLE_unit,
		      tui_fmt_rate1(b, sizeof b, p->xmax * (p->cols / 2) / (p->cols - 1)));
	tui_put_right(t, win, y, p->left + p->cols - 8, 8, ROLE_unit, tui_fmt_rate1(b, sizeof b, p->xmax));
	/* the per-user speed target: a vertical line */
	double target = cv->target_tokens_per_s_per_user;
	if (target > 0)
		for (int i = 0; i < p->rows; i++)
			tui_put(t, win, p->top + i, col_of(p, target), 1, ROLE_error, tui_glyph(t, GLYPH_chart_target));
}

/* One accelerator's curve: dots between the points, then the points. */
static void draw_curve(struct tui *t, WINDOW *win, const struct plot *p, const struct engine_curve *cv,
		       enum theme_glyph g)
{
	for (size_t i = 1; i < cv->n; i++) {
		const struct engine_curve_point *a = &cv->pts[i - 1], *b = &cv->pts[i];
		int x0 = col_of(p, a->tokens_per_s_per_user), x1 = col_of(p, b->tokens_per_s_per_user);
		int y0 = row_of(p, a->tokens_per_s_per_gpu), y1 = row_of(p, b->tokens_per_s_per_gpu);
		int steps = abs(x1 - x0) > abs(y1 - y0) ? abs(x1 - x0) : abs(y1 - y0);
		for (int s = 1; s < steps; s++)
			tui_put(t, win, y0 + (y1 - y0) * s / steps, x0 + (x1 - x0) * s / steps, 1,
				b->meets_targets ? ROLE_value : ROLE_muted, tui_glyph(t, GLYPH_chart_line));
	}
	for (size_t i = 0; i < cv->n; i++) {
		const struct engine_curve_point *q = &cv->pts[i];
		tui_put(t, win, row_of(p, q->tokens_per_s_per_gpu), col_of(p, q->tokens_per_s_per_user), 1,
			q->meets_targets ? ROLE_value : ROLE_muted, tui_glyph(t, g));
	}
	const struct engine_curve_point *o = &cv->op;
	tui_put(t, win, row_of(p, fmin(o->tokens_per_s_per_gpu, p->ymax)),
		col_of(p, fmin(o->tokens_per_s_per_user, p->xmax)), 1, ROLE_selection, tui_glyph(t, GLYPH_chart_op));
}

static void draw_legend(struct tui *t, WINDOW *win, int y, int w, const struct engine_curve *cv)
{
	char b[200], r1[32], ms[32];
	int x = tui_put(t, win, y, 0, w, ROLE_selection, tui_glyph(t, GLYPH_chart_op));
	x += 1 + tui_put(t, win, y, x + 1, w - x - 1, ROLE_field, "operating point");
	if (cv->target_tokens_per_s_per_user > 0) {
		x += 3 + tui_put(t, win, y, x + 3, w - x - 3, ROLE_error, tui_glyph(t, GLYPH_chart_target));
		snprintf(b, sizeof b, "target %s tok/s per user",
			 tui_fmt_rate1(r1, sizeof r1, cv->target_tokens_per_s_per_user));
		x += 1 + tui_put(t, win, y, x + 1, w - x - 1, ROLE_field, b);
	}
	if (cv->target_tokens_per_s_per_user > 0 || cv->target_ttft_ms > 0) {
		b[0] = '\0';
		if (cv->target_ttft_ms > 0)
			snprintf(b, sizeof b, " (first token %s ms)", tui_fmt_ms(ms, sizeof ms, cv->target_ttft_ms));
		char line[240];
		snprintf(line, sizeof line, "muted: misses a target%s", b);
		tui_put(t, win, y, x + 3, w - x - 3, ROLE_muted, line);
	}
}

/* The operating point in words, one line per accelerator. */
static void draw_summary(struct tui *t, WINDOW *win, int y, int w, const struct engine_result *r,
			 const struct engine_curve *cv, enum theme_glyph g)
{
	char line[320], a[32], u[32], lay[48];
	int x = tui_put(t, win, y, 0, w, ROLE_value, tui_glyph(t, g));
	if (!cv->n) {
		snprintf(line, sizeof line, "%s: %s", tui_accel_short(r->accel),
			 r->filtered ? "filtered out" : r->fits ? "no curve for this result" : "does not fit");
		tui_put(t, win, y, x + 1, w - x - 1, ROLE_muted, line);
		return;
	}
	if (r->partition)
		snprintf(lay, sizeof lay, "%s slice", r->partition->profile);
	else if (r->pp > 1)
		snprintf(lay, sizeof lay, "TP%d PP%d", r->tp, r->pp);
	else
		snprintf(lay, sizeof lay, "TP%d", r->tp);
	tui_fmt_rate(a, sizeof a, cv->op.tokens_per_s_per_gpu);
	tui_fmt_rate1(u, sizeof u, cv->op.tokens_per_s_per_user);
	/* the catalog id where the name would push the batches off the line */
	for (int pass = 0; pass < 2; pass++) {
		snprintf(line, sizeof line, "%s %s: batch %ld, %s tok/s per GPU at %s per user%s; batch 1 to %ld",
			 pass ? r->accel->id : tui_accel_short(r->accel), lay, cv->op.batch, a, u,
			 cv->op.meets_targets ? ", meets the targets" : ", misses a target", cv->pts[cv->n - 1].batch);
		if ((int)strlen(line) <= w - x - 1)
			break;
	}
	tui_put(t, win, y, x + 1, w - x - 1, ROLE_value, line);
}

static void draw(struct tui *t, WINDOW *win, int h, int w)
{
	const struct engine_result *res[TUI_MAX_MARKED];
	int k = chosen_results(t, res);
	int x = tui_put(t, win, 0, 0, w, ROLE_header, "Trade-off: tokens/s per GPU against tokens/s per user as the batch grows");
	char hint[32];
	snprintf(hint, sizeof hint, "   %s closes", tui_key(ACT_BACK));
	tui_put(t, win, 0, x, w - x, ROLE_muted, hint);
	if (t->sc.w.cls != WL_INFERENCE) {
		tui_put(t, win, 2, 0, w, ROLE_muted, "The trade-off of batch against speed per user is for serving (Class: inference).");
		return;
	}
	if (!k) {
		tui_put(t, win, 2, 0, w, ROLE_muted, "No accelerator to chart.");
		return;
	}
	struct engine_curve cv[TUI_MAX_MARKED];
	for (int j = 0; j < k; j++)
		engine_tradeoff_curve(t->cat, &t->sc.w, res[j], &cv[j]);
	draw_legend(t, win, 1, w, &cv[0]);
	struct plot p = { .top = 3, .left = LABEL_W, .cols = w - LABEL_W - 1 };
	p.rows = h - p.top - 3 - k;
	tui_put(t, win, 2, 0, w, ROLE_unit, "tok/s per GPU");
	if (p.rows < 3 || p.cols < 10) {
		tui_put(t, win, 3, 0, w, ROLE_muted, "The window is too small for the chart.");
		return;
	}
	scale(&p, cv, k);
	draw_axes(t, win, &p, &cv[0]);
	tui_put_right(t, win, p.top + p.rows + 1, p.left + p.cols / 2 + 6, p.cols / 2 - 16 > 0 ? p.cols / 2 - 16 : 0,
		      ROLE_unit, "tok/s per user");
	for (int j = k - 1; j >= 0; j--)
		draw_curve(t, win, &p, &cv[j], curve_glyph[j]);
	for (int j = 0; j < k; j++)
		draw_summary(t, win, p.top + p.rows + 2 + j, w, res[j], &cv[j], curve_glyph[j]);
}

static int key(struct tui *t, enum tui_action a, int ch)
{
	(void)ch;
	switch (a) {
	case ACT_CHART:
	case ACT_BACK:
		tui_close_overlay(t);
		return TUI_HANDLED;
	default:
		return TUI_UNHANDLED;
	}
}

const struct tui_step tui_chart_view = {
	.name = "Trade-off",
	.draw = draw,
	.key = key,
	.full_width = true,
};
