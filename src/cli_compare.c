/*
 * `accelsizer compare A.yaml B.yaml [C.yaml]`: two or three scenarios side
 * by side: every setting as the files name it, then the recommended
 * accelerator's figures (the scenario's accelerator when it names one,
 * else the best-ranked one that fits), the rows that differ marked.  The
 * table is compare.h's, shared with the wizard's pin; results are
 * cli_report's columns, so a figure reads here as in `recommend --format
 * csv`.
 *
 * Every scenario is loaded and checked before anything is written: a bad
 * file is "file:line:col: message" and exit 2, with no output.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "cli.h"
#include "cli_outputs.h"
#include "cli_report.h"
#include "compare.h"
#include "out.h"
#include "prices.h"
#include "scenario.h"

#define PROG "accelsizer"

static void usage(FILE *f)
{
	fputs("Usage: accelsizer compare [OPTION]... A.yaml B.yaml [C.yaml]\n"
	      "Compare two or three saved scenarios side by side: their settings, then the\n"
	      "recommended accelerator of each (the scenario's accelerator when it names\n"
	      "one, else the best-ranked one that fits) with its GPUs, nodes, throughput or\n"
	      "time to train, latency, capex (the BOM total), TCO and cost per token.  Rows\n"
	      "whose values differ are marked '*' (table) or differs=true (csv, yaml).\n"
	      "\n"
	      "      --format FMT                   table (default), csv or yaml\n"
	      "  -o, --output FILE                  write there instead of standard output\n"
	      "      --catalog DIR                  read the catalog from DIR\n"
	      "      --prices FILE.csv              price list for every scenario's costs\n"
	      "  -h, --help                         display this help and exit\n"
	      "\n"
	      "Exit status: 0 compared, 1 a scenario cannot be met (no accelerator fits;\n"
	      "the comparison is still written), 2 bad input (nothing is written).\n", f);
}

/* The result figures compared, as cli_report names them; a figure that
 * applies to none of the scenarios (training time of two serving ones) is
 * left out. */
static const char *const result_keys[] = {
	"accelerator", "platform", "gpus", "nodes", "spare_nodes", "tp", "pp", "dp",
	"binding", "precision_used",
	"output_tokens_per_s", "tokens_per_s_per_user", "ttft_ms", "tpot_p99_ms",
	"train_hours", "gpu_hours", "mfu",
	"power_kw", "racks", "capex_usd", "tco_usd", "usd_per_hour", "usd_per_mtok", "run_cost_usd",
};

struct opts {
	const char *files[COMPARE_MAX_COLS];
	int n_files;
	const char *out, *catalog, *prices;
	enum cli_format fmt;
	bool help;
};

/* "--name VALUE" or "--name=VALUE" at argv[*i]; NULL when argv[*i] is not
 * that option.  A missing value is reported and gives "" (refused later). */
static const char *opt_value(int argc, char **argv, int *i, const char *name, bool *bad)
{
	size_t n = strlen(name);
	const char *a = argv[*i];
	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, PROG ": compare: option '%s' needs a value\n", name);
		*bad = true;
		return "";
	}
	return argv[++*i];
}

static int parse(int argc, char **argv, struct opts *o)
{
	memset(o, 0, sizeof *o);
	const char *format = NULL;
	bool bad = false;
	for (int i = 1; i < argc && !bad; i++) {
		const char *a = argv[i], *v;
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			o->help = true;
		else if ((v = opt_value(argc, argv, &i, "--format", &bad)))
			format = v;
		else if ((v = opt_value(argc, argv, &i, "--output", &bad)) ||
			 (v = opt_value(argc, argv, &i, "-o", &bad)))
			o->out = v;
		else if ((v = opt_value(argc, argv, &i, "--catalog", &bad)))
			o->catalog = v;
		else if ((v = opt_value(argc, argv, &i, "--prices", &bad)))
			o->prices = v;
		else if (a[0] == '-' && a[1]) {
			fprintf(stderr, PROG ": compare: unknown option '%s'\n"
				"Try 'accelsizer compare --help' for more information.\n", a);
			return EXIT_BADINPUT;
		} else if (o->n_files < COMPARE_MAX_COLS) {
			o->files[o->n_files++] = a;
		} else {
			fprintf(stderr, PROG ": compare: at most %d scenarios, '%s' is one more\n",
				COMPARE_MAX_COLS, a);
			return EXIT_BADINPUT;
		}
	}
	if (bad || o->help)
		return bad ? EXIT_BADINPUT : EXIT_OK;
	if (format && !cli_format_parse("--format", format, &o->fmt))
		return EXIT_BADINPUT;
	if (o->out && !*o->out) {
		fprintf(stderr, PROG ": compare: -o needs a file name\n");
		return EXIT_BADINPUT;
	}
	if (o->n_files < 2) {
		fprintf(stderr, PROG ": compare: name two or three scenario files (A.yaml B.yaml [C.yaml])\n"
			"Try 'accelsizer compare --help' for more information.\n");
		return EXIT_BADINPUT;
	}
	return EXIT_OK;
}

/* The result a scenario is about: its accelerator, or the best fitting. */
static const struct engine_result *recommended(const struct engine_report *r, const struct workload *w)
{
	if (w->accel)
		return engine_report_find(r, w->accel);
	for (size_t i = 0; i < r->n; i++)
		if (r->results[i].fits && !r->results[i].filtered)
			return &r->results[i];
	return NULL;
}

/* Column col: the scenario's settings, then its recommended result's
 * figures ("none" for the accelerator when nothing fits).  Returns
 * whether an accelerator fits. */
static bool add_column(struct compare *cmp, int col, const struct scenario *s, const struct engine_report *rep)
{
	compare_add_settings(cmp, col, &s->w);
	const struct engine_result *r = recommended(rep, &s->w);
	bool fits = r && r->fits && !r->filtered;
	size_t nf;
	const struct cli_field *fields = cli_result_fields(&nf);
	for (size_t k = 0; k < sizeof result_keys / sizeof result_keys[0]; k++) {
		for (size_t i = 0; i < nf; i++) {
			if (strcmp(fields[i].name, result_keys[k]))
				continue;
			char v[COMPARE_VALUE_MAX];
			if (!fits)
				compare_set(cmp, col, "result", result_keys[k], k == 0 ? "none" : "");
			else if (cli_result_value(i, r, v, sizeof v))
				compare_set(cmp, col, "result", result_keys[k], v);
			else
				compare_set(cmp, col, "result", result_keys[k], "");
		}
	}
	return fits;
}

/* Drops result rows empty in every column (figures of another class). */
static void drop_empty(struct compare *cmp)
{
	size_t o = 0;
	for (size_t i = 0; i < cmp->n_rows; i++) {
		const struct compare_row *r = &cmp->rows[i];
		bool empty = true;
		for (int j = 0; j < cmp->n_cols && empty; j++)
			empty = !r->has[j] || !r->value[j][0];
		if (!empty || strcmp(r->section, "result"))
			cmp->rows[o++] = *r;
	}
	cmp->n_rows = o;
}

static void label_of(const struct compare_row *r, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s", r->section, r->section[0] ? "." : "", r->key);
}

/* ---- the three formats ---- */

/* One line of the table: the mark, the label, then the columns padded to
 * their widths (the last not padded). */
static bool table_line(FILE *f, char mark, int lw, const char *label, const int *w, int n,
		       const char *const *cells)
{
	char line[1024], a[COMPARE_VALUE_MAX];
	int len = snprintf(line, sizeof line, "%c %-*s", mark, lw, label);
	for (int j = 0; j < n && len > 0 && (size_t)len < sizeof line; j++)
		len += snprintf(line + len, sizeof line - (size_t)len, "  %-*s", j + 1 < n ? w[j] : 0,
				out_inert(cells[j], a, sizeof a));
	return out_line(f, "%s", line);
}

static const char *cell_of(const struct compare_row *r, int j)
{
	return r->has[j] && r->value[j][0] ? r->value[j] : "-";
}

static bool write_table(FILE *f, const struct compare *cmp, const struct opts *o)
{
	int lw = 3, w[COMPARE_MAX_COLS];
	char label[80], a[COMPARE_VALUE_MAX];
	for (size_t i = 0; i < cmp->n_rows; i++) {
		label_of(&cmp->rows[i], label, sizeof label);
		if ((int)strlen(label) > lw)
			lw = (int)strlen(label);
	}
	for (int j = 0; j < cmp->n_cols; j++) {
		w[j] = (int)strlen(out_inert(o->files[j], a, sizeof a));
		for (size_t i = 0; i < cmp->n_rows; i++) {
			int len = (int)strlen(out_inert(cell_of(&cmp->rows[i], j), a, sizeof a));
			if (len > w[j])
				w[j] = len;
		}
	}
	bool ok = out_line(f, "Comparing %d scenarios: %zu of %zu rows differ (marked *)", cmp->n_cols,
			   compare_n_differ(cmp), cmp->n_rows);
	ok = ok && table_line(f, ' ', lw, "key", w, cmp->n_cols, o->files);
	for (size_t i = 0; i < cmp->n_rows && ok; i++) {
		const struct compare_row *r = &cmp->rows[i];
		const char *cells[COMPARE_MAX_COLS];
		for (int j = 0; j < cmp->n_cols; j++)
			cells[j] = cell_of(r, j);
		label_of(r, label, sizeof label);
		ok = table_line(f, r->differs ? '*' : ' ', lw, label, w, cmp->n_cols, cells);
	}
	return ok;
}

static bool write_csv(FILE *f, const struct compare *cmp, const struct opts *o)
{
	struct out_csv c;
	out_csv_begin(&c, f, OUT_CSV_QUOTE_ALL);
	out_csv_cell(&c, "section", OUT_PLAIN);
	out_csv_cell(&c, "key", OUT_PLAIN);
	out_csv_cell(&c, "differs", OUT_PLAIN);
	for (int j = 0; j < cmp->n_cols; j++)
		out_csv_cell(&c, o->files[j], OUT_TEXT);
	out_csv_end(&c);
	for (size_t i = 0; i < cmp->n_rows; i++) {
		const struct compare_row *r = &cmp->rows[i];
		out_csv_cell(&c, r->section, OUT_PLAIN);
		out_csv_cell(&c, r->key, OUT_PLAIN);
		out_csv_cell(&c, r->differs ? "true" : "false", OUT_PLAIN);
		for (int j = 0; j < cmp->n_cols; j++)
			out_csv_cell(&c, r->has[j] ? r->value[j] : "", OUT_TEXT);
		out_csv_end(&c);
	}
	return out_csv_finish(&c);
}

static bool write_yaml(FILE *f, const struct compare *cmp, const struct opts *o)
{
	struct out_yaml y;
	if (!out_yaml_begin(&y, f))
		return false;
	out_yaml_map(&y, true);
	out_yaml_key(&y, "scenarios");
	out_yaml_seq(&y, true);
	for (int j = 0; j < cmp->n_cols; j++)
		out_yaml_scalar(&y, o->files[j], OUT_YAML_QUOTED);
	out_yaml_seq(&y, false);
	out_yaml_num(&y, "differences", (double)compare_n_differ(cmp), 0);
	out_yaml_key(&y, "rows");
	out_yaml_seq(&y, true);
	for (size_t i = 0; i < cmp->n_rows; i++) {
		const struct compare_row *r = &cmp->rows[i];
		out_yaml_map(&y, true);
		out_yaml_str(&y, "section", r->section);
		out_yaml_str(&y, "key", r->key);
		out_yaml_key(&y, "differs");
		out_yaml_scalar(&y, r->differs ? "true" : "false", OUT_YAML_PLAIN);
		out_yaml_key(&y, "values");
		out_yaml_seq(&y, true);
		for (int j = 0; j < cmp->n_cols; j++)
			out_yaml_scalar(&y, r->has[j] && r->value[j][0] ? r->value[j] : "~",
					r->has[j] && r->value[j][0] ? OUT_YAML_TEXT : OUT_YAML_PLAIN);
		out_yaml_seq(&y, false);
		out_yaml_map(&y, false);
	}
	out_yaml_seq(&y, false);
	out_yaml_map(&y, false);
	const char *problem = NULL;
	return out_yaml_end(&y, &problem);
}

static bool write_fmt(FILE *f, const struct compare *cmp, const struct opts *o)
{
	switch (o->fmt) {
	case CLI_FMT_CSV: return write_csv(f, cmp, o);
	case CLI_FMT_YAML: return write_yaml(f, cmp, o);
	default: return write_table(f, cmp, o);
	}
}

/* To -o FILE (whole or not at all) or standard output. */
static int write_out(const struct compare *cmp, const struct opts *o)
{
	char err[1024];
	if (!o->out || !strcmp(o->out, "-"))
		return write_fmt(stdout, cmp, o) ? EXIT_OK : EXIT_BADINPUT;
	struct atomic_file af = { 0 };
	if (!atomic_file_open(&af, o->out, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_BADINPUT;
	}
	errno = 0;
	if (!write_fmt(af.fp, cmp, o)) {
		fprintf(stderr, PROG ": cannot write '%s': %s\n", o->out, strerror(errno ? errno : EIO));
		atomic_file_abort(&af);
		return EXIT_BADINPUT;
	}
	if (!atomic_file_commit(&af, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_BADINPUT;
	}
	return EXIT_OK;
}

/* Loads scenario j and runs the engine on it into column j. */
static int load_one(const struct catalog *c, const struct opts *o, int j, struct prices *pl,
		    struct engine_report *rep, struct compare *cmp, bool *fits)
{
	char err[1024];
	struct scenario s;
	if (!scenario_load(o->files[j], c, &s, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		scenario_fini(&s);
		return EXIT_BADINPUT;
	}
	int rc = EXIT_OK;
	if (s.n_entries > 1) {
		fprintf(stderr, PROG ": %s: the scenario holds %zu workloads; compare takes scenarios of "
			"one workload\n", o->files[j], s.n_entries);
		rc = EXIT_BADINPUT;
	} else {
		s.w.prices = o->prices ? pl : NULL;
		engine_run(c, &s.w, rep);
		*fits = add_column(cmp, j, &s, rep);
	}
	scenario_fini(&s);
	return rc;
}

static int compare_files(const struct catalog *c, const struct opts *o)
{
	const struct atomic_name outs[] = { { "-o", o->out } };
	for (int j = 0; j < o->n_files; j++)
		if (!cli_outputs_check(c, o->files[j], o->prices, NULL, outs, 1))
			return EXIT_BADINPUT;
	struct prices pl;
	prices_init(&pl);
	char err[1024];
	if (o->prices && !prices_load(o->prices, &pl, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		prices_fini(&pl);
		return EXIT_BADINPUT;
	}
	struct engine_report rep = { 0 };
	static struct compare cmp;	/* 60 kB: not on the stack */
	compare_init(&cmp, o->n_files);
	int rc = engine_report_init(&rep, c) ? EXIT_OK : EXIT_BADINPUT;
	bool all_fit = true;
	for (int j = 0; j < o->n_files && rc == EXIT_OK; j++) {
		bool fits = false;
		rc = load_one(c, o, j, &pl, &rep, &cmp, &fits);
		all_fit = all_fit && fits;
	}
	if (rc == EXIT_OK) {
		drop_empty(&cmp);
		compare_finish(&cmp);
		rc = write_out(&cmp, o);
		if (rc == EXIT_OK && !all_fit)
			rc = EXIT_UNMET;
	}
	if (rep.results)
		engine_report_fini(&rep);
	prices_fini(&pl);
	return rc;
}

int cli_compare_main(int argc, char **argv)
{
	struct opts o;
	int rc = parse(argc, argv, &o);
	if (rc != EXIT_OK)
		return rc;
	if (o.help) {
		usage(stdout);
		return EXIT_OK;
	}
	struct catalog *c = frontend_load_catalog(o.catalog);
	if (!c)
		return EXIT_BADINPUT;
	rc = compare_files(c, &o);
	catalog_free(c);
	return rc;
}
