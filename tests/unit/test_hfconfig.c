/*
 * config.json as a model (hfconfig.h): the four fixtures in
 * tests/fixtures/hf (published configs, sources in its SOURCES.md) give the
 * figures of the catalog's model of the same name, and a parameter count
 * from the shapes within 0.1% of the catalog's published one (the active
 * count of a mixture of experts within 2%); a missing key, a wrong type and
 * an out-of-range value are refused at file:line:col.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "hfconfig.h"
#include "scenario.h"
#include "fixture.h"
#include "tap.h"

#define HF ABS_TOP_SRCDIR "/tests/fixtures/hf"

static struct catalog *cat;

static const char *const fixtures[] = { "llama-3.1-8b", "mixtral-8x7b", "deepseek-v3", "mistral-7b" };
#define N_FIXTURES (int)(sizeof fixtures / sizeof fixtures[0])

/* Every figure the catalog states, config.json gives the same (params and
 * active params are compared with a tolerance below). */
START_TEST(fixture_gives_the_catalog_figures)
{
	const char *id = fixtures[_i];
	char path[512], err[512] = "";
	snprintf(path, sizeof path, HF "/%s/config.json", id);
	struct hfconfig h;
	ck_assert_msg(hfconfig_load(path, &h, err, sizeof err), "%s", err);
	const struct catalog_model *m = catalog_model(cat, id);
	ck_assert_ptr_nonnull(m);
	for (int j = 0; j < MF_COUNT; j++) {
		const struct catalog_model_figure *f = &catalog_model_figures[j];
		if (j == MF_PARAMS || j == MF_ACTIVE_PARAMS || j == MF_FFN_MATRICES)
			continue;
		double want = catalog_model_figure_get(m, f), got = catalog_model_figure_get(&h.m, f);
		ck_assert_msg(got == want, "%s: %s is %g from config.json, %g in the catalog", id, f->key, got,
			      want);
	}
	double p = h.m.params / m->params - 1;
	ck_assert_msg(fabs(p) <= 0.001, "%s: %.4fB parameters from the shapes, %.4gB published (%+.2f%%)", id,
		      h.m.params / 1e9, m->params / 1e9, p * 100);
	if (m->experts > 0) {
		double a = h.m.active_params / m->active_params - 1;
		ck_assert_msg(fabs(a) <= 0.02, "%s: %.3fB active from the shapes, %.3gB published (%+.2f%%)", id,
			      h.m.active_params / 1e9, m->active_params / 1e9, a * 100);
	} else {
		ck_assert(h.m.active_params == 0);
	}
}
END_TEST

/* Worked by hand: Llama 3.1 8B is 8,030,261,248 parameters, of which the
 * 65 RMSNorm vectors of 4,096 are left out of the count. */
START_TEST(llama_count_by_hand)
{
	struct hfconfig h;
	char err[512];
	ck_assert(hfconfig_load(HF "/llama-3.1-8b/config.json", &h, err, sizeof err));
	ck_assert_double_eq_tol(engine_model_params(&h.m, false), 8030261248.0 - 65 * 4096, 0.5);
	ck_assert_double_eq_tol(h.m.params, 8.030e9, 1);	/* kept to the million */
	ck_assert_str_eq(h.m.family, "llama");
	ck_assert_int_eq(h.m.mtp_layers, 0);
	ck_assert(!h.tied_embeddings);
}
END_TEST

START_TEST(deepseek_mtp_and_mixtral_active)
{
	struct hfconfig h;
	char err[512];
	ck_assert(hfconfig_load(HF "/deepseek-v3/config.json", &h, err, sizeof err));
	ck_assert_int_eq(h.m.mtp_layers, 1);
	ck_assert(hfconfig_load(HF "/mixtral-8x7b/config.json", &h, err, sizeof err));
	/* 32 x (attention 41,943,040 + 2 experts of 176,160,768 + router
	 * 32,768) + 2 x 32,000 x 4,096 */
	ck_assert_double_eq_tol(engine_model_active_params(&h.m, false),
				32.0 * (41943040 + 2 * 176160768.0 + 32768) + 262144000, 0.5);
	ck_assert_double_eq_tol(h.m.active_params, 12.880e9, 1);
}
END_TEST

/* A tied output head is counted once. */
START_TEST(tied_embeddings_counted_once)
{
	static const char text[] = "{\"num_hidden_layers\": 16, \"hidden_size\": 2048, \"num_attention_heads\": 32,"
				   " \"num_key_value_heads\": 8, \"intermediate_size\": 8192, \"vocab_size\": 128256,"
				   " \"max_position_embeddings\": 131072, \"tie_word_embeddings\": true}";
	struct hfconfig h;
	char err[512];
	ck_assert_msg(hfconfig_load_string("c.json", text, sizeof text - 1, &h, err, sizeof err), "%s", err);
	ck_assert(h.tied_embeddings);
	ck_assert_double_eq_tol(engine_model_params(&h.m, true), engine_model_params(&h.m, false) - 128256.0 * 2048,
				0.5);
	ck_assert_double_eq_tol(h.m.params, round(engine_model_params(&h.m, true) / 1e6) * 1e6, 1);
	ck_assert_int_eq(h.m.head_dim, 64);
	ck_assert_int_eq(h.m.kv_heads, 8);
}
END_TEST

/* Sliding windows: none when use_sliding_window is false, the layers
 * layer_types names, or those from max_window_layers on. */
START_TEST(sliding_window_layers)
{
	static const char base[] = "{\"num_hidden_layers\": 4, \"hidden_size\": 1024, \"num_attention_heads\": 4,"
				   " \"intermediate_size\": 4096, \"vocab_size\": 32000, \"max_position_embeddings\": 4096,"
				   " \"sliding_window\": 512, %s}";
	static const struct { const char *extra; int window, layers; } cases[] = {
		{ "\"use_sliding_window\": false", 0, 0 },
		{ "\"layer_types\": [\"sliding_attention\", \"full_attention\", \"sliding_attention\", \"full_attention\"]",
		  512, 2 },
		{ "\"layer_types\": [\"full_attention\", \"full_attention\", \"full_attention\", \"full_attention\"]", 0, 0 },
		{ "\"use_sliding_window\": true, \"max_window_layers\": 1", 512, 3 },
		{ "\"use_sliding_window\": true, \"max_window_layers\": 4", 0, 0 },
		{ "\"model_type\": \"mistral\"", 512, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[1024], err[512] = "";
		int n = snprintf(text, sizeof text, base, cases[i].extra);
		struct hfconfig h;
		ck_assert_msg(hfconfig_load_string("w.json", text, (size_t)n, &h, err, sizeof err), "%s: %s",
			      cases[i].extra, err);
		ck_assert_msg(h.m.sliding_window == cases[i].window && h.m.sliding_layers == cases[i].layers,
			      "%s: window %d over %d layers", cases[i].extra, h.m.sliding_window, h.m.sliding_layers);
	}
}
END_TEST

/* Errors name the file, line and column of the key (or of the object
 * when a key is missing). */
START_TEST(bad_configs_refused_at_their_place)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "{\n  \"hidden_size\": 4096\n}", "x.json:1:1: no 'num_hidden_layers' (the number of layers) in this config.json" },
		{ "{\n  \"num_hidden_layers\": 0\n}", "x.json:2:24: 'num_hidden_layers' 0 (Layers) is out of range (1 to 10000)" },
		{ "{\n  \"num_hidden_layers\": \"32\"\n}", "x.json:2:24: 'num_hidden_layers' must be a whole number, got the string \"32\"" },
		{ "{\n  \"num_hidden_layers\": 2.5\n}", "x.json:2:24: 'num_hidden_layers' must be a whole number, got '2.5'" },
		{ "[1, 2]", "x.json:1:1: a config.json is one JSON object, got a list" },
		{ "", "x.json: a config.json is one JSON object, got nothing" },
		{ "{\"num_hidden_layers\": 2, \"hidden_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10,"
		  " \"max_position_embeddings\": 64, \"intermediate_size\": 128, \"num_local_experts\": 4}",
		  "x.json:1:1: no 'num_experts_per_tok' (the experts each token is routed to) in this config.json" },
		{ "{\"num_hidden_layers\": 2, \"hidden_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10,"
		  " \"max_position_embeddings\": 64, \"intermediate_size\": 128, \"num_local_experts\": 4,"
		  " \"num_experts_per_tok\": 8}",
		  "x.json:1:193: 'num_experts_per_tok' 8 is more than the 4 experts" },
		{ "{\"num_hidden_layers\": 2, \"hidden_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10,"
		  " \"max_position_embeddings\": 64, \"intermediate_size\": 128, \"kv_lora_rank\": 16}",
		  "x.json:1:1: no 'qk_rope_head_dim' (the RoPE part of an MLA head) in this config.json" },
		{ "{\"num_hidden_layers\": 2, \"hidden_size\": 60, \"num_attention_heads\": 7, \"vocab_size\": 10,"
		  " \"max_position_embeddings\": 64, \"intermediate_size\": 128}",
		  "x.json:1:1: no 'head_dim', and 'hidden_size' 60 is not a multiple of 'num_attention_heads' 7" },
		{ "{\"num_hidden_layers\": 2, \"hidden_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10,"
		  " \"max_position_embeddings\": 64, \"intermediate_size\": 128, \"tie_word_embeddings\": 1}",
		  "x.json:1:169: 'tie_word_embeddings' must be true or false, got '1'" },
		{ "{\"num_hidden_layers\": 2, \"hidden_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 10,"
		  " \"max_position_embeddings\": 64, \"intermediate_size\": 99999999999}",
		  "x.json:1:141: 'intermediate_size' 99999999999 (FFN size) is out of range (1 to 10000000)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct hfconfig h;
		char err[512] = "";
		ck_assert_msg(!hfconfig_load_string("x.json", cases[i].text, strlen(cases[i].text), &h, err, sizeof err),
			      "accepted: %s", cases[i].text);
		ck_assert_str_eq(err, cases[i].want);
		ck_assert_ptr_null(h.m.name);
	}
}
END_TEST

/* The figures survive a scenario: saved as custom_model, loaded back. */
START_TEST(scenario_saves_the_figures)
{
	struct hfconfig h;
	char err[512] = "";
	ck_assert(hfconfig_load(HF "/deepseek-v3/config.json", &h, err, sizeof err));
	struct scenario s, back;
	scenario_init(&s, cat);
	ck_assert(scenario_set_custom_model(&s, &h.m));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_msg(scenario_emit(&s, f, err, sizeof err), "%s", err);
	fclose(f);
	ck_assert_msg(strstr(buf, "custom_model:") && strstr(buf, "kv_lora_rank: 512"), "%s", buf);
	ck_assert_msg(scenario_load_string("saved.yaml", buf, len, cat, &back, err, sizeof err), "%s\n%s", err, buf);
	ck_assert(back.has_custom);
	for (int j = 0; j < MF_COUNT; j++)
		ck_assert_msg(catalog_model_figure_get(&h.m, &catalog_model_figures[j]) ==
			      catalog_model_figure_get(back.w.model, &catalog_model_figures[j]),
			      "%s changed", catalog_model_figures[j].key);
	free(buf);
	scenario_fini(&back);
	scenario_fini(&s);
}
END_TEST

int main(void)
{
	cat = fixture_shipped_catalog();
	Suite *s = suite_create("hfconfig");
	TCase *tc = tcase_create("fixture_gives_the_catalog_figures");
	tcase_add_loop_test(tc, fixture_gives_the_catalog_figures, 0, N_FIXTURES);
	suite_add_tcase(s, tc);
	TAP_ADD(s, llama_count_by_hand);
	TAP_ADD(s, deepseek_mtp_and_mixtral_active);
	TAP_ADD(s, tied_embeddings_counted_once);
	TAP_ADD(s, sliding_window_layers);
	TAP_ADD(s, bad_configs_refused_at_their_place);
	TAP_ADD(s, scenario_saves_the_figures);
	int rc = tap_run(s);
	catalog_free(cat);
	return rc;
}
