/*
 * Runs a Check suite and reports every test case as a TAP line, so that the
 * automake TAP driver counts each test, not each program.
 */
#ifndef ACCELSIZER_TEST_TAP_H
#define ACCELSIZER_TEST_TAP_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

static inline int tap_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	/* Forking isolates a crashing test, but ASan dislikes it; keep default. */
	srunner_run_all(sr, CK_SILENT);
	int n = srunner_ntests_run(sr);
	TestResult **res = srunner_results(sr);
	printf("1..%d\n", n);
	int failed = 0;
	for (int i = 0; i < n; i++) {
		int ok = tr_rtype(res[i]) == CK_PASS;
		failed += !ok;
		printf("%s %d - %s", ok ? "ok" : "not ok", i + 1, tr_tcname(res[i]));
		if (!ok)
			printf(" # %s:%d: %s", tr_lfile(res[i]) ? tr_lfile(res[i]) : "?",
			       tr_lno(res[i]), tr_msg(res[i]) ? tr_msg(res[i]) : "");
		putchar('\n');
	}
	free(res);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* A test case of one test, named as the TAP line will be; seconds > 0
 * replaces Check's timeout (the engine over the whole catalog under the
 * sanitizers needs more). */
static inline void tap_add_timeout(Suite *s, const char *name, const TTest *t, double seconds)
{
	TCase *tc = tcase_create(name);
	if (seconds > 0)
		tcase_set_timeout(tc, seconds);
	tcase_add_test(tc, t);
	suite_add_tcase(s, tc);
}

static inline void tap_add(Suite *s, const char *name, const TTest *t)
{
	tap_add_timeout(s, name, t, 0);
}

/* The same named after the test's function. */
#define TAP_ADD(s, fn) tap_add((s), #fn, (fn))
#define TAP_ADD_TIMEOUT(s, fn, seconds) tap_add_timeout((s), #fn, (fn), (seconds))

#endif
