/*
 * cli_report: the engine's results as a table for people, as CSV (libcsv)
 * and as YAML (libyaml's emitter) for scripts.  One field table names every
 * column once, so csv, yaml and the sweep command always use the same
 * names; a field that does not apply (training figures of an inference run,
 * a fabric for one node) is empty in CSV and null in YAML, never 0.
 */
#ifndef ACCELSIZER_CLI_REPORT_H
#define ACCELSIZER_CLI_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "catalog.h"
#include "engine.h"
#include "out.h"

enum cli_field_kind { CLI_FIELD_INT, CLI_FIELD_NUM, CLI_FIELD_STR, CLI_FIELD_BOOL };

struct cli_field {
	const char *name;		/* "mem_util_pct" */
	enum cli_field_kind kind;
};

/* The result fields, in output order. */
const struct cli_field *cli_result_fields(size_t *n);
/* Field i's column name in a currency: a money column says it
 * ("capex_eur" in a EUR price list's report; prices_money_name()). */
const char *cli_result_name(size_t i, const char *currency, char *buf, size_t n);
/* Writes field i of r into buf as text (numbers rounded for reading, no
 * thousands separators); returns false when the field does not apply. */
bool cli_result_value(size_t i, const struct engine_result *r, char *buf, size_t bufsz);
/* How field i goes into a CSV cell: text fields are neutralised. */
enum out_cell cli_result_cell(size_t i);

enum cli_format { CLI_FMT_TABLE, CLI_FMT_CSV, CLI_FMT_YAML };
/* "table", "csv", "yaml"; false (message printed, naming flag) otherwise. */
bool cli_format_parse(const char *flag, const char *s, enum cli_format *out);

/* Writes the results r->results[first..first+count) (count 0 = all).
 * Returns false when the stream fails. */
bool cli_report_csv(FILE *f, const struct engine_report *r, size_t first, size_t count);
bool cli_report_yaml(FILE *f, const struct catalog *c, const struct workload *w,
		     const struct engine_report *r, size_t first, size_t count);
bool cli_report_table(FILE *f, const struct catalog *c, const struct workload *w,
		      const struct engine_report *r, size_t first, size_t count);

/* On stderr, when a quote has lines no catalog or price list prices:
 * "accelsizer: warning: capex excludes N unpriced BOM lines ...", so a
 * quote cannot look complete when it is not.  which: the lines, or NULL
 * (then `accelsizer bom` is named as the place that lists them). */
void cli_warn_unpriced(int n, const char *accel_id, const char *which);

/* The validation plan for one result, in the three formats. */
bool cli_plan_write(FILE *f, enum cli_format fmt, const struct workload *w,
		    const struct engine_result *res, const struct engine_plan *plan);

/* Several plans of one accelerator (several workloads on one cluster):
 * one per workload (w set) and the cluster's (w NULL, workload "total");
 * csv gains a first column workload, yaml a list plans:. */
struct cli_plan_part {
	const char *name;
	const struct workload *w;	/* NULL: the shared cluster */
	const struct engine_result *res;
	const struct engine_plan *plan;
};
bool cli_plans_write(FILE *f, enum cli_format fmt, const struct cli_plan_part *parts, size_t n);

#endif
