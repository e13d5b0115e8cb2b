/*
 * bom: lines from an engine result, totals in integer cents, and the CSV /
 * summary / plan exports.  The conventions (columns, quoting, formula
 * neutralisation, money) are in bom.h.
 */
#include "bom.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic.h"
#include "out.h"
#include "scenario.h"

static const char *const category_names[BOM_CATEGORY_COUNT] = {
	"accelerator", "server", "network", "cable", "rack", "power", "support", "service",
	"licence", "margin", "storage",
};

const char *bom_category_name(enum bom_category c)
{
	return (unsigned)c < BOM_CATEGORY_COUNT ? category_names[c] : "?";
}

bool bom_category_parse(const char *s, enum bom_category *out)
{
	for (int i = 0; i < BOM_CATEGORY_COUNT; i++)
		if (s && !strcmp(s, category_names[i])) {
			*out = (enum bom_category)i;
			return true;
		}
	return false;
}

/* ---- numbers ---- */

void bom_format_cents(int64_t cents, char *buf, size_t bufsz)
{
	const char *sign = cents < 0 ? "-" : "";
	uint64_t a = cents < 0 ? (uint64_t)0 - (uint64_t)cents : (uint64_t)cents;
	snprintf(buf, bufsz, "%s%llu.%02llu", sign, (unsigned long long)(a / 100),
		 (unsigned long long)(a % 100));
}

void bom_format_number(double v, char *buf, size_t bufsz)
{
	if (!isfinite(v)) {
		snprintf(buf, bufsz, "%s", "");
		return;
	}
	double a = fabs(v);
	if (a < 1e15 && v == floor(v)) {
		snprintf(buf, bufsz, "%.0f", v);
		return;
	}
	/* Six significant digits, never an exponent, no trailing zeros. */
	int before = a >= 1 ? (int)floor(log10(a)) + 1 : 0;
	int decimals = 6 - before;
	if (a < 1 && a > 0)
		decimals = 6 - (int)floor(log10(a)) - 1;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 12)
		decimals = 12;
	snprintf(buf, bufsz, "%.*f", decimals, v);
	char *dot = strchr(buf, '.');
	if (dot) {
		char *end = buf + strlen(buf);
		while (end > dot + 1 && end[-1] == '0')
			*--end = '\0';
		if (end == dot + 1)
			*dot = '\0';
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, bufsz, "0");
}

int64_t bom_usd_to_cents(double usd)
{
	if (!isfinite(usd) || usd <= 0)
		return 0;
	return (int64_t)llround(usd * 100.0);
}

/* ---- building ---- */

void bom_init(struct bom *b)
{
	memset(b, 0, sizeof *b);
}

void bom_fini(struct bom *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->lines[i].sku);
		free(b->lines[i].description);
		free(b->lines[i].notes);
	}
	free(b->lines);
	bom_init(b);
}

bool bom_add(struct bom *b, enum bom_category cat, const char *sku, const char *description,
	     long qty, int64_t unit_cents, double power_w_each, double rack_units_each,
	     const char *notes)
{
	if (b->n == b->cap) {
		size_t ncap = b->cap ? 2 * b->cap : 16;
		struct bom_line *nl = realloc(b->lines, ncap * sizeof *nl);
		if (!nl)
			return false;
		b->lines = nl;
		b->cap = ncap;
	}
	struct bom_line *l = &b->lines[b->n];
	memset(l, 0, sizeof *l);
	l->line = (int)b->n + 1;
	l->category = cat;
	l->qty = qty < 0 ? 0 : qty;
	l->priced = unit_cents > 0;
	l->unit_cents = unit_cents > 0 ? unit_cents : 0;
	int64_t total;
	if (__builtin_mul_overflow(l->unit_cents, (int64_t)l->qty, &l->extended_cents) ||
	    __builtin_add_overflow(b->total_cents, l->extended_cents, &total))
		return false;
	l->power_w_each = power_w_each > 0 ? power_w_each : 0;
	l->rack_units_each = rack_units_each > 0 ? rack_units_each : 0;
	l->sku = strdup(sku ? sku : "");
	l->description = strdup(description ? description : "");
	l->notes = strdup(notes ? notes : "");
	if (!l->sku || !l->description || !l->notes) {
		free(l->sku);
		free(l->description);
		free(l->notes);
		return false;
	}
	b->total_cents = total;
	b->total_power_w += (double)l->qty * l->power_w_each;
	b->total_rack_units += (double)l->qty * l->rack_units_each;
	if (!l->priced)
		b->n_unpriced++;
	b->n++;
	return true;
}

void bom_unpriced_list(const struct bom *b, char *buf, size_t bufsz)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < b->n && len < bufsz; i++) {
		if (b->lines[i].priced)
			continue;
		int k = snprintf(buf + len, bufsz - len, "%sline %d", len ? ", " : "", b->lines[i].line);
		if (k < 0 || (size_t)k >= bufsz - len) {
			/* no room for every line: say there are more */
			if (bufsz > 4)
				snprintf(buf + (len < bufsz - 4 ? len : bufsz - 4), 4, "...");
			return;
		}
		len += (size_t)k;
	}
}

bool bom_has_sku(const struct bom *b, const char *sku)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->lines[i].sku, sku))
			return true;
	return false;
}

/* A line's notes, built up piece by piece ("a; b; c"). */
struct notes {
	char buf[512];
	size_t len;
};

static void note(struct notes *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct notes *n, const char *fmt, ...)
{
	if (n->len && n->len + 2 < sizeof n->buf) {
		memcpy(n->buf + n->len, "; ", 3);
		n->len += 2;
	}
	if (n->len >= sizeof n->buf - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int m = vsnprintf(n->buf + n->len, sizeof n->buf - n->len, fmt, ap);
	va_end(ap);
	if (m > 0)
		n->len += (size_t)m < sizeof n->buf - n->len ? (size_t)m : sizeof n->buf - n->len - 1;
}

/* Catalog prices are estimates until a price list replaces them. */
#define INDICATIVE "indicative catalog price"

/* Platform BOM categories are free text in the catalog; anything that is
 * not one of ours is a server component (CPU, memory, drives). */
static enum bom_category platform_category(const char *s)
{
	enum bom_category c;
	if (bom_category_parse(s, &c))
		return c;
	if (s && (!strcmp(s, "nic") || !strcmp(s, "networking")))
		return BOM_NETWORK;
	return BOM_SERVER;
}

struct builder {
	const struct catalog *c;
	const struct engine_result *res;
	struct bom *b;
	long all_nodes;
	const char *support_from, *licence_from;	/* where the term and rate came from */
	const char *share_from;
	double support_share;
	char margin_pct[32];
	bool spares_set;		/* --spare-nodes, not the catalog's policy */
	bool ok;
};

/* The notes of a front-end or out-of-band network's switch or cable. */
static void describe_network(const struct engine_quote_line *l, long all_nodes, struct notes *n)
{
	const struct catalog_network *nw = l->network;
	const char *what = !strcmp(nw->role, "oob") ? "out-of-band management"
		: "front-end, in-band management and storage";
	if (l->item == QUOTE_SWITCH) {
		if (nw->min_switches > 1)
			note(n, "%s network: %ld node ports (%d per node, to %d separate switches) on "
			     "%d-port switches, in sets of %d", what, all_nodes * nw->ports_per_node,
			     nw->ports_per_node, nw->min_switches, nw->ports, nw->min_switches);
		else
			note(n, "%s network: %ld node port%s (%d per node) on %d-port switches, at least one",
			     what, all_nodes * nw->ports_per_node,
			     all_nodes * nw->ports_per_node == 1 ? "" : "s", nw->ports_per_node, nw->ports);
	} else {
		note(n, "%s network: one per node port, %s", what,
		     l->optics ? "optics across racks" : "copper within one rack");
	}
	/* a switch always draws power: 0 is a figure no source gave */
	if (l->item == QUOTE_SWITCH && l->power_w_each <= 0)
		note(n, "power: no datasheet figure in the catalog, not in power_kw");
}

/* The description and the notes of one of the engine's
 * quote lines: all bom.c adds to them (quantities and prices are the
 * engine's, engine_quote()). */
static void describe(const struct builder *bd, const struct engine_quote_line *l,
		     struct notes *n, char *desc, size_t descsz, const char **origin)
{
	const struct catalog_defaults *d = &bd->c->defaults;
	const struct engine_result *res = bd->res;
	const struct catalog_platform *p = res->platform;
	const struct catalog_fabric *f = res->fabric;
	long all_nodes = bd->all_nodes;
	char a[32], b[32], c[32];
	snprintf(desc, descsz, "%s", l->description ? l->description : "");
	*origin = INDICATIVE;
	if (l->network) {
		describe_network(l, all_nodes, n);
		*origin = "catalog price (defaults.networks)";
		return;
	}
	switch (l->item) {
	case QUOTE_SERVER:
		bom_format_number(p->max_power_w, a, sizeof a);
		if (res->spare_nodes > 0)
			note(n, "%d working + %d spare node%s (%s)", res->nodes, res->spare_nodes,
			     res->spare_nodes == 1 ? "" : "s", bd->spares_set ? "--spare-nodes"
			     : res->cls == WL_INFERENCE ? "N+1 for serving, defaults.spare_nodes_serving"
			     : "defaults.spare_nodes");
		note(n, "power here is the node's %s W less its GPUs and parts listed below", a);
		if (p->whole_rack)
			note(n, "each node is a whole rack (%d U) with its own power shelves: %ld rack%s, "
			     "no enclosure or PDUs added for %s", p->rack_units, all_nodes,
			     all_nodes == 1 ? "" : "s", all_nodes == 1 ? "it" : "them");
		return;
	case QUOTE_ACCEL:
		note(n, "up to %d per node", p->gpus_per_node);
		if (res->gpus > 0 && res->gpus < l->qty)
			note(n, "the workload uses %d, the rest are spares or fill whole baseboards",
			     res->gpus);
		return;
	case QUOTE_PART:
		note(n, "%d per node", l->part->qty);
		return;
	case QUOTE_NIC:
		bom_format_number(f->port_gbit, a, sizeof a);
		note(n, "%s Gb/s, %d per node", a, p->nic_count);
		return;
	case QUOTE_SWITCH:
		bom_format_number(f->port_gbit, a, sizeof a);
		if (res->spine_switches > 0)
			note(n, "%d leaf + %d spine, %d ports of %s Gb/s each", res->leaf_switches,
			     res->spine_switches, f->switch_radix, a);
		else
			note(n, "%d ports of %s Gb/s", f->switch_radix, a);
		if (p->nics_on_accel)
			note(n, "%d node ports: %d per node on the accelerators, no NIC cards",
			     res->nics, p->nic_count);
		return;
	case QUOTE_CABLE:
		note(n, l->optics ? "one link: cable and both transceivers"
		     : "one link: its share of a passive copper splitter cable, the cluster in one rack");
		return;
	case QUOTE_RACK:
		bom_format_number(res->rack_kw, a, sizeof a);
		bom_format_number(d->rack_units.value, b, sizeof b);
		snprintf(desc, descsz, "Rack enclosure, %s U, installed", b);
		if (p->whole_rack)
			note(n, "for the network switches; the %ld whole-rack node%s bring%s %s own "
			     "rack and power shelves", all_nodes, all_nodes == 1 ? "" : "s",
			     all_nodes == 1 ? "s" : "", all_nodes == 1 ? "its" : "their");
		note(n, "sized at %s kW and %s U per rack (%s, defaults.rack_units)", a, b,
		     res->rack_kw_set ? "--rack-kw" : "defaults.rack_kw");
		*origin = "catalog price (defaults.rack_price_usd)";
		return;
	case QUOTE_PDU:
		snprintf(desc, descsz, "Metered rack PDU");
		note(n, "%ld per rack (defaults.pdu_per_rack)", (long)llround(d->pdu_per_rack.value));
		*origin = "catalog price (defaults.pdu_price_usd)";
		return;
	case QUOTE_SUPPORT:
		bom_format_number(bd->support_share * 100.0, b, sizeof b);
		bom_format_cents(l->support_base_cents, c, sizeof c);
		snprintf(desc, descsz, "Hardware support, %d year%s", l->years, l->years == 1 ? "" : "s");
		note(n, "%d year%s x %s%% per year of hardware %s (support term: %s; "
		     "share: %s)", l->years, l->years == 1 ? "" : "s", b, c, bd->support_from,
		     bd->share_from);
		*origin = NULL;
		return;
	case QUOTE_LICENCE:
		if (l->licence) {
			bom_format_number(l->licence->usd_per_gpu_year, a, sizeof a);
			note(n, "per GPU for %d year%s, the support term; USD %s per GPU per year as of "
			     "%s (%s)", l->years, l->years == 1 ? "" : "s", a, l->licence->date,
			     l->licence->source);
		} else {
			snprintf(desc, descsz, "Software licences, per GPU");
			note(n, "per GPU for %d year%s, the support term, at the LICENCE rate (%s)",
			     l->years, l->years == 1 ? "" : "s", bd->licence_from);
		}
		*origin = NULL;
		return;
	case QUOTE_MARGIN:
		bom_format_cents(l->support_base_cents, c, sizeof c);
		snprintf(desc, descsz, "Margin");
		note(n, "the price list's MARGIN: %s%% of the selling price on %s", bd->margin_pct, c);
		*origin = NULL;
		return;
	case QUOTE_SERVICE:
		snprintf(desc, descsz, "Installation and burn-in (per node)");
		note(n, "per node, spares included: racking, cabling, firmware, GPU and all-reduce "
		     "burn-in, acceptance report");
		*origin = "catalog figure (defaults.burn_in_usd_per_node)";
		return;
	case QUOTE_STORAGE:
		snprintf(desc, descsz, "Shared storage, per TB");
		note(n, "the TB asked for (--storage-tb), rounded up to whole TB");
		*origin = NULL;		/* only a price list's STORAGE line prices it */
		return;
	default:
		return;
	}
}

/* One BOM line per quote line: the price list's price and description
 * when it has the SKU, else the catalog's with the note a quote needs. */
static void add_quote_line(const struct engine_quote_line *l, void *ctx)
{
	struct builder *bd = ctx;
	if (!bd->ok)
		return;
	struct notes n = { .len = 0 };
	char desc[256];
	const char *origin;
	describe(bd, l, &n, desc, sizeof desc, &origin);
	/* the category is the engine's (the one the price list discounts) */
	enum bom_category cat = platform_category(engine_quote_category(l));
	const char *description = desc;
	const struct price_entry *pe = l->price;
	char pct[32];
	bom_format_number((double)l->discount_upct / PRICES_PCT_ONE, pct, sizeof pct);
	if (pe && pe->description)
		description = pe->description;
	if (pe && pe->has_price) {
		char list[32];
		bom_format_cents(pe->list_cents, list, sizeof list);
		if (l->discount_upct)
			note(&n, "price list: %s less %s%%%s", list, pct,
			     pe->has_discount ? "" : " (its category's discount)");
		else
			note(&n, "price list");
	} else if (l->unit_cents > 0 && origin) {
		if (l->discount_upct)
			note(&n, "%s less %s%% (price list%s)", origin, pct,
			     pe ? "" : ", its category's discount");
		else
			note(&n, "%s", origin);
	}
	if (l->unit_cents <= 0)
		note(&n, BOM_UNPRICED ": give SKU %s a price in your price list (--prices)", l->sku);
	if (!bom_add(bd->b, cat, l->sku, description, l->qty, l->unit_cents, l->power_w_each,
		     l->rack_units_each, n.buf))
		bd->ok = false;
	else if (pe)
		bd->b->lines[bd->b->n - 1].from_price_list = true;
}

bool bom_build(const struct catalog *c, const struct workload *w,
	       const struct engine_result *res, const struct prices *prices,
	       struct bom *out, char *err, size_t errsz)
{
	bom_init(out);
	const struct catalog_platform *p = res ? res->platform : NULL;
	const struct catalog_accel *a = res ? res->accel : NULL;
	if (!p || !a) {
		snprintf(err, errsz, "no node configuration for %s: it cannot run this workload",
			 a ? a->name : "this accelerator");
		return false;
	}
	out->accel = a;
	out->platform = p;
	out->fabric = res->fabric;
	out->nodes = res->nodes;
	out->spare_nodes = res->spare_nodes;
	out->gpus = res->gpus;
	out->racks = isfinite(res->racks) ? (int)llround(res->racks) : 0;
	out->result = *res;
	struct builder bd = {
		.c = c, .res = res, .b = out, .ok = true, .spares_set = w && w->spare_nodes >= 0,
		.all_nodes = (long)res->nodes + (res->spare_nodes > 0 ? res->spare_nodes : 0),
	};
	/* The engine's own quote, priced with the list given here. */
	struct workload wp;
	if (w)
		wp = *w;
	else
		memset(&wp, 0, sizeof wp);
	wp.prices = prices;
	struct engine_tco_inputs in;
	engine_tco_inputs(c, &wp, &in);
	static const char *const from[] = { "defaults.yaml", "the workload", "the price list" };
	bd.support_from = in.from[TCO_SUPPORT_YEARS] == TCO_FROM_CATALOG ? "defaults.support_years"
			  : from[in.from[TCO_SUPPORT_YEARS]];
	bd.licence_from = from[in.from[TCO_LICENCE]];
	bd.share_from = in.from[TCO_SUPPORT_FRACTION] == TCO_FROM_CATALOG ? "defaults.support_fraction_per_year"
			: from[in.from[TCO_SUPPORT_FRACTION]];
	bd.support_share = in.v[TCO_SUPPORT_FRACTION];
	bom_format_number(prices ? (double)prices->margin_upct / PRICES_PCT_ONE : 0, bd.margin_pct,
			  sizeof bd.margin_pct);
	struct engine_quote_totals t;
	engine_quote(c, &wp, res, add_quote_line, &bd, &t);
	if (!bd.ok || t.overflow) {
		snprintf(err, errsz, "out of memory or amounts too large while building the BOM");
		bom_fini(out);
		return false;
	}
	return true;
}

/* ---- CSV export ---- */

static const char *const bom_header[] = {
	"line", "category", "sku", "description", "qty", "unit_price_usd",
	"extended_price_usd", "power_w_each", "rack_units_each", "notes",
};

static bool fwrite_csv(const struct bom *b, const struct catalog *c, const struct bom_header *h,
		       FILE *fp);

bool bom_fwrite_csv(const struct bom *b, FILE *fp)
{
	return fwrite_csv(b, NULL, NULL, fp);
}

bool bom_fwrite_csv_header(const struct bom *b, const struct catalog *c, const struct bom_header *h,
			   FILE *fp)
{
	return fwrite_csv(b, c, h, fp);
}

static void header_block(struct out_csv *o, const struct catalog *c, const struct bom_header *h)
{
	char date[32];
	out_date(date, sizeof date);
	const char *rows[][2] = {
		{ "customer", h->customer }, { "opportunity", h->opportunity },
		{ "scenario", h->scenario }, { "date", date },
		{ "catalog", c && c->defaults.version ? c->defaults.version : "" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		out_csv_cell(o, rows[i][0], OUT_PLAIN);
		out_csv_cell(o, rows[i][1] ? rows[i][1] : "", OUT_TEXT);
		out_csv_end(o);
	}
	out_csv_end(o);	/* an empty row, then the table */
}

static bool fwrite_csv(const struct bom *b, const struct catalog *c, const struct bom_header *h,
		       FILE *fp)
{
	struct out_csv o;
	out_csv_begin(&o, fp, OUT_CSV_QUOTE_NEEDED);
	if (h)
		header_block(&o, c, h);
	/* the money columns say the currency: unit_price_eur ... */
	char h5[32], h6[32];
	const char *cur = b->result.currency;
	const char *header[10];
	memcpy(header, bom_header, sizeof header);
	header[5] = prices_money_name(bom_header[5], cur, h5, sizeof h5);
	header[6] = prices_money_name(bom_header[6], cur, h6, sizeof h6);
	out_csv_row(&o, header, 10, OUT_PLAIN);
	for (size_t i = 0; i < b->n; i++) {
		const struct bom_line *l = &b->lines[i];
		char line[24], qty[24], unit[32], ext[32], pw[32], ru[32];
		snprintf(line, sizeof line, "%d", l->line);
		snprintf(qty, sizeof qty, "%ld", l->qty);
		/* an unpriced line has no figure, not 0: blank money cells */
		if (l->priced) {
			bom_format_cents(l->unit_cents, unit, sizeof unit);
			bom_format_cents(l->extended_cents, ext, sizeof ext);
		} else {
			unit[0] = ext[0] = '\0';
		}
		bom_format_number(l->power_w_each, pw, sizeof pw);
		bom_format_number(l->rack_units_each, ru, sizeof ru);
		/* SKUs, descriptions and notes come from the catalog and price
		 * lists: text cells */
		const char *cells[] = { line, bom_category_name(l->category), l->sku,
					l->description, qty, unit, ext, pw, ru, l->notes };
		for (size_t k = 0; k < 10; k++)
			out_csv_cell(&o, cells[k], k == 2 || k == 3 || k == 9 ? OUT_TEXT : OUT_PLAIN);
		out_csv_end(&o);
	}
	/* Totals in the columns' own units (W, U): qty x each, summed, so a
	 * spreadsheet never adds W to kW. */
	char ext[32], pw[32], ru[32], notes[400], which[200];
	bom_format_cents(b->total_cents, ext, sizeof ext);
	bom_format_number(b->total_power_w, pw, sizeof pw);
	bom_format_number(b->total_rack_units, ru, sizeof ru);
	bom_unpriced_list(b, which, sizeof which);
	if (b->n_unpriced)
		snprintf(notes, sizeof notes, "totals: power in W and rack units in U, qty x each "
			 "summed; the total EXCLUDES %zu " BOM_UNPRICED " line%s (%s): from price list",
			 b->n_unpriced, b->n_unpriced == 1 ? "" : "s", which);
	else
		snprintf(notes, sizeof notes, "totals: power in W and rack units in U, qty x each summed");
	const char *cells[] = { "", "total", "", "Total", "", "", ext, pw, ru, notes };
	out_csv_row(&o, cells, 10, OUT_PLAIN);
	return out_csv_finish(&o);
}

static bool write_bom_cb(FILE *fp, void *ctx, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	return bom_fwrite_csv(ctx, fp);
}

bool bom_write_csv(const struct bom *b, const char *path, char *err, size_t errsz)
{
	return atomic_write(path, write_bom_cb, (void *)b, err, errsz);
}

/* ---- summary ---- */

/* which: the sections written, all (-1), only the workload's (1) or all
 * but it (0); indent: under a workload's name. */
struct summary_ctx {
	FILE *fp;
	int which;
	bool indent;
};

static void summary_setting(const char *section, const char *key, const char *value, void *vctx)
{
	struct summary_ctx *s = vctx;
	char label[64];
	bool workload = !strcmp(section, "workload");
	if (s->which >= 0 && workload != (s->which == 1))
		return;
	if (*section && !workload)
		snprintf(label, sizeof label, "%s.%s", section, key);
	else
		snprintf(label, sizeof label, "%s", key);
	out_line(s->fp, "  %s%-*s %s", s->indent ? "  " : "", s->indent ? 26 : 28, label, value);
}

/* Several workloads: each one's own settings under its name, then the
 * settings they share (filters, node, costs) once. */
static void summary_workloads(FILE *fp, const struct bom_summary_info *info)
{
	for (size_t i = 0; i < info->n_workloads; i++) {
		out_line(fp, "  workload %s", info->workloads[i].name);
		struct summary_ctx sc = { .fp = fp, .which = 1, .indent = true };
		scenario_each_setting(info->workloads[i].w, summary_setting, &sc);
	}
	struct summary_ctx sc = { .fp = fp, .which = 0 };
	scenario_each_setting(info->workloads[0].w, summary_setting, &sc);
}

/* Multi-line free text, indented under its label. */
static void summary_text(FILE *fp, const char *label, const char *text)
{
	if (!text || !*text)
		return;
	fprintf(fp, "%-13s", label);
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);
		out_puts(fp, line ? line : "");
		free(line);
		fputc('\n', fp);
		p += n;
		if (*p == '\n' && *++p)
			fputs("             ", fp);
	}
}

/* A projection, not a price: whole dollars (a row may differ from the
 * sum of its rounded parts by a dollar). */
static void usd_whole(double usd, char *buf, size_t n)
{
	snprintf(buf, n, "%.0f", usd);
}

/* The total cost of ownership year by year, and the assumptions it used
 * with where each came from (engine_tco_inputs()). */
static void summary_tco(FILE *fp, const struct bom *b, const struct catalog *c, const struct workload *w)
{
	const struct engine_result *r = &b->result;
	if (!(r->tco_usd > 0) || r->tco_years < 1)
		return;
	char v[7][32];
	const char *cur = r->currency;
	bool usd = !cur || !strcmp(cur, "USD");
	fprintf(fp, "\nTotal cost of ownership over %d year%s (%s, projected, %s)\n", r->tco_years,
		r->tco_years == 1 ? "" : "s", usd ? "USD" : cur, usd ? "to the dollar" : "in whole units");
	static const char *const heads[6] = {
		"capex_usd", "energy_usd", "colocation_usd", "support_usd", "licence_usd", "total_usd",
	};
	char hb[6][32];
	for (int i = 0; i < 6; i++)
		prices_money_name(heads[i], cur, hb[i], sizeof hb[i]);
	fprintf(fp, "  %-6s %16s %14s %14s %14s %14s %16s\n", "year", hb[0], hb[1], hb[2], hb[3], hb[4],
		hb[5]);
	for (int y = 1; y <= r->tco_years; y++) {
		struct engine_tco_year t;
		engine_tco_year(r, y, &t);
		const double parts[] = { t.capex_usd, t.energy_usd, t.colocation_usd, t.support_usd,
					 t.licence_usd, t.total_usd };
		for (int i = 0; i < 6; i++)
			usd_whole(parts[i], v[i], sizeof v[i]);
		fprintf(fp, "  %-6d %16s %14s %14s %14s %14s %16s\n", y, v[0], v[1], v[2], v[3], v[4], v[5]);
	}
	usd_whole(r->tco_usd, v[6], sizeof v[6]);
	fprintf(fp, "  %-6s %16s\n", "total", v[6]);
	struct engine_tco_inputs in;
	engine_tco_inputs(c, w, &in);
	static const char *const from[] = { "catalog defaults.yaml", "the workload (flag or scenario)",
					    "the price list" };
	fprintf(fp, "  assumptions:\n");
	for (int i = 0; i < TCO_INPUT_COUNT; i++) {
		const struct engine_field *f = engine_field(engine_tco_field((enum engine_tco_input)i));
		bom_format_number(in.v[i], v[0], sizeof v[0]);
		/* money in the quote's currency: "EUR/kWh" */
		const char *unit = f->unit ? f->unit : "";
		bool money = !strncmp(unit, "USD", 3);
		fprintf(fp, "    %-28s %s %s%s  (%s)\n", f->key, v[0], money && cur ? cur : "",
			money && cur ? unit + 3 : unit, from[in.from[i]]);
	}
}

/* Rent or buy (engine_rent()): each rental term with its price per
 * GPU-hour, what renting costs and the month buying breaks even. */
static void summary_rent(FILE *fp, const struct bom *b, const struct catalog *c, const struct workload *w)
{
	const struct engine_result *r = &b->result;
	if (!(r->tco_usd > 0))
		return;
	struct engine_rent rb;
	engine_rent(c, w, r, &rb);
	const char *cur = prices_currency(w ? w->prices : NULL);
	bool train = r->cls != WL_INFERENCE;
	fprintf(fp, "\nRent or buy (%d working GPUs rented, %s, indicative)\n", r->gpus, cur);
	char term[96];
	engine_rent_term_line(&rb, term, sizeof term);
	fprintf(fp, "    %-28s %s\n", "rent_term", term);
	for (int t = 0; t < RENT_TERM_COUNT; t++) {
		const char *name = engine_rent_term_name((enum engine_rent_term)t);
		if (!(rb.rate[t] > 0)) {
			/* no provider page read states one (docs/design.md, "Rent or buy") */
			char sku[96];
			fprintf(fp, "  %-16s no published rate in the catalog; a price list line %s gives one\n",
				name, engine_rent_sku((enum engine_rent_term)t, r->accel->id, sku, sizeof sku));
			continue;
		}
		char rate[32], rent[32], be[48];
		bom_format_number(rb.rate[t], rate, sizeof rate);
		usd_whole(rb.rent[t], rent, sizeof rent);
		if (rb.buy_unpriced)
			snprintf(be, sizeof be, "no GPU price");
		else if (rb.breakeven[t] > 0)
			snprintf(be, sizeof be, "month %d", rb.breakeven[t]);
		else
			snprintf(be, sizeof be, "not within %d years", r->tco_years);
		fprintf(fp, "  %-16s %s per GPU-hour (%s): %s %s; buying breaks even: %s\n", name, rate,
			rb.from_prices[t] ? "price list" : "catalog", rent,
			train ? "for the run" : "a year", be);
	}
	char line[200];
	engine_rent_statement(r, line, sizeof line);
	fprintf(fp, "  %s\n", line);
}

bool bom_fwrite_summary(const struct bom *b, const struct catalog *c, const struct workload *w,
			const struct bom_summary_info *info, FILE *fp)
{
	char date[32], total[32], kw[32], ru[32];
	out_date(date, sizeof date);
	bom_format_cents(b->total_cents, total, sizeof total);
	bom_format_number(b->total_power_w / 1000.0, kw, sizeof kw);
	bom_format_number(b->total_rack_units, ru, sizeof ru);

	fprintf(fp, "accelsizer bill of materials: summary\n\n");
	fprintf(fp, "Date         %s\n", date);
	out_line(fp, "Catalog      version %s", c->defaults.version ? c->defaults.version : "unknown");
	if (info) {
		summary_text(fp, "Customer", info->customer);
		summary_text(fp, "Opportunity", info->opportunity);
	}
	out_line(fp, "Prices       %s", info && info->prices_path ? info->prices_path
		 : "indicative catalog prices (no price list given)");

	fprintf(fp, "\nScenario\n");
	bool several = info && info->n_workloads > 0;
	struct summary_ctx sc = { .fp = fp, .which = -1 };
	if (several)
		summary_workloads(fp, info);
	else
		scenario_each_setting(w, summary_setting, &sc);
	if (info)
		summary_text(fp, "  notes", info->notes);

	fprintf(fp, "\nConfiguration\n");
	out_line(fp, "  %-28s %s (%s)", "accelerator", b->accel->name, b->accel->id);
	out_line(fp, "  %-28s %s (%s), %d GPUs per node", "platform", b->platform->name,
		 b->platform->id, b->platform->gpus_per_node);
	fprintf(fp, "  %-28s %d GPUs used, %d nodes (%d spare)\n", "sizing", b->gpus, b->nodes,
		b->spare_nodes);
	for (size_t i = 0; several && i < info->n_workloads; i++) {
		const struct bom_workload *bw = &info->workloads[i];
		char label[64];
		snprintf(label, sizeof label, "  %s", bw->name);
		out_line(fp, "  %-28s %d GPU%s as %s", label, bw->gpus, bw->gpus == 1 ? "" : "s", bw->layout);
	}
	if (several && info->sharing && *info->sharing)
		out_line(fp, "  %-28s %s", "sharing", info->sharing);
	if (b->fabric)
		out_line(fp, "  %-28s %s (%s)", "fabric", b->fabric->name, b->fabric->id);
	else
		fprintf(fp, "  %-28s none (one node)\n", "fabric");
	fprintf(fp, "  %-28s %d\n", "racks", b->racks);

	fprintf(fp, "\nTotals\n");
	char pname[32];
	fprintf(fp, "  %-28s %s\n", prices_money_name("price_usd", b->result.currency, pname, sizeof pname),
		total);
	fprintf(fp, "  %-28s %s\n", "power_kw", kw);
	fprintf(fp, "  %-28s %s\n", "rack_units", ru);
	fprintf(fp, "  %-28s %zu\n", "bom_lines", b->n);
	if (b->n_unpriced) {
		char which[200];
		bom_unpriced_list(b, which, sizeof which);
		fprintf(fp, "  %-28s %zu (%s): the price above EXCLUDES them; a price list "
			"(--prices) gives their prices\n", "unpriced_lines", b->n_unpriced, which);
	}

	summary_tco(fp, b, c, w);
	summary_rent(fp, b, c, w);

	fprintf(fp, "\nAssumptions (catalog defaults.yaml)\n");
#define X(name, unit, doc) \
	do { \
		char v[32]; \
		bom_format_number(c->defaults.name.value, v, sizeof v); \
		fprintf(fp, "  %-28s %s %s  (%s)\n", #name, v, unit, doc); \
	} while (0);
	CATALOG_DEFAULTS(X)
#undef X
	fprintf(fp, "\nPrices are indicative list prices unless a price list was given;\n"
		"money is exact to the cent: the total is the sum of the lines.\n");
	return !ferror(fp);
}

/* One rack of the elevation, top down, the free units shown. */
static void elevation_rack(FILE *fp, const struct engine_elevation *e, int i)
{
	struct engine_rack_slot slot[256];
	double kw;
	size_t k = engine_elevation_rack(e, i, slot, 256, &kw);
	int height = e->whole_rack && i < e->compute_racks ? e->node_u : e->rack_u;
	bool bought = !(e->whole_rack && i < e->compute_racks);
	char line[96];
	fprintf(fp, "\n%s\n", engine_elevation_rack_line(e, i, line, sizeof line));
	if (bought)
		fprintf(fp, "  %dU, %d PDU%s (0U, at the rear)\n", height, e->pdus_per_rack,
			e->pdus_per_rack == 1 ? "" : "s");
	else
		fprintf(fp, "  %dU, the node's own rack and power shelves\n", height);
	int top = height;
	for (size_t j = 0; j < k && j < 256; j++) {
		const struct engine_rack_slot *s = &slot[j];
		int hi = s->u + s->height - 1;
		char u[16], w[32];
		if (hi < top) {
			snprintf(u, sizeof u, hi + 1 == top ? "U%d" : "U%d-%d", hi + 1, top);
			fprintf(fp, "  %-9s (empty)\n", u);
		}
		snprintf(u, sizeof u, s->height == 1 ? "U%d" : "U%d-%d", s->u, hi);
		bom_format_number(round(s->watts / 100.0) / 10.0, w, sizeof w);
		bool node = s->kind == RACK_NODE || s->kind == RACK_SPARE;
		char label[40];
		snprintf(label, sizeof label, "%s %d", engine_rack_kind_name(s->kind), s->number);
		/* a facility switch no source gives a power figure for draws none
		 * in the sums: said, not shown as 0 */
		if (s->sku && !(s->watts > 0))
			out_line(fp, "  %-9s %-20s %s, no power figure", u, label, s->sku);
		else
			out_line(fp, "  %-9s %-20s %s, %s kW", u, label,
				 node ? e->platform->id : s->sku ? s->sku : e->fabric->switch_sku, w);
		top = s->u - 1;
	}
	if (top >= 1) {
		char u[16];
		snprintf(u, sizeof u, top == 1 ? "U%d" : "U%d-%d", 1, top);
		fprintf(fp, "  %-9s (empty)\n", u);
	}
}

bool bom_fwrite_elevation(const struct bom *b, const struct catalog *c, FILE *fp)
{
	struct engine_elevation e;
	engine_elevation(c, &b->result, &e);
	char kw[32];
	bom_format_number(e.rack_kw, kw, sizeof kw);
	out_line(fp, "accelsizer rack elevation: %d node%s of %s in %d rack%s", e.nodes + e.spare_nodes,
		 e.nodes + e.spare_nodes == 1 ? "" : "s", e.platform ? e.platform->name : "-", e.racks,
		 e.racks == 1 ? "" : "s");
	fprintf(fp, "racks of %dU at %s kW (%s); nodes fill from U1, switches from the top\n",
		e.rack_u, kw, e.rack_kw_set ? "--rack-kw" : "defaults.rack_kw");
	if (e.platform && !e.whole_rack) {
		char nw[32];
		bom_format_number(round(e.node_w / 100.0) / 10.0, nw, sizeof nw);
		fprintf(fp, "%d node%s per rack: %dU and %s kW each%s\n", e.nodes_per_rack,
			e.nodes_per_rack == 1 ? "" : "s", e.node_u, nw,
			e.over_kw ? "; one node draws more than a rack feeds" : "");
	}
	for (int i = 0; i < e.racks; i++)
		elevation_rack(fp, &e, i);
	return !ferror(fp);
}

struct summary_args {
	const struct bom *b;
	const struct catalog *c;
	const struct workload *w;
	const struct bom_summary_info *info;
};

static bool write_summary_cb(FILE *fp, void *ctx, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	struct summary_args *a = ctx;
	return bom_fwrite_summary(a->b, a->c, a->w, a->info, fp);
}

bool bom_write_summary(const struct bom *b, const struct catalog *c, const struct workload *w,
		       const struct bom_summary_info *info, const char *path,
		       char *err, size_t errsz)
{
	struct summary_args a = { b, c, w, info };
	return atomic_write(path, write_summary_cb, &a, err, errsz);
}
