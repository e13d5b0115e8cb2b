/*
 * engine_multi: the cluster of one accelerator that holds several sized
 * workloads (engine.h, engine_cluster_size()).
 *
 *   serving cards  = sum of whole-GPU serving results' GPUs
 *                  + per MIG profile, ceil(pooled replicas / max_per_gpu),
 *                    or the same workloads' whole GPUs when that is no
 *                    more cards (slices that save nothing serve less)
 *   training cards = the largest training or fine-tuning result (the jobs
 *                    run one after another on the same cards)
 *   cards          = serving + training, or with share_gpus
 *                    max(serving, training): training borrows serving
 *                    cards for its share of the week, which costs serving
 *                    share x min(training, serving) / serving of its
 *                    capacity over the week.
 * Slices of different profiles are not mixed on one card: MIG places
 * instances at fixed offsets, and a mix that fits depends on the order
 * they are created (NVIDIA MIG user guide, "A100 MIG profiles" placement
 * diagrams); keeping one profile a card is always placeable.
 */
#include <string.h>

#include "engine_internal.h"

#define MAX_POOLS 16

struct pool {
	const struct catalog_partition *p;
	long replicas;
	long whole_gpus;	/* the same workloads on whole GPUs */
	bool revertible;	/* every one has a whole-GPU result */
};

static const struct engine_result *whole_of(const struct engine_cluster_item *it)
{
	return it->whole ? it->whole : it->r;
}

/* Adds a sliced result to its profile's pool; -1 when there are more
 * profiles than pools (it then counts as whole cards). */
static int pool_add(struct pool *pools, int *n, const struct engine_cluster_item *it)
{
	const struct engine_result *r = it->r, *w = whole_of(it);
	int i = 0;
	while (i < *n && pools[i].p != r->partition)
		i++;
	if (i == *n) {
		if (*n >= MAX_POOLS)
			return -1;
		pools[i] = (struct pool){ .p = r->partition, .revertible = true };
		(*n)++;
	}
	pools[i].replicas += r->replicas;
	pools[i].whole_gpus += w->gpus;
	pools[i].revertible &= !w->partition;
	return i;
}

/* A pool's slices are kept only when they save cards over whole GPUs:
 * one workload alone on its slices, or several that fill no fewer cards
 * together, serve more on the whole cards for the same price. */
static bool pool_keeps_slices(const struct pool *p)
{
	return !p->revertible || eng_ceil_div(p->replicas, p->p->max_per_gpu) < p->whole_gpus;
}

/* The serving cards: whole-GPU results, then each pool (or its whole-GPU
 * results when its slices save nothing); sets each item's used. */
static long serving_cards(struct engine_cluster_item *items, size_t n)
{
	struct pool pools[MAX_POOLS];
	int npools = 0, in[ENGINE_CLUSTER_MAX];
	long cards = 0;
	for (size_t i = 0; i < n; i++) {
		items[i].used = items[i].r;
		items[i].cards = items[i].r->gpus;
		items[i].sharing = 1;
		in[i] = -1;
		if (items[i].r->cls != WL_INFERENCE)
			continue;
		if (items[i].r->partition)
			in[i] = pool_add(pools, &npools, &items[i]);
		if (in[i] < 0)
			cards += items[i].r->gpus;
	}
	for (int k = 0; k < npools; k++) {
		bool keep = pool_keeps_slices(&pools[k]);
		long pc = eng_ceil_div(pools[k].replicas, pools[k].p->max_per_gpu);
		int members = 0;
		for (size_t i = 0; i < n; i++)
			members += in[i] == k;
		cards += keep ? pc : pools[k].whole_gpus;
		for (size_t i = 0; i < n; i++) {
			if (in[i] != k)
				continue;
			items[i].used = keep ? items[i].r : whole_of(&items[i]);
			items[i].cards = keep ? (int)pc : items[i].used->gpus;
			items[i].sharing = keep ? members : 1;
		}
	}
	return cards;
}

static void serving_layout(const struct engine_result *r, struct engine_result *t)
{
	if (r->tp > t->tp)
		t->tp = r->tp;
	if (r->pp > t->pp)
		t->pp = r->pp;
}

/* A job of the workload talks across nodes: a training run on more than
 * one node, or a serving replica wider than a node. */
static bool spans_nodes(const struct engine_result *r)
{
	if (r->cls != WL_INFERENCE)
		return r->nodes > 1;
	return r->gpus_per_node > 0 && r->tp * r->pp > r->gpus_per_node;
}

void engine_cluster_size(const struct catalog *c, const struct workload *w,
			 struct engine_cluster_item *items, size_t n, bool share_gpus,
			 struct engine_cluster *out)
{
	memset(out, 0, sizeof *out);
	const struct catalog_accel *a = n ? items[0].r->accel : NULL;
	eng_result_clear(&out->total, a);
	out->fits = n > 0 && n <= ENGINE_CLUSTER_MAX;
	if (n > ENGINE_CLUSTER_MAX)
		n = 0;
	long serving = serving_cards(items, n), training = 0;
	double share = 0;
	bool any_training = false, spans = false;
	for (size_t i = 0; i < n; i++) {
		const struct engine_result *r = items[i].used;
		out->fits &= r->fits;
		spans |= spans_nodes(r);
		if (r->cls != WL_INFERENCE) {
			any_training = true;
			if (r->gpus > training)
				training = r->gpus;
			share += items[i].share;
			continue;
		}
		serving_layout(r, &out->total);
	}
	if (share > 1)
		share = 1;
	out->serving_gpus = (int)serving;
	out->training_gpus = (int)training;
	out->time_shared = share_gpus && any_training && serving > 0;
	long cards = out->time_shared ? (serving > training ? serving : training) : serving + training;
	if (out->time_shared)
		out->serving_headroom_pct = 100.0 * share * (double)(training < serving ? training : serving) /
					    (double)serving;
	struct engine_result *t = &out->total;
	t->cls = any_training ? WL_PRETRAIN : WL_INFERENCE;
	t->fits = out->fits;
	t->gpus = cards > ENG_MAX_GPUS ? ENG_MAX_GPUS : (int)cards;
	/* the big node when anything trains, else the widest serving
	 * replica's; a scale-out fabric only when some job spans nodes, since
	 * workloads that each fit a node only need the front-end network */
	if (out->fits && a)
		eng_result_place(c, w, a, any_training ? eng_max_node_gpus(c, w, a) : t->tp,
				 spans ? ENG_SPANS_YES : ENG_SPANS_NO, t);
}
