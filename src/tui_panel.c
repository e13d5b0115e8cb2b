/*
 * tui_panel: the live side panel.  For every accelerator in the report (in
 * ranked order, scrollable, the chosen one highlighted): memory fit,
 * memory bandwidth and interconnect as bars with the percentage and the
 * absolute figures, coloured fits / tight / over with a different glyph for
 * each state, and the binding resource marked.  Wide terminals get four
 * lines per accelerator on the right; narrow ones one line each below the
 * form.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui.h"

static int lines_per_accel(bool compact)
{
	return compact ? 1 : 4;
}

/* state glyph (and the binding marker) after a bar */
static int state_marks(struct tui *t, WINDOW *win, int y, int x, int maxw, double pct, bool binding)
{
	enum tui_state st = tui_state_of(t, pct);
	int used = tui_put(t, win, y, x, maxw, tui_state_role(st), tui_glyph(t, tui_state_glyph(st)));
	if (binding && used < maxw)
		used += tui_put(t, win, y, x + used, maxw - used, ROLE_binding, tui_glyph(t, GLYPH_binding));
	return used;
}

static const char *short_resource(enum resource r)
{
	switch (r) {
	case RES_MEMORY: return "memory";
	case RES_BANDWIDTH: return "bandwidth";
	case RES_INTERCONNECT: return "interconnect";
	case RES_COMPUTE: return "compute";
	case RES_PRECISION: return "precision";
	default: return "";
	}
}

/* The name takes at most text_w of the cell's w columns: the rest of the
 * row belongs to what is drawn at its right (the GPU count), which a long
 * name ("NVIDIA RTX PRO 6000 Blackwell Server Edition") must not run into. */
static void name_cell(struct tui *t, WINDOW *win, int y, int x, int w, int text_w,
		      const struct engine_result *r, bool chosen, bool compact)
{
	enum theme_role nr = r->filtered || !r->fits ? ROLE_muted : ROLE_value;
	if (chosen) {
		tui_fill(t, win, y, x, w, ROLE_selection);
		nr = ROLE_selection;
	}
	tui_put(t, win, y, x, 1, nr, chosen ? tui_glyph(t, GLYPH_chosen) : " ");
	tui_put(t, win, y, x + 1, 1, ROLE_selection, tui_is_marked(t, r->accel) ? tui_glyph(t, GLYPH_marked) : " ");
	tui_put(t, win, y, x + 2, text_w - 2, nr, compact ? tui_accel_short(r->accel) : tui_accel_name(r->accel));
}

/* Several workloads: this one's GPUs and the sum the cluster of that
 * accelerator holds for them all ("2 GPUs, 8 in all"). */
static void gpus_text(const struct tui *t, const struct engine_result *r, char *buf, size_t n)
{
	const struct engine_cluster *cl = tui_wl_cluster(t, r->accel);
	if (r->filtered)
		snprintf(buf, n, "filtered");
	else if (!r->fits)
		snprintf(buf, n, "no fit");
	else if (cl && cl->fits)
		snprintf(buf, n, "%d GPU%s, %d in all", r->gpus, r->gpus == 1 ? "" : "s", cl->total.gpus);
	else if (cl)
		snprintf(buf, n, "%d GPU%s, all: no fit", r->gpus, r->gpus == 1 ? "" : "s");
	else
		snprintf(buf, n, "%d GPU%s", r->gpus, r->gpus == 1 ? "" : "s");
}

static void draw_full(struct tui *t, WINDOW *win, int y, int w, const struct engine_result *r,
		      bool chosen)
{
	char g[32];
	gpus_text(t, r, g, sizeof g);
	int gw = tui_width(g);
	name_cell(t, win, y, 0, w, w - gw - 2, r, chosen, false);
	tui_put(t, win, y, w - gw - 1, gw, chosen ? ROLE_selection : r->fits && !r->filtered ? ROLE_value : ROLE_muted, g);
	if (r->filtered || !r->fits) {
		char rb[ENGINE_REASON_MAX];
		const char *why = engine_result_why(r, rb, sizeof rb);
		/* the reason over the next lines, wrapped at spaces */
		int len = (int)strlen(why), pos = 0;
		for (int line = 1; line < 4 && pos < len; line++) {
			int take = len - pos;
			if (take > w - 3) {
				take = w - 3;
				while (take > 10 && why[pos + take] != ' ')
					take--;
			}
			char part[256];
			snprintf(part, sizeof part, "%.*s", take, why + pos);
			tui_put(t, win, y + line, 2, w - 3, ROLE_muted, part);
			pos += take;
			while (why[pos] == ' ')
				pos++;
		}
		return;
	}
	if (r->binding == RES_COMPUTE || r->binding == RES_PRECISION) {
		char b[48];
		snprintf(b, sizeof b, "%s %s", tui_glyph(t, GLYPH_binding), short_resource(r->binding));
		int bw = tui_width(b);
		int at = w - gw - 2 - bw;
		if (at > tui_width(tui_accel_name(r->accel)) + 3)
			tui_put(t, win, y, at, bw, chosen ? ROLE_selection : ROLE_binding, b);
	}

	/* "mem  [bar]  88%  141/160 GB ✓◆" */
	char abs_mem[48], abs_bw[48], abs_link[48], a[24], b[24];
	int gpus = r->gpus > 0 ? r->gpus : 1;
	snprintf(abs_mem, sizeof abs_mem, "%s/%s GB", tui_fmt_gb(a, sizeof a, r->mem_required_gb),
		 tui_fmt_gb(b, sizeof b, r->mem_avail_per_gpu_gb * gpus));
	if (tui_width(abs_mem) > 16)	/* a big cluster: TB, so the unit stays */
		snprintf(abs_mem, sizeof abs_mem, "%s/%s TB",
			 tui_fmt_num(a, sizeof a, r->mem_required_gb / 1000, 1),
			 tui_fmt_num(b, sizeof b, r->mem_avail_per_gpu_gb * gpus / 1000, 1));
	snprintf(abs_bw, sizeof abs_bw, "of %.1f TB/s", r->accel->mem_bw_tb_s * gpus);
	if (tui_width(abs_bw) > 16)
		snprintf(abs_bw, sizeof abs_bw, "of %.1f PB/s", r->accel->mem_bw_tb_s * gpus / 1000);
	if (gpus > 1)
		snprintf(abs_link, sizeof abs_link, "of %.0f GB/s", r->accel->link_gb_s);
	else
		snprintf(abs_link, sizeof abs_link, "1 GPU: none");
	struct { const char *label; double pct; const char *abs; bool bind; } rows[3] = {
		{ "mem", r->mem_util_pct, abs_mem, r->binding == RES_MEMORY },
		{ "bw", r->bw_util_pct, abs_bw, r->binding == RES_BANDWIDTH },
		{ "link", r->link_util_pct, abs_link, r->binding == RES_INTERCONNECT },
	};
	int abs_w = 16;
	int bar_w = w - 2 - 5 - 1 - 5 - 1 - abs_w - 1 - 2;
	if (bar_w < 4) {
		abs_w = 0;
		bar_w = w - 2 - 5 - 1 - 5 - 1 - 2;
	}
	for (int i = 0; i < 3; i++) {
		int yy = y + 1 + i, x = 2;
		char p[16];
		tui_put(t, win, yy, x, 5, rows[i].bind ? ROLE_binding : ROLE_field, rows[i].label);
		x += 5;
		bool none = i == 2 && gpus == 1 && !(rows[i].pct > 0);
		if (none) {
			tui_bar(t, win, yy, x, bar_w, 0);
		} else {
			tui_bar(t, win, yy, x, bar_w, rows[i].pct);
		}
		x += bar_w + 1;
		tui_put_right(t, win, yy, x, 5, ROLE_value, tui_fmt_pct(p, sizeof p, rows[i].pct));
		x += 6;
		if (abs_w) {
			tui_put(t, win, yy, x, abs_w, ROLE_unit, rows[i].abs);
			x += abs_w + 1;
		}
		state_marks(t, win, yy, x, w - x, rows[i].pct, rows[i].bind);
	}
}

static void draw_compact(struct tui *t, WINDOW *win, int y, int w, const struct engine_result *r,
			 bool chosen)
{
	int name_w = w >= 100 ? 22 : 17;
	name_cell(t, win, y, 0, name_w, name_w, r, chosen, true);
	int x = name_w + 1;
	if (r->filtered || !r->fits) {
		char why[256], rb[ENGINE_REASON_MAX];
		snprintf(why, sizeof why, "%s: %s", r->filtered ? "filtered" : "no fit",
			 engine_result_why(r, rb, sizeof rb));
		tui_put(t, win, y, x, w - x, ROLE_muted, why);
		return;
	}
	char g[16], fit[16];
	const struct engine_cluster *cl = tui_wl_cluster(t, r->accel);
	snprintf(g, sizeof g, "%d", r->gpus);
	if (cl && cl->fits && snprintf(fit, sizeof fit, "%d/%d", r->gpus, cl->total.gpus) <= 5)
		snprintf(g, sizeof g, "%s", fit);	/* this workload's of the cluster's */
	/* five columns hold every GPU count the engine sizes (ENG_MAX_GPUS) */
	tui_put_right(t, win, y, x, 5, chosen ? ROLE_selection : ROLE_value,
		      tui_fmt_fit(fit, sizeof fit, 5, g, r->gpus, ""));
	x += 6;
	struct { const char *label; double pct; bool bind; } rows[3] = {
		{ "mem", r->mem_util_pct, r->binding == RES_MEMORY },
		{ "bw", r->bw_util_pct, r->binding == RES_BANDWIDTH },
		{ "link", r->link_util_pct, r->binding == RES_INTERCONNECT },
	};
	int group = (w - x) / 3;
	int bar_w = group - 5 - 5 - 3;
	if (bar_w < 2)
		bar_w = 2;
	for (int i = 0; i < 3; i++) {
		char p[16];
		int gx = x + i * group;
		tui_put(t, win, y, gx, 5, rows[i].bind ? ROLE_binding : ROLE_field, rows[i].label);
		tui_bar(t, win, y, gx + 5, bar_w, rows[i].pct);
		tui_put_right(t, win, y, gx + 5 + bar_w, 5, ROLE_value, tui_fmt_pct(p, sizeof p, rows[i].pct));
		state_marks(t, win, y, gx + 5 + bar_w + 5, 2, rows[i].pct, rows[i].bind);
	}
	if (r->binding == RES_COMPUTE || r->binding == RES_PRECISION)
		tui_put(t, win, y, w - 1, 1, ROLE_binding, tui_glyph(t, GLYPH_binding));
}

void tui_panel_draw(struct tui *t, WINDOW *win, int h, int w, bool compact)
{
	const struct engine_result *chosen = tui_chosen(t);
	int per = lines_per_accel(compact);
	int y0 = 0;
	if (!compact) {
		/* a header with the legend, so the glyphs explain themselves */
		tui_put(t, win, 0, 1, w - 1, ROLE_header, tui_wl_multi(t) ? "Fit of this workload"
									  : "Fit per accelerator");
		char legend[96];
		snprintf(legend, sizeof legend, "%sfits %stight %sover %sbinding",
			 tui_glyph(t, GLYPH_fits), tui_glyph(t, GLYPH_tight), tui_glyph(t, GLYPH_over),
			 tui_glyph(t, GLYPH_binding));
		int lw = tui_width(legend);
		if (w - lw - 1 > 21)
			tui_put(t, win, 0, w - lw - 1, lw, ROLE_muted, legend);
		y0 = 1;
	}
	int visible = (h - y0) / per;
	if (visible < 1)
		visible = 1;
	int n = (int)t->rep.n;
	struct tui_list *l = &t->panel.list;
	if (t->panel.follow && chosen) {
		/* just chosen: bring it into view, then leave scrolling to the user */
		l->focus = (int)(chosen - t->rep.results);
		tui_list_clamp(l, n, visible);
		t->panel.follow = false;
	} else {
		tui_list_clamp_top(l, n, visible);
	}
	for (int i = l->top, y = y0; i < n && y + per <= h; i++, y += per) {
		const struct engine_result *r = &t->rep.results[i];
		if (compact)
			draw_compact(t, win, y, w, r, r == chosen);
		else
			draw_full(t, win, y, w, r, r == chosen);
	}
	/* more above / below */
	tui_list_marks(t, win, l, visible, n, y0, h - 1, w - 1);
}
