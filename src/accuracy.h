/*
 * accuracy: the ledger's published results run through the engine, and
 * the error bands the validation entries give every prediction.
 *
 * Pure computation, like the engine: no I/O, no globals.  An entry is run
 * exactly as `recommend` runs its setup with --accelerator and --gpus
 * (engine_evaluate() on the entry's workload), and the metric is read from
 * the result; an entry whose metric the engine does not predict, or whose
 * setup it cannot size, is reported as not mapped with the reason.
 *
 * The band of a figure is the spread (10th to 90th percentile) of the
 * validation errors of the entries that cover it: same accelerator family (the architecture before
 * its die name: "Hopper"), workload class and precision when there are at
 * least ACCURACY_BAND_MIN of them, else the workload class, else none
 * ("unvalidated").  It is a table built once from the ledger
 * (accuracy_bands_build()) and read per result (accuracy_bands_apply()),
 * so engine_run() does no more work.
 *
 * Ownership: accuracy_bands_build() returns a table the caller frees with
 * accuracy_bands_free().
 */
#ifndef ACCELSIZER_ACCURACY_H
#define ACCELSIZER_ACCURACY_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "engine.h"
#include "ledger.h"

#define ACCURACY_BAND_MIN 3
/* The budget of `accuracy --check`, on the validation entries. */
#define ACCURACY_MEDIAN_BUDGET_PCT 10.0
#define ACCURACY_WORST_BUDGET_PCT 25.0

struct accuracy_row {
	const struct ledger_entry *e;
	bool mapped;
	char why[256];			/* not mapped: the reason */
	double predicted;		/* in the entry's unit */
	double error_pct;		/* (predicted - published) / published x 100 */
	struct engine_result res;	/* the engine's result for the setup */
};

/* Runs entry e through the engine into *out. */
void accuracy_run(const struct catalog *c, const struct ledger_entry *e, struct accuracy_row *out);

/* "Hopper" from "Hopper (GH100)": the family bands and summaries use. */
void accuracy_family(const struct catalog_accel *a, char *buf, size_t sz);

/* n, median |error| and the largest |error| (signed) of rows[0..n) that
 * match: mapped, and role (LEDGER_ROLE_COUNT = any). */
struct accuracy_stats {
	size_t n;
	double median_abs_pct;
	double worst_pct;
	const struct ledger_entry *worst;
};
void accuracy_stats(const struct accuracy_row *rows, size_t n, enum ledger_role role,
		    struct accuracy_stats *out);
/* Does the validation set meet the budget (median and every entry)? */
bool accuracy_within_budget(const struct accuracy_stats *validation);

struct accuracy_bands;
/* From the ledger's validation entries, run through the engine. NULL
 * when out of memory; an empty ledger gives a table that covers nothing. */
struct accuracy_bands *accuracy_bands_build(const struct catalog *c, const struct ledger *l);
void accuracy_bands_free(struct accuracy_bands *b);
/* Fills res->band[] for the figures res has (b NULL: leaves them
 * unvalidated). */
void accuracy_bands_apply(const struct accuracy_bands *b, struct engine_result *res);
void accuracy_bands_apply_report(const struct accuracy_bands *b, struct engine_report *r);

#endif
