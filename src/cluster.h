/*
 * cluster: several workloads of a scenario sized as one cluster per
 * accelerator, for the CLI and the wizard (cluster.c).
 */
#ifndef ACCELSIZER_CLUSTER_H
#define ACCELSIZER_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

#include "accuracy.h"
#include "catalog.h"
#include "engine.h"
#include "scenario.h"

/* The sized scenario.  Owns the reports and tables (cluster_fini). */
struct cluster {
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
	size_t n_entries;		/* s->n_entries when sized: what is freed */
};

/* Sizes every entry of s (bands, may be NULL: their error bands), then
 * each accelerator's cluster, and ranks them by the cluster's capex, those
 * where every workload fits first.  False when out of memory. */
bool cluster_size(const struct catalog *c, const struct scenario *s,
		    const struct accuracy_bands *bands, struct cluster *m);
void cluster_fini(struct cluster *m);
/* The result accelerator a's cluster holds for entry e, or NULL. */
const struct engine_result *cluster_used(const struct cluster *m, size_t e, size_t a);
/* The accelerator to quote: the one chosen (--accelerator, accelerator:)
 * or the best-ranked whose cluster fits and passes the filters; n_accel
 * when there is none. */
size_t cluster_choose(const struct cluster *m);
#endif
