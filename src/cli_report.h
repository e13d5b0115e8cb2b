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

enum cli_field_kind { CLI_FIELD_INT, CLI_FIELD_NUM, CLI_FIELD_STR, CLI_FIELD_BOOL };

struct cli_field {
	const char *name;		/* "mem_util_pct" */
	enum cli_field_kind kind;
};

/* The result fields, in output order. */
const struct cli_field *cli_result_fields(size_t *n);
/* Writes field i of r into buf as text (numbers rounded for reading, no
 * thousands separators); returns false when the field does not apply. */
bool cli_result_value(size_t i, const struct engine_result *r, char *buf, size_t bufsz);

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

/* The validation plan for one result, in the three formats. */
bool cli_plan_write(FILE *f, enum cli_format fmt, const struct workload *w,
		    const struct engine_result *res, const struct engine_plan *plan);

/* The same CSV and YAML writers for another command's rows: one CSV row of
 * n cells (NULL or "" an empty cell); a YAML document built with map/seq
 * starts and ends, keys and scalars (str NULL: null; num NaN: null). */
bool cli_csv_row(FILE *f, const char *const *cells, size_t n);
struct cli_yaml;
struct cli_yaml *cli_yaml_begin(FILE *f);
bool cli_yaml_end(struct cli_yaml *y);	/* frees y; false when writing failed */
void cli_yaml_map(struct cli_yaml *y, bool start);
void cli_yaml_seq(struct cli_yaml *y, bool start);
void cli_yaml_key(struct cli_yaml *y, const char *key);
void cli_yaml_str(struct cli_yaml *y, const char *key, const char *value);
void cli_yaml_num(struct cli_yaml *y, const char *key, double v, int dec);

#endif
