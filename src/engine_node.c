/*
 * engine_node: from a GPU count to servers and a network.
 *
 * The node (platform) comes from the catalog: an 8-GPU baseboard for SXM
 * and OAM parts, a 4- or 8-card server for PCIe cards (the cheapest that
 * holds the tensor-parallel group), among those the workload's --node-gpus
 * and --cooling allow; --platform names it for its own accelerator.  Past one node the GPUs talk over a scale-out
 * fabric: of the kind the platform's nics.fabrics lists first (or
 * --fabric's, when the NICs run it), the one whose port speed matches,
 * built as a non-blocking fat tree (leaf switches with half their ports
 * down, half up; spines; a third tier past radix^2/2 ports).
 */
#include <math.h>
#include <string.h>

#include "engine_internal.h"

#define MAX_PLATFORMS 16

/* Cards on a PCIe server can be bought one by one; a baseboard (HGX, UBB)
 * always comes with all its GPUs. */
static bool partial_ok(const struct catalog_platform *p)
{
	return p->topology == TOPO_PCIE || p->topology == TOPO_BRIDGED_PAIRS;
}

static double node_price(const struct catalog_platform *p)
{
	double usd = p->price.usd;
	for (size_t i = 0; i < p->n_bom; i++)
		usd += p->bom[i].qty * p->bom[i].unit_price_usd;
	return usd;
}

/* Whether the workload's server shape and the site's cooling allow p. */
static bool platform_allowed(const struct workload *w, const struct catalog_platform *p)
{
	if (!w)
		return true;
	if (w->node_gpus > 0 && p->gpus_per_node != w->node_gpus)
		return false;
	/* An air-cooled site cannot take a platform that needs liquid; a
	 * liquid-cooled one still has air for the rest (docs/design.md,
	 * "The rack elevation"). */
	return !(w->cooling == COOLF_AIR && eng_platform_liquid(p));
}

bool eng_platform_liquid(const struct catalog_platform *p)
{
	return p && p->cooling && !strcmp(p->cooling, "liquid");
}

/* The accelerator's platforms the workload allows; all of them when none
 * is (the result is then filtered with the reason, eng_filters()). */
static size_t platforms_for(const struct catalog *c, const struct workload *w,
			    const struct catalog_accel *a, const struct catalog_platform **ps)
{
	/* --platform pins its own accelerator's node; the filters still
	 * judge it (eng_filters(): --cooling, --fabric) */
	if (w && w->platform && w->platform->accel == a) {
		ps[0] = w->platform;
		return 1;
	}
	size_t n = catalog_platforms_for(c, a, ps, MAX_PLATFORMS);
	if (n > MAX_PLATFORMS)
		n = MAX_PLATFORMS;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (platform_allowed(w, ps[i]))
			ps[k++] = ps[i];
	if (k == 0)	/* none allowed: all of them again, in catalog order */
		catalog_platforms_for(c, a, ps, MAX_PLATFORMS);
	return k > 0 ? k : n;
}

int eng_max_node_gpus(const struct catalog *c, const struct workload *w, const struct catalog_accel *a)
{
	const struct catalog_platform *ps[MAX_PLATFORMS];
	size_t n = platforms_for(c, w, a, ps);
	int best = 0;
	for (size_t i = 0; i < n; i++)
		if (ps[i]->gpus_per_node > best)
			best = ps[i]->gpus_per_node;
	return best;
}

/* eng_platform_choose() among the accelerator's platforms ps[0..n). */
static const struct catalog_platform *choose_from(const struct catalog_platform *const *ps, size_t n,
						  const struct catalog_accel *a, int group, int gpus)
{
	const struct catalog_platform *best = NULL;
	double best_usd = 0;
	for (size_t i = 0; i < n; i++) {
		const struct catalog_platform *p = ps[i];
		int gpn = p->gpus_per_node;
		if (gpn < 1)
			continue;
		/* The tensor-parallel group must sit in one node; a group
		 * spanning nodes (pipeline stages) must fill whole nodes. */
		if (group > gpn && group % gpn)
			continue;
		long nodes = eng_ceil_div(gpus, gpn);
		long cards = partial_ok(p) ? gpus : nodes * gpn;
		double usd = nodes * node_price(p) + cards * a->price.usd;
		/* Cheapest; at equal price the bigger node (fewer boxes). */
		if (!best || usd < best_usd - 0.5 ||
		    (fabs(usd - best_usd) <= 0.5 && gpn > best->gpus_per_node)) {
			best = p;
			best_usd = usd;
		}
	}
	return best;
}

const struct catalog_platform *eng_platform_choose(const struct catalog *c, const struct workload *w,
						   const struct catalog_accel *a,
						   int group, int gpus)
{
	const struct catalog_platform *ps[MAX_PLATFORMS];
	size_t n = platforms_for(c, w, a, ps);
	return choose_from(ps, n, a, group, gpus);
}

const struct catalog_platform *eng_platform_biggest(const struct catalog *c, const struct workload *w,
						    const struct catalog_accel *a, int *node_max)
{
	const struct catalog_platform *ps[MAX_PLATFORMS];
	size_t n = platforms_for(c, w, a, ps);
	int best = 0;
	for (size_t i = 0; i < n; i++)
		if (ps[i]->gpus_per_node > best)
			best = ps[i]->gpus_per_node;
	*node_max = best;
	return choose_from(ps, n, a, best, best);
}

bool eng_platform_runs(const struct catalog_platform *p, const char *kind)
{
	for (size_t i = 0; p && kind && i < p->n_nic_fabrics; i++)
		if (!strcmp(p->nic_fabrics[i], kind))
			return true;
	return false;
}

const char *eng_fabric_kind(const struct workload *w, const struct catalog_platform *p)
{
	const char *asked = w && w->fabric != FABRICF_AUTO ? fabric_choice_name(w->fabric) : NULL;
	if (asked && eng_platform_runs(p, asked))
		return asked;
	return p && p->n_nic_fabrics > 0 ? p->nic_fabrics[0] : "infiniband";
}

double eng_nic_speed(const struct workload *w, const struct catalog_platform *p)
{
	double asked = w ? w->fabric_speed : 0;
	if (!p || !(asked > 0))
		return p ? p->nic_gbit : 0;
	return eng_platform_speed_runs(p, asked) ? asked : p->nic_gbit;
}

bool eng_platform_speed_runs(const struct catalog_platform *p, double gbit)
{
	return p && (fabs(gbit - p->nic_gbit) < 0.5 || (p->nic_split_gbit > 0 && fabs(gbit - p->nic_split_gbit) < 0.5));
}

/* The fabric of the kind eng_fabric_kind() gives (the catalog's
 * nics.fabrics, never the NIC's description) whose port speed matches the
 * speed the NICs run (eng_nic_speed()); failing that the slowest faster
 * one, else the fastest there is.  A breakout fabric (split switch ports)
 * is taken only at a speed that is not the NICs' own: the one
 * nics.split_gbit names and --fabric-speed asks for. */
static const struct catalog_fabric *fabric_choose(const struct catalog *c, const struct workload *w,
						  const struct catalog_platform *p)
{
	const char *want = eng_fabric_kind(w, p);
	double speed = eng_nic_speed(w, p);
	bool split = fabs(speed - p->nic_gbit) >= 0.5;
	const struct catalog_fabric *best = NULL;
	int best_score = -1;
	for (size_t i = 0; i < c->n_fabrics; i++) {
		const struct catalog_fabric *f = &c->fabrics[i];
		if (f->breakout != split)
			continue;
		bool kind = f->kind && !strcmp(f->kind, want);
		int score;
		if (fabs(f->port_gbit - speed) < 0.5)
			score = kind ? 400 : 300;
		else if (f->port_gbit > speed)
			score = (kind ? 200 : 100) - (int)fmin(99, f->port_gbit / 100);
		else
			score = (int)fmin(99, f->port_gbit / 100);
		if (score > best_score) {
			best = f;
			best_score = score;
		}
	}
	return best;
}

static bool link_is_pcie(const struct catalog_accel *a)
{
	const char *k = a->link_kind ? a->link_kind : "";
	return (k[0] == 'P' || k[0] == 'p') && (k[1] == 'C' || k[1] == 'c') &&
	       (k[2] == 'I' || k[2] == 'i') && (k[3] == 'e' || k[3] == 'E');
}

double eng_link_bw(const struct catalog *c, const struct catalog_accel *a,
		   const struct catalog_platform *p, int t)
{
	if (t <= 1)
		return 0;
	/* Catalog figures count both directions; a ring sends one way. */
	bool pcie_only = link_is_pcie(a);
	if (t <= a->link_domain && !pcie_only && a->link_gb_s > 0) {
		/* The GPU link inside its domain. */
		double bw = a->link_gb_s / 2.0 * 1e9 * a->eff_link.value;
		/* A full mesh (MI300X UBB, Gaudi 3) gives each peer its own
		 * link: a group of t GPUs uses t - 1 of the domain - 1 links. */
		if (p && p->topology == TOPO_MESH && a->link_domain > 1 && t < a->link_domain)
			bw *= (double)(t - 1) / (a->link_domain - 1);
		return bw;
	}
	/* Across PCIe: a card with no GPU link, or a group past its bridged
	 * pair.  The ring runs at the card's own PCIe generation (Gen4 x16
	 * 64 GB/s, Gen5 128, both directions) times the share peer-to-peer
	 * traffic reaches: the card's efficiency.link when that link is PCIe,
	 * defaults.pcie_efficiency past a bridge.  Without host_pcie_gb_s,
	 * the PCIe link figure, or the catalog's sustained PCIe default. */
	if (a->host_pcie_gb_s > 0) {
		double eff = pcie_only ? a->eff_link.value : c->defaults.pcie_efficiency.value;
		return a->host_pcie_gb_s / 2.0 * 1e9 * eff;
	}
	if (pcie_only && a->link_gb_s > 0)
		return a->link_gb_s / 2.0 * 1e9 * a->eff_link.value;
	return c->defaults.pcie_gb_s.value / 2.0 * 1e9;
}

double eng_nic_bw(const struct catalog *c, const struct workload *w, const struct catalog_platform *p)
{
	if (!p || p->gpus_per_node < 1 || p->nic_count < 1)
		return 0;
	const struct catalog_fabric *f = fabric_choose(c, w, p);
	double eff = f && f->efficiency.value > 0 ? f->efficiency.value : 1.0;
	return p->nic_count * eng_nic_speed(w, p) / 8.0 * 1e9 / p->gpus_per_node * eff;
}

/* Non-blocking fat tree for `ports` end points on switches of `radix`. */
static void fat_tree(int ports, int radix, struct eng_node *out)
{
	int half = radix / 2;
	out->cables = ports;
	if (ports <= radix) {
		out->leaf_switches = 1;
		out->spine_switches = 0;
		return;
	}
	int leaf = (ports + half - 1) / half;
	out->leaf_switches = leaf;
	out->cables += leaf * half;
	if (leaf <= radix) {
		/* Two tiers: each spine's ports all face the leaves. */
		out->spine_switches = (leaf * half + radix - 1) / radix;
		return;
	}
	/* Three tiers: leaves, as many aggregation switches (half down, half
	 * up), and a core facing the aggregation uplinks. */
	int core = (leaf * half + radix - 1) / radix;
	out->spine_switches = leaf + core;
	out->cables += leaf * half;
}

void eng_node_size(const struct catalog *c, const struct workload *w,
		   const struct catalog_accel *a, const struct catalog_platform *p,
		   int gpus, struct eng_node *out)
{
	memset(out, 0, sizeof *out);
	out->platform = p;
	if (!p || p->gpus_per_node < 1)
		return;
	int gpn = p->gpus_per_node;
	out->nodes = (int)eng_ceil_div(gpus, gpn);
	/* Spare nodes are a redundancy policy: they apply to every
	 * accelerator, not only to the chosen one; by default N+1 for
	 * serving, none for training (defaults.yaml says why). */
	(void)a;
	const struct catalog_defaults *d = &c->defaults;
	double by_class = w->cls == WL_INFERENCE ? d->spare_nodes_serving.value : d->spare_nodes.value;
	out->spare_nodes = w->spare_nodes >= 0 ? w->spare_nodes : (int)lround(by_class);
	if (out->spare_nodes < 0)
		out->spare_nodes = 0;
	int per_node_cards = gpus < gpn ? gpus : gpn;
	if (partial_ok(p))
		out->gpus_installed = gpus + out->spare_nodes * per_node_cards;
	else
		out->gpus_installed = (out->nodes + out->spare_nodes) * gpn;
	out->nics = (out->nodes + out->spare_nodes) * p->nic_count;
}

void eng_node_fabric(const struct catalog *c, const struct workload *w, struct eng_node *n)
{
	const struct catalog_platform *p = n->platform;
	if (!p || n->nics < 1)
		return;
	const struct catalog_fabric *f = fabric_choose(c, w, p);
	if (!f || f->switch_radix < 2)
		return;
	n->fabric = f;
	fat_tree(n->nics, f->switch_radix, n);
}
