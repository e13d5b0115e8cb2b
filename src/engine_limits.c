/*
 * engine_limits: the one table of the workload's bounds.  The command-line
 * flags (cli_workload.c), the wizard's fields (tui_step1.c, tui_step4.c),
 * scenario files (scenario.c) and engine_workload_valid() all read it, so a
 * value one front end accepts is accepted by every other one, with the same
 * range in the message.
 *
 * How the bounds were chosen: every maximum is comfortably above what a
 * real deployment asks for today (the longest shipped context is 10M
 * tokens, Llama 4 Scout; the largest training runs are ~4e13 tokens with
 * global batches of ~6e7 tokens), and low enough that the engine's
 * arithmetic stays exact: the largest product it forms, context x
 * concurrency x KV bytes per token, is 2e8 x 1e8 x ~8e14 ~ 2e31 in double,
 * and the integer ones (input + output tokens, sequences per replica) stay
 * far below 2^63.  tests/unit/test_engine.c runs the engine with every
 * field at its maximum and at its minimum under UBSan.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

#define NONE true		/* 0 also accepted: no target / no limit / absent */

static const struct engine_field_limit limits[] = {
	/* key, flag, min, max, integer, zero_none, unit */
	/* inference: 10x the longest context shipped (10M tokens) */
	{ "input_tokens", "input-tokens", 1, 1e8, true, false, "tokens" },
	{ "output_tokens", "output-tokens", 1, 1e8, true, false, "tokens" },
	/* 100M concurrent sequences: beyond any single service */
	{ "concurrency", "concurrency", 1, 1e8, true, false, "sequences" },
	/* decode speeds today top out at a few thousand tok/s per user */
	{ "tokens_per_s_per_user", "tokens-per-s-per-user", 0.1, 1e5, false, NONE, "tok/s" },
	/* 1 ms to ~2.8 hours */
	{ "ttft_ms", "ttft-ms", 1, 1e7, false, NONE, "ms" },
	/* a billion output tokens/s: ~1000x a large public API */
	{ "target_tokens_per_s", "target-tokens-per-s", 1, 1e9, false, NONE, "tok/s" },
	/* training: 1e16 tokens is ~250x the largest run published */
	{ "tokens", "tokens", 1, 1e16, false, false, "tokens" },
	{ "epochs", "epochs", 0.01, 1000, false, false, "epochs" },
	/* 36 seconds to 100 years; --days and the wizard's pretraining field
	 * take days, from 0.01 (0.24 h, inside the hours' range) to the same
	 * 100 years */
	{ "target_hours", "hours", 0.01, 876600, false, NONE, "hours" },
	{ "days", "days", 0.01, 36525, false, NONE, "days" },
	{ "seq_len", "seq-len", 1, 1e8, true, false, "tokens" },
	/* a trillion tokens per optimizer step: ~16000x DeepSeek-V3's */
	{ "global_batch_tokens", "global-batch-tokens", 1, 1e12, false, false, "tokens" },
	{ "lora_rank", "lora-rank", 1, 65536, true, false, "" },
	/* forced parts of the training layout, 0 = the search chooses:
	 * the largest degrees published runs use (TP 8-64, PP 16-32, CP 16,
	 * EP 256) with room to spare */
	{ "tp", "tp", 1, 1024, true, NONE, "GPUs" },
	{ "pp", "pp", 1, 1024, true, NONE, "stages" },
	{ "cp", "cp", 1, 1024, true, NONE, "GPUs" },
	{ "ep", "ep", 1, 4096, true, NONE, "GPUs" },
	{ "micro_batch", "micro-batch", 1, 65536, true, NONE, "sequences" },
	/* node overrides: the largest cluster the engine sizes */
	{ "gpus", "gpus", 1, ENG_MAX_GPUS, true, false, "GPUs" },
	{ "spare_nodes", "spare-nodes", 0, 1000, true, false, "nodes" },
	/* filters: 1 GW, a trillion dollars */
	{ "max_power_kw", "max-power-kw", 0.01, 1e6, false, NONE, "kW" },
	{ "budget_usd", "budget-usd", 1, 1e12, false, NONE, "USD" },
	/* custom model figures (scenario custom_model keys); the catalog's
	 * largest models are ~2e12 parameters, 128 layers, 25k hidden; the
	 * smallest language models ~1M parameters */
	{ "params_b", NULL, 0.001, 100000, false, false, "billions" },
	{ "active_params_b", NULL, 0.001, 100000, false, NONE, "billions" },
	{ "layers", NULL, 1, 10000, true, false, "" },
	{ "hidden_size", NULL, 1, 1e6, true, false, "" },
	{ "attention_heads", NULL, 1, 1e5, true, false, "" },
	{ "kv_heads", NULL, 1, 1e5, true, false, "" },
	{ "head_dim", NULL, 1, 1e5, true, NONE, "" },
	{ "ffn_size", NULL, 1, 1e7, true, NONE, "" },
	{ "vocab_size", NULL, 1, 1e8, true, NONE, "" },
	{ "max_context", NULL, 1, 1e9, true, NONE, "tokens" },
	{ "experts_total", NULL, 1, 1e5, true, NONE, "" },
	{ "experts_active", NULL, 1, 1e5, true, NONE, "" },
	{ "kv_lora_rank", NULL, 1, 1e5, true, NONE, "" },
	{ "qk_rope_head_dim", NULL, 1, 1e5, true, NONE, "" },
	{ "sliding_window_tokens", NULL, 1, 1e9, true, NONE, "tokens" },
	{ "sliding_window_layers", NULL, 1, 10000, true, NONE, "" },
};

#define N_LIMITS (sizeof limits / sizeof limits[0])

const struct engine_field_limit *engine_field_limits(size_t *n)
{
	*n = N_LIMITS;
	return limits;
}

const struct engine_field_limit *engine_field_limit(const char *key)
{
	if (!key)
		return NULL;
	if (key[0] == '-' && key[1] == '-')
		key += 2;
	/* The first character first: engine_workload_valid() looks up every
	 * field once per engine_run, and a full strcmp of each name made that
	 * 27k instructions of a 350k training run. */
	for (size_t i = 0; i < N_LIMITS; i++)
		if ((limits[i].key[0] == key[0] && !strcmp(limits[i].key, key)) ||
		    (limits[i].flag && limits[i].flag[0] == key[0] && !strcmp(limits[i].flag, key)))
			return &limits[i];
	return NULL;
}

/* %.15g: whole bounds print in full up to 1e15 ("100000000"), larger ones
 * as 1e+16; no bound has more than 15 significant digits. */
char *engine_field_range(const struct engine_field_limit *l, char *buf, size_t n)
{
	snprintf(buf, n, "%.15g to %.15g%s", l->min, l->max, l->zero_none ? ", or 0 for none" : "");
	return buf;
}

bool engine_field_ok(const struct engine_field_limit *l, double v)
{
	if (l->zero_none && v == 0)
		return true;
	if (!(v >= l->min && v <= l->max))
		return false;
	return !l->integer || v == floor(v);
}

bool engine_field_check(const struct engine_field_limit *l, double v, char *why, size_t whysz)
{
	if (engine_field_ok(l, v))
		return true;
	if (why && whysz) {
		char r[80];
		if (v >= l->min && v <= l->max)
			snprintf(why, whysz, "not a whole number");
		else
			snprintf(why, whysz, "out of range (%s)", engine_field_range(l, r, sizeof r));
	}
	return false;
}
