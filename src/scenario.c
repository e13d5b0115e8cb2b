/*
 * scenario: YAML load (ytree) and save (libyaml emitter).  The workload's
 * settings are the engine's table of fields (engine_fields.c: section, key,
 * type, bounds, the classes each matters for) and a custom model's figures
 * the catalog's table (CATALOG_MODEL_FIGURES); the loader, the emitter and
 * the summary all walk them, so a field can never be saved under one name
 * and read under another, nor accepted here and refused by the CLI.
 */
#include "scenario.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "out.h"
#include "ytree.h"

/* ---- the tables ---- */

/* A custom model's text keys; its figures are CATALOG_MODEL_FIGURES. */
static const struct { const char *key; size_t off; } model_texts[] = {
	{ "id", offsetof(struct catalog_model, id) },
	{ "name", offsetof(struct catalog_model, name) },
	{ "family", offsetof(struct catalog_model, family) },
};
#define N_MODEL_TEXTS (sizeof model_texts / sizeof model_texts[0])

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
	for (size_t i = 0; i < s->n_entries; i++)
		free(s->entries[i].name);
	free(s->entries);
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

void scenario_share_settings(struct scenario *s)
{
	for (int i = 0; i < EF_COUNT; i++) {
		const struct engine_field *f = engine_field((enum engine_field_id)i);
		if (!f->section || !strcmp(f->section, "workload"))
			continue;
		for (size_t e = 0; e < s->n_entries; e++)
			memcpy((char *)&s->entries[e].w + f->off, (const char *)&s->w + f->off,
			       engine_field_size(f));
	}
	for (size_t e = 0; e < s->n_entries; e++)
		s->entries[e].w.prices = s->w.prices;
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

/* A number in the one syntax (number.h: "2k", "2,048", "$3M") from a
 * plain scalar; a quoted one is text, whatever it holds.  The range is
 * the caller's (within()). */
static bool get_value(struct loader *l, const struct ynode *n, const char *key,
		      enum number_syntax syn, const char *unit, const char *word, bool integer,
		      double *out)
{
	char d[96], why[160];
	double v;
	if (!n || n->kind != YN_SCALAR || !n->plain || !number_parse(n->scalar, syn, unit, &v, why, sizeof why)) {
		if (word)
			return lerr(l, n, "'%s' must be a whole number or %s, got %s", key, word,
				    ynode_describe(n, d, sizeof d));
		return lerr(l, n, "'%s' must be a %snumber, got %s", key, integer ? "whole " : "",
			    ynode_describe(n, d, sizeof d));
	}
	if (integer && isfinite(v) && v != floor(v))
		return lerr(l, n, "'%s' must be a whole number, got %s", key, n->scalar);
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
static bool within(struct loader *l, const struct ynode *n, const char *key,
		   const struct engine_field_limit *lim, double v)
{
	char why[112];
	if (engine_field_check(lim, v, why, sizeof why))
		return true;
	return lerr(l, n, "'%s' %s is %s", key, n->scalar, why);
}

static bool apply_choice(struct loader *l, const struct engine_field *f, const struct ynode *n)
{
	const char *word;
	int v;
	if (!want_word(l, n, f->key, &word))
		return false;
	if (!f->choice->parse(word, &v)) {
		char list[256];
		size_t len = 0;
		list[0] = '\0';
		for (int i = 0; i < f->choice->count && len < sizeof list; i++) {
			int m = snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
					 f->choice->name(f->choice->first + i));
			if (m < 0)
				break;
			len += (size_t)m;
		}
		return lerr(l, n, "'%s' must be one of %s, got '%s'", f->key, list, n->scalar);
	}
	engine_field_put(&l->s->w, f, v);
	return true;
}

static bool apply_field(struct loader *l, const struct engine_field *f, const struct ynode *n)
{
	struct workload *w = &l->s->w;
	const char *word;
	switch (f->type) {
	case EFT_ENUM:
		return apply_choice(l, f, n);
	case EFT_ACCEL: {
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
	case EFT_DRAFT: {
		if (ynode_is_null(n)) {
			w->draft_model = NULL;
			return true;
		}
		if (!want_word(l, n, f->key, &word))
			return false;
		if (!strcmp(word, "mtp")) {
			w->draft_model = &engine_draft_mtp;
			return true;
		}
		const struct catalog_model *d = catalog_model(l->c, word);
		if (!d)
			return unknown_id(l, n, "model", CATALOG_MODELS, word);
		w->draft_model = d;
		return true;
	}
	case EFT_PLATFORM: {
		if (ynode_is_null(n)) {
			w->platform = NULL;
			return true;
		}
		if (!want_word(l, n, f->key, &word))
			return false;
		if (!strcmp(word, "auto")) {
			w->platform = NULL;
			return true;
		}
		const struct catalog_platform *p = catalog_platform(l->c, word);
		if (!p)
			return unknown_id(l, n, "platform", CATALOG_PLATFORMS, word);
		w->platform = p;
		return true;
	}
	case EFT_MODEL:
		return false;	/* load_workload() takes model and custom_model */
	case EFT_INT:
	case EFT_LONG:
	case EFT_DOUBLE: {
		if (f->word && n && n->kind == YN_SCALAR && !strcmp(n->scalar, f->word)) {
			engine_field_put_word(w, f);
			return true;
		}
		double d;
		if (!get_value(l, n, f->key, f->syntax, f->unit, f->word, f->type != EFT_DOUBLE, &d) ||
		    !within(l, n, f->key, &f->lim, d))
			return false;
		engine_field_put(w, f, d);
		if (f == engine_field(EF_CONCURRENCY))
			w->concurrency_max = false;
		return true;
	}
	}
	return false;
}

static const struct engine_field *find_field(const char *section, const char *key)
{
	return engine_field_by_key(section, key);
}

/* Is figure f "section.key" (or "key" when section is "")? */
static bool figure_is(const struct catalog_model_figure *f, const char *section, const char *key)
{
	const char *dot = strchr(f->key, '.');
	if (!*section)
		return !dot && !strcmp(f->key, key);
	size_t n = strlen(section);
	return dot && (size_t)(dot - f->key) == n && !strncmp(f->key, section, n) && !strcmp(dot + 1, key);
}

/* The key a message names: the last part ("total" of "experts.total"). */
static const char *figure_word(const struct catalog_model_figure *f)
{
	const char *dot = strchr(f->key, '.');
	return dot ? dot + 1 : f->key;
}

static bool is_figure_group(const char *key)
{
	for (size_t j = 0; j < MF_COUNT; j++) {
		const char *dot = strchr(catalog_model_figures[j].key, '.');
		if (dot && strlen(key) == (size_t)(dot - catalog_model_figures[j].key) &&
		    !strncmp(catalog_model_figures[j].key, key, strlen(key)))
			return true;
	}
	return false;
}

static bool load_figure(struct loader *l, struct catalog_model *m, const struct catalog_model_figure *f,
			const struct ynode *v)
{
	const char *key = figure_word(f);
	struct engine_field_limit lim = engine_model_figure_limit(f);
	char *p = (char *)m + f->off;
	double dv;
	/* billions are typed as a plain number ("70"); the counts of layers,
	 * heads or context take the count suffixes ("128k") */
	if (!get_value(l, v, key, f->type == MFT_BILLIONS ? NUM_PLAIN : NUM_COUNT, NULL, NULL,
		       f->type != MFT_BILLIONS, &dv))
		return false;
	if (dv == 0 && f->custom_required && f->type == MFT_BILLIONS)
		return lerr(l, v, "'%s' must be above zero", key);
	/* 1e308 billions would be an infinite count */
	if (!within(l, v, key, &lim, dv))
		return false;
	switch (f->type) {
	case MFT_BILLIONS:
		dv *= 1e9;
		memcpy(p, &dv, sizeof dv);
		return true;
	case MFT_INT: {
		int i = (int)dv;
		memcpy(p, &i, sizeof i);
		return true;
	}
	case MFT_LONG: {
		long iv = (long)dv;
		memcpy(p, &iv, sizeof iv);
		return true;
	}
	}
	return false;
}

/* One key of custom_model (in section "" or a nested mapping). */
static bool load_model_key(struct loader *l, struct catalog_model *m, bool *seen, const char *section,
			   const struct ynode *k, const struct ynode *v)
{
	if (!*section)
		for (size_t j = 0; j < N_MODEL_TEXTS; j++)
			if (!strcmp(model_texts[j].key, k->scalar)) {
				char *text = NULL, **dst = (char **)((char *)m + model_texts[j].off);
				if (!get_text(l, v, k->scalar, &text))
					return false;
				free(*dst);
				*dst = text;
				return true;
			}
	for (size_t j = 0; j < MF_COUNT; j++)
		if (figure_is(&catalog_model_figures[j], section, k->scalar)) {
			seen[j] = true;
			return load_figure(l, m, &catalog_model_figures[j], v);
		}
	if (*section)
		return lerr(l, k, "unknown key '%s' in custom_model.%s", k->scalar, section);
	return lerr(l, k, "unknown key '%s' in custom_model", k->scalar);
}

static bool load_custom_model(struct loader *l, const struct ynode *map)
{
	if (!want_map(l, map, "'custom_model'"))
		return false;
	struct catalog_model m;
	memset(&m, 0, sizeof m);
	bool seen[MF_COUNT] = { false };
	bool ok = true;
	for (size_t i = 0; ok && i < map->n; i++) {
		const struct ynode *k = map->keys[i], *v = map->items[i];
		if (!is_figure_group(k->scalar)) {
			ok = load_model_key(l, &m, seen, "", k, v);
			continue;
		}
		char what[64];
		snprintf(what, sizeof what, "'%s'", k->scalar);
		ok = want_map(l, v, what);
		for (size_t q = 0; ok && q < v->n; q++)
			ok = load_model_key(l, &m, seen, k->scalar, v->keys[q], v->items[q]);
	}
	for (size_t j = 0; ok && j < MF_COUNT; j++)
		if (catalog_model_figures[j].custom_required && !seen[j])
			ok = lerr(l, map, "custom_model needs '%s'", catalog_model_figures[j].key);
	if (ok && m.active_params > m.params)
		ok = lerr(l, ytree_get(map, "active_params_b"),
			  "'active_params_b' cannot exceed 'params_b'");
	if (ok && !scenario_set_custom_model(l->s, &m))
		ok = lerr(l, map, "out of memory");
	custom_fini(&m);
	return ok;
}

/* Keys of a workloads: entry that are not workload fields. */
static bool entry_key(const char *k)
{
	return !strcmp(k, "name") || !strcmp(k, "hours_per_week") || !strcmp(k, "share");
}

static bool load_workload_keys(struct loader *l, const struct ynode *map, bool entry);

static bool load_workload(struct loader *l, const struct ynode *map)
{
	return load_workload_keys(l, map, false);
}

static bool load_workload_keys(struct loader *l, const struct ynode *map, bool entry)
{
	if (!want_map(l, map, entry ? "a workloads: entry" : "'workload'"))
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
		if (entry && entry_key(k->scalar))
			continue;
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
			if (entry)
				return lerr(l, k, "custom_model is not taken inside workloads: (use a catalog model id)");
			if (!load_custom_model(l, v))
				return false;
			continue;
		}
		const struct engine_field *f = find_field("workload", k->scalar);
		if (!f) {
			if (find_field("filters", k->scalar) || find_field("node", k->scalar) ||
			    find_field("costs", k->scalar) || find_field("", k->scalar))
				return lerr(l, k, "'%s' belongs %s, not under workload", k->scalar,
					    find_field("filters", k->scalar) ? "under filters"
					    : find_field("node", k->scalar) ? "under node"
					    : find_field("costs", k->scalar) ? "under costs" : "at the top level");
			return lerr(l, k, "unknown key '%s' in workload", k->scalar);
		}
		if (!apply_field(l, f, v))
			return false;
	}
	/* As on the command line, the KV cache follows the precision unless
	 * the file gives its own; one equal to what the precision implies is
	 * that default (the wizard saves it either way), another the user's. */
	if (ytree_get(map, "kv_precision"))
		l->s->w.kv_precision_set =
			l->s->w.kv_precision != engine_kv_precision_for(l->s->w.precision);
	else if (ytree_get(map, "precision"))
		l->s->w.kv_precision_set = false;
	engine_workload_derive(&l->s->w);
	return true;
}

static bool load_section(struct loader *l, const char *section, const struct ynode *map)
{
	char what[48];
	snprintf(what, sizeof what, "'%s'", section);
	if (!want_map(l, map, what))
		return false;
	for (size_t i = 0; i < map->n; i++) {
		const struct engine_field *f = find_field(section, map->keys[i]->scalar);
		if (!f)
			return lerr(l, map->keys[i], "unknown key '%s' in %s", map->keys[i]->scalar,
				    section);
		if (!apply_field(l, f, map->items[i]))
			return false;
	}
	return true;
}

const struct engine_field_limit scenario_hours_limit = SCENARIO_HOURS_LIMIT;

/* The share of the week of an entry: hours_per_week (0 to 168) or share
 * (0 to 1], training and fine-tuning only; 1 when not given. */
static bool load_share(struct loader *l, const struct ynode *map, struct scenario_entry *e)
{
	const struct ynode *h = ytree_get(map, "hours_per_week"), *sh = ytree_get(map, "share");
	double v;
	e->share = 1;
	if (!h && !sh)
		return true;
	if (h && sh)
		return lerr(l, sh, "give either 'hours_per_week' or 'share', not both");
	if (e->w.cls == WL_INFERENCE)
		return lerr(l, h ? h : sh, "'%s' applies to training and fine-tuning, not to serving",
			    h ? "hours_per_week" : "share");
	const struct engine_field_limit sl = { 0, 1, false, false, NULL };
	if (!get_value(l, h ? h : sh, h ? "hours_per_week" : "share", h ? NUM_TIME : NUM_PLAIN,
		       h ? "h" : NULL, NULL, false, &v) ||
	    !within(l, h ? h : sh, h ? "hours_per_week" : "share", h ? &scenario_hours_limit : &sl, v))
		return false;
	if (!(v > 0))
		return lerr(l, h ? h : sh, "'%s' must be more than 0", h ? "hours_per_week" : "share");
	e->share = h ? v / SCENARIO_WEEK_HOURS : v;
	return true;
}

static bool load_entry(struct loader *l, const struct ynode *map, const struct workload *base,
		       struct scenario_entry *e)
{
	char why[256];
	if (!want_map(l, map, "a workloads: entry"))
		return false;
	const struct ynode *name = ytree_get(map, "name");
	if (!name)
		return lerr(l, map, "a workloads: entry needs a 'name'");
	l->s->w = *base;
	if (!get_text(l, name, "name", &e->name) || !load_workload_keys(l, map, true))
		return false;
	if (!e->name || !e->name[0] || !strcmp(e->name, "total"))
		return lerr(l, name, "'name' must be text other than 'total' (the cluster's row)");
	e->w = l->s->w;
	if (!engine_workload_valid(&e->w, why, sizeof why))
		return lerr(l, map, "%s", why);
	return load_share(l, map, e);
}

static bool load_entries(struct loader *l, const struct ynode *list)
{
	char d[96];
	if (list->kind != YN_SEQ || list->n < 1)
		return lerr(l, list, "'workloads' must be a list of one or more workloads, got %s",
			    ynode_describe(list, d, sizeof d));
	if (list->n > SCENARIO_MAX_WORKLOADS)
		return lerr(l, list, "'workloads' holds %zu workloads; at most %d", list->n,
			    SCENARIO_MAX_WORKLOADS);
	struct workload base = l->s->w;
	struct scenario_entry *es = calloc(list->n, sizeof *es);
	if (!es)
		return lerr(l, list, "out of memory");
	l->s->entries = es;
	for (size_t i = 0; i < list->n; i++) {
		l->s->n_entries = i + 1;
		if (!load_entry(l, list->items[i], &base, &es[i]))
			return false;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(es[j].name, es[i].name))
				return lerr(l, ytree_get(list->items[i], "name"),
					    "workload name '%s' is used twice", es[i].name);
	}
	/* A list of one is that workload, as under workload:. */
	l->s->w = es[0].w;
	if (list->n == 1) {
		free(es[0].name);
		free(es);
		l->s->entries = NULL;
		l->s->n_entries = 0;
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
			ok = ytree_get(root, "workloads")
			     ? lerr(l, k, "give either 'workload' or 'workloads', not both")
			     : load_workload(l, val);
		else if (!strcmp(key, "workloads"))
			ok = true;	/* after the rest: filters apply to every entry */
		else if (!strcmp(key, "share_gpus"))
			ok = ynode_bool(val, &l->s->share_gpus) ||
			     lerr(l, val, "'share_gpus' must be true or false");
		else if (!strcmp(key, "filters") || !strcmp(key, "node") || !strcmp(key, "costs"))
			ok = load_section(l, key, val);
		else if (find_field("", key))
			ok = apply_field(l, find_field("", key), val);
		else if (find_field("workload", key))
			ok = lerr(l, k, "'%s' belongs under workload", key);
		else
			ok = lerr(l, k, "unknown key '%s' (a scenario has schema, customer, opportunity, "
				  "notes, workload or workloads, share_gpus, filters, objective, accelerator, node, costs)", key);
		if (!ok)
			return false;
	}
	/* gpus without an accelerator is for engine_workload_valid() to refuse:
	 * on the command line --accelerator may come after --scenario. */
	const struct ynode *list = ytree_get(root, "workloads");
	return !list || load_entries(l, list);
}

static bool apply_tree(const struct ytree *t, const char *path, const struct catalog *c,
		       struct scenario *s, char *err, size_t errsz)
{
	struct loader l = { .path = path, .c = c, .s = s, .err = err, .errsz = errsz };
	return load_root(&l, t->root);
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

static void field_value(const struct workload *w, const struct engine_field *f, char *buf, size_t sz)
{
	switch (f->type) {
	case EFT_ENUM:
		snprintf(buf, sz, "%s", f->choice->name((int)engine_field_get(w, f)));
		return;
	case EFT_ACCEL:
		snprintf(buf, sz, "%s", w->accel ? w->accel->id : "");
		return;
	case EFT_DRAFT:
		snprintf(buf, sz, "%s", w->draft_model ? w->draft_model->id : "");
		return;
	case EFT_PLATFORM:
		snprintf(buf, sz, "%s", w->platform ? w->platform->id : "");
		return;
	case EFT_MODEL:
		buf[0] = '\0';
		return;
	case EFT_INT:
	case EFT_LONG:
		if (engine_field_is_word(w, f))
			snprintf(buf, sz, "%s", f->word);
		else
			snprintf(buf, sz, "%.0f", engine_field_get(w, f));
		return;
	case EFT_DOUBLE:
		if (engine_field_is_word(w, f))
			snprintf(buf, sz, "%s", f->word);
		else
			format_double(engine_field_get(w, f), buf, sz);
		return;
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
	unsigned cls = ENGINE_CLASS(w->cls);
	for (int i = 0; i < EF_COUNT; i++) {
		const struct engine_field *f = engine_field((enum engine_field_id)i);
		if (!f->key || !(f->classes & cls))
			continue;
		if ((f->type == EFT_ACCEL && !w->accel) || (f->type == EFT_DRAFT && !w->draft_model) ||
		    (f->type == EFT_PLATFORM && !w->platform))
			continue;
		/* A rank means nothing for a full fine-tune. */
		if (f->lora_only && w->method == FT_FULL)
			continue;
		if (f->omit_zero && engine_field_get(w, f) == 0)
			continue;
		if (f->type == EFT_MODEL)
			model_value(w->model, buf, sizeof buf);
		else
			field_value(w, f, buf, sizeof buf);
		fn(f->section, f->key, buf, ctx);
	}
}

/* ---- saving: the one YAML emitter (out.h) ---- */

static void emit_text(struct out_yaml *m, const char *key, const char *text)
{
	if (!text)
		return;
	out_yaml_key(m, key);
	out_yaml_scalar(m, text, OUT_YAML_BLOCK);
}

static void emit_custom_model(struct out_yaml *m, const struct catalog_model *cm)
{
	out_yaml_key(m, "custom_model");
	out_yaml_map(m, true);
	for (size_t j = 0; j < N_MODEL_TEXTS; j++) {
		const char *text = *(char *const *)((const char *)cm + model_texts[j].off);
		if (!text)
			continue;
		out_yaml_key(m, model_texts[j].key);
		out_yaml_scalar(m, text, OUT_YAML_QUOTED);
	}
	const char *open = NULL;	/* the nested mapping being written */
	size_t open_len = 0;
	char buf[64];
	for (size_t j = 0; j < MF_COUNT; j++) {
		const struct catalog_model_figure *f = &catalog_model_figures[j];
		double v = catalog_model_figure_get(cm, f);
		/* Optional zeros are "not given", and nested sections appear
		 * only when they hold something. */
		if (v == 0 && !f->custom_required)
			continue;
		if (j == MF_ACTIVE_PARAMS && cm->active_params == cm->params)
			continue;
		const char *dot = strchr(f->key, '.');
		size_t sect_len = dot ? (size_t)(dot - f->key) : 0;
		if (open && (sect_len != open_len || strncmp(open, f->key, open_len))) {
			out_yaml_map(m, false);
			open = NULL;
		}
		if (dot && !open) {
			snprintf(buf, sizeof buf, "%.*s", (int)sect_len, f->key);
			out_yaml_key(m, buf);
			out_yaml_map(m, true);
			open = f->key;
			open_len = sect_len;
		}
		out_yaml_key(m, figure_word(f));
		if (f->type == MFT_BILLIONS) {
			double stored;
			memcpy(&stored, (const char *)cm + f->off, sizeof stored);
			format_billions(stored, buf, sizeof buf);
		} else
			snprintf(buf, sizeof buf, "%.0f", v);
		out_yaml_scalar(m, buf, OUT_YAML_PLAIN);
	}
	if (open)
		out_yaml_map(m, false);
	out_yaml_map(m, false);
}

/* The fields of one section in the table's order; the model as "model: ID"
 * for a catalog model, else as custom_model with its figures. */
static void emit_fields(struct out_yaml *m, const struct workload *w, const char *section)
{
	char buf[64];
	for (int i = 0; i < EF_COUNT; i++) {
		const struct engine_field *f = engine_field((enum engine_field_id)i);
		if (!f->key || strcmp(f->section, section) || (f->type == EFT_ACCEL && !w->accel) ||
		    (f->type == EFT_DRAFT && !w->draft_model) || (f->type == EFT_PLATFORM && !w->platform))
			continue;
		if (f->type == EFT_MODEL) {
			if (!w->model)
				continue;
			if (w->model->file) {
				out_yaml_key(m, "model");
				out_yaml_scalar(m, w->model->id, OUT_YAML_PLAIN);
			} else {
				emit_custom_model(m, w->model);
			}
			continue;
		}
		field_value(w, f, buf, sizeof buf);
		out_yaml_key(m, f->key);
		out_yaml_scalar(m, buf, OUT_YAML_PLAIN);
	}
}

/* An entry's share of the week as the loader reads it back to the same
 * double: hours_per_week when its shortest text does (8 stays 8), else
 * share to 17 digits; nothing for 1 (always). */
static void emit_share(struct out_yaml *m, double share)
{
	char buf[40];
	if (share >= 1)
		return;
	snprintf(buf, sizeof buf, "%.15g", share * SCENARIO_WEEK_HOURS);
	if (strtod(buf, NULL) / SCENARIO_WEEK_HOURS == share) {
		out_yaml_key(m, "hours_per_week");
	} else {
		snprintf(buf, sizeof buf, "%.17g", share);
		out_yaml_key(m, "share");
	}
	out_yaml_scalar(m, buf, OUT_YAML_PLAIN);
}

/* share_gpus and workloads: with every entry, each its name, its
 * workload keys and its share; the sections after them (filters, node,
 * costs) are shared and written once from s->w. */
static void emit_entries(struct out_yaml *m, const struct scenario *s)
{
	out_yaml_key(m, "share_gpus");
	out_yaml_scalar(m, s->share_gpus ? "true" : "false", OUT_YAML_PLAIN);
	out_yaml_key(m, "workloads");
	out_yaml_seq(m, true);
	for (size_t i = 0; i < s->n_entries; i++) {
		const struct scenario_entry *e = &s->entries[i];
		out_yaml_map(m, true);
		out_yaml_str(m, "name", e->name);
		emit_fields(m, &e->w, "workload");
		emit_share(m, e->share);
		out_yaml_map(m, false);
	}
	out_yaml_seq(m, false);
}

bool scenario_emit(const struct scenario *s, FILE *fp, char *err, size_t errsz)
{
	/* what the loader would refuse is not written (load_entry()) */
	for (size_t i = 0; s->n_entries > 1 && i < s->n_entries; i++)
		if (s->entries[i].w.model && !s->entries[i].w.model->file) {
			snprintf(err, errsz, "workload '%s' uses a custom model: a list of workloads takes "
				 "catalog models only", s->entries[i].name);
			return false;
		}
	struct out_yaml m;
	if (!out_yaml_begin(&m, fp)) {
		snprintf(err, errsz, "out of memory");
		return false;
	}
	out_yaml_map(&m, true);
	char buf[64];
	snprintf(buf, sizeof buf, "%d", SCENARIO_SCHEMA);
	out_yaml_key(&m, "schema");
	out_yaml_scalar(&m, buf, OUT_YAML_PLAIN);
	emit_text(&m, "customer", s->customer);
	emit_text(&m, "opportunity", s->opportunity);
	emit_text(&m, "notes", s->notes);

	const struct workload *w = &s->w;
	if (s->n_entries > 1) {
		emit_entries(&m, s);
	} else {
		out_yaml_key(&m, "workload");
		out_yaml_map(&m, true);
		emit_fields(&m, w, "workload");
		out_yaml_map(&m, false);
	}
	out_yaml_key(&m, "filters");
	out_yaml_map(&m, true);
	emit_fields(&m, w, "filters");
	out_yaml_map(&m, false);
	emit_fields(&m, w, "");
	out_yaml_key(&m, "node");
	out_yaml_map(&m, true);
	emit_fields(&m, w, "node");
	out_yaml_map(&m, false);
	out_yaml_key(&m, "costs");
	out_yaml_map(&m, true);
	emit_fields(&m, w, "costs");
	out_yaml_map(&m, false);
	out_yaml_map(&m, false);
	const char *problem;
	bool ok = out_yaml_end(&m, &problem);
	if (!ok)
		snprintf(err, errsz, "cannot write the scenario: %s",
			 problem ? problem : strerror(errno ? errno : EIO));
	return ok;
}

static bool write_scenario_cb(FILE *fp, void *ctx, char *err, size_t errsz)
{
	return scenario_emit(ctx, fp, err, errsz);
}

bool scenario_save(const char *path, const struct scenario *s, char *err, size_t errsz)
{
	return atomic_write(path, write_scenario_cb, (void *)s, err, errsz);
}
