/*
 * `accelsizer accuracy`: every published result of the ledger against
 * what the engine predicts for its setup (accuracy.h), as a table, CSV or
 * YAML, then n, median |error| and the worst per accelerator family and
 * workload class.  --check judges the validation entries against the
 * budget (ACCURACY_*_BUDGET_PCT) and exits 1 when they miss it.
 */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy.h"
#include "cli.h"
#include "cli_report.h"
#include "out.h"
#include "ledger.h"

#define PROG "accelsizer accuracy"

static void usage(FILE *f)
{
	fputs("Usage: accelsizer accuracy [--role calibration|validation|all] [--accelerator ID]\n"
	      "                           [--workload CLASS] [--format table|csv|yaml] [--check]\n"
	      "Run every published result of the catalog's ledger (catalog/published/) through\n"
	      "the engine and print published, predicted, error and source, then n, median\n"
	      "|error| and the worst per accelerator family and workload class.\n"
	      "\n"
	      "      --role ROLE          calibration, validation or all (default all)\n"
	      "      --accelerator ID     only results measured on this accelerator\n"
	      "      --workload CLASS     only inference, pretrain or finetune results\n"
	      "      --format FORMAT      table (default), csv or yaml\n"
	      "      --check              exit 1 when the validation results miss the budget:\n"
	      "                           median |error| over 10% or any one over 25%\n"
	      "      --catalog DIR        read the catalog (and its published/) from DIR\n"
	      "  -h, --help               display this help and exit\n"
	      "\n"
	      "Results whose metric the engine does not predict, or whose setup it cannot\n"
	      "size, are listed as not mapped with the reason.\n"
	      "Exit status: 0 success, 1 --check and the budget is missed, 2 bad input.\n", f);
}

struct opts {
	const char *catalog, *accel, *format;
	int role;			/* enum ledger_role, or LEDGER_ROLE_COUNT = all */
	int cls;			/* enum workload_class, or -1 = all */
	bool check;
	enum cli_format fmt;
};

enum { OPT_ROLE = 256, OPT_ACCEL, OPT_WORKLOAD, OPT_FORMAT, OPT_CHECK, OPT_CATALOG };

static int bad(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, "\nTry '" PROG " --help' for more information.\n");
	return EXIT_BADINPUT;
}

/* -1: carry on; else the exit status. */
static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option opts[] = {
		{ "role", required_argument, NULL, OPT_ROLE },
		{ "accelerator", required_argument, NULL, OPT_ACCEL },
		{ "workload", required_argument, NULL, OPT_WORKLOAD },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "catalog", required_argument, NULL, OPT_CATALOG },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	*o = (struct opts){ .role = LEDGER_ROLE_COUNT, .cls = -1, .fmt = CLI_FMT_TABLE };
	optind = 0;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (ch) {
		case OPT_ROLE: {
			enum ledger_role r;
			if (!strcmp(optarg, "all"))
				o->role = LEDGER_ROLE_COUNT;
			else if (ledger_role_parse(optarg, &r))
				o->role = (int)r;
			else
				return bad("--role: '%s' is not one of calibration, validation, all%s",
					   optarg, "");
			break;
		}
		case OPT_ACCEL: o->accel = optarg; break;
		case OPT_WORKLOAD: {
			enum workload_class c;
			if (!workload_class_parse(optarg, &c))
				return bad("--workload: '%s' is not one of inference, pretrain, finetune%s",
					   optarg, "");
			o->cls = (int)c;
			break;
		}
		case OPT_FORMAT:
			if (!cli_format_parse("--format", optarg, &o->fmt)) {
				fprintf(stderr, "Try '" PROG " --help' for more information.\n");
				return EXIT_BADINPUT;
			}
			break;
		case OPT_CHECK: o->check = true; break;
		case OPT_CATALOG: o->catalog = optarg; break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case ':':
			return bad("option '%s' needs a value%s", argv[optind - 1], "");
		default:
			return bad("unknown option '%s'%s", argv[optind - 1], "");
		}
	}
	if (optind < argc)
		return bad("unexpected argument '%s'%s", argv[optind], "");
	return -1;
}

/* ---- rows ---- */

static bool selected(const struct opts *o, const struct ledger_entry *e)
{
	return (o->role == LEDGER_ROLE_COUNT || (int)e->role == o->role) &&
	       (!o->accel || !strcmp(o->accel, e->accel->id)) &&
	       (o->cls < 0 || (int)e->w.cls == o->cls);
}

/* "repo/path@commit" or the URL. */
static void source_text(const struct ledger_entry *e, char *buf, size_t sz)
{
	if (e->repo)
		snprintf(buf, sz, "%s/%s@%s", e->repo, e->path, e->commit);
	else
		snprintf(buf, sz, "%s", e->url);
}

/* "repo@1234567" or the URL, for the table. */
static void source_short(const struct ledger_entry *e, char *buf, size_t sz)
{
	if (e->repo)
		snprintf(buf, sz, "%s@%.7s", e->repo, e->commit);
	else
		snprintf(buf, sz, "%s", e->url);
}

/* Figures as they read: 3 significant digits at least, no exponent. */
static void figure(double v, char *buf, size_t sz)
{
	if (!isfinite(v))
		snprintf(buf, sz, "-");
	else if (fabs(v) >= 100)
		snprintf(buf, sz, "%.0f", v);
	else if (fabs(v) >= 1)
		snprintf(buf, sz, "%.2f", v);
	else
		snprintf(buf, sz, "%.3f", v);
}

static void pct(double v, char *buf, size_t sz)
{
	if (isfinite(v))
		snprintf(buf, sz, "%+.1f%%", v);
	else
		snprintf(buf, sz, "-");
}

/* ---- summary ---- */

struct group {
	char family[48];
	enum ledger_role role;
	enum workload_class cls;
};

static size_t groups_of(const struct accuracy_row *rows, size_t n, struct group *g)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].mapped)
			continue;
		struct group x = { .role = rows[i].e->role, .cls = rows[i].e->w.cls };
		accuracy_family(rows[i].e->accel, x.family, sizeof x.family);
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = g[j].role == x.role && g[j].cls == x.cls && !strcmp(g[j].family, x.family);
		if (!seen)
			g[k++] = x;
	}
	return k;
}

/* The rows of one group, copied into sub. */
static size_t rows_of(const struct accuracy_row *rows, size_t n, const struct group *g,
		      struct accuracy_row *sub)
{
	size_t k = 0;
	char family[48];
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].mapped || rows[i].e->role != g->role || rows[i].e->w.cls != g->cls)
			continue;
		accuracy_family(rows[i].e->accel, family, sizeof family);
		if (!strcmp(family, g->family))
			sub[k++] = rows[i];
	}
	return k;
}

/* ---- formats ---- */

static void write_table(const struct accuracy_row *rows, size_t n)
{
	char pub[32], pred[32], err[32], src[256];
	int idw = 2;	/* the id column: as wide as the longest id shown */
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rows[i].e->id) > idw)
			idw = (int)strlen(rows[i].e->id);
	printf("%-*s %-11s %-13s %-9s %-21s %12s %12s %8s  %s\n", idw, "id", "role", "accelerator",
	       "workload", "metric", "published", "predicted", "error", "source");
	for (size_t i = 0; i < n; i++) {
		const struct accuracy_row *r = &rows[i];
		const struct ledger_entry *e = r->e;
		figure(e->value, pub, sizeof pub);
		figure(r->mapped ? r->predicted : NAN, pred, sizeof pred);
		pct(r->mapped ? r->error_pct : NAN, err, sizeof err);
		source_short(e, src, sizeof src);
		printf("%-*s %-11s %-13s %-9s %-21s %12s %12s %8s  %s\n", idw, e->id,
		       ledger_role_name(e->role), e->accel->id, workload_class_name(e->w.cls),
		       ledger_metric(e->metric)->name, pub, pred, err, src);
		if (!r->mapped)
			printf("%-*s not mapped: %s\n", idw, "", r->why);
	}
}

static void write_summary_table(const struct accuracy_row *rows, size_t n,
				struct group *g, size_t ng, struct accuracy_row *sub)
{
	printf("\nsummary (entries the engine maps)\n");
	printf("%-11s %-14s %-9s %4s %15s %9s  %s\n", "role", "family", "workload", "n",
	       "median |error|", "worst", "worst entry");
	for (int role = 0; role <= LEDGER_ROLE_COUNT; role++) {
		for (size_t j = 0; j < ng; j++) {
			if (role == LEDGER_ROLE_COUNT || (int)g[j].role != role)
				continue;
			struct accuracy_stats st;
			size_t k = rows_of(rows, n, &g[j], sub);
			accuracy_stats(sub, k, LEDGER_ROLE_COUNT, &st);
			char med[32], worst[32];
			snprintf(med, sizeof med, "%.1f%%", st.median_abs_pct);
			pct(st.worst_pct, worst, sizeof worst);
			printf("%-11s %-14s %-9s %4zu %15s %9s  %s\n", ledger_role_name(g[j].role),
			       g[j].family, workload_class_name(g[j].cls), st.n, med, worst,
			       st.worst ? st.worst->id : "-");
		}
	}
	size_t unmapped = 0;
	for (size_t i = 0; i < n; i++)
		unmapped += !rows[i].mapped;
	for (int role = 0; role < LEDGER_ROLE_COUNT; role++) {
		struct accuracy_stats st;
		accuracy_stats(rows, n, (enum ledger_role)role, &st);
		char worst[32];
		pct(st.worst_pct, worst, sizeof worst);
		printf("%-11s %-14s %-9s %4zu %14.1f%% %9s  %s\n", ledger_role_name(role), "all", "all",
		       st.n, st.median_abs_pct, worst, st.worst ? st.worst->id : "-");
	}
	printf("not mapped: %zu of %zu\n", unmapped, n);
}

static bool write_csv(const struct accuracy_row *rows, size_t n)
{
	static const char *const head[] = {
		"id", "role", "accelerator", "family", "workload", "model", "precision", "gpus",
		"metric", "unit", "published", "predicted", "error_pct", "mapped", "not_mapped_why",
		"benchmark", "stack", "date", "source",
	};
	enum { NCOL = sizeof head / sizeof head[0] };
	struct out_csv o;
	out_csv_begin(&o, stdout, OUT_CSV_QUOTE_ALL);
	out_csv_row(&o, head, NCOL, OUT_PLAIN);
	for (size_t i = 0; i < n; i++) {
		const struct accuracy_row *r = &rows[i];
		const struct ledger_entry *e = r->e;
		char fam[48], gpus[16], pub[32], pred[32], err[32], src[1024];
		accuracy_family(e->accel, fam, sizeof fam);
		snprintf(gpus, sizeof gpus, "%d", e->gpus);
		snprintf(pub, sizeof pub, "%.10g", e->value);
		snprintf(pred, sizeof pred, "%.6g", r->predicted);
		snprintf(err, sizeof err, "%.2f", r->error_pct);
		source_text(e, src, sizeof src);
		const char *cells[NCOL] = {
			e->id, ledger_role_name(e->role), e->accel->id, fam, workload_class_name(e->w.cls),
			e->w.model->id, precision_name(e->w.precision), e->gpus > 0 ? gpus : "",
			ledger_metric(e->metric)->name,
			ledger_metric(e->metric)->unit, pub, r->mapped ? pred : "", r->mapped ? err : "",
			r->mapped ? "true" : "false", r->mapped ? "" : r->why, e->benchmark, e->stack,
			e->date, src,
		};
		/* the figures are numbers; ids, names, reasons and sources text */
		for (size_t k = 0; k < NCOL; k++)
			out_csv_cell(&o, cells[k], k == 7 || (k >= 10 && k <= 12) ? OUT_PLAIN : OUT_TEXT);
		out_csv_end(&o);
	}
	return out_csv_finish(&o);
}

static void yaml_stats(struct out_yaml *y, const struct accuracy_stats *st)
{
	out_yaml_num(y, "n", (double)st->n, 0);
	out_yaml_num(y, "median_abs_error_pct", st->n ? st->median_abs_pct : NAN, 2);
	out_yaml_num(y, "worst_error_pct", st->n ? st->worst_pct : NAN, 2);
	out_yaml_str(y, "worst", st->worst ? st->worst->id : NULL);
}

static bool write_yaml(const struct accuracy_row *rows, size_t n, struct group *g, size_t ng,
		       struct accuracy_row *sub)
{
	struct out_yaml yaml, *y = &yaml;
	if (!out_yaml_begin(y, stdout))
		return false;
	char src[1024], fam[48];
	out_yaml_map(y, true);
	out_yaml_key(y, "results");
	out_yaml_seq(y, true);
	for (size_t i = 0; i < n; i++) {
		const struct accuracy_row *r = &rows[i];
		const struct ledger_entry *e = r->e;
		accuracy_family(e->accel, fam, sizeof fam);
		source_text(e, src, sizeof src);
		out_yaml_map(y, true);
		out_yaml_str(y, "id", e->id);
		out_yaml_str(y, "role", ledger_role_name(e->role));
		out_yaml_str(y, "accelerator", e->accel->id);
		out_yaml_str(y, "family", fam);
		out_yaml_str(y, "workload", workload_class_name(e->w.cls));
		out_yaml_str(y, "metric", ledger_metric(e->metric)->name);
		out_yaml_str(y, "unit", ledger_metric(e->metric)->unit);
		out_yaml_num(y, "published", e->value, 4);
		out_yaml_num(y, "predicted", r->mapped ? r->predicted : NAN, 4);
		out_yaml_num(y, "error_pct", r->mapped ? r->error_pct : NAN, 2);
		out_yaml_str(y, "not_mapped", r->mapped ? NULL : r->why);
		out_yaml_str(y, "source", src);
		out_yaml_str(y, "date", e->date);
		out_yaml_map(y, false);
	}
	out_yaml_seq(y, false);
	out_yaml_key(y, "summary");
	out_yaml_seq(y, true);
	for (size_t j = 0; j < ng; j++) {
		struct accuracy_stats st;
		size_t k = rows_of(rows, n, &g[j], sub);
		accuracy_stats(sub, k, LEDGER_ROLE_COUNT, &st);
		out_yaml_map(y, true);
		out_yaml_str(y, "role", ledger_role_name(g[j].role));
		out_yaml_str(y, "family", g[j].family);
		out_yaml_str(y, "workload", workload_class_name(g[j].cls));
		yaml_stats(y, &st);
		out_yaml_map(y, false);
	}
	out_yaml_seq(y, false);
	for (int role = 0; role < LEDGER_ROLE_COUNT; role++) {
		struct accuracy_stats st;
		accuracy_stats(rows, n, (enum ledger_role)role, &st);
		out_yaml_key(y, ledger_role_name(role));
		out_yaml_map(y, true);
		yaml_stats(y, &st);
		out_yaml_map(y, false);
	}
	out_yaml_map(y, false);
	return out_yaml_end(y, NULL);
}

/* ---- the command ---- */

static int report(const struct opts *o, struct accuracy_row *rows, size_t n)
{
	struct group *g = malloc((n ? n : 1) * sizeof *g);
	struct accuracy_row *sub = malloc((n ? n : 1) * sizeof *sub);
	int rc = EXIT_OK;
	if (!g || !sub) {
		fprintf(stderr, "accelsizer: out of memory\n");
		rc = EXIT_BADINPUT;
	} else {
		size_t ng = groups_of(rows, n, g);
		bool ok = true;
		if (o->fmt == CLI_FMT_CSV)
			ok = write_csv(rows, n);
		else if (o->fmt == CLI_FMT_YAML)
			ok = write_yaml(rows, n, g, ng, sub);
		else {
			write_table(rows, n);
			write_summary_table(rows, n, g, ng, sub);
		}
		if (!ok || fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "accelsizer: cannot write the output\n");
			rc = EXIT_BADINPUT;
		}
	}
	if (rc == EXIT_OK && o->check) {
		struct accuracy_stats st;
		accuracy_stats(rows, n, LEDGER_VALIDATION, &st);
		bool pass = accuracy_within_budget(&st);
		fprintf(stderr, "accuracy --check: validation median |error| %.1f%% (budget %.0f%%), "
			"worst %+.1f%% (budget %.0f%%) over %zu result%s: %s\n", st.median_abs_pct,
			ACCURACY_MEDIAN_BUDGET_PCT, st.worst_pct, ACCURACY_WORST_BUDGET_PCT, st.n,
			st.n == 1 ? "" : "s", pass ? "within budget" : "over budget");
		if (!pass)
			rc = EXIT_UNMET;
	}
	free(g);
	free(sub);
	return rc;
}

int cli_accuracy_main(int argc, char **argv)
{
	struct opts o;
	int rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	struct catalog *c = frontend_load_catalog(o.catalog);
	if (!c)
		return EXIT_BADINPUT;
	if (o.accel && !catalog_accel(c, o.accel)) {
		const char *near = catalog_suggest(c, CATALOG_ACCELERATORS, o.accel);
		fprintf(stderr, PROG ": --accelerator: unknown accelerator '%s'", o.accel);
		if (near)
			fprintf(stderr, "; did you mean '%s'?", near);
		fputc('\n', stderr);
		catalog_free(c);
		return EXIT_BADINPUT;
	}
	struct ledger *l = frontend_load_ledger(c);
	if (!l) {
		catalog_free(c);
		return EXIT_BADINPUT;
	}
	struct accuracy_row *rows = malloc((l->n ? l->n : 1) * sizeof *rows);
	size_t n = 0;
	if (!rows) {
		fprintf(stderr, "accelsizer: out of memory\n");
		rc = EXIT_BADINPUT;
	} else {
		for (size_t i = 0; i < l->n; i++)
			if (selected(&o, &l->entries[i]))
				accuracy_run(c, &l->entries[i], &rows[n++]);
		rc = report(&o, rows, n);
	}
	free(rows);
	ledger_free(l);
	catalog_free(c);
	return rc;
}
