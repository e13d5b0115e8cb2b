/*
 * Fuzz target: scenario files, through scenario_load_string() (the same
 * code scenario_load() runs once it has read the file) against the real
 * catalog.
 *
 * A scenario that loads must also survive what the program does with it
 * next: it is saved and reopened (the wizard's s and o keys) and must read
 * back to the same file, its settings are listed for reports, and the
 * engine sizes every accelerator for it, so absurd but accepted figures
 * (a billion tokens, a billion users) reach the arithmetic under UBSan.
 */
#define _GNU_SOURCE		/* open_memstream */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "engine.h"
#include "scenario.h"

#ifndef FUZZ_SCENARIO_CATALOG
#define FUZZ_SCENARIO_CATALOG ABS_TOP_SRCDIR "/catalog"
#endif

static struct catalog *cat;

int fuzz_scenario_init(void)
{
	struct catalog_errors errs;
	cat = catalog_load(FUZZ_SCENARIO_CATALOG, &errs);
	if (!cat)
		fprintf(stderr, "fuzz: the catalog %s does not load: %s\n", FUZZ_SCENARIO_CATALOG,
			errs.n ? errs.msg[0] : "?");
	catalog_errors_fini(&errs);
	return cat ? 0 : 1;
}

static void on_setting(const char *section, const char *key, const char *value, void *ctx)
{
	int *bad = ctx;
	if (!section || !key || !*key || !value) {
		fprintf(stderr, "fuzz: scenario_each_setting gave an empty setting\n");
		*bad = 1;
	}
}

/* The scenario as YAML text, malloc'd. */
static char *emit(const struct scenario *s, size_t *len, int *bad)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	if (!f)
		return NULL;
	char err[512] = "";
	if (!scenario_emit(s, f, err, sizeof err)) {
		fprintf(stderr, "fuzz: a loaded scenario cannot be saved: %s\n", err);
		*bad = 1;
	}
	fclose(f);
	return text;
}

static int after_load(struct scenario *s)
{
	int bad = 0;
	scenario_each_setting(&s->w, on_setting, &bad);

	size_t len1 = 0, len2 = 0;
	char *text1 = emit(s, &len1, &bad);
	if (text1) {
		struct scenario again;
		char err[512] = "";
		if (!scenario_load_string("saved.yaml", text1, len1, cat, &again, err, sizeof err)) {
			fprintf(stderr, "fuzz: a saved scenario does not reopen: %s\n--- saved:\n%s---\n",
				err, text1);
			bad = 1;
		} else {
			char *text2 = emit(&again, &len2, &bad);
			if (text2 && (len1 != len2 || memcmp(text1, text2, len1))) {
				fprintf(stderr, "fuzz: save, open, save changes the file\n--- first:\n"
					"%s--- second:\n%s---\n", text1, text2);
				bad = 1;
			}
			free(text2);
		}
		scenario_fini(&again);
	}
	free(text1);

	struct engine_report r;
	if (s->w.model && engine_report_init(&r, cat)) {
		engine_run(cat, &s->w, &r);
		for (size_t i = 0; i < r.n; i++) {
			struct engine_plan plan;
			if (r.results[i].fits && !r.results[i].filtered)
				engine_validation_plan(cat, &s->w, &r.results[i], &plan);
		}
		engine_report_fini(&r);
	}
	return bad;
}

int fuzz_scenario_one(const uint8_t *data, size_t size)
{
	if (!cat)
		return 0;
	struct scenario s;
	char err[1024] = "";
	int bad = 0;
	if (scenario_load_string("fuzz.yaml", (const char *)data, size, cat, &s, err, sizeof err))
		bad = after_load(&s);
	else if (!fuzz_clean_message("scenario_load", err, "fuzz.yaml"))
		bad = 1;
	scenario_fini(&s);
	return bad;
}
