/*
 * Unit tests of the training engine (engine_train*.c) against the
 * shipped catalog: workloads that published runs held must be sized, not
 * refused (issue 16), forced parts of the layout are honoured, and the
 * activation memory follows Korthikanti et al. 2022 with sequence and
 * context parallelism; FP8 takes its own share of the peak and an MoE
 * model's experts their own share of the dense efficiency.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "engine.h"
#include "engine_internal.h"
#include "engine_train.h"
#include "fixture.h"
#include "tap.h"

static struct catalog *cat;

static void load_catalog(void)
{
	cat = fixture_shipped_catalog();
}

static const struct catalog_accel *A(const char *id)
{
	return fixture_accel(cat, id);
}

static const struct catalog_model *M(const char *id)
{
	return fixture_model(cat, id);
}

static void training(struct workload *w, enum workload_class cls, const char *model,
		     enum precision p, long seq, double batch_seqs)
{
	engine_workload_init(w, cat);
	engine_workload_class_defaults(w, cls);
	w->model = M(model);
	w->precision = p;
	w->seq_len = seq;
	w->global_batch_tokens = batch_seqs * (double)seq;
}

static void size_on(struct workload *w, const char *accel, int gpus, struct engine_result *r)
{
	w->accel = A(accel);
	w->gpus = gpus;
	engine_evaluate(cat, w, w->accel, r);
}

/* Megatron-Bridge 25.11 performance summary: Llama 3.1 405B, FP8, sequence
 * 8192, global batch 512 on 1,024 H100 at TP8 PP8 CP2 VP8. */
START_TEST(llama405b_seq8192_on_1024_h100)
{
	struct workload w;
	struct engine_result r;
	training(&w, WL_PRETRAIN, "llama-3.1-405b", PREC_FP8, 8192, 512);
	size_on(&w, "h100-sxm", 1024, &r);
	ck_assert_msg(r.fits, "refused: %s", r.reason);
	ck_assert_int_eq(r.gpus, 1024);
	ck_assert_int_eq(r.tp * r.pp * r.cp * r.dp, 1024);
}
END_TEST

/* MLPerf Training v5.0, NVIDIA's 64-node Eos submission: Llama 3.1 405B,
 * sequence 8192, 1,152 sequences a step on 512 H100 (58.8 GB peak memory
 * logged). */
START_TEST(llama405b_seq8192_on_512_h100)
{
	struct workload w;
	struct engine_result r;
	training(&w, WL_PRETRAIN, "llama-3.1-405b", PREC_FP8, 8192, 1152);
	size_on(&w, "h100-sxm", 512, &r);
	ck_assert_msg(r.fits, "refused: %s", r.reason);
	ck_assert_int_eq(r.tp * r.pp * r.cp * r.dp, 512);
}
END_TEST

/* NeMo 24.07 fine-tuning table: Llama 2 70B SFT (full parameters), FP8,
 * sequence 4096, global batch 32 on 16 H100 at TP4 PP4. */
START_TEST(llama2_70b_full_finetune_on_16_h100)
{
	struct workload w;
	struct engine_result r;
	training(&w, WL_FINETUNE, "llama-2-70b", PREC_FP8, 4096, 32);
	w.method = FT_FULL;
	w.tokens = 1e9;
	size_on(&w, "h100-sxm", 16, &r);
	ck_assert_msg(r.fits, "refused: %s", r.reason);
	ck_assert_int_eq(r.tp * r.pp * r.cp * r.dp, 16);
}
END_TEST

/* Llama 3 paper, table 4: 405B BF16 at sequence 8192 on 8,192 H100 ran
 * TP8 PP16 DP64 (16M-token batches): forced, the engine holds it. */
START_TEST(llama405b_bf16_8192_h100_meta_layout)
{
	struct workload w;
	struct engine_result r;
	training(&w, WL_PRETRAIN, "llama-3.1-405b", PREC_BF16, 8192, 2048);
	w.tokens = 15.6e12;
	w.tp = 8;
	w.pp = 16;
	w.cp = 1;
	size_on(&w, "h100-sxm", 8192, &r);
	ck_assert_msg(r.fits, "refused: %s", r.reason);
	ck_assert_int_eq(r.tp, 8);
	ck_assert_int_eq(r.pp, 16);
	ck_assert_int_eq(r.cp, 1);
	ck_assert_int_eq(r.dp, 64);
}
END_TEST

/* Megatron-Bridge 25.11 performance summary, DGX-H100: Qwen3-30B-A3B on
 * 16 GPUs at PP 2 VP 24 (one of its 48 layers a chunk), EP 8: a forced
 * virtual-stage count is the layout's; a count a stage's layers do not
 * divide takes uneven chunks; more chunks than layers, or chunks without
 * pipeline stages, are no layout. */
START_TEST(forced_virtual_stages_are_the_layouts)
{
	struct workload w;
	struct engine_result r;
	training(&w, WL_PRETRAIN, "qwen3-30b-a3b", PREC_FP8, 4096, 512);
	w.tp = 1;
	w.pp = 2;
	w.cp = 1;
	w.ep = 8;
	w.micro_batch = 2;
	w.vp = 24;
	size_on(&w, "h100-sxm", 16, &r);
	ck_assert_msg(r.fits, "refused: %s", r.reason);
	ck_assert_int_eq(r.pp, 2);
	ck_assert_int_eq(r.virtual_stages, 24);
	w.vp = 5;
	size_on(&w, "h100-sxm", 16, &r);
	ck_assert_msg(r.fits, "refused: %s", r.reason);
	ck_assert_int_eq(r.virtual_stages, 5);
	w.vp = 25;
	size_on(&w, "h100-sxm", 16, &r);
	ck_assert(!r.fits);
	ck_assert_msg(strstr(r.reason, "forced parallel degrees") != NULL, "reason: %s", r.reason);
	w.pp = 1;
	w.vp = 2;
	size_on(&w, "h100-sxm", 16, &r);
	ck_assert(!r.fits);
	/* unforced pipeline: the search picks a depth the count suits */
	w.pp = 0;
	w.vp = 4;
	size_on(&w, "h100-sxm", 16, &r);
	ck_assert_msg(r.fits, "refused: %s", r.reason);
	ck_assert_int_gt(r.pp, 1);
	ck_assert_int_eq(r.virtual_stages, 4);
}
END_TEST

/* FP8 training takes the accelerator's own share of the FP8 peak
 * (efficiency.training_fp8), not the BF16 one: on a forced layout the
 * compute time scales as the inverse of the share. */
START_TEST(fp8_training_takes_its_own_share)
{
	struct workload w;
	struct engine_result r1, r2;
	training(&w, WL_PRETRAIN, "llama-3.1-8b", PREC_FP8, 8192, 128);
	w.tp = 1;
	w.pp = 1;
	w.cp = 1;
	w.micro_batch = 2;
	w.recompute = RECOMPUTE_SELECTIVE;
	struct catalog_accel *a = (struct catalog_accel *)A("b200");
	ck_assert(a->eff_training_fp8.value > 0 && a->eff_training_fp8.value != a->eff_training.value);
	size_on(&w, "b200", 8, &r1);
	double fp8 = a->eff_training_fp8.value;
	a->eff_training_fp8.value = a->eff_training.value;
	size_on(&w, "b200", 8, &r2);
	a->eff_training_fp8.value = fp8;
	ck_assert_msg(r1.fits && r2.fits, "refused: %s / %s", r1.reason, r2.reason);
	ck_assert_double_eq_tol(r1.t_compute_s / r2.t_compute_s, a->eff_training.value / fp8, 1e-9);
}
END_TEST

/* A training share per stack (docs/accuracy.md, "A training share per
 * stack"): NeMo has its own share on Hopper at 16 bit, the H100 SXM's
 * efficiency.training is Meta's stack's; the compute term follows the
 * share, the H200 (the same family) takes NeMo's too, FP8 has no share of
 * NeMo's own and stays the accelerator's, and a stack that does not run on
 * an accelerator's platform refuses it with the reason. */
START_TEST(training_takes_its_stacks_share)
{
	struct workload w;
	struct engine_result rn, rm, r8n, r8m, ramd;
	const struct catalog_training_stack *nemo = catalog_training_stack(cat, "nemo");
	ck_assert_ptr_nonnull(nemo);
	const struct sourced *own = catalog_train_stack_share(nemo, A("h100-sxm")->architecture, TPREC_16);
	ck_assert_ptr_nonnull(own);
	ck_assert(catalog_train_stack_share(nemo, A("h200-sxm")->architecture, TPREC_16) == own);
	ck_assert_ptr_null(catalog_train_stack_share(nemo, A("h100-sxm")->architecture, TPREC_FP8));
	ck_assert_ptr_null(catalog_train_stack_share(nemo, A("b200")->architecture, TPREC_16));
	ck_assert(catalog_train_stack_default(cat, STACK_CUDA) == nemo);

	training(&w, WL_PRETRAIN, "llama-3.1-8b", PREC_BF16, 8192, 128);
	w.tp = 1;
	w.pp = 1;
	w.cp = 2;
	w.micro_batch = 1;
	w.recompute = RECOMPUTE_SELECTIVE;
	size_on(&w, "h100-sxm", 8, &rn);
	ck_assert_ptr_eq(rn.training_stack, nemo);
	w.training_stack = TS_META;
	size_on(&w, "h100-sxm", 8, &rm);
	ck_assert_msg(rn.fits && rm.fits, "refused: %s / %s", rn.reason, rm.reason);
	ck_assert_str_eq(rm.training_stack->id, "meta");
	ck_assert_double_eq_tol(rm.t_compute_s / rn.t_compute_s, own->value / A("h100-sxm")->eff_training.value,
				1e-9);

	w.precision = PREC_FP8;
	size_on(&w, "h100-sxm", 8, &r8m);
	w.training_stack = -1;
	size_on(&w, "h100-sxm", 8, &r8n);
	ck_assert_double_eq_tol(r8m.t_compute_s, r8n.t_compute_s, 1e-12);

	w.training_stack = TS_META;
	size_on(&w, "mi300x", 8, &ramd);
	ck_assert(!ramd.fits);
	ck_assert_ptr_null(ramd.training_stack);
	char why[256];
	const char *t = engine_result_reason(&ramd, why, sizeof why);
	ck_assert_msg(strstr(t, "does not run on rocm") != NULL, "%s", t);
}
END_TEST

/* NVFP4 training (issue 16 item 4): at fp4 an accelerator with
 * efficiency.training_fp4 trains at its FP4 peak and that share; one
 * without it (H100: no FP4 peak; B200 with its figure taken away) trains
 * at FP8, a precision fallback named in the reason.  MXFP4 stays an
 * inference format. */
START_TEST(nvfp4_training_takes_its_own_share)
{
	struct workload w;
	struct engine_result r4, r8, rh;
	char why[256];
	training(&w, WL_PRETRAIN, "llama-3.1-8b", PREC_FP4, 8192, 128);
	w.tp = 1;
	w.pp = 1;
	w.cp = 1;
	w.micro_batch = 2;
	w.recompute = RECOMPUTE_SELECTIVE;
	ck_assert_msg(engine_workload_valid(&w, why, sizeof why), "%s", why);
	struct catalog_accel *a = (struct catalog_accel *)A("b200");
	double fp4 = a->eff_training_fp4.value;
	ck_assert(fp4 > 0 && a->peak_tflops[PREC_FP4] > 0);
	size_on(&w, "b200", 8, &r4);
	ck_assert_msg(r4.fits, "%s", r4.reason);
	ck_assert_int_eq(r4.precision_used, PREC_FP4);
	ck_assert(!r4.precision_fallback);
	a->eff_training_fp4.value = 0;
	size_on(&w, "b200", 8, &r8);
	a->eff_training_fp4.value = fp4;
	ck_assert_msg(r8.fits, "%s", r8.reason);
	ck_assert_int_eq(r8.precision_used, PREC_FP8);
	ck_assert(r8.precision_fallback && r8.binding == RES_PRECISION);
	ck_assert_msg(strstr(r8.reason, "efficiency.training_fp4"), "%s", r8.reason);
	ck_assert_double_eq_tol(r4.t_compute_s / r8.t_compute_s,
				a->peak_tflops[PREC_FP8] * a->eff_training_fp8.value /
					(a->peak_tflops[PREC_FP4] * fp4), 1e-9);
	w.micro_batch = 1;
	w.recompute = RECOMPUTE_FULL;
	size_on(&w, "h100-sxm", 8, &rh);
	ck_assert_msg(rh.fits && rh.precision_used == PREC_FP8 && rh.precision_fallback, "%s", rh.reason);
	w.precision = PREC_MXFP4;
	ck_assert(!engine_workload_valid(&w, why, sizeof why));
	ck_assert_msg(strstr(why, "mxfp4 is an inference format"), "%s", why);
}
END_TEST

/* Training takes the power-limited clock as serving does (engine_power.c):
 * the MI300X (750 W) and MI325X (1,000 W) share a die and a peak, so on the
 * same forced layout the MI300X's compute is slower by that share. */
START_TEST(training_takes_the_power_limited_clock)
{
	struct workload w;
	struct engine_result r0, r5;
	training(&w, WL_PRETRAIN, "llama-3.1-8b", PREC_BF16, 8192, 128);
	w.tp = 1;
	w.pp = 1;
	w.cp = 1;
	w.micro_batch = 1;
	w.recompute = RECOMPUTE_SELECTIVE;
	size_on(&w, "mi300x", 8, &r0);
	size_on(&w, "mi325x", 8, &r5);
	ck_assert_msg(r0.fits && r5.fits, "%s / %s", r0.reason, r5.reason);
	double share = eng_power_clock(cat, A("mi300x")) / eng_power_clock(cat, A("mi325x"));
	ck_assert(share < 0.8);
	ck_assert_double_eq_tol(r5.t_compute_s / r0.t_compute_s, share, 1e-9);
}
END_TEST

/* MoE: the routed experts' FLOPs run at defaults.training_moe_efficiency of
 * the dense share, so lowering it slows Mixtral's compute and leaves a
 * dense model's alone; the token permutation adds elementwise traffic, and
 * the local experts' weights and fp32 accumulators per micro-batch add
 * memory time, little for Mixtral's one wide expert a GPU at EP 8. */
START_TEST(moe_experts_at_their_own_share)
{
	struct workload w, d;
	struct engine_result r1, r2, d1, d2;
	training(&w, WL_PRETRAIN, "mixtral-8x7b", PREC_FP8, 4096, 256);
	w.tp = 1;
	w.pp = 1;
	w.cp = 1;
	w.ep = 8;
	w.micro_batch = 2;
	w.recompute = RECOMPUTE_SELECTIVE;
	training(&d, WL_PRETRAIN, "llama-3.1-8b", PREC_FP8, 8192, 128);
	d.tp = 1;
	d.pp = 1;
	d.cp = 1;
	d.micro_batch = 2;
	d.recompute = RECOMPUTE_SELECTIVE;
	double *f = &cat->defaults.training_moe_efficiency.value;
	double keep = *f;
	ck_assert(keep > 0 && keep <= 1);
	*f = 0.8;
	size_on(&w, "b200", 64, &r1);
	size_on(&d, "b200", 8, &d1);
	*f = 1.0;
	size_on(&w, "b200", 64, &r2);
	size_on(&d, "b200", 8, &d2);
	*f = keep;
	ck_assert_msg(r1.fits && r2.fits, "refused: %s / %s", r1.reason, r2.reason);
	ck_assert(r1.t_compute_s > r2.t_compute_s * 1.05);
	ck_assert_double_eq_tol(d1.t_compute_s, d2.t_compute_s, 1e-12);
	/* elementwise traffic: training_elementwise_bytes h a token a layer,
	 * and 16 k h bytes a token a MoE layer for the permutation (every
	 * Mixtral layer), at the card's streaming bandwidth; the dense model
	 * has nothing else */
	const struct catalog_model *m = M("mixtral-8x7b");
	const struct catalog_accel *a = A("b200");
	double bytes_tok = (cat->defaults.training_elementwise_bytes.value + 16.0 * m->experts_active) *
			   m->hidden * m->layers;
	double bw = a->mem_bw_tb_s * 1e12 * a->eff_mem_bw.value;
	double elem = bytes_tok * w.global_batch_tokens / (64 * bw);
	ck_assert(r1.t_memory_s > elem);
	ck_assert(r1.t_memory_s - elem < 0.1 * r1.t_compute_s);
	double d_tok = cat->defaults.training_elementwise_bytes.value * M("llama-3.1-8b")->hidden *
		       M("llama-3.1-8b")->layers;
	ck_assert_double_eq_tol(d1.t_memory_s, d_tok * d.global_batch_tokens / (8 * bw), 1e-9 * d1.t_memory_s);
}
END_TEST

/* Narrow experts (Qwen3 235B, 128 of width 1,536): at EP 1 each GPU reads
 * all 128 experts' weights and accumulators every micro-batch for the few
 * tokens each sees; at EP 4 (the 4 GPUs of a stage of PP 16 on 64) it
 * holds 32 and each sees 4 times the tokens, so the memory time per step
 * falls several-fold and the step with it, while the expert math stays. */
START_TEST(narrow_experts_memory_falls_with_ep)
{
	struct workload w;
	struct engine_result e1, e8;
	training(&w, WL_PRETRAIN, "qwen3-235b-a22b", PREC_FP8, 4096, 1024);
	w.tp = 1;
	w.pp = 16;
	w.cp = 1;
	w.micro_batch = 1;
	w.recompute = RECOMPUTE_SELECTIVE;
	w.ep = 1;
	size_on(&w, "b200", 64, &e1);
	w.ep = 4;
	size_on(&w, "b200", 64, &e8);
	ck_assert_msg(e1.fits && e8.fits, "refused: %s / %s", e1.reason, e8.reason);
	ck_assert_double_eq_tol(e1.t_compute_s, e8.t_compute_s, 1e-9 * e1.t_compute_s);
	ck_assert(e1.t_memory_s > 2.5 * e8.t_memory_s);
	ck_assert(e1.step_s > e8.step_s);
}
END_TEST

/* engine_run() sizes a run's accelerators with one cache of the shapes'
 * memory and the workload's own figures (struct eng_tcache,
 * engine_train.h); engine_evaluate() sizes one accelerator without it.
 * Both must give every result the same figures: a memory figure that came
 * to depend on the accelerator without joining the cache's key would make
 * them differ. */
static void same_figures(const struct engine_result *a, const struct engine_result *b)
{
	const char *id = a->accel->id;
	ck_assert_msg(a->fits == b->fits && a->gpus == b->gpus, "%s: fits/gpus differ", id);
	ck_assert_msg(a->tp == b->tp && a->pp == b->pp && a->cp == b->cp && a->dp == b->dp && a->ep == b->ep &&
		      a->micro_batch == b->micro_batch && a->virtual_stages == b->virtual_stages &&
		      a->zero_stage == b->zero_stage && a->recompute_used == b->recompute_used,
		      "%s: layouts differ", id);
	const double fa[] = { a->step_s, a->mem_per_gpu_gb, a->train_hours, a->capex_usd, a->tco_usd };
	const double fb[] = { b->step_s, b->mem_per_gpu_gb, b->train_hours, b->capex_usd, b->tco_usd };
	for (size_t i = 0; i < sizeof fa / sizeof fa[0]; i++)
		ck_assert_msg(fa[i] == fb[i] || (isnan(fa[i]) && isnan(fb[i])), "%s: figure %zu differs", id, i);
	char ra[512], rb[512];
	ck_assert_str_eq(engine_result_reason(a, ra, sizeof ra), engine_result_reason(b, rb, sizeof rb));
}

START_TEST(run_cache_changes_no_result)
{
	static const struct {
		enum workload_class cls;
		const char *model;
		enum precision p;
		long seq;
		double batch;
		double days;
	} cases[] = {
		{ WL_PRETRAIN, "llama-2-70b", PREC_BF16, 4096, 1024, 0 },
		{ WL_PRETRAIN, "mixtral-8x7b", PREC_FP8, 4096, 512, 0 },	/* fp8 falls back on some */
		{ WL_PRETRAIN, "qwen3-235b-a22b", PREC_FP8, 4096, 1024, 30 },
		{ WL_FINETUNE, "llama-2-70b", PREC_BF16, 4096, 64, 0 },
		{ WL_FINETUNE, "llama-3.1-8b", PREC_FP8, 8192, 128, 0 },
	};
	struct engine_report rep;
	ck_assert(engine_report_init(&rep, cat));
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct workload w;
		training(&w, cases[k].cls, cases[k].model, cases[k].p, cases[k].seq, cases[k].batch);
		if (cases[k].days > 0)
			w.target_hours = cases[k].days * 24.0;
		engine_run(cat, &w, &rep);
		ck_assert_uint_eq(rep.n, cat->n_accels);
		for (size_t i = 0; i < rep.n; i++) {
			struct engine_result alone;
			engine_evaluate(cat, &w, rep.results[i].accel, &alone);
			same_figures(&rep.results[i], &alone);
		}
	}
	engine_report_fini(&rep);
}
END_TEST

/* A routed MoE layer keeps more than Korthikanti's dense MLP (19 h of the
 * 34 h bytes a token): router input and fp32 logits, the k permuted
 * copies, each copy's FC1 (gate and up) and activation outputs at the
 * expert width, the experts' outputs for the weighted unpermute.  One
 * more sequence a micro-batch on one stage adds that per token and layer,
 * and the last stage's fp32 logits. */
START_TEST(moe_layer_activations)
{
	struct workload w;
	struct engine_result b1, b2;
	training(&w, WL_PRETRAIN, "mixtral-8x7b", PREC_FP8, 4096, 256);
	w.tp = 1;
	w.pp = 1;
	w.cp = 1;
	w.ep = 8;
	w.recompute = RECOMPUTE_SELECTIVE;
	w.micro_batch = 1;
	size_on(&w, "b200", 64, &b1);
	w.micro_batch = 2;
	size_on(&w, "b200", 64, &b2);
	ck_assert_msg(b1.fits && b2.fits, "refused: %s / %s", b1.reason, b2.reason);
	ck_assert_int_eq(b1.zero_stage, b2.zero_stage);
	const struct catalog_model *m = M("mixtral-8x7b");
	double h = m->hidden, k = m->experts_active, f = m->ffn;
	double moe = 2.0 * h + 4.0 * m->experts + 4.0 * k * h + 6.0 * k * f;
	double tok = 15.0 * h + moe;
	ck_assert(tok > 1.9 * 34.0 * h);	/* Mixtral: about twice the dense layer */
	double want = 4096.0 * (tok * m->layers + 4.0 * m->vocab);
	double got = (b2.mem_per_gpu_gb - b1.mem_per_gpu_gb) * ENG_GB;
	ck_assert_double_eq_tol(got, want, 1e-6 * want);
}
END_TEST

/* Sharded gradients and weights cost every micro-batch: ZeRO-2 and -3
 * reduce-scatter each micro-batch's gradients, ZeRO-3 also gathers the
 * weights for its forward and backward.  The experts' exchanges over
 * their expert-data-parallel ranks (here 16 ranks 8 apart, on the NICs):
 * ZeRO-1 the same at any micro-batch count, ZeRO-2 (m + 1) / 2 all-reduces
 * (m reduce-scatters, one all-gather), ZeRO-3 m more. */
START_TEST(sharded_expert_state_costs_every_micro_batch)
{
	struct eng_tctx x;
	memset(&x, 0, sizeof x);
	x.node = 8;
	x.nic_bw = 50e9;
	x.lat = 10e-6;
	x.expert_params = 1e11;
	struct eng_tlayout l;
	memset(&l, 0, sizeof l);
	l.t = l.c = l.p = l.v = l.b = 1;
	l.d = 128;
	l.ep = 8;
	l.imb = 1;
	double comm[4][2];
	for (int z = 1; z <= 3; z++)
		for (int i = 0; i < 2; i++) {
			l.zero = z;
			l.m = i ? 8 : 1;
			comm[z][i] = eng_train_dp_comm(&x, &l);
		}
	double ar = comm[1][0];
	ck_assert(ar > 0);
	ck_assert_double_eq_tol(comm[1][1], ar, 1e-12);
	ck_assert_double_eq_tol(comm[2][0], ar, 1e-9 * ar);
	ck_assert_double_eq_tol(comm[2][1], 4.5 * ar, 1e-9 * ar);
	double g1 = comm[3][0] - comm[2][0], g8 = comm[3][1] - comm[2][1];
	ck_assert(g1 > 0);
	ck_assert_double_eq_tol(g8, 8.0 * g1, 1e-9 * g8);
}
END_TEST

/* Multi-head latent attention: each query meets a key of qk_nope +
 * qk_rope = 192 dimensions and the probabilities a value of 128, so the
 * attention core costs 2 (192 + 128) per head and position, 1.25 times
 * 4 x 128; a model without MLA keeps 4 x head_dim. */
START_TEST(mla_attention_flops_in_training)
{
	const struct catalog_model *ds = M("deepseek-v3"), *ll = M("llama-3.1-8b");
	double s = 4096;
	ck_assert_double_eq_tol(eng_attn_train_flops_token(ds, s), 1.25 * eng_attn_flops_token(ds, s),
				1e-9 * eng_attn_flops_token(ds, s));
	ck_assert_double_eq_tol(eng_attn_train_flops_token(ds, s), 2.0 * (192 + 128) * ds->heads * s * ds->layers,
				1e-9 * eng_attn_flops_token(ds, s));
	ck_assert_double_eq(eng_attn_train_flops_token(ll, s), eng_attn_flops_token(ll, s));
}
END_TEST

/* DeepSeek-V3's multi-token prediction module (technical report, section
 * 2.2; config.json num_nextn_predict_layers 1) trained with the model: its
 * block is one MoE layer (MLA attention, the router, the shared expert and
 * 8 of 256 routed experts, each three 7,168 x 2,048 matrices), its
 * projection 2 x 7,168 x 7,168, and a second pass through the 129,280 x
 * 7,168 output head, by hand; its attention core that of one more layer.
 * A model without modules is refused. */
START_TEST(mtp_module_adds_its_flops)
{
	struct workload w;
	const struct catalog_model *ds = M("deepseek-v3");
	training(&w, WL_PRETRAIN, "deepseek-v3", PREC_FP8, 4096, 8388608);
	double h = 7168, q = h * 1536 + 1536 * 128 * (128 + 64), kv = h * (512 + 64) + 512 * 128 * 256;
	double attn = q + kv + 128 * 128 * h, expert = 3 * h * 2048;
	double module = attn + 2 * h * h + h * 256 + (1 + 8) * expert + 129280 * h;
	double attn_fwd = eng_attn_train_flops_token(ds, 4096);
	double model0, hw0, model1, hw1;
	eng_train_flops_token(&w, RECOMPUTE_SELECTIVE, &model0, &hw0);
	w.mtp = 1;
	eng_train_flops_token(&w, RECOMPUTE_SELECTIVE, &model1, &hw1);
	ck_assert_double_eq_tol(model1 - model0, 6 * module + 3 * attn_fwd / 61, 1e-9 * model0);
	ck_assert_double_eq_tol(hw1 - hw0, 6 * module + 4 * attn_fwd / 61, 1e-9 * model0);
	ck_assert_double_gt(module / 37e9, 0.04);	/* about 4.4% of the 37B a token passes */
	char why[256];
	ck_assert(engine_workload_valid(&w, why, sizeof why));
	training(&w, WL_PRETRAIN, "llama-3.1-8b", PREC_FP8, 4096, 1048576);
	w.mtp = 1;
	ck_assert(!engine_workload_valid(&w, why, sizeof why));
	ck_assert_msg(strstr(why, "multi-token prediction"), "%s", why);
}
END_TEST

/* ZeRO-2 holds less than ZeRO-1 but reduce-scatters a MoE model's expert
 * gradients every micro-batch: where ZeRO-1 fits (Mixtral 8x7B in NeMo's
 * layout on 64 B200, TP1 PP1 EP8, two sequences a micro-batch) the search
 * takes it, not the leaner and slower stage. */
START_TEST(moe_search_takes_zero1_where_it_fits)
{
	struct workload w;
	struct engine_result r;
	training(&w, WL_PRETRAIN, "mixtral-8x7b", PREC_FP8, 4096, 256);
	w.tp = 1;
	w.pp = 1;
	w.cp = 1;
	w.ep = 8;
	w.micro_batch = 2;
	size_on(&w, "b200", 64, &r);
	ck_assert_msg(r.fits, "refused: %s", r.reason);
	ck_assert_int_le(r.zero_stage, 1);
}
END_TEST

/* A frozen base keeps no input for the weight gradient of a matrix
 * without an adapter: with LoRA on the attention projections (the MLPerf
 * reference's q, k, v and o), the MLP's fc1 and fc2 inputs, 10 h of
 * Korthikanti's 34 h bytes a token a layer, are not stored.  Full
 * fine-tuning keeps them, and so does LoRA once the adapters wrap the
 * MLP too (defaults.lora_targets 7). */
START_TEST(lora_keeps_no_frozen_mlp_inputs)
{
	struct workload w;
	struct engine_requirements full, lora;
	training(&w, WL_FINETUNE, "llama-2-70b", PREC_FP8, 8192, 8);
	w.recompute = RECOMPUTE_SELECTIVE;
	w.method = FT_FULL;
	engine_requirements(cat, &w, &full);
	w.method = FT_LORA;
	engine_requirements(cat, &w, &lora);
	ck_assert_double_eq_tol(lora.activations_gb / full.activations_gb, 24.0 / 34.0, 1e-9);

	struct engine_result r4, r7;
	w.tp = 1;
	w.pp = 1;
	w.cp = 2;
	w.micro_batch = 1;
	size_on(&w, "b200", 8, &r4);
	double saved = cat->defaults.lora_targets.value;
	cat->defaults.lora_targets.value = 7;
	size_on(&w, "b200", 8, &r7);
	cat->defaults.lora_targets.value = saved;
	ck_assert_msg(r4.fits && r7.fits, "refused: %s / %s", r4.reason, r7.reason);
	const struct catalog_model *m = M("llama-2-70b");
	/* on 8 B200 both fit at ZeRO-1; one GPU holds every layer of half a
	 * sequence (CP 2) */
	double mlp_inputs = 10.0 * m->hidden * (8192 / 2) * m->layers / ENG_GB;
	double more = r7.mem_per_gpu_gb - r4.mem_per_gpu_gb;
	/* the same ZeRO stage, so the difference is the MLP inputs and the
	 * three more adapters' state (well under a GB) */
	ck_assert_int_eq(r4.zero_stage, r7.zero_stage);
	ck_assert_msg(more > 0.99 * mlp_inputs && more < mlp_inputs + 1.0,
		      "%.1f GB against %.1f GB: %.1f GB of MLP inputs", r7.mem_per_gpu_gb,
		      r4.mem_per_gpu_gb, mlp_inputs);
}
END_TEST

/* Where the data-parallel exchange hides is the training stack's
 * (dp_overlap): NeMo's Megatron-Core runs the distributed optimizer's
 * reduce-scatter behind the last micro-batch's backward pass and the
 * weights' all-gather behind the next first forward, so with TP 1 PP 1
 * CP 1 (the exchange the only communication) at ZeRO 1 the exposed time
 * is, per half of the exchange, what does not fit in one micro-batch's
 * pass and never less than the last layer's share; `none` exposes it
 * all; the former whole-backward rule hides 70% behind the whole step.
 * A run's dp_overlap overrides its stack's. */
static double dp_half_exposed(double half, double pass, double layers)
{
	double t = half - pass;
	return t > half / layers ? t : half / layers;
}

START_TEST(dp_exchange_hides_where_the_stack_runs_it)
{
	struct workload w;
	struct catalog_training_stack *nemo = (struct catalog_training_stack *)catalog_training_stack(cat, "nemo");
	ck_assert_ptr_nonnull(nemo);
	ck_assert_int_eq(nemo->dp_overlap, DPO_LAST_MICROBATCH);
	ck_assert_int_eq(catalog_training_stack(cat, "meta")->dp_overlap, DPO_BACKWARD);
	enum dp_overlap saved = nemo->dp_overlap;
	const double seqs[] = { 16, 128 };
	for (int i = 0; i < 2; i++) {
		training(&w, WL_PRETRAIN, "llama-3.1-8b", PREC_BF16, 8192, seqs[i]);
		w.tp = 1;
		w.pp = 1;
		w.cp = 1;
		w.micro_batch = 1;
		w.recompute = RECOMPUTE_SELECTIVE;
		struct engine_result rn, rl, rb;
		nemo->dp_overlap = DPO_NONE;
		size_on(&w, "h100-sxm", 16, &rn);
		nemo->dp_overlap = DPO_BACKWARD;
		size_on(&w, "h100-sxm", 16, &rb);
		nemo->dp_overlap = DPO_LAST_MICROBATCH;
		size_on(&w, "h100-sxm", 16, &rl);
		nemo->dp_overlap = saved;
		/* a run's own setting (a recipe that turns the overlap off) over
		 * its stack's */
		struct engine_result rw;
		w.dp_overlap = DPO_NONE;
		size_on(&w, "h100-sxm", 16, &rw);
		ck_assert_double_eq_tol(rw.step_s, rn.step_s, 1e-12);
		ck_assert_msg(rn.fits && rb.fits && rl.fits, "refused: %s", rl.reason);
		ck_assert(rl.zero_stage == 1 || rl.zero_stage == 2);	/* ZeRO 2: counted once a step, as 1 */
		ck_assert_int_eq(rn.zero_stage, rl.zero_stage);
		double dp = rn.t_comm_s, work = rl.t_compute_s + rl.t_memory_s;
		double m = seqs[i] / 16, layers = M("llama-3.1-8b")->layers;
		ck_assert(dp > 0.01);
		double want = dp_half_exposed(dp / 2, work * 2 / 3 / m, layers) +
			      dp_half_exposed(dp / 2, work / 3 / m, layers);
		ck_assert_double_eq_tol(rl.t_comm_s, want, 1e-9 * dp);
		double hidden = fmin(dp * cat->defaults.training_overlap.value, work * 2 / 3);
		ck_assert_double_eq_tol(rb.t_comm_s, dp - hidden, 1e-9 * dp);
		ck_assert(rl.step_s < rn.step_s && rb.step_s < rn.step_s);
	}
}
END_TEST

/* Context parallelism by all-to-all: per layer and micro-batch, Q, K, V
 * and the output each way forward and their gradients backward, (c - 1)/c
 * of each leaving the GPU, eight calls paying the per-peer latency c - 1
 * times; twelve and three passes' bytes under full recompute.  Llama 2
 * 70B (hidden 8,192, 8 KV heads of 128) at CP 8, one 8,192-token
 * sequence: 2 x 1,024 x (2 x 8,192 + 2 x 1,024) x 2 x 7/8 bytes a layer.
 * And the all-to-all needs CP to divide each TP rank's heads. */
START_TEST(cp_all_to_all_costs_what_it_sends)
{
	struct workload w;
	training(&w, WL_FINETUNE, "llama-2-70b", PREC_FP8, 8192, 8);
	w.cp_comm = CPC_A2A;
	struct eng_tctx x;
	memset(&x, 0, sizeof x);
	x.w = &w;
	x.m = M("llama-2-70b");
	x.s = 8192;
	x.node = 8;
	x.lat = 4e-6;
	x.kv_dim = 8.0 * 128;
	x.link_pow2[3] = 500e9;		/* 8 GPUs */
	x.link_pow2_hi = 8;
	struct eng_tlayout l;
	memset(&l, 0, sizeof l);
	l.t = l.p = l.v = l.b = 1;
	l.c = 8;
	l.d = 1;
	l.m = 1;
	l.imb = 1;
	l.rec = RECOMPUTE_SELECTIVE;
	double bytes = 2.0 * 1024 * (2.0 * 8192 + 2.0 * 1024) * 2.0 * 7.0 / 8.0;
	double layer = bytes / 500e9 + 8.0 * 7.0 * 4e-6;
	ck_assert_double_eq_tol(eng_train_cp_comm(&x, &l), 80.0 * layer, 1e-12);
	l.rec = RECOMPUTE_FULL;
	ck_assert_double_eq_tol(eng_train_cp_comm(&x, &l), 80.0 * (1.5 * bytes / 500e9 + 12.0 * 7.0 * 4e-6),
				1e-12);

	/* searched on 8 H200 with the ring and with the all-to-all: the
	 * all-to-all's exchange is in the step, the ring's hides */
	struct engine_result ring, a2a;
	w.tp = 1;
	w.pp = 1;
	w.cp = 8;
	w.cp_comm = CPC_P2P;
	size_on(&w, "h200-sxm", 8, &ring);
	w.cp_comm = CPC_A2A;
	size_on(&w, "h200-sxm", 8, &a2a);
	ck_assert_msg(ring.fits && a2a.fits, "refused: %s / %s", ring.reason, a2a.reason);
	ck_assert(a2a.step_s > ring.step_s);
	/* TP 8 leaves one KV head a rank: CP 2 cannot split it */
	w.tp = 8;
	w.cp = 2;
	struct engine_result bad;
	w.gpus = 16;
	size_on(&w, "h200-sxm", 16, &bad);
	ck_assert(!bad.fits);
	w.cp_comm = CPC_P2P;
	size_on(&w, "h200-sxm", 16, &bad);
	ck_assert_msg(bad.fits, "refused: %s", bad.reason);
}
END_TEST

#define ADD(s, fn) TAP_ADD_TIMEOUT(s, fn, 60)

int main(void)
{
	load_catalog();
	Suite *s = suite_create("train");
	ADD(s, llama405b_seq8192_on_1024_h100);
	ADD(s, llama405b_seq8192_on_512_h100);
	ADD(s, llama2_70b_full_finetune_on_16_h100);
	ADD(s, llama405b_bf16_8192_h100_meta_layout);
	ADD(s, forced_virtual_stages_are_the_layouts);
	ADD(s, fp8_training_takes_its_own_share);
	ADD(s, training_takes_its_stacks_share);
	ADD(s, moe_experts_at_their_own_share);
	ADD(s, narrow_experts_memory_falls_with_ep);
	ADD(s, moe_layer_activations);
	ADD(s, sharded_expert_state_costs_every_micro_batch);
	ADD(s, mla_attention_flops_in_training);
	ADD(s, mtp_module_adds_its_flops);
	ADD(s, moe_search_takes_zero1_where_it_fits);
	ADD(s, nvfp4_training_takes_its_own_share);
	ADD(s, training_takes_the_power_limited_clock);
	ADD(s, run_cache_changes_no_result);
	ADD(s, lora_keeps_no_frozen_mlp_inputs);
	ADD(s, dp_exchange_hides_where_the_stack_runs_it);
	ADD(s, cp_all_to_all_costs_what_it_sends);
	int rc = tap_run(s);
	catalog_free(cat);
	return rc;
}
