/*
 * cli: the subcommands.  Each *_main takes the arguments after the program
 * name (argv[0] is the subcommand) and returns the exit status:
 * 0 success, 1 the workload cannot be met, 2 bad input.
 */
#ifndef ACCELSIZER_CLI_H
#define ACCELSIZER_CLI_H

#include "catalog.h"
#include "frontend.h"

int cli_catalog_main(int argc, char **argv);
int cli_recommend_main(int argc, char **argv);
int cli_validate_main(int argc, char **argv);
int cli_bom_main(int argc, char **argv);
int cli_proposal_main(int argc, char **argv);
int cli_sweep_main(int argc, char **argv);

int cli_accuracy_main(int argc, char **argv);
int cli_compare_main(int argc, char **argv);

#endif
