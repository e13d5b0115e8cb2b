/*
 * catalog: the hardware, model and default figures accelsizer reasons with.
 *
 * The catalog is a folder of YAML files (accelerators/, platforms/,
 * fabrics/, models/, defaults.yaml).  catalog_load() reads all of them into
 * plain structs owned by one struct catalog; nothing here is global and
 * nothing here prints.  Every figure keeps the file and line it came from so
 * that `catalog show` and error messages can point at it.
 *
 * Ownership: catalog_load() returns a catalog the caller frees with
 * catalog_free(); every pointer inside it belongs to that catalog.
 */
#ifndef ACCELSIZER_CATALOG_H
#define ACCELSIZER_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

/* Numeric precisions.  The first block are the ones a workload can ask for;
 * PREC_TF32 and PREC_FP64 only exist as accelerator peaks. */
enum precision {
	PREC_FP32,
	PREC_BF16,
	PREC_FP16,
	PREC_FP8,
	PREC_INT8,
	PREC_INT4,
	PREC_FP4,
	PREC_MXFP4,
	PREC_W8A16,		/* fp8 weights, 16-bit activations (weight-only) */
	PREC_TF32,
	PREC_FP64,
	PREC_COUNT
};
#define PREC_WORKLOAD_COUNT (PREC_W8A16 + 1)

const char *precision_name(enum precision p);	/* "fp8" */
bool precision_parse(const char *s, enum precision *out);
double precision_bytes(enum precision p);	/* 4, 2, 2, 1, 1, 0.5, 0.5, 0.53125 */

enum form_factor { FORM_SXM, FORM_OAM, FORM_PCIE, FORM_SUPERCHIP, FORM_COUNT };
const char *form_factor_name(enum form_factor f);
bool form_factor_parse(const char *s, enum form_factor *out);

enum stack { STACK_CUDA, STACK_ROCM, STACK_GAUDI, STACK_COUNT };
const char *stack_name(enum stack s);
bool stack_parse(const char *s, enum stack *out);

/* The serving stacks the engine knows (catalog/serving-stacks/ID.yaml holds
 * each one's figures, under the same id). */
enum serving_stack { SS_TENSORRT_LLM, SS_VLLM, SS_SGLANG, SS_OPTIMUM_HABANA, SS_COUNT };
const char *serving_stack_name(enum serving_stack s);	/* "tensorrt-llm" */
bool serving_stack_parse(const char *s, enum serving_stack *out);

/* The training stacks the engine knows (catalog/training-stacks/ID.yaml
 * holds each one's figures, under the same id). */
enum training_stack { TS_NEMO, TS_META, TS_AUTOMODEL, TS_MEGATRON_DEEPSPEED, TS_COUNT };
const char *training_stack_name(enum training_stack s);	/* "nemo" */
bool training_stack_parse(const char *s, enum training_stack *out);

/* Where a training stack's data-parallel exchange (the gradients'
 * reduce-scatter or all-reduce, the distributed optimizer's weight
 * all-gather) runs under compute, for ZeRO 0 and 1 (docs/accuracy.md,
 * "The data-parallel exchange per training stack"):
 *   backward         behind the whole step's backward pass, up to
 *                    defaults.training_overlap of it
 *   last-microbatch  the gradients behind the last micro-batch's backward
 *                    pass of each model chunk, the weights behind the next
 *                    step's first forward (Megatron-Core's
 *                    overlap_grad_reduce and overlap_param_gather)
 *   none             after the backward pass, in full */
enum dp_overlap { DPO_BACKWARD, DPO_LAST_MICROBATCH, DPO_NONE, DPO_COUNT };
const char *dp_overlap_name(enum dp_overlap o);	/* "last-microbatch" */
bool dp_overlap_parse(const char *s, enum dp_overlap *out);

/* Which of an accelerator's training figures a stack's share replaces:
 * efficiency.training (16-bit), training_fp8 or training_fp4. */
enum train_prec { TPREC_16, TPREC_FP8, TPREC_FP4, TPREC_COUNT };

enum topology { TOPO_SWITCHED, TOPO_MESH, TOPO_BRIDGED_PAIRS, TOPO_PCIE, TOPO_COUNT };
const char *topology_name(enum topology t);
bool topology_parse(const char *s, enum topology *out);

/* A figure with where it came from: value plus a free-text source, and
 * for a figure fitted to published measurements the ids of the ledger's
 * calibration entries it was set from (catalog/published/, see
 * ledger.h): "id, id" as listed, "" for an explicit empty list, NULL
 * when the key is absent. */
struct sourced {
	double value;
	char *source;
	char *calibrated_from;
};

struct price {
	double usd;		/* 0 = unknown */
	char *date;		/* "2024-06" */
	char *source;
};

/* One MIG (or like) partition profile of an accelerator, as the vendor
 * documents it: "1g.10gb" on an A100 80GB is one of 7 compute slices with
 * 10 GB, at most 7 of them per GPU. */
struct catalog_partition {
	char *profile;			/* the vendor's name: "1g.10gb" */
	double memory_gb;		/* memory of one instance, GB */
	int compute_slices;		/* compute slices one instance takes */
	int max_per_gpu;		/* instances of this profile one GPU holds */
};

/* One measured point of an all-reduce over a link domain: the message and
 * the time of one call (rccl-tests out-of-place, graph mode). */
struct catalog_ar_point {
	double bytes;			/* message, bytes */
	double us;			/* one call, us */
};

/* A serving stack on one accelerator software platform: whether it is that
 * vendor's default and its figures there (catalog/serving-stacks/). */
struct catalog_stack_platform {
	enum stack platform;
	bool is_default;		/* the vendor's best published stack */
	struct sourced compute;		/* factor on the accelerator's serving
					 * share of peak (efficiency.compute) */
	/* Fixed costs; value 0 = the defaults' (serving_step_overhead_us,
	 * serving_layer_overhead_us). */
	struct sourced step_overhead_us;	/* one iteration */
	struct sourced layer_overhead_us;	/* per layer of an iteration */
	/* The share of the memory left after the weights and the runtime that
	 * the stack gives its KV cache (TensorRT-LLM's
	 * kv_cache_free_gpu_mem_fraction); 0 = the accelerator's
	 * usable_fraction of the whole memory (vLLM's gpu_memory_utilization). */
	struct sourced kv_free_fraction;
	/* Activation buffers sized as this many layers' live tensors at the
	 * iteration's token budget (TensorRT's memory planner reuses one
	 * layer's buffers for the next); 0 = defaults.serving_workspace_gb.
	 * Dense models only: MoE keeps serving_workspace_moe_gb. */
	struct sourced activation_layers;
	/* The share of a sliding-window layer's tokens past its window that
	 * the stack's KV cache still stores: 1 = the whole sequence (one pool
	 * sized as if every layer saw the full context), 0 = the window only. */
	struct sourced window_kv_kept;
	/* 1: the stack runs attention data parallel with the experts sharded
	 * (DEP), so the layout search offers it for a mixture of experts;
	 * absent (0): DEP only when --attention-dp forces it. */
	struct sourced attention_dp;
};

struct catalog_serving_stack {
	char *id, *name;
	struct catalog_stack_platform *runs_on;
	size_t n_runs_on;
	char **sources;
	size_t n_sources;
	char *file;
	int line;
};

/* A training stack on one accelerator software platform. */
struct catalog_train_platform {
	enum stack platform;
	bool is_default;		/* the vendor's best published stack */
};

/* A stack's own share of the peak on one accelerator family at one
 * precision, in place of the accelerators' efficiency.training* figure
 * (those were measured on some stack each: their sources say which). */
struct catalog_train_share {
	char *family;			/* "Hopper": catalog_family_len() of the architecture */
	enum train_prec precision;
	struct sourced share;
};

struct catalog_training_stack {
	char *id, *name;
	struct catalog_train_platform *runs_on;
	size_t n_runs_on;
	struct catalog_train_share *efficiency;	/* none: every figure the accelerators' */
	size_t n_efficiency;
	enum dp_overlap dp_overlap;	/* absent: DPO_BACKWARD */
	char *dp_overlap_source;
	/* The host's time to issue one MoE layer's forward and backward of a
	 * micro-batch, ms, where the stack's token-dropless dispatcher
	 * synchronises the host with the GPU every MoE layer; value 0:
	 * absent (the host runs ahead, none of it shows). */
	struct sourced moe_host_layer_ms;
	char **sources;
	size_t n_sources;
	char *file;
	int line;
};

struct catalog_accel {
	char *id, *name, *vendor, *architecture;
	enum form_factor form;
	double mem_gb;			/* marketed ("80GB"): reasons and tables */
	double mem_addressable_gb;	/* what the runtime reports (nvidia-smi
					 * "Total", rocm-smi VRAM Total), GB;
					 * 0 = not given: mem_gb is used */
	char *mem_type;
	double mem_bw_tb_s;
	double mem_usable_fraction;	/* runtime reserve taken off */
	double peak_tflops[PREC_COUNT];	/* dense; 0 = unsupported */
	char *link_kind;
	double link_gb_s;		/* per GPU, both directions, GB/s */
	int link_domain;		/* GPUs reachable over the link */
	struct sourced link_ar_lat;	/* one all-reduce call of a small message
					 * over the link domain, measured, us;
					 * value 0 = the ring's 2(t - 1) x
					 * defaults.collective_latency_us */
	/* The measured time of one all-reduce over ar_curve_gpus GPUs of the
	 * domain by message size, increasing; none (n 0): the call latency
	 * above and the ring's bandwidth term */
	int ar_curve_gpus;
	char *ar_curve_source;
	struct catalog_ar_point *ar_curve;
	size_t n_ar_curve;
	char *host_interface;
	double host_pcie_gb_s;		/* the card's PCIe link, per GPU, both
					 * directions, raw (Gen4 x16 64, Gen5 x16
					 * 128); 0 = not given */
	double power_w;
	struct catalog_partition *partitions;	/* none: the part has no MIG */
	size_t n_partitions;
	enum stack stack;
	struct sourced eff_compute;	/* share of dense peak in serving GEMMs */
	struct sourced eff_mem_bw;	/* share of memory bandwidth achieved */
	struct sourced eff_link;	/* share of link bandwidth achieved */
	struct sourced eff_training;	/* MFU in training; value 0 = default */
	struct sourced eff_training_fp8;	/* same at FP8; value 0 = eff_training */
	struct sourced eff_training_fp4;	/* share of the FP4 peak at NVFP4; value
					 * 0 = an fp4 request trains at FP8 */
	struct sourced eff_compute_fp4;	/* share of dense peak at fp4; value 0 =
					 * eff_compute applies */
	/* Private to catalog.c: the most board power per dense 16-bit TFLOPS
	 * of any accelerator of this one's die (the same architecture string;
	 * catalog_index(); 0 in a catalog built by hand, where
	 * catalog_family_rho_max() scans). */
	double family_rho_max_;
	struct price price;
	/* Indicative rental prices per GPU-hour (USD in price.usd), on-demand
	 * and 1- and 3-year reserved (enum engine_rent_term order), each with
	 * its date and source; usd 0 = no first-hand figure (engine_rent()). */
	struct price rent[3];
	char **sources;
	size_t n_sources;
	char *file;
	int line;
};

/* One BOM line a platform contributes per node (CPUs, memory, NICs...). */
struct catalog_bom_line {
	char *sku, *category, *description;
	int qty;			/* per node */
	double unit_price_usd;
	double power_w;
	char *source;
};

struct catalog_platform {
	char *id, *name;
	char *accel_id;
	const struct catalog_accel *accel;	/* resolved by the loader */
	int gpus_per_node;
	enum topology topology;
	int nic_count;
	double nic_gbit;
	/* nics.split_gbit: the slower speed the same NICs also run on a
	 * switch's split ports (ConnectX-7: NDR200 / 200GbE), 0 = none; with
	 * nic_gbit, the speeds --fabric-speed may ask of this platform */
	double nic_split_gbit;
	char *nic_kind;
	/* nics.fabrics: the scale-out fabric kinds the NICs run
	 * ("infiniband", "ethernet"), the first the one the node is built
	 * with unless the workload asks for another (--fabric) */
	char **nic_fabrics;
	size_t n_nic_fabrics;
	bool nics_on_accel;		/* the scale-out ports are on the
					 * accelerators (Gaudi 3): no NIC cards to
					 * buy, the ports still need switches and
					 * cables */
	int rack_units;
	double max_power_w;
	bool whole_rack;		/* the node is a rack of its own (GB200
					 * NVL72): one rack per node, its own
					 * enclosure and power shelves */
	char *cooling;			/* "air" or "liquid"; NULL = not stated */
	char *sku;
	struct price price;		/* the server without accelerators */
	struct catalog_bom_line *bom;
	size_t n_bom;
	char **sources;
	size_t n_sources;
	char *file;
	int line;
};

struct catalog_fabric {
	char *id, *name, *kind;		/* kind: infiniband | ethernet */
	double port_gbit;
	/* built of split switch ports (twin-port cages split 1:4): taken
	 * only for a platform whose nics.split_gbit is its speed, when the
	 * workload asks for that speed (--fabric-speed) */
	bool breakout;
	char *switch_sku, *switch_name;
	int switch_radix;
	int switch_rack_units;
	double switch_power_w;
	double switch_price_usd;
	char *cable_sku, *cable_description;
	double cable_price_usd;		/* one link: cable plus transceivers */
	double cable_power_w;
	/* copper.*: one link as a passive copper splitter's share, used
	 * while the whole cluster is in one rack (a DAC reaches within a
	 * rack); no copper_sku: optics always (XDR has no DAC) */
	char *copper_sku, *copper_description;
	double copper_price_usd;
	double copper_power_w;
	char *nic_sku, *nic_description;
	double nic_price_usd;
	double nic_power_w;
	struct sourced efficiency;
	double latency_us;
	char **sources;
	size_t n_sources;
	char *file;
	int line;
};

struct catalog_model {
	char *id, *name, *family;
	double params;			/* total parameters */
	double active_params;		/* per token; = params unless MoE */
	int layers, hidden, heads, kv_heads, head_dim, ffn, vocab;
	long max_context;
	int experts, experts_active;	/* 0 = dense */
	int experts_shared;		/* always-active experts, ffn wide each */
	int dense_layers;		/* MoE models: layers with a dense FFN */
	int dense_ffn;			/* their FFN width */
	int ffn_matrices;		/* 3 = gated (SwiGLU), 2 = plain; 0 = 3 */
	int mla_kv_lora_rank, mla_qk_rope_head_dim;	/* 0 = no MLA */
	int mla_q_lora_rank;		/* 0 = queries not compressed */
	int sliding_window;		/* 0 = none */
	int sliding_layers;		/* layers that use the window; 0 = all */
	int mtp_layers;			/* multi-token prediction modules; 0 = none */
	char **sources;
	size_t n_sources;
	char *file;
	int line;
};

/*
 * A model's figures, in one table: the numeric keys of models/ID.yaml
 * (catalog/SCHEMA.md), which are also the keys of a scenario's custom_model,
 * with their bounds and the wizard's custom-model rows.  catalog_load.c,
 * scenario.c, tui_step1.c and the engine's range checks all expand it, so a
 * figure one of them accepts is accepted by all (docs/design.md, "Fields").
 *
 * The bounds keep the engine's arithmetic exact (a trillion-parameter model
 * is ~2e12; no shipped model has a hidden size past ~3e4 or a context past
 * 1e7): every product the engine forms stays far inside a double.
 *
 * X(id, key, member, type, min, max, catalog, custom, label, unit, step, hint)
 *   type     MFT_BILLIONS (typed in billions, stored x 1e9), MFT_INT, MFT_LONG
 *   catalog  CATALOG_MF_REQ: models/ID.yaml must give it; CATALOG_MF_GROUP:
 *            ...when the mapping holding it (experts:, mla:) is there;
 *            0: optional, 0 or absent = not given
 *   custom   true: a custom model must give it; false: 0 = not given
 *   step     the wizard's +/- (0 doubles and halves)
 */
#define CATALOG_MF_REQ 1
#define CATALOG_MF_GROUP 2
#define CATALOG_MODEL_FIGURES(X) \
	X(PARAMS, "params_b", params, MFT_BILLIONS, 0.001, 1e5, CATALOG_MF_REQ, true, \
	  "Parameters", "B", 0, "total parameters, billions") \
	X(ACTIVE_PARAMS, "active_params_b", active_params, MFT_BILLIONS, 0.001, 1e5, 0, false, \
	  "Active parameters", "B", 0, "per token (mixture of experts); equal to the total for dense models") \
	X(LAYERS, "layers", layers, MFT_INT, 1, 1e4, CATALOG_MF_REQ, true, "Layers", NULL, 1, NULL) \
	X(HIDDEN, "hidden_size", hidden, MFT_INT, 1, 1e6, CATALOG_MF_REQ, true, "Hidden size", NULL, 0, NULL) \
	X(HEADS, "attention_heads", heads, MFT_INT, 1, 1e5, CATALOG_MF_REQ, true, \
	  "Attention heads", NULL, 0, NULL) \
	X(KV_HEADS, "kv_heads", kv_heads, MFT_INT, 1, 1e5, CATALOG_MF_REQ, true, "KV heads", NULL, 0, \
	  "grouped-query attention: fewer KV heads, smaller KV cache") \
	X(HEAD_DIM, "head_dim", head_dim, MFT_INT, 1, 1e5, CATALOG_MF_REQ, false, \
	  "Head dimension", NULL, 0, NULL) \
	X(FFN, "ffn_size", ffn, MFT_INT, 1, 1e7, CATALOG_MF_REQ, false, "FFN size", NULL, 0, NULL) \
	X(FFN_MATRICES, "ffn_matrices", ffn_matrices, MFT_INT, 2, 3, 0, false, "FFN matrices", NULL, 1, \
	  "2 for a plain MLP (GPT-3); absent means 3, a gated MLP") \
	X(VOCAB, "vocab_size", vocab, MFT_INT, 1, 1e8, CATALOG_MF_REQ, false, "Vocabulary", NULL, 0, NULL) \
	X(MAX_CONTEXT, "max_context", max_context, MFT_LONG, 1, 1e9, CATALOG_MF_REQ, false, \
	  "Max context", "tokens", 0, NULL) \
	X(EXPERTS, "experts.total", experts, MFT_INT, 1, 1e5, CATALOG_MF_REQ | CATALOG_MF_GROUP, false, \
	  "Experts", NULL, 0, NULL) \
	X(EXPERTS_ACTIVE, "experts.active", experts_active, MFT_INT, 1, 1e5, \
	  CATALOG_MF_REQ | CATALOG_MF_GROUP, false, "Active experts", NULL, 0, NULL) \
	X(EXPERTS_SHARED, "experts.shared", experts_shared, MFT_INT, 1, 1e3, CATALOG_MF_GROUP, false, \
	  "Shared experts", NULL, 0, "experts every token passes through, besides the routed ones") \
	X(DENSE_LAYERS, "experts.dense_layers", dense_layers, MFT_INT, 1, 1e4, CATALOG_MF_GROUP, false, \
	  "Dense layers", NULL, 1, "leading layers with a dense FFN instead of experts") \
	X(DENSE_FFN, "experts.dense_ffn_size", dense_ffn, MFT_INT, 1, 1e7, CATALOG_MF_GROUP, false, \
	  "Dense FFN size", NULL, 0, "FFN width of the dense layers") \
	X(MLA_KV_LORA_RANK, "mla.kv_lora_rank", mla_kv_lora_rank, MFT_INT, 1, 1e5, \
	  CATALOG_MF_REQ | CATALOG_MF_GROUP, false, "MLA KV rank", NULL, 0, NULL) \
	X(MLA_QK_ROPE_HEAD_DIM, "mla.qk_rope_head_dim", mla_qk_rope_head_dim, MFT_INT, 1, 1e5, \
	  CATALOG_MF_REQ | CATALOG_MF_GROUP, false, "MLA RoPE head dim", NULL, 0, NULL) \
	X(MLA_Q_LORA_RANK, "mla.q_lora_rank", mla_q_lora_rank, MFT_INT, 1, 1e5, CATALOG_MF_GROUP, false, \
	  "MLA query rank", NULL, 0, "low-rank query projection; absent means a full one") \
	X(SLIDING_WINDOW, "sliding_window.tokens", sliding_window, MFT_INT, 1, 1e9, \
	  CATALOG_MF_REQ | CATALOG_MF_GROUP, false, "Sliding window", "tokens", 0, NULL) \
	X(SLIDING_LAYERS, "sliding_window.layers", sliding_layers, MFT_INT, 1, 1e4, CATALOG_MF_GROUP, \
	  false, "Window layers", NULL, 0, NULL) \
	X(MTP_LAYERS, "mtp_layers", mtp_layers, MFT_INT, 1, 16, 0, false, "MTP modules", NULL, 1, \
	  "multi-token prediction modules (DeepSeek-V3): drafts for speculative decoding")

enum catalog_model_figure_type { MFT_BILLIONS, MFT_INT, MFT_LONG };
enum catalog_model_figure_id {
#define X(id, ...) MF_##id,
	CATALOG_MODEL_FIGURES(X)
#undef X
	MF_COUNT
};
struct catalog_model_figure {
	const char *key;		/* "hidden_size", "experts.total" */
	enum catalog_model_figure_type type;
	size_t off;			/* in struct catalog_model */
	double min, max;		/* as typed (billions for MFT_BILLIONS) */
	unsigned catalog;		/* CATALOG_MF_REQ, CATALOG_MF_GROUP */
	bool custom_required;
	const char *label, *unit, *hint;
	double step;
};
/* The table as data (catalog_figures.c), in the order above. */
extern const struct catalog_model_figure catalog_model_figures[MF_COUNT];
/* The figure's value in the units typed (billions for MFT_BILLIONS). */
double catalog_model_figure_get(const struct catalog_model *m, const struct catalog_model_figure *f);
/* Stores v (in the units typed, within the figure's bounds) into m. */
void catalog_model_figure_set(struct catalog_model *m, const struct catalog_model_figure *f, double v);

/*
 * defaults.yaml: every engine assumption, each with its source.  The X-macro
 * keeps the YAML key, the struct field and the documentation in one place.
 */
#define CATALOG_DEFAULTS(X) \
	X(serving_workspace_gb,        "GB",      "non-KV activation workspace per GPU while serving, dense models") \
	X(serving_workspace_moe_gb,    "GB",      "non-KV activation workspace per GPU while serving, MoE models") \
	X(runtime_reserve_tp1_gb,      "GB",      "runtime reserve per GPU at tensor parallel 1") \
	X(runtime_reserve_tp_gb,       "GB",      "runtime and communication-library reserve per GPU at TP >= 2") \
	X(collective_latency_us,       "us",      "fixed latency of one collective call") \
	X(pcie_gb_s,                   "GB/s",    "PCIe bandwidth per GPU, achieved, for cards that give no host_pcie_gb_s") \
	X(pcie_efficiency,             "ratio",   "share of a card's host_pcie_gb_s GPU-to-GPU traffic reaches past its GPU link") \
	X(prefill_efficiency,          "ratio",   "share of dense peak achieved in prefill, relative to eff_compute") \
	X(prefill_chunk_tokens,        "tokens",  "tokens one serving iteration carries, decode and prompt chunks (chunked prefill)") \
	X(serving_step_overhead_us,    "us",      "fixed cost of one serving iteration: scheduling, launch, sampling") \
	X(serving_layer_overhead_us,   "us",      "fixed cost per layer of one serving iteration: small kernels, launch gaps") \
	X(serving_overlap,             "ratio",   "share of the shorter of a kernel's memory and compute time hidden behind the longer") \
	X(moe_grouped_gemm_efficiency, "ratio",   "share of the serving compute share the routed experts' grouped GEMMs reach") \
	X(power_clock_exponent,        "ratio",   "k in power ~ clock^k: how the clock a power-limited board sustains falls") \
	X(training_mfu,                "ratio",   "model FLOPs utilisation when the accelerator has none of its own") \
	X(training_overlap,            "ratio",   "share of gradient communication hidden behind compute") \
	X(training_elementwise_bytes,  "bytes",   "memory traffic per token per hidden unit per layer in training") \
	X(training_moe_efficiency, "ratio", "share of the dense training efficiency an MoE model's expert GEMMs reach") \
	X(adam_bytes_per_param,        "bytes",   "model state per trained parameter, mixed-precision Adam") \
	X(nf4_bits,                    "bits",    "storage per frozen parameter with QLoRA NF4 + double quantisation") \
	X(adapter_bytes_per_param,     "bytes",   "state per LoRA adapter parameter") \
	X(lora_targets,                "count",   "projection matrices per layer a LoRA adapter wraps") \
	X(micro_batch,                 "seqs",    "training micro-batch per GPU") \
	X(interruptions_per_1k_gpus,   "per day", "job interruptions a day per 1,000 GPUs training") \
	X(checkpoint_gb_s,             "GB/s",    "checkpoint write bandwidth per node") \
	X(restart_minutes,             "min",     "time to restart a job after an interruption") \
	X(binding_link_efficiency,     "ratio",   "scaling efficiency under which the interconnect binds") \
	X(tight_fraction,              "ratio",   "bar share above which a resource is shown tight") \
	X(electricity_usd_per_kwh,     "USD/kWh", "electricity price") \
	X(pue,                         "ratio",   "data-centre power usage effectiveness") \
	X(tco_years,                   "years",   "total cost of ownership horizon, and the period capex is spread over") \
	X(colocation_usd_per_kw_month, "USD/kW/month", "colocation charge per kW of IT power per month") \
	X(licence_usd_per_gpu_year,    "USD/GPU/year", "software licences per GPU per year") \
	X(utilisation,                 "ratio",   "share of the year the cluster serves or trains") \
	X(rack_kw,                     "kW",      "power one rack can feed and cool") \
	X(rack_units,                  "U",       "usable units per rack") \
	X(rack_price_usd,              "USD",     "rack enclosure with installation") \
	X(pdu_per_rack,                "count",   "PDUs per rack") \
	X(pdu_price_usd,               "USD",     "one metered PDU") \
	X(support_years,               "years",   "support contract length") \
	X(support_fraction_per_year,   "ratio",   "yearly support as a share of hardware price") \
	X(burn_in_usd_per_node,        "USD",     "installation and burn-in service per node, spares included") \
	X(spare_nodes,                 "nodes",   "spare nodes added to training and fine-tuning by default") \
	X(spare_nodes_serving,         "nodes",   "spare nodes added to a serving deployment by default (N+1)") \
	X(max_tp,                      "GPUs",    "largest tensor-parallel degree tried")

/* A software licence sold per GPU per year for one vendor's accelerators
 * (defaults.yaml "licences"): quoted when a price list names its SKU. */
struct catalog_licence {
	char *sku, *name, *vendor;	/* vendor as the accelerators spell it */
	double usd_per_gpu_year;
	char *date, *source;
};

/* A facility network every cluster has besides its scale-out fabric
 * (defaults.yaml "networks"): the front-end / in-band management and
 * storage Ethernet, and the out-of-band management network.  Switches
 * for ceil(nodes x ports_per_node / ports) rounded up to a multiple of
 * min_switches (at least that many); a cable per node port, copper when
 * the cluster is in one rack, optics across racks.  A price or power of 0
 * is one no source gave: the line is quoted without it. */
struct catalog_network {
	char *role;			/* "frontend" or "oob" */
	char *sku, *name;		/* the switch */
	int ports, ports_per_node, rack_units;
	int min_switches;		/* 0 (absent) is 1 */
	double power_w, price_usd;
	char *copper_sku, *copper_description;
	double copper_price_usd;
	char *optics_sku, *optics_description;
	double optics_price_usd, optics_power_w;
	char **sources;
	size_t n_sources;
};

struct catalog_defaults {
#define X(name, unit, doc) struct sourced name;
	CATALOG_DEFAULTS(X)
#undef X
	struct catalog_licence *licences;
	size_t n_licences;
	struct catalog_network *networks;
	size_t n_networks;
	char *version;			/* catalog version, for BOM summaries */
	char *file;
};

struct accuracy_band_cell;
struct catalog {
	char *dir;
	struct catalog_accel *accels;
	size_t n_accels;
	struct catalog_platform *platforms;
	size_t n_platforms;
	struct catalog_fabric *fabrics;
	size_t n_fabrics;
	struct catalog_model *models;
	size_t n_models;
	struct catalog_serving_stack *serving_stacks;
	size_t n_serving_stacks;
	struct catalog_training_stack *training_stacks;
	size_t n_training_stacks;
	struct catalog_defaults defaults;
	/* Private to catalog.c: the platforms grouped by accelerator (in
	 * catalog order), so that catalog_platforms_for() does not scan every
	 * platform for every accelerator the engine sizes.  Built by
	 * catalog_load() through catalog_index(); NULL in a catalog built by
	 * hand, which is then scanned. */
	const struct catalog_platform **plat_by_accel_;
	size_t *plat_start_;		/* n_accels + 1 offsets */
	/* Private to catalog_cache.c: the catalog was rebuilt from a cache
	 * image and is one block (itself, its arrays and strings) that
	 * catalog_free() frees at once. */
	bool image_;
	/* Private to the images (catalog_imagegen, catalog_cache.c) and
	 * frontend.c: the error-band table (accuracy.h) computed when the
	 * image was made, n_bands_ cells, so a run that reads an image runs
	 * no published result through the engine; NULL: build it from the
	 * ledger.  catalog_free() frees it when bands_owned_. */
	const struct accuracy_band_cell *bands_;
	size_t n_bands_;
	bool bands_owned_;
};

/* Up to this many problems are collected before the loader gives up. */
#define CATALOG_MAX_ERRORS 50

struct catalog_errors {
	char *msg[CATALOG_MAX_ERRORS];	/* "file:line:col: message" */
	size_t n;
	bool truncated;
};
void catalog_errors_fini(struct catalog_errors *e);
/* Keeps msg (taking ownership), or frees it and marks e truncated when
 * e is full; false when msg is NULL (out of memory). */
bool catalog_errors_add(struct catalog_errors *e, char *msg);

/*
 * Loads every file under dir.  Returns NULL when anything is wrong, with
 * every problem found (up to CATALOG_MAX_ERRORS) in *errs, which the caller
 * finalises with catalog_errors_fini() either way.  catalog_load()
 * initialises *errs itself; errs may be NULL.  Items are sorted by id.
 */
struct catalog *catalog_load(const char *dir, struct catalog_errors *errs);
void catalog_free(struct catalog *c);
/* Is every figure of c within the range catalog_load() enforces on it (or
 * 0 where the key is optional)?  For a catalog that was not read from YAML
 * (catalog_cache.c checks an image with it); the checks across several
 * keys are not repeated. */
bool catalog_values_ok(const struct catalog *c);

const struct catalog_accel *catalog_accel(const struct catalog *c, const char *id);
const struct catalog_platform *catalog_platform(const struct catalog *c, const char *id);
const struct catalog_fabric *catalog_fabric(const struct catalog *c, const char *id);
const struct catalog_model *catalog_model(const struct catalog *c, const char *id);
const struct catalog_serving_stack *catalog_serving_stack(const struct catalog *c, const char *id);
/* Its figures on that software platform, or NULL when it does not run there. */
const struct catalog_stack_platform *catalog_stack_on(const struct catalog_serving_stack *s,
						      enum stack platform);
/* The platform's default stack (is_default), or NULL; *on gets its figures. */
const struct catalog_serving_stack *catalog_stack_default(const struct catalog *c, enum stack platform,
							  const struct catalog_stack_platform **on);
const struct catalog_training_stack *catalog_training_stack(const struct catalog *c, const char *id);
/* Does it run on that platform (and is it the default there)? */
bool catalog_train_stack_on(const struct catalog_training_stack *s, enum stack platform, bool *is_default);
/* The platform's default training stack, or NULL. */
const struct catalog_training_stack *catalog_train_stack_default(const struct catalog *c, enum stack platform);
/* Its own share on the family of architecture at precision, or NULL. */
const struct sourced *catalog_train_stack_share(const struct catalog_training_stack *s, const char *architecture,
						enum train_prec precision);
/* (Re)builds the private platform index: call it after building or
 * changing a catalog's accelerators or platforms by hand (catalog_load()
 * does).  A platform whose accelerator is not resolved leaves the catalog
 * unindexed (lookups scan).  False when out of memory (also unindexed). */
bool catalog_index(struct catalog *c);
/* An accelerator's family: its architecture up to " (": "Hopper" for
 * "Hopper (GH100)"; returns the length of that prefix. */
size_t catalog_family_len(const char *architecture);
/* Board power per dense 16-bit TFLOPS (W), 0 without both figures. */
double catalog_power_per_tflops(const struct catalog_accel *a);
/* The most of it among the accelerators of a's die, the same
 * architecture string (a itself included). */
double catalog_family_rho_max(const struct catalog *c, const struct catalog_accel *a);
/* Drops the index (catalog_free() does it too). */
void catalog_unindex(struct catalog *c);
/* Platforms for an accelerator, smallest node first (then by id); stores at
 * most max of them in out and returns how many it stored. */
size_t catalog_platforms_for(const struct catalog *c, const struct catalog_accel *a,
			     const struct catalog_platform **out, size_t max);

/*
 * Where the catalog is: --catalog DIR, $ACCELSIZER_CATALOG,
 * $XDG_CONFIG_HOME/accelsizer/catalog (or ~/.config/...), then the source
 * tree of an uninstalled build, then the installed data directory.
 * Writes the chosen folder into buf; returns false if none exists.
 */
bool catalog_find_dir(const char *flag_dir, char *buf, size_t bufsz);

/* The files the catalog was read from (defaults, then every item's; a
 * file holding several items appears once per item): stores at most max
 * of them in out and returns how many it stored.  The strings are c's. */
static inline size_t catalog_n_files(const struct catalog *c)
{
	return 1 + c->n_accels + c->n_platforms + c->n_fabrics + c->n_models + c->n_serving_stacks +
	       c->n_training_stacks;
}
size_t catalog_files(const struct catalog *c, const char **out, size_t max);

/* The id closest to a mistyped one (edit distance at most 2, with
 * transpositions), among the kinds in the mask, or NULL: for "unknown
 * accelerator 'h100-sxn'; did you mean 'h100-sxm'?". */
enum {
	CATALOG_ACCELERATORS = 1, CATALOG_PLATFORMS = 2, CATALOG_FABRICS = 4,
	CATALOG_MODELS = 8, CATALOG_SERVING_STACKS = 16, CATALOG_TRAINING_STACKS = 32,
	CATALOG_ANY = 63
};
const char *catalog_suggest(const struct catalog *c, unsigned kinds, const char *id);
/* Edit distance between a and the first blen bytes of b (adjacent
 * transpositions count 1); strings longer than 128 bytes give 99. */
int catalog_edit_distance(const char *a, const char *b, size_t blen);

/* "2024-06" or "2024-06-30". */
bool catalog_date_ok(const char *s);

/* Does this source text mark a figure as not yet confirmed (it starts with
 * "unconfirmed:")?  And how many such sources the whole catalog holds:
 * sources lists, efficiency, price, BOM-line and defaults sources. */
bool catalog_source_unconfirmed(const char *source);
size_t catalog_count_unconfirmed(const struct catalog *c);

#endif
