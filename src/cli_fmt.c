/*
 * cli_fmt: "%.*f" and "%ld" without printf.
 *
 * "%.*f" prints the binary value's exact decimal expansion rounded to dec
 * decimals, halfway cases to even (glibc, in the default rounding mode).
 * The fast path scales by 10^dec, which is exact for dec <= 22, and gets
 * the product's rounding error exactly from fma(), so it knows on which
 * side of a halfway point the true product lies even when the rounded
 * product sits right on it.  Below 2^50 the error is under 1/8, which keeps
 * the three cases below exact.  tests/unit/test_cli_fmt.c compares it with
 * snprintf on ties, boundaries and a few hundred thousand random values.
 */
#include "cli_fmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Digits of v (any width) into buf, most significant first; returns the
 * count.  buf holds at least 20 bytes. */
static size_t utoa(uint64_t v, char *buf)
{
	char tmp[20];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

int cli_fmt_long(char *buf, size_t n, long v)
{
	char tmp[24];
	size_t len = 0;
	uint64_t u = (uint64_t)v;
	if (v < 0) {
		tmp[len++] = '-';
		u = 0 - u;	/* LONG_MIN too */
	}
	len += utoa(u, tmp + len);
	if (len + 1 > n)
		return snprintf(buf, n, "%ld", v);
	memcpy(buf, tmp, len);
	buf[len] = '\0';
	return (int)len;
}

int cli_fmt_fixed(char *buf, size_t n, double v, int dec)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	static const uint64_t u10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
	};
	if (dec < 0 || dec > 9 || !isfinite(v))
		return snprintf(buf, n, "%.*f", dec, v);
	bool neg = signbit(v) != 0;
	double a = fabs(v);
	double p = a * p10[dec];
	if (!(p < 0x1p50))
		return snprintf(buf, n, "%.*f", dec, v);
	double e = fma(a, p10[dec], -p);	/* a * 10^dec == p + e exactly */
	double fl = floor(p);
	double d = p - fl;			/* exact */
	uint64_t q = (uint64_t)fl;
	if (d > 0.75) {
		q++;
	} else if (d >= 0.25) {
		double s = (d - 0.5) + e;	/* d - 0.5 is exact; s has the true sign */
		if (s > 0 || (s == 0 && (q & 1)))
			q++;
	}
	char tmp[48];
	size_t len = 0;
	if (neg)
		tmp[len++] = '-';
	len += utoa(q / u10[dec], tmp + len);
	if (dec > 0) {
		tmp[len++] = '.';
		uint64_t f = q % u10[dec];
		for (int i = dec - 1; i >= 0; i--) {
			tmp[len + (size_t)i] = (char)('0' + f % 10);
			f /= 10;
		}
		len += (size_t)dec;
	}
	if (len + 1 > n)
		return snprintf(buf, n, "%.*f", dec, v);
	memcpy(buf, tmp, len);
	buf[len] = '\0';
	return (int)len;
}
