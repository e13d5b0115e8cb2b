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

static void notes_reset(struct notes *n)
{
	n->len = 0;
	n->buf[0] = '\0';
}

/* Whether the server's own BOM already lists a part (the fabric's NIC). */
static bool platform_lists(const struct catalog_platform *p, const char *sku)
{
	if (!sku)
		return true;
	for (size_t i = 0; i < p->n_bom; i++)
		if (p->bom[i].sku && !strcmp(p->bom[i].sku, sku))
			return true;
	return false;
}

/* Catalog prices are estimates until a price list replaces them. */
#define INDICATIVE "indicative catalog price"

struct builder {
	struct bom *b;
	const struct prices *prices;
	bool ok;
};

/*
 * One line with its price resolved: the price list wins over the catalog's
 * indicative price; no price anywhere gets the note a quote needs.
 */
static void add_line(struct builder *bd, enum bom_category cat, const char *sku,
		     const char *description, long qty, int64_t catalog_cents, double power_w,
		     double rack_units, struct notes *n, const char *origin)
{
	if (!bd->ok || qty <= 0)
		return;
	struct notes local = { .len = 0 };
	if (!n)
		n = &local;
	int64_t unit = catalog_cents;
	const struct price_entry *pe = prices_find(bd->prices, sku);
	if (pe) {
		unit = pe->net_cents;
		if (pe->description)
			description = pe->description;
		char list[32];
		bom_format_cents(pe->list_cents, list, sizeof list);
		if (pe->discount_upct) {
			char pct[32];
			bom_format_number((double)pe->discount_upct / PRICES_PCT_ONE, pct, sizeof pct);
			note(n, "price list: %s less %s%%", list, pct);
		} else {
			note(n, "price list");
		}
	} else if (unit > 0 && origin) {
		note(n, "%s", origin);
	}
	if (!pe && unit <= 0)
		note(n, "no price: add it to your price list");
	if (!bom_add(bd->b, cat, sku, description, qty, pe ? pe->net_cents : unit, power_w,
		     rack_units, n->buf))
		bd->ok = false;
	else if (pe)
		bd->b->lines[bd->b->n - 1].from_price_list = true;
}

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

bool bom_build(const struct catalog *c, const struct workload *w,
	       const struct engine_result *res, const struct prices *prices,
	       struct bom *out, char *err, size_t errsz)
{
	(void)w;
	bom_init(out);
	const struct catalog_platform *p = res ? res->platform : NULL;
	const struct catalog_accel *a = res ? res->accel : NULL;
	if (!p || !a) {
		snprintf(err, errsz, "no node configuration for %s: it cannot run this workload",
			 a ? a->name : "this accelerator");
		return false;
	}
	const struct catalog_defaults *d = &c->defaults;
	struct builder bd = { .b = out, .prices = prices, .ok = true };
	out->accel = a;
	out->platform = p;
	out->fabric = res->fabric;
	out->nodes = res->nodes;
	out->spare_nodes = res->spare_nodes;
	out->gpus = res->gpus;
	/* engine_result.nodes are the working nodes; spares come on top. */
	long all_nodes = (long)res->nodes + (res->spare_nodes > 0 ? res->spare_nodes : 0);
	/* The engine knows how many cards go in (full baseboards, or only the
	 * cards used in a PCIe server). */
	long gpus_installed = res->gpus_installed > 0 ? res->gpus_installed
			      : all_nodes * p->gpus_per_node;

	/* Servers.  The catalog's max_power_w is the whole node; the GPUs and
	 * the platform's BOM lines carry their own power, so the server line
	 * carries the rest and the power column adds up to all_nodes x
	 * max_power_w, as the engine counts it. */
	double parts_w = all_nodes > 0 ? (double)gpus_installed / all_nodes * a->power_w : 0;
	for (size_t i = 0; i < p->n_bom; i++)
		parts_w += p->bom[i].qty * p->bom[i].power_w;
	double chassis_w = p->max_power_w - parts_w;
	struct notes n = { .len = 0 };
	char pw[32];
	bom_format_number(p->max_power_w, pw, sizeof pw);
	if (res->spare_nodes > 0)
		note(&n, "%d working + %d spare node%s", res->nodes, res->spare_nodes,
		     res->spare_nodes == 1 ? "" : "s");
	note(&n, "power here is the node's %s W less its GPUs and parts listed below", pw);
	if (p->whole_rack)
		note(&n, "each node is a whole rack (%d U) with its own power shelves: %ld rack%s, "
		     "no enclosure or PDUs added for %s", p->rack_units, all_nodes,
		     all_nodes == 1 ? "" : "s", all_nodes == 1 ? "it" : "them");
	add_line(&bd, BOM_SERVER, p->sku, p->name, all_nodes, bom_usd_to_cents(p->price.usd),
		 chassis_w > 0 ? chassis_w : 0, p->rack_units, &n, INDICATIVE);

	/* The accelerators in those servers.  The catalog has no part number
	 * for a GPU, so its id is the SKU a price list uses. */
	notes_reset(&n);
	note(&n, "up to %d per node", p->gpus_per_node);
	if (res->gpus > 0 && res->gpus < gpus_installed)
		note(&n, "the workload uses %d, the rest are spares or fill whole baseboards",
		     res->gpus);
	add_line(&bd, BOM_ACCELERATOR, a->id, a->name, gpus_installed,
		 bom_usd_to_cents(a->price.usd), a->power_w, 0, &n, INDICATIVE);

	/* What each server needs besides the GPUs: CPUs, memory, NICs... */
	for (size_t i = 0; i < p->n_bom; i++) {
		const struct catalog_bom_line *bl = &p->bom[i];
		notes_reset(&n);
		note(&n, "%d per node", bl->qty);
		add_line(&bd, platform_category(bl->category), bl->sku, bl->description,
			 (long)bl->qty * all_nodes, bom_usd_to_cents(bl->unit_price_usd), bl->power_w,
			 0, &n, INDICATIVE);
	}

	/* The scale-out fabric, when the engine sized one (more than one
	 * node).  NICs only when the server's own BOM does not list them. */
	const struct catalog_fabric *f = out->fabric;
	if (f) {
		char speed[32];
		bom_format_number(f->port_gbit, speed, sizeof speed);
		if (!p->nics_on_accel && !platform_lists(p, f->nic_sku)) {
			notes_reset(&n);
			note(&n, "%s Gb/s, %d per node", speed, p->nic_count);
			add_line(&bd, BOM_NETWORK, f->nic_sku, f->nic_description, res->nics,
				 bom_usd_to_cents(f->nic_price_usd), f->nic_power_w, 0, &n,
				 INDICATIVE);
		}
		notes_reset(&n);
		if (res->spine_switches > 0)
			note(&n, "%d leaf + %d spine, %d ports of %s Gb/s each", res->leaf_switches,
			     res->spine_switches, f->switch_radix, speed);
		else
			note(&n, "%d ports of %s Gb/s", f->switch_radix, speed);
		if (p->nics_on_accel)
			note(&n, "%d node ports: %d per node on the accelerators, no NIC cards",
			     res->nics, p->nic_count);
		add_line(&bd, BOM_NETWORK, f->switch_sku, f->switch_name,
			 (long)res->leaf_switches + res->spine_switches,
			 bom_usd_to_cents(f->switch_price_usd), f->switch_power_w,
			 f->switch_rack_units, &n, INDICATIVE);
		notes_reset(&n);
		note(&n, "one link: cable and both transceivers");
		add_line(&bd, BOM_CABLE, f->cable_sku, f->cable_description, res->cables,
			 bom_usd_to_cents(f->cable_price_usd), f->cable_power_w, 0, &n, INDICATIVE);
	}

	/* Racks: enough for the power (defaults.rack_kw each) and for the
	 * rack units (defaults.rack_units each), whichever needs more.  A
	 * whole-rack node (GB200 NVL72) is a rack of its own with its power
	 * shelves, in the platform's price: one rack per node, and only the
	 * racks the engine adds for the scale-out switches are bought here. */
	double rack_kw = d->rack_kw.value, rack_u = d->rack_units.value;
	long racks = 0;
	if (p->whole_rack) {
		racks = res->racks > all_nodes ? (long)res->racks - all_nodes : 0;
		out->racks = (int)(all_nodes + racks);
	} else {
		if (rack_kw > 0)
			racks = (long)ceil(out->total_power_w / 1000.0 / rack_kw - 1e-9);
		if (rack_u > 0) {
			long by_u = (long)ceil(out->total_rack_units / rack_u - 1e-9);
			if (by_u > racks)
				racks = by_u;
		}
		if (racks < 1)
			racks = 1;
		out->racks = (int)racks;
	}
	if (racks > 0) {
		char kw[32], u[32], desc[128];
		bom_format_number(rack_kw, kw, sizeof kw);
		bom_format_number(rack_u, u, sizeof u);
		snprintf(desc, sizeof desc, "Rack enclosure, %s U, installed", u);
		notes_reset(&n);
		if (p->whole_rack)
			note(&n, "for the network switches; the %ld whole-rack node%s bring%s %s own "
			     "rack and power shelves", all_nodes, all_nodes == 1 ? "" : "s",
			     all_nodes == 1 ? "s" : "", all_nodes == 1 ? "its" : "their");
		note(&n, "sized at %s kW and %s U per rack (defaults.rack_kw, defaults.rack_units)",
		     kw, u);
		add_line(&bd, BOM_RACK, BOM_SKU_RACK, desc, racks,
			 bom_usd_to_cents(d->rack_price_usd.value), 0, 0, &n,
			 "indicative price (defaults.rack_price_usd)");
		long pdus = racks * (long)llround(d->pdu_per_rack.value);
		notes_reset(&n);
		note(&n, "%ld per rack (defaults.pdu_per_rack)", (long)llround(d->pdu_per_rack.value));
		add_line(&bd, BOM_POWER, BOM_SKU_PDU, "Metered rack PDU", pdus,
			 bom_usd_to_cents(d->pdu_price_usd.value),
			 0, 0, &n, "indicative price (defaults.pdu_price_usd)");
	}

	/* Support: years x yearly share x the hardware above, in cents,
	 * rounded once. */
	if (bd.ok && d->support_years.value > 0 && d->support_fraction_per_year.value > 0) {
		int64_t hw = out->total_cents;
		double share = d->support_years.value * d->support_fraction_per_year.value;
		int64_t support = (int64_t)llround((double)hw * share);
		char yrs[32], pct[32], hws[32], desc[96];
		bom_format_number(d->support_years.value, yrs, sizeof yrs);
		bom_format_number(d->support_fraction_per_year.value * 100.0, pct, sizeof pct);
		bom_format_cents(hw, hws, sizeof hws);
		snprintf(desc, sizeof desc, "Hardware support, %s year%s", yrs,
			 d->support_years.value == 1 ? "" : "s");
		notes_reset(&n);
		note(&n, "%s years x %s%% per year of hardware %s (defaults.support_years, "
		     "defaults.support_fraction_per_year)", yrs, pct, hws);
		add_line(&bd, BOM_SUPPORT, BOM_SKU_SUPPORT, desc, 1, support, 0, 0, &n, NULL);
	}

	/* Installation and burn-in, per node with the spares (they are racked
	 * and tested too); after the support line, which covers hardware only.
	 * An estimate until a price list gives BURN-IN a price. */
	if (bd.ok && d->burn_in_usd_per_node.value > 0) {
		notes_reset(&n);
		note(&n, "per node, spares included: racking, cabling, firmware, GPU and all-reduce "
		     "burn-in, acceptance report");
		add_line(&bd, BOM_SERVICE, BOM_SKU_BURN_IN, "Installation and burn-in (per node)", all_nodes,
			 bom_usd_to_cents(d->burn_in_usd_per_node.value), 0, 0, &n,
			 "estimate (defaults.burn_in_usd_per_node)");
	}
	if (!bd.ok) {
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

bool bom_fwrite_csv(const struct bom *b, FILE *fp)
{
	struct out_csv o;
	out_csv_begin(&o, fp, OUT_CSV_QUOTE_NEEDED);
	out_csv_row(&o, bom_header, 10, OUT_PLAIN);
	for (size_t i = 0; i < b->n; i++) {
		const struct bom_line *l = &b->lines[i];
		char line[24], qty[24], unit[32], ext[32], pw[32], ru[32];
		snprintf(line, sizeof line, "%d", l->line);
		snprintf(qty, sizeof qty, "%ld", l->qty);
		bom_format_cents(l->unit_cents, unit, sizeof unit);
		bom_format_cents(l->extended_cents, ext, sizeof ext);
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
	char ext[32], kw[32], ru[32], notes[160];
	bom_format_cents(b->total_cents, ext, sizeof ext);
	bom_format_number(b->total_power_w / 1000.0, kw, sizeof kw);
	bom_format_number(b->total_rack_units, ru, sizeof ru);
	snprintf(notes, sizeof notes, "power column in kW, rack units in U%s",
		 b->n_unpriced ? "; some lines have no price" : "");
	const char *cells[] = { "", "total", "", "Total", "", "", ext, kw, ru, notes };
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

struct summary_ctx {
	FILE *fp;
	const char *section;
};

static void summary_setting(const char *section, const char *key, const char *value, void *vctx)
{
	struct summary_ctx *s = vctx;
	char label[64];
	if (*section && strcmp(section, "workload"))
		snprintf(label, sizeof label, "%s.%s", section, key);
	else
		snprintf(label, sizeof label, "%s", key);
	out_line(s->fp, "  %-28s %s", label, value);
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

static void today(char *buf, size_t sz)
{
	time_t t = time(NULL);
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	if (sde && *sde) {
		char *end;
		errno = 0;
		long long v = strtoll(sde, &end, 10);
		if (!errno && !*end && v >= 0)
			t = (time_t)v;
	}
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, sz, "%Y-%m-%d", &tm))
		snprintf(buf, sz, "unknown");
}

bool bom_fwrite_summary(const struct bom *b, const struct catalog *c, const struct workload *w,
			const struct bom_summary_info *info, FILE *fp)
{
	char date[32], total[32], kw[32], ru[32];
	today(date, sizeof date);
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
	struct summary_ctx sc = { .fp = fp };
	scenario_each_setting(w, summary_setting, &sc);
	if (info)
		summary_text(fp, "  notes", info->notes);

	fprintf(fp, "\nConfiguration\n");
	out_line(fp, "  %-28s %s (%s)", "accelerator", b->accel->name, b->accel->id);
	out_line(fp, "  %-28s %s (%s), %d GPUs per node", "platform", b->platform->name,
		 b->platform->id, b->platform->gpus_per_node);
	fprintf(fp, "  %-28s %d GPUs used, %d nodes (%d spare)\n", "sizing", b->gpus, b->nodes,
		b->spare_nodes);
	if (b->fabric)
		out_line(fp, "  %-28s %s (%s)", "fabric", b->fabric->name, b->fabric->id);
	else
		fprintf(fp, "  %-28s none (one node)\n", "fabric");
	fprintf(fp, "  %-28s %d\n", "racks", b->racks);

	fprintf(fp, "\nTotals\n");
	fprintf(fp, "  %-28s %s\n", "price_usd", total);
	fprintf(fp, "  %-28s %s\n", "power_kw", kw);
	fprintf(fp, "  %-28s %s\n", "rack_units", ru);
	fprintf(fp, "  %-28s %zu\n", "bom_lines", b->n);
	if (b->n_unpriced)
		fprintf(fp, "  %-28s %zu (see \"no price\" in the notes column)\n", "lines_without_price",
			b->n_unpriced);

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
