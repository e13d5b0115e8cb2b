/*
 * cli_outputs: the inputs a command read, gathered for the identity check
 * of its outputs.  See cli_outputs.h.
 */
#include "cli_outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cli_outputs_distinct(const struct catalog *c, const char *scenario, const char *prices,
			  const char *model_config, const struct atomic_name *outs, size_t n_outs, char *err,
			  size_t errsz)
{
	size_t max = 3 + (c ? catalog_n_files(c) : 0);
	struct atomic_name *ins = calloc(max, sizeof *ins);
	const char **files = calloc(max, sizeof *files);
	if (!ins || !files) {
		free(ins);
		free(files);
		snprintf(err, errsz, "out of memory");
		return false;
	}
	size_t n = 0;
	if (scenario)
		ins[n++] = (struct atomic_name){ "--scenario file", scenario };
	if (prices)
		ins[n++] = (struct atomic_name){ "--prices file", prices };
	if (model_config)
		ins[n++] = (struct atomic_name){ "--model-config file", model_config };
	size_t nf = c ? catalog_files(c, files, max - n) : 0;
	for (size_t i = 0; i < nf; i++)
		ins[n++] = (struct atomic_name){ "catalog file", files[i] };
	bool ok = atomic_check_distinct(outs, n_outs, ins, n, err, errsz);
	free(files);
	free(ins);
	return ok;
}

bool cli_outputs_check(const struct catalog *c, const char *scenario, const char *prices,
		       const char *model_config, const struct atomic_name *outs, size_t n_outs)
{
	char err[8192];
	if (cli_outputs_distinct(c, scenario, prices, model_config, outs, n_outs, err, sizeof err))
		return true;
	fprintf(stderr, "accelsizer: %s\n", err);
	return false;
}
