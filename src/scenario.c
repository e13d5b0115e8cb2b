/*
 * scenario: YAML load (ytree) and save (libyaml emitter).  One table lists
 * every workload setting with its section, key, type and the classes it
 * matters for; the loader, the emitter and the summary all walk it, so a
 * field can never be saved under one name and read under another.
 */
#include "scenario.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "atomic.h"
#include "ytree.h"

/* ---- the table ---- */

enum ftype {
	F_CLASS, F_PREC, F_LONG, F_DOUBLE, F_INT, F_CONCURRENCY, F_RECOMPUTE, F_METHOD,
	F_STACK, F_FORM, F_OBJECTIVE, F_ACCEL, F_GPUS, F_SPARE,
};

#define C_INF (1u << WL_INFERENCE)
#define C_PRE (1u << WL_PRETRAIN)
#define C_FT (1u << WL_FINETUNE)
#define C_ALL (C_INF | C_PRE | C_FT)

struct field {
	const char *section;		/* "" = top level */
	const char *key;
	enum ftype type;
	size_t off;
	unsigned classes;		/* where the summary shows it */
};
/* Numbers are checked against the engine's table (engine_limits.c), the
 * bounds the CLI flags and the wizard use too, so whatever they save
 * reopens and no file feeds the engine figures that overflow its
 * arithmetic. */

#define W(f) offsetof(struct workload, f)
static const struct field fields[] = {
	{ "workload", "class", F_CLASS, W(cls), C_ALL },
	/* model / custom_model are handled by hand: they are a choice. */
	{ "workload", "precision", F_PREC, W(precision), C_ALL },
	{ "workload", "kv_precision", F_PREC, W(kv_precision), C_INF },
	{ "workload", "input_tokens", F_LONG, W(input_tokens), C_INF },
	{ "workload", "output_tokens", F_LONG, W(output_tokens), C_INF },
	{ "workload", "concurrency", F_CONCURRENCY, W(concurrency), C_INF },
	{ "workload", "tokens_per_s_per_user", F_DOUBLE, W(tokens_per_s_per_user), C_INF },
	{ "workload", "ttft_ms", F_DOUBLE, W(ttft_ms), C_INF },
	{ "workload", "target_tokens_per_s", F_DOUBLE, W(target_tokens_per_s), C_INF },
	{ "workload", "tokens", F_DOUBLE, W(tokens), C_PRE | C_FT },
	{ "workload", "epochs", F_DOUBLE, W(epochs), C_FT },
	{ "workload", "target_hours", F_DOUBLE, W(target_hours), C_PRE | C_FT },
	{ "workload", "seq_len", F_LONG, W(seq_len), C_PRE | C_FT },
	{ "workload", "global_batch_tokens", F_DOUBLE, W(global_batch_tokens), C_PRE | C_FT },
	{ "workload", "recompute", F_RECOMPUTE, W(recompute), C_PRE | C_FT },
	{ "workload", "method", F_METHOD, W(method), C_FT },
	{ "workload", "lora_rank", F_INT, W(lora_rank), C_FT },
	{ "filters", "stack", F_STACK, W(stack), C_ALL },
	{ "filters", "form_factor", F_FORM, W(form), C_ALL },
	{ "filters", "max_power_kw", F_DOUBLE, W(max_power_kw), C_ALL },
	{ "filters", "budget_usd", F_DOUBLE, W(budget_usd), C_ALL },
	{ "", "objective", F_OBJECTIVE, W(objective), C_ALL },
	{ "", "accelerator", F_ACCEL, W(accel), C_ALL },
	{ "node", "gpus", F_GPUS, W(gpus), C_ALL },
	{ "node", "spare_nodes", F_SPARE, W(spare_nodes), C_ALL },
};
#undef W
#define N_FIELDS (sizeof fields / sizeof fields[0])

#define FIELD(w, f, T) ((T *)((char *)(w) + (f)->off))
#define CFIELD(w, f, T) ((const T *)((const char *)(w) + (f)->off))

/* Custom model figures: the catalog's models/ID.yaml keys (SCHEMA.md). */
enum mtype { M_TEXT, M_BILLIONS, M_INT, M_LONG };
struct mfield {
	const char *section;		/* "" or the nested mapping */
	const char *key;
	enum mtype type;
	size_t off;
	bool required;
	const char *limit;		/* key in the engine's table */
};
#define M(f) offsetof(struct catalog_model, f)
static const struct mfield mfields[] = {
	{ "", "id", M_TEXT, M(id), false, NULL },
	{ "", "name", M_TEXT, M(name), false, NULL },
	{ "", "family", M_TEXT, M(family), false, NULL },
	{ "", "params_b", M_BILLIONS, M(params), true, "params_b" },
	{ "", "active_params_b", M_BILLIONS, M(active_params), false, "active_params_b" },
	{ "", "layers", M_INT, M(layers), true, "layers" },
	{ "", "hidden_size", M_INT, M(hidden), true, "hidden_size" },
	{ "", "attention_heads", M_INT, M(heads), true, "attention_heads" },
	{ "", "kv_heads", M_INT, M(kv_heads), true, "kv_heads" },
	{ "", "head_dim", M_INT, M(head_dim), false, "head_dim" },
	{ "", "ffn_size", M_INT, M(ffn), false, "ffn_size" },
	{ "", "vocab_size", M_INT, M(vocab), false, "vocab_size" },
	{ "", "max_context", M_LONG, M(max_context), false, "max_context" },
	{ "experts", "total", M_INT, M(experts), false, "experts_total" },
	{ "experts", "active", M_INT, M(experts_active), false, "experts_active" },
	{ "mla", "kv_lora_rank", M_INT, M(mla_kv_lora_rank), false, "kv_lora_rank" },
	{ "mla", "qk_rope_head_dim", M_INT, M(mla_qk_rope_head_dim), false, "qk_rope_head_dim" },
	{ "sliding_window", "tokens", M_INT, M(sliding_window), false, "sliding_window_tokens" },
	{ "sliding_window", "layers", M_INT, M(sliding_layers), false, "sliding_window_layers" },
};
#undef M
#define N_MFIELDS (sizeof mfields / sizeof mfields[0])

/* ---- lifetime ---- */

static void custom_fini(struct catalog_model *m)
{
	free(m->id);
	free(m->name);
	free(m->family);
	memset(m, 0, sizeof *m);
}

void scenario_init(struct scenario *s, const struct catalog *c)
{
	memset(s, 0, sizeof *s);
	engine_workload_init(&s->w, c);
}

void scenario_fini(struct scenario *s)
{
	free(s->customer);
	free(s->opportunity);
	free(s->notes);
	custom_fini(&s->custom);
	memset(s, 0, sizeof *s);
}

void scenario_move(struct scenario *dst, struct scenario *src)
{
	if (dst == src)
		return;
	scenario_fini(dst);
	*dst = *src;
	if (src->has_custom && src->w.model == &src->custom)
		dst->w.model = &dst->custom;
	memset(src, 0, sizeof *src);
}

bool scenario_set_text(char **field, const char *text)
{
	char *copy = NULL;
	if (text && *text && !(copy = strdup(text)))
		return false;
	free(*field);
	*field = copy;
	return true;
}

bool scenario_set_custom_model(struct scenario *s, const struct catalog_model *m)
{
	struct catalog_model copy = *m;
	copy.id = strdup(m->id && *m->id ? m->id : "custom");
	copy.name = strdup(m->name && *m->name ? m->name : "custom model");
	copy.family = strdup(m->family && *m->family ? m->family : "custom");
	copy.sources = NULL;
	copy.n_sources = 0;
	copy.file = NULL;
	copy.line = 0;
	if (!copy.id || !copy.name || !copy.family) {
		custom_fini(&copy);
		return false;
	}
	if (copy.active_params <= 0)
		copy.active_params = copy.params;
	custom_fini(&s->custom);
	s->custom = copy;
	s->has_custom = true;
	s->w.model = &s->custom;
	return true;
}

/* ---- loading ---- */

struct loader {
	const char *path;
	const struct catalog *c;
	struct scenario *s;
	char *err;
	size_t errsz;
};

static bool lerr(struct loader *l, const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool lerr(struct loader *l, const struct ynode *n, const char *fmt, ...)
{
	char msg[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ytree_format_error(l->err, l->errsz, l->path, n, "%s", msg);
	return false;
}

static bool want_map(struct loader *l, const struct ynode *n, const char *what)
{
	char d[96];
	if (n && n->kind == YN_MAP)
		return true;
	return lerr(l, n, "%s must be a mapping, got %s", what, ynode_describe(n, d, sizeof d));
}

static bool want_word(struct loader *l, const struct ynode *n, const char *key, const char **out)
{
	char d[96];
	if (n && n->kind == YN_SCALAR && n->scalar[0] && !ynode_is_null(n)) {
		*out = n->scalar;
		return true;
	}
	return lerr(l, n, "'%s' must be a word, got %s", key, ynode_describe(n, d, sizeof d));
}

static bool unknown_id(struct loader *l, const struct ynode *n, const char *kind, unsigned mask,
		       const char *id)
{
	const char *near = l->c ? catalog_suggest(l->c, mask, id) : NULL;
	if (near)
		return lerr(l, n, "unknown %s '%s'; did you mean '%s'?", kind, id, near);
	return lerr(l, n, "unknown %s '%s' (accelsizer catalog list shows them)", kind, id);
}

/* "a, b, c": the accepted words, for messages. */
static void word_list(char *buf, size_t sz, const char *(*name)(int), int n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && len < sz; i++) {
		int m = snprintf(buf + len, sz - len, "%s%s", i ? ", " : "", name(i));
		if (m < 0)
			break;
		len += (size_t)m;
	}
}

static const char *prec_word(int i) { return precision_name((enum precision)i); }
static const char *class_word(int i) { return workload_class_name((enum workload_class)i); }
static const char *recompute_word(int i) { return recompute_name((enum recompute)i); }
static const char *method_word(int i) { return ft_method_name((enum ft_method)i); }
static const char *form_word(int i) { return form_filter_name((enum form_filter)i); }
static const char *objective_word(int i) { return objective_name((enum objective)i); }
static const char *stack_word(int i) { return i == 0 ? "any" : stack_name((enum stack)(i - 1)); }

static bool bad_word(struct loader *l, const struct ynode *n, const char *key,
		     const char *(*name)(int), int count)
{
	char list[256];
	word_list(list, sizeof list, name, count);
	return lerr(l, n, "'%s' must be one of %s, got '%s'", key, list, n->scalar);
}

static bool get_number(struct loader *l, const struct ynode *n, const char *key, double *out)
{
	char d[96];
	double v;
	if (!ynode_number(n, &v) || !isfinite(v))
		return lerr(l, n, "'%s' must be a number, got %s", key, ynode_describe(n, d, sizeof d));
	if (v < 0)
		return lerr(l, n, "'%s' cannot be negative, got %s", key, n->scalar);
	*out = v;
	return true;
}

static bool get_integer(struct loader *l, const struct ynode *n, const char *key, long min,
			long max, long *out)
{
	char d[96];
	long v;
	if (!ynode_integer(n, &v)) {
		double x;
		if (ynode_number(n, &x))
			return lerr(l, n, "'%s' must be a whole number, got %s", key, n->scalar);
		return lerr(l, n, "'%s' must be a whole number, got %s", key,
			    ynode_describe(n, d, sizeof d));
	}
	if (v < min || v > max)
		return lerr(l, n, "'%s' must be between %ld and %ld, got %ld", key, min, max, v);
	*out = v;
	return true;
}

/* Scalars that only a person reads: any text, or a plain null for none. */
static bool get_text(struct loader *l, const struct ynode *n, const char *key, char **out)
{
	char d[96];
	if (!n || n->kind != YN_SCALAR)
		return lerr(l, n, "'%s' must be text, got %s", key, ynode_describe(n, d, sizeof d));
	if (!scenario_set_text(out, ynode_is_null(n) ? NULL : n->scalar))
		return lerr(l, n, "out of memory");
	return true;
}

/* A number against the engine's table: "'gpus' 0 is out of range (1 to
 * 65536)", the range worded as the CLI and the wizard word it. */
static bool within(struct loader *l, const struct ynode *n, const char *key, const char *limit,
		   double v)
{
	const struct engine_field_limit *lim = engine_field_limit(limit);
	char why[112];
	if (!lim)
		return lerr(l, n, "'%s' has no bound in the engine's table (a bug)", key);
	if (engine_field_check(lim, v, why, sizeof why))
		return true;
	return lerr(l, n, "'%s' %s is %s", key, n->scalar, why);
}

static bool apply_field(struct loader *l, const struct field *f, const struct ynode *n)
{
	struct workload *w = &l->s->w;
	const char *word;
	long v;
	switch (f->type) {
	case F_CLASS: {
		enum workload_class x;
		if (!want_word(l, n, f->key, &word))
			return false;
		if (!workload_class_parse(word, &x))
			return bad_word(l, n, f->key, class_word, WL_COUNT);
		*FIELD(w, f, enum workload_class) = x;
		return true;
	}
	case F_PREC: {
		enum precision x;
		if (!want_word(l, n, f->key, &word))
			return false;
		if (!precision_parse(word, &x) || x >= PREC_WORKLOAD_COUNT)
			return bad_word(l, n, f->key, prec_word, PREC_WORKLOAD_COUNT);
		*FIELD(w, f, enum precision) = x;
		return true;
	}
	case F_RECOMPUTE: {
		enum recompute x;
		if (!want_word(l, n, f->key, &word))
			return false;
		if (!recompute_parse(word, &x))
			return bad_word(l, n, f->key, recompute_word, RECOMPUTE_COUNT);
		*FIELD(w, f, enum recompute) = x;
		return true;
	}
	case F_METHOD: {
		enum ft_method x;
		if (!want_word(l, n, f->key, &word))
			return false;
		if (!ft_method_parse(word, &x))
			return bad_word(l, n, f->key, method_word, FT_COUNT);
		*FIELD(w, f, enum ft_method) = x;
		return true;
	}
	case F_FORM: {
		enum form_filter x;
		if (!want_word(l, n, f->key, &word))
			return false;
		if (!form_filter_parse(word, &x))
			return bad_word(l, n, f->key, form_word, FORMF_COUNT);
		*FIELD(w, f, enum form_filter) = x;
		return true;
	}
	case F_OBJECTIVE: {
		enum objective x;
		if (!want_word(l, n, f->key, &word))
			return false;
		if (!objective_parse(word, &x))
			return bad_word(l, n, f->key, objective_word, OBJ_COUNT);
		*FIELD(w, f, enum objective) = x;
		return true;
	}
	case F_STACK: {
		enum stack x;
		if (!want_word(l, n, f->key, &word))
			return false;
		if (!strcmp(word, "any"))
			*FIELD(w, f, int) = -1;
		else if (stack_parse(word, &x))
			*FIELD(w, f, int) = (int)x;
		else
			return bad_word(l, n, f->key, stack_word, STACK_COUNT + 1);
		return true;
	}
	case F_ACCEL: {
		if (ynode_is_null(n)) {
			w->accel = NULL;
			return true;
		}
		if (!want_word(l, n, f->key, &word))
			return false;
		const struct catalog_accel *a = catalog_accel(l->c, word);
		if (!a)
			return unknown_id(l, n, "accelerator", CATALOG_ACCELERATORS, word);
		w->accel = a;
		return true;
	}
	case F_LONG:
		if (!get_integer(l, n, f->key, LONG_MIN, LONG_MAX, &v) || !within(l, n, f->key, f->key, (double)v))
			return false;
		*FIELD(w, f, long) = v;
		return true;
	case F_INT:
		if (!get_integer(l, n, f->key, LONG_MIN, LONG_MAX, &v) || !within(l, n, f->key, f->key, (double)v))
			return false;
		*FIELD(w, f, int) = (int)v;
		return true;
	case F_DOUBLE: {
		double d;
		if (!get_number(l, n, f->key, &d))
			return false;
		if (!within(l, n, f->key, f->key, d))
			return false;
		*FIELD(w, f, double) = d;
		return true;
	}
	case F_CONCURRENCY:
		if (n && n->kind == YN_SCALAR && !strcmp(n->scalar, "max")) {
			w->concurrency_max = true;
			return true;
		}
		if (!ynode_integer(n, &v)) {
			char d[96];
			return lerr(l, n, "'concurrency' must be a whole number or max, got %s",
				    ynode_describe(n, d, sizeof d));
		}
		if (!get_integer(l, n, f->key, LONG_MIN, LONG_MAX, &v) || !within(l, n, f->key, f->key, (double)v))
			return false;
		w->concurrency = v;
		w->concurrency_max = false;
		return true;
	case F_GPUS:
		if (n && n->kind == YN_SCALAR && !strcmp(n->scalar, "auto")) {
			w->gpus = -1;
			return true;
		}
		if (!ynode_integer(n, &v)) {
			char d[96];
			return lerr(l, n, "'gpus' must be a whole number or auto, got %s",
				    ynode_describe(n, d, sizeof d));
		}
		if (!get_integer(l, n, f->key, LONG_MIN, LONG_MAX, &v) || !within(l, n, f->key, f->key, (double)v))
			return false;
		w->gpus = (int)v;
		return true;
	case F_SPARE:
		if (n && n->kind == YN_SCALAR && !strcmp(n->scalar, "default")) {
			w->spare_nodes = -1;
			return true;
		}
		if (!ynode_integer(n, &v)) {
			char d[96];
			return lerr(l, n, "'spare_nodes' must be a whole number or default, got %s",
				    ynode_describe(n, d, sizeof d));
		}
		if (!get_integer(l, n, f->key, LONG_MIN, LONG_MAX, &v) || !within(l, n, f->key, f->key, (double)v))
			return false;
		w->spare_nodes = (int)v;
		return true;
	}
	return false;
}

static const struct field *find_field(const char *section, const char *key)
{
	for (size_t i = 0; i < N_FIELDS; i++)
		if (!strcmp(fields[i].section, section) && !strcmp(fields[i].key, key))
			return &fields[i];
	return NULL;
}

static bool load_custom_model(struct loader *l, const struct ynode *map)
{
	if (!want_map(l, map, "'custom_model'"))
		return false;
	struct catalog_model m;
	memset(&m, 0, sizeof m);
	bool seen[N_MFIELDS] = { false };
	bool ok = true;
	for (size_t i = 0; ok && i < map->n; i++) {
		const struct ynode *k = map->keys[i], *v = map->items[i];
		bool nested = false, known = false;
		for (size_t j = 0; j < N_MFIELDS; j++)
			if (*mfields[j].section && !strcmp(mfields[j].section, k->scalar))
				nested = true;
		if (nested) {
			char what[64];
			snprintf(what, sizeof what, "'%s'", k->scalar);
			if (!want_map(l, v, what)) {
				ok = false;
				break;
			}
		}
		size_t nk = nested ? v->n : 1;
		for (size_t q = 0; ok && q < nk; q++) {
			const struct ynode *kk = nested ? v->keys[q] : k;
			const struct ynode *vv = nested ? v->items[q] : v;
			known = false;
			for (size_t j = 0; j < N_MFIELDS; j++) {
				const struct mfield *f = &mfields[j];
				if (strcmp(f->section, nested ? k->scalar : "") || strcmp(f->key, kk->scalar))
					continue;
				known = true;
				seen[j] = true;
				long iv;
				double dv;
				char *text = NULL;
				switch (f->type) {
				case M_TEXT:
					ok = get_text(l, vv, f->key, &text);
					if (ok) {
						free(*(char **)((char *)&m + f->off));
						*(char **)((char *)&m + f->off) = text;
					}
					break;
				case M_BILLIONS:
					ok = get_number(l, vv, f->key, &dv);
					if (ok && dv == 0 && f->required)
						ok = lerr(l, vv, "'%s' must be above zero", f->key);
					/* 1e308 billions would be an infinite count */
					if (ok)
						ok = within(l, vv, f->key, f->limit, dv);
					if (ok)
						*(double *)((char *)&m + f->off) = dv * 1e9;
					break;
				case M_INT:
					ok = get_integer(l, vv, f->key, LONG_MIN, LONG_MAX, &iv) &&
					     within(l, vv, f->key, f->limit, (double)iv);
					if (ok)
						*(int *)((char *)&m + f->off) = (int)iv;
					break;
				case M_LONG:
					ok = get_integer(l, vv, f->key, LONG_MIN, LONG_MAX, &iv) &&
					     within(l, vv, f->key, f->limit, (double)iv);
					if (ok)
						*(long *)((char *)&m + f->off) = iv;
					break;
				}
				break;
			}
			if (ok && !known) {
				if (nested)
					ok = lerr(l, kk, "unknown key '%s' in custom_model.%s", kk->scalar,
						  k->scalar);
				else
					ok = lerr(l, kk, "unknown key '%s' in custom_model", kk->scalar);
			}
		}
	}
	for (size_t j = 0; ok && j < N_MFIELDS; j++)
		if (mfields[j].required && !seen[j])
			ok = lerr(l, map, "custom_model needs '%s'", mfields[j].key);
	if (ok && m.active_params > m.params)
		ok = lerr(l, ytree_get(map, "active_params_b"),
			  "'active_params_b' cannot exceed 'params_b'");
	if (ok && !scenario_set_custom_model(l->s, &m))
		ok = lerr(l, map, "out of memory");
	custom_fini(&m);
	return ok;
}

static bool load_workload(struct loader *l, const struct ynode *map)
{
	if (!want_map(l, map, "'workload'"))
		return false;
	const struct ynode *model = ytree_get(map, "model");
	const struct ynode *custom = ytree_get(map, "custom_model");
	if (model && custom) {
		const struct ynode *later = NULL;
		for (size_t i = 0; i < map->n; i++)
			if (!strcmp(map->keys[i]->scalar, "model") ||
			    !strcmp(map->keys[i]->scalar, "custom_model"))
				later = map->keys[i];
		return lerr(l, later, "give either 'model' or 'custom_model', not both");
	}
	for (size_t i = 0; i < map->n; i++) {
		const struct ynode *k = map->keys[i], *v = map->items[i];
		if (!strcmp(k->scalar, "model")) {
			const char *id;
			if (!want_word(l, v, "model", &id))
				return false;
			const struct catalog_model *m = catalog_model(l->c, id);
			if (!m)
				return unknown_id(l, v, "model", CATALOG_MODELS, id);
			l->s->w.model = m;
			continue;
		}
		if (!strcmp(k->scalar, "custom_model")) {
			if (!load_custom_model(l, v))
				return false;
			continue;
		}
		const struct field *f = find_field("workload", k->scalar);
		if (!f) {
			if (find_field("filters", k->scalar) || find_field("node", k->scalar) ||
			    find_field("", k->scalar))
				return lerr(l, k, "'%s' belongs %s, not under workload", k->scalar,
					    find_field("filters", k->scalar) ? "under filters"
					    : find_field("node", k->scalar) ? "under node" : "at the top level");
			return lerr(l, k, "unknown key '%s' in workload", k->scalar);
		}
		if (!apply_field(l, f, v))
			return false;
	}
	return true;
}

static bool load_section(struct loader *l, const char *section, const struct ynode *map)
{
	char what[48];
	snprintf(what, sizeof what, "'%s'", section);
	if (!want_map(l, map, what))
		return false;
	for (size_t i = 0; i < map->n; i++) {
		const struct field *f = find_field(section, map->keys[i]->scalar);
		if (!f)
			return lerr(l, map->keys[i], "unknown key '%s' in %s", map->keys[i]->scalar,
				    section);
		if (!apply_field(l, f, map->items[i]))
			return false;
	}
	return true;
}

static bool load_root(struct loader *l, const struct ynode *root)
{
	if (!root)
		return lerr(l, NULL, "empty scenario file: expected a mapping starting with "
			    "'schema: %d'", SCENARIO_SCHEMA);
	if (!want_map(l, root, "a scenario"))
		return false;
	/* The schema first: a newer file may use keys this version does not
	 * know, and that is what the user needs to hear. */
	const struct ynode *schema = ytree_get(root, "schema");
	long v;
	if (!schema)
		return lerr(l, root, "missing 'schema: %d' (every scenario file starts with it)",
			    SCENARIO_SCHEMA);
	if (!ynode_integer(schema, &v)) {
		char d[96];
		return lerr(l, schema, "'schema' must be a whole number, got %s",
			    ynode_describe(schema, d, sizeof d));
	}
	if (v > SCENARIO_SCHEMA)
		return lerr(l, schema, "scenario schema %ld is newer than this accelsizer understands (%d)",
			    v, SCENARIO_SCHEMA);
	if (v < 1)
		return lerr(l, schema, "scenario schema %ld does not exist: use %d", v, SCENARIO_SCHEMA);

	for (size_t i = 0; i < root->n; i++) {
		const struct ynode *k = root->keys[i], *val = root->items[i];
		const char *key = k->scalar;
		bool ok;
		if (!strcmp(key, "schema"))
			ok = true;
		else if (!strcmp(key, "customer"))
			ok = get_text(l, val, key, &l->s->customer);
		else if (!strcmp(key, "opportunity"))
			ok = get_text(l, val, key, &l->s->opportunity);
		else if (!strcmp(key, "notes"))
			ok = get_text(l, val, key, &l->s->notes);
		else if (!strcmp(key, "workload"))
			ok = load_workload(l, val);
		else if (!strcmp(key, "filters") || !strcmp(key, "node"))
			ok = load_section(l, key, val);
		else if (find_field("", key))
			ok = apply_field(l, find_field("", key), val);
		else if (find_field("workload", key))
			ok = lerr(l, k, "'%s' belongs under workload", key);
		else
			ok = lerr(l, k, "unknown key '%s' (a scenario has schema, customer, opportunity, "
				  "notes, workload, filters, objective, accelerator, node)", key);
		if (!ok)
			return false;
	}
	/* gpus without an accelerator is for engine_workload_valid() to refuse:
	 * on the command line --accelerator may come after --scenario. */
	return true;
}

static bool apply_tree(const struct ytree *t, const char *path, const struct catalog *c,
		       struct scenario *s, char *err, size_t errsz)
{
	struct loader l = { .path = path, .c = c, .s = s, .err = err, .errsz = errsz };
	/* Whether the file names a KV precision: it is the derived default
	 * unless it says otherwise. */
	enum precision kv_before = s->w.kv_precision;
	s->w.kv_precision = PREC_COUNT;
	bool ok = load_root(&l, t->root);
	if (s->w.kv_precision == PREC_COUNT) {
		s->w.kv_precision = kv_before;	/* not in the file: as it was */
	} else if (ok) {
		/* One equal to what the precision implies is that default
		 * (the wizard saves it either way); another is the user's. */
		s->w.kv_precision_set = s->w.kv_precision != engine_kv_precision_default(s->w.precision);
	}
	if (ok)
		engine_workload_derive(&s->w);
	return ok;
}

bool scenario_apply_workload(const char *path, const struct ynode *map, const struct catalog *c,
			     struct scenario *s, char *err, size_t errsz)
{
	struct loader l = { .path = path, .c = c, .s = s, .err = err, .errsz = errsz };
	return load_workload(&l, map);
}

bool scenario_apply_file(const char *path, const struct catalog *c, struct scenario *s,
			 char *err, size_t errsz)
{
	struct ytree *t = ytree_parse_file(path, err, errsz);
	if (!t)
		return false;
	bool ok = apply_tree(t, path, c, s, err, errsz);
	ytree_free(t);
	return ok;
}

/* A whole scenario must also make sense as a workload (context within the
 * model's, a GPU count with an accelerator...): the engine's own check,
 * placed at the workload mapping. */
static bool check_whole(const struct ytree *t, const char *path, const struct scenario *s,
			char *err, size_t errsz)
{
	char why[256];
	if (engine_workload_valid(&s->w, why, sizeof why))
		return true;
	const struct ynode *at = t->root ? ytree_get(t->root, "workload") : NULL;
	const struct ynode *node = t->root ? ytree_get(t->root, "node") : NULL;
	if (s->w.gpus != -1 && !s->w.accel && node && node->kind == YN_MAP && ytree_get(node, "gpus"))
		at = ytree_get(node, "gpus");
	if (!at && t->root)
		at = t->root;
	ytree_format_error(err, errsz, path, at, "%s", why);
	return false;
}

static bool load_tree(struct ytree *t, const char *path, const struct catalog *c,
		      struct scenario *out, char *err, size_t errsz)
{
	if (!t)
		return false;
	bool ok = apply_tree(t, path, c, out, err, errsz) && check_whole(t, path, out, err, errsz);
	ytree_free(t);
	return ok;
}

bool scenario_load(const char *path, const struct catalog *c, struct scenario *out,
		   char *err, size_t errsz)
{
	scenario_init(out, c);
	return load_tree(ytree_parse_file(path, err, errsz), path, c, out, err, errsz);
}

bool scenario_load_string(const char *name, const char *text, size_t len,
			  const struct catalog *c, struct scenario *out, char *err, size_t errsz)
{
	scenario_init(out, c);
	return load_tree(ytree_parse_string(name, text, len, err, errsz), name, c, out, err, errsz);
}

/* ---- values as text (emitter and summary) ---- */

/* The shortest decimal that reads back as exactly v. */
static void format_double(double v, char *buf, size_t sz)
{
	/* Whole numbers as whole numbers ("800", not "8e+02"). */
	if (fabs(v) < 1e15 && v == floor(v)) {
		snprintf(buf, sz, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sz, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* A parameter count as the billions the file holds, chosen so that the
 * loader's billions x 1e9 gives back exactly the same double. */
static void format_billions(double params, char *buf, size_t sz)
{
	double b = params / 1e9;
	for (int k = 0; k < 4 && b * 1e9 != params; k++)
		b = nextafter(b, b * 1e9 < params ? INFINITY : -INFINITY);
	format_double(b, buf, sz);
}

static void field_value(const struct workload *w, const struct field *f, char *buf, size_t sz)
{
	switch (f->type) {
	case F_CLASS:
		snprintf(buf, sz, "%s", workload_class_name(*CFIELD(w, f, enum workload_class)));
		break;
	case F_PREC:
		snprintf(buf, sz, "%s", precision_name(*CFIELD(w, f, enum precision)));
		break;
	case F_RECOMPUTE:
		snprintf(buf, sz, "%s", recompute_name(*CFIELD(w, f, enum recompute)));
		break;
	case F_METHOD:
		snprintf(buf, sz, "%s", ft_method_name(*CFIELD(w, f, enum ft_method)));
		break;
	case F_FORM:
		snprintf(buf, sz, "%s", form_filter_name(*CFIELD(w, f, enum form_filter)));
		break;
	case F_OBJECTIVE:
		snprintf(buf, sz, "%s", objective_name(*CFIELD(w, f, enum objective)));
		break;
	case F_STACK: {
		int st = *CFIELD(w, f, int);
		snprintf(buf, sz, "%s", st < 0 ? "any" : stack_name((enum stack)st));
		break;
	}
	case F_ACCEL:
		snprintf(buf, sz, "%s", w->accel ? w->accel->id : "");
		break;
	case F_LONG:
		snprintf(buf, sz, "%ld", *CFIELD(w, f, long));
		break;
	case F_INT:
		snprintf(buf, sz, "%d", *CFIELD(w, f, int));
		break;
	case F_DOUBLE:
		format_double(*CFIELD(w, f, double), buf, sz);
		break;
	case F_CONCURRENCY:
		if (w->concurrency_max)
			snprintf(buf, sz, "max");
		else
			snprintf(buf, sz, "%ld", w->concurrency);
		break;
	case F_GPUS:
		if (w->gpus < 0)
			snprintf(buf, sz, "auto");
		else
			snprintf(buf, sz, "%d", w->gpus);
		break;
	case F_SPARE:
		if (w->spare_nodes < 0)
			snprintf(buf, sz, "default");
		else
			snprintf(buf, sz, "%d", w->spare_nodes);
		break;
	}
}

static void model_value(const struct catalog_model *m, char *buf, size_t sz)
{
	if (!m) {
		snprintf(buf, sz, "none");
		return;
	}
	if (m->file) {
		snprintf(buf, sz, "%s", m->id);
		return;
	}
	char p[32];
	format_billions(m->params, p, sizeof p);
	snprintf(buf, sz, "custom: %s, %sB parameters, %d layers, hidden %d, %d heads, %d KV heads",
		 m->name ? m->name : "custom model", p, m->layers, m->hidden, m->heads, m->kv_heads);
}

void scenario_each_setting(const struct workload *w, scenario_setting_fn fn, void *ctx)
{
	char buf[256];
	unsigned cls = 1u << w->cls;
	for (size_t i = 0; i < N_FIELDS; i++) {
		const struct field *f = &fields[i];
		if (!(f->classes & cls))
			continue;
		if (f->type == F_ACCEL && !w->accel)
			continue;
		/* A rank means nothing for a full fine-tune. */
		if (!strcmp(f->key, "lora_rank") && w->method == FT_FULL)
			continue;
		field_value(w, f, buf, sizeof buf);
		fn(f->section, f->key, buf, ctx);
		if (f->type == F_CLASS) {
			model_value(w->model, buf, sizeof buf);
			fn("workload", "model", buf, ctx);
		}
	}
}

/* ---- saving: libyaml's emitter ---- */

struct emit {
	yaml_emitter_t e;
	yaml_event_t ev;
	bool ok;
};

static void emit_event(struct emit *m)
{
	if (m->ok && !yaml_emitter_emit(&m->e, &m->ev))
		m->ok = false;
}

static void emit_scalar(struct emit *m, const char *s, yaml_scalar_style_t style)
{
	if (!m->ok)
		return;
	/* Plain words and numbers get the implicit tag; quoted text is a
	 * string whatever it looks like. */
	yaml_scalar_event_initialize(&m->ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s),
				     1, 1, style);
	emit_event(m);
}

static void emit_key(struct emit *m, const char *k)
{
	emit_scalar(m, k, YAML_PLAIN_SCALAR_STYLE);
}

static void emit_map_start(struct emit *m)
{
	if (!m->ok)
		return;
	yaml_mapping_start_event_initialize(&m->ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	emit_event(m);
}

static void emit_map_end(struct emit *m)
{
	if (!m->ok)
		return;
	yaml_mapping_end_event_initialize(&m->ev);
	emit_event(m);
}

static void emit_text(struct emit *m, const char *key, const char *text)
{
	if (!text)
		return;
	emit_key(m, key);
	/* Literal block for several lines reads best; libyaml falls back to
	 * double quotes by itself whenever a block cannot hold the text
	 * exactly (trailing spaces, control characters...). */
	emit_scalar(m, text, strchr(text, '\n') ? YAML_LITERAL_SCALAR_STYLE
		    : YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

static void emit_fields(struct emit *m, const struct workload *w, const char *section)
{
	char buf[64];
	for (size_t i = 0; i < N_FIELDS; i++) {
		const struct field *f = &fields[i];
		if (strcmp(f->section, section) || (f->type == F_ACCEL && !w->accel))
			continue;
		field_value(w, f, buf, sizeof buf);
		emit_key(m, f->key);
		emit_scalar(m, buf, YAML_PLAIN_SCALAR_STYLE);
	}
}

static void emit_custom_model(struct emit *m, const struct catalog_model *cm)
{
	emit_key(m, "custom_model");
	emit_map_start(m);
	const char *open = NULL;
	char buf[64];
	for (size_t j = 0; j < N_MFIELDS; j++) {
		const struct mfield *f = &mfields[j];
		const char *p = (const char *)cm + f->off;
		bool zero = (f->type == M_INT && *(const int *)p == 0) ||
			    (f->type == M_LONG && *(const long *)p == 0) ||
			    (f->type == M_TEXT && !*(char *const *)p);
		/* Optional zeros are "not given", and nested sections appear
		 * only when they hold something. */
		if (zero && !f->required)
			continue;
		if (f->off == offsetof(struct catalog_model, active_params) &&
		    cm->active_params == cm->params)
			continue;
		if (open && strcmp(open, f->section)) {
			emit_map_end(m);
			open = NULL;
		}
		if (*f->section && !open) {
			emit_key(m, f->section);
			emit_map_start(m);
			open = f->section;
		}
		emit_key(m, f->key);
		switch (f->type) {
		case M_TEXT:
			emit_scalar(m, *(char *const *)p ? *(char *const *)p : "",
				    YAML_DOUBLE_QUOTED_SCALAR_STYLE);
			break;
		case M_BILLIONS:
			format_billions(*(const double *)p, buf, sizeof buf);
			emit_scalar(m, buf, YAML_PLAIN_SCALAR_STYLE);
			break;
		case M_INT:
			snprintf(buf, sizeof buf, "%d", *(const int *)p);
			emit_scalar(m, buf, YAML_PLAIN_SCALAR_STYLE);
			break;
		case M_LONG:
			snprintf(buf, sizeof buf, "%ld", *(const long *)p);
			emit_scalar(m, buf, YAML_PLAIN_SCALAR_STYLE);
			break;
		}
	}
	if (open)
		emit_map_end(m);
	emit_map_end(m);
}

bool scenario_emit(const struct scenario *s, FILE *fp, char *err, size_t errsz)
{
	struct emit m = { .ok = true };
	if (!yaml_emitter_initialize(&m.e)) {
		snprintf(err, errsz, "out of memory");
		return false;
	}
	yaml_emitter_set_output_file(&m.e, fp);
	yaml_emitter_set_unicode(&m.e, 1);	/* UTF-8 as is, not \u escapes */
	yaml_emitter_set_width(&m.e, -1);	/* no folding of long quoted text */
	yaml_emitter_set_indent(&m.e, 2);

	yaml_stream_start_event_initialize(&m.ev, YAML_UTF8_ENCODING);
	emit_event(&m);
	if (m.ok) {
		yaml_document_start_event_initialize(&m.ev, NULL, NULL, NULL, 1);
		emit_event(&m);
	}
	emit_map_start(&m);
	char buf[64];
	snprintf(buf, sizeof buf, "%d", SCENARIO_SCHEMA);
	emit_key(&m, "schema");
	emit_scalar(&m, buf, YAML_PLAIN_SCALAR_STYLE);
	emit_text(&m, "customer", s->customer);
	emit_text(&m, "opportunity", s->opportunity);
	emit_text(&m, "notes", s->notes);

	const struct workload *w = &s->w;
	emit_key(&m, "workload");
	emit_map_start(&m);
	for (size_t i = 0; i < N_FIELDS; i++) {
		const struct field *f = &fields[i];
		if (strcmp(f->section, "workload"))
			continue;
		field_value(w, f, buf, sizeof buf);
		emit_key(&m, f->key);
		emit_scalar(&m, buf, YAML_PLAIN_SCALAR_STYLE);
		if (f->type == F_CLASS && w->model) {
			/* Catalog models carry their file; anything else is a
			 * custom model and goes out with its figures. */
			if (w->model->file) {
				emit_key(&m, "model");
				emit_scalar(&m, w->model->id, YAML_PLAIN_SCALAR_STYLE);
			} else {
				emit_custom_model(&m, w->model);
			}
		}
	}
	emit_map_end(&m);
	emit_key(&m, "filters");
	emit_map_start(&m);
	emit_fields(&m, w, "filters");
	emit_map_end(&m);
	emit_fields(&m, w, "");
	emit_key(&m, "node");
	emit_map_start(&m);
	emit_fields(&m, w, "node");
	emit_map_end(&m);
	emit_map_end(&m);
	if (m.ok) {
		yaml_document_end_event_initialize(&m.ev, 1);
		emit_event(&m);
	}
	if (m.ok) {
		yaml_stream_end_event_initialize(&m.ev);
		emit_event(&m);
	}
	if (m.ok && !yaml_emitter_flush(&m.e))
		m.ok = false;
	if (!m.ok)
		snprintf(err, errsz, "cannot write the scenario: %s",
			 m.e.problem ? m.e.problem : strerror(errno ? errno : EIO));
	yaml_emitter_delete(&m.e);
	return m.ok;
}

static bool write_scenario_cb(FILE *fp, void *ctx, char *err, size_t errsz)
{
	return scenario_emit(ctx, fp, err, errsz);
}

bool scenario_save(const char *path, const struct scenario *s, char *err, size_t errsz)
{
	return atomic_write(path, write_scenario_cb, (void *)s, err, errsz);
}
