/*
 * cli_workload: parsing the shared workload options.  One table holds every
 * option's name, argument, help line and setter, so the parser and the
 * --help text cannot disagree.  Numbers follow the one syntax of number.h
 * ("2k", "2,048", "$3M"); anything else, and anything out of the field's
 * range, is refused with what the user typed quoted, never a silent zero.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_workload.h"
#include "hfconfig.h"
#include "prices.h"
#include "scenario.h"

#define PROG "accelsizer"

/* ---- numbers: the one syntax (number.h) ---- */

bool cli_parse_whole(const char *flag, const char *s, long min, long max, long *out)
{
	double v;
	char why[160];
	if (!number_parse(s, NUM_COUNT, NULL, &v, why, sizeof why)) {
		fprintf(stderr, PROG ": %s: '%s' %s\n", flag, s ? s : "", why);
		return false;
	}
	if (!(v >= (double)min && v <= (double)max)) {
		fprintf(stderr, PROG ": %s: '%s' is out of range (%ld to %ld)\n", flag, s, min, max);
		return false;
	}
	if (v != floor(v)) {
		fprintf(stderr, PROG ": %s: '%s' is not a whole number\n", flag, s);
		return false;
	}
	*out = (long)v;
	return true;
}

/* ---- the workload's fields, from the engine's table (engine_fields.c) ----
 * The same bounds and the same range text as the wizard and scenario files:
 * "accelsizer: --input-tokens: '0' is out of range (1 to 100000000)". */

static bool field_in_range(const struct engine_field *f, const char *flag, const char *s, double v)
{
	char why[112];
	if (engine_field_check(&f->lim, v, why, sizeof why))
		return true;
	fprintf(stderr, PROG ": %s: '%s' is %s\n", flag, s, why);
	return false;
}

/* A number for field f as typed, checked against its bounds; messages
 * quote what was typed. */
static bool field_number(const struct engine_field *f, const char *flag, const char *s, double *out)
{
	double v;
	char why[160];
	if (!number_parse(s, f->syntax, f->unit, &v, why, sizeof why)) {
		if (f->word && strncmp(why, "is not a number (", 17) == 0)
			fprintf(stderr, PROG ": %s: '%s' is not a number or '%s' (e.g. %s)\n", flag, s, f->word,
				number_examples(f->syntax, f->unit));
		else
			fprintf(stderr, PROG ": %s: '%s' %s\n", flag, s, why);
		return false;
	}
	if (!field_in_range(f, flag, s, v))
		return false;
	*out = v;
	return true;
}

struct ctx {
	const struct catalog *c;
	struct workload *w;
	struct cli_extra *x;
};

/* "a, b, c": a choice's words, for messages. */
static void choice_list(const struct engine_choice *ch, char *buf, size_t sz)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < ch->count && len < sz; i++) {
		int m = snprintf(buf + len, sz - len, "%s%s", i ? ", " : "", ch->name(ch->first + i));
		if (m < 0)
			break;
		len += (size_t)m;
	}
}

/* The choice's word nearest a mistyped one (edit distance at most 2, as
 * catalog_suggest()), or NULL. */
static const char *choice_near(const struct engine_choice *ch, const char *v)
{
	const char *best = NULL;
	int dist = 3;
	for (int i = 0; i < ch->count; i++) {
		const char *w = ch->name(ch->first + i);
		int d = catalog_edit_distance(v, w, strlen(w));
		if (d < dist) {
			best = w;
			dist = d;
		}
	}
	return best;
}

static bool set_choice(struct ctx *k, const struct engine_field *f, const char *flag, const char *v)
{
	int i;
	if (!f->choice->parse(v, &i)) {
		char list[256];
		choice_list(f->choice, list, sizeof list);
		const char *near = choice_near(f->choice, v);
		fprintf(stderr, PROG ": %s: '%s' is not one of %s%s%s%s\n", flag, v, list,
			near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
		return false;
	}
	if (f == engine_field(EF_CLASS)) {
		if (i != (int)k->w->cls)
			engine_workload_class_defaults(k->w, (enum workload_class)i);
		k->x->set_workload = true;
		return true;
	}
	if (f == engine_field(EF_PRECISION))
		k->x->set_precision = true;
	else if (f == engine_field(EF_KV_PRECISION)) {
		k->x->set_kv_precision = true;
		k->w->kv_precision_set = true;	/* no longer follows the precision */
	}
	engine_field_put(k->w, f, i);
	return true;
}

/* "unknown model 'x'; did you mean 'y'?", or which command lists them. */
static void unknown(const struct ctx *k, const char *f, const char *v, unsigned kind, const char *what,
		    const char *list)
{
	const char *near = catalog_suggest(k->c, kind, v);
	if (near)
		fprintf(stderr, PROG ": %s: unknown %s '%s'; did you mean '%s'?\n", f, what, v, near);
	else
		fprintf(stderr, PROG ": %s: unknown %s '%s' (see '%s')\n", f, what, v, list);
}

static bool set_model(struct ctx *k, const char *f, const char *v)
{
	if (k->x->model_config) {
		fprintf(stderr, PROG ": %s: give either %s or --model-config, not both\n", f, f);
		return false;
	}
	const struct catalog_model *m = catalog_model(k->c, v);
	if (!m) {
		unknown(k, f, v, CATALOG_MODELS, "model", "accelsizer catalog list --models");
		return false;
	}
	k->w->model = m;
	return true;
}

/* A catalog model, or "mtp": the model's own prediction modules. */
static bool set_draft(struct ctx *k, const char *f, const char *v)
{
	if (!strcmp(v, "mtp")) {
		k->w->draft_model = &engine_draft_mtp;
		k->x->set_draft = true;
		return true;
	}
	const struct catalog_model *m = catalog_model(k->c, v);
	if (!m) {
		const char *near = catalog_suggest(k->c, CATALOG_MODELS, v);
		fprintf(stderr, PROG ": %s: unknown model '%s'%s%s%s (a catalog model, or mtp)\n", f, v,
			near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
		return false;
	}
	k->w->draft_model = m;
	k->x->set_draft = true;
	return true;
}

static bool set_accel(struct ctx *k, const char *f, const char *v)
{
	const struct catalog_accel *a = catalog_accel(k->c, v);
	if (!a) {
		unknown(k, f, v, CATALOG_ACCELERATORS, "accelerator", "accelsizer catalog list");
		return false;
	}
	k->w->accel = a;
	k->x->set_accel = true;
	return true;
}

/* One of the catalog's platforms, or "auto" (the engine chooses); whether
 * it is one for the accelerator is checked once every flag is read. */
static bool set_platform(struct ctx *k, const char *f, const char *v)
{
	if (!strcmp(v, "auto")) {
		k->w->platform = NULL;
		return true;
	}
	const struct catalog_platform *p = catalog_platform(k->c, v);
	if (!p) {
		unknown(k, f, v, CATALOG_PLATFORMS, "platform", "accelsizer catalog list --platforms");
		return false;
	}
	k->w->platform = p;
	k->x->set_platform = true;
	return true;
}

static bool set_field(struct ctx *k, const struct engine_field *f, const char *flag, const char *v)
{
	switch (f->type) {
	case EFT_ENUM:
		return set_choice(k, f, flag, v);
	case EFT_MODEL:
		return set_model(k, flag, v);
	case EFT_ACCEL:
		return set_accel(k, flag, v);
	case EFT_DRAFT:
		return set_draft(k, flag, v);
	case EFT_PLATFORM:
		return set_platform(k, flag, v);
	case EFT_INT:
	case EFT_LONG:
	case EFT_DOUBLE:
		break;
	}
	if (f->word && v && !strcmp(v, f->word)) {
		engine_field_put_word(k->w, f);
		return true;
	}
	double d;
	if (!field_number(f, flag, v, &d))
		return false;
	engine_field_put(k->w, f, d * (f->scale > 0 ? f->scale : 1));
	if (f == engine_field(EF_CONCURRENCY))
		k->w->concurrency_max = false;
	if (f == engine_field(EF_GPUS))
		k->x->set_gpus = true;
	return true;
}

/* ---- the options: every field with a flag, then these two ---- */

/* Taken by cli_workload_prescan(); accepted and skipped by the parser. */
static const struct { const char *name, *arg, *help; } prescanned[] = {
	{ "--scenario", "FILE", "start from a saved scenario; flags override it" },
	{ "--catalog", "DIR", "read the catalog from DIR" },
	{ "--prices", "FILE.csv", "price list over the catalog's prices, for every cost" },
	{ "--model-config", "FILE", "the model from a Hugging Face config.json, instead of --model" },
};
#define N_PRESCANNED (sizeof prescanned / sizeof prescanned[0])

void cli_workload_usage(FILE *f)
{
	char lhs[48];
	for (int i = 0; i < EF_COUNT; i++) {
		const struct engine_field *e = engine_field((enum engine_field_id)i);
		if (!e->flag)
			continue;
		snprintf(lhs, sizeof lhs, "--%s%s%s", e->flag, *e->arg ? " " : "", e->arg);
		fprintf(f, "      %-30s %s\n", lhs, e->help);
	}
	for (size_t i = 0; i < N_PRESCANNED; i++) {
		snprintf(lhs, sizeof lhs, "%s %s", prescanned[i].name, prescanned[i].arg);
		fprintf(f, "      %-30s %s\n", lhs, prescanned[i].help);
	}
	/* number.h: the syntax the wizard and scenario files read too */
	fputs("\nNumbers: 2048, 2,048 or 2e3.  Counts (tokens, users, GPUs) take k, M, B (or G),\n"
	      "T: 2k, 1.5M, 2T.  Money takes $ and k, M, B: $3M, 250k.  Times take ms, s,\n"
	      "min, h, d: 500ms, 1.5s, 36h.  Hexadecimal is refused.\n", f);
}

/* Splits "--flag=value"; returns the flag length. */
static size_t flag_len(const char *a)
{
	const char *eq = strchr(a, '=');
	return eq && a[0] == '-' && a[1] == '-' ? (size_t)(eq - a) : strlen(a);
}

static bool same_flag(const char *arg, size_t len, const char *name)
{
	return strlen(name) == len && !strncmp(arg, name, len);
}

int cli_workload_prescan(int argc, char **argv, struct cli_extra *x)
{
	x->catalog_dir = x->scenario = x->prices = x->model_config = NULL;
	x->help = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t len = flag_len(a);
		const char **dst = NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			x->help = true;
			continue;
		}
		if (same_flag(a, len, "--catalog"))
			dst = &x->catalog_dir;
		else if (same_flag(a, len, "--scenario"))
			dst = &x->scenario;
		else if (same_flag(a, len, "--prices"))
			dst = &x->prices;
		else if (same_flag(a, len, "--model-config"))
			dst = &x->model_config;
		if (!dst)
			continue;
		const char *v = a[len] == '=' ? a + len + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!v || !*v) {
			fprintf(stderr, PROG ": %.*s needs a value\n", (int)len, a);
			return EXIT_BADINPUT;
		}
		*dst = v;
	}
	return 0;
}

int cli_workload_start(const struct cli_extra *x, const struct catalog *c, struct scenario *s)
{
	char err[1024];
	if (x->scenario && !scenario_apply_file(x->scenario, c, s, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_BADINPUT;
	}
	if (!x->model_config)
		return 0;
	if (s->n_entries > 1) {
		fprintf(stderr, PROG ": --model-config: the scenario holds %zu workloads; give each its model "
			"in the file\n", s->n_entries);
		return EXIT_BADINPUT;
	}
	struct hfconfig h;
	if (!hfconfig_load(x->model_config, &h, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_BADINPUT;
	}
	if (!scenario_set_custom_model(s, &h.m)) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_BADINPUT;
	}
	return 0;
}

int cli_load_prices(const struct cli_extra *x, struct prices *pl, struct workload *w)
{
	w->prices = NULL;
	if (!x->prices)
		return 0;
	char err[1024];
	if (!prices_load(x->prices, pl, err, sizeof err) || !engine_prices_valid(pl, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		prices_fini(pl);
		return EXIT_BADINPUT;
	}
	w->prices = pl;
	return 0;
}

/* The field whose flag a (of len bytes) is; NULL for any other option. */
static const struct engine_field *find_field(const char *a, size_t len)
{
	if (len < 3 || a[0] != '-' || a[1] != '-')
		return NULL;
	for (int i = 0; i < EF_COUNT; i++) {
		const struct engine_field *f = engine_field((enum engine_field_id)i);
		if (f->flag && strlen(f->flag) == len - 2 && !strncmp(a + 2, f->flag, len - 2))
			return f;
	}
	return NULL;
}

static bool prescanned_flag(const char *a, size_t len)
{
	for (size_t i = 0; i < N_PRESCANNED; i++)
		if (same_flag(a, len, prescanned[i].name))
			return true;
	return false;
}

static const struct cli_opt *find_extra(const struct cli_extra *x, const char *a, size_t len)
{
	for (size_t i = 0; i < x->n_opts; i++)
		if (same_flag(a, len, x->opts[i].name))
			return &x->opts[i];
	return NULL;
}

/* One pass over argv: only_workload applies --workload alone, otherwise
 * everything except --workload. */
static int pass(int argc, char **argv, struct ctx *k, bool only_workload)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			continue;
		size_t len = flag_len(a);
		bool inline_val = a[len] == '=';
		const struct engine_field *o = find_field(a, len);
		bool skip = !o && prescanned_flag(a, len);
		const struct cli_opt *e = o || skip ? NULL : find_extra(k->x, a, len);
		if (!o && !e && !skip) {
			if (only_workload)
				continue;
			if (a[0] == '-' && a[1])
				fprintf(stderr, PROG ": unknown option '%.*s'\n"
					"Try 'accelsizer %s --help' for more information.\n",
					(int)len, a, argv[0]);
			else
				fprintf(stderr, PROG ": unexpected argument '%s'\n"
					"Try 'accelsizer %s --help' for more information.\n", a, argv[0]);
			return EXIT_BADINPUT;
		}
		const char *v = NULL;
		if (e && !e->has_arg) {
			if (inline_val) {
				fprintf(stderr, PROG ": %.*s takes no value\n", (int)len, a);
				return EXIT_BADINPUT;
			}
			if (!only_workload && e->value)
				*e->value = "1";
			continue;
		}
		if (inline_val)
			v = a + len + 1;
		else if (o && o->bare)
			v = o->bare;	/* a flag that takes no value */
		else if (i + 1 < argc)
			v = argv[++i];
		if (!v) {
			fprintf(stderr, PROG ": %.*s needs a value\n", (int)len, a);
			return EXIT_BADINPUT;
		}
		if (!*v && !(e && e->has_arg)) {
			fprintf(stderr, PROG ": %.*s: the value is empty\n", (int)len, a);
			return EXIT_BADINPUT;
		}
		bool is_class = o == engine_field(EF_CLASS);
		if (only_workload != is_class || skip)
			continue;
		if (o) {
			char flag[40];
			snprintf(flag, sizeof flag, "%.*s", (int)len, a);
			if (!set_field(k, o, flag, v))
				return EXIT_BADINPUT;
		} else if (e->value) {
			*e->value = v;
		}
	}
	return 0;
}

/* --precision without --kv-precision: the KV cache follows again, as
 * engine_workload_derive() makes it (a scenario's own KV choice too). */
static void kv_follows(struct workload *w)
{
	w->kv_precision_set = false;
	engine_workload_derive(w);
}

int cli_workload_apply(const struct catalog *c, struct workload *w, struct cli_extra *x,
		       const char *name, const char *shown, const char *value)
{
	const struct engine_field *o = find_field(name, strlen(name));
	if (!o) {
		fprintf(stderr, PROG ": %s is not a workload option\n", name);
		return EXIT_BADINPUT;
	}
	struct ctx k = { .c = c, .w = w, .x = x };
	if (!set_field(&k, o, shown ? shown : name, value))
		return EXIT_BADINPUT;
	if (o == engine_field(EF_PRECISION) && !x->set_kv_precision)
		kv_follows(w);
	return 0;
}

int cli_workload_parse(int argc, char **argv, const struct catalog *c, struct workload *w,
		       struct cli_extra *x)
{
	struct ctx k = { .c = c, .w = w, .x = x };
	x->set_precision = x->set_kv_precision = x->set_gpus = x->set_accel = x->set_workload = false;
	x->set_draft = x->set_platform = false;
	int rc = pass(argc, argv, &k, true);
	if (!rc)
		rc = pass(argc, argv, &k, false);
	if (rc)
		return rc;

	if (x->set_precision && !x->set_kv_precision)
		kv_follows(w);
	if (x->set_draft && !(w->spec_acceptance > 0)) {
		fprintf(stderr, PROG ": --draft-model: a draft model needs --speculative-acceptance: the share of "
			"drafted tokens the model accepts (0.01 to 0.99)\n");
		return EXIT_BADINPUT;
	}
	if (x->set_gpus && !w->accel) {
		fprintf(stderr, PROG ": --gpus needs --accelerator: which accelerator should have that many?\n");
		return EXIT_BADINPUT;
	}
	/* The checks users trip over most, with the flags named (a
	 * scenario's own mismatch is engine_workload_valid()'s to say). */
	const struct catalog_platform *p = x->set_platform || x->set_accel ? w->platform : NULL;
	if (p && w->accel && p->accel != w->accel) {
		fprintf(stderr, PROG ": --platform: %s is a server for %s, not for --accelerator %s (its "
			"platforms: 'accelsizer catalog show %s')\n", p->id, p->accel_id, w->accel->id,
			w->accel->id);
		return EXIT_BADINPUT;
	}
	if (p && w->node_gpus > 0 && p->gpus_per_node != w->node_gpus) {
		fprintf(stderr, PROG ": --platform: %s holds %d GPUs per node, not the %d of --node-gpus\n",
			p->id, p->gpus_per_node, w->node_gpus);
		return EXIT_BADINPUT;
	}
	if (w->cls == WL_INFERENCE && w->model && w->model->max_context > 0 &&
	    w->input_tokens + w->output_tokens > w->model->max_context) {
		fprintf(stderr, PROG ": --input-tokens + --output-tokens: %ld tokens exceed %s's context of %ld\n",
			w->input_tokens + w->output_tokens, w->model->name ? w->model->name : w->model->id,
			w->model->max_context);
		return EXIT_BADINPUT;
	}
	if (w->cls != WL_INFERENCE && w->global_batch_tokens < (double)w->seq_len) {
		fprintf(stderr, PROG ": --global-batch-tokens: %.0f tokens do not hold one sequence of --seq-len %ld\n",
			w->global_batch_tokens, w->seq_len);
		return EXIT_BADINPUT;
	}
	if (w->cls != WL_INFERENCE &&
	    (w->precision == PREC_INT4 || w->precision == PREC_INT8 ||
	     w->precision == PREC_MXFP4 || w->precision == PREC_W8A16)) {
		fprintf(stderr, PROG ": --precision: %s is an inference format; train at bf16, fp16, fp8 or fp4 (NVFP4) "
			"(--method qlora stores the frozen base in 4 bit by itself)\n", precision_name(w->precision));
		return EXIT_BADINPUT;
	}
	if (w->cls == WL_INFERENCE && w->accel && w->serving_stack >= 0 &&
	    !engine_serving_stack(c, w, w->accel, NULL)) {
		const char *id = serving_stack_name((enum serving_stack)w->serving_stack);
		const struct catalog_serving_stack *s = catalog_serving_stack(c, id);
		fprintf(stderr, PROG ": --serving-stack: '%s' does not run on %s (a %s accelerator)%s\n", id,
			w->accel->id, stack_name(w->accel->stack),
			s ? "; see catalog/serving-stacks/ for where each stack runs" : "; it is not in the catalog");
		return EXIT_BADINPUT;
	}
	if (w->cls != WL_INFERENCE && w->accel && w->training_stack >= 0 &&
	    !engine_training_stack(c, w, w->accel)) {
		const char *id = training_stack_name((enum training_stack)w->training_stack);
		const struct catalog_training_stack *s = catalog_training_stack(c, id);
		fprintf(stderr, PROG ": --training-stack: '%s' does not run on %s (a %s accelerator)%s\n", id,
			w->accel->id, stack_name(w->accel->stack),
			s ? "; see catalog/training-stacks/ for where each stack runs" : "; it is not in the catalog");
		return EXIT_BADINPUT;
	}
	char why[192];
	if (!engine_workload_valid(w, why, sizeof why)) {
		fprintf(stderr, PROG ": %s\n", why);
		return EXIT_BADINPUT;
	}
	return 0;
}
