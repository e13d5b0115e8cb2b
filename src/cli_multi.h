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

#endif
