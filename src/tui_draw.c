/*
 * tui_draw: what every screen draws with: theme roles mapped onto colour
 * pairs, the glyph table chosen once (UTF-8 or ASCII), text clipped to a
 * width, state bars and the number formats.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "prices.h"
#include "tui.h"

/* ---- colours ---- */

static attr_t theme_attrs(unsigned a)
{
	attr_t r = A_NORMAL;
	if (a & THEME_BOLD)
		r |= A_BOLD;
	if (a & THEME_REVERSE)
		r |= A_REVERSE;
	if (a & THEME_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & THEME_DIM)
		r |= A_DIM;
	return r;
}

/* A theme colour the terminal cannot show: bright colours fall back to the
 * base colour made bold (what 8-colour terminals do themselves), 256-colour
 * indexes to the terminal default. */
static short fit_colour(short c, attr_t *extra, bool fg)
{
	if (c < 0 || c < COLORS)
		return c;
	if (c < 16) {
		if (fg)
			*extra |= A_BOLD;
		return (short)(c - 8);
	}
	return -1;
}

void tui_colours_init(struct tui *t)
{
	t->colour = t->theme.uses_colour && has_colors();
	if (t->colour) {
		start_color();
		use_default_colors();
		if (COLORS < 8 || COLOR_PAIRS <= ROLE_COUNT)
			t->colour = false;
	}
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct theme_style *st = &t->theme.role[r];
		attr_t a = theme_attrs(st->attrs);
		if (t->colour) {
			short fg = fit_colour(st->fg, &a, true);
			short bg = fit_colour(st->bg, &a, false);
			init_pair((short)(r + 1), fg, bg);
			a |= COLOR_PAIR(r + 1);
		}
		t->role_attr[r] = a;
	}
}

attr_t tui_role(const struct tui *t, enum theme_role r)
{
	return (unsigned)r < ROLE_COUNT ? t->role_attr[r] : A_NORMAL;
}

const char *tui_glyph(const struct tui *t, enum theme_glyph g)
{
	if ((unsigned)g >= GLYPH_COUNT)
		return "?";
	return t->utf8 ? t->theme.utf8[g] : t->theme.ascii[g];
}

/* ---- text ---- */

/* Length in bytes of the UTF-8 sequence starting with c (1 for bad bytes,
 * so a stray byte never swallows what follows). */
static int u8len(unsigned char c)
{
	if (c < 0xc0)
		return 1;
	if (c < 0xe0)
		return 2;
	if (c < 0xf0)
		return 3;
	return 4;
}

static unsigned u8decode(const char *s, int len)
{
	const unsigned char *u = (const unsigned char *)s;
	switch (len) {
	case 2: return ((u[0] & 0x1fu) << 6) | (u[1] & 0x3fu);
	case 3: return ((u[0] & 0x0fu) << 12) | ((u[1] & 0x3fu) << 6) | (u[2] & 0x3fu);
	case 4: return ((u[0] & 0x07u) << 18) | ((u[1] & 0x3fu) << 12) | ((u[2] & 0x3fu) << 6) | (u[3] & 0x3fu);
	default: return u[0];
	}
}

/* Is the l-byte sequence at s well-formed UTF-8 (no overlong form, no
 * surrogate, at most U+10FFFF)? */
static bool u8valid(const char *s, int l)
{
	const unsigned char *u = (const unsigned char *)s;
	for (int i = 1; i < l; i++)
		if ((u[i] & 0xc0) != 0x80)
			return false;
	unsigned cp = u8decode(s, l);
	static const unsigned min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	return l >= 2 && l <= 4 && cp >= min[l] && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
}

/* What an ASCII terminal shows for the few non-ASCII characters catalog
 * names and engine reasons use. */
static const char *ascii_for(unsigned cp)
{
	switch (cp) {
	case 0x00d7: return "x";	/* × */
	case 0x2014: case 0x2013: case 0x2212: return "-";
	case 0x2026: return "...";
	case 0x2248: return "~";
	case 0x2264: return "<=";
	case 0x2265: return ">=";
	case 0x00b5: case 0x03bc: return "u";
	case 0x00b0: return "deg";
	case 0x203a: case 0x2192: return ">";
	case 0x2039: case 0x2190: return "<";
	case 0x00b7: case 0x2022: return ".";
	case 0x2018: case 0x2019: return "'";
	case 0x201c: case 0x201d: return "\"";
	case 0x00a0: return " ";
	case 0x2713: return "+";
	case 0x2717: return "x";
	case 0x25c6: return "*";
	default: return "?";
	}
}

int tui_width(const char *s)
{
	int w = 0;
	for (const char *p = s; *p; p += u8len((unsigned char)*p)) {
		int l = u8len((unsigned char)*p);
		for (int i = 1; i < l; i++)
			if (!p[i])
				return w + 1;
		w++;
	}
	return w;
}

int tui_put(struct tui *t, WINDOW *win, int y, int x, int maxw, enum theme_role r, const char *s)
{
	int maxy, maxx;
	getmaxyx(win, maxy, maxx);
	if (!s || y < 0 || y >= maxy || x < 0 || x >= maxx || maxw <= 0)
		return 0;
	if (maxw > maxx - x)
		maxw = maxx - x;
	attr_t a = tui_role(t, r);
	wattrset(win, (int)a);
	wmove(win, y, x);
	/* The characters are decoded here and handed to ncurses as one wide
	 * string: the same cells as adding them one by one, at a third of the
	 * cost (a redraw after every key puts a few thousand of them). */
	wchar_t wbuf[256];
	int used = 0, nw = 0;
	for (const char *p = s; *p && used < maxw;) {
		unsigned char c = (unsigned char)*p;
		int l = u8len(c);
		bool whole = true;
		for (int i = 1; i < l; i++)
			if (!p[i])
				whole = false;
		if (!whole)
			break;
		if (nw > (int)(sizeof wbuf / sizeof wbuf[0]) - 4) {
			waddnwstr(win, wbuf, nw);
			nw = 0;
		}
		if (c < 0x20 || c == 0x7f) {
			wbuf[nw++] = L' ';	/* never let a control byte move the cursor */
			used++;
		} else if (c < 0x80) {
			wbuf[nw++] = (wchar_t)c;
			used++;
		} else if (t->utf8 && u8valid(p, l)) {
			wbuf[nw++] = (wchar_t)u8decode(p, l);
			used++;
		} else if (l == 1 || t->utf8) {
			/* not UTF-8: ncurses decides, as it always did */
			if (nw)
				waddnwstr(win, wbuf, nw);
			nw = 0;
			if (l == 1)
				waddch(win, c);
			else
				waddnstr(win, p, l);
			used++;
		} else {
			const char *a2 = ascii_for(u8decode(p, l));
			for (; *a2 && used < maxw; a2++, used++)
				wbuf[nw++] = (wchar_t)(unsigned char)*a2;
		}
		p += l;
	}
	if (nw)
		waddnwstr(win, wbuf, nw);
	wattrset(win, A_NORMAL);
	return used;
}

int tui_put_right(struct tui *t, WINDOW *win, int y, int x, int w, enum theme_role r, const char *s)
{
	int sw = tui_width(s);
	if (sw > w)
		sw = w;
	return tui_put(t, win, y, x + w - sw, sw, r, s);
}

void tui_fill(struct tui *t, WINDOW *win, int y, int x, int n, enum theme_role r)
{
	int maxy, maxx;
	getmaxyx(win, maxy, maxx);
	if (y < 0 || y >= maxy || x < 0)
		return;
	attr_t a = tui_role(t, r);
	wattrset(win, (int)a);
	/* one call for the run: the same cells as a space at a time */
	int cnt = n < maxx - x ? n : maxx - x;
	if (cnt > 0)
		mvwhline(win, y, x, ' ' | a, cnt);
	wattrset(win, A_NORMAL);
}

void tui_hline(struct tui *t, WINDOW *win, int y, int x, int n, enum theme_role r)
{
	const char *h = tui_glyph(t, GLYPH_hline);
	int maxy, maxx;
	getmaxyx(win, maxy, maxx);
	if (y < 0 || y >= maxy)
		return;
	for (int i = 0; i < n && x + i < maxx; i++)
		tui_put(t, win, y, x + i, 1, r, h);
}

/* ---- states and bars ---- */

enum tui_state tui_state_of(const struct tui *t, double pct)
{
	double tight = t->cat->defaults.tight_fraction.value * 100.0;
	if (!(pct <= 100.0))	/* NAN counts as over: nothing to show */
		return ST_OVER;
	return pct > tight ? ST_TIGHT : ST_FITS;
}

enum theme_role tui_state_role(enum tui_state s)
{
	return s == ST_FITS ? ROLE_bar_fits : s == ST_TIGHT ? ROLE_bar_tight : ROLE_bar_over;
}

enum theme_glyph tui_state_glyph(enum tui_state s)
{
	return s == ST_FITS ? GLYPH_fits : s == ST_TIGHT ? GLYPH_tight : GLYPH_over;
}

void tui_bar(struct tui *t, WINDOW *win, int y, int x, int w, double pct)
{
	/* U+2588 full block down to U+258F one-eighth block: index = eighths */
	static const char *const eighths[8] = {
		"", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589",
	};
	if (w <= 0)
		return;
	enum theme_role r = tui_state_role(tui_state_of(t, pct));
	double p = isfinite(pct) ? pct : 100.0;
	if (p < 0)
		p = 0;
	if (p > 100)
		p = 100;
	int cells8 = (int)lround(p / 100.0 * w * 8);
	int full = cells8 / 8, part = cells8 % 8;
	/* something above zero is never drawn as nothing */
	if (p > 0 && cells8 == 0) {
		if (t->utf8)
			part = 1;
		else
			full = 1;
	}
	int col = 0;
	for (; col < full && col < w; col++)
		tui_put(t, win, y, x + col, 1, r, tui_glyph(t, GLYPH_bar_full));
	if (col < w && part) {
		if (t->utf8)
			tui_put(t, win, y, x + col, 1, r, eighths[part]);
		else if (part >= 4)
			tui_put(t, win, y, x + col, 1, r, tui_glyph(t, GLYPH_bar_full));
		else
			tui_put(t, win, y, x + col, 1, ROLE_muted, tui_glyph(t, GLYPH_bar_empty));
		col++;
	}
	for (; col < w; col++)
		tui_put(t, win, y, x + col, 1, ROLE_muted, tui_glyph(t, GLYPH_bar_empty));
}

/* ---- numbers ---- */

/*
 * Numbers are rounded exactly as `accelsizer recommend` rounds them (its
 * table for people, or its CSV where the table has no such column), so
 * the wizard never shows a figure the command line would not:
 *   tok/s 0 decimals, tok/s per user 1, TTFT ms 0, capex and run cost
 *   whole dollars, kW 1, $/Mtok 3, hours 1, GPU-hours 0, GB 1 (CSV),
 *   $/hour 2 (CSV), percentages 0.
 * Thousands are grouped with ',' like the CLI table, never by locale.
 */
char *tui_fmt_num(char *buf, size_t n, double v, int dec)
{
	if (!isfinite(v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	char raw[64];
	snprintf(raw, sizeof raw, "%.*f", dec, fabs(v));
	char *dot = strchr(raw, '.');
	size_t ilen = dot ? (size_t)(dot - raw) : strlen(raw);
	char out[96];
	size_t o = 0;
	bool zero = strspn(raw, "0.") == strlen(raw);
	if (v < 0 && !zero)
		out[o++] = '-';
	for (size_t i = 0; i < ilen && o + 2 < sizeof out; i++) {
		out[o++] = raw[i];
		size_t left = ilen - i - 1;
		if (left && left % 3 == 0)
			out[o++] = ',';
	}
	if (dot)
		for (const char *p = dot; *p && o + 1 < sizeof out; p++)
			out[o++] = *p;
	out[o] = '\0';
	snprintf(buf, n, "%s", out);
	return buf;
}

/*
 * A figure never loses digits to a narrow column: the full text when it
 * fits in w columns, else the value abbreviated with its order of magnitude
 * (13.2k, $998.1M, 1.2B), one decimal if there is room, none otherwise.
 * prefix ("$" or "") goes before the number.  Returns buf.
 */
char *tui_fmt_fit(char *buf, size_t n, int w, const char *full, double v, const char *prefix)
{
	snprintf(buf, n, "%s", full);
	if (tui_width(buf) <= w || !isfinite(v))
		return buf;
	static const struct { double scale; const char *suffix; } mags[] = {
		{ 1e3, "k" }, { 1e6, "M" }, { 1e9, "B" }, { 1e12, "T" },
	};
	/* the smallest unit that leaves at most four digits before the point */
	for (int dec = 1; dec >= 0; dec--)
		for (size_t i = 0; i < sizeof mags / sizeof mags[0]; i++) {
			double m = v / mags[i].scale;
			if (fabs(m) >= 9999.95 && i + 1 < sizeof mags / sizeof mags[0])
				continue;
			char t[48], g[32];
			snprintf(t, sizeof t, "%s%s%s", prefix, tui_fmt_num(g, sizeof g, m, dec),
				 mags[i].suffix);
			if (tui_width(t) <= w || dec == 0) {
				snprintf(buf, n, "%s", t);
				return buf;
			}
			break;
		}
	return buf;
}

#define DASH(buf, n, v) do { if (!isfinite(v)) { snprintf(buf, n, "-"); return buf; } } while (0)

char *tui_fmt_gb(char *buf, size_t n, double gb)
{
	return tui_fmt_num(buf, n, gb, 1);
}

char *tui_fmt_pct(char *buf, size_t n, double pct)
{
	DASH(buf, n, pct);
	if (pct >= 9999)
		snprintf(buf, n, ">9999%%");
	else
		snprintf(buf, n, "%.0f%%", pct);
	return buf;
}

/* An amount in the price list's currency ("$", "EUR "), grouped, with
 * its decimals; "-" when it is not a number. */
static char *money(char *buf, size_t n, double usd, const char *cur, int decimals)
{
	char g[64], pre[8];
	DASH(buf, n, usd);
	snprintf(buf, n, "%s%s", prices_money_prefix(cur, pre, sizeof pre), tui_fmt_num(g, sizeof g, usd, decimals));
	return buf;
}

char *tui_fmt_usd(char *buf, size_t n, double usd, const char *cur)
{
	return money(buf, n, usd, cur, 0);
}

char *tui_fmt_usd_cents(char *buf, size_t n, double usd, const char *cur)
{
	return money(buf, n, usd, cur, 2);
}

char *tui_fmt_usd_mtok(char *buf, size_t n, double usd, const char *cur)
{
	return money(buf, n, usd, cur, 3);
}

char *tui_fmt_priced(const struct tui *t, const struct engine_result *r, const char *fig, char *buf, size_t n)
{
	enum engine_price_state s = engine_price_state(r);
	if (s == PRICE_UNKNOWN)
		snprintf(buf, n, "no GPU price");
	else
		snprintf(buf, n, "%s%s", fig, s == PRICE_PARTIAL && strcmp(fig, "-") ? tui_glyph(t, GLYPH_unpriced) : "");
	return buf;
}

char *tui_fmt_usd_hour(char *buf, size_t n, double usd, const char *cur)
{
	return money(buf, n, usd, cur, 2);
}

bool tui_fmt_band(const struct tui *t, const struct engine_result *r, enum engine_band_figure k,
		  double v, char *buf, size_t n)
{
	const struct engine_band *b = &r->band[k];
	if (b->n <= 0 || !isfinite(v) || !(v > 0)) {
		snprintf(buf, n, "unvalidated");
		return false;
	}
	double lo = (b->low / v - 1) * 100, hi = (b->high / v - 1) * 100;
	if (lo <= 0 && hi >= 0 && fabs(-lo - hi) < 1.0)
		snprintf(buf, n, "%s%.0f%% (%d published)", tui_glyph(t, GLYPH_plus_minus), fmax(-lo, hi),
			 b->n);
	else
		snprintf(buf, n, "%+.0f%%..%+.0f%% (%d published)", lo, hi, b->n);
	return true;
}

int tui_put_headline(struct tui *t, WINDOW *win, int y, int x, int w, enum theme_role role,
		     const struct engine_result *r)
{
	char fig[48], band[64], text[96];
	bool inf = r->cls == WL_INFERENCE;
	double v = inf ? r->output_tokens_per_s : r->train_hours;
	if (inf) {
		char a[32];
		snprintf(fig, sizeof fig, "%s tok/s", tui_fmt_rate(a, sizeof a, v));
	} else {
		tui_fmt_hours(fig, sizeof fig, v);
	}
	bool ok = tui_fmt_band(t, r, inf ? BAND_OUTPUT_TOKENS_PER_S : BAND_TRAIN_HOURS, v, band,
			       sizeof band);
	snprintf(text, sizeof text, "%s ", fig);
	int used = tui_put(t, win, y, x, w, role, text);
	if (used < w)
		used += tui_put(t, win, y, x + used, w - used, ok ? role : ROLE_muted, band);
	return used;
}

/* Puts as much of text as fits in room columns at (y, x), broken at a
 * space; returns how many bytes it used (the rest goes on the next line). */
static int put_words(struct tui *t, WINDOW *win, int y, int x, int room, const char *text)
{
	int len = (int)strlen(text), first = len;
	if (room <= 0)
		return 0;
	if (tui_width(text) > room) {
		first = room;
		while (first > 10 && text[first] != ' ')
			first--;
	}
	char line[400];
	snprintf(line, sizeof line, "%.*s", first, text);
	tui_put(t, win, y, x, room, ROLE_status, line);
	return first + (text[first] == ' ');
}

void tui_put_result_line(struct tui *t, WINDOW *win, int y, int w, int lines, const char *prefix,
			 const struct engine_result *r)
{
	char head[160], rb[ENGINE_REASON_MAX];
	const char *why = engine_result_why(r, rb, sizeof rb);
	bool fig = r->fits && !r->filtered;
	snprintf(head, sizeof head, "%s%s: ", prefix, tui_accel_name(r->accel));
	if (lines > 1) {
		/* the reason first, as the engine words it; the figure and its
		 * band open the second line, the reason's rest follows */
		int x = tui_put(t, win, y, 0, w, ROLE_status, head);
		int used = put_words(t, win, y, x, w - x, why);
		x = 2;
		if (fig) {
			x += tui_put_headline(t, win, y + 1, x, w - x, ROLE_status, r);
			if (why[used] && x < w)
				x += tui_put(t, win, y + 1, x, w - x, ROLE_status, "; ");
		}
		if (why[used])
			put_words(t, win, y + 1, x, w - x, why + used);
		return;
	}
	/* one line: the figure and its band, then whose and why */
	int x = 0;
	if (fig) {
		char sep[THEME_GLYPH_MAX + 2];
		snprintf(sep, sizeof sep, " %s ", tui_glyph(t, GLYPH_dot_sep));
		x = tui_put_headline(t, win, y, 0, w, ROLE_status, r);
		if (x < w)
			x += tui_put(t, win, y, x, w - x, ROLE_status, sep);
	}
	if (x < w)
		x += tui_put(t, win, y, x, w - x, ROLE_status, head);
	put_words(t, win, y, x, w - x, why);
}

char *tui_fmt_rate(char *buf, size_t n, double per_s)
{
	return tui_fmt_num(buf, n, per_s, 0);
}

char *tui_fmt_rate1(char *buf, size_t n, double per_s)
{
	return tui_fmt_num(buf, n, per_s, 1);
}

char *tui_fmt_hours(char *buf, size_t n, double hours)
{
	char g[64];
	DASH(buf, n, hours);
	snprintf(buf, n, "%s h", tui_fmt_num(g, sizeof g, hours, 1));
	return buf;
}

char *tui_fmt_kw(char *buf, size_t n, double kw)
{
	return tui_fmt_num(buf, n, kw, 1);
}

char *tui_fmt_ms(char *buf, size_t n, double ms)
{
	return tui_fmt_num(buf, n, ms, 0);
}

char *tui_fmt_si(char *buf, size_t n, double v)
{
	static const struct { double scale; const char *suffix; } si[] = {
		{ 1e12, "T" }, { 1e9, "B" }, { 1e6, "M" },
	};
	DASH(buf, n, v);
	for (size_t i = 0; i < sizeof si / sizeof si[0]; i++) {
		double q = v / si[i].scale;
		/* only when the short form is exact to 3 decimals */
		if (fabs(v) >= si[i].scale && fabs(q * 1000 - round(q * 1000)) < 1e-6) {
			snprintf(buf, n, "%.3f", q);
			char *e = buf + strlen(buf) - 1;
			while (*e == '0')
				*e-- = '\0';
			if (*e == '.')
				*e = '\0';
			strncat(buf, si[i].suffix, n - strlen(buf) - 1);
			return buf;
		}
	}
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%g", v);
	return buf;
}

const char *tui_accel_name(const struct catalog_accel *a)
{
	return a ? a->name : "-";
}

const char *tui_accel_short(const struct catalog_accel *a)
{
	if (!a)
		return "-";
	/* "NVIDIA H100 SXM5 80GB" -> "H100 SXM5 80GB": the vendor is in the
	 * model name already for anyone in the room */
	size_t vl = a->vendor ? strlen(a->vendor) : 0;
	if (vl && !strncmp(a->name, a->vendor, vl) && a->name[vl] == ' ' && a->name[vl + 1])
		return a->name + vl + 1;
	return a->name;
}
