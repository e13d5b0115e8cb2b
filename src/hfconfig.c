/*
 * hfconfig: a Hugging Face config.json as a model's figures (hfconfig.h).
 *
 * The keys are those of transformers' configuration classes (LlamaConfig,
 * MistralConfig, MixtralConfig, Qwen2/3(Moe)Config, DeepseekV3Config,
 * GptOssConfig), as the published config.json files spell them:
 *
 *   num_hidden_layers            layers                       required
 *   hidden_size                  hidden_size                  required
 *   num_attention_heads          attention_heads              required
 *   num_key_value_heads          kv_heads       absent: = attention heads (MHA)
 *   head_dim                     head_dim       absent or null: hidden / heads
 *   intermediate_size            ffn_size (dense), or experts.dense_ffn_size
 *                                when moe_intermediate_size gives the experts'
 *   vocab_size                   vocab_size                   required
 *   max_position_embeddings      max_context                  required
 *   num_local_experts | n_routed_experts | num_experts
 *                                experts.total  (absent, null or 0: dense)
 *   num_experts_per_tok          experts.active (required with experts)
 *   moe_intermediate_size        ffn_size, per routed expert
 *   n_shared_experts             experts.shared
 *   shared_expert_intermediate_size   experts.shared, in routed-expert widths
 *   first_k_dense_replace        experts.dense_layers
 *   kv_lora_rank                 mla.kv_lora_rank (present: MLA)
 *   qk_rope_head_dim             mla.qk_rope_head_dim (required with MLA)
 *   q_lora_rank                  mla.q_lora_rank (null: full-rank queries)
 *   v_head_dim                   head_dim under MLA (= qk_nope_head_dim)
 *   sliding_window               sliding_window.tokens (null: none; also
 *                                none when use_sliding_window is false)
 *   layer_types                  sliding_window.layers: the entries that
 *                                say "sliding_attention"
 *   max_window_layers            with use_sliding_window true (Qwen2): the
 *                                layers from this index on use the window
 *   tie_word_embeddings          the output head shares the embedding
 *                                (absent: false, LlamaConfig's default)
 *   num_nextn_predict_layers     mtp_layers: multi-token prediction modules
 *                                (DeepSeek-V3), drafts for speculative decoding
 *   _name_or_path, model_type    the model's name and family
 *
 * A multimodal config keeps the language model under text_config; it is
 * read from there when the top level has no num_hidden_layers.
 * config.json does not say whether the MLP is gated: it is taken as gated
 * (three matrices), as in every family above; set ffn_matrices in the
 * scenario's custom_model for a plain MLP.  Parameters are counted from the
 * shapes (engine_model_params()) and kept to the million.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "hfconfig.h"
#include "ytree.h"

struct rd {
	const char *path;
	const struct ynode *map;	/* the mapping the keys are read from */
	struct hfconfig *out;
	char *err;
	size_t errsz;
};

static bool fail(struct rd *r, const struct ynode *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool fail(struct rd *r, const struct ynode *at, const char *fmt, ...)
{
	char msg[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ytree_format_error(r->err, r->errsz, r->path, at, "%s", msg);
	return false;
}

/* The value of key, or NULL when it is absent or null. */
static const struct ynode *value(const struct rd *r, const char *key)
{
	const struct ynode *v = ytree_get(r->map, key);
	return v && !ynode_is_null(v) ? v : NULL;
}

/* key's whole number into *out; absent (or null) leaves *out and *at alone
 * and returns true.  *at is where the value stands, for later messages. */
static bool get_int(struct rd *r, const char *key, long *out, const struct ynode **at)
{
	const struct ynode *v = value(r, key);
	if (!v)
		return true;
	if (!ynode_integer(v, out)) {
		char d[96];
		return fail(r, v, "'%s' must be a whole number, got %s", key, ynode_describe(v, d, sizeof d));
	}
	if (at)
		*at = v;
	return true;
}

/* A key the model cannot be sized without. */
static bool need_int(struct rd *r, const char *key, const char *what, long *out, const struct ynode **at)
{
	*at = NULL;
	if (!get_int(r, key, out, at))
		return false;
	if (!*at)
		return fail(r, r->map, "no '%s' (%s) in this config.json", key, what);
	return true;
}

/* Stores v as figure id after the table's bounds (the ones a catalog model
 * and a scenario's custom_model are held to). */
static bool put(struct rd *r, enum catalog_model_figure_id id, const char *key, const struct ynode *at,
		double v)
{
	const struct catalog_model_figure *f = &catalog_model_figures[id];
	struct engine_field_limit lim = engine_model_figure_limit(f);
	lim.zero_none = false;	/* what a config.json states is a size: 0 is refused */
	char why[160];
	if (!engine_field_check(&lim, v, why, sizeof why)) {
		if (f->type == MFT_BILLIONS)
			return fail(r, at, "%s computed from the shapes, %.4gB, is %s", f->label, v, why);
		return fail(r, at, "'%s' %.0f (%s) is %s", key, v, f->label, why);
	}
	catalog_model_figure_set(&r->out->m, f, v);
	return true;
}

static bool get_bool(struct rd *r, const char *key, bool *out)
{
	const struct ynode *v = value(r, key);
	if (v && !ynode_bool(v, out)) {
		char d[96];
		return fail(r, v, "'%s' must be true or false, got %s", key, ynode_describe(v, d, sizeof d));
	}
	return true;
}

static void get_text(const struct rd *r, const char *key, char *buf, size_t sz)
{
	const struct ynode *v = value(r, key);
	if (v && v->kind == YN_SCALAR && v->scalar[0])
		snprintf(buf, sz, "%s", v->scalar);
}

/* Layers, widths, heads, vocabulary, context. */
static bool read_core(struct rd *r)
{
	static const struct { const char *key, *what; enum catalog_model_figure_id id; } core[] = {
		{ "num_hidden_layers", "the number of layers", MF_LAYERS },
		{ "hidden_size", "the hidden size", MF_HIDDEN },
		{ "num_attention_heads", "the number of attention heads", MF_HEADS },
		{ "vocab_size", "the vocabulary size", MF_VOCAB },
		{ "max_position_embeddings", "the longest context", MF_MAX_CONTEXT },
	};
	for (size_t i = 0; i < sizeof core / sizeof core[0]; i++) {
		long v;
		const struct ynode *at;
		if (!need_int(r, core[i].key, core[i].what, &v, &at) || !put(r, core[i].id, core[i].key, at, (double)v))
			return false;
	}
	struct catalog_model *m = &r->out->m;
	long kv = m->heads;
	const struct ynode *at = r->map;
	if (!get_int(r, "num_key_value_heads", &kv, &at) || !put(r, MF_KV_HEADS, "num_key_value_heads", at, (double)kv))
		return false;
	if (m->heads % m->kv_heads)
		return fail(r, at, "'num_key_value_heads' %d does not divide 'num_attention_heads' %d", m->kv_heads,
			    m->heads);
	return true;
}

/* Multi-head latent attention (DeepSeek-V2/V3, Kimi K2): the engine models
 * one head width for the non-RoPE query/key part and the value, which is
 * what these models publish. */
static bool read_mla(struct rd *r, const struct ynode *rank_at, long rank)
{
	long rope = 0, q = 0, v = 0, nope = -1;
	const struct ynode *rope_at, *v_at, *q_at = NULL, *nope_at = NULL;
	if (!put(r, MF_MLA_KV_LORA_RANK, "kv_lora_rank", rank_at, (double)rank) ||
	    !need_int(r, "qk_rope_head_dim", "the RoPE part of an MLA head", &rope, &rope_at) ||
	    !put(r, MF_MLA_QK_ROPE_HEAD_DIM, "qk_rope_head_dim", rope_at, (double)rope) ||
	    !need_int(r, "v_head_dim", "the value width of an MLA head", &v, &v_at) ||
	    !put(r, MF_HEAD_DIM, "v_head_dim", v_at, (double)v) || !get_int(r, "q_lora_rank", &q, &q_at) ||
	    !get_int(r, "qk_nope_head_dim", &nope, &nope_at))
		return false;
	if (q_at && !put(r, MF_MLA_Q_LORA_RANK, "q_lora_rank", q_at, (double)q))
		return false;
	if (nope_at && nope != v)
		return fail(r, nope_at, "'qk_nope_head_dim' %ld differs from 'v_head_dim' %ld: MLA is modelled with one head width",
			    nope, v);
	return true;
}

static bool read_attention(struct rd *r)
{
	long rank = 0;
	const struct ynode *at = NULL;
	if (!get_int(r, "kv_lora_rank", &rank, &at))
		return false;
	if (at)
		return read_mla(r, at, rank);
	struct catalog_model *m = &r->out->m;
	long hd = 0;
	at = NULL;
	if (!get_int(r, "head_dim", &hd, &at))
		return false;
	if (at)
		return put(r, MF_HEAD_DIM, "head_dim", at, (double)hd);
	if (m->hidden % m->heads)
		return fail(r, r->map, "no 'head_dim', and 'hidden_size' %d is not a multiple of 'num_attention_heads' %d",
			    m->hidden, m->heads);
	return put(r, MF_HEAD_DIM, "head_dim", r->map, (double)(m->hidden / m->heads));
}

/* The routed experts' count under any of the three names in use. */
static bool experts_key(struct rd *r, long *n, const struct ynode **at, const char **key)
{
	static const char *const names[] = { "num_local_experts", "n_routed_experts", "num_experts" };
	for (size_t i = 0; i < 3; i++) {
		*key = names[i];
		if (!get_int(r, names[i], n, at))
			return false;
		if (*at)
			return true;
	}
	return true;
}

/* Shared experts, counted in routed-expert widths: DeepSeek states how
 * many, Qwen2-MoE one shared MLP of its own width. */
static bool read_shared(struct rd *r)
{
	struct catalog_model *m = &r->out->m;
	long n = 0, width = 0;
	const struct ynode *at = NULL, *w_at = NULL;
	if (!get_int(r, "n_shared_experts", &n, &at) ||
	    !get_int(r, "shared_expert_intermediate_size", &width, &w_at))
		return false;
	if (!at && w_at && width > 0) {
		if (width % m->ffn)
			return fail(r, w_at, "'shared_expert_intermediate_size' %ld is not a whole number of %d-wide experts",
				    width, m->ffn);
		n = width / m->ffn;
		at = w_at;
	}
	return n == 0 || put(r, MF_EXPERTS_SHARED, at == w_at ? "shared_expert_intermediate_size" : "n_shared_experts",
			     at, (double)n);
}

static bool read_moe(struct rd *r, long experts, const struct ynode *e_at, const char *e_key)
{
	struct catalog_model *m = &r->out->m;
	long k = 0, ffn = 0, dense_ffn = 0, dense = 0, step = 1;
	const struct ynode *k_at, *ffn_at = NULL, *d_at = NULL, *df_at = NULL, *s_at = NULL;
	if (!put(r, MF_EXPERTS, e_key, e_at, (double)experts) ||
	    !need_int(r, "num_experts_per_tok", "the experts each token is routed to", &k, &k_at) ||
	    !put(r, MF_EXPERTS_ACTIVE, "num_experts_per_tok", k_at, (double)k))
		return false;
	if (k > experts)
		return fail(r, k_at, "'num_experts_per_tok' %ld is more than the %ld experts", k, experts);
	if (!get_int(r, "interleave_moe_layer_step", &step, &s_at))
		return false;
	if (s_at && step != 1)
		return fail(r, s_at, "'interleave_moe_layer_step' %ld: MoE layers between dense ones are not modelled",
			    step);
	/* the experts' width: moe_intermediate_size where the model also has
	 * dense MLPs of intermediate_size, else intermediate_size itself */
	if (!get_int(r, "moe_intermediate_size", &ffn, &ffn_at) ||
	    !get_int(r, "intermediate_size", &dense_ffn, &df_at))
		return false;
	if (!ffn_at) {
		if (!df_at)
			return fail(r, r->map, "no 'intermediate_size' (the width of an expert) in this config.json");
		ffn = dense_ffn, ffn_at = df_at, df_at = NULL;
	}
	if (!put(r, MF_FFN, ffn_at == df_at ? "intermediate_size" : "moe_intermediate_size", ffn_at, (double)ffn) ||
	    !read_shared(r) || !get_int(r, "first_k_dense_replace", &dense, &d_at))
		return false;
	if (dense <= 0)
		return true;
	if (dense > m->layers)
		return fail(r, d_at, "'first_k_dense_replace' %ld is more than the %d layers", dense, m->layers);
	if (!df_at)
		return fail(r, r->map, "no 'intermediate_size' (the width of the %ld dense layers) in this config.json",
			    dense);
	return put(r, MF_DENSE_LAYERS, "first_k_dense_replace", d_at, (double)dense) &&
	       put(r, MF_DENSE_FFN, "intermediate_size", df_at, (double)dense_ffn);
}

static bool read_ffn(struct rd *r)
{
	long experts = 0;
	const struct ynode *at = NULL;
	const char *key;
	if (!experts_key(r, &experts, &at, &key))
		return false;
	if (at && experts > 0)
		return read_moe(r, experts, at, key);
	long ffn;
	return need_int(r, "intermediate_size", "the feed-forward width", &ffn, &at) &&
	       put(r, MF_FFN, "intermediate_size", at, (double)ffn);
}

/* How many of layer_types' entries are sliding-window layers; -1 when the
 * config has no such list. */
static int count_sliding(struct rd *r, bool *bad)
{
	const struct ynode *lt = value(r, "layer_types");
	*bad = false;
	if (!lt)
		return -1;
	if (lt->kind != YN_SEQ) {
		char d[96];
		*bad = !fail(r, lt, "'layer_types' must be a list, got %s", ynode_describe(lt, d, sizeof d));
		return -1;
	}
	if ((long)lt->n != r->out->m.layers) {
		*bad = !fail(r, lt, "'layer_types' lists %zu layers, 'num_hidden_layers' says %d", lt->n,
			     r->out->m.layers);
		return -1;
	}
	int n = 0;
	for (size_t i = 0; i < lt->n; i++)
		n += lt->items[i]->kind == YN_SCALAR && !strcmp(lt->items[i]->scalar, "sliding_attention");
	return n;
}

static bool read_window(struct rd *r)
{
	struct catalog_model *m = &r->out->m;
	bool use = true, bad;
	long win = 0, from = 0;
	const struct ynode *at = NULL, *from_at = NULL;
	if (!get_bool(r, "use_sliding_window", &use) || !get_int(r, "sliding_window", &win, &at))
		return false;
	if (!use || !at || win == 0)
		return true;
	int sliding = count_sliding(r, &bad);
	if (bad)
		return false;
	if (sliding < 0 && ytree_get(r->map, "use_sliding_window")) {
		if (!get_int(r, "max_window_layers", &from, &from_at))
			return false;
		if (from_at && (from < 0 || from > m->layers))
			return fail(r, from_at, "'max_window_layers' %ld is not a layer index (0 to %d)", from, m->layers);
		sliding = from_at ? m->layers - (int)from : m->layers;
	}
	if (sliding == 0)
		return true;	/* a window no layer uses */
	if (!put(r, MF_SLIDING_WINDOW, "sliding_window", at, (double)win))
		return false;
	/* 0 (or absent) means every layer */
	return sliding < 0 || sliding == m->layers ||
	       put(r, MF_SLIDING_LAYERS, "layer_types", value(r, "layer_types") ? value(r, "layer_types") : from_at,
		   sliding);
}

static bool read_params(struct rd *r)
{
	struct hfconfig *h = r->out;
	long mtp = 0;
	const struct ynode *mtp_at = NULL;
	if (!get_bool(r, "tie_word_embeddings", &h->tied_embeddings) ||
	    !get_int(r, "num_nextn_predict_layers", &mtp, &mtp_at))
		return false;
	if (mtp_at && mtp != 0 && !put(r, MF_MTP_LAYERS, "num_nextn_predict_layers", mtp_at, (double)mtp))
		return false;
	/* to the million (0.001B, the figure's typed precision): a count as
	 * model cards print it, and one the wizard shows as "8.03B" */
	double p = round(engine_model_params(&h->m, h->tied_embeddings) / 1e6) / 1e3;
	if (!put(r, MF_PARAMS, "params", r->map, p))
		return false;
	if (h->m.experts <= 0)
		return true;
	return put(r, MF_ACTIVE_PARAMS, "active params", r->map,
		   round(engine_model_active_params(&h->m, h->tied_embeddings) / 1e6) / 1e3);
}

static bool read_model(struct rd *r, const struct ynode *root)
{
	if (!root || root->kind != YN_MAP) {
		char d[96];
		return fail(r, root, "a config.json is one JSON object, got %s", ynode_describe(root, d, sizeof d));
	}
	r->map = root;
	const struct ynode *text = ytree_get(root, "text_config");
	if (!ytree_get(root, "num_hidden_layers") && text && text->kind == YN_MAP)
		r->map = text;
	struct hfconfig *h = r->out;
	snprintf(h->family, sizeof h->family, "custom");
	get_text(r, "model_type", h->family, sizeof h->family);
	snprintf(h->name, sizeof h->name, "%s (config.json)", h->family);
	const struct ynode *name = ytree_get(root, "_name_or_path");	/* the whole model's */
	if (name && name->kind == YN_SCALAR && name->scalar[0])
		snprintf(h->name, sizeof h->name, "%s", name->scalar);
	h->m.name = h->name;
	h->m.family = h->family;
	h->m.ffn_matrices = 3;
	return read_core(r) && read_attention(r) && read_ffn(r) && read_window(r) && read_params(r);
}

static bool finish(struct rd *r, struct ytree *t)
{
	bool ok = t && read_model(r, t->root);
	ytree_free(t);
	if (!ok)
		memset(r->out, 0, sizeof *r->out);
	return ok;
}

bool hfconfig_load(const char *path, struct hfconfig *out, char *err, size_t errsz)
{
	struct rd r = { .path = path, .out = out, .err = err, .errsz = errsz };
	memset(out, 0, sizeof *out);
	return finish(&r, ytree_parse_file(path, err, errsz));
}

bool hfconfig_load_string(const char *name, const char *text, size_t len, struct hfconfig *out,
			  char *err, size_t errsz)
{
	struct rd r = { .path = name, .out = out, .err = err, .errsz = errsz };
	memset(out, 0, sizeof *out);
	return finish(&r, ytree_parse_string(name, text, len, err, errsz));
}
