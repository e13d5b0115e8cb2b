/*
 * `accelsizer sweep`: the engine over a grid of scenarios, as one CSV table
 * a spreadsheet or a script can pivot.
 *
 * The grid's axes are lists or ranges given on the command line (--models,
 * --precisions, --concurrency, --input-tokens, --output-tokens, --seq-len,
 * --gpus); every other workload option, and --scenario, work as in
 * recommend and set what the axes do not vary.  Each axis value goes
 * through the shared parser's own setter (cli_workload_apply), so a bad
 * value gets the same message as in recommend, naming the flag.  A
 * combination the engine refuses (a prompt longer than one model's
 * context) is not an error: its rows say so in fits and reason.
 *
 * One row per (scenario, accelerator): the axes given, as leading columns,
 * then the columns of `recommend --format csv` from cli_report's one field
 * table, cell for cell the same text.  Rows come in recommend's order
 * (ranked), scenarios in the order of the axes, the last axis fastest.
 *
 * Speed: the grid is walked with one engine report allocated up front and
 * a workload rebuilt from plain field copies per scenario; a scenario's
 * rows are built in the CSV writer's buffer (out.h) and written with one
 * fwrite.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "accuracy.h"
#include "cli.h"
#include "cli_fmt.h"
#include "cli_outputs.h"
#include "cli_report.h"
#include "cli_workload.h"
#include "prices.h"
#include "out.h"
#include "scenario.h"

#define PROG "accelsizer"

/* A grid past this many accelerator evaluations is refused: ten million
 * is a few seconds to a minute of engine time and about 5 GB of CSV. */
#define SWEEP_MAX_EVALUATIONS 10000000L

/* ---- axes ---- */

enum axis_id { AX_MODEL, AX_PRECISION, AX_CONCURRENCY, AX_INPUT, AX_OUTPUT, AX_SEQ, AX_GPUS, AX_BATCH, AX_COUNT };

struct axis_def {
	const char *flag;	/* as typed: "--models" */
	const char *option;	/* the shared workload option each value sets */
	const char *column;	/* leading CSV column */
	bool numeric;		/* ranges allowed */
	const char *help;
};

static const struct axis_def axis_defs[AX_COUNT] = {
	[AX_MODEL] = { "--models", "--model", "model", false,
		       "model ids from the catalog: llama-2-7b,llama-2-70b" },
	[AX_PRECISION] = { "--precisions", "--precision", "precision", false,
			   "precisions: fp16,fp8 (the KV cache follows unless --kv-precision)" },
	[AX_CONCURRENCY] = { "--concurrency", "--concurrency", "concurrency", true,
			     "inference: concurrent sequences (numbers, ranges or max)" },
	[AX_INPUT] = { "--input-tokens", "--input-tokens", "input_tokens", true,
		       "inference: prompt tokens per request" },
	[AX_OUTPUT] = { "--output-tokens", "--output-tokens", "output_tokens", true,
			"inference: generated tokens per request" },
	[AX_SEQ] = { "--seq-len", "--seq-len", "seq_len", true, "training: sequence length" },
	/* not "gpus": that is a result column (the GPUs sized) */
	[AX_GPUS] = { "--gpus", "--gpus", "gpus_requested", true,
		      "GPU count for --accelerator" },
	/* not "batch_per_replica": that is the result (the batch the targets
	 * and memory allow, at most this); with tokens_per_s_per_gpu and
	 * tokens_per_s_per_user it traces the throughput-latency curve */
	[AX_BATCH] = { "--batch", "--batch", "batch_requested", true,
		       "inference: most sequences a replica runs at once on --accelerator" },
};

/* What one axis value sets in a workload. */
struct axis_value {
	const struct catalog_model *model;
	enum precision precision, kv_precision;
	long number;
	bool max;		/* concurrency "max" */
};

struct axis {
	const char *spec;	/* the argument; NULL = axis not given */
	struct axis_value *v;
	size_t n;
};

/* ---- ranges and lists ----
 * "1,8,64" is a list; "1..256" doubles from 1 to 256; "1..256*4"
 * multiplies by 4; "128..1024+128" adds 128.  Elements mix: "1,4..64". */

enum range_step { STEP_NONE, STEP_MUL, STEP_ADD };

struct element {
	const char *text;	/* the element as written (not NUL-terminated) */
	size_t len;
	enum range_step step;
	unsigned long long from, to, by;
};

static const char range_help[] = "A..B doubles from A to B, A..B*F multiplies by F, A..B+S adds S";

/* Digits only, into *out; false on anything else or overflow. */
static bool digits(const char *s, size_t len, unsigned long long *out)
{
	if (!len || len > 18)
		return false;
	unsigned long long v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned long long)(s[i] - '0');
	}
	*out = v;
	return true;
}

/* Parses one element; prints the reason and returns false when it is a
 * malformed or empty range. */
static bool parse_element(const struct axis_def *d, const char *s, size_t len, struct element *e)
{
	memset(e, 0, sizeof *e);
	e->text = s;
	e->len = len;
	const char *dots = NULL;
	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] == '.' && s[i + 1] == '.') {
			dots = s + i;
			break;
		}
	if (!dots)
		return true;
	if (!d->numeric) {
		fprintf(stderr, PROG ": %s: '%.*s': ranges apply to numbers only; list the values "
			"with commas\n", d->flag, (int)len, s);
		return false;
	}
	const char *b = dots + 2, *end = s + len;
	const char *op = b;
	while (op < end && *op != '*' && *op != '+')
		op++;
	e->step = op < end && *op == '+' ? STEP_ADD : STEP_MUL;
	e->by = 2;
	bool ok = digits(s, (size_t)(dots - s), &e->from) && digits(b, (size_t)(op - b), &e->to);
	if (ok && op < end)
		ok = digits(op + 1, (size_t)(end - op - 1), &e->by);
	if (!ok) {
		fprintf(stderr, PROG ": %s: '%.*s' is not a range (%s)\n", d->flag, (int)len, s,
			range_help);
		return false;
	}
	if (e->from > e->to) {
		fprintf(stderr, PROG ": %s: '%.*s' is an empty range\n", d->flag, (int)len, s);
		return false;
	}
	if (e->step == STEP_MUL && (e->by < 2 || e->from == 0)) {
		fprintf(stderr, PROG ": %s: '%.*s' never grows: %s\n", d->flag, (int)len, s,
			e->from == 0 ? "a multiplied range cannot start at 0" : "the factor must be 2 or more");
		return false;
	}
	if (e->step == STEP_ADD && e->by == 0) {
		fprintf(stderr, PROG ": %s: '%.*s' never grows: the step must be 1 or more\n", d->flag,
			(int)len, s);
		return false;
	}
	return true;
}

/* Values an element stands for. */
static unsigned long long element_count(const struct element *e)
{
	if (e->step == STEP_NONE)
		return 1;
	if (e->step == STEP_ADD)
		return (e->to - e->from) / e->by + 1;
	unsigned long long n = 0;
	for (unsigned long long v = e->from; v <= e->to; n++) {
		if (v > e->to / e->by)
			return n + 1;
		v *= e->by;
	}
	return n;
}

/* The k-th value of a range element. */
static unsigned long long element_value(const struct element *e, unsigned long long k)
{
	if (e->step == STEP_ADD)
		return e->from + k * e->by;
	unsigned long long v = e->from;
	while (k--)
		v *= e->by;
	return v;
}

/* Walks the comma-separated elements of spec: counts them (values NULL)
 * or turns each into an axis value through the shared parser. */
struct axis_ctx {
	const struct catalog *c;
	const struct workload *base;
	struct cli_extra *x;
};

static bool take_value(const struct axis_ctx *k, const struct axis_def *d, const char *text,
		       struct axis_value *out)
{
	struct workload w = *k->base;
	if (cli_workload_apply(k->c, &w, k->x, d->option, d->flag, text))
		return false;
	memset(out, 0, sizeof *out);
	out->model = w.model;
	out->precision = w.precision;
	out->kv_precision = w.kv_precision;
	out->max = w.concurrency_max;
	switch ((enum axis_id)(d - axis_defs)) {
	case AX_CONCURRENCY: out->number = w.concurrency; break;
	case AX_INPUT: out->number = w.input_tokens; break;
	case AX_OUTPUT: out->number = w.output_tokens; break;
	case AX_SEQ: out->number = w.seq_len; break;
	case AX_GPUS: out->number = w.gpus; break;
	case AX_BATCH: out->number = w.batch; break;
	default: break;
	}
	return true;
}

/* Counts (a->v NULL) or fills a->v.  Returns false (message printed) on a
 * bad element or value; *count gets the number of values. */
static bool walk_axis(const struct axis_ctx *k, const struct axis_def *d, struct axis *a,
		      unsigned long long *count)
{
	const char *s = a->spec;
	unsigned long long n = 0;
	if (!*s) {
		fprintf(stderr, PROG ": %s: the list is empty\n", d->flag);
		return false;
	}
	for (;;) {
		size_t len = strcspn(s, ",");
		if (!len) {
			fprintf(stderr, PROG ": %s: empty element in '%s'\n", d->flag, a->spec);
			return false;
		}
		struct element e;
		if (!parse_element(d, s, len, &e))
			return false;
		unsigned long long m = element_count(&e);
		if (a->v) {
			char text[64];
			if (e.step == STEP_NONE && len >= sizeof text) {
				fprintf(stderr, PROG ": %s: '%.*s' is too long\n", d->flag, (int)len, s);
				return false;
			}
			for (unsigned long long i = 0; i < m; i++) {
				if (e.step == STEP_NONE)
					snprintf(text, sizeof text, "%.*s", (int)len, s);
				else
					snprintf(text, sizeof text, "%llu", element_value(&e, i));
				if (!take_value(k, d, text, &a->v[n + i]))
					return false;
			}
		}
		n = n + m < n ? ULLONG_MAX : n + m;	/* saturates: the grid check refuses it */
		if (!s[len])
			break;
		s += len + 1;
		if (!*s) {
			fprintf(stderr, PROG ": %s: empty element in '%s'\n", d->flag, a->spec);
			return false;
		}
	}
	*count = n;
	return true;
}

static void apply_value(enum axis_id id, const struct axis_value *v, struct workload *w)
{
	switch (id) {
	case AX_MODEL: w->model = v->model; break;
	case AX_PRECISION: w->precision = v->precision; w->kv_precision = v->kv_precision; break;
	case AX_CONCURRENCY: w->concurrency = v->number; w->concurrency_max = v->max; break;
	case AX_INPUT: w->input_tokens = v->number; break;
	case AX_OUTPUT: w->output_tokens = v->number; break;
	case AX_SEQ: w->seq_len = v->number; break;
	case AX_GPUS: w->gpus = (int)v->number; break;
	case AX_BATCH: w->batch = v->number; break;
	default: break;
	}
}

/* The axis value as its leading cell. */
static void value_text(enum axis_id id, const struct axis_value *v, char *buf, size_t n)
{
	switch (id) {
	case AX_MODEL: snprintf(buf, n, "%s", v->model && v->model->id ? v->model->id : ""); break;
	case AX_PRECISION: snprintf(buf, n, "%s", precision_name(v->precision)); break;
	case AX_CONCURRENCY:
		if (v->max) {
			snprintf(buf, n, "max");
			break;
		}
		/* fall through */
	default: snprintf(buf, n, "%ld", v->number); break;
	}
}

/* ---- options ---- */

static void usage(FILE *f)
{
	fputs("Usage: accelsizer sweep [WORKLOAD OPTION]... [AXIS]... [-o FILE.csv]\n"
	      "Run the engine over a grid of scenarios and write one CSV row per scenario\n"
	      "and accelerator: the axes given, then the columns of recommend --format csv.\n"
	      "\n"
	      "Axes (comma-separated lists; numbers also as ranges: A..B doubles from A\n"
	      "to B, A..B*F multiplies by F, A..B+S adds S; e.g. 1..256 or 1,8,64):\n", f);
	for (int i = 0; i < AX_COUNT; i++) {
		char lhs[48];
		snprintf(lhs, sizeof lhs, "%s %s", axis_defs[i].flag, axis_defs[i].numeric ? "LIST" : "IDS");
		fprintf(f, "      %-30s %s\n", lhs, axis_defs[i].help);
	}
	fputs("\nWorkload options (what the axes do not vary; as in recommend):\n", f);
	cli_workload_usage(f);
	fputs("\nOutput:\n"
	      "  -o, --output FILE.csv            write here (atomically: all or nothing);\n"
	      "                                   default standard output\n"
	      "      --top N                      only the N best-ranked accelerators per scenario\n"
	      "      --fitting                    only accelerators that fit and pass the filters\n"
	      "      --stats                      print the grid size and evaluation rate on stderr\n"
	      "      --curve                      inference: per accelerator, its trade-off curve\n"
	      "                                   instead: one row per batch (1, 2, 4, ... up to its\n"
	      "                                   KV room, and the operating point's) with tokens/s\n"
	      "                                   per GPU and per user, first-token time, whether\n"
	      "                                   the targets are met, and which row is the\n"
	      "                                   operating point\n"
	      "  -h, --help                       display this help and exit\n"
	      "\n"
	      "A progress line goes to standard error when it is a terminal.  Grids of more\n"
	      "than 10,000,000 evaluations (scenarios x accelerators) are refused.\n"
	      "\n"
	      "Examples:\n"
	      "  accelsizer sweep --models llama-2-7b,llama-2-70b,llama-3.1-405b \\\n"
	      "      --precisions fp16,fp8 --concurrency 1..256 -o grid.csv\n"
	      "  accelsizer sweep --workload pretrain --model llama-2-70b --seq-len 2048,4096,8192 \\\n"
	      "      --days 30 --fitting\n"
	      "\n"
	      "Exit status: 0 written, 2 bad input or a file that cannot be written.\n", f);
}

/* argv without the axis flags (and their values), for the shared parser;
 * the axes' arguments go into ax[].spec.  Returns false on a flag without
 * its value (message printed). */
static bool split_axes(int argc, char **argv, char **rest, int *nrest, struct axis *ax)
{
	int n = 0;
	rest[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *eq = strchr(a, '=');
		size_t flen = eq && a[0] == '-' && a[1] == '-' ? (size_t)(eq - a) : strlen(a);
		int id = -1;
		for (int k = 0; k < AX_COUNT && id < 0; k++)
			if (strlen(axis_defs[k].flag) == flen && !strncmp(a, axis_defs[k].flag, flen))
				id = k;
		if (id < 0) {
			rest[n++] = argv[i];
			continue;
		}
		const char *v = a[flen] == '=' ? a + flen + 1 : i + 1 < argc ? argv[++i] : NULL;
		if (!v) {
			fprintf(stderr, PROG ": %s needs a value\n", axis_defs[id].flag);
			return false;
		}
		if (ax[id].spec) {
			fprintf(stderr, PROG ": %s is given twice; put every value in one list\n",
				axis_defs[id].flag);
			return false;
		}
		ax[id].spec = v;
	}
	rest[n] = NULL;
	*nrest = n;
	return true;
}

/* Interruption: any fatal signal removes -o's temporary file and leaves
 * the target as it was (cleanup.h, through the atomic writer). */

/* ---- progress ---- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct progress {
	bool on;
	double next;
};

static void progress_show(struct progress *p, unsigned long long done, unsigned long long total)
{
	if (!p->on)
		return;
	double t = now_s();
	if (t < p->next && done < total)
		return;
	p->next = t + 0.2;
	fprintf(stderr, "\rsweep: %llu of %llu scenarios (%.0f%%)", done, total,
		total ? 100.0 * (double)done / (double)total : 100.0);
	fflush(stderr);
}

static void progress_end(struct progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
}

/* ---- the sweep ---- */

struct sweep {
	const struct catalog *c;
	const struct accuracy_bands *bands;	/* error bands of each row */
	struct workload base;
	struct axis ax[AX_COUNT];
	unsigned long long n_scenarios;
	unsigned long long rows;	/* written */
	long top;			/* 0 = all */
	bool fitting;
	bool stats;
	bool curve;			/* --curve: trade-off rows, not results */
};

static bool row_wanted(const struct sweep *s, const struct workload *w, const struct engine_result *r,
		       size_t written)
{
	if (w->accel)
		return r->accel == w->accel;	/* as recommend --accelerator */
	if (s->fitting && (!r->fits || r->filtered))
		return false;
	return !s->top || written < (size_t)s->top;
}

/* --curve's columns after the axes: the accelerator, the layout held,
 * then one engine_curve_point. */
static const char *const curve_columns[] = {
	"accelerator", "tp", "pp", "ep", "partition", "batch", "tokens_per_s_per_gpu",
	"tokens_per_s_per_user", "ttft_ms", "meets_targets", "operating_point",
};
#define N_CURVE_COLUMNS (sizeof curve_columns / sizeof curve_columns[0])

static void write_header(const struct sweep *s, struct out_csv *o)
{
	size_t nf;
	const struct cli_field *f = cli_result_fields(&nf);
	for (int a = 0; a < AX_COUNT; a++)
		if (s->ax[a].spec)
			out_csv_cell(o, axis_defs[a].column, OUT_PLAIN);
	if (s->curve) {
		out_csv_row(o, curve_columns, N_CURVE_COLUMNS, OUT_PLAIN);
		return;
	}
	for (size_t i = 0; i < nf; i++)
		out_csv_cell(o, f[i].name, OUT_PLAIN);
	out_csv_end(o);
}

/* The rows of one result's trade-off curve (engine_tradeoff_curve()). */
static size_t write_curve(const struct sweep *s, const struct workload *w, const struct engine_result *r,
			  struct out_csv *row, char lead[][96])
{
	struct engine_curve cv;
	if (!engine_tradeoff_curve(s->c, w, r, &cv))
		return 0;
	for (size_t k = 0; k < cv.n; k++) {
		const struct engine_curve_point *p = &cv.pts[k];
		char v[N_CURVE_COLUMNS][48];
		snprintf(v[0], sizeof v[0], "%s", r->accel->id);
		snprintf(v[1], sizeof v[1], "%d", r->tp);
		snprintf(v[2], sizeof v[2], "%d", r->pp);
		snprintf(v[3], sizeof v[3], "%d", r->ep);
		snprintf(v[4], sizeof v[4], "%s", r->partition ? r->partition->profile : "");
		snprintf(v[5], sizeof v[5], "%ld", p->batch);
		cli_fmt_fixed(v[6], sizeof v[6], p->tokens_per_s_per_gpu, 1);
		cli_fmt_fixed(v[7], sizeof v[7], p->tokens_per_s_per_user, 2);
		cli_fmt_fixed(v[8], sizeof v[8], p->ttft_ms, 1);
		snprintf(v[9], sizeof v[9], "%s", p->meets_targets ? "true" : "false");
		snprintf(v[10], sizeof v[10], "%s", p->batch == cv.op.batch ? "true" : "false");
		for (int a = 0; a < AX_COUNT; a++)
			if (s->ax[a].spec)
				out_csv_cell(row, lead[a], OUT_PLAIN);
		for (size_t i = 0; i < N_CURVE_COLUMNS; i++)
			out_csv_cell(row, v[i], OUT_PLAIN);
		out_csv_end(row);
	}
	return cv.n;
}

static int run(struct sweep *s, FILE *out)
{
	struct engine_report rep;
	if (!engine_report_init(&rep, s->c)) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_BADINPUT;
	}
	/* Reasons written only for the rows written (--top, --fitting). */
	rep.lazy_reasons = true;
	struct out_csv row;
	out_csv_begin(&row, out, OUT_CSV_QUOTE_ALL);
	size_t nf;
	cli_result_fields(&nf);
	struct progress prog = { .on = isatty(STDERR_FILENO) == 1 };
	size_t idx[AX_COUNT] = { 0 };
	char lead[AX_COUNT][96];
	double t0 = now_s(), t_engine = 0;
	unsigned long long rows = 0, fitting = 0;
	write_header(s, &row);
	bool ok = out_csv_flush(&row);

	for (unsigned long long p = 0; ok && p < s->n_scenarios; p++) {
		struct workload w = s->base;
		for (int a = 0; a < AX_COUNT; a++)
			if (s->ax[a].spec) {
				apply_value((enum axis_id)a, &s->ax[a].v[idx[a]], &w);
				value_text((enum axis_id)a, &s->ax[a].v[idx[a]], lead[a], sizeof lead[a]);
			}
		double te = s->stats ? now_s() : 0;
		engine_run(s->c, &w, &rep);
		if (s->stats)
			t_engine += now_s() - te;
		fitting += rep.n_fitting;

		size_t written = 0;
		for (size_t k = 0; k < rep.n; k++) {
			struct engine_result *r = &rep.results[k];
			if (!row_wanted(s, &w, r, written))
				continue;
			written++;
			if (s->curve) {
				rows += write_curve(s, &w, r, &row, lead);
				continue;
			}
			accuracy_bands_apply(s->bands, r);
			/* the axes' values are catalog ids (checked by the
			 * loader), precision names and numbers */
			for (int a = 0; a < AX_COUNT; a++)
				if (s->ax[a].spec)
					out_csv_cell(&row, lead[a], OUT_PLAIN);
			char buf[256];
			for (size_t i = 0; i < nf; i++) {
				if (!cli_result_value(i, r, buf, sizeof buf))
					buf[0] = '\0';
				out_csv_cell(&row, buf, cli_result_cell(i));
			}
			out_csv_end(&row);
		}
		rows += s->curve ? 0 : written;
		/* one write per scenario */
		if (!out_csv_flush(&row))
			ok = false;

		/* next scenario: the last axis moves fastest */
		for (int a = AX_COUNT - 1; a >= 0; a--) {
			if (!s->ax[a].spec)
				continue;
			if (++idx[a] < s->ax[a].n)
				break;
			idx[a] = 0;
		}
		progress_show(&prog, p + 1, s->n_scenarios);
	}
	progress_end(&prog);
	s->rows = rows;
	if (ok && s->stats) {
		double t = now_s() - t0;
		unsigned long long evals = s->n_scenarios * rep.n;
		fprintf(stderr, "sweep: %llu scenarios x %zu accelerators = %llu evaluations (%llu fit), "
			"%llu rows\n", s->n_scenarios, rep.n, evals, fitting, rows);
		fprintf(stderr, "sweep: engine %.3f s (%.0f evaluations/s on one core), "
			"everything %.3f s (%.0f evaluations/s, %.0f rows/s)\n", t_engine,
			t_engine > 0 ? (double)evals / t_engine : 0.0, t, t > 0 ? (double)evals / t : 0.0,
			t > 0 ? (double)rows / t : 0.0);
	}
	bool oom = !row.ok && !ferror(out);
	out_csv_finish(&row);
	engine_report_fini(&rep);
	if (oom) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_BADINPUT;
	}
	return ok ? EXIT_OK : -1;	/* -1: the stream failed, the caller says where */
}

/* Parses the axes (counting first, so that a huge grid is refused before
 * anything is allocated), then fills them. */
static int prepare_axes(struct sweep *s, struct cli_extra *x)
{
	struct axis_ctx k = { s->c, &s->base, x };
	unsigned long long count[AX_COUNT], total = 1;
	for (int a = 0; a < AX_COUNT; a++) {
		count[a] = 1;
		if (!s->ax[a].spec)
			continue;
		if (!walk_axis(&k, &axis_defs[a], &s->ax[a], &count[a]))
			return EXIT_BADINPUT;
		total = count[a] && total > ULLONG_MAX / count[a] ? ULLONG_MAX : total * count[a];
	}
	unsigned long long n_acc = s->c->n_accels ? s->c->n_accels : 1;
	if (total > SWEEP_MAX_EVALUATIONS / n_acc) {
		fprintf(stderr, PROG ": sweep: the grid is too large: ");
		bool first = true;
		for (int a = 0; a < AX_COUNT; a++)
			if (s->ax[a].spec) {
				fprintf(stderr, "%s%llu %s", first ? "" : " x ", count[a], axis_defs[a].flag);
				first = false;
			}
		fprintf(stderr, " x %llu accelerators is more than %ld evaluations (the limit); "
			"narrow a list or a range, or split the sweep\n", n_acc, SWEEP_MAX_EVALUATIONS);
		return EXIT_BADINPUT;
	}
	for (int a = 0; a < AX_COUNT; a++) {
		if (!s->ax[a].spec)
			continue;
		s->ax[a].v = calloc(count[a], sizeof *s->ax[a].v);
		if (!s->ax[a].v) {
			fprintf(stderr, PROG ": out of memory\n");
			return EXIT_BADINPUT;
		}
		s->ax[a].n = count[a];
		unsigned long long again;
		if (!walk_axis(&k, &axis_defs[a], &s->ax[a], &again))
			return EXIT_BADINPUT;
	}
	s->n_scenarios = total;
	return 0;
}

static bool write_file(FILE *fp, void *ctx, char *err, size_t errsz)
{
	(void)err, (void)errsz;
	int rc = run(ctx, fp);
	return rc == EXIT_OK;
}

/* --model with --models (or --precision with --precisions): one of them
 * is the axis; true (message printed) when both are given. */
static bool flag_and_axis(char **rest, int nrest, const struct sweep *s)
{
	for (size_t i = 1; i < (size_t)nrest; i++) {
		const char *a = rest[i];
		if ((!strncmp(a, "--model", 7) && (!a[7] || a[7] == '=') && s->ax[AX_MODEL].spec) ||
		    (!strncmp(a, "--precision", 11) && (!a[11] || a[11] == '=') && s->ax[AX_PRECISION].spec)) {
			fprintf(stderr, PROG ": %s and %s: give one (the list is the axis)\n",
				a[2] == 'm' ? "--model" : "--precision", a[2] == 'm' ? "--models" : "--precisions");
			return true;
		}
	}
	return false;
}

/* Runs the sweep into standard output or, whole or not at all, into out;
 * a fatal signal ends it through cleanup.c's handler (exit 128 + the
 * signal, the temporary file removed). */
static int write_sweep(struct sweep *s, const char *out)
{
	int rc;
	if (!out || !strcmp(out, "-")) {
		static char obuf[1 << 16];
		setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
		__fsetlocking(stdout, FSETLOCKING_BYCALLER);
		rc = run(s, stdout);
		if (rc < 0 || fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, PROG ": cannot write to standard output: %s\n", strerror(errno ? errno : EIO));
			rc = EXIT_BADINPUT;
		}
	} else {
		char err[PATH_MAX + 128];
		err[0] = '\0';
		rc = atomic_write(out, write_file, s, err, sizeof err) ? EXIT_OK : EXIT_BADINPUT;
		if (rc != EXIT_OK) {
			fprintf(stderr, PROG ": %s\n", err[0] ? err : "cannot write the sweep");
		} else {
			printf("%s: %llu scenario%s x %zu accelerators, %llu rows\n", out, s->n_scenarios,
			       s->n_scenarios == 1 ? "" : "s", s->c->n_accels, s->rows);
		}
	}
	return rc;
}

int cli_sweep_main(int argc, char **argv)
{
	const char *out = NULL, *top = NULL, *fitting = NULL, *stats = NULL, *curve = NULL;
	const struct cli_opt mine[] = {
		{ "-o", true, &out }, { "--output", true, &out }, { "--top", true, &top },
		{ "--fitting", false, &fitting }, { "--stats", false, &stats }, { "--curve", false, &curve },
	};
	struct cli_extra x = { .opts = mine, .n_opts = sizeof mine / sizeof mine[0] };
	if (cli_workload_prescan(argc, argv, &x))
		return EXIT_BADINPUT;
	if (x.help) {
		usage(stdout);
		return EXIT_OK;
	}

	struct sweep s;
	memset(&s, 0, sizeof s);
	char **rest = calloc((size_t)argc + 1, sizeof *rest);
	if (!rest) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_BADINPUT;
	}
	int nrest = 0, rc = EXIT_BADINPUT;
	struct catalog *c = NULL;
	struct accuracy_bands *bands = NULL;
	struct scenario sc;
	bool have_sc = false;
	struct prices pl;
	prices_init(&pl);
	if (!split_axes(argc, argv, rest, &nrest, s.ax))
		goto out;
	c = frontend_load_catalog(x.catalog_dir);
	if (!c)
		goto out;
	s.c = c;
	scenario_init(&sc, c);
	have_sc = true;
	if (cli_workload_start(&x, c, &sc))
		goto out;
	/* The base workload: every option but the axes, checked as in
	 * recommend.  An axis replaces its field per scenario. */
	if (cli_workload_parse(nrest, rest, c, &sc.w, &x) || cli_load_prices(&x, &pl, &sc.w))
		goto out;
	if (flag_and_axis(rest, nrest, &s))
		goto out;
	if (s.ax[AX_GPUS].spec && !sc.w.accel) {
		fprintf(stderr, PROG ": --gpus needs --accelerator: which accelerator should have that many?\n");
		goto out;
	}
	if (s.ax[AX_BATCH].spec && !sc.w.accel) {
		fprintf(stderr, PROG ": --batch needs --accelerator: which accelerator's replicas should run it?\n");
		goto out;
	}
	s.base = sc.w;
	if (top) {
		if (!cli_parse_whole("--top", top, 1, 100000, &s.top))
			goto out;
	}
	s.fitting = fitting != NULL;
	s.stats = stats != NULL;
	s.curve = curve != NULL;
	if (s.curve && sc.w.cls != WL_INFERENCE) {
		fprintf(stderr, PROG ": --curve: the trade-off of batch against speed per user is for "
			"inference (--workload inference)\n");
		goto out;
	}
	if (out && !*out) {
		fprintf(stderr, PROG ": -o needs a file name ('-' for standard output)\n");
		goto out;
	}
	const struct atomic_name outs[] = { { "-o", out } };
	if (!cli_outputs_check(c, x.scenario, x.prices, x.model_config, outs, 1))
		goto out;
	if ((rc = prepare_axes(&s, &x)) != 0)
		goto out;
	rc = EXIT_BADINPUT;
	if (!(bands = frontend_load_bands(c)))
		goto out;
	s.bands = bands;

	rc = write_sweep(&s, out);
out:
	for (int a = 0; a < AX_COUNT; a++)
		free(s.ax[a].v);
	if (have_sc)
		scenario_fini(&sc);
	accuracy_bands_free(bands);
	catalog_free(c);
	prices_fini(&pl);
	free(rest);
	return rc;
}
