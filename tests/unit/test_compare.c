/*
 * Unit tests of the comparison table (compare.c) behind `accelsizer
 * compare` and the wizard's pin: rows in the order first named, a value
 * missing in one column differs from one that is there, equal values do
 * not, the settings of a workload are the scenario file's words.
 */
#include <string.h>

#include "compare.h"
#include "engine.h"
#include "fixture.h"
#include "tap.h"

static struct catalog *cat;

START_TEST(rows_in_order_and_differences)
{
	static struct compare c;
	compare_init(&c, 3);
	compare_set(&c, 0, "workload", "model", "a");
	compare_set(&c, 1, "workload", "model", "a");
	compare_set(&c, 2, "workload", "model", "b");
	compare_set(&c, 0, "result", "gpus", "2");
	compare_set(&c, 1, "result", "gpus", "2");
	compare_set(&c, 2, "result", "gpus", "2");
	compare_set(&c, 0, "workload", "tokens", "1T");	/* only the first */
	compare_set(&c, 3, "workload", "model", "ignored");	/* no such column */
	compare_finish(&c);
	ck_assert_uint_eq(c.n_rows, 3);
	ck_assert_str_eq(c.rows[0].key, "model");
	ck_assert_str_eq(c.rows[1].key, "gpus");
	ck_assert(c.rows[0].differs);
	ck_assert(!c.rows[1].differs);
	ck_assert(c.rows[2].differs);
	ck_assert(c.rows[2].has[0] && !c.rows[2].has[1]);
	ck_assert_uint_eq(compare_n_differ(&c), 2);
}
END_TEST

START_TEST(full_table_says_so)
{
	static struct compare c;
	compare_init(&c, 2);
	char key[16];
	for (int i = 0; i < COMPARE_MAX_ROWS + 5; i++) {
		snprintf(key, sizeof key, "k%d", i);
		compare_set(&c, 0, "s", key, "v");
	}
	ck_assert_uint_eq(c.n_rows, COMPARE_MAX_ROWS);
	ck_assert(c.full);
}
END_TEST

START_TEST(settings_are_the_scenario_words)
{
	static struct compare c;
	struct workload a, b;
	engine_workload_init(&a, cat);
	engine_workload_init(&b, cat);
	b.concurrency = a.concurrency * 2;
	compare_init(&c, 2);
	compare_add_settings(&c, 0, &a);
	compare_add_settings(&c, 1, &b);
	compare_finish(&c);
	size_t differ = 0;
	bool found = false;
	for (size_t i = 0; i < c.n_rows; i++) {
		differ += c.rows[i].differs;
		if (!strcmp(c.rows[i].section, "workload") && !strcmp(c.rows[i].key, "concurrency"))
			found = c.rows[i].differs;
	}
	ck_assert_msg(found, "workload.concurrency is a row and differs");
	ck_assert_uint_eq(differ, 1);
}
END_TEST

int main(void)
{
	cat = fixture_shipped_catalog();
	Suite *s = suite_create("compare");
	TAP_ADD(s, rows_in_order_and_differences);
	TAP_ADD(s, full_table_says_so);
	TAP_ADD(s, settings_are_the_scenario_words);
	int rc = tap_run(s);
	catalog_free(cat);
	return rc;
}
