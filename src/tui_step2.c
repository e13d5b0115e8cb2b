/*
 * tui_step2: Constraint.  What the workload needs (independent of the
 * hardware), then a table accelerator x resource: how much of each
 * resource the sized configuration uses, the binding one marked by a glyph
 * and a colour, and the engine's one-line reason for the row under the
 * cursor.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui.h"

/*
 * Requirements in the units and rounding of `accelsizer recommend`'s
 * headline (GB with one decimal, KV cache per token in bytes, FLOPs with
 * three significant digits); what the headline lacks is given as its YAML
 * gives it (bytes), in GB once that reads better.
 */
static char *fmt_gb1(char *buf, size_t n, double gb)
{
	char g[48];
	snprintf(buf, n, "%s GB", tui_fmt_num(g, sizeof g, gb, 1));
	return buf;
}

static char *fmt_bytes(char *buf, size_t n, double bytes)
{
	char g[48];
	if (isfinite(bytes) && bytes >= 1e9)
		return fmt_gb1(buf, n, bytes / 1e9);
	snprintf(buf, n, "%s bytes", tui_fmt_num(g, sizeof g, bytes, 0));
	return buf;
}

static char *fmt_flops(char *buf, size_t n, double f)
{
	if (!isfinite(f))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3g FLOPs", f);
	return buf;
}

static int requirement(struct tui *t, WINDOW *win, int y, int w, const char *label, const char *value,
		       const char *note)
{
	tui_put(t, win, y, 2, 18, ROLE_field, label);
	int x = 20 + tui_put(t, win, y, 20, w - 20, ROLE_value, value);
	if (note && x + 2 < w)
		tui_put(t, win, y, x + 2, w - x - 2, ROLE_unit, note);
	return y + 1;
}

/* Several workloads: what each needs in memory, and the sum the cluster
 * must hold (model state, KV cache or training state, before sharding). */
static int draw_cluster_needs(struct tui *t, WINDOW *win, int y, int w)
{
	if (!t->cl_sized)
		return y;
	char v[64], note[160];
	double sum = 0;
	tui_put(t, win, y++, 0, w, ROLE_header, "Every workload of the scenario, on one cluster");
	for (size_t e = 0; e < t->sc.n_entries; e++) {
		const struct scenario_entry *se = &t->sc.entries[e];
		const struct engine_requirements *q = &t->cl.reps[e].req;
		bool inf = se->w.cls == WL_INFERENCE;
		double gb = q->weights_gb + (inf ? q->kv_gb : q->optimizer_gb + q->activations_gb);
		sum += gb;
		snprintf(note, sizeof note, "%s, %s: %s", workload_class_name(se->w.cls),
			 se->w.model ? se->w.model->id : "no model",
			 inf ? "weights + KV cache" : "weights + optimizer + activations");
		y = requirement(t, win, y, w, se->name, fmt_gb1(v, sizeof v, gb), note);
	}
	return requirement(t, win, y, w, "All of them", fmt_gb1(v, sizeof v, sum),
			   "memory the cluster holds, before sharding");
}

static int draw_requirements(struct tui *t, WINDOW *win, int w)
{
	const struct engine_requirements *q = &t->rep.req;
	const struct workload *wl = &t->sc.w;
	char v[64], note[128], a[64];
	int y = 0;

	snprintf(note, sizeof note, "What the workload needs: %s, %s, %s",
		 wl->model ? wl->model->name : "no model", workload_class_name(wl->cls),
		 precision_name(wl->precision));
	tui_put(t, win, y++, 0, w, ROLE_header, note);
	y = requirement(t, win, y, w, "Weights", fmt_gb1(v, sizeof v, q->weights_gb), NULL);
	if (wl->cls == WL_INFERENCE) {
		snprintf(note, sizeof note, "%s bytes per token, %s",
			 tui_fmt_num(a, sizeof a, q->kv_bytes_per_token, 0), precision_name(wl->kv_precision));
		y = requirement(t, win, y, w, "KV cache", wl->concurrency_max ? "as memory allows"
			       : fmt_gb1(v, sizeof v, q->kv_gb), note);
		snprintf(note, sizeof note, "per request; %s per token", fmt_flops(a, sizeof a, q->flops_per_token));
		y = requirement(t, win, y, w, "Compute", fmt_flops(v, sizeof v, q->flops_total), note);
		y = requirement(t, win, y, w, "Bytes per token", fmt_bytes(v, sizeof v, q->bytes_per_token),
				"moved per decode step, batch of one");
	} else {
		y = requirement(t, win, y, w, "Optimizer state", fmt_gb1(v, sizeof v, q->optimizer_gb),
				"model state, before sharding");
		y = requirement(t, win, y, w, "Activations", fmt_gb1(v, sizeof v, q->activations_gb),
				"per sequence, before splitting");
		char p[32];
		if (q->adapter_params > 0)
			snprintf(note, sizeof note, "%s adapter parameters trained",
				 tui_fmt_num(p, sizeof p, q->adapter_params, 0));
		else
			snprintf(note, sizeof note, "%s parameters trained",
				 tui_fmt_num(p, sizeof p, q->trained_params, 0));
		y = requirement(t, win, y, w, "Compute", fmt_flops(v, sizeof v, q->flops_total), note);
	}
	bool moe = t->sc.w.cls != WL_INFERENCE && t->sc.w.model && t->sc.w.model->experts > 1;
	y = requirement(t, win, y, w, "Link traffic", fmt_bytes(v, sizeof v, q->link_bytes_per_step),
			moe ? "per step: gradients and the experts' all-to-all"
			    : "exchanged between GPUs per step");
	return draw_cluster_needs(t, win, y, w);
}

static void pct_cell(struct tui *t, WINDOW *win, int y, int x, double pct, bool binding, bool focus)
{
	char p[16];
	enum tui_state st = tui_state_of(t, pct);
	tui_put_right(t, win, y, x, 5, focus ? ROLE_field_focus : ROLE_value, tui_fmt_pct(p, sizeof p, pct));
	tui_put(t, win, y, x + 6, 1, tui_state_role(st), tui_glyph(t, tui_state_glyph(st)));
	if (binding)
		tui_put(t, win, y, x + 7, 1, ROLE_binding, tui_glyph(t, GLYPH_binding));
}

/* Columns: Accelerator | GPUs | Memory | Bandwidth | Interconnect |
 * Compute | Binding (when there is room). */
struct cols2 {
	int name_w, g, m, b, l, c, r;
	bool wide;
};

static struct cols2 columns2(int w)
{
	struct cols2 c;
	c.name_w = w >= 90 ? 24 : 18;
	c.g = c.name_w + 1;
	c.m = c.g + 6;
	c.b = c.m + 10;
	c.l = c.b + 10;
	c.c = c.l + 10;
	c.r = c.c + 10;
	c.wide = w - c.r >= 14;
	return c;
}

static void draw_header(struct tui *t, WINDOW *win, int y, int w, const struct cols2 *c)
{
	tui_put(t, win, y, 2, c->name_w - 2, ROLE_header, "Accelerator");
	tui_put_right(t, win, y, c->g, 4, ROLE_header, "GPUs");
	tui_put(t, win, y, c->m, 9, ROLE_header, "Memory");
	tui_put(t, win, y, c->b, 9, ROLE_header, "Bandwidth");
	tui_put(t, win, y, c->l, 9, ROLE_header, "Interconn");
	tui_put(t, win, y, c->c, 9, ROLE_header, "Compute");
	if (c->wide)
		tui_put(t, win, y, c->r, w - c->r, ROLE_header, "Binding");
}

/* One accelerator: its share of each resource, the binding one marked. */
static void draw_row(struct tui *t, WINDOW *win, int y, int w, const struct cols2 *c,
		     const struct engine_result *r, bool foc, bool chosen)
{
	if (foc)
		tui_fill(t, win, y, 0, w, ROLE_field_focus);
	tui_put(t, win, y, 0, 1, foc ? ROLE_field_focus : ROLE_selection,
		chosen ? tui_glyph(t, GLYPH_chosen) : " ");
	enum theme_role nr = foc ? ROLE_field_focus : r->filtered || !r->fits ? ROLE_muted : ROLE_value;
	tui_put(t, win, y, 2, c->name_w - 2, nr,
		c->name_w < 24 ? tui_accel_short(r->accel) : tui_accel_name(r->accel));
	if (r->filtered) {
		char why[200];
		snprintf(why, sizeof why, "filtered: %s", r->filter_reason);
		tui_put(t, win, y, c->g, w - c->g, foc ? ROLE_field_focus : ROLE_muted, why);
		return;
	}
	char g[16];
	if (r->fits)
		snprintf(g, sizeof g, "%d", r->gpus);
	else
		snprintf(g, sizeof g, "-");
	tui_put_right(t, win, y, c->g, 4, foc ? ROLE_field_focus : ROLE_value, g);
	pct_cell(t, win, y, c->m, r->mem_util_pct, r->binding == RES_MEMORY, foc);
	pct_cell(t, win, y, c->b, r->bw_util_pct, r->binding == RES_BANDWIDTH, foc);
	pct_cell(t, win, y, c->l, r->link_util_pct, r->binding == RES_INTERCONNECT, foc);
	/* compute/precision: the precision the engine could use */
	char prec[24];
	snprintf(prec, sizeof prec, "%s", precision_name(r->precision_used));
	tui_put(t, win, y, c->c, 5, foc ? ROLE_field_focus : ROLE_value, prec);
	enum tui_state st = r->precision_fallback ? ST_TIGHT : ST_FITS;
	tui_put(t, win, y, c->c + 6, 1, tui_state_role(st), tui_glyph(t, tui_state_glyph(st)));
	if (r->binding == RES_COMPUTE || r->binding == RES_PRECISION)
		tui_put(t, win, y, c->c + 7, 1, ROLE_binding, tui_glyph(t, GLYPH_binding));
	if (c->wide)
		tui_put(t, win, y, c->r, w - c->r, foc ? ROLE_field_focus : ROLE_binding,
			r->binding != RES_NONE ? resource_name(r->binding) : "");
}

/* The engine's reason for the row under the cursor, up to two lines. */
/* The row under the cursor: its headline figure with the error band of
 * the published results, then the engine's reason, up to two lines. */
static void draw_reason(struct tui *t, WINDOW *win, int h, int w, const struct engine_result *r)
{
	char prefix[16];
	snprintf(prefix, sizeof prefix, "%s ", tui_glyph(t, GLYPH_binding));
	tui_put_result_line(t, win, h - 2, w, 2, prefix, r);
}

static void draw(struct tui *t, WINDOW *win, int h, int w)
{
	int y = draw_requirements(t, win, w) + 1;
	int n = (int)t->rep.n;
	struct tui_list *l = &t->constraint.table;
	struct cols2 c = columns2(w);
	draw_header(t, win, y, w, &c);
	y++;

	int rows = h - y - 2;	/* two lines for the reason */
	if (rows < 1)
		rows = 1;
	tui_list_clamp(l, n, rows);
	const struct engine_result *chosen = tui_chosen(t);
	for (int i = l->top; i < n && y < h - 2 && i < l->top + rows; i++, y++)
		draw_row(t, win, y, w, &c, &t->rep.results[i], i == l->focus, &t->rep.results[i] == chosen);
	tui_list_marks(t, win, l, rows, n, y - rows > 0 ? y - rows : 0, y - 1, w - 1);
	if (n > 0 && h >= 3)
		draw_reason(t, win, h, w, &t->rep.results[l->focus]);
}

/* Enter on a row chooses that accelerator, as in step 3. */
int tui_choose_accel(struct tui *t, const struct engine_result *r)
{
	if (r->filtered) {
		tui_status(t, true, "%s is filtered out: %s", tui_accel_name(r->accel), r->filter_reason);
		return TUI_HANDLED;
	}
	if (t->sc.w.accel == r->accel) {
		tui_status(t, false, "%s is already the chosen accelerator.", tui_accel_name(r->accel));
		return TUI_HANDLED;
	}
	t->sc.w.accel = r->accel;
	t->chosen_first = r->rank == 1 && r->fits;
	t->panel.follow = true;
	/* overrides belonged to the previous choice */
	t->sc.w.gpus = -1;
	t->sc.w.spare_nodes = -1;
	if (t->sc.w.platform && t->sc.w.platform->accel != r->accel)
		t->sc.w.platform = NULL;
	tui_status(t, false, "Chose %s%s; step 4 shows its node.", tui_accel_name(r->accel),
		   r->fits ? "" : " (it does not fit as sized)");
	return TUI_HANDLED | TUI_CHANGED;
}

/* The first-ranked result that fits and passes the filters, or NULL. */
static const struct engine_result *new_first(const struct tui *t)
{
	const struct engine_result *f = t->rep.n ? &t->rep.results[0] : NULL;
	return f && f->fits && !f->filtered ? f : NULL;
}

const char *tui_stale_note(const struct tui *t, char *buf, size_t n)
{
	if (!t->sc.w.accel || !t->ran)
		return NULL;
	const struct engine_result *r = engine_report_find(&t->rep, t->sc.w.accel);
	if (!r)
		return NULL;
	const struct engine_result *f = new_first(t);
	char why[64];
	if (r->filtered)
		snprintf(why, sizeof why, "outside your filters now");
	else if (!r->fits)
		snprintf(why, sizeof why, "no longer fits");
	else if (t->chosen_first && r->rank != 1)
		snprintf(why, sizeof why, "no longer first (now #%d)", r->rank);
	else
		return NULL;
	snprintf(buf, n, "%s%s%s", why, f && f != r ? ": f takes " : "",
		 f && f != r ? tui_accel_short(f->accel) : "");
	return buf;
}

int tui_take_first(struct tui *t)
{
	char note[320];
	const struct engine_result *f = new_first(t);
	if (!tui_stale_note(t, note, sizeof note) || !f) {
		tui_status(t, false, "The choice is current: nothing to take.");
		return TUI_HANDLED;
	}
	return tui_choose_accel(t, f);
}

void tui_table_focus_chosen(struct tui *t, struct tui_list *l)
{
	const struct engine_result *r = tui_chosen(t);
	if (r && t->rep.n)
		l->focus = (int)(r - t->rep.results);
}

/* Entering the table puts the cursor on the accelerator in use. */
static void enter(struct tui *t)
{
	tui_table_focus_chosen(t, &t->constraint.table);
}

int tui_table_key(struct tui *t, enum tui_action a, struct tui_list *l, int n)
{
	/* Tab and S-Tab walk the rows as Down and Up do */
	if (a == ACT_NEXT_FIELD || a == ACT_PREV_FIELD)
		a = a == ACT_NEXT_FIELD ? ACT_DOWN : ACT_UP;
	if (tui_list_key(l, a, n, 0))
		return TUI_HANDLED;
	if (a != ACT_EDIT)
		return TUI_UNHANDLED;
	if (l->focus >= 0 && l->focus < n)
		return tui_choose_accel(t, &t->rep.results[l->focus]);
	return TUI_HANDLED;
}

static int key(struct tui *t, enum tui_action a, int ch)
{
	(void)ch;
	return tui_table_key(t, a, &t->constraint.table, (int)t->rep.n);
}

const struct tui_step tui_step2 = {
	.name = "Constraint",
	.draw = draw,
	.key = key,
	.enter = enter,
};
