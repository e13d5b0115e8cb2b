/*
 * Fuzz target: the number parsers every flag and price-list cell goes
 * through (issue 13): cli_parse_whole, cli_parse_number, cli_parse_tokens
 * (cli_workload.c) and prices_parse_pct, prices_parse_cents (prices.c).
 *
 * Input: the first byte picks the parser (modulo 5), the rest up to the
 * first NUL is the text.  A parser must either refuse, with a message for
 * the flag (the CLI ones), or give a value that keeps its promise: within
 * its range, finite where the range is, and the value the text means (as
 * strtoull/strtod read the same digits, to the unit of the result).
 */
#include "fuzz.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_workload.h"
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
	long v = -1;
	capture();
	bool ok = cli_parse_whole("--fuzz", s, 0, LONG_MAX, &v);
	release();
	if (refused_cleanly(ok))
		return 1;
	if (ok && (v < 0 || strspn(s, "0123456789") != strlen(s) ||
		   strtoull(s, NULL, 10) != (unsigned long long)v)) {
		fprintf(stderr, "fuzz: whole '%s' gave %ld\n", s, v);
		return 1;
	}
	return 0;
}

static int number(const char *s, bool tokens)
{
	double v = -1;
	capture();
	bool ok = tokens ? cli_parse_tokens("--fuzz", s, 0, HUGE_VAL, &v)
			 : cli_parse_number("--fuzz", s, 0, 1e300, &v);
	release();
	if (refused_cleanly(ok))
		return 1;
	if (!ok)
		return 0;
	double want = strtod(s, NULL);
	if (tokens) {
		/* the suffix scales by k, M, B/G or T: v / want is one of them */
		if (isnan(v) || v < 0 || (want > 0 && isfinite(v) &&
					  fabs(v / want - round(v / want)) > 1e-6 * (v / want))) {
			fprintf(stderr, "fuzz: tokens '%s' gave %g\n", s, v);
			return 1;
		}
	} else if (!isfinite(v) || v < 0 || v > 1e300 || v != want) {
		fprintf(stderr, "fuzz: number '%s' gave %g (strtod: %g)\n", s, v, want);
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
	switch (data[0] % 5) {
	case 0: return whole(s);
	case 1: return number(s, false);
	case 2: return number(s, true);
	case 3: return percent(s);
	default: return cents(s);
	}
}
