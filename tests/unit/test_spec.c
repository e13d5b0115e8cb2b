/*
 * Speculative decoding (issue 15 item 8, engine_spec.c): the expected
 * tokens per target step are Leviathan et al.'s (1 - a^(k+1)) / (1 - a);
 * the draft length the engine picks maximises their expected speed-up
 * (theorem 3.8); DeepSeek-V3's MTP module drafts one token; the sizing
 * pays the verification of k + 1 tokens, k draft steps and the draft's
 * memory, so one user gets faster by less than the token gain and the
 * gain shrinks as the batch grows; the first token is unchanged; bad
 * combinations are refused; a scenario keeps the draft.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "scenario.h"
#include "fixture.h"
#include "tap.h"

static struct catalog *cat;

static void llama70(struct workload *w, const char *draft, double a)
{
	engine_workload_init(w, cat);
	w->model = catalog_model(cat, "llama-3.1-70b");
	w->precision = PREC_FP8;
	w->kv_precision_set = false;
	engine_workload_derive(w);
	w->tokens_per_s_per_user = 0;
	w->draft_model = draft ? (strcmp(draft, "mtp") ? catalog_model(cat, draft) : &engine_draft_mtp) : NULL;
	w->spec_acceptance = a;
}

START_TEST(tokens_per_step_and_the_draft_length)
{
	struct workload w;
	struct engine_requirements q;
	llama70(&w, "llama-3.1-8b", 0.8);
	w.spec_tokens = 4;
	engine_requirements(cat, &w, &q);
	ck_assert_int_eq(q.spec_tokens, 4);
	ck_assert_double_eq_tol(q.spec_tokens_per_step, (1 - pow(0.8, 5)) / 0.2, 1e-12);	/* 3.3616 */
	double c = q.spec_draft_cost;
	ck_assert_msg(c > 0.1 && c < 0.13, "8B / 70B active parameters: %g", c);
	/* without a length: the best of 1..8 for this cost */
	w.spec_tokens = 0;
	engine_requirements(cat, &w, &q);
	int best = 1;
	double bs = 0;
	for (int k = 1; k <= 8; k++) {
		double s = (1 - pow(0.8, k + 1)) / (0.2 * (k * c + 1));
		if (s > bs)
			bs = s, best = k;
	}
	ck_assert_int_eq(q.spec_tokens, best);
	ck_assert_double_eq_tol(q.spec_speedup, bs, 1e-12);
	/* none without acceptance */
	llama70(&w, NULL, 0);
	engine_requirements(cat, &w, &q);
	ck_assert_int_eq(q.spec_tokens, 0);
}
END_TEST

START_TEST(deepseek_mtp_drafts_one_token)
{
	struct workload w;
	struct engine_requirements q;
	engine_workload_init(&w, cat);
	w.model = catalog_model(cat, "deepseek-v3");
	ck_assert_int_eq(w.model->mtp_layers, 1);
	w.draft_model = &engine_draft_mtp;
	w.spec_acceptance = 0.85;
	char why[256];
	ck_assert_msg(engine_workload_valid(&w, why, sizeof why), "%s", why);
	engine_requirements(cat, &w, &q);
	ck_assert_int_eq(q.spec_tokens, 1);
	ck_assert_double_eq_tol(q.spec_tokens_per_step, 1.85, 1e-12);
	ck_assert_double_eq_tol(q.spec_draft_cost, 1.0 / 61, 1e-12);	/* one layer of 61 */
}
END_TEST

static void size_at(struct workload *w, long batch, struct engine_result *r)
{
	w->accel = catalog_accel(cat, "h100-sxm");
	w->tp = 2;
	w->concurrency = batch;
	w->batch = batch;
	engine_evaluate(cat, w, w->accel, r);
	ck_assert(r->fits);
}

START_TEST(one_user_faster_by_less_than_the_gain)
{
	struct workload w;
	struct engine_result plain, spec, plain_big, spec_big;
	struct engine_requirements q;
	llama70(&w, NULL, 0);
	size_at(&w, 1, &plain);
	size_at(&w, 64, &plain_big);
	llama70(&w, "llama-3.1-8b", 0.8);
	engine_requirements(cat, &w, &q);
	size_at(&w, 1, &spec);
	size_at(&w, 64, &spec_big);
	double up = spec.tokens_per_s_per_user / plain.tokens_per_s_per_user;
	ck_assert_msg(up > 1.5 && up < q.spec_tokens_per_step, "batch 1: %.2fx with %.2f tokens a step", up,
		      q.spec_tokens_per_step);
	ck_assert(spec_big.gpus == plain_big.gpus && spec_big.batch_per_replica == plain_big.batch_per_replica);
	/* the verification's extra tokens cost compute a big batch lacks */
	double up_big = spec_big.tokens_per_s_per_user / plain_big.tokens_per_s_per_user;
	ck_assert_msg(up_big < up, "batch 64: %.2fx, batch 1: %.2fx", up_big, up);
	/* the draft's weights sit beside the target's */
	ck_assert(spec.mem_per_gpu_gb > plain.mem_per_gpu_gb + 3.5);
	/* the first token is the prompt's prefill: no draft in it */
	ck_assert_double_eq_tol(spec.ttft_ms, plain.ttft_ms, 1e-9);
}
END_TEST

START_TEST(refusals)
{
	static const struct { const char *model, *draft; double a; const char *why; } cases[] = {
		{ "llama-3.1-70b", NULL, 0.7, "needs a draft" },
		{ "llama-3.1-70b", "mtp", 0.7, "no multi-token prediction modules" },
		{ "llama-3.1-70b", "llama-2-7b", 0.7, "must share its model's tokenizer" },
		{ "llama-3.1-8b", "llama-3.1-70b", 0.7, "is not smaller than" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct workload w;
		llama70(&w, cases[i].draft, cases[i].a);
		w.model = catalog_model(cat, cases[i].model);
		char why[256] = "";
		ck_assert_msg(!engine_workload_valid(&w, why, sizeof why), "case %zu accepted", i);
		ck_assert_msg(strstr(why, cases[i].why), "case %zu: %s", i, why);
	}
}
END_TEST

/* A draft alone (the wizard picks it before the acceptance) is kept and
 * changes nothing. */
START_TEST(a_draft_alone_does_nothing)
{
	struct workload w;
	struct engine_result plain, alone;
	struct engine_requirements q;
	llama70(&w, NULL, 0);
	size_at(&w, 4, &plain);
	llama70(&w, "llama-3.1-8b", 0);
	char why[256];
	ck_assert_msg(engine_workload_valid(&w, why, sizeof why), "%s", why);
	engine_requirements(cat, &w, &q);
	ck_assert_int_eq(q.spec_tokens, 0);
	size_at(&w, 4, &alone);
	ck_assert(alone.tokens_per_s_per_user == plain.tokens_per_s_per_user && alone.mem_per_gpu_gb == plain.mem_per_gpu_gb);
	ck_assert(engine_draft_fits(catalog_model(cat, "llama-3.1-70b"), catalog_model(cat, "llama-3.1-8b")));
	ck_assert(!engine_draft_fits(catalog_model(cat, "llama-3.1-70b"), &engine_draft_mtp));
	ck_assert(engine_draft_fits(catalog_model(cat, "deepseek-v3"), &engine_draft_mtp));
}
END_TEST

START_TEST(scenario_keeps_the_draft)
{
	struct scenario s, back;
	scenario_init(&s, cat);
	llama70(&s.w, "llama-3.1-8b", 0.7);
	s.w.spec_tokens = 3;
	char *buf = NULL, err[512] = "";
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert(scenario_emit(&s, f, err, sizeof err));
	fclose(f);
	ck_assert_msg(strstr(buf, "draft_model: llama-3.1-8b") && strstr(buf, "speculative_acceptance: 0.7") &&
		      strstr(buf, "speculative_tokens: 3"), "%s", buf);
	ck_assert_msg(scenario_load_string("s.yaml", buf, len, cat, &back, err, sizeof err), "%s", err);
	ck_assert(back.w.draft_model == s.w.draft_model && back.w.spec_acceptance == 0.7 && back.w.spec_tokens == 3);
	free(buf);
	scenario_fini(&back);
	static const char mtp[] = "schema: 1\nworkload:\n  model: deepseek-v3\n  draft_model: mtp\n"
				  "  speculative_acceptance: 0.8\n";
	ck_assert_msg(scenario_load_string("m.yaml", mtp, sizeof mtp - 1, cat, &back, err, sizeof err), "%s", err);
	ck_assert(back.w.draft_model == &engine_draft_mtp);
	scenario_fini(&back);
	static const char bad[] = "schema: 1\nworkload:\n  draft_model: llama-9\n";
	ck_assert(!scenario_load_string("b.yaml", bad, sizeof bad - 1, cat, &back, err, sizeof err));
	ck_assert_msg(strstr(err, "b.yaml:3:16: ") != NULL, "%s", err);
	scenario_fini(&back);
	scenario_fini(&s);
}
END_TEST

int main(void)
{
	cat = fixture_shipped_catalog();
	Suite *s = suite_create("speculative");
	TAP_ADD(s, tokens_per_step_and_the_draft_length);
	TAP_ADD(s, deepseek_mtp_drafts_one_token);
	TAP_ADD(s, one_user_faster_by_less_than_the_gain);
	TAP_ADD(s, refusals);
	TAP_ADD(s, a_draft_alone_does_nothing);
	TAP_ADD(s, scenario_keeps_the_draft);
	int rc = tap_run(s);
	catalog_free(cat);
	return rc;
}
