/*
 * engine_train: sizing one accelerator for pretraining or fine-tuning.
 *
 * Three steps, each its own function: size (how many GPUs and which
 * layout), bind (the result's figures from the layout) and explain (the
 * binding resource and the reason line).
 *
 * The layout search.  For a GPU count G the engine tries the layouts a
 * Megatron user would (Megatron-LM rank order tensor, context, expert /
 * data, pipeline): tensor parallel t in {1,2,4,8} inside the link domain,
 * always with sequence parallelism (Korthikanti et al. 2022); context
 * parallel c (ring attention) while a rank keeps at least
 * CP_MIN_TOKENS of the sequence; pipeline stages p up to 16 (the fullest
 * holding ceil(L/p) layers and setting the pace) with v interleaved
 * chunks; data parallel d = G/(t c p); expert parallel e over the
 * data x context ranks for MoE models; b sequences per micro-batch; ZeRO
 * stage 0-3 (Rajbhandari et al. 2020; stage 1 is Megatron's distributed
 * optimizer); and, unless the user fixes it, the activation recompute:
 * none, selective or full.  The workload's tp, pp, cp, ep, micro_batch and
 * recompute force their part.  A layout fits when model state, the
 * activations in flight and the runtime reserve fit the usable memory; the
 * fastest fitting one wins.  Its step time is
 *
 *   compute     FLOPs per step (with what the recompute repeats)
 *               / (G x peak x training efficiency at the precision)
 *   elementwise defaults.training_elementwise_bytes x tokens x h x L
 *               / (G x bandwidth x eff): norms, activations, residuals,
 *               optimizer update
 *   bubble      (p - 1)/(m v) of the above (1F1B and interleaved 1F1B,
 *               Narayanan et al. 2021)
 *   TP/SP       all-gathers and reduce-scatters of the micro-batch's
 *               activations on the GPU link: the traffic of 4 all-reduces
 *               per layer, 6 with full recompute
 *   CP          the ring's K/V exchanges, 3 (c - 1) chunks per layer
 *               (forward, and K/V plus their gradients backward), hidden
 *               behind the attention they feed up to its time
 *   EP          four all-to-alls of the routed tokens per MoE layer
 *   PP          point-to-point sends of each micro-batch between stages
 *   DP          gradient reduce-scatter and weight all-gather (ring) over
 *               the data x context ranks, hidden behind the backward pass
 *               up to defaults.training_overlap of it and never more than
 *               the backward pass lasts
 *
 * Each group runs on the GPU link while it stays inside a node and on the
 * NICs (one per GPU, rail-optimised: each GPU's traffic on its own rail)
 * once it spans nodes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

/* A context-parallel rank keeps at least this many tokens: below it the
 * ring's exchanges outgrow the attention they hide behind (Megatron's
 * long-context recipes keep 4k-16k a rank). */
#define CP_MIN_TOKENS 1024
#define PP_MAX 16
#define CP_MAX 32
#define MB_MAX 8		/* largest micro-batch tried, sequences */
#define V_MAX 8			/* interleaved chunks per GPU */

struct tctx {
	const struct catalog *c;
	const struct workload *w;
	const struct catalog_accel *a;
	const struct catalog_model *m;
	const struct catalog_platform *plat;
	struct eng_precision pr;
	double usable, peak, eff, bw, lat, overlap;
	double model_tok;		/* model FLOPs per token */
	double hw_tok[RECOMPUTE_COUNT];	/* FLOPs done per token, by recompute */
	double attn_tok;		/* attention core FLOPs per token per layer, forward */
	double tokens, gbt, s, seqs;
	/* Activation bytes per token per layer at 16 bit, before tensor
	 * parallelism divides them (Korthikanti et al. 2022, table 2):
	 * stored for the backward pass by recompute, and the working set of
	 * the one layer being recomputed under full recompute. */
	double act_tok[RECOMPUTE_COUNT];
	double act_work_tok;
	double logits_tok;		/* last stage: fp32 logits for the loss */
	double kv_dim;			/* K (or V) values per token per layer */
	double elem_bytes_tok;		/* elementwise traffic per token */
	bool frozen;			/* LoRA / QLoRA */
	double base_bytes;		/* frozen base, per parameter */
	double adapters;
	int node, tmax;
	int step;			/* GPU counts come in multiples of this */
	double nic_bw;
	double link2;			/* eng_link_bw() for a pair, once */
	double shared_params, expert_params;
	bool zero_monotone;
	int rec_lo, rec_hi;		/* recompute choices tried, lightest first */
};

struct tlayout {
	int t, c, p, v, d, ep, zero, b, rec;
	long m;				/* micro-batches per step per pipeline */
	double imb;			/* layers on the fullest stage / (layers / p) */
	double link_t;			/* eng_link_bw() for the TP group */
	double mem_gpu;			/* bytes */
	double compute, elem, bubble, tp_comm, cp_comm, ep_comm, pp_comm, dp_comm, dp_exposed, step;
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

/* Korthikanti et al. 2022, section 4: per token per layer at 16 bit, 34 h
 * bytes with the attention scores recomputed (selective; what
 * FlashAttention's backward pass does too), 34 h + 5 a s without
 * recompute, only the layer's 2 h-byte input with full recompute. */
static void activation_bytes(struct tctx *x)
{
	double h = x->m->hidden, a = x->m->heads;
	x->act_tok[RECOMPUTE_NONE] = h * 34.0 + 5.0 * a * x->s;
	x->act_tok[RECOMPUTE_SELECTIVE] = h * 34.0;
	x->act_tok[RECOMPUTE_FULL] = h * 2.0;
	x->act_tok[RECOMPUTE_AUTO] = x->act_tok[RECOMPUTE_SELECTIVE];
	x->act_work_tok = h * 34.0;
	/* Megatron's vocabulary-parallel cross entropy keeps the logits in
	 * fp32 on the last stage. */
	x->logits_tok = 4.0 * (x->m->vocab > 0 ? x->m->vocab : 0);
}

static double training_efficiency(const struct catalog *c, const struct catalog_accel *a,
				  const struct eng_precision *pr)
{
	/* FP8 (and the 4-bit formats run at an FP8-or-faster peak) reach a
	 * different share of their peak than BF16: their own figure when the
	 * catalog has one. */
	bool low = pr->compute == PREC_FP8 || pr->compute == PREC_FP4 || pr->compute == PREC_INT8;
	if (low && a->eff_training_fp8.value > 0)
		return a->eff_training_fp8.value;
	return a->eff_training.value > 0 ? a->eff_training.value : c->defaults.training_mfu.value;
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
	x->eff = training_efficiency(c, a, &x->pr);
	x->bw = a->mem_bw_tb_s * 1e12 * a->eff_mem_bw.value;
	x->lat = d->collective_latency_us.value * 1e-6;
	x->overlap = d->training_overlap.value;
	for (int r = 0; r < RECOMPUTE_COUNT; r++)
		eng_train_flops_token(w, (enum recompute)r, &x->model_tok, &x->hw_tok[r]);
	x->tokens = eng_train_tokens(w);
	x->s = (double)w->seq_len;
	x->gbt = w->global_batch_tokens;
	x->seqs = floor(x->gbt / x->s);
	if (x->seqs < 1)
		x->seqs = 1;
	x->attn_tok = eng_attn_flops_token(x->m, x->s) / (x->m->layers > 0 ? x->m->layers : 1);
	activation_bytes(x);
	x->kv_dim = (double)(x->m->mla_kv_lora_rank > 0 ? x->m->heads : x->m->kv_heads) *
		    eng_head_dim(x->m);
	x->elem_bytes_tok = d->training_elementwise_bytes.value * x->m->hidden * x->m->layers;
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
	if (w->recompute == RECOMPUTE_AUTO) {
		/* Korthikanti's "none" keeps the attention scores, which no
		 * stack with FlashAttention does: the search starts at
		 * selective (the scores recomputed, FlashAttention's backward
		 * pass); none only when asked for. */
		x->rec_lo = RECOMPUTE_SELECTIVE;
		x->rec_hi = RECOMPUTE_FULL;
	} else {
		x->rec_lo = x->rec_hi = (int)w->recompute;
	}
	return x->node > 0 && x->plat && x->peak > 0 && x->eff > 0 && x->bw > 0;
}

/* Bandwidth per GPU for a group of n GPUs whose members sit `stride`
 * ranks apart: on the GPU link while the span stays in one node, else on
 * the NICs. */
static double group_bw(const struct tctx *x, int n, int stride)
{
	if (n <= 1)
		return 0;
	if ((long)n * stride <= x->node)
		return eng_link_bw(x->c, x->a, x->plat, n);
	return x->nic_bw;
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

static double state_bytes(const struct tctx *x, const struct tlayout *l)
{
	const struct catalog_defaults *d = &x->c->defaults;
	double ppg = params_gpu(x, l);
	/* Megatron's distributed optimizer (and FSDP) shard over the data
	 * and context ranks together: both hold the same weights. */
	double dd = (double)l->d * l->c;
	if (x->frozen) {
		/* Frozen base at its storage precision (ZeRO-3/FSDP shards it
		 * too); Adam state only for the adapters. */
		double base = ppg * x->base_bytes / (l->zero >= 3 ? dd : 1);
		double ad = x->adapters / ((double)l->t * l->p) * l->imb;
		double per = d->adapter_bytes_per_param.value;
		return base + ad * per / (l->zero >= 1 ? dd : 1);
	}
	/* Mixed-precision Adam: 2 (weights) + 2 (grads) + rest (fp32 master
	 * and moments), sharded by stage: 1 the rest, 2 also the grads, 3
	 * also the weights. */
	double adam = d->adam_bytes_per_param.value;
	double opt = adam - 4.0;
	switch (l->zero) {
	case 0: return ppg * adam;
	case 1: return ppg * (4.0 + opt / dd);
	case 2: return ppg * (2.0 + (2.0 + opt) / dd);
	default: return ppg * adam / dd;
	}
}

/* Activations one GPU holds at the peak of the schedule.  1F1B: the first
 * stage has min(m, p) micro-batches in flight, each of its ceil(L/p)
 * layers; interleaving keeps p (1 + (p - 1)/(p v)) (Korthikanti et al.
 * 2022, section 4.2.3; Narayanan et al. 2021).  Sequence parallelism
 * divides every tensor by t, context parallelism the tokens by c.  The
 * last stage holds one micro-batch and the loss's logits instead. */
static double activation_gpu(const struct tctx *x, const struct tlayout *l)
{
	double tok = l->b * x->s / l->c;		/* tokens a GPU holds per micro-batch */
	double lps = (double)x->m->layers / l->p * l->imb;
	double inflight = l->m < l->p ? (double)l->m : (double)l->p;
	if (l->v > 1)
		inflight *= 1.0 + (l->p - 1.0) / ((double)l->p * l->v);
	double per_mb = x->act_tok[l->rec] * tok / l->t * lps;
	double work = l->rec == RECOMPUTE_FULL ? x->act_work_tok * tok / l->t : 0;
	double first = per_mb * inflight + work;
	double last = per_mb + work + x->logits_tok * tok / l->t;
	return first > last ? first : last;
}

static double mem_gpu(const struct tctx *x, const struct tlayout *l)
{
	const struct catalog_defaults *d = &x->c->defaults;
	double reserve = ((long)l->t * l->c * l->p * l->d > 1 ? d->runtime_reserve_tp_gb.value
							  : d->runtime_reserve_tp1_gb.value) * ENG_GB;
	return state_bytes(x, l) + activation_gpu(x, l) + reserve;
}

/* The terms of step_time() before communication, each written once so
 * that shape_bound() rounds them exactly as step_time() does. */
static void step_work(const struct tctx *x, int G, struct tlayout *l)
{
	/* The fullest pipeline stage sets the pace (imb = 1 when p divides
	 * the layers). */
	l->compute = x->hw_tok[l->rec] * x->gbt / (G * x->peak * x->eff) * l->imb;
	l->elem = x->elem_bytes_tok * x->gbt / (G * x->bw) * l->imb;
	double work = l->compute + l->elem;
	/* 1F1B bubble (p-1)/(m+p-1) of the pipeline's time, i.e. (p-1)/m of
	 * the work; interleaving v chunks per GPU divides it by v. */
	l->bubble = l->p > 1 ? work * (l->p - 1) / ((double)l->m * l->v) : 0;
}

/* Layers of the fullest stage times micro-batches: how often each
 * per-layer exchange happens in a step. */
static double layer_passes(const struct tctx *x, const struct tlayout *l)
{
	return (double)l->m * ((double)x->m->layers / l->p * l->imb);
}

/* Sequence parallelism: per layer two all-gathers and two reduce-scatters
 * of the micro-batch's activations forward and again backward, the
 * traffic and latency of four all-reduces (Korthikanti et al. 2022,
 * section 4.2.2); full recompute repeats the forward ones. */
static double tp_comm_s(const struct tctx *x, const struct tlayout *l)
{
	if (l->t <= 1)
		return 0;
	double msg = l->b * x->s / l->c * x->m->hidden * 2.0;
	int ars = l->rec == RECOMPUTE_FULL ? 6 : 4;
	return layer_passes(x, l) * ars * eng_ring_allreduce_s(msg, l->t, l->link_t, x->lat);
}

/* Ring attention (Liu et al. 2023; Megatron context parallelism): c - 1
 * steps pass each rank's K and V chunk forward, and backward the chunk
 * with its gradients, overlapped with the attention on the chunk in hand. */
static double cp_comm_s(const struct tctx *x, const struct tlayout *l)
{
	if (l->c <= 1)
		return 0;
	double tok = l->b * x->s / l->c;
	double chunk = 2.0 * tok * x->kv_dim / l->t * 2.0;	/* K and V at 16 bit */
	double bw = group_bw(x, l->c, l->t);
	if (bw <= 0)
		return INFINITY;
	double ring = 3.0 * (l->c - 1) * (chunk / bw + x->lat);
	double attn = 3.0 * x->attn_tok * tok / l->t / (x->peak * x->eff);
	double exposed = ring > attn ? ring - attn : 0;
	return layer_passes(x, l) * exposed;
}

/* Expert parallelism: each MoE layer sends the micro-batch's routed tokens
 * (k copies) to their experts and back, forward and backward: four
 * all-to-alls, (e - 1)/e of the bytes leaving the GPU; the share bound for
 * other nodes goes over the NICs. */
static double ep_comm_s(const struct tctx *x, const struct tlayout *l)
{
	if (l->ep <= 1)
		return 0;
	double tok = l->b * x->s / l->c / l->t;
	double bytes = tok * x->m->experts_active * x->m->hidden * 2.0;
	int span = l->t * l->c;
	int local = span >= x->node ? 1 : x->node / span;
	if (local > l->ep)
		local = l->ep;
	double link = local > 1 ? eng_link_bw(x->c, x->a, x->plat, local) : 0;
	double t = 0;
	if (local > 1)
		t += bytes * (local - 1.0) / l->ep / link;
	if (local < l->ep)
		t += x->nic_bw > 0 ? bytes * (double)(l->ep - local) / l->ep / x->nic_bw : INFINITY;
	int n = l->rec == RECOMPUTE_FULL ? 6 : 4;
	return layer_passes(x, l) * n * (t + (l->ep - 1) * x->lat);
}

static double pp_comm_s(const struct tctx *x, const struct tlayout *l)
{
	if (l->p <= 1)
		return 0;
	/* Megatron sends the sequence-parallel shard, 1/t of the tensor. */
	double msg = l->b * x->s / l->c * x->m->hidden * 2.0 / l->t;
	long stride = (long)l->t * l->c * l->d;
	double bw = stride * 2 <= x->node ? x->link2 : x->nic_bw;
	return (double)l->m * 2.0 * l->v * (msg / bw + x->lat);
}

static double dp_comm_s(const struct tctx *x, const struct tlayout *l)
{
	int dd = l->d * l->c;
	if (dd <= 1)
		return 0;
	double bw = group_bw(x, dd, l->t);
	double ppg = params_gpu(x, l);
	double grads = (x->frozen ? x->adapters / ((double)l->t * l->p) * l->imb : ppg) * 2.0;
	/* Reduce-scatter of the gradients and all-gather of the updated
	 * weights (ZeRO-1/2, distributed optimizer), or one all-reduce: the
	 * same traffic. */
	double s = eng_ring_allreduce_s(grads, dd, bw, x->lat);
	if (l->zero >= 3) {
		/* Weights gathered before forward and backward: two
		 * all-gathers, each half an all-reduce's traffic. */
		double wbytes = ppg * (x->frozen ? x->base_bytes : 2.0);
		s += eng_ring_allreduce_s(wbytes, dd, bw, x->lat);
	}
	return s;
}

/* The lightest recompute any layout of a shape could use. */
static int rec_first(const struct tctx *x)
{
	return x->rec_lo;
}

/* A lower bound on the step of every layout of a (t, c, p, b, e) shape,
 * v from 1 to vmax, any ZeRO stage and recompute: the step adds work,
 * bubble, TP, CP, EP, PP and the exposed DP time, none negative (latency
 * >= 0, overlap <= 1), each no smaller with heavier recompute, so the sum
 * with the lightest recompute, the least bubble (most virtual stages),
 * the least PP time (v = 1) and no DP time is never above the step
 * step_time() computes. */
static double shape_bound(const struct tctx *x, int G, const struct tlayout *shape, int vmax)
{
	struct tlayout l = *shape;
	l.rec = rec_first(x);
	l.v = vmax;
	step_work(x, G, &l);
	double comm = tp_comm_s(x, &l) + cp_comm_s(x, &l) + ep_comm_s(x, &l);
	l.v = 1;
	comm += pp_comm_s(x, &l);
	return l.compute + l.elem + l.bubble + comm;
}

static void step_time(const struct tctx *x, int G, struct tlayout *l)
{
	step_work(x, G, l);
	double work = l->compute + l->elem;
	l->tp_comm = tp_comm_s(x, l);
	l->cp_comm = cp_comm_s(x, l);
	l->ep_comm = ep_comm_s(x, l);
	l->pp_comm = pp_comm_s(x, l);
	l->dp_comm = dp_comm_s(x, l);
	/* Bucketed gradient reduction runs during the backward pass (two
	 * thirds of the work): up to training_overlap of it hides, never
	 * more than the backward pass lasts. */
	double hidden = l->dp_comm * x->overlap;
	double window = work * 2.0 / 3.0;
	if (hidden > window)
		hidden = window;
	l->dp_exposed = l->dp_comm - hidden;
	l->step = work + l->bubble + l->tp_comm + l->cp_comm + l->ep_comm + l->pp_comm + l->dp_exposed;
}

/* Virtual stages allowed for p stages of lps layers: v divides lps. */
static int v_max(int p, int lps)
{
	if (p <= 1)
		return 1;
	for (int v = V_MAX; v > 1; v--)
		if (v <= lps && lps % v == 0)
			return v;
	return 1;
}

struct tsearch {
	const struct tctx *x;
	int G;
	bool found, prune_ok;
	struct tlayout best;
	double min_mem;
};

static void consider(struct tsearch *S, const struct tlayout *l)
{
	/* Within 0.01% the simpler layout wins: less context parallelism,
	 * then the smaller micro-batch, then less memory. */
	const struct tlayout *o = &S->best;
	bool tie = S->found && l->step <= o->step * 1.0001 && l->step >= o->step * 0.9999;
	bool simpler = tie && (l->c != o->c ? l->c < o->c
			       : l->b != o->b ? l->b < o->b : l->mem_gpu < o->mem_gpu);
	if (!S->found || l->step < o->step * 0.9999 || simpler) {
		S->best = *l;
		S->found = true;
	}
}

/* Every layout of one shape (t, c, p, b, e): virtual stages, recompute,
 * ZeRO stage. */
static void try_shape(struct tsearch *S, struct tlayout shape)
{
	const struct tctx *x = S->x;
	int lps = (x->m->layers + shape.p - 1) / shape.p;
	/* Nothing of this shape fits when its leanest layout does not:
	 * activations only grow with virtual stages and lighter recompute,
	 * and the ZeRO stage that holds the least is tried here. */
	struct tlayout lean = shape;
	lean.v = 1;
	lean.rec = x->rec_hi;
	double lowest = INFINITY;
	bool nan = false;
	int zmax = shape.d * shape.c == 1 ? 0 : 3;
	for (int z = x->zero_monotone ? zmax : 0; z <= zmax; z++) {
		lean.zero = z;
		double mz = mem_gpu(x, &lean);
		nan = nan || isnan(mz);
		if (mz < lowest)
			lowest = mz;
	}
	if (!nan && lowest > x->usable) {
		if (lowest < S->min_mem)
			S->min_mem = lowest;
		return;
	}
	if (S->found && S->prune_ok && shape_bound(x, S->G, &shape, v_max(shape.p, lps)) > S->best.step * 1.0001)
		return;
	for (int v = 1; v <= V_MAX && v <= lps; v++) {
		if (lps % v || (v > 1 && shape.p == 1))
			continue;
		/* Recompute from the lightest: once a layout without ZeRO-3
		 * fits, heavier recompute only adds work. */
		for (int rec = x->rec_lo; rec <= x->rec_hi; rec++) {
			struct tlayout s012;
			bool have012 = false;
			for (int z = 0; z <= zmax; z++) {
				struct tlayout l = shape;
				l.v = v;
				l.rec = rec;
				l.zero = z;
				l.mem_gpu = mem_gpu(x, &l);
				if (l.mem_gpu < S->min_mem)
					S->min_mem = l.mem_gpu;
				if (l.mem_gpu > x->usable)
					continue;
				/* ZeRO 0, 1 and 2 differ in memory only. */
				if (z < 3 && have012) {
					double mg = l.mem_gpu;
					l = s012;
					l.zero = z;
					l.mem_gpu = mg;
				} else {
					step_time(x, S->G, &l);
					if (z < 3) {
						s012 = l;
						have012 = true;
					}
				}
				consider(S, &l);
			}
			if (have012)
				break;
		}
	}
}

/* Power-of-two degrees from 1 to hi, or only the forced one. */
static int deg_first(int forced)
{
	return forced > 0 ? forced : 1;
}

static int deg_next(int forced, int v)
{
	return forced > 0 ? 0 : v * 2;
}

/* Fastest fitting layout on G GPUs; false if none fits.  *min_mem, the
 * least memory any layout needs, is what the callers report when none
 * fits; once a layout fits nobody reads it. */
static bool search(const struct tctx *x, int G, struct tlayout *best, double *min_mem)
{
	const struct workload *w = x->w;
	struct tsearch S = { .x = x, .G = G, .min_mem = INFINITY };
	S.prune_ok = x->lat >= 0 && x->overlap <= 1;
	for (int t = deg_first(w->tp); t && t <= G; t = deg_next(w->tp, t)) {
		if ((w->tp <= 0 && t > x->tmax) || !eng_tp_valid(x->m, t))
			continue;
		double link_t = eng_link_bw(x->c, x->a, x->plat, t);
		for (int c = deg_first(w->cp); c && t * c <= G; c = deg_next(w->cp, c)) {
			if (c > 1 && (w->seq_len % (2 * c) || x->s / c < CP_MIN_TOKENS) && w->cp <= 0)
				continue;
			if (c > CP_MAX && w->cp <= 0)
				break;
			int p_lo = w->pp > 0 ? w->pp : 1, p_hi = w->pp > 0 ? w->pp : PP_MAX;
			for (int p = p_lo; p <= p_hi && (long)t * c * p <= G; p++) {
				if (p > x->m->layers || G % (t * c * p))
					continue;
				int d = G / (t * c * p);
				/* Each data-parallel rank needs at least one sequence. */
				if (d > x->seqs)
					continue;
				for (int b = deg_first(w->micro_batch); b; b = deg_next(w->micro_batch, b)) {
					if ((w->micro_batch <= 0 && b > MB_MAX) || (double)d * b > x->seqs)
						break;
					long mb = (long)ceil(x->seqs / ((double)d * b));
					struct tlayout shape = { .t = t, .c = c, .p = p, .d = d, .b = b, .m = mb,
								 .imb = stage_imbalance(x->m, p),
								 .link_t = link_t, .ep = 1 };
					if (x->m->experts <= 1) {
						if (w->ep <= 1)
							try_shape(&S, shape);
						continue;
					}
					/* Expert parallel e divides the experts and the
					 * data x context ranks. */
					int dc = d * c;
					for (int e = w->ep > 0 ? w->ep : 1; e <= dc && e <= x->m->experts;
					     e = w->ep > 0 ? dc + 1 : e + 1) {
						if (x->m->experts % e || dc % e)
							continue;
						shape.ep = e;
						try_shape(&S, shape);
					}
				}
			}
		}
	}
	*min_mem = S.min_mem;
	if (S.found)
		*best = S.best;
	return S.found;
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
	struct tlayout b = { .t = 0 };
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
	double g = x->seqs * x->tmax * PP_MAX;
	return g > ENG_MAX_GPUS ? ENG_MAX_GPUS : (int)g;
}

/* Interruptions and checkpoints (Young 1974, Daly 2006): a job on G GPUs
 * is interrupted G x rate times a day; it writes a checkpoint every
 * sqrt(2 delta M) (delta: the write, M: the mean time between
 * interruptions) and each interruption costs the restart plus, on
 * average, half an interval of lost work.  Goodput is the share of
 * wall-clock time left for training steps. */
static double goodput_for(const struct tctx *x, int G, const struct tlayout *l, double *per_day)
{
	const struct catalog_defaults *d = &x->c->defaults;
	double rate = d->interruptions_per_1k_gpus.value / 1000.0;
	*per_day = rate * G;
	if (!(rate > 0))
		return 1.0;
	double mtbi = 86400.0 / (rate * G);
	/* Each GPU writes its share of the model state; the nodes write in
	 * parallel at defaults.checkpoint_gb_s per node. */
	double state = state_bytes(x, l);
	int per_node = x->node < G ? x->node : G;
	double wbw = d->checkpoint_gb_s.value * ENG_GB;
	double delta = wbw > 0 ? state * per_node / wbw : 0;
	double restart = d->restart_minutes.value * 60.0;
	double tau = sqrt(2.0 * delta * mtbi);
	double lost = (delta > 0 ? delta / tau + tau / 2.0 / mtbi : 0) + restart / mtbi;
	double g = 1.0 - lost;
	return g > 0.05 ? g : 0.05;
}

static double hours_for(const struct tctx *x, int G, const struct tlayout *l)
{
	double per_day;
	double steps = x->tokens / x->gbt;
	return steps * l->step / 3600.0 / goodput_for(x, G, l, &per_day);
}

/* ---- size: the GPU count and the layout ---- */

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
static void size_train(const struct tctx *x, struct tsize *z)
{
	const struct workload *w = x->w;
	struct tmemo memo = { .n = 0 };
	memset(z, 0, sizeof *z);
	z->fixed = w->accel == x->a && w->gpus > 0;
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

/* ---- bind: the result's figures from the layout ---- */

static void fill_train(const struct tctx *x, const struct tsize *z, struct engine_result *r)
{
	const struct tlayout *b = &z->best;
	int G = z->G;
	r->tp = b->t;
	r->pp = b->p;
	r->cp = b->c;
	r->virtual_stages = b->v;
	r->dp = b->d;
	r->ep = b->ep;
	r->micro_batch = b->b;
	r->recompute_used = (enum recompute)b->rec;
	r->zero_stage = b->zero;
	r->replicas = 1;
	r->mem_per_gpu_gb = b->mem_gpu / ENG_GB;
	r->mem_required_gb = b->mem_gpu * G / ENG_GB;
	r->mem_util_pct = 100.0 * b->mem_gpu / x->usable;
	r->step_s = b->step;
	r->t_compute_s = b->compute;
	r->t_memory_s = b->elem;
	double comm = b->tp_comm + b->cp_comm + b->ep_comm + b->pp_comm;
	r->t_comm_s = comm + b->dp_exposed;
	r->t_bubble_s = b->bubble;
	r->mfu = x->model_tok * x->gbt / (b->step * G * x->peak);
	r->scaling_efficiency = (b->compute + b->elem) / b->step;
	r->goodput = goodput_for(x, G, b, &r->interruptions_per_day);
	r->train_hours = hours_for(x, G, b);
	r->gpu_hours = r->train_hours * G;
	r->tokens_per_s_per_gpu = x->gbt / b->step / G;
	r->samples_per_s = x->seqs / b->step;
	r->bw_util_pct = 100.0 * b->elem / b->step;
	r->link_util_pct = 100.0 * (comm + b->dp_comm) / b->step;
	r->link_gb_s_used = eng_link_bw(x->c, x->a, x->plat, b->t > 1 ? b->t : 2) / 1e9;
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

/* ---- explain: the reason ---- */

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
	int G = z->G;
	r->fits = false;
	r->binding = RES_MEMORY;
	if (z->batch_limited) {
		r->gpus = 0;
		eng_reason(r, "%s%s at %s does not fit %d GPU%s, and a global batch of %ld sequence%s cannot spread over more: raise --global-batch-tokens",
			   WHAT(x), lo_fail_gpus(x), eng_s(lo_fail_gpus(x)), eng_l(x->seqs), eng_s(eng_l(x->seqs)));
		return;
	}
	if (isinf(z->min_mem)) {
		/* Every layout was ruled out before its memory was sized: the
		 * forced degrees do not divide the GPUs, the model or the
		 * batch. */
		eng_reason(r, "no layout with the forced parallel degrees fits %d GPU%s and %s%s at %s",
			   G, eng_s(G), WHAT(x));
		return;
	}
	r->mem_per_gpu_gb = z->min_mem / ENG_GB;
	r->mem_required_gb = z->min_mem * G / ENG_GB;
	r->mem_util_pct = 100.0 * z->min_mem / x->usable;
	eng_reason(r, "%s%s at %s: model state and activations need %F GB per GPU even on %d GPU%s (%F GB usable)",
		   WHAT(x), z->min_mem / ENG_GB, G, eng_s(G), x->usable / ENG_GB);
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
	size_train(&x, &z);
	r->gpus = z.G;
	r->step_ms = r->output_tokens_per_s = r->tokens_per_s_per_user = r->ttft_ms = NAN;
	r->mem_avail_per_gpu_gb = x.usable / ENG_GB;
	if (!z.fits) {
		explain_unfit(&x, &z, r);
		return;
	}
	fill_train(&x, &z, r);
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
