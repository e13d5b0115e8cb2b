/*
 * tui_step3: Silicon.  The report's ranking under the chosen objective:
 * GPUs, nodes, predicted throughput (inference) or time (training), capex,
 * power and cost per million tokens or per run.  Filtered-out and
 * non-fitting accelerators stay visible, greyed, with the reason.  Enter
 * chooses, Space marks up to three, c compares them, b changes the
 * objective.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "prices.h"
#include "tui.h"

static const char *objective_title(enum objective o)
{
	switch (o) {
	case OBJ_CAPEX: return "lowest capex";
	case OBJ_COST_PER_TOKEN: return "lowest cost per token";
	case OBJ_TIME: return "fastest";
	case OBJ_GPUS: return "fewest GPUs";
	case OBJ_PERF_PER_WATT: return "best performance per watt";
	case OBJ_TCO: return "lowest total cost of ownership";
	default: return objective_name(o);
	}
}

struct cols {
	int mark, rank, name, name_w, gpus, nodes, perf, capex, kw, cost;
};

static struct cols columns(int w)
{
	struct cols c;
	c.mark = 0;
	c.rank = 2;
	c.name = 6;
	/* right-aligned figures after the name: GPUs 5 (ENG_MAX_GPUS has five
	 * digits), nodes 5, perf 7, capex 12 ($999,999,999), kW 7, cost 10, one
	 * space before each, and the last column for the scroll arrows; a wider
	 * figure is abbreviated (put_fig()), so the short names (15 columns)
	 * stay whole beside the side panel */
	c.name_w = w - c.name - 52;
	if (c.name_w > 26)
		c.name_w = 26;
	if (c.name_w < 10)
		c.name_w = 10;
	c.gpus = c.name + c.name_w;
	c.nodes = c.gpus + 6;
	c.perf = c.nodes + 6;
	c.capex = c.perf + 8;
	c.kw = c.capex + 13;
	c.cost = c.kw + 8;
	return c;
}

/* A figure in a column of w: whole, else with fewer decimals, else
 * abbreviated with its unit (13.2k, $998.1M): never cut. */
static void put_fig(struct tui *t, WINDOW *win, int y, int x, int w, enum theme_role r,
		    const char *text, double v, const char *prefix)
{
	char fit[64];
	tui_put_right(t, win, y, x, w, r, tui_fmt_fit(fit, sizeof fit, w, text, v, prefix));
}

/* A money figure of the ranking by the result's price state (the CLI
 * table's rule, engine_price_state()): "-" when the GPU has no price, the
 * figure and the unpriced glyph in the last column when it leaves lines
 * out. */
static void put_cost(struct tui *t, WINDOW *win, int y, int x, int w, enum theme_role r,
		     const struct engine_result *res, const char *text, double v, const char *prefix)
{
	enum engine_price_state s = engine_price_state(res);
	if (s == PRICE_UNKNOWN) {
		tui_put_right(t, win, y, x, w, r, "-");
		return;
	}
	put_fig(t, win, y, x, w - 1, r, text, v, prefix);
	tui_put(t, win, y, x + w - 1, 1, r, s == PRICE_PARTIAL ? tui_glyph(t, GLYPH_unpriced) : " ");
}

void tui_result_perf(const struct tui *t, const struct engine_result *r, char *buf, size_t n)
{
	if (t->sc.w.cls == WL_INFERENCE)
		tui_fmt_rate(buf, n, r->output_tokens_per_s);
	else
		tui_fmt_num(buf, n, r->train_hours, 1);	/* the CLI's "hours" column */
}

void tui_result_cost(const struct tui *t, const struct engine_result *r, char *buf, size_t n)
{
	if (t->sc.w.cls == WL_INFERENCE)
		tui_fmt_usd_mtok(buf, n, r->usd_per_mtok, r->currency);
	else
		tui_fmt_usd(buf, n, r->run_cost_usd, r->currency);
}

/* The line under the table for the row under the cursor: marks, the
 * price state, rent or buy, or the keys. */
static void footer_why(struct tui *t, const struct engine_result *fr, char *why, size_t n)
{
	struct tui_silicon_state *S = &t->silicon;
	char rent[200];
	if (S->n_marked) {
		snprintf(why, n, "%d marked for compare (%s); %s chooses, %s marks",
			 S->n_marked, tui_key(ACT_COMPARE), tui_key(ACT_EDIT), tui_key(ACT_MARK));
	} else if (fr->fits && engine_price_state(fr) == PRICE_UNKNOWN) {
		snprintf(why, n, "- no GPU price: not ranked by cost; a price list line %s gives one",
			 fr->accel->id);
	} else if (fr->fits && fr->platform && fr->rent_basis >= 0) {
		/* rent or buy for the row under the cursor (engine_rent()),
		 * short enough for the table's width beside the panel */
		char a[48], lo[48] = "";
		engine_rent_breakeven(fr, rent, sizeof rent);
		if (fr->unpriced_lines > 0)
			snprintf(lo, sizeof lo, "; %s leaves out %d unpriced line%s",
				 tui_glyph(t, GLYPH_unpriced), fr->unpriced_lines,
				 fr->unpriced_lines == 1 ? "" : "s");
		snprintf(why, n, "Rent %s%s %s: %s%s", tui_fmt_usd(a, sizeof a, fr->rent_usd, fr->currency),
			 fr->cls != WL_INFERENCE ? " for the run" : "/yr",
			 engine_rent_term_key(fr->rent_basis), rent, lo);
	} else if (fr->fits && engine_price_state(fr) == PRICE_PARTIAL) {
		snprintf(why, n, "%s capex leaves out %d unpriced line%s (a price list prices them)",
			 tui_glyph(t, GLYPH_unpriced), fr->unpriced_lines, fr->unpriced_lines == 1 ? "" : "s");
	} else {
		snprintf(why, n, "%s chooses; %s marks up to %d to compare (%s)",
			 tui_key(ACT_EDIT), tui_key(ACT_MARK), TUI_MAX_MARKED, tui_key(ACT_COMPARE));
	}
}

static void draw(struct tui *t, WINDOW *win, int h, int w)
{
	bool inf = t->sc.w.cls == WL_INFERENCE;
	int n = (int)t->rep.n;
	struct tui_silicon_state *S = &t->silicon;
	struct tui_list *l = &S->table;

	char head[160];
	snprintf(head, sizeof head, "Ranked by %s", objective_title(t->sc.w.objective));
	int x = tui_put(t, win, 0, 0, w, ROLE_header, head);
	snprintf(head, sizeof head, "  (b changes)   %zu of %zu fit", t->rep.n_fitting, t->rep.n);
	tui_put(t, win, 0, x, w - x, ROLE_muted, head);

	/* several workloads: the cluster of the accelerator under the cursor */
	char total[240];
	if (n > 0 && l->focus < n &&
	    tui_wl_total(t, t->rep.results[l->focus < 0 ? 0 : l->focus].accel, head, sizeof head)) {
		snprintf(total, sizeof total, "All %zu workloads: %s", t->sc.n_entries, head);
		tui_put(t, win, 1, 0, w, ROLE_value, total);
	}

	struct cols c = columns(w);
	int y = 2;
	tui_put_right(t, win, y, c.rank, 3, ROLE_header, "#");
	tui_put(t, win, y, c.name, c.name_w, ROLE_header, "Accelerator");
	tui_put_right(t, win, y, c.gpus, 5, ROLE_header, "GPUs");
	tui_put_right(t, win, y, c.nodes, 5, ROLE_header, "Nodes");
	tui_put_right(t, win, y, c.perf, 7, ROLE_header, inf ? "Tok/s" : "Hours");
	/* The money columns say their currency (the price list's). */
	const char *cur = prices_currency(t->sc.w.prices);
	bool usd = !strcmp(cur, "USD");
	char capex_h[16], cost_h[16];
	snprintf(capex_h, sizeof capex_h, usd ? "Capex" : "Capex %s", cur);
	if (inf)
		snprintf(cost_h, sizeof cost_h, "%s/Mtok", usd ? "$" : cur);
	else
		snprintf(cost_h, sizeof cost_h, usd ? "Run cost" : "Run %s", cur);
	tui_put_right(t, win, y, c.capex, 12, ROLE_header, capex_h);
	tui_put_right(t, win, y, c.kw, 7, ROLE_header, "kW");
	tui_put_right(t, win, y, c.cost, 10, ROLE_header, cost_h);
	y++;

	int rows = h - y - 2;
	if (rows < 1)
		rows = 1;
	tui_list_clamp(l, n, rows);
	const struct engine_result *chosen = tui_chosen(t);
	for (int i = l->top; i < n && i < l->top + rows; i++, y++) {
		const struct engine_result *r = &t->rep.results[i];
		bool foc = i == l->focus;
		bool grey = r->filtered || !r->fits;
		enum theme_role vr = foc ? ROLE_field_focus : grey ? ROLE_muted : ROLE_value;
		if (foc)
			tui_fill(t, win, y, 0, w, ROLE_field_focus);
		else if (r == chosen)
			tui_fill(t, win, y, c.name, c.name_w, ROLE_selection);
		/* only a mark or the chosen row's arrow gets the selection colour */
		bool marked = tui_is_marked(t, r->accel);
		tui_put(t, win, y, c.mark, 1, foc || !marked ? vr : ROLE_selection,
			marked ? tui_glyph(t, GLYPH_marked) : " ");
		tui_put(t, win, y, c.mark + 1, 1, foc || r != chosen ? vr : ROLE_selection,
			r == chosen ? tui_glyph(t, GLYPH_chosen) : " ");
		char buf[64];
		if (grey)
			snprintf(buf, sizeof buf, "-");
		else
			snprintf(buf, sizeof buf, "%d", r->rank);
		tui_put_right(t, win, y, c.rank, 3, vr, buf);
		tui_put(t, win, y, c.name, c.name_w - 1, r == chosen && !foc ? ROLE_selection : vr,
			c.name_w < 22 ? tui_accel_short(r->accel) : tui_accel_name(r->accel));
		if (grey) {
			char why[220], rb[ENGINE_REASON_MAX];
			snprintf(why, sizeof why, "%s: %s", r->filtered ? "filtered" : "does not fit",
				 engine_result_why(r, rb, sizeof rb));
			tui_put(t, win, y, c.gpus, w - c.gpus, vr, why);
			continue;
		}
		snprintf(buf, sizeof buf, "%d", r->gpus);
		put_fig(t, win, y, c.gpus, 5, vr, buf, r->gpus, "");
		snprintf(buf, sizeof buf, "%d", r->nodes);
		put_fig(t, win, y, c.nodes, 5, vr, buf, r->nodes, "");
		tui_result_perf(t, r, buf, sizeof buf);
		put_fig(t, win, y, c.perf, 7, vr, buf, inf ? r->output_tokens_per_s : r->train_hours, "");
		char pre[8];
		prices_money_prefix(r->currency, pre, sizeof pre);
		put_cost(t, win, y, c.capex, 12, vr, r, tui_fmt_usd(buf, sizeof buf, r->capex_usd, r->currency),
			 r->capex_usd, pre);
		/* kW: one decimal while it fits, else whole kW, else abbreviated */
		tui_fmt_kw(buf, sizeof buf, r->power_kw);
		if (tui_width(buf) > 7)
			tui_fmt_num(buf, sizeof buf, r->power_kw, 0);
		put_fig(t, win, y, c.kw, 7, vr, buf, r->power_kw, "");
		tui_result_cost(t, r, buf, sizeof buf);
		put_cost(t, win, y, c.cost, 10, vr, r, buf, inf ? r->usd_per_mtok : r->run_cost_usd, pre);
	}
	tui_list_marks(t, win, l, rows, n, 3, y - 1, w - 1);

	/* the row under the cursor: its headline figure with the error band of
	 * the published results, and why it ranks where it does */
	if (n > 0) {
		char why[400];
		const struct engine_result *fr = &t->rep.results[l->focus];
		tui_put_result_line(t, win, h - 2, w, 1, "", fr);
		footer_why(t, fr, why, sizeof why);
		tui_put(t, win, h - 1, 0, w, ROLE_muted, why);
	}
}

static int toggle_mark(struct tui *t, const struct catalog_accel *a)
{
	struct tui_silicon_state *S = &t->silicon;
	for (int i = 0; i < S->n_marked; i++)
		if (S->marked[i] == a) {
			memmove(&S->marked[i], &S->marked[i + 1],
				(size_t)(S->n_marked - i - 1) * sizeof S->marked[0]);
			S->n_marked--;
			tui_status(t, false, "Unmarked %s.", a->name);
			return TUI_HANDLED;
		}
	if (S->n_marked >= TUI_MAX_MARKED) {
		tui_status(t, true, "Up to %d accelerators can be compared; unmark one first (%s).",
			   TUI_MAX_MARKED, tui_key(ACT_MARK));
		return TUI_HANDLED;
	}
	S->marked[S->n_marked++] = a;
	tui_status(t, false, "Marked %s (%d of %d); %s compares.", a->name, S->n_marked, TUI_MAX_MARKED,
		   tui_key(ACT_COMPARE));
	return TUI_HANDLED;
}

static int key(struct tui *t, enum tui_action a, int ch)
{
	(void)ch;
	int n = (int)t->rep.n;
	struct tui_silicon_state *S = &t->silicon;
	int f = S->table.focus;
	switch (a) {
	case ACT_MARK:
		if (f >= 0 && f < n) {
			/* the cursor stays: Space again unmarks what was marked */
			return toggle_mark(t, t->rep.results[f].accel);
		}
		return TUI_HANDLED;
	case ACT_COMPARE:
		if (S->n_marked < 2) {
			tui_status(t, true, "Mark two or three accelerators with %s first.", tui_key(ACT_MARK));
			return TUI_HANDLED;
		}
		tui_open_overlay(t, &tui_compare_view);
		return TUI_HANDLED;
	case ACT_CHART:
		tui_open_overlay(t, &tui_chart_view);
		return TUI_HANDLED;
	default:
		return tui_table_key(t, a, &S->table, n);
	}
}

/* Entering the ranking puts the cursor on the accelerator in use. */
static void enter(struct tui *t)
{
	tui_table_focus_chosen(t, &t->silicon.table);
}

/* Until the user chooses, steps 4 and 5 follow the top-ranked one. */
static bool missing(const struct tui *t)
{
	return !t->sc.w.accel;
}

const struct tui_step tui_step3 = {
	.name = "Silicon",
	.draw = draw,
	.key = key,
	.enter = enter,
	.missing = missing,
};
