/*
 * tui_step1: Workload.  The scenario's workloads (tui_workloads.c: a adds,
 * w switches, r renames, x removes), then the one on screen: the class, the
 * model (catalog pick list or custom figures), precisions, the fields of the
 * class (docs/design.md, "Fields") and the filters.  Every accepted change
 * re-runs the engine.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>

#include "tui.h"

/* A row of a workload field or of a custom model's figure: its label,
 * unit, hint, bounds and steps come from the tables (tui_fields_resolve()). */
#define F(id) .field = EF_##id + 1
#define FIG(id) .figure = MF_##id + 1
#define PRE TUI_CLASS(WL_PRETRAIN)
#define FT TUI_CLASS(WL_FINETUNE)

/* A new class brings that class's defaults, as --workload does. */
static void class_changed(struct tui *t)
{
	engine_workload_class_defaults(&t->sc.w, t->sc.w.cls);
	tui_wl_class_changed(t);
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
		snprintf(buf, n, "%s picks a model", tui_key(ACT_EDIT));
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

static const struct tui_field rows[] = {
	{ .label = "Workload", .kind = TF_HEADING },
	/* the scenario's workloads, sized together on one cluster */
	{ .label = "Workloads", .kind = TF_INFO, .info = tui_wl_list },
	{ .label = "Editing", .kind = TF_INFO, .info = tui_wl_editing, .shown = tui_wl_multi },
	/* the entry's share of the week and the list's share_gpus (scenario.h) */
	{ .label = "Hours a week", .kind = TF_NUMBER, .unit = "h", .base = FB_ENTRY, .store = FS_DOUBLE,
	  .offset = offsetof(struct scenario_entry, share), .times = SCENARIO_WEEK_HOURS,
	  .lim = SCENARIO_HOURS_LIMIT, .positive = true, .syntax = NUM_TIME, .step = 1,
	  .classes = PRE | FT, .shown = tui_wl_multi,
	  .hint = "this training's share of the week (hours_per_week); 168 = always" },
	{ .label = "Training GPUs", .kind = TF_CHOICE, .base = FB_SCENARIO, .store = FS_BOOL,
	  .offset = offsetof(struct scenario, share_gpus), .choice_first = 0, .choice_count = 2,
	  .choice_name = tui_wl_share_gpus_name, .shown = tui_wl_multi,
	  .hint = "share_gpus: training takes its own GPUs or time-shares the serving GPUs" },
	{ F(CLASS), .after_set = class_changed },
	{ F(MODEL) },
	{ .label = "", .kind = TF_INFO, .info = model_info },
	{ FIG(PARAMS) }, { FIG(ACTIVE_PARAMS) }, { FIG(LAYERS) }, { FIG(HIDDEN) }, { FIG(HEADS) },
	{ FIG(KV_HEADS) }, { FIG(HEAD_DIM) }, { FIG(FFN) }, { FIG(VOCAB) }, { FIG(MAX_CONTEXT) },
	{ F(PRECISION) },
	{ F(KV_PRECISION), .after_set = kv_set, .follows = kv_follows,
	  .hint = "follows Precision (fp16 for int4, fp8 for fp4) until you set it" },

	{ .label = "Inference", .kind = TF_HEADING, .classes = TUI_CLASS(WL_INFERENCE) },
	{ F(INPUT_TOKENS) }, { F(OUTPUT_TOKENS) }, { F(CONCURRENCY) }, { F(TOKENS_PER_S_PER_USER) },
	{ F(TTFT_MS) }, { F(TARGET_TOKENS_PER_S) }, { F(ARRIVAL_RATE) },
	{ F(PREFIX_CACHE_HIT) }, { F(SERVING_STACK) }, { F(DISAGGREGATED) },
	{ F(DRAFT_MODEL) }, { F(SPEC_ACCEPTANCE) }, { F(SPEC_TOKENS) }, { F(KV_RESERVE) }, { F(OUTPUT_CV) },
	{ F(ATTENTION_DP) }, { F(BATCH) }, { F(TOKEN_BUDGET) }, { F(DISPATCH) }, { F(PREFILL) },
	{ F(SCHEDULER_STEPS) }, { F(HARNESS_WINDOW_MS) },

	{ .label = "Pretraining", .kind = TF_HEADING, .classes = PRE },
	{ F(TOKENS), .classes = PRE },
	{ F(DAYS), .classes = PRE },
	{ F(SEQ_LEN), .classes = PRE },
	{ F(GLOBAL_BATCH_TOKENS), .classes = PRE },
	{ F(EVAL_TOKENS), .classes = PRE },
	{ F(RECOMPUTE), .classes = PRE },
	{ F(TP), .classes = PRE }, { F(PP), .classes = PRE }, { F(VP), .classes = PRE }, { F(CP), .classes = PRE },
	{ F(CP_COMM), .classes = PRE },
	{ F(EP), .classes = PRE }, { F(MICRO_BATCH), .classes = PRE }, { F(DP_OVERLAP), .classes = PRE },
	{ F(TRAINING_STACK), .classes = PRE }, { F(MTP) },

	{ .label = "Fine-tuning", .kind = TF_HEADING, .classes = FT },
	{ F(METHOD) },
	{ F(LORA_RANK) },
	{ F(TOKENS), .label = "Dataset tokens", .hint = "", .classes = FT },
	{ F(EPOCHS) },
	{ F(EVAL_TOKENS), .classes = FT },
	{ F(TARGET_HOURS), .classes = FT },
	{ F(SEQ_LEN), .classes = FT },
	{ F(RECOMPUTE), .classes = FT },
	{ F(TP), .classes = FT }, { F(PP), .classes = FT }, { F(VP), .classes = FT }, { F(CP), .classes = FT },
	{ F(CP_COMM), .classes = FT },
	{ F(EP), .classes = FT }, { F(MICRO_BATCH), .classes = FT }, { F(DP_OVERLAP), .classes = FT },
	{ F(TRAINING_STACK), .classes = FT },

	{ .label = "Filters", .kind = TF_HEADING },
	{ F(STACK) }, { F(FORM_FACTOR) }, { F(MAX_POWER_KW) }, { F(BUDGET_USD) }, { F(OBJECTIVE) },

	{ .label = "Scenario", .kind = TF_HEADING },
	{ .label = "Customer", .kind = TF_TEXT, .base = FB_SCENARIO,
	  .offset = offsetof(struct scenario, customer),
	  .hint = "saved with the scenario and printed on the BOM summary" },
	{ .label = "Opportunity", .kind = TF_TEXT, .base = FB_SCENARIO,
	  .offset = offsetof(struct scenario, opportunity) },
	{ .label = "Notes", .kind = TF_TEXT, .base = FB_SCENARIO,
	  .offset = offsetof(struct scenario, notes),
	  .hint = "notes and assumptions: saved with the scenario and printed in the proposal (P)" },
};
#define NFIELDS ((int)(sizeof rows / sizeof rows[0]))

static void draw(struct tui *t, WINDOW *win, int h, int w)
{
	struct tui_field fields[NFIELDS];
	tui_fields_resolve(rows, fields, NFIELDS);
	tui_form_draw(t, win, h, w, fields, NFIELDS, &t->workload.form);
}

static int key(struct tui *t, enum tui_action a, int ch)
{
	struct tui_field fields[NFIELDS];
	tui_fields_resolve(rows, fields, NFIELDS);
	return tui_form_key(t, a, ch, fields, NFIELDS, &t->workload.form);
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
