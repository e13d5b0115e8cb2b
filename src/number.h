/*
 * number: the one syntax for numbers a person types, on the command line,
 * in the wizard's fields and in scenario files (docs/design.md, "Numbers";
 * accelsizer(1), NUMBERS).
 *
 *   digits, optionally grouped by thousands separators ("2,048",
 *   "1,000,000"), an optional fraction and exponent ("1.5", "2e12"), then
 *   a suffix the field's syntax allows:
 *     counts   k (10^3), M (10^6), B or G (10^9), T (10^12)
 *     times    ms, s, min, h, d (the field's own unit when none is given)
 *     money    a leading $, and k, M, B
 *   A leading minus is read (the field's range then refuses it).  Spaces
 *   around the number are ignored; hexadecimal, inf and nan are refused.
 *
 * Pure: no I/O, no globals.
 */
#ifndef ACCELSIZER_NUMBER_H
#define ACCELSIZER_NUMBER_H

#include <stdbool.h>
#include <stddef.h>

enum number_syntax { NUM_PLAIN, NUM_COUNT, NUM_TIME, NUM_MONEY };

/* Parses s into *out.  unit: for NUM_TIME, the field's unit ("ms",
 * "hours", "days"); otherwise unused (NULL).  On failure writes why, to
 * follow the quoted text: "'0x10' " + "is not a decimal number
 * (hexadecimal is not accepted)".  An overflow gives an infinite value,
 * for the caller's range check to refuse. */
bool number_parse(const char *s, enum number_syntax syn, const char *unit, double *out,
		  char *why, size_t whysz);
/* Examples of the syntax, for messages: "2048, 2,048, 2k, 1.5M, 2e12". */
const char *number_examples(enum number_syntax syn, const char *unit);

#endif
