/*
 * `accelsizer recommend` and `accelsizer validate`: the engine without the
 * wizard.  recommend ranks every accelerator in the catalog for the
 * workload (or sizes the one named with --accelerator); validate prints the
 * benchmark plan for the named accelerator, with the engine's predictions
 * as acceptance thresholds.  Both read the same workload options (and
 * --scenario) as bom, sweep and the wizard.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "accuracy.h"
#include "cli.h"
#include "cli_multi.h"
#include "cli_outputs.h"
#include "cli_report.h"
#include "cli_workload.h"
#include "prices.h"
#include "out.h"
#include "scenario.h"

static void usage_recommend(FILE *f)
{
	fputs("Usage: accelsizer recommend [WORKLOAD OPTION]... [--format table|csv|yaml]\n"
	      "Rank the accelerators in the catalog for a workload: GPUs, nodes, layout,\n"
	      "predicted throughput or training time, cost, power, and the resource that\n"
	      "binds, with a one-line reason.  With --accelerator, size only that one.\n"
	      "\n"
	      "Workload options:\n", f);
	cli_workload_usage(f);
	fputs("\nOutput:\n"
	      "      --format FMT                   table (default), csv or yaml\n"
	      "  -o, --output FILE                  write to FILE (whole or not at all)\n"
	      "  -h, --help                         display this help and exit\n"
	      "\n"
	      "Examples:\n"
	      "  accelsizer recommend --model llama-2-70b --precision fp8 --concurrency 256 \\\n"
	      "      --tokens-per-s-per-user 20 --ttft-ms 500\n"
	      "  accelsizer recommend --workload pretrain --model llama-2-7b --tokens 2T --days 30\n"
	      "  accelsizer recommend --workload finetune --method qlora --model llama-3.1-70b --format csv\n"
	      "\n"
	      "Exit status: 0 something fits, 1 nothing in the catalog can meet the workload\n"
	      "(or the named accelerator cannot), 2 bad input.\n", f);
}

static void usage_validate(FILE *f)
{
	fputs("Usage: accelsizer validate [WORKLOAD OPTION]... --accelerator ID [--format table|csv|yaml]\n"
	      "Print the validation plan for one accelerator: which benchmark to run on the\n"
	      "candidate hardware, the metric, the engine's prediction and the threshold the\n"
	      "measurement must meet before a large commitment.\n"
	      "\n"
	      "Workload options:\n", f);
	cli_workload_usage(f);
	fputs("\nOutput:\n"
	      "      --format FMT                   table (default), csv or yaml\n"
	      "  -o, --output FILE                  write to FILE (whole or not at all):\n"
	      "                                     --format csv -o plan.csv for a spreadsheet\n"
	      "  -h, --help                         display this help and exit\n"
	      "\n"
	      "Exit status: 0 plan printed, 1 the accelerator cannot meet the workload,\n"
	      "2 bad input.\n", f);
}

struct run {
	struct catalog *c;
	struct scenario s;
	bool have_scenario;
	struct engine_report rep;
	struct prices pl;		/* --prices, handed to the engine */
	enum cli_format fmt;
	const char *out;		/* -o FILE, or NULL for standard output */
	struct atomic_file af;		/* its temporary file while writing */
};

/* Parses, loads the catalog (and scenario) and runs the engine.  Returns
 * -1 to go on, or the exit status. */
static int prepare(int argc, char **argv, struct run *r, void (*usage)(FILE *), bool validate)
{
	const char *fmt = NULL;
	struct cli_opt mine[] = { { "--format", true, &fmt }, { "-o", true, &r->out },
				  { "--output", true, &r->out } };
	struct cli_extra x = { .opts = mine, .n_opts = 3 };
	memset(r, 0, sizeof *r);
	if (cli_workload_prescan(argc, argv, &x))
		return EXIT_BADINPUT;
	if (x.help) {
		usage(stdout);
		return EXIT_OK;
	}
	prices_init(&r->pl);
	r->c = frontend_load_catalog(x.catalog_dir);
	if (!r->c)
		return EXIT_BADINPUT;
	scenario_init(&r->s, r->c);
	r->have_scenario = true;
	if (cli_workload_start(&x, r->c, &r->s) || cli_workload_parse(argc, argv, r->c, &r->s.w, &x) ||
	    cli_load_prices(&x, &r->pl, &r->s.w))
		return EXIT_BADINPUT;
	if (r->s.n_entries > 1 && !cli_multi_flags(&r->s))
		return EXIT_BADINPUT;
	const struct atomic_name outs[] = { { "-o", r->out } };
	if (!cli_outputs_check(r->c, x.scenario, x.prices, x.model_config, outs, 1))
		return EXIT_BADINPUT;
	r->fmt = CLI_FMT_TABLE;
	if (fmt && !cli_format_parse("--format", fmt, &r->fmt))
		return EXIT_BADINPUT;
	if (!engine_report_init(&r->rep, r->c)) {
		fprintf(stderr, "accelsizer: out of memory\n");
		return EXIT_BADINPUT;
	}
	engine_run(r->c, &r->s.w, &r->rep);
	/* The error bands: in csv and yaml, and in the validation plan's
	 * thresholds (the table leaves them out, and so the ledger unread). */
	if (validate || r->fmt != CLI_FMT_TABLE) {
		struct accuracy_bands *b = frontend_load_bands(r->c);
		if (!b)
			return EXIT_BADINPUT;
		accuracy_bands_apply_report(b, &r->rep);
		accuracy_bands_free(b);
	}
	return -1;
}

static void finish(struct run *r)
{
	engine_report_fini(&r->rep);
	if (r->have_scenario)
		scenario_fini(&r->s);
	catalog_free(r->c);
	prices_fini(&r->pl);
}

/* Where the output goes: standard output, or -o's file through the atomic
 * writer (a temporary next to it, renamed into place by close_output). */
static FILE *open_output(struct run *r)
{
	char err[1024];
	if (!r->out || !strcmp(r->out, "-"))
		return stdout;
	if (!*r->out) {
		fprintf(stderr, "accelsizer: -o needs a file name\n");
		return NULL;
	}
	if (!atomic_file_open(&r->af, r->out, err, sizeof err)) {
		fprintf(stderr, "accelsizer: %s\n", err);
		return NULL;
	}
	errno = 0;	/* what close_output reports if a write fails */
	return r->af.fp;
}

static bool close_output(struct run *r, FILE *f, bool ok, const char *what)
{
	char err[1024];
	if (f == stdout) {
		errno = 0;
		if (fflush(stdout) || ferror(stdout) || !ok) {
			fprintf(stderr, "accelsizer: cannot write the %s to standard output: %s\n", what,
				errno ? strerror(errno) : "write error");
			return false;
		}
		return true;
	}
	if (!ok) {
		/* The writer failed on a stream error (a full disk): say why. */
		int e = errno ? errno : EIO;
		atomic_file_abort(&r->af);
		fprintf(stderr, "accelsizer: cannot write '%s': %s\n", r->out, strerror(e));
		return false;
	}
	if (!atomic_file_commit(&r->af, err, sizeof err)) {
		fprintf(stderr, "accelsizer: %s\n", err);
		return false;
	}
	return true;
}

static int write_report(struct run *r, size_t first, size_t count)
{
	bool ok;
	FILE *f = open_output(r);
	if (!f)
		return EXIT_BADINPUT;
	switch (r->fmt) {
	case CLI_FMT_CSV:
		ok = cli_report_csv(f, &r->rep, first, count);
		break;
	case CLI_FMT_YAML:
		ok = cli_report_yaml(f, r->c, &r->s.w, &r->rep, first, count);
		break;
	default:
		ok = cli_report_table(f, r->c, &r->s.w, &r->rep, first, count);
		break;
	}
	return close_output(r, f, ok, "report") ? EXIT_OK : EXIT_BADINPUT;
}

/* A scenario with several workloads: each sized, then the cluster. */
static int multi_report(struct run *r)
{
	struct accuracy_bands *b = NULL;
	if (r->fmt != CLI_FMT_TABLE && !(b = frontend_load_bands(r->c)))
		return EXIT_BADINPUT;
	struct cluster m;
	bool ok = cluster_size(r->c, &r->s, b, &m);
	accuracy_bands_free(b);
	if (!ok)
		fprintf(stderr, "accelsizer: out of memory\n");
	FILE *f = ok ? open_output(r) : NULL;
	bool fits = false;
	int rc = EXIT_BADINPUT;
	if (f && close_output(r, f, cli_multi_recommend(&m, r->fmt, f, &fits), "report")) {
		rc = EXIT_OK;
		if (!fits) {
			fprintf(stderr, "accelsizer: no accelerator in the catalog holds every workload\n");
			rc = EXIT_UNMET;
		}
	}
	cluster_fini(&m);
	return rc;
}

/* validate for several workloads: the chosen accelerator's cluster, a
 * plan per workload and the shared cluster's. */
static int multi_validate(struct run *r)
{
	struct accuracy_bands *b = frontend_load_bands(r->c);
	if (!b)
		return EXIT_BADINPUT;
	struct cluster m;
	bool ok = cluster_size(r->c, &r->s, b, &m);
	accuracy_bands_free(b);
	if (!ok) {
		fprintf(stderr, "accelsizer: out of memory\n");
		cluster_fini(&m);
		return EXIT_BADINPUT;
	}
	size_t a = cluster_choose(&m);
	const struct engine_cluster *cl = &m.cl[a];
	int rc = EXIT_BADINPUT;
	if (!cl->fits) {
		fprintf(stderr, "accelsizer: %s cannot hold every workload of the scenario "
			"('recommend --scenario' shows which does not fit)\n", r->c->accels[a].id);
		rc = EXIT_UNMET;
	} else {
		if (cl->total.filtered)
			fprintf(stderr, "accelsizer: note: %s is outside your filters for some workload\n",
				r->c->accels[a].id);
		FILE *f = open_output(r);
		if (f && close_output(r, f, cli_multi_validate(&m, a, r->fmt, f), "plan"))
			rc = EXIT_OK;
	}
	cluster_fini(&m);
	return rc;
}

int cli_recommend_main(int argc, char **argv)
{
	struct run r;
	int rc = prepare(argc, argv, &r, usage_recommend, false);
	if (rc >= 0) {
		finish(&r);
		return rc;
	}
	if (r.s.n_entries > 1) {
		rc = multi_report(&r);
		finish(&r);
		return rc;
	}
	const struct workload *w = &r.s.w;
	size_t first = 0, count = 0;
	if (w->accel) {
		for (size_t i = 0; i < r.rep.n; i++)
			if (r.rep.results[i].accel == w->accel)
				first = i, count = 1;
	}
	rc = write_report(&r, first, count);
	if (rc == EXIT_OK) {
		const struct engine_result *top = r.rep.n ? &r.rep.results[first] : NULL;
		char rb[ENGINE_REASON_MAX], sb[ENGINE_REASON_MAX];
		const char *why = top ? out_inert(engine_result_reason(top, rb, sizeof rb), sb, sizeof sb)
				      : "empty catalog";
		/* the first fitting result is what the table recommends */
		const struct engine_result *best = top;
		for (size_t i = first; !w->accel && i < r.rep.n; i++)
			if (r.rep.results[i].fits && !r.rep.results[i].filtered) {
				best = &r.rep.results[i];
				break;
			}
		if (best && best->platform && best->fits)
			cli_warn_unpriced(best->unpriced_lines, best->accel->id, NULL);
		if (w->accel && top && !top->fits) {
			fprintf(stderr, "accelsizer: %s cannot meet this workload: %s\n", top->accel->id,
				why);
			rc = EXIT_UNMET;
		} else if (w->accel && top && top->filtered) {
			fprintf(stderr, "accelsizer: %s is outside your filters: %s\n", top->accel->id,
				top->filter_reason);
			rc = EXIT_UNMET;
		} else if (!w->accel && r.rep.n_fitting == 0) {
			if (top && top->fits)
				fprintf(stderr, "accelsizer: every accelerator that fits is filtered out "
					"(%s: %s)\n", top->accel->id, top->filter_reason);
			else
				fprintf(stderr, "accelsizer: nothing in the catalog can meet this workload "
					"(%s: %s)\n", top ? top->accel->id : "-", why);
			rc = EXIT_UNMET;
		}
	}
	finish(&r);
	return rc;
}

int cli_validate_main(int argc, char **argv)
{
	struct run r;
	int rc = prepare(argc, argv, &r, usage_validate, true);
	if (rc >= 0) {
		finish(&r);
		return rc;
	}
	const struct workload *w = &r.s.w;
	if (!w->accel) {
		fprintf(stderr, "accelsizer: validate needs --accelerator ID: the candidate to benchmark\n"
			"Try 'accelsizer validate --help' for more information.\n");
		finish(&r);
		return EXIT_BADINPUT;
	}
	if (r.s.n_entries > 1) {
		rc = multi_validate(&r);
		finish(&r);
		return rc;
	}
	if (!w->accel) {
		fprintf(stderr, "accelsizer: validate needs --accelerator ID: the candidate to benchmark\n"
			"Try 'accelsizer validate --help' for more information.\n");
		finish(&r);
		return EXIT_BADINPUT;
	}
	const struct engine_result *res = engine_report_find(&r.rep, w->accel);
	if (!res || !res->fits) {
		char rb[ENGINE_REASON_MAX], sb[ENGINE_REASON_MAX];
		fprintf(stderr, "accelsizer: %s cannot meet this workload: %s\n", w->accel->id,
			res ? out_inert(engine_result_reason(res, rb, sizeof rb), sb, sizeof sb)
			    : "not evaluated");
		finish(&r);
		return EXIT_UNMET;
	}
	if (res->filtered)
		fprintf(stderr, "accelsizer: note: %s is outside your filters (%s)\n", w->accel->id,
			res->filter_reason);
	struct engine_plan plan;
	engine_validation_plan(r.c, w, res, &plan);
	FILE *f = open_output(&r);
	if (!f)
		rc = EXIT_BADINPUT;
	else
		rc = close_output(&r, f, cli_plan_write(f, r.fmt, w, res, &plan), "plan")
		     ? EXIT_OK : EXIT_BADINPUT;
	finish(&r);
	return rc;
}
