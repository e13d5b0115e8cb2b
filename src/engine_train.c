/*
 * engine_train: sizing one accelerator for pretraining or fine-tuning.
 *
 * Three steps, each its own function: size (how many GPUs and which
 * layout), bind (the result's figures from the layout) and explain (the
 * binding resource and the reason line).
 *
 * The layout search is engine_train_search.c, the memory and step time of
 * one layout engine_train_step.c; engine_train.h is what the three share.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_train.h"

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
 * FlashAttention's backward pass does too), the same and the fused
 * attention's softmax statistics without recompute
 * (eng_act_none_extra_tok(): no s x s scores), only the layer's 2 h-byte
 * input with full recompute; a frozen base keeps less (eng_act_kept_h()). */
static void activation_bytes(struct eng_tctx *x)
{
	double h = x->m->hidden;
	double kept = eng_act_kept_h(&x->c->defaults, x->w);
	x->act_tok[RECOMPUTE_NONE] = h * kept + eng_act_none_extra_tok(x->m);
	x->act_tok[RECOMPUTE_SELECTIVE] = h * kept;
	x->act_tok[RECOMPUTE_FULL] = h * 2.0;
	x->act_tok[RECOMPUTE_AUTO] = x->act_tok[RECOMPUTE_SELECTIVE];
	x->act_work_tok = h * kept;
	/* Megatron's vocabulary-parallel cross entropy keeps the logits in
	 * fp32 on the last stage. */
	x->logits_tok = 4.0 * (x->m->vocab > 0 ? x->m->vocab : 0);
}

/* A MoE layer keeps for its backward pass, per token at 16 bit, what
 * Korthikanti's dense MLP (19 h of the 34 h: the FC1 input, its 4h-wide
 * output and the activation's, the dropout mask) does not: the router's
 * input (2 h) and fp32 logits (4 E), the k permuted copies of the token
 * (2 k h), each copy's FC1 output (gate and up, 2 x 2 f, or 2 f plain)
 * and activation output (2 f), the experts' outputs the weighted
 * unpermute needs (2 k h), and the shared experts' FC1 and activation
 * outputs (the same per expert; their input is the router's).  Replaced in the layers that have
 * experts (moe_share of them), for every recompute that stores the MLP:
 * full recompute keeps only the layer input, and its one-layer working
 * set grows the same way. */
static void moe_activation_bytes(struct eng_tctx *x, double k)
{
	const struct catalog_model *m = x->m;
	double h = m->hidden, f = m->ffn;
	double fc1 = 2.0 * f * (m->ffn_matrices == 2 ? 1 : 2);	/* FC1 output */
	/* A frozen base whose adapters leave the MLP unwrapped keeps no GEMM
	 * input for a weight gradient (eng_act_kept_h(): 10 h fewer of the
	 * dense MLP's 19 h): here the router's input, the permuted copies and
	 * each activation output. */
	bool no_inputs = eng_act_kept_h(&x->c->defaults, x->w) < 34.0;
	double in = no_inputs ? 0.0 : 2.0;
	double dense_mlp = no_inputs ? 9.0 * h : 19.0 * h;
	double moe = in * h + 4.0 * m->experts + (in + 2.0) * k * h + (fc1 + in * f) * (k + m->experts_shared);
	double more = x->moe_share * (moe - dense_mlp);
	for (int r = 0; r < RECOMPUTE_COUNT; r++)
		if (r != RECOMPUTE_FULL)
			x->act_tok[r] += more;
	x->act_work_tok += more;
}

/* Mixture of experts: each token visits k of the E routed experts, whose
 * grouped GEMMs work on the share of the micro-batch routed to them and
 * reach defaults.training_moe_efficiency of the dense GEMMs'
 * efficiency: their FLOPs count 1/that times.  Around the experts the
 * tokens are permuted into expert order and back, forward and backward:
 * each pass reads and writes k copies of the token's h activations at 16
 * bit, 16 k h bytes a token a MoE layer of elementwise traffic. */
static void moe_terms(struct eng_tctx *x)
{
	const struct catalog_model *m = x->m;
	x->moe_share = 0;
	if (!(x->expert_params > 0) || m->layers <= 0)
		return;
	int dense = m->dense_layers > 0 && m->dense_layers < m->layers ? m->dense_layers : 0;
	x->moe_share = (double)(m->layers - dense) / m->layers;
	double k = m->experts_active;
	double pa_exp = x->expert_params * k / m->experts;
	double f = x->c->defaults.training_moe_efficiency.value;
	if (f > 0 && f < 1) {
		double passes = x->frozen ? 4.0 : 6.0;	/* as eng_train_flops_token() */
		for (int r = 0; r < RECOMPUTE_COUNT; r++) {
			double exp_flops = pa_exp * (passes + (r == RECOMPUTE_FULL ? 2.0 : 0.0));
			x->hw_tok[r] += exp_flops * (1.0 / f - 1.0);
		}
	}
	x->elem_bytes_tok += 16.0 * k * m->hidden * (m->layers - dense);
	moe_activation_bytes(x, k);
}

const struct catalog_training_stack *engine_training_stack(const struct catalog *c, const struct workload *w,
							   const struct catalog_accel *a)
{
	if (w->training_stack < 0)
		return catalog_train_stack_default(c, a->stack);
	const struct catalog_training_stack *s =
		catalog_training_stack(c, training_stack_name((enum training_stack)w->training_stack));
	return catalog_train_stack_on(s, a->stack, NULL) ? s : NULL;
}

/* The share of the peak the training math reaches: the stack's own figure
 * for a's family at that precision, else a's (docs/accuracy.md, "A
 * training share per stack"). */
static const struct sourced *training_share(const struct catalog *c, const struct catalog_accel *a,
					    const struct catalog_training_stack *stack,
					    const struct eng_precision *pr)
{
	/* NVFP4 (eng_precision_resolve_train() keeps FP4 only with its own
	 * figure) and FP8 reach a different share of their peak than BF16:
	 * their own figure when the catalog has one. */
	bool low = pr->compute == PREC_FP8 || pr->compute == PREC_INT8;
	enum train_prec tp = pr->compute == PREC_FP4 ? TPREC_FP4 : low ? TPREC_FP8 : TPREC_16;
	const struct sourced *own = catalog_train_stack_share(stack, a->architecture, tp);
	if (own)
		return own;
	if (tp == TPREC_FP4)
		return &a->eff_training_fp4;
	if (low && a->eff_training_fp8.value > 0)
		return &a->eff_training_fp8;
	return a->eff_training.value > 0 ? &a->eff_training : &c->defaults.training_mfu;
}

const struct sourced *engine_training_share(const struct catalog *c, const struct workload *w,
					    const struct catalog_accel *a)
{
	struct eng_precision pr;
	eng_precision_resolve_train(w, a, &pr);
	return training_share(c, a, engine_training_stack(c, w, a), &pr);
}

static bool tctx_init(const struct catalog *c, const struct workload *w,
		      const struct catalog_accel *a, const struct catalog_training_stack *stack,
		      struct eng_tcache *tc, struct eng_tctx *x)
{
	const struct catalog_defaults *d = &c->defaults;
	memset(x, 0, sizeof *x);
	x->cache = tc;
	x->c = c;
	x->w = w;
	x->a = a;
	x->m = w->model;
	eng_precision_resolve_train(w, a, &x->pr);
	x->usable = eng_usable_bytes(a);
	x->peak = x->pr.peak_flops;
	/* The clock a board sustains under its power limit, as in serving
	 * (engine_power.c): a part with less board power per unit of peak than
	 * its die's best reaches less of its datasheet peak in the GEMMs. */
	x->eff = training_share(c, a, stack, &x->pr)->value * eng_power_clock(c, a);
	x->bw = a->mem_bw_tb_s * 1e12 * a->eff_mem_bw.value;
	x->lat = d->collective_latency_us.value * 1e-6;
	x->overlap = d->training_overlap.value;
	x->dp_mode = w->dp_overlap >= 0 ? (enum dp_overlap)w->dp_overlap : stack ? stack->dp_overlap : DPO_BACKWARD;
	/* only a model with routed experts has the dispatcher's sync */
	x->moe_host = stack && x->m->experts > 1 ? stack->moe_host_layer_ms.value * 1e-3 : 0;
	/* the workload's own figures: the run's cache has them after its
	 * first accelerator */
	struct eng_twork *wk = tc ? &tc->work : NULL;
	if (wk && wk->set) {
		x->model_tok = wk->model_tok;
		memcpy(x->hw_tok, wk->hw_tok, sizeof x->hw_tok);
	} else {
		for (int r = 0; r < RECOMPUTE_COUNT; r++)
			eng_train_flops_token(w, (enum recompute)r, &x->model_tok, &x->hw_tok[r]);
	}
	x->tokens = eng_train_tokens(w);
	x->eval_flops = w->eval_tokens > 0 ? w->eval_tokens * eng_eval_flops_token(w) : 0;
	x->s = (double)w->seq_len;
	x->gbt = w->global_batch_tokens;
	x->seqs = floor(x->gbt / x->s);
	if (x->seqs < 1)
		x->seqs = 1;
	x->attn_tok = eng_attn_train_flops_token(x->m, x->s) / (x->m->layers > 0 ? x->m->layers : 1);
	x->frozen = w->cls == WL_FINETUNE && w->method != FT_FULL;
	activation_bytes(x);
	x->kv_dim = (double)(x->m->mla_kv_lora_rank > 0 ? x->m->heads : x->m->kv_heads) *
		    eng_head_dim(x->m);
	x->elem_bytes_tok = d->training_elementwise_bytes.value * x->m->hidden * x->m->layers;
	x->base_bytes = x->frozen ? eng_base_bytes_per_param(c, w) : x->pr.weight_bytes;
	if (x->frozen && w->method == FT_LORA)
		x->base_bytes = x->pr.weight_bytes;	/* after any precision fallback */
	x->adapters = x->frozen ? eng_adapter_params(x->m, d, w->lora_rank) : 0;
	x->plat = eng_platform_biggest(c, w, a, &x->node);
	int max_tp = d->max_tp.value >= 1 ? (int)d->max_tp.value : 8;
	x->max_tp = max_tp;
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
	/* only the powers of two the search can ask for: groups within a
	 * node, TP up to its reach or as forced */
	int need = x->node > x->tmax ? x->node : x->tmax;
	if (w->tp > need)
		need = (int)w->tp;
	x->link_pow2_hi = 0;
	for (int k = 0; k < 8 && 1 << k <= need; k++) {
		x->link_pow2[k] = eng_link_bw(c, a, x->plat, 1 << k);
		x->link_pow2_hi = 1 << k;
	}
	if (wk && wk->set) {
		memcpy(x->imb, wk->imb, sizeof x->imb);
		x->cp_max = wk->cp_max;
	} else {
		for (int p = 1; p <= PP_MAX; p++)
			x->imb[p] = eng_train_stage_imbalance(x->m, p);
		eng_train_search_prepare(x);
	}
	if (wk && !wk->set) {
		wk->model_tok = x->model_tok;
		memcpy(wk->hw_tok, x->hw_tok, sizeof wk->hw_tok);
		memcpy(wk->imb, x->imb, sizeof wk->imb);
		wk->cp_max = x->cp_max;
		wk->set = true;
	}
	params_split(x->m, &x->shared_params, &x->expert_params);
	double mtp_active, mtp_shared, mtp_experts;	/* the MTP modules' weights, held with the model's */
	eng_mtp_params(w, &mtp_active, &mtp_shared, &mtp_experts);
	x->shared_params += mtp_shared;
	x->expert_params += mtp_experts;
	moe_terms(x);
	x->zero_monotone = x->frozen || d->adam_bytes_per_param.value >= 4.0;
	if (w->recompute == RECOMPUTE_AUTO) {
		/* The search runs selective, else full; none (selective's
		 * memory and the softmax statistics, without the attention
		 * core's second forward pass) only when asked for. */
		x->rec_lo = RECOMPUTE_SELECTIVE;
		x->rec_hi = RECOMPUTE_FULL;
	} else {
		x->rec_lo = x->rec_hi = (int)w->recompute;
	}
	return x->node > 0 && x->plat && x->peak > 0 && x->eff > 0 && x->bw > 0;
}

bool eng_train_context(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
		       struct eng_tcache *tc, struct eng_tctx *x)
{
	const struct catalog_training_stack *stack = engine_training_stack(c, w, a);
	if (w->training_stack >= 0 && !stack)
		return false;
	return tctx_init(c, w, a, stack, tc, x);
}

/* The largest GPU count the global batch allows a layout for. */
static int lo_fail_gpus(const struct eng_tctx *x)
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
static double goodput_for(const struct eng_tctx *x, int G, const struct eng_tlayout *l, double *per_day)
{
	const struct catalog_defaults *d = &x->c->defaults;
	double rate = d->interruptions_per_1k_gpus.value / 1000.0;
	*per_day = rate * G;
	if (!(rate > 0))
		return 1.0;
	double mtbi = 86400.0 / (rate * G);
	/* Each GPU writes its share of the model state; the nodes write in
	 * parallel at defaults.checkpoint_gb_s per node. */
	double state = eng_train_state(x, l);
	int per_node = x->node < G ? x->node : G;
	double wbw = d->checkpoint_gb_s.value * ENG_GB;
	double delta = wbw > 0 ? state * per_node / wbw : 0;
	double restart = d->restart_minutes.value * 60.0;
	double tau = sqrt(2.0 * delta * mtbi);
	double lost = (delta > 0 ? delta / tau + tau / 2.0 / mtbi : 0) + restart / mtbi;
	double g = 1.0 - lost;
	return g > 0.05 ? g : 0.05;
}

/* Wall-clock hours of the run at layout l's step and goodput g.  The
 * evaluations a benchmark interleaves (MLPerf's time to train counts
 * them) are forward passes on the same layout: their FLOPs at the rate
 * the step reaches on its hardware FLOPs (recompute included, which an
 * evaluation does not repeat). */
static double hours_at(const struct eng_tctx *x, const struct eng_tlayout *l, double g)
{
	double steps = x->tokens / x->gbt;
	double eval = x->eval_flops > 0 ? x->eval_flops / (x->hw_tok[l->rec] * x->gbt) * l->step : 0;
	return (steps * l->step + eval) / 3600.0 / g;
}

static double hours_for(const struct eng_tctx *x, int G, const struct eng_tlayout *l)
{
	double per_day;
	return hours_at(x, l, goodput_for(x, G, l, &per_day));
}

/* ---- size: the GPU count and the layout ---- */

/* What the search found: the GPU count, its best layout, and why it
 * stopped. */
struct tsize {
	struct eng_tlayout best;
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
/* Whether no layout can fit G GPUs by eng_train_mem_floor() alone, asked
 * only where the search would have found layouts to size (no forced
 * degree, every data-parallel rank a sequence: TP1 PP1 CP1 is a shape), so
 * that skipping it changes nothing but the work: such a count is passed
 * over as one that does not fit. */
static bool surely_unfit(const struct eng_tctx *x, int G)
{
	const struct workload *w = x->w;
	if (G <= 1 || G > x->seqs || w->tp > 0 || w->pp > 0 || w->cp > 0 || w->ep > 0 || w->micro_batch > 0)
		return false;
	return eng_train_mem_floor(x, G) * (1.0 - 1e-9) > x->usable;
}

/* Whether multiple k of the node step, if it fits, is the fewest that
 * does (unless a target time asks for more): the multiple below it is lo,
 * or cannot fit by the floor alone (which only rises with fewer GPUs). */
static bool answer_if_fits(const struct eng_tctx *x, int lo, int k)
{
	return !(x->w->target_hours > 0) && (k - lo <= 1 || surely_unfit(x, (k - 1) * x->step));
}

static int fewest_fitting(struct eng_tmemo *memo, const struct eng_tctx *x, int cap, struct tsize *z)
{
	int lo = 0, hi = 1;
	for (;;) {
		if (hi < cap && surely_unfit(x, hi * x->step)) {
			lo = hi;
			hi = hi * 2 > cap ? cap : hi * 2;
			continue;
		}
		/* A count that is the answer if it fits has its fastest layout
		 * searched for at once; a count that does not fit costs the
		 * same either way (every group's leanest shape is sized). */
		bool last = answer_if_fits(x, lo, hi);
		if (eng_train_search_memo(memo, x, hi * x->step, last, &z->best, &z->min_mem))
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
		struct eng_tlayout tmp;
		double mm;
		if (!surely_unfit(x, mid * x->step) &&
		    eng_train_search_memo(memo, x, mid * x->step, answer_if_fits(x, lo, mid), &tmp, &mm))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

static bool meets(struct eng_tmemo *memo, const struct eng_tctx *x, int k)
{
	struct eng_tlayout tmp;
	double mm;
	return eng_train_search_memo(memo, x, k * x->step, true, &tmp, &mm) &&
	       hours_for(x, k * x->step, &tmp) <= x->w->target_hours;
}

/* Smallest node multiple from hi on meeting the target time: the time
 * falls roughly as 1/G, so double, then bisect.  k_ok is the largest count
 * known to fit at all, the answer when the target is out of reach. */
static int meet_target(struct eng_tmemo *memo, const struct eng_tctx *x, int hi, int cap, bool *missed)
{
	int k_lo = hi - 1, k_hi = hi, k_ok = hi;
	bool met = meets(memo, x, k_hi);
	while (!met && k_hi < cap) {
		int next = k_hi * 2 > cap ? cap : k_hi * 2;
		struct eng_tlayout tmp;
		double mm;
		if (!eng_train_search_memo(memo, x, next * x->step, true, &tmp, &mm))
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
static void size_train(const struct eng_tctx *x, struct tsize *z)
{
	const struct workload *w = x->w;
	struct eng_tmemo memo;
	eng_tmemo_init(&memo);
	memset(z, 0, sizeof *z);
	z->fixed = w->accel == x->a && w->gpus > 0;
	z->one_node = !(x->nic_bw > 0);
	if (z->fixed && z->one_node && w->gpus > x->node) {
		z->G = w->gpus;
		return;		/* explain_unfit() says why */
	}
	if (z->fixed) {
		z->G = w->gpus;
		z->fits = eng_train_search_memo(&memo, x, z->G, true, &z->best, &z->min_mem);
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
		eng_train_search_memo(&memo, x, z->G, true, &z->best, &z->min_mem);
}

/* ---- bind: the result's figures from the layout ---- */

static void fill_train(const struct eng_tctx *x, const struct tsize *z, struct engine_result *r)
{
	const struct eng_tlayout *b = &z->best;
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
	double expert_mem = eng_train_expert_mem(x, b);	/* carried in ep_comm */
	r->t_memory_s = b->elem + expert_mem;	/* memory-bound work */
	double comm = b->tp_comm + b->cp_comm + (b->ep_comm - expert_mem) + b->pp_comm;
	r->t_comm_s = comm + b->dp_exposed;
	r->t_bubble_s = b->bubble;
	r->mfu = x->model_tok * x->gbt / (b->step * G * x->peak);
	r->scaling_efficiency = (b->compute + r->t_memory_s) / b->step;
	r->goodput = goodput_for(x, G, b, &r->interruptions_per_day);
	r->train_hours = hours_at(x, b, r->goodput);
	r->gpu_hours = r->train_hours * G;
	r->tokens_per_s_per_gpu = x->gbt / b->step / G;
	r->samples_per_s = x->seqs / b->step;
	r->bw_util_pct = 100.0 * r->t_memory_s / b->step;
	r->link_util_pct = 100.0 * (comm + b->dp_comm) / b->step;
	r->link_gb_s_used = eng_link_bw(x->c, x->a, x->plat, b->t > 1 ? b->t : 2) / 1e9;
	r->nic_gb_s_per_gpu = x->nic_bw / 1e9;
}

/* Bind: what keeps a fitting run from being smaller or faster, in the
 * order the precision the hardware lacks, the interconnect (scaling below
 * the catalog's threshold), the target time, memory (more than one node
 * to hold the model), bandwidth (elementwise traffic over a quarter of the
 * step), else compute. */
static enum resource bind_train(const struct eng_tctx *x, const struct tsize *z, const struct engine_result *r)
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
static void explain_unfit(const struct eng_tctx *x, const struct tsize *z, struct engine_result *r)
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
static void explain_train(const struct eng_tctx *x, const struct tsize *z, struct engine_result *r)
{
	const struct catalog_accel *a = x->a;
	int G = z->G;
	switch (r->binding) {
	case RES_PRECISION:
		eng_reason(r, "no %s%s on %s: trains at %s (%ld TFLOPS), %F h on %d GPU%s",
			   precision_name(x->pr.requested),
			   x->pr.requested == PREC_FP4 && a->peak_tflops[PREC_FP4] > 0
				   ? " training share (efficiency.training_fp4)" : "",
			   a->name, precision_name(x->pr.used),
			   eng_l(x->peak / 1e12), r->train_hours, G, eng_s(G));
		return;
	case RES_INTERCONNECT: {
		double host = eng_train_host_exposed(x, &z->best);
		if (host > 0.5 * (z->best.step - r->t_compute_s - r->t_memory_s)) {
			eng_reason(r, "%ld%% scaling efficiency on %d GPU%s: the host issuing the MoE layers "
				   "(the dispatcher syncs it every layer) adds %ld%% to each step",
				   eng_l(100.0 * r->scaling_efficiency), G, eng_s(G), eng_l(100.0 * host / z->best.step));
			return;
		}
		eng_reason(r, "%ld%% scaling efficiency on %d GPU%s: communication and pipeline bubble take %ld%% of each step",
			   eng_l(100.0 * r->scaling_efficiency), G, eng_s(G),
			   eng_l(100.0 * (1.0 - r->scaling_efficiency)));
		return;
	}
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
		eng_reason(r, "%G h needs %d GPUs at %ld%% MFU (%ld TFLOPS %s each)", x->w->target_hours, G,
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
	       const struct catalog_accel *a, struct eng_tcache *tc, struct engine_result *r)
{
	struct eng_tctx x;
	r->precision_used = w->precision;
	r->training_stack = engine_training_stack(c, w, a);
	if (w->training_stack >= 0 && !r->training_stack) {
		/* eng_filters() names the stack and the platform */
		const char *id = training_stack_name((enum training_stack)w->training_stack);
		const struct catalog_training_stack *s = catalog_training_stack(c, id);
		r->fits = false;
		r->binding = RES_NONE;
		eng_reason(r, "%s does not run on %s accelerators%s", s ? s->name : id, stack_name(a->stack),
			   s ? "" : " (it is not in the catalog's training-stacks/)");
		return;
	}
	if (!tctx_init(c, w, a, r->training_stack, tc, &x)) {
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
			eng_reason(r, "%G h is out of reach on one node: %F h at best on %d GPU%s, and %s has no scale-out NICs (nics.count 0) to span more",
				   w->target_hours, r->train_hours, z.G, eng_s(z.G), x.plat->id);
		else
			eng_reason(r, "%G h is out of reach: %F h at best on %d GPU%s", w->target_hours,
				   r->train_hours, z.G, eng_s(z.G));
		return;
	}
	r->fits = true;
	r->binding = bind_train(&x, &z, r);
	explain_train(&x, &z, r);
}
