/*
 * engine: from a workload to a sized, costed, ranked configuration for every
 * accelerator in the catalog.
 *
 * Pure computation: no I/O, no ncurses, no globals, no allocation in
 * engine_run() (the report's storage is allocated once by
 * engine_report_init()), so the wizard can call it on every keystroke and
 * the CLI, the BOM and the wizard always agree.  Formulas and their sources
 * are next to the code in engine*.c; figures come from the catalog.
 */
#ifndef ACCELSIZER_ENGINE_H
#define ACCELSIZER_ENGINE_H

#include <stdint.h>

#include "catalog.h"
#include "number.h"

struct prices;		/* prices.h: a price list, read by the front end */
struct price_entry;

enum workload_class { WL_INFERENCE, WL_PRETRAIN, WL_FINETUNE, WL_COUNT };
/* RECOMPUTE_AUTO: the layout search chooses (the lightest that fits). */
enum recompute { RECOMPUTE_AUTO, RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL, RECOMPUTE_COUNT };
enum ft_method { FT_FULL, FT_LORA, FT_QLORA, FT_COUNT };
/* How context-parallel ranks exchange attention inputs: Megatron's P2P
 * ring of K/V chunks (its default) or the all-to-all of Q, K, V and the
 * output over the heads (cp_comm_type 'a2a', DeepSpeed Ulysses' scheme). */
enum cp_comm { CPC_P2P, CPC_A2A, CPC_COUNT };
/* Serving: how the front end sends arrivals to the replicas.  Independent:
 * each replica sees its own Poisson stream (random or round-robin
 * assignment); least-loaded: each request goes to the replica with the
 * fewest in flight, so the replicas' swings are shared (engine_infer.c,
 * batch_spread()). */
enum dispatch { DISPATCH_INDEPENDENT, DISPATCH_LEAST_LOADED, DISPATCH_COUNT };
/* Serving: where the prompts are computed.  Chunked: in the decode
 * iterations, within the token budget (TensorRT-LLM's chunked context,
 * vLLM's chunked prefill); separate: in prompt-only iterations that stop
 * the decodes (vLLM's V0 scheduler with chunked prefill off). */
enum prefill_sched { PREFILL_CHUNKED, PREFILL_SEPARATE, PREFILL_COUNT };
enum objective { OBJ_CAPEX, OBJ_COST_PER_TOKEN, OBJ_TIME, OBJ_GPUS, OBJ_PERF_PER_WATT, OBJ_TCO, OBJ_COUNT };
enum form_filter { FORMF_ANY, FORMF_SXM_OAM, FORMF_PCIE, FORMF_COUNT };
/* The cooling the data centre offers: air only, or direct liquid cooling
 * (with air for everything else); ANY = not said. */
enum cooling_filter { COOLF_ANY, COOLF_AIR, COOLF_LIQUID, COOLF_COUNT };
/* The scale-out fabric kind asked for; AUTO = the platform's first
 * nics.fabrics entry. */
enum fabric_choice { FABRICF_AUTO, FABRICF_INFINIBAND, FABRICF_ETHERNET, FABRICF_COUNT };
/* The rental term rent or buy is judged against (engine_rent()); AUTO =
 * the cheapest term priced.  The others are enum engine_rent_term + 1. */
enum rent_term_choice { RENTC_AUTO, RENTC_ON_DEMAND, RENTC_1Y, RENTC_3Y, RENTC_COUNT };
/* Resources, in the order the brief names them. */
/* How a serving request's KV cache is taken: as its context grows (paged
 * blocks on demand; TensorRT-LLM's max-utilization capacity scheduler,
 * vLLM), or for its whole input + output at admission (TensorRT-LLM's
 * guaranteed-no-evict). */
enum kv_reserve { KVR_ON_DEMAND, KVR_FULL, KVR_COUNT };
enum resource { RES_NONE, RES_MEMORY, RES_BANDWIDTH, RES_INTERCONNECT, RES_COMPUTE, RES_PRECISION, RES_COUNT };

const char *workload_class_name(enum workload_class c);	/* "inference" */
bool workload_class_parse(const char *s, enum workload_class *out);
const char *recompute_name(enum recompute r);
bool recompute_parse(const char *s, enum recompute *out);
const char *cp_comm_name(enum cp_comm k);		/* "p2p", "a2a" */
bool cp_comm_parse(const char *s, enum cp_comm *out);
const char *kv_reserve_name(enum kv_reserve k);		/* "on-demand", "full" */
bool kv_reserve_parse(const char *s, enum kv_reserve *out);
const char *ft_method_name(enum ft_method m);
bool ft_method_parse(const char *s, enum ft_method *out);
const char *objective_name(enum objective o);		/* "capex", "cost-per-token" */
bool objective_parse(const char *s, enum objective *out);
const char *form_filter_name(enum form_filter f);	/* "any", "sxm-oam", "pcie" */
bool form_filter_parse(const char *s, enum form_filter *out);
const char *cooling_filter_name(enum cooling_filter f);	/* "any", "air", "liquid" */
bool cooling_filter_parse(const char *s, enum cooling_filter *out);
const char *fabric_choice_name(enum fabric_choice f);	/* "auto", "infiniband", "ethernet" */
bool fabric_choice_parse(const char *s, enum fabric_choice *out);
const char *rent_term_choice_name(enum rent_term_choice t);	/* "auto", "on-demand", "1y", "3y" */
bool rent_term_choice_parse(const char *s, enum rent_term_choice *out);
const char *resource_name(enum resource r);		/* "memory capacity" */
const char *resource_key(enum resource r);		/* "memory", for csv/yaml */

/*
 * What the user asks for.  Zero in a target means "no target"; -1 in an
 * override means "let the engine choose".  The model points into the
 * catalog or at a caller-owned struct holding custom figures.
 */
struct workload {
	enum workload_class cls;
	const struct catalog_model *model;
	enum precision precision;	/* weights and compute */
	enum precision kv_precision;
	bool kv_precision_set;		/* the user chose it; else it follows
					 * precision (engine_workload_derive()) */
	/* A mixed checkpoint (ModelOpt's AutoQuantize search, as NVIDIA's
	 * MLPerf Mixtral ran): the mean bits of a weight as that search
	 * counts them (element bits, no scales), its layers split between
	 * `precision` and the next wider format (engine_mix_bits()); 0 = the
	 * precision's own format throughout.  Set by a ledger entry's
	 * effective_bits only, not a field a user sets. */
	double effective_bits;

	/* inference */
	long input_tokens, output_tokens;
	/* The output lengths' coefficient of variation (standard deviation
	 * over mean, output_tokens being the mean); 0 = all the same length. */
	double output_cv;
	long concurrency;		/* concurrent sequences */
	bool concurrency_max;		/* as many as memory holds */
	double tokens_per_s_per_user;	/* target decode speed per user: 1000 / p99
					 * time per output token */
	double ttft_ms;			/* target time to first token, p99 */
	double target_tokens_per_s;	/* target total output tokens/s */
	double arrival_rate;		/* requests/s arriving (Poisson, MLPerf
					 * Server); 0 = none given */
	/* A client harness that holds arriving requests and hands each
	 * window's worth to one replica at once (AMD's MLPerf Server
	 * batcher, --batcher-threshold), ms; 0 = each request as it comes. */
	double harness_window_ms;
	/* Speculative decoding (Leviathan et al. 2023): a draft proposes
	 * spec_tokens tokens (0 = the engine chooses), the target checks them
	 * in one step and accepts each with probability spec_acceptance (0 =
	 * no speculation).  draft_model is a catalog model sharing the
	 * target's vocabulary, or &engine_draft_mtp: the target's own
	 * multi-token prediction modules (mtp_layers). */
	double spec_acceptance;
	const struct catalog_model *draft_model;
	int spec_tokens;
	double prefix_cache_hit;	/* share of prompt tokens whose KV the
					 * prefix cache already holds, 0..0.99 */
	int serving_stack;		/* enum serving_stack, or -1: each
					 * accelerator's default stack */
	int training_stack;		/* enum training_stack, or -1: each
					 * accelerator's default stack */
	int dp_overlap;			/* enum dp_overlap, or -1: the training
					 * stack's (a run that sets its own) */
	int disaggregated;		/* 1: prefill and decode on separate pools
					 * (engine_disagg.c), 0: one pool */
	int dispatch;			/* inference: how arrivals reach the
					 * replicas, enum dispatch */
	int prefill;			/* inference: enum prefill_sched */
	int scheduler_steps;		/* inference, separate prefill: decode
					 * iterations a block runs before waiting
					 * prompts are admitted (vLLM's
					 * num_scheduler_steps); 0 = 1 */
	int kv_reserve;			/* enum kv_reserve: how a request's KV
					 * cache is taken (the capacity
					 * scheduler's policy) */
	bool decode_only;		/* the engine's decode pool: no prompt
					 * tokens in its steps (not a field) */

	/* pretraining and fine-tuning */
	double tokens;			/* training or dataset tokens */
	double epochs;			/* fine-tuning */
	double target_hours;		/* from --days or --hours; 0 = none */
	long seq_len;
	double global_batch_tokens;
	/* tokens the run's evaluations read, forward only, over the whole
	 * run (MLPerf counts its evaluations in the time to train); 0 = none */
	double eval_tokens;
	enum recompute recompute;
	enum ft_method method;
	int mtp;			/* pretraining, 1: the model's multi-token
					 * prediction modules train with it
					 * (eng_mtp_params()) */
	/* Parts of the layout the user forces; 0 = the search chooses:
	 * tensor, pipeline, context (ring attention) and expert parallel
	 * degrees, sequences per micro-batch and (training) the interleaved
	 * schedule's virtual stages per pipeline stage.  Training forces them
	 * on every candidate; inference forces tp, pp and ep on the chosen
	 * accelerator only (a serving layout to reproduce). */
	int tp, pp, vp, cp, ep, micro_batch;
	enum cp_comm cp_comm;		/* training: the context-parallel exchange */
	int attention_dp;		/* inference, 1: attention data parallel over
					 * the expert-parallel group (TensorRT-LLM's
					 * DEP); 0: the search chooses, unless --ep
					 * forces attention tensor-parallel */
	int lora_rank;

	/* filters, apply to every class */
	int stack;			/* enum stack, or -1 for any */
	enum form_filter form;
	double max_power_kw;		/* 0 = no limit */
	double budget_usd;		/* 0 = no limit */
	enum objective objective;

	/* The customer's price list (read and owned by the front end), or
	 * NULL: every cost the engine computes (capex, its breakdown, $/Mtok,
	 * run cost, the budget filter, the ranking) uses its prices over the
	 * catalog's, as the BOM does. */
	const struct prices *prices;

	/* The total cost of ownership's assumptions (scenario section
	 * "costs"); -1 = the price list's line (COLOCATION, LICENCE) if it
	 * has one, else catalog/defaults.yaml's figure (engine_tco_inputs()). */
	int years;			/* TCO horizon */
	double electricity_usd_per_kwh, pue, utilisation;
	double colocation_usd_per_kw_month, licence_usd_per_gpu_year;
	int support_years;		/* hardware support term quoted */
	double support_fraction_per_year;	/* yearly support, share of the hardware */

	/* node overrides for the chosen accelerator */
	const struct catalog_accel *accel;	/* NULL = none chosen */
	int gpus;			/* -1 = engine sizes */
	/* inference, the chosen accelerator: batch caps the sequences a
	 * replica runs at once, as a serving engine's max_batch_size does;
	 * 0 = the engine chooses. */
	long batch;
	/* inference: the most tokens one scheduler iteration carries, the
	 * running batch's decodes and the prompt chunks beside them
	 * (TensorRT-LLM's max_num_tokens, vLLM's max_num_batched_tokens);
	 * 0 = defaults.prefill_chunk_tokens. */
	long token_budget;
	int spare_nodes;		/* -1 = catalog default */
	double rack_kw;			/* power one rack feeds and cools; -1 =
					 * defaults.rack_kw */
	/* The facility and the configuration (issue 17): the cooling the
	 * site has (platforms needing another are filtered), the fabric kind
	 * the nodes are built with, and the server shape (GPUs per node; 0 =
	 * the engine chooses). */
	enum cooling_filter cooling;
	enum fabric_choice fabric;
	/* The scale-out fabric's port speed, Gb/s: one the platform's NICs
	 * run (nics.speed_gbit, nics.split_gbit); 0 = the NICs' own speed. */
	int fabric_speed;
	int node_gpus;
	/* The server platform its own accelerator is sized on (one of the
	 * catalog's platforms for it: another vendor's server or shape);
	 * NULL = the engine chooses.  Other accelerators are not affected. */
	const struct catalog_platform *platform;
	/* Shared storage the cluster buys, TB (0 = none): a BOM line priced
	 * only by a price list's STORAGE line (no source gives a catalog
	 * price). */
	double storage_tb;
	/* The rental term rent or buy is judged against (AUTO: the price
	 * list's RENT-TERM line, else the cheapest term priced). */
	enum rent_term_choice rent_term;

	/* Not a setting (no field, never saved): true when the workload is
	 * one of several on a cluster (engine_cluster_size()), so a MIG slice
	 * is worth taking at the same card count, for its card's other
	 * slices can hold the other workloads.  Alone, a slice is taken only
	 * when it serves the target on fewer cards (docs/design.md, "Several
	 * workloads on one cluster"). */
	bool share_cards;
};

/* A workload with the catalog's defaults: Llama-2-70B-class inference. */
void engine_workload_init(struct workload *w, const struct catalog *c);
/* Sets the class and that class's fields to their defaults (the wizard
 * calls it when the user changes the class; the CLI on --workload). */
void engine_workload_class_defaults(struct workload *w, enum workload_class cls);
/*
 * The derived defaults, in one place for the CLI, scenario files and the
 * wizard: a field the user has not set follows the one it derives from.
 * Today that is the KV cache precision (engine_kv_precision_for() of the
 * precision while !kv_precision_set); the class defaults are
 * engine_workload_class_defaults().  Front ends call it after every change
 * and before engine_run().
 */
void engine_workload_derive(struct workload *w);
/* The KV-cache precision that goes with a weight precision when none is
 * given (the flags, scenario files and published setups all use it). */
enum precision engine_kv_precision_for(enum precision weights);
/* Checks ranges a caller cannot express in types; writes why on failure. */
bool engine_workload_valid(const struct workload *w, char *why, size_t whysz);
/* A mixed checkpoint of `p` (workload.effective_bits): the wider format
 * its other layers keep and the bits a weight of each counts, or false
 * where p has no mixed form (fp4 mixes with fp8, fp8 with 16 bit). */
bool engine_mix_bits(enum precision p, enum precision *wide, double *lo_bits, double *hi_bits);

/*
 * The workload's fields, in one table (engine_fields.c): per field its
 * scenario key and section, its flag and --help line, where it lives in
 * struct workload, its bounds and whole-number rule, the number syntax it is
 * typed in, its unit, the classes it applies to, the wizard's label and
 * hint, and its default per class.  The CLI options and their parsing
 * (cli_workload.c), scenario load and save (scenario.c), the wizard's rows
 * (tui_step1.c, tui_step4.c) and engine_workload_valid() are all derived
 * from it (docs/design.md, "Fields").  A new field is one row there, one
 * enum constant here, one member of struct workload, and its use.
 */
enum engine_field_id {
	EF_CLASS, EF_MODEL, EF_PRECISION, EF_KV_PRECISION, EF_SERVING_STACK, EF_DISAGGREGATED, EF_DISPATCH, EF_PREFILL, EF_SCHEDULER_STEPS,
	EF_KV_RESERVE,
	EF_INPUT_TOKENS, EF_OUTPUT_TOKENS, EF_OUTPUT_CV, EF_CONCURRENCY, EF_TOKENS_PER_S_PER_USER, EF_TTFT_MS,
	EF_TARGET_TOKENS_PER_S, EF_ARRIVAL_RATE, EF_HARNESS_WINDOW_MS, EF_PREFIX_CACHE_HIT,
	EF_SPEC_ACCEPTANCE, EF_DRAFT_MODEL, EF_SPEC_TOKENS,
	EF_TOKENS, EF_EPOCHS, EF_DAYS, EF_TARGET_HOURS, EF_SEQ_LEN, EF_GLOBAL_BATCH_TOKENS, EF_EVAL_TOKENS,
	EF_RECOMPUTE, EF_METHOD, EF_LORA_RANK, EF_TRAINING_STACK, EF_DP_OVERLAP, EF_MTP,
	EF_TP, EF_PP, EF_VP, EF_CP, EF_CP_COMM, EF_EP, EF_ATTENTION_DP, EF_MICRO_BATCH,
	EF_STACK, EF_FORM_FACTOR, EF_MAX_POWER_KW, EF_BUDGET_USD,
	EF_OBJECTIVE, EF_ACCELERATOR, EF_GPUS, EF_SPARE_NODES, EF_BATCH, EF_TOKEN_BUDGET, EF_RACK_KW,
	EF_COOLING, EF_FABRIC, EF_FABRIC_SPEED, EF_NODE_GPUS, EF_PLATFORM, EF_STORAGE_TB,
	EF_YEARS, EF_ELECTRICITY, EF_PUE, EF_UTILISATION, EF_COLOCATION, EF_LICENCE,
	EF_SUPPORT_YEARS, EF_SUPPORT_FRACTION, EF_RENT_TERM,
	EF_COUNT
};

enum engine_field_type {
	EFT_ENUM,		/* an int-sized enum (or int) named by ->choice */
	EFT_INT, EFT_LONG, EFT_DOUBLE,
	EFT_MODEL,		/* const struct catalog_model * (catalog or custom) */
	EFT_ACCEL,		/* const struct catalog_accel * */
	EFT_DRAFT,		/* const struct catalog_model *: a catalog id or "mtp" */
	EFT_PLATFORM,		/* const struct catalog_platform *: a catalog id */
};


#define ENGINE_CLASS(c) (1u << (c))
#define ENGINE_CLASSES_ALL (ENGINE_CLASS(WL_INFERENCE) | ENGINE_CLASS(WL_PRETRAIN) | ENGINE_CLASS(WL_FINETUNE))

/* Bounds, in the units the user types (days for --days, billions for
 * "params_b").  zero_none: 0 is also accepted (no target, no limit). */
struct engine_field_limit {
	double min, max;
	bool integer;
	bool zero_none;
	const char *zero_word;		/* what 0 means when zero_none: "none" unless set */
};

struct engine_choice {
	int first, count;		/* values first .. first + count - 1 */
	const char *(*name)(int v);
	bool (*parse)(const char *s, int *v);	/* accepts aliases too */
};

struct engine_field {
	const char *key;		/* scenario key; NULL = not in scenario files */
	const char *section;		/* "workload", "filters", "node" or "" (top) */
	const char *flag;		/* option without "--"; NULL = none */
	const char *arg, *help;		/* --help: "N", "inference: prompt tokens per request" */
	enum engine_field_type type;
	size_t off;			/* in struct workload */
	unsigned classes;		/* ENGINE_CLASS() bits it applies to */
	bool lora_only;			/* fine-tuning: meaningless for a full fine-tune */
	bool omit_zero;			/* 0 (the engine chooses) is not written to scenario files */
	/* numbers (EFT_INT, EFT_LONG, EFT_DOUBLE), as typed; stored = typed x scale */
	struct engine_field_limit lim;
	enum number_syntax syntax;	/* how it is typed (number.h) */
	double scale;			/* 0 means 1 */
	const char *unit;		/* "tok/request", "ms", "USD" */
	const char *word;		/* a value besides numbers: "max", "auto", "default" */
	const char *bare;		/* the flag alone (no value) means this word */
	const struct engine_choice *choice;	/* EFT_ENUM */
	/* the wizard */
	const char *label, *hint;
	double step;			/* +/-: > 0 adds, 0 doubles and halves */
	double start;			/* +/- from none starts here */
	/* defaults: def[cls] for each class in def_classes, set when the
	 * workload takes that class (engine_workload_class_defaults()) */
	unsigned def_classes;
	double def[WL_COUNT];
};

const struct engine_field *engine_field(enum engine_field_id id);
/* By flag (with or without "--"), or by section and scenario key; NULL if
 * none. */
const struct engine_field *engine_field_by_flag(const char *flag);
const struct engine_field *engine_field_by_key(const char *section, const char *key);
/* The field's stored value as a double (numbers and enums); the scale is
 * not undone. */
double engine_field_get(const struct workload *w, const struct engine_field *f);
/* The bytes the field takes in struct workload at f->off. */
size_t engine_field_size(const struct engine_field *f);
void engine_field_put(struct workload *w, const struct engine_field *f, double stored);
/* A field's word ("max", "auto", "default": the engine chooses): whether
 * the workload holds it, and setting it.  Concurrency's word is its own
 * flag (concurrency_max); every other word is stored as -1. */
bool engine_field_is_word(const struct workload *w, const struct engine_field *f);
void engine_field_put_word(struct workload *w, const struct engine_field *f);
/* A model's parameter count from its shapes (the rule, engine_workload.c:
 * embedding and output head, tied or not; per layer the attention
 * projections, GQA or MLA, and the feed-forward, dense or the routed and
 * shared experts with their router, leading dense layers at their own
 * width; norms and biases, under 0.01% of a model, are left out), and the
 * parameters one token passes through (all but the routed experts it is not
 * sent to).  For a model given by its shapes only (--model-config). */
double engine_model_params(const struct catalog_model *m, bool tied_embeddings);
double engine_model_active_params(const struct catalog_model *m, bool tied_embeddings);
/* The bounds of a model figure (CATALOG_MODEL_FIGURES), as a field's. */
struct engine_field_limit engine_model_figure_limit(const struct catalog_model_figure *f);

/* "1 to 100000000" or "0.1 to 100000, or 0 for none"; returns buf. */
char *engine_field_range(const struct engine_field_limit *l, char *buf, size_t n);
bool engine_field_ok(const struct engine_field_limit *l, double v);
/* On failure writes "out of range (RANGE)" or "not a whole number". */
bool engine_field_check(const struct engine_field_limit *l, double v, char *why, size_t whysz);

/* What the workload needs, independent of the accelerator. */
struct engine_requirements {
	double weights_gb;		/* stored weights, whole model */
	double kv_bytes_per_token;	/* whole model, unsplit */
	double kv_gb;			/* for the requested concurrency and context */
	double activations_gb;		/* training, per micro-batch, unsplit */
	double optimizer_gb;		/* training model state, unsharded */
	double trained_params;		/* full model or adapters */
	double adapter_params;		/* LoRA/QLoRA; 0 otherwise */
	double flops_total;		/* training run, or per request for inference */
	double flops_per_token;		/* decode, 2 x active params */
	double bytes_per_token;		/* moved per decode step, batch of one */
	double link_bytes_per_step;	/* exchanged between GPUs per step */
	/* speculative decoding (engine_spec.c); spec_tokens 0 = none */
	int spec_tokens;		/* drafted per target step */
	double spec_tokens_per_step;	/* expected tokens a target step yields */
	double spec_draft_cost;		/* a draft token's cost, share of a target step */
	double spec_speedup;		/* expected speed-up of one user's decode */
};

/* The draft model that stands for the target's own multi-token
 * prediction modules (--draft-model mtp). */
extern const struct catalog_model engine_draft_mtp;
/* Can d draft for m: m's own MTP modules, or a model with m's vocabulary
 * and fewer active parameters.  The one rule the validation and the
 * wizard's draft choice use. */
bool engine_draft_fits(const struct catalog_model *m, const struct catalog_model *d);

/* The longest reason a result holds, with its NUL. */
#define ENGINE_REASON_MAX 192

/* The figures that carry an error band, and the band: where the true
 * value lies by the published validation results that cover it
 * (accuracy.h fills it after engine_run; the engine leaves n 0, which
 * reads "unvalidated"). */
enum engine_band_figure {
	BAND_OUTPUT_TOKENS_PER_S, BAND_TOKENS_PER_S_PER_USER, BAND_TTFT_MS,
	BAND_TRAIN_HOURS, BAND_GPU_HOURS, BAND_COUNT
};
struct engine_band {
	double low, high;		/* same unit as the figure */
	int n;				/* validation results behind it; 0 = none */
};

struct engine_result {
	const struct catalog_accel *accel;
	const struct catalog_platform *platform;
	const struct catalog_fabric *fabric;	/* NULL when one node */
	/* the fabric's links are its copper part (fabric->copper_sku): the
	 * whole cluster in one rack; else its optics (cable_sku) */
	bool fabric_copper;
	/* serving: the stack the figures assume (NULL: training, or a catalog
	 * without serving-stacks/) */
	const struct catalog_serving_stack *serving_stack;
	/* training: the stack the figures assume (NULL: serving, or none in
	 * the catalog runs on the accelerator) */
	const struct catalog_training_stack *training_stack;
	int rank;			/* 1-based, in the ranked report */
	bool fits;			/* can meet the workload at all */
	bool filtered;			/* excluded by a filter */
	char filter_reason[128];
	enum resource binding;
	char reason[ENGINE_REASON_MAX];		/* one line a customer understands */
	enum precision precision_used;
	bool precision_fallback;

	int gpus, nodes, spare_nodes;
	int tp, pp, dp, ep, zero_stage, replicas;
	bool attention_dp;		/* inference: attention data parallel over the
					 * ep GPUs, experts sharded across them */
	int cp, micro_batch;		/* training: context parallel, sequences per micro-batch */
	enum recompute recompute_used;	/* training: what the layout recomputes */
	long batch_per_replica;

	double mem_required_gb;		/* whole job */
	double mem_per_gpu_gb;		/* needed on each GPU */
	double mem_avail_per_gpu_gb;	/* usable on each GPU */
	double mem_util_pct, bw_util_pct, link_util_pct;

	/* inference; NAN where it does not apply */
	double output_tokens_per_s, tokens_per_s_per_user, ttft_ms, step_ms;
	/* at the load served: first-token time (queue, step in progress and
	 * the prompt's own chunks) at p50 and p99, and the p99 time per
	 * output token; ttft_ms is one request's prefill alone */
	double ttft_p50_ms, ttft_p99_ms, tpot_p99_ms;
	double arrival_rate;		/* requests/s served at that load */
	/* speculative decoding (engine_spec.c) as sized: tokens drafted a
	 * step (0 = none), the acceptance it assumed and the tokens a step
	 * of the model yields on average */
	int spec_k;
	double spec_acceptance, spec_tokens_per_step;
	/* --disaggregated: the two pools (gpus is their sum; the other
	 * serving figures are the decode pool's, the first-token times the
	 * prefill pool's plus the KV transfer) and the aggregated layout's
	 * GPUs for the same workload (0: it cannot meet it) */
	bool disaggregated;
	int prefill_gpus, decode_gpus, aggregated_gpus;
	double kv_transfer_ms;
	/* training; NAN where it does not apply */
	double train_hours, gpu_hours, scaling_efficiency, step_s, mfu;
	double samples_per_s;		/* training sequences per second */
	/* training: share of wall-clock time spent on training steps, after
	 * interruptions (restart, lost work) and checkpoint writes;
	 * train_hours and gpu_hours include it */
	double goodput;
	double interruptions_per_day;	/* expected for the job's GPU count */

	/* fabric for more than one node */
	int nics, leaf_switches, spine_switches, cables;

	double capex_usd, power_kw, rack_units, racks;
	/* Every money figure of the result is in this currency (the price
	 * list's, ISO 4217; "USD" without one), despite the _usd names. */
	const char *currency;
	double rack_kw;			/* the limit racks were sized at */
	bool rack_kw_set;		/* from the workload (--rack-kw), not
					 * defaults.rack_kw */
	double energy_kwh_year, usd_per_hour;
	double usd_per_mtok;		/* inference; NAN otherwise */
	double run_cost_usd;		/* training; NAN otherwise */
	double perf_per_watt;		/* output (inference) or trained (training)
					 * tokens/s per W of cluster power */
	/* Total cost of ownership over tco_years (engine_tco_inputs()):
	 * capex (the quote, support for defaults.support_years included) +
	 * energy + colocation + support renewed after the quoted term +
	 * licences.  The parts add up to tco_usd; engine_tco_year() splits
	 * them by year.  usd_per_hour, usd_per_mtok and run_cost_usd spread
	 * the TCO over its years. */
	int tco_years;
	double tco_usd, tco_energy_usd, tco_colocation_usd, tco_support_usd, tco_licence_usd;
	double tco_support_usd_year;	/* the renewal, per year after the term */
	double tco_licence_usd_year;	/* the licences' renewal, per year after it */
	int tco_support_years_paid;	/* years of support inside capex */
	/* Rent or buy (engine_rent()), against the cheapest rental term
	 * with a price (rent_basis, enum engine_rent_term; -1: none):
	 * rent_usd renting the working GPUs for the training run, or for a
	 * year of serving; breakeven_months the first month buying's
	 * cumulative cost is at or below renting's, INFINITY when not within
	 * tco_years; both NAN without a rental price. */
	double rent_usd, breakeven_months;
	int rent_basis;
	/* The term asked for (--rent-term, the scenario, the price list's
	 * RENT-TERM; enum engine_rent_term), -1 = auto: the cheapest priced.
	 * A term asked for and not priced leaves rent_basis -1. */
	int rent_asked;

	/* Added for the BOM, the reports and the wizard's node screen. */
	enum workload_class cls;	/* the class this result was sized for */
	int virtual_stages;		/* training: interleaved pipeline chunks per GPU */
	int gpus_installed;		/* accelerators bought: full baseboards and
					 * spare nodes included (PCIe: cards used) */
	int gpus_per_node;
	double link_gb_s_used;		/* per GPU, one direction, TP traffic */
	double nic_gb_s_per_gpu;	/* scale-out bandwidth per GPU, GB/s */
	/* capex_usd is the quote: the BOM's total to the cent (engine_quote()),
	 * and the five parts below add up to it exactly.  hardware = GPUs and
	 * servers with their parts (capex_gpus_usd + capex_nodes_usd); fabric =
	 * NICs the servers lack, switches, cables; racks = enclosures and PDUs;
	 * support = the hardware support contract; services = installation
	 * and burn-in. */
	double capex_hardware_usd, capex_fabric_usd, capex_racks_usd;
	double capex_support_usd, capex_services_usd, capex_licences_usd, capex_margin_usd;
	double capex_gpus_usd, capex_nodes_usd;
	bool accel_priced;		/* the GPU has a price (catalog or price list) */
	/* Quote lines with no price in the catalog or the price list (the
	 * front-end and OOB networks' parts, storage, a GPU the catalog
	 * cannot price): capex and every figure built on it exclude them, and
	 * the reports say so (unpriced_lines). */
	int unpriced_lines;
	/* Where the time goes (inference: one decode step at the batch;
	 * training: one step), seconds; NAN where it does not apply. */
	double t_compute_s, t_memory_s, t_comm_s, t_bubble_s;
	double prefill_s;		/* inference: prefill of one request batch */
	long max_batch_per_replica;	/* inference: KV room for this many */
	double tokens_per_s_per_gpu;	/* inference output, or training tokens */
	/* Serving on GPU partitions (MIG): the profile each replica runs on
	 * and how many of them one GPU holds; NULL and 0 on whole GPUs.  The
	 * per-GPU memory figures are then per partition. */
	const struct catalog_partition *partition;
	int partitions_per_gpu;

	/* The reason before it is written: its format and figures.  The
	 * sentence is most of the cost of an inference evaluation, and a
	 * sweep or a ranking needs only a few of them, so the engine keeps
	 * what it needs and writes the text on demand.  When reason_fmt is
	 * set, reason[] is empty: read the text with engine_result_reason(),
	 * which works either way.  engine_evaluate() and engine_run() (unless
	 * the report asks for lazy reasons) write reason[] before returning. */
	const char *reason_fmt;
	union engine_reason_arg { long l; double d; const char *s; } reason_args[12];

	struct engine_band band[BAND_COUNT];
};

/* The result's reason as text: r->reason when it is written, else written
 * into buf (at most n - 1 bytes and never more than reason[] holds, so the
 * text is the same either way).  Returns r->reason or buf; "" when there
 * is none. */
const char *engine_result_reason(const struct engine_result *r, char *buf, size_t n);
/* What a person reads about the result, for every front end: the filter's
 * reason when it was filtered out, else engine_result_reason(). */
const char *engine_result_why(const struct engine_result *r, char *buf, size_t n);
/* A result's layout as tables show it: "2x TP4", "4x 1g.20gb",
 * "TP8 PP1 DP2 Z1"; "-" without GPUs.  cls: the workload's class. */
void engine_result_layout(const struct engine_result *r, enum workload_class cls, char *buf, size_t n);

struct engine_report {
	struct engine_requirements req;
	struct engine_result *results;	/* ranked: fitting first */
	size_t n;
	size_t n_fitting;		/* fitting and not filtered */
	/* false (engine_report_init): engine_run() writes every reason[];
	 * true: it leaves them to engine_result_reason() (sweep). */
	bool lazy_reasons;
	/* Private to the engine: scratch space allocated by
	 * engine_report_init() so that engine_run() never allocates. */
	struct engine_result *scratch_;
	size_t *order_;
	double *key_;			/* each scratch_ result's ranking key, per run */
	struct eng_tcache *tcache_;	/* the training search's, per run */
	size_t cap_;
};

/* Allocates room for one result per catalog accelerator. */
bool engine_report_init(struct engine_report *r, const struct catalog *c);
void engine_report_fini(struct engine_report *r);

void engine_requirements(const struct catalog *c, const struct workload *w,
			 struct engine_requirements *out);
/* Sizes one accelerator (honouring w->gpus only when w->accel is this
 * accelerator; w->spare_nodes applies to every accelerator). */
/* The serving stack a workload runs on accelerator a: the one it names, or
 * a's vendor default (catalog/serving-stacks/).  NULL when the one it names
 * does not run on a's software platform, or the catalog has no stack for
 * it; *on gets the stack's figures there (NULL with it). */
const struct catalog_serving_stack *engine_serving_stack(const struct catalog *c, const struct workload *w,
							 const struct catalog_accel *a,
							 const struct catalog_stack_platform **on);

/* The training stack a workload runs on accelerator a: the one it names,
 * or a's vendor default (catalog/training-stacks/).  NULL when the one it
 * names does not run on a's software platform, or the catalog has none
 * for it (a's own figures then). */
const struct catalog_training_stack *engine_training_stack(const struct catalog *c, const struct workload *w,
							   const struct catalog_accel *a);

/* The share of the peak a training workload's math reaches on a: its
 * stack's own for a's family and the precision it trains at, else a's
 * efficiency.training* (or defaults.training_mfu), with its source. */
const struct sourced *engine_training_share(const struct catalog *c, const struct workload *w,
					    const struct catalog_accel *a);

void engine_evaluate(const struct catalog *c, const struct workload *w,
		     const struct catalog_accel *a, struct engine_result *out);
/* Evaluates and ranks the whole catalog into r. */
void engine_run(const struct catalog *c, const struct workload *w, struct engine_report *r);
/* The result for an accelerator in a report, or NULL. */
const struct engine_result *engine_report_find(const struct engine_report *r,
					       const struct catalog_accel *a);

/*
 * The serving trade-off (docs/design.md, "The trade-off curve"): for an
 * inference result op, one replica of op's layout at batch 1, 2, 4, ... up
 * to the most its KV room holds (and op's own batch), each point the
 * engine's figures for that batch without the latency targets, which are
 * then marked: output tokens/s per GPU against tokens/s per user.  The
 * wizard's chart (step 3, g), `sweep --curve` and the proposal's chart
 * all read this.  Pure; false (n = 0) for training or a result that does
 * not fit.
 */
#define ENGINE_CURVE_MAX 24
struct engine_curve_point {
	long batch;			/* sequences one replica runs at once */
	double tokens_per_s_per_gpu;	/* output tokens/s per GPU */
	double tokens_per_s_per_user;
	double ttft_ms;			/* p99 at the point's load, else one prefill */
	bool meets_targets;		/* the workload's per-user and first-token targets */
};
struct engine_curve {
	const struct catalog_accel *accel;
	struct engine_curve_point pts[ENGINE_CURVE_MAX];	/* batch ascending */
	size_t n;
	struct engine_curve_point op;	/* the operating point, as op states it */
	double target_tokens_per_s_per_user, target_ttft_ms;	/* 0 = none */
};
bool engine_tradeoff_curve(const struct catalog *c, const struct workload *w, const struct engine_result *op,
			   struct engine_curve *out);

/*
 * The quote: every line a configuration is bought with, priced, in the
 * order the BOM lists them.  One computation for the engine's capex and
 * for bom.c, which only formats these lines (descriptions, notes, CSV), so
 * the two cannot drift.  Money is integer cents: each line's extended
 * price is qty x unit exactly, support is rounded once.
 *
 * Prices: the workload's price list (w->prices) by SKU wins over the
 * catalog.  An accelerator's SKU is its catalog id; the lines the catalog
 * has no part number for use the generic SKUs below.  Quantities: the
 * result's sizing (working and spare nodes, installed GPUs, fabric, racks);
 * rack, PDU, support and burn-in figures from catalog/defaults.yaml.
 */
#define ENGINE_SKU_RACK "RACK"
#define ENGINE_SKU_PDU "PDU"
#define ENGINE_SKU_SUPPORT "SUPPORT"
#define ENGINE_SKU_BURN_IN "BURN-IN"
#define ENGINE_SKU_STORAGE "STORAGE"
#define ENGINE_SKU_MARGIN "MARGIN"

enum engine_quote_item {
	QUOTE_SERVER, QUOTE_ACCEL, QUOTE_PART, QUOTE_NIC, QUOTE_SWITCH, QUOTE_CABLE,
	QUOTE_RACK, QUOTE_PDU, QUOTE_SUPPORT, QUOTE_SERVICE, QUOTE_LICENCE, QUOTE_MARGIN, QUOTE_STORAGE,
	QUOTE_ITEM_COUNT
};
/* The capex breakdown, as the reports name it: capex_<name>_usd. */
enum engine_capex_part {
	CAPEX_HARDWARE, CAPEX_FABRIC, CAPEX_RACKS, CAPEX_SUPPORT, CAPEX_SERVICES, CAPEX_LICENCES,
	CAPEX_MARGIN, CAPEX_PART_COUNT
};
enum engine_capex_part engine_quote_part(enum engine_quote_item item);
const char *engine_capex_part_name(enum engine_capex_part p);	/* "hardware" */

struct engine_quote_line {
	enum engine_quote_item item;
	const char *sku;		/* borrowed (catalog or ENGINE_SKU_*); "" if none */
	const char *description;	/* the catalog's; NULL for generic lines */
	const struct catalog_bom_line *part;	/* QUOTE_PART: the platform's line */
	long qty;
	int64_t catalog_cents;		/* the catalog's (computed, for support) unit price; 0 = none */
	const struct price_entry *price;	/* the price list's entry, or NULL */
	int32_t discount_upct;		/* the list's discount applied (line or category) */
	const struct catalog_licence *licence;	/* QUOTE_LICENCE from the catalog, or NULL */
	const struct catalog_network *network;	/* QUOTE_SWITCH, QUOTE_CABLE of a front-end or
						   OOB network (not the scale-out fabric), or NULL */
	bool optics;			/* QUOTE_CABLE of a network: across racks */
	int years;			/* QUOTE_SUPPORT, QUOTE_LICENCE: the term */
	bool fixed;			/* priced by the engine (margin, licence rate): no list lookup */
	int64_t unit_cents;		/* charged: the price list's, else catalog_cents */
	int64_t extended_cents;		/* qty x unit_cents */
	double power_w_each, rack_units_each;
	int64_t support_base_cents;	/* QUOTE_SUPPORT: the hardware it covers */
	long racks_bought;		/* QUOTE_RACK, QUOTE_PDU: enclosures bought */
};

struct engine_quote_totals {
	int64_t parts_cents[CAPEX_PART_COUNT];
	int64_t licence_year_cents;	/* the licences of every GPU for one year */
	int64_t gpus_cents, nodes_cents;	/* inside CAPEX_HARDWARE */
	int64_t total_cents;
	bool accel_priced;
	int unpriced_lines;		/* lines quoted with no price (not in total_cents) */
	bool overflow;			/* amounts past int64 cents: totals invalid */
};

/* How far a result's money figures can be read (capex, TCO, $/Mtok, run
 * cost): PRICE_FULL when every quote line has a price, PRICE_PARTIAL when
 * some lines have none (the figures leave them out: shown with a mark),
 * PRICE_UNKNOWN when the accelerator itself has none (the figures would
 * leave out the GPUs: shown as no figure, and a cost ranking puts it after
 * every priced one).  One rule for the CLI, the wizard and the ranking. */
enum engine_price_state { PRICE_FULL, PRICE_PARTIAL, PRICE_UNKNOWN };
enum engine_price_state engine_price_state(const struct engine_result *r);

/* The BOM category of a quote line ("accelerator", "network", ...: the
 * words of bom.h and of a price list's category column). */
const char *engine_quote_category(const struct engine_quote_line *l);

/* Calls fn (may be NULL) for each line with qty > 0 and fills *t.  r must
 * be sized (r->platform set); otherwise no lines and zero totals. */
void engine_quote(const struct catalog *c, const struct workload *w, const struct engine_result *r,
		  void (*fn)(const struct engine_quote_line *l, void *ctx), void *ctx,
		  struct engine_quote_totals *t);

/*
 * Several workloads on one cluster of one accelerator (issue 18): each
 * workload is sized on its own (engine_evaluate), then the cluster holds
 * them all.  Serving workloads get dedicated cards; those sized on MIG
 * slices of the same profile share cards (replicas pooled, max_per_gpu a
 * card) when that saves cards over whole GPUs, else those take whole
 * GPUs (item.used says which).  Training and fine-tuning get their own
 * cards, or with
 * share_gpus run on the serving cards for their share of the week, which
 * costs serving that share of the cards they take (serving_headroom_pct).
 * engine_cluster_size() is pure and does not allocate; more than
 * ENGINE_CLUSTER_MAX items do not fit.
 */
#define ENGINE_CLUSTER_MAX 16	/* workloads on one cluster */
struct engine_cluster_item {
	const struct engine_result *r;	/* the workload's result on this accelerator,
					 * sized with workload.share_cards */
	double share;			/* training: share of the week it runs, 0 < share <= 1 */
	const struct workload *w;	/* its workload, or NULL (for the plan's text) */
	const char *name;		/* its name, or NULL */
	const struct engine_result *whole; /* sized alone (no share_cards), or NULL =
					 * r; taken when r's slices save no card */
	const struct engine_result *used; /* out: the one the cluster holds */
	int cards;			/* out: the cluster's cards it runs on: its own
					 * GPUs, or the cards of its MIG pool */
	int sharing;			/* out: workloads on those cards at once: its
					 * pool's (slices of one profile), else 1 */
};
struct engine_cluster {
	bool fits;			/* every workload fits this accelerator */
	int serving_gpus, training_gpus;
	bool time_shared;		/* training runs on serving cards */
	double serving_headroom_pct;	/* serving capacity given to training, % of a week */
	struct engine_result total;	/* gpus, nodes, capex, power of the whole */
};
void engine_cluster_size(const struct catalog *c, const struct workload *w,
			 struct engine_cluster_item *items, size_t n, bool share_gpus,
			 struct engine_cluster *out);
/* The TCO's assumptions as the engine uses them: the workload's value,
 * else the price list's line (SKU COLOCATION: USD per kW per month;
 * LICENCE: USD per GPU per year), else catalog/defaults.yaml.  Each with
 * where it came from ("--pue", "price list", "catalog"), for the
 * proposal's list of assumptions. */
#define ENGINE_SKU_COLOCATION "COLOCATION"
#define ENGINE_SKU_LICENCE "LICENCE"
#define ENGINE_SKU_ELECTRICITY "ELECTRICITY"
#define ENGINE_SKU_PUE "PUE"
#define ENGINE_SKU_UTILISATION "UTILISATION"
#define ENGINE_SKU_TCO_YEARS "TCO-YEARS"
#define ENGINE_SKU_SUPPORT_FRACTION "SUPPORT-FRACTION"
enum engine_tco_input {
	TCO_YEARS, TCO_ELECTRICITY, TCO_PUE, TCO_UTILISATION, TCO_COLOCATION, TCO_LICENCE,
	TCO_SUPPORT_YEARS, TCO_SUPPORT_FRACTION, TCO_INPUT_COUNT
};
/* The price list's line for an input (ELECTRICITY, PUE, ...), or NULL. */
const char *engine_tco_sku(enum engine_tco_input i);
/* Whether the engine reads this price-list SKU as a setting (a TCO input,
 * a rental rate, CURRENCY, MARGIN) rather than a part. */
bool engine_price_setting(const char *sku);
/* Checks the price list's settings against the bounds of the workload
 * fields they stand for; "FILE:LINE:COL: message" in err. */
bool engine_prices_valid(const struct prices *p, char *err, size_t n);
enum engine_tco_origin { TCO_FROM_CATALOG, TCO_FROM_WORKLOAD, TCO_FROM_PRICES };
struct engine_tco_inputs {
	double v[TCO_INPUT_COUNT];
	enum engine_tco_origin from[TCO_INPUT_COUNT];
};
void engine_tco_inputs(const struct catalog *c, const struct workload *w, struct engine_tco_inputs *out);
/* The field (engine_field()) and the default (CATALOG_DEFAULTS key) of
 * an input. */
enum engine_field_id engine_tco_field(enum engine_tco_input i);
const char *engine_tco_default_key(enum engine_tco_input i);

/* One year of the TCO (1-based; the capex falls in year 1). */
struct engine_tco_year {
	double capex_usd, energy_usd, colocation_usd, support_usd, licence_usd, total_usd;
};
void engine_tco_year(const struct engine_result *r, int year, struct engine_tco_year *out);

/*
 * Rent or buy: what the same GPUs cost to rent, and the month buying
 * breaks even.  Rates per GPU-hour come from the price list (SKUs
 * RENT-ON-DEMAND:<accelerator id>, RENT-1Y:<id>, RENT-3Y:<id>, in the
 * list's currency), else the catalog (accelerator rent.*, USD, converted at
 * the list's rate).  The rented GPUs are the working ones (r->gpus: a
 * provider replaces a failed one, so spares are not rented).  A month is
 * ENGINE_HOURS_PER_MONTH hours; serving rents them every hour (a service
 * is always up), training for the hours the cluster is busy
 * (utilisation).  Buying: capex in month 0, then each month a twelfth of
 * that year's energy, colocation, licences and support renewal
 * (engine_tco_year()).  Pure: the result and the catalog in, *out filled.
 * docs/design.md, "Rent or buy".
 */
#define ENGINE_HOURS_PER_MONTH (8766.0 / 12)
#define ENGINE_SKU_RENT_PREFIX_OD "RENT-ON-DEMAND:"
#define ENGINE_SKU_RENT_PREFIX_1Y "RENT-1Y:"
#define ENGINE_SKU_RENT_PREFIX_3Y "RENT-3Y:"
enum engine_rent_term { RENT_ON_DEMAND, RENT_1Y, RENT_3Y, RENT_TERM_COUNT };
const char *engine_rent_term_name(enum engine_rent_term t);	/* "1-year reserved" */
const char *engine_rent_term_key(enum engine_rent_term t);	/* "reserved-1y" */
/* The accelerator id a RENT-...: price-list SKU names, or NULL for any
 * other SKU. */
const char *engine_rent_sku_accel(const char *sku);
/* The price-list SKU of a term's rate for an accelerator ("RENT-1Y:b200"). */
char *engine_rent_sku(enum engine_rent_term t, const char *accel_id, char *buf, size_t n);
struct engine_rent {
	double rate[RENT_TERM_COUNT];	/* per GPU-hour; 0 = no price */
	bool from_prices[RENT_TERM_COUNT];	/* the price list's, not the catalog's */
	double month[RENT_TERM_COUNT];	/* renting the GPUs one month */
	double rent[RENT_TERM_COUNT];	/* the run (training) or a year (serving) */
	int breakeven[RENT_TERM_COUNT];	/* month; 0 = not within the TCO years */
	/* buying has no price to break even against: the GPU has none
	 * (PRICE_UNKNOWN), so breakeven stays 0 and no front end says a month */
	bool buy_unpriced;
	int basis;			/* the term judged against: the one asked
					 * for, else (auto) the one costing least
					 * for the need; -1 = none priced */
	int asked;			/* enum engine_rent_term asked, -1 = auto */
	enum engine_tco_origin asked_from;	/* who asked: flag/scenario, price list */
	int horizon_months;		/* tco_years x 12 */
};
void engine_rent(const struct catalog *c, const struct workload *w, const struct engine_result *r,
		 struct engine_rent *out);
/* The term asked for (--rent-term / costs.rent_term, else the price
 * list's RENT-TERM line: 0, 1 or 3 years), -1 = auto; who asked in *from. */
int engine_rent_term_asked(const struct workload *w, enum engine_tco_origin *from);
/* "3-year reserved  (your input)", or the auto rule, for the summary and
 * the proposal. */
void engine_rent_term_line(const struct engine_rent *rb, char *buf, size_t n);
/* Buying's cumulative cost by the end of month m (0 = the capex alone). */
double engine_buy_cumulative(const struct engine_result *r, int month);
/* "buying breaks even after 17 months against 1-year reserved rental", or
 * why there is no answer; the same sentence for every front end. */
void engine_rent_statement(const struct engine_result *r, char *buf, size_t n);
/* Its first half, for a narrow column: "buying breaks even after 17
 * months" (against the term rent_basis names), or why there is none. */
void engine_rent_breakeven(const struct engine_result *r, char *buf, size_t n);

/*
 * The rack elevation (engine_rack.c; docs/design.md, "The rack
 * elevation"): which node sits in which rack at which unit, where the
 * switches go, and what each rack draws.  The engine's rack count is this
 * packing's (eng_cost() calls it), so the BOM's racks and PDUs, the
 * elevation and the wizard agree.  Pure, no allocation: engine_elevation()
 * computes the plan in closed form from a sized result, and
 * engine_elevation_rack() lists one rack's contents on demand.
 */
enum engine_rack_kind {
	RACK_NODE, RACK_SPARE, RACK_LEAF, RACK_SPINE,
	RACK_FRONTEND, RACK_OOB,	/* the facility networks' switches (defaults.networks) */
	RACK_KIND_COUNT
};
/* The facility networks the elevation places (the catalog's first ones). */
#define ENGINE_FACILITY_MAX 4
struct engine_rack_slot {
	enum engine_rack_kind kind;
	int u;				/* lowest unit it occupies, 1 = bottom */
	int height;			/* rack units */
	int number;			/* 1-based: nodes (working, then spares)
					 * and switches (leaves, then spines;
					 * each facility network's apart)
					 * numbered across the whole cluster */
	double watts;			/* what it draws, maximum */
	const char *sku;		/* a facility switch's (the network's); NULL: the
					 * platform's or the fabric's */
};
struct engine_elevation {
	const struct catalog_platform *platform;
	const struct catalog_fabric *fabric;
	int racks;			/* compute_racks + network_racks */
	int compute_racks;		/* racks holding nodes */
	int network_racks;		/* racks holding only switches */
	int rack_u;			/* units of a standard rack (defaults.rack_units) */
	double rack_kw;			/* the limit racks were packed at */
	bool rack_kw_set;		/* --rack-kw, not defaults.rack_kw */
	bool whole_rack;		/* a node is a rack of its own (NVL72) */
	bool over_kw;			/* one node alone draws more than rack_kw */
	int nodes, spare_nodes;		/* working and spare */
	int leaf_switches, spine_switches;
	int nodes_per_rack;		/* every compute rack but perhaps the last */
	int switches_per_compute_rack;	/* fitted above the nodes of a full rack */
	int switches_in_compute_racks;	/* all of them, the last rack included */
	int switches_per_network_rack;
	int node_u, switch_u;
	double node_w;			/* the server's max_power_w + the fabric NICs
					 * it does not already carry */
	double switch_w;		/* a switch + its share of the transceivers */
	int pdus_per_rack;		/* bought racks only (not a whole-rack node) */
	/* The facility networks' switches (defaults.networks, in order:
	 * front-end, then out-of-band), placed after the scale-out ones: in
	 * the room the compute racks and then the network racks leave below
	 * their switches, rack after rack from the first, and what does not
	 * fit in racks of their own (facility_racks, counted in racks). */
	int n_facility;
	struct engine_facility {
		enum engine_rack_kind kind;	/* RACK_FRONTEND or RACK_OOB */
		const char *sku;		/* the network's switch */
		int switches, u;
		double w;			/* the switch's power_w; 0: no figure */
	} facility[ENGINE_FACILITY_MAX];
	int facility_racks;
};
/* From r's platform, fabric, node and switch counts and rack_kw. */
void engine_elevation(const struct catalog *c, const struct engine_result *r,
		      struct engine_elevation *e);
/* Rack i (0-based), top down, into slots[0..max); returns how many slots
 * it holds (even past max) and its draw in *kw (may be NULL). */
size_t engine_elevation_rack(const struct engine_elevation *e, int i,
			     struct engine_rack_slot *slots, size_t max, double *kw);
/* One line for rack i: "rack 1: nodes 1-4 U1-32, leaf 1 U42; 40.8 of 40 kW". */
char *engine_elevation_rack_line(const struct engine_elevation *e, int i, char *buf, size_t n);
/* Its contents alone, bottom up: "node 1-4 U1-32, leaf 1 U42". */
char *engine_elevation_rack_contents(const struct engine_elevation *e, int i, char *buf, size_t n);
const char *engine_rack_kind_name(enum engine_rack_kind k);	/* "node", "spare node", ... */

/* Step 5 of the brief: what to run on the candidate hardware. */
#define ENGINE_PLAN_MAX 6
struct engine_plan_row {
	char benchmark[96];
	char metric[48];
	char unit[16];
	double predicted;
	double threshold;
	bool higher_is_better;
	char notes[256];
};
struct engine_plan {
	struct engine_plan_row rows[ENGINE_PLAN_MAX];
	size_t n;
};
void engine_validation_plan(const struct catalog *c, const struct workload *w,
			    const struct engine_result *res, struct engine_plan *out);
/* The shared cluster's plan (after engine_cluster_size()): every serving
 * workload at load at once, serving while training runs (on its own GPUs,
 * or time-sharing the serving ones at the headroom cost), and the
 * cluster's all-reduce across nodes. */
void engine_cluster_plan(const struct catalog *c, const struct engine_cluster_item *items, size_t n,
			 const struct engine_cluster *cl, struct engine_plan *out);

#endif
