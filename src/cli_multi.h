/*
 * cli_multi: `recommend`, `bom` and `validate` for a scenario holding
 * several workloads: each sized, then for every accelerator the cluster
 * of it that holds them all (engine_cluster_size()).
 */
#ifndef ACCELSIZER_CLI_MULTI_H
#define ACCELSIZER_CLI_MULTI_H

#include <stdbool.h>
#include <stdio.h>

#include "accuracy.h"
#include "catalog.h"
#include "cli_report.h"
#include "scenario.h"

/* The sized scenario.  Owns the reports and tables (cli_multi_fini). */
struct cli_multi {
	const struct catalog *c;
	const struct scenario *s;
	struct engine_report *reps;	/* per entry, sized as one of several (share_cards) */
	struct engine_report *alone;	/* per entry, sized alone */
	struct engine_cluster *cl;	/* per accelerator, catalog order */
	struct engine_cluster_item *items; /* per accelerator, n_entries slots */
	size_t *entry;			/* the entry of each item */
	size_t *n_items;		/* per accelerator */
	size_t *order;			/* accelerators, ranked */
	size_t n_accel;
};

/* Sizes every entry of s (bands, may be NULL: their error bands), then
 * each accelerator's cluster, and ranks them by the cluster's capex, those
 * where every workload fits first.  False when out of memory (said). */
bool cli_multi_size(const struct catalog *c, const struct scenario *s,
		    const struct accuracy_bands *bands, struct cli_multi *m);
void cli_multi_fini(struct cli_multi *m);
/* The result accelerator a's cluster holds for entry e, or NULL. */
const struct engine_result *cli_multi_used(const struct cli_multi *m, size_t e, size_t a);
/* The accelerator to quote: the one chosen (--accelerator, accelerator:)
 * or the best-ranked whose cluster fits and passes the filters; n_accel
 * when there is none. */
size_t cli_multi_choose(const struct cli_multi *m);
/* Accelerator a's plans: one per workload, then the shared cluster's. */
bool cli_multi_validate(const struct cli_multi *m, size_t a, enum cli_format fmt, FILE *f);

/* Writes the report to f in fmt; *any_fits: some accelerator holds every
 * workload.  Returns false when writing failed. */
bool cli_multi_recommend(const struct cli_multi *m, enum cli_format fmt, FILE *f, bool *any_fits);

/* After the flags were parsed into s->w: filters, objective, accelerator,
 * node flags and the price list apply to every workload; a workload flag
 * (--model, --concurrency...) names no one workload, so it is refused
 * (message on stderr, false). */
bool cli_multi_flags(struct scenario *s);

#endif
