/*
 * Crash regressions: every input a fuzzer ever broke the program with is
 * kept in tests/fixtures/regress/TARGET/, and every seed of the fuzzers in
 * fuzz/corpus/TARGET/.  Each goes through the fuzz target's own entry point
 * (fuzz/fuzz_TARGET.c, built here with gcc and, in CI, with ASan/UBSan):
 * the input must be loaded with sane contents or refused with a clean
 * "file:line:col: message", and must not crash, leak or hit undefined
 * behaviour.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tap.h"

#define REGRESS ABS_TOP_SRCDIR "/tests/fixtures/regress"
#define CORPUS ABS_TOP_SRCDIR "/fuzz/corpus"

struct target {
	const char *name;
	int (*init)(void);
	int (*one)(const uint8_t *, size_t);
	bool ready;
};

static struct target targets[] = {
	{ "catalog", fuzz_catalog_init, fuzz_catalog_one, false },
	{ "scenario", fuzz_scenario_init, fuzz_scenario_one, false },
	{ "theme", fuzz_theme_init, fuzz_theme_one, false },
	{ "prices", fuzz_prices_init, fuzz_prices_one, false },
	{ "ledger", fuzz_ledger_init, fuzz_ledger_one, false },
	{ "cache", fuzz_cache_init, fuzz_cache_one, false },
	{ "number", fuzz_number_init, fuzz_number_one, false },
	{ "hfconfig", fuzz_hfconfig_init, fuzz_hfconfig_one, false },
};
#define N_TARGETS (sizeof targets / sizeof targets[0])

struct input {
	struct target *t;
	char path[1024];
	char name[1100];	/* the test case's name */
};

static struct input *inputs;
static size_t n_inputs, n_regress;

static void add_dir(struct target *t, const char *root)
{
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/%s", root, t->name);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README") ||
		    strstr(e->d_name, ".expect"))
			continue;
		struct input *ni = realloc(inputs, (n_inputs + 1) * sizeof *ni);
		if (!ni)
			abort();
		inputs = ni;
		inputs[n_inputs].t = t;
		int len = snprintf(inputs[n_inputs].path, sizeof inputs[n_inputs].path, "%s/%s",
				   dir, e->d_name);
		if (len > 0 && (size_t)len < sizeof inputs[n_inputs].path)
			n_inputs++;
	}
	closedir(d);
}


static void replay(const struct input *in)
{
	ck_assert_msg(in->t->ready, "the %s target could not be set up", in->t->name);
	size_t len = 0;
	uint8_t *data = fuzz_slurp(in->path, &len);
	ck_assert_msg(data != NULL, "cannot read %s", in->path);
	int rc = in->t->one(data, len);
	free(data);
	ck_assert_msg(rc == 0, "%s: loaded with bad contents or refused without a clean "
		      "message (see stderr)", in->path);
}

START_TEST(crash_regression)
{
	replay(&inputs[_i]);
}
END_TEST

START_TEST(fuzz_seed)
{
	replay(&inputs[n_regress + (size_t)_i]);
}
END_TEST

START_TEST(every_target_has_seeds)
{
	for (size_t t = 0; t < N_TARGETS; t++) {
		size_t n = 0;
		for (size_t i = n_regress; i < n_inputs; i++)
			n += inputs[i].t == &targets[t];
		ck_assert_msg(n >= 3, "fuzz/corpus/%s holds %zu seeds", targets[t].name, n);
	}
}
END_TEST

/* The entry points themselves tell a clean refusal from a dirty one. */
START_TEST(dirty_messages_are_caught)
{
	ck_assert(fuzz_clean_message("t", "a.yaml:1:2: bad", "a.yaml"));
	ck_assert(!fuzz_clean_message("t", "", "a.yaml"));
	ck_assert(!fuzz_clean_message("t", "b.yaml:1:2: bad", "a.yaml"));
	ck_assert(!fuzz_clean_message("t", "a.yaml:1:2: got '\x1b[2J'", "a.yaml"));
	ck_assert(!fuzz_clean_message("t", "a.yaml:1:2: two\nlines", "a.yaml"));
	ck_assert(!fuzz_clean_message("t", "a.yaml:1:2: \xc2\x9b" "2J", "a.yaml"));
	ck_assert(!fuzz_clean_message("t", "a.yaml:1:2: \xff", "a.yaml"));
	ck_assert(fuzz_clean_message("t", "a.yaml:1:2: caf\xc3\xa9\tok", "a.yaml"));
}
END_TEST

int main(void)
{
	for (size_t t = 0; t < N_TARGETS; t++) {
		targets[t].ready = targets[t].init() == 0;
		add_dir(&targets[t], REGRESS);
	}
	n_regress = n_inputs;
	for (size_t t = 0; t < N_TARGETS; t++)
		add_dir(&targets[t], CORPUS);

	/* One test case per input, named after its file, so a failure in the
	 * TAP output says which input broke. */
	Suite *s = suite_create("regress");
	for (size_t i = 0; i < n_inputs; i++) {
		const char *p = inputs[i].path + strlen(ABS_TOP_SRCDIR) + 1;
		snprintf(inputs[i].name, sizeof inputs[i].name, "%s %s",
			 i < n_regress ? "crash regression" : "fuzz seed", p);
		TCase *tc = tcase_create(inputs[i].name);
		tcase_set_timeout(tc, 60);
		if (i < n_regress)
			tcase_add_loop_test(tc, crash_regression, (int)i, (int)i + 1);
		else
			tcase_add_loop_test(tc, fuzz_seed, (int)(i - n_regress), (int)(i - n_regress) + 1);
		suite_add_tcase(s, tc);
	}
	TCase *tc = tcase_create("every fuzz target has at least 3 seeds");
	tcase_add_test(tc, every_target_has_seeds);
	suite_add_tcase(s, tc);
	tc = tcase_create("unclean messages (empty, other file, control characters) are caught");
	tcase_add_test(tc, dirty_messages_are_caught);
	suite_add_tcase(s, tc);
	int rc = tap_run(s);
	free(inputs);
	return rc;
}
