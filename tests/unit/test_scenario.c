/*
 * Scenario files: the good fixtures load with the values they state, every
 * bad fixture is refused with exactly the file:line:col message in its
 * .expect file, and save -> load gives back the same workload, field by
 * field and through the engine's results.
 */
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_workload.h"
#include "scenario.h"
#include "fixture.h"
#include "tap.h"

#define FIXTURES ABS_TOP_SRCDIR "/tests/fixtures/scenarios"

static struct catalog *cat;
static glob_t bad;

/* Saves s to memory and loads it back into out. */
static void round_trip(const struct scenario *s, struct scenario *out, char **yaml)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char err[512] = "";
	ck_assert_msg(scenario_emit(s, f, err, sizeof err), "%s", err);
	fclose(f);
	bool ok = scenario_load_string("saved.yaml", buf, len, cat, out, err, sizeof err);
	ck_assert_msg(ok, "%s\n%s", err, buf);
	if (yaml)
		*yaml = buf;
	else
		free(buf);
}

static void assert_same_model(const struct catalog_model *a, const struct catalog_model *b)
{
	ck_assert(a->params == b->params);
	ck_assert(a->active_params == b->active_params);
	ck_assert_int_eq(a->layers, b->layers);
	ck_assert_int_eq(a->hidden, b->hidden);
	ck_assert_int_eq(a->heads, b->heads);
	ck_assert_int_eq(a->kv_heads, b->kv_heads);
	ck_assert_int_eq(a->head_dim, b->head_dim);
	ck_assert_int_eq(a->ffn, b->ffn);
	ck_assert_int_eq(a->vocab, b->vocab);
	ck_assert_int_eq(a->max_context, b->max_context);
	ck_assert_int_eq(a->experts, b->experts);
	ck_assert_int_eq(a->experts_active, b->experts_active);
	ck_assert_int_eq(a->mla_kv_lora_rank, b->mla_kv_lora_rank);
	ck_assert_int_eq(a->mla_qk_rope_head_dim, b->mla_qk_rope_head_dim);
	ck_assert_int_eq(a->sliding_window, b->sliding_window);
	ck_assert_int_eq(a->sliding_layers, b->sliding_layers);
	ck_assert_str_eq(a->name, b->name);
}

/* Every field of struct workload; doubles compared exactly. */
static void assert_same_workload(const struct workload *a, const struct workload *b)
{
	ck_assert_int_eq(a->cls, b->cls);
	if (a->model && a->model->file)
		ck_assert_ptr_eq(a->model, b->model);
	else
		assert_same_model(a->model, b->model);
	ck_assert_int_eq(a->precision, b->precision);
	ck_assert_int_eq(a->kv_precision, b->kv_precision);
	ck_assert_int_eq(a->input_tokens, b->input_tokens);
	ck_assert_int_eq(a->output_tokens, b->output_tokens);
	ck_assert_int_eq(a->concurrency_max, b->concurrency_max);
	if (!a->concurrency_max)
		ck_assert_int_eq(a->concurrency, b->concurrency);
	ck_assert(a->tokens_per_s_per_user == b->tokens_per_s_per_user);
	ck_assert(a->ttft_ms == b->ttft_ms);
	ck_assert(a->target_tokens_per_s == b->target_tokens_per_s);
	ck_assert(a->tokens == b->tokens);
	ck_assert(a->epochs == b->epochs);
	ck_assert(a->target_hours == b->target_hours);
	ck_assert_int_eq(a->seq_len, b->seq_len);
	ck_assert(a->global_batch_tokens == b->global_batch_tokens);
	ck_assert_int_eq(a->recompute, b->recompute);
	ck_assert_int_eq(a->method, b->method);
	ck_assert_int_eq(a->lora_rank, b->lora_rank);
	ck_assert_int_eq(a->stack, b->stack);
	ck_assert_int_eq(a->form, b->form);
	ck_assert(a->max_power_kw == b->max_power_kw);
	ck_assert(a->budget_usd == b->budget_usd);
	ck_assert_int_eq(a->objective, b->objective);
	ck_assert_ptr_eq(a->accel, b->accel);
	ck_assert_int_eq(a->gpus, b->gpus);
	ck_assert_int_eq(a->spare_nodes, b->spare_nodes);
}

/* The engine must see the two workloads as the same: same ranking, same
 * sizing, same money. */
static void assert_same_results(const struct workload *a, const struct workload *b)
{
	struct engine_report ra, rb;
	ck_assert(engine_report_init(&ra, cat));
	ck_assert(engine_report_init(&rb, cat));
	engine_run(cat, a, &ra);
	engine_run(cat, b, &rb);
	ck_assert_uint_eq(ra.n, rb.n);
	ck_assert_uint_eq(ra.n_fitting, rb.n_fitting);
	ck_assert_uint_gt(ra.n, 0);
	for (size_t i = 0; i < ra.n; i++) {
		const struct engine_result *x = &ra.results[i], *y = &rb.results[i];
		ck_assert_ptr_eq(x->accel, y->accel);
		ck_assert_ptr_eq(x->platform, y->platform);
		ck_assert_int_eq(x->fits, y->fits);
		ck_assert_int_eq(x->gpus, y->gpus);
		ck_assert_int_eq(x->nodes, y->nodes);
		ck_assert_int_eq(x->binding, y->binding);
		ck_assert_str_eq(x->reason, y->reason);
		ck_assert(x->capex_usd == y->capex_usd || (isnan(x->capex_usd) && isnan(y->capex_usd)));
		ck_assert(x->power_kw == y->power_kw || (isnan(x->power_kw) && isnan(y->power_kw)));
		ck_assert((x->output_tokens_per_s == y->output_tokens_per_s) ||
			  (isnan(x->output_tokens_per_s) && isnan(y->output_tokens_per_s)));
		ck_assert((x->train_hours == y->train_hours) ||
			  (isnan(x->train_hours) && isnan(y->train_hours)));
	}
	engine_report_fini(&ra);
	engine_report_fini(&rb);
}

START_TEST(bad_fixture_exact_message)
{
	const char *yaml = bad.gl_pathv[_i];
	char expect_path[1024];
	snprintf(expect_path, sizeof expect_path, "%.*s.expect", (int)(strlen(yaml) - 5), yaml);
	char *expect = fixture_slurp(expect_path);
	char want[2048], err[1024] = "";
	snprintf(want, sizeof want, "%s%s", yaml, expect);
	struct scenario s;
	ck_assert_msg(!scenario_load(yaml, cat, &s, err, sizeof err), "%s loaded", yaml);
	ck_assert_str_eq(err, want);
	scenario_fini(&s);
	free(expect);
}
END_TEST

START_TEST(at_least_twenty_bad_fixtures)
{
	ck_assert_uint_ge(bad.gl_pathc, 20);
}
END_TEST

START_TEST(inference_fixture_values)
{
	struct scenario s;
	char err[512] = "";
	ck_assert_msg(scenario_load(FIXTURES "/good/inference.yaml", cat, &s, err, sizeof err),
		      "%s", err);
	ck_assert_str_eq(s.customer, "M\xc3\xbcller & S\xc3\xb6hne GmbH \xe2\x80\x94 \xc2\xab" "AI platform\xc2\xbb");
	ck_assert_str_eq(s.opportunity, "Q3 inference refresh");
	ck_assert_str_eq(s.notes, "Customer wants 70B at fp8.\n  Indented line, \"quotes\", "
			 "'single', # not a comment\n=SUM(A1:A2) must stay text.\n");
	ck_assert_int_eq(s.w.cls, WL_INFERENCE);
	ck_assert_ptr_eq(s.w.model, catalog_model(cat, "llama-3.1-70b"));
	ck_assert_int_eq(s.w.precision, PREC_FP8);
	ck_assert_int_eq(s.w.kv_precision, PREC_FP8);
	ck_assert_int_eq(s.w.input_tokens, 2048);
	ck_assert_int_eq(s.w.output_tokens, 512);
	ck_assert_int_eq(s.w.concurrency, 128);
	ck_assert(!s.w.concurrency_max);
	ck_assert(s.w.tokens_per_s_per_user == 25);
	ck_assert(s.w.ttft_ms == 800);
	ck_assert_int_eq(s.w.stack, STACK_CUDA);
	ck_assert_int_eq(s.w.form, FORMF_SXM_OAM);
	ck_assert(s.w.budget_usd == 2500000);
	ck_assert_ptr_eq(s.w.accel, catalog_accel(cat, "h100-sxm"));
	ck_assert_int_eq(s.w.gpus, -1);
	ck_assert_int_eq(s.w.spare_nodes, 1);
	scenario_fini(&s);
}
END_TEST

START_TEST(custom_model_fixture_values)
{
	struct scenario s;
	char err[512] = "";
	ck_assert_msg(scenario_load(FIXTURES "/good/finetune-custom.yaml", cat, &s, err, sizeof err),
		      "%s", err);
	ck_assert(s.has_custom);
	ck_assert_ptr_eq(s.w.model, &s.custom);
	ck_assert(s.custom.params == 13015864320.0);
	ck_assert(s.custom.active_params == s.custom.params);
	ck_assert_int_eq(s.custom.layers, 40);
	ck_assert_int_eq(s.custom.ffn, 13824);
	ck_assert_str_eq(s.custom.name, "ACME 13B (in-house)");
	ck_assert_int_eq(s.w.cls, WL_FINETUNE);
	ck_assert_int_eq(s.w.method, FT_QLORA);
	ck_assert_int_eq(s.w.lora_rank, 64);
	ck_assert(s.w.tokens == 2.5e8);
	ck_assert_int_eq(s.w.recompute, RECOMPUTE_FULL);
	ck_assert_int_eq(s.w.objective, OBJ_TIME);
	ck_assert_ptr_null(s.opportunity);
	scenario_fini(&s);
}
END_TEST

START_TEST(absent_keys_keep_defaults)
{
	struct scenario s, d;
	char err[512] = "";
	ck_assert_msg(scenario_load(FIXTURES "/good/pretrain-minimal.yaml", cat, &s, err, sizeof err),
		      "%s", err);
	scenario_init(&d, cat);
	ck_assert(s.w.tokens == 2e12);
	ck_assert(s.w.target_hours == 720);
	ck_assert_int_eq(s.w.spare_nodes, 0);
	ck_assert_int_eq(s.w.seq_len, d.w.seq_len);
	ck_assert(s.w.global_batch_tokens == d.w.global_batch_tokens);
	ck_assert_int_eq(s.w.input_tokens, d.w.input_tokens);
	ck_assert_int_eq(s.w.objective, d.w.objective);
	scenario_fini(&s);
	scenario_fini(&d);
}
END_TEST

START_TEST(round_trip_every_good_fixture)
{
	glob_t g;
	ck_assert_int_eq(glob(FIXTURES "/good/*.yaml", 0, NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, 4);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct scenario a, b;
		char err[512] = "";
		ck_assert_msg(scenario_load(g.gl_pathv[i], cat, &a, err, sizeof err), "%s", err);
		round_trip(&a, &b, NULL);
		assert_same_workload(&a.w, &b.w);
		ck_assert_int_eq(a.has_custom, b.has_custom);
		assert_same_results(&a.w, &b.w);
		scenario_fini(&a);
		scenario_fini(&b);
	}
	globfree(&g);
}
END_TEST

/* Issue 18: a scenario of several workloads saves as workloads: with
 * every entry (name, keys, share of the week) and share_gpus; loading the
 * saved file and saving it again gives the same bytes, and every entry
 * sizes the same. */
START_TEST(round_trip_several_workloads)
{
	glob_t g;
	ck_assert_int_eq(glob(FIXTURES "/workloads/*.yaml", 0, NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, 3);
	size_t multi = 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct scenario a, b, c;
		char err[512] = "", *y1, *y2;
		ck_assert_msg(scenario_load(g.gl_pathv[i], cat, &a, err, sizeof err), "%s", err);
		round_trip(&a, &b, &y1);
		round_trip(&b, &c, &y2);
		ck_assert_str_eq(y1, y2);
		ck_assert_uint_eq(a.n_entries, b.n_entries);
		ck_assert_int_eq(a.share_gpus, b.share_gpus);
		if (a.n_entries > 1) {
			multi++;
			ck_assert_msg(strstr(y1, "\nworkloads:\n") && !strstr(y1, "\nworkload:\n"), "%s", y1);
		}
		for (size_t e = 0; e < a.n_entries; e++) {
			ck_assert_str_eq(a.entries[e].name, b.entries[e].name);
			ck_assert(a.entries[e].share == b.entries[e].share);
			assert_same_workload(&a.entries[e].w, &b.entries[e].w);
			assert_same_results(&a.entries[e].w, &b.entries[e].w);
		}
		assert_same_workload(&a.w, &b.w);
		free(y1);
		free(y2);
		scenario_fini(&a);
		scenario_fini(&b);
		scenario_fini(&c);
	}
	ck_assert_uint_ge(multi, 3);
	globfree(&g);
}
END_TEST

/* A fine-tune's 8 hours a week is saved as 8 hours, not as its share. */
START_TEST(round_trip_hours_per_week_as_typed)
{
	struct scenario a, b;
	char err[512] = "", *y;
	ck_assert_msg(scenario_load(FIXTURES "/workloads/three.yaml", cat, &a, err, sizeof err), "%s", err);
	round_trip(&a, &b, &y);
	ck_assert_msg(strstr(y, "hours_per_week: 8\n"), "%s", y);
	ck_assert_msg(strstr(y, "share_gpus: true\n"), "%s", y);
	ck_assert_msg(strstr(y, "customer: \"ACME\"\n"), "%s", y);
	ck_assert_msg(strstr(y, "- name: weekly-lora\n"), "%s", y);
	free(y);
	scenario_fini(&a);
	scenario_fini(&b);
}
END_TEST

/* A list of workloads takes catalog models only (the loader refuses a
 * custom_model inside workloads:), so such a list is not written. */
START_TEST(several_workloads_refuse_a_custom_model_on_save)
{
	struct scenario a;
	char err[512] = "", *buf = NULL;
	size_t len = 0;
	ck_assert_msg(scenario_load(FIXTURES "/workloads/three.yaml", cat, &a, err, sizeof err), "%s", err);
	a.custom.params = 1e9;
	a.entries[1].w.model = &a.custom;
	FILE *f = open_memstream(&buf, &len);
	ck_assert(!scenario_emit(&a, f, err, sizeof err));
	fclose(f);
	ck_assert_msg(strstr(err, "workload 'small' uses a custom model"), "%s", err);
	free(buf);
	scenario_fini(&a);
}
END_TEST

START_TEST(round_trip_awkward_text_and_numbers)
{
	static const char *const texts[] = {
		"plain",
		"=cmd|' /C calc'!A0",
		"line one\nline two\n",
		"  leading spaces\nand trailing spaces   ",
		"trailing newlines\n\n\n",
		"\n\nleading newlines",
		"tab\there, CRLF\r\nnext",
		"--- not a document\n... nor an end",
		"# not a comment: key: value, [flow], {map}, &anchor *alias !tag",
		"quotes \" and ' and backslash \\ and \\n literally",
		"\xe2\x82\xac \xf0\x9f\x9a\x80 \xe4\xb8\xad\xe6\x96\x87 \xd8\xb9\xd8\xb1\xd8\xa8\xd9\x8a",
		"control \x01\x07\x1b[31m bytes",
		"yes", "null", "~", "123", "0x1F", "1e3", "true",
		"\xc2\xa0non-breaking\xe2\x80\xa8line separator",
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct scenario a, b;
		scenario_init(&a, cat);
		ck_assert(scenario_set_text(&a.customer, texts[i]));
		ck_assert(scenario_set_text(&a.opportunity, texts[(i + 1) % 20]));
		ck_assert(scenario_set_text(&a.notes, texts[i]));
		a.w.tokens_per_s_per_user = 0.1 + 0.2;		/* 0.30000000000000004 */
		a.w.ttft_ms = 1000.0 / 3.0;
		a.w.target_tokens_per_s = 123456789.123456789;
		a.w.budget_usd = 1234567.0 / 7.0;
		/* Awkward but within the engine's table of bounds
		 * (engine_limits.c: power 1e6 kW, tokens 1e16). */
		a.w.max_power_kw = 987654.321987654;
		a.w.tokens = 6.02214076e15;
		a.w.epochs = 0.7;
		char *yaml;
		round_trip(&a, &b, &yaml);
		ck_assert_msg(b.customer && !strcmp(a.customer, b.customer),
			      "customer %zu: %s", i, yaml);
		ck_assert_str_eq(a.opportunity, b.opportunity);
		ck_assert_msg(b.notes && !strcmp(a.notes, b.notes), "notes %zu: %s", i, yaml);
		assert_same_workload(&a.w, &b.w);
		free(yaml);
		scenario_fini(&a);
		scenario_fini(&b);
	}
}
END_TEST

START_TEST(round_trip_custom_model_exact_params)
{
	/* Parameter counts that are not round billions must come back to the
	 * last parameter. */
	static const double params[] = { 6738415616.0, 8030261248.0, 70553706496.0, 3000001.0,
					 123456789.0, 3e12 };
	for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
		struct scenario a, b;
		scenario_init(&a, cat);
		struct catalog_model m;
		memset(&m, 0, sizeof m);
		m.name = "odd \"model\": 1";
		m.params = params[i];
		m.active_params = params[i] / 3;
		m.layers = 32;
		m.hidden = 4096;
		m.heads = 32;
		m.kv_heads = 8;
		m.experts = 8;
		m.experts_active = 2;
		m.sliding_window = 4096;
		m.mla_kv_lora_rank = 512;
		m.mla_qk_rope_head_dim = 64;
		ck_assert(scenario_set_custom_model(&a, &m));
		char *yaml;
		round_trip(&a, &b, &yaml);
		ck_assert_msg(a.custom.params == b.custom.params, "%.17g != %.17g\n%s",
			      a.custom.params, b.custom.params, yaml);
		assert_same_workload(&a.w, &b.w);
		ck_assert_ptr_eq(b.w.model, &b.custom);
		free(yaml);
		scenario_fini(&a);
		scenario_fini(&b);
	}
}
END_TEST

START_TEST(round_trip_every_class_and_override)
{
	for (int cls = 0; cls < WL_COUNT; cls++) {
		struct scenario a, b;
		scenario_init(&a, cat);
		engine_workload_class_defaults(&a.w, (enum workload_class)cls);
		a.w.accel = catalog_accel(cat, "mi300x");
		a.w.gpus = 16;
		a.w.spare_nodes = 2;
		a.w.stack = STACK_ROCM;
		a.w.form = FORMF_PCIE;
		a.w.objective = OBJ_PERF_PER_WATT;
		a.w.concurrency_max = cls == WL_INFERENCE;
		a.w.method = FT_FULL;
		a.w.recompute = RECOMPUTE_NONE;
		a.w.precision = PREC_BF16;
		a.w.kv_precision = PREC_INT8;
		round_trip(&a, &b, NULL);
		assert_same_workload(&a.w, &b.w);
		assert_same_results(&a.w, &b.w);
		scenario_fini(&a);
		scenario_fini(&b);
	}
}
END_TEST

START_TEST(save_is_atomic_and_reloads)
{
	char dir[] = "/tmp/test_scenario.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/s.yaml", dir);
	struct scenario a, b;
	char err[512] = "";
	ck_assert(scenario_load(FIXTURES "/good/inference-max.yaml", cat, &a, err, sizeof err));
	ck_assert_msg(scenario_save(path, &a, err, sizeof err), "%s", err);
	ck_assert_msg(scenario_load(path, cat, &b, err, sizeof err), "%s", err);
	assert_same_workload(&a.w, &b.w);
	ck_assert(b.w.concurrency_max);
	/* a directory at the target: refused, nothing else changes */
	char sub[300];
	snprintf(sub, sizeof sub, "%s/d.yaml", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	ck_assert(!scenario_save(sub, &a, err, sizeof err));
	char want[400];
	snprintf(want, sizeof want, "cannot write '%s': Is a directory", sub);
	ck_assert_str_eq(err, want);
	scenario_fini(&a);
	scenario_fini(&b);
	unlink(path);
	rmdir(sub);
	rmdir(dir);
}
END_TEST

START_TEST(apply_keeps_what_the_file_omits)
{
	/* --scenario under flags: only the file's keys change the workload. */
	struct scenario s;
	scenario_init(&s, cat);
	s.w.input_tokens = 777;
	s.w.objective = OBJ_GPUS;
	char err[512] = "";
	ck_assert_msg(scenario_apply_file(FIXTURES "/good/pretrain-minimal.yaml", cat, &s, err,
					  sizeof err), "%s", err);
	ck_assert_int_eq(s.w.cls, WL_PRETRAIN);
	ck_assert_int_eq(s.w.input_tokens, 777);
	ck_assert_int_eq(s.w.objective, OBJ_GPUS);
	scenario_fini(&s);
}
END_TEST

START_TEST(move_keeps_custom_model_pointer)
{
	struct scenario a, b;
	char err[512] = "";
	ck_assert(scenario_load(FIXTURES "/good/finetune-custom.yaml", cat, &a, err, sizeof err));
	scenario_init(&b, cat);
	scenario_move(&b, &a);
	ck_assert_ptr_eq(b.w.model, &b.custom);
	ck_assert_int_eq(b.custom.layers, 40);
	ck_assert_str_eq(b.customer, "ACME");
	ck_assert_ptr_null(a.customer);
	scenario_fini(&a);
	scenario_fini(&b);
}
END_TEST

struct collected {
	char text[4096];
	size_t len;
};

static void collect(const char *section, const char *key, const char *value, void *vctx)
{
	struct collected *c = vctx;
	int m = snprintf(c->text + c->len, sizeof c->text - c->len, "%s%s%s=%s\n", section,
			 *section ? "." : "", key, value);
	if (m > 0)
		c->len += (size_t)m;
}

START_TEST(settings_follow_the_class)
{
	struct scenario s;
	char err[512] = "";
	ck_assert(scenario_load(FIXTURES "/good/inference.yaml", cat, &s, err, sizeof err));
	struct collected c = { .len = 0 };
	scenario_each_setting(&s.w, collect, &c);
	ck_assert_ptr_nonnull(strstr(c.text, "workload.model=llama-3.1-70b\n"));
	ck_assert_ptr_nonnull(strstr(c.text, "workload.concurrency=128\n"));
	ck_assert_ptr_nonnull(strstr(c.text, "filters.stack=cuda\n"));
	ck_assert_ptr_nonnull(strstr(c.text, "accelerator=h100-sxm\n"));
	ck_assert_ptr_nonnull(strstr(c.text, "node.spare_nodes=1\n"));
	ck_assert_ptr_null(strstr(c.text, "epochs"));		/* training only */
	scenario_fini(&s);
}
END_TEST

/* ---- the front ends agree on every bound (engine_limits.c) ---- */

/* "123" for whole numbers, the shortest exact text otherwise. */
static void num_text(char *buf, size_t n, double v, bool integer)
{
	if (integer)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.17g", v);
}

/* Runs one workload option through the CLI's setter; returns its exit
 * code and what it printed on stderr. */
static int cli_apply(const char *flag, const char *value, char *msg, size_t msgsz)
{
	struct workload w;
	struct cli_extra x;
	memset(&x, 0, sizeof x);
	engine_workload_init(&w, cat);
	fflush(stderr);
	int saved = dup(2);
	FILE *tmp = tmpfile();
	ck_assert(saved >= 0 && tmp);
	dup2(fileno(tmp), 2);
	int rc = cli_workload_apply(cat, &w, &x, flag, NULL, value);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(msg, 1, msgsz - 1, tmp);
	msg[n] = '\0';
	fclose(tmp);
	return rc;
}

/* A scenario that sets the table's field `key` to `value` and keeps the
 * rest of the workload valid; NULL for a bound no scenario key holds. */
static char *scenario_with(const char *key, const char *value, const char **ykey)
{
	static const char *const inf[] = { "input_tokens", "output_tokens", "concurrency",
					   "tokens_per_s_per_user", "ttft_ms", "target_tokens_per_s",
					   "arrival_rate", "harness_window_ms", "scheduler_steps", "prefix_cache_hit", "batch", "token_budget",
					   "output_cv",
					   "speculative_acceptance",
					   "speculative_tokens" };
	static const char *const model[] = { "params_b", "active_params_b", "layers", "hidden_size",
					     "attention_heads", "kv_heads", "head_dim", "ffn_size",
					     "ffn_matrices", "vocab_size", "max_context", "mtp_layers" };
	/* custom_model's nested keys: table key, section, key, sibling */
	static const char *const nested[][4] = {
		{ "experts.total", "experts", "total", "active: 1" },
		{ "experts.active", "experts", "active", "total: 100000" },
		{ "experts.shared", "experts", "shared", "total: 8, active: 2" },
		{ "experts.dense_layers", "experts", "dense_layers", "total: 8, active: 2" },
		{ "experts.dense_ffn_size", "experts", "dense_ffn_size", "total: 8, active: 2" },
		{ "mla.kv_lora_rank", "mla", "kv_lora_rank", "qk_rope_head_dim: 64" },
		{ "mla.qk_rope_head_dim", "mla", "qk_rope_head_dim", "kv_lora_rank: 512" },
		{ "mla.q_lora_rank", "mla", "q_lora_rank", "kv_lora_rank: 512, qk_rope_head_dim: 64" },
		{ "sliding_window.tokens", "sliding_window", "tokens", "layers: 16" },
		{ "sliding_window.layers", "sliding_window", "layers", "tokens: 4096" },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*ykey = key;
	if (!strcmp(key, "days")) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fprintf(f, "schema: 1\n");
	if (!strcmp(key, "gpus"))
		fprintf(f, "accelerator: h100-sxm\nnode:\n  gpus: %s\n", value);
	else if (!strcmp(key, "spare_nodes"))
		fprintf(f, "node:\n  spare_nodes: %s\n", value);
	else if (!strcmp(key, "batch") || !strcmp(key, "token_budget"))
		fprintf(f, "accelerator: h100-sxm\nnode:\n  %s: %s\n", key, value);
	else if (!strcmp(key, "max_power_kw") || !strcmp(key, "budget_usd"))
		fprintf(f, "filters:\n  %s: %s\n", key, value);
	else if (engine_field_by_key("node", key))
		fprintf(f, "node:\n  %s: %s\n", key, value);
	else if (engine_field_by_key("costs", key))
		fprintf(f, "costs:\n  %s: %s\n", key, value);
	const char *cls = "pretrain";
	for (size_t i = 0; i < sizeof inf / sizeof inf[0]; i++)
		if (!strcmp(key, inf[i]))
			cls = "inference";
	if (!strcmp(key, "epochs") || !strcmp(key, "lora_rank"))
		cls = "finetune";
	fprintf(f, "workload:\n  class: %s\n  custom_model: {", cls);
	/* The required figures, one of them maybe the one under test; no
	 * max_context, so no context limit applies. */
	bool is_model = false;
	for (size_t i = 0; i < sizeof model / sizeof model[0]; i++)
		is_model |= !strcmp(key, model[i]);
	static const char *const base[][2] = {
		{ "params_b", "7" }, { "layers", "32" }, { "hidden_size", "4096" },
		{ "attention_heads", "32" }, { "kv_heads", "8" },
	};
	for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
		const char *v = base[i][1];
		if (!strcmp(key, base[i][0]))
			v = value;
		else if (!strcmp(base[i][0], "params_b") && !strcmp(key, "active_params_b"))
			v = "100000";	/* active cannot exceed the total */
		else if (!strcmp(base[i][0], "hidden_size") && !strcmp(key, "lora_rank"))
			v = "65536";	/* the rank cannot exceed the hidden size */
		fprintf(f, "%s%s: %s", i ? ", " : "", base[i][0], v);
	}
	bool in_base = false;
	for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
		in_base |= !strcmp(key, base[i][0]);
	if (is_model && !in_base)
		fprintf(f, ", %s: %s", key, value);
	for (size_t i = 0; i < sizeof nested / sizeof nested[0]; i++)
		if (!strcmp(key, nested[i][0])) {
			fprintf(f, ", %s: {%s: %s, %s}", nested[i][1], nested[i][2], value, nested[i][3]);
			*ykey = nested[i][2];
		}
	/* speculative decoding needs a draft with the model's vocabulary */
	bool spec = !strncmp(key, "speculative_", 12);
	if (spec)
		fprintf(f, ", vocab_size: 32000");
	fprintf(f, "}\n");
	if (spec)
		fprintf(f, "  draft_model: llama-2-7b\n%s", strcmp(key, "speculative_tokens") ? ""
			: "  speculative_acceptance: 0.5\n");
	if (!strcmp(key, "seq_len"))
		fprintf(f, "  global_batch_tokens: 1e12\n");
	if (!strcmp(key, "global_batch_tokens"))
		fprintf(f, "  seq_len: 1\n");
	bool is_workload = !strcmp(cls, "inference") && strcmp(key, "batch") &&
			   strcmp(key, "token_budget");
	static const char *const wl[] = { "tokens", "epochs", "target_hours", "seq_len",
					  "global_batch_tokens", "lora_rank", "tp", "pp", "vp", "cp", "ep",
					  "micro_batch", "eval_tokens" };
	for (size_t i = 0; i < sizeof wl / sizeof wl[0]; i++)
		is_workload |= !strcmp(key, wl[i]);
	if (is_workload)
		fprintf(f, "  %s: %s\n", key, value);
	fclose(f);
	return buf;
}

/* Loads the scenario; true if it loaded, else err holds why. */
static bool scenario_ok(const char *yaml, char *err, size_t errsz)
{
	struct scenario s;
	bool ok = scenario_load_string("b.yaml", yaml, strlen(yaml), cat, &s, err, errsz);
	scenario_fini(&s);
	return ok;
}

static void ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	ck_assert_msg(a >= b && !strcmp(s + a - b, tail), "'%s' does not end with '%s'", s, tail);
}

/* Every bounded figure: the engine's numeric fields (by scenario key, or
 * flag for --days) and the model's figures (catalog.h). */
struct bound {
	const char *key, *flag;
	struct engine_field_limit lim;
};

static size_t bounds(struct bound *out)
{
	size_t n = 0;
	for (int i = 0; i < EF_COUNT; i++) {
		const struct engine_field *f = engine_field((enum engine_field_id)i);
		if (f->type != EFT_INT && f->type != EFT_LONG && f->type != EFT_DOUBLE)
			continue;
		if (out)
			out[n] = (struct bound){ f->key ? f->key : f->flag, f->flag, f->lim };
		n++;
	}
	for (size_t i = 0; i < MF_COUNT; i++) {
		if (out)
			out[n] = (struct bound){ catalog_model_figures[i].key, NULL,
						 engine_model_figure_limit(&catalog_model_figures[i]) };
		n++;
	}
	return n;
}

/* For each bounded figure: the CLI flag and a scenario file both accept its
 * maximum and its minimum, both refuse the next value past either, and both
 * word the range as engine_field_range() does.  (The wizard copies the same
 * bounds into its rows: tests/tui/edit.sh.) */
START_TEST(front_ends_agree_on_bounds)
{
	struct bound all[EF_COUNT + MF_COUNT];
	bounds(all);
	const struct bound *b = &all[_i];
	const struct engine_field_limit *l = &b->lim;
	char range[96], ok_text[40], bad_text[40], msg[512], want[512], err[512];
	engine_field_range(l, range, sizeof range);
	const double past[2] = {
		l->integer ? l->max + 1 : nextafter(l->max, INFINITY),
		l->integer ? l->min - 1 : nextafter(l->min, 0),
	};
	const double edge[2] = { l->max, l->min };
	for (int side = 0; side < 2; side++) {
		num_text(ok_text, sizeof ok_text, edge[side], l->integer);
		num_text(bad_text, sizeof bad_text, past[side], l->integer);
		/* Below a minimum of 0 (a sign: "not a number" to the CLI),
		 * or down to the 0 that means none, nothing to refuse here. */
		bool refusable = past[side] > 0 || (past[side] == 0 && !l->zero_none);
		ck_assert(engine_field_ok(l, edge[side]));
		ck_assert_msg(!refusable || !engine_field_ok(l, past[side]), "%s %s", b->key, bad_text);
		if (b->flag) {
			char flag[48];
			snprintf(flag, sizeof flag, "--%s", b->flag);
			ck_assert_msg(cli_apply(flag, ok_text, msg, sizeof msg) == 0, "%s %s: %s", flag,
				      ok_text, msg);
			if (refusable) {
				ck_assert_int_eq(cli_apply(flag, bad_text, msg, sizeof msg), EXIT_BADINPUT);
				snprintf(want, sizeof want, "accelsizer: %s: '%s' is out of range (%s)\n", flag,
					 bad_text, range);
				ck_assert_str_eq(msg, want);
			}
		}
		const char *ykey;
		char *yaml = scenario_with(b->key, ok_text, &ykey);
		if (!yaml)
			continue;
		ck_assert_msg(scenario_ok(yaml, err, sizeof err), "%s\n%s", err, yaml);
		free(yaml);
		if (!refusable)
			continue;
		yaml = scenario_with(b->key, bad_text, &ykey);
		ck_assert_msg(!scenario_ok(yaml, err, sizeof err), "%s loaded:\n%s", bad_text, yaml);
		snprintf(want, sizeof want, "'%s' %s is out of range (%s)", ykey, bad_text, range);
		ends_with(err, want);
		ck_assert_msg(!strncmp(err, "b.yaml:", 7), "%s", err);
		free(yaml);
	}
}
END_TEST

/* --days is --hours in days: the same 100 years, and its least value
 * inside the hours' range. */
START_TEST(days_and_hours_agree)
{
	const struct engine_field *d = engine_field_by_flag("--days");
	const struct engine_field *h = engine_field_by_flag("--hours");
	ck_assert(d && h && h == engine_field_by_key("workload", "target_hours"));
	ck_assert(d->off == h->off && d->scale == 24);
	ck_assert(d->lim.max * 24 == h->lim.max);
	ck_assert(d->lim.min * 24 >= h->lim.min);
	ck_assert(d->lim.zero_none && h->lim.zero_none);
	ck_assert(engine_field_by_flag("--no-such-flag") == NULL);
}
END_TEST

#define ADD(s, fn) TAP_ADD(s, fn)

int main(void)
{
	cat = fixture_shipped_catalog();
	if (glob(FIXTURES "/bad/*.yaml", 0, NULL, &bad) != 0) {
		printf("Bail out! no fixtures under %s\n", FIXTURES);
		return 1;
	}
	Suite *s = suite_create("scenario");
	TCase *tc = tcase_create("bad scenario fixture: exact message");
	tcase_add_loop_test(tc, bad_fixture_exact_message, 0, (int)bad.gl_pathc);
	suite_add_tcase(s, tc);
	size_t n_limits = bounds(NULL);
	tc = tcase_create("front ends agree on a bound of the engine's table");
	tcase_add_loop_test(tc, front_ends_agree_on_bounds, 0, (int)n_limits);
	suite_add_tcase(s, tc);
	ADD(s, days_and_hours_agree);
	ADD(s, at_least_twenty_bad_fixtures);
	ADD(s, inference_fixture_values);
	ADD(s, custom_model_fixture_values);
	ADD(s, absent_keys_keep_defaults);
	ADD(s, round_trip_every_good_fixture);
	ADD(s, round_trip_several_workloads);
	ADD(s, round_trip_hours_per_week_as_typed);
	ADD(s, several_workloads_refuse_a_custom_model_on_save);
	ADD(s, round_trip_awkward_text_and_numbers);
	ADD(s, round_trip_custom_model_exact_params);
	ADD(s, round_trip_every_class_and_override);
	ADD(s, save_is_atomic_and_reloads);
	ADD(s, apply_keeps_what_the_file_omits);
	ADD(s, move_keeps_custom_model_pointer);
	ADD(s, settings_follow_the_class);
	int rc = tap_run(s);
	globfree(&bad);
	catalog_free(cat);
	return rc;
}
