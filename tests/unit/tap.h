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

#endif
