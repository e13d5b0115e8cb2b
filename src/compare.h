/*
 * compare: scenarios side by side, the one table behind `accelsizer
 * compare` and the wizard's pin (key a): a row per setting (as the
 * scenario file names it: section and key) or result figure, a value per
 * scenario, and whether the values differ.  It holds text only; the CLI
 * and the wizard add their own result rows and write or draw the table
 * (docs/design.md, "Comparing scenarios").
 *
 * Ownership: struct compare is caller-owned, fixed-size, nothing to free.
 */
#ifndef ACCELSIZER_COMPARE_H
#define ACCELSIZER_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine.h"

#define COMPARE_MAX_COLS 3
#define COMPARE_MAX_ROWS 128
#define COMPARE_VALUE_MAX 160

struct compare_row {
	char section[16];		/* "workload", "filters", "node", "", "result" */
	char key[48];			/* "input_tokens", "capex_usd" */
	char value[COMPARE_MAX_COLS][COMPARE_VALUE_MAX];
	bool has[COMPARE_MAX_COLS];	/* a column without it: the setting does
					 * not apply to that scenario's class */
	bool differs;			/* set by compare_finish() */
};

struct compare {
	int n_cols;
	size_t n_rows;
	bool full;			/* a row did not fit (COMPARE_MAX_ROWS) */
	struct compare_row rows[COMPARE_MAX_ROWS];
};

void compare_init(struct compare *c, int n_cols);
/* Sets column col of the row (section, key), adding the row at the end
 * the first time it is named. */
void compare_set(struct compare *c, int col, const char *section, const char *key, const char *value);
/* Column col's settings: every workload setting that matters for w's
 * class, as scenario_each_setting() names and writes them. */
void compare_add_settings(struct compare *c, int col, const struct workload *w);
/* Marks the rows whose values differ (a value missing in one column
 * differs from one that is there). */
void compare_finish(struct compare *c);
/* How many rows differ. */
size_t compare_n_differ(const struct compare *c);

#endif
