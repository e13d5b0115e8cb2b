/*
 * The training layout search (engine_train_search.c) against its
 * reference walk: the search skips layouts by lower bounds on their step
 * and memory, orders groups best-first, shares a shape's memory between
 * accelerators through the run's cache and skips GPU counts by a memory
 * floor (engine_train.c).  None of that may change which layout wins:
 * for many workloads, every accelerator and several GPU counts, the
 * search must give the very layout, step and memory that
 * eng_train_search_reference() finds by walking every layout with no
 * bound.  A new step or memory term that breaks an assumption a bound
 * rests on (engine_train.h, "What the search's bounds assume") shows up
 * here as a different winner.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "engine.h"
#include "engine_internal.h"
#include "engine_train.h"
#include "fixture.h"
#include "tap.h"

static struct catalog *cat;

enum { SCRATCH = 1 << 15 };
static struct eng_tlayout *scratch;

struct tcase {
	enum workload_class cls;
	const char *model;
	enum precision p;
	long seq;
	double batch_seqs;		/* 0: the class default */
	int method;			/* finetune: enum ft_method + 1, 0 default */
	enum recompute rec;
	int tp, pp, cp, ep, mb;
	enum cp_comm cpc;
	int vp;				/* forced virtual stages, 0: searched */
};

static void set_case(struct workload *w, const struct tcase *k)
{
	engine_workload_init(w, cat);
	engine_workload_class_defaults(w, k->cls);
	w->model = fixture_model(cat, k->model);
	w->precision = k->p;
	if (k->seq > 0)
		w->seq_len = k->seq;
	if (k->batch_seqs > 0)
		w->global_batch_tokens = k->batch_seqs * (double)w->seq_len;
	if (k->method > 0)
		w->method = (enum ft_method)(k->method - 1);
	w->recompute = k->rec;
	w->tp = k->tp;
	w->pp = k->pp;
	w->cp = k->cp;
	w->ep = k->ep;
	w->micro_batch = k->mb;
	w->cp_comm = k->cpc;
	w->vp = k->vp;
}

static bool same_layout(const struct eng_tlayout *a, const struct eng_tlayout *b)
{
	return a->t == b->t && a->c == b->c && a->p == b->p && a->v == b->v && a->d == b->d && a->ep == b->ep &&
	       a->zero == b->zero && a->b == b->b && a->rec == b->rec && a->step == b->step &&
	       a->mem_gpu == b->mem_gpu;
}

static void describe(const struct eng_tlayout *l, char *buf, size_t n)
{
	snprintf(buf, n, "TP%d CP%d PP%d VP%d DP%d EP%d Z%d mb%d rec%d step %.9g mem %.6g GB", l->t, l->c, l->p,
		 l->v, l->d, l->ep, l->zero, l->b, l->rec, l->step, l->mem_gpu / ENG_GB);
}

/* The search on G GPUs, as the sizing asks it (a fresh memo, the run's
 * cache tc shared with the accelerators before), against the reference.
 * Returns the number of comparisons made (0 or 1). */
static int check_one(const struct tcase *k, size_t ki, const struct eng_tctx *x, int G)
{
	struct eng_tmemo memo;
	memset(&memo, 0, sizeof memo);
	struct eng_tlayout got = { .t = 0 }, want = { .t = 0 };
	double got_mm = 0, want_mm = 0;
	bool fit = eng_train_search_memo(&memo, x, G, false, &got, &got_mm);
	bool found = eng_train_search_memo(&memo, x, G, true, &got, &got_mm);
	bool ref = eng_train_search_reference(x, G, &want, &want_mm, scratch, SCRATCH);
	char a[160], b[160];
	describe(&got, a, sizeof a);
	describe(&want, b, sizeof b);
	ck_assert_msg(fit == found, "case %zu (%s) on %s, %d GPUs: the fit pass says %d, the full search %d", ki,
		      k->model, x->a->id, G, fit, found);
	ck_assert_msg(found == ref, "case %zu (%s) on %s, %d GPUs: search found %d (%s), reference %d (%s)", ki,
		      k->model, x->a->id, G, found, a, ref, b);
	if (found)
		ck_assert_msg(same_layout(&got, &want), "case %zu (%s) on %s, %d GPUs: search %s, reference %s", ki,
			      k->model, x->a->id, G, a, b);
	else
		ck_assert_msg(got_mm == want_mm || (isinf(got_mm) && isinf(want_mm)),
			      "case %zu (%s) on %s, %d GPUs: least memory %.9g against %.9g", ki, k->model,
			      x->a->id, G, got_mm, want_mm);
	/* the sizing passes over a GPU count whose memory floor is over the
	 * usable memory (surely_unfit()): nothing may fit there */
	const struct workload *w = x->w;
	if (G > 1 && G <= x->seqs && w->tp <= 0 && w->pp <= 0 && w->cp <= 0 && w->ep <= 0 && w->micro_batch <= 0 &&
	    eng_train_mem_floor(x, G) * (1.0 - 1e-9) > x->usable)
		ck_assert_msg(!ref, "case %zu (%s) on %s, %d GPUs: the memory floor rules out a layout that fits", ki,
			      k->model, x->a->id, G);
	return 1;
}

static const struct tcase cases[] = {
	{ WL_PRETRAIN, "llama-2-70b", PREC_BF16, 4096, 0, 0, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "llama-2-70b", PREC_FP8, 4096, 0, 0, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "llama-3.1-8b", PREC_BF16, 8192, 128, 0, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "llama-3.1-405b", PREC_FP8, 8192, 512, 0, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "llama-2-7b", PREC_BF16, 4096, 256, 0, RECOMPUTE_NONE, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "llama-2-13b", PREC_BF16, 2048, 512, 0, RECOMPUTE_FULL, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "mixtral-8x7b", PREC_FP8, 4096, 256, 0, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "qwen3-235b-a22b", PREC_BF16, 4096, 1024, 0, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "deepseek-v3", PREC_FP8, 4096, 2048, 0, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "gpt-oss-120b", PREC_BF16, 8192, 256, 0, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "qwen3-32b", PREC_FP4, 16384, 64, 0, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "llama-3.1-70b", PREC_BF16, 8192, 256, 0, RECOMPUTE_AUTO, 4, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "llama-3.1-70b", PREC_BF16, 8192, 256, 0, RECOMPUTE_AUTO, 0, 4, 2, 0, 1, CPC_P2P, 0 },
	{ WL_PRETRAIN, "mixtral-8x22b", PREC_BF16, 4096, 512, 0, RECOMPUTE_SELECTIVE, 0, 0, 0, 8, 0, CPC_P2P, 0 },
	{ WL_PRETRAIN, "llama-3.1-8b", PREC_BF16, 4096, 8, 0, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	/* forced virtual stages, the pipeline depth searched (Megatron-Bridge's
	 * DGX-H100 Qwen3-30B-A3B runs VP 12 and 24) */
	{ WL_PRETRAIN, "qwen3-30b-a3b", PREC_FP8, 4096, 512, 0, RECOMPUTE_AUTO, 0, 0, 0, 8, 0, CPC_P2P, 12 },
	{ WL_FINETUNE, "llama-2-70b", PREC_BF16, 0, 0, 0, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_FINETUNE, "llama-2-70b", PREC_BF16, 4096, 64, FT_FULL + 1, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_FINETUNE, "llama-3.1-8b", PREC_FP8, 8192, 128, FT_LORA + 1, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_FINETUNE, "llama-3.1-70b", PREC_BF16, 4096, 32, FT_QLORA + 1, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_FINETUNE, "mixtral-8x7b", PREC_BF16, 4096, 64, FT_LORA + 1, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	{ WL_FINETUNE, "llama-3.1-405b", PREC_FP8, 8192, 64, FT_LORA + 1, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_P2P, 0 },
	/* the all-to-all exchange (NVIDIA's MLPerf v5.0 LoRA setup) */
	{ WL_FINETUNE, "llama-2-70b", PREC_FP8, 8192, 64, FT_LORA + 1, RECOMPUTE_AUTO, 0, 0, 0, 0, 0, CPC_A2A, 0 },
};

/* GPU counts to compare on: multiples of the node step around the count
 * the sizing picks, and a few far from it. */
static int counts(const struct eng_tctx *x, int sized, int *out)
{
	int n = 0;
	const int mult[] = { 1, 2, 3, 4, 8, 16, 64 };
	for (size_t i = 0; i < sizeof mult / sizeof mult[0]; i++)
		out[n++] = mult[i] * x->step;
	if (sized > 0) {
		out[n++] = sized;
		out[n++] = sized * 2;
		if (sized / 2 >= 1)
			out[n++] = sized / 2;
	}
	out[n++] = 1;
	return n;
}

static void check_cases(size_t lo, size_t hi)
{
	struct eng_tcache *tc = eng_tcache_new();
	ck_assert_ptr_nonnull(tc);
	int compared = 0;
	for (size_t ki = lo; ki < hi; ki++) {
		const struct tcase *k = &cases[ki];
		struct workload w;
		set_case(&w, k);
		char why[160];
		ck_assert_msg(engine_workload_valid(&w, why, sizeof why), "case %zu: %s", ki, why);
		/* one run's cache over every accelerator, as engine_run() */
		eng_tcache_begin(tc);
		for (size_t i = 0; i < cat->n_accels; i++) {
			const struct catalog_accel *a = &cat->accels[i];
			struct eng_tctx x;
			if (!eng_train_context(cat, &w, a, tc, &x))
				continue;
			struct engine_result r;
			engine_evaluate(cat, &w, a, &r);
			int G[16];
			int n = counts(&x, r.gpus, G);
			for (int j = 0; j < n; j++)
				if (G[j] >= 1 && G[j] <= 16384)
					compared += check_one(k, ki, &x, G[j]);
		}
	}
	eng_tcache_free(tc);
	ck_assert_int_gt(compared, 0);
	fprintf(stderr, "# %d compared\n", compared);
}

#define NCASES (sizeof cases / sizeof cases[0])

START_TEST(search_finds_the_reference_layout_pretrain)
{
	check_cases(0, 16);
}
END_TEST

START_TEST(search_finds_the_reference_layout_finetune)
{
	check_cases(16, NCASES);
}
END_TEST

int main(void)
{
	cat = fixture_shipped_catalog();
	scratch = malloc(SCRATCH * sizeof *scratch);
	if (!scratch)
		return 99;
	Suite *s = suite_create("train_search");
	TAP_ADD_TIMEOUT(s, search_finds_the_reference_layout_pretrain, 600);
	TAP_ADD_TIMEOUT(s, search_finds_the_reference_layout_finetune, 600);
	int rc = tap_run(s);
	free(scratch);
	catalog_free(cat);
	return rc;
}
