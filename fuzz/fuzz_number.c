/*
 * Fuzz target: the number parsers every flag, wizard field, scenario value
 * and price-list cell goes through (issue 13): number_parse() in each of
 * its syntaxes (number.c), cli_parse_whole() (cli_workload.c), and
 * prices_parse_pct() and prices_parse_cents() (prices.c).
 *
 * Input: the first byte picks the parser (modulo 8), the rest up to the
 * first NUL is the text.  A parser must either refuse, saying why, or give
 * a value that keeps its promise: number_parse() a value that is not NaN
 * and that it reads back the same from its own "%.17g" (in the same syntax
 * and unit: a round trip); the others a value within their range that the
 * digits mean (as strtoull/strtod read them, to the unit of the result).
 */
#include "fuzz.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_workload.h"
#include "number.h"
#include "prices.h"

int fuzz_number_init(void)
{
	return 0;
}

/* The CLI parsers print their refusal to stderr: caught in a memory
 * stream so that a fuzzing run is not millions of lines of log, and so
 * that the message can be checked. */
static FILE *saved;
static char *msg;
static size_t msg_len;

static void capture(void)
{
	fflush(stderr);
	saved = stderr;
	FILE *m = open_memstream(&msg, &msg_len);
	if (m)
		stderr = m;
}

static void release(void)
{
	if (stderr != saved) {
		fclose(stderr);
		stderr = saved;
	}
}

static int refused_cleanly(bool ok)
{
	int bad = 0;
	if (!ok && (!msg || strncmp(msg, "accelsizer: --fuzz: ", 20))) {
		fprintf(stderr, "fuzz: refused without a message naming the flag: '%s'\n", msg ? msg : "");
		bad = 1;
	}
	if (ok && msg && *msg) {
		fprintf(stderr, "fuzz: accepted, yet printed '%s'\n", msg);
		bad = 1;
	}
	free(msg);
	msg = NULL;
	return bad;
}

static int whole(const char *s)
{
	/* a range every double inside is exact in (the callers' are smaller:
	 * sweep --top is 1 to 100000) */
	const long max = 1000000000000000L;
	long v = -1;
	capture();
	bool ok = cli_parse_whole("--fuzz", s, 0, max, &v);
	release();
	if (refused_cleanly(ok))
		return 1;
	double d = NAN;
	char why[256];
	if (ok && (v < 0 || v > max || !number_parse(s, NUM_COUNT, NULL, &d, why, sizeof why) ||
		   d != (double)v)) {
		fprintf(stderr, "fuzz: whole '%s' gave %ld (number_parse: %.17g)\n", s, v, d);
		return 1;
	}
	return 0;
}

static int number(const char *s, enum number_syntax syn, const char *unit)
{
	char why[256] = "", again[64];
	double v = NAN, w = NAN;
	if (!number_parse(s, syn, unit, &v, why, sizeof why)) {
		if (!why[0]) {
			fprintf(stderr, "fuzz: '%s' refused without a reason\n", s);
			return 1;
		}
		return 0;
	}
	if (isnan(v)) {
		fprintf(stderr, "fuzz: '%s' read as NaN\n", s);
		return 1;
	}
	if (!isfinite(v))
		return 0;	/* an overflow, for the caller's range to refuse */
	snprintf(again, sizeof again, "%.17g", v);
	if (!number_parse(again, syn, unit, &w, why, sizeof why) || w != v) {
		fprintf(stderr, "fuzz: '%s' read as %s, which reads back as %.17g (%s)\n", s, again, w, why);
		return 1;
	}
	return 0;
}

static int percent(const char *s)
{
	int32_t v = -1;
	int rc = prices_parse_pct(s, &v);
	if (rc != 0)
		return rc == -1 || rc == -2 ? 0 : 1;
	double want = strtod(s, NULL) * PRICES_PCT_ONE;
	if (v < 0 || v > 100 * PRICES_PCT_ONE || fabs(want - v) > 1.0) {
		fprintf(stderr, "fuzz: percentage '%s' gave %d millionths (strtod: %.1f)\n", s, (int)v, want);
		return 1;
	}
	return 0;
}

static int cents(const char *s)
{
	int64_t v = -1;
	int rc = prices_parse_cents(s, &v);
	if (rc != 0)
		return rc >= -3 ? 0 : 1;
	/* rounded half up to the cent; strtod's binary value may sit just
	 * below a half, hence the one-cent slack */
	double want = strtod(s, NULL) * 100.0;
	if (v < 0 || v > 100000000000LL || fabs(want - (double)v) > 1.0) {
		fprintf(stderr, "fuzz: cents '%s' gave %lld (strtod: %.3f)\n", s, (long long)v, want);
		return 1;
	}
	return 0;
}

int fuzz_number_one(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	size_t n = size - 1 < 256 ? size - 1 : 256;
	char s[257];
	memcpy(s, data + 1, n);
	s[n] = '\0';
	switch (data[0] % 8) {
	case 0: return whole(s);
	case 1: return number(s, NUM_PLAIN, NULL);
	case 2: return number(s, NUM_COUNT, NULL);
	case 3: return number(s, NUM_TIME, "ms");
	case 4: return number(s, NUM_TIME, "hours");
	case 5: return number(s, NUM_MONEY, NULL);
	case 6: return percent(s);
	default: return cents(s);
	}
}
