/*
 * engine_multi: the cluster of one accelerator that holds several sized
 * workloads (engine.h, engine_cluster_size()).
 *
 *   serving cards  = sum of whole-GPU serving results' GPUs
 *                  + per MIG profile, ceil(pooled replicas / max_per_gpu)
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
};

static long pooled_cards(const struct pool *pools, int n)
{
	long cards = 0;
	for (int i = 0; i < n; i++)
		cards += eng_ceil_div(pools[i].replicas, pools[i].p->max_per_gpu);
	return cards;
}

/* Adds a sliced result to its profile's pool; false when there are more
 * profiles than pools (it then counts as whole cards). */
static bool pool_add(struct pool *pools, int *n, const struct engine_result *r)
{
	for (int i = 0; i < *n; i++)
		if (pools[i].p == r->partition) {
			pools[i].replicas += r->replicas;
			return true;
		}
	if (*n >= MAX_POOLS)
		return false;
	pools[*n].p = r->partition;
	pools[*n].replicas = r->replicas;
	(*n)++;
	return true;
}

static void serving_layout(const struct engine_result *r, struct engine_result *t)
{
	if (r->tp > t->tp)
		t->tp = r->tp;
	if (r->pp > t->pp)
		t->pp = r->pp;
}

void engine_cluster_size(const struct catalog *c, const struct workload *w,
			 const struct engine_cluster_item *items, size_t n, bool share_gpus,
			 struct engine_cluster *out)
{
	memset(out, 0, sizeof *out);
	const struct catalog_accel *a = n ? items[0].r->accel : NULL;
	eng_result_clear(&out->total, a);
	out->fits = n > 0;
	struct pool pools[MAX_POOLS];
	int npools = 0;
	long serving = 0, training = 0;
	double share = 0;
	bool any_training = false;
	for (size_t i = 0; i < n; i++) {
		const struct engine_result *r = items[i].r;
		out->fits &= r->fits;
		if (r->cls != WL_INFERENCE) {
			any_training = true;
			if (r->gpus > training)
				training = r->gpus;
			share += items[i].share;
			continue;
		}
		serving_layout(r, &out->total);
		if (!r->partition || !pool_add(pools, &npools, r))
			serving += r->gpus;
	}
	serving += pooled_cards(pools, npools);
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
	if (out->fits && a)
		eng_result_nodes(c, w, a, t);
}
