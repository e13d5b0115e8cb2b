/*
 * proposal_internal: what proposal.c and proposal_charts.c share: the
 * writer (one call per element, HTML or Markdown) and the figures as
 * words.  Private to the proposal module.
 */
#ifndef ACCELSIZER_PROPOSAL_INTERNAL_H
#define ACCELSIZER_PROPOSAL_INTERNAL_H

#include <stdint.h>

#include "proposal.h"

struct pw {
	FILE *fp;
	enum proposal_format f;
	bool ok;			/* false once a write failed */
};

/* Markup as given; text HTML- or Markdown-escaped (out.h). */
void pw_raw(struct pw *w, const char *s);
void pw_rawf(struct pw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pw_text(struct pw *w, const char *s);
void pw_textf(struct pw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pw_strong(struct pw *w, const char *s);
void pw_para_begin(struct pw *w);
void pw_para_end(struct pw *w);
/* A table: align has one letter a column, 'l' or 'r'. */
void pw_table(struct pw *w, const char *cls, const char *align, const char *const *head, size_t n);
void pw_row(struct pw *w, const char *align, const char *const *cells, size_t n, bool strong);
void pw_table_end(struct pw *w);

/* Figures as words: "50M", "$1,333,308", "$1,333,307.68", "6,991" or
 * "20.9", "14 days" / "8 hours", "5 replicas of TP4". */
void pw_si(double v, char *buf, size_t n);
void pw_usd(const struct proposal *p, double v, char *buf, size_t n);
void pw_cents(const struct proposal *p, int64_t cents, char *buf, size_t n);
void pw_num(double v, char *buf, size_t n);
void pw_hours(double h, char *buf, size_t n);
void pw_layout(const struct workload *wl, const struct engine_result *r, char *buf, size_t n);

/* proposal_charts.c: the style sheet, and the two charts (inline SVG in
 * HTML, a table of the same figures in Markdown). */
extern const char proposal_css[];
void proposal_fit_bars(struct pw *w, const struct proposal *p);
void proposal_tradeoff(struct pw *w, const struct proposal *p);

#endif
