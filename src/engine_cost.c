/*
 * engine_cost: what the configuration costs to buy and to run.
 *
 * capex = accelerators + servers (platform price and its BOM lines) +
 * scale-out fabric (switches, cables, NICs the servers do not already list
 * or carry on their accelerators)
 * + racks and PDUs (none for a whole-rack node, which brings its own
 * enclosure and power shelves).  Power is the servers' maximum draw plus switches and
 * transceivers: what the facility must feed.  Running cost per hour spreads
 * capex over the amortisation period and adds energy at the data centre's
 * PUE; cost per million tokens divides the yearly cost by the tokens served
 * in the hours the cluster is busy (defaults.utilisation).
 */
#include <math.h>
#include <string.h>

#include "engine_internal.h"

static double bom_usd(const struct catalog_platform *p)
{
	double usd = 0;
	for (size_t i = 0; i < p->n_bom; i++)
		usd += p->bom[i].qty * p->bom[i].unit_price_usd;
	return usd;
}

/* Whether the node already has the fabric's NICs: its scale-out ports are
 * on the accelerators (Gaudi 3), or its own BOM lists the fabric's NIC. */
static bool lists_nic(const struct catalog_platform *p, const struct catalog_fabric *f)
{
	if (p->nics_on_accel || !f->nic_sku)
		return true;
	for (size_t i = 0; i < p->n_bom; i++)
		if (p->bom[i].sku && !strcmp(p->bom[i].sku, f->nic_sku))
			return true;
	return false;
}

void eng_cost(const struct catalog *c, const struct catalog_accel *a,
	      const struct eng_node *n, struct engine_result *r)
{
	const struct catalog_defaults *d = &c->defaults;
	const struct catalog_platform *p = n->platform;
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
	if (!p)
		return;

	int all_nodes = n->nodes + n->spare_nodes;
	r->capex_gpus_usd = n->gpus_installed * a->price.usd;
	r->capex_nodes_usd = all_nodes * (p->price.usd + bom_usd(p));
	double watts = all_nodes * p->max_power_w;
	double ru = (double)all_nodes * p->rack_units;

	r->capex_fabric_usd = 0;
	double switch_w = 0, switch_ru = 0;
	if (n->fabric) {
		const struct catalog_fabric *f = n->fabric;
		int switches = n->leaf_switches + n->spine_switches;
		r->capex_fabric_usd = switches * f->switch_price_usd + n->cables * f->cable_price_usd;
		switch_w = switches * f->switch_power_w;
		switch_ru = (double)switches * f->switch_rack_units;
		watts += switch_w + n->cables * f->cable_power_w;
		ru += switch_ru;
		if (!lists_nic(p, f)) {
			r->capex_fabric_usd += n->nics * f->nic_price_usd;
			watts += n->nics * f->nic_power_w;
		}
	}

	r->power_kw = watts / 1000.0;
	r->rack_units = ru;
	double rack_u = d->rack_units.value, rack_kw = d->rack_kw.value;
	double bought;		/* racks bought as enclosures with PDUs */
	if (p->whole_rack) {
		/* A rack-scale node (GB200 NVL72) is its own rack, enclosure and
		 * power shelves included in the platform: one rack per node,
		 * whatever it draws.  Only the scale-out switches need racks of
		 * their own (the transceivers sit in the nodes and switches). */
		double by_space = rack_u > 0 ? ceil(switch_ru / rack_u) : 1;
		double by_power = rack_kw > 0 ? ceil(switch_w / 1000.0 / rack_kw) : 1;
		bought = switch_ru > 0 ? fmax(1, fmax(by_space, by_power)) : 0;
		r->racks = all_nodes + bought;
	} else {
		double by_space = rack_u > 0 ? ceil(ru / rack_u) : 1;
		double by_power = rack_kw > 0 ? ceil(r->power_kw / rack_kw) : 1;
		r->racks = bought = fmax(1, fmax(by_space, by_power));
	}
	r->capex_racks_usd = bought * (d->rack_price_usd.value +
				       d->pdu_per_rack.value * d->pdu_price_usd.value);
	r->capex_usd = r->capex_gpus_usd + r->capex_nodes_usd + r->capex_fabric_usd +
		       r->capex_racks_usd;
}

void eng_cost_rates(const struct catalog *c, struct engine_result *r)
{
	const struct catalog_defaults *d = &c->defaults;
	double years = d->amortisation_years.value > 0 ? d->amortisation_years.value : 1;
	double util = d->utilisation.value > 0 ? d->utilisation.value : 1;
	double pue = d->pue.value > 0 ? d->pue.value : 1;
	double kwh_price = d->electricity_usd_per_kwh.value;

	r->energy_kwh_year = r->power_kw * ENG_HOURS_PER_YEAR * pue * util;
	double usd_year = r->capex_usd / years + r->energy_kwh_year * kwh_price;
	r->usd_per_hour = usd_year / ENG_HOURS_PER_YEAR;

	if (isfinite(r->output_tokens_per_s) && r->output_tokens_per_s > 0) {
		double tok_year = r->output_tokens_per_s * 3600.0 * ENG_HOURS_PER_YEAR * util;
		r->usd_per_mtok = usd_year / tok_year * 1e6;
		r->perf_per_watt = r->power_kw > 0 ? r->output_tokens_per_s / (r->power_kw * 1000.0) : NAN;
	}
	if (isfinite(r->train_hours) && r->train_hours > 0) {
		/* The run holds the whole cluster: its share of the capex plus
		 * the energy it burns while it runs. */
		double per_hour = r->capex_usd / (years * ENG_HOURS_PER_YEAR) +
				  r->power_kw * pue * kwh_price;
		r->run_cost_usd = per_hour * r->train_hours;
		r->perf_per_watt = r->power_kw > 0 && isfinite(r->tokens_per_s_per_gpu)
				   ? r->tokens_per_s_per_gpu * r->gpus / (r->power_kw * 1000.0) : NAN;
	}
}
