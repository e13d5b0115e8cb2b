/*
 * Fuzz target: price lists, through prices_parse() (what prices_load()
 * runs on the file's bytes).  A list that loads must give what the BOM
 * relies on without checking again: every SKU found by prices_find(),
 * prices within the documented bounds, the net price never above the list
 * price, discounts within 0-100 %.
 */
#include "fuzz.h"

#include <stdio.h>
#include <string.h>

#include "prices.h"

int fuzz_prices_init(void)
{
	return 0;
}

static int check_prices(const struct prices *p)
{
	int bad = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct price_entry *e = &p->items[i];
		if (!e->sku || !*e->sku || !fuzz_printable_utf8(e->sku)) {
			fprintf(stderr, "fuzz: entry %zu has an empty or unprintable sku\n", i);
			bad = 1;
			continue;
		}
		if (prices_find(p, e->sku) != e) {
			fprintf(stderr, "fuzz: prices_find('%s') does not find its entry\n", e->sku);
			bad = 1;
		}
		if (e->list_cents < 0 || e->list_cents > 100000000000LL || e->net_cents < 0 ||
		    e->net_cents > e->list_cents || e->discount_upct < 0 || e->discount_upct > 100 * PRICES_PCT_ONE) {
			fprintf(stderr, "fuzz: sku '%s': list %lld, net %lld, discount %d millionths of a percent\n", e->sku,
				(long long)e->list_cents, (long long)e->net_cents, (int)e->discount_upct);
			bad = 1;
		}
		if (e->line < 2 || e->col < 1) {
			fprintf(stderr, "fuzz: sku '%s' at %ld:%ld (the header is line 1)\n",
				e->sku, e->line, e->col);
			bad = 1;
		}
	}
	if (!(p->usd_rate > 0) || strlen(p->currency) != 3 || p->margin_upct < 0 ||
	    p->margin_upct >= 100 * PRICES_PCT_ONE) {
		fprintf(stderr, "fuzz: currency '%s' at %g, margin %d\n", p->currency, p->usd_rate,
			(int)p->margin_upct);
		bad = 1;
	}
	return bad;
}

int fuzz_prices_one(const uint8_t *data, size_t size)
{
	struct prices p;
	char err[1024] = "";
	int bad = 0;
	if (prices_parse("fuzz.csv", (const char *)data, size, &p, err, sizeof err))
		bad = check_prices(&p);
	else if (!fuzz_clean_message("prices_parse", err, "fuzz.csv"))
		bad = 1;
	prices_fini(&p);
	return bad;
}
