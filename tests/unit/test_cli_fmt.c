/*
 * cli_fmt against snprintf itself: every output must be the same bytes.
 * Halfway cases (x.5 after scaling, exact in binary), values one ulp on
 * either side of them, powers of ten, zero and negative zero, the edges of
 * the fast path, and pseudo-random values over many magnitudes (a fixed
 * seed: the same values on every run).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli_fmt.h"
#include "tap.h"

static int mismatches;
static char first_bad[1200];

static void same(double v, int dec)
{
	char want[512], got[512];
	int wn = snprintf(want, sizeof want, "%.*f", dec, v);
	int gn = cli_fmt_fixed(got, sizeof got, v, dec);
	if (wn != gn || strcmp(want, got)) {
		if (!mismatches++)
			snprintf(first_bad, sizeof first_bad, "%.17g at %d: want %s, got %s", v, dec, want, got);
	}
}

static void around(double v, int dec)
{
	same(v, dec);
	same(nextafter(v, INFINITY), dec);
	same(nextafter(v, -INFINITY), dec);
	same(-v, dec);
}

START_TEST(halfway_cases_round_to_even)
{
	mismatches = 0;
	/* k + 0.5 scaled down: exact binary halves at every decimal count */
	for (int dec = 0; dec <= 9; dec++)
		for (int k = 0; k < 2000; k++) {
			double v = ((double)k + 0.5) / pow(10.0, dec);
			around(v, dec);
			around((double)k + 0.5, dec);
			around((double)k + 0.25, dec);
			around((double)k + 0.125, dec);
			around((double)k + 0.375, dec);
		}
	ck_assert_msg(mismatches == 0, "%d mismatches, first %s", mismatches, first_bad);
}
END_TEST

START_TEST(special_values)
{
	mismatches = 0;
	const double vals[] = { 0.0, -0.0, 1.0, -1.0, 0.05, -0.04, 0.1, 0.2, 0.3, 1e-300, -1e-300,
				5e-324, 0.9999999999, 9.9999, 99.995, 1.005, 2.675, 1e15, 1e16, 1e17,
				0x1p50, 0x1p50 - 1, 0x1p49 + 0.5, 1125899906842623.5, 4503599627370495.5,
				123456789.123456789, 3.35, 0.90, 1979.0, 1e22, 1e300, DBL_MAX, -DBL_MAX,
				INFINITY, -INFINITY, NAN };
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
		for (int dec = 0; dec <= 12; dec++)
			around(vals[i], dec);
	for (int dec = 0; dec <= 9; dec++)
		for (int e = -20; e <= 22; e++)
			around(pow(10.0, e), dec);
	ck_assert_msg(mismatches == 0, "%d mismatches, first %s", mismatches, first_bad);
}
END_TEST

/* xorshift64*: reproducible, no global state */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

START_TEST(random_values_match_snprintf)
{
	mismatches = 0;
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < 300000; i++) {
		uint64_t r = next(&s);
		/* a mantissa and a decimal exponent from 1e-12 to 1e18 */
		double m = (double)(r >> 11) / 9007199254740992.0;
		int e10 = (int)(next(&s) % 31) - 12;
		double v = m * pow(10.0, e10);
		if (r & 1)
			v = -v;
		int dec = (int)(next(&s) % 10);
		same(v, dec);
		/* a few decimals, as the engine's figures come out */
		same(round(v * 1000.0) / 1000.0, dec);
	}
	ck_assert_msg(mismatches == 0, "%d mismatches, first %s", mismatches, first_bad);
}
END_TEST

START_TEST(small_buffers_truncate_like_snprintf)
{
	char want[16], got[16];
	for (size_t n = 0; n <= sizeof got; n++) {
		memset(want, 'x', sizeof want);
		memset(got, 'x', sizeof got);
		int wn = snprintf(n ? want : NULL, n, "%.*f", 3, -1234.5678);
		int gn = cli_fmt_fixed(n ? got : NULL, n, -1234.5678, 3);
		ck_assert_int_eq(wn, gn);
		ck_assert(!memcmp(want, got, sizeof want));
	}
}
END_TEST

START_TEST(longs_match_snprintf)
{
	const long vals[] = { 0, 1, -1, 9, 10, 99, 100, 12345, -67890, 1000000007L, LONG_MAX, LONG_MIN };
	char want[32], got[32];
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		int wn = snprintf(want, sizeof want, "%ld", vals[i]);
		int gn = cli_fmt_long(got, sizeof got, vals[i]);
		ck_assert_int_eq(wn, gn);
		ck_assert_str_eq(want, got);
	}
	ck_assert_int_eq(cli_fmt_long(got, 3, 12345), 5);
	ck_assert_str_eq(got, "12");
}
END_TEST

/* 600000 snprintf comparisons under the sanitizers need more than Check's
 * default timeout. */
static void add(Suite *s, const char *name, const TTest *t)
{
	tap_add_timeout(s, name, t, 60);
}

int main(void)
{
	Suite *s = suite_create("cli_fmt");
	add(s, "fixed: halfway cases round to even, as printf", halfway_cases_round_to_even);
	add(s, "fixed: zero, -0, powers of ten, fast-path edges, NaN, infinities", special_values);
	add(s, "fixed: 600000 pseudo-random values equal snprintf's", random_values_match_snprintf);
	add(s, "fixed: small buffers truncate like snprintf", small_buffers_truncate_like_snprintf);
	add(s, "long: equals %ld, LONG_MIN included, truncation", longs_match_snprintf);
	return tap_run(s);
}
