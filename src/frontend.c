/*
 * frontend: what the command line and the wizard share above the engine:
 * opening the catalog (the bundled image, else through the cache) and
 * reporting a broken one on standard error, the same way for every command
 * and for the wizard before its screen opens.
 */
#include "config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_bundled.h"
#include "catalog_cache.h"
#include "frontend.h"

void frontend_print_errors(const struct catalog_errors *e)
{
	for (size_t i = 0; i < e->n; i++)
		fprintf(stderr, "%s\n", e->msg[i]);
	if (e->truncated)
		fprintf(stderr, "accelsizer: stopped after %d problems; fix these and run again\n",
			CATALOG_MAX_ERRORS);
}

/* Where the folder came from, for "not found" messages. */
const char *frontend_dir_origin(const char *flag_dir)
{
	if (flag_dir && *flag_dir)
		return " (from --catalog)";
	const char *env = getenv("ACCELSIZER_CATALOG");
	if (env && *env)
		return " (from $ACCELSIZER_CATALOG)";
	return "";
}

struct catalog *frontend_load_catalog(const char *flag_dir)
{
	char dir[PATH_MAX];
	if (!catalog_find_dir(flag_dir, dir, sizeof dir)) {
		if (dir[0])
			fprintf(stderr, "accelsizer: catalog folder '%s' not found%s\n", dir,
				frontend_dir_origin(flag_dir));
		else
			fprintf(stderr, "accelsizer: catalog folder path is too long\n");
		return NULL;
	}
	const char *dbg = getenv("ACCELSIZER_DEBUG_CACHE");
	bool debug = dbg && *dbg && strcmp(dbg, "0");
	/* The bundled catalog, unchanged, from the image linked into the
	 * program (catalog_bundled.h); any other folder through the cache:
	 * an unchanged, already validated folder is not parsed again
	 * (catalog_cache.h).  Same result, same errors either way. */
	struct catalog *c = catalog_bundled_load(dir);
	if (c) {
		if (debug)
			fprintf(stderr, "catalog: bundled image\n");
		return c;
	}
	struct catalog_errors e;
	struct catalog_cache_info ci;
	c = catalog_cache_load(dir, NULL, &e, &ci);
	if (debug)
		fprintf(stderr, "catalog: %s%s%s%s%s%s\n",
			ci.how == CATALOG_CACHE_HIT ? "from cache"
			: ci.how == CATALOG_CACHE_OFF ? "parsed (cache off)"
			: ci.written ? "parsed, cache written" : "parsed, cache not written",
			ci.path[0] ? " " : "", ci.path,
			ci.why[0] ? " (not trusted: " : "", ci.why, ci.why[0] ? ")" : "");
	if (!c) {
		frontend_print_errors(&e);
		fprintf(stderr, "accelsizer: the catalog in '%s' is invalid (%zu problem%s); "
			"fix it, or choose another with --catalog DIR\n",
			dir, e.n, e.n == 1 ? "" : "s");
	}
	catalog_errors_fini(&e);
	return c;
}

