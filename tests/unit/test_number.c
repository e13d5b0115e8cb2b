/*
 * number_parse(): the one number syntax of the CLI, the wizard and scenario
 * files (number.h).  Issue 12, item 8: the CLI refused "--budget-usd 3M"
 * and "--input-tokens 2k" while the wizard took them and "0x10" too.
 */
#include <math.h>
#include <string.h>

#include "number.h"
#include "tap.h"

static double ok(const char *s, enum number_syntax syn, const char *unit)
{
	double v = NAN;
	char why[160] = "";
	ck_assert_msg(number_parse(s, syn, unit, &v, why, sizeof why), "'%s' refused: %s", s, why);
	return v;
}

static const char *bad(const char *s, enum number_syntax syn, const char *unit)
{
	static char why[160];
	double v = 42;
	ck_assert_msg(!number_parse(s, syn, unit, &v, why, sizeof why), "'%s' accepted as %g", s, v);
	ck_assert(v == 42);	/* nothing stored on failure */
	return why;
}

START_TEST(counts)
{
	ck_assert(ok("2048", NUM_COUNT, NULL) == 2048);
	ck_assert(ok("2,048", NUM_COUNT, NULL) == 2048);
	ck_assert(ok("1,000,000", NUM_COUNT, NULL) == 1e6);
	ck_assert(ok("2k", NUM_COUNT, NULL) == 2000);
	ck_assert(ok("1.5M", NUM_COUNT, NULL) == 1.5e6);
	ck_assert(ok("500B", NUM_COUNT, NULL) == 5e11);
	ck_assert(ok("70G", NUM_COUNT, NULL) == 7e10);
	ck_assert(ok("2T", NUM_COUNT, NULL) == 2e12);
	ck_assert(ok("2e12", NUM_COUNT, NULL) == 2e12);
	ck_assert(ok(" 4096 ", NUM_COUNT, NULL) == 4096);
	ck_assert(ok("-5", NUM_COUNT, NULL) == -5);	/* the range refuses it */
	ck_assert(isinf(ok("1e400", NUM_COUNT, NULL)));	/* likewise */
}
END_TEST

START_TEST(refused_everywhere)
{
	static const enum number_syntax all[] = { NUM_PLAIN, NUM_COUNT, NUM_TIME, NUM_MONEY };
	for (size_t i = 0; i < 4; i++) {
		ck_assert_str_eq(bad("0x10", all[i], "ms"),
				 "is not a decimal number: hexadecimal is not accepted");
		ck_assert_str_eq(bad("2,04", all[i], "ms"),
				 "is not a number: thousands separators go every three digits (2,048 or 1,000,000)");
		bad("1,0000", all[i], "ms");
		bad(",100", all[i], "ms");
		bad("nan", all[i], "ms");
		bad("inf", all[i], "ms");
		bad("", all[i], "ms");
		bad("1e", all[i], "ms");
		bad("5.5.5", all[i], "ms");
		bad("2TT", all[i], "ms");
	}
	ck_assert_str_eq(bad("abc", NUM_COUNT, NULL),
			 "is not a number (e.g. 2048, 2,048, 2k, 1.5M, 2T, 2e12)");
}
END_TEST

START_TEST(suffixes_belong_to_their_syntax)
{
	bad("2k", NUM_PLAIN, NULL);
	bad("$5", NUM_COUNT, NULL);
	bad("3T", NUM_MONEY, NULL);
	bad("2k", NUM_TIME, "ms");
	ck_assert(ok("1,000", NUM_PLAIN, NULL) == 1000);
	ck_assert(ok("0.5", NUM_PLAIN, NULL) == 0.5);
}
END_TEST

START_TEST(money)
{
	ck_assert(ok("3M", NUM_MONEY, NULL) == 3e6);
	ck_assert(ok("$3M", NUM_MONEY, NULL) == 3e6);
	ck_assert(ok("$3,000,000", NUM_MONEY, NULL) == 3e6);
	ck_assert(ok("250k", NUM_MONEY, NULL) == 250e3);
	ck_assert(ok("1.5B", NUM_MONEY, NULL) == 1.5e9);
	ck_assert(ok("-$5", NUM_MONEY, NULL) == -5);
}
END_TEST

START_TEST(times)
{
	ck_assert(ok("500", NUM_TIME, "ms") == 500);
	ck_assert(ok("500ms", NUM_TIME, "ms") == 500);
	ck_assert(ok("1.5s", NUM_TIME, "ms") == 1500);
	ck_assert(ok("36h", NUM_TIME, "hours") == 36);
	ck_assert(ok("30d", NUM_TIME, "hours") == 720);
	ck_assert(ok("90min", NUM_TIME, "hours") == 1.5);
	ck_assert(ok("12h", NUM_TIME, "days") == 0.5);
	ck_assert(ok("2d", NUM_TIME, "days") == 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("number");
	tap_add(s, "counts: separators, k M B G T, exponents, spaces", counts);
	tap_add(s, "hex, inf, nan, misplaced separators refused in every syntax", refused_everywhere);
	tap_add(s, "suffixes only where their syntax allows them", suffixes_belong_to_their_syntax);
	tap_add(s, "money: $ and k M B", money);
	tap_add(s, "times: ms s min h d in the field's unit", times);
	return tap_run(s);
}
