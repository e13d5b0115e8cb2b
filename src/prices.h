/*
 * prices: a customer's or distributor's price list (CSV) that overrides the
 * catalog's indicative prices in a bill of materials, and carries the
 * quote's commercial terms: its currency, discounts, margin, support term
 * and the TCO and rental figures of the customer's own contracts.
 *
 * Format (read with libcsv; RFC 4180 quoting, so quoted fields may hold
 * commas, quotes and newlines):
 *   - the first record is a header naming the columns, in any order,
 *     matched case-insensitively after trimming spaces:
 *       sku             required  the part number the BOM lines use
 *       unit_price      required  the unit price in the list's currency,
 *                                 >= 0, plain decimal ("1234.5"; no "$",
 *                                 no thousands separators), rounded to
 *                                 cents; may be named unit_price_usd or
 *                                 unit_price_XXX (an ISO 4217 code), which
 *                                 then states the list's currency; empty on
 *                                 a line that only discounts the catalog's
 *                                 price
 *       currency        optional  an ISO 4217 code (3 letters) or empty;
 *                                 every code in the list must be the same
 *       category        optional  on a '*' line: the BOM category a
 *                                 discount applies to (accelerator,
 *                                 server, network, cable, rack, power,
 *                                 support, service, licence)
 *       discount_pct    optional  a decimal percentage 0-100 with at most
 *                                 6 decimals (12.345 is 12.345 %, not
 *                                 rounded), applied to the unit price,
 *                                 rounded to the cent (half up)
 *       description     optional  replaces the catalog description
 *   - any other column is an error (a misspelt "discount" must not be
 *     silently ignored and quote a price without the discount);
 *   - a line whose sku is '*' is a discount for every line of its
 *     category (every line when the category is empty) that has no
 *     discount of its own; it has no price;
 *   - lines with these SKUs are settings, their number in the price
 *     column:
 *       CURRENCY       units of the list's currency per USD (the exchange
 *                      rate catalog prices are converted at), with the
 *                      code in the currency column; required when the list
 *                      is not in USD
 *       MARGIN         the reseller's gross margin, percent of the selling
 *                      price (0 <= m < 100): a BOM line of its own, in the
 *                      capex, the ranking and the TCO
 *       SUPPORT-YEARS  the hardware support term quoted: 3 or 5 years
 *       ELECTRICITY, PUE, UTILISATION, TCO-YEARS, COLOCATION, LICENCE,
 *       SUPPORT-FRACTION:
 *                      the TCO's assumptions (engine_tco_inputs(); their
 *                      bounds are the workload fields', checked by
 *                      engine_prices_valid())
 *       RENT-ON-DEMAND:ID, RENT-1Y:ID, RENT-3Y:ID: the rental price per
 *                      GPU-hour of accelerator ID (engine_rent())
 *       RENT-TERM      the rental term rent or buy is judged against: 0
 *                      (on-demand), 1 or 3 (years reserved), as
 *                      --rent-term (which wins over it)
 *   - a UTF-8 byte-order mark at the start is skipped; LF or CRLF line
 *     ends; records whose fields are all empty are skipped (spreadsheets
 *     export them); the text must be UTF-8 without NUL bytes.
 *
 * Errors name the file, line and column of the field at fault (lines from
 * 1, columns in characters from 1): "FILE:LINE:COL: message".  The first
 * error stops the load; nothing is kept.
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
	bool has_price;			/* else it discounts the catalog's price */
	int64_t list_cents;		/* unit_price as written, in cents */
	bool has_discount;
	int32_t discount_upct;		/* discount in millionths of a percent
					 * (PRICES_PCT_ONE = 1 %) */
	int64_t net_cents;		/* list less discount, rounded half up */
	double value;			/* the price column as a number (settings) */
	char *description;		/* NULL when the list has none */
	long line, col;			/* where the line's first field is */
};

/* A '*' line: a discount for a category (NULL: every line). */
struct price_rule {
	char *category;
	int32_t discount_upct;
	long line, col;
};

struct prices {
	char *path;
	char currency[4];		/* ISO 4217, upper case; "USD" by default */
	double usd_rate;		/* units of currency per USD (1 for USD) */
	int32_t margin_upct;		/* MARGIN, millionths of a percent; 0 none */
	int support_years;		/* SUPPORT-YEARS; 0 = the catalog's */
	struct price_entry *items;	/* sorted by sku */
	size_t n;
	struct price_rule *rules;
	size_t n_rules;
	/* Private to prices.c: what the reader has seen. */
	bool currency_set_, rate_set_;
	long currency_line_, currency_col_;
};

#define PRICES_SKU_CURRENCY "CURRENCY"
#define PRICES_SKU_MARGIN "MARGIN"
#define PRICES_SKU_SUPPORT_YEARS "SUPPORT-YEARS"
#define PRICES_SKU_RENT_TERM "RENT-TERM"
#define PRICES_SKU_ANY "*"

void prices_init(struct prices *p);
void prices_fini(struct prices *p);

/* Reads a price list file.  On failure returns false with
 * "FILE:record N: message" (or "FILE: strerror") in err. */
bool prices_load(const char *path, struct prices *out, char *err, size_t errsz);
/* The same from memory; name is used in messages. */
bool prices_parse(const char *name, const char *text, size_t len, struct prices *out,
		  char *err, size_t errsz);

/* The list's exchange rate (units of its currency per USD); 1 without a
 * list.  Catalog figures are USD and are multiplied by it. */
double prices_usd_rate(const struct prices *p);
/* The list's currency code, "USD" without a list. */
const char *prices_currency(const struct prices *p);
/* How money in currency code is written before a figure: "$" for USD
 * (NULL too), else the code and a space ("EUR "). */
const char *prices_money_prefix(const char *code, char *buf, size_t n);
/* A column name in currency code: "capex_usd" -> "capex_eur",
 * "usd_per_mtok" -> "eur_per_mtok"; the name itself for USD or a name
 * without "usd".  Written into buf. */
const char *prices_money_name(const char *name, const char *code, char *buf, size_t n);

/* The entry for sku (exact match), or NULL. */
const struct price_entry *prices_find(const struct prices *p, const char *sku);

/* The unit price charged for a line of this sku and BOM category whose
 * catalog price (already in the list's currency) is catalog_cents: the
 * list's price, else the catalog's, less the line's own discount, else
 * its category's, else the '*' line's (half up).  *entry: the list's line
 * for the sku, or NULL.  Without a list: catalog_cents. */
int64_t prices_unit_cents(const struct prices *p, const char *sku, const char *category,
			  int64_t catalog_cents, const struct price_entry **entry,
			  int32_t *discount_upct);
/* The margin on a cost: cost x m / (1 - m), half up; 0 without one. */
int64_t prices_margin_cents(const struct prices *p, int64_t cost_cents);
/* cents less upct millionths of a percent, half up. */
int64_t prices_discounted(int64_t cents, int32_t upct);

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
