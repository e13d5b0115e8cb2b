/*
 * engine_cost: what the configuration costs to buy and to run.
 *
 * capex is the quote (engine_quote(), the lines bom.c prints): accelerators
 * + servers (platform price and its BOM lines) + scale-out fabric
 * (switches, cables, NICs the servers do not already list or carry on their
 * accelerators) + racks and PDUs (none for a whole-rack node, which brings
 * its own enclosure and power shelves) + support (defaults.support_years x
 * the support share per year of all that: engine_tco_inputs()) + installation and burn-in per
 * node.  A price list (w->prices) wins over the catalog's prices.  Power is
 * the servers' maximum draw plus switches and transceivers: what the
 * facility must feed.  The total cost of ownership adds what running it
 * costs over defaults.tco_years (eng_cost_rates()); cost per hour and per
 * million tokens divide it by the hours and by the tokens served in the
 * hours the cluster is busy (defaults.utilisation).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"
#include "prices.h"

/* USD (double, from the catalog) to cents, rounded half away from zero,
 * once, on the way in. */
static int64_t to_cents(double usd)
{
	if (!isfinite(usd) || usd <= 0 || usd > 9e16)
		return 0;
	return eng_llround_pos(usd * 100.0);
}

/* Whether the node already has the fabric's NICs: its scale-out ports are
 * on the accelerators (Gaudi 3), or its own BOM lists the fabric's NIC. */
bool eng_lists_nic(const struct catalog_platform *p, const struct catalog_fabric *f)
{
	if (p->nics_on_accel || !f->nic_sku)
		return true;
	/* the first byte first: most of a server's lines are no NIC */
	for (size_t i = 0; i < p->n_bom; i++)
		if (p->bom[i].sku && p->bom[i].sku[0] == f->nic_sku[0] && !strcmp(p->bom[i].sku, f->nic_sku))
			return true;
	return false;
}

static const enum engine_capex_part item_part[QUOTE_ITEM_COUNT] = {
	[QUOTE_SERVER] = CAPEX_HARDWARE, [QUOTE_ACCEL] = CAPEX_HARDWARE,
	[QUOTE_PART] = CAPEX_HARDWARE, [QUOTE_NIC] = CAPEX_FABRIC,
	[QUOTE_SWITCH] = CAPEX_FABRIC, [QUOTE_CABLE] = CAPEX_FABRIC,
	[QUOTE_RACK] = CAPEX_RACKS, [QUOTE_PDU] = CAPEX_RACKS,
	[QUOTE_SUPPORT] = CAPEX_SUPPORT, [QUOTE_SERVICE] = CAPEX_SERVICES,
	[QUOTE_LICENCE] = CAPEX_LICENCES, [QUOTE_MARGIN] = CAPEX_MARGIN,
	[QUOTE_STORAGE] = CAPEX_HARDWARE,
};

enum engine_capex_part engine_quote_part(enum engine_quote_item item)
{
	return (unsigned)item < QUOTE_ITEM_COUNT ? item_part[item] : CAPEX_HARDWARE;
}

const char *engine_capex_part_name(enum engine_capex_part p)
{
	static const char *const names[CAPEX_PART_COUNT] = {
		"hardware", "fabric", "racks", "support", "services", "licences", "margin",
	};
	return (unsigned)p < CAPEX_PART_COUNT ? names[p] : "?";
}

const char *engine_quote_category(const struct engine_quote_line *l)
{
	static const char *const cat[QUOTE_ITEM_COUNT] = {
		[QUOTE_SERVER] = "server", [QUOTE_ACCEL] = "accelerator", [QUOTE_PART] = "server",
		[QUOTE_NIC] = "network", [QUOTE_SWITCH] = "network", [QUOTE_CABLE] = "cable",
		[QUOTE_RACK] = "rack", [QUOTE_PDU] = "power", [QUOTE_SUPPORT] = "support",
		[QUOTE_SERVICE] = "service", [QUOTE_LICENCE] = "licence", [QUOTE_MARGIN] = "margin",
		[QUOTE_STORAGE] = "storage",
	};
	if (l->item == QUOTE_PART && l->part && l->part->category)
		return l->part->category;	/* the catalog's, checked against bom.h's list */
	return (unsigned)l->item < QUOTE_ITEM_COUNT ? cat[l->item] : "server";
}

enum engine_price_state engine_price_state(const struct engine_result *r)
{
	if (!r->platform)
		return PRICE_FULL;	/* nothing was quoted */
	if (!r->accel_priced)
		return PRICE_UNKNOWN;
	return r->unpriced_lines > 0 ? PRICE_PARTIAL : PRICE_FULL;
}

struct quote_walk {
	const struct prices *prices;
	double fx;			/* the list's currency per USD */
	void (*fn)(const struct engine_quote_line *l, void *ctx);
	void *ctx;
	struct engine_quote_totals *t;
};

/* Prices one line (the price list over the catalog, less the line's or
 * its category's discount), adds it to the totals and hands it to the
 * caller.  Lines with nothing to buy are skipped, as the BOM lists none. */
static void quote_line(struct quote_walk *q, struct engine_quote_line *l)
{
	if (l->qty <= 0)
		return;
	if (!l->sku)
		l->sku = "";
	int64_t catalog = l->catalog_cents > 0 ? l->catalog_cents : 0;
	if (l->fixed) {
		l->unit_cents = catalog;
	} else if (!q->prices) {
		/* prices_unit_cents() without a list: the catalog's, no entry,
		 * no discount */
		l->unit_cents = catalog;
		l->price = NULL;
		l->discount_upct = 0;
	} else {
		l->unit_cents = prices_unit_cents(q->prices, l->sku, engine_quote_category(l), catalog,
						  &l->price, &l->discount_upct);
	}
	if (l->item == QUOTE_LICENCE && !l->fixed) {
		/* a licence's price is per GPU per year: the line is the term */
		int64_t year = l->unit_cents;
		q->t->licence_year_cents += year * l->qty;
		l->unit_cents = year * (l->years > 0 ? l->years : 0);
	}
	struct engine_quote_totals *t = q->t;
	int64_t *part = &t->parts_cents[engine_quote_part(l->item)];
	if (__builtin_mul_overflow(l->unit_cents, (int64_t)l->qty, &l->extended_cents) ||
	    __builtin_add_overflow(*part, l->extended_cents, part) ||
	    __builtin_add_overflow(t->total_cents, l->extended_cents, &t->total_cents)) {
		t->overflow = true;
		return;
	}
	/* A line with nothing charged is not free: no catalog price and none
	 * in the price list (support on hardware none of which is priced has
	 * no figure either: the BOM marks it so).  The totals exclude it and
	 * say how many. */
	if (l->unit_cents <= 0 && !l->fixed)
		t->unpriced_lines++;
	if (l->item == QUOTE_ACCEL) {
		t->gpus_cents += l->extended_cents;
		t->accel_priced = l->unit_cents > 0;
	} else if (l->item == QUOTE_SERVER || l->item == QUOTE_PART) {
		t->nodes_cents += l->extended_cents;
	}
	if (q->fn)
		q->fn(l, q->ctx);
}

/* USD from the catalog to cents of the list's currency. */
static int64_t cents(const struct quote_walk *q, double usd)
{
	return to_cents(usd * q->fx);
}

static void quote_hardware(struct quote_walk *q, const struct engine_result *r, long all_nodes,
			   long gpus)
{
	const struct catalog_platform *p = r->platform;
	const struct catalog_accel *a = r->accel;
	/* Servers.  The catalog's max_power_w is the whole node; the GPUs and
	 * the platform's parts carry their own power, so the server line
	 * carries the rest and the lines add up to all_nodes x max_power_w. */
	double parts_w = all_nodes > 0 ? (double)gpus / all_nodes * a->power_w : 0;
	for (size_t i = 0; i < p->n_bom; i++)
		parts_w += p->bom[i].qty * p->bom[i].power_w;
	double chassis_w = p->max_power_w - parts_w;
	quote_line(q, &(struct engine_quote_line){
		.item = QUOTE_SERVER, .sku = p->sku, .description = p->name, .qty = all_nodes,
		.catalog_cents = cents(q, p->price.usd), .power_w_each = chassis_w > 0 ? chassis_w : 0,
		.rack_units_each = p->rack_units });
	/* The catalog has no part number for a GPU: its id is the SKU. */
	quote_line(q, &(struct engine_quote_line){
		.item = QUOTE_ACCEL, .sku = a->id, .description = a->name, .qty = gpus,
		.catalog_cents = cents(q, a->price.usd), .power_w_each = a->power_w });
	for (size_t i = 0; i < p->n_bom; i++) {
		const struct catalog_bom_line *bl = &p->bom[i];
		quote_line(q, &(struct engine_quote_line){
			.item = QUOTE_PART, .sku = bl->sku, .description = bl->description,
			.part = bl, .qty = (long)bl->qty * all_nodes,
			.catalog_cents = cents(q, bl->unit_price_usd), .power_w_each = bl->power_w });
	}

	/* The scale-out fabric the engine sized (more than one node); NICs
	 * only when the servers do not already have them. */
	const struct catalog_fabric *f = r->fabric;
	if (f) {
		if (!eng_lists_nic(p, f))
			quote_line(q, &(struct engine_quote_line){
				.item = QUOTE_NIC, .sku = f->nic_sku, .description = f->nic_description,
				.qty = r->nics, .catalog_cents = cents(q, f->nic_price_usd),
				.power_w_each = f->nic_power_w });
		quote_line(q, &(struct engine_quote_line){
			.item = QUOTE_SWITCH, .sku = f->switch_sku, .description = f->switch_name,
			.qty = (long)r->leaf_switches + r->spine_switches,
			.catalog_cents = cents(q, f->switch_price_usd), .power_w_each = f->switch_power_w,
			.rack_units_each = f->switch_rack_units });
		bool cu = r->fabric_copper;
		quote_line(q, &(struct engine_quote_line){
			.item = QUOTE_CABLE, .sku = cu ? f->copper_sku : f->cable_sku,
			.description = cu ? f->copper_description : f->cable_description,
			.optics = !cu, .qty = r->cables,
			.catalog_cents = cents(q, cu ? f->copper_price_usd : f->cable_price_usd),
			.power_w_each = cu ? f->copper_power_w : f->cable_power_w });
	}
}

/* A facility network's switches for the cluster's nodes (struct
 * catalog_network): enough node-facing ports for every node's ports,
 * rounded up to whole redundant sets (min_switches: a node's two ports go
 * to two separate switches), so one node still has a set. */
long eng_network_switches(const struct catalog_network *nw, long nodes)
{
	if (!nw || nw->ports <= 0 || nodes <= 0)
		return 0;
	long set = nw->min_switches > 1 ? nw->min_switches : 1;
	long links = nodes * nw->ports_per_node;
	long sw = (links + nw->ports - 1) / nw->ports;
	sw = (sw + set - 1) / set * set;
	return sw > 0 ? sw : set;
}

/* The front-end and out-of-band networks (defaults.yaml "networks"):
 * their switches and one cable per node port, copper while the whole
 * cluster is in one rack (a passive DAC or patch cable reaches within a
 * rack), optics across racks. */
static void quote_networks(struct quote_walk *q, const struct catalog *c, long all_nodes, long racks)
{
	const struct catalog_defaults *d = &c->defaults;
	for (size_t i = 0; i < d->n_networks; i++) {
		const struct catalog_network *nw = &d->networks[i];
		quote_line(q, &(struct engine_quote_line){
			.item = QUOTE_SWITCH, .sku = nw->sku, .description = nw->name, .network = nw,
			.qty = eng_network_switches(nw, all_nodes),
			.catalog_cents = cents(q, nw->price_usd), .power_w_each = nw->power_w,
			.rack_units_each = nw->rack_units });
		bool copper = racks <= 1;
		quote_line(q, &(struct engine_quote_line){
			.item = QUOTE_CABLE, .sku = copper ? nw->copper_sku : nw->optics_sku,
			.description = copper ? nw->copper_description : nw->optics_description,
			.network = nw, .optics = !copper,
			.qty = all_nodes * nw->ports_per_node,
			.catalog_cents = cents(q, copper ? nw->copper_price_usd : nw->optics_price_usd),
			.power_w_each = copper ? 0 : nw->optics_power_w });
	}
}

/* Software per GPU for the support term: the workload's or price list's
 * LICENCE rate (any vendor), and each catalog licence of the
 * accelerator's vendor that the price list names. */
static void quote_licences(struct quote_walk *q, const struct catalog *c, const struct engine_result *r,
			   long gpus, int years, double licence_rate)
{
	if (licence_rate > 0) {
		int64_t year = to_cents(licence_rate);
		q->t->licence_year_cents += year * gpus;
		quote_line(q, &(struct engine_quote_line){
			.item = QUOTE_LICENCE, .sku = ENGINE_SKU_LICENCE, .qty = gpus, .years = years,
			.fixed = true, .catalog_cents = year * years });
	}
	const struct catalog_defaults *d = &c->defaults;
	for (size_t i = 0; i < d->n_licences; i++) {
		const struct catalog_licence *li = &d->licences[i];
		if (strcmp(li->vendor, r->accel->vendor) || !prices_find(q->prices, li->sku))
			continue;
		quote_line(q, &(struct engine_quote_line){
			.item = QUOTE_LICENCE, .sku = li->sku, .description = li->name, .licence = li,
			.qty = gpus, .years = years, .catalog_cents = cents(q, li->usd_per_gpu_year) });
	}
}

/* engine_quote() with the TCO inputs already worked out (eng_cost() has
 * them from its caller: one engine_tco_inputs() per result). */
static void quote_with(const struct catalog *c, const struct workload *w, const struct engine_result *r,
		       const struct engine_tco_inputs *tin,
		       void (*fn)(const struct engine_quote_line *l, void *ctx), void *ctx,
		       struct engine_quote_totals *t)
{
	memset(t, 0, sizeof *t);
	const struct catalog_platform *p = r ? r->platform : NULL;
	const struct catalog_accel *a = r ? r->accel : NULL;
	if (!p || !a)
		return;
	const struct catalog_defaults *d = &c->defaults;
	const struct prices *pl = w ? w->prices : NULL;
	struct quote_walk q = { .prices = pl, .fx = prices_usd_rate(pl), .fn = fn, .ctx = ctx, .t = t };
	int years = (int)tin->v[TCO_SUPPORT_YEARS];
	/* engine_result.nodes are the working nodes; spares come on top. */
	long all_nodes = (long)r->nodes + (r->spare_nodes > 0 ? r->spare_nodes : 0);
	long gpus = r->gpus_installed > 0 ? r->gpus_installed : all_nodes * p->gpus_per_node;
	quote_hardware(&q, r, all_nodes, gpus);
	long racks = isfinite(r->racks) ? (long)llround(r->racks) : 0;
	quote_networks(&q, c, all_nodes, racks);
	/* Shared storage (--storage-tb), per TB: no source gives a price for
	 * it, so only a price list's STORAGE line does. */
	double tb = w && w->storage_tb > 0 ? w->storage_tb : 0;
	if (tb > 0)
		quote_line(&q, &(struct engine_quote_line){
			.item = QUOTE_STORAGE, .sku = ENGINE_SKU_STORAGE, .qty = (long)ceil(tb) });

	/* Racks as eng_cost() counted them: a whole-rack node (GB200 NVL72)
	 * brings its own enclosure and power shelves, so only the racks for
	 * the switches are bought. */
	if (p->whole_rack)
		racks = racks > all_nodes ? racks - all_nodes : 0;
	long pdu_per_rack = (long)llround(d->pdu_per_rack.value);
	quote_line(&q, &(struct engine_quote_line){
		.item = QUOTE_RACK, .sku = ENGINE_SKU_RACK, .qty = racks, .racks_bought = racks,
		.catalog_cents = cents(&q, d->rack_price_usd.value) });
	quote_line(&q, &(struct engine_quote_line){
		.item = QUOTE_PDU, .sku = ENGINE_SKU_PDU, .qty = racks * pdu_per_rack,
		.racks_bought = racks, .catalog_cents = cents(&q, d->pdu_price_usd.value) });

	/* Support: years x yearly share x everything above (hardware, fabric,
	 * racks), rounded once; the burn-in service after it is not covered. */
	double share = tin->v[TCO_SUPPORT_FRACTION];
	if (years > 0 && share > 0 && !t->overflow) {
		int64_t base = t->total_cents;
		double support = (double)base * years * share;
		quote_line(&q, &(struct engine_quote_line){
			.item = QUOTE_SUPPORT, .sku = ENGINE_SKU_SUPPORT, .qty = 1, .years = years,
			.catalog_cents = support < 9e18 ? (int64_t)llround(support) : 0,
			.support_base_cents = base });
	}
	/* Installation and burn-in, per node with the spares (they are racked
	 * and tested too); always quoted, unpriced when neither the defaults
	 * nor a price list's BURN-IN line gives a figure. */
	quote_line(&q, &(struct engine_quote_line){
		.item = QUOTE_SERVICE, .sku = ENGINE_SKU_BURN_IN, .qty = all_nodes,
		.catalog_cents = cents(&q, d->burn_in_usd_per_node.value) });
	quote_licences(&q, c, r, gpus, years, tin->v[TCO_LICENCE]);
	/* The reseller's margin on everything above, as a line of its own. */
	int64_t margin = t->overflow ? 0 : prices_margin_cents(pl, t->total_cents);
	if (margin > 0)
		quote_line(&q, &(struct engine_quote_line){
			.item = QUOTE_MARGIN, .sku = ENGINE_SKU_MARGIN, .qty = 1, .fixed = true,
			.catalog_cents = margin, .support_base_cents = t->total_cents });
}

void engine_quote(const struct catalog *c, const struct workload *w, const struct engine_result *r,
		  void (*fn)(const struct engine_quote_line *l, void *ctx), void *ctx,
		  struct engine_quote_totals *t)
{
	struct engine_tco_inputs in;
	engine_tco_inputs(c, w, &in);
	quote_with(c, w, r, &in, fn, ctx, t);
}

void eng_cost(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
	      const struct eng_node *n, const struct engine_tco_inputs *tin, struct engine_result *r)
{
	const struct catalog_defaults *d = &c->defaults;
	const struct catalog_platform *p = n->platform;
	r->currency = prices_currency(w ? w->prices : NULL);
	r->platform = p;
	r->fabric = n->fabric;
	r->nodes = n->nodes;
	r->spare_nodes = n->spare_nodes;
	r->gpus_installed = n->gpus_installed;
	r->gpus_per_node = p ? p->gpus_per_node : 0;
	r->nics = n->fabric ? n->nics : 0;
	r->leaf_switches = n->fabric ? n->leaf_switches : 0;
	r->spine_switches = n->fabric ? n->spine_switches : 0;
	r->cables = n->fabric ? n->cables : 0;
	r->fabric_copper = false;
	if (!p)
		return;

	int all_nodes = n->nodes + n->spare_nodes;
	double watts = all_nodes * p->max_power_w;
	double ru = (double)all_nodes * p->rack_units;
	double switch_w = 0, switch_ru = 0;
	if (n->fabric) {
		const struct catalog_fabric *f = n->fabric;
		int switches = n->leaf_switches + n->spine_switches;
		switch_w = switches * f->switch_power_w;
		switch_ru = (double)switches * f->switch_rack_units;
		watts += switch_w + n->cables * f->cable_power_w;
		ru += switch_ru;
		if (!eng_lists_nic(p, f))
			watts += n->nics * f->nic_power_w;
	}
	/* The front-end and out-of-band switches (their cables' power is
	 * counted once the rack count is known, below). */
	for (size_t i = 0; i < d->n_networks; i++) {
		const struct catalog_network *nw = &d->networks[i];
		long sw = eng_network_switches(nw, all_nodes);
		watts += sw * nw->power_w;
		ru += (double)sw * nw->rack_units;
	}

	r->power_kw = watts / 1000.0;
	r->rack_units = ru;
	r->rack_kw_set = w && w->rack_kw > 0;
	r->rack_kw = r->rack_kw_set ? w->rack_kw : d->rack_kw.value;
	/* Racks as the elevation packs them (engine_rack.c): nodes by units
	 * and power per rack, switches in the room left, then network racks;
	 * a whole-rack node (GB200 NVL72) is one rack per node. */
	struct engine_elevation e;
	engine_elevation(c, r, &e);
	r->racks = e.racks > 0 ? e.racks : 1;
	/* The scale-out links as the facility networks' (quote_networks()):
	 * copper while the cluster is in one rack, where the fabric has a
	 * copper part; its smaller draw keeps it in one rack. */
	if (n->fabric && r->racks <= 1 && n->fabric->copper_sku) {
		r->fabric_copper = true;
		r->power_kw -= n->cables * (n->fabric->cable_power_w - n->fabric->copper_power_w) / 1000.0;
	}
	if (r->racks > 1)		/* optics across racks (quote_networks()) */
		for (size_t i = 0; i < d->n_networks; i++)
			r->power_kw += (double)all_nodes * d->networks[i].ports_per_node *
				       d->networks[i].optics_power_w / 1000.0;

	/* Capex is the quote, to the cent (engine_quote()). */
	struct engine_quote_totals t;
	quote_with(c, w, r, tin, NULL, NULL, &t);
	r->accel_priced = t.accel_priced;
	r->unpriced_lines = t.unpriced_lines;
	if (t.overflow) {
		r->capex_usd = INFINITY;
		return;
	}
	r->capex_hardware_usd = t.parts_cents[CAPEX_HARDWARE] / 100.0;
	r->capex_fabric_usd = t.parts_cents[CAPEX_FABRIC] / 100.0;
	r->capex_racks_usd = t.parts_cents[CAPEX_RACKS] / 100.0;
	r->capex_support_usd = t.parts_cents[CAPEX_SUPPORT] / 100.0;
	r->capex_services_usd = t.parts_cents[CAPEX_SERVICES] / 100.0;
	r->capex_licences_usd = t.parts_cents[CAPEX_LICENCES] / 100.0;
	r->capex_margin_usd = t.parts_cents[CAPEX_MARGIN] / 100.0;
	r->tco_licence_usd_year = t.licence_year_cents / 100.0;
	r->capex_gpus_usd = t.gpus_cents / 100.0;
	r->capex_nodes_usd = t.nodes_cents / 100.0;
	r->capex_usd = t.total_cents / 100.0;
}

/* ---- total cost of ownership ---- */

/* Each input: its workload field, the price list's line, and whether it
 * is money (the field and the catalog are USD, converted at the list's
 * rate; the list's own line is in its currency already). */
static const struct {
	enum engine_field_id field;
	const char *sku;
	bool money;
} tco_input[TCO_INPUT_COUNT] = {
	[TCO_YEARS] = { EF_YEARS, ENGINE_SKU_TCO_YEARS, false },
	[TCO_ELECTRICITY] = { EF_ELECTRICITY, ENGINE_SKU_ELECTRICITY, true },
	[TCO_PUE] = { EF_PUE, ENGINE_SKU_PUE, false },
	[TCO_UTILISATION] = { EF_UTILISATION, ENGINE_SKU_UTILISATION, false },
	[TCO_COLOCATION] = { EF_COLOCATION, ENGINE_SKU_COLOCATION, true },
	[TCO_LICENCE] = { EF_LICENCE, ENGINE_SKU_LICENCE, true },
	[TCO_SUPPORT_YEARS] = { EF_SUPPORT_YEARS, PRICES_SKU_SUPPORT_YEARS, false },
	[TCO_SUPPORT_FRACTION] = { EF_SUPPORT_FRACTION, ENGINE_SKU_SUPPORT_FRACTION, false },
};

enum engine_field_id engine_tco_field(enum engine_tco_input i)
{
	return (unsigned)i < TCO_INPUT_COUNT ? tco_input[i].field : EF_COUNT;
}

const char *engine_tco_sku(enum engine_tco_input i)
{
	return (unsigned)i < TCO_INPUT_COUNT ? tco_input[i].sku : NULL;
}

const char *engine_tco_default_key(enum engine_tco_input i)
{
	static const char *const keys[TCO_INPUT_COUNT] = {
		"tco_years", "electricity_usd_per_kwh", "pue", "utilisation",
		"colocation_usd_per_kw_month", "licence_usd_per_gpu_year", "support_years",
		"support_fraction_per_year",
	};
	return (unsigned)i < TCO_INPUT_COUNT ? keys[i] : "?";
}

static double tco_default(const struct catalog_defaults *d, enum engine_tco_input i)
{
	switch (i) {
	case TCO_YEARS: return d->tco_years.value;
	case TCO_ELECTRICITY: return d->electricity_usd_per_kwh.value;
	case TCO_PUE: return d->pue.value;
	case TCO_UTILISATION: return d->utilisation.value;
	case TCO_COLOCATION: return d->colocation_usd_per_kw_month.value;
	case TCO_SUPPORT_YEARS: return d->support_years.value;
	case TCO_SUPPORT_FRACTION: return d->support_fraction_per_year.value;
	default: return d->licence_usd_per_gpu_year.value;
	}
}

/* The price list's figure for a setting: money lines in cents after
 * their discount, the others as the decimal written. */
static double listed_value(const struct price_entry *e, bool money)
{
	return money ? e->net_cents / 100.0 : e->value;
}

bool engine_price_setting(const char *sku)
{
	static const char *const own[] = {
		PRICES_SKU_CURRENCY, PRICES_SKU_MARGIN, PRICES_SKU_RENT_TERM, ENGINE_SKU_RENT_PREFIX_OD,
		ENGINE_SKU_RENT_PREFIX_1Y, ENGINE_SKU_RENT_PREFIX_3Y,
	};
	for (int i = 0; i < TCO_INPUT_COUNT; i++)
		if (!strcmp(sku, tco_input[i].sku))
			return true;
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
		if (!strncmp(sku, own[i], strlen(own[i])) &&
		    (sku[strlen(own[i])] == '\0' || own[i][strlen(own[i]) - 1] == ':'))
			return true;
	return false;
}

bool engine_prices_valid(const struct prices *p, char *err, size_t n)
{
	for (int i = 0; p && i < TCO_INPUT_COUNT; i++) {
		const struct price_entry *e = prices_find(p, tco_input[i].sku);
		const struct engine_field *f = engine_field(tco_input[i].field);
		if (!e || !f)
			continue;
		double v = listed_value(e, tco_input[i].money);
		if (!e->has_price || !engine_field_ok(&f->lim, v)) {
			char lo[32], hi[32];
			snprintf(lo, sizeof lo, "%g", f->lim.min);
			snprintf(hi, sizeof hi, "%g", f->lim.max);
			snprintf(err, n, "%s:%ld:%ld: %s: %s must be %s%s to %s %s (as --%s)", p->path,
				 e->line, e->col, tco_input[i].sku, f->key,
				 f->lim.integer ? "a whole number from " : "from ", lo, hi,
				 f->unit ? f->unit : "", f->flag);
			return false;
		}
	}
	return true;
}

void engine_tco_inputs(const struct catalog *c, const struct workload *w, struct engine_tco_inputs *out)
{
	double fx = prices_usd_rate(w ? w->prices : NULL);
	for (int i = 0; i < TCO_INPUT_COUNT; i++) {
		double v = w ? engine_field_get(w, engine_field(tco_input[i].field)) : -1;
		const struct price_entry *pe = w ? prices_find(w->prices, tco_input[i].sku) : NULL;
		double conv = tco_input[i].money ? fx : 1.0;
		if (v >= 0) {
			v *= conv;
			out->from[i] = TCO_FROM_WORKLOAD;
		} else if (pe) {
			v = listed_value(pe, tco_input[i].money);
			out->from[i] = TCO_FROM_PRICES;
		} else {
			v = tco_default(&c->defaults, (enum engine_tco_input)i) * conv;
			out->from[i] = TCO_FROM_CATALOG;
		}
		out->v[i] = v;
	}
	out->v[TCO_SUPPORT_YEARS] = fmax(0, round(out->v[TCO_SUPPORT_YEARS]));
	/* Whole years: the per-year breakdown has one row per year. */
	out->v[TCO_YEARS] = fmax(1, round(out->v[TCO_YEARS]));
	if (!(out->v[TCO_PUE] >= 1))
		out->v[TCO_PUE] = 1;
	if (!(out->v[TCO_UTILISATION] > 0))
		out->v[TCO_UTILISATION] = 1;
}

void engine_tco_year(const struct engine_result *r, int year, struct engine_tco_year *out)
{
	memset(out, 0, sizeof *out);
	if (year < 1 || year > r->tco_years || !(r->tco_usd > 0))
		return;
	double n = r->tco_years;
	out->capex_usd = year == 1 ? r->capex_usd : 0;
	out->energy_usd = r->tco_energy_usd / n;
	out->colocation_usd = r->tco_colocation_usd / n;
	/* Support and licences are in the capex for the term the quote
	 * prepaid; renewed every year after it. */
	bool renew = year > r->tco_support_years_paid;
	out->licence_usd = renew ? r->tco_licence_usd_year : 0;
	out->support_usd = renew ? r->tco_support_usd_year : 0;
	out->total_usd = out->capex_usd + out->energy_usd + out->colocation_usd + out->support_usd +
			 out->licence_usd;
}

/*
 * TCO = capex + energy (kW x PUE x USD/kWh x hours x utilisation) +
 * colocation (USD per kW of IT power per month, every month: the space is
 * rented whether the GPUs work or not) + support after the term the quote
 * prepaid (the same yearly share of the hardware it covers) + licences
 * renewed after the same term (the quote holds them for it: per
 * installed GPU, spares included, per year).  Cost per hour, per
 * million tokens and per training run spread the TCO over its years.
 */
void eng_cost_rates(const struct catalog *c, const struct workload *w, const struct engine_tco_inputs *tin,
		    struct engine_result *r)
{
	int years = (int)tin->v[TCO_YEARS];
	double util = tin->v[TCO_UTILISATION], pue = tin->v[TCO_PUE];
	double kwh_price = tin->v[TCO_ELECTRICITY];
	double hours = years * ENG_HOURS_PER_YEAR;

	r->energy_kwh_year = r->power_kw * ENG_HOURS_PER_YEAR * pue * util;
	r->tco_years = years;
	r->tco_energy_usd = r->energy_kwh_year * kwh_price * years;
	r->tco_colocation_usd = r->power_kw * tin->v[TCO_COLOCATION] * 12.0 * years;
	int paid = (int)tin->v[TCO_SUPPORT_YEARS];
	r->tco_support_years_paid = paid;
	r->tco_licence_usd = years > paid ? r->tco_licence_usd_year * (years - paid) : 0;
	r->tco_support_usd_year = tin->v[TCO_SUPPORT_FRACTION] *
				  (r->capex_hardware_usd + r->capex_fabric_usd + r->capex_racks_usd);
	r->tco_support_usd = years > paid ? r->tco_support_usd_year * (years - paid) : 0;
	r->tco_usd = r->capex_usd + r->tco_energy_usd + r->tco_colocation_usd + r->tco_support_usd +
		     r->tco_licence_usd;
	r->usd_per_hour = r->tco_usd / hours;

	if (isfinite(r->output_tokens_per_s) && r->output_tokens_per_s > 0) {
		double tok_year = r->output_tokens_per_s * 3600.0 * ENG_HOURS_PER_YEAR * util;
		r->usd_per_mtok = r->tco_usd / years / tok_year * 1e6;
		r->perf_per_watt = r->power_kw > 0 ? r->output_tokens_per_s / (r->power_kw * 1000.0) : NAN;
	}
	if (isfinite(r->train_hours) && r->train_hours > 0) {
		/* The run holds the whole cluster: its share of the costs that
		 * accrue with time (all but energy) plus the energy it burns
		 * while it runs, at full power. */
		double fixed = r->tco_usd - r->tco_energy_usd;
		double per_hour = fixed / hours + r->power_kw * pue * kwh_price;
		r->run_cost_usd = per_hour * r->train_hours;
		r->perf_per_watt = r->power_kw > 0 && isfinite(r->tokens_per_s_per_gpu)
				   ? r->tokens_per_s_per_gpu * r->gpus / (r->power_kw * 1000.0) : NAN;
	}

	struct engine_rent rb;
	eng_rent_with(w, r, tin, &rb);
	r->rent_basis = rb.basis;
	r->rent_asked = rb.asked;
	if (rb.basis >= 0) {
		r->rent_usd = rb.rent[rb.basis];
		r->breakeven_months = rb.buy_unpriced ? NAN
				      : rb.breakeven[rb.basis] > 0 ? rb.breakeven[rb.basis] : INFINITY;
	}
}
