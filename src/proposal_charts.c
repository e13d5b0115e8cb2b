/*
 * proposal_charts: the proposal's style sheet and its two charts, the
 * fit bars (memory, bandwidth and link use of each configuration, the
 * panel's bars of the wizard) and the throughput / latency trade-off of
 * the recommended accelerator.  HTML gets inline SVG (no script, no
 * external file); Markdown a table of the same figures.  Every label that
 * comes from the catalog goes through the writer's escaping.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "out.h"
#include "proposal_internal.h"

/* Print: two A4 or Letter pages (the page size is the printer's; the
 * margins fit both), the second starting at the validation plan. */
const char proposal_css[] =
	"@page { margin: 8mm; }\n"
	"body { font: 8pt/1.22 \"Helvetica Neue\", Arial, sans-serif; color: #1a1a1a;\n"
	"  max-width: 186mm; margin: 8mm auto; padding: 0 4mm; }\n"
	"h1 { font-size: 15pt; margin: 0 0 1.5mm; color: #1d3f73; }\n"
	"h2 { font-size: 9pt; margin: 2mm 0 0.8mm; color: #1d3f73;\n"
	"  border-bottom: 0.4mm solid #1d3f73; }\n"
	"p { margin: 1mm 0; }\n"
	"ul { margin: 1mm 0; padding-left: 5mm; }\n"
	"table { border-collapse: collapse; width: 100%; margin: 1mm 0 1.5mm; }\n"
	"th, td { text-align: left; padding: 0.3mm 1.5mm; border-bottom: 0.2mm solid #ccc;\n"
	"  vertical-align: top; overflow-wrap: anywhere; }\n"
	"thead th { background: #e8eef7; }\n"
	"tbody th { font-weight: normal; color: #444; white-space: nowrap; }\n"
	".num { text-align: right; font-variant-numeric: tabular-nums; }\n"
	"tr.total td { font-weight: bold; border-top: 0.4mm solid #333; }\n"
	"table.meta { width: auto; }\n"
	"table.meta th { padding-right: 5mm; color: #444; font-weight: normal; }\n"
	/* the plan's rows at one size, a fixed share each column: the
	 * benchmark cell (a tbody th) may wrap, so the notes keep their width */
	"table.plan { table-layout: fixed; margin: 0.3mm 0 0.8mm; }\n"
	"table.plan td, table.plan tbody th { font-size: 6pt; line-height: 1.1;\n"
	"  white-space: normal; }\n"
	"table.plan th, table.plan td { padding: 0 1mm; }\n"
	"table.plan thead th:nth-child(1) { width: 27%; }\n"
	"table.plan thead th:nth-child(2) { width: 12%; }\n"
	"table.plan thead th:nth-child(3), table.plan thead th:nth-child(4) { width: 9%; }\n"
	"section#validation p { margin: 0.5mm 0; }\n"
	".pair td, .pair th { font-size: 6.5pt; line-height: 1.1; padding: 0 1mm; }\n"
	"ul.sources { padding-left: 3mm; font-size: 6pt;\n"
	"  column-count: 3; column-gap: 4mm; line-height: 1.1; margin: 0.5mm 0; }\n"
	"table.elevation td, table.elevation th { font-size: 7pt; line-height: 1.15; }\n"
	/* the side-by-side table: long accelerator and server names wrap in
	 * three columns, so its rows are a size below the body's */
	"table.configs td, table.configs th { font-size: 7.5pt; line-height: 1.15; }\n"
	"ul.sources li { overflow-wrap: anywhere; }\n"
	".pair { display: flex; gap: 4mm; align-items: flex-start; }\n"
	".pair > section { flex: 1 1 0; }\n"
	".pair > .stack { flex: 1 1 0; }\n"
	".stack > section + section h2 { margin-top: 1.5mm; }\n"
	"section#rent p { font-size: 7pt; line-height: 1.2; }\n"
	".pair > section#bom { flex: 0 0 38%; }\n"
	"section { page-break-inside: avoid; break-inside: avoid; }\n"
	"h2 { page-break-after: avoid; break-after: avoid; }\n"
	"tr { page-break-inside: avoid; break-inside: avoid; }\n"
	"section#assumptions { page-break-inside: auto; break-inside: auto; }\n"
	".page2 { page-break-before: always; break-before: page; }\n"
	".charts { display: flex; gap: 4mm; align-items: flex-start; }\n"
	"figure { flex: 1 1 0; max-width: 50%; margin: 1mm 0; }\n"
	"figcaption { font-size: 7.5pt; color: #555; }\n"
	"svg { display: block; width: 100%; height: auto; max-height: 43mm; }\n"
	"svg text { font: 9px Arial, sans-serif; fill: #1a1a1a; }\n"
	"footer { margin-top: 1mm; padding-top: 0.5mm; border-top: 0.2mm solid #ccc;\n"
	"  font-size: 6.5pt; color: #555; }\n"
	"@media print { body { margin: 0; padding: 0; max-width: none; } }\n";

/* ---- fit bars ---- */

enum fit_state { FIT_FITS, FIT_TIGHT, FIT_OVER };

/* The wizard's rule (tui_state_of): over past 100%, tight past the
 * catalog's tight_fraction. */
static enum fit_state state_of(const struct proposal *p, double pct)
{
	if (!(pct <= 100.0))
		return FIT_OVER;
	return pct > p->c->defaults.tight_fraction.value * 100.0 ? FIT_TIGHT : FIT_FITS;
}

static const char *const state_word[] = { "fits", "tight", "over" };
static const char *const state_colour[] = { "#3a7d44", "#c98a00", "#b83227" };

struct bar {
	const char *label;
	double pct;
	bool binding;
};

static void bars_of(const struct engine_result *r, struct bar out[3])
{
	out[0] = (struct bar){ "memory", r->mem_util_pct, r->binding == RES_MEMORY };
	out[1] = (struct bar){ "bandwidth", r->bw_util_pct, r->binding == RES_BANDWIDTH };
	out[2] = (struct bar){ "link", r->link_util_pct, r->binding == RES_INTERCONNECT };
}

static size_t configs_of(const struct proposal *p, const struct engine_result **col)
{
	size_t n = 0;
	col[n++] = p->rec;
	for (size_t i = 0; i < p->n_alt; i++)
		col[n++] = p->alt[i];
	return n;
}

#define BAR_W 360
#define BAR_X 70
#define BAR_LEN 200
#define BAR_ROW 13

static void svg_bar(struct pw *w, const struct proposal *p, const struct bar *b, int y)
{
	double pct = isfinite(b->pct) ? b->pct : 0;
	double shown = pct < 0 ? 0 : pct > 100 ? 100 : pct;
	enum fit_state st = state_of(p, b->pct);
	pw_rawf(w, "<text x=\"%d\" y=\"%d\"%s>%s</text>\n", BAR_X - 4, y + 9,
		" text-anchor=\"end\"", b->label);
	pw_rawf(w, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"10\" fill=\"#e4e4e4\"/>\n", BAR_X, y,
		BAR_LEN);
	pw_rawf(w, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"10\" fill=\"%s\"/>\n", BAR_X, y,
		shown / 100.0 * BAR_LEN, state_colour[st]);
	pw_rawf(w, "<text x=\"%d\" y=\"%d\">%.0f%% %s%s</text>\n", BAR_X + BAR_LEN + 4, y + 9, pct,
		state_word[st], b->binding ? ", binds" : "");
}

static void fit_bars_svg(struct pw *w, const struct proposal *p, const struct engine_result **col,
			 size_t n)
{
	int h = (int)n * (4 * BAR_ROW + 4);
	pw_rawf(w, "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" aria-label=\"fit bars\">\n", BAR_W, h);
	int y = 0;
	for (size_t k = 0; k < n; k++) {
		struct bar b[3];
		bars_of(col[k], b);
		pw_rawf(w, "<text x=\"0\" y=\"%d\" font-weight=\"bold\">", y + 10);
		pw_textf(w, "%s: %d x %s", k ? "Alternative" : "Recommended", col[k]->gpus, col[k]->accel->name);
		pw_raw(w, "</text>\n");
		y += BAR_ROW;
		for (int i = 0; i < 3; i++, y += BAR_ROW)
			svg_bar(w, p, &b[i], y);
		y += 4;
	}
	pw_raw(w, "</svg>\n<figcaption>");
	pw_textf(w, "Share of each GPU's memory, memory bandwidth and link in use; tight above %.0f%%.",
		 p->c->defaults.tight_fraction.value * 100);
	pw_raw(w, "</figcaption>\n</figure>\n");
}

static void fit_bars_md(struct pw *w, const struct proposal *p, const struct engine_result **col,
			size_t n)
{
	static const char *const head[] = { "Configuration", "Memory", "Bandwidth", "Link" };
	static const char align[] = "lrrr";
	pw_table(w, "fit", align, head, 4);
	for (size_t k = 0; k < n; k++) {
		struct bar b[3];
		char name[160], v[3][48];
		bars_of(col[k], b);
		snprintf(name, sizeof name, "%d x %s", col[k]->gpus, col[k]->accel->name);
		for (int i = 0; i < 3; i++)
			snprintf(v[i], sizeof v[i], "%.0f%% %s%s", isfinite(b[i].pct) ? b[i].pct : 0,
				 state_word[state_of(p, b[i].pct)], b[i].binding ? ", binds" : "");
		const char *cells[] = { name, v[0], v[1], v[2] };
		pw_row(w, align, cells, 4, false);
	}
	pw_table_end(w);
}

void proposal_fit_bars(struct pw *w, const struct proposal *p)
{
	const struct engine_result *col[1 + PROPOSAL_ALTERNATIVES];
	size_t n = configs_of(p, col);
	if (w->f == PROPOSAL_HTML) {
		fit_bars_svg(w, p, col, n);
	} else {
		pw_para_begin(w);
		pw_strong(w, "Fit: share of each GPU's memory, bandwidth and link in use");
		pw_para_end(w);
		fit_bars_md(w, p, col, n);
	}
}

/* ---- throughput / latency trade-off ---- */

#define TR_W 300
#define TR_H 160
#define TR_L 44
#define TR_B 28
#define TR_T 8
#define TR_R 10

/* A round upper end for an axis: 1, 2 or 5 times a power of ten. */
static double nice_max(double v)
{
	if (!(v > 0))
		return 1;
	double e = pow(10, floor(log10(v)));
	for (int i = 0; i < 3; i++) {
		double m = (double[]){ 1, 2, 5 }[i] * e;
		if (v <= m)
			return m;
	}
	return 10 * e;
}

struct axes {
	double xmax, ymax;
};

static double px(const struct axes *a, double x)
{
	return TR_L + x / a->xmax * (TR_W - TR_L - TR_R);
}

static double py(const struct axes *a, double y)
{
	return TR_H - TR_B - y / a->ymax * (TR_H - TR_B - TR_T);
}

static void tradeoff_axes(struct pw *w, const struct axes *a)
{
	pw_rawf(w, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", TR_L, TR_T, TR_L,
		TR_H - TR_B);
	pw_rawf(w, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", TR_L, TR_H - TR_B,
		TR_W - TR_R, TR_H - TR_B);
	for (int i = 0; i <= 4; i++) {
		char xs[32], ys[32];
		out_grouped(a->xmax * i / 4, a->xmax >= 10 ? 0 : 1, xs, sizeof xs);
		out_grouped(a->ymax * i / 4, a->ymax >= 10 ? 0 : 1, ys, sizeof ys);
		pw_rawf(w, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			px(a, a->xmax * i / 4), TR_H - TR_B + 11, xs);
		pw_rawf(w, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", TR_L - 3,
			py(a, a->ymax * i / 4) + 3, ys);
	}
	pw_rawf(w, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">tokens/s per user</text>\n",
		(TR_L + TR_W - TR_R) / 2, TR_H - 4);
	pw_rawf(w, "<text x=\"10\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 10 %d)\">"
		"tokens/s per GPU</text>\n", (TR_T + TR_H - TR_B) / 2, (TR_T + TR_H - TR_B) / 2);
}

/* One point of the curve: filled when it meets the workload's targets. */
static void curve_point(struct pw *w, const struct axes *a, const struct engine_curve_point *pt)
{
	double x = px(a, pt->tokens_per_s_per_user), y = py(a, pt->tokens_per_s_per_gpu);
	pw_rawf(w, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\" stroke=\"#1d3f73\"/>\n"
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"7\">%ld</text>\n", x, y,
		pt->meets_targets ? "#1d3f73" : "#ffffff", x + 3, y - 3, pt->batch);
}

static void tradeoff_svg(struct pw *w, const struct proposal *p, const struct axes *a)
{
	const struct engine_curve *cv = &p->curve;
	pw_rawf(w, "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" aria-label=\"throughput and latency\">\n", TR_W, TR_H);
	tradeoff_axes(w, a);
	double target = cv->target_tokens_per_s_per_user;
	if (target > 0 && target <= a->xmax)
		pw_rawf(w, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#b83227\" "
			"stroke-dasharray=\"3 2\"/>\n<text x=\"%.1f\" y=\"%d\">target</text>\n",
			px(a, target), TR_T, px(a, target), TR_H - TR_B, px(a, target) + 2, TR_T + 8);
	pw_raw(w, "<polyline fill=\"none\" stroke=\"#1d3f73\" stroke-width=\"1.5\" points=\"");
	for (size_t i = 0; i < cv->n; i++)
		pw_rawf(w, "%s%.1f,%.1f", i ? " " : "", px(a, cv->pts[i].tokens_per_s_per_user),
			py(a, cv->pts[i].tokens_per_s_per_gpu));
	pw_raw(w, "\"/>\n");
	for (size_t i = 0; i < cv->n; i++)
		curve_point(w, a, &cv->pts[i]);
	pw_rawf(w, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"none\" stroke=\"#b83227\" "
		"stroke-width=\"1.5\"/>\n", px(a, cv->op.tokens_per_s_per_user),
		py(a, cv->op.tokens_per_s_per_gpu));
	pw_raw(w, "</svg>\n<figcaption>");
	pw_textf(w, "Throughput against each user's speed on %s as the batch grows (numbers: sequences "
		 "per replica; filled: meets your targets); the ring is the recommended operating point, "
		 "batch %ld.", p->rec->accel->name, cv->op.batch);
	pw_raw(w, "</figcaption>\n</figure>\n");
}

static void tradeoff_md(struct pw *w, const struct proposal *p)
{
	static const char *const head[] = { "Batch", "Tokens/s per user", "Tokens/s per GPU",
					    "Meets your targets" };
	static const char align[] = "rrrl";
	const struct engine_curve *cv = &p->curve;
	pw_para_begin(w);
	pw_strong(w, "Throughput against latency");
	pw_textf(w, " on %s as the batch grows (the recommended point: batch %ld)", p->rec->accel->name,
		 cv->op.batch);
	pw_para_end(w);
	pw_table(w, "tradeoff", align, head, 4);
	for (size_t i = 0; i < cv->n; i++) {
		char b[24], u[32], g[32];
		snprintf(b, sizeof b, "%ld", cv->pts[i].batch);
		pw_num(cv->pts[i].tokens_per_s_per_user, u, sizeof u);
		pw_num(cv->pts[i].tokens_per_s_per_gpu, g, sizeof g);
		const char *cells[] = { b, u, g, cv->pts[i].meets_targets ? "yes" : "no" };
		pw_row(w, align, cells, 4, false);
	}
	pw_table_end(w);
}

void proposal_tradeoff(struct pw *w, const struct proposal *p)
{
	if (p->curve.n < 2)
		return;
	struct axes a = { 0, 0 };
	for (size_t i = 0; i < p->curve.n; i++) {
		a.xmax = fmax(a.xmax, p->curve.pts[i].tokens_per_s_per_user);
		a.ymax = fmax(a.ymax, p->curve.pts[i].tokens_per_s_per_gpu);
	}
	a.xmax = nice_max(fmax(a.xmax, p->curve.target_tokens_per_s_per_user));
	a.ymax = nice_max(a.ymax);
	if (w->f == PROPOSAL_HTML)
		tradeoff_svg(w, p, &a);
	else
		tradeoff_md(w, p);
}
