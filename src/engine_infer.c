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

#define MAX_LAYOUTS 32

/* Standard normal quantiles: the 99th and 50th percentile of a sum of many
 * independent arrivals (Poisson counts are near normal beyond a few). */
#define Z99 2.3263
#define Q99 ENG_Q99

/* Past this elasticity of the step in the batch the queue is taken as at
 * the edge of stability: the batch's variance is held at 50 x its mean
 * (1 / (1 - 0.98)) instead of diverging. */
#define ENG_ELASTICITY_MAX 0.98

struct ictx {
	const struct catalog *c;
	const struct workload *w;
	const struct catalog_accel *a;
	const struct catalog_model *m;
	struct eng_precision pr;
	double usable;			/* bytes per GPU */
	bool dep_searched;		/* the stack runs DEP (its attention_dp) */
	double window_kept;		/* the stack's window_kv_kept: share of a
					 * sliding-window layer's older tokens its
					 * KV cache stores */
	double kv_free;			/* the stack's KV share of the memory left
					 * after loading (then usable is the whole
					 * memory); 0 = all of usable */
	double bw;			/* achieved memory bandwidth, bytes/s */
	double flops;			/* achieved decode FLOP/s per GPU */
	double pflops;			/* achieved prefill FLOP/s per GPU */
	double aflops, apflops;		/* the same for the attention's products, at
					 * their own format (eng_precision) */
	double lat;			/* one collective call, s */
	double ov;			/* share of the shorter of a kernel's memory and
					 * compute time hidden behind the longer */
	double fixed;			/* per scheduler iteration: launches, sampling,
					 * per-layer kernels that move little, s */
	double iter_fixed;		/* its per-iteration part (without the
					 * per-layer kernels), s */
	double budget;			/* tokens one iteration may carry (chunked
					 * prefill's max_num_tokens) */
	bool open;			/* open-loop arrivals (Poisson): the batch
					 * and the prompts a step carries vary */
	double window;			/* a harness's batching window, s; 0 = none */
	bool separate;			/* prompts in prompt-only iterations
					 * (enum prefill_sched) */
	double blk;			/* decode iterations between prefill
					 * admissions (num_scheduler_steps), >= 1 */
	double workspace, reserve1, reserve_n;
	/* activation buffers held per GPU for a layer's tokens at the budget
	 * (a stack with activation_layers, dense models): bytes a token of
	 * the tensors every TP rank holds whole, and of those it splits;
	 * 0 = the fixed workspace */
	double act_whole, act_split;
	double I, O, ctx_full, ctx_mean, pa;
	double Ip;			/* prompt tokens computed per request: those the
					 * prefix cache does not already hold */
	int node_max, tmax;
	int reach;			/* GPUs one GPU link joins (a node, or NVL72) */
	double nic_bw;			/* per GPU, bytes/s, between nodes; set only
				 * when a replica must span nodes */
	const struct catalog_platform *plat;	/* the biggest node */
	double link_bw2;		/* eng_link_bw() for a pair, once */
	/* Per-workload constants, computed once (steps run often). */
	double attn_mean;		/* attention FLOPs of a token at mean context */
	double attn_pre;		/* ... of a prompt token (causal: I/2 back) */
	double moe_shared, moe_experts, moe_log;	/* see params_read() */
	double moe_shared_active;	/* active parameters outside the experts */
	double moe_gemm;		/* the routed experts' grouped-GEMM share of
					 * the dense one (defaults) */
	double xrate;			/* the experts' compute rate over the rest's
					 * (mxfp4 on fp4 units: fp8 over 16 bit) */
	double wmix;			/* a mixed checkpoint's GEMM time over the
					 * same GEMMs all in the narrow format */
	double head_p;			/* the output head's weights (vocab x hidden) */
	double head_rate;		/* its 16-bit products' rate over the GEMMs' */
	int fixed_gpus;			/* 0 = the engine sizes */
	long batch_cap;			/* --batch on this accelerator; 0 = none */
	const struct catalog_partition *part;	/* a MIG slice, or NULL */
	const struct catalog_serving_stack *stack;	/* NULL: none in the catalog */
	long n_users;			/* 0 = as many as memory holds */
	struct eng_spec spec;		/* speculative decoding; spec.k 0 = none */
};

struct ilayout {
	int t, pp, g;
	int e;				/* expert parallel: the experts spread whole over
					 * e of the t GPUs (1 = split by TP like dense) */
	bool dp;			/* attention data parallel (DEP): t = e GPUs each
					 * hold the attention and shared weights whole
					 * and 1/t of the sequences, the experts 1/e */
	double w_gpu, fixed_gpu;	/* weights and reserve+workspace, bytes */
	double kv_full_gpu;		/* one sequence at full context, per GPU, as
					 * the stack's cache stores it */
	double kv_res_gpu;		/* KV held per sequence for sizing the batch */
	double kv_mean_gpu;		/* KV a step reads per sequence at mean context */
	double link_bw, pp_bw;
	double ar_lat;			/* latency of one all-reduce over the t GPUs, s */
	bool ar_curve;			/* the part's measured all-reduce curve is for t GPUs */
	double pool;			/* replicas a least-loaded dispatch spreads
					 * arrivals over (1: each on its own) */
	long bmem;			/* sequences the KV room holds */
	bool fits_one;			/* room for one full-context sequence */
	long btps;			/* largest batch meeting the per-user speed
					 * and first-token targets at its load */
	double ttft_s;			/* one request's prefill, alone */
	bool ttft_ok;			/* alone, it meets the first-token target */
};

struct istep {
	double mem, comp, comm, total;
};

/* What a replica running a batch of b shows at its load. */
struct iload {
	double tau;			/* mean iteration (time per output token), s */
	double tau99;			/* p99 of a request's mean time per token */
	double lambda;			/* requests/s arriving */
	double ttft50, ttft99;		/* first-token time at that load, s */
	double slot_p;			/* share of arrivals that wait for a slot */
};

const struct catalog_serving_stack *engine_serving_stack(const struct catalog *c, const struct workload *w,
							 const struct catalog_accel *a,
							 const struct catalog_stack_platform **on)
{
	const struct catalog_stack_platform *p = NULL;
	const struct catalog_serving_stack *s = NULL;
	if (w->serving_stack < 0) {
		s = catalog_stack_default(c, a->stack, &p);
	} else {
		s = catalog_serving_stack(c, serving_stack_name((enum serving_stack)w->serving_stack));
		p = catalog_stack_on(s, a->stack);
		if (!p)
			s = NULL;
	}
	if (on)
		*on = p;
	return s;
}

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

/* Bytes of weights a step reads for `tok` tokens: the shared ones whole,
 * the experts they touch (1/e of them on one GPU of a DEP group); each
 * part at its own format (mxfp4 stores only the experts in 4 bit). */
static double wread_bytes(const struct ictx *x, double tok, int e)
{
	double r = params_read(x, tok);
	const struct eng_precision *pr = &x->pr;
	if (x->moe_log == 0 || (pr->shared_bytes == pr->expert_bytes && e == 1))
		return r * pr->weight_bytes;
	return x->moe_shared * pr->shared_bytes + (r - x->moe_shared) / e * pr->expert_bytes;
}

/* Both all-reduces of every layer for `tokens` tokens per call, plus the
 * pipeline hand-offs, seconds. */
/* Attention data parallel (DEP) over e GPUs: each GPU routes its own
 * tokens to the k experts they pick and gets the results back, so one
 * MoE layer moves, per GPU, tokens x hidden x k x 2 bytes (16-bit
 * activations) out for dispatch and as much back for combine, of which
 * (e - 1)/e leaves the GPU.  Inside a node that crosses the GPU link;
 * past a node the (e - n)/e bound for other nodes crosses the NICs, which
 * then set the pace.  Seconds for one MoE layer, both all-to-alls. */
double eng_dep_a2a_s(double tokens_gpu, double hidden, int k, int e, int node, double link_bw, double nic_bw,
		     double lat)
{
	if (e < 2 || !(tokens_gpu > 0))
		return 0;
	double bytes = tokens_gpu * hidden * k * 2.0;
	double t = e <= node || node < 1 ? bytes * (e - 1) / e / (link_bw > 0 ? link_bw : INFINITY)
					 : bytes * (e - node) / e / (nic_bw > 0 ? nic_bw : INFINITY);
	return 2.0 * (t + (e - 1) * lat);
}

/* Attention data parallel under in-flight batching: an iteration admits
 * the prompts that arrive, n on average (Poisson), each whole on one rank
 * (trtllm-bench runs without chunked prefill) and dealt round robin, so the
 * busiest of e ranks gets ceil(N / e) of N; its mean is the sum over j of
 * P(N > j e).  The iteration lasts as long as that rank's attention part
 * (TensorRT-LLM's ADP balance blog: an iteration's time is the maximum over
 * the ranks).  Past a few dozen prompts the count is spread over many
 * multiples of e and the ceiling adds half a step on average. */
double eng_dp_busiest_prompts(double n, int e)
{
	if (!(n > 0) || e < 1)
		return 0;
	if (e == 1)
		return n;
	if (n > 60)
		return n / e + 0.5 * (1.0 - 1.0 / e);
	double pmf = exp(-n), cdf = pmf, sum = 1.0 - cdf;	/* j = 0: P(N > 0) */
	int top = (int)(n + 10.0 * sqrt(n) + 10.0);
	for (int k = 1; k <= top; k++) {
		pmf *= n / k;
		cdf += pmf;
		if (k % e == 0)
			sum += eng_fmax(0.0, 1.0 - cdf);
	}
	return sum;
}

static double dep_a2a_s(const struct ictx *x, const struct ilayout *l, double tokens_gpu)
{
	return eng_dep_a2a_s(tokens_gpu, x->m->hidden, x->m->experts_active, l->e, x->reach, l->link_bw,
			     x->nic_bw, x->lat);
}

/* One all-reduce of m bytes over t GPUs of a's link at bw bytes/s.  Where
 * the catalog gives the part's measured curve for t GPUs
 * (link.allreduce_curve), the curve: linear between its points, its first
 * point below them (a call that small is latency alone), the ring's
 * bandwidth term on from its last.  Else the call latency call_s plus the
 * ring's bandwidth term. */
double eng_allreduce_measured_s(const struct catalog_accel *a, double m, int t, double bw, double call_s)
{
	size_t n = a->n_ar_curve;
	if (n < 2 || t != a->ar_curve_gpus || !(m > 0))
		return eng_allreduce_call_s(m, t, bw, call_s);
	const struct catalog_ar_point *p = a->ar_curve;
	if (m <= p[0].bytes)
		return p[0].us * 1e-6;
	if (m >= p[n - 1].bytes)
		return p[n - 1].us * 1e-6 + eng_allreduce_call_s(m - p[n - 1].bytes, t, bw, 0);
	size_t i = 1;
	while (p[i].bytes < m)
		i++;
	double f = (m - p[i - 1].bytes) / (p[i].bytes - p[i - 1].bytes);
	return (p[i - 1].us + f * (p[i].us - p[i - 1].us)) * 1e-6;
}

/* The layout's all-reduce of m bytes (the measured curve only where the
 * layout's group is the curve's). */
static double ar_s(const struct ictx *x, const struct ilayout *l, double m)
{
	return l->ar_curve ? eng_allreduce_measured_s(x->a, m, l->t, l->link_bw, l->ar_lat)
			   : eng_allreduce_call_s(m, l->t, l->link_bw, l->ar_lat);
}

static double comm_s(const struct ictx *x, const struct ilayout *l, double tokens, int stages_in_series,
		     bool alone_tokens)
{
	const struct catalog_model *m = x->m;
	double msg = tokens * m->hidden * 2.0;	/* 16-bit activations */
	double ar = ar_s(x, l, msg);
	double s;
	if (l->dp) {
		s = m->layers * dep_a2a_s(x, l, alone_tokens ? tokens : tokens / l->t);
	} else if (l->e > 1) {
		/* Attention stays tensor-parallel (its all-reduce); the experts
		 * are whole on their GPUs, so each GPU sends its 1/t of the
		 * tokens to the k experts they route to and gets the results
		 * back: two all-to-alls of (e - 1)/e of tokens/t x k vectors. */
		double a2a = msg / l->t * m->experts_active * (l->e - 1) / l->e / (l->link_bw > 0 ? l->link_bw : INFINITY) +
			     (l->e - 1) * x->lat;
		s = m->layers * (ar + 2.0 * a2a);
	} else {
		s = 2.0 * m->layers * ar;
	}
	if (l->pp > 1)
		s += stages_in_series * (msg / l->pp_bw + x->lat);
	return s;
}

/* Bytes per GPU the KV cache may take.  TensorRT-LLM loads the engine
 * (weights, activation buffers) first and gives its KV cache a share of
 * what is left (kv_cache_free_gpu_mem_fraction); vLLM takes a share of the
 * whole memory (gpu_memory_utilization, the accelerator's usable_fraction)
 * for everything. */
static double kv_room(const struct ictx *x, const struct ilayout *l)
{
	double left = x->usable - l->w_gpu - l->fixed_gpu;
	return x->kv_free > 0 ? x->kv_free * left : left;
}

/* A kernel that both streams memory and computes: the longer of the two
 * plus the part of the shorter that does not hide behind it.  A pure
 * roofline (ov = 1) is reached only far from the ridge; near it neither
 * the memory system nor the math units stay busy. */
static inline double overlap(const struct ictx *x, double mem, double comp)
{
	return eng_fmax(mem, comp) + (1.0 - x->ov) * eng_fmin(mem, comp);
}

/*
 * One iteration of the scheduler (docs/design.md, serving): in-flight
 * batching with chunked prefill (TensorRT-LLM's chunked context, vLLM's
 * chunked prefill), so b sequences decode one token each and p prompt
 * tokens are prefilled in the same forward pass.  An operator-by-operator
 * roofline (as GenZ and LLM-Viewer do): the weight GEMMs over all b + p
 * tokens are bound by the larger of reading the weights (once for both)
 * and computing; the decode attention reads every sequence's KV cache;
 * the prompt tokens' attention is compute-bound; then the all-reduces and
 * the fixed cost of an iteration.  Kernels run one after another, so the
 * parts add up.  alone: one request with the pipeline stages in series.
 */
/* One draft token for b sequences (engine_spec.c): its weights and KV
 * read, its products, its all-reduces on the target's TP group and the
 * per-layer launch cost of its layers; the draft runs inside the model's
 * iteration, so the scheduler's per-step cost is paid once, by it. */
static double draft_step_s(const struct ictx *x, const struct ilayout *l, double b)
{
	const struct eng_spec *sp = &x->spec;
	const struct catalog_defaults *d = &x->c->defaults;
	double mem = (sp->params_read * x->pr.weight_bytes + b * sp->kv_per_token * x->ctx_mean) / l->t / x->bw;
	double comp = 2.0 * sp->params_read * b / l->t / x->flops;
	double comm = l->t > 1 ? 2.0 * sp->layers * ar_s(x, l, b * sp->hidden * 2.0) : 0;
	double fixed = sp->layers * d->serving_layer_overhead_us.value * 1e-6;
	return fixed + overlap(x, mem, comp) + comm;
}

/*
 * With pipeline stages a step is pp micro-batches, each scheduled on its
 * own up to the token budget (TensorRT-LLM's micro-batch scheduler fills
 * one at a time, first come first served, and a request rides in one
 * micro-batch at a time: see layout_init()).  A micro-batch's next
 * iteration waits for its last to leave the final stage, and the others
 * queue behind it at every stage, so a step is pp times the stage time of
 * its heaviest micro-batch.  Under Poisson arrivals (a first-token target
 * or an arrival rate) the prompts come one at a time: a micro-batch that
 * takes a prompt carries one chunk of it, min(I / chunks, room), while the
 * others may carry none, so the heaviest holds max(p / pp, min(p, chunk))
 * of a step's p prompt tokens (less than a chunk a step: a chunk in that
 * share of the steps) and the step costs as if each held as much: pp x
 * that in all.  Held full (MLPerf Offline, a fixed batch) the prompts
 * refill every micro-batch alike: p.
 */
static double pp_paced_prompts(const struct ictx *x, const struct ilayout *l, double bv, double p, bool alone)
{
	if (l->pp < 2 || alone || !(p > 0) || !(x->Ip > 0) || !x->open ||
	    !(x->w->ttft_ms > 0 || x->w->arrival_rate > 0))
		return p;
	double room = eng_fmax(1.0, x->budget - bv / l->pp);
	double chunk = eng_fmin(x->Ip / ceil(x->Ip / room), room);
	return l->pp * eng_fmax(p / l->pp, eng_fmin(p, chunk));
}

/*
 * A pipeline advances at its slowest stage.  TensorRT-LLM splits the
 * layers evenly over the stages (mapping.pp_layers) and runs the output
 * head on the last one only (DecoderModelForCausalLM: epilogue =
 * [lm_head], skipped on every rank but the last), in the model's 16-bit
 * dtype whatever the checkpoint ("lm_head Linear will not accept
 * QuantConfig"; ModelOpt's configs disable "*lm_head*" too).  The step
 * above spreads the head over the stages like any layer; the last stage
 * instead reads it once per micro-batch, pp times a step, and multiplies
 * every decoding token by it, so each GPU waits for
 * (pp - 1) x head bytes / t more reading and (1 - 1/pp) of the head's
 * products a step.  Prompt tokens take the head only at their last
 * position, which is left out.
 */
static void last_stage_head(const struct ictx *x, const struct ilayout *l, double bv, struct istep *s)
{
	if (!(x->head_p > 0))
		return;
	double mem = (l->pp - 1) * x->head_p * precision_bytes(PREC_BF16) / l->t / x->bw;
	double comp = 2.0 * x->head_p * bv * (1.0 - 1.0 / l->pp) / l->t / (x->flops * x->head_rate);
	s->mem += mem;
	s->comp += comp;
	s->total += overlap(x, mem, comp);
}

static void iter_step(const struct ictx *x, const struct ilayout *l, double b, double p, bool alone,
		      struct istep *s)
{
	int par = alone ? l->t : l->g;
	/* speculating, the target computes k + 1 tokens a sequence */
	double bv = b * x->spec.verify;
	p = pp_paced_prompts(x, l, bv, p, alone);
	double tok = bv + p;
	double wbytes = wread_bytes(x, tok / (alone ? 1 : l->pp), 1) / l->t;
	double kvbytes = b * l->kv_mean_gpu;
	double gemm_t = 2.0 * x->pa / par * (bv / x->flops + p / x->pflops);
	double busy_p = 0;	/* DEP: prompt tokens on the busiest GPU */
	if (l->dp) {
		/* every GPU reads the attention and shared weights whole and
		 * its 1/e of the experts the group's tokens touch; one request
		 * alone computes its attention and shared layers on one GPU */
		wbytes = wread_bytes(x, tok, l->e);
		if (alone)
			gemm_t += 2.0 * x->moe_shared_active * (1.0 - 1.0 / l->t) * (bv / x->flops + p / x->pflops);
		else if (p > 0 && x->Ip > 0)
			busy_p = eng_dp_busiest_prompts(p / x->Ip, l->t) * x->Ip;
		else
			busy_p = p / par;
	}
	if (x->moe_log != 0 && tok > 0) {
		/* The routed experts' GEMMs run grouped, at moe_gemm of the
		 * dense share; with expert parallelism the busiest of the e GPUs
		 * sets their pace: tokens x k routings spread over e GPUs
		 * (multinomial), the largest share about m + sqrt(2 m ln e) of a
		 * mean m. */
		double imb = 1.0;
		if (l->e > 1) {
			double mexp = tok * x->m->experts_active / l->e;
			imb += sqrt(2.0 * log((double)l->e) / mexp);
		}
		double ex = (x->pa - x->moe_shared_active) / x->pa;	/* the experts' share */
		double dense = gemm_t * (1.0 - ex);
		if (l->dp && !alone)	/* attention and shared layers: the busiest rank's tokens */
			dense = 2.0 * x->moe_shared_active * (bv / par / x->flops + busy_p / x->pflops);
		gemm_t = dense + gemm_t * ex * imb / (x->moe_gemm * x->xrate);
	}
	gemm_t *= x->wmix;
	int apar = alone && l->dp ? 1 : par;
	double attn_fl = bv * x->attn_mean / apar;
	double pre_t = p * x->attn_pre / apar / x->apflops;
	/* DEP: the busiest rank's prompts, and its sends set the pace */
	double ctok = tok;
	if (l->dp && !alone) {
		pre_t = busy_p * x->attn_pre / x->apflops;
		ctok = bv + busy_p * par;
	}
	s->mem = (wbytes + kvbytes) / x->bw;
	s->comp = gemm_t + attn_fl / x->aflops + pre_t;
	/* Each stage runs pp micro-batches of tok/pp per step; one request
	 * alone crosses the stages in series. */
	s->comm = alone ? comm_s(x, l, tok, l->pp - 1, true) : comm_s(x, l, ctok / l->pp, l->pp, false);
	/* With pipeline stages each GPU runs pp scheduler iterations a step,
	 * one per micro-batch (TensorRT-LLM's PyTorch executor loops over its
	 * micro-batch slots, scheduling, launching and sampling each:
	 * py_executor.py _executor_loop_pp; the C++ runtime's forwardAsync()
	 * one micro-batch at a time), and its layers' kernels once. */
	double fixed = x->fixed + (alone ? 0 : (l->pp - 1) * x->iter_fixed);
	s->total = fixed + overlap(x, wbytes / x->bw, gemm_t) + overlap(x, kvbytes / x->bw, attn_fl / x->aflops) +
		   pre_t + s->comm;
	if (!alone && l->pp > 1)
		last_stage_head(x, l, bv, s);
	if (x->spec.k > 0 && b > 0) {
		/* k draft tokens first; the step then yields gain tokens a
		 * sequence, so each figure is per output token */
		s->total += x->spec.k * draft_step_s(x, l, b);
		double g = x->spec.gain;
		s->mem /= g, s->comp /= g, s->comm /= g, s->total /= g;
	}
}

/*
 * What an output step of b sequences costs when p prompt tokens arrive
 * for each (the scheduling of docs/design.md, serving).  Chunked prefill:
 * one iteration carries both.  Separate prefill steps (vLLM's V0
 * scheduler with chunked prefill off): the decode iteration carries the b
 * sequences alone, and the prompts run in prompt-only iterations that stop
 * the decodes; each takes every prompt that waits (vLLM schedules all
 * waiting prompts, up to max_num_batched_tokens), at least one; with
 * multi-step decoding (num_scheduler_steps N) prompts are admitted only
 * between blocks of N decode iterations.  So with n = p / I prompts
 * arriving an output step a prefill iteration holds max(1, N n) of them,
 * and n / max(1, N n) of them run per output step.  Each reads the
 * weights for its prompts alone.  The parts are summed per output step.
 */
static void sched_step(const struct ictx *x, const struct ilayout *l, double b, double p, struct istep *s)
{
	if (!x->separate || !(p > 0) || !(x->Ip > 0)) {
		iter_step(x, l, b, p, false, s);
		return;
	}
	struct istep pf;
	double n = p / x->Ip;
	double group = eng_fmax(1.0, x->blk * n);
	double tok = group * x->Ip;
	double runs = ceil(tok / x->budget);	/* prompts are never split */
	iter_step(x, l, b, 0, false, s);
	iter_step(x, l, 0, tok / runs, false, &pf);
	double k = n / group * runs;		/* prefill iterations an output step */
	s->mem += k * pf.mem;
	s->comp += k * pf.comp;
	s->comm += k * pf.comm;
	s->total += k * pf.total;
}

/* The iteration a batch of b runs on average: each request's I prompt
 * tokens are spread over its O output steps, so an iteration carries
 * b x I / O prompt tokens (the prefill of the others a user sees while
 * its own tokens are decoded). */
static void mean_step(const struct ictx *x, const struct ilayout *l, double b, struct istep *s)
{
	sched_step(x, l, b, b * x->Ip / x->O, s);
}

/* One request's prefill alone: ceil(I / budget) chunks of the prompt. */
static double prefill_alone_s(const struct ictx *x, const struct ilayout *l)
{
	if (!(x->Ip > 0))
		return 0;
	double n = ceil(x->Ip / x->budget);
	struct istep s;
	iter_step(x, l, 0, x->Ip / n, true, &s);
	return n * s.total;
}

/*
 * The spread of the batch a request lives with under open-loop arrivals
 * (its standard deviation, averaged over the request's life); m gets the
 * mean step at b.  The batch is a birth-death count: arrivals at lambda,
 * departures at n / (O tau(n)).  A larger batch runs slower steps, so it
 * drains more slowly than it fills: by the linear-noise approximation
 * (van Kampen) its variance is b / (1 - e), where e = d ln tau / d ln b is
 * the step's elasticity (0 for a step that ignores the batch, where the
 * count is Poisson; near 1 once compute binds, where the throughput stops
 * growing with the batch and the queue is near instability), and it
 * relaxes over O tau / (1 - e).  A request averages it over its own life
 * of O tau, x = 1 - e relaxation times, which keeps 2 (x - 1 + e^-x) / x^2
 * of the variance (an Ornstein-Uhlenbeck average).  The elasticity is the
 * mean step's over one twentieth of the batch, so a request's prompts
 * grow with it.  A least-loaded dispatch over R replicas (each request to
 * the one with the fewest in flight, as NVIDIA's MLPerf harness sends
 * Server queries) keeps them level: the R batches move as one count of
 * mean R b and variance R b / (1 - e), so each replica's variance is
 * b / (R (1 - e)) (the state-space collapse of join-the-shortest-queue).
 */
static double batch_spread(const struct ictx *x, const struct ilayout *l, double b, struct istep *m, double *xr_out)
{
	struct istep s1;
	double b1 = b * 1.05 + 0.5;
	mean_step(x, l, b, m);
	mean_step(x, l, b1, &s1);
	double e = b > 0 && m->total > 0 && s1.total > m->total ? log(s1.total / m->total) / log(b1 / b) : 0;
	double xr = 1.0 - eng_fmin(e, ENG_ELASTICITY_MAX);
	double keep = 2.0 * (xr - 1.0 + exp(-xr)) / (xr * xr);
	*xr_out = xr;
	return sqrt(b * keep / xr / l->pool);
}

/*
 * Waiting for a slot: the scheduler runs at most cap sequences (what the KV
 * room holds, or the forced max batch), so an arrival that finds them all
 * busy waits for one to finish.  Each sequence holds its slot for its life
 * S = O tau, so this is Erlang's delay system with b slots busy on average;
 * in the Halfin-Whitt regime, with the batch's spread of batch_spread()
 * (variance b / x, x = 1 - e), an arrival waits with probability
 * 1 / (1 + beta Phi(beta) / phi(beta)), beta = (cap - b) / sqrt(b / x),
 * and then an exponential time of mean S / (x (cap - b)) (the queue above
 * the cap drains at the rate the slower steps at the cap leave).  Past
 * beta = 3 fewer than 1 in 600 arrivals wait: no percentile here sees it.
 */
static double slot_wait(double b, double cap, double xr, double life, double *w50, double *w99)
{
	*w50 = *w99 = 0;
	if (!(b > 0))
		return 0;
	if (!(cap > b)) {
		*w50 = *w99 = INFINITY;
		return 1;
	}
	double beta = (cap - b) / sqrt(b / xr);
	if (beta >= 3)
		return 0;
	double phi = exp(-0.5 * beta * beta) * 0.3989422804014327;	/* 1 / sqrt(2 pi) */
	double pw = 1.0 / (1.0 + beta * 0.5 * erfc(-beta * 0.7071067811865476) / phi);	/* Phi(beta) */
	double mean = life / (xr * (cap - b));
	*w50 = pw > 0.5 ? mean * log(pw / 0.5) : 0;
	*w99 = pw > 1 - Q99 ? mean * log(pw / (1 - Q99)) : 0;
	return pw;
}

/*
 * The load a batch of b brings: a queueing model of MLPerf Server
 * semantics (Poisson arrivals at lambda = b / (O x tau), Little's law).
 *
 * Time per output token at p99.  A request's own tokens average over its
 * O steps, so what varies is the load it lives with: the prompts that
 * arrive during its life (Poisson, mean b, so b + z sqrt(b) at p99) and,
 * under open-loop arrivals, the batch itself (batch_spread(): wider the
 * more the step slows with the batch), up to the scheduler's cap.  A fixed number of
 * users (closed loop) keeps the batch at b and each other user starts
 * about one request per life.
 *
 * First token.  A prompt arrives during an iteration (waits for its end:
 * uniform, mean tau/2), queues for the prompt budget left after the decode
 * tokens (an M/D/1 queue whose server takes I / (budget - b) of the
 * iterations that carry a chunk per prompt: eng_md1_wait(), its p99 taken
 * with the iteration in progress by residual_wait99()), then runs
 * its ceil(I / (budget - b)) chunks, each in an iteration that also
 * carries the other prompts arriving meanwhile: b / O of them on average
 * (Poisson arrivals see time averages), at p99 the p99 of that Poisson
 * count.  The percentiles of the parts are added (the wait's p99 with the
 * iteration in progress as one), which bounds the sum's from above.
 */
/* What load_tpot() leaves for load_ttft(): the mean step's time (under
 * open-loop arrivals batch_spread()'s, else the p99 step is the mean one)
 * and x = 1 - e. */
struct iload_mean {
	double tau, xr;
};

/* The p99 time per token alone (the rest NAN): all some callers need. */
static void load_tpot(const struct ictx *x, const struct ilayout *l, double b, struct iload *o,
		      struct iload_mean *k)
{
	struct istep s, m0;
	double xr = 1;
	double sb = x->open ? batch_spread(x, l, b, &m0, &xr) : 0;
	/* the prompts arriving in a life: Poisson, mean b; under a
	 * least-loaded dispatch 1/R of the pool's, variance b / R */
	double arrivals = x->open ? b + Z99 * sqrt(b / l->pool) : b;
	sched_step(x, l, b + Z99 * sb, arrivals * x->Ip / x->O, &s);
	o->tau99 = s.total;
	o->ttft50 = o->ttft99 = o->tau = o->lambda = NAN;
	o->slot_p = 0;
	k->tau = x->open ? m0.total : s.total;
	k->xr = xr;
}

/* Poisson arrivals against a first-token target: the batch swings up to
 * the scheduler's cap (without a target the batch is held full, as MLPerf
 * Offline runs it), and an arrival that finds every slot taken waits. */
static void add_slot_wait(const struct ictx *x, const struct ilayout *l, double b, struct iload *o, double xr)
{
	if (x->open && x->w->ttft_ms > 0) {
		double s50, s99;
		/* least-loaded: an arrival waits only when every replica of
		 * the pool is at its cap (R cap slots, R b busy): the same
		 * closed form with the spread and drain rate of the pool */
		o->slot_p = slot_wait(b, (double)l->bmem, xr * l->pool, x->O * o->tau, &s50, &s99);
		o->ttft50 += s50;
		o->ttft99 += s99;
	}
}

/*
 * First token behind a harness's batching window (AMD's MLPerf Server
 * harness: one batcher in front of every replica holds the queries that
 * arrive and, when the window closes, hands them all to the next replica
 * in turn).  A query waits for its window to close (uniform over it: half
 * of it at p50, 0.99 of it at p99), then for the iteration in progress,
 * and gets its first token when its whole group is prefilled: the group
 * is the queries of one window at the whole system's rate (lambda x the
 * replicas; when the engine sizes the count itself, one replica's),
 * Poisson, its p99 at p99, computed in ceil(tokens / room) iterations
 * beside the running batch.  The group replaces the one-by-one queue for
 * the prompt budget; percentiles of the parts are added, as below.
 */
static void window_ttft(const struct ictx *x, const struct ilayout *l, double b, double it, double room,
			struct iload *o)
{
	double rep = x->fixed_gpus > 0 ? eng_fmax(1.0, floor((double)x->fixed_gpus / l->g)) : 1.0;
	double n = o->lambda * rep * x->window;
	double group[2] = { eng_fmax(n, 1.0), eng_fmax(n + Z99 * sqrt(n), 1.0) };
	double own[2];
	for (int i = 0; i < 2; i++) {
		double tok = group[i] * x->Ip;
		double chunks = ceil(tok / room);
		struct istep s;
		iter_step(x, l, x->separate ? 0 : b, tok / chunks, false, &s);
		own[i] = chunks * s.total * (x->separate ? 1.0 : x->spec.gain);
	}
	o->ttft50 = 0.5 * x->window + 0.5 * it + own[0];
	o->ttft99 = Q99 * x->window + Q99 * it + own[1];
}

/*
 * First token with separate prefill steps: a prompt waits for the block
 * of N decode iterations in progress (N = 1 without multi-step; uniform:
 * half of it at p50, 0.99 at p99), then runs in the next prefill
 * iteration with every prompt that waits by then: its own and the others
 * that arrived in the same block, N b / O on average (Poisson; the p99 of
 * the count at p99), within the token budget (a prompt is not split, so a
 * longer group takes more iterations).  The prompts do not queue for room
 * beside the decodes.
 */
static void separate_ttft(const struct ictx *x, const struct ilayout *l, double b, double it, struct iload *o)
{
	double m = x->blk * b / x->O;
	it *= x->blk;
	double group[2] = { 1.0 + m, 1.0 + m + Z99 * sqrt(m) };
	double own[2];
	for (int i = 0; i < 2; i++) {
		struct istep s;
		double tok = group[i] * x->Ip;
		double runs = ceil(tok / x->budget);
		iter_step(x, l, 0, tok / runs, false, &s);
		own[i] = runs * s.total;
	}
	o->ttft50 = 0.5 * it + own[0];
	o->ttft99 = Q99 * it + own[1];
}

/*
 * The p99 of the wait for the iteration in progress (uniform over one
 * iteration it) and then for the prompt budget (eng_md1_wait()), taken
 * together: where the budget's wait is in its exponential tail C e^(-theta
 * t), the sum's tail is that times E[e^(theta U)] = (e^g - 1) / g, g =
 * theta it, a shift of ln((e^g - 1) / g) / theta (at most it); elsewhere
 * the two percentiles are added, which bounds the sum's from above.
 */
static double residual_wait99(const struct eng_md1 *q, double it)
{
	double w99 = eng_md1_quantile(q, Q99);
	if (!(w99 > q->svc) || !(q->u > 0) || !(it > 0))
		return Q99 * it + w99;
	double theta = q->u / q->svc, g = theta * it;
	return eng_fmax(Q99 * it, log(q->c * (exp(g) - 1.0) / g / (1 - Q99)) / theta);
}

/* The rest of the load once load_tpot() has filled o and k. */
static void load_ttft(const struct ictx *x, const struct ilayout *l, double b, struct iload *o,
		      const struct iload_mean *k, bool p99_only)
{
	struct istep s;
	double xr = k->xr;
	o->tau = k->tau;
	o->lambda = o->tau > 0 ? b / (x->O * o->tau) : 0;
	/* iterations, not output tokens, set the prompts' pace: speculating, an
	 * iteration yields gain tokens and carries k + 1 of each sequence */
	double it = o->tau * x->spec.gain;
	/* with pipeline stages the scheduler fills each of the pp micro-batches
	 * of a step up to the budget (TensorRT-LLM schedules one micro-batch
	 * at a time, each up to max_num_tokens: see layout_init()) */
	if (x->separate && x->Ip > 0 && !(x->window > 0 && x->open)) {
		separate_ttft(x, l, b, it, o);
		add_slot_wait(x, l, b, o, xr);
		return;
	}
	/* separate prefill steps: the prompts have the whole budget */
	double room = x->budget * l->pp - (x->separate ? 0 : b * x->spec.verify);
	if (!(room >= 1) || !(x->Ip > 0)) {
		o->ttft50 = o->ttft99 = room >= 1 ? it : INFINITY;
		return;
	}
	/* a request rides in one micro-batch at a time, so its chunks are
	 * what one micro-batch's budget leaves beside its decodes */
	double room1 = l->pp > 1 && !x->separate ? x->budget - b * x->spec.verify / l->pp : room;
	if (!(room1 >= 1)) {
		o->ttft50 = o->ttft99 = INFINITY;
		return;
	}
	double chunks = ceil(x->Ip / room1);
	/* The prompt budget's time per prompt: I / room of the iterations
	 * that carry its chunks (b decodes and I / chunks prompt tokens, the
	 * longest-prompt iterations of a run), not of the mean one, which
	 * spreads the prompts over every output step (405B at 9,429 tokens
	 * on 8 x H200: 386 ms against 75) */
	iter_step(x, l, b, x->Ip / chunks, false, &s);
	double svc = x->Ip / room * s.total * x->spec.gain;
	double rho = o->lambda * svc;
	if (!(rho < 1)) {
		o->ttft50 = o->ttft99 = INFINITY;
		return;
	}
	if (x->window > 0 && x->open) {
		window_ttft(x, l, b, it, room, o);
		add_slot_wait(x, l, b, o, xr);
		return;
	}

	struct eng_md1 q;
	eng_md1_init(&q, rho, svc);
	double w99 = residual_wait99(&q, it);
	/* The iterations that carry the prompt's chunks: beside its own
	 * chunk, the prompts of m others (within the budget's room); at p99
	 * the others' prompts in it are the p99 of a Poisson count */
	double m = b / x->O, cap = eng_fmax(room, x->Ip / chunks);
	iter_step(x, l, b, eng_fmin((m + Z99 * sqrt(m)) * x->Ip + x->Ip / chunks, cap), false, &s);
	double own99 = chunks * s.total * x->spec.gain;
	o->ttft99 = w99 + own99;
	/* the batch search reads only the p99 (target_margin()) */
	o->ttft50 = NAN;
	if (!p99_only) {
		iter_step(x, l, b, eng_fmin(m * x->Ip + x->Ip / chunks, cap), false, &s);
		double own = chunks * s.total * x->spec.gain;
		o->ttft50 = 0.5 * it + eng_md1_quantile(&q, 0.5) + own;
	}
	add_slot_wait(x, l, b, o, xr);
}

static void load_at(const struct ictx *x, const struct ilayout *l, double b, struct iload *o, bool ttft)
{
	struct iload_mean k;
	load_tpot(x, l, b, o, &k);
	if (ttft)
		load_ttft(x, l, b, o, &k, false);
}

/* Output tokens/s of one replica running a batch of b in steady state. */
static double replica_tput(const struct ictx *x, const struct ilayout *l, double b)
{
	struct istep s;
	mean_step(x, l, b, &s);
	return s.total > 0 ? b / s.total : 0;
}

/* How far a batch of b is from the targets at the load it brings: <= 0
 * meets both (p99 time per token, p99 first token), > 0 misses; capped so
 * that a queue that never drains still interpolates. */
static double target_margin(const struct ictx *x, const struct ilayout *l, double b)
{
	struct iload o;
	double tps = x->w->tokens_per_s_per_user, ttft = x->w->ttft_ms;
	struct iload_mean k;
	load_tpot(x, l, b, &o, &k);
	double m = -1;
	if (tps > 0)
		m = o.tau99 * tps - 1.0;
	/* A missed per-token target already says "too large"; the search
	 * needs only the sign past the edge, so the queue is not worked out */
	if (m > 0)
		return m;
	if (ttft > 0)
		load_ttft(x, l, b, &o, &k, true);	/* the time per token is already there */
	if (ttft > 0)
		m = eng_fmax(m, eng_fmin(10.0, o.ttft99 * 1000.0 / ttft - 1.0));
	/* Past the onset of slot waits the p99 leaves the scheduler's own
	 * tail for seconds of waiting within a few percent of load (see
	 * docs/accuracy.md, "Waiting for a slot"): the target is met only
	 * while at most 1 - Q99 of arrivals wait */
	if (ttft > 0 && o.slot_p > 1 - Q99)
		m = eng_fmax(m, eng_fmin(10.0, o.slot_p / (1 - Q99) - 1.0));
	return m;
}

/* Largest batch up to hi meeting both targets, 0 if not even one does.
 * Both the step and the queue grow with the batch, so the margin is
 * monotone; regula falsi with the Illinois step finds its edge on the
 * whole numbers in a handful of evaluations (bisection took a dozen). */
static long batch_for_targets(const struct ictx *x, const struct ilayout *l, long hi)
{
	if (hi < 1)
		return 0;
	double fa = target_margin(x, l, 1);
	if (fa > 0)
		return 0;
	double fb = target_margin(x, l, (double)hi);
	if (fb <= 0)
		return hi;
	long a = 1, bb = hi;	/* a meets the targets, bb does not */
	int side = 0;
	while (bb - a > 1) {
		double c = (double)bb - fb * (double)(bb - a) / (fb - fa);
		long ci = (long)floor(c);
		if (ci <= a)
			ci = a + 1;
		if (ci >= bb)
			ci = bb - 1;
		double fc = target_margin(x, l, (double)ci);
		if (fc <= 0) {
			a = ci, fa = fc;
			if (side < 0)
				fb /= 2;
			side = -1;
		} else {
			bb = ci, fb = fc;
			if (side > 0)
				fa /= 2;
			side = 1;
		}
	}
	return a;
}

/* Requests/s a replica carries at a mean batch of b (Little's law). */
static double rate_at(const struct ictx *x, const struct ilayout *l, double b)
{
	struct istep s;
	mean_step(x, l, b, &s);
	return s.total > 0 ? b / (x->O * s.total) : 0;
}

/* The mean batch a replica settles at when requests arrive at lam per
 * second: b = lam x O x tau(b), at most cap.  The rate grows with the
 * batch, so bisection on it finds the point. */
static long batch_for_rate(const struct ictx *x, const struct ilayout *l, double lam, long cap)
{
	if (rate_at(x, l, (double)cap) <= lam)
		return cap;
	double lo = 0, hi = (double)cap;
	for (int i = 0; i < 40 && hi - lo > 0.01; i++) {
		double mid = 0.5 * (lo + hi);
		if (rate_at(x, l, mid) < lam)
			lo = mid;
		else
			hi = mid;
	}
	long b = lround(hi);
	return b < 1 ? 1 : b > cap ? cap : b;
}

static void layout_init(const struct ictx *x, int t, int pp, int e, bool dp, struct ilayout *l)
{
	/* every field is set below (no memset: this runs for each layout) */
	l->t = t;
	l->e = e;
	l->dp = dp;
	l->pp = pp;
	l->g = t * pp;
	/* a draft's weights and KV cache sit beside the target's */
	l->w_gpu = (x->m->params + x->spec.weights) * x->pr.weight_bytes / l->g;
	/* KV: with attention tensor-parallel each GPU holds its heads of
	 * every sequence; data-parallel, whole sequences, 1/t of them (the
	 * figures are per sequence of the group, on average) */
	int kv_t = dp ? 1 : t;
	double kv_share = dp ? 1.0 / t : 1.0;
	/* the cache stores what the stack keeps (a sliding-window layer's
	 * older tokens too where window_kept is 1); a step reads the window */
	l->kv_full_gpu = (eng_kv_seq_stored_gpu(x->m, x->pr.kv_bytes, kv_t, x->ctx_full, x->window_kept) * kv_share +
			  x->spec.kv_per_token * x->ctx_full / t) / pp;
	l->kv_mean_gpu = (eng_kv_seq_bytes_gpu(x->m, x->pr.kv_bytes, kv_t, x->ctx_mean) * kv_share +
			  x->spec.kv_per_token * x->ctx_mean / t) / pp;
	double kv_mean_held = x->window_kept > 0
		? (eng_kv_seq_stored_gpu(x->m, x->pr.kv_bytes, kv_t, x->ctx_mean, x->window_kept) * kv_share +
		   x->spec.kv_per_token * x->ctx_mean / t) / pp
		: l->kv_mean_gpu;
	if (dp)
		l->w_gpu = x->moe_shared * x->pr.shared_bytes + x->spec.weights * x->pr.weight_bytes +
			   x->moe_experts / e * x->pr.expert_bytes;
	l->fixed_gpu = (l->g > 1 ? x->reserve_n : x->reserve1) +
		       (x->act_whole > 0 ? x->act_whole + x->act_split / t : x->workspace);
	l->link_bw = eng_link_bw(x->c, x->a, x->plat, t > x->reach ? x->reach : t);
	/* A call's latency: measured for the link (one call of a small
	 * message inside its domain), else the ring's 2(t - 1) steps. */
	double call = x->a->link_ar_lat.value;
	l->ar_lat = call > 0 && t <= x->a->link_domain ? call * 1e-6 : 2.0 * (t - 1) * x->lat;
	l->ar_curve = x->a->n_ar_curve >= 2 && t == x->a->ar_curve_gpus;
	l->pp_bw = l->g <= x->node_max ? eng_fmax(l->link_bw, x->link_bw2) : x->nic_bw;
	double room = kv_room(x, l);
	/* A fixed number of users may all reach the full context at once, so
	 * each gets I + O tokens of KV.  At maximum concurrency continuous
	 * batching keeps sequences at every stage of their output: on average
	 * each holds I + O/2 tokens (paged KV frees a finished one at once),
	 * unless the scheduler admits a request only with its whole I + O
	 * reserved (TensorRT-LLM's guaranteed-no-evict, the default of its
	 * executor and of trtllm-bench: docs/accuracy.md, "KV reservation"). */
	l->kv_res_gpu = x->open && x->w->kv_reserve != KVR_FULL ? kv_mean_held : l->kv_full_gpu;
	l->fits_one = room >= l->kv_full_gpu * (dp ? t : 1);	/* DEP: a sequence on one GPU */
	l->bmem = l->fits_one && l->kv_res_gpu > 0 ? (long)eng_fmin(1e9, floor(room / l->kv_res_gpu)) : 0;
	/* The scheduler's cap.  With pipeline stages TensorRT-LLM keeps pp
	 * micro-batches in flight, each up to max_batch_size sequences and
	 * max_num_tokens tokens (trtGptModelInflightBatching.cpp: the capacity
	 * scheduler holds getMaxBatchSize() x mNumMicroBatches, mNumMicroBatches
	 * = the pipeline degree, and forwardAsync() schedules one micro-batch at
	 * a time with mMaxBatchSizeRuntime and mMaxNumTokensRuntime). */
	if (x->batch_cap > 0 && l->bmem > x->batch_cap * pp)
		l->bmem = x->batch_cap * pp;
	/* the replicas a least-loaded front end balances: those of the GPUs
	 * given, else those of one node */
	long per = x->fixed_gpus > 0 ? x->fixed_gpus : x->node_max;
	l->pool = x->w->dispatch == DISPATCH_LEAST_LOADED && per >= l->g ? (double)(per / l->g) : 1.0;
	l->ttft_s = prefill_alone_s(x, l);
	l->ttft_ok = !(x->w->ttft_ms > 0) || l->ttft_s * 1000.0 <= x->w->ttft_ms;
	bool targets = x->w->tokens_per_s_per_user > 0 || x->w->ttft_ms > 0;
	long hi = x->n_users > 0 && x->n_users < l->bmem ? x->n_users : l->bmem;
	l->btps = targets && l->ttft_ok ? batch_for_targets(x, l, hi) : targets ? 0 : l->bmem;
}

/* TensorRT sizes an engine's activation memory at build time for its
 * largest shapes, about the tokens an iteration carries times a constant,
 * and reuses one layer's buffers for the next (NVIDIA/TensorRT-LLM
 * docs/source/reference/memory.md).  The constant is the widest point of a
 * layer, in 16-bit values a token: in the MLP the residual stream and its
 * normalised copy (2h, whole on every TP rank) beside the gate and up
 * projections' output and their product (3 ffn, 2 ffn for a plain MLP,
 * split by TP); in attention the residual, the normalised input and the
 * output (3h) beside q, k and v (h + 2 kv_heads x head_dim, split).  The
 * sampler's logits (the decoding sequences x vocabulary) and the decoder's
 * buffers are not counted. */
static void activation_buffers(struct ictx *x, double layers)
{
	const struct catalog_model *m = x->m;
	double h = m->hidden, mats = m->ffn_matrices > 0 ? m->ffn_matrices : 3;
	double kvd = (double)m->kv_heads * (m->head_dim > 0 ? m->head_dim : h / m->heads);
	double mlp_whole = 2.0 * h, mlp_split = mats * m->ffn;
	double att_whole = 3.0 * h, att_split = h + 2.0 * kvd;
	bool mlp = mlp_whole + mlp_split >= att_whole + att_split;
	double tok = layers * x->budget * 2.0;	/* 16-bit */
	x->act_whole = tok * (mlp ? mlp_whole : att_whole);
	x->act_split = tok * (mlp ? mlp_split : att_split);
}

static double share_of_peak(const struct catalog_accel *a, enum precision p)
{
	return p == PREC_FP4 && a->eff_compute_fp4.value > 0 ? a->eff_compute_fp4.value : a->eff_compute.value;
}

/* The output head's products, at 16 bits, over the GEMMs' rate (BF16's
 * peak and the compute share, FP16's on a card without BF16); 1 where
 * the GEMMs are 16-bit already or the card gives neither. */
static double head_rate(const struct catalog_accel *a, const struct eng_precision *p, double eff)
{
	double h = a->peak_tflops[PREC_BF16] > 0 ? a->peak_tflops[PREC_BF16] : a->peak_tflops[PREC_FP16];
	double g = p->peak_flops / 1e12 * eff;
	if (!(h > 0) || !(g > 0))
		return 1;
	return eng_fmin(1.0, h * a->eff_compute.value / g);
}

/* The attention's products at their own format's peak and share, over the
 * GEMMs' (FP8 beside fp4 GEMMs, eng_precision; 1 when the format is the
 * same); the stack's factor and the power clock apply to both alike. */
static double attention_rate(const struct ictx *x)
{
	const struct eng_precision *p = &x->pr;
	double gemm = p->peak_flops * share_of_peak(x->a, p->compute);
	if (p->attn_compute == p->compute || !(gemm > 0))
		return 1;
	return p->attn_peak_flops * share_of_peak(x->a, p->attn_compute) / gemm;
}

/* The fixed costs of a step and of each layer: the serving stack's own
 * where it has them, the defaults' otherwise. */
static void fixed_costs(struct ictx *x, const struct catalog_defaults *d, const struct catalog_stack_platform *on)
{
	double step_us = on && on->step_overhead_us.value > 0 ? on->step_overhead_us.value
							      : d->serving_step_overhead_us.value;
	double layer_us = on && on->layer_overhead_us.value > 0 ? on->layer_overhead_us.value
								: d->serving_layer_overhead_us.value;
	x->fixed = (step_us + x->m->layers * layer_us) * 1e-6;
	x->iter_fixed = step_us * 1e-6;
}

static bool ctx_init(const struct catalog *c, const struct workload *w,
		     const struct catalog_accel *a, const struct catalog_partition *part, struct ictx *x)
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
	/* the share of peak at fp4 where the catalog has one (Blackwell) */
	double eff = share_of_peak(a, x->pr.compute);
	/* the experts' own format (mxfp4): their peak at its share, over the
	 * rest's; 1 for every format that quantises the whole model */
	x->xrate = x->pr.peak_flops > 0 && eff > 0
		   ? x->pr.expert_peak_flops * share_of_peak(a, x->pr.expert_compute) / (x->pr.peak_flops * eff) : 1;
	/* a mixed checkpoint: each share of the weights multiplied at its own
	 * format's rate (its peak at the catalog's share of it) */
	x->wmix = 1;
	if (x->pr.wide_share > 0 && eff > 0 && x->pr.wide_peak_flops > 0) {
		double wide = x->pr.wide_peak_flops * share_of_peak(a, x->pr.wide);
		x->wmix = 1.0 - x->pr.wide_share + x->pr.wide_share * x->pr.peak_flops * eff / wide;
	}
	x->head_p = (double)x->m->vocab * x->m->hidden;
	x->head_rate = head_rate(a, &x->pr, eff);
	/* the serving stack's share of what the accelerator reached on its
	 * vendor's default stack, and its own fixed costs where it has them */
	const struct catalog_stack_platform *on = NULL;
	x->stack = engine_serving_stack(c, w, a, &on);
	if (on)
		eff *= on->compute.value;
	x->kv_free = on ? on->kv_free_fraction.value : 0;
	x->window_kept = on ? on->window_kv_kept.value : 0;
	x->dep_searched = on && on->attention_dp.value > 0;
	x->flops = x->pr.peak_flops * eff * eng_power_clock(c, a);
	x->ov = d->serving_overlap.value;
	x->moe_gemm = d->moe_grouped_gemm_efficiency.value > 0 ? d->moe_grouped_gemm_efficiency.value : 1;
	x->part = part;
	if (part)
		eng_partition_scale(a, part, &x->usable, &x->bw, &x->flops);
	if (x->kv_free > 0 && a->mem_usable_fraction > 0)
		x->usable /= a->mem_usable_fraction;
	x->pflops = x->flops * (d->prefill_efficiency.value > 0 ? d->prefill_efficiency.value : 1);
	double arate = attention_rate(x);
	x->aflops = x->flops * arate;
	x->apflops = x->pflops * arate;
	x->lat = d->collective_latency_us.value * 1e-6;
	fixed_costs(x, d, on);
	x->budget = w->token_budget > 0		    ? (double)w->token_budget
		    : d->prefill_chunk_tokens.value >= 1 ? d->prefill_chunk_tokens.value
							 : 8192;
	x->open = w->concurrency_max || w->arrival_rate > 0;
	x->window = w->harness_window_ms * 1e-3;
	x->separate = w->prefill == PREFILL_SEPARATE;
	x->blk = w->scheduler_steps > 1 ? (double)w->scheduler_steps : 1.0;
	bool moe = x->m->experts > 0;
	x->workspace = (moe ? d->serving_workspace_moe_gb.value : d->serving_workspace_gb.value) * ENG_GB;
	if (on && on->activation_layers.value > 0 && !moe)
		activation_buffers(x, on->activation_layers.value);
	x->reserve1 = d->runtime_reserve_tp1_gb.value * ENG_GB;
	x->reserve_n = d->runtime_reserve_tp_gb.value * ENG_GB;
	x->I = (double)w->input_tokens;
	x->O = (double)w->output_tokens;
	x->ctx_full = x->I + x->O;
	/* a decode step's sequences on average (eng_decode_ctx_mean()): the
	 * attention work and the KV read and held per sequence follow it */
	x->ctx_mean = eng_decode_ctx_mean(w);
	x->pa = eng_params_active(x->m);
	x->attn_mean = eng_attn_flops_serving(x->m, x->ctx_mean, true);
	/* A prefix-cache hit skips the prompt's first h x I tokens (their KV
	 * is reused); the rest still attend to the whole prompt before them.
	 * KV memory is not reduced: how many requests share a prefix is not
	 * given, so each sequence keeps its own. */
	x->Ip = w->decode_only ? 0 : x->I * (1.0 - w->prefix_cache_hit);
	x->attn_pre = eng_attn_flops_serving(x->m, x->I - x->Ip / 2.0, false);
	eng_spec_init(w, x->pr.kv_bytes, &x->spec);
	const struct catalog_model *m = x->m;
	x->moe_experts = eng_params_experts(m);
	if (x->moe_experts > 0) {
		x->moe_shared = m->params - x->moe_experts;
		x->moe_log = log1p(-(double)m->experts_active / m->experts);
		x->moe_shared_active = x->moe_shared;
	}
	const struct catalog_platform *big = eng_platform_biggest(c, w, a, &x->node_max);
	int max_tp = d->max_tp.value >= 1 ? (int)d->max_tp.value : 8;
	int reach = a->link_domain > x->node_max ? a->link_domain : x->node_max;
	x->reach = reach;
	x->tmax = reach < max_tp ? reach : max_tp;
	if (x->tmax < 1 || part)
		x->tmax = 1;	/* a MIG instance has no peer-to-peer link */
	x->fixed_gpus = w->accel == a && w->gpus > 0 ? w->gpus : 0;
	x->batch_cap = w->accel == a && w->batch > 0 ? w->batch : 0;
	/* an arrival rate brings its own users (Little's law) */
	x->n_users = w->concurrency_max || w->arrival_rate > 0 ? 0 : w->concurrency;
	x->plat = big;
	x->link_bw2 = eng_link_bw(c, a, big, 2);
	x->nic_bw = NAN;	/* looked up only if a replica spans nodes */
	return x->node_max > 0 && x->flops > 0 && x->bw > 0;
}

/* GPUs a layout needs under the fixed-concurrency constraints in `mask`
 * (which targets count), or -1 when it cannot meet them; *b_out gets the
 * batch each replica runs. */
enum { C_SPEED = 1, C_TTFT = 2, C_TPUT = 4, C_ALL = 7 };

/* A per-user speed or a first-token target: the batch is capped by both
 * at its load (ilayout.btps). */
static bool targets(const struct ictx *x)
{
	return x->w->tokens_per_s_per_user > 0 || x->w->ttft_ms > 0;
}

static long gpus_for(const struct ictx *x, const struct ilayout *l, int mask, long *b_out, long *rep_out)
{
	if (l->bmem < 1)
		return -1;
	if ((mask & C_TTFT) && !l->ttft_ok)
		return -1;
	long b = l->bmem;
	if ((mask & C_SPEED) && targets(x)) {
		if (l->btps < 1)
			return -1;
		if (l->btps < b)
			b = l->btps;
	}
	if (x->n_users > 0 && x->n_users < b)
		b = x->n_users;
	long rep = x->n_users > 0 ? eng_ceil_div(x->n_users, b) : 1;
	if ((mask & C_TPUT) && x->w->arrival_rate > 0) {
		double cap = rate_at(x, l, (double)b);
		if (!(cap > 0))
			return -1;
		double need = ceil(x->w->arrival_rate / cap);
		if (need > ENG_MAX_GPUS)
			return -1;
		if ((long)need > rep)
			rep = (long)need;
	}
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
	bool speed = targets(x);
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
 * time the others' prompts add to a user's O steps (see mean_step()),
 * which the binding test needs too. */
static double fill_common(const struct ictx *x, const struct ilayout *l, long b, long rep,
			  struct engine_result *r)
{
	struct istep s, d;
	struct iload o;
	mean_step(x, l, (double)b, &s);
	iter_step(x, l, (double)b, 0, false, &d);	/* decode alone, for the split */
	load_at(x, l, (double)b, &o, true);
	r->tp = l->t;
	r->pp = l->pp;
	r->dp = (int)rep;
	r->ep = l->e;
	r->attention_dp = l->dp;
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
	r->tokens_per_s_per_user = s.total > 0 ? 1.0 / s.total : 0;
	r->tpot_p99_ms = o.tau99 * 1000.0;
	r->ttft_ms = l->ttft_s * 1000.0;
	r->ttft_p50_ms = o.ttft50 * 1000.0;
	r->ttft_p99_ms = o.ttft99 * 1000.0;
	r->arrival_rate = o.lambda * rep;
	/* the prompt tokens' share of a batch's O steps */
	r->prefill_s = x->O * (s.total - d.total);
	double tput = s.total > 0 ? (double)b / s.total : 0;
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
	return r->prefill_s;
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

/* A replica's name in reasons: TPn, or DEPn for attention data parallel */
static const char *lay_kind(const struct ilayout *l)
{
	return l->dp ? "DEP" : "TP";
}

/* What a replica's collectives are, the path they take (the GPU link, or
 * past its domain the NICs: DEP across nodes) and their share of a step,
 * for the reasons that name the link. */
static const char *link_ops(const struct ilayout *l)
{
	return l->dp ? "all-to-alls" : "all-reduces";
}

static const char *link_path(const struct ictx *x, const struct ilayout *l)
{
	return l->dp && l->t > x->reach ? "the NICs" : link_name(x, l->t);
}

static long link_share(const struct engine_result *r)
{
	return eng_l(100.0 * r->t_comm_s * 1000.0 / r->step_ms);
}

static void reason_link(const struct ictx *x, const struct ilayout *l, struct engine_result *r)
{
	eng_reason(r, "%s%d %s over %s take %ld%% of each decode step", lay_kind(l), l->t, link_ops(l),
		   link_path(x, l), link_share(r));
}

static void reason_fallback(const struct ictx *x, struct engine_result *r)
{
	double req_gb = x->m->params * precision_bytes(x->pr.requested) / ENG_GB;
	double used_gb = x->m->params * x->pr.weight_bytes / ENG_GB;
	eng_reason(r, "no %s on %s: runs at %s, so the weights take %F GB instead of %F GB",
		   precision_name(x->pr.requested), x->a->name, precision_name(x->pr.used), used_gb, req_gb);
}

/* ---- a given number of users: size, then bind, then explain ---- */

/* The user fixed the GPU count and gave an arrival rate: the layout
 * inside it that carries the most requests/s at the targets, the load
 * spread over its replicas. */
static void size_fixed_rate(const struct ictx *x, struct ilayout *ls, int n, struct engine_result *r)
{
	const struct workload *w = x->w;
	int li = -1;
	double best = 0;
	for (int i = 0; i < n; i++) {
		const struct ilayout *l = &ls[i];
		if (l->g > x->fixed_gpus || l->bmem < 1 || !l->ttft_ok || (targets(x) && l->btps < 1))
			continue;
		long cap = targets(x) && l->btps < l->bmem ? l->btps : l->bmem;
		double rate = rate_at(x, l, (double)cap) * (x->fixed_gpus / l->g);
		if (li < 0 || rate > best * 1.0001) {
			li = i;
			best = rate;
		}
	}
	if (li < 0) {
		r->fits = false;
		r->binding = RES_COMPUTE;
		eng_reason(r, "%d GPU%s cannot meet the per-user targets at any load", x->fixed_gpus,
			   eng_s(x->fixed_gpus));
		fill_common(x, &ls[0], 1, 1, r);
		return;
	}
	const struct ilayout *l = &ls[li];
	long cap = targets(x) && l->btps < l->bmem ? l->btps : l->bmem;
	long rep = x->fixed_gpus / l->g;
	long b = batch_for_rate(x, l, w->arrival_rate / rep, cap);
	fill_common(x, l, b, rep, r);
	r->fits = best >= w->arrival_rate;
	r->binding = targets(x) && l->btps < l->bmem ? RES_COMPUTE : RES_MEMORY;
	if (!r->fits)
		eng_reason(r, "%d GPU%s carry at most %F of the %G req/s (%ld replica%s of %s%d, batch %ld each)",
			   x->fixed_gpus, eng_s(x->fixed_gpus), best, w->arrival_rate, rep, eng_s(rep), lay_kind(l), l->t,
			   cap);
	else
		eng_reason(r, "%d GPU%s as chosen: %ld replica%s of %s%d carry %G req/s at %ld sequences each "
			   "(up to %F req/s)", x->fixed_gpus, eng_s(x->fixed_gpus), rep, eng_s(rep), lay_kind(l), l->t,
			   w->arrival_rate, b, best);
}


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
		if (targets(x) && ls[i].btps < cap)
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
			/* the row shows that layout, as no_layout_fits() does */
			fill_common(x, &ls[k], 1, 1, r);
			r->mem_required_gb = x->m->params * x->pr.weight_bytes / ENG_GB;
			reason_no_fit(x, &ls[k], r);
		} else
			eng_reason(r, "%d GPU%s cannot meet the %s", x->fixed_gpus, eng_s(x->fixed_gpus),
				   w->tokens_per_s_per_user > 0 ? "per-user speed (p99) and TTFT targets"
								: "TTFT target (p99, at its load)");
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
		r->binding = ls[li].btps < ls[li].bmem && targets(x) ? RES_BANDWIDTH
											 : RES_MEMORY;
		eng_reason(r, "%d GPU%s serve%s %ld of the %ld users (%ld per %s%d replica)",
			   x->fixed_gpus, eng_s(x->fixed_gpus), x->fixed_gpus == 1 ? "s" : "",
			   best_cap, x->n_users, cap, lay_kind(&ls[li]), ls[li].t);
		return;
	}
	r->fits = true;
	r->binding = RES_MEMORY;
	eng_reason(r, "%d GPU%s as chosen: %ld replica%s of %s%d, up to %ld user%s each", x->fixed_gpus,
		   eng_s(x->fixed_gpus), rep, eng_s(rep), lay_kind(&ls[li]), ls[li].t, cap, eng_s(cap));
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
		int bt = 0;
		for (int i = 0; i < n; i++) {
			struct iload o;
			load_at(x, &ls[i], 1, &o, false);
			if (1.0 / o.tau99 > best_tps) {
				best_tps = 1.0 / o.tau99;
				bt = i;
			}
		}
		r->binding = RES_BANDWIDTH;
		eng_reason(r, "%G tok/s per user is out of reach: at most %F tok/s (%s%d, one user)",
			   w->tokens_per_s_per_user, best_tps, lay_kind(&ls[bt]), ls[bt].t);
	} else if (lt < 0) {
		double best = INFINITY;
		int bt = 1;
		for (int i = 0; i < n; i++)
			if (ls[i].ttft_s < best) {
				best = ls[i].ttft_s;
				bt = ls[i].t;
			}
		r->binding = RES_COMPUTE;
		eng_reason(r, "TTFT %G ms for %ld input token%s is out of reach: %F ms at best (TP%d)",
			   w->ttft_ms, w->input_tokens, eng_s(w->input_tokens), best * 1000.0, bt);
	} else {
		r->binding = RES_COMPUTE;
		eng_reason(r, "%G tok/s needs more than %d GPUs", w->target_tokens_per_s, ENG_MAX_GPUS);
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
 * when reading weights and KV outweighs the math of the step, the other
 * users' prompts prefilled in it included; the interconnect binds instead
 * when all-reduces eat the step of a replica sized for speed or throughput
 * (when memory or a first-token target chose the group, that stays the
 * reason: a prefill is compute). */
static bool ttft_only(const struct ictx *x)
{
	return !(x->w->tokens_per_s_per_user > 0) && x->w->ttft_ms > 0;
}

static enum resource bind(const struct ictx *x, enum driver d, const struct engine_result *r)
{
	bool bw_bound = r->t_memory_s >= r->t_compute_s;
	bool ttft = d == DRIVER_TTFT || (d == DRIVER_SPEED && ttft_only(x));
	enum resource res = d == DRIVER_MEMORY ? RES_MEMORY
			  : ttft ? RES_COMPUTE
			  : bw_bound ? RES_BANDWIDTH : RES_COMPUTE;
	if (d != DRIVER_MEMORY && !ttft && link_binds(x, r))
		return RES_INTERCONNECT;
	return res;
}

/* The reason, for a customer, of the resource that binds. */
static void explain(const struct ictx *x, const struct ilayout *l, enum driver d, long b,
		    struct engine_result *r)
{
	const struct workload *w = x->w;
	bool bw = r->binding == RES_BANDWIDTH;
	if (w->arrival_rate > 0 && !(d == DRIVER_THROUGHPUT && w->target_tokens_per_s > 0) &&
	    r->binding != RES_INTERCONNECT) {
		bool capped = targets(x) && l->btps < l->bmem;
		double cap = rate_at(x, l, (double)(capped ? l->btps : l->bmem));
		eng_reason(r, "%G req/s needs %d %s%d replica%s of at most %F req/s each (%s); "
			   "they run %ld sequences at that load",
			   w->arrival_rate, r->replicas, lay_kind(l), l->t, eng_s(r->replicas), cap,
			   capped ? "batch capped by the p99 targets" : "batch capped by KV memory", b);
	} else if (r->binding == RES_INTERCONNECT && d == DRIVER_SPEED && l->btps < x->n_users && ttft_only(x)) {
		eng_reason(r, "TTFT %G ms at p99 under load caps a %s%d replica at %ld user%s: %s%d %s over %s "
			   "take %ld%% of each decode step; %d replica%s",
			   w->ttft_ms, lay_kind(l), l->t, l->btps, eng_s(l->btps), lay_kind(l), l->t, link_ops(l),
			   link_path(x, l), link_share(r), r->replicas, eng_s(r->replicas));
	} else if (r->binding == RES_INTERCONNECT && d == DRIVER_SPEED && l->btps < x->n_users) {
		eng_reason(r, "%G tok/s per user at p99 caps a %s%d replica at %ld user%s: %s%d %s over %s "
			   "take %ld%% of each decode step; %d replica%s",
			   w->tokens_per_s_per_user, lay_kind(l), l->t, l->btps, eng_s(l->btps), lay_kind(l), l->t,
			   link_ops(l), link_path(x, l), link_share(r), r->replicas, eng_s(r->replicas));
	} else if (r->binding == RES_INTERCONNECT) {
		reason_link(x, l, r);
	} else if (d == DRIVER_THROUGHPUT) {
		eng_reason(r, "%G output tok/s needs %d replica%s of %F tok/s (%s-bound at batch %ld)",
			   w->target_tokens_per_s, r->replicas, eng_s(r->replicas),
			   r->output_tokens_per_s / r->replicas, bw ? "bandwidth" : "compute", b);
	} else if (d == DRIVER_TTFT) {
		eng_reason(r, "TTFT %G ms for %ld input token%s needs %s%d: %F ms at %ld TFLOPS %s",
			   w->ttft_ms, w->input_tokens, eng_s(w->input_tokens), lay_kind(l), l->t,
			   r->ttft_ms, eng_l(x->pr.peak_flops / 1e12), precision_name(x->pr.compute));
	} else if (d == DRIVER_SPEED && ttft_only(x)) {
		eng_reason(r, "TTFT %G ms at p99 under load caps a %s%d replica at %ld user%s: %d replica%s",
			   w->ttft_ms, lay_kind(l), l->t, l->btps, eng_s(l->btps), r->replicas, eng_s(r->replicas));
	} else if (d == DRIVER_SPEED) {
		eng_reason(r, "%G tok/s per user at p99 caps a %s%d replica at %ld user%s (%s): %d replica%s",
			   w->tokens_per_s_per_user, lay_kind(l), l->t, l->btps, eng_s(l->btps),
			   bw ? "memory-bandwidth-bound" : "compute-bound, prompts included",
			   r->replicas, eng_s(r->replicas));
	} else {
		double wgb = x->m->params * x->pr.weight_bytes / ENG_GB;
		double kvgb = x->n_users * eng_kv_seq_stored_gpu(x->m, x->pr.kv_bytes, 1, x->ctx_full, x->window_kept) / ENG_GB;
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
	if (x->fixed_gpus && x->w->arrival_rate > 0) {
		size_fixed_rate(x, ls, n, r);
		return;
	}
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
	/* An arrival rate spreads over the replicas and sets their batch;
	 * without a throughput target the users spread over them. */
	if (x->w->arrival_rate > 0)
		b = batch_for_rate(x, &ls[li], x->w->arrival_rate / rep, b);
	else if (!(x->w->target_tokens_per_s > 0))
		b = eng_ceil_div(x->n_users, rep);
	fill_common(x, &ls[li], b, rep, r);
	r->fits = true;
	enum driver d = what_drove(x, ls, n, g_final);
	r->binding = bind(x, d, r);
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
		if (targets(x)) {
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
		/* the layout closest to the targets, alone */
		eng_reason(r, "no layout meets the per-user speed and TTFT targets%s",
			   x->fixed_gpus ? " within the chosen GPU count" : "");
		long b = ls[0].bmem > 0 ? ls[0].bmem : 1;
		fill_common(x, &ls[0], b, 1, r);
		return;
	}
	const struct ilayout *l = &ls[li];
	long b = l->bmem;
	bool capped = targets(x) && l->btps < b;	/* the targets bind, not memory */
	if (capped)
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
		eng_reason(r, "%G tok/s needs more than %d GPUs", w->target_tokens_per_s, ENG_MAX_GPUS);
		fill_common(x, l, b, 1, r);
		return;
	}
	fill_common(x, l, b, rep, r);
	r->fits = true;
	bool compute_bound = r->t_compute_s > r->t_memory_s;
	double kv_read = b * l->kv_mean_gpu / x->bw;
	bool speed_binds = false;
	if (capped && w->tokens_per_s_per_user > 0) {
		struct iload o;
		load_at(x, l, (double)b + 1, &o, false);
		speed_binds = o.tau99 * w->tokens_per_s_per_user > 1.0;
	}
	/* When a target caps the batch, the reason says so first (it is what
	 * the customer can change), then what makes the step long: the link
	 * when its share binds, else compute or bandwidth. */
	bool link = link_binds(x, r);
	if (speed_binds && link) {
		r->binding = RES_INTERCONNECT;
		eng_reason(r, "%G tok/s per user at p99 (%F ms per token) caps a %s%d replica at %ld of the %ld "
			   "sequences its memory holds: %s%d %s over %s take %ld%% of each decode step",
			   w->tokens_per_s_per_user, 1000.0 / w->tokens_per_s_per_user, lay_kind(l), l->t, b, l->bmem,
			   lay_kind(l), l->t, link_ops(l), link_path(x, l), link_share(r));
	} else if (speed_binds) {
		r->binding = compute_bound ? RES_COMPUTE : RES_BANDWIDTH;
		eng_reason(r, "%G tok/s per user at p99 (%F ms per token) caps a %s%d replica at %ld of the %ld "
			   "sequences its memory holds (%s)",
			   w->tokens_per_s_per_user, 1000.0 / w->tokens_per_s_per_user, lay_kind(l), l->t, b, l->bmem,
			   compute_bound ? "compute-bound, prompts included" : "memory-bandwidth-bound");
	} else if (capped && link) {
		r->binding = RES_INTERCONNECT;
		eng_reason(r, "TTFT %G ms at p99 under load caps a %s%d replica at %ld of the %ld sequences "
			   "its memory holds: %s%d %s over %s take %ld%% of each decode step",
			   w->ttft_ms, lay_kind(l), l->t, b, l->bmem,
			   lay_kind(l), l->t, link_ops(l), link_path(x, l), link_share(r));
	} else if (capped) {
		r->binding = RES_COMPUTE;
		eng_reason(r, "TTFT %G ms at p99 under load caps a %s%d replica at %ld of the %ld sequences "
			   "its memory holds", w->ttft_ms, lay_kind(l), l->t, b, l->bmem);
	} else if (link) {
		r->binding = RES_INTERCONNECT;
		reason_link(x, l, r);
	} else if (compute_bound) {
		r->binding = RES_COMPUTE;
		eng_reason(r, "compute-bound: %ld sequence%s per %s%d replica keep%s %ld TFLOPS %s busy",
			 b, eng_s(b), lay_kind(l), l->t, b == 1 ? "s" : "", eng_l(x->pr.peak_flops / 1e12),
			 precision_name(x->pr.compute));
	} else if (kv_read > r->t_memory_s / 2) {
		r->binding = RES_BANDWIDTH;
		eng_reason(r, "bandwidth-bound: reading the KV cache of %ld sequence%s takes most of each %F ms step",
			   b, eng_s(b), r->step_ms);
	} else {
		r->binding = RES_MEMORY;
		eng_reason(r, "memory-bound: KV room for only %ld sequence%s per %s%d replica (%F GB free per GPU)",
			   b, eng_s(b), lay_kind(l), l->t, kv_room(x, l) / ENG_GB);
	}
}

/* A layout the user forces on the chosen accelerator (--tp, --pp, --ep);
 * 0 = the engine searches. */
struct iforce {
	int tp, pp, ep;
	bool dp;		/* --attention-dp */
};

/* Appends a layout; returns whether it holds at least one sequence. */
static bool add_layout(struct ictx *x, int t, int pp, int e, bool dp, struct ilayout *ls, int *n)
{
	layout_init(x, t, pp, e, dp, &ls[*n]);
	return ls[(*n)++].bmem >= 1;
}

/* Attention data parallel with expert parallel (DEP, as TensorRT-LLM's
 * DEPn and vLLM's data-parallel attention run it): e GPUs, each its own
 * sequences with the attention whole, the experts spread e ways, inside
 * a node or across nodes (the all-to-all then over the NICs).  Run when
 * --attention-dp forces it, and searched on a stack that runs it when no
 * degree is forced. */
static int dep_layouts(struct ictx *x, const struct iforce *f, struct ilayout *ls, int n, bool *any_fit)
{
	if (!(x->m->experts > 0 && x->moe_log != 0) || x->part || (f->ep && !f->dp) || (f->tp && f->tp != f->ep))
		return n;
	for (int e = 2; e <= x->m->experts && e <= ENG_MAX_GPUS && n < MAX_LAYOUTS; e *= 2) {
		if (x->m->experts % e || (f->ep && e != f->ep) || (x->fixed_gpus && e > x->fixed_gpus))
			continue;
		if (e > x->reach) {
			x->nic_bw = eng_nic_bw(x->c, x->w, x->plat);
			if (!(x->nic_bw > 0))
				break;
		}
		*any_fit |= add_layout(x, e, 1, e, true, ls, &n);
	}
	return n;
}

/* Every valid TP degree inside the node, as serving engines run (MLPerf
 * submitters use TP even across PCIe cards).  A mixture of experts also
 * runs each TP group as expert parallel: the experts whole on the t GPUs
 * (when t divides them), attention still tensor-parallel; --ep picks one
 * (1 = experts split by TP).  Sets *t_top to the largest degree tried. */
static int tp_layouts(struct ictx *x, const struct iforce *f, struct ilayout *ls, int *t_top, bool *any_fit)
{
	int n = 0;
	bool moe = x->m->experts > 0 && x->moe_log != 0;
	for (int t = 1; t <= x->tmax && n < MAX_LAYOUTS - 1; t *= 2) {
		if (!eng_tp_valid(x->m, t) || (f->tp && t != f->tp))
			continue;
		*t_top = t;
		if (f->dp)
			continue;
		if (!(f->ep > 1))
			*any_fit |= add_layout(x, t, 1, 1, false, ls, &n);
		if (moe && t > 1 && x->m->experts % t == 0 && (!f->ep || f->ep == t))
			*any_fit |= add_layout(x, t, 1, t, false, ls, &n);
	}
	return n;
}

/* Whether a TP group of t GPUs holds more than 1/t of a sequence's KV
 * cache each (the heads it cannot split are replicated). */
static bool kv_replicated(const struct catalog_model *m, int t)
{
	return t > 1 && eng_kv_seq_bytes_gpu(m, 1, t, 1) * t > eng_kv_seq_bytes_gpu(m, 1, 1, 1) * 1.0001;
}

/* The layouts to size: tensor-parallel groups inside a node, pipeline
 * stages across nodes only when no node holds the model (or --pp asks).
 * Returns how many, or -1 when a forced layout is impossible (the reason
 * is in r). */
static int build_layouts(struct ictx *x, const struct iforce *f, struct ilayout *ls, bool *any_fit,
			 struct engine_result *r)
{
	int n = 0, t_top = 1;
	*any_fit = false;
	if (f->tp && (!eng_tp_valid(x->m, f->tp) || f->tp > x->tmax)) {
		eng_reason(r, "TP%d is not a valid tensor-parallel degree for %s on %s (heads, KV heads and FFN "
			   "must divide, inside one node of %d)", f->tp, x->m->name, x->a->name, x->tmax);
		return -1;
	}
	if (f->dp) {
		n = dep_layouts(x, f, ls, 0, any_fit);
		if (n > 0)
			return n;
	}
	if (!f->pp && !f->dp)
		n = tp_layouts(x, f, ls, &t_top, any_fit);
	if (f->dp && n == 0) {
		eng_reason(r, "attention data parallel needs a mixture-of-experts model, --ep N with N a power of "
			   "two dividing its experts, no --pp, and --tp (if given) equal to N");
		return -1;
	}
	if (f->ep > 1 && n == 0 && !f->pp) {
		eng_reason(r, "EP%d needs a mixture-of-experts model whose experts it divides, on a TP%d group "
			   "(attention stays tensor-parallel over the same GPUs)", f->ep, f->ep);
		return -1;
	}
	if (x->part)
		return n;	/* a MIG instance holds a whole replica: no pipeline */
	if (f->pp) {
		x->nic_bw = eng_nic_bw(x->c, x->w, x->plat);
		t_top = f->tp ? f->tp : x->tmax;
		while (t_top > 1 && !eng_tp_valid(x->m, t_top))
			t_top /= 2;
		*any_fit |= add_layout(x, t_top, f->pp, 1, false, ls, &n);
		return n;
	}
	if (!*any_fit)
		x->nic_bw = eng_nic_bw(x->c, x->w, x->plat);
	for (int pp = 2; !*any_fit && pp <= 64 && n < MAX_LAYOUTS; pp *= 2) {
		if (t_top * pp > ENG_MAX_GPUS || (x->fixed_gpus && t_top * pp > x->fixed_gpus))
			break;
		if (pp > x->m->layers || !(x->nic_bw > 0))
			break;
		*any_fit |= add_layout(x, t_top, pp, 1, false, ls, &n);
	}
	/* DEP beside them where the stack runs it, no degree is forced, and
	 * the TP groups replicate the KV cache (fewer KV heads than GPUs:
	 * MLA's one latent), which attention DP partitions by request
	 * (TensorRT-LLM's parallel-strategy guide, serving-stacks/
	 * tensorrt-llm.yaml attention_dp).  Where TP splits the cache, DEP
	 * only shards the experts a TP-EP group already shards, and its
	 * figures run over the published ones (docs/accuracy.md), so it is
	 * not offered on that margin.  After the pipelines, which are tried
	 * only when no TP group holds the model. */
	if (x->dep_searched && !f->tp && !f->ep && kv_replicated(x->m, t_top))
		n = dep_layouts(x, f, ls, n, any_fit);
	return n;
}

/* No layout holds even one sequence: show the largest tried, or with
 * --gpus the largest inside the GPUs given, so the figures match what the
 * user asked. */
static void no_layout_fits(const struct ictx *x, const struct ilayout *ls, int n, struct engine_result *r)
{
	int k = n - 1;
	if (x->fixed_gpus)
		for (int i = 0; i < n; i++)
			if (ls[i].g <= x->fixed_gpus && (ls[k].g > x->fixed_gpus || ls[i].g >= ls[k].g))
				k = i;
	r->fits = false;
	r->binding = RES_MEMORY;
	fill_common(x, &ls[k], 1, 1, r);
	r->mem_required_gb = x->m->params * x->pr.weight_bytes / ENG_GB;
	reason_no_fit(x, &ls[k], r);
}

void eng_infer(const struct catalog *c, const struct workload *w,
	       const struct catalog_accel *a, struct engine_result *r)
{
	eng_infer_on(c, w, a, NULL, r);
}

void eng_infer_on(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
		  const struct catalog_partition *part, struct engine_result *r)
{
	struct ictx x;
	r->precision_used = w->precision;
	r->serving_stack = engine_serving_stack(c, w, a, NULL);
	if (w->serving_stack >= 0 && !r->serving_stack) {
		/* eng_filters() names the stack and the platform */
		const char *id = serving_stack_name((enum serving_stack)w->serving_stack);
		const struct catalog_serving_stack *s = catalog_serving_stack(c, id);
		r->fits = false;
		r->binding = RES_NONE;
		eng_reason(r, "%s does not run on %s accelerators%s", s ? s->name : id, stack_name(a->stack),
			   s ? "" : " (it is not in the catalog's serving-stacks/)");
		return;
	}
	if (!ctx_init(c, w, a, part, &x)) {
		r->fits = false;
		r->binding = RES_NONE;
		eng_reason(r, "%s", x.node_max > 0
			 ? "the catalog gives no usable peak, bandwidth or efficiency for this accelerator"
			 : "no server (platform) for this accelerator in the catalog");
		return;
	}
	r->precision_used = x.pr.used;
	r->precision_fallback = x.pr.fallback;
	r->serving_stack = x.stack;
	if (x.spec.k > 0) {
		r->spec_k = x.spec.k;
		r->spec_acceptance = w->spec_acceptance;
		r->spec_tokens_per_step = x.spec.gain;
	}

	bool mine = w->accel == a;
	struct iforce f = { mine && w->tp > 0 ? w->tp : 0, mine && w->pp > 0 ? w->pp : 0,
			    mine && w->ep > 0 ? w->ep : 0, mine && w->attention_dp };
	struct ilayout ls[MAX_LAYOUTS];
	bool any_fit;
	int n = build_layouts(&x, &f, ls, &any_fit, r);
	if (n <= 0) {
		r->fits = false;
		r->binding = RES_NONE;
		if (n == 0)
			eng_reason(r, "no valid tensor-parallel degree for this model");
		return;
	}
	if (!any_fit) {
		no_layout_fits(&x, ls, n, r);
		return;
	}
	if (w->concurrency_max && !(w->arrival_rate > 0))
		size_max(&x, ls, n, r);
	else
		size_fixed(&x, ls, n, r);
	if (r->fits && x.pr.fallback) {
		r->binding = RES_PRECISION;
		reason_fallback(&x, r);
	}
}
