/*
 * engine_train: sizing one accelerator for pretraining or fine-tuning.
 *
 * For a GPU count G the engine searches the parallel layouts a Megatron or
 * FSDP user would try: tensor parallel t in {1,2,4,8} inside the link
 * domain, pipeline stages p up to 16 (the fullest holding ceil(L/p) layers
 * and setting the pace), data parallel d = G/(t p), ZeRO stage 0-3
 * (Rajbhandari et al. 2020).  A layout fits when
 * model state, activations and the runtime reserve fit the usable memory;
 * the fastest fitting one wins.  Its step time is
 *
 *   compute     FLOPs per step / (G x peak x training efficiency)
 *   elementwise defaults.training_elementwise_bytes x tokens x h x L
 *               / (G x bandwidth x eff): norms, activations, residuals,
 *               optimizer update — why higher-bandwidth parts train
 *               faster at equal FLOPS
 *   bubble      (p - 1)/m of the above (1F1B, Narayanan et al. 2021)
 *   comm        TP all-reduces (4 per layer per micro-batch of b s h,
 *               6 with full recompute) over the GPU link, pipeline
 *               hand-offs, and the data-parallel gradient all-reduce
 *               (ring, 2(d-1)/d of the bytes) of which
 *               defaults.training_overlap hides behind the backward pass.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

struct tctx {
	const struct catalog *c;
	const struct workload *w;
	const struct catalog_accel *a;
	const struct catalog_model *m;
	const struct catalog_platform *plat;
	struct eng_precision pr;
	double usable, peak, eff, bw, lat, overlap;
	double model_tok, hw_tok;	/* FLOPs per token */
	double tokens, gbt, s, b, seqs;
	double act_layer;		/* activation bytes per layer per micro-batch */
	double elem_bytes_tok;		/* elementwise traffic per token */
	bool frozen;			/* LoRA / QLoRA */
	double base_bytes;		/* frozen base, per parameter */
	double adapters;
	int node, tmax;
	int step;			/* GPU counts come in multiples of this */
	double nic_bw;
	double link2;			/* eng_link_bw() for a pair, once */
	/* params_gpu()'s model-only part, once per evaluation rather than
	 * once per layout tried */
	double shared_params, expert_params;
	/* Model state shrinks stage by stage from ZeRO-0 to ZeRO-3 (always
	 * for adapters; for Adam when it keeps at least the 4 bytes of
	 * weights and gradients): the highest stage then holds the least. */
	bool zero_monotone;
};

struct tlayout {
	int t, p, v, d, ep, zero;	/* v: virtual stages per GPU (interleaved 1F1B) */
	long m;				/* micro-batches per step per pipeline */
	double imb;			/* layers on the fullest stage / (layers / p) */
	double link_t;			/* eng_link_bw() for the TP group, once per t */
	double mem_gpu;			/* bytes */
	double compute, elem, bubble, tp_comm, pp_comm, ep_comm, dp_comm, dp_exposed, step;
};

/* Parameters shared by every GPU of a stage and the MoE experts spread
 * over the expert-parallel group. */
static void params_split(const struct catalog_model *m, double *shared_out, double *experts_out)
{
	double pa = eng_params_active(m);
	double shared = m->params, experts = 0;
	if (m->experts > 0 && m->experts_active > 0 && m->experts_active < m->experts && pa < m->params) {
		double k_e = (double)m->experts_active / m->experts;
		experts = (m->params - pa) / (1.0 - k_e);
		shared = m->params - experts;
	}
	*shared_out = shared;
	*experts_out = experts;
}

static bool tctx_init(const struct catalog *c, const struct workload *w,
		      const struct catalog_accel *a, struct tctx *x)
{
	const struct catalog_defaults *d = &c->defaults;
	memset(x, 0, sizeof *x);
	x->c = c;
	x->w = w;
	x->a = a;
	x->m = w->model;
	eng_precision_resolve(w, a, &x->pr);
	x->usable = eng_usable_bytes(a);
	x->peak = x->pr.peak_flops;
	x->eff = a->eff_training.value > 0 ? a->eff_training.value : d->training_mfu.value;
	x->bw = a->mem_bw_tb_s * 1e12 * a->eff_mem_bw.value;
	x->lat = d->collective_latency_us.value * 1e-6;
	x->overlap = d->training_overlap.value;
	eng_train_flops_token(w, &x->model_tok, &x->hw_tok);
	x->tokens = eng_train_tokens(w);
	x->s = (double)w->seq_len;
	x->gbt = w->global_batch_tokens;
	x->b = d->micro_batch.value >= 1 ? floor(d->micro_batch.value) : 1;
	x->seqs = floor(x->gbt / x->s);
	if (x->seqs < 1)
		x->seqs = 1;
	double h = x->m->hidden, heads = x->m->heads, s = x->s, b = x->b;
	/* Korthikanti et al. 2022, table 2: bytes per layer at 16 bit. */
	switch (w->recompute) {
	case RECOMPUTE_FULL:
		x->act_layer = 2.0 * s * b * h;
		break;
	case RECOMPUTE_SELECTIVE:
		x->act_layer = 34.0 * s * b * h;
		break;
	default:
		x->act_layer = s * b * h * (34.0 + 5.0 * heads * s / h);
		break;
	}
	x->elem_bytes_tok = d->training_elementwise_bytes.value * h * x->m->layers;
	x->frozen = w->cls == WL_FINETUNE && w->method != FT_FULL;
	x->base_bytes = x->frozen ? eng_base_bytes_per_param(c, w) : x->pr.weight_bytes;
	if (x->frozen && w->method == FT_LORA)
		x->base_bytes = x->pr.weight_bytes;	/* after any precision fallback */
	x->adapters = x->frozen ? eng_adapter_params(x->m, d, w->lora_rank) : 0;
	x->plat = eng_platform_biggest(c, a, &x->node);
	int max_tp = d->max_tp.value >= 1 ? (int)d->max_tp.value : 8;
	/* TP inside the node: over the GPU link, or PCIe past it. */
	int reach = a->link_domain > x->node ? a->link_domain : x->node;
	x->tmax = reach < max_tp ? reach : max_tp;
	if (x->tmax < 1)
		x->tmax = 1;
	/* GPU counts in whole 8-GPU boards; a rack-scale node (NVL72) is
	 * bought whole but a job may use part of it. */
	x->step = x->node < max_tp ? x->node : max_tp;
	if (x->step < 1)
		x->step = 1;
	x->nic_bw = eng_nic_bw(c, x->plat);
	x->link2 = eng_link_bw(c, a, x->plat, 2);
	params_split(x->m, &x->shared_params, &x->expert_params);
	x->zero_monotone = x->frozen || d->adam_bytes_per_param.value >= 4.0;
	return x->node > 0 && x->plat && x->peak > 0 && x->eff > 0 && x->bw > 0;
}

/* Largest divisor of the expert count that also divides d. */
static int expert_parallel(const struct catalog_model *m, int d)
{
	if (m->experts <= 1)
		return 1;
	for (int e = d < m->experts ? d : m->experts; e > 1; e--)
		if (m->experts % e == 0 && d % e == 0)
			return e;
	return 1;
}

/* Parameters one GPU holds before ZeRO sharding (MoE experts spread over
 * the expert-parallel group). */
static double params_gpu(const struct tctx *x, const struct tlayout *l)
{
	return (x->shared_params + x->expert_params / l->ep) / ((double)l->t * l->p) * l->imb;
}

/* Pipeline stages need not divide the layers: Megatron and the Llama 3
 * run (126 layers on 16 stages, Llama 3 paper section 3.3.2) give some
 * stages one layer fewer.  The fullest stage, ceil(L/p) layers, holds the
 * most and sets the pace: its share over an even split is the imbalance. */
static double stage_imbalance(const struct catalog_model *m, int p)
{
	double even = (double)m->layers / p;
	return ceil(even) / even;
}

static double mem_gpu(const struct tctx *x, const struct tlayout *l)
{
	const struct catalog_defaults *d = &x->c->defaults;
	double ppg = params_gpu(x, l);
	double dd = l->d;
	double state;
	if (x->frozen) {
		/* Frozen base at its storage precision (ZeRO-3/FSDP shards it
		 * too); Adam state only for the adapters. */
		double base = ppg * x->base_bytes / (l->zero >= 3 ? dd : 1);
		double ad = x->adapters / ((double)l->t * l->p) * l->imb;
		double per = d->adapter_bytes_per_param.value;
		state = base + ad * per / (l->zero >= 1 ? dd : 1);
	} else {
		/* Mixed-precision Adam: 2 (weights) + 2 (grads) + rest (fp32
		 * master and moments), sharded by stage: 1 the rest, 2 also
		 * the grads, 3 also the weights. */
		double adam = d->adam_bytes_per_param.value;
		double opt = adam - 4.0;
		switch (l->zero) {
		case 0: state = ppg * adam; break;
		case 1: state = ppg * (4.0 + opt / dd); break;
		case 2: state = ppg * (2.0 + (2.0 + opt) / dd); break;
		default: state = ppg * adam / dd; break;
		}
	}
	/* 1F1B: the first stage holds p micro-batches of its ceil(L/p)
	 * layers, about a whole model's worth; sequence parallelism divides
	 * by t. */
	double inflight = l->m < l->p ? (double)l->m : (double)l->p;
	/* Interleaving keeps slightly more in flight on the first stage
	 * (Narayanan et al. 2021, section 2.2.2). */
	if (l->v > 1)
		inflight *= 1.0 + (l->p - 1.0) / ((double)l->p * l->v);
	double act = x->act_layer / l->t * ((double)x->m->layers / l->p * l->imb) * inflight;
	double reserve = (l->t * l->p * l->d > 1 ? d->runtime_reserve_tp_gb.value
						 : d->runtime_reserve_tp1_gb.value) * ENG_GB;
	return state + act + reserve;
}

/* The terms of step_time() before data parallelism, each written once so
 * that shape_bound() rounds them exactly as step_time() does. */
static void step_work(const struct tctx *x, int G, struct tlayout *l)
{
	/* The fullest pipeline stage sets the pace (imb = 1 when p divides
	 * the layers). */
	l->compute = x->hw_tok * x->gbt / (G * x->peak * x->eff) * l->imb;
	l->elem = x->elem_bytes_tok * x->gbt / (G * x->bw) * l->imb;
	double work = l->compute + l->elem;
	/* 1F1B bubble (p-1)/(m+p-1) of the pipeline's time, i.e. (p-1)/m of
	 * the work; interleaving v chunks per GPU divides it by v. */
	l->bubble = l->p > 1 ? work * (l->p - 1) / ((double)l->m * l->v) : 0;
}

static double tp_comm_s(const struct tctx *x, const struct tlayout *l)
{
	const struct catalog_model *m = x->m;
	double msg = x->b * x->s * m->hidden * 2.0;
	int ars = x->w->recompute == RECOMPUTE_FULL ? 6 : 4;
	double link = l->link_t;
	return l->t > 1 ? (double)l->m * ((double)m->layers / l->p * l->imb) * ars *
			  eng_ring_allreduce_s(msg, l->t, link, x->lat) : 0;
}

static double pp_comm_s(const struct tctx *x, const struct tlayout *l)
{
	double msg = x->b * x->s * x->m->hidden * 2.0;
	double pp_bw = l->t * l->p <= x->node ? x->link2 : x->nic_bw;
	return l->p > 1 ? (double)l->m * 2.0 * l->v * (msg / pp_bw + x->lat) : 0;
}

/* Expert parallelism's all-to-alls: every MoE layer sends each token's
 * hidden state to its top-k experts and back, in the forward and again in
 * the backward pass (four exchanges; six with full recompute), and the
 * (ep - 1) / ep share owned by other GPUs crosses the link (GShard,
 * Lepikhin et al. 2020; Megatron-Core MoE token dispatcher).  Not hidden
 * behind compute: the experts wait for their tokens. */
static double ep_comm_s(const struct tctx *x, const struct tlayout *l)
{
	const struct catalog_model *m = x->m;
	if (l->ep <= 1 || m->experts_active < 1)
		return 0;
	double msg = x->b * x->s * m->hidden * 2.0 * m->experts_active * (l->ep - 1) / l->ep;
	bool in_node = (long)l->t * l->p * l->ep <= x->node;
	double bw = in_node ? eng_link_bw(x->c, x->a, x->plat, l->ep) : x->nic_bw;
	if (bw <= 0)
		return INFINITY;
	int a2a = x->w->recompute == RECOMPUTE_FULL ? 6 : 4;
	return (double)l->m * ((double)m->layers / l->p * l->imb) * a2a * (msg / bw + x->lat);
}

/* A lower bound on the step of every layout of a (t, p, d) shape, v from
 * 1 to vmax, any ZeRO stage: the step adds work, bubble, TP, PP and the
 * exposed DP time in that order, none of them negative (latency >= 0,
 * overlap <= 1), and rounding is monotone, so the same sum with the least
 * bubble (most virtual stages), the least PP time (v = 1) and no DP time
 * is never above the step step_time() computes. */
static double shape_bound(const struct tctx *x, int G, const struct tlayout *shape, int vmax)
{
	struct tlayout l = *shape;
	l.v = vmax;
	step_work(x, G, &l);
	double tp = tp_comm_s(x, &l);
	l.v = 1;
	double pp = pp_comm_s(x, &l);
	double work = l.compute + l.elem;
	return work + l.bubble + tp + pp;
}

static void step_time(const struct tctx *x, int G, struct tlayout *l)
{
	step_work(x, G, l);
	double work = l->compute + l->elem;
	l->tp_comm = tp_comm_s(x, l);
	bool one_node = l->t * l->p * l->d <= x->node;
	l->pp_comm = pp_comm_s(x, l);
	l->ep_comm = ep_comm_s(x, l);

	l->dp_comm = 0;
	if (l->d > 1) {
		double dp_bw = one_node ? eng_link_bw(x->c, x->a, x->plat, l->d) : x->nic_bw;
		double ppg = params_gpu(x, l);
		double grads = (x->frozen ? x->adapters / ((double)l->t * l->p) * l->imb : ppg) * 2.0;
		double s = eng_ring_allreduce_s(grads, l->d, dp_bw, x->lat);
		if (l->zero >= 3) {
			/* Weights gathered before forward and backward: two
			 * all-gathers, each half an all-reduce's traffic. */
			double wbytes = ppg * (x->frozen ? x->base_bytes : 2.0);
			s += eng_ring_allreduce_s(wbytes, l->d, dp_bw, x->lat);
		}
		l->dp_comm = s;
	}
	l->dp_exposed = l->dp_comm * (1.0 - x->overlap);
	l->step = work + l->bubble + l->tp_comm + l->pp_comm + l->ep_comm + l->dp_exposed;
}

/* The most virtual stages (chunks of layers per GPU, up to 8, dividing
 * the fullest stage's lps layers) a pipeline of p stages interleaves. */
static int most_virtual_stages(int p, int lps)
{
	for (int v = 8; v > 1; v--)
		if (p > 1 && v <= lps && lps % v == 0)
			return v;
	return 1;
}

/* The least memory per GPU of the ZeRO stages tried for a (t, p) shape at
 * one virtual stage; *nan when a stage gives no number. */
static double leanest_mem(const struct tctx *x, struct tlayout *lean, bool *nan)
{
	double lowest = INFINITY;
	int zmax = lean->d == 1 ? 0 : 3;
	*nan = false;
	for (int z = x->zero_monotone ? zmax : 0; z <= zmax; z++) {
		lean->zero = z;
		double mz = mem_gpu(x, lean);
		*nan = *nan || isnan(mz);
		if (mz < lowest)
			lowest = mz;
	}
	return lowest;
}

/* Every virtual-stage count and ZeRO stage of the shape `base` on G GPUs:
 * keeps the fastest that fits in *best (ties to the least memory) and the
 * least memory of any in *min_mem.  ZeRO 0, 1 and 2 differ in memory only:
 * their step times are one computation (ZeRO-3 adds the weight
 * all-gathers). */
static void try_stages(const struct tctx *x, int G, const struct tlayout *base, int lps,
		       struct tlayout *best, bool *found, double *min_mem)
{
	for (int v = 1; v <= 8 && v <= lps; v++) {
		if (lps % v || (v > 1 && base->p == 1))
			continue;
		struct tlayout s012;
		bool have012 = false;
		for (int z = 0; z <= 3; z++) {
			if (base->d == 1 && z > 0)
				break;
			struct tlayout l = *base;
			l.v = v;
			l.zero = z;
			l.mem_gpu = mem_gpu(x, &l);
			if (l.mem_gpu < *min_mem)
				*min_mem = l.mem_gpu;
			if (l.mem_gpu > x->usable)
				continue;
			if (z < 3 && have012) {
				double mg = l.mem_gpu;
				l = s012;
				l.zero = z;
				l.mem_gpu = mg;
			} else {
				step_time(x, G, &l);
				if (z < 3) {
					s012 = l;
					have012 = true;
				}
			}
			if (!*found || l.step < best->step * 0.9999 ||
			    (l.step <= best->step * 1.0001 && l.mem_gpu < best->mem_gpu)) {
				*best = l;
				*found = true;
			}
		}
	}
}

/* Fastest fitting layout on G GPUs; false if none fits.  *min_mem, the
 * least memory any layout needs, is what the callers report when none
 * fits; once a layout fits nobody reads it, so shapes that cannot win are
 * skipped without sizing their memory. */
static bool search(const struct tctx *x, int G, struct tlayout *best, double *min_mem)
{
	bool found = false;
	*min_mem = INFINITY;
	/* Bound and prune (see shape_bound()): a shape whose bound exceeds
	 * the best step x 1.0001 can neither beat the best nor tie with it,
	 * so skipping it changes nothing. */
	bool prune_ok = x->lat >= 0 && x->overlap <= 1;
	for (int t = 1; t <= x->tmax && t <= G; t *= 2) {
		if (!eng_tp_valid(x->m, t))
			continue;
		double link_t = eng_link_bw(x->c, x->a, x->plat, t);
		for (int p = 1; p <= 16 && t * p <= G; p++) {
			if (p > x->m->layers || G % (t * p))
				continue;
			int d = G / (t * p);
			/* Each data-parallel rank needs at least one sequence. */
			if (d > x->seqs)
				continue;
			/* Nothing of this (t, p) fits when its leanest layout does
			 * not: activations only grow with virtual stages (v = 1
			 * holds the least) and the ZeRO stage that holds the least
			 * is tried here, so skipping is exact, min_mem included.  Most (t, p) on too
			 * few GPUs end here, which halves a training evaluation. */
			struct tlayout lean = { .t = t, .p = p, .v = 1, .d = d, .ep = expert_parallel(x->m, d),
						.m = (long)ceil(x->seqs / ((double)d * x->b)),
						.imb = stage_imbalance(x->m, p) };
			int lps = (x->m->layers + p - 1) / p;
			if (found && prune_ok) {
				lean.link_t = link_t;
				if (shape_bound(x, G, &lean, most_virtual_stages(p, lps)) > best->step * 1.0001)
					continue;
			}
			bool nan;
			double lowest = leanest_mem(x, &lean, &nan);
			if (!nan && lowest > x->usable) {
				if (lowest < *min_mem)
					*min_mem = lowest;
				continue;
			}
			struct tlayout base = { .t = t, .p = p, .d = d, .ep = lean.ep, .m = lean.m, .imb = lean.imb,
						.link_t = link_t };
			try_stages(x, G, &base, lps, best, &found, min_mem);
		}
	}
	return found;
}

/* search() is a pure function of the context and G, and the sizing below
 * asks for the same G more than once (the fit, the target time, the final
 * layout): remembered answers spare a quarter of the layouts walked. */
#define TMEMO 8
struct tmemo {
	int n, next;
	struct {
		int G;
		bool found;
		struct tlayout best;
		double min_mem;
	} e[TMEMO];
};

static bool search_memo(struct tmemo *mc, const struct tctx *x, int G, struct tlayout *best,
			double *min_mem)
{
	for (int i = 0; i < mc->n; i++)
		if (mc->e[i].G == G) {
			if (mc->e[i].found)
				*best = mc->e[i].best;
			*min_mem = mc->e[i].min_mem;
			return mc->e[i].found;
		}
	struct tlayout b;
	double mm;
	bool found = search(x, G, &b, &mm);
	int k = mc->next;
	mc->next = (mc->next + 1) % TMEMO;
	if (mc->n < TMEMO)
		mc->n++;
	mc->e[k].G = G;
	mc->e[k].found = found;
	mc->e[k].best = b;
	mc->e[k].min_mem = mm;
	if (found)
		*best = b;
	*min_mem = mm;
	return found;
}

/* The largest GPU count the global batch allows a layout for. */
static int lo_fail_gpus(const struct tctx *x)
{
	double g = x->seqs * x->tmax * 16;
	return g > ENG_MAX_GPUS ? ENG_MAX_GPUS : (int)g;
}

static double hours_for(const struct tctx *x, int G, const struct tlayout *l)
{
	(void)G;
	double steps = x->tokens / x->gbt;
	return steps * l->step / 3600.0;
}

/* What the search found: the GPU count, its best layout, and why it
 * stopped. */
struct tsize {
	struct tlayout best;
	double min_mem;			/* per GPU, when nothing fits */
	int G, G_fit;			/* chosen; fewest that fit */
	bool fixed, fits, target_missed, batch_limited;
};

/* Fewest multiples of the node step that fit: doubling, then bisection.
 * A count with no layout at all (the global batch has fewer sequences than
 * data-parallel ranks) ends the search.  Returns the multiple, 0 if none. */
static int fewest_fitting(struct tmemo *memo, const struct tctx *x, int cap, struct tsize *z)
{
	int lo = 0, hi = 1;
	for (;;) {
		if (search_memo(memo, x, hi * x->step, &z->best, &z->min_mem))
			break;
		if (isinf(z->min_mem) || hi >= cap) {
			z->batch_limited = isinf(z->min_mem);
			return 0;
		}
		lo = hi;
		hi = hi * 2 > cap ? cap : hi * 2;
	}
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		struct tlayout tmp;
		double mm;
		if (search_memo(memo, x, mid * x->step, &tmp, &mm))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

static bool meets(struct tmemo *memo, const struct tctx *x, int k)
{
	struct tlayout tmp;
	double mm;
	return search_memo(memo, x, k * x->step, &tmp, &mm) &&
	       hours_for(x, k * x->step, &tmp) <= x->w->target_hours;
}

/* Smallest node multiple from hi on meeting the target time: the time
 * falls roughly as 1/G, so double, then bisect.  k_ok is the largest count
 * known to fit at all, the answer when the target is out of reach. */
static int meet_target(struct tmemo *memo, const struct tctx *x, int hi, int cap, bool *missed)
{
	int k_lo = hi - 1, k_hi = hi, k_ok = hi;
	bool met = meets(memo, x, k_hi);
	while (!met && k_hi < cap) {
		int next = k_hi * 2 > cap ? cap : k_hi * 2;
		struct tlayout tmp;
		double mm;
		if (!search_memo(memo, x, next * x->step, &tmp, &mm))
			break;	/* global batch too small to spread further */
		k_lo = k_hi;
		k_hi = k_ok = next;
		met = hours_for(x, k_hi * x->step, &tmp) <= x->w->target_hours;
	}
	*missed = !met;
	if (!met)
		return k_ok;
	while (k_hi - k_lo > 1) {
		int mid = k_lo + (k_hi - k_lo) / 2;
		if (meets(memo, x, mid))
			k_hi = mid;
		else
			k_lo = mid;
	}
	return k_hi;
}

/* Size: the GPUs given, or the fewest that fit and meet the target time. */
static void size_train(const struct tctx *x, const struct catalog_accel *a, struct tsize *z)
{
	const struct workload *w = x->w;
	struct tmemo memo = { .n = 0 };
	memset(z, 0, sizeof *z);
	z->fixed = w->accel == a && w->gpus > 0;
	if (z->fixed) {
		z->G = w->gpus;
		z->fits = search_memo(&memo, x, z->G, &z->best, &z->min_mem);
		return;
	}
	int cap = ENG_MAX_GPUS / x->step;
	int hi = fewest_fitting(&memo, x, cap, z);
	z->fits = hi > 0;
	z->G_fit = hi * x->step;
	z->G = z->fits ? z->G_fit : cap * x->step;
	if (z->fits && w->target_hours > 0)
		z->G = meet_target(&memo, x, hi, cap, &z->target_missed) * x->step;
	if (z->fits)
		search_memo(&memo, x, z->G, &z->best, &z->min_mem);
}

/* The result's figures for the layout found. */
static void fill_train(const struct catalog *c, const struct catalog_accel *a, const struct tctx *x,
		       const struct tsize *z, struct engine_result *r)
{
	const struct tlayout *b = &z->best;
	int G = z->G;
	r->tp = b->t;
	r->pp = b->p;
	r->virtual_stages = b->v;
	r->dp = b->d;
	r->ep = b->ep;
	r->zero_stage = b->zero;
	r->replicas = 1;
	r->mem_per_gpu_gb = b->mem_gpu / ENG_GB;
	r->mem_required_gb = b->mem_gpu * G / ENG_GB;
	r->mem_util_pct = 100.0 * b->mem_gpu / x->usable;
	r->step_s = b->step;
	r->t_compute_s = b->compute;
	r->t_memory_s = b->elem;
	r->t_comm_s = b->tp_comm + b->pp_comm + b->ep_comm + b->dp_exposed;
	r->t_bubble_s = b->bubble;
	r->mfu = x->model_tok * x->gbt / (b->step * G * x->peak);
	r->scaling_efficiency = (b->compute + b->elem) / b->step;
	r->train_hours = hours_for(x, G, b);
	r->gpu_hours = r->train_hours * G;
	r->tokens_per_s_per_gpu = x->gbt / b->step / G;
	r->bw_util_pct = 100.0 * b->elem / b->step;
	r->link_util_pct = 100.0 * (b->tp_comm + b->pp_comm + b->ep_comm + b->dp_comm) / b->step;
	r->link_gb_s_used = eng_link_bw(c, a, x->plat, b->t > 1 ? b->t : 2) / 1e9;
	r->nic_gb_s_per_gpu = x->nic_bw / 1e9;
}

/* Bind: what keeps a fitting run from being smaller or faster, in the
 * order the precision the hardware lacks, the interconnect (scaling below
 * the catalog's threshold), the target time, memory (more than one node
 * to hold the model), bandwidth (elementwise traffic over a quarter of the
 * step), else compute. */
static enum resource bind_train(const struct tctx *x, const struct tsize *z, const struct engine_result *r)
{
	double thr = x->c->defaults.binding_link_efficiency.value;
	if (x->pr.fallback)
		return RES_PRECISION;
	if (thr > 0 && r->scaling_efficiency < thr)
		return RES_INTERCONNECT;
	if (x->w->target_hours > 0 && z->G > z->G_fit && !z->fixed)
		return RES_COMPUTE;
	if (!z->fixed && z->G > x->node)
		return RES_MEMORY;
	if (z->best.elem > 0.25 * z->best.step)
		return RES_BANDWIDTH;
	return RES_COMPUTE;
}

/* "Llama 2 70B LoRA at bf16": a reason's "%s%s at %s" (name, suffix, precision). */
#define WHAT(x) eng_model_name((x)->m), train_suffix((x)->w), precision_name((x)->pr.used)

static const char *train_suffix(const struct workload *w)
{
	if (w->cls != WL_FINETUNE)
		return "";
	return w->method == FT_LORA ? " LoRA" : w->method == FT_QLORA ? " QLoRA" : " full fine-tune";
}

/* Explain: the reason of a run that does not fit. */
static void explain_unfit(const struct tctx *x, const struct tsize *z, struct engine_result *r)
{
	r->fits = false;
	r->binding = RES_MEMORY;
	if (z->batch_limited) {
		r->gpus = 0;
		eng_reason(r, "%s%s at %s does not fit %d GPU%s, and a global batch of %ld sequence%s cannot spread over more: raise --global-batch-tokens",
			   WHAT(x), lo_fail_gpus(x), eng_s(lo_fail_gpus(x)), eng_l(x->seqs), eng_s(eng_l(x->seqs)));
		return;
	}
	r->mem_per_gpu_gb = z->min_mem / ENG_GB;
	r->mem_required_gb = z->min_mem * z->G / ENG_GB;
	r->mem_util_pct = 100.0 * z->min_mem / x->usable;
	eng_reason(r, "%s%s at %s: model state and activations need %F GB per GPU even on %d GPU%s (%F GB usable)",
		   WHAT(x), z->min_mem / ENG_GB, z->G, eng_s(z->G), x->usable / ENG_GB);
}

/* Explain: the reason of the resource that binds a fitting run. */
static void explain_train(const struct tctx *x, const struct tsize *z, struct engine_result *r)
{
	const struct catalog_accel *a = x->a;
	int G = z->G;
	switch (r->binding) {
	case RES_PRECISION:
		eng_reason(r, "no %s on %s: trains at %s (%ld TFLOPS), %F h on %d GPU%s",
			   precision_name(x->pr.requested), a->name, precision_name(x->pr.used),
			   eng_l(x->peak / 1e12), r->train_hours, G, eng_s(G));
		return;
	case RES_INTERCONNECT:
		eng_reason(r, "%ld%% scaling efficiency on %d GPU%s: communication and pipeline bubble take %ld%% of each step",
			   eng_l(100.0 * r->scaling_efficiency), G, eng_s(G),
			   eng_l(100.0 * (1.0 - r->scaling_efficiency)));
		return;
	case RES_MEMORY:
		eng_reason(r, "%s%s at %s does not fit one %d-GPU node: %d GPUs hold it at %F GB each (TP%d PP%d ZeRO-%d)",
			   WHAT(x), x->node, G, r->mem_per_gpu_gb, z->best.t, z->best.p, z->best.zero);
		return;
	case RES_BANDWIDTH:
		eng_reason(r, "memory traffic outside the matrix units takes %ld%% of each step at %.3g TB/s",
			   eng_l(100.0 * z->best.elem / z->best.step), a->mem_bw_tb_s);
		return;
	default:
		break;
	}
	if (x->w->target_hours > 0 && G > z->G_fit && !z->fixed)
		eng_reason(r, "%F h needs %d GPUs at %ld%% MFU (%ld TFLOPS %s each)", x->w->target_hours, G,
			   eng_l(100.0 * r->mfu), eng_l(x->peak / 1e12), precision_name(x->pr.compute));
	else
		eng_reason(r, "compute-bound: %F h on %d GPU%s at %ld%% MFU (%ld TFLOPS %s each)",
			   r->train_hours, G, eng_s(G), eng_l(100.0 * r->mfu), eng_l(x->peak / 1e12),
			   precision_name(x->pr.compute));
}
#undef WHAT

/* Training and fine-tuning on one accelerator: size (fewest GPUs that fit
 * and meet the target time), bind, explain. */
void eng_train(const struct catalog *c, const struct workload *w,
	       const struct catalog_accel *a, struct engine_result *r)
{
	struct tctx x;
	r->precision_used = w->precision;
	if (!tctx_init(c, w, a, &x)) {
		r->fits = false;
		r->binding = RES_NONE;
		snprintf(r->reason, sizeof r->reason, "%s", x.node > 0
			 ? "the catalog gives no usable peak, bandwidth or training efficiency for this accelerator"
			 : "no server (platform) for this accelerator in the catalog");
		return;
	}
	r->precision_used = x.pr.used;
	r->precision_fallback = x.pr.fallback;

	struct tsize z;
	size_train(&x, a, &z);
	r->gpus = z.G;
	r->step_ms = r->output_tokens_per_s = r->tokens_per_s_per_user = r->ttft_ms = NAN;
	r->mem_avail_per_gpu_gb = x.usable / ENG_GB;
	if (!z.fits) {
		explain_unfit(&x, &z, r);
		return;
	}
	fill_train(c, a, &x, &z, r);
	if (z.target_missed) {
		r->fits = false;
		r->binding = RES_COMPUTE;
		eng_reason(r, "%F h is out of reach: %F h at best on %d GPU%s", w->target_hours,
			   r->train_hours, z.G, eng_s(z.G));
		return;
	}
	r->fits = true;
	r->binding = bind_train(&x, &z, r);
	explain_train(&x, &z, r);
}
