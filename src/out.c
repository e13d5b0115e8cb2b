/*
 * out: text, CSV and YAML writers shared by every command (out.h says what
 * each one guarantees).
 */
#include "out.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_fmt.h"
#include "ytree.h"

/* ---- text ---- */

/* Is any of the 8 bytes of w a control character (< 0x20, 0x7f) or not
 * ASCII (>= 0x80)?  Bit tricks on the whole word (a byte is below 0x20
 * when subtracting 0x20 borrows into its top bit); a TAB answers yes too,
 * and the caller looks closer. */
static bool word_special(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
	uint64_t del = w ^ (0x7f * ones);
	return ((w | ((w - 0x20 * ones) & ~w) | ((del - ones) & ~del)) & high) != 0;
}

static bool byte_special(unsigned char c)
{
	return (c < 0x20 && c != '\t') || c >= 0x7f;
}

/* Does s hold a byte ytree_escape_text() would change?  Only ASCII
 * controls but TAB, DEL and bytes >= 0x80 can; all-ASCII text (nearly all
 * of it) is answered a word at a time without copying, anything else by
 * escaping and comparing. */
static bool needs_escape(const char *s)
{
	size_t n = strlen(s), i = 0;
	bool special = false;
	for (; i + 8 <= n && !special; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		if (word_special(w))
			for (size_t j = 0; j < 8 && !special; j++)
				special = byte_special((unsigned char)s[i + j]);
	}
	for (; i < n && !special; i++)
		special = byte_special((unsigned char)s[i]);
	if (!special)
		return false;
	char small[256];
	/* UTF-8 text is left alone: escape and compare */
	if (n + 1 > sizeof small)
		return true;
	return ytree_escape_text(small, sizeof small, s) != n || memcmp(small, s, n + 1);
}

const char *out_inert(const char *s, char *buf, size_t n)
{
	if (!s || !needs_escape(s))
		return s;
	if (n)
		ytree_escape_text(buf, n, s);
	return n ? buf : "";
}

bool out_puts(FILE *fp, const char *s)
{
	if (!s)
		return true;
	if (!needs_escape(s))
		return fputs(s, fp) != EOF;
	char *e = ytree_escape_dup(s);
	bool ok = e && fputs(e, fp) != EOF;
	free(e);
	return ok;
}

bool out_vprintf(FILE *fp, const char *fmt, va_list ap)
{
	char small[512], *s = small;
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= 0 && (size_t)n >= sizeof small) {
		s = malloc((size_t)n + 1);
		if (s)
			vsnprintf(s, (size_t)n + 1, fmt, ap2);
	}
	va_end(ap2);
	bool ok = n >= 0 && s && out_puts(fp, s);
	if (s != small)
		free(s);
	return ok;
}

bool out_line(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool ok = out_vprintf(fp, fmt, ap);
	va_end(ap);
	return ok && fputc('\n', fp) != EOF;
}

/* s made inert line by line: LF kept (a quoted CSV cell may hold several
 * lines), everything else as out_inert() escapes it.  malloc'd. */
static char *inert_lines(const char *s)
{
	size_t cap = strlen(s) * 6 + 1, len = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	for (;;) {
		size_t n = strcspn(s, "\n");
		char *seg = strndup(s, n), *e = seg ? ytree_escape_dup(seg) : NULL;
		free(seg);
		if (!e) {
			free(out);
			return NULL;
		}
		size_t el = strlen(e);
		if (len + el + 2 > cap) {
			char *bigger = realloc(out, cap = len + el + 2);
			if (!bigger) {
				free(e);
				free(out);
				return NULL;
			}
			out = bigger;
		}
		memcpy(out + len, e, el);
		len += el;
		free(e);
		if (!s[n])
			break;
		out[len++] = '\n';
		s += n + 1;
	}
	out[len] = '\0';
	return out;
}

bool out_puts_lines(FILE *fp, const char *s)
{
	if (!s)
		return true;
	if (!needs_escape(s))
		return fputs(s, fp) != EOF;
	char *e = inert_lines(s);
	bool ok = e && fputs(e, fp) != EOF;
	free(e);
	return ok;
}

const char *out_grouped(double v, int dec, char *buf, size_t n)
{
	if (!isfinite(v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	char raw[64];
	cli_fmt_fixed(raw, sizeof raw, fabs(v), dec);	/* "%.*f" without printf's cost */
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

void out_date(char *buf, size_t n)
{
	time_t t = time(NULL);
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	if (sde && *sde) {
		char *end;
		errno = 0;
		long long v = strtoll(sde, &end, 10);
		if (!errno && !*end && v >= 0)
			t = (time_t)v;
	}
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d", &tm))
		snprintf(buf, n, "unknown");
}

/* ---- HTML and Markdown ---- */

/* s made inert into a malloc'd copy with its LFs kept, or s itself when
 * nothing needs escaping; *owned is what to free. */
static const char *inert_copy(const char *s, char **owned)
{
	*owned = NULL;
	if (!needs_escape(s))
		return s;
	*owned = inert_lines(s);
	return *owned;
}

static bool html_text(FILE *fp, const char *s, bool lines)
{
	if (!s)
		return true;
	char *owned;
	const char *t = inert_copy(s, &owned);
	if (!t)
		return false;
	bool ok = true;
	for (const char *p = t; *p && ok; p++) {
		switch (*p) {
		case '&': ok = fputs("&amp;", fp) != EOF; break;
		case '<': ok = fputs("&lt;", fp) != EOF; break;
		case '>': ok = fputs("&gt;", fp) != EOF; break;
		case '"': ok = fputs("&quot;", fp) != EOF; break;
		case '\'': ok = fputs("&#39;", fp) != EOF; break;
		case '\n': ok = fputs(lines ? "<br/>" : " ", fp) != EOF; break;
		default: ok = fputc(*p, fp) != EOF; break;
		}
	}
	free(owned);
	return ok;
}

bool out_html(FILE *fp, const char *s)
{
	return html_text(fp, s, false);
}

bool out_html_lines(FILE *fp, const char *s)
{
	return html_text(fp, s, true);
}

/* vsnprintf into a malloc'd string (NULL when out of memory). */
static char *vformat(const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return s;
}

bool out_html_printf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(fmt, ap);
	va_end(ap);
	bool ok = s && out_html(fp, s);
	free(s);
	return ok;
}

/* Does a block marker start here (CommonMark): a heading "# ", a list
 * item "- ", "+ ", "* " or "1. ", "1) ", a rule or underline "---", "==="?
 * A marker needs a space or the end of the line after it; "14.3 kW" and
 * "-3" are text. */
static bool md_line_start(const char *p)
{
	const char *q = p;
	while (*q >= '0' && *q <= '9')
		q++;
	if (q > p)
		return (*q == '.' || *q == ')') && (!q[1] || q[1] == ' ' || q[1] == '\n');
	if (!*p || !strchr("#+-=*", *p))
		return false;
	char next = p[1];
	return !next || next == ' ' || next == '\n' || ((*p == '#' || *p == '-' || *p == '=') && next == *p);
}

static bool md_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Is *p (in the text that starts at t) read as markup? */
static bool md_special(const char *t, const char *p)
{
	if (*p == '_')	/* intraword: never emphasis in CommonMark */
		return !(p > t && md_word(p[-1]) && md_word(p[1]));
	if (*p == '&') {	/* only "&name;" and "&#..;" are references */
		const char *q = p + 1 + (p[1] == '#');
		while (md_word(*q))
			q++;
		return q > p + 1 && *q == ';';
	}
	return *p && strchr("\\`*[]<>|~", *p);
}

static bool md_text(FILE *fp, const char *s, bool lines)
{
	if (!s)
		return true;
	char *owned;
	const char *t = inert_copy(s, &owned);
	if (!t)
		return false;
	bool ok = true, bol = true;
	for (const char *p = t; *p && ok; p++) {
		if (*p == '\n') {
			ok = fputs(lines ? "  \n" : " ", fp) != EOF;
			bol = lines;
			continue;
		}
		if (bol && *p != ' ' && md_line_start(p)) {
			/* escape the marker: the digits' full stop, or the sign */
			const char *q = p;
			while (*q >= '0' && *q <= '9')
				q++;
			if (q > p) {
				ok = fwrite(p, 1, (size_t)(q - p), fp) == (size_t)(q - p);
				p = q;
			}
			ok = ok && fputc('\\', fp) != EOF && fputc(*p, fp) != EOF;
			bol = false;
			continue;
		}
		if (*p != ' ')
			bol = false;
		if (md_special(t, p))
			ok = fputc('\\', fp) != EOF;
		ok = ok && fputc(*p, fp) != EOF;
	}
	free(owned);
	return ok;
}

bool out_md(FILE *fp, const char *s)
{
	return md_text(fp, s, false);
}

bool out_md_lines(FILE *fp, const char *s)
{
	return md_text(fp, s, true);
}

bool out_md_printf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(fmt, ap);
	va_end(ap);
	bool ok = s && out_md(fp, s);
	free(s);
	return ok;
}

/* ---- CSV ---- */

#define CSV_FLUSH_AT 65536

void out_csv_begin(struct out_csv *o, FILE *fp, enum out_csv_quote quote)
{
	memset(o, 0, sizeof *o);
	o->fp = fp;
	o->quote = quote;
	o->first = true;
	o->ok = true;
}

static bool reserve(struct out_csv *o, size_t more)
{
	if (!o->ok)
		return false;
	if (o->len + more <= o->cap)
		return true;
	size_t cap = o->cap ? o->cap : 4096;
	while (cap < o->len + more)
		cap *= 2;
	char *b = realloc(o->buf, cap);
	if (!b) {
		o->ok = false;
		return false;
	}
	o->buf = b;
	o->cap = cap;
	return true;
}

/* A spreadsheet treats a cell starting with one of these as a formula
 * (TAB and CR as well, in some importers). */
static bool formula_start(const char *s)
{
	switch (*s) {
	case '=': case '+': case '-': case '@': case '\t': case '\r':
		return true;
	default:
		return false;
	}
}

static bool needs_quotes(const char *s, size_t n)
{
	return strpbrk(s, ",\"\r\n") != NULL || (n && (s[0] == ' ' || s[n - 1] == ' '));
}

/* A text cell as it is written: an apostrophe when it starts like a
 * formula (judged on the text as given, as the BOM always did), then the
 * text made inert.  Returns s itself, or a malloc'd copy in *owned (NULL
 * when out of memory). */
static const char *neutral(const char *s, char **owned)
{
	*owned = NULL;
	bool formula = formula_start(s), escape = needs_escape(s);
	if (!formula && !escape)
		return s;
	char *inert = escape ? inert_lines(s) : NULL;
	if (escape && !inert)
		return NULL;
	const char *body = escape ? inert : s;
	size_t n = strlen(body);
	char *q = malloc(n + 2);
	if (q) {
		size_t at = 0;
		if (formula)
			q[at++] = '\'';
		memcpy(q + at, body, n + 1);
	}
	free(inert);
	*owned = q;
	return q;
}

void out_csv_cell(struct out_csv *o, const char *s, enum out_cell kind)
{
	char *owned = NULL;
	if (!s)
		s = "";
	if (kind == OUT_TEXT && *s && !(s = neutral(s, &owned))) {
		o->ok = false;
		return;
	}
	size_t n = strlen(s);
	/* room for a comma and the cell quoted with every byte doubled */
	if (o->ok && (o->len + 2 * n + 4 <= o->cap || reserve(o, 2 * n + 4))) {
		o->buf[o->len] = ',';
		o->len += !o->first;
		o->first = false;
		/* quoting and doubling quotes are libcsv's (csv_write) */
		if (n && (o->quote == OUT_CSV_QUOTE_ALL || needs_quotes(s, n))) {
			o->len += csv_write(o->buf + o->len, o->cap - o->len, s, n);
		} else if (n) {
			memcpy(o->buf + o->len, s, n);
			o->len += n;
		}
	}
	if (owned)
		free(owned);
}

void out_csv_row(struct out_csv *o, const char *const *cells, size_t n, enum out_cell kind)
{
	for (size_t i = 0; i < n; i++)
		out_csv_cell(o, cells[i], kind);
	out_csv_end(o);
}

void out_csv_end(struct out_csv *o)
{
	if (reserve(o, 1))
		o->buf[o->len++] = '\n';
	o->first = true;
	if (o->len >= CSV_FLUSH_AT)
		out_csv_flush(o);
}

bool out_csv_flush(struct out_csv *o)
{
	if (o->ok && o->len && fwrite(o->buf, 1, o->len, o->fp) != o->len)
		o->ok = false;
	o->len = 0;
	return o->ok;
}

bool out_csv_finish(struct out_csv *o)
{
	bool ok = out_csv_flush(o) && !ferror(o->fp);
	free(o->buf);
	o->buf = NULL;
	o->cap = 0;
	return ok;
}

/* ---- YAML ---- */

static void emit(struct out_yaml *y)
{
	if (y->ok && !yaml_emitter_emit(&y->e, &y->ev))
		y->ok = false;
}

bool out_yaml_begin(struct out_yaml *y, FILE *fp)
{
	memset(y, 0, sizeof *y);
	if (!yaml_emitter_initialize(&y->e))
		return false;	/* libyaml freed what it had taken */
	yaml_emitter_set_output_file(&y->e, fp);
	yaml_emitter_set_unicode(&y->e, 1);	/* UTF-8 as is, not \u escapes */
	yaml_emitter_set_width(&y->e, -1);	/* no folding of long text */
	yaml_emitter_set_indent(&y->e, 2);
	y->ok = true;
	yaml_stream_start_event_initialize(&y->ev, YAML_UTF8_ENCODING);
	emit(y);
	if (y->ok) {
		yaml_document_start_event_initialize(&y->ev, NULL, NULL, NULL, 1);
		emit(y);
	}
	if (!y->ok)
		yaml_emitter_delete(&y->e);
	return y->ok;
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

void out_yaml_scalar(struct out_yaml *y, const char *s, enum out_yaml_style style)
{
	if (!y->ok)
		return;
	if (!s)
		s = "";
	yaml_scalar_style_t st = YAML_PLAIN_SCALAR_STYLE;
	int plain_implicit = 1;
	switch (style) {
	case OUT_YAML_PLAIN:
		break;
	case OUT_YAML_TEXT:
		/* the emitter quotes what needs quoting; a string that looks
		 * like another type loses its implicit tag, so it is quoted */
		st = YAML_ANY_SCALAR_STYLE;
		plain_implicit = !reads_as_other(s);
		break;
	case OUT_YAML_QUOTED:
		st = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
		break;
	case OUT_YAML_BLOCK:
		/* libyaml falls back to double quotes by itself whenever a
		 * block cannot hold the text exactly (trailing spaces,
		 * control characters...) */
		st = strchr(s, '\n') ? YAML_LITERAL_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE;
		break;
	}
	yaml_scalar_event_initialize(&y->ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s),
				     plain_implicit, 1, st);
	emit(y);
}

void out_yaml_key(struct out_yaml *y, const char *key)
{
	out_yaml_scalar(y, key, OUT_YAML_PLAIN);
}

void out_yaml_map(struct out_yaml *y, bool start)
{
	if (!y->ok)
		return;
	if (start)
		yaml_mapping_start_event_initialize(&y->ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	else
		yaml_mapping_end_event_initialize(&y->ev);
	emit(y);
}

void out_yaml_seq(struct out_yaml *y, bool start)
{
	if (!y->ok)
		return;
	if (start)
		yaml_sequence_start_event_initialize(&y->ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	else
		yaml_sequence_end_event_initialize(&y->ev);
	emit(y);
}

void out_yaml_str(struct out_yaml *y, const char *key, const char *value)
{
	out_yaml_key(y, key);
	out_yaml_scalar(y, value ? value : "null", value ? OUT_YAML_TEXT : OUT_YAML_PLAIN);
}

void out_yaml_num(struct out_yaml *y, const char *key, double v, int dec)
{
	char buf[64];
	out_yaml_key(y, key);
	if (!isfinite(v)) {
		out_yaml_scalar(y, "null", OUT_YAML_PLAIN);
		return;
	}
	if (fabs(v) >= 1e15 || (v != 0 && fabs(v) < 1e-3))
		snprintf(buf, sizeof buf, "%.6g", v);
	else
		snprintf(buf, sizeof buf, "%.*f", dec, v);
	out_yaml_scalar(y, buf, OUT_YAML_PLAIN);
}

bool out_yaml_end(struct out_yaml *y, const char **problem)
{
	if (y->ok) {
		yaml_document_end_event_initialize(&y->ev, 1);
		emit(y);
	}
	if (y->ok) {
		yaml_stream_end_event_initialize(&y->ev);
		emit(y);
	}
	if (y->ok && !yaml_emitter_flush(&y->e))
		y->ok = false;
	if (problem)
		*problem = y->e.problem;
	yaml_emitter_delete(&y->e);
	return y->ok;
}
