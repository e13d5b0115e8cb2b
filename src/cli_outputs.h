/*
 * cli_outputs: an output must never be one of the program's own inputs or
 * another output (issue 13: `bom -o x.csv --summary ./x.csv` wrote the
 * summary over the BOM, `bom --prices p.csv -o p.csv` replaced its price
 * list).  One check for the CLI commands and the wizard's save and export,
 * on top of atomic_check_distinct() (identity by device and inode).
 */
#ifndef ACCELSIZER_CLI_OUTPUTS_H
#define ACCELSIZER_CLI_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "atomic.h"
#include "catalog.h"

/* Compares every output with every file of catalog c, with the scenario
 * price list and --model-config file (each may be NULL) and with every
 * other output.  False
 * with the clash in err ("-o 'p.csv' is the --prices file 'p.csv':
 * refusing to overwrite an input") when two are one file. */
bool cli_outputs_distinct(const struct catalog *c, const char *scenario, const char *prices,
			  const char *model_config, const struct atomic_name *outs, size_t n_outs, char *err,
			  size_t errsz);

/* The same, printing "accelsizer: MESSAGE" to stderr on a clash. */
bool cli_outputs_check(const struct catalog *c, const char *scenario, const char *prices,
		       const char *model_config,
		       const struct atomic_name *outs, size_t n_outs);

#endif
