/*
 * cli_multi: `recommend` and `validate` for a scenario holding several
 * workloads (the clusters of cluster.h), and the flags over such a
 * scenario.
 */
#ifndef ACCELSIZER_CLI_MULTI_H
#define ACCELSIZER_CLI_MULTI_H

#include <stdbool.h>
#include <stdio.h>

#include "cli_report.h"
#include "cluster.h"

/* Accelerator a's plans: one per workload, then the shared cluster's. */
bool cli_multi_validate(const struct cluster *m, size_t a, enum cli_format fmt, FILE *f);

/* Writes the report to f in fmt; *any_fits: some accelerator holds every
 * workload.  Returns false when writing failed. */
bool cli_multi_recommend(const struct cluster *m, enum cli_format fmt, FILE *f, bool *any_fits);

/* After the flags were parsed into s->w: filters, objective, accelerator,
 * node flags and the price list apply to every workload; a workload flag
 * (--model, --concurrency...) names no one workload, so it is refused
 * (message on stderr, false). */
bool cli_multi_flags(struct scenario *s);

#endif
