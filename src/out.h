/*
 * out: the one output layer.  Every command that writes text, CSV or YAML
 * writes it through here, so a catalog or scenario string reaches a
 * terminal, a spreadsheet or a file the same way everywhere:
 *
 * - text (tables, `catalog show/list`, the BOM summary): C0 controls but
 *   TAB, DEL and C1 controls become visible escapes ("\x1b", "\r",
 *   "\u009b"), and bytes that are not UTF-8 "\xNN" (ytree_escape_text's
 *   rules), so no string can move the cursor, set a window title (OSC),
 *   ring the bell or overwrite a line (CR);
 * - CSV (libcsv): every text cell is made inert as above (its LFs kept: a
 *   quoted cell may hold several lines) and, when it
 *   starts with = + - @ TAB or CR, gets a leading apostrophe (OWASP "CSV
 *   injection": a spreadsheet would run it as a formula); numbers are
 *   written as they are;
 * - YAML (libyaml's emitter): strings that would read back as another type
 *   are quoted; libyaml escapes control characters itself.
 *
 * See docs/design.md, "Output".
 */
#ifndef ACCELSIZER_OUT_H
#define ACCELSIZER_OUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <yaml.h>

/* ---- text ---- */

/* s, or s made inert in buf (n bytes, cut at a character) when it holds
 * anything to escape.  NULL stays NULL. */
const char *out_inert(const char *s, char *buf, size_t n);
/* Writes s made inert; false when the stream fails. */
bool out_puts(FILE *fp, const char *s);
/* Writes s made inert line by line: its LFs kept, for text of several
 * lines (notes); false when the stream fails. */
bool out_puts_lines(FILE *fp, const char *s);
/* printf whose whole output is made inert; out_line() adds a newline (the
 * only control character it writes). */
bool out_vprintf(FILE *fp, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
bool out_line(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* 1234567.8 with dec 0 -> "1,234,568": thousands grouped with commas, no
 * locale (the same on every machine); "-" when v is not finite.  Returns
 * buf. */
const char *out_grouped(double v, int dec, char *buf, size_t n);

/* The date files are stamped with, "2026-12-01" (UTC): today, or
 * $SOURCE_DATE_EPOCH when it is set, so that a file made twice from the
 * same inputs is the same byte for byte (reproducible-builds.org). */
void out_date(char *buf, size_t n);

/* ---- HTML and Markdown (the proposal) ---- */

/* s made inert as out_puts() does, then escaped for HTML text and
 * attribute values: & < > " ' as character references, so no user or
 * catalog string can open a tag, close an attribute or start a script.
 * out_html_lines() writes each LF as <br/>, out_html() as a space. */
bool out_html(FILE *fp, const char *s);
bool out_html_lines(FILE *fp, const char *s);
/* printf whose whole output is made inert and HTML-escaped. */
bool out_html_printf(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s made inert, with a backslash before every character Markdown would
 * read as markup (\\ ` * _ [ ] < > | & ~, and a block marker at the start
 * of a line: "# ", "- ", "+ ", "1. ", "---", "==="), so a string reads as
 * itself in any renderer and cannot break a table; _ inside a word and &
 * not starting a reference stay as they are (CommonMark reads them as
 * text), so "power_kw" reads plainly in an email.  out_md_lines() keeps
 * LFs (two spaces before each: a line break in the paragraph); out_md()
 * writes each LF as a space. */
bool out_md(FILE *fp, const char *s);
bool out_md_lines(FILE *fp, const char *s);
bool out_md_printf(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- CSV ---- */

enum out_csv_quote {
	OUT_CSV_QUOTE_ALL,	/* every non-empty cell quoted (recommend, sweep) */
	OUT_CSV_QUOTE_NEEDED,	/* only cells with , " CR LF or edge spaces (BOM, plan) */
};

enum out_cell {
	OUT_TEXT,		/* may hold user or catalog text: neutralised */
	OUT_PLAIN,		/* a number or a word the program itself wrote */
};

/* Rows are built in one buffer and written to fp when it grows past a
 * few pages, so a large sweep costs one write per scenario, not per cell. */
struct out_csv {
	FILE *fp;
	enum out_csv_quote quote;
	char *buf;
	size_t len, cap;
	bool first;		/* the next cell starts a row */
	bool ok;
};

void out_csv_begin(struct out_csv *o, FILE *fp, enum out_csv_quote quote);
/* One cell (NULL or "" is an empty cell, written as nothing). */
void out_csv_cell(struct out_csv *o, const char *s, enum out_cell kind);
void out_csv_row(struct out_csv *o, const char *const *cells, size_t n, enum out_cell kind);
/* Ends the row (LF: what every spreadsheet and script reads). */
void out_csv_end(struct out_csv *o);
/* Writes what is buffered; false when memory or the stream failed. */
bool out_csv_flush(struct out_csv *o);
/* Flushes and frees; false when anything failed. */
bool out_csv_finish(struct out_csv *o);

/* ---- YAML ---- */

enum out_yaml_style {
	OUT_YAML_PLAIN,		/* a number, boolean, null or key */
	OUT_YAML_TEXT,		/* a string: plain where YAML allows, quoted when it
				 * would read back as another type */
	OUT_YAML_QUOTED,	/* a string, double-quoted */
	OUT_YAML_BLOCK,		/* a string: a literal block when it has several
				 * lines, else double-quoted */
};

struct out_yaml {
	yaml_emitter_t e;
	yaml_event_t ev;
	bool ok;
};

/* Starts a stream and a document on fp; false when out of memory, with
 * nothing left to clean up (no out_yaml_end() then). */
bool out_yaml_begin(struct out_yaml *y, FILE *fp);
void out_yaml_scalar(struct out_yaml *y, const char *s, enum out_yaml_style style);
void out_yaml_key(struct out_yaml *y, const char *key);
void out_yaml_map(struct out_yaml *y, bool start);
void out_yaml_seq(struct out_yaml *y, bool start);
/* key: value as text, or null when value is NULL. */
void out_yaml_str(struct out_yaml *y, const char *key, const char *value);
/* key: v with dec decimals (%.6g when very large or small), null when v is
 * not finite. */
void out_yaml_num(struct out_yaml *y, const char *key, double v, int dec);
/* Ends the document and stream, flushes and frees; false when anything
 * failed.  problem (may be NULL) gets libyaml's message, if any. */
bool out_yaml_end(struct out_yaml *y, const char **problem);

#endif
