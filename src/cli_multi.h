/*
 * cli_multi: `recommend` for a scenario holding several workloads: each
 * sized, then the cluster of one accelerator that holds them all.
 */
#ifndef ACCELSIZER_CLI_MULTI_H
#define ACCELSIZER_CLI_MULTI_H

#include <stdbool.h>
#include <stdio.h>

#include "catalog.h"
#include "cli_report.h"
#include "scenario.h"

/* Writes the report to f in fmt; *any_fits: some accelerator holds every
 * workload.  Returns false when writing failed (or out of memory). */
bool cli_multi_recommend(const struct catalog *c, const struct scenario *s, enum cli_format fmt,
			FILE *f, bool *any_fits);

/* After the flags were parsed into s->w: filters, objective, accelerator
 * and node flags apply to every workload; a workload flag (--model,
 * --concurrency...) names no one workload, so it is refused (message on
 * stderr, false). */
bool cli_multi_flags(struct scenario *s);

#endif
