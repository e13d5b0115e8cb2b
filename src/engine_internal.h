/*
 * engine_internal: what the engine's files share and nobody else sees.
 *
 * The engine is split by job: names (enum <-> text), workload (what the
 * workload needs, independent of the hardware), precision, infer and train
 * (sizing one accelerator), node (platform, node count, fabric), cost (capex,
 * power, cost per token), rank (binding constraint, filters, ranking,
 * engine_run) and plan (the validation plan).  Everything here is pure: no
 * I/O, no globals, no allocation.
 */
#ifndef ACCELSIZER_ENGINE_INTERNAL_H
#define ACCELSIZER_ENGINE_INTERNAL_H

#include <math.h>
#include <stddef.h>

#include "engine.h"

#define ENG_GB 1e9		/* the catalog's GB are decimal, as datasheets print them */
#define ENG_HOURS_PER_YEAR 8766.0	/* 365.25 days */
#define ENG_MAX_GPUS 65536	/* largest cluster the engine sizes */

/* The precision an accelerator actually runs a workload at. */
struct eng_precision {
	enum precision requested;
	enum precision used;		/* storage and compute after any fallback */
	bool fallback;			/* used != requested because of the hardware */
	double weight_bytes;		/* per stored weight, the model's mean */
	double kv_bytes;		/* per stored KV value */
	double peak_flops;		/* dense, FLOP/s, at the compute precision */
	enum precision compute;		/* whose peak is used (int4 -> bf16) */
	/* A format that quantises only the routed experts (mxfp4, as gpt-oss
	 * ships) stores and multiplies them apart from the rest; for every
	 * other format these equal weight_bytes, compute and peak_flops. */
	double shared_bytes;		/* per weight outside the routed experts */
	double expert_bytes;		/* per routed-expert weight */
	enum precision expert_compute;
	double expert_peak_flops;
	/* A mixed checkpoint (workload.effective_bits): the share of every
	 * weight kept in the wider format and that format's peak; 0 for a
	 * checkpoint in one format.  weight_bytes is then the split's mean. */
	double wide_share;
	enum precision wide;
	double wide_peak_flops;
	/* The attention's own products (the prompts' FMHA, the decode
	 * attention) in the format their kernels have: the compute format,
	 * but never 4-bit (FP8 beside NVFP4 GEMMs); its dense peak, FLOP/s. */
	enum precision attn_compute;
	double attn_peak_flops;
};

/* engine_precision.c */
void eng_precision_resolve(const struct workload *w, const struct catalog_accel *a,
			   struct eng_precision *out);
void eng_precision_resolve_train(const struct workload *w, const struct catalog_accel *a,
				 struct eng_precision *out);

/* engine_power.c: the share of its own peak clock a board sustains under
 * its power limit, against the best-powered part of its family (1 = all). */
double eng_power_clock(const struct catalog *c, const struct catalog_accel *a);

/* engine_spec.c: speculative decoding.  k drafted tokens a target step
 * checks (0 = none); gain the tokens a step yields; verify = k + 1 tokens
 * per sequence the target computes; the draft's reads and storage. */
struct eng_spec {
	int k;
	double gain, verify;
	bool mtp;			/* the target's own MTP modules */
	double params_read;		/* read by one draft forward pass */
	double weights;			/* draft parameters held beside the target's */
	double kv_per_token;		/* the draft's KV bytes per token */
	double layers;			/* the draft's layers (fixed costs) */
	double hidden;			/* its activations' width (all-reduces) */
	double cost;			/* draft token / target step, memory-bound */
};
void eng_spec_init(const struct workload *w, double kv_bytes, struct eng_spec *s);
void eng_spec_requirements(const struct workload *w, double kv_bytes, struct engine_requirements *out);

/* engine_workload.c: model arithmetic shared by inference and training. */
double eng_params_active(const struct catalog_model *m);
/* Total parameters counted from the model's shapes (embedding and output
 * head untied, attention with GQA or MLA, dense or MoE feed-forward with
 * shared experts and leading dense layers); norms and biases are left out.
 * A check of the catalog's published params_b, not a replacement for it. */
double eng_params_from_shapes(const struct catalog_model *m);
int eng_head_dim(const struct catalog_model *m);
/* KV bytes per token for the whole model, unsplit, at kv_bytes per value;
 * ctx is the context the token sits in (sliding-window layers cap it). */
double eng_kv_bytes_per_token(const struct catalog_model *m, double kv_bytes);
/* KV bytes per GPU for one sequence of ctx tokens at tensor parallel t. */
double eng_kv_seq_bytes_gpu(const struct catalog_model *m, double kv_bytes, int t, double ctx);
double eng_kv_seq_stored_gpu(const struct catalog_model *m, double kv_bytes, int t, double ctx, double kept);
/* Weights read per decode step for a batch of b sequences (MoE: the experts
 * b tokens touch), in parameters. */
double eng_params_read(const struct catalog_model *m, double b);
/* The routed experts' parameters, all of them (0 for a dense model). */
double eng_params_experts(const struct catalog_model *m);
/* Bytes of the model's weights (all, or the active ones) stored at p:
 * mxfp4 stores only the routed experts in 4 bit, the rest in bf16. */
double eng_weights_bytes(const struct catalog_model *m, enum precision p, bool active);
/* The context a decode token of w attends to on average: I + O/2 for
 * answers all alike, longer with their spread (output_cv). */
double eng_decode_ctx_mean(const struct workload *w);
/* Attention FLOPs for one token attending to ctx earlier tokens, forward. */
double eng_attn_flops_token(const struct catalog_model *m, double ctx);
/* The same as the serving stacks run it: MLA's context phase with its
 * heads expanded, its decode steps in the latent space (absorbed). */
double eng_attn_flops_serving(const struct catalog_model *m, double ctx, bool decode);
/* The same as training computes it: with multi-head latent attention the
 * queries and keys carry the decoupled RoPE dimensions too. */
double eng_attn_train_flops_token(const struct catalog_model *m, double ctx);
/* LoRA adapter parameters at rank r. */
double eng_adapter_params(const struct catalog_model *m, const struct catalog_defaults *d, int rank);
/* Activation bytes a layer stores per token at 16 bit with the attention
 * scores recomputed, in units of the hidden size: 34 (Korthikanti et al.
 * 2022), 24 for a frozen base whose adapters leave the MLP unwrapped. */
double eng_act_kept_h(const struct catalog_defaults *d, const struct workload *w);
double eng_act_none_extra_tok(const struct catalog_model *m);
/* Training FLOPs per token (model FLOPs, and hardware FLOPs with recompute). */
void eng_mtp_params(const struct workload *w, double *active_out, double *shared_out, double *experts_out);
void eng_train_flops_token(const struct workload *w, enum recompute rec, double *model_flops,
			   double *hw_flops);
/* Evaluation (forward-only) FLOPs per token. */
double eng_eval_flops_token(const struct workload *w);
/* Total training tokens (tokens x epochs for fine-tuning). */
double eng_train_tokens(const struct workload *w);
/* "70B", "8x7B"-free short size label: "70B", "1.5B", "405B". */
void eng_params_label(double params, char *buf, size_t bufsz);
bool eng_tp_valid(const struct catalog_model *m, int t);
double eng_base_bytes_per_param(const struct catalog *c, const struct workload *w);

/* engine_node.c */
struct eng_node {
	const struct catalog_platform *platform;
	const struct catalog_fabric *fabric;
	int nodes, spare_nodes, gpus_installed;
	int nics, leaf_switches, spine_switches, cables;
};
/* The platform for an accelerator holding a group of `group` GPUs that must
 * share a node (1 = any), for `gpus` GPUs in all: the lowest capex one. */
const struct catalog_platform *eng_platform_choose(const struct catalog *c, const struct workload *w,
						   const struct catalog_accel *a,
						   int group, int gpus);
/* eng_max_node_gpus() into *node_max and eng_platform_choose() for a
 * group of that many, from one look at the catalog. */
const struct catalog_platform *eng_platform_biggest(const struct catalog *c, const struct workload *w,
						    const struct catalog_accel *a, int *node_max);
/* Largest node an accelerator comes in (8 for HGX, 4 or 8 for PCIe). */
int eng_max_node_gpus(const struct catalog *c, const struct workload *w, const struct catalog_accel *a);
/* The platform needs liquid cooling (catalog 'cooling: liquid'). */
bool eng_platform_liquid(const struct catalog_platform *p);
/* The platform's NICs run this fabric kind (its nics.fabrics). */
bool eng_platform_runs(const struct catalog_platform *p, const char *kind);
/* The fabric kind the node is built with: --fabric's when the NICs run
 * it, else the first of the platform's nics.fabrics. */
const char *eng_fabric_kind(const struct workload *w, const struct catalog_platform *p);
/* The port speed the platform's NICs run for this workload: --fabric-speed
 * when they run it (nics.speed_gbit or nics.split_gbit), else their own. */
double eng_nic_speed(const struct workload *w, const struct catalog_platform *p);
bool eng_platform_speed_runs(const struct catalog_platform *p, double gbit);
void eng_node_size(const struct catalog *c, const struct workload *w,
		   const struct catalog_accel *a, const struct catalog_platform *p,
		   int gpus, struct eng_node *out);
/* Adds the scale-out fabric (switches, cables) for the node's NICs. */
void eng_node_fabric(const struct catalog *c, const struct workload *w, struct eng_node *n);
/* Per-GPU bandwidth, one direction, achieved (bytes/s): inside a group of
 * t GPUs over the GPU link (or PCIe past the link domain), and between
 * nodes over the NICs. */
double eng_link_bw(const struct catalog *c, const struct catalog_accel *a,
		   const struct catalog_platform *p, int t);
double eng_nic_bw(const struct catalog *c, const struct workload *w, const struct catalog_platform *p);
/* Expected prompts on the busiest of e attention-data-parallel ranks when
 * an iteration admits a Poisson count of mean n, each whole on one rank,
 * dealt round robin (engine_infer.c). */
double eng_dp_busiest_prompts(double n, int e);
/* One MoE layer's dispatch and combine all-to-alls under attention data
 * parallel over e GPUs, tokens_gpu tokens on each, top-k routing, `node`
 * GPUs joined by the GPU link (link_bw), the rest over the NICs (nic_bw),
 * bytes/s per GPU; seconds (engine_infer.c). */
double eng_dep_a2a_s(double tokens_gpu, double hidden, int k, int e, int node, double link_bw, double nic_bw,
		     double lat);
/* Ring all-reduce of m bytes over n GPUs at bw bytes/s: 2(n-1)/n x m / bw +
 * 2(n-1) x latency (NCCL ring; Patarasuk & Yuan 2009). */
static inline double eng_ring_allreduce_s(double m, int n, double bw, double latency_s)
{
	/* inline: the serving model calls it for every layout and batch */
	if (n <= 1 || m <= 0)
		return 0;
	if (bw <= 0)
		return INFINITY;
	return 2.0 * (n - 1) / n * m / bw + 2.0 * (n - 1) * latency_s;
}

/* The same bandwidth term with the latency of one whole call, call_s: a
 * link whose catalog gives a measured per-call latency
 * (link.allreduce_latency_us: small messages go one- or two-shot over a
 * fully connected domain, not 2(n - 1) ring steps). */
static inline double eng_allreduce_call_s(double m, int n, double bw, double call_s)
{
	if (n <= 1 || m <= 0)
		return 0;
	if (bw <= 0)
		return INFINITY;
	return 2.0 * (n - 1) / n * m / bw + call_s;
}

/* One all-reduce of m bytes over t GPUs of a's link at bw bytes/s: the
 * part's measured curve (link.allreduce_curve) when it is for t GPUs, else
 * eng_allreduce_call_s() with the call latency call_s (engine_infer.c). */
double eng_allreduce_measured_s(const struct catalog_accel *a, double m, int t, double bw, double call_s);

/* The wait in an M/D/1 queue at load rho with service svc (the serving
 * model's first-token queues).  Its tail is P(W > t) ~ C exp(-u t / svc)
 * (Cramer-Lundberg, the pole of the Pollaczek-Khinchine transform): u
 * solves rho (e^u - 1) = u, and C = (1 - rho) / (rho e^u - 1) =
 * (1 - rho) / (rho + u - 1).  Kingman's exponential (C = rho, decay over
 * the mean wait / rho) is its heavy-traffic limit and overstates the tail
 * at moderate load (rho 0.5: p99 +16%).  Within the first service time the
 * distribution is exact, P(W <= t) = (1 - rho) e^(rho t / svc) (Erlang's
 * series, its first term). */
struct eng_md1 {
	double rho, svc, first, u, c;	/* first: P(W <= svc) */
};

/* The highest percentile the serving model reports (MLPerf's p99 limits) */
#define ENG_Q99 0.99

/* u from an upper bound, 2 (1 - rho) / rho (the root with e^u's
 * quadratic bound), tightened by u <- ln(1 + u / rho), which keeps it
 * above the root; two Newton steps on the convex rho (e^u - 1) - u then
 * fall towards it monotonically, to 0.6% of u at worst (rho near 2/3; a
 * p99 wait moves as much).  Skipped where no percentile up to the 99th
 * reaches past the first service time. */
static inline void eng_md1_init(struct eng_md1 *q, double rho, double svc)
{
	q->rho = rho, q->svc = svc, q->first = 1, q->u = 0, q->c = 0;
	if (!(rho > 0) || !(rho < 1) || !(svc > 0))
		return;
	q->first = (1.0 - rho) * exp(rho);
	if (q->first >= ENG_Q99)
		return;
	double u = 2.0 * (1.0 - rho) / rho;
	for (int i = 0; i < 2 && u > 1; i++)
		u = log(1.0 + u / rho);
	for (int i = 0; i < 2; i++) {
		double e = exp(u);
		u -= (rho * (e - 1.0) - u) / (rho * e - 1.0);
	}
	q->u = u;
	q->c = (1.0 - rho) / (rho + u - 1.0);
}

/* The p-th percentile of that wait, p at most 0.99 (0 when fewer than
 * 1 - p wait). */
static inline double eng_md1_quantile(const struct eng_md1 *q, double p)
{
	double rho = q->rho;
	if (!(rho > 1 - p) || !(q->svc > 0))
		return 0;
	if (!(rho < 1))
		return INFINITY;
	if (q->first >= p)
		return q->svc / rho * log(p / (1.0 - rho));
	return q->c > 1 - p && q->u > 0 ? q->svc / q->u * log(q->c / (1 - p)) : 0;
}

static inline double eng_md1_wait(double rho, double svc, double p)
{
	struct eng_md1 q;
	eng_md1_init(&q, rho, svc);
	return eng_md1_quantile(&q, p);
}

/* fmin() likewise (minsd). */
static inline double eng_fmin(double a, double b)
{
	return a < b || isnan(b) ? a : b;
}

/* fmax() without the call into libm, the same result bit for bit as
 * glibc's x86-64 one (maxsd; the other operand when one is NaN). */
static inline double eng_fmax(double a, double b)
{
	return a > b || isnan(b) ? a : b;
}

/* llround() of a number from 0 to 2^63 without the call into libm, the
 * same result: the whole part (exact), one up when the fraction, exact
 * as well, is a half or more (half away from zero). */
static inline int64_t eng_llround_pos(double v)
{
	int64_t i = (int64_t)v;
	return v - (double)i >= 0.5 ? i + 1 : i;
}

/* engine_cost.c: capex, power, racks, cost per hour; fills *r.  tin:
 * engine_tco_inputs() of (c, w), worked out once by the caller for both
 * eng_cost() and eng_cost_rates(). */
void eng_cost(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
	      const struct eng_node *n, const struct engine_tco_inputs *tin, struct engine_result *r);
/* Whether the node already has the fabric's NICs: its scale-out ports are
 * on the accelerators (Gaudi 3), or its own BOM lists the fabric's NIC. */
long eng_network_switches(const struct catalog_network *nw, long nodes);
bool eng_lists_nic(const struct catalog_platform *p, const struct catalog_fabric *f);
void eng_cost_rates(const struct catalog *c, const struct workload *w, const struct engine_tco_inputs *tin,
		    struct engine_result *r);
/* engine_rent.c: engine_rent() with tin = engine_tco_inputs(c, w). */
void eng_rent_with(const struct workload *w, const struct engine_result *r, const struct engine_tco_inputs *tin,
		   struct engine_rent *out);

/* engine_infer.c / engine_train.c: size one accelerator into *r. */
void eng_infer(const struct catalog *c, const struct workload *w,
	       const struct catalog_accel *a, struct engine_result *r);
void eng_train(const struct catalog *c, const struct workload *w,
	       const struct catalog_accel *a, struct eng_tcache *tc, struct engine_result *r);
/* engine_train_search.c: the training search's cache of one run
 * (engine_train.h), held by the report: allocated with it, emptied at
 * the start of each engine_run() (eng_tcache_begin()); tc may be NULL,
 * the search then sizes every shape itself. */
struct eng_tcache *eng_tcache_new(void);
void eng_tcache_free(struct eng_tcache *tc);
void eng_tcache_begin(struct eng_tcache *tc);
/* eng_infer() on one partition of each GPU (part NULL: whole GPUs): a
 * replica is one instance, tensor parallel 1. */
void eng_infer_on(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
		  const struct catalog_partition *part, struct engine_result *r);

/* engine_disagg.c: with w->disaggregated, replaces *r (the aggregated
 * sizing) by separate prefill and decode pools and says which is better. */
void eng_disagg_try(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
		    struct engine_result *r);

/* engine_partition.c: serving on MIG slices. */
/* The usable memory (bytes), achieved bandwidth and FLOP/s of one
 * instance of p, from the whole GPU's. */
void eng_partition_scale(const struct catalog_accel *a, const struct catalog_partition *p,
			 double *usable, double *bw, double *flops);
/* Replaces a whole-GPU serving result by the smallest partition profile
 * that holds the workload and meets its targets on no more GPUs. */
void eng_partition_try(const struct catalog *c, const struct workload *w,
		       const struct catalog_accel *a, struct engine_result *r);

/* engine_rank.c */
void eng_result_clear(struct engine_result *r, const struct catalog_accel *a);
/* Platform, nodes, fabric and cost of out->gpus GPUs in groups of group
 * (eng_platform_choose()); a scale-out fabric when spans says so, or with
 * ENG_SPANS_AUTO when one of out's jobs talks across nodes. */
enum eng_spans { ENG_SPANS_AUTO, ENG_SPANS_NO, ENG_SPANS_YES };
void eng_result_place(const struct catalog *c, const struct workload *w,
		      const struct catalog_accel *a, int group, enum eng_spans spans,
		      struct engine_result *out);
void eng_filters(const struct workload *w, struct engine_result *r);

/* A figure for a reason line, rounded: integer formatting is several times
 * cheaper than %.0f, and reasons are written for every accelerator on
 * every run. */
static inline long eng_l(double v)
{
	return isfinite(v) && fabs(v) < 9e18 ? lround(v) : 0;
}

/* Memory one GPU gives the job, bytes: the share the serving engine or
 * trainer may take (vLLM's gpu_memory_utilization is a share of what
 * torch.cuda.mem_get_info reports as total) of what the runtime sees, not
 * of the marketed figure: an "80GB" H100 exposes 85.5 GB.  Reasons still
 * name the marketed figure, the one on the quote. */
static inline double eng_usable_bytes(const struct catalog_accel *a)
{
	double gb = a->mem_addressable_gb > 0 ? a->mem_addressable_gb : a->mem_gb;
	return gb * a->mem_usable_fraction * ENG_GB;
}

/* A figure for a reason line that must not round to nothing: whole above
 * 9.95 ("138"), one decimal down to 0.05 ("0.4", "2.5", "3" for 3.0), two
 * significant digits below ("0.012"), "0" only for zero.  Writes at most
 * ENG_FIG bytes into buf and returns buf, for use as a %s argument.  No
 * printf for the decimals: reasons are written for every accelerator on
 * every run (see eng_l). */
#define ENG_FIG 24
const char *eng_fig(double v, char *buf);

/* "s" unless n is 1: "%ld user%s", n, eng_s(n). */
static inline const char *eng_s(long n)
{
	return n == 1 ? "" : "s";
}

/* engine_names.c: keeps a reason's format and arguments in r for
 * engine_result_reason() to write when the text is wanted.  The format is
 * printf's, checked by the compiler, with these conversions only: %s (text
 * that outlives the result: catalog or static), %d, %ld, %.3g, %% and %F,
 * a double written as a figure by eng_fig() (printf's own %F would print
 * six decimals), and %G, a figure the user gave (a target, a rate) echoed
 * as given, to ten significant digits: a figure rounds, what was typed
 * does not (12.5 tok/s per user stays 12.5). */
void eng_reason(struct engine_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The model as a reason names it: its name, else its id, else "custom model". */
const char *eng_model_name(const struct catalog_model *m);
/* Writes r->reason from what eng_reason() kept. */
void eng_reason_write(struct engine_result *r);

/* Whole-number helpers. */
static inline long eng_ceil_div(long a, long b)
{
	return (a + b - 1) / b;
}

#endif
