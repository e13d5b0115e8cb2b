/*
 * ledger: reads and checks the files of catalog/published/ (see ledger.h
 * and catalog/SCHEMA.md).  Each mapping level has a table of its keys, so an
 * unknown key gets the nearest known one as "did you mean", and a missing
 * required key is reported at the mapping that should hold it, as the
 * catalog loader does.  The workload mapping is read by the scenario
 * loader (scenario_apply_workload()), so an entry's setup takes exactly
 * the keys, values and bounds a scenario file does.
 */
#include "ledger.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "ytree.h"

#define LEDGER_SCHEMA 1
#define MAX_FILES 1000
#define ID_MAX 96

/* ---- tables ---- */

static const char *const role_names[LEDGER_ROLE_COUNT] = { "calibration", "validation" };

/* The metrics of docs/accuracy.md and their units, written once.  max:
 * beyond any published system (a typo, not a result). */
static const struct ledger_metric_info metrics[LM_COUNT] = {
	[LM_OUTPUT_TOKENS_PER_S] = { "output_tokens_per_s", "tok/s", false, false, true, 1e9 },
	[LM_TOKENS_PER_S_PER_USER] = { "tokens_per_s_per_user", "tok/s", false, false, true, 1e6 },
	[LM_TTFT_MS] = { "ttft_ms", "ms", false, false, false, 1e7 },
	[LM_TTFT_P50_MS] = { "ttft_p50_ms", "ms", false, false, false, 1e7 },
	[LM_TTFT_P99_MS] = { "ttft_p99_ms", "ms", false, false, false, 1e7 },
	[LM_TPOT_MS] = { "tpot_ms", "ms", false, false, false, 1e6 },
	[LM_REQUEST_LATENCY_S] = { "request_latency_s", "s", false, false, false, 1e7 },
	[LM_REQUESTS_PER_S] = { "requests_per_s", "req/s", false, false, true, 1e8 },
	[LM_SAMPLES_PER_S] = { "samples_per_s", "samples/s", true, false, true, 1e9 },
	[LM_TOKENS_PER_S_PER_GPU] = { "tokens_per_s_per_gpu", "tok/s", true, true, true, 1e8 },
	[LM_MFU] = { "mfu", "fraction", true, false, true, 1 },
	[LM_STEP_S] = { "step_s", "s", true, false, false, 1e6 },
	[LM_TRAIN_MINUTES] = { "train_minutes", "min", true, false, false, 1e8 },
	[LM_GPU_HOURS] = { "gpu_hours", "h", true, false, false, 1e12 },
};

static const char *const layout_keys[LEDGER_LAYOUT_COUNT] = { "tp", "pp", "dp", "ep", "cp", "vp",
								"batch", "token_budget" };

static const char benchmarks[] = "mlperf-offline, mlperf-server, mlperf-interactive, "
				 "static-batch, training-run, model-card, paper";

struct key {
	const char *name;
	bool required;
};

static const struct key file_keys[] = { { "schema", true }, { "results", true } };
static const struct key entry_keys[] = {
	{ "id", true }, { "role", true }, { "source", true }, { "metric", true },
	{ "value", true }, { "unit", true }, { "accelerator", true }, { "gpus", false },
	{ "stack", true }, { "benchmark", true }, { "workload", true }, { "layout", false },
	{ "notes", false }, { "effective_bits", false },
};
static const struct key source_keys[] = {
	{ "repo", false }, { "path", false }, { "commit", false }, { "url", false },
	{ "date", true }, { "quote", true },
};
static const struct key layout_table[] = {
	{ "tp", false }, { "pp", false }, { "dp", false }, { "ep", false }, { "cp", false },
	{ "vp", false }, { "batch", false }, { "token_budget", false },
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

const char *ledger_role_name(enum ledger_role r)
{
	return r < LEDGER_ROLE_COUNT ? role_names[r] : "?";
}

bool ledger_role_parse(const char *s, enum ledger_role *out)
{
	for (int i = 0; i < LEDGER_ROLE_COUNT; i++)
		if (!strcmp(s, role_names[i])) {
			*out = (enum ledger_role)i;
			return true;
		}
	return false;
}

const struct ledger_metric_info *ledger_metric(enum ledger_metric m)
{
	return m < LM_COUNT ? &metrics[m] : NULL;
}

bool ledger_metric_parse(const char *s, enum ledger_metric *out)
{
	for (int i = 0; i < LM_COUNT; i++)
		if (!strcmp(s, metrics[i].name)) {
			*out = (enum ledger_metric)i;
			return true;
		}
	return false;
}

const char *ledger_layout_key(int i)
{
	return i >= 0 && i < LEDGER_LAYOUT_COUNT ? layout_keys[i] : "?";
}

/* ---- errors ---- */

struct ctx {
	const struct catalog *c;
	struct catalog_errors *errs;
	const char *file;
	bool oom;
};

static void add_msg(struct ctx *x, char *msg)
{
	if (!catalog_errors_add(x->errs, msg))
		x->oom = true;
}

/* "file:line:col: message" at n (the file as a whole when n is NULL);
 * text quoted from the file is escaped so it cannot act on a terminal.
 * Returns false, so a check can end with `return err(...)`. */
static bool err(struct ctx *x, const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool err(struct ctx *x, const struct ynode *n, const char *fmt, ...)
{
	char what[512], line[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	char *safe = ytree_escape_dup(what);
	if (!safe) {
		x->oom = true;
		return false;
	}
	ytree_format_error(line, sizeof line, x->file, n, "%s", safe);
	free(safe);
	add_msg(x, strdup(line));
	return false;
}

/* ---- keys ---- */

/* The nearest key of the table to a mistyped one, or NULL. */
static const char *nearest_key(const struct key *t, size_t n, const char *word)
{
	const char *best = NULL;
	int dist = 3;
	for (size_t i = 0; i < n; i++) {
		int d = catalog_edit_distance(word, t[i].name, strlen(t[i].name));
		if (d < dist) {
			dist = d;
			best = t[i].name;
		}
	}
	return best;
}

static bool in_table(const struct key *t, size_t n, const char *k)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, k))
			return true;
	return false;
}

/* Every key of map is in the table and every required one is present
 * (a required key offered as the fix of a typo is not reported twice). */
static bool check_keys(struct ctx *x, const struct ynode *map, const struct key *t, size_t n,
		       const char *where)
{
	bool ok = true;
	const char *offered[16];
	size_t n_offered = 0;
	for (size_t i = 0; i < map->n; i++) {
		const struct ynode *k = map->keys[i];
		if (in_table(t, n, k->scalar))
			continue;
		const char *near = nearest_key(t, n, k->scalar);
		if (near && !ytree_get(map, near)) {
			ok = err(x, k, "unknown key '%s' in %s; did you mean '%s'?", k->scalar, where,
				 near);
			if (n_offered < N(offered))
				offered[n_offered++] = near;
		} else
			ok = err(x, k, "unknown key '%s' in %s", k->scalar, where);
	}
	for (size_t i = 0; i < n; i++) {
		if (!t[i].required || ytree_get(map, t[i].name))
			continue;
		bool typo = false;
		for (size_t j = 0; j < n_offered && !typo; j++)
			typo = offered[j] == t[i].name;
		if (!typo)
			ok = err(x, map, "%s: missing required key '%s'", where, t[i].name);
	}
	return ok;
}

/* ---- values ---- */

static bool want_text(struct ctx *x, const struct ynode *v, const char *key, const char **out)
{
	char d[96];
	if (v && v->kind == YN_SCALAR && !ynode_is_null(v) && v->scalar[0]) {
		*out = v->scalar;
		return true;
	}
	return err(x, v, "%s: expected a string, got %s", key, ynode_describe(v, d, sizeof d));
}

static bool dup_text(struct ctx *x, const struct ynode *map, const char *key, char **out)
{
	const struct ynode *v = ytree_get(map, key);
	const char *s;
	if (!v)
		return true;
	if (!want_text(x, v, key, &s))
		return false;
	if (!(*out = strdup(s)))
		x->oom = true;
	return *out != NULL;
}

static bool want_whole(struct ctx *x, const struct ynode *v, const char *key, long lo, long hi,
		       long *out)
{
	char d[96];
	long l;
	if (!ynode_integer(v, &l))
		return err(x, v, "%s: expected a whole number, got %s", key,
			   ynode_describe(v, d, sizeof d));
	if (l < lo || l > hi)
		return err(x, v, "%s must be in [%ld, %ld], got %s", key, lo, hi, v->scalar);
	*out = l;
	return true;
}

/* Ids appear in CSV cells and on command lines: a-z, 0-9, '-' and '.'. */
static bool id_ok(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > ID_MAX || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
			return false;
	return true;
}

static bool hex40(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return false;
	return n == 40;
}

/* "owner/name" as GitHub spells them: one slash, nothing empty. */
static bool repo_ok(const char *s)
{
	const char *slash = strchr(s, '/');
	return slash && slash > s && slash[1] && !strchr(slash + 1, '/') && !strpbrk(s, " \t");
}

/* A result's date is as precise as its source: a year alone when the
 * page gives no month, else the catalog's 2024-08 or 2024-08-28. */
static bool date_ok(const char *s)
{
	if (strlen(s) == 4) {
		for (int i = 0; i < 4; i++)
			if (s[i] < '0' || s[i] > '9')
				return false;
		return true;
	}
	return catalog_date_ok(s);
}

/* ---- one entry ---- */

static bool read_source(struct ctx *x, const struct ynode *src, struct ledger_entry *e)
{
	char d[96];
	if (src->kind != YN_MAP)
		return err(x, src, "source: expected a mapping (keys: repo, path, commit, url, date, "
			   "quote), got %s", ynode_describe(src, d, sizeof d));
	bool ok = check_keys(x, src, source_keys, N(source_keys), "source");
	ok &= dup_text(x, src, "repo", &e->repo) && dup_text(x, src, "path", &e->path) &&
	      dup_text(x, src, "commit", &e->commit) && dup_text(x, src, "url", &e->url) &&
	      dup_text(x, src, "date", &e->date) && dup_text(x, src, "quote", &e->quote);
	if (!ok)
		return false;
	if (e->repo && !repo_ok(e->repo))
		ok = err(x, ytree_get(src, "repo"), "source.repo: expected owner/name, got '%s'",
			 e->repo);
	if (e->commit && !hex40(e->commit))
		ok = err(x, ytree_get(src, "commit"),
			 "source.commit: expected 40 lower-case hex digits, got '%s'", e->commit);
	if (e->url && strncmp(e->url, "https://", 8) && strncmp(e->url, "http://", 7))
		ok = err(x, ytree_get(src, "url"), "source.url: expected an http(s):// address, got '%s'",
			 e->url);
	if (e->date && !date_ok(e->date))
		ok = err(x, ytree_get(src, "date"),
			 "source.date: expected a date like 2024, 2024-08 or 2024-08-28, got '%s'", e->date);
	bool any_repo = e->repo || e->path || e->commit;
	if (any_repo && !(e->repo && e->path && e->commit))
		ok = err(x, src, "source: a repository file needs repo, path and commit (missing '%s')",
			 !e->repo ? "repo" : !e->path ? "path" : "commit");
	else if (!any_repo && !e->url)
		ok = err(x, src, "source: give repo, path and commit, or url");
	return ok;
}

static bool read_metric(struct ctx *x, const struct ynode *map, struct ledger_entry *e)
{
	const struct ynode *v = ytree_get(map, "metric"), *u = ytree_get(map, "unit");
	const char *s, *unit;
	if (!want_text(x, v, "metric", &s))
		return false;
	if (!ledger_metric_parse(s, &e->metric)) {
		const char *best = NULL;
		int dist = 3;
		for (int i = 0; i < LM_COUNT; i++) {
			int dd = catalog_edit_distance(s, metrics[i].name, strlen(metrics[i].name));
			if (dd < dist)
				dist = dd, best = metrics[i].name;
		}
		if (best)
			return err(x, v, "unknown metric '%s'; did you mean '%s'?", s, best);
		return err(x, v, "unknown metric '%s' (see catalog/SCHEMA.md for the list)", s);
	}
	const struct ledger_metric_info *m = &metrics[e->metric];
	if (!want_text(x, u, "unit", &unit))
		return false;
	if (strcmp(unit, m->unit))
		return err(x, u, "unit '%s' does not go with metric %s (use '%s')", unit, m->name,
			   m->unit);
	double val;
	char d[96];
	v = ytree_get(map, "value");
	if (!ynode_number(v, &val))
		return err(x, v, "value: expected a number, got %s", ynode_describe(v, d, sizeof d));
	if (!(val > 0) || !(val <= m->max))
		return err(x, v, "value must be in (0, %.15g] for %s, got %s", m->max, m->name,
			   v->scalar);
	e->value = val;
	return true;
}

static bool read_accel(struct ctx *x, const struct ynode *map, struct ledger_entry *e)
{
	const struct ynode *v = ytree_get(map, "accelerator");
	const char *s;
	if (!want_text(x, v, "accelerator", &s))
		return false;
	if ((e->accel = catalog_accel(x->c, s)))
		return true;
	const char *best = catalog_suggest(x->c, CATALOG_ACCELERATORS, s);
	if (best)
		return err(x, v, "unknown accelerator '%s'; did you mean '%s'?", s, best);
	return err(x, v, "unknown accelerator '%s' (no accelerators/%s.yaml)", s, s);
}

static bool read_layout(struct ctx *x, const struct ynode *lay, struct ledger_entry *e)
{
	char d[96];
	if (lay->kind != YN_MAP)
		return err(x, lay, "layout: expected a mapping (keys: tp, pp, dp, ep, cp, vp, batch, "
			   "token_budget), got %s",
			   ynode_describe(lay, d, sizeof d));
	bool ok = check_keys(x, lay, layout_table, N(layout_table), "layout");
	for (int i = 0; i < LEDGER_LAYOUT_COUNT; i++) {
		const struct ynode *v = ytree_get(lay, layout_keys[i]);
		char key[24];
		snprintf(key, sizeof key, "layout.%s", layout_keys[i]);
		/* the token budget is the --token-budget field, within its bounds */
		const struct engine_field_limit *lim =
			i == LEDGER_TOKEN_BUDGET ? &engine_field(EF_TOKEN_BUDGET)->lim : NULL;
		if (v)
			ok &= want_whole(x, v, key, lim ? (long)lim->min : 1,
					 lim ? (long)lim->max : 100000000, &e->layout[i]);
	}
	return ok;
}

/* The setup, read by the scenario loader on top of the catalog defaults. */
static bool read_workload(struct ctx *x, const struct ynode *wl, struct ledger_entry *e)
{
	char d[96], why[512];
	if (wl->kind != YN_MAP)
		return err(x, wl, "workload: expected a mapping (a scenario's workload keys), got %s",
			   ynode_describe(wl, d, sizeof d));
	const struct ynode *custom = ytree_get(wl, "custom_model");
	if (custom)
		return err(x, custom, "workload: name a catalog model with 'model' (a published "
			   "result is for a model the catalog has)");
	if (!ytree_get(wl, "class"))
		return err(x, wl, "workload: missing required key 'class'");
	if (!ytree_get(wl, "model"))
		return err(x, wl, "workload: missing required key 'model'");
	struct scenario s;
	scenario_init(&s, x->c);
	bool ok = scenario_apply_workload(x->file, wl, x->c, &s, why, sizeof why);
	e->w = s.w;
	scenario_fini(&s);
	if (!ok) {
		add_msg(x, strdup(why));
		return false;
	}
	/* A published result has only the limits its source states: the
	 * class defaults' service targets (docs/design.md, "Fields") are a
	 * sizing default, not part of a benchmark's setup (an MLPerf Offline
	 * run has no per-user or first-token limit). */
	if (!ytree_get(wl, "tokens_per_s_per_user"))
		e->w.tokens_per_s_per_user = 0;
	if (!ytree_get(wl, "ttft_ms"))
		e->w.ttft_ms = 0;
	e->has_tokens = ytree_get(wl, "tokens") != NULL;
	e->has_seq_len = ytree_get(wl, "seq_len") != NULL;
	e->has_batch = ytree_get(wl, "global_batch_tokens") != NULL;
	e->has_lengths = ytree_get(wl, "input_tokens") && ytree_get(wl, "output_tokens");
	return true;
}

/* effective_bits: a serving result's mixed checkpoint, strictly between
 * the bits of its precision and of the next wider format (a bound's
 * value is a checkpoint in one format: give the precision instead). */
static bool read_effective_bits(struct ctx *x, const struct ynode *map, struct ledger_entry *e)
{
	const struct ynode *v = ytree_get(map, "effective_bits");
	if (!v)
		return true;
	char d[96];
	double bits;
	enum precision wide;
	double lo, hi;
	if (!ynode_number(v, &bits))
		return err(x, v, "effective_bits: expected a number, got %s", ynode_describe(v, d, sizeof d));
	if (e->w.cls != WL_INFERENCE || !engine_mix_bits(e->w.precision, &wide, &lo, &hi))
		return err(x, v, "effective_bits: a mixed checkpoint is a serving result at precision "
			   "fp4 (with fp8 layers) or fp8 (with 16-bit layers), not %s %s",
			   workload_class_name(e->w.cls), precision_name(e->w.precision));
	if (!(bits > lo) || !(bits < hi))
		return err(x, v, "effective_bits must be in (%g, %g) for precision %s (its layers "
			   "%s or %s), got %s", lo, hi, precision_name(e->w.precision),
			   precision_name(e->w.precision), precision_name(wide), v->scalar);
	e->w.effective_bits = bits;
	return true;
}

/* Cross-key rules: the metric's workload class and the measured system. */
static bool check_entry(struct ctx *x, const struct ynode *map, struct ledger_entry *e)
{
	if (!read_effective_bits(x, map, e))
		return false;
	bool training = e->w.cls != WL_INFERENCE;
	if (!metrics[e->metric].both && metrics[e->metric].training != training)
		return err(x, ytree_get(map, "metric"), "metric %s is a %s figure but workload.class "
			   "is %s", metrics[e->metric].name, training ? "serving" : "training",
			   workload_class_name(e->w.cls));
	/* Whether the engine can size this setup (fp4 training, a context
	 * past the model's) is for `accuracy` to report, not a fault of the
	 * record. */
	e->w.accel = e->accel;
	e->w.gpus = e->gpus;
	/* A serving result is run in its published layout where given. */
	if (!training) {
		e->w.tp = (int)e->layout[LEDGER_TP];
		e->w.pp = (int)e->layout[LEDGER_PP];
		e->w.batch = e->layout[LEDGER_BATCH];
		e->w.token_budget = e->layout[LEDGER_TOKEN_BUDGET];
		/* a layout given as TP alone is TP alone: the experts split by
		 * tensor parallelism, as TensorRT-LLM's tables run them */
		e->w.ep = e->layout[LEDGER_EP] ? (int)e->layout[LEDGER_EP] : e->layout[LEDGER_TP] ? 1 : 0;
		/* dp equal to ep on a serving result: attention data parallel
		 * over the expert-parallel GPUs (TensorRT-LLM's DEPn) */
		e->w.attention_dp = e->layout[LEDGER_EP] > 1 && e->layout[LEDGER_DP] == e->layout[LEDGER_EP];
	}
	return true;
}

static bool read_entry(struct ctx *x, const struct ynode *map, struct ledger_entry *e)
{
	char d[96];
	const char *s;
	long l;
	e->file = x->file;
	e->line = map->line;
	e->col = map->col;
	if (!check_keys(x, map, entry_keys, N(entry_keys), "a result"))
		return false;
	const struct ynode *v = ytree_get(map, "id");
	if (!want_text(x, v, "id", &s))
		return false;
	if (!id_ok(s))
		return err(x, v, "id '%s' may only use a-z, 0-9, '-' and '.' (starting with a letter "
			   "or digit, at most %d)", s, ID_MAX);
	if (!(e->id = strdup(s)))
		return x->oom = true, false;
	v = ytree_get(map, "role");
	if (!want_text(x, v, "role", &s))
		return false;
	if (!ledger_role_parse(s, &e->role))
		return err(x, v, "role: expected one of calibration, validation, got %s",
			   ynode_describe(v, d, sizeof d));
	bool ok = read_source(x, ytree_get(map, "source"), e);
	ok &= read_metric(x, map, e);
	ok &= read_accel(x, map, e);
	/* gpus: the measured system's, where the source gives it; else the
	 * engine sizes the system (a model card's cluster). */
	e->gpus = -1;
	if ((v = ytree_get(map, "gpus"))) {
		if (want_whole(x, v, "gpus", 1, 1000000, &l))
			e->gpus = (int)l;
		else
			ok = false;
	}
	ok &= dup_text(x, map, "stack", &e->stack) && dup_text(x, map, "benchmark", &e->benchmark) &&
	      dup_text(x, map, "notes", &e->notes);
	v = ytree_get(map, "benchmark");
	if (e->benchmark) {
		bool known = false;
		for (const char *c = benchmarks; *c && !known;) {
			size_t n = strcspn(c, ",");
			known = n == strlen(e->benchmark) && !strncmp(c, e->benchmark, n);
			c += n;
			c += strspn(c, ", ");
		}
		if (!known)
			ok = err(x, v, "benchmark: expected one of %s, got '%s'", benchmarks, e->benchmark);
	}
	if ((v = ytree_get(map, "layout")))
		ok &= read_layout(x, v, e);
	ok &= read_workload(x, ytree_get(map, "workload"), e);
	return ok && check_entry(x, map, e);
}

/* ---- files ---- */

struct grow {
	struct ledger *l;
	size_t cap;
};

static struct ledger_entry *new_entry(struct ctx *x, struct grow *g)
{
	if (g->l->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		struct ledger_entry *n = realloc(g->l->entries, cap * sizeof *n);
		if (!n) {
			x->oom = true;
			return NULL;
		}
		g->l->entries = n;
		g->cap = cap;
	}
	struct ledger_entry *e = &g->l->entries[g->l->n++];
	memset(e, 0, sizeof *e);
	return e;
}

static void entry_fini(struct ledger_entry *e)
{
	free(e->id);
	free(e->repo);
	free(e->path);
	free(e->commit);
	free(e->url);
	free(e->date);
	free(e->quote);
	free(e->stack);
	free(e->benchmark);
	free(e->notes);
}

static void read_results(struct ctx *x, const struct ynode *list, struct grow *g)
{
	char d[96];
	if (list->kind != YN_SEQ) {
		err(x, list, "results: expected a list of results, got %s",
		    ynode_describe(list, d, sizeof d));
		return;
	}
	for (size_t i = 0; i < list->n && !x->oom; i++) {
		const struct ynode *m = list->items[i];
		if (m->kind != YN_MAP) {
			err(x, m, "results: expected a result mapping (id, role, source, metric, ...), "
			    "got %s", ynode_describe(m, d, sizeof d));
			continue;
		}
		struct ledger_entry *e = new_entry(x, g);
		if (e && !read_entry(x, m, e)) {
			entry_fini(e);
			g->l->n--;
		}
	}
}

static void read_file(struct ctx *x, const char *path, struct grow *g)
{
	char msg[512], d[96];
	x->file = path;
	struct ytree *t = ytree_parse_file(path, msg, sizeof msg);
	if (!t) {
		add_msg(x, strdup(msg));
		return;
	}
	const struct ynode *root = t->root;
	long schema;
	if (!root)
		err(x, NULL, "the file is empty (expected 'schema: %d' and 'results:')", LEDGER_SCHEMA);
	else if (root->kind != YN_MAP)
		err(x, root, "expected a mapping with 'schema: %d' and 'results:', got %s",
		    LEDGER_SCHEMA, ynode_describe(root, d, sizeof d));
	else if (check_keys(x, root, file_keys, N(file_keys), "a published-results file") &&
		 want_whole(x, ytree_get(root, "schema"), "schema", 1, 1000, &schema)) {
		if (schema != LEDGER_SCHEMA)
			err(x, ytree_get(root, "schema"), "schema %ld is not one this accelsizer reads (%d)",
			    schema, LEDGER_SCHEMA);
		else
			read_results(x, ytree_get(root, "results"), g);
	}
	ytree_free(t);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .yaml files of the folder, sorted, as full paths; false when the
 * folder exists but cannot be listed.  *present: the folder exists. */
static bool list_files(struct ctx *x, const char *dir, struct ledger *l, bool *present)
{
	DIR *d = opendir(dir);
	*present = d != NULL;
	if (!d) {
		if (errno == ENOENT)
			return true;
		x->file = dir;
		return err(x, NULL, "cannot open the folder: %s", strerror(errno));
	}
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len <= 5 || strcmp(de->d_name + len - 5, ".yaml"))
			continue;
		if (l->n_files == MAX_FILES) {
			x->file = dir;
			err(x, NULL, "too many files (more than %d)", MAX_FILES);
			break;
		}
		if (l->n_files == cap) {
			cap = cap ? cap * 2 : 16;
			char **n = realloc(l->files, cap * sizeof *n);
			if (!n) {
				x->oom = true;
				break;
			}
			l->files = n;
		}
		size_t sz = strlen(dir) + len + 2;
		if (!(l->files[l->n_files] = malloc(sz))) {
			x->oom = true;
			break;
		}
		snprintf(l->files[l->n_files++], sz, "%s/%s", dir, de->d_name);
	}
	closedir(d);
	qsort(l->files, l->n_files, sizeof *l->files, cmp_str);
	return !x->oom;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct ledger_entry *p = a, *q = b;
	int r = strcmp(p->id, q->id);
	if (r)
		return r;
	r = strcmp(p->file, q->file);
	return r ? r : (p->line > q->line) - (p->line < q->line);
}

static void check_unique(struct ctx *x, struct ledger *l)
{
	for (size_t i = 1; i < l->n; i++) {
		const struct ledger_entry *a = &l->entries[i - 1], *b = &l->entries[i];
		if (strcmp(a->id, b->id))
			continue;
		char msg[768];
		snprintf(msg, sizeof msg, "%s:%d:%d: id '%s' is already used at %s:%d:%d (ids are "
			 "unique across the ledger)", b->file, b->line, b->col, b->id, a->file,
			 a->line, a->col);
		add_msg(x, strdup(msg));
	}
}

/* ---- calibrated_from in the catalog ---- */

/* file:line:col of a dotted key in a catalog file, read again only to
 * place a message (the catalog keeps no positions below the file). */
static void place(const char *file, const char *dotted, char *buf, size_t sz)
{
	char e[256];
	snprintf(buf, sz, "%s", file);
	struct ytree *t = ytree_parse_file(file, e, sizeof e);
	if (!t)
		return;
	const struct ynode *n = t->root, *best = n;
	char part[64];
	for (const char *p = dotted; n && *p;) {
		size_t len = strcspn(p, ".");
		snprintf(part, sizeof part, "%.*s", (int)len, p);
		n = n->kind == YN_MAP ? ytree_get(n, part) : NULL;
		if (n)
			best = n;
		p += len + (p[len] == '.');
	}
	if (best)
		snprintf(buf, sz, "%s:%d:%d", file, best->line, best->col);
	ytree_free(t);
}

static void calib_err(struct ctx *x, const char *file, const char *dotted, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void calib_err(struct ctx *x, const char *file, const char *dotted, const char *fmt, ...)
{
	char at[512], what[512], msg[1100];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	place(file, dotted, at, sizeof at);
	snprintf(msg, sizeof msg, "%s: %s", at, what);
	add_msg(x, strdup(msg));
}

/* Each id of "a, b" is a calibration entry of the ledger. */
static void check_ids(struct ctx *x, const struct ledger *l, const char *file, const char *key,
		      const char *ids)
{
	char dotted[96];
	snprintf(dotted, sizeof dotted, "%s.calibrated_from", key);
	for (const char *p = ids; *p;) {
		size_t len = strcspn(p, ",");
		char id[ID_MAX + 2];
		snprintf(id, sizeof id, "%.*s", (int)(len < sizeof id - 1 ? len : sizeof id - 1), p);
		const struct ledger_entry *e = ledger_find(l, id);
		if (!e)
			calib_err(x, file, dotted, "%s.calibrated_from: '%s' is not an entry of the "
				  "ledger (catalog/published/)", key, id);
		else if (e->role != LEDGER_CALIBRATION)
			calib_err(x, file, dotted, "%s.calibrated_from: '%s' is a validation entry "
				  "(%s:%d); a figure may only be set from calibration entries", key, id,
				  e->file, e->line);
		p += len;
		p += strspn(p, ", ");
	}
}

static void check_figure(struct ctx *x, const struct ledger *l, const char *file, const char *key,
			 const struct sourced *f, bool required)
{
	if (f->calibrated_from)
		check_ids(x, l, file, key, f->calibrated_from);
	else if (required && f->source)
		calib_err(x, file, key, "%s: missing calibrated_from (the ledger's calibration "
			  "entries this figure was set from, or [] when it comes from none)", key);
}

static void check_calibration(struct ctx *x, const struct ledger *l, bool required)
{
	const struct catalog *c = x->c;
	for (size_t i = 0; i < c->n_accels; i++) {
		const struct catalog_accel *a = &c->accels[i];
		check_figure(x, l, a->file, "efficiency.compute", &a->eff_compute, required);
		check_figure(x, l, a->file, "efficiency.memory_bw", &a->eff_mem_bw, required);
		check_figure(x, l, a->file, "efficiency.link", &a->eff_link, required);
		check_figure(x, l, a->file, "link.allreduce_latency_us", &a->link_ar_lat, required);
		check_figure(x, l, a->file, "efficiency.training", &a->eff_training, required);
		check_figure(x, l, a->file, "efficiency.training_fp8", &a->eff_training_fp8, required);
		check_figure(x, l, a->file, "efficiency.training_fp4", &a->eff_training_fp4, required);
		check_figure(x, l, a->file, "efficiency.compute_fp4", &a->eff_compute_fp4, required);
	}
	for (size_t i = 0; i < c->n_fabrics; i++)
		check_figure(x, l, c->fabrics[i].file, "efficiency", &c->fabrics[i].efficiency, false);
	/* a serving stack's figures per platform: the ids they name exist and
	 * are calibration entries */
	for (size_t i = 0; i < c->n_serving_stacks; i++) {
		const struct catalog_serving_stack *s = &c->serving_stacks[i];
		for (size_t j = 0; j < s->n_runs_on; j++) {
			const struct catalog_stack_platform *p = &s->runs_on[j];
			check_figure(x, l, s->file, "runs_on.compute", &p->compute, false);
			check_figure(x, l, s->file, "runs_on.step_overhead_us", &p->step_overhead_us, false);
			check_figure(x, l, s->file, "runs_on.layer_overhead_us", &p->layer_overhead_us, false);
			check_figure(x, l, s->file, "runs_on.kv_free_fraction", &p->kv_free_fraction, false);
			check_figure(x, l, s->file, "runs_on.activation_layers", &p->activation_layers, false);
			check_figure(x, l, s->file, "runs_on.window_kv_kept", &p->window_kv_kept, false);
			check_figure(x, l, s->file, "runs_on.attention_dp", &p->attention_dp, false);
		}
	}
	for (size_t i = 0; i < c->n_training_stacks; i++) {
		const struct catalog_training_stack *s = &c->training_stacks[i];
		for (size_t k = 0; k < s->n_efficiency; k++)
			check_figure(x, l, s->file, "efficiency.training", &s->efficiency[k].share, required);
		check_figure(x, l, s->file, "moe_host_layer_ms", &s->moe_host_layer_ms, false);
	}
#define X(name, unit, doc) check_figure(x, l, c->defaults.file, #name, &c->defaults.name, false);
	CATALOG_DEFAULTS(X)
#undef X
}

/* ---- the whole ledger ---- */

struct ledger *ledger_load_dir(const struct catalog *c, const char *dir,
			       struct catalog_errors *errs)
{
	struct catalog_errors ignored;
	if (!errs)
		errs = &ignored;
	memset(errs, 0, sizeof *errs);
	struct ctx x = { .c = c, .errs = errs };
	struct ledger *l = calloc(1, sizeof *l);
	bool present = false;
	if (!l) {
		x.oom = true;
	} else {
		struct grow g = { l, 0 };
		if (list_files(&x, dir, l, &present))
			for (size_t i = 0; i < l->n_files && !x.oom; i++)
				read_file(&x, l->files[i], &g);
		if (!x.oom && l->n) {
			qsort(l->entries, l->n, sizeof *l->entries, cmp_entry);
			check_unique(&x, l);
		}
		/* Once figures can be set from the ledger, each must say from
		 * which entries (or [] for none). */
		if (!x.oom)
			check_calibration(&x, l, ledger_count(l, LEDGER_CALIBRATION) > 0);
	}
	if (x.oom)
		add_msg(&x, strdup("out of memory while reading the ledger"));
	bool failed = errs->n > 0 || errs->truncated;
	if (errs == &ignored)
		catalog_errors_fini(errs);
	if (failed) {
		ledger_free(l);
		return NULL;
	}
	return l;
}

struct ledger *ledger_load(const struct catalog *c, struct catalog_errors *errs)
{
	size_t n = strlen(c->dir);
	size_t sz = n + sizeof "/published";
	char *dir = malloc(sz);
	if (!dir) {
		if (errs) {
			memset(errs, 0, sizeof *errs);
			errs->msg[errs->n++] = strdup("out of memory while reading the ledger");
		}
		return NULL;
	}
	snprintf(dir, sz, "%s%spublished", c->dir, n && c->dir[n - 1] == '/' ? "" : "/");
	struct ledger *l = ledger_load_dir(c, dir, errs);
	free(dir);
	return l;
}

void ledger_free(struct ledger *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		entry_fini(&l->entries[i]);
	free(l->entries);
	for (size_t i = 0; i < l->n_files; i++)
		free(l->files[i]);
	free(l->files);
	free(l);
}

const struct ledger_entry *ledger_find(const struct ledger *l, const char *id)
{
	size_t lo = 0, hi = l ? l->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(id, l->entries[mid].id);
		if (!r)
			return &l->entries[mid];
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

size_t ledger_count(const struct ledger *l, enum ledger_role r)
{
	size_t n = 0;
	for (size_t i = 0; l && i < l->n; i++)
		n += l->entries[i].role == r;
	return n;
}
