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
	/* Figures the search asks for at every shape, worked out once per
	 * accelerator: eng_link_bw() for 2^k GPUs inside a node, and
	 * stage_imbalance() for p stages. */
	double link_pow2[8];
	double imb[PP_MAX + 1];
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

/* Pipeline stages need not divide the layers: Megatron and the Llama 3
 * run (126 layers on 16 stages, Llama 3 paper section 3.3.2) give some
 * stages one layer fewer.  The fullest stage, ceil(L/p) layers, holds the
 * most and sets the pace: its share over an even split is the imbalance. */
static double stage_imbalance(const struct catalog_model *m, int p)
{
	double even = (double)m->layers / p;
	return ceil(even) / even;
}

/* Virtual stages: v chunks of the fullest stage's lps layers per GPU, when
 * there is a pipeline to interleave. */
static bool v_ok(int p, int lps, int v)
{
	return v <= lps && lps % v == 0 && (v == 1 || p > 1);
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
	x->plat = eng_platform_biggest(c, w, a, &x->node);
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
	x->nic_bw = eng_nic_bw(c, w, x->plat);
	x->link2 = eng_link_bw(c, a, x->plat, 2);
	for (int k = 1; k < 8; k++)
		x->link_pow2[k] = eng_link_bw(c, a, x->plat, 1 << k);
	for (int p = 1; p <= PP_MAX; p++)
		x->imb[p] = stage_imbalance(x->m, p);
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
	if ((long)n * stride > x->node)
		return x->nic_bw;
	if ((n & (n - 1)) == 0 && n < 256)
		return x->link_pow2[__builtin_ctz((unsigned)n)];
	return eng_link_bw(x->c, x->a, x->plat, n);
}

/* Parameters one GPU holds before ZeRO sharding (MoE experts spread over
 * the expert-parallel group). */
static double params_gpu(const struct tctx *x, const struct tlayout *l)
{
	return (x->shared_params + x->expert_params / l->ep) / ((double)l->t * l->p) * l->imb;
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

/* The runtime reserve per GPU: more on a multi-GPU job (NCCL buffers). */
static double reserve_bytes(const struct tctx *x, const struct tlayout *l)
{
	const struct catalog_defaults *d = &x->c->defaults;
	return ((long)l->t * l->c * l->p * l->d > 1 ? d->runtime_reserve_tp_gb.value
						   : d->runtime_reserve_tp1_gb.value) * ENG_GB;
}

/* A layout's memory per GPU: model state, activations, runtime reserve. */
static double mem_sum(double state, double act, double reserve)
{
	return state + act + reserve;
}

/* Compute and elementwise time of a step on G GPUs, before the fullest
 * pipeline stage's share (imb, 1 when p divides the layers) that sets
 * the pace multiplies them. */
static double compute_per_imb(const struct tctx *x, int G, int rec)
{
	return x->hw_tok[rec] * x->gbt / (G * x->peak * x->eff);
}

static double elem_per_imb(const struct tctx *x, int G)
{
	return x->elem_bytes_tok * x->gbt / (G * x->bw);
}

/* 1F1B bubble (p-1)/(m+p-1) of the pipeline's time, i.e. (p-1)/m of the
 * work; interleaving v chunks per GPU divides it by v. */
static double bubble_of(double work, int p, long m, int v)
{
	return p > 1 ? work * (p - 1) / ((double)m * v) : 0;
}

static double bubble_s(const struct tlayout *l)
{
	return bubble_of(l->compute + l->elem, l->p, l->m, l->v);
}

/* Layers of the fullest stage times micro-batches: how often each
 * per-layer exchange happens in a step. */
static double layer_passes(const struct tctx *x, const struct tlayout *l)
{
	return (double)l->m * ((double)x->m->layers / l->p * l->imb);
}

static int tp_allreduces(int rec)
{
	return rec == RECOMPUTE_FULL ? 6 : 4;
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
	return layer_passes(x, l) * tp_allreduces(l->rec) * eng_ring_allreduce_s(msg, l->t, l->link_t, x->lat);
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

/* ---- the search ---- */

/* Which layout wins: within 0.01% (TIE) of the fastest step the simpler
 * one - less context parallelism, then the smaller micro-batch, then less
 * memory, then the first in the order t, c, p, b, e, v, recompute, ZeRO.
 *
 * The winner does not depend on the order the layouts are met in, so the
 * MIN pass walks the shapes in the order likeliest to meet a fast one
 * early (t, p, c from the most, b, e) and skips what a lower bound proves
 * slower than TIE x the fastest step so far: nothing within TIE of the
 * fastest is skipped.  It keeps the layouts within TIE of the fastest so
 * far as candidates; the winner is the simplest candidate within TIE of
 * the fastest.  Should the candidates overflow, a PICK pass walks again
 * for the simplest within TIE of the now-known fastest.  The FIT pass
 * only asks whether any layout fits.
 *
 * The bounds add up, in step_parts()'s order, terms each no larger than
 * the layout's own, so they stay below its step in floating point too
 * (rounding is monotone): the lightest recompute's terms (none shrinks
 * with heavier recompute), the least bubble (most virtual stages), the
 * least PP time (one virtual stage); then the least exposed DP time
 * (ZeRO 0-2's exchange, behind the heaviest recompute's backward pass),
 * whose rounding BOUND_ROUNDING covers. */
enum tpass { PASS_FIT, PASS_MIN, PASS_PICK };
#define TIE 1.0001
#define NCAND 64
#define BOUND_ROUNDING 1e-9

struct tsearch {
	const struct tctx *x;
	int G;
	enum tpass pass;
	bool found;
	bool prune_ok;			/* bounds hold: latency >= 0, overlap <= 1 */
	double smin;			/* the fastest step so far */
	double compute_g[RECOMPUTE_COUNT], elem_g;	/* work_terms() before imb */
	struct tlayout best;		/* PICK */
	int ncand;
	bool overflow;
	struct tlayout *cand;		/* MIN: NCAND, in walk order */
	double min_mem;			/* least memory of any layout sized */
};

/* The terms of a shape's step that do not depend on the virtual stages,
 * for one recompute choice. */
struct tterms {
	bool set;
	double compute, elem, tp, cp, ep;
};

static void shape_terms(const struct tsearch *S, const struct tlayout *shape, int rec, struct tterms *k)
{
	struct tlayout l = *shape;
	l.rec = rec;
	k->compute = S->compute_g[rec] * l.imb;
	k->elem = S->elem_g * l.imb;
	k->tp = tp_comm_s(S->x, &l);
	k->cp = cp_comm_s(S->x, &l);
	k->ep = ep_comm_s(S->x, &l);
	k->set = true;
}

/* The step without the data-parallel exchange, which alone depends on the
 * ZeRO stage: below every ZeRO stage's step (step_finish() adds a term
 * >= 0 to this very sum). */
static double step_parts(const struct tctx *x, const struct tterms *k, struct tlayout *l)
{
	l->compute = k->compute;
	l->elem = k->elem;
	l->bubble = bubble_s(l);
	l->tp_comm = k->tp;
	l->cp_comm = k->cp;
	l->ep_comm = k->ep;
	l->pp_comm = pp_comm_s(x, l);
	return l->compute + l->elem + l->bubble + l->tp_comm + l->cp_comm + l->ep_comm + l->pp_comm;
}

static void step_finish(const struct tctx *x, struct tlayout *l)
{
	double work = l->compute + l->elem;
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


static int v_most(int p, int lps)
{
	for (int v = V_MAX; v > 1; v--)
		if (v_ok(p, lps, v))
			return v;
	return 1;
}

/* l wins over o, both within TIE of the fastest: simpler, or as simple
 * and first in the order t, c, p, b, e, v, recompute, ZeRO. */
static bool better(const struct tlayout *l, const struct tlayout *o)
{
	if (l->c != o->c)
		return l->c < o->c;
	if (l->b != o->b)
		return l->b < o->b;
	if (l->mem_gpu != o->mem_gpu)
		return l->mem_gpu < o->mem_gpu;
	const int a[] = { l->t, l->c, l->p, l->b, l->ep, l->v, l->rec, l->zero };
	const int b[] = { o->t, o->c, o->p, o->b, o->ep, o->v, o->rec, o->zero };
	for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
		if (a[i] != b[i])
			return a[i] < b[i];
	return false;
}

/* A layout whose bound exceeds this cannot win. */
static double cut(const struct tsearch *S)
{
	return S->found && S->prune_ok ? S->smin * TIE : INFINITY;
}

static void consider(struct tsearch *S, const struct tlayout *l)
{
	if (S->pass == PASS_PICK) {
		if (l->step <= S->smin * TIE && (!S->best.t || better(l, &S->best)))
			S->best = *l;
		return;
	}
	if (!S->found || l->step < S->smin) {
		S->smin = l->step;
		int n = 0;
		for (int i = 0; i < S->ncand; i++)
			if (S->cand[i].step <= S->smin * TIE)
				S->cand[n++] = S->cand[i];
		S->ncand = n;
	}
	S->found = true;
	if (l->step <= S->smin * TIE) {
		if (S->ncand < NCAND)
			S->cand[S->ncand++] = *l;
		else
			S->overflow = true;
	}
}

/* The virtual stages, recompute choices (from rec0, the lightest whose
 * leanest layout fits) and ZeRO stages of a shape whose model state per
 * ZeRO stage is state[] and whose v-independent terms are k[] (by
 * recompute, filled as needed). */
static void try_layouts(struct tsearch *S, const struct tlayout *shape, int lps, int rec0, int zmax,
			const double *state, double reserve, struct tterms *k, double dp_lb)
{
	const struct tctx *x = S->x;
	for (int v = 1; v <= V_MAX; v++) {
		if (!v_ok(shape->p, lps, v))
			continue;
		/* Recompute from the lightest: once a layout without ZeRO-3
		 * fits, heavier recompute only adds work. */
		for (int rec = rec0; rec <= x->rec_hi; rec++) {
			struct tlayout l = *shape;
			l.v = v;
			l.rec = rec;
			if (!k[rec].set)
				shape_terms(S, shape, rec, &k[rec]);
			/* heavier recompute is no faster: nothing after this can
			 * win; every ZeRO stage adds at least dp_lb (see
			 * shape_slow()) */
			double parts = step_parts(x, &k[rec], &l);
			if (parts > cut(S) || (parts + dp_lb) * (1.0 - BOUND_ROUNDING) > cut(S))
				break;
			double act = activation_gpu(x, &l);
			bool have012 = false;
			double dp012 = 0, exp012 = 0, step012 = 0;
			for (int z = 0; z <= zmax; z++) {
				l.zero = z;
				l.mem_gpu = mem_sum(state[z], act, reserve);
				if (l.mem_gpu < S->min_mem)
					S->min_mem = l.mem_gpu;
				if (l.mem_gpu > x->usable)
					continue;
				/* ZeRO 0, 1 and 2 differ in memory only. */
				if (z < 3 && have012) {
					l.dp_comm = dp012;
					l.dp_exposed = exp012;
					l.step = step012;
				} else {
					step_finish(x, &l);
					if (z < 3) {
						dp012 = l.dp_comm;
						exp012 = l.dp_exposed;
						step012 = l.step;
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

/* The work and least bubble of a shape's layouts, none lighter on
 * recompute than rec0: a lower bound on their steps (the prefix of
 * step_parts()'s sum), and of every shape with a bigger micro-batch, less
 * context or less expert parallelism (no lighter recompute fits those,
 * and their bubble is no smaller). */
static double shape_floor(const struct tsearch *S, const struct tlayout *shape, int rec0)
{
	int lps = (S->x->m->layers + shape->p - 1) / shape->p;
	double compute = S->compute_g[rec0] * shape->imb;
	double elem = S->elem_g * shape->imb;
	return compute + elem + bubble_of(compute + elem, shape->p, shape->m, v_most(shape->p, lps));
}

/* The layout shape_floor() sums: the shape at rec0 with the most virtual
 * stages, its work and bubble filled in. */
static void floor_layout(const struct tsearch *S, const struct tlayout *shape, int rec0, struct tlayout *l)
{
	int lps = (S->x->m->layers + shape->p - 1) / shape->p;
	*l = *shape;
	l->rec = rec0;
	l->v = v_most(shape->p, lps);
	l->compute = S->compute_g[rec0] * l->imb;
	l->elem = S->elem_g * l->imb;
	l->bubble = bubble_s(l);
}

/* Whether no layout of the shape, none lighter on recompute than rec0,
 * can beat cut(S) once its communication is added to the floor, then the
 * least exposed DP time. */
static bool shape_slow(const struct tsearch *S, const struct tlayout *shape, int rec0, struct tterms *k,
		       double *dp_lb)
{
	const struct tctx *x = S->x;
	double limit = cut(S);
	*dp_lb = 0;
	if (!(limit < INFINITY))
		return false;
	struct tlayout l;
	floor_layout(S, shape, rec0, &l);
	if (l.compute + l.elem + l.bubble > limit)
		return true;
	shape_terms(S, shape, rec0, &k[rec0]);
	l.v = 1;
	double lb = l.compute + l.elem + l.bubble + k[rec0].tp + k[rec0].cp + k[rec0].ep + pp_comm_s(x, &l);
	if (lb > limit)
		return true;
	l.zero = 0;
	double dp = dp_comm_s(x, &l);
	double window = (S->compute_g[x->rec_hi] * l.imb + l.elem) * 2.0 / 3.0;
	double hidden = dp * x->overlap < window ? dp * x->overlap : window;
	*dp_lb = dp - hidden;
	return (lb + *dp_lb) * (1.0 - BOUND_ROUNDING) > limit;
}

/* A shape's model state by ZeRO stage (state[zlean..zmax]) and runtime
 * reserve: what its memory adds to the activations. */
struct tstate {
	int zlean, zmax;
	double state[4], reserve;
};

static void shape_state(const struct tctx *x, struct tlayout *shape, struct tstate *st)
{
	st->zmax = shape->d * shape->c == 1 ? 0 : 3;
	st->zlean = x->zero_monotone ? st->zmax : 0;
	for (int z = st->zlean; z <= st->zmax; z++) {
		shape->zero = z;
		st->state[z] = state_bytes(x, shape);
	}
	st->reserve = reserve_bytes(x, shape);
}

/* The least memory of the shape's layouts at one recompute choice: one
 * virtual stage (activations only grow with more), the ZeRO stage holding
 * least; NAN when a figure gives no number. */
static double lean_mem(const struct tctx *x, struct tlayout *shape, int rec, const struct tstate *st)
{
	shape->v = 1;
	shape->rec = rec;
	double act = activation_gpu(x, shape);
	double lowest = INFINITY;
	for (int z = st->zlean; z <= st->zmax; z++) {
		double mz = mem_sum(st->state[z], act, st->reserve);
		if (isnan(mz))
			return NAN;
		if (mz < lowest)
			lowest = mz;
	}
	return lowest;
}

/* The lightest recompute whose leanest layout fits, -1 when not even the
 * heaviest does (*lowest: that one's memory). */
static int lightest_fit(const struct tctx *x, struct tlayout *shape, const struct tstate *st, double *lowest)
{
	*lowest = lean_mem(x, shape, x->rec_hi, st);
	if (*lowest > x->usable)
		return -1;
	int rec0 = x->rec_hi;
	while (rec0 > x->rec_lo && !(lean_mem(x, shape, rec0 - 1, st) > x->usable))
		rec0--;
	return rec0;
}

/* Every layout of one shape (t, c, p, b, e) whose state st and lightest
 * fitting recompute rec0 (>= 0) are known. */
static void try_shape(struct tsearch *S, struct tlayout *shape, struct tstate *st, int rec0)
{
	const struct tctx *x = S->x;
	struct tterms k[RECOMPUTE_COUNT];
	for (int r = 0; r < RECOMPUTE_COUNT; r++)
		k[r].set = false;
	double dp_lb = 0;
	if (S->pass != PASS_FIT && shape_slow(S, shape, rec0, k, &dp_lb))
		return;
	for (int z = 0; z < st->zlean; z++) {
		shape->zero = z;
		st->state[z] = state_bytes(x, shape);
	}
	int lps = (x->m->layers + shape->p - 1) / shape->p;
	try_layouts(S, shape, lps, rec0, st->zmax, st->state, st->reserve, k, dp_lb);
}

/* A shape's memory: its state, and the lightest recompute that can fit
 * it (-1 when none; the least memory then goes to min_mem). */
static int shape_fit(struct tsearch *S, struct tlayout *shape, struct tstate *st, double *lowest)
{
	shape_state(S->x, shape, st);
	int rec0 = lightest_fit(S->x, shape, st, lowest);
	if (rec0 < 0 && *lowest < S->min_mem)
		S->min_mem = *lowest;
	return rec0;
}

/* Power-of-two degrees from 1, or only the forced one. */
static int deg_first(int forced)
{
	return forced > 0 ? forced : 1;
}

static int deg_next(int forced, int v)
{
	return forced > 0 ? 0 : v * 2;
}

/* The degrees the search tries, each rule written once. */
static bool tp_ok(const struct tctx *x, int t)
{
	return (x->w->tp > 0 || t <= x->tmax) && eng_tp_valid(x->m, t);
}

/* Context parallel: ring attention wants two chunks per rank (the causal
 * mask's load balance) and at least CP_MIN_TOKENS a rank. */
static bool cp_ok(const struct tctx *x, int c)
{
	if (x->w->cp > 0 || c == 1)
		return true;
	return c <= CP_MAX && x->w->seq_len % (2 * c) == 0 && x->s / c >= CP_MIN_TOKENS;
}

/* p stages of t x c GPUs divide G, and each data-parallel rank gets at
 * least one sequence. */
static bool tcp_ok(const struct tctx *x, int G, int t, int c, int p)
{
	return p <= x->m->layers && (long)t * c * p <= G && G % (t * c * p) == 0 &&
	       G / (t * c * p) <= x->seqs;
}

static bool mb_ok(const struct tctx *x, int d, int b)
{
	return (x->w->micro_batch > 0 || b <= MB_MAX) && (double)d * b <= x->seqs;
}

/* Expert parallel e divides the experts and the data x context ranks. */
static bool ep_ok(const struct tctx *x, int dc, int e)
{
	if (x->m->experts <= 1)
		return e == 1 && x->w->ep <= 1;
	if (x->w->ep > 0 && e != x->w->ep)
		return false;
	return e <= dc && e <= x->m->experts && x->m->experts % e == 0 && dc % e == 0;
}

/* The most expert parallelism of a (c, d), 0 when none is allowed: the
 * experts' state only shrinks with it. */
static int ep_most(const struct tctx *x, int dc)
{
	int e = x->m->experts > 1 && x->w->ep <= 0 ? (dc < x->m->experts ? dc : x->m->experts) : 1;
	if (x->w->ep > 0)
		e = x->w->ep;
	while (e >= 1 && !ep_ok(x, dc, e))
		e = x->w->ep > 0 ? 0 : e - 1;
	return e;
}

/* A (t, p) group: the shapes with these tensor and pipeline degrees. */
struct tgroup {
	int t, p;
	int c_hi;			/* the most context parallelism; -1 not yet known, 0 none */
	double link_t;
	double lb;			/* MIN: no layout of the group is faster */
	bool done;
};

static void shape_init(const struct tsearch *S, const struct tgroup *g, int c, int b, int e,
		       struct tlayout *shape)
{
	const struct tctx *x = S->x;
	int d = S->G / (g->t * c * g->p);
	memset(shape, 0, sizeof *shape);
	shape->t = g->t;
	shape->c = c;
	shape->p = g->p;
	shape->d = d;
	shape->b = b;
	shape->ep = e;
	shape->m = (long)ceil(x->seqs / ((double)d * b));
	shape->imb = g->p <= PP_MAX ? x->imb[g->p] : stage_imbalance(x->m, g->p);
	shape->link_t = g->link_t;
}

/* The most context parallelism the group allows, 0 when none. */
static int cp_most(const struct tsearch *S, const struct tgroup *g)
{
	const struct tctx *x = S->x;
	int c = x->w->cp > 0 ? x->w->cp : 1;
	while (x->w->cp <= 0 && (long)g->t * g->p * c * 2 <= S->G && c < CP_MAX)
		c *= 2;
	for (; c >= 1; c = x->w->cp > 0 ? 0 : c / 2)
		if (cp_ok(x, c) && tcp_ok(x, S->G, g->t, c, g->p))
			return c;
	return 0;
}

/* The group's leanest shape, which holds no more memory than any other
 * of its shapes at the same recompute: the most context parallelism (it
 * divides the activations and keeps the model state, sharded over d x c),
 * the smallest micro-batch, the most expert parallelism.  False when the
 * group has no shape. */
static bool group_lean(const struct tsearch *S, struct tgroup *g, struct tlayout *shape)
{
	const struct tctx *x = S->x;
	if (g->c_hi < 0)
		g->c_hi = cp_most(S, g);
	int c = g->c_hi;
	if (!c)
		return false;
	int d = S->G / (g->t * c * g->p);
	int b = deg_first(x->w->micro_batch);
	int e = ep_most(x, d * c);
	if (!mb_ok(x, d, b) || e < 1)
		return false;
	shape_init(S, g, c, b, e, shape);
	return true;
}

/* Every shape of a group: c from the most, b from the smallest, e from
 * the most, i.e. from the leanest.  Memory and the floor of the step only
 * grow with a bigger micro-batch or less context parallelism (see
 * shape_floor()), and the leanest e of a (c, b) bounds its others: once
 * it cannot fit, or its floor is above the cut, the rest of the micro-
 * batches (and, at the smallest, of the context degrees) can skip. */
static void try_group(struct tsearch *S, const struct tgroup *g)
{
	const struct tctx *x = S->x;
	const struct workload *w = x->w;
	for (int c = g->c_hi < 0 ? cp_most(S, g) : g->c_hi; c >= 1; c = w->cp > 0 ? 0 : c / 2) {
		if (!cp_ok(x, c) || !tcp_ok(x, S->G, g->t, c, g->p))
			continue;
		int d = S->G / (g->t * c * g->p);
		bool first = true, stop_c = false;
		for (int b = deg_first(w->micro_batch); b && mb_ok(x, d, b); b = deg_next(w->micro_batch, b)) {
			bool stop_b = false;
			int e_hi = ep_most(x, d * c);
			for (int e = e_hi; e >= 1 && !stop_b; e--) {
				if (e < e_hi && !ep_ok(x, d * c, e))
					continue;
				struct tlayout shape;
				struct tstate st;
				double lowest;
				shape_init(S, g, c, b, e, &shape);
				int rec0 = shape_fit(S, &shape, &st, &lowest);
				bool leanest = e == e_hi;
				if (rec0 < 0 || (S->prune_ok && shape_floor(S, &shape, rec0) > cut(S))) {
					stop_b = leanest;
					continue;
				}
				try_shape(S, &shape, &st, rec0);
			}
			stop_c = stop_b && first;
			first = false;
			if (stop_b)
				break;
		}
		if (stop_c)
			break;
	}
}

/* The (t, p) groups on G GPUs that may hold a shape, in the order t, p;
 * NGROUP bounds them (t a power of two up to G, p up to PP_MAX, or
 * forced). */
#define NGROUP (32 * PP_MAX)
static int groups(const struct tsearch *S, struct tgroup *g)
{
	const struct tctx *x = S->x;
	const struct workload *w = x->w;
	int n = 0;
	for (int t = deg_first(w->tp); t && t <= S->G; t = deg_next(w->tp, t)) {
		if (!tp_ok(x, t))
			continue;
		double link_t = eng_link_bw(x->c, x->a, x->plat, t);
		int p_lo = w->pp > 0 ? w->pp : 1, p_hi = w->pp > 0 ? w->pp : PP_MAX;
		for (int p = p_lo; p <= p_hi && (long)t * p <= S->G && n < NGROUP; p++) {
			if (S->G % (t * p))
				continue;	/* no c makes t c p divide G */
			g[n++] = (struct tgroup){ .t = t, .p = p, .c_hi = -1, .link_t = link_t };
		}
	}
	return n;
}

/* FIT: whether the leanest shape of some group fits. */
static void walk_fit(struct tsearch *S, struct tgroup *g, int n)
{
	const struct tctx *x = S->x;
	/* the most parallel groups first: the likeliest to fit */
	for (int i = n - 1; i >= 0 && !S->found; i--) {
		struct tlayout shape;
		struct tstate st;
		if (!group_lean(S, &g[i], &shape))
			continue;
		shape_state(x, &shape, &st);
		double lowest = lean_mem(x, &shape, x->rec_hi, &st);
		if (lowest > x->usable) {
			if (lowest < S->min_mem)
				S->min_mem = lowest;
			continue;
		}
		/* the leanest layout fits and would be taken; a figure that
		 * gives no number has its layouts sized */
		if (!isnan(lowest))
			S->found = true;
		else
			try_shape(S, &shape, &st, lightest_fit(x, &shape, &st, &lowest));
	}
}

/* A lower bound on the step of every layout of the group whose leanest
 * shape is lean, none lighter on recompute than rec0: its floor (see
 * shape_floor()), the TP traffic without latency (every shape moves at
 * least seqs / (d c) sequences through each layer's all-reduces, m b / c
 * of them), the least exposed DP time (the leanest shape has the least
 * expert state; d c is the group's).  The terms come from different
 * layouts, so BOUND_ROUNDING covers the sums' rounding. */
static double group_floor(const struct tsearch *S, const struct tlayout *lean, int rec0)
{
	const struct tctx *x = S->x;
	struct tlayout l;
	floor_layout(S, lean, rec0, &l);
	double lb = l.compute + l.elem + l.bubble;
	double dc = (double)lean->d * lean->c;
	if (lean->t > 1) {
		double bytes = x->seqs / dc * x->s * x->m->hidden * 2.0;
		double layers = (double)x->m->layers / lean->p * lean->imb;
		lb += layers * tp_allreduces(x->rec_lo) * eng_ring_allreduce_s(bytes, lean->t, lean->link_t, 0);
	}
	l.zero = 0;
	double dp = dp_comm_s(x, &l);
	double window = (S->compute_g[x->rec_hi] * l.imb + l.elem) * 2.0 / 3.0;
	double hidden = dp * x->overlap < window ? dp * x->overlap : window;
	return (lb + (dp - hidden)) * (1.0 - BOUND_ROUNDING);
}

/* MIN: each group's bound from its leanest shape - the lightest recompute
 * that can fit it, no imbalance but its own, the least bubble (the most
 * micro-batches, the most virtual stages); then the groups from the
 * lowest bound while it can beat the fastest step so far.  A group whose
 * leanest shape does not fit is left, its memory the least of the
 * group's. */
static void walk_min(struct tsearch *S, struct tgroup *g, int n)
{
	int live = 0;
	for (int i = 0; i < n; i++) {
		struct tlayout shape;
		struct tstate st;
		double lowest;
		g[i].done = true;
		if (!group_lean(S, &g[i], &shape))
			continue;
		int rec0 = shape_fit(S, &shape, &st, &lowest);
		if (rec0 < 0)
			continue;
		g[i].lb = isnan(lowest) ? -INFINITY : group_floor(S, &shape, rec0);
		g[i].done = false;
		live++;
	}
	while (live > 0) {
		int k = -1;
		for (int i = 0; i < n; i++)
			if (!g[i].done && (k < 0 || g[i].lb < g[k].lb))
				k = i;
		if (g[k].lb > cut(S))
			break;
		g[k].done = true;
		live--;
		try_group(S, &g[k]);
	}
}

/* Fastest fitting layout on G GPUs (see above); false if none fits.
 * *min_mem, the least memory any layout needs, is what the callers report
 * when none fits; once a layout fits nobody reads it.  fit_only: whether
 * any layout fits, *best untouched; a search that finds none sizes the
 * leanest layout of every group either way, min_mem included. */
static bool search(const struct tctx *x, int G, bool fit_only, struct tlayout *best, double *min_mem)
{
	struct tlayout cand[NCAND];
	struct tgroup g[NGROUP];
	struct tsearch S = { .x = x, .G = G, .pass = fit_only ? PASS_FIT : PASS_MIN, .min_mem = INFINITY,
			     .cand = cand };
	S.prune_ok = x->lat >= 0 && x->overlap <= 1;
	for (int r = 0; r < RECOMPUTE_COUNT; r++)
		S.compute_g[r] = compute_per_imb(x, G, r);
	S.elem_g = elem_per_imb(x, G);
	int n = groups(&S, g);
	if (fit_only) {
		walk_fit(&S, g, n);
		*min_mem = S.min_mem;
		return S.found;
	}
	walk_min(&S, g, n);
	*min_mem = S.min_mem;
	if (!S.found)
		return false;
	if (S.overflow) {
		S.pass = PASS_PICK;
		for (int i = 0; i < n; i++)
			try_group(&S, &g[i]);
	} else {
		for (int i = 0; i < S.ncand; i++)
			if (S.cand[i].step <= S.smin * TIE && (!S.best.t || better(&S.cand[i], &S.best)))
				S.best = S.cand[i];
	}
	*best = S.best;
	return true;
}

/* search() is a pure function of the context and G, and the sizing below
 * asks for the same G more than once (the fit, the target time, the final
 * layout): remembered answers spare a quarter of the layouts walked.  An
 * answer to "does anything fit" (full = false) that found a layout does
 * not say which is fastest. */
#define TMEMO 8
struct tmemo {
	int n, next;
	struct {
		int G;
		bool found, full;
		struct tlayout best;
		double min_mem;
	} e[TMEMO];
};

static bool search_memo(struct tmemo *mc, const struct tctx *x, int G, bool full, struct tlayout *best,
			double *min_mem)
{
	int k = -1;
	for (int i = 0; i < mc->n; i++)
		if (mc->e[i].G == G) {
			if (mc->e[i].full || !full || !mc->e[i].found) {
				if (mc->e[i].found)
					*best = mc->e[i].best;
				*min_mem = mc->e[i].min_mem;
				return mc->e[i].found;
			}
			k = i;	/* a layout fits; now the fastest */
		}
	struct tlayout b = { .t = 0 };
	double mm;
	bool found = search(x, G, !full, &b, &mm);
	if (k < 0) {
		k = mc->next;
		mc->next = (mc->next + 1) % TMEMO;
		if (mc->n < TMEMO)
			mc->n++;
	}
	mc->e[k].G = G;
	mc->e[k].found = found;
	mc->e[k].full = full;
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
	/* The platform has no scale-out NICs (nics.count 0): no network
	 * between nodes for gradients or pipeline stages, so one node at most
	 * (issue 13 item 5: sizing more divided by a NIC bandwidth of 0). */
	bool one_node;
};

/* Fewest multiples of the node step that fit: doubling, then bisection.
 * A count with no layout at all (the global batch has fewer sequences than
 * data-parallel ranks) ends the search.  Returns the multiple, 0 if none. */
static int fewest_fitting(struct tmemo *memo, const struct tctx *x, int cap, struct tsize *z)
{
	int lo = 0, hi = 1;
	for (;;) {
		if (search_memo(memo, x, hi * x->step, false, &z->best, &z->min_mem))
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
		if (search_memo(memo, x, mid * x->step, false, &tmp, &mm))
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
	return search_memo(memo, x, k * x->step, true, &tmp, &mm) &&
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
		if (!search_memo(memo, x, next * x->step, true, &tmp, &mm))
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
	z->one_node = !(x->nic_bw > 0);
	if (z->fixed && z->one_node && w->gpus > x->node) {
		z->G = w->gpus;
		return;		/* explain_unfit() says why */
	}
	if (z->fixed) {
		z->G = w->gpus;
		z->fits = search_memo(&memo, x, z->G, true, &z->best, &z->min_mem);
		return;
	}
	int cap = (z->one_node ? x->node : ENG_MAX_GPUS) / x->step;
	if (cap < 1)
		cap = 1;
	int hi = fewest_fitting(&memo, x, cap, z);
	z->fits = hi > 0;
	z->G_fit = hi * x->step;
	z->G = z->fits ? z->G_fit : cap * x->step;
	if (z->fits && w->target_hours > 0)
		z->G = meet_target(&memo, x, hi, cap, &z->target_missed) * x->step;
	if (z->fits)
		search_memo(&memo, x, z->G, true, &z->best, &z->min_mem);
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
	if (z->fixed && z->one_node && z->G > x->node) {
		r->binding = RES_INTERCONNECT;
		eng_reason(r, "%d GPUs need more than one node, and %s has no scale-out NICs (nics.count 0): at most %d GPUs",
			   z->G, x->plat->id, x->node);
		return;
	}
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
	if (z->one_node && !z->fixed)
		eng_reason(r, "%s%s at %s needs %F GB per GPU on one %d-GPU node (%F GB usable), and %s has no scale-out NICs (nics.count 0) to span more",
			   WHAT(x), z->min_mem / ENG_GB, G, x->usable / ENG_GB, x->plat->id);
	else
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
		if (z.one_node)
			eng_reason(r, "%F h is out of reach on one node: %F h at best on %d GPU%s, and %s has no scale-out NICs (nics.count 0) to span more",
				   w->target_hours, r->train_hours, z.G, eng_s(z.G), x.plat->id);
		else
			eng_reason(r, "%F h is out of reach: %F h at best on %d GPU%s", w->target_hours,
				   r->train_hours, z.G, eng_s(z.G));
		return;
	}
	r->fits = true;
	r->binding = bind_train(&x, &z, r);
	explain_train(&x, &z, r);
}
