/*
 * engine_workload: the workload's defaults, its sanity checks, and what it
 * needs independent of any accelerator (weights, KV cache, optimizer state,
 * activations, FLOPs).  The model arithmetic here is shared by the inference
 * and training sizers.
 *
 * Formulas follow /work/shared/facts/engine-references.md: KV per token
 * 2 x L x n_kv x head_dim x bytes (MLA: L x (kv_lora_rank + rope dim) x
 * bytes), training FLOPs 6ND plus the PaLM attention term 12 x L x H x Q x T
 * (Chowdhery et al. 2022, appendix B), activations after Korthikanti et al.
 * 2022.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

void engine_workload_init(struct workload *w, const struct catalog *c)
{
	memset(w, 0, sizeof *w);
	w->model = NULL;
	if (c) {
		w->model = catalog_model(c, "llama-2-70b");
		if (!w->model && c->n_models)
			w->model = &c->models[0];
	}
	w->precision = PREC_FP16;
	w->kv_precision = PREC_FP16;
	w->lora_rank = 16;
	w->stack = -1;
	w->serving_stack = -1;
	w->training_stack = -1;
	w->dp_overlap = -1;
	w->form = FORMF_ANY;
	w->objective = OBJ_CAPEX;
	w->accel = NULL;
	w->gpus = -1;
	w->spare_nodes = -1;
	w->rack_kw = -1;
	w->years = -1;
	w->electricity_usd_per_kwh = w->pue = w->utilisation = -1;
	w->colocation_usd_per_kw_month = w->licence_usd_per_gpu_year = -1;
	w->support_years = -1;
	w->support_fraction_per_year = -1;
	/* Every class's fields hold sensible values, so that switching the
	 * class in the wizard never leaves zeros behind; the training fields
	 * keep the pretraining defaults, the fine-tuning method stays LoRA. */
	engine_workload_class_defaults(w, WL_FINETUNE);
	engine_workload_class_defaults(w, WL_PRETRAIN);
	engine_workload_class_defaults(w, WL_INFERENCE);
}

void engine_workload_derive(struct workload *w)
{
	if (!w->kv_precision_set)
		w->kv_precision = engine_kv_precision_for(w->precision);
}

static bool fail(char *why, size_t whysz, const char *msg)
{
	if (why && whysz)
		snprintf(why, whysz, "%s", msg);
	return false;
}

/* A figure against its bounds: "input_tokens 0 is out of range (1 to
 * 100000000)". */
static bool in_limit(const char *key, const struct engine_field_limit *l, double v, char *why,
		     size_t whysz)
{
	char r[112];
	if (engine_field_check(l, v, r, sizeof r))
		return true;
	if (why && whysz)
		snprintf(why, whysz, "%s %.15g is %s", key, v, r);
	return false;
}

/* The model's figures against the table the catalog and scenario files
 * share (a catalog model is within them: the loader applies the same
 * bounds), so no figure can overflow the arithmetic. */
static bool model_in_limits(const struct catalog_model *m, char *why, size_t whysz)
{
	for (size_t i = 0; i < MF_COUNT; i++) {
		const struct catalog_model_figure *f = &catalog_model_figures[i];
		struct engine_field_limit l = engine_model_figure_limit(f);
		double v = catalog_model_figure_get(m, f);
		/* active parameters 0 means "all of them" here too */
		if (i == MF_ACTIVE_PARAMS && v == 0)
			continue;
		if (!in_limit(f->key, &l, v, why, whysz))
			return false;
	}
	return true;
}

/* Every number of the class (and of every class) against the table;
 * a field at its word ("max", "auto", "default") is not a number. */
static bool fields_in_limits(const struct workload *w, char *why, size_t whysz)
{
	for (int i = 0; i < EF_COUNT; i++) {
		const struct engine_field *f = engine_field((enum engine_field_id)i);
		if (f->type != EFT_INT && f->type != EFT_LONG && f->type != EFT_DOUBLE)
			continue;
		if (!f->key || !(f->classes & ENGINE_CLASS(w->cls)))
			continue;	/* --days is target_hours, checked as such */
		if (f->lora_only && w->method == FT_FULL)
			continue;
		if (engine_field_is_word(w, f))
			continue;
		double v = engine_field_get(w, f) / (f->scale > 0 ? f->scale : 1);
		if (!in_limit(f->key, &f->lim, v, why, whysz))
			return false;
	}
	return true;
}

static bool spec_valid(const struct workload *w, char *why, size_t whysz);

/* A chosen platform must be one of the chosen accelerator's, of the
 * chosen server shape. */
static bool platform_valid(const struct workload *w, char *why, size_t whysz)
{
	const struct catalog_platform *p = w->platform;
	char buf[192];
	if (!p)
		return true;
	if (w->accel && p->accel != w->accel) {
		snprintf(buf, sizeof buf, "platform %s is a server for %s, not for the accelerator %s",
			 p->id, p->accel_id, w->accel->id);
		return fail(why, whysz, buf);
	}
	if (w->node_gpus > 0 && p->gpus_per_node != w->node_gpus) {
		snprintf(buf, sizeof buf, "platform %s holds %d GPUs, not the %d of node_gpus", p->id,
			 p->gpus_per_node, w->node_gpus);
		return fail(why, whysz, buf);
	}
	return true;
}

bool engine_workload_valid(const struct workload *w, char *why, size_t whysz)
{
	char buf[192];
	const struct catalog_model *m = w->model;

	if (w->cls < 0 || w->cls >= WL_COUNT)
		return fail(why, whysz, "unknown workload class");
	if (!m)
		return fail(why, whysz, "no model chosen");
	if (m->params <= 0 || m->layers <= 0 || m->hidden <= 0 || m->heads <= 0 || m->kv_heads <= 0)
		return fail(why, whysz, "the model's parameters, layers, hidden size and heads must be positive");
	if (!model_in_limits(m, why, whysz))
		return false;
	if (w->precision < 0 || w->precision >= PREC_WORKLOAD_COUNT ||
	    w->kv_precision < 0 || w->kv_precision >= PREC_WORKLOAD_COUNT)
		return fail(why, whysz, "unknown precision");
	if (w->gpus < -1 || w->spare_nodes < -1)
		return fail(why, whysz, "the GPU and spare node counts cannot be negative");
	if (!fields_in_limits(w, why, whysz))
		return false;
	if (w->gpus != -1 && !w->accel)
		return fail(why, whysz, "a GPU count needs an accelerator to apply to");
	if (!platform_valid(w, why, whysz))
		return false;

	if (w->cls == WL_INFERENCE) {
		if (m->max_context > 0 && w->input_tokens + w->output_tokens > m->max_context) {
			snprintf(buf, sizeof buf,
				 "input + output tokens (%ld) exceed %s's context of %ld tokens",
				 w->input_tokens + w->output_tokens, m->name, m->max_context);
			return fail(why, whysz, buf);
		}
		return spec_valid(w, why, whysz);
	}

	if (w->global_batch_tokens < (double)w->seq_len)
		return fail(why, whysz, "the global batch must hold at least one sequence");
	/* A rank-r adapter B x A of a d x d projection (Hu et al. 2021, 4.1)
	 * has rank at most d: past the hidden size it only adds parameters
	 * (65536 on a 7B model gave 68.7B of them; issue 13 item 7).  The
	 * field table bounds the rank on its own; this bounds it by m. */
	if (w->cls == WL_FINETUNE && w->method != FT_FULL && w->lora_rank > m->hidden) {
		snprintf(buf, sizeof buf,
			 "the LoRA rank %d is above %s's hidden size %d: an adapter of a %d x %d projection has rank %d at most",
			 w->lora_rank, m->name, m->hidden, m->hidden, m->hidden, m->hidden);
		return fail(why, whysz, buf);
	}
	if (w->cls == WL_PRETRAIN && w->mtp && m->mtp_layers <= 0) {
		snprintf(buf, sizeof buf,
			 "%s has no multi-token prediction modules (mtp_layers) to train: mtp (--mtp) needs a model with "
			 "them (DeepSeek-V3)", m->name);
		return fail(why, whysz, buf);
	}
	if (w->precision == PREC_INT4 || w->precision == PREC_INT8 ||
	    w->precision == PREC_MXFP4 || w->precision == PREC_W8A16) {
		snprintf(buf, sizeof buf,
			 "%s is an inference format: train at bf16, fp16, fp8 or fp4 (NVFP4) (QLoRA stores the base in 4 bit by itself)",
			 precision_name(w->precision));
		return fail(why, whysz, buf);
	}
	return true;
}

bool engine_draft_fits(const struct catalog_model *m, const struct catalog_model *d)
{
	if (!m || !d)
		return false;
	if (d == &engine_draft_mtp)
		return m->mtp_layers > 0;
	return d->vocab == m->vocab && eng_params_active(d) < eng_params_active(m);
}

/* Speculative decoding's acceptance needs a draft, and a draft must fit
 * its target (engine_draft_fits()).  A draft without an acceptance is
 * kept but does nothing (the wizard picks the draft first). */
static bool spec_valid(const struct workload *w, char *why, size_t whysz)
{
	const struct catalog_model *m = w->model, *d = w->draft_model;
	char buf[256];
	if (!(w->spec_acceptance > 0) && !d)
		return true;
	if (!d)
		return fail(why, whysz, "speculative decoding needs a draft: --draft-model ID (a smaller model of the "
			    "same family) or mtp");
	if (engine_draft_fits(m, d))
		return true;
	if (d == &engine_draft_mtp) {
		if (m->mtp_layers > 0)
			return true;
		snprintf(buf, sizeof buf, "%s has no multi-token prediction modules (mtp_layers): draft with a smaller "
			 "model of its family", m->name);
		return fail(why, whysz, buf);
	}
	if (d->vocab != m->vocab) {
		snprintf(buf, sizeof buf, "the draft %s has a vocabulary of %d tokens, %s %d: a draft must share its "
			 "model's tokenizer", d->name, d->vocab, m->name, m->vocab);
		return fail(why, whysz, buf);
	}
	if (!(eng_params_active(d) < eng_params_active(m))) {
		snprintf(buf, sizeof buf, "the draft %s is not smaller than %s: it would make decoding slower", d->name,
			 m->name);
		return fail(why, whysz, buf);
	}
	return true;
}

double eng_params_active(const struct catalog_model *m)
{
	return m->active_params > 0 ? m->active_params : m->params;
}

/* Per layer: attention projections, then the feed-forward. MLA (DeepSeek
 * V3 and Kimi K2) compresses queries to q_lora_rank and keys/values to one
 * kv_lora_rank latent plus the shared RoPE key; the per-head query/key width
 * is head_dim + qk_rope_head_dim, the value width head_dim. */
static double attn_params(const struct catalog_model *m)
{
	double h = m->hidden, heads = m->heads, hd = eng_head_dim(m);
	if (m->mla_kv_lora_rank > 0) {
		double rope = m->mla_qk_rope_head_dim, kvr = m->mla_kv_lora_rank;
		double q = m->mla_q_lora_rank > 0
			? h * m->mla_q_lora_rank + m->mla_q_lora_rank * heads * (hd + rope)
			: h * heads * (hd + rope);
		double kv = h * (kvr + rope) + kvr * heads * (hd + hd);
		return q + kv + heads * hd * h;
	}
	return h * heads * hd * 2 + h * (double)m->kv_heads * hd * 2;
}

/* The multi-token prediction modules a pretraining run trains with its
 * model (DeepSeek-V3 technical report, section 2.2: module k is a
 * Transformer block, a d x 2d projection of the previous depth's output
 * joined with the next token's embedding, and the model's own embedding
 * and output head, shared).  Per module: the parameters a token passes
 * through, the block as one of the model's layers with its routed and
 * shared experts, the projection and a second pass through the output head
 * (the embedding is a lookup); and those it adds to the model, the block
 * with all its experts (experts_out) and the projection (shared_out).  All
 * 0 unless the workload asks for them. */
void eng_mtp_params(const struct workload *w, double *active_out, double *shared_out, double *experts_out)
{
	const struct catalog_model *m = w->model;
	*active_out = *shared_out = *experts_out = 0;
	if (!w->mtp || w->cls != WL_PRETRAIN || !m || m->mtp_layers <= 0)
		return;
	double h = m->hidden, mats = m->ffn_matrices > 0 ? m->ffn_matrices : 3;
	double expert = mats * h * m->ffn, router = m->experts > 0 ? h * m->experts : 0;
	double routed = m->experts > 0 ? m->experts_active : 1, all = m->experts > 0 ? m->experts : 1;
	double shared = attn_params(m) + 2.0 * h * h + router + m->experts_shared * expert;
	double n = m->mtp_layers;
	*active_out = n * (shared + routed * expert + (double)m->vocab * h);
	*shared_out = n * shared;
	*experts_out = n * all * expert;
}

double eng_params_from_shapes(const struct catalog_model *m)
{
	double h = m->hidden, mats = m->ffn_matrices > 0 ? m->ffn_matrices : 3;
	double per_expert = mats * h * m->ffn;
	double layers = m->layers, dense = 0, ffn;
	if (m->experts > 0) {
		dense = m->dense_layers;
		ffn = (layers - dense) * ((m->experts + m->experts_shared) * per_expert + h * m->experts) +
		      dense * mats * h * m->dense_ffn;
	} else {
		ffn = layers * per_expert;
	}
	return layers * attn_params(m) + ffn + 2.0 * m->vocab * h;
}

double engine_model_params(const struct catalog_model *m, bool tied_embeddings)
{
	double p = eng_params_from_shapes(m);
	return tied_embeddings ? p - (double)m->vocab * m->hidden : p;
}

/* A token passes through every parameter but the routed experts it is not
 * sent to: (experts - active) experts of each MoE layer stay idle.  Shared
 * experts, attention, the dense layers and the embeddings all count, as in
 * the published active counts (Mixtral's 12.9B, DeepSeek-V3's 37B). */
double engine_model_active_params(const struct catalog_model *m, bool tied_embeddings)
{
	double p = engine_model_params(m, tied_embeddings);
	if (m->experts <= 0 || m->experts_active <= 0 || m->experts_active >= m->experts)
		return p;
	double mats = m->ffn_matrices > 0 ? m->ffn_matrices : 3;
	double idle = (double)(m->experts - m->experts_active) * mats * m->hidden * m->ffn;
	return p - ((double)m->layers - m->dense_layers) * idle;
}

int eng_head_dim(const struct catalog_model *m)
{
	if (m->head_dim > 0)
		return m->head_dim;
	return m->heads > 0 ? m->hidden / m->heads : 0;
}

/* Layers that use the sliding window, and those that see the full context. */
static void window_layers(const struct catalog_model *m, int *win, int *full)
{
	if (m->sliding_window <= 0) {
		*win = 0;
		*full = m->layers;
		return;
	}
	*win = m->sliding_layers > 0 && m->sliding_layers < m->layers ? m->sliding_layers : m->layers;
	*full = m->layers - *win;
}

/* KV bytes one layer stores per token, on one GPU of a TP group of t. */
static double kv_layer_bytes(const struct catalog_model *m, double kv_bytes, int t)
{
	if (m->mla_kv_lora_rank > 0)
		/* MLA caches one compressed latent plus the decoupled RoPE key
		 * per token and layer, shared by all heads: not split by TP
		 * (DeepSeek-V2 paper, section 2.1). */
		return (double)(m->mla_kv_lora_rank + m->mla_qk_rope_head_dim) * kv_bytes;
	/* GQA: each GPU holds ceil(n_kv / t) KV heads; past n_kv the heads are
	 * replicated, one per GPU. */
	int heads = (m->kv_heads + t - 1) / t;
	return 2.0 * heads * eng_head_dim(m) * kv_bytes;
}

double eng_kv_bytes_per_token(const struct catalog_model *m, double kv_bytes)
{
	return m->layers * kv_layer_bytes(m, kv_bytes, 1);
}

double eng_kv_seq_bytes_gpu(const struct catalog_model *m, double kv_bytes, int t, double ctx)
{
	return eng_kv_seq_stored_gpu(m, kv_bytes, t, ctx, 0);
}

/* What a serving stack's KV cache holds for one sequence: a sliding-window
 * layer its window, plus `kept` of the tokens before it (1 for a cache
 * that sizes one pool as if every layer saw the whole sequence). */
double eng_kv_seq_stored_gpu(const struct catalog_model *m, double kv_bytes, int t, double ctx, double kept)
{
	int win, full;
	window_layers(m, &win, &full);
	double wctx = win ? fmin(ctx, (double)m->sliding_window) : 0;
	wctx += kept * (ctx - wctx);
	return kv_layer_bytes(m, kv_bytes, t) * (full * ctx + win * wctx);
}

/* active = shared + experts_all x k/E and total = shared + experts_all,
 * so experts_all = (P - P_a) / (1 - k/E). */
double eng_params_experts(const struct catalog_model *m)
{
	double p = m->params, pa = eng_params_active(m);
	if (m->experts <= 0 || m->experts_active <= 0 || m->experts_active >= m->experts || pa >= p)
		return 0;
	return (p - pa) / (1.0 - (double)m->experts_active / m->experts);
}

double eng_weights_bytes(const struct catalog_model *m, enum precision p, bool active)
{
	double n = active ? eng_params_active(m) : m->params;
	double experts = p == PREC_MXFP4 ? eng_params_experts(m) : 0;
	if (!(experts > 0))
		return n * precision_bytes(p);
	/* the routed experts in MXFP4, the rest in bf16 (engine_precision.c) */
	double shared = m->params - experts;
	double x = active ? n - shared : experts;
	return shared * precision_bytes(PREC_BF16) + x * precision_bytes(p);
}

double eng_params_read(const struct catalog_model *m, double b)
{
	double experts_all = eng_params_experts(m);
	if (!(experts_all > 0))
		return eng_params_active(m);
	/* A batch of b tokens routed to k of E experts each touches a share
	 * 1 - (1 - k/E)^b of them (uniform routing): one token reads P_a, a
	 * large batch reads P. */
	double k_e = (double)m->experts_active / m->experts;
	double shared = m->params - experts_all;
	double touched = 1.0 - pow(1.0 - k_e, fmax(b, 1.0));
	return shared + experts_all * touched;
}

/* A request meets a decode step in proportion to its length, at a
 * uniform point of its answer, so the mean context is I + E[O^2] /
 * (2 E[O]) = I + O (1 + cv^2) / 2 for lengths of spread cv independent of
 * the prompts (the length bias of renewal theory); per request, the O
 * decode tokens attend to I O + E[O^2] / 2, the same mean times O. */
double eng_decode_ctx_mean(const struct workload *w)
{
	double cv = w->output_cv;
	return (double)w->input_tokens + (double)w->output_tokens / 2.0 * (1.0 + cv * cv);
}

double eng_attn_flops_token(const struct catalog_model *m, double ctx)
{
	/* Q.K^T and attention x V: 2 x 2 x head_dim x ctx per head and layer
	 * (Kaplan et al. 2020, table 1). */
	int win, full;
	window_layers(m, &win, &full);
	double wctx = win ? fmin(ctx, (double)m->sliding_window) : 0;
	return 4.0 * m->heads * eng_head_dim(m) * (full * ctx + win * wctx);
}

double eng_attn_flops_serving(const struct catalog_model *m, double ctx, bool decode)
{
	if (!(m->mla_kv_lora_rank > 0))
		return eng_attn_flops_token(m, ctx);
	/* MLA as TensorRT-LLM serves it (tensorrt_llm/_torch/modules/attention.py,
	 * MLA: `mha` for the context phase, heads of qk_nope + rope against
	 * v_head_dim; `mqa` for generation, one latent head of kv_lora_rank +
	 * rope for K and kv_lora_rank for V, the up-projections absorbed, as
	 * DeepSeek-V2 describes): per head and cached token, 2 x (K width + V
	 * width) FLOPs. */
	double hd = eng_head_dim(m), rope = m->mla_qk_rope_head_dim, kvr = m->mla_kv_lora_rank;
	double per = decode ? 2.0 * (kvr + rope + kvr) : 2.0 * (hd + rope + hd);
	return per * m->heads * ctx * m->layers;
}

/* Training runs every token as a context phase: the heads expanded, so
 * multi-head latent attention multiplies each query by a key of qk_nope +
 * qk_rope dimensions and the probabilities by a value of v_head_dim
 * (DeepSeek-V3 config.json: 128, 64, 128), 2 (2 d + r) instead of 4 d
 * per head and context position. */
double eng_attn_train_flops_token(const struct catalog_model *m, double ctx)
{
	return eng_attn_flops_serving(m, ctx, false);
}

double eng_adapter_params(const struct catalog_model *m, const struct catalog_defaults *d, int rank)
{
	/* LoRA adds A (r x d_in) and B (d_out x r) to each wrapped matrix
	 * (Hu et al. 2021), r (d_in + d_out) parameters.  The wrapped
	 * matrices, in the order the count takes them: the query and value
	 * projections (Hu et al. 2021, 7.1), key, output (the MLPerf
	 * reference's q, k, v and o at defaults.lora_targets 4), then the
	 * MLP's gate, up and down projections.  With grouped-query attention
	 * k and v project to kv_heads x head_dim only (Llama 2 70B: 1,024 of
	 * 8,192), as do the fused qkv adapters NVIDIA's MLPerf implementation
	 * trains (linear_qkv: 8,192 in, 10,240 out). */
	double t = d->lora_targets.value > 0 ? d->lora_targets.value : 4;
	double h = m->hidden, q = (double)m->heads * eng_head_dim(m);
	double kv = (double)(m->kv_heads > 0 ? m->kv_heads : m->heads) * eng_head_dim(m);
	if (m->mla_kv_lora_rank > 0)
		kv = q;		/* MLA: keys and values expanded per head */
	const double io[] = { h + q, h + kv, h + kv, q + h, h + m->ffn, h + m->ffn, m->ffn + h };
	double per_layer = 0;
	for (int i = 0; i < (int)(sizeof io / sizeof io[0]) && i < t; i++)
		per_layer += io[i];
	return (double)rank * per_layer * m->layers;
}

/* Of Korthikanti's 34 h, 10 h are kept only for the MLP's weight
 * gradients: fc1's input (2 h) and fc2's, the 4h-wide activation output
 * (8 h); the activation function's own input (8 h) serves the data
 * gradient.  A frozen base (LoRA, QLoRA) computes no weight gradient for
 * a matrix without an adapter (its backward pass is dY W^T alone), so
 * with the adapters on the attention projections only
 * (defaults.lora_targets at most 4: q, k, v and o, as the MLPerf
 * reference wraps them) the MLP keeps neither input. */
double eng_act_kept_h(const struct catalog_defaults *d, const struct workload *w)
{
	bool frozen = w->cls == WL_FINETUNE && w->method != FT_FULL;
	double t = d->lora_targets.value > 0 ? d->lora_targets.value : 4;
	return frozen && t <= 4 ? 24.0 : 34.0;
}

/* What a layer keeps per token without recompute beyond selective's: the
 * attention kernel's fp32 softmax statistics, one per query head (4 a
 * bytes).  Korthikanti et al. 2022 count the s x s scores and their
 * dropout mask (5 a s bytes), but every training stack of the catalog runs
 * a fused attention (FlashAttention, Dao et al. 2022, section 3.1: the
 * backward pass recomputes the scores from Q, K, V, the output and the
 * statistics (m, l), which are all it stores), so the scores never reach
 * memory, with recompute or without. */
double eng_act_none_extra_tok(const struct catalog_model *m)
{
	return 4.0 * m->heads;
}

/* One forward pass per token: 2N for the weights (with any MTP modules)
 * and the attention core once, PaLM's 12 x L x H x Q x T split as a third
 * forward, two thirds backward. */
static void fwd_flops_token(const struct workload *w, double *pa_out, double *attn_out)
{
	const struct catalog_model *m = w->model;
	double mtp, mtp_shared, mtp_experts;
	eng_mtp_params(w, &mtp, &mtp_shared, &mtp_experts);
	double attn_fwd = eng_attn_train_flops_token(m, (double)w->seq_len);
	if (mtp > 0)	/* each module's block attends as a layer of the model */
		attn_fwd *= 1.0 + (double)m->mtp_layers / m->layers;
	*pa_out = eng_params_active(m) + mtp;
	*attn_out = attn_fwd;
}

double eng_eval_flops_token(const struct workload *w)
{
	double pa, attn_fwd;
	fwd_flops_token(w, &pa, &attn_fwd);
	return 2.0 * pa + attn_fwd;
}

void eng_train_flops_token(const struct workload *w, enum recompute rec, double *model_flops,
			   double *hw_flops)
{
	/* Forward 2N, backward 4N (activation and weight gradients); LoRA
	 * freezes the base, so the weight-gradient half of the backward pass
	 * goes: 4N. */
	bool frozen = w->cls == WL_FINETUNE && w->method != FT_FULL;
	double pa, attn_fwd;
	fwd_flops_token(w, &pa, &attn_fwd);
	double dense = (frozen ? 4.0 : 6.0) * pa;
	double model = dense + 3.0 * attn_fwd;
	double hw = model;
	if (rec == RECOMPUTE_FULL)
		hw += 2.0 * pa + attn_fwd;	/* one more forward pass: 8ND */
	else if (rec == RECOMPUTE_SELECTIVE)
		hw += attn_fwd;			/* the attention core again */
	*model_flops = model;
	*hw_flops = hw;
}

double eng_train_tokens(const struct workload *w)
{
	if (w->cls == WL_FINETUNE)
		return w->tokens * (w->epochs > 0 ? w->epochs : 1);
	return w->tokens;
}

void eng_params_label(double params, char *buf, size_t bufsz)
{
	double b = params / 1e9;
	if (b >= 9.95)
		snprintf(buf, bufsz, "%.0fB", b);
	else if (b >= 0.995)
		snprintf(buf, bufsz, "%.3gB", b);
	else
		snprintf(buf, bufsz, "%.0fM", params / 1e6);
}

bool eng_tp_valid(const struct catalog_model *m, int t)
{
	if (t <= 1)
		return true;
	/* Megatron splits heads and the FFN columns evenly; KV heads are
	 * either split or replicated so each GPU has a whole one. */
	if (m->heads % t)
		return false;
	if (m->mla_kv_lora_rank <= 0 && m->kv_heads % t && t % m->kv_heads)
		return false;
	if (m->ffn > 0 && m->ffn % t)
		return false;
	return true;
}

/* Model-state bytes per trained parameter (Adam) and the storage of the
 * frozen base (LoRA: its precision; QLoRA: NF4 with double quantisation). */
static double base_bytes_per_param(const struct catalog *c, const struct workload *w)
{
	if (w->cls == WL_FINETUNE && w->method == FT_QLORA)
		return c->defaults.nf4_bits.value / 8.0;
	return precision_bytes(w->precision);
}

void engine_requirements(const struct catalog *c, const struct workload *w,
			 struct engine_requirements *out)
{
	memset(out, 0, sizeof *out);
	const struct catalog_model *m = w->model;
	if (!m)
		return;
	const struct catalog_defaults *d = &c->defaults;
	double pa = eng_params_active(m);
	double kvb = precision_bytes(w->kv_precision);

	out->kv_bytes_per_token = eng_kv_bytes_per_token(m, kvb);
	out->flops_per_token = 2.0 * pa;

	if (w->cls == WL_INFERENCE) {
		double ctx = (double)(w->input_tokens + w->output_tokens);
		double mean_ctx = eng_decode_ctx_mean(w);
		double n = w->concurrency_max ? 1.0 : (double)w->concurrency;
		out->weights_gb = eng_weights_bytes(m, w->precision, false) / ENG_GB;
		out->kv_gb = n * eng_kv_seq_bytes_gpu(m, kvb, 1, ctx) / ENG_GB;
		/* A request: prefill 2 x P_a x I plus causal attention (on
		 * average I/2 earlier tokens), then O decode tokens. */
		double in = (double)w->input_tokens, o = (double)w->output_tokens;
		out->flops_total = 2.0 * pa * (in + o) + in * eng_attn_flops_token(m, in / 2.0) +
				   o * eng_attn_flops_token(m, mean_ctx);
		out->bytes_per_token = eng_weights_bytes(m, w->precision, true) +
				       eng_kv_seq_bytes_gpu(m, kvb, 1, mean_ctx);
		/* Two all-reduces of d activations (16 bit) per layer and token. */
		out->link_bytes_per_step = 2.0 * m->layers * m->hidden * 2.0;
		eng_spec_requirements(w, kvb, out);
		return;
	}

	double model_flops, hw_flops;
	eng_train_flops_token(w, w->recompute, &model_flops, &hw_flops);
	out->flops_total = model_flops * eng_train_tokens(w);

	double s = (double)w->seq_len, h = m->hidden;
	double b = d->micro_batch.value > 0 ? d->micro_batch.value : 1;
	double per_layer, kept = eng_act_kept_h(d, w);
	/* auto: shown as selective, what most layouts the search finds use */
	switch (w->recompute) {
	case RECOMPUTE_FULL:
		per_layer = 2.0 * s * b * h;
		break;
	case RECOMPUTE_AUTO:
	case RECOMPUTE_SELECTIVE:
		per_layer = kept * s * b * h;
		break;
	default:
		per_layer = s * b * (h * kept + eng_act_none_extra_tok(m));
		break;
	}
	out->activations_gb = per_layer * m->layers / ENG_GB;

	bool frozen = w->cls == WL_FINETUNE && w->method != FT_FULL;
	if (frozen) {
		out->adapter_params = eng_adapter_params(m, d, w->lora_rank);
		out->trained_params = out->adapter_params;
		out->weights_gb = m->params * base_bytes_per_param(c, w) / ENG_GB;
		out->optimizer_gb = out->adapter_params * d->adapter_bytes_per_param.value / ENG_GB;
	} else {
		double mtp, mtp_shared, mtp_experts;	/* the modules' weights train too */
		eng_mtp_params(w, &mtp, &mtp_shared, &mtp_experts);
		out->trained_params = m->params + mtp_shared + mtp_experts;
		out->weights_gb = out->trained_params * precision_bytes(w->precision) / ENG_GB;
		out->optimizer_gb = out->trained_params * d->adam_bytes_per_param.value / ENG_GB;
	}
	out->bytes_per_token = d->training_elementwise_bytes.value * h * m->layers;
	/* The data-parallel gradient all-reduce: 16-bit gradients; with
	 * experts, each MoE layer's all-to-alls besides (the step's tokens'
	 * 16-bit hidden states to their top-k experts and back, forward and
	 * backward: engine_train.c ep_comm_s()), when the experts are spread. */
	out->link_bytes_per_step = out->trained_params * 2.0;
	if (m->experts > 1 && m->experts_active > 0)
		out->link_bytes_per_step += w->global_batch_tokens * h * 2.0 * m->experts_active * 4.0 *
					    m->layers;
}

double eng_base_bytes_per_param(const struct catalog *c, const struct workload *w)
{
	return base_bytes_per_param(c, w);
}

/* int4 and w8a16 are weight-only, so their KV cache stays at 16 bit, and no serving
 * engine stores KV in fp4, so it gets fp8. */
enum precision engine_kv_precision_for(enum precision weights)
{
	switch (weights) {
	case PREC_INT4:
	case PREC_W8A16: return PREC_FP16;
	case PREC_FP4:
	case PREC_MXFP4: return PREC_FP8;
	default: return weights;
	}
}
