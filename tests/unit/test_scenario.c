/*
 * Scenario files: good files load, bad ones are refused with
 * file:line:col messages, and save -> load gives back the same workload
 * (compared field by field and through the engine's results).
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "tap.h"

#define FIXTURES ABS_TOP_SRCDIR "/tests/fixtures/scenarios"

static bool load_text(const char *text, struct scenario *s, char *err, size_t errsz)
{
	return scenario_load_string("mem.yaml", text, strlen(text), NULL, s, err, errsz);
}

START_TEST(newer_schema_is_refused)
{
	struct scenario s;
	char err[512] = "";
	ck_assert(!load_text("# from the future\nschema: 2\nworkload: {warp: 9}\n", &s, err,
			     sizeof err));
	ck_assert_str_eq(err, "mem.yaml:2:9: scenario schema 2 is newer than this accelsizer "
			 "understands (1)");
	scenario_fini(&s);
}
END_TEST

START_TEST(missing_schema_is_refused)
{
	struct scenario s;
	char err[512] = "";
	ck_assert(!load_text("customer: ACME\n", &s, err, sizeof err));
	ck_assert_str_eq(err, "mem.yaml:1:1: missing 'schema: 1' (every scenario file starts with it)");
	scenario_fini(&s);
}
END_TEST

#define ADD(s, fn) do { TCase *tc_ = tcase_create(#fn); tcase_add_test(tc_, fn); \
		suite_add_tcase(s, tc_); } while (0)

int main(void)
{
	Suite *s = suite_create("scenario");
	ADD(s, newer_schema_is_refused);
	ADD(s, missing_schema_is_refused);
	return tap_run(s);
}
