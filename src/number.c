/*
 * number: the one number syntax (number.h).  A hand scan rather than
 * strtod() alone, because strtod() reads hexadecimal, "inf" and "nan" and
 * knows nothing of thousands separators or suffixes; the digits it is
 * finally given are plain decimal.
 */
#include "number.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct suffix {
	const char *text;
	double scale;
};

/* Counts: the suffixes people say for tokens, users and GPUs. */
static const struct suffix count_suffixes[] = {
	{ "k", 1e3 }, { "K", 1e3 }, { "M", 1e6 }, { "m", 1e6 }, { "B", 1e9 }, { "b", 1e9 },
	{ "G", 1e9 }, { "g", 1e9 }, { "T", 1e12 }, { "t", 1e12 }, { NULL, 0 },
};
/* Times, in seconds. */
static const struct suffix time_suffixes[] = {
	{ "ms", 1e-3 }, { "s", 1 }, { "min", 60 }, { "h", 3600 }, { "d", 86400 }, { NULL, 0 },
};
/* Money: thousands, millions, billions of dollars. */
static const struct suffix money_suffixes[] = {
	{ "k", 1e3 }, { "K", 1e3 }, { "M", 1e6 }, { "m", 1e6 }, { "B", 1e9 }, { "b", 1e9 },
	{ NULL, 0 },
};

/* Seconds in one of a time field's units. */
static double unit_seconds(const char *unit)
{
	if (unit && !strcmp(unit, "ms"))
		return 1e-3;
	if (unit && !strcmp(unit, "hours"))
		return 3600;
	if (unit && !strcmp(unit, "days"))
		return 86400;
	return 1;
}

const char *number_examples(enum number_syntax syn, const char *unit)
{
	switch (syn) {
	case NUM_COUNT: return "2048, 2,048, 2k, 1.5M, 2T, 2e12";
	case NUM_MONEY: return "3000000, 3,000,000, $3M, 250k";
	case NUM_TIME:
		if (unit && !strcmp(unit, "ms"))
			return "500, 500ms, 1.5s";
		if (unit && !strcmp(unit, "days"))
			return "30, 36h, 1.5d";
		return "720, 36h, 30d";
	case NUM_PLAIN: break;
	}
	return "20, 0.5, 1,000, 1e3";
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "is not a number (e.g. 2048, 2,048, 2k)": the examples follow a plain
 * "is not a number"; a message that says more stands alone. */
static bool fail(char *why, size_t whysz, const char *msg, enum number_syntax syn, const char *unit)
{
	if (why && whysz) {
		if (strchr(msg, ':'))
			snprintf(why, whysz, "%s", msg);
		else
			snprintf(why, whysz, "%s (e.g. %s)", msg, number_examples(syn, unit));
	}
	return false;
}

/* Digits with optional thousands separators into out (separators left
 * out); the groups after the first must be three digits.  Returns the
 * bytes read, 0 when the grouping is wrong. */
static size_t whole_part(const char *p, char *out, size_t *o, size_t cap, bool *bad_group)
{
	size_t i = 0, group = 0;
	bool grouped = false;
	*bad_group = false;
	for (;;) {
		if (is_digit(p[i])) {
			if (*o + 1 < cap)
				out[(*o)++] = p[i];
			group++;
			i++;
		} else if (p[i] == ',' && is_digit(p[i + 1])) {
			if ((!grouped && (group < 1 || group > 3)) || (grouped && group != 3))
				*bad_group = true;
			grouped = true;
			group = 0;
			i++;
		} else {
			break;
		}
	}
	if (grouped && group != 3)
		*bad_group = true;
	return i;
}

/* A fraction and an exponent after the whole part, appended to digits;
 * returns the fraction's digit count. */
static size_t fraction_and_exponent(const char **pp, char *digits, size_t *o, size_t cap)
{
	const char *p = *pp;
	size_t n = 0;
	if (*p == '.') {
		if (*o + 1 < cap)
			digits[(*o)++] = '.';
		for (p++; is_digit(*p); p++, n++)
			if (*o + 1 < cap)
				digits[(*o)++] = *p;
	}
	if ((*p == 'e' || *p == 'E') &&
	    (is_digit(p[1]) || ((p[1] == '+' || p[1] == '-') && is_digit(p[2])))) {
		if (*o + 2 < cap) {
			digits[(*o)++] = 'e';
			if (p[1] == '+' || p[1] == '-')
				digits[(*o)++] = p[1];
		}
		p += p[1] == '+' || p[1] == '-' ? 2 : 1;
		for (; is_digit(*p); p++)
			if (*o + 1 < cap)
				digits[(*o)++] = *p;
	}
	*pp = p;
	return n;
}

/* The scale of the suffix s for the syntax (1 for none); false if the
 * syntax has no such suffix. */
static bool suffix_scale(const char *s, enum number_syntax syn, const char *unit, double *scale)
{
	*scale = 1;
	if (!*s)
		return true;
	const struct suffix *list = syn == NUM_COUNT ? count_suffixes
				  : syn == NUM_TIME ? time_suffixes
				  : syn == NUM_MONEY ? money_suffixes : NULL;
	for (; list && list->text; list++)
		if (!strcmp(s, list->text)) {
			*scale = syn == NUM_TIME ? list->scale / unit_seconds(unit) : list->scale;
			return true;
		}
	return false;
}

bool number_parse(const char *s, enum number_syntax syn, const char *unit, double *out,
		  char *why, size_t whysz)
{
	if (!s)
		s = "";
	while (*s == ' ' || *s == '\t')
		s++;
	size_t len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	char text[128];
	if (len >= sizeof text)
		return fail(why, whysz, "is not a number", syn, unit);
	memcpy(text, s, len);
	text[len] = '\0';

	const char *p = text;
	bool neg = *p == '-';
	p += neg;
	if (syn == NUM_MONEY && *p == '$')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return fail(why, whysz, "is not a decimal number: hexadecimal is not accepted", syn, unit);

	/* digits[] holds the number with the separators taken out, for
	 * strtod(), which then sees nothing but plain decimal */
	char digits[96];
	size_t o = 0;
	bool bad_group;
	size_t whole = whole_part(p, digits, &o, sizeof digits, &bad_group);
	if (bad_group)
		return fail(why, whysz, "is not a number: thousands separators go every three digits "
			    "(2,048 or 1,000,000)", syn, unit);
	p += whole;
	size_t frac = fraction_and_exponent(&p, digits, &o, sizeof digits);
	double scale;
	if ((whole == 0 && frac == 0) || o + 1 >= sizeof digits || !suffix_scale(p, syn, unit, &scale))
		return fail(why, whysz, "is not a number", syn, unit);
	digits[o] = '\0';
	double v = strtod(digits, NULL) * scale;	/* overflow: HUGE_VAL, refused by the range */
	*out = neg ? -v : v;
	return true;
}
