/*
 * engine_train_step: the memory and step time of one training layout.
 *
 * A layout fits when model state, the activations in flight and the
 * runtime reserve fit the usable memory; its step time is
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

#include "engine_train.h"

/* Pipeline stages need not divide the layers: Megatron and the Llama 3
 * run (126 layers on 16 stages, Llama 3 paper section 3.3.2) give some
 * stages one layer fewer.  The fullest stage, ceil(L/p) layers, holds the
 * most and sets the pace: its share over an even split is the imbalance. */
double eng_train_stage_imbalance(const struct catalog_model *m, int p)
{
	double even = (double)m->layers / p;
	return ceil(even) / even;
}

/* Bandwidth per GPU for a group of n GPUs whose members sit `stride`
 * ranks apart: on the GPU link while the span stays in one node, else on
 * the NICs. */
static double group_bw(const struct eng_tctx *x, int n, int stride)
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
static double params_gpu(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	return (x->shared_params + x->expert_params / l->ep) / ((double)l->t * l->p) * l->imb;
}


double eng_train_state(const struct eng_tctx *x, const struct eng_tlayout *l)
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

/* A floor on the memory per GPU of every layout on G > 1 GPUs: the
 * shared parameters' state sharded over all G (ZeRO-3 holds the least of
 * the stages, and t p d c = G), the multi-GPU runtime reserve; the experts
 * (expert parallelism can divide them further) and the activations are
 * left out. */
double eng_train_mem_floor(const struct eng_tctx *x, int G)
{
	const struct catalog_defaults *d = &x->c->defaults;
	double per = x->frozen ? x->base_bytes : d->adam_bytes_per_param.value;
	return x->shared_params * per / G + d->runtime_reserve_tp_gb.value * ENG_GB;
}

/* Activations one GPU holds at the peak of the schedule.  1F1B: the first
 * stage has min(m, p) micro-batches in flight, each of its ceil(L/p)
 * layers; interleaving keeps p (1 + (p - 1)/(p v)) (Korthikanti et al.
 * 2022, section 4.2.3; Narayanan et al. 2021).  Sequence parallelism
 * divides every tensor by t, context parallelism the tokens by c.  The
 * last stage holds one micro-batch and the loss's logits instead. */
double eng_train_activation(const struct eng_tctx *x, const struct eng_tlayout *l)
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
double eng_train_reserve(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	const struct catalog_defaults *d = &x->c->defaults;
	return ((long)l->t * l->c * l->p * l->d > 1 ? d->runtime_reserve_tp_gb.value
						   : d->runtime_reserve_tp1_gb.value) * ENG_GB;
}

/* Compute and elementwise time of a step on G GPUs, before the fullest
 * pipeline stage's share (imb, 1 when p divides the layers) that sets
 * the pace multiplies them. */
double eng_train_compute_g(const struct eng_tctx *x, int G, int rec)
{
	return x->hw_tok[rec] * x->gbt / (G * x->peak * x->eff);
}

double eng_train_elem_g(const struct eng_tctx *x, int G)
{
	return x->elem_bytes_tok * x->gbt / (G * x->bw);
}

/* 1F1B bubble (p-1)/(m+p-1) of the pipeline's time, i.e. (p-1)/m of the
 * work; interleaving v chunks per GPU divides it by v. */
double eng_train_bubble_of(double work, int p, long m, int v)
{
	return p > 1 ? work * (p - 1) / ((double)m * v) : 0;
}

double eng_train_bubble(const struct eng_tlayout *l)
{
	return eng_train_bubble_of(l->compute + l->elem, l->p, l->m, l->v);
}

/* Layers of the fullest stage times micro-batches: how often each
 * per-layer exchange happens in a step. */
static double layer_passes(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	return (double)l->m * ((double)x->m->layers / l->p * l->imb);
}

int eng_train_tp_allreduces(int rec)
{
	return rec == RECOMPUTE_FULL ? 6 : 4;
}

/* Sequence parallelism: per layer two all-gathers and two reduce-scatters
 * of the micro-batch's activations forward and again backward, the
 * traffic and latency of four all-reduces (Korthikanti et al. 2022,
 * section 4.2.2); full recompute repeats the forward ones. */
double eng_train_tp_comm(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	if (l->t <= 1)
		return 0;
	double msg = l->b * x->s / l->c * x->m->hidden * 2.0;
	return layer_passes(x, l) * eng_train_tp_allreduces(l->rec) * eng_ring_allreduce_s(msg, l->t, l->link_t, x->lat);
}

/* Ring attention (Liu et al. 2023; Megatron context parallelism): c - 1
 * steps pass each rank's K and V chunk forward, and backward the chunk
 * with its gradients, overlapped with the attention on the chunk in hand. */
double eng_train_cp_comm(const struct eng_tctx *x, const struct eng_tlayout *l)
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
double eng_train_ep_comm(const struct eng_tctx *x, const struct eng_tlayout *l)
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
	return layer_passes(x, l) * x->moe_share * n * (t + (l->ep - 1) * x->lat);
}

double eng_train_pp_comm(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	if (l->p <= 1)
		return 0;
	/* Megatron sends the sequence-parallel shard, 1/t of the tensor. */
	double msg = l->b * x->s / l->c * x->m->hidden * 2.0 / l->t;
	long stride = (long)l->t * l->c * l->d;
	double bw = stride * 2 <= x->node ? x->link2 : x->nic_bw;
	return (double)l->m * 2.0 * l->v * (msg / bw + x->lat);
}

double eng_train_dp_comm(const struct eng_tctx *x, const struct eng_tlayout *l)
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

void eng_train_step_finish(const struct eng_tctx *x, struct eng_tlayout *l)
{
	double work = l->compute + l->elem;
	l->dp_comm = eng_train_dp_comm(x, l);
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
