/*
 * Weight-only quantisation as precisions (issue 15 item 8): int4 (also
 * spelled w4a16: AWQ, GPTQ) and w8a16 (fp8 weights) store the weights at
 * 4 or 8 bits and compute at 16 bits.  So the weights' bytes are the
 * format's (memory and the decode step's weight reads follow them) and the
 * compute is the 16-bit one (a compute-bound prefill takes as long as at
 * fp16); neither needs low-precision tensor units, and the KV cache stays
 * at 16 bits unless set.
 */
#include <math.h>
#include <string.h>

#include "engine.h"
#include "fixture.h"
#include "tap.h"

static struct catalog *cat;

static void serve(struct workload *w, enum precision p, const char *accel, long users, struct engine_result *r)
{
	engine_workload_init(w, cat);
	w->model = catalog_model(cat, "llama-3.1-70b");
	w->precision = p;
	w->kv_precision_set = false;
	engine_workload_derive(w);
	w->concurrency = users;
	w->tokens_per_s_per_user = 0;
	w->accel = catalog_accel(cat, accel);
	w->tp = 2;	/* one layout for every format, so the times compare */
	engine_evaluate(cat, w, w->accel, r);
}

START_TEST(names)
{
	enum precision p;
	ck_assert(precision_parse("w4a16", &p) && p == PREC_INT4);
	ck_assert(precision_parse("W8A16", &p) && p == PREC_W8A16);
	ck_assert_str_eq(precision_name(PREC_W8A16), "w8a16");
	ck_assert(precision_bytes(PREC_W8A16) == 1 && precision_bytes(PREC_INT4) == 0.5);
	ck_assert(engine_kv_precision_for(PREC_W8A16) == PREC_FP16);
	ck_assert(engine_kv_precision_for(PREC_INT4) == PREC_FP16);
}
END_TEST

/* Weights at the format's bytes, compute at 16 bits. */
START_TEST(bytes_from_weights_compute_at_16_bit)
{
	struct workload w;
	struct engine_result f16, f8, w8, w4;
	serve(&w, PREC_FP16, "h100-sxm", 1, &f16);
	serve(&w, PREC_FP8, "h100-sxm", 1, &f8);
	serve(&w, PREC_W8A16, "h100-sxm", 1, &w8);
	ck_assert(w.kv_precision == PREC_FP16);
	serve(&w, PREC_INT4, "h100-sxm", 1, &w4);
	ck_assert(f16.fits && f8.fits && w8.fits && w4.fits);
	struct engine_requirements rq16, rq8, rqw8, rqw4;
	serve(&w, PREC_FP16, "h100-sxm", 1, &f16);
	engine_requirements(cat, &w, &rq16);
	serve(&w, PREC_FP8, "h100-sxm", 1, &f8);
	engine_requirements(cat, &w, &rq8);
	serve(&w, PREC_W8A16, "h100-sxm", 1, &w8);
	engine_requirements(cat, &w, &rqw8);
	serve(&w, PREC_INT4, "h100-sxm", 1, &w4);
	engine_requirements(cat, &w, &rqw4);
	ck_assert_double_eq_tol(rqw8.weights_gb, rq8.weights_gb, 1e-9);
	ck_assert_double_eq_tol(rqw8.weights_gb * 2, rq16.weights_gb, 1e-6);
	ck_assert_double_eq_tol(rqw4.weights_gb * 4, rq16.weights_gb, 1e-6);
	ck_assert(!w8.precision_fallback && w8.precision_used == PREC_W8A16);
	/* the prompt is compute-bound: as long as fp16's on the same layout,
	 * longer than fp8's (twice the peak) */
	ck_assert_msg(w8.tp == f8.tp, "layouts differ: TP%d / TP%d", w8.tp, f8.tp);
	ck_assert_msg(w8.ttft_ms > f8.ttft_ms * 1.3, "prefill %.1f ms at w8a16, %.1f at fp8", w8.ttft_ms, f8.ttft_ms);
	/* one user's decode step reads the weights: fp8's bytes */
	ck_assert_msg(fabs(w8.tokens_per_s_per_user / f8.tokens_per_s_per_user - 1) < 0.1,
		      "%.1f tok/s per user at w8a16, %.1f at fp8", w8.tokens_per_s_per_user, f8.tokens_per_s_per_user);
}
END_TEST

/* No fp8 units needed: an A100 runs w8a16 as itself, fp8 falls back. */
START_TEST(w8a16_runs_without_fp8_units)
{
	struct workload w;
	struct engine_result f8, w8, f16;
	serve(&w, PREC_FP8, "a100-sxm-80gb", 1, &f8);
	serve(&w, PREC_W8A16, "a100-sxm-80gb", 1, &w8);
	serve(&w, PREC_FP16, "a100-sxm-80gb", 1, &f16);
	ck_assert(f8.precision_fallback && f8.precision_used == PREC_BF16);
	ck_assert(!w8.precision_fallback && w8.precision_used == PREC_W8A16);
	ck_assert_msg(w8.gpus < f16.gpus || w8.mem_per_gpu_gb < f16.mem_per_gpu_gb,
		      "w8a16 %d GPUs x %.1f GB, fp16 %d x %.1f", w8.gpus, w8.mem_per_gpu_gb, f16.gpus, f16.mem_per_gpu_gb);
}
END_TEST

START_TEST(training_refuses_weight_only)
{
	struct workload w;
	engine_workload_init(&w, cat);
	engine_workload_class_defaults(&w, WL_PRETRAIN);
	w.precision = PREC_W8A16;
	char why[256];
	ck_assert(!engine_workload_valid(&w, why, sizeof why));
	ck_assert_msg(strstr(why, "w8a16 is an inference format"), "%s", why);
}
END_TEST

int main(void)
{
	cat = fixture_shipped_catalog();
	Suite *s = suite_create("weight-only");
	TAP_ADD(s, names);
	TAP_ADD(s, bytes_from_weights_compute_at_16_bit);
	TAP_ADD(s, w8a16_runs_without_fp8_units);
	TAP_ADD(s, training_refuses_weight_only);
	int rc = tap_run(s);
	catalog_free(cat);
	return rc;
}
