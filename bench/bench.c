/*
 * bench: how fast and how small accelsizer is, measured on this machine.
 * Built and run by `make bench` (bench/run.sh), never by `make` or
 * `make check`: timings depend on the machine and belong in a report, not
 * in a test that passes or fails.
 *
 * What it measures, each as the median of several batches:
 *   - catalog_load() + catalog_free() of the bundled catalog;
 *   - engine_run(), one scenario against the whole catalog, for an
 *     inference, a pretraining and a fine-tuning scenario, on the bundled
 *     catalog and on synthetic catalogs 10x and 100x larger (every
 *     accelerator and its platforms copied in memory under new ids), so
 *     that the cost per accelerator shows whether growth is linear;
 *   - one key in the wizard on a virtual screen (ncurses newterm writing
 *     to /dev/null): a field change (+/-: engine, BOM preview, validation
 *     plan and a full redraw, as the key loop does it) and a cursor move
 *     (redraw only);
 *   - the peak resident memory of the process once the catalog is loaded
 *     and the wizard drawn (VmHWM), before the synthetic catalogs.
 *
 * With --count it instead runs each operation a fixed number of times with
 * callgrind collection switched on around it and dumps one profile per
 * operation (CALLGRIND_DUMP_STATS_AT), so that bench/run.sh can print
 * instruction counts, which unlike times repeat exactly from run to run.
 */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>

#include "catalog.h"
#include "cli.h"
#include "engine.h"
#include "scenario.h"
#include "theme.h"
#include "tui.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define CALLGRIND_TOGGLE_COLLECT do { } while (0)
#define CALLGRIND_DUMP_STATS_AT(s) do { (void)(s); } while (0)
#define RUNNING_ON_VALGRIND 0
#endif

/* ---- time ---- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Value at quantile q (0..1) of n sorted values. */
static double quantile(const double *v, size_t n, double q)
{
	size_t i = (size_t)(q * (double)(n - 1) + 0.5);
	return v[i < n ? i : n - 1];
}

/* One measured operation: fn(ctx) once per call. */
struct op {
	const char *name;
	void (*fn)(void *ctx);
	void *ctx;
};

struct timing {
	double median_s, min_s;	/* per call */
	long calls;		/* per batch */
	int batches;
};

static double run_batch(const struct op *o, long n)
{
	double t0 = now_s();
	for (long i = 0; i < n; i++)
		o->fn(o->ctx);
	return now_s() - t0;
}

/* Batches of about batch_s each; the median batch gives the figure, so a
 * neighbour's burst on a shared machine moves the minimum, not the median. */
static void measure(const struct op *o, double batch_s, int batches, struct timing *out)
{
	o->fn(o->ctx);	/* warm the caches and the lazy bindings */
	long n = 1;
	double t;
	while ((t = run_batch(o, n)) < batch_s / 8 && n < (1L << 30))
		n *= 2;
	double per = t / (double)n;
	n = per > 0 ? (long)(batch_s / per) : n;
	if (n < 1)
		n = 1;
	double v[64];
	if (batches > 64)
		batches = 64;
	for (int b = 0; b < batches; b++)
		v[b] = run_batch(o, n) / (double)n;
	qsort(v, (size_t)batches, sizeof v[0], cmp_double);
	out->median_s = quantile(v, (size_t)batches, 0.5);
	out->min_s = v[0];
	out->calls = n;
	out->batches = batches;
}

/* --count: n calls with callgrind collecting, then one dump named
 * "NAME/n" that bench/run.sh divides by n. */
static void count(const struct op *o, long n)
{
	char name[128];
	o->fn(o->ctx);	/* lazy bindings and first-touch costs stay out */
	snprintf(name, sizeof name, "%s/%ld", o->name, n);
	CALLGRIND_TOGGLE_COLLECT;
	for (long i = 0; i < n; i++)
		o->fn(o->ctx);
	CALLGRIND_TOGGLE_COLLECT;
	CALLGRIND_DUMP_STATS_AT(name);
}

/* ---- the machine ---- */

static void cpu_model(char *buf, size_t n)
{
	snprintf(buf, n, "unknown CPU");
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "model name", 10))
			continue;
		char *v = strchr(line, ':');
		if (!v)
			break;
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, n, "%s", v);
		break;
	}
	fclose(f);
}

/* kB from a "Name:   1234 kB" line of /proc/self/status, or -1. */
static long status_kb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	char line[256];
	long kb = -1;
	size_t klen = strlen(key);
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			kb = strtol(line + klen + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

/* ---- synthetic catalogs ---- */

/*
 * A catalog k times the bundled one: each accelerator copied k times under
 * ids "ID~2", "ID~3"..., each platform copied with it and pointing at its
 * copy.  Fabrics, models and defaults are shared with the original, and so
 * are every string but the ids: the copy owns only its arrays and ids.
 */
struct synth {
	struct catalog cat;
	size_t k;
};

static char *copy_id(const char *id, size_t copy)
{
	char buf[128];
	if (copy == 0)
		snprintf(buf, sizeof buf, "%s", id);
	else
		snprintf(buf, sizeof buf, "%s~%zu", id, copy + 1);
	return strdup(buf);
}

static bool synth_init(struct synth *s, const struct catalog *c, size_t k)
{
	memset(s, 0, sizeof *s);
	s->cat = *c;
	s->cat.plat_by_accel_ = NULL;	/* the original's index: rebuilt below */
	s->cat.plat_start_ = NULL;
	s->k = k;
	s->cat.n_accels = c->n_accels * k;
	s->cat.n_platforms = c->n_platforms * k;
	s->cat.accels = calloc(s->cat.n_accels ? s->cat.n_accels : 1, sizeof *s->cat.accels);
	s->cat.platforms = calloc(s->cat.n_platforms ? s->cat.n_platforms : 1,
				  sizeof *s->cat.platforms);
	if (!s->cat.accels || !s->cat.platforms)
		return false;
	for (size_t copy = 0; copy < k; copy++) {
		for (size_t i = 0; i < c->n_accels; i++) {
			struct catalog_accel *a = &s->cat.accels[copy * c->n_accels + i];
			*a = c->accels[i];
			if (!(a->id = copy_id(c->accels[i].id, copy)))
				return false;
		}
		for (size_t i = 0; i < c->n_platforms; i++) {
			const struct catalog_platform *p0 = &c->platforms[i];
			struct catalog_platform *p = &s->cat.platforms[copy * c->n_platforms + i];
			*p = *p0;
			p->id = copy_id(p0->id, copy);
			p->accel = NULL;
			p->accel_id = NULL;
			if (!p->id)
				return false;
			if (p0->accel) {
				size_t ai = (size_t)(p0->accel - c->accels);
				p->accel = &s->cat.accels[copy * c->n_accels + ai];
				p->accel_id = p->accel->id;
			}
		}
	}
	return catalog_index(&s->cat);	/* as catalog_load() leaves a catalog */
}

static void synth_fini(struct synth *s)
{
	for (size_t i = 0; s->cat.accels && i < s->cat.n_accels; i++)
		free(s->cat.accels[i].id);
	for (size_t i = 0; s->cat.platforms && i < s->cat.n_platforms; i++)
		free(s->cat.platforms[i].id);
	catalog_unindex(&s->cat);
	free(s->cat.accels);
	free(s->cat.platforms);
	memset(s, 0, sizeof *s);
}

/* ---- operations ---- */

struct load_ctx {
	const char *dir;
};

static void op_load(void *p)
{
	struct load_ctx *x = p;
	struct catalog *c = catalog_load(x->dir, NULL);
	if (!c) {
		fprintf(stderr, "bench: the catalog in %s no longer loads\n", x->dir);
		exit(1);
	}
	catalog_free(c);
}

struct engine_ctx {
	const struct catalog *c;
	const struct workload *w;
	struct engine_report *rep;
};

static void op_engine(void *p)
{
	struct engine_ctx *x = p;
	engine_run(x->c, x->w, x->rep);
}

struct key_ctx {
	struct tui *t;
	int keys[2];
	int i;
};

static void op_key(void *p)
{
	struct key_ctx *x = p;
	tui_bench_key(x->t, x->keys[x->i]);
	x->i ^= 1;
}

static void op_recompute(void *p)
{
	tui_recompute(((struct key_ctx *)p)->t);
}

/* ---- scenarios ---- */

enum { SC_INFER, SC_PRETRAIN, SC_FINETUNE, SC_COUNT };
static const char *const scenario_names[SC_COUNT] = { "inference", "pretrain", "finetune" };

/* The wizard's and recommend's defaults for each class. */
static void scenario_workload(const struct catalog *c, int sc, struct workload *w)
{
	engine_workload_init(w, c);
	if (sc == SC_PRETRAIN)
		engine_workload_class_defaults(w, WL_PRETRAIN);
	else if (sc == SC_FINETUNE)
		engine_workload_class_defaults(w, WL_FINETUNE);
}

static void describe(const struct workload *w, char *buf, size_t n)
{
	const char *model = w->model ? w->model->id : "?";
	switch (w->cls) {
	case WL_INFERENCE:
		snprintf(buf, n, "%s %s, %ld users, %ld in / %ld out", model,
			 precision_name(w->precision), w->concurrency, w->input_tokens,
			 w->output_tokens);
		break;
	case WL_PRETRAIN:
		snprintf(buf, n, "%s %s, %.3g tokens, seq %ld", model, precision_name(w->precision),
			 w->tokens, w->seq_len);
		break;
	default:
		snprintf(buf, n, "%s %s %s, %.3g tokens x %.3g epochs", model,
			 ft_method_name(w->method), precision_name(w->precision), w->tokens, w->epochs);
		break;
	}
}

/* ---- the wizard on a virtual screen ---- */

struct wizard {
	struct tui t;
	SCREEN *scr;
	FILE *out, *in;
	bool ok;
};

/* Sets the wizard up as tui_main() does, on a 120x40 screen that writes to
 * /dev/null.  The TERM type is fixed so that the figure does not depend on
 * the terminal the bench happens to run in. */
static bool wizard_open(struct wizard *z, struct catalog *c)
{
	memset(z, 0, sizeof *z);
	struct tui *t = &z->t;
	t->cat = c;
	snprintf(t->catalog_dir, sizeof t->catalog_dir, "%s", c->dir ? c->dir : "");
	char path[PATH_MAX], err[512];
	if (theme_find("dark", t->catalog_dir, path, sizeof path) &&
	    theme_load_file(&t->theme, path, err, sizeof err))
		;
	else
		theme_builtin_mono(&t->theme);
	t->utf8 = true;
	scenario_init(&t->sc, c);
	if (!engine_report_init(&t->rep, c))
		return false;
	tui_step5_init(t);
	z->out = fopen("/dev/null", "w");
	z->in = fopen("/dev/null", "r");
	if (!z->out || !z->in)
		return false;
	setenv("LINES", "40", 1);
	setenv("COLUMNS", "120", 1);
	z->scr = newterm("xterm-256color", z->out, z->in);
	if (!z->scr)
		z->scr = newterm("vt100", z->out, z->in);
	if (!z->scr)
		return false;
	set_term(z->scr);
	cbreak();
	noecho();
	tui_colours_init(t);
	tui_bench_start(t);
	z->ok = true;
	return true;
}

static void wizard_close(struct wizard *z)
{
	struct tui *t = &z->t;
	if (z->scr) {
		tui_bench_stop(t);
		endwin();
		delscreen(z->scr);
	}
	if (z->out)
		fclose(z->out);
	if (z->in)
		fclose(z->in);
	tui_step5_fini(t);
	if (t->rep.results)
		engine_report_fini(&t->rep);
	scenario_fini(&t->sc);
}

/* Puts the step-1 cursor on "Concurrent users": moves down until '+'
 * changes the concurrency, then '-' undoes it.  Found by effect rather than
 * by position so that a new form field does not break the bench. */
static bool wizard_focus_concurrency(struct wizard *z)
{
	struct tui *t = &z->t;
	for (int k = 0; k < 60; k++) {
		struct workload before = t->sc.w;
		tui_bench_key(t, '+');
		if (t->sc.w.concurrency != before.concurrency) {
			tui_bench_key(t, '-');
			return t->sc.w.concurrency == before.concurrency;
		}
		if (memcmp(&t->sc.w, &before, sizeof before))
			tui_bench_key(t, '-');	/* another field (class, model): undo */
		if (t->sc.w.cls != before.cls || t->sc.w.model != before.model)
			return false;
		tui_bench_key(t, KEY_DOWN);
	}
	return false;
}

/* ---- report ---- */

static bool counting;		/* --count */

static const char *fmt_time(double s, char *buf, size_t n)
{
	if (s < 1e-6)
		snprintf(buf, n, "%.0f ns", s * 1e9);
	else if (s < 1e-3)
		snprintf(buf, n, "%.2f us", s * 1e6);
	else
		snprintf(buf, n, "%.3f ms", s * 1e3);
	return buf;
}

static const char *fmt_rate(double per_s, char *buf, size_t n)
{
	if (per_s >= 1e6)
		snprintf(buf, n, "%.2fM/s", per_s / 1e6);
	else if (per_s >= 1e3)
		snprintf(buf, n, "%.1fk/s", per_s / 1e3);
	else
		snprintf(buf, n, "%.0f/s", per_s);
	return buf;
}

static void verdict(const char *what, bool met)
{
	printf("  target %-44s %s\n", what, met ? "met" : "MISSED");
}

static void usage(FILE *f)
{
	fputs("Usage: bench/bench [--catalog DIR] [--quick] [--count]\n"
	      "Measure catalog loading, the engine (1x, 10x, 100x catalogs), a wizard\n"
	      "keystroke on a virtual screen and resident memory.  --quick: shorter\n"
	      "batches; --count: instruction counts under valgrind --tool=callgrind\n"
	      "--collect-atstart=no (bench/run.sh does this).\n", f);
}

int main(int argc, char **argv)
{
	const char *dir_flag = NULL;
	bool quick = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--catalog") && i + 1 < argc) {
			dir_flag = argv[++i];
		} else if (!strcmp(argv[i], "--quick")) {
			quick = true;
		} else if (!strcmp(argv[i], "--count")) {
			counting = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "bench: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (counting && !RUNNING_ON_VALGRIND)
		fprintf(stderr, "bench: --count only means something under valgrind --tool=callgrind\n");
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");

	double batch_s = quick ? 0.02 : 0.08;
	int batches = quick ? 5 : 9;

	char dir[PATH_MAX];
	if (!catalog_find_dir(dir_flag, dir, sizeof dir)) {
		fprintf(stderr, "bench: no catalog found (use --catalog DIR)\n");
		return 2;
	}
	struct catalog *c = frontend_load_catalog(dir);
	if (!c)
		return 2;

	/* the machine and the build */
	struct utsname un;
	char cpu[256], date[64], tbuf[32], tbuf2[32], rbuf[32];
	if (uname(&un))
		snprintf(un.nodename, sizeof un.nodename, "unknown");
	cpu_model(cpu, sizeof cpu);
	time_t now = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
	if (!counting) {
		printf("accelsizer bench on %s (%s, %s), %s\n", un.nodename, cpu, un.machine, date);
		printf("catalog %s: %zu accelerators, %zu platforms, %zu fabrics, %zu models\n\n", dir,
		       c->n_accels, c->n_platforms, c->n_fabrics, c->n_models);
	}

	/* catalog load */
	struct load_ctx lx = { dir };
	struct op load = { "catalog-load", op_load, &lx };
	struct timing tload = { 0 };
	if (counting) {
		count(&load, 3);
	} else {
		measure(&load, batch_s * 2, quick ? 5 : 11, &tload);
		printf("catalog load (catalog_load + catalog_free, median of %d batches of %ld)\n",
		       tload.batches, tload.calls);
		printf("  %s per load (fastest batch %s)\n\n", fmt_time(tload.median_s, tbuf, sizeof tbuf),
		       fmt_time(tload.min_s, tbuf2, sizeof tbuf2));
	}

	/* the wizard: first, so that its memory figure is not the synthetic
	 * catalogs' */
	struct wizard z;
	double key_med = NAN, key_p90 = NAN, key_max = NAN, move_med = NAN, rec_med = NAN;
	long hwm_kb = -1;
	bool wiz = wizard_open(&z, c) && wizard_focus_concurrency(&z);
	if (!wiz) {
		fprintf(stderr, "bench: the wizard could not be set up on a virtual screen; "
			"skipping the keystroke figures\n");
	} else {
		struct key_ctx kx = { &z.t, { '+', '-' }, 0 };
		struct key_ctx mx = { &z.t, { KEY_DOWN, KEY_UP }, 0 };
		struct op key = { "wizard-key-field", op_key, &kx };
		struct op move = { "wizard-key-move", op_key, &mx };
		struct op rec = { "wizard-recompute", op_recompute, &kx };
		if (counting) {
			count(&key, 20);
			count(&move, 20);
			count(&rec, 20);
		} else {
			/* each key timed on its own: the slowest one matters too */
			enum { NKEYS = 400 };
			static double v[NKEYS];
			int nk = quick ? NKEYS / 4 : NKEYS;
			op_key(&kx);
			for (int i = 0; i < nk; i++) {
				double t0 = now_s();
				op_key(&kx);
				v[i] = now_s() - t0;
			}
			qsort(v, (size_t)nk, sizeof v[0], cmp_double);
			char fbuf[32];
			key_med = quantile(v, (size_t)nk, 0.5);
			key_p90 = quantile(v, (size_t)nk, 0.9);
			key_max = v[nk - 1];
			struct timing tm, tr;
			measure(&move, batch_s, batches, &tm);
			measure(&rec, batch_s, batches, &tr);
			move_med = tm.median_s;
			rec_med = tr.median_s;
			printf("wizard keystroke on a virtual 120x40 screen (step 1, %d keys)\n", nk);
			printf("  field change (+/- on concurrent users):  median %s, p90 %s, max %s, fastest %s\n",
			       fmt_time(key_med, tbuf, sizeof tbuf), fmt_time(key_p90, tbuf2, sizeof tbuf2),
			       fmt_time(key_max, rbuf, sizeof rbuf), fmt_time(v[0], fbuf, sizeof fbuf));
			printf("    of which engine + plan + BOM preview:  %s\n",
			       fmt_time(rec_med, tbuf, sizeof tbuf));
			printf("    of which redraw (screen + panel):      %s\n",
			       fmt_time(key_med - rec_med > 0 ? key_med - rec_med : 0, tbuf, sizeof tbuf));
			printf("  cursor move (redraw only):               median %s\n\n",
			       fmt_time(move_med, tbuf, sizeof tbuf));
		}
	}
	hwm_kb = status_kb("VmHWM");

	/* the engine, on 1x, 10x and 100x catalogs */
	static const size_t scales[] = { 1, 10, 100 };
	enum { NSCALES = sizeof scales / sizeof scales[0] };
	double run_s[SC_COUNT][NSCALES];
	bool ok = true;
	if (!counting) {
		printf("engine_run: one scenario x the whole catalog (median of %d batches)\n", batches);
		printf("  %-10s %5s %7s %11s %11s %11s %10s %9s\n", "scenario", "scale", "accels", "per run",
		       "fastest", "per accel", "evals", "vs 1x");
	}
	for (size_t s = 0; s < NSCALES && ok; s++) {
		struct synth sy;
		if (!synth_init(&sy, c, scales[s])) {
			fprintf(stderr, "bench: out of memory building the %zux catalog\n", scales[s]);
			synth_fini(&sy);
			ok = false;
			break;
		}
		struct engine_report rep;
		if (!engine_report_init(&rep, &sy.cat)) {
			synth_fini(&sy);
			ok = false;
			break;
		}
		for (int sc = 0; sc < SC_COUNT; sc++) {
			struct workload w;
			scenario_workload(c, sc, &w);
			struct engine_ctx ex = { &sy.cat, &w, &rep };
			char name[64];
			snprintf(name, sizeof name, "engine-%s-%zux", scenario_names[sc], scales[s]);
			struct op eng = { name, op_engine, &ex };
			if (counting) {
				count(&eng, scales[s] >= 100 ? 2 : scales[s] >= 10 ? 10 : 100);
				continue;
			}
			struct timing te;
			measure(&eng, batch_s, batches, &te);
			run_s[sc][s] = te.median_s;
			double per_accel = te.median_s / (double)sy.cat.n_accels;
			double ratio = per_accel / (run_s[sc][0] / (double)c->n_accels);
			char fbuf[32];
			printf("  %-10s %4zux %7zu %11s %11s %11s %10s %8.2fx\n", scenario_names[sc], scales[s],
			       sy.cat.n_accels, fmt_time(te.median_s, tbuf, sizeof tbuf),
			       fmt_time(te.min_s, fbuf, sizeof fbuf), fmt_time(per_accel, tbuf2, sizeof tbuf2),
			       fmt_rate(1.0 / per_accel, rbuf, sizeof rbuf), ratio);
		}
		engine_report_fini(&rep);
		synth_fini(&sy);
	}
	if (!counting && ok) {
		printf("  (per run: median batch; fastest: the quickest batch, closest to an idle core on a\n"
		       "  shared machine; per accel and evals from the median; vs 1x: cost per accelerator\n"
		       "  relative to the bundled catalog, 1.00x is linear growth)\n");
		for (int sc = 0; sc < SC_COUNT; sc++) {
			struct workload w;
			char d[160];
			scenario_workload(c, sc, &w);
			describe(&w, d, sizeof d);
			printf("  %-10s %s\n", scenario_names[sc], d);
		}
		printf("\n");
	}

	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	if (!counting) {
		printf("memory\n");
		if (hwm_kb >= 0)
			printf("  peak resident, catalog loaded and wizard drawn: %.1f MB (VmHWM)\n",
			       (double)hwm_kb / 1024.0);
		printf("  peak resident of the whole bench (100x catalog included): %.1f MB "
		       "(getrusage)\n\n", (double)ru.ru_maxrss / 1024.0);

		printf("targets\n");
		if (ok) {
			char what[64];
			for (int sc = 0; sc < SC_COUNT; sc++) {
				snprintf(what, sizeof what, "full catalog, %s: %s < 50 us", scenario_names[sc],
					 fmt_time(run_s[sc][0], tbuf, sizeof tbuf));
				verdict(what, run_s[sc][0] < 50e-6);
			}
			for (int sc = 0; sc < SC_COUNT; sc++) {
				double worst = 0;
				for (size_t s = 1; s < NSCALES; s++) {
					double r = run_s[sc][s] / (double)scales[s] / run_s[sc][0];
					if (r > worst)
						worst = r;
				}
				/* times move with the machine's load: the verdict on
				 * linearity comes from instruction counts (run.sh) */
				printf("  (info) cost per accelerator, %s, worst of 10x/100x: %.2fx of 1x "
				       "(times; bench/run.sh judges it on instructions)\n", scenario_names[sc], worst);
			}
		}
		if (wiz) {
			char what[64];
			snprintf(what, sizeof what, "keystroke to redraw: %s < 1 ms",
				 fmt_time(key_p90, tbuf, sizeof tbuf));
			verdict(what, key_p90 < 1e-3);
		}
		if (hwm_kb >= 0) {
			char what[64];
			snprintf(what, sizeof what, "wizard resident memory: %.1f MB < 16 MB",
				 (double)hwm_kb / 1024.0);
			verdict(what, hwm_kb < 16 * 1024);
		}
	}

	wizard_close(&z);
	catalog_free(c);
	return ok ? 0 : 1;
}
