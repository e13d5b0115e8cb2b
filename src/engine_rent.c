/*
 * engine_rent: rent or buy.  What renting the same GPUs by the hour costs,
 * on-demand and on 1- and 3-year reserved terms, and the first month in
 * which buying (capex up front, then the running costs of the TCO) has
 * cost no more than renting.  Pure: no I/O, nothing kept between calls.
 * The rules are in engine.h above engine_rent() and in docs/design.md,
 * "Rent or buy".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"
#include "prices.h"

static const char *const term_name[RENT_TERM_COUNT] = {
	"on-demand", "1-year reserved", "3-year reserved",
};
static const char *const term_key[RENT_TERM_COUNT] = {
	"on-demand", "reserved-1y", "reserved-3y",
};
static const char *const term_sku[RENT_TERM_COUNT] = {
	ENGINE_SKU_RENT_PREFIX_OD, ENGINE_SKU_RENT_PREFIX_1Y, ENGINE_SKU_RENT_PREFIX_3Y,
};

const char *engine_rent_term_name(enum engine_rent_term t)
{
	return (unsigned)t < RENT_TERM_COUNT ? term_name[t] : "?";
}

const char *engine_rent_term_key(enum engine_rent_term t)
{
	return (unsigned)t < RENT_TERM_COUNT ? term_key[t] : "?";
}

const char *engine_rent_sku_accel(const char *sku)
{
	for (int t = 0; sku && t < RENT_TERM_COUNT; t++) {
		size_t n = strlen(term_sku[t]);
		if (!strncmp(sku, term_sku[t], n))
			return sku + n;
	}
	return NULL;
}

char *engine_rent_sku(enum engine_rent_term t, const char *accel_id, char *buf, size_t n)
{
	if (n)
		snprintf(buf, n, "%s%s", (unsigned)t < RENT_TERM_COUNT ? term_sku[t] : "?",
			 accel_id ? accel_id : "ID");
	return buf;
}

/* The price list's rate for this accelerator and term, in the list's
 * currency, or -1 when it has none. */
static double listed_rate(const struct prices *p, const char *accel_id, enum engine_rent_term t)
{
	if (!p || !p->n)
		return -1;	/* no list: no need to spell the SKU */
	char sku[160];
	int n = snprintf(sku, sizeof sku, "%s%s", term_sku[t], accel_id);
	if (n < 0 || (size_t)n >= sizeof sku)
		return -1;
	const struct price_entry *e = prices_find(p, sku);
	return e ? e->net_cents / 100.0 : -1;
}

/* Buying's running cost in month m (1-based): a twelfth of its year's. */
static double month_running(const struct engine_result *r, int m)
{
	struct engine_tco_year y;
	engine_tco_year(r, (m + 11) / 12, &y);
	return (y.total_usd - y.capex_usd) / 12.0;
}

double engine_buy_cumulative(const struct engine_result *r, int month)
{
	double total = isfinite(r->capex_usd) ? r->capex_usd : INFINITY;
	for (int m = 1; m <= month; m++)
		total += month_running(r, m);
	return total;
}

int engine_rent_term_asked(const struct workload *w, enum engine_tco_origin *from)
{
	enum engine_tco_origin f = TCO_FROM_CATALOG;
	int t = -1;
	if (w && w->rent_term != RENTC_AUTO && w->rent_term < RENTC_COUNT) {
		t = (int)w->rent_term - 1;
		f = TCO_FROM_WORKLOAD;
	} else if (w && w->prices) {
		/* prices.c took only 0, 1 or 3 (years reserved; 0 on-demand) */
		const struct price_entry *e = prices_find(w->prices, PRICES_SKU_RENT_TERM);
		if (e && e->has_price) {
			t = e->value >= 2.5 ? RENT_3Y : e->value >= 0.5 ? RENT_1Y : RENT_ON_DEMAND;
			f = TCO_FROM_PRICES;
		}
	}
	if (from)
		*from = f;
	return t;
}

/* Hours a reserved term commits to (0 for on-demand: no commitment). */
static double term_hours(enum engine_rent_term t)
{
	return t == RENT_1Y ? ENG_HOURS_PER_YEAR : t == RENT_3Y ? 3 * ENG_HOURS_PER_YEAR : 0;
}

void eng_rent_with(const struct workload *w, const struct engine_result *r, const struct engine_tco_inputs *tin,
		   struct engine_rent *out)
{
	memset(out, 0, sizeof *out);
	out->basis = -1;
	out->asked = engine_rent_term_asked(w, &out->asked_from);
	const struct catalog_accel *a = r ? r->accel : NULL;
	if (!a || !r->platform || r->gpus < 1 || !(r->tco_usd > 0))
		return;
	const struct prices *p = w ? w->prices : NULL;
	double fx = prices_usd_rate(p);
	bool train = r->cls != WL_INFERENCE;
	out->horizon_months = r->tco_years * 12;
	out->buy_unpriced = engine_price_state(r) == PRICE_UNKNOWN;

	for (int t = 0; t < RENT_TERM_COUNT; t++) {
		double rate = listed_rate(p, a->id, (enum engine_rent_term)t);
		out->from_prices[t] = rate >= 0;
		if (rate < 0)
			rate = a->rent[t].usd * fx;
		if (!(rate > 0))
			continue;
		/* On demand, serving is up every hour and training rents only
		 * while it runs; a reserved term is a commitment billed for
		 * every hour of it, so a run shorter than the term pays the
		 * whole term. */
		double commit = term_hours((enum engine_rent_term)t);
		double busy = train && commit == 0 ? tin->v[TCO_UTILISATION] : 1.0;
		out->rate[t] = rate;
		out->month[t] = r->gpus * rate * ENGINE_HOURS_PER_MONTH * busy;
		out->rent[t] = train && isfinite(r->train_hours) ? r->gpus * rate * fmax(r->train_hours, commit)
				: r->gpus * rate * ENG_HOURS_PER_YEAR;
		/* The first month buying has cost no more than renting.  A
		 * month's running cost is its year's twelfth: worked out once a
		 * year, added month by month as engine_buy_cumulative() does. */
		double buy = engine_buy_cumulative(r, 0), running = 0;
		for (int m = 1; !out->buy_unpriced && m <= out->horizon_months; m++) {
			if (m % 12 == 1)
				running = month_running(r, m);
			buy += running;
			if (buy <= out->month[t] * m) {
				out->breakeven[t] = m;
				break;
			}
		}
		/* auto: the term that costs least for what is rented (a year
		 * of serving, or the run) */
		if (out->asked < 0 && (out->basis < 0 || out->rent[t] < out->rent[out->basis]))
			out->basis = t;
	}
	if (out->asked >= 0)
		out->basis = out->rate[out->asked] > 0 ? out->asked : -1;
}

void engine_rent(const struct catalog *c, const struct workload *w, const struct engine_result *r,
		 struct engine_rent *out)
{
	struct engine_tco_inputs in;
	engine_tco_inputs(c, w, &in);
	eng_rent_with(w, r, &in, out);
}

void engine_rent_breakeven(const struct engine_result *r, char *buf, size_t n)
{
	if (!n)
		return;
	const char *id = r && r->accel ? r->accel->id : "ID";
	if (r && r->rent_asked >= 0 && r->rent_asked < RENT_TERM_COUNT && r->rent_basis < 0)
		/* the term asked for has no rate: unpriced, never estimated */
		snprintf(buf, n, "no %s rate (a price list's %s%s)",
			 engine_rent_term_name((enum engine_rent_term)r->rent_asked), term_sku[r->rent_asked], id);
	else if (!r || r->rent_basis < 0 || !isfinite(r->rent_usd))
		snprintf(buf, n, "no rental price (a price list's RENT-ON-DEMAND:%s)", id);
	else if (engine_price_state(r) == PRICE_UNKNOWN)
		snprintf(buf, n, "no breakeven: the GPU has no price (a price list's %s)", r->accel->id);
	else if (isfinite(r->breakeven_months))
		snprintf(buf, n, "buying breaks even after %.0f month%s", r->breakeven_months,
			 r->breakeven_months == 1 ? "" : "s");
	else
		snprintf(buf, n, "buying does not break even in %d year%s", r->tco_years,
			 r->tco_years == 1 ? "" : "s");
}

void engine_rent_statement(const struct engine_result *r, char *buf, size_t n)
{
	engine_rent_breakeven(r, buf, n);
	if (!r || r->rent_basis < 0 || !isfinite(r->rent_usd) || engine_price_state(r) == PRICE_UNKNOWN)
		return;
	size_t len = strlen(buf);
	if (len < n)
		snprintf(buf + len, n - len, " against %s rental",
			 engine_rent_term_name((enum engine_rent_term)r->rent_basis));
}

void engine_rent_term_line(const struct engine_rent *rb, char *buf, size_t n)
{
	static const char *const from[] = {
		[TCO_FROM_CATALOG] = "auto", [TCO_FROM_WORKLOAD] = "your input",
		[TCO_FROM_PRICES] = "the price list",
	};
	if (!n)
		return;
	if (rb->asked >= 0 && rb->asked < RENT_TERM_COUNT)
		snprintf(buf, n, "%s  (%s)", engine_rent_term_name((enum engine_rent_term)rb->asked),
			 from[rb->asked_from]);
	else
		snprintf(buf, n, "the cheapest priced for the need  (auto)");
}
