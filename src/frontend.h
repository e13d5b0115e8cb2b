/*
 * frontend: what both front ends (the CLI commands and the wizard) share:
 * the exit statuses and opening the catalog with its problems reported on
 * standard error.  Nothing below the front ends includes it
 * (docs/design.md, "Layers").
 */
#ifndef ACCELSIZER_FRONTEND_H
#define ACCELSIZER_FRONTEND_H

#include "catalog.h"

/* 0 success, 1 the workload cannot be met, 2 bad input. */
enum { EXIT_OK = 0, EXIT_UNMET = 1, EXIT_BADINPUT = 2 };

/* Finds and loads the catalog (search order in catalog_find_dir), printing
 * every problem to stderr as file:line:col: message.  NULL on failure. */
struct catalog *frontend_load_catalog(const char *flag_dir);
/* Where the catalog folder came from, for "not found" messages:
 * " (from --catalog)", " (from $ACCELSIZER_CATALOG)" or "". */
const char *frontend_dir_origin(const char *flag_dir);
/* Prints a loader's problems, one a line, and says when it stopped. */
void frontend_print_errors(const struct catalog_errors *e);

/* The catalog's published results (ledger.h), their problems printed the
 * same way.  NULL on failure. */
struct ledger;
struct ledger *frontend_load_ledger(const struct catalog *c);
/* The error bands of the catalog's validation results (accuracy.h), for
 * the outputs that show them (recommend/sweep CSV and YAML, the validation
 * plan, the wizard); NULL (problems printed) on failure. */
struct accuracy_bands;
struct accuracy_bands *frontend_load_bands(const struct catalog *c);

/* The wizard (tui.c), from main.c. */
int tui_main(int argc, char **argv);

#endif
