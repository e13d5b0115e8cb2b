/*
 * tui_step1: Workload.  The class, the model (catalog pick list or custom
 * figures), precisions, the fields of the class (DESIGN.md section 2) and
 * the filters.  Every accepted change re-runs the engine.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>

#include "tui.h"

#define W(field) .base = FB_WORKLOAD, .offset = offsetof(struct workload, field)
#define M(field) .base = FB_MODEL, .offset = offsetof(struct catalog_model, field), .custom_only = true
#define INF TUI_CLASS(WL_INFERENCE)
#define PRE TUI_CLASS(WL_PRETRAIN)
#define FT TUI_CLASS(WL_FINETUNE)

static const char *class_choice(int v) { return workload_class_name((enum workload_class)v); }
static const char *prec_choice(int v) { return precision_name((enum precision)v); }
static const char *stack_choice(int v) { return v < 0 ? "any" : stack_name((enum stack)v); }
static const char *form_choice(int v) { return form_filter_name((enum form_filter)v); }
static const char *recompute_choice(int v) { return recompute_name((enum recompute)v); }
static const char *method_choice(int v) { return ft_method_name((enum ft_method)v); }
static const char *objective_choice(int v) { return objective_name((enum objective)v); }

/* A new class brings that class's defaults, as --workload does. */
static void class_changed(struct tui *t)
{
	engine_workload_class_defaults(&t->sc.w, t->sc.w.cls);
}

/* The KV cache precision follows Precision (engine_workload_derive())
 * until the user sets it here. */
static void kv_set(struct tui *t)
{
	t->sc.w.kv_precision_set = true;
}

static const char *kv_follows(const struct tui *t)
{
	return t->sc.w.kv_precision_set ? NULL : "follows Precision";
}

static void model_info(const struct tui *t, char *buf, size_t n)
{
	const struct catalog_model *m = t->sc.w.model;
	if (!m) {
		snprintf(buf, n, "Enter picks a model");
		return;
	}
	char p[32], ctx[32];
	tui_fmt_si(p, sizeof p, m->params);
	tui_fmt_si(ctx, sizeof ctx, (double)m->max_context);
	if (m->active_params > 0 && m->active_params < m->params) {
		char a[32];
		tui_fmt_si(a, sizeof a, m->active_params);
		snprintf(buf, n, "%s (%s active), %d layers, %d KV heads, %s ctx", p, a, m->layers,
			 m->kv_heads, ctx);
	} else {
		snprintf(buf, n, "%s params, %d layers, %d KV heads, %s ctx", p, m->layers, m->kv_heads, ctx);
	}
}

static const struct tui_field fields[] = {
	{ .label = "Workload", .kind = TF_HEADING },
	{ .label = "Class", .kind = TF_CHOICE, W(cls), .store = FS_ENUM,
	  .choice_first = 0, .choice_count = WL_COUNT, .choice_name = class_choice,
	  .after_set = class_changed,
	  .hint = "Left/Right or +/- cycle: inference, pretrain, finetune" },
	{ .label = "Model", .kind = TF_MODEL,
	  .hint = "Enter: searchable list of catalog models, or custom figures; +/- next model" },
	{ .label = "", .kind = TF_INFO, .info = model_info },
	{ .label = "Parameters", .unit = "B", .kind = TF_NUMBER, M(params), .store = FS_DOUBLE,
	  .scale = 1e9, .limit = "params_b", .step = 0, .hint = "total parameters, billions" },
	{ .label = "Active parameters", .unit = "B", .kind = TF_NUMBER, M(active_params),
	  .store = FS_DOUBLE, .scale = 1e9, .limit = "active_params_b", .step = 0,
	  .hint = "per token (mixture of experts); equal to the total for dense models" },
	{ .label = "Layers", .kind = TF_NUMBER, M(layers), .store = FS_INT,
	  .limit = "layers", .step = 1 },
	{ .label = "Hidden size", .kind = TF_NUMBER, M(hidden), .store = FS_INT,
	  .limit = "hidden_size", .step = 0 },
	{ .label = "Attention heads", .kind = TF_NUMBER, M(heads), .store = FS_INT,
	  .limit = "attention_heads", .step = 0 },
	{ .label = "KV heads", .kind = TF_NUMBER, M(kv_heads), .store = FS_INT,
	  .limit = "kv_heads", .step = 0, .hint = "grouped-query attention: fewer KV heads, smaller KV cache" },
	{ .label = "Head dimension", .kind = TF_NUMBER, M(head_dim), .store = FS_INT,
	  .limit = "head_dim", .step = 0 },
	{ .label = "FFN size", .kind = TF_NUMBER, M(ffn), .store = FS_INT,
	  .limit = "ffn_size", .step = 0 },
	{ .label = "Vocabulary", .kind = TF_NUMBER, M(vocab), .store = FS_INT,
	  .limit = "vocab_size", .step = 0 },
	{ .label = "Max context", .unit = "tokens", .kind = TF_NUMBER, M(max_context), .store = FS_LONG,
	  .limit = "max_context", .step = 0 },
	{ .label = "Precision", .kind = TF_CHOICE, W(precision), .store = FS_ENUM,
	  .choice_first = 0, .choice_count = PREC_WORKLOAD_COUNT, .choice_name = prec_choice,
	  .hint = "weights and compute; fp8 falls back to bf16 where the hardware has none" },
	{ .label = "KV cache precision", .kind = TF_CHOICE, W(kv_precision), .store = FS_ENUM,
	  .classes = INF, .choice_first = 0, .choice_count = PREC_WORKLOAD_COUNT, .choice_name = prec_choice,
	  .after_set = kv_set, .follows = kv_follows,
	  .hint = "follows Precision (fp16 for int4, fp8 for fp4) until you set it" },

	{ .label = "Inference", .kind = TF_HEADING, .classes = INF },
	{ .label = "Input tokens", .unit = "tok/request", .kind = TF_NUMBER, W(input_tokens), .store = FS_LONG,
	  .classes = INF, .limit = "input_tokens", .step = 0,
	  .hint = "prompt length; +/- double and halve; 4k = 4000" },
	{ .label = "Output tokens", .unit = "tok/request", .kind = TF_NUMBER, W(output_tokens), .store = FS_LONG,
	  .classes = INF, .limit = "output_tokens", .step = 0 },
	{ .label = "Concurrent users", .unit = "sequences", .kind = TF_NUMBER, W(concurrency), .store = FS_LONG,
	  .classes = INF, .special = SP_CONCURRENCY, .limit = "concurrency", .step = 0,
	  .start = 1, .hint = "sequences served at once; 'max' = as many as memory holds" },
	{ .label = "Speed per user", .unit = "tok/s", .kind = TF_NUMBER, W(tokens_per_s_per_user),
	  .store = FS_DOUBLE, .classes = INF, .special = SP_ZERO_NONE, .limit = "tokens_per_s_per_user", .step = 5,
	  .start = 20, .hint = "target decode speed each user sees; none = no target" },
	{ .label = "Time to first token", .unit = "ms", .kind = TF_NUMBER, W(ttft_ms), .store = FS_DOUBLE,
	  .classes = INF, .special = SP_ZERO_NONE, .limit = "ttft_ms", .step = 0, .start = 1000,
	  .hint = "target TTFT without queueing; none = no target" },
	{ .label = "Total throughput", .unit = "tok/s", .kind = TF_NUMBER, W(target_tokens_per_s),
	  .store = FS_DOUBLE, .classes = INF, .special = SP_ZERO_NONE, .limit = "target_tokens_per_s", .step = 0,
	  .start = 1000, .hint = "target output tokens/s for the whole service; none = no target" },

	{ .label = "Pretraining", .kind = TF_HEADING, .classes = PRE },
	{ .label = "Training tokens", .unit = "tokens", .kind = TF_NUMBER, W(tokens), .store = FS_DOUBLE,
	  .classes = PRE, .limit = "tokens", .step = 0, .hint = "e.g. 2T; +/- double and halve" },
	{ .label = "Target time", .unit = "days", .kind = TF_NUMBER, W(target_hours), .store = FS_DOUBLE,
	  .classes = PRE, .special = SP_ZERO_NONE, .scale = 24, .limit = "days", .step = 0,
	  .start = 30, .hint = "wall-clock days to train; none = fewest GPUs that fit" },
	{ .label = "Sequence length", .unit = "tokens", .kind = TF_NUMBER, W(seq_len), .store = FS_LONG,
	  .classes = PRE, .limit = "seq_len", .step = 0 },
	{ .label = "Global batch", .unit = "tokens", .kind = TF_NUMBER, W(global_batch_tokens),
	  .store = FS_DOUBLE, .classes = PRE, .limit = "global_batch_tokens", .step = 0 },
	{ .label = "Activation recompute", .kind = TF_CHOICE, W(recompute), .store = FS_ENUM,
	  .classes = PRE, .choice_first = 0, .choice_count = RECOMPUTE_COUNT, .choice_name = recompute_choice },

	{ .label = "Fine-tuning", .kind = TF_HEADING, .classes = FT },
	{ .label = "Method", .kind = TF_CHOICE, W(method), .store = FS_ENUM, .classes = FT,
	  .choice_first = 0, .choice_count = FT_COUNT, .choice_name = method_choice,
	  .hint = "full fine-tuning, LoRA adapters, or QLoRA (4-bit frozen base)" },
	{ .label = "LoRA rank", .kind = TF_NUMBER, W(lora_rank), .store = FS_INT, .classes = FT,
	  .lora_only = true, .limit = "lora_rank", .step = 0 },
	{ .label = "Dataset tokens", .unit = "tokens", .kind = TF_NUMBER, W(tokens), .store = FS_DOUBLE,
	  .classes = FT, .limit = "tokens", .step = 0 },
	{ .label = "Epochs", .kind = TF_NUMBER, W(epochs), .store = FS_DOUBLE, .classes = FT,
	  .limit = "epochs", .step = 1 },
	{ .label = "Target time", .unit = "hours", .kind = TF_NUMBER, W(target_hours), .store = FS_DOUBLE,
	  .classes = FT, .special = SP_ZERO_NONE, .limit = "target_hours", .step = 0, .start = 24,
	  .hint = "wall-clock hours; none = fewest GPUs that fit" },
	{ .label = "Sequence length", .unit = "tokens", .kind = TF_NUMBER, W(seq_len), .store = FS_LONG,
	  .classes = FT, .limit = "seq_len", .step = 0 },

	{ .label = "Filters", .kind = TF_HEADING },
	{ .label = "Software stack", .kind = TF_CHOICE, W(stack), .store = FS_INT,
	  .choice_first = -1, .choice_count = STACK_COUNT + 1, .choice_name = stack_choice },
	{ .label = "Form factor", .kind = TF_CHOICE, W(form), .store = FS_ENUM,
	  .choice_first = 0, .choice_count = FORMF_COUNT, .choice_name = form_choice },
	{ .label = "Power budget", .unit = "kW", .kind = TF_NUMBER, W(max_power_kw), .store = FS_DOUBLE,
	  .special = SP_ZERO_NONE, .limit = "max_power_kw", .step = 0, .start = 10,
	  .hint = "whole configuration; none = no limit" },
	{ .label = "Budget", .unit = "USD", .kind = TF_NUMBER, W(budget_usd), .store = FS_DOUBLE,
	  .special = SP_ZERO_NONE, .limit = "budget_usd", .step = 0, .start = 1e6,
	  .hint = "capex limit; 250k, 1.5M; none = no limit" },
	{ .label = "Rank by", .kind = TF_CHOICE, W(objective), .store = FS_ENUM,
	  .choice_first = 0, .choice_count = OBJ_COUNT, .choice_name = objective_choice,
	  .hint = "the objective step 3 ranks by ('b' there cycles it too)" },

	{ .label = "Scenario", .kind = TF_HEADING },
	{ .label = "Customer", .kind = TF_TEXT, .base = FB_SCENARIO,
	  .offset = offsetof(struct scenario, customer),
	  .hint = "saved with the scenario and printed on the BOM summary" },
	{ .label = "Opportunity", .kind = TF_TEXT, .base = FB_SCENARIO,
	  .offset = offsetof(struct scenario, opportunity) },
};
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

static void draw(struct tui *t, WINDOW *win, int h, int w)
{
	tui_form_draw(t, win, h, w, fields, NFIELDS, 0);
}

static int key(struct tui *t, enum tui_action a, int ch)
{
	return tui_form_key(t, a, ch, fields, NFIELDS, 0);
}

static bool missing(const struct tui *t)
{
	char why[8];
	return !t->sc.w.model || !engine_workload_valid(&t->sc.w, why, sizeof why);
}

const struct tui_step tui_step1 = {
	.name = "Workload",
	.draw = draw,
	.key = key,
	.missing = missing,
};
