/*
 * bom: the bill of materials for one sized configuration (an engine result),
 * and its exports: the BOM CSV and a plain-text summary.  Shared by `accelsizer bom`, `accelsizer validate -o` and the
 * wizard's export key, so all of them write the same files.
 *
 * Money is held in integer cents (int64): each line's extended price is
 * qty x unit price exactly and the total is exactly the sum of the lines.
 * Catalog prices (double USD) are rounded to the cent once, on the way in.
 *
 * CSV: one table, header
 *   line,category,sku,description,qty,unit_price_usd,extended_price_usd,
 *   power_w_each,rack_units_each,notes
 * then one row per line and a total row (category "total": extended price,
 * and in the power_w_each and rack_units_each columns the totals in those
 * columns' units, W and U: qty x each, summed).  Written with libcsv (a
 * field is quoted only when it holds a comma, quote, CR or LF, or
 * starts/ends with a space), numbers plainly ("123456.78"), through the
 * atomic writer, through the one CSV writer (out.h): the SKU, description
 * and notes cells are text, so a catalog description can never run as a
 * spreadsheet formula (a leading apostrophe before = + - @ TAB CR) nor
 * carry a control character.
 *
 * Ownership: bom_build() fills a caller-owned struct bom released with
 * bom_fini(); every string in it is owned by it.
 */
#ifndef ACCELSIZER_BOM_H
#define ACCELSIZER_BOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "catalog.h"
#include "engine.h"
#include "prices.h"

enum bom_category {
	BOM_ACCELERATOR, BOM_SERVER, BOM_NETWORK, BOM_CABLE, BOM_RACK, BOM_POWER,
	BOM_SUPPORT, BOM_SERVICE, BOM_LICENCE, BOM_MARGIN, BOM_STORAGE, BOM_CATEGORY_COUNT
};
const char *bom_category_name(enum bom_category c);	/* "accelerator" */
bool bom_category_parse(const char *s, enum bom_category *out);

/* Generic SKUs for the lines the catalog has no part number for; a price
 * list can price them like any other SKU. */
#define BOM_SKU_RACK ENGINE_SKU_RACK
#define BOM_SKU_PDU ENGINE_SKU_PDU
#define BOM_SKU_SUPPORT ENGINE_SKU_SUPPORT
#define BOM_SKU_BURN_IN ENGINE_SKU_BURN_IN

struct bom_line {
	int line;			/* 1-based */
	enum bom_category category;
	char *sku, *description, *notes;	/* notes may be "" */
	long qty;
	int64_t unit_cents;		/* after any price-list discount */
	int64_t extended_cents;		/* qty x unit_cents */
	double power_w_each;
	double rack_units_each;
	bool priced;			/* a price exists (catalog > 0 or price list) */
	bool from_price_list;
};

struct bom {
	struct bom_line *lines;
	size_t n, cap;
	int64_t total_cents;		/* sum of extended_cents, exactly */
	double total_power_w;		/* sum of qty x power_w_each */
	double total_rack_units;	/* sum of qty x rack_units_each */
	size_t n_unpriced;		/* lines with no price anywhere */
	/* what it was built from, for the summary (borrowed, not owned) */
	const struct catalog_accel *accel;
	const struct catalog_platform *platform;
	const struct catalog_fabric *fabric;
	int nodes, spare_nodes, gpus, racks;
	/* the engine's result it was built from, copied: its TCO for the
	 * summary (engine_tco_year()) */
	struct engine_result result;
};

void bom_init(struct bom *b);
void bom_fini(struct bom *b);

/*
 * Builds the BOM for one engine result (res->platform must be set; prices
 * may be NULL).  The lines, their quantities and prices are the engine's
 * quote (engine_quote(), priced with `prices`), so the BOM's total is the
 * result's capex_usd when res was sized with the same price list; this
 * file adds categories, descriptions and notes.  Returns false with a message
 * in err when the result cannot be turned into a BOM (no platform) or
 * memory runs out.
 */
bool bom_build(const struct catalog *c, const struct workload *w,
	       const struct engine_result *res, const struct prices *prices,
	       struct bom *out, char *err, size_t errsz);

/* Appends a line (used by bom_build; exposed for tests and extensions).
 * unit_cents < 0 means no price.  Keeps the totals. */
bool bom_add(struct bom *b, enum bom_category cat, const char *sku, const char *description,
	     long qty, int64_t unit_cents, double power_w_each, double rack_units_each,
	     const char *notes);

/* The marker of a line no source and no price list prices: quoted with
 * its quantity, blank money cells, and the total excludes it. */
#define BOM_UNPRICED "unpriced"
/* "line 7, line 8": the unpriced lines, for a total's note; "..." ends a
 * list too long for buf. */
void bom_unpriced_list(const struct bom *b, char *buf, size_t bufsz);

/* True when a line carries this SKU. */
bool bom_has_sku(const struct bom *b, const char *sku);

/* "123456.78": cents as plain decimal USD, no separators.  buf >= 32. */
void bom_format_cents(int64_t cents, char *buf, size_t bufsz);
/* A non-negative double as plainly as possible: "700", "10.5", "0.125". */
void bom_format_number(double v, char *buf, size_t bufsz);
/* USD (double, from the catalog) to cents, rounded half away from zero. */
int64_t bom_usd_to_cents(double usd);

/* The BOM as CSV, atomically.  err: "cannot write 'PATH': strerror". */
bool bom_write_csv(const struct bom *b, const char *path, char *err, size_t errsz);
bool bom_fwrite_csv(const struct bom *b, FILE *fp);

/*
 * The same table under a header block (`bom --header`), for a file sent
 * to a customer: one "key,value" row each for customer, opportunity,
 * scenario (the file it came from; empty for flags alone), date
 * (out_date()) and catalog version, then an empty row, then the table.
 * Off by default so that a plain import stays one table.  The values are
 * text cells: neutralised like every other (out.h).
 */
struct bom_header {
	const char *customer, *opportunity, *scenario;	/* each may be NULL */
};
bool bom_fwrite_csv_header(const struct bom *b, const struct catalog *c, const struct bom_header *h,
			   FILE *fp);

/*
 * The plain-text summary: the scenario (workload inputs; customer,
 * opportunity and notes when given, else NULL), the sizing, the defaults
 * the BOM used, the catalog version and the date (today, or
 * $SOURCE_DATE_EPOCH when set, for reproducible files).
 */
/* One of several workloads on the cluster the BOM quotes. */
struct bom_workload {
	const char *name;
	const struct workload *w;
	int gpus;			/* the cards (or cards' slices) it holds */
	const char *layout;		/* "2x TP4", "4x 1g.20gb" */
};
struct bom_summary_info {
	const char *customer, *opportunity, *notes;
	const char *prices_path;	/* NULL = catalog prices only */
	/* Several workloads on one cluster: each one's settings and share of
	 * it, and how they share it; NULL / 0 for one workload (w). */
	const struct bom_workload *workloads;
	size_t n_workloads;
	const char *sharing;
};
bool bom_write_summary(const struct bom *b, const struct catalog *c, const struct workload *w,
		       const struct bom_summary_info *info, const char *path,
		       char *err, size_t errsz);
bool bom_fwrite_summary(const struct bom *b, const struct catalog *c, const struct workload *w,
			const struct bom_summary_info *info, FILE *fp);

/*
 * The rack elevation of the BOM's result (engine_elevation()) as text:
 * every rack top down, unit by unit, with what it draws and its PDUs.
 */
bool bom_fwrite_elevation(const struct bom *b, const struct catalog *c, FILE *fp);

#endif
