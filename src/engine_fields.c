/*
 * engine_fields: the one table of the workload's fields (struct
 * engine_field in engine.h).  The command-line flags and their --help
 * (cli_workload.c), scenario files (scenario.c), the wizard's rows
 * (tui_step1.c, tui_step4.c) and engine_workload_valid() are all derived
 * from it, so a value one front end accepts is accepted by every other one,
 * with the same range in the message (docs/design.md, "Fields").
 *
 * How the bounds were chosen: every maximum is comfortably above what a
 * real deployment asks for today (the longest shipped context is 10M
 * tokens, Llama 4 Scout; the largest training runs are ~4e13 tokens with
 * global batches of ~6e7 tokens), and low enough that the engine's
 * arithmetic stays exact: the largest product it forms, context x
 * concurrency x KV bytes per token, is 2e8 x 1e8 x ~8e14 ~ 2e31 in double,
 * and the integer ones (input + output tokens, sequences per replica) stay
 * far below 2^63.  tests/unit/test_engine.c runs the engine with every
 * field at its maximum and at its minimum under UBSan.  The model's figures
 * have their own table, shared with the catalog (CATALOG_MODEL_FIGURES).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

/* ---- choices: the enums' words (engine_names.c) as ints ---- */

static const char *class_word(int v) { return workload_class_name((enum workload_class)v); }
static const char *prec_word(int v) { return precision_name((enum precision)v); }
static const char *recompute_word(int v) { return recompute_name((enum recompute)v); }
static const char *cp_comm_word(int v) { return cp_comm_name((enum cp_comm)v); }
static const char *method_word(int v) { return ft_method_name((enum ft_method)v); }
static const char *kv_reserve_word(int v) { return kv_reserve_name((enum kv_reserve)v); }
static const char *form_word(int v) { return form_filter_name((enum form_filter)v); }
static const char *objective_word(int v) { return objective_name((enum objective)v); }
static const char *cooling_word(int v) { return cooling_filter_name((enum cooling_filter)v); }
static const char *fabric_word(int v) { return fabric_choice_name((enum fabric_choice)v); }
static const char *rent_term_word(int v) { return rent_term_choice_name((enum rent_term_choice)v); }
static const char *stack_word(int v) { return v < 0 ? "any" : stack_name((enum stack)v); }
static const char *onoff_word(int v) { return v ? "on" : "off"; }
/* the index of s among a choice's n words */
static bool word_index(const char *const *words, int n, const char *s, int *v)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(s, words[i])) {
			*v = i;
			return true;
		}
	return false;
}
static const char *const dispatch_words[DISPATCH_COUNT] = { "independent", "least-loaded" };
static const char *dispatch_word(int v) { return dispatch_words[v]; }
static bool dispatch_parse(const char *s, int *v) { return word_index(dispatch_words, DISPATCH_COUNT, s, v); }
static const char *const prefill_words[PREFILL_COUNT] = { "chunked", "separate" };
static const char *prefill_word(int v) { return prefill_words[v]; }
static bool prefill_parse(const char *s, int *v) { return word_index(prefill_words, PREFILL_COUNT, s, v); }
static bool onoff_parse(const char *s, int *v)
{
	if (s && (!strcmp(s, "on") || !strcmp(s, "off"))) {
		*v = !strcmp(s, "on");
		return true;
	}
	return false;
}
static const char *serving_word(int v) { return v < 0 ? "auto" : serving_stack_name((enum serving_stack)v); }
static const char *training_word(int v) { return v < 0 ? "auto" : training_stack_name((enum training_stack)v); }
static const char *dp_overlap_word(int v) { return v < 0 ? "auto" : dp_overlap_name((enum dp_overlap)v); }

#define PARSER(fn, T, call) \
	static bool fn(const char *s, int *v) { T x; if (!(call)) return false; *v = (int)x; return true; }
PARSER(class_parse, enum workload_class, workload_class_parse(s, &x))
PARSER(prec_parse, enum precision, precision_parse(s, &x) && x < PREC_WORKLOAD_COUNT)
PARSER(recompute_parse_int, enum recompute, recompute_parse(s, &x))
PARSER(cp_comm_parse_int, enum cp_comm, cp_comm_parse(s, &x))
PARSER(method_parse, enum ft_method, ft_method_parse(s, &x))
PARSER(kv_reserve_parse_int, enum kv_reserve, kv_reserve_parse(s, &x))
PARSER(form_parse, enum form_filter, form_filter_parse(s, &x))
PARSER(objective_parse_int, enum objective, objective_parse(s, &x))
PARSER(cooling_parse_int, enum cooling_filter, cooling_filter_parse(s, &x))
PARSER(fabric_parse_int, enum fabric_choice, fabric_choice_parse(s, &x))
PARSER(rent_term_parse_int, enum rent_term_choice, rent_term_choice_parse(s, &x))
#undef PARSER

static bool stack_parse_int(const char *s, int *v)
{
	enum stack x;
	if (s && !strcmp(s, "any")) {
		*v = -1;
		return true;
	}
	if (!stack_parse(s, &x))
		return false;
	*v = (int)x;
	return true;
}

static bool serving_parse_int(const char *s, int *v)
{
	enum serving_stack x;
	if (s && !strcmp(s, "auto")) {
		*v = -1;
		return true;
	}
	if (!serving_stack_parse(s, &x))
		return false;
	*v = (int)x;
	return true;
}

static bool training_parse_int(const char *s, int *v)
{
	enum training_stack x;
	if (s && !strcmp(s, "auto")) {
		*v = -1;
		return true;
	}
	if (!training_stack_parse(s, &x))
		return false;
	*v = (int)x;
	return true;
}

static bool dp_overlap_parse_int(const char *s, int *v)
{
	enum dp_overlap x;
	if (s && !strcmp(s, "auto")) {
		*v = -1;
		return true;
	}
	if (!dp_overlap_parse(s, &x))
		return false;
	*v = (int)x;
	return true;
}

static const struct engine_choice classes = { 0, WL_COUNT, class_word, class_parse };
static const struct engine_choice precisions = { 0, PREC_WORKLOAD_COUNT, prec_word, prec_parse };
static const struct engine_choice recomputes = { 0, RECOMPUTE_COUNT, recompute_word, recompute_parse_int };
static const struct engine_choice cp_comms = { 0, CPC_COUNT, cp_comm_word, cp_comm_parse_int };
static const struct engine_choice methods = { 0, FT_COUNT, method_word, method_parse };
static const struct engine_choice stacks = { -1, STACK_COUNT + 1, stack_word, stack_parse_int };
static const struct engine_choice serving_stacks = { -1, SS_COUNT + 1, serving_word, serving_parse_int };
static const struct engine_choice training_stacks = { -1, TS_COUNT + 1, training_word, training_parse_int };
static const struct engine_choice dp_overlaps = { -1, DPO_COUNT + 1, dp_overlap_word, dp_overlap_parse_int };
static const struct engine_choice onoff = { 0, 2, onoff_word, onoff_parse };
static const struct engine_choice dispatches = { 0, DISPATCH_COUNT, dispatch_word, dispatch_parse };
static const struct engine_choice prefills = { 0, PREFILL_COUNT, prefill_word, prefill_parse };
static const struct engine_choice kv_reserves = { 0, KVR_COUNT, kv_reserve_word, kv_reserve_parse_int };
static const struct engine_choice forms = { 0, FORMF_COUNT, form_word, form_parse };
static const struct engine_choice objectives = { 0, OBJ_COUNT, objective_word, objective_parse_int };
static const struct engine_choice coolings = { 0, COOLF_COUNT, cooling_word, cooling_parse_int };
static const struct engine_choice fabrics = { 0, FABRICF_COUNT, fabric_word, fabric_parse_int };
static const struct engine_choice rent_terms = { 0, RENTC_COUNT, rent_term_word, rent_term_parse_int };

/* ---- the table ---- */

#define W(m) .off = offsetof(struct workload, m)
#define INF ENGINE_CLASS(WL_INFERENCE)
#define PRE ENGINE_CLASS(WL_PRETRAIN)
#define FT ENGINE_CLASS(WL_FINETUNE)
#define ALL ENGINE_CLASSES_ALL
#define WHOLE(lo, hi) .lim = { lo, hi, true, false, NULL }
#define NUMBER(lo, hi) .lim = { lo, hi, false, false, NULL }
#define OR_NONE(lo, hi) .lim = { lo, hi, false, true, NULL }
#define LAYOUT(hi) .lim = { 1, hi, true, true, "auto" }, NUM_PLAIN, \
	.hint = "auto: the layout search chooses it; a number forces it (0 or auto: back to the search)"
#define WHOLE_OR_NONE(lo, hi) .lim = { lo, hi, true, true, NULL }
/* Class defaults: an interactive inference service of 64 users with
 * 1k-token prompts, each streaming at 20 tok/s (50 ms per token, four times
 * what MLPerf Inference's Llama 2 70B server scenario requires:
 * llama2-70b.Server.tpot_latency = 200) with the first token within 2 s
 * (llama2-70b.Server.ttft_latency = 2000; both mlcommons/inference
 * loadgen/mlperf.conf).  Without targets the cheapest configuration wins
 * however slowly it answers (issue 12).  Pretraining on the Llama 2 recipe
 * (4M-token global batch of 4k sequences); a supervised fine-tune of 100M
 * dataset tokens, 3 epochs, 64 sequences of 4k per step, LoRA rank 16. */
#define DEF_INF(v) .def_classes = INF, .def = { [WL_INFERENCE] = (v) }
#define DEF_PRE(v) .def_classes = PRE, .def = { [WL_PRETRAIN] = (v) }
#define DEF_FT(v) .def_classes = FT, .def = { [WL_FINETUNE] = (v) }
#define DEF_TRAIN(p, f) .def_classes = PRE | FT, .def = { [WL_PRETRAIN] = (p), [WL_FINETUNE] = (f) }

static const struct engine_field fields[EF_COUNT] = {
	[EF_CLASS] = { "class", "workload", "workload", "CLASS", "inference | pretrain | finetune",
		EFT_ENUM, W(cls), ALL, .choice = &classes, .label = "Class",
		.hint = "Left/Right or +/- cycle: inference, pretrain, finetune" },
	[EF_MODEL] = { "model", "workload", "model", "ID",
		"model from the catalog ('accelsizer catalog list --models')", EFT_MODEL, W(model), ALL,
		.label = "Model",
		.hint = "Enter: searchable list of catalog models, or custom figures; +/- next model" },
	[EF_PRECISION] = { "precision", "workload", "precision", "P",
		"weights and compute: fp32 bf16 fp16 fp8 int8 int4 (w4a16) fp4 mxfp4 w8a16", EFT_ENUM, W(precision), ALL,
		.choice = &precisions, .label = "Precision",
		.hint = "weights and compute; fp8 falls back to bf16 where the hardware has none" },
	[EF_KV_PRECISION] = { "kv_precision", "workload", "kv-precision", "P",
		"KV cache (default: follows --precision; fp16 for int4 and w8a16)", EFT_ENUM, W(kv_precision), INF,
		.choice = &precisions, .label = "KV cache precision" },
	/* The stacks' figures are catalog/serving-stacks/ID.yaml, with the
	 * platforms each runs on (engine_serving_stack(), engine_infer.c). */
	[EF_SERVING_STACK] = { "serving_stack", "workload", "serving-stack", "NAME",
		"inference: auto | tensorrt-llm | vllm | sglang | optimum-habana | vllm-v1 (auto: the vendor's best)",
		EFT_ENUM, W(serving_stack), INF, .choice = &serving_stacks, .label = "Serving stack",
		.hint = "auto: each accelerator's best published stack; another is filtered where it does not run" },
	/* Where the run's data-parallel exchange hides (engine_train_step.c):
	 * a recipe may turn its stack's overlap off. */
	[EF_DP_OVERLAP] = { "dp_overlap", "workload", "dp-overlap", "MODE",
		"training: where the data-parallel exchange hides: auto | backward | last-microbatch | none (auto: the stack's)",
		EFT_ENUM, W(dp_overlap), PRE | FT, .choice = &dp_overlaps, .label = "DP overlap",
		.hint = "auto: where the training stack runs it; none: a recipe that turns the overlap off" },
	/* eng_mtp_params(), engine_workload.c: what the modules add */
	[EF_MTP] = { "mtp", "workload", "mtp", "",
		"pretraining: also train the model's multi-token prediction modules (DeepSeek-V3: one)",
		EFT_ENUM, W(mtp), PRE, .choice = &onoff, .bare = "on", .omit_zero = true,
		.label = "MTP modules",
		.hint = "on: the model's next-token prediction modules train with it (a layer and a second output head each)" },
	/* engine_disagg.c; the flag alone turns it on, scenarios say on/off */
	[EF_DISAGGREGATED] = { "disaggregated", "workload", "disaggregated", "",
		"inference: prefill and decode on separate pools, and whether that beats one pool",
		EFT_ENUM, W(disaggregated), INF, .choice = &onoff, .bare = "on", .label = "Disaggregated",
		.hint = "on: a prefill pool for the first token, a decode pool for the per-token speed" },
	/* engine_infer.c, batch_spread(): the replicas' load is shared */
	[EF_DISPATCH] = { "dispatch", "workload", "dispatch", "D",
		"inference: independent | least-loaded (each request to the replica with the fewest in flight)",
		EFT_ENUM, W(dispatch), INF, .choice = &dispatches, .omit_zero = true, .label = "Dispatch",
		.hint = "least-loaded: the replicas share their swings in load, as NVIDIA's MLPerf harness" },
	/* engine_infer.c, sched_step() and separate_ttft() */
	[EF_PREFILL] = { "prefill", "workload", "prefill", "HOW",
		"inference: chunked (prompts ride in the decode iterations, within the token budget) | "
		"separate (prompt-only iterations stop the decodes: vLLM without chunked prefill)",
		EFT_ENUM, W(prefill), INF, .choice = &prefills, .omit_zero = true, .label = "Prefill",
		.hint = "separate: each prompt waits for and runs in its own prefill iteration, as vLLM's V0 scheduler" },
	/* engine_infer.c, sched_step() and separate_ttft(); 64 is beyond
	 * any multi-step setting published */
	[EF_SCHEDULER_STEPS] = { "scheduler_steps", "workload", "scheduler-steps", "N",
		"inference, with --prefill separate: decode iterations a block runs before waiting prompts are admitted (vLLM's num_scheduler_steps)",
		EFT_INT, W(scheduler_steps), INF, WHOLE_OR_NONE(1, 64), NUM_PLAIN, .omit_zero = true,
		.label = "Scheduler steps", .step = 1, .start = 1,
		.hint = "multi-step decoding: prompts wait for the block in progress; none: 1", DEF_INF(0) },
	/* engine_infer.c sizes the batch by it (layout_init) */
	[EF_KV_RESERVE] = { "kv_reserve", "workload", "kv-reserve", "HOW",
		"inference: a request's KV cache: on-demand (grows with its output) | full (I + O "
		"reserved at admission, TensorRT-LLM's guaranteed-no-evict)",
		EFT_ENUM, W(kv_reserve), INF, .choice = &kv_reserves, .omit_zero = true, .label = "KV reservation",
		.hint = "full: the scheduler admits a request only when its whole context fits" },

	/* inference: 10x the longest context shipped (10M tokens) */
	[EF_INPUT_TOKENS] = { "input_tokens", "workload", "input-tokens", "N",
		"inference: prompt tokens per request", EFT_LONG, W(input_tokens), INF, WHOLE(1, 1e8),
		NUM_COUNT, .unit = "tok/request", .label = "Input tokens",
		.hint = "prompt length; +/- double and halve; 4k = 4000", DEF_INF(1024) },
	[EF_OUTPUT_TOKENS] = { "output_tokens", "workload", "output-tokens", "N",
		"inference: generated tokens per request", EFT_LONG, W(output_tokens), INF, WHOLE(1, 1e8),
		NUM_COUNT, .unit = "tok/request", .label = "Output tokens", DEF_INF(256) },
	/* the spread of the answers' lengths, their standard deviation over
	 * their mean: 10 is far past any published set (reasoning sets ~1.1) */
	[EF_OUTPUT_CV] = { "output_cv", "workload", "output-cv", "X",
		"inference: spread of the output lengths, standard deviation over mean (0.01 to 10)",
		EFT_DOUBLE, W(output_cv), INF, OR_NONE(0.01, 10), NUM_PLAIN, .omit_zero = true,
		.label = "Output spread", .step = 0.1, .start = 1,
		.hint = "std/mean of the answers' lengths; long answers hold the batch longer; none = all alike",
		DEF_INF(0) },
	/* 100M concurrent sequences: beyond any single service */
	[EF_CONCURRENCY] = { "concurrency", "workload", "concurrency", "N|max",
		"inference: concurrent sequences, or as many as fit", EFT_LONG, W(concurrency), INF,
		WHOLE(1, 1e8), NUM_COUNT, .unit = "sequences", .word = "max", .label = "Concurrent users",
		.hint = "sequences served at once; 'max' = as many as memory holds", .start = 1,
		DEF_INF(64) },
	/* decode speeds today top out at a few thousand tok/s per user */
	[EF_TOKENS_PER_S_PER_USER] = { "tokens_per_s_per_user", "workload", "tokens-per-s-per-user", "X",
		"inference: decode speed each user needs", EFT_DOUBLE, W(tokens_per_s_per_user), INF,
		OR_NONE(0.1, 1e5), NUM_PLAIN, .unit = "tok/s", .label = "Speed per user",
		.hint = "decode speed each user sees at p99 (1000 / TPOT ms); none = no target", .step = 5,
		.start = 20,
		DEF_INF(20) },
	/* 1 ms to ~2.8 hours */
	[EF_TTFT_MS] = { "ttft_ms", "workload", "ttft-ms", "X", "inference: target time to first token",
		EFT_DOUBLE, W(ttft_ms), INF, OR_NONE(1, 1e7), NUM_TIME, .unit = "ms",
		.label = "Time to first token", .hint = "p99 time to first token at the load served; none = no target",
		.start = 1000, DEF_INF(2000) },
	/* a billion output tokens/s: ~1000x a large public API */
	[EF_TARGET_TOKENS_PER_S] = { "target_tokens_per_s", "workload", "target-tokens-per-s", "X",
		"inference: total output tokens/s to serve", EFT_DOUBLE, W(target_tokens_per_s), INF,
		OR_NONE(1, 1e9), NUM_COUNT, .unit = "tok/s", .label = "Total throughput",
		.hint = "target output tokens/s for the whole service; none = no target", .start = 1000,
		DEF_INF(0) },
	/* a million requests/s: ~1000x a large public API */
	[EF_ARRIVAL_RATE] = { "arrival_rate", "workload", "arrival-rate", "R",
		"inference: requests/s arriving (Poisson); sizes for that load", EFT_DOUBLE,
		W(arrival_rate), INF, OR_NONE(0.001, 1e6), NUM_PLAIN, .unit = "req/s",
		.label = "Arrival rate",
		.hint = "requests/s arriving at random (Poisson); none = size for the users", .start = 10,
		DEF_INF(0) },

	/* a batching window: 1 ms to 100 s, beyond any harness's wait */
	[EF_HARNESS_WINDOW_MS] = { "harness_window_ms", "workload", "harness-window-ms", "X",
		"inference: a client harness holds arriving requests and hands each window's to one replica",
		EFT_DOUBLE, W(harness_window_ms), INF, OR_NONE(1, 1e5), NUM_TIME, .unit = "ms",
		.omit_zero = true, .label = "Harness window",
		.hint = "requests held and submitted together every window (MLPerf batchers); none = one by one",
		.start = 300, DEF_INF(0) },

	/* a share: at most 0.99, a prompt always has a token to compute */
	[EF_PREFIX_CACHE_HIT] = { "prefix_cache_hit", "workload", "prefix-cache-hit", "X",
		"inference: share of prompt tokens the prefix cache holds (0.01 to 0.99)", EFT_DOUBLE,
		W(prefix_cache_hit), INF, OR_NONE(0.01, 0.99), NUM_PLAIN, .label = "Prefix-cache hits",
		.hint = "share of each prompt already in the KV cache (shared system prompt, multi-turn)",
		.step = 0.1, .start = 0.5, DEF_INF(0) },
	/* speculative decoding (engine_spec.c): a probability, 0 = none */
	[EF_SPEC_ACCEPTANCE] = { "speculative_acceptance", "workload", "speculative-acceptance", "RATE",
		"inference: share of drafted tokens the model accepts (0.01 to 0.99), with --draft-model",
		EFT_DOUBLE, W(spec_acceptance), INF, OR_NONE(0.01, 0.99), NUM_PLAIN, .omit_zero = true,
		.label = "Draft acceptance", .step = 0.05, .start = 0.5,
		.hint = "share of drafted tokens the model accepts (speculative decoding, with a draft)", DEF_INF(0) },
	[EF_DRAFT_MODEL] = { "draft_model", "workload", "draft-model", "ID|mtp",
		"inference: the draft for speculative decoding: a catalog model, or mtp (the model's own)",
		EFT_DRAFT, W(draft_model), INF, .label = "Draft model",
		.hint = "Left/Right or +/- cycle: none, the model's MTP modules, smaller models with its tokenizer" },
	[EF_SPEC_TOKENS] = { "speculative_tokens", "workload", "speculative-tokens", "K",
		"inference: tokens drafted per step (default: the best from 1 to 8; mtp: its modules)",
		EFT_INT, W(spec_tokens), INF, WHOLE_OR_NONE(1, 16), NUM_PLAIN, .omit_zero = true,
		.label = "Drafted tokens", .step = 1, .start = 1,
		.hint = "tokens drafted a step; none: the best for the draft's cost", DEF_INF(0) },

	/* training: 1e16 tokens is ~250x the largest run published */
	[EF_TOKENS] = { "tokens", "workload", "tokens", "N",
		"training tokens, or fine-tuning dataset tokens (2e12, 2T, 500B)", EFT_DOUBLE, W(tokens),
		PRE | FT, NUMBER(1, 1e16), NUM_COUNT, .unit = "tokens", .label = "Training tokens",
		.hint = "e.g. 2T; +/- double and halve", DEF_TRAIN(1e12, 1e8) },
	[EF_EPOCHS] = { "epochs", "workload", "epochs", "X", "fine-tuning: passes over the dataset",
		EFT_DOUBLE, W(epochs), FT, NUMBER(0.01, 1000), NUM_PLAIN, .label = "Epochs", .step = 1,
		DEF_FT(3) },
	/* --days and the wizard's pretraining field take days, from 0.01
	 * (0.24 h, inside the hours' range) to the same 100 years */
	[EF_DAYS] = { NULL, NULL, "days", "X", "training: target wall-clock days", EFT_DOUBLE,
		W(target_hours), PRE | FT, OR_NONE(0.01, 36525), NUM_TIME, .scale = 24, .unit = "days",
		.label = "Target time", .hint = "wall-clock days to train; none = fewest GPUs that fit",
		.start = 30 },
	/* 36 seconds to 100 years */
	[EF_TARGET_HOURS] = { "target_hours", "workload", "hours", "X", "training: target wall-clock hours",
		EFT_DOUBLE, W(target_hours), PRE | FT, OR_NONE(0.01, 876600), NUM_TIME, .unit = "hours",
		.label = "Target time", .hint = "wall-clock hours; none = fewest GPUs that fit",
		.start = 24, DEF_TRAIN(0, 0) },
	[EF_SEQ_LEN] = { "seq_len", "workload", "seq-len", "N", "training: sequence length", EFT_LONG,
		W(seq_len), PRE | FT, WHOLE(1, 1e8), NUM_COUNT, .unit = "tokens",
		.label = "Sequence length", DEF_TRAIN(4096, 4096) },
	/* a trillion tokens per optimizer step: ~16000x DeepSeek-V3's */
	[EF_GLOBAL_BATCH_TOKENS] = { "global_batch_tokens", "workload", "global-batch-tokens", "N",
		"training: tokens per optimizer step (4M, 262144)", EFT_DOUBLE, W(global_batch_tokens),
		PRE | FT, NUMBER(1, 1e12), NUM_COUNT, .unit = "tokens", .label = "Global batch",
		DEF_TRAIN(4194304, 262144) },
	/* the evaluations a time-to-train benchmark interleaves: eval
	 * samples x sequence length x evaluations (engine_train.c) */
	[EF_EVAL_TOKENS] = { "eval_tokens", "workload", "eval-tokens", "N",
		"training: tokens the run's evaluations read, forward only, counted in its time (none)",
		EFT_DOUBLE, W(eval_tokens), PRE | FT, OR_NONE(1, 1e16), NUM_COUNT, .unit = "tokens",
		.omit_zero = true, .label = "Evaluation tokens",
		.hint = "eval samples x sequence x evaluations, read forward, in the run's time",
		DEF_TRAIN(0, 0) },
	[EF_RECOMPUTE] = { "recompute", "workload", "recompute", "R",
		"training: activation recompute auto | none | selective | full", EFT_ENUM, W(recompute),
		PRE | FT, .choice = &recomputes, .label = "Activation recompute",
		.hint = "auto: the layout search takes the lightest recompute that fits",
		DEF_TRAIN(RECOMPUTE_AUTO, RECOMPUTE_AUTO) },
	[EF_METHOD] = { "method", "workload", "method", "M", "fine-tuning: full | lora | qlora", EFT_ENUM,
		W(method), FT, .choice = &methods, .label = "Method",
		.hint = "full fine-tuning, LoRA adapters, or QLoRA (4-bit frozen base)", DEF_FT(FT_LORA) },
	[EF_LORA_RANK] = { "lora_rank", "workload", "lora-rank", "N", "fine-tuning: LoRA rank", EFT_INT,
		W(lora_rank), FT, .lora_only = true, WHOLE(1, 65536), NUM_PLAIN, .label = "LoRA rank",
		DEF_FT(16) },
	/* The stacks' figures are catalog/training-stacks/ID.yaml, with the
	 * platforms each runs on (engine_training_stack(), engine_train.c). */
	[EF_TRAINING_STACK] = { "training_stack", "workload", "training-stack", "NAME",
		"training: auto | nemo | meta | automodel | megatron-deepspeed (auto: the vendor's best)",
		EFT_ENUM, W(training_stack), PRE | FT, .choice = &training_stacks, .label = "Training stack",
		.hint = "auto: each accelerator's best published stack; another is filtered where it does not run" },
	/* Forced parts of the layout; 0 (auto) = the search chooses.  Training
	 * forces them on every candidate (engine_train.c), inference on
	 * --accelerator only (engine_infer.c: a serving layout to reproduce, TP
	 * inside the largest link domain, PP across nodes).  The largest degrees
	 * published training runs use (TP 8-64, PP 16-32, CP 16, EP 256) with
	 * room to spare.  A new class of any kind starts back at auto. */
	[EF_TP] = { "tp", "workload", "tp", "N",
		"force tensor parallel N (inference: on --accelerator; default: searched)", EFT_INT, W(tp), ALL,
		LAYOUT(1024), .unit = "GPUs", .omit_zero = true, .label = "Tensor parallel", .def_classes = ALL },
	[EF_PP] = { "pp", "workload", "pp", "N",
		"force N pipeline stages (inference: on --accelerator; default: searched)", EFT_INT, W(pp), ALL,
		LAYOUT(1024), .unit = "stages", .omit_zero = true, .label = "Pipeline stages", .def_classes = ALL },
	/* engine_train_search.c, vmask_compute(): at most one layer a chunk,
	 * and at most 31, the bits of the search's mask of counts (published
	 * runs use up to 24: Megatron-Bridge's DGX-H100 Qwen3-30B-A3B, PP 2
	 * VP 24) */
	[EF_VP] = { "vp", "workload", "vp", "N",
		"training: force N virtual pipeline stages per stage (Megatron's interleaved schedule; 1: none; default: searched)",
		EFT_INT, W(vp), PRE | FT, LAYOUT(31), .unit = "chunks", .omit_zero = true, .label = "Virtual stages",
		DEF_TRAIN(0, 0) },
	[EF_CP] = { "cp", "workload", "cp", "N", "training: force context parallel N (ring attention)",
		EFT_INT, W(cp), PRE | FT, LAYOUT(1024), .unit = "GPUs", .omit_zero = true, .label = "Context parallel",
		DEF_TRAIN(0, 0) },
	/* engine_train_step.c, eng_train_cp_comm(): the ring hides behind the
	 * attention, the all-to-all does not (the attention waits for it) */
	[EF_CP_COMM] = { "cp_comm", "workload", "cp-comm", "KIND",
		"training: context-parallel exchange p2p (ring, Megatron's default) | a2a (all-to-all)",
		EFT_ENUM, W(cp_comm), PRE | FT, .choice = &cp_comms, .omit_zero = true,
		.label = "CP exchange",
		.hint = "p2p: K/V ring hidden behind attention; a2a: Q, K, V and output all-to-all, not hidden",
		DEF_TRAIN(CPC_P2P, CPC_P2P) },
	[EF_EP] = { "ep", "workload", "ep", "N",
		"force expert parallel N (MoE; inference: on --accelerator, 1 or the TP degree, or with --attention-dp any power of two dividing the experts; default: searched)",
		EFT_INT, W(ep), ALL, LAYOUT(4096), .unit = "GPUs", .omit_zero = true, .label = "Expert parallel",
		.def_classes = ALL },
	/* engine_infer.c, dep_*: the flag alone turns it on */
	[EF_ATTENTION_DP] = { "attention_dp", "workload", "attention-dp", "",
		"inference: attention data parallel over the --ep GPUs, experts sharded (TensorRT-LLM's DEP)",
		EFT_ENUM, W(attention_dp), INF, .choice = &onoff, .bare = "on", .omit_zero = true,
		.label = "Attention DP",
		.hint = "on: attention data parallel over the expert-parallel GPUs, experts sharded (DEP)" },
	[EF_MICRO_BATCH] = { "micro_batch", "workload", "micro-batch", "N",
		"training: force N sequences per micro-batch", EFT_INT, W(micro_batch), PRE | FT,
		LAYOUT(65536), .unit = "sequences", .omit_zero = true, .label = "Micro-batch", DEF_TRAIN(0, 0) },

	[EF_STACK] = { "stack", "filters", "stack", "S", "filter: any | cuda | rocm | gaudi", EFT_ENUM,
		W(stack), ALL, .choice = &stacks, .label = "Software stack" },
	[EF_FORM_FACTOR] = { "form_factor", "filters", "form-factor", "F", "filter: any | sxm-oam | pcie",
		EFT_ENUM, W(form), ALL, .choice = &forms, .label = "Form factor" },
	/* filters: 1 GW, a trillion dollars */
	[EF_MAX_POWER_KW] = { "max_power_kw", "filters", "max-power-kw", "X",
		"filter: power budget of the whole configuration", EFT_DOUBLE, W(max_power_kw), ALL,
		OR_NONE(0.01, 1e6), NUM_PLAIN, .unit = "kW", .label = "Power budget",
		.hint = "whole configuration; none = no limit", .start = 10 },
	[EF_BUDGET_USD] = { "budget_usd", "filters", "budget-usd", "X", "filter: capital budget",
		EFT_DOUBLE, W(budget_usd), ALL, OR_NONE(1, 1e12), NUM_MONEY, .unit = "USD",
		.label = "Budget", .hint = "capex limit; 250k, 1.5M; none = no limit", .start = 1e6 },

	[EF_OBJECTIVE] = { "objective", "", "objective", "O",
		"rank by capex | cost-per-token | time | gpus | perf-per-watt | tco", EFT_ENUM, W(objective), ALL,
		.choice = &objectives, .label = "Rank by",
		.hint = "the objective step 3 ranks by ('b' there cycles it too)" },
	[EF_ACCELERATOR] = { "accelerator", "", "accelerator", "ID",
		"the accelerator to size, or to apply --gpus to", EFT_ACCEL, W(accel), ALL,
		.label = "Accelerator" },
	/* node overrides: the largest cluster the engine sizes */
	[EF_GPUS] = { "gpus", "node", "gpus", "N", "GPU count for --accelerator (default: sized)", EFT_INT,
		W(gpus), ALL, WHOLE(1, ENG_MAX_GPUS), NUM_COUNT, .word = "auto",
		.label = "GPUs", .step = 1,
		.hint = "override the GPU count (+/- by one); 'auto' lets the engine size it" },
	[EF_SPARE_NODES] = { "spare_nodes", "node", "spare-nodes", "N",
		"spare nodes for uptime (default: the catalog's, 1 serving, 0 training)", EFT_INT,
		W(spare_nodes), ALL,
		WHOLE(0, 1000), NUM_PLAIN, .word = "default", .label = "Spare nodes",
		.step = 1, .hint = "nodes added for uptime; 'auto' = the catalog default" },
	/* a batch far beyond any serving engine's max_batch_size; 0 = the
	 * engine chooses */
	[EF_BATCH] = { "batch", "node", "batch", "N",
		"inference: most sequences a replica runs at once (max_batch_size; with --pp, each of its pp micro-batches)", EFT_LONG, W(batch), INF,
		WHOLE_OR_NONE(1, 1e7), NUM_COUNT, .unit = "sequences", .label = "Batch per replica",
		.hint = "a published run's max_batch_size: a replica never runs more; none: memory and the targets decide" },
	/* an iteration carries at least one prompt token beside a decode;
	 * a million tokens is far beyond any engine's max_num_tokens */
	[EF_TOKEN_BUDGET] = { "token_budget", "node", "token-budget", "N",
		"inference: most tokens one iteration carries, decodes and prompt chunks (max_num_tokens; with --pp, each micro-batch)",
		EFT_LONG, W(token_budget), INF, WHOLE_OR_NONE(2, 1e6), NUM_COUNT, .unit = "tokens",
		.label = "Token budget",
		.hint = "a published run's max_num_tokens: decodes plus prompt chunks per iteration; none: the stack's" },

	/* the facility: 1 kW (an edge closet) to 1 MW (beyond any rack built) */
	[EF_RACK_KW] = { "rack_kw", "node", "rack-kw", "X",
		"power one rack can feed and cool, kW (default: the catalog's)", EFT_DOUBLE, W(rack_kw), ALL,
		NUMBER(1, 1000), NUM_PLAIN, .unit = "kW", .word = "default", .label = "Rack power",
		.step = 5, .start = 15, .hint = "kW per rack the data centre feeds; racks and PDUs follow" },

	/* The site's cooling (platforms declare theirs: catalog 'cooling'),
	 * the fabric kind (platforms list theirs: 'nics.fabrics') and the
	 * server shape; engine_node.c chooses among the platforms that
	 * match, and the result is filtered with the reason when none does. */
	[EF_COOLING] = { "cooling", "node", "cooling", "C",
		"the data centre's cooling: any | air | liquid (liquid-only platforms need liquid)",
		EFT_ENUM, W(cooling), ALL, .choice = &coolings, .label = "Cooling",
		.hint = "air: liquid-cooled platforms (GB200 NVL72, MI355X) are filtered out" },
	[EF_FABRIC] = { "fabric", "node", "fabric", "F",
		"scale-out fabric kind: auto | infiniband | ethernet (auto: the platform's first)",
		EFT_ENUM, W(fabric), ALL, .choice = &fabrics, .label = "Fabric",
		.hint = "the kind the nodes are built with; platforms whose NICs cannot run it are filtered" },
	/* the speeds a platform's NICs run are the catalog's (nics.speed_gbit,
	 * nics.split_gbit); a job across nodes on one that does not run the
	 * speed asked is filtered with the reason (engine_rank.c) */
	[EF_FABRIC_SPEED] = { "fabric_speed", "node", "fabric-speed", "N",
		"scale-out port speed, Gb/s: one the platform's NICs run, e.g. 200 or 400 for ConnectX-7 "
		"(default: the NICs' own)", EFT_INT, W(fabric_speed), ALL, .lim = { 1, 10000, true, true, "auto" },
		NUM_PLAIN, .unit = "Gb/s", .omit_zero = true, .label = "Fabric speed", .step = 200, .start = 400,
		.hint = "a speed the NICs run (catalog nics.speed_gbit, nics.split_gbit); auto: their own" },
	[EF_NODE_GPUS] = { "node_gpus", "node", "node-gpus", "N",
		"GPUs per server (e.g. 4 or 8 for PCIe cards; default: the cheapest shape)", EFT_INT,
		W(node_gpus), ALL, .lim = { 1, 128, true, true, "auto" }, NUM_PLAIN, .unit = "GPUs",
		.omit_zero = true, .label = "GPUs per node", .step = 4, .start = 8,
		.hint = "server shape; auto: the cheapest the catalog has for the accelerator" },
	/* One of the accelerator's platforms (catalog/platforms/), for where
	 * the catalog has several (server vendors, 4- or 8-card shapes); it
	 * pins the node of its own accelerator only, so the ranking still
	 * shows the others (engine_node.c). */
	[EF_PLATFORM] = { "platform", "node", "platform", "ID",
		"the server platform its accelerator is sized on (a catalog id, 'accelsizer catalog show "
		"ACCEL' lists them; default: the cheapest)", EFT_PLATFORM, W(platform), ALL, .label = "Platform",
		.hint = "Left/Right or +/- cycle: auto, then the catalog's platforms for the accelerator" },
	/* shared storage: none by default, up to 1 EB */
	[EF_STORAGE_TB] = { "storage_tb", "node", "storage-tb", "N",
		"shared storage to buy, TB (default: none; priced by a price list's STORAGE line)",
		EFT_DOUBLE, W(storage_tb), ALL, .lim = { 1, 1e6, false, true, "none" }, NUM_PLAIN,
		.unit = "TB",
		.omit_zero = true, .label = "Storage", .step = 100, .start = 100,
		.hint = "shared storage for datasets and checkpoints; 0 = none" },

	/* The TCO's assumptions (engine_tco_inputs()): 'default' = the price
	 * list's line, else catalog/defaults.yaml's sourced figure. */
	[EF_YEARS] = { "years", "costs", "years", "N",
		"TCO horizon in years (default: the catalog's, 5)", EFT_INT, W(years), ALL,
		WHOLE(1, 30), NUM_PLAIN, .unit = "years", .word = "default", .label = "TCO years",
		.step = 1, .start = 5, .hint = "total cost of ownership horizon; 'default' = the catalog's" },
	[EF_ELECTRICITY] = { "electricity_usd_per_kwh", "costs", "electricity-usd-per-kwh", "X",
		"TCO: electricity price (default: the catalog's)", EFT_DOUBLE, W(electricity_usd_per_kwh),
		ALL, OR_NONE(0.001, 10), NUM_PLAIN, .unit = "USD/kWh", .word = "default",
		.label = "Electricity", .step = 0.01, .start = 0.12, .hint = "USD per kWh at the site" },
	[EF_PUE] = { "pue", "costs", "pue", "X",
		"TCO: data-centre power usage effectiveness (default: the catalog's)", EFT_DOUBLE, W(pue),
		ALL, NUMBER(1, 5), NUM_PLAIN, .unit = "ratio", .word = "default", .label = "PUE",
		.step = 0.05, .start = 1.3, .hint = "facility power / IT power" },
	[EF_UTILISATION] = { "utilisation", "costs", "utilisation", "X",
		"TCO: share of the year the cluster works (default: the catalog's)", EFT_DOUBLE,
		W(utilisation), ALL, NUMBER(0.01, 1), NUM_PLAIN, .unit = "ratio", .word = "default",
		.label = "Utilisation", .step = 0.05, .start = 0.7, .hint = "0.01 to 1" },
	[EF_COLOCATION] = { "colocation_usd_per_kw_month", "costs", "colocation-usd-per-kw-month", "X",
		"TCO: colocation per kW of IT power per month (default: price list, catalog)", EFT_DOUBLE,
		W(colocation_usd_per_kw_month), ALL, OR_NONE(0.01, 1e5), NUM_PLAIN, .unit = "USD/kW/month",
		.word = "default", .label = "Colocation", .step = 10, .start = 184.06,
		.hint = "USD per kW per month; 0 = your own data centre" },
	[EF_LICENCE] = { "licence_usd_per_gpu_year", "costs", "licence-usd-per-gpu-year", "X",
		"TCO: software licences per GPU per year (default: price list, catalog)", EFT_DOUBLE,
		W(licence_usd_per_gpu_year), ALL, OR_NONE(1, 1e7), NUM_MONEY, .unit = "USD/GPU/year",
		.word = "default", .label = "Licences", .step = 500, .start = 4500,
		.hint = "USD per GPU per year, e.g. an enterprise AI software subscription" },
	/* Hardware support is sold for 1 to 5 years (3 and 5 the usual
	 * terms); the quote prepays it, the TCO renews it afterwards. */
	[EF_SUPPORT_YEARS] = { "support_years", "costs", "support-years", "N",
		"support term the quote prepays, years (default: price list, catalog)", EFT_INT,
		W(support_years), ALL, WHOLE(1, 5), NUM_PLAIN, .unit = "years", .word = "default",
		.label = "Support term", .step = 1, .start = 3,
		.hint = "years of hardware support and licences in the quote (3 or 5 usual)" },
	/* 0 = no support line; a year's support above the hardware's price
	 * is a typo */
	[EF_SUPPORT_FRACTION] = { "support_fraction_per_year", "costs", "support-fraction-per-year", "X",
		"yearly hardware support as a share of the hardware price (default: price list, catalog)",
		EFT_DOUBLE, W(support_fraction_per_year), ALL, OR_NONE(0.001, 1), NUM_PLAIN, .unit = "ratio",
		.word = "default", .label = "Support share", .step = 0.01, .start = 0.1,
		.hint = "support per year as a share of the hardware; your vendor's terms" },
	/* Which rental rate rent or buy compares buying with (engine_rent.c):
	 * auto (not saved) = the price list's RENT-TERM, else the cheapest
	 * term priced; a reserved term is billed for all of its hours. */
	[EF_RENT_TERM] = { "rent_term", "costs", "rent-term", "T",
		"rental term rent or buy is judged against: auto | on-demand | 1y | 3y (auto: a price "
		"list's RENT-TERM, else the cheapest for the need)", EFT_ENUM, W(rent_term), ALL,
		.choice = &rent_terms, .omit_zero = true, .label = "Rent term",
		.hint = "1y/3y: reserved, billed every hour of the term; a term with no rate is unpriced" },
};

_Static_assert(sizeof(enum workload_class) == sizeof(int) && sizeof(enum precision) == sizeof(int),
	       "EFT_ENUM fields are stored as int");

const struct engine_field *engine_field(enum engine_field_id id)
{
	return (unsigned)id < EF_COUNT ? &fields[id] : NULL;
}

const struct engine_field *engine_field_by_flag(const char *flag)
{
	if (!flag)
		return NULL;
	if (flag[0] == '-' && flag[1] == '-')
		flag += 2;
	for (size_t i = 0; i < EF_COUNT; i++)
		if (fields[i].flag && fields[i].flag[0] == flag[0] && !strcmp(fields[i].flag, flag))
			return &fields[i];
	return NULL;
}

const struct engine_field *engine_field_by_key(const char *section, const char *key)
{
	for (size_t i = 0; i < EF_COUNT; i++)
		if (fields[i].key && !strcmp(fields[i].section, section) && !strcmp(fields[i].key, key))
			return &fields[i];
	return NULL;
}

size_t engine_field_size(const struct engine_field *f)
{
	switch (f->type) {
	case EFT_LONG:
		return sizeof(long);
	case EFT_DOUBLE:
		return sizeof(double);
	case EFT_MODEL:
	case EFT_ACCEL:
	case EFT_DRAFT:
	case EFT_PLATFORM:
		return sizeof(void *);
	default:
		return sizeof(int);
	}
}

double engine_field_get(const struct workload *w, const struct engine_field *f)
{
	const char *p = (const char *)w + f->off;
	int i;
	long l;
	double d;
	switch (f->type) {
	case EFT_ENUM:
	case EFT_INT:
		memcpy(&i, p, sizeof i);
		return i;
	case EFT_LONG:
		memcpy(&l, p, sizeof l);
		return (double)l;
	case EFT_DOUBLE:
		memcpy(&d, p, sizeof d);
		return d;
	case EFT_MODEL:
	case EFT_ACCEL:
	case EFT_DRAFT:
	case EFT_PLATFORM:
		break;
	}
	return NAN;
}

bool engine_field_is_word(const struct workload *w, const struct engine_field *f)
{
	if (f == engine_field(EF_CONCURRENCY))
		return w->concurrency_max;
	return f->word && engine_field_get(w, f) == -1;
}

void engine_field_put_word(struct workload *w, const struct engine_field *f)
{
	if (f == engine_field(EF_CONCURRENCY))
		w->concurrency_max = true;
	else
		engine_field_put(w, f, -1);
}

void engine_field_put(struct workload *w, const struct engine_field *f, double v)
{
	char *p = (char *)w + f->off;
	int i = (int)lround(v);
	long l = (long)llround(v);
	switch (f->type) {
	case EFT_ENUM:
	case EFT_INT:
		memcpy(p, &i, sizeof i);
		break;
	case EFT_LONG:
		memcpy(p, &l, sizeof l);
		break;
	case EFT_DOUBLE:
		memcpy(p, &v, sizeof v);
		break;
	case EFT_MODEL:
	case EFT_ACCEL:
	case EFT_DRAFT:
	case EFT_PLATFORM:
		break;
	}
}

struct engine_field_limit engine_model_figure_limit(const struct catalog_model_figure *f)
{
	struct engine_field_limit l = { f->min, f->max, f->type != MFT_BILLIONS, !f->custom_required, NULL };
	return l;
}

void engine_workload_class_defaults(struct workload *w, enum workload_class cls)
{
	w->cls = cls;
	for (size_t i = 0; i < EF_COUNT; i++)
		if ((unsigned)cls < WL_COUNT && (fields[i].def_classes & ENGINE_CLASS(cls)))
			engine_field_put(w, &fields[i], fields[i].def[cls]);
	if (cls == WL_INFERENCE)
		w->concurrency_max = false;
}

/* %.15g: whole bounds print in full up to 1e15 ("100000000"), larger ones
 * as 1e+16; no bound has more than 15 significant digits. */
char *engine_field_range(const struct engine_field_limit *l, char *buf, size_t n)
{
	snprintf(buf, n, "%.15g to %.15g%s%s", l->min, l->max, l->zero_none ? ", or 0 for " : "",
		 l->zero_none ? (l->zero_word ? l->zero_word : "none") : "");
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
