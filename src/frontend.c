/*
 * frontend: what the command line and the wizard share above the engine:
 * opening the catalog (the bundled image, else through the cache) and its
 * published results, and reporting a broken one on standard error, the same
 * way for every command and for the wizard before its screen opens.
 */
#include "config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy.h"
#include "catalog_bundled.h"
#include "catalog_cache.h"
#include "frontend.h"
#include "ledger.h"

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


struct ledger *frontend_load_ledger(const struct catalog *c)
{
	struct catalog_errors e;
	struct ledger *l = ledger_load(c, &e);
	if (!l) {
		frontend_print_errors(&e);
		fprintf(stderr, "accelsizer: the published results in '%s/published' are invalid "
			"(%zu problem%s); 'accelsizer catalog check' lists them\n", c->dir, e.n,
			e.n == 1 ? "" : "s");
	}
	catalog_errors_fini(&e);
	return l;
}

struct accuracy_bands *frontend_load_bands(const struct catalog *c)
{
	struct ledger *l = frontend_load_ledger(c);
	if (!l)
		return NULL;
	struct accuracy_bands *b = accuracy_bands_build(c, l);
	if (!b)
		fprintf(stderr, "accelsizer: out of memory\n");
	ledger_free(l);
	return b;
}
