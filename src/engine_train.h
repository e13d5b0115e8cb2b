/*
 * engine_train.h: what the training files share and nobody else sees.
 *
 * engine_train.c sizes one accelerator (the context of a workload on it,
 * the GPU count, the result's figures, the reason); engine_train_step.c
 * gives one layout's memory and step time; engine_train_search.c finds the
 * fastest layout that fits on G GPUs.  Pure, as every engine file.
 */
#ifndef ACCELSIZER_ENGINE_TRAIN_H
#define ACCELSIZER_ENGINE_TRAIN_H

#include "engine_internal.h"

/* A context-parallel rank keeps at least this many tokens: below it the
 * ring's exchanges outgrow the attention they hide behind (Megatron's
 * long-context recipes keep 4k-16k a rank). */
#define CP_MIN_TOKENS 1024
#define PP_MAX 16
#define CP_MAX 32
#define MB_MAX 8		/* largest micro-batch tried, sequences */
#define V_MAX 8			/* interleaved chunks per GPU */

/* A workload on one accelerator: the figures every layout reads. */
struct eng_tctx {
	const struct catalog *c;
	const struct workload *w;
	const struct catalog_accel *a;
	const struct catalog_model *m;
	const struct catalog_platform *plat;
	struct eng_precision pr;
	double usable, peak, eff, bw, lat, overlap;
	enum dp_overlap dp_mode;	/* the training stack's (DPO_BACKWARD without one) */
	double model_tok;		/* model FLOPs per token */
	/* FLOPs done per token, by recompute, the routed experts' at the
	 * dense GEMMs' pace (defaults.training_moe_efficiency) */
	double hw_tok[RECOMPUTE_COUNT];
	double attn_tok;		/* attention core FLOPs per token per layer, forward */
	double tokens, gbt, s, seqs;
	/* the evaluations' tokens x their forward FLOPs per token (0: none) */
	double eval_flops;
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
	int max_tp;			/* defaults.max_tp: no accelerator's tmax is more */
	int step;			/* GPU counts come in multiples of this */
	double nic_bw;
	double link2;			/* eng_link_bw() for a pair, once */
	double shared_params, expert_params;
	double moe_share;		/* share of the layers with routed experts */
	double moe_host;		/* the stack's host time per MoE layer pass, s (0: none) */
	bool zero_monotone;
	int rec_lo, rec_hi;		/* recompute choices tried, lightest first */
	/* Figures the search asks for at every shape, worked out once per
	 * accelerator: eng_link_bw() for 2^k GPUs (k from 0, 2^k up to
	 * link_pow2_hi: the node, the TP reach, a forced TP), and
	 * eng_train_stage_imbalance() for p stages. */
	double link_pow2[8];
	int link_pow2_hi;
	double imb[PP_MAX + 1];
	int cp_max;			/* the most context parallelism cp_ok() allows */
	struct eng_tcache *cache;	/* the run's, or NULL */
};

/* One layout: its degrees, and once sized its memory and step time. */
struct eng_tlayout {
	int t, c, p, v, d, ep, zero, b, rec;
	long m;				/* micro-batches per step per pipeline */
	double imb;			/* layers on the fullest stage / (layers / p) */
	double link_t;			/* eng_link_bw() for the TP group */
	double mem_gpu;			/* bytes */
	/* ep_comm: the MoE layers' own costs, the EP all-to-alls and the
	 * local experts' weight traffic (eng_train_expert_mem(); the result
	 * reports the latter as memory time) */
	double compute, elem, bubble, tp_comm, cp_comm, ep_comm, pp_comm, dp_comm, dp_exposed, step;
};

/*
 * What one engine_run() keeps between its accelerators (the report owns
 * it; eng_tcache_begin() empties it at the start of every run): the
 * workload's own figures (struct eng_twork), the (t, p) groups' leanest
 * shapes and their least memory (struct eng_tlean) and the virtual-stage
 * masks, all functions of the workload (and of the base's bytes per
 * parameter, which joins the key of the memory), not of the
 * accelerator.  A figure those come to read from the accelerator must
 * join the key.
 */
/* The workload's figures tctx_init() works out for every accelerator
 * alike: FLOPs per token before the MoE terms, stage imbalance, cp_max. */
struct eng_twork {
	bool set;
	double model_tok, hw_tok[RECOMPUTE_COUNT];
	double imb[PP_MAX + 1];
	int cp_max;
};
/* A (t, p) group's leanest shape on G GPUs (engine_train_search.c,
 * group_lean()), a function of the workload alone but for its TP link
 * (link_t, set by each accelerator): ok false when the group has none.
 * Its state and least memory by recompute (lean_mem() at one virtual
 * stage and the ZeRO stage holding least, for the rec_lo..rec_hi tried)
 * are functions of the workload and the base's bytes per parameter:
 * mem_set says they are known for mem_bb. */
/* A shape's model state by ZeRO stage and runtime reserve: what its
 * memory adds to the activations.  zlean..zmax are the stages its least
 * memory looks at (the highest alone where state only falls with the
 * stage, zero_monotone); state[] holds every stage to zmax. */
struct eng_tstate {
	int zlean, zmax;
	double state[4], reserve;
};
struct eng_tleanmem {
	double mem[RECOMPUTE_COUNT];
	struct eng_tstate st;
};
struct eng_tlean {
	int t, p;
	int c_hi;
	bool ok;
	bool mem_set;
	double mem_bb;
	struct eng_tleanmem lm;
	struct eng_tlayout shape;
};
/* The (t, p) groups a search on G GPUs walks, in its order
 * (engine_train_search.c, groups()), for every accelerator alike but for
 * its TP reach (tmax, at most max_tp; those past it are passed over):
 * pool[first .. first + n). */
#define TGROUP_TABLES 16
#define TGROUP_POOL 256
struct eng_tgtable {
	unsigned gen;
	int G, first, n;
};
/* A shape a search on G GPUs sized (engine_train_search.c,
 * group_shape()): its degrees as shape_init() made them (its TP link
 * link_t is each accelerator's), its state and its least memory by
 * recompute (lm, as struct eng_tlean's), functions of the workload, G
 * and the base's bytes per parameter bb alone.  A table of TSHAPES slots,
 * each shape in the one its degrees hash to (a shape met later takes the
 * slot over); gen says which run a slot's shape is of. */
#define TSHAPES_LOG2 9
#define TSHAPES (1 << TSHAPES_LOG2)
struct eng_tshape {
	unsigned gen;
	int G;
	int rec_n;			/* lm.mem[] is sized for rec_lo .. rec_n - 1 */
	double bb;
	struct eng_tlayout shape;
	struct eng_tleanmem lm;
};
struct eng_tcache {
	unsigned gen;
	struct eng_twork work;
	struct eng_tgtable table[TGROUP_TABLES];
	int pool_used;
	struct eng_tlean pool[TGROUP_POOL];
	unsigned vmask[PP_MAX + 1];	/* as struct eng_tmemo's */
	struct eng_tshape shapes[TSHAPES];
};

/* search() is a pure function of the context and G, and the sizing below
 * asks for the same G more than once (the fit, the target time, the final
 * layout): remembered answers spare a quarter of the layouts walked.  An
 * answer to "does anything fit" (full = false) that found a layout does
 * not say which is fastest. */
#define TMEMO 8
struct eng_tmemo {
	int n, next;
	struct {
		int G;
		bool found, full;
		struct eng_tlayout best;
		double min_mem;
	} e[TMEMO];
	unsigned vmask[PP_MAX + 1];	/* the search's virtual-stage masks (vmask_fill()) */
};

/*
 * What the search's bounds assume.  The search (engine_train_search.c)
 * and the sizing (engine_train.c, surely_unfit()) skip layouts, shapes,
 * groups and GPU counts that a bound proves cannot win or cannot fit,
 * and share figures between layouts, so every step and memory term of
 * engine_train_step.c must keep to these, and a new one must too:
 *
 * - Every step term is >= 0 (collective_latency_us >= 0 and
 *   training_overlap <= 1, else nothing is pruned).  Compute, elementwise,
 *   TP, CP, EP and PP time never shrink with heavier recompute; the PP
 *   sends and the DP exchange do not depend on the recompute, and the DP
 *   exchange not on the virtual stages; the bubble shrinks with more
 *   micro-batches and more virtual stages and is all that does.
 * - Within a (t, p) group, the group's bound (group_floor()) is below
 *   every layout's step: its TP traffic is at least the bytes of
 *   seqs / (d c) sequences per layer, its DP exchange at least the
 *   leanest shape's at ZeRO 0 less what the heaviest recompute's backward
 *   pass can hide.
 * - Memory: activations never shrink with a bigger micro-batch or less
 *   context parallelism (a group's chain of micro-batches stops at the
 *   first that cannot fit), nor with lighter recompute, and are no fewer
 *   at several virtual stages than at one; the group's leanest shape
 *   (most CP, smallest micro-batch, most EP) holds no more than any of
 *   its shapes; with zero_monotone the state only
 *   falls with the ZeRO stage; a shape's state and reserve depend, within
 *   a group, on its expert degree alone, and on the workload, the GPU
 *   count and the base's bytes per parameter, not on the accelerator.
 * - No layout on G GPUs needs less than eng_train_mem_floor(x, G).
 *
 * tests/unit/test_train_search.c compares the search with
 * eng_train_search_reference(), which assumes none of this, on many
 * workloads: a term that breaks one of these rules shows as another
 * winner there.
 */

/* engine_train_search.c: the fastest fitting layout on G GPUs into *best
 * (full), or only whether one fits (!full); false when none does, with
 * *min_mem the least memory per GPU any layout needs. */
/* The search's figures of the context (cp_max), once per accelerator. */
void eng_train_search_prepare(struct eng_tctx *x);
void eng_tmemo_init(struct eng_tmemo *mc);	/* empty, without zeroing its entries */
bool eng_train_search_memo(struct eng_tmemo *mc, const struct eng_tctx *x, int G, bool full,
			   struct eng_tlayout *best, double *min_mem);

/* The same answer as a full search, found by walking every layout with
 * no bound, no ordering and no cache (for tests/unit/test_train.c, which
 * holds the search to it): false when none fits, or when more than cap
 * candidates fit (scratch holds them). */
bool eng_train_search_reference(const struct eng_tctx *x, int G, struct eng_tlayout *best, double *min_mem,
				struct eng_tlayout *scratch, int cap);

/* engine_train.c: the context of workload w on accelerator a, as
 * eng_train() builds it (tc: the run's cache, or NULL); false when the
 * accelerator cannot train it (no stack, platform, peak or bandwidth). */
bool eng_train_context(const struct catalog *c, const struct workload *w, const struct catalog_accel *a,
		       struct eng_tcache *tc, struct eng_tctx *x);

/* engine_train_step.c: one layout's memory and times (see there). */
double eng_train_stage_imbalance(const struct catalog_model *m, int p);
double eng_train_state(const struct eng_tctx *x, const struct eng_tlayout *l);
double eng_train_mem_floor(const struct eng_tctx *x, int G);
double eng_train_activation(const struct eng_tctx *x, const struct eng_tlayout *l);
double eng_train_reserve(const struct eng_tctx *x, const struct eng_tlayout *l);
double eng_train_compute_g(const struct eng_tctx *x, int G, int rec);
double eng_train_elem_g(const struct eng_tctx *x, int G);
double eng_train_bubble_of(double work, int p, long m, int v);
double eng_train_bubble(const struct eng_tlayout *l);
int eng_train_tp_allreduces(int rec);
double eng_train_tp_comm(const struct eng_tctx *x, const struct eng_tlayout *l);
double eng_train_cp_comm(const struct eng_tctx *x, const struct eng_tlayout *l);
/* Whether eng_train_cp_comm() depends on the recompute: the all-to-all's
 * does (full recompute repeats the forward's), the ring's does not. */
bool eng_train_cp_by_recompute(const struct eng_tctx *x);
double eng_train_ep_comm(const struct eng_tctx *x, const struct eng_tlayout *l);
double eng_train_expert_mem(const struct eng_tctx *x, const struct eng_tlayout *l);
double eng_train_pp_comm(const struct eng_tctx *x, const struct eng_tlayout *l);
/* The PP time as eng_train_pp_comm() from one send (eng_train_pp_send(),
 * which depends on neither the virtual stages nor the recompute, so the
 * search works it out once per shape): each micro-batch crosses to the
 * next stage and its gradient back, v times with v virtual stages. */
double eng_train_pp_send(const struct eng_tctx *x, const struct eng_tlayout *l);
static inline double eng_train_pp_comm_of(const struct eng_tlayout *l, double send)
{
	return l->p > 1 ? (double)l->m * 2.0 * l->v * send : 0;
}
double eng_train_dp_comm(const struct eng_tctx *x, const struct eng_tlayout *l);
void eng_train_step_finish(const struct eng_tctx *x, struct eng_tlayout *l);
/* The same with eng_train_dp_comm(x, l) given: it depends on the shape
 * and whether ZeRO is at stage 3, not on the virtual stages or the
 * recompute, so the search works it out once per shape and stage. */
void eng_train_step_finish_dp(const struct eng_tctx *x, struct eng_tlayout *l, double dp_comm);
/* A lower bound on the exposed part of a data-parallel exchange of dp
 * seconds at ZeRO 0 (no ZeRO stage of the same shape exchanges less) for
 * every layout whose compute and elementwise work is at most work: what
 * the search's bounds add (engine_train_search.c). */
double eng_train_dp_exposed_floor(const struct eng_tctx *x, double dp, double work);
/* What the host that issues the MoE layers adds to a sized layout's step
 * (a token-dropless dispatcher's sync every MoE layer), seconds. */
double eng_train_host_exposed(const struct eng_tctx *x, const struct eng_tlayout *l);

/* A layout's memory per GPU: model state, activations, runtime reserve. */
static inline double eng_train_mem(double state, double act, double reserve)
{
	return state + act + reserve;
}

#endif
