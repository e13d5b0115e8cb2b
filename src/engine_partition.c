/*
 * engine_partition: serving a small model on GPU partitions (MIG).
 *
 * A100, H100 and H200 split into isolated instances (the catalog's
 * `partitions:`, from NVIDIA's MIG user guide).  An instance of profile p
 * gets:
 *   memory    p.memory_gb, of which the serving engine takes the same
 *             usable share as on a whole GPU;
 *   bandwidth p.memory_gb / the GPU's memory: a memory slice carries its
 *             share of capacity and of bandwidth ("a GPU memory slice is
 *             roughly one eighth of the total GPU memory resources,
 *             including both capacity and bandwidth", MIG user guide,
 *             Terminology);
 *   compute   p.compute_slices / the GPU's compute slices (the most any
 *             profile takes: 7 on A100 and H100).
 * An instance has no peer-to-peer link, so a replica is one instance at
 * tensor parallel 1, and a card holds p.max_per_gpu of them: the GPUs are
 * ceil(replicas / max_per_gpu).
 *
 * When a slice is taken: alone, only when it serves the target on fewer
 * cards than whole GPUs do (a slice has a share of the card's bandwidth,
 * so at equal cards it serves fewer tokens for the same cost and its
 * $/Mtok would carry the whole card); one of several workloads
 * (workload.share_cards), also at the same card count, because the card's
 * other slices can hold the other workloads: engine_cluster_size() then
 * goes back to whole GPUs for a profile whose slices save no card.
 */
#include <math.h>

#include "engine_internal.h"

#define MAX_PROFILES 16

static int full_slices(const struct catalog_accel *a)
{
	int n = 0;
	for (size_t i = 0; i < a->n_partitions; i++)
		if (a->partitions[i].compute_slices > n)
			n = a->partitions[i].compute_slices;
	return n;
}

void eng_partition_scale(const struct catalog_accel *a, const struct catalog_partition *p,
			 double *usable, double *bw, double *flops)
{
	int full = full_slices(a);
	*usable = p->memory_gb * a->mem_usable_fraction * ENG_GB;
	*bw *= a->mem_gb > 0 ? p->memory_gb / a->mem_gb : 0;
	*flops *= full > 0 ? (double)p->compute_slices / full : 0;
}

/* Smaller first: memory, then compute slices. */
static bool before(const struct catalog_partition *x, const struct catalog_partition *y)
{
	return x->memory_gb < y->memory_gb ||
	       (x->memory_gb == y->memory_gb && x->compute_slices < y->compute_slices);
}

/* The profiles worth trying, smallest first: only those a GPU holds more
 * than one of (one instance per card is a whole GPU with less in it). */
static int candidates(const struct catalog_accel *a, const struct catalog_partition **out)
{
	int n = 0;
	for (size_t i = 0; i < a->n_partitions && n < MAX_PROFILES; i++) {
		const struct catalog_partition *p = &a->partitions[i];
		if (p->max_per_gpu < 2)
			continue;
		int k = n++;
		while (k > 0 && before(p, out[k - 1])) {
			out[k] = out[k - 1];
			k--;
		}
		out[k] = p;
	}
	return n;
}

static bool applies(const struct workload *w, const struct catalog_accel *a, const struct engine_result *r)
{
	return w->cls == WL_INFERENCE && a->n_partitions > 0 && r->fits && r->tp == 1 && r->pp == 1 &&
	       !w->concurrency_max && !(w->accel == a && w->gpus > 0);
}

/* The sentence of a result on slices: what it holds, which profile, how
 * many a card takes and how many cards (the whole-GPU sentence names the
 * card's memory, which a slice does not have). */
static void explain(const struct workload *w, const struct eng_precision *pr,
		    const struct catalog_partition *p, struct engine_result *s)
{
	const struct catalog_model *m = w->model;
	double wgb = m->params * pr->weight_bytes / ENG_GB;
	double ctx = (double)(w->input_tokens + w->output_tokens);
	double kvgb = w->concurrency * eng_kv_seq_bytes_gpu(m, pr->kv_bytes, 1, ctx) / ENG_GB;
	eng_reason(s, "%s at %s (%F GB) plus KV cache for %ld user%s (%F GB) fits a %s MIG slice, "
		   "%d per GPU: %ld replica%s on %d GPU%s",
		   eng_model_name(m), precision_name(pr->used), wgb, w->concurrency, eng_s(w->concurrency),
		   kvgb, p->profile, p->max_per_gpu, (long)s->replicas, eng_s(s->replicas), s->gpus,
		   eng_s(s->gpus));
}

void eng_partition_try(const struct catalog *c, const struct workload *w,
		       const struct catalog_accel *a, struct engine_result *r)
{
	if (!applies(w, a, r))
		return;
	const struct catalog_partition *ps[MAX_PROFILES];
	int n = candidates(a, ps);
	struct eng_precision pr;
	eng_precision_resolve(w, a, &pr);
	double weights = w->model->params * pr.weight_bytes;
	for (int i = 0; i < n; i++) {
		const struct catalog_partition *p = ps[i];
		/* the weights alone must fit before the sizing is worth running */
		if (p->memory_gb * a->mem_usable_fraction * ENG_GB <= weights)
			continue;
		struct engine_result s;
		eng_result_clear(&s, a);
		s.cls = r->cls;
		eng_infer_on(c, w, a, p, &s);
		if (!s.fits)
			continue;
		long gpus = eng_ceil_div(s.replicas, p->max_per_gpu);
		if (gpus > r->gpus || (gpus == r->gpus && !w->share_cards))
			continue;
		s.gpus = (int)gpus;
		s.partition = p;
		s.partitions_per_gpu = p->max_per_gpu;
		s.tokens_per_s_per_gpu = s.output_tokens_per_s / (double)gpus;
		explain(w, &pr, p, &s);
		*r = s;
		return;
	}
}
