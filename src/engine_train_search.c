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

/* The virtual stages p stages allow, as a mask of bits 1 << v. */
static unsigned vmask_compute(const struct eng_tctx *x, int p)
{
	int lps = lps_of(x, p);
	unsigned mask = 0;
	for (int v = 1; v <= V_MAX && v <= lps; v++)
		if (v_ok(p, lps, v))
			mask |= 1u << v;
	return mask;
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
	double compute_g[RECOMPUTE_COUNT], elem_g;	/* work_terms() before imb */
	struct eng_tlayout best;		/* PICK */
	int ncand;
	bool overflow;
	struct eng_tlayout *cand;		/* MIN: NCAND, in walk order */
	double min_mem;			/* least memory of any layout sized */
	unsigned *vmask;		/* the memo's masks by p, 0 until worked out */
};

/* The virtual stages p stages allow (vmask_compute()), worked out once
 * per accelerator for the depths the search meets. */
static unsigned vmask_of(const struct tsearch *S, int p)
{
	if (p > PP_MAX)
		return vmask_compute(S->x, p);
	if (!S->vmask[p])
		S->vmask[p] = vmask_compute(S->x, p) | (1u << 31);
	return S->vmask[p] & ~(1u << 31);
}

/* The terms of a shape's step that do not depend on the virtual stages,
 * for one recompute choice. */
struct tterms {
	bool set;
	double compute, elem, tp, cp, ep;	/* ep: the MoE layers' own costs, see eng_tlayout */
};

static void shape_terms(const struct tsearch *S, const struct eng_tlayout *shape, int rec, struct tterms *k)
{
	struct eng_tlayout l = *shape;
	l.rec = rec;
	k->compute = S->compute_g[rec] * l.imb;
	k->elem = S->elem_g * l.imb;
	k->tp = eng_train_tp_comm(S->x, &l);
	k->cp = eng_train_cp_comm(S->x, &l);
	k->ep = S->x->m->experts > 1 ? eng_train_ep_comm(S->x, &l) + eng_train_expert_mem(S->x, &l) : 0;
	k->set = true;
}

/* The step without the data-parallel exchange, which alone depends on the
 * ZeRO stage: below every ZeRO stage's step (eng_train_step_finish() adds a term
 * >= 0 to this very sum). */
static double step_parts(const struct eng_tctx *x, const struct tterms *k, struct eng_tlayout *l)
{
	l->compute = k->compute;
	l->elem = k->elem;
	l->bubble = eng_train_bubble(l);
	l->tp_comm = k->tp;
	l->cp_comm = k->cp;
	l->ep_comm = k->ep;
	l->pp_comm = eng_train_pp_comm(x, l);
	return l->compute + l->elem + l->bubble + l->tp_comm + l->cp_comm + l->ep_comm + l->pp_comm;
}



/* The most virtual stages p stages allow (1 always is). */
static int v_most(const struct tsearch *S, int p)
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

/* A layout whose bound exceeds this cannot win. */
static double cut(const struct tsearch *S)
{
	return S->found && S->prune_ok ? S->smin * TIE : INFINITY;
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
/* eng_train_dp_comm() of a shape at ZeRO 0 or 1 ([0]), 2 ([1]) and 3
 * ([2]), once each: it depends on the shape and those classes of stage,
 * not on the virtual stages or the recompute. */
struct tdp {
	bool set[3];
	double v[3];
};

static double shape_dp(const struct eng_tctx *x, const struct eng_tlayout *l, struct tdp *dp)
{
	int i = l->zero >= 3 ? 2 : l->zero >= 2 ? 1 : 0;
	if (!dp->set[i]) {
		dp->v[i] = eng_train_dp_comm(x, l);
		dp->set[i] = true;
	}
	return dp->v[i];
}

static void try_layouts(struct tsearch *S, const struct eng_tlayout *shape, int rec0, int zmax,
			const double *state, double reserve, struct tterms *k, double dp_lb, struct tdp *dp)
{
	const struct eng_tctx *x = S->x;
	unsigned vmask = vmask_of(S, shape->p);
	for (int v = 1; v <= V_MAX; v++) {
		if (!(vmask & (1u << v)))
			continue;
		/* Recompute from the lightest: once a layout of the ZeRO
		 * stages that cost the same fits, heavier recompute only adds
		 * work. */
		for (int rec = rec0; rec <= x->rec_hi; rec++) {
			struct eng_tlayout l = *shape;
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
			double act = eng_train_activation(x, &l);
			/* ZeRO 0, 1 and 2 differ in memory only (for a trained MoE
			 * model 0 and 1: its experts' ZeRO-2 reduce-scatters run
			 * every micro-batch, experts_dp_comm()): of those the one holding
			 * least (the lowest stage at equal memory) is the only one
			 * better() can pick, and fits if any does. */
			int zsame = x->expert_params > 0 && !x->frozen ? 1 : 2;
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
				l.zero = z;
				l.mem_gpu = z <= zsame ? mlo : eng_train_mem(state[z], act, reserve);
				if (l.mem_gpu < S->min_mem)
					S->min_mem = l.mem_gpu;
				if (l.mem_gpu > x->usable)
					continue;
				fit_same = fit_same || z <= zsame;
				eng_train_step_finish_dp(x, &l, shape_dp(x, &l, dp));
				consider(S, &l);
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
static double shape_floor(const struct tsearch *S, const struct eng_tlayout *shape, int rec0)
{
	double compute = S->compute_g[rec0] * shape->imb;
	double elem = S->elem_g * shape->imb;
	return compute + elem + eng_train_bubble_of(compute + elem, shape->p, shape->m, v_most(S, shape->p));
}

/* The layout shape_floor() sums: the shape at rec0 with the most virtual
 * stages, its work and bubble filled in. */
static void floor_layout(const struct tsearch *S, const struct eng_tlayout *shape, int rec0, struct eng_tlayout *l)
{
	*l = *shape;
	l->rec = rec0;
	l->v = v_most(S, shape->p);
	l->compute = S->compute_g[rec0] * l->imb;
	l->elem = S->elem_g * l->imb;
	l->bubble = eng_train_bubble(l);
}

/* Whether no layout of the shape, none lighter on recompute than rec0,
 * can beat cut(S) once its communication is added to the floor, then the
 * least exposed DP time. */
static bool shape_slow(const struct tsearch *S, const struct eng_tlayout *shape, int rec0, struct tterms *k,
		       double *dp_lb, struct tdp *dpc)
{
	const struct eng_tctx *x = S->x;
	double limit = cut(S);
	*dp_lb = 0;
	if (!(limit < INFINITY))
		return false;
	struct eng_tlayout l;
	floor_layout(S, shape, rec0, &l);
	if (l.compute + l.elem + l.bubble > limit)
		return true;
	shape_terms(S, shape, rec0, &k[rec0]);
	l.v = 1;
	double lb = l.compute + l.elem + l.bubble + k[rec0].tp + k[rec0].cp + k[rec0].ep +
		    eng_train_pp_comm(x, &l);
	if (lb > limit)
		return true;
	l.zero = 0;
	double dp = shape_dp(x, &l, dpc);
	*dp_lb = eng_train_dp_exposed_floor(x, dp, S->compute_g[x->rec_hi] * l.imb + l.elem);
	return (lb + *dp_lb) * (1.0 - BOUND_ROUNDING) > limit;
}

/* A shape's model state by ZeRO stage (state[zlean..zmax]) and runtime
 * reserve: what its memory adds to the activations; mem is its entry in
 * the run's cache (engine_train.h), NULL without one. */
struct tstate {
	int zlean, zmax;
	double state[4], reserve;
	struct eng_tshape_mem *mem;
};

struct eng_tcache *eng_tcache_new(void)
{
	/* not calloc(): zeroing the whole block costs a recommend process
	 * more than the slots' generations below */
	struct eng_tcache *tc = malloc(sizeof *tc);
	if (!tc)
		return NULL;
	tc->gen = 0;
	for (size_t i = 0; i < TCACHE_SLOTS; i++)
		tc->slot[i].gen = 0;
	for (size_t i = 0; i < TLEAN_SLOTS; i++)
		tc->lean[i].gen = 0;
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
	if (!tc->gen) {		/* wrapped: no slot may look valid */
		memset(tc->slot, 0, sizeof tc->slot);
		memset(tc->lean, 0, sizeof tc->lean);
		tc->gen = 1;
	}
	memset(tc->vmask, 0, sizeof tc->vmask);
	tc->work.set = false;
}

/* The shape's entry in the run's cache, found or taken (open addressing
 * on its key); NULL without a cache, with a key that cannot be compared
 * (NaN bytes) or when every slot is taken: the caller then sizes it. */
static struct eng_tshape_mem *cache_slot(const struct tsearch *S, const struct eng_tlayout *shape)
{
	struct eng_tcache *tc = S->x->cache;
	double bb = S->x->base_bytes;
	if (!tc || isnan(bb))
		return NULL;
	unsigned h = (unsigned)S->G * 2654435761u;
	h = (h ^ (unsigned)shape->t) * 16777619u;
	h = (h ^ (unsigned)shape->p) * 16777619u;
	h = (h ^ (unsigned)shape->c) * 16777619u;
	h = (h ^ (unsigned)shape->b) * 16777619u;
	h = (h ^ (unsigned)shape->ep) * 16777619u;
	for (unsigned i = 0; i < TCACHE_SLOTS; i++) {
		struct eng_tshape_mem *e = &tc->slot[(h + i) % TCACHE_SLOTS];
		if (e->gen != tc->gen) {
			*e = (struct eng_tshape_mem){ .gen = tc->gen, .G = S->G, .t = shape->t, .p = shape->p,
						      .c = shape->c, .b = shape->b, .e = shape->ep, .base_bytes = bb };
			return e;
		}
		if (e->G == S->G && e->t == shape->t && e->p == shape->p && e->c == shape->c && e->b == shape->b &&
		    e->e == shape->ep && e->base_bytes == bb)
			return e;
	}
	return NULL;
}

static void shape_state(const struct tsearch *S, struct eng_tlayout *shape, struct tstate *st)
{
	const struct eng_tctx *x = S->x;
	struct eng_tshape_mem *e = st->mem = cache_slot(S, shape);
	if (e && e->filled) {
		st->zlean = e->zlean;
		st->zmax = e->zmax;
		for (int z = st->zlean; z <= st->zmax; z++)
			st->state[z] = e->state[z];
		st->reserve = e->reserve;
		shape->zero = st->zmax;
		return;
	}
	st->zmax = shape->d * shape->c == 1 ? 0 : 3;
	st->zlean = x->zero_monotone ? st->zmax : 0;
	for (int z = st->zlean; z <= st->zmax; z++) {
		shape->zero = z;
		st->state[z] = eng_train_state(x, shape);
	}
	st->reserve = eng_train_reserve(x, shape);
	if (e) {
		e->filled = true;
		e->zlean = st->zlean;
		e->zmax = st->zmax;
		memcpy(e->state, st->state, sizeof e->state);
		e->reserve = st->reserve;
	}
}

/* The state of the ZeRO stages below zlean, which only a shape that is
 * tried needs. */
static void state_below(const struct eng_tctx *x, struct eng_tlayout *shape, struct tstate *st)
{
	struct eng_tshape_mem *e = st->mem;
	if (e && e->all_z) {
		for (int z = 0; z < st->zlean; z++) {
			shape->zero = z;
			st->state[z] = e->state[z];
		}
		return;
	}
	for (int z = 0; z < st->zlean; z++) {
		shape->zero = z;
		st->state[z] = eng_train_state(x, shape);
	}
	if (e) {
		e->all_z = true;
		for (int z = 0; z < st->zlean; z++)
			e->state[z] = st->state[z];
	}
}

/* The shape's activations at one virtual stage (shape->v is 1). */
static double lean_act(const struct eng_tctx *x, const struct eng_tlayout *shape, int rec, const struct tstate *st)
{
	struct eng_tshape_mem *e = st->mem;
	if (e && (e->act_set & (1u << rec)))
		return e->act1[rec];
	double act = eng_train_activation(x, shape);
	if (e) {
		e->act1[rec] = act;
		e->act_set |= 1u << rec;
	}
	return act;
}

/* The least memory of the shape's layouts at one recompute choice: one
 * virtual stage (activations only grow with more), the ZeRO stage holding
 * least; NAN when a figure gives no number. */
static double lean_mem(const struct eng_tctx *x, struct eng_tlayout *shape, int rec, const struct tstate *st)
{
	shape->v = 1;
	shape->rec = rec;
	double act = lean_act(x, shape, rec, st);
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

/* The lightest recompute whose leanest layout fits, -1 when not even the
 * heaviest does (*lowest: that one's memory). */
static int lightest_fit(const struct eng_tctx *x, struct eng_tlayout *shape, const struct tstate *st, double *lowest)
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
static void try_shape(struct tsearch *S, struct eng_tlayout *shape, struct tstate *st, int rec0)
{
	const struct eng_tctx *x = S->x;
	struct tterms k[RECOMPUTE_COUNT];
	for (int r = 0; r < RECOMPUTE_COUNT; r++)
		k[r].set = false;
	double dp_lb = 0;
	struct tdp dp = { { false, false, false }, { 0, 0, 0 } };
	if (S->pass != PASS_FIT && shape_slow(S, shape, rec0, k, &dp_lb, &dp))
		return;
	state_below(x, shape, st);
	try_layouts(S, shape, rec0, st->zmax, st->state, st->reserve, k, dp_lb, &dp);
}

/* A shape's memory: its state, and the lightest recompute that can fit
 * it (-1 when none; the least memory then goes to min_mem). */
static int shape_fit(struct tsearch *S, struct eng_tlayout *shape, struct tstate *st, double *lowest)
{
	shape_state(S, shape, st);
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
static bool tp_ok(const struct eng_tctx *x, int t)
{
	return (x->w->tp > 0 || t <= x->tmax) && eng_tp_valid(x->m, t);
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
static bool tcp_ok(const struct eng_tctx *x, int G, int t, int c, int p)
{
	return p <= x->m->layers && (long)t * c * p <= G && G % (t * c * p) == 0 &&
	       G / (t * c * p) <= x->seqs;
}

static bool mb_ok(const struct eng_tctx *x, int d, int b)
{
	return (x->w->micro_batch > 0 || b <= MB_MAX) && (double)d * b <= x->seqs;
}

/* Expert parallel e divides the experts and the n = t x c x d GPUs of a
 * stage (MoE parallel folding, expert tensor parallelism 1: see
 * engine_train_step.c). */
static bool ep_ok(const struct eng_tctx *x, int n, int e)
{
	if (x->m->experts <= 1)
		return e == 1 && x->w->ep <= 1;
	if (x->w->ep > 0 && e != x->w->ep)
		return false;
	return e <= n && e <= x->m->experts && x->m->experts % e == 0 && n % e == 0;
}

/* The most expert parallelism of a stage of n GPUs, 0 when none is
 * allowed: the experts' state only shrinks with it. */
static int ep_most(const struct eng_tctx *x, int n)
{
	int e = x->m->experts > 1 && x->w->ep <= 0 ? (n < x->m->experts ? n : x->m->experts) : 1;
	if (x->w->ep > 0)
		e = x->w->ep;
	while (e >= 1 && !ep_ok(x, n, e))
		e = x->w->ep > 0 ? 0 : e - 1;
	return e;
}

/* group_floor()'s terms that do not depend on the recompute. */
struct gterms {
	double tp, dpx;
};

/* A (t, p) group: the shapes with these tensor and pipeline degrees. */
struct tgroup {
	int t, p;
	int c_hi;			/* the most context parallelism; -1 not yet known, 0 none */
	double link_t;
	double lb;			/* MIN: no layout of the group is faster */
	bool sized;			/* MIN: its leanest shape's memory known */
	struct gterms terms;		/* MIN: group_floor()'s terms */
};

static void shape_init(const struct tsearch *S, const struct tgroup *g, int c, int b, int e,
		       struct eng_tlayout *shape)
{
	const struct eng_tctx *x = S->x;
	int d = S->G / (g->t * c * g->p);
	memset(shape, 0, sizeof *shape);
	shape->t = g->t;
	shape->c = c;
	shape->p = g->p;
	shape->d = d;
	shape->b = b;
	shape->ep = e;
	shape->m = (long)ceil(x->seqs / ((double)d * b));
	shape->imb = g->p <= PP_MAX ? x->imb[g->p] : eng_train_stage_imbalance(x->m, g->p);
	shape->link_t = g->link_t;
}

/* The most context parallelism the group allows, 0 when none. */
static int cp_most(const struct tsearch *S, const struct tgroup *g)
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
static bool lean_shape(const struct tsearch *S, struct tgroup *g, struct eng_tlayout *shape)
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

/* The group's entry in the run's cache (struct eng_tlean), found or
 * taken; NULL without a cache or with every slot taken. */
static struct eng_tlean *lean_slot(const struct tsearch *S, const struct tgroup *g)
{
	struct eng_tcache *tc = S->x->cache;
	if (!tc)
		return NULL;
	unsigned h = (((unsigned)S->G * 2654435761u) ^ (unsigned)g->t) * 16777619u;
	h = (h ^ (unsigned)g->p) * 16777619u;
	for (unsigned i = 0; i < TLEAN_SLOTS; i++) {
		struct eng_tlean *e = &tc->lean[(h + i) % TLEAN_SLOTS];
		if (e->gen != tc->gen) {
			e->gen = tc->gen;
			e->G = S->G;
			e->t = g->t;
			e->p = g->p;
			e->c_hi = -1;	/* not worked out yet */
			return e;
		}
		if (e->G == S->G && e->t == g->t && e->p == g->p)
			return e;
	}
	return NULL;
}

static bool group_lean(const struct tsearch *S, struct tgroup *g, struct eng_tlayout *shape)
{
	struct eng_tlean *e = lean_slot(S, g);
	if (e && e->c_hi >= 0) {
		g->c_hi = e->c_hi;
		if (!e->ok)
			return false;
		*shape = e->shape;
		shape->link_t = g->link_t;	/* the accelerator's own */
		return true;
	}
	bool ok = lean_shape(S, g, shape);
	if (e) {
		e->c_hi = g->c_hi;
		e->ok = ok;
		if (ok)
			e->shape = *shape;
	}
	return ok;
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
	for (int c = g->c_hi < 0 ? cp_most(S, g) : g->c_hi; c >= 1; c = w->cp > 0 ? 0 : c / 2) {
		if (!cp_ok(x, c) || !tcp_ok(x, S->G, g->t, c, g->p))
			continue;
		int d = S->G / (g->t * c * g->p);
		bool first = true, stop_c = false;
		for (int b = deg_first(w->micro_batch); b && mb_ok(x, d, b); b = deg_next(w->micro_batch, b)) {
			bool stop_b = false;
			int e_hi = ep_most(x, g->t * d * c);
			for (int e = e_hi; e >= 1 && !stop_b; e--) {
				if (e < e_hi && !ep_ok(x, g->t * d * c, e))
					continue;
				struct eng_tlayout shape;
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
	const struct eng_tctx *x = S->x;
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
	const struct eng_tctx *x = S->x;
	/* the most parallel groups first: the likeliest to fit */
	for (int i = n - 1; i >= 0 && !S->found; i--) {
		struct eng_tlayout shape;
		struct tstate st;
		if (!group_lean(S, &g[i], &shape))
			continue;
		shape_state(S, &shape, &st);
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
 * layouts, so BOUND_ROUNDING covers the sums' rounding.  Only the floor
 * depends on rec0: the other two terms (struct gterms) are worked out
 * once per group. */
static void group_terms(const struct tsearch *S, const struct eng_tlayout *lean, struct gterms *k)
{
	const struct eng_tctx *x = S->x;
	double dc = (double)lean->d * lean->c;
	k->tp = 0;
	if (lean->t > 1) {
		double bytes = x->seqs / dc * x->s * x->m->hidden * 2.0;
		double layers = (double)x->m->layers / lean->p * lean->imb;
		k->tp = layers * eng_train_tp_allreduces(x->rec_lo) * eng_ring_allreduce_s(bytes, lean->t, lean->link_t, 0);
	}
	struct eng_tlayout l = *lean;
	l.zero = 0;
	double dp = eng_train_dp_comm(x, &l);
	k->dpx = eng_train_dp_exposed_floor(x, dp, S->compute_g[x->rec_hi] * l.imb + S->elem_g * l.imb);
}

static double group_floor(const struct tsearch *S, const struct eng_tlayout *lean, int rec0, const struct gterms *k)
{
	double compute = S->compute_g[rec0] * lean->imb;
	double elem = S->elem_g * lean->imb;
	double lb = compute + elem + eng_train_bubble_of(compute + elem, lean->p, lean->m, v_most(S, lean->p));
	if (lean->t > 1)
		lb += k->tp;
	return (lb + k->dpx) * (1.0 - BOUND_ROUNDING);
}

/* MIN: each group's bound from its leanest shape - the lightest recompute
 * that can fit it, no imbalance but its own, the least bubble (the most
 * micro-batches, the most virtual stages); then the groups from the
 * lowest bound while it can beat the fastest step so far.  A group whose
 * leanest shape does not fit is left, its memory the least of the
 * group's.
 *
 * Which recompute fits a group's leanest shape is sized only when its
 * turn comes: until then its bound is the one at the lightest recompute
 * tried (rec_lo), no higher than at any heavier one (no term shrinks with
 * recompute), so a group never sized could not have won either.  Sized,
 * a group whose lightest fitting recompute is heavier takes that bound
 * and waits for its turn again.  lean[] holds each group's leanest shape
 * meanwhile. */
/* Puts group k at its place in ord[lo..hi), kept in the order of the
 * groups' bounds (a NaN bound first: such a group is never skipped). */
static void ord_insert(const struct tgroup *g, int *ord, int lo, int hi, int k)
{
	double lb = isnan(g[k].lb) ? -INFINITY : g[k].lb;
	int j = hi;
	while (j > lo && g[ord[j - 1]].lb > lb) {
		ord[j] = ord[j - 1];
		j--;
	}
	ord[j] = k;
}

static void walk_min(struct tsearch *S, struct tgroup *g, int n, struct eng_tlayout *lean)
{
	const struct eng_tctx *x = S->x;
	int ord[NGROUP], live = 0;
	for (int i = 0; i < n; i++) {
		g[i].sized = false;
		if (!group_lean(S, &g[i], &lean[i]))
			continue;
		group_terms(S, &lean[i], &g[i].terms);
		g[i].lb = group_floor(S, &lean[i], x->rec_lo, &g[i].terms);
		ord_insert(g, ord, 0, live++, i);
	}
	for (int head = 0; head < live;) {
		int k = ord[head];
		if (g[k].lb > cut(S))
			break;
		if (!g[k].sized) {
			struct tstate st;
			double lowest;
			g[k].sized = true;
			int rec0 = shape_fit(S, &lean[k], &st, &lowest);
			if (rec0 < 0) {
				head++;
				continue;
			}
			if (isnan(lowest))
				g[k].lb = -INFINITY;
			else if (rec0 != x->rec_lo || !(g[k].lb > -INFINITY))
				g[k].lb = group_floor(S, &lean[k], rec0, &g[k].terms);
			if (rec0 != x->rec_lo && head + 1 < live && g[k].lb > g[ord[head + 1]].lb) {
				/* no longer the lowest: it waits for its turn */
				for (int i = head; i + 1 < live; i++)
					ord[i] = ord[i + 1];
				ord_insert(g, ord, head, live - 1, k);
				continue;
			}
		}
		head++;
		try_group(S, &g[k]);
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
	struct eng_tlayout lean[NGROUP];
	struct tsearch S = { .x = x, .G = G, .pass = fit_only ? PASS_FIT : PASS_MIN, .min_mem = INFINITY,
			     .vmask = x->cache ? x->cache->vmask : vmask, .cand = cand };
	S.prune_ok = x->lat >= 0 && x->overlap <= 1;
	for (int r = 0; r < RECOMPUTE_COUNT; r++)
		S.compute_g[r] = eng_train_compute_g(x, G, r);
	S.elem_g = eng_train_elem_g(x, G);
	int n = groups(&S, g);
	if (fit_only) {
		walk_fit(&S, g, n);
		*min_mem = S.min_mem;
		return S.found;
	}
	walk_min(&S, g, n, lean);
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
