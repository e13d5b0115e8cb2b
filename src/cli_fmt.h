/*
 * cli_fmt: numbers as text for the reports and the sweep, byte for byte
 * what snprintf's "%.*f" and "%ld" print, at a small fraction of printf's
 * cost.  A sweep writes tens of numbers per row and millions of rows;
 * formatting them with printf cost four times the engine's own work.
 *
 * Both return what snprintf would (the length of the whole text) and write
 * at most n bytes including the NUL.  Values the fast path cannot do
 * exactly (more than 9 decimals, magnitudes past 2^50 / 10^dec, NaN,
 * infinities, a buffer too small) go to snprintf itself.
 */
#ifndef ACCELSIZER_CLI_FMT_H
#define ACCELSIZER_CLI_FMT_H

#include <stddef.h>

int cli_fmt_fixed(char *buf, size_t n, double v, int dec);	/* "%.*f" */
int cli_fmt_long(char *buf, size_t n, long v);			/* "%ld" */

#endif
