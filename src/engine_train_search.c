/*
 * engine_train_search: the fastest fitting layout on G GPUs.
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
 * fastest fitting one wins (its memory and step time: engine_train_step.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine_train.h"

/* Virtual stages: v chunks of the fullest stage's lps layers per GPU, when
 * there is a pipeline to interleave. */
static bool v_ok(int p, int lps, int v)
{
	return v <= lps && lps % v == 0 && (v == 1 || p > 1);
}

static int lps_of(const struct eng_tctx *x, int p)
{
	return (x->m->layers + p - 1) / p;
}

/* The virtual stages p stages allow, as a mask of bits 1 << v.  A forced
 * count alone, at most one layer a chunk (none at a depth it does not
 * suit, so that depth is not sized); it need not divide the stage's
 * layers: Megatron-Core's pipeline layouts cut uneven chunks, as NVIDIA's
 * DeepSeek-V3 recipes do (61 layers in 16 chunks at PP 2 VP 8,
 * pp_layout="Et*4|(t*4|)*14tmL": NVIDIA-NeMo/Megatron-Bridge
 * scripts/performance/configs/deepseek/deepseek_workload_base_configs.py
 * @04264182); the fullest stage's imbalance is in the layout's imb. */
static unsigned vmask_compute(const struct eng_tctx *x, int p)
{
	int lps = lps_of(x, p);
	unsigned mask = 0;
	int vp = x->w->vp;
	if (vp > 0)
		return vp <= lps && (vp == 1 || p > 1) ? 1u << vp : 0u;
	for (int v = 1; v <= V_MAX && v <= lps; v++)
		if (v_ok(p, lps, v))
			mask |= 1u << v;
	return mask;
}

/* The virtual stages of a shape's leanest layout at depth p: one
 * (activations only grow with more), or the forced count; 0 when the
 * forced count takes no layout at that depth. */
static inline int v_lean(const struct eng_tctx *x, int p)
{
	if (x->w->vp <= 0)
		return 1;
	unsigned mask = vmask_compute(x, p);
	return mask ? __builtin_ctz(mask) : 0;
}

static bool cp_ok(const struct eng_tctx *x, int c);

void eng_train_search_prepare(struct eng_tctx *x)
{
	x->cp_max = 1;
	while (x->cp_max < CP_MAX && cp_ok(x, x->cp_max * 2))
		x->cp_max *= 2;
}

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
 * (ZeRO 0's exchange, the least of any stage, under the most compute it
 * can hide behind, the heaviest recompute's: eng_train_dp_exposed_floor()),
 * whose rounding BOUND_ROUNDING covers. */
enum tpass { PASS_FIT, PASS_MIN, PASS_PICK };
#define TIE 1.0001
#define NCAND 64
#define BOUND_ROUNDING 1e-9

struct tsearch {
	const struct eng_tctx *x;
	int G;
	enum tpass pass;
	bool found;
	bool prune_ok;			/* bounds hold: latency >= 0, overlap <= 1 */
	double smin;			/* the fastest step so far */
	double cut;			/* a layout whose bound exceeds this cannot win */
	double compute_g[RECOMPUTE_COUNT], elem_g;	/* work_terms() before imb */
	struct eng_tlayout best;		/* PICK */
	int ncand;
	bool overflow;
	struct eng_tlayout *cand;		/* MIN: NCAND, in walk order */
	double min_mem;			/* least memory of any layout sized */
	const unsigned *vmask;		/* the masks by p (vmask_fill()) */
};

/* The virtual stages p stages allow (vmask_compute()), worked out for
 * every depth up to PP_MAX once per run (vmask_fill()). */
static inline unsigned vmask_of(const struct tsearch *S, int p)
{
	return p <= PP_MAX ? S->vmask[p] : vmask_compute(S->x, p);
}

/* vmask[0] says whether vmask[1..PP_MAX] are worked out. */
static void vmask_fill(const struct eng_tctx *x, unsigned *vmask)
{
	if (vmask[0])
		return;
	for (int p = 1; p <= PP_MAX; p++)
		vmask[p] = vmask_compute(x, p);
	vmask[0] = 1;
}

/* The terms of a shape's step that do not depend on the virtual stages,
 * for one recompute choice. */
struct tterms {
	bool set;
	double compute, elem, tp, cp, ep;	/* ep: the MoE layers' own costs, see eng_tlayout */
};

/* eng_train_dp_comm() of a shape at ZeRO 0 or 1 ([0]), 2 ([1]) and 3
 * ([2]), once each: it depends on the shape and those classes of stage,
 * not on the virtual stages or the recompute. */
struct tdp {
	bool set[3];
	double v[3];
};

/* What the layouts of one shape share, worked out once: the terms by
 * recompute (filled as needed), the DP exchange by class of ZeRO stage,
 * the least exposed DP time of any (see shape_slow()) and one PP send
 * (eng_train_pp_send()). */
struct tshape {
	struct tterms k[RECOMPUTE_COUNT];
	struct tdp dp;
	double dp_lb, pp_send;
	int cp_rec;			/* the recompute whose CP time any has, or -1 (shape_terms()) */
};

/* sh->k[rec]; l: a working copy of the shape, its recompute set to rec.
 * The ring's CP time is every recompute's (eng_train_cp_by_recompute()). */
static inline void shape_terms(const struct tsearch *S, struct eng_tlayout *l, int rec, struct tshape *sh)
{
	struct tterms *k = &sh->k[rec];
	l->rec = rec;
	k->compute = S->compute_g[rec] * l->imb;
	k->elem = S->elem_g * l->imb;
	k->tp = eng_train_tp_comm(S->x, l);
	if (sh->cp_rec >= 0) {
		k->cp = sh->k[sh->cp_rec].cp;
	} else {
		k->cp = eng_train_cp_comm(S->x, l);
		if (!eng_train_cp_by_recompute(S->x))
			sh->cp_rec = rec;
	}
	k->ep = S->x->m->experts > 1 ? eng_train_ep_comm(S->x, l) + eng_train_expert_mem(S->x, l) : 0;
	k->set = true;
}

/* The step without the data-parallel exchange, which alone depends on the
 * ZeRO stage: below every ZeRO stage's step (eng_train_step_finish() adds a term
 * >= 0 to this very sum). */
static double step_parts(const struct tterms *k, double pp_send, struct eng_tlayout *l)
{
	l->compute = k->compute;
	l->elem = k->elem;
	l->bubble = eng_train_bubble(l);
	l->tp_comm = k->tp;
	l->cp_comm = k->cp;
	l->ep_comm = k->ep;
	l->pp_comm = eng_train_pp_comm_of(l, pp_send);
	return l->compute + l->elem + l->bubble + l->tp_comm + l->cp_comm + l->ep_comm + l->pp_comm;
}



/* The most virtual stages p stages allow (1 always is). */
static inline int v_most(const struct tsearch *S, int p)
{
	unsigned mask = vmask_of(S, p) | 2u;
	return 31 - __builtin_clz(mask);
}

/* l wins over o, both within TIE of the fastest: simpler, or as simple
 * and first in the order t, c, p, b, e, v, recompute, ZeRO. */
static bool better(const struct eng_tlayout *l, const struct eng_tlayout *o)
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

/* A layout whose bound exceeds this cannot win: TIE x the fastest step
 * so far (S->cut, kept by consider()), none before a layout is found. */
static inline double cut(const struct tsearch *S)
{
	return S->cut;
}

static void consider(struct tsearch *S, const struct eng_tlayout *l)
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
	S->cut = S->prune_ok ? S->smin * TIE : INFINITY;
	if (l->step <= S->smin * TIE) {
		if (S->ncand < NCAND)
			S->cand[S->ncand++] = *l;
		else
			S->overflow = true;
	}
}

static double shape_dp(const struct eng_tctx *x, const struct eng_tlayout *l, struct tdp *dp)
{
	int i = l->zero >= 3 ? 2 : l->zero >= 2 ? 1 : 0;
	if (!dp->set[i]) {
		dp->v[i] = eng_train_dp_comm(x, l);
		dp->set[i] = true;
	}
	return dp->v[i];
}

/* The virtual stages, recompute choices (from rec0, the lightest whose
 * leanest layout fits) and ZeRO stages of a shape whose model state per
 * ZeRO stage is state[] and whose shared terms are *sh.  l: a working
 * copy of the shape; the walk sets its virtual stages, recompute and ZeRO
 * stage and every figure of the layout. */
static void try_layouts(struct tsearch *S, struct eng_tlayout *l, int rec0, int zmax,
			const double *state, double reserve, struct tshape *sh)
{
	const struct eng_tctx *x = S->x;
	struct tterms *k = sh->k;
	double dp_lb = sh->dp_lb;
	/* ZeRO 0, 1 and 2 differ in memory only (for a trained MoE model 0
	 * and 1: its experts' ZeRO-2 reduce-scatters run every micro-batch,
	 * experts_dp_comm()): of those the one holding least (the lowest
	 * stage at equal memory) is the only one better() can pick, and fits
	 * if any does. */
	int zsame = x->expert_params > 0 && !x->frozen ? 1 : 2;
	for (unsigned vs = vmask_of(S, l->p); vs; vs &= vs - 1) {
		int v = __builtin_ctz(vs);
		/* Recompute from the lightest: once a layout of the ZeRO
		 * stages that cost the same fits, heavier recompute only adds
		 * work. */
		for (int rec = rec0; rec <= x->rec_hi; rec++) {
			if (!k[rec].set)
				shape_terms(S, l, rec, sh);
			l->v = v;
			l->rec = rec;
			/* heavier recompute is no faster: nothing after this can
			 * win; every ZeRO stage adds at least dp_lb (see
			 * shape_slow()) */
			double parts = step_parts(&k[rec], sh->pp_send, l);
			if (parts > cut(S) || (parts + dp_lb) * (1.0 - BOUND_ROUNDING) > cut(S))
				break;
			double act = eng_train_activation(x, l);
			int zlo = 0;
			double mlo = eng_train_mem(state[0], act, reserve);
			for (int z = 1; z <= zmax && z <= zsame; z++) {
				double mz = eng_train_mem(state[z], act, reserve);
				if (mz < mlo) {
					mlo = mz;
					zlo = z;
				}
			}
			bool fit_same = false;
			for (int z = zlo; z <= zmax; z = z <= zsame ? zsame + 1 : z + 1) {
				l->zero = z;
				l->mem_gpu = z <= zsame ? mlo : eng_train_mem(state[z], act, reserve);
				if (l->mem_gpu < S->min_mem)
					S->min_mem = l->mem_gpu;
				if (l->mem_gpu > x->usable)
					continue;
				fit_same = fit_same || z <= zsame;
				eng_train_step_finish_dp(x, l, shape_dp(x, l, &sh->dp));
				consider(S, l);
			}
			if (fit_same)
				break;
		}
	}
}

/* The work and least bubble of a shape's layouts, none lighter on
 * recompute than rec0: a lower bound on their steps (the prefix of
 * step_parts()'s sum), and of every shape with a bigger micro-batch, less
 * context or less expert parallelism (no lighter recompute fits those,
 * and their bubble is no smaller). */
static inline double shape_floor(const struct tsearch *S, const struct eng_tlayout *shape, int rec0)
{
	double compute = S->compute_g[rec0] * shape->imb;
	double elem = S->elem_g * shape->imb;
	return compute + elem + eng_train_bubble_of(compute + elem, shape->p, shape->m, v_most(S, shape->p));
}

/* The layout shape_floor() sums: the shape (l, a working copy) at rec0
 * with the most virtual stages, its work and bubble filled in. */
static void floor_layout(const struct tsearch *S, struct eng_tlayout *l, int rec0)
{
	l->rec = rec0;
	l->v = v_most(S, l->p);
	l->compute = S->compute_g[rec0] * l->imb;
	l->elem = S->elem_g * l->imb;
	l->bubble = eng_train_bubble(l);
}

/* Whether no layout of the shape, none lighter on recompute than rec0,
 * can beat cut(S) once its communication is added to the floor, then the
 * least exposed DP time. */
static bool shape_slow(const struct tsearch *S, struct eng_tlayout *l, int rec0, struct tshape *sh)
{
	const struct eng_tctx *x = S->x;
	struct tterms *k = sh->k;
	double limit = cut(S);
	if (!(limit < INFINITY))
		return false;
	floor_layout(S, l, rec0);
	if (l->compute + l->elem + l->bubble > limit)
		return true;
	shape_terms(S, l, rec0, sh);
	l->v = 1;
	double lb = l->compute + l->elem + l->bubble + k[rec0].tp + k[rec0].cp + k[rec0].ep +
		    eng_train_pp_comm_of(l, sh->pp_send);
	if (lb > limit)
		return true;
	l->zero = 0;
	double dp = shape_dp(x, l, &sh->dp);
	sh->dp_lb = eng_train_dp_exposed_floor(x, dp, S->compute_g[x->rec_hi] * l->imb + l->elem);
	return (lb + sh->dp_lb) * (1.0 - BOUND_ROUNDING) > limit;
}


struct eng_tcache *eng_tcache_new(void)
{
	/* not calloc(): zeroing the whole block costs a recommend process
	 * more than the slots' generations below */
	struct eng_tcache *tc = malloc(sizeof *tc);
	if (!tc)
		return NULL;
	tc->gen = 0;
	for (size_t i = 0; i < TGROUP_TABLES; i++)
		tc->table[i].gen = 0;
	for (size_t i = 0; i < TSHAPES; i++)
		tc->shapes[i].gen = 0;
	tc->pool_used = 0;
	tc->work.set = false;
	memset(tc->vmask, 0, sizeof tc->vmask);
	return tc;
}

void eng_tcache_free(struct eng_tcache *tc)
{
	free(tc);
}

void eng_tcache_begin(struct eng_tcache *tc)
{
	tc->gen++;
	if (!tc->gen) {		/* wrapped: no table or shape may look valid */
		memset(tc->table, 0, sizeof tc->table);
		for (size_t i = 0; i < TSHAPES; i++)
			tc->shapes[i].gen = 0;
		tc->gen = 1;
	}
	tc->pool_used = 0;
	memset(tc->vmask, 0, sizeof tc->vmask);
	tc->work.set = false;
}

static void shape_state(const struct eng_tctx *x, struct eng_tlayout *shape, struct eng_tstate *st)
{
	st->zmax = shape->d * shape->c == 1 ? 0 : 3;
	st->zlean = x->zero_monotone ? st->zmax : 0;
	for (int z = 0; z <= st->zmax; z++) {
		shape->zero = z;
		st->state[z] = eng_train_state(x, shape);
	}
	st->reserve = eng_train_reserve(x, shape);
}

/* Within a (t, p) group on G GPUs a shape's state and reserve depend on
 * its expert parallelism alone (engine_train.h, "What the search's
 * bounds assume"): a group sizes them once per e, in a table by e. */
#define TSTATES 8
struct tstates {
	int e[TSTATES];			/* 0: empty */
	struct eng_tstate st[TSTATES];
};

static inline const struct eng_tstate *group_state(const struct eng_tctx *x, struct tstates *gs, struct eng_tlayout *shape)
{
	int i = shape->ep % TSTATES;
	if (gs->e[i] != shape->ep) {
		shape_state(x, shape, &gs->st[i]);
		gs->e[i] = shape->ep;
	}
	return &gs->st[i];
}

/* The least memory of the shape's layouts at one recompute choice: one
 * virtual stage (activations only grow with more), the ZeRO stage holding
 * least; NAN when a figure gives no number. */
static inline double lean_mem(const struct eng_tctx *x, struct eng_tlayout *shape, int rec, const struct eng_tstate *st)
{
	shape->v = v_lean(x, shape->p);
	if (!shape->v)
		return INFINITY;
	shape->rec = rec;
	double act = eng_train_activation(x, shape);
	double lowest = INFINITY;
	for (int z = st->zlean; z <= st->zmax; z++) {
		double mz = eng_train_mem(st->state[z], act, st->reserve);
		if (isnan(mz))
			return NAN;
		if (mz < lowest)
			lowest = mz;
	}
	return lowest;
}

/* The lightest recompute whose leanest layout fits (*lowest: its
 * memory), -1 when not even the heaviest does (*lowest: that one's).
 * Heavier recompute keeps no more (engine_train.h, "What the search's
 * bounds assume"), so the first that fits from the lightest is it. */
static inline int lightest_fit(const struct eng_tctx *x, struct eng_tlayout *shape, const struct eng_tstate *st, double *lowest)
{
	*lowest = INFINITY;
	for (int rec = x->rec_lo; rec <= x->rec_hi; rec++) {
		*lowest = lean_mem(x, shape, rec, st);
		if (!(*lowest > x->usable))
			return rec;
	}
	return -1;
}

/* Every layout of one shape (t, c, p, b, e) whose state st and lightest
 * fitting recompute rec0 (>= 0) are known. */
static void try_shape(struct tsearch *S, struct eng_tlayout *shape, const struct eng_tstate *st, int rec0)
{
	struct tshape sh;
	for (int r = 0; r < RECOMPUTE_COUNT; r++)
		sh.k[r].set = false;
	sh.dp = (struct tdp){ { false, false, false }, { 0, 0, 0 } };
	sh.dp_lb = 0;
	sh.cp_rec = -1;
	sh.pp_send = shape->p > 1 ? eng_train_pp_send(S->x, shape) : 0;
	struct eng_tlayout l = *shape;
	if (S->pass != PASS_FIT && shape_slow(S, &l, rec0, &sh))
		return;
	try_layouts(S, &l, rec0, st->zmax, st->state, st->reserve, &sh);
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
/* TP degrees: inside the reach tmax (the accelerator's; max_tp, which
 * no accelerator's passes, for a table every accelerator shares) unless
 * forced, and dividing the model's heads. */
static bool tp_in(const struct eng_tctx *x, int t, int tmax)
{
	return (x->w->tp > 0 || t <= tmax) && eng_tp_valid(x->m, t);
}

static bool tp_ok(const struct eng_tctx *x, int t)
{
	return tp_in(x, t, x->tmax);
}

/* Context parallel: ring attention wants two chunks per rank (the causal
 * mask's load balance) and at least CP_MIN_TOKENS a rank. */
static bool cp_ok(const struct eng_tctx *x, int c)
{
	if (x->w->cp > 0 || c == 1)
		return true;
	return c <= CP_MAX && x->w->seq_len % (2 * c) == 0 && x->s / c >= CP_MIN_TOKENS;
}

/* p stages of t x c GPUs divide G, and each data-parallel rank gets at
 * least one sequence. */
/* The all-to-all gives each context-parallel rank 1/c of the heads its
 * tensor-parallel rank holds, query and key/value heads alike
 * (Transformer Engine's a2a asserts both divide by the CP size). */
static bool a2a_heads_ok(const struct eng_tctx *x, int t, int c)
{
	if (x->w->cp_comm != CPC_A2A || c <= 1)
		return true;
	long q = x->m->heads / t;
	long kv = x->m->mla_kv_lora_rank > 0 ? q : (x->m->kv_heads >= t ? x->m->kv_heads / t : 1);
	return q % c == 0 && kv % c == 0;
}

static inline bool tcp_ok(const struct eng_tctx *x, int G, int t, int c, int p)
{
	return p <= x->m->layers && (long)t * c * p <= G && G % (t * c * p) == 0 &&
	       G / (t * c * p) <= x->seqs && a2a_heads_ok(x, t, c);
}

static inline bool mb_ok(const struct eng_tctx *x, int d, int b)
{
	return (x->w->micro_batch > 0 || b <= MB_MAX) && (double)d * b <= x->seqs;
}

/* Expert parallel e divides the experts and the n = t x c x d GPUs of a
 * stage (MoE parallel folding, expert tensor parallelism 1: see
 * engine_train_step.c). */
static inline bool ep_ok(const struct eng_tctx *x, int n, int e)
{
	if (x->m->experts <= 1)
		return e == 1 && x->w->ep <= 1;
	if (x->w->ep > 0 && e != x->w->ep)
		return false;
	return e <= n && e <= x->m->experts && x->m->experts % e == 0 && n % e == 0;
}

/* The most expert parallelism of a stage of n GPUs, 0 when none is
 * allowed: the experts' state only shrinks with it. */
static inline int ep_most(const struct eng_tctx *x, int n)
{
	int e = x->m->experts > 1 && x->w->ep <= 0 ? (n < x->m->experts ? n : x->m->experts) : 1;
	if (x->w->ep > 0)
		e = x->w->ep;
	while (e >= 1 && !ep_ok(x, n, e))
		e = x->w->ep > 0 ? 0 : e - 1;
	return e;
}

/* A (t, p) group: the shapes with these tensor and pipeline degrees. */
struct tgroup {
	int t, p;
	int c_hi;			/* the most context parallelism; -1 not yet known, 0 none */
	double link_t;
	struct eng_tlean *le;		/* its entry in the run's cache, or NULL */
	double lb;			/* MIN: no layout of the group is faster */
	/* MIN: while lb is group_work()'s alone, the leanest shape it is of
	 * (NULL once lb is group_whole()'s), and its work and TP term */
	const struct eng_tlayout *lean_dp;
	double lb_w0, lb_tp;
	int lean_e;			/* MIN: its leanest shape's expert degree, */
	struct eng_tstate lean_st;	/* and that shape's state */
};

static inline void shape_init(const struct tsearch *S, const struct tgroup *g, int c, int b, int e,
		       struct eng_tlayout *shape)
{
	const struct eng_tctx *x = S->x;
	int d = S->G / (g->t * c * g->p);
	*shape = (struct eng_tlayout){
		.t = g->t,
		.c = c,
		.p = g->p,
		.d = d,
		.b = b,
		.ep = e,
		.m = (long)ceil(x->seqs / ((double)d * b)),
		.imb = g->p <= PP_MAX ? x->imb[g->p] : eng_train_stage_imbalance(x->m, g->p),
		.link_t = g->link_t,
	};
}

/* The most context parallelism the group allows, 0 when none. */
static inline int cp_most(const struct tsearch *S, const struct tgroup *g)
{
	const struct eng_tctx *x = S->x;
	int c = x->w->cp > 0 ? x->w->cp : 1;
	while (x->w->cp <= 0 && (long)g->t * g->p * c * 2 <= S->G && c < x->cp_max)
		c *= 2;
	for (; c >= 1; c = x->w->cp > 0 ? 0 : c / 2)
		if (tcp_ok(x, S->G, g->t, c, g->p))
			return c;
	return 0;
}

/* The group's leanest shape, which holds no more memory than any other
 * of its shapes at the same recompute: the most context parallelism (it
 * divides the activations and keeps the model state, sharded over d x c),
 * the smallest micro-batch, the most expert parallelism.  False when the
 * group has no shape. */
static inline bool lean_shape(const struct tsearch *S, struct tgroup *g, struct eng_tlayout *shape)
{
	const struct eng_tctx *x = S->x;
	if (g->c_hi < 0)
		g->c_hi = cp_most(S, g);
	int c = g->c_hi;
	if (!c)
		return false;
	int d = S->G / (g->t * c * g->p);
	int b = deg_first(x->w->micro_batch);
	int e = ep_most(x, g->t * d * c);
	if (!mb_ok(x, d, b) || e < 1)
		return false;
	shape_init(S, g, c, b, e, shape);
	return true;
}

/* The group's leanest shape, from the run's cache (its entry in *slot)
 * or made in buf; NULL when the group has none.  Its TP link may be
 * another accelerator's: the group's is g->link_t. */
static inline const struct eng_tlayout *group_lean(const struct tsearch *S, struct tgroup *g, struct eng_tlayout *buf,
					    struct eng_tlean **slot)
{
	struct eng_tlean *e = *slot = g->le;
	if (e && e->c_hi >= 0) {
		g->c_hi = e->c_hi;
		return e->ok ? &e->shape : NULL;
	}
	bool ok = lean_shape(S, g, buf);
	if (e) {
		e->c_hi = g->c_hi;
		e->ok = ok;
		if (ok)
			e->shape = *buf;
	}
	return ok ? buf : NULL;
}

/* The state and least memory by recompute (lean_mem() for
 * rec_lo..rec_hi) of the group's leanest shape: from the run's cache
 * when it has them for this base (slot e, NULL without one), else sized
 * into buf. */
static const struct eng_tleanmem *group_mem(const struct tsearch *S, struct eng_tlean *e,
					    const struct eng_tlayout *lean, struct eng_tleanmem *buf)
{
	const struct eng_tctx *x = S->x;
	if (e && e->mem_set && e->mem_bb == x->base_bytes)
		return &e->lm;
	struct eng_tlayout shape = *lean;
	shape_state(x, &shape, &buf->st);
	for (int rec = x->rec_lo; rec <= x->rec_hi; rec++)
		buf->mem[rec] = lean_mem(x, &shape, rec, &buf->st);
	if (e) {
		e->lm = *buf;
		e->mem_bb = x->base_bytes;
		e->mem_set = true;
	}
	return buf;
}

/* The lightest recompute whose layout of the group's leanest shape at
 * one virtual stage fits (lightest_fit()), -1 when none does (*lowest:
 * the heaviest one's memory, which then goes to min_mem); *st its state. */
static inline int group_fit(struct tsearch *S, struct eng_tlean *e, const struct eng_tlayout *lean, double *lowest,
		     struct eng_tstate *st)
{
	const struct eng_tctx *x = S->x;
	struct eng_tleanmem buf;
	const struct eng_tleanmem *lm = group_mem(S, e, lean, &buf);
	*lowest = lm->mem[x->rec_hi];
	if (*lowest > x->usable) {
		if (*lowest < S->min_mem)
			S->min_mem = *lowest;
		return -1;
	}
	int rec0 = x->rec_hi;
	while (rec0 > x->rec_lo && !(lm->mem[rec0 - 1] > x->usable))
		rec0--;
	*st = lm->st;
	return rec0;
}

/* The run's slot for shape (c, b, e) of a group on G GPUs (struct
 * eng_tshape) whose group_hash() is hg, NULL without a cache. */
static inline unsigned group_hash(const struct tsearch *S, const struct tgroup *g)
{
	return ((unsigned)S->G * 31u + (unsigned)g->t) * 31u + (unsigned)g->p;
}

static inline struct eng_tshape *shape_slot(const struct tsearch *S, unsigned hg, int c, int b, int e)
{
	struct eng_tcache *tc = S->x->cache;
	if (!tc)
		return NULL;
	unsigned h = ((hg * 31u + (unsigned)c) * 31u + (unsigned)b) * 31u + (unsigned)e;
	h *= 0x9e3779b1u;	/* Fibonacci hashing: the top bits pick the slot */
	return &tc->shapes[h >> (32 - TSHAPES_LOG2)];
}

static inline bool shape_is(const struct tsearch *S, const struct eng_tshape *cs, const struct tgroup *g, int c, int b,
			    int e)
{
	const struct eng_tlayout *l = &cs->shape;
	return cs->gen == S->x->cache->gen && cs->G == S->G && cs->bb == S->x->base_bytes && l->t == g->t &&
	       l->p == g->p && l->c == c && l->b == b && l->ep == e;
}

/* Shape (c, b, e) of group g with its state, from the run's cache when it
 * has it, else made (in the cache's slot, or buf without one) with none
 * of its memory sized yet (mem_fit() sizes it); its TP link is g's. */
static struct eng_tshape *group_shape(const struct tsearch *S, const struct tgroup *g, unsigned hg,
				      struct tstates *gs, int c, int b, int e, struct eng_tshape *buf)
{
	const struct eng_tctx *x = S->x;
	struct eng_tshape *cs = shape_slot(S, hg, c, b, e);
	if (cs && shape_is(S, cs, g, c, b, e)) {
		cs->shape.link_t = g->link_t;
		return cs;
	}
	if (!cs) {
		cs = buf;
	} else {
		cs->gen = x->cache->gen;
		cs->G = S->G;
		cs->bb = x->base_bytes;
	}
	shape_init(S, g, c, b, e, &cs->shape);
	cs->lm.st = *group_state(x, gs, &cs->shape);
	cs->rec_n = x->rec_lo;
	return cs;
}

/* The lightest recompute whose least memory fits the shape, as
 * lightest_fit(), sizing what is not sized yet (cs->lm.mem[] below
 * rec_n is); -1 when none does, the heaviest's memory then going to
 * min_mem. */
static inline int mem_fit(struct tsearch *S, struct eng_tshape *cs)
{
	const struct eng_tctx *x = S->x;
	double lowest = INFINITY;
	for (int rec = x->rec_lo; rec <= x->rec_hi; rec++) {
		if (rec >= cs->rec_n) {
			cs->lm.mem[rec] = lean_mem(x, &cs->shape, rec, &cs->lm.st);
			cs->rec_n = rec + 1;
		}
		lowest = cs->lm.mem[rec];
		if (!(lowest > x->usable))
			return rec;
	}
	if (lowest < S->min_mem)
		S->min_mem = lowest;
	return -1;
}

/* Every shape of a group: c from the most, b from the smallest, e from
 * the most, i.e. from the leanest.  Memory and the floor of the step only
 * grow with a bigger micro-batch or less context parallelism (see
 * shape_floor()), and the leanest e of a (c, b) bounds its others: once
 * it cannot fit, or its floor is above the cut, the rest of the micro-
 * batches (and, at the smallest, of the context degrees) can skip. */
static void try_group(struct tsearch *S, const struct tgroup *g)
{
	const struct eng_tctx *x = S->x;
	const struct workload *w = x->w;
	struct tstates gs;
	memset(gs.e, 0, sizeof gs.e);
	if (g->lean_e > 0) {	/* walk_min() sized it */
		gs.e[g->lean_e % TSTATES] = g->lean_e;
		gs.st[g->lean_e % TSTATES] = g->lean_st;
	}
	/* a stage's t x d x c GPUs: G / p for every c */
	int n_stage = S->G / g->p, e_hi = ep_most(x, n_stage);
	unsigned hg = group_hash(S, g);
	for (int c = g->c_hi < 0 ? cp_most(S, g) : g->c_hi; c >= 1; c = w->cp > 0 ? 0 : c / 2) {
		if (!cp_ok(x, c) || !tcp_ok(x, S->G, g->t, c, g->p))
			continue;
		int d = S->G / (g->t * c * g->p);
		bool first = true, stop_c = false;
		for (int b = deg_first(w->micro_batch); b && mb_ok(x, d, b); b = deg_next(w->micro_batch, b)) {
			bool stop_b = false;
			for (int e = e_hi; e >= 1 && !stop_b; e--) {
				if (e < e_hi && !ep_ok(x, n_stage, e))
					continue;
				struct eng_tshape buf;
				struct eng_tshape *cs = group_shape(S, g, hg, &gs, c, b, e, &buf);
				int rec0 = mem_fit(S, cs);
				bool leanest = e == e_hi;
				if (rec0 < 0 || (S->prune_ok && shape_floor(S, &cs->shape, rec0) > cut(S))) {
					stop_b = leanest;
					continue;
				}
				try_shape(S, &cs->shape, &cs->lm.st, rec0);
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
static double tp_link(const struct eng_tctx *x, int t)
{
	return (t & (t - 1)) == 0 && t <= x->link_pow2_hi ? x->link_pow2[__builtin_ctz((unsigned)t)]
							  : eng_link_bw(x->c, x->a, x->plat, t);
}

/* Every (t, p) group on G GPUs with t up to tmax (tp_in()) as pairs in
 * tp[], in the order t, p; -1 when there are more than max (the first
 * max are there). */
static int group_list(const struct eng_tctx *x, int G, int tmax, int max, int *tp)
{
	const struct workload *w = x->w;
	int n = 0;
	for (int t = deg_first(w->tp); t && t <= G; t = deg_next(w->tp, t)) {
		if (!tp_in(x, t, tmax))
			continue;
		int p_lo = w->pp > 0 ? w->pp : 1, p_hi = w->pp > 0 ? w->pp : PP_MAX;
		for (int p = p_lo; p <= p_hi && (long)t * p <= G; p++) {
			if (G % (t * p))
				continue;	/* no c makes t c p divide G */
			if (n >= max)
				return -1;
			tp[2 * n] = t;
			tp[2 * n + 1] = p;
			n++;
		}
	}
	return n;
}

/* The run's table of the groups on G GPUs (struct eng_tgtable), found or
 * made; NULL without a cache or room for it. */
static const struct eng_tgtable *group_table(const struct tsearch *S)
{
	struct eng_tcache *tc = S->x->cache;
	if (!tc)
		return NULL;
	struct eng_tgtable *free_slot = NULL;
	for (int i = 0; i < TGROUP_TABLES; i++) {
		struct eng_tgtable *tb = &tc->table[i];
		if (tb->gen != tc->gen) {
			if (!free_slot)
				free_slot = tb;
		} else if (tb->G == S->G) {
			return tb;
		}
	}
	int tp[2 * NGROUP];
	int n = free_slot ? group_list(S->x, S->G, S->x->max_tp, NGROUP, tp) : -1;
	if (n < 0 || n > TGROUP_POOL - tc->pool_used)
		return NULL;
	*free_slot = (struct eng_tgtable){ .gen = tc->gen, .G = S->G, .first = tc->pool_used, .n = n };
	for (int j = 0; j < n; j++) {
		struct eng_tlean *e = &tc->pool[tc->pool_used++];
		e->t = tp[2 * j];
		e->p = tp[2 * j + 1];
		e->c_hi = -1;	/* not worked out yet */
		e->mem_set = false;
	}
	return free_slot;
}

/* The (t, p) groups on G GPUs that may hold a shape, in the order t, p;
 * NGROUP bounds them (t a power of two up to G, p up to PP_MAX, or
 * forced). */
static int groups(const struct tsearch *S, struct tgroup *g)
{
	const struct eng_tctx *x = S->x;
	const struct eng_tgtable *tb = group_table(S);
	if (tb) {
		int n = 0;
		for (int j = 0; j < tb->n; j++) {
			struct eng_tlean *e = &x->cache->pool[tb->first + j];
			if (x->w->tp <= 0 && e->t > x->tmax)
				continue;
			struct tgroup *gi = &g[n++];
			gi->t = e->t;
			gi->p = e->p;
			gi->c_hi = -1;
			gi->link_t = tp_link(x, e->t);
			gi->le = e;
			gi->lean_e = 0;
		}
		return n;
	}
	int tp[2 * NGROUP];
	int n = group_list(x, S->G, x->tmax, NGROUP, tp);
	if (n < 0)
		n = NGROUP;	/* as many as there is room for */
	for (int j = 0; j < n; j++)
		g[j] = (struct tgroup){ .t = tp[2 * j], .p = tp[2 * j + 1], .c_hi = -1, .link_t = tp_link(x, tp[2 * j]) };
	return n;
}

/* FIT: whether the leanest shape of some group fits. */
static void walk_fit(struct tsearch *S, struct tgroup *g, int n)
{
	const struct eng_tctx *x = S->x;
	/* the most parallel groups first: the likeliest to fit */
	for (int i = n - 1; i >= 0 && !S->found; i--) {
		struct eng_tlayout buf;
		struct eng_tlean *e;
		double lowest;
		const struct eng_tlayout *lean = group_lean(S, &g[i], &buf, &e);
		struct eng_tstate st;
		if (!lean || group_fit(S, e, lean, &lowest, &st) < 0)
			continue;
		/* the leanest layout fits and would be taken; a figure that
		 * gives no number has its layouts sized */
		if (!isnan(lowest)) {
			S->found = true;
		} else {
			struct eng_tlayout shape = *lean;
			shape.link_t = g[i].link_t;
			try_shape(S, &shape, &st, lightest_fit(x, &shape, &st, &lowest));
		}
	}
}

/* A lower bound on the step of every layout of the group whose leanest
 * shape is lean, none lighter on recompute than rec0: its work and the
 * least bubble (see shape_floor()) and the TP traffic without latency
 * (every shape moves at least seqs / (d c) sequences through each layer's
 * all-reduces, m b / c of them), group_work(); then, group_whole(), the
 * bubble and the PP sends' bytes at the virtual stages where together
 * they are least (each shape's m b >= seqs / d sequences cross each stage
 * boundary forward and back v times, 1/(c t) of each one's activations at
 * least, over the link of stages t c d = G / p GPUs apart:
 * eng_train_pp_send()) and the least exposed DP time (the leanest shape
 * has the least expert state; d c is the group's).  The terms come from
 * different layouts, so BOUND_ROUNDING covers the sums' rounding
 * (group_bound()); group_work()'s is below group_whole()'s. */
static inline double group_bound(double work, double late)
{
	return (work + late) * (1.0 - BOUND_ROUNDING);
}

static inline double group_work(const struct tsearch *S, struct tgroup *g, const struct eng_tlayout *lean, int rec0)
{
	const struct eng_tctx *x = S->x;
	double compute = S->compute_g[rec0] * lean->imb;
	double elem = S->elem_g * lean->imb;
	g->lb_w0 = compute + elem;
	g->lb_tp = 0;
	if (lean->t > 1) {
		double dc = (double)lean->d * lean->c;
		double bytes = x->seqs / dc * x->s * x->m->hidden * 2.0;
		double layers = (double)x->m->layers / lean->p * lean->imb;
		g->lb_tp = layers * eng_train_tp_allreduces(x->rec_lo) * eng_ring_allreduce_s(bytes, lean->t, g->link_t, 0);
	}
	double lb = g->lb_w0 + eng_train_bubble_of(g->lb_w0, lean->p, lean->m, v_most(S, lean->p));
	return group_bound(lean->t > 1 ? lb + g->lb_tp : lb, 0);
}

static inline double group_whole(const struct tsearch *S, const struct tgroup *g, const struct eng_tlayout *lean)
{
	const struct eng_tctx *x = S->x;
	double least = 0;	/* bubble + PP sends */
	if (lean->p > 1) {
		double dc = (double)lean->d * lean->c;
		long stride = (long)lean->t * lean->c * lean->d;
		double bw = stride * 2 <= x->node ? x->link2 : x->nic_bw;
		double send = 2.0 * (x->seqs / dc) * x->s * x->m->hidden * 2.0 / lean->t / bw;
		least = INFINITY;
		for (unsigned vs = vmask_of(S, lean->p) | 2u; vs; vs &= vs - 1) {
			int v = __builtin_ctz(vs);
			double f = eng_train_bubble_of(g->lb_w0, lean->p, lean->m, v) + v * send;
			if (f < least)
				least = f;
		}
	}
	/* the leanest shape as shape_init() made it, at ZeRO 0 */
	double dp = eng_train_dp_comm(x, lean);
	double dpx = eng_train_dp_exposed_floor(x, dp, S->compute_g[x->rec_hi] * lean->imb + S->elem_g * lean->imb);
	return group_bound(g->lb_w0 + least + g->lb_tp, dpx);
}

/* MIN: each group's bound from its leanest shape - the lightest recompute
 * that can fit it, no imbalance but its own, the least bubble (the most
 * micro-batches, the most virtual stages); then the groups from the
 * lowest bound while it can beat the fastest step so far.  A group whose
 * leanest shape does not fit is left before its bound is worked out, its
 * memory the least of the group's (group_fit()).  The whole bound is
 * worked out only when group_work()'s comes first and can still beat
 * the fastest step, and the group then goes back in its place, so the
 * groups are tried in the order of their whole bounds.  Which groups are
 * tried does not depend on the order they are met in (see "Which layout
 * wins"), only how soon the cut tightens. */
/* Puts group k at its place in ord[0..n), kept in the order of the
 * groups' bounds (a NaN bound first: such a group is never skipped). */
static inline void ord_insert(const struct tgroup *g, int *ord, int n, int k)
{
	double lb = isnan(g[k].lb) ? -INFINITY : g[k].lb;
	int j = n;
	while (j > 0 && g[ord[j - 1]].lb > lb) {
		ord[j] = ord[j - 1];
		j--;
	}
	ord[j] = k;
}

/* Moves ord[head], whose bound has grown, to its place in ord[head..n). */
static inline void ord_sink(const struct tgroup *g, int *ord, int head, int n)
{
	int k = ord[head];
	double lb = isnan(g[k].lb) ? -INFINITY : g[k].lb;
	int j = head;
	while (j + 1 < n && !(g[ord[j + 1]].lb > lb)) {
		ord[j] = ord[j + 1];
		j++;
	}
	ord[j] = k;
}

static void walk_min(struct tsearch *S, struct tgroup *g, int n)
{
	int ord[NGROUP], live = 0;
	for (int i = 0; i < n; i++) {
		struct eng_tlayout buf;
		struct eng_tlean *e;
		double lowest;
		const struct eng_tlayout *lean = group_lean(S, &g[i], &buf, &e);
		if (!lean)
			continue;
		int rec0 = group_fit(S, e, lean, &lowest, &g[i].lean_st);
		if (rec0 < 0)
			continue;
		g[i].lean_e = lean->ep;
		g[i].lean_dp = NULL;
		if (isnan(lowest)) {
			g[i].lb = -INFINITY;
		} else {
			g[i].lb = group_work(S, &g[i], lean, rec0);
			/* the whole bound later, from the cache's copy of the
			 * shape, which outlives buf */
			g[i].lean_dp = e ? &e->shape : NULL;
			if (!e)
				g[i].lb = group_whole(S, &g[i], lean);
		}
		ord_insert(g, ord, live++, i);
	}
	for (int head = 0; head < live && !(g[ord[head]].lb > cut(S));) {
		struct tgroup *h = &g[ord[head]];
		if (h->lean_dp) {
			h->lb = group_whole(S, h, h->lean_dp);
			h->lean_dp = NULL;
			ord_sink(g, ord, head, live);
			continue;
		}
		try_group(S, h);
		head++;
	}
}

/* Fastest fitting layout on G GPUs (see above); false if none fits.
 * *min_mem, the least memory any layout needs, is what the callers report
 * when none fits; once a layout fits nobody reads it.  fit_only: whether
 * any layout fits, *best untouched; a search that finds none sizes the
 * leanest layout of every group either way, min_mem included. */
static bool search(const struct eng_tctx *x, unsigned *vmask, int G, bool fit_only, struct eng_tlayout *best,
		   double *min_mem)
{
	struct eng_tlayout cand[NCAND];
	struct tgroup g[NGROUP];
	struct tsearch S = { .x = x, .G = G, .pass = fit_only ? PASS_FIT : PASS_MIN, .min_mem = INFINITY,
			     .vmask = x->cache ? x->cache->vmask : vmask, .cand = cand };
	vmask_fill(x, x->cache ? x->cache->vmask : vmask);
	S.prune_ok = x->lat >= 0 && x->overlap <= 1;
	S.cut = INFINITY;
	for (int r = 0; r < RECOMPUTE_COUNT; r++)
		S.compute_g[r] = eng_train_compute_g(x, G, r);
	S.elem_g = eng_train_elem_g(x, G);
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

void eng_tmemo_init(struct eng_tmemo *mc)
{
	mc->n = 0;
	mc->next = 0;
	mc->vmask[0] = 0;	/* vmask_fill() not done */
}

bool eng_train_search_memo(struct eng_tmemo *mc, const struct eng_tctx *x, int G, bool full, struct eng_tlayout *best,
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
	struct eng_tlayout b = { .t = 0 };
	double mm;
	bool found = search(x, mc->vmask, G, !full, &b, &mm);
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

/* ---- the reference walk ---- */

/* One shape's candidates as the search defines them, every figure worked
 * out and nothing skipped: for each virtual stage, the recompute choices
 * from the lightest, each with the ZeRO stage of 0..zsame holding least
 * and every stage above zsame, until one of the former fits. */
struct xwalk {
	const struct eng_tctx *x;
	int G;
	bool found;
	double smin, min_mem;
	int n;
	struct eng_tlayout *all;	/* every fitting candidate, in walk order */
	int cap;
	bool overflow;
};

static void xwalk_add(struct xwalk *W, const struct eng_tlayout *l)
{
	if (!W->found || l->step < W->smin)
		W->smin = l->step;
	W->found = true;
	if (W->n < W->cap)
		W->all[W->n++] = *l;
	else
		W->overflow = true;
}

static void xwalk_shape(struct xwalk *W, const struct eng_tlayout *shape)
{
	const struct eng_tctx *x = W->x;
	struct eng_tlayout l = *shape;
	int zmax = shape->d * shape->c == 1 ? 0 : 3;
	double state[4];
	for (int z = 0; z <= zmax; z++) {
		l.zero = z;
		state[z] = eng_train_state(x, &l);
	}
	double reserve = eng_train_reserve(x, &l);
	/* the least memory of any layout of the shape, for min_mem */
	l.v = v_lean(x, shape->p);
	l.rec = x->rec_hi;
	double act1 = l.v ? eng_train_activation(x, &l) : INFINITY;
	for (int z = 0; z <= zmax; z++)
		if (eng_train_mem(state[z], act1, reserve) < W->min_mem)
			W->min_mem = eng_train_mem(state[z], act1, reserve);
	int zsame = x->expert_params > 0 && !x->frozen ? 1 : 2;
	unsigned vmask = vmask_compute(x, shape->p);
	for (int v = 1; v < 32; v++) {
		if (!(vmask >> v & 1u))
			continue;
		for (int rec = x->rec_lo; rec <= x->rec_hi; rec++) {
			l.v = v;
			l.rec = rec;
			double act = eng_train_activation(x, &l);
			int zlo = 0;
			for (int z = 1; z <= zmax && z <= zsame; z++)
				if (eng_train_mem(state[z], act, reserve) < eng_train_mem(state[zlo], act, reserve))
					zlo = z;
			bool fit_same = false;
			for (int z = zlo; z <= zmax; z = z <= zsame ? zsame + 1 : z + 1) {
				l.zero = z;
				l.mem_gpu = eng_train_mem(state[z], act, reserve);
				if (!(l.mem_gpu <= x->usable))
					continue;
				fit_same = fit_same || z <= zsame;
				l.compute = eng_train_compute_g(x, W->G, rec) * l.imb;
				l.elem = eng_train_elem_g(x, W->G) * l.imb;
				l.bubble = eng_train_bubble(&l);
				l.tp_comm = eng_train_tp_comm(x, &l);
				l.cp_comm = eng_train_cp_comm(x, &l);
				l.ep_comm = x->m->experts > 1 ? eng_train_ep_comm(x, &l) + eng_train_expert_mem(x, &l) : 0;
				l.pp_comm = eng_train_pp_comm(x, &l);
				eng_train_step_finish(x, &l);
				xwalk_add(W, &l);
			}
			if (fit_same)
				break;
		}
	}
}

bool eng_train_search_reference(const struct eng_tctx *x, int G, struct eng_tlayout *best, double *min_mem,
				struct eng_tlayout *scratch, int cap)
{
	const struct workload *w = x->w;
	struct xwalk W = { .x = x, .G = G, .min_mem = INFINITY, .all = scratch, .cap = cap };
	struct tsearch S = { .x = x, .G = G };	/* for shape_init() */
	for (int t = deg_first(w->tp); t && t <= G; t = deg_next(w->tp, t)) {
		if (!tp_ok(x, t))
			continue;
		struct tgroup g = { .t = t, .link_t = eng_link_bw(x->c, x->a, x->plat, t) };
		int p_lo = w->pp > 0 ? w->pp : 1, p_hi = w->pp > 0 ? w->pp : PP_MAX;
		for (int p = p_lo; p <= p_hi; p++) {
			g.p = p;
			for (int c = deg_first(w->cp); c && c <= CP_MAX; c = deg_next(w->cp, c)) {
				if (!cp_ok(x, c) || !tcp_ok(x, G, t, c, p))
					continue;
				int d = G / (t * c * p);
				for (int b = deg_first(w->micro_batch); b && mb_ok(x, d, b); b = deg_next(w->micro_batch, b))
					for (int e = 1; e <= t * d * c; e++) {
						if (!ep_ok(x, t * d * c, e))
							continue;
						struct eng_tlayout shape;
						shape_init(&S, &g, c, b, e, &shape);
						xwalk_shape(&W, &shape);
					}
			}
		}
	}
	*min_mem = W.min_mem;
	if (!W.found || W.overflow)
		return W.found && !W.overflow;
	const struct eng_tlayout *win = NULL;
	for (int i = 0; i < W.n; i++)
		if (W.all[i].step <= W.smin * TIE && (!win || better(&W.all[i], win)))
			win = &W.all[i];
	*best = *win;
	return true;
}
