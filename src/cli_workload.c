/*
 * cli_workload: parsing the shared workload options.  One table holds every
 * option's name, argument, help line and setter, so the parser and the
 * --help text cannot disagree.  Numbers are parsed strictly: a presales
 * engineer who types "1,000" or "-5" gets told, never a silent zero.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_workload.h"
#include "prices.h"

#define PROG "accelsizer"

/* ---- strict number parsing ---- */

bool cli_parse_whole(const char *flag, const char *s, long min, long max, long *out)
{
	bool digits = s && *s;
	for (const char *p = s; digits && *p; p++)
		if (*p < '0' || *p > '9')
			digits = false;
	if (!digits) {
		fprintf(stderr, PROG ": %s: '%s' is not a whole number\n", flag, s ? s : "");
		return false;
	}
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno == ERANGE || v > (unsigned long long)LONG_MAX || (long)v > max || (long)v < min) {
		if (max == LONG_MAX)
			fprintf(stderr, PROG ": %s: '%s' is out of range (at least %ld)\n", flag, s, min);
		else
			fprintf(stderr, PROG ": %s: '%s' is out of range (%ld to %ld)\n", flag, s, min, max);
		return false;
	}
	*out = (long)v;
	return true;
}

/* Length of a plain decimal number at s: digits, an optional fraction and
 * an optional exponent; 0 if there is none.  No sign, no hex, no inf/nan. */
static size_t decimal_len(const char *s)
{
	size_t i = 0, mant = 0;
	while (s[i] >= '0' && s[i] <= '9')
		i++, mant++;
	if (s[i] == '.') {
		i++;
		while (s[i] >= '0' && s[i] <= '9')
			i++, mant++;
	}
	if (!mant)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		size_t j = i + 1;
		if (s[j] == '+' || s[j] == '-')
			j++;
		size_t k = j;
		while (s[k] >= '0' && s[k] <= '9')
			k++;
		if (k > j)
			i = k;
	}
	return i;
}

static bool number_in_range(const char *flag, const char *s, double v, double min, double max)
{
	if (max == HUGE_VAL)
		return true;	/* the caller checks the engine's table */
	if (!isfinite(v) || v < min || v > max) {
		fprintf(stderr, PROG ": %s: '%s' is out of range (%g to %g)\n", flag, s, min, max);
		return false;
	}
	return true;
}

bool cli_parse_number(const char *flag, const char *s, double min, double max, double *out)
{
	size_t n = s ? decimal_len(s) : 0;
	if (!n || s[n]) {
		fprintf(stderr, PROG ": %s: '%s' is not a number\n", flag, s ? s : "");
		return false;
	}
	errno = 0;
	double v = strtod(s, NULL);
	if (errno == ERANGE && fabs(v) > 1)
		v = INFINITY;
	if (!number_in_range(flag, s, v, min, max))
		return false;
	*out = v;
	return true;
}

bool cli_parse_tokens(const char *flag, const char *s, double min, double max, double *out)
{
	size_t n = s ? decimal_len(s) : 0;
	double scale = 1;
	if (n && s[n] && !s[n + 1]) {
		switch (s[n]) {
		case 'k': case 'K': scale = 1e3; break;
		case 'm': case 'M': scale = 1e6; break;
		case 'b': case 'B': case 'g': case 'G': scale = 1e9; break;
		case 't': case 'T': scale = 1e12; break;
		default: n = 0; break;
		}
	} else if (n && s[n]) {
		n = 0;
	}
	if (!n) {
		fprintf(stderr, PROG ": %s: '%s' is not a token count (e.g. 2e12, 2T, 500B, 1.5M, 20k)\n",
			flag, s ? s : "");
		return false;
	}
	errno = 0;
	double v = strtod(s, NULL);
	if (errno == ERANGE && fabs(v) > 1)
		v = INFINITY;
	v *= scale;
	if (!number_in_range(flag, s, v, min, max))
		return false;
	*out = v;
	return true;
}

/* ---- fields bounded by the engine's table (engine_limits.c) ----
 * The same bounds and the same range text as the wizard and scenario files:
 * "accelsizer: --input-tokens: '0' is out of range (1 to 100000000)". */

static bool field_in_range(const char *key, const char *flag, const char *s, double v)
{
	const struct engine_field_limit *l = engine_field_limit(key);
	char why[112];
	if (!l)
		abort();	/* every bounded option is in the table */
	if (engine_field_check(l, v, why, sizeof why))
		return true;
	fprintf(stderr, PROG ": %s: '%s' is %s\n", flag, s, why);
	return false;
}

static bool field_whole(const char *key, const char *flag, const char *s, long *out)
{
	/* the range first, so that a number too large for a long gets the
	 * table's range too */
	if (s && *s && strspn(s, "0123456789") == strlen(s) && !field_in_range(key, flag, s, strtod(s, NULL)))
		return false;
	return cli_parse_whole(flag, s, 0, LONG_MAX, out);
}

static bool field_number(const char *key, const char *flag, const char *s, double *out)
{
	double v;
	if (!cli_parse_number(flag, s, 0, HUGE_VAL, &v) || !field_in_range(key, flag, s, v))
		return false;
	*out = v;
	return true;
}

static bool field_tokens(const char *key, const char *flag, const char *s, double *out)
{
	double v;
	if (!cli_parse_tokens(flag, s, 0, HUGE_VAL, &v) || !field_in_range(key, flag, s, v))
		return false;
	*out = v;
	return true;
}

/* ---- the option table ---- */

struct ctx {
	const struct catalog *c;
	struct workload *w;
	struct cli_extra *x;
};

typedef bool (*setter)(struct ctx *k, const char *flag, const char *v);

struct wopt {
	const char *name, *arg, *help;
	setter set;
};

static bool bad_choice(const char *flag, const char *v, const char *choices)
{
	fprintf(stderr, PROG ": %s: '%s' is not one of %s\n", flag, v, choices);
	return false;
}

static bool set_workload(struct ctx *k, const char *f, const char *v)
{
	enum workload_class cls;
	if (!workload_class_parse(v, &cls))
		return bad_choice(f, v, "inference, pretrain, finetune");
	if (cls != k->w->cls)
		engine_workload_class_defaults(k->w, cls);
	k->x->set_workload = true;
	return true;
}

static bool set_model(struct ctx *k, const char *f, const char *v)
{
	const struct catalog_model *m = catalog_model(k->c, v);
	if (!m) {
		const char *near = catalog_suggest(k->c, CATALOG_MODELS, v);
		if (near)
			fprintf(stderr, PROG ": %s: unknown model '%s'; did you mean '%s'?\n", f, v, near);
		else
			fprintf(stderr, PROG ": %s: unknown model '%s' (see 'accelsizer catalog list --models')\n",
				f, v);
		return false;
	}
	k->w->model = m;
	return true;
}

static const char precisions[] = "fp32, bf16, fp16, fp8, int8, int4, fp4";

static bool parse_prec(const char *f, const char *v, enum precision *out)
{
	enum precision p;
	if (!precision_parse(v, &p) || p >= PREC_WORKLOAD_COUNT)
		return bad_choice(f, v, precisions);
	*out = p;
	return true;
}

static bool set_precision(struct ctx *k, const char *f, const char *v)
{
	k->x->set_precision = true;
	return parse_prec(f, v, &k->w->precision);
}

static bool set_kv_precision(struct ctx *k, const char *f, const char *v)
{
	k->x->set_kv_precision = true;
	k->w->kv_precision_set = true;
	return parse_prec(f, v, &k->w->kv_precision);
}

static bool set_input(struct ctx *k, const char *f, const char *v)
{
	return field_whole("input_tokens", f, v, &k->w->input_tokens);
}

static bool set_output(struct ctx *k, const char *f, const char *v)
{
	return field_whole("output_tokens", f, v, &k->w->output_tokens);
}

static bool set_concurrency(struct ctx *k, const char *f, const char *v)
{
	if (v && !strcmp(v, "max")) {
		k->w->concurrency_max = true;
		return true;
	}
	long n;
	if (v && *v && strspn(v, "0123456789") != strlen(v)) {
		fprintf(stderr, PROG ": %s: '%s' is not a whole number or 'max'\n", f, v);
		return false;
	}
	if (!field_whole("concurrency", f, v, &n))
		return false;
	k->w->concurrency = n;
	k->w->concurrency_max = false;
	return true;
}

static bool set_tps_user(struct ctx *k, const char *f, const char *v)
{
	return field_number("tokens_per_s_per_user", f, v, &k->w->tokens_per_s_per_user);
}

static bool set_ttft(struct ctx *k, const char *f, const char *v)
{
	return field_number("ttft_ms", f, v, &k->w->ttft_ms);
}

static bool set_target_tps(struct ctx *k, const char *f, const char *v)
{
	return field_number("target_tokens_per_s", f, v, &k->w->target_tokens_per_s);
}

static bool set_spare(struct ctx *k, const char *f, const char *v)
{
	long n;
	if (!field_whole("spare_nodes", f, v, &n))
		return false;
	k->w->spare_nodes = (int)n;
	return true;
}

static bool set_tokens(struct ctx *k, const char *f, const char *v)
{
	return field_tokens("tokens", f, v, &k->w->tokens);
}

static bool set_epochs(struct ctx *k, const char *f, const char *v)
{
	return field_number("epochs", f, v, &k->w->epochs);
}

static bool set_days(struct ctx *k, const char *f, const char *v)
{
	double d;
	if (!field_number("days", f, v, &d))
		return false;
	k->w->target_hours = d * 24.0;
	return true;
}

static bool set_hours(struct ctx *k, const char *f, const char *v)
{
	return field_number("target_hours", f, v, &k->w->target_hours);
}

static bool set_seq(struct ctx *k, const char *f, const char *v)
{
	return field_whole("seq_len", f, v, &k->w->seq_len);
}

static bool set_gbt(struct ctx *k, const char *f, const char *v)
{
	return field_tokens("global_batch_tokens", f, v, &k->w->global_batch_tokens);
}

static bool set_recompute(struct ctx *k, const char *f, const char *v)
{
	if (!recompute_parse(v, &k->w->recompute))
		return bad_choice(f, v, "none, selective, full");
	return true;
}

static bool set_method(struct ctx *k, const char *f, const char *v)
{
	if (!ft_method_parse(v, &k->w->method))
		return bad_choice(f, v, "full, lora, qlora");
	return true;
}

static bool set_rank(struct ctx *k, const char *f, const char *v)
{
	long n;
	if (!field_whole("lora_rank", f, v, &n))
		return false;
	k->w->lora_rank = (int)n;
	return true;
}

static bool set_stack(struct ctx *k, const char *f, const char *v)
{
	enum stack s;
	if (v && !strcmp(v, "any")) {
		k->w->stack = -1;
		return true;
	}
	if (!stack_parse(v, &s))
		return bad_choice(f, v, "any, cuda, rocm, gaudi");
	k->w->stack = (int)s;
	return true;
}

static bool set_form(struct ctx *k, const char *f, const char *v)
{
	if (!form_filter_parse(v, &k->w->form))
		return bad_choice(f, v, "any, sxm-oam, pcie");
	return true;
}

static bool set_power(struct ctx *k, const char *f, const char *v)
{
	return field_number("max_power_kw", f, v, &k->w->max_power_kw);
}

static bool set_budget(struct ctx *k, const char *f, const char *v)
{
	return field_number("budget_usd", f, v, &k->w->budget_usd);
}

static bool set_accel(struct ctx *k, const char *f, const char *v)
{
	const struct catalog_accel *a = catalog_accel(k->c, v);
	if (!a) {
		const char *near = catalog_suggest(k->c, CATALOG_ACCELERATORS, v);
		if (near)
			fprintf(stderr, PROG ": %s: unknown accelerator '%s'; did you mean '%s'?\n", f, v, near);
		else
			fprintf(stderr, PROG ": %s: unknown accelerator '%s' (see 'accelsizer catalog list')\n",
				f, v);
		return false;
	}
	k->w->accel = a;
	k->x->set_accel = true;
	return true;
}

static bool set_gpus(struct ctx *k, const char *f, const char *v)
{
	long n;
	if (!field_whole("gpus", f, v, &n))
		return false;
	k->w->gpus = (int)n;
	k->x->set_gpus = true;
	return true;
}

static bool set_objective(struct ctx *k, const char *f, const char *v)
{
	if (!objective_parse(v, &k->w->objective))
		return bad_choice(f, v, "capex, cost-per-token, time, gpus, perf-per-watt");
	return true;
}

/* Taken by cli_workload_prescan(); accepted and skipped here. */
static bool set_nothing(struct ctx *k, const char *f, const char *v)
{
	(void)k, (void)f, (void)v;
	return true;
}

static const struct wopt wopts[] = {
	{ "--workload", "CLASS", "inference | pretrain | finetune", set_workload },
	{ "--model", "ID", "model from the catalog ('accelsizer catalog list --models')", set_model },
	{ "--precision", "P", "weights and compute: fp32 bf16 fp16 fp8 int8 int4 fp4", set_precision },
	{ "--kv-precision", "P", "KV cache (default: follows --precision; fp16 for int4)", set_kv_precision },
	{ "--input-tokens", "N", "inference: prompt tokens per request", set_input },
	{ "--output-tokens", "N", "inference: generated tokens per request", set_output },
	{ "--concurrency", "N|max", "inference: concurrent sequences, or as many as fit", set_concurrency },
	{ "--tokens-per-s-per-user", "X", "inference: decode speed each user needs", set_tps_user },
	{ "--ttft-ms", "X", "inference: target time to first token", set_ttft },
	{ "--target-tokens-per-s", "X", "inference: total output tokens/s to serve", set_target_tps },
	{ "--spare-nodes", "N", "spare nodes for uptime (default: the catalog's)", set_spare },
	{ "--tokens", "N", "training tokens, or fine-tuning dataset tokens (2e12, 2T, 500B)", set_tokens },
	{ "--epochs", "X", "fine-tuning: passes over the dataset", set_epochs },
	{ "--days", "X", "training: target wall-clock days", set_days },
	{ "--hours", "X", "training: target wall-clock hours", set_hours },
	{ "--seq-len", "N", "training: sequence length", set_seq },
	{ "--global-batch-tokens", "N", "training: tokens per optimizer step (4M, 262144)", set_gbt },
	{ "--recompute", "R", "training: activation recompute none | selective | full", set_recompute },
	{ "--method", "M", "fine-tuning: full | lora | qlora", set_method },
	{ "--lora-rank", "N", "fine-tuning: LoRA rank", set_rank },
	{ "--stack", "S", "filter: any | cuda | rocm | gaudi", set_stack },
	{ "--form-factor", "F", "filter: any | sxm-oam | pcie", set_form },
	{ "--max-power-kw", "X", "filter: power budget of the whole configuration", set_power },
	{ "--budget-usd", "X", "filter: capital budget", set_budget },
	{ "--accelerator", "ID", "the accelerator to size, or to apply --gpus to", set_accel },
	{ "--gpus", "N", "GPU count for --accelerator (default: sized)", set_gpus },
	{ "--objective", "O", "rank by capex | cost-per-token | time | gpus | perf-per-watt", set_objective },
	{ "--scenario", "FILE", "start from a saved scenario; flags override it", set_nothing },
	{ "--catalog", "DIR", "read the catalog from DIR", set_nothing },
	{ "--prices", "FILE.csv", "price list over the catalog's prices, for every cost", set_nothing },
};

#define N_WOPTS (sizeof wopts / sizeof wopts[0])

void cli_workload_usage(FILE *f)
{
	for (size_t i = 0; i < N_WOPTS; i++) {
		char lhs[48];
		snprintf(lhs, sizeof lhs, "%s %s", wopts[i].name, wopts[i].arg);
		fprintf(f, "      %-30s %s\n", lhs, wopts[i].help);
	}
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
	x->catalog_dir = x->scenario = x->prices = NULL;
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

int cli_load_prices(const struct cli_extra *x, struct prices *pl, struct workload *w)
{
	w->prices = NULL;
	if (!x->prices)
		return 0;
	char err[1024];
	if (!prices_load(x->prices, pl, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_BADINPUT;
	}
	w->prices = pl;
	return 0;
}

static const struct wopt *find_wopt(const char *a, size_t len)
{
	for (size_t i = 0; i < N_WOPTS; i++)
		if (same_flag(a, len, wopts[i].name))
			return &wopts[i];
	return NULL;
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
		const struct wopt *o = find_wopt(a, len);
		const struct cli_opt *e = o ? NULL : find_extra(k->x, a, len);
		if (!o && !e) {
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
		bool is_class = o && o->set == set_workload;
		if (only_workload != is_class)
			continue;
		if (o) {
			char flag[40];
			snprintf(flag, sizeof flag, "%.*s", (int)len, a);
			if (!o->set(k, flag, v))
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
	const struct wopt *o = find_wopt(name, strlen(name));
	if (!o || o->set == set_nothing) {
		fprintf(stderr, PROG ": %s is not a workload option\n", name);
		return EXIT_BADINPUT;
	}
	struct ctx k = { .c = c, .w = w, .x = x };
	if (!o->set(&k, shown ? shown : name, value))
		return EXIT_BADINPUT;
	if (o->set == set_precision && !x->set_kv_precision)
		kv_follows(w);
	return 0;
}

int cli_workload_parse(int argc, char **argv, const struct catalog *c, struct workload *w,
		       struct cli_extra *x)
{
	struct ctx k = { .c = c, .w = w, .x = x };
	x->set_precision = x->set_kv_precision = x->set_gpus = x->set_accel = x->set_workload = false;
	int rc = pass(argc, argv, &k, true);
	if (!rc)
		rc = pass(argc, argv, &k, false);
	if (rc)
		return rc;

	if (x->set_precision && !x->set_kv_precision)
		kv_follows(w);
	if (x->set_gpus && !w->accel) {
		fprintf(stderr, PROG ": --gpus needs --accelerator: which accelerator should have that many?\n");
		return EXIT_BADINPUT;
	}
	/* The checks users trip over most, with the flags named. */
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
	    (w->precision == PREC_INT4 || w->precision == PREC_INT8 || w->precision == PREC_FP4)) {
		fprintf(stderr, PROG ": --precision: %s is an inference format; train at bf16, fp16 or fp8 "
			"(--method qlora stores the frozen base in 4 bit by itself)\n", precision_name(w->precision));
		return EXIT_BADINPUT;
	}
	char why[192];
	if (!engine_workload_valid(w, why, sizeof why)) {
		fprintf(stderr, PROG ": %s\n", why);
		return EXIT_BADINPUT;
	}
	return 0;
}
