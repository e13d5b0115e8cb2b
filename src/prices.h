/*
 * prices: a customer's or distributor's price list (CSV) that overrides the
 * catalog's indicative prices in a bill of materials.
 *
 * Format (read with libcsv; RFC 4180 quoting, so quoted fields may hold
 * commas, quotes and newlines):
 *   - the first record is a header naming the columns, in any order,
 *     matched case-insensitively after trimming spaces:
 *       sku             required  the part number the BOM lines use
 *       unit_price_usd  required  list price of one unit, USD, >= 0,
 *                                 plain decimal ("1234.5"; no "$", no
 *                                 thousands separators), rounded to cents
 *       currency        optional  must be USD (or empty)
 *       discount_pct    optional  a decimal percentage 0-100 with at most
 *                                 6 decimals (12.345 is 12.345 %, not
 *                                 rounded), applied to the unit price,
 *                                 rounded to the cent (half up)
 *       description     optional  replaces the catalog description
 *   - any other column is an error (a misspelt "discount" must not be
 *     silently ignored and quote a price without the discount);
 *   - a UTF-8 byte-order mark at the start is skipped; LF or CRLF line
 *     ends; records whose fields are all empty are skipped (spreadsheets
 *     export them); the text must be UTF-8 without NUL bytes.
 *
 * libcsv reports no positions, so errors name the record, counted from the
 * header as record 1: "FILE:record N: message".  Blank lines are not
 * records.  The first error stops the load; nothing is kept.
 *
 * Ownership: prices_load()/prices_parse() fill a caller-owned struct that
 * prices_fini() releases (also after a failed load).
 */
#ifndef ACCELSIZER_PRICES_H
#define ACCELSIZER_PRICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Files larger than this are refused: a price list is a few thousand rows. */
#define PRICES_MAX_BYTES (16L * 1024 * 1024)

struct price_entry {
	char *sku;
	int64_t list_cents;		/* unit_price_usd as written, in cents */
	int32_t discount_upct;		/* discount in millionths of a percent
					 * (PRICES_PCT_ONE = 1 %) */
	int64_t net_cents;		/* list less discount, rounded half up */
	char *description;		/* NULL when the list has none */
	long record;			/* 1-based, header = 1 */
};

struct prices {
	char *path;
	struct price_entry *items;
	size_t n;
};

void prices_init(struct prices *p);
void prices_fini(struct prices *p);

/* Reads a price list file.  On failure returns false with
 * "FILE:record N: message" (or "FILE: strerror") in err. */
bool prices_load(const char *path, struct prices *out, char *err, size_t errsz);
/* The same from memory; name is used in messages. */
bool prices_parse(const char *name, const char *text, size_t len, struct prices *out,
		  char *err, size_t errsz);

/* The entry for sku (exact match), or NULL. */
const struct price_entry *prices_find(const struct prices *p, const char *sku);

/* Parses a non-negative decimal amount ("12", "12.5", "0.285") into cents,
 * rounding half up beyond the second decimal, without floating point.
 * Returns 0 on success, -1 when s is not a number, -2 when negative, -3 when
 * too large. */
int prices_parse_cents(const char *s, int64_t *out);

/* One percent in the unit of price_entry.discount_upct. */
#define PRICES_PCT_ONE 1000000
/* A percentage "12.345" -> 12345000 (millionths of a percent), exactly, in
 * 0..100.  Returns 0, -1 (not a plain decimal, or more than 6 decimals)
 * or -2 (outside 0-100). */
int prices_parse_pct(const char *s, int32_t *out);

#endif
