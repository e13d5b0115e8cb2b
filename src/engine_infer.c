/*
 * engine_infer: sizing one accelerator for serving.
 *
 * A replica is a tensor-parallel group of t GPUs (inside one link domain, or
 * across the PCIe cards of one server), extended by pipeline stages across
 * nodes only when the largest group cannot hold the weights.  For a layout:
 *
 *   memory per GPU = weights/(t x pp) + runtime reserve + serving workspace
 *                    + B x KV(one sequence at full context)/pp
 *   decode step    = max(memory term, compute term) + communication
 *     memory term  = (weights read/t + B x KV(mean context)/pp) / (bw x eff)
 *     compute term = B x (2 x P_a + attention) / (t x pp x peak x eff)
 *     comm         = 2 all-reduces per layer of B x d 16-bit values (ring)
 *   prefill        = I x (2 x P_a + attention) / (t x peak x eff x prefill)
 *                    + its all-reduces                   (= TTFT, no queue)
 *
 * Throughput of a replica follows the cohort model of continuous batching:
 * a batch of B requests costs one prefill of B x I tokens plus O decode
 * steps at batch B, and yields B x O output tokens (MLPerf Offline counts
 * output tokens the same way).  Replicas then follow from the concurrency,
 * the per-user speed, the TTFT and the throughput targets.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

#define MAX_LAYOUTS 16

struct ictx {
	const struct catalog *c;
	const struct workload *w;
	const struct catalog_accel *a;
	const struct catalog_model *m;
	struct eng_precision pr;
	double usable;			/* bytes per GPU */
	double bw;			/* achieved memory bandwidth, bytes/s */
	double flops;			/* achieved decode FLOP/s per GPU */
	double pflops;			/* achieved prefill FLOP/s per GPU */
	double lat;			/* one collective call, s */
	double workspace, reserve1, reserve_n;
	double I, O, ctx_full, ctx_mean, pa;
	int node_max, tmax;
	double nic_bw;			/* per GPU, bytes/s, between nodes; set only
				 * when a replica must span nodes */
	const struct catalog_platform *plat;	/* the biggest node */
	double link_bw2;		/* eng_link_bw() for a pair, once */
	/* Per-workload constants, computed once (decode_step runs often). */
	double attn_mean;		/* attention FLOPs of a token at mean context */
	double attn_pre;		/* ... of a prompt token (causal: I/2 back) */
	double moe_shared, moe_experts, moe_log;	/* see params_read() */
	int fixed_gpus;			/* 0 = the engine sizes */
	long n_users;			/* 0 = as many as memory holds */
};

struct ilayout {
	int t, pp, g;
	double w_gpu, fixed_gpu;	/* weights and reserve+workspace, bytes */
	double kv_full_gpu;		/* one sequence at full context, per GPU */
	double kv_res_gpu;		/* KV held per sequence for sizing the batch */
	double kv_mean_gpu;		/* ... at mean context */
	double link_bw, pp_bw;
	long bmem;			/* sequences the KV room holds */
	bool fits_one;			/* room for one full-context sequence */
	long btps;			/* largest batch meeting the per-user speed */
	double ttft_s;
	bool ttft_ok;
	/* communication, linear in the batch b: decode c0 + k_x b per step,
	 * prefill ca + cb y for y prompt tokens */
	double c0, k_x, ca, cb;
};

struct istep {
	double mem, comp, comm, total;
};

/* eng_params_read() with its logarithm taken once: shared + experts x
 * (1 - (1 - k/E)^b); a dense model reads P_a whatever the batch. */
static double params_read(const struct ictx *x, double b)
{
	if (x->moe_log == 0)
		return x->pa;
	double e = eng_fmax(b, 1.0) * x->moe_log;
	if (e < -40)		/* every expert touched, to 1e-17 */
		return x->moe_shared + x->moe_experts;
	return x->moe_shared + x->moe_experts * -expm1(e);
}

/* Both all-reduces of every layer for `tokens` tokens per call, plus the
 * pipeline hand-offs, seconds. */
static double comm_s(const struct ictx *x, const struct ilayout *l, double tokens, int stages_in_series)
{
	const struct catalog_model *m = x->m;
	double msg = tokens * m->hidden * 2.0;	/* 16-bit activations */
	double s = 2.0 * m->layers * eng_ring_allreduce_s(msg, l->t, l->link_bw, x->lat);
	if (l->pp > 1)
		s += stages_in_series * (msg / l->pp_bw + x->lat);
	return s;
}

/* One decode step for a batch of b: an operator-by-operator roofline
 * (as GenZ and LLM-Viewer do).  The weight GEMMs are bound by the larger
 * of reading the weights and computing; the attention kernel that follows
 * reads every sequence's KV cache and is memory-bound in decode; then the
 * all-reduces.  Kernels run one after another, so the parts add up. */
static void decode_step(const struct ictx *x, const struct ilayout *l, double b, struct istep *s)
{
	double wbytes = params_read(x, b / l->pp) * x->pr.weight_bytes / l->t;
	double kvbytes = b * l->kv_mean_gpu;
	double gemm_fl = b * 2.0 * x->pa / l->g;
	double attn_fl = b * x->attn_mean / l->g;
	s->mem = (wbytes + kvbytes) / x->bw;
	s->comp = (gemm_fl + attn_fl) / x->flops;
	/* Each stage runs pp micro-batches of b/pp per step. */
	s->comm = comm_s(x, l, b / l->pp, l->pp);
	s->total = eng_fmax(wbytes / x->bw, gemm_fl / x->flops) + eng_fmax(kvbytes / x->bw, attn_fl / x->flops) +
		   s->comm;
}

/* Prefill of `tokens` prompt tokens of prompts of length I: one request
 * (stages in series) or a whole batch (stages pipelined). */
static double prefill_s(const struct ictx *x, const struct ilayout *l, double tokens, bool batch)
{
	if (!(tokens > 0))
		return 0;
	double fl = tokens * (2.0 * x->pa + x->attn_pre);
	double comp = fl / ((batch ? l->g : l->t) * x->pflops);
	double mem = params_read(x, tokens) * x->pr.weight_bytes / l->t / x->bw;
	double comm = batch ? comm_s(x, l, tokens / l->pp, 1) : comm_s(x, l, tokens, l->pp - 1);
	return eng_fmax(comp, mem) + comm;
}

/* Output tokens/s of one replica running cohorts of b requests. */
static double replica_tput(const struct ictx *x, const struct ilayout *l, double b)
{
	struct istep s;
	decode_step(x, l, b, &s);
	double t = prefill_s(x, l, b * x->I, true) + x->O * s.total;
	return t > 0 ? b * x->O / t : 0;
}

/* What one user sees in steady state: while its O tokens are decoded the
 * replica also prefills the prompts of the b - 1 others (continuous
 * batching interleaves them), so the decode speed per user is
 * O / (O x step(b) + prefill((b - 1) x I)).  Alone, it is 1 / step. */
static double user_tps(const struct ictx *x, const struct ilayout *l, double b)
{
	struct istep s;
	decode_step(x, l, b, &s);
	double t = x->O * s.total + prefill_s(x, l, (b - 1) * x->I, true);
	return t > 0 ? x->O / t : 0;
}

/* Largest batch whose users each get tps tokens/s.  For a dense model both
 * the step and the prefill are maxima of linear terms in b, so the answer
 * is the smallest of four linear bounds; the exact check then confirms it,
 * and bisection finds it for MoE models (whose weight reads grow with b). */
/* The four linear bounds on b, with the weights read per decode step and
 * per prefill fixed at W and Wp (bytes/s already applied). */
static double speed_bound(const struct ictx *x, const struct ilayout *l, double tps, double W, double Wp)
{
	double T = x->O / tps, O = x->O, I = x->I;
	/* decode step: max(W, k_c b) + (k_a + k_x) b + c0 */
	double k_c = 2.0 * x->pa / l->g / x->flops;
	double k_a = eng_fmax(l->kv_mean_gpu / x->bw, x->attn_mean / l->g / x->flops);
	double k_x = l->k_x, c0 = l->c0;
	/* prefill of y prompt tokens: max(k_f y, Wp) + ca + cb y */
	double k_f = (2.0 * x->pa + x->attn_pre) / (l->g * x->pflops);
	double cb = l->cb, ca = l->ca;
	double best = INFINITY;
	for (int dec = 0; dec < 2; dec++)
		for (int pre = 0; pre < 2; pre++) {
			double cst = O * c0 + ca - cb * I, slope = O * (k_a + k_x) + cb * I;
			if (dec == 0)
				cst += O * W;
			else
				slope += O * k_c;
			if (pre == 0) {
				cst += Wp;
			} else {
				cst -= k_f * I;
				slope += k_f * I;
			}
			double b = slope > 0 ? (T - cst) / slope : INFINITY;
			if (b < best)
				best = b;
		}
	return !(best >= 1) ? 1 : best > 1e9 ? 1e9 : floor(best);
}

/* Largest batch whose users each get tps tokens/s.  For a dense model the
 * step and the prefill are maxima of linear terms in b, so the answer is
 * the smallest of four linear bounds.  An MoE model reads more experts as
 * b grows: the bound with the weights of one token is too high, the bound
 * with the weights at that batch is safe, and bisection settles between. */
static long batch_for_speed(const struct ictx *x, const struct ilayout *l, double tps)
{
	if (user_tps(x, l, 1) < tps)
		return 0;
	double wb = x->pr.weight_bytes / l->t / x->bw;
	long hi = (long)speed_bound(x, l, tps, params_read(x, 1.0 / l->pp) * wb, params_read(x, x->I) * wb);
	if (user_tps(x, l, (double)hi) >= tps)
		return hi;
	/* Alternating bounds narrow the bracket: the weights at an upper
	 * bound give a lower one and back. */
	long lo = 1;
	for (int it = 0; it < 4 && hi - lo > 1; it++) {
		long l2 = (long)speed_bound(x, l, tps, params_read(x, (double)hi / l->pp) * wb,
					    params_read(x, (double)hi * x->I) * wb);
		if (l2 > lo && l2 < hi && user_tps(x, l, (double)l2) >= tps)
			lo = l2;
		long h2 = (long)speed_bound(x, l, tps, params_read(x, (double)lo / l->pp) * wb,
					    params_read(x, (double)lo * x->I) * wb) + 1;
		if (h2 < hi && h2 > lo && user_tps(x, l, (double)h2) < tps)
			hi = h2;
	}
	while (hi - lo > 1) {	/* lo meets the speed, hi does not */
		long mid = lo + (hi - lo) / 2;
		if (user_tps(x, l, (double)mid) >= tps)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void layout_init(const struct ictx *x, int t, int pp, struct ilayout *l)
{
	/* every field is set below (no memset: this runs for each layout) */
	l->t = t;
	l->pp = pp;
	l->g = t * pp;
	l->w_gpu = x->m->params * x->pr.weight_bytes / l->g;
	l->fixed_gpu = (l->g > 1 ? x->reserve_n : x->reserve1) + x->workspace;
	l->kv_full_gpu = eng_kv_seq_bytes_gpu(x->m, x->pr.kv_bytes, t, x->ctx_full) / pp;
	l->kv_mean_gpu = eng_kv_seq_bytes_gpu(x->m, x->pr.kv_bytes, t, x->ctx_mean) / pp;
	l->link_bw = eng_link_bw(x->c, x->a, x->plat, t);
	l->pp_bw = l->g <= x->node_max ? eng_fmax(l->link_bw, x->link_bw2) : x->nic_bw;
	double room = x->usable - l->w_gpu - l->fixed_gpu;
	/* A fixed number of users may all reach the full context at once, so
	 * each gets I + O tokens of KV.  At maximum concurrency continuous
	 * batching keeps sequences at every stage of their output: on average
	 * each holds I + O/2 tokens (paged KV frees a finished one at once). */
	l->kv_res_gpu = x->w->concurrency_max ? l->kv_mean_gpu : l->kv_full_gpu;
	l->fits_one = room >= l->kv_full_gpu;
	l->bmem = l->fits_one && l->kv_res_gpu > 0 ? (long)eng_fmin(1e9, floor(room / l->kv_res_gpu)) : 0;
	/* The linear communication terms serve speed_bound() only, i.e. a
	 * per-user speed target. */
	if (x->w->tokens_per_s_per_user > 0) {
		double c1 = comm_s(x, l, 1.0 / pp, pp), c2 = comm_s(x, l, 2.0 / pp, pp);
		l->k_x = c2 - c1;
		l->c0 = c1 - l->k_x;
		double p1 = comm_s(x, l, x->I / pp, 1), p2 = comm_s(x, l, 2.0 * x->I / pp, 1);
		l->cb = (p2 - p1) / x->I;
		l->ca = p1 - l->cb * x->I;
	} else {
		l->k_x = l->c0 = l->cb = l->ca = 0;
	}
	l->ttft_s = prefill_s(x, l, x->I, false);
	l->ttft_ok = !(x->w->ttft_ms > 0) || l->ttft_s * 1000.0 <= x->w->ttft_ms;
	l->btps = x->w->tokens_per_s_per_user > 0 ? batch_for_speed(x, l, x->w->tokens_per_s_per_user)
						  : l->bmem;
}

static bool ctx_init(const struct catalog *c, const struct workload *w,
		     const struct catalog_accel *a, struct ictx *x)
{
	const struct catalog_defaults *d = &c->defaults;
	memset(x, 0, sizeof *x);
	x->c = c;
	x->w = w;
	x->a = a;
	x->m = w->model;
	eng_precision_resolve(w, a, &x->pr);
	x->usable = eng_usable_bytes(a);
	x->bw = a->mem_bw_tb_s * 1e12 * a->eff_mem_bw.value;
	x->flops = x->pr.peak_flops * a->eff_compute.value;
	x->pflops = x->flops * (d->prefill_efficiency.value > 0 ? d->prefill_efficiency.value : 1);
	x->lat = d->collective_latency_us.value * 1e-6;
	bool moe = x->m->experts > 0;
	x->workspace = (moe ? d->serving_workspace_moe_gb.value : d->serving_workspace_gb.value) * ENG_GB;
	x->reserve1 = d->runtime_reserve_tp1_gb.value * ENG_GB;
	x->reserve_n = d->runtime_reserve_tp_gb.value * ENG_GB;
	x->I = (double)w->input_tokens;
	x->O = (double)w->output_tokens;
	x->ctx_full = x->I + x->O;
	x->ctx_mean = x->I + x->O / 2.0;
	x->pa = eng_params_active(x->m);
	x->attn_mean = eng_attn_flops_token(x->m, x->ctx_mean);
	x->attn_pre = eng_attn_flops_token(x->m, x->I / 2.0);
	const struct catalog_model *m = x->m;
	if (m->experts > 0 && m->experts_active > 0 && m->experts_active < m->experts && x->pa < m->params) {
		double k_e = (double)m->experts_active / m->experts;
		x->moe_experts = (m->params - x->pa) / (1.0 - k_e);
		x->moe_shared = m->params - x->moe_experts;
		x->moe_log = log1p(-k_e);
	}
	const struct catalog_platform *big = eng_platform_biggest(c, a, &x->node_max);
	int max_tp = d->max_tp.value >= 1 ? (int)d->max_tp.value : 8;
	int reach = a->link_domain > x->node_max ? a->link_domain : x->node_max;
	x->tmax = reach < max_tp ? reach : max_tp;
	if (x->tmax < 1)
		x->tmax = 1;
	x->fixed_gpus = w->accel == a && w->gpus > 0 ? w->gpus : 0;
	x->n_users = w->concurrency_max ? 0 : w->concurrency;
	x->plat = big;
	x->link_bw2 = eng_link_bw(c, a, big, 2);
	x->nic_bw = NAN;	/* looked up only if a replica spans nodes */
	return x->node_max > 0 && x->flops > 0 && x->bw > 0;
}

/* GPUs a layout needs under the fixed-concurrency constraints in `mask`
 * (which targets count), or -1 when it cannot meet them; *b_out gets the
 * batch each replica runs. */
enum { C_SPEED = 1, C_TTFT = 2, C_TPUT = 4, C_ALL = 7 };

static long gpus_for(const struct ictx *x, const struct ilayout *l, int mask, long *b_out, long *rep_out)
{
	if (l->bmem < 1)
		return -1;
	if ((mask & C_TTFT) && !l->ttft_ok)
		return -1;
	long b = l->bmem;
	if ((mask & C_SPEED) && x->w->tokens_per_s_per_user > 0) {
		if (l->btps < 1)
			return -1;
		if (l->btps < b)
			b = l->btps;
	}
	if (x->n_users > 0 && x->n_users < b)
		b = x->n_users;
	long rep = x->n_users > 0 ? eng_ceil_div(x->n_users, b) : 1;
	if ((mask & C_TPUT) && x->w->target_tokens_per_s > 0) {
		double tput = replica_tput(x, l, (double)b);
		if (!(tput > 0))
			return -1;
		double need = ceil(x->w->target_tokens_per_s / tput);
		if (need > ENG_MAX_GPUS)
			return -1;
		if ((long)need > rep)
			rep = (long)need;
	}
	if (rep * l->g > ENG_MAX_GPUS)
		return -1;
	*b_out = b;
	*rep_out = rep;
	return rep * l->g;
}

/* The layout needing the fewest GPUs, the highest throughput breaking
 * ties; *gpus gets its count.  Callers that want only the count pass
 * ties = false: the fewest GPUs do not depend on the tie-break, which
 * costs a prefill and a decode step per candidate. */
static int best_layout(const struct ictx *x, const struct ilayout *ls, int n, int mask, bool ties, long *gpus)
{
	int best = -1;
	long best_g = 0;
	double best_tput = 0;
	for (int i = 0; i < n; i++) {
		long b, rep;
		long g = gpus_for(x, &ls[i], mask, &b, &rep);
		if (g < 0)
			continue;
		if (best >= 0 && g > best_g)
			continue;
		if (!ties) {
			if (best < 0 || g < best_g) {
				best = i;
				best_g = g;
			}
			continue;
		}
		/* Throughput breaks ties only: it costs a prefill and a step. */
		double tput = rep * replica_tput(x, &ls[i], (double)b);
		if (best < 0 || g < best_g || tput > best_tput * 1.0001) {
			best = i;
			best_g = g;
			best_tput = tput;
		}
	}
	*gpus = best_g;
	return best;
}

/* best_layout()'s GPU counts without the tie-break for the masks 0,
 * C_SPEED and C_SPEED | C_TTFT in one pass: gpus_for() under each (none
 * has C_TPUT), 0 where no layout meets them. */
static void fewest_gpus(const struct ictx *x, const struct ilayout *ls, int n, long *g_mem,
			long *g_speed, long *g_ttft)
{
	long best[3] = { 0, 0, 0 };
	bool speed = x->w->tokens_per_s_per_user > 0;
	for (int i = 0; i < n; i++) {
		const struct ilayout *l = &ls[i];
		if (l->bmem < 1)
			continue;
		long g[3] = { -1, -1, -1 };
		for (int k = 0; k < 2; k++) {
			long b = l->bmem;
			if (k == 1 && speed) {
				if (l->btps < 1)
					break;
				if (l->btps < b)
					b = l->btps;
			}
			if (x->n_users > 0 && x->n_users < b)
				b = x->n_users;
			long rep = x->n_users > 0 ? eng_ceil_div(x->n_users, b) : 1;
			if (rep * l->g > ENG_MAX_GPUS)
				continue;
			g[k] = rep * l->g;
		}
		g[2] = l->ttft_ok ? g[1] : -1;
		for (int k = 0; k < 3; k++)
			if (g[k] >= 0 && (best[k] == 0 || g[k] < best[k]))
				best[k] = g[k];
	}
	*g_mem = best[0];
	*g_speed = best[1];
	*g_ttft = best[2];
}

/* "Llama 2 70B at fp16": a reason's "%s%s at %s" (name, suffix, precision). */
#define LABEL(x) eng_model_name((x)->m), "", precision_name((x)->pr.used)

/* Why no layout of g GPUs holds even one sequence: the weights alone, or
 * (what surprises people) the runtime workspace and KV cache on top of a
 * share of weights that would fit by itself. */
static void reason_no_fit(const struct ictx *x, const struct ilayout *l, struct engine_result *r)
{
	double w_gb = x->m->params * x->pr.weight_bytes / ENG_GB;
	if (l->w_gpu > x->usable)
		eng_reason(r, "%s%s at %s needs %F GB of weights: more than %d x %ld GB GPU%s (%F GB usable)",
			   LABEL(x), w_gb, l->g, eng_l(x->a->mem_gb), eng_s(l->g),
			   l->g * x->usable / ENG_GB);
	else
		eng_reason(r, "%s%s at %s: %F GB of weights on %d x %ld GB GPU%s is %F GB each; with %F GB of "
			   "runtime workspace and %F GB of KV per sequence that exceeds %F GB usable",
			   LABEL(x), w_gb, l->g, eng_l(x->a->mem_gb), eng_s(l->g), l->w_gpu / ENG_GB,
			   l->fixed_gpu / ENG_GB, l->kv_full_gpu / ENG_GB, x->usable / ENG_GB);
}

/* Fills r for layout l running batches of b in rep replicas.  Returns the
 * prefill of the other b - 1 users' prompts (see user_tps()), which the
 * binding test needs too. */
static double fill_common(const struct ictx *x, const struct ilayout *l, long b, long rep,
			  struct engine_result *r)
{
	struct istep s;
	decode_step(x, l, (double)b, &s);
	r->tp = l->t;
	r->pp = l->pp;
	r->dp = (int)rep;
	r->ep = x->m->experts > 0 ? (l->g < x->m->experts ? l->g : x->m->experts) : 1;
	r->replicas = (int)rep;
	r->gpus = (int)(rep * l->g);
	r->batch_per_replica = b;
	r->max_batch_per_replica = l->bmem;
	r->mem_per_gpu_gb = (l->w_gpu + l->fixed_gpu + b * l->kv_res_gpu) / ENG_GB;
	r->mem_avail_per_gpu_gb = x->usable / ENG_GB;
	r->mem_required_gb = r->mem_per_gpu_gb * r->gpus;
	r->mem_util_pct = 100.0 * r->mem_per_gpu_gb / r->mem_avail_per_gpu_gb;
	r->step_ms = s.total * 1000.0;
	r->t_memory_s = s.mem;
	r->t_compute_s = s.comp;
	r->t_comm_s = s.comm;
	r->t_bubble_s = NAN;
	/* user_tps() and replica_tput() at b, sharing this decode step and
	 * prefill: the same operations in the same order. */
	double pre_u = prefill_s(x, l, ((double)b - 1) * x->I, true);
	double tu = x->O * s.total + pre_u;
	r->tokens_per_s_per_user = tu > 0 ? x->O / tu : 0;
	r->ttft_ms = l->ttft_s * 1000.0;
	r->prefill_s = prefill_s(x, l, b * x->I, true);
	double tr = r->prefill_s + x->O * s.total;
	double tput = tr > 0 ? (double)b * x->O / tr : 0;
	r->output_tokens_per_s = rep * tput;
	r->tokens_per_s_per_gpu = tput / l->g;
	double tps_u = x->w->tokens_per_s_per_user;
	/* With a speed target: the share of bandwidth that target needs (may
	 * exceed 100%).  Without one: the share of each step spent reading
	 * memory, which cannot exceed 100% (rounding must not show "over"). */
	r->bw_util_pct = tps_u > 0 ? 100.0 * s.mem * tps_u : fmin(100.0, 100.0 * s.mem / s.total);
	r->link_util_pct = l->t > 1 || l->pp > 1 ? 100.0 * s.comm / s.total : 0;
	r->link_gb_s_used = l->link_bw / 1e9;
	r->nic_gb_s_per_gpu = l->g > x->node_max ? x->nic_bw / 1e9 : NAN;
	return pre_u;
}

/* Interconnect binds when the all-reduces eat more of each step than the
 * catalog's threshold allows. */
static bool link_binds(const struct ictx *x, const struct engine_result *r)
{
	double thr = x->c->defaults.binding_link_efficiency.value;
	return r->step_ms > 0 && isfinite(r->t_comm_s) && thr > 0 &&
	       1.0 - r->t_comm_s * 1000.0 / r->step_ms < thr;
}

static const char *link_name(const struct ictx *x, int t)
{
	if (t <= x->a->link_domain && x->a->link_gb_s > 0 && x->a->link_kind)
		return x->a->link_kind;
	return "PCIe";
}

static void reason_fallback(const struct ictx *x, struct engine_result *r)
{
	double req_gb = x->m->params * precision_bytes(x->pr.requested) / ENG_GB;
	double used_gb = x->m->params * x->pr.weight_bytes / ENG_GB;
	eng_reason(r, "no %s on %s: runs at %s, so the weights take %F GB instead of %F GB",
		   precision_name(x->pr.requested), x->a->name, precision_name(x->pr.used), used_gb, req_gb);
}

/* ---- a given number of users: size, then bind, then explain ---- */

/* The user fixed the GPU count: the best layout that fits in it and holds
 * the most users, or the reason none does. */
static void size_given_gpus(const struct ictx *x, struct ilayout *ls, int n, struct engine_result *r)
{
	const struct workload *w = x->w;
	int li = -1;
	long best_cap = -1;
	for (int i = 0; i < n; i++) {
		if (ls[i].g > x->fixed_gpus || ls[i].bmem < 1 || !ls[i].ttft_ok)
			continue;
		long cap = ls[i].bmem;
		if (w->tokens_per_s_per_user > 0 && ls[i].btps < cap)
			cap = ls[i].btps;
		cap *= x->fixed_gpus / ls[i].g;
		if (cap > best_cap) {
			best_cap = cap;
			li = i;
		}
	}
	if (li < 0) {
		bool mem = true;
		for (int i = 0; i < n; i++)
			if (ls[i].g <= x->fixed_gpus && ls[i].bmem >= 1)
				mem = false;
		r->fits = false;
		r->binding = mem ? RES_MEMORY : RES_COMPUTE;
		if (mem) {
			/* the largest layout inside the GPUs given */
			int k = 0;
			for (int i = 0; i < n; i++)
				if (ls[i].g <= x->fixed_gpus && ls[i].g >= ls[k].g)
					k = i;
			reason_no_fit(x, &ls[k], r);
		} else
			eng_reason(r, "%d GPU%s cannot meet the TTFT target of %F ms", x->fixed_gpus,
				   eng_s(x->fixed_gpus), w->ttft_ms);
		return;
	}
	long rep = x->fixed_gpus / ls[li].g;
	long cap = best_cap / rep;
	long b = eng_ceil_div(x->n_users, rep);
	if (b > cap)
		b = cap;
	fill_common(x, &ls[li], b, rep, r);
	if (best_cap < x->n_users) {
		r->fits = false;
		r->binding = ls[li].btps < ls[li].bmem && w->tokens_per_s_per_user > 0 ? RES_BANDWIDTH
											 : RES_MEMORY;
		eng_reason(r, "%d GPU%s serve%s %ld of the %ld users (%ld per TP%d replica)",
			   x->fixed_gpus, eng_s(x->fixed_gpus), x->fixed_gpus == 1 ? "s" : "",
			   best_cap, x->n_users, cap, ls[li].t);
		return;
	}
	r->fits = true;
	r->binding = RES_MEMORY;
	eng_reason(r, "%d GPU%s as chosen: %ld replica%s of TP%d, up to %ld user%s each", x->fixed_gpus,
		   eng_s(x->fixed_gpus), rep, eng_s(rep), ls[li].t, cap, eng_s(cap));
}

/* No layout meets every target: show the one that meets the most, and say
 * which target is out of reach. */
static void explain_out_of_reach(const struct ictx *x, struct ilayout *ls, int n, struct engine_result *r)
{
	const struct workload *w = x->w;
	long g, b = 1, rep = 1;
	r->fits = false;
	int lm = best_layout(x, ls, n, 0, true, &g);
	int ls_ = best_layout(x, ls, n, C_SPEED, true, &g);
	int lt = best_layout(x, ls, n, C_SPEED | C_TTFT, true, &g);
	int shown = lt >= 0 ? lt : ls_ >= 0 ? ls_ : lm >= 0 ? lm : 0;
	gpus_for(x, &ls[shown], 0, &b, &rep);
	if (b < 1)
		b = 1, rep = 1;
	fill_common(x, &ls[shown], b, rep, r);
	if (lm < 0) {
		/* Even memory alone asks for more GPUs than any cluster. */
		r->binding = RES_MEMORY;
		eng_reason(r, "KV cache for %ld user%s of %ld tokens needs more than %d GPUs",
			   x->n_users, eng_s(x->n_users), (long)x->ctx_full, ENG_MAX_GPUS);
	} else if (ls_ < 0) {
		double best_tps = 0;
		int bt = 1;
		for (int i = 0; i < n; i++) {
			struct istep s;
			decode_step(x, &ls[i], 1, &s);
			if (1.0 / s.total > best_tps) {
				best_tps = 1.0 / s.total;
				bt = ls[i].t;
			}
		}
		r->binding = RES_BANDWIDTH;
		eng_reason(r, "%F tok/s per user is out of reach: at most %F tok/s (TP%d, one user)",
			   w->tokens_per_s_per_user, best_tps, bt);
	} else if (lt < 0) {
		double best = INFINITY;
		int bt = 1;
		for (int i = 0; i < n; i++)
			if (ls[i].ttft_s < best) {
				best = ls[i].ttft_s;
				bt = ls[i].t;
			}
		r->binding = RES_COMPUTE;
		eng_reason(r, "TTFT %F ms for %ld input token%s is out of reach: %F ms at best (TP%d)",
			   w->ttft_ms, w->input_tokens, eng_s(w->input_tokens), best * 1000.0, bt);
	} else {
		r->binding = RES_COMPUTE;
		eng_reason(r, "%F tok/s needs more than %d GPUs", w->target_tokens_per_s, ENG_MAX_GPUS);
	}
}

/* The target that added GPUs, checked in the order memory, per-user speed,
 * time to first token, total throughput: the last one that asked for more
 * than the one before it. */
enum driver { DRIVER_MEMORY, DRIVER_SPEED, DRIVER_TTFT, DRIVER_THROUGHPUT };

static enum driver what_drove(const struct ictx *x, const struct ilayout *ls, int n, long g_final)
{
	long g_mem, g_speed, g_ttft;
	fewest_gpus(x, ls, n, &g_mem, &g_speed, &g_ttft);
	if (g_final > g_ttft && g_ttft > 0)
		return DRIVER_THROUGHPUT;
	if (g_ttft > g_speed && g_speed > 0)
		return DRIVER_TTFT;
	if (g_speed > g_mem && g_mem > 0)
		return DRIVER_SPEED;
	return DRIVER_MEMORY;
}

/* The resource behind the driver: speed and throughput bind on bandwidth
 * when reading weights and KV outweighs the math of the decode steps plus
 * the other users' prompts prefilled meanwhile; the interconnect binds
 * instead when all-reduces eat the step of a replica sized for speed or
 * throughput (when memory or the TTFT target chose the group, that stays
 * the reason). */
static enum resource bind(const struct ictx *x, enum driver d, double pre_others,
			  const struct engine_result *r)
{
	bool bw_bound = x->O * r->t_memory_s >= x->O * r->t_compute_s + pre_others;
	enum resource res = d == DRIVER_MEMORY ? RES_MEMORY
			  : d == DRIVER_TTFT ? RES_COMPUTE
			  : bw_bound ? RES_BANDWIDTH : RES_COMPUTE;
	if (d != DRIVER_MEMORY && d != DRIVER_TTFT && link_binds(x, r))
		return RES_INTERCONNECT;
	return res;
}

/* The reason, for a customer, of the resource that binds. */
static void explain(const struct ictx *x, const struct ilayout *l, enum driver d, long b,
		    struct engine_result *r)
{
	const struct workload *w = x->w;
	bool bw = r->binding == RES_BANDWIDTH;
	if (r->binding == RES_INTERCONNECT) {
		eng_reason(r, "TP%d all-reduces over %s take %ld%% of each decode step",
			   l->t, link_name(x, l->t), eng_l(100.0 * r->t_comm_s * 1000.0 / r->step_ms));
	} else if (d == DRIVER_THROUGHPUT) {
		eng_reason(r, "%F output tok/s needs %d replica%s of %F tok/s (%s-bound at batch %ld)",
			   w->target_tokens_per_s, r->replicas, eng_s(r->replicas),
			   r->output_tokens_per_s / r->replicas, bw ? "bandwidth" : "compute", b);
	} else if (d == DRIVER_TTFT) {
		eng_reason(r, "TTFT %F ms for %ld input token%s needs TP%d: %F ms at %ld TFLOPS %s",
			   w->ttft_ms, w->input_tokens, eng_s(w->input_tokens), l->t,
			   r->ttft_ms, eng_l(x->pr.peak_flops / 1e12), precision_name(x->pr.compute));
	} else if (d == DRIVER_SPEED) {
		eng_reason(r, "%F tok/s per user caps a TP%d replica at %ld user%s (%s): %d replica%s",
			   w->tokens_per_s_per_user, l->t, l->btps, eng_s(l->btps),
			   bw ? "memory-bandwidth-bound" : "compute-bound, prompts included",
			   r->replicas, eng_s(r->replicas));
	} else {
		double wgb = x->m->params * x->pr.weight_bytes / ENG_GB;
		double kvgb = x->n_users * eng_kv_seq_bytes_gpu(x->m, x->pr.kv_bytes, 1, x->ctx_full) / ENG_GB;
		if (l->g > 1)
			eng_reason(r, "%s%s at %s needs %F GB of weights: more than one %ld GB GPU (%F GB usable); "
				   "%ld %s KV cache adds %F GB",
				   LABEL(x), wgb, eng_l(x->a->mem_gb), x->usable / ENG_GB,
				   x->n_users, x->n_users == 1 ? "user's" : "users'", kvgb);
		else if (r->gpus == 1)
			eng_reason(r, "%s%s at %s (%F GB) plus KV cache for %ld user%s (%F GB) fits one %ld GB GPU (%F GB usable)",
				   LABEL(x), wgb, x->n_users, eng_s(x->n_users), kvgb,
				   eng_l(x->a->mem_gb), x->usable / ENG_GB);
		else
			eng_reason(r, "%s%s at %s (%F GB) plus KV cache for %ld user%s (%F GB) needs %d GPUs of %ld GB",
				   LABEL(x), wgb, x->n_users, eng_s(x->n_users), kvgb, r->gpus,
				   eng_l(x->a->mem_gb));
	}
}

/* A given number of users (or the GPUs the user fixed): size the cheapest
 * layout that meets every target, find what binds, say why. */
static void size_fixed(const struct ictx *x, struct ilayout *ls, int n, struct engine_result *r)
{
	long g_final, b = 0, rep = 0;
	if (x->fixed_gpus) {
		size_given_gpus(x, ls, n, r);
		return;
	}
	int li = best_layout(x, ls, n, C_ALL, true, &g_final);
	if (li < 0) {
		explain_out_of_reach(x, ls, n, r);
		return;
	}
	gpus_for(x, &ls[li], C_ALL, &b, &rep);
	/* Without a throughput target the users spread over the replicas. */
	if (!(x->w->target_tokens_per_s > 0))
		b = eng_ceil_div(x->n_users, rep);
	double pre_others = fill_common(x, &ls[li], b, rep, r);
	r->fits = true;
	enum driver d = what_drove(x, ls, n, g_final);
	r->binding = bind(x, d, pre_others, r);
	explain(x, &ls[li], d, b, r);
}

static void size_max(const struct ictx *x, struct ilayout *ls, int n, struct engine_result *r)
{
	const struct workload *w = x->w;
	int li = -1;
	double best = 0;
	for (int i = 0; i < n; i++) {
		const struct ilayout *l = &ls[i];
		if (l->bmem < 1 || !l->ttft_ok)
			continue;
		if (x->fixed_gpus && l->g > x->fixed_gpus)
			continue;
		long b = l->bmem;
		if (w->tokens_per_s_per_user > 0) {
			if (l->btps < 1)
				continue;
			if (l->btps < b)
				b = l->btps;
		}
		double per_gpu = replica_tput(x, l, (double)b) / l->g;
		if (li < 0 || per_gpu > best * 1.0001) {
			li = i;
			best = per_gpu;
		}
	}
	if (li < 0) {
		r->fits = false;
		r->binding = w->tokens_per_s_per_user > 0 ? RES_BANDWIDTH : RES_COMPUTE;
		eng_reason(r, "no layout meets the per-user speed and TTFT targets%s",
			   x->fixed_gpus ? " within the chosen GPU count" : "");
		long b = ls[0].bmem > 0 ? ls[0].bmem : 1;
		fill_common(x, &ls[0], b, 1, r);
		return;
	}
	const struct ilayout *l = &ls[li];
	long b = l->bmem;
	if (w->tokens_per_s_per_user > 0 && l->btps < b)
		b = l->btps;
	long rep;
	if (x->fixed_gpus)
		rep = x->fixed_gpus / l->g;
	else if (w->target_tokens_per_s > 0)
		rep = (long)ceil(w->target_tokens_per_s / replica_tput(x, l, (double)b));
	else
		rep = l->g < x->node_max ? x->node_max / l->g : 1;	/* fill one node */
	if (rep < 1)
		rep = 1;
	if (rep * l->g > ENG_MAX_GPUS) {
		r->fits = false;
		r->binding = RES_COMPUTE;
		eng_reason(r, "%F tok/s needs more than %d GPUs", w->target_tokens_per_s, ENG_MAX_GPUS);
		fill_common(x, l, b, 1, r);
		return;
	}
	fill_common(x, l, b, rep, r);
	r->fits = true;
	bool compute_bound = r->t_compute_s > r->t_memory_s;
	double kv_read = b * l->kv_mean_gpu / x->bw;
	if (compute_bound) {
		r->binding = RES_COMPUTE;
		eng_reason(r, "compute-bound: %ld sequence%s per TP%d replica keep%s %ld TFLOPS %s busy",
			 b, eng_s(b), l->t, b == 1 ? "s" : "", eng_l(x->pr.peak_flops / 1e12),
			 precision_name(x->pr.compute));
	} else if (kv_read > r->t_memory_s / 2) {
		r->binding = RES_BANDWIDTH;
		eng_reason(r, "bandwidth-bound: reading the KV cache of %ld sequence%s takes most of each %F ms step",
			   b, eng_s(b), r->step_ms);
	} else {
		r->binding = RES_MEMORY;
		eng_reason(r, "memory-bound: KV room for only %ld sequence%s per TP%d replica (%F GB free per GPU)",
			   b, eng_s(b), l->t, (x->usable - l->w_gpu - l->fixed_gpu) / ENG_GB);
	}
	if (link_binds(x, r)) {
		r->binding = RES_INTERCONNECT;
		eng_reason(r, "TP%d all-reduces over %s take %ld%% of each decode step",
			 l->t, link_name(x, l->t), eng_l(100.0 * r->t_comm_s * 1000.0 / r->step_ms));
	}
}

void eng_infer(const struct catalog *c, const struct workload *w,
	       const struct catalog_accel *a, struct engine_result *r)
{
	struct ictx x;
	r->precision_used = w->precision;
	if (!ctx_init(c, w, a, &x)) {
		r->fits = false;
		r->binding = RES_NONE;
		if (x.pr.unsupported) {
			eng_reason(r, "%s weights need fp4 tensor units: %s has no fp4 peak in the catalog "
				   "(run the model at bf16 or fp8 there)", precision_name(x.pr.requested),
				   a->name);
			return;
		}
		eng_reason(r, "%s", x.node_max > 0
			 ? "the catalog gives no usable peak, bandwidth or efficiency for this accelerator"
			 : "no server (platform) for this accelerator in the catalog");
		return;
	}
	r->precision_used = x.pr.used;
	r->precision_fallback = x.pr.fallback;

	/* Layouts: every valid TP degree inside the node, as serving engines
	 * run (MLPerf submitters use TP even across PCIe cards); pipeline
	 * stages across nodes only when no node holds the model. */
	struct ilayout ls[MAX_LAYOUTS];
	int n = 0, t_top = 1;
	bool any_fit = false;
	for (int t = 1; t <= x.tmax && n < MAX_LAYOUTS; t *= 2) {
		if (!eng_tp_valid(x.m, t))
			continue;
		t_top = t;
		layout_init(&x, t, 1, &ls[n]);
		any_fit |= ls[n].bmem >= 1;
		n++;
	}
	if (!any_fit)
		x.nic_bw = eng_nic_bw(c, x.plat);
	for (int pp = 2; !any_fit && pp <= 64 && n < MAX_LAYOUTS; pp *= 2) {
		if (t_top * pp > ENG_MAX_GPUS || (x.fixed_gpus && t_top * pp > x.fixed_gpus))
			break;
		if (pp > x.m->layers || !(x.nic_bw > 0))
			break;
		layout_init(&x, t_top, pp, &ls[n]);
		any_fit |= ls[n].bmem >= 1;
		n++;
	}
	if (n == 0) {
		r->fits = false;
		r->binding = RES_NONE;
		eng_reason(r, "no valid tensor-parallel degree for this model");
		return;
	}
	if (!any_fit) {
		/* Show the largest layout tried, or with --gpus the largest inside
		 * the GPUs given, so the figures match what the user asked. */
		int k = n - 1;
		if (x.fixed_gpus)
			for (int i = 0; i < n; i++)
				if (ls[i].g <= x.fixed_gpus && (ls[k].g > x.fixed_gpus || ls[i].g >= ls[k].g))
					k = i;
		const struct ilayout *l = &ls[k];
		r->fits = false;
		r->binding = RES_MEMORY;
		fill_common(&x, l, 1, 1, r);
		r->mem_required_gb = x.m->params * x.pr.weight_bytes / ENG_GB;
		reason_no_fit(&x, l, r);
		return;
	}
	if (w->concurrency_max)
		size_max(&x, ls, n, r);
	else
		size_fixed(&x, ls, n, r);
	if (r->fits && x.pr.fallback) {
		r->binding = RES_PRECISION;
		reason_fallback(&x, r);
	}
}
