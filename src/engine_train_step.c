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
 *               behind the attention they feed up to its time; or, by
 *               all-to-all, Q, K, V and the output each way, not hidden
 *   EP          four all-to-alls of the routed tokens per MoE layer
 *   experts     the local experts' weights and fp32 gradient accumulators
 *               read every micro-batch, beyond the expert GEMMs' math
 *   PP          point-to-point sends of each micro-batch between stages
 *   DP          gradient reduce-scatter and weight all-gather (ring) over
 *               the data x context ranks, hidden behind the compute the
 *               training stack runs it under (its dp_overlap): the whole
 *               backward pass up to defaults.training_overlap, or the
 *               last micro-batch's backward and the next first forward
 *               (Megatron-Core), or nothing
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
	if ((n & (n - 1)) == 0 && n <= x->link_pow2_hi)
		return x->link_pow2[__builtin_ctz((unsigned)n)];
	return eng_link_bw(x->c, x->a, x->plat, n);
}

/* Parameters one GPU holds before ZeRO sharding.  The shared ones are
 * split by tensor and pipeline parallelism; the routed experts by
 * pipeline and expert parallelism alone: Megatron's MoE parallel folding
 * with expert tensor parallelism 1, the experts' ranks laid over the
 * stage's t x c x d GPUs (NVIDIA's MoE recipes: Qwen3 235B on 256 H100 at
 * TP 2, EP 32, ETP 1, EDP 1, yanring/Megatron-MoE-ModelZoo
 * best_practice/Qwen3/readme.md; DeepSeek-V3 on 1,024 H100 at TP 2, EP 64,
 * ETP 1, DP 32, NVIDIA/dgxc-benchmarking deepseek_v3/pretrain). */
static double shared_gpu(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	return x->shared_params / ((double)l->t * l->p) * l->imb;
}

static double experts_gpu(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	return x->expert_params / ((double)l->ep * l->p) * l->imb;
}

/* The data-parallel ranks that hold the same weights: d x c for the
 * shared parameters, the expert-data-parallel t c d / ep for the experts. */
static double edp_ranks(const struct eng_tlayout *l)
{
	return (double)l->t * l->c * l->d / l->ep;
}

double eng_train_state(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	const struct catalog_defaults *d = &x->c->defaults;
	/* Megatron's distributed optimizer (and FSDP) shard over the data
	 * and context ranks together: both hold the same weights; the
	 * experts' state over their own expert-data-parallel ranks.  n: the
	 * parameters a GPU holds, nd: their share once sharded. */
	double dd = (double)l->d * l->c;
	double n = shared_gpu(x, l), nd = n / dd;
	if (x->expert_params > 0) {
		double e = experts_gpu(x, l);
		n += e;
		nd += e / edp_ranks(l);
	}
	if (x->frozen) {
		/* Frozen base at its storage precision (ZeRO-3/FSDP shards it
		 * too); Adam state only for the adapters. */
		double ad = x->adapters / ((double)l->t * l->p) * l->imb;
		return (l->zero >= 3 ? nd : n) * x->base_bytes +
		       ad * d->adapter_bytes_per_param.value / (l->zero >= 1 ? dd : 1);
	}
	/* Mixed-precision Adam: 2 (weights) + 2 (grads) + rest (fp32 master
	 * and moments), sharded by stage: 1 the rest, 2 also the grads, 3
	 * also the weights. */
	double adam = d->adam_bytes_per_param.value;
	double opt = adam - 4.0;
	switch (l->zero) {
	case 0: return n * adam;
	case 1: return n * 4.0 + nd * opt;
	case 2: return n * 2.0 + nd * (2.0 + opt);
	default: return nd * adam;
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
static double cp_a2a(const struct eng_tctx *x, const struct eng_tlayout *l, double tok, double bw);

double eng_train_cp_comm(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	if (l->c <= 1)
		return 0;
	double tok = l->b * x->s / l->c;
	if (x->w->cp_comm == CPC_A2A)
		return cp_a2a(x, l, tok, group_bw(x, l->c, l->t));
	double chunk = 2.0 * tok * x->kv_dim / l->t * 2.0;	/* K and V at 16 bit */
	double bw = group_bw(x, l->c, l->t);
	if (bw <= 0)
		return INFINITY;
	double ring = 3.0 * (l->c - 1) * (chunk / bw + x->lat);
	double attn = 3.0 * x->attn_tok * tok / l->t / (x->peak * x->eff);
	double exposed = ring > attn ? ring - attn : 0;
	return layer_passes(x, l) * exposed;
}

bool eng_train_cp_by_recompute(const struct eng_tctx *x)
{
	return x->w->cp_comm == CPC_A2A;
}

/* Context parallelism by all-to-all (Megatron's cp_comm_type 'a2a',
 * Transformer Engine's AttnFuncWithCPAndQKVOA2A; the scheme of DeepSpeed
 * Ulysses, Jacobs et al. 2023): before the attention each rank trades its
 * sequence shard of Q, K and V for the whole sequence of 1/c of the
 * heads, and the output back after it; backward the output's gradient
 * before and those of Q, K and V after.  One all_to_all_single per tensor,
 * eight calls a layer (twelve with full recompute, which repeats the
 * forward), each sending (c - 1)/c of its tensor and paying the per-peer
 * latency c - 1 times.  The attention cannot start before its inputs
 * arrive nor the next GEMM before the output returns, so none of it
 * hides.  The attention's own FLOPs are those of the full sequence on
 * fewer heads, the same as the ring's. */
static double cp_a2a(const struct eng_tctx *x, const struct eng_tlayout *l, double tok, double bw)
{
	if (bw <= 0)
		return INFINITY;
	double passes = l->rec == RECOMPUTE_FULL ? 3.0 : 2.0;
	double share = (l->c - 1.0) / l->c;
	/* Q and the output at the model width, K and V at theirs, 16 bit */
	double bytes = passes * tok * (2.0 * x->m->hidden + 2.0 * x->kv_dim) / l->t * 2.0 * share;
	double calls = passes * 4.0;
	return layer_passes(x, l) * (bytes / bw + calls * (l->c - 1) * x->lat);
}

/* Expert parallelism: each MoE layer sends the micro-batch's routed tokens
 * (k copies) to their experts and back, forward and backward: four
 * all-to-alls, (e - 1)/e of the bytes leaving the GPU; the share bound for
 * other nodes goes over the NICs.  Each GPU sends its sequence-parallel
 * share of the tokens (1/t). */
double eng_train_ep_comm(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	if (l->ep <= 1)
		return 0;
	double tok = l->b * x->s / l->c / l->t;
	double bytes = tok * x->m->experts_active * x->m->hidden * 2.0;
	/* the expert-parallel ranks are consecutive ones of the stage */
	int local = l->ep < x->node ? l->ep : x->node;
	double link = local > 1 ? eng_link_bw(x->c, x->a, x->plat, local) : 0;
	double t = 0;
	if (local > 1)
		t += bytes * (local - 1.0) / l->ep / link;
	if (local < l->ep)
		t += x->nic_bw > 0 ? bytes * (double)(l->ep - local) / l->ep / x->nic_bw : INFINITY;
	int n = l->rec == RECOMPUTE_FULL ? 6 : 4;
	return layer_passes(x, l) * x->moe_share * n * (t + (l->ep - 1) * x->lat);
}

/* The time a kernel of memory time mem and math time math takes beyond
 * its math: the longer of the two plus the part of the shorter that does
 * not hide behind it (defaults.serving_overlap: a GEMM near the ridge
 * keeps neither the memory system nor the math units busy), less the
 * math already in the compute term. */
static double beyond_math(double mem, double math, double ov)
{
	return mem > math ? mem - math + (1.0 - ov) * math : (1.0 - ov) * mem;
}

/* The routed experts' weight traffic.  Every micro-batch each GPU reads
 * the weights of the E/ep experts it holds in the forward and
 * data-gradient passes (and the recomputed forward under full recompute)
 * and reads and writes their fp32 main-gradient accumulators in the
 * weight-gradient pass (Megatron's gradient-accumulation fusion), bytes
 * that do not shrink with the tokens an expert sees, while the FLOPs do:
 * per pass, the FLOPs to bytes ratio is proportional to the tokens per
 * expert, T = tokens per GPU x k x ep / E.  Each pass is one grouped GEMM
 * whose math (at the dense efficiency times
 * defaults.training_moe_efficiency) is in the compute term; this is the
 * time its bytes add, per MoE layer and micro-batch.  A frozen base
 * (LoRA) has no accumulators. */
double eng_train_expert_mem(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	const struct catalog_model *m = x->m;
	if (!(x->expert_params > 0) || !(x->moe_share > 0))
		return 0;
	double layers = x->moe_share * m->layers;
	double p_local = x->expert_params / layers / l->ep;	/* one MoE layer's experts on this GPU */
	double tok = l->b * x->s / ((double)l->c * l->t);	/* tokens a GPU dispatches */
	/* expert FLOPs per pass on this GPU: its share of the group's k tok
	 * x ep token visits, 2 FLOPs per weight each */
	double flops = 2.0 * tok * m->experts_active * (x->expert_params / layers / m->experts);
	double f = x->c->defaults.training_moe_efficiency.value;
	double ov = x->c->defaults.serving_overlap.value;
	double t_math = flops / (x->peak * x->eff * (f > 0 && f < 1 ? f : 1.0));
	double reads = l->rec == RECOMPUTE_FULL ? 3.0 : 2.0;
	double t = reads * beyond_math(p_local * x->pr.weight_bytes / x->bw, t_math, ov);
	if (!x->frozen)
		t += beyond_math(p_local * 8.0 / x->bw, t_math, ov);
	return layer_passes(x, l) * x->moe_share * t;
}

/* One send of a micro-batch's activations to the next stage: the PP time
 * but for how often it happens (eng_train_pp_comm_of()). */
double eng_train_pp_send(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	/* Megatron sends the sequence-parallel shard, 1/t of the tensor. */
	double msg = l->b * x->s / l->c * x->m->hidden * 2.0 / l->t;
	long stride = (long)l->t * l->c * l->d;
	double bw = stride * 2 <= x->node ? x->link2 : x->nic_bw;
	return msg / bw + x->lat;
}

double eng_train_pp_comm(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	return l->p > 1 ? eng_train_pp_comm_of(l, eng_train_pp_send(x, l)) : 0;
}

/* The experts' share of the exchange below, over their
 * expert-data-parallel ranks, which sit ep ranks apart in the stage.
 * Sharded gradients and weights cost every micro-batch, not once a step:
 * ZeRO-2 and -3 keep only their shard of the gradients, so each
 * micro-batch's are reduce-scattered when its backward pass ends
 * (DeepSpeed's engine, deepspeedai/DeepSpeed pull 338: "Zero stage 2
 * communicates during non gradient accumulation boundaries as well"),
 * and ZeRO-3 gathers a layer's weights for its forward and again for its
 * backward (DeepSpeed docs/code-docs/source/zero3.rst at v0.18.2:
 * "ZeRO-3 will automatically collect and partition them during the
 * forward and backward passes"): m reduce-scatters and, for ZeRO-3, m
 * all-reduces' worth of gathers a step.  The shared parameters' are
 * still counted once a step (dense training's figure; docs/accuracy.md,
 * "Mixture-of-experts pretraining, fourth session"). */
static double experts_dp_comm(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	int edp = (int)edp_ranks(l);
	if (edp <= 1)
		return 0;
	double bw = group_bw(x, edp, l->ep);
	double e = experts_gpu(x, l);
	/* a ring all-reduce is a reduce-scatter and an all-gather of equal
	 * cost: the reduce-scatters m times, the weights' all-gather once */
	double rs = l->zero >= 2 ? (l->m + 1.0) / 2.0 : 1.0;
	double s = x->frozen ? 0 : rs * eng_ring_allreduce_s(e * 2.0, edp, bw, x->lat);
	if (l->zero >= 3)
		s += (double)l->m * eng_ring_allreduce_s(e * (x->frozen ? x->base_bytes : 2.0), edp, bw, x->lat);
	return s;
}

/* The gradients' reduce-scatter and the updated weights' all-gather
 * (ZeRO-1/2, distributed optimizer), or one all-reduce: the same traffic;
 * ZeRO-3 also gathers the weights before forward and backward, two
 * all-gathers of half an all-reduce's each.  The shared parameters over
 * the d x c ranks; the experts over their expert-data-parallel ranks,
 * which sit ep ranks apart in the stage. */
double eng_train_dp_comm(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	int dd = l->d * l->c;
	double s = 0;
	if (dd > 1) {
		double bw = group_bw(x, dd, l->t);
		double shared = shared_gpu(x, l);
		double grads = x->frozen ? x->adapters / ((double)l->t * l->p) * l->imb : shared;
		s = eng_ring_allreduce_s(grads * 2.0, dd, bw, x->lat);
		if (l->zero >= 3)
			s += eng_ring_allreduce_s(shared * (x->frozen ? x->base_bytes : 2.0), dd, bw, x->lat);
	}
	if (x->expert_params > 0)
		s += experts_dp_comm(x, l);
	return s;
}

void eng_train_step_finish(const struct eng_tctx *x, struct eng_tlayout *l)
{
	eng_train_step_finish_dp(x, l, eng_train_dp_comm(x, l));
}

/* The whole step's backward pass (two thirds of the work) as the window:
 * up to training_overlap of the exchange hides, never more than the
 * backward pass lasts. */
static double exposed_behind_backward(const struct eng_tctx *x, double dp, double work)
{
	double hidden = dp * x->overlap;
	double window = work * 2.0 / 3.0;
	return dp - (hidden < window ? hidden : window);
}

/* An exchange of q seconds per model chunk, on one stream, each chunk's
 * part able to start only once its last micro-batch's pass through the
 * chunk has begun, on the stage whose pass ends last (the first stage's
 * backward, the weights' all-gather mirrored in the forward).  In
 * interleaved 1F1B the last p micro-batches' passes go through the
 * chunks one after another, p units of u seconds each (one micro-batch
 * through one chunk), so chunk k's part may start k p units before the
 * end (k m with fewer micro-batches than stages) and chunk 0's during
 * its own last unit; the bucket of the last layer through is ready only
 * when the pass ends (Megatron-Core: "exposes only one DP communication
 * chunk", the chunk a layer's).  Returns the seconds past the end. */
static double exposed_chunked(double q, const struct eng_tlayout *l, double u, double layers_chunk)
{
	double lead = (double)(l->p < l->m ? l->p : l->m) * u;
	double t = -INFINITY;
	for (int k = l->v - 1; k >= 1; k--) {
		double start = -lead * k;
		t = (t > start ? t : start) + q;
	}
	t = (t > -u ? t : -u) + q;
	double last = q / (layers_chunk > 1 ? layers_chunk : 1);
	if (t < last)
		t = last;
	return t > 0 ? t : 0;
}

/* Megatron-Core's overlapped exchange at ZeRO 0 to 2: grad sync is
 * enabled for a model chunk only at its last micro-batch's backward
 * (megatron/core/pipeline_parallel/schedules.py,
 * is_last_microbatch_for_model_chunk), the distributed optimizer's
 * weight all-gather runs in the next step's forward (DDP config
 * overlap_param_gather: "overlap param all-gather with forward
 * compute").  Without the distributed optimizer (ZeRO 0) the whole
 * all-reduce is the backward's. */
static double exposed_last_microbatch(const struct eng_tctx *x, const struct eng_tlayout *l, double dp,
				      double work)
{
	double units = (double)l->m * l->v;
	double layers_chunk = (double)x->m->layers / ((double)l->p * l->v);
	double bwd = work * 2.0 / 3.0 / units, fwd = work / 3.0 / units;
	if (l->zero == 0)
		return exposed_chunked(dp / l->v, l, bwd, layers_chunk);
	return exposed_chunked(dp / 2.0 / l->v, l, bwd, layers_chunk) +
	       exposed_chunked(dp / 2.0 / l->v, l, fwd, layers_chunk);
}

double eng_train_dp_exposed_floor(const struct eng_tctx *x, double dp, double work)
{
	if (x->dp_mode == DPO_NONE)
		return dp;
	double behind = exposed_behind_backward(x, dp, work);
	if (x->dp_mode != DPO_LAST_MICROBATCH)
		return behind;
	/* each half at most behind its whole pass (ZeRO 1 and 2, whose
	 * exchange is no smaller; ZeRO 0's all-reduce behind the backward
	 * alone exposes more); ZeRO 3 runs behind the backward as above */
	double rs = dp / 2.0 - work * 2.0 / 3.0, ag = dp / 2.0 - work / 3.0;
	double last = (rs > 0 ? rs : 0) + (ag > 0 ? ag : 0);
	return last < behind ? last : behind;
}

/* The host's share of the MoE layers' passes.  A token-dropless
 * dispatcher synchronises the host with the GPU every MoE layer forward:
 * it needs on the host the tokens it sends to and takes from each
 * expert-parallel rank before it can launch the all-to-all
 * (Megatron-Core's MoEAlltoAllTokenDispatcher, cuda_sync_point
 * "before_ep_alltoall": NVIDIA/Megatron-LM
 * megatron/core/transformer/moe/token_dispatcher.py @bed33f89).  The host
 * then never queues more than one layer ahead, so the MoE layers take
 * the longer of their GPU time and the host's time to issue them (the
 * stack's moe_host_layer_ms a layer pass); returns what the host adds.
 * Layers are taken alike: the MoE layers' share of the layers' work
 * against their passes' host time. */
double eng_train_host_exposed(const struct eng_tctx *x, const struct eng_tlayout *l)
{
	if (!(x->moe_host > 0))
		return 0;
	double host = layer_passes(x, l) * x->moe_share * x->moe_host;
	double gpu = (l->compute + l->elem + l->tp_comm + l->cp_comm) * x->moe_share + l->ep_comm;
	return host > gpu ? host - gpu : 0;
}

void eng_train_step_finish_dp(const struct eng_tctx *x, struct eng_tlayout *l, double dp_comm)
{
	double work = l->compute + l->elem;
	l->dp_comm = dp_comm;
	/* ZeRO 3 gathers the weights for every pass, behind the passes it
	 * feeds; ZeRO 2's shared gradients are counted once a step
	 * (eng_train_dp_comm()), so they run when ZeRO 1's do */
	if (x->dp_mode == DPO_NONE)
		l->dp_exposed = dp_comm;
	else if (x->dp_mode == DPO_LAST_MICROBATCH && l->zero <= 2 && dp_comm > 0)
		l->dp_exposed = exposed_last_microbatch(x, l, dp_comm, work);
	else
		l->dp_exposed = exposed_behind_backward(x, dp_comm, work);
	l->step = work + l->bubble + l->tp_comm + l->cp_comm + l->ep_comm + l->pp_comm + l->dp_exposed +
		  eng_train_host_exposed(x, l);
}
