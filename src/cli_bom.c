/*
 * `accelsizer bom`: the bill of materials for one accelerator (the one
 * named, or the best-ranked one) as CSV, with an optional plain-text
 * summary.  Thin on purpose: the wizard's export key calls the same bom_
 * functions, so both write the same files.
 *
 * Order of work, so that bad input never leaves a file behind: parse and
 * check everything (options, catalog, scenario, price list, workload), run
 * the engine, build the BOM, then write every output to its temporary file
 * and only then rename them into place.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "bom.h"
#include "cli.h"
#include "cli_multi.h"
#include "cli_report.h"
#include "cli_outputs.h"
#include "cli_workload.h"
#include "out.h"
#include "prices.h"
#include "scenario.h"

#define PROG "accelsizer"

static void usage(FILE *f)
{
	fputs("Usage: accelsizer bom [WORKLOAD OPTION]... [OPTION]... -o FILE.csv\n"
	      "Write the bill of materials for the chosen accelerator (--accelerator, or\n"
	      "the best-ranked one) as CSV: servers, accelerators, server parts, fabric,\n"
	      "racks, PDUs, support, and a total row.  A scenario with several workloads\n"
	      "gets one BOM for the cluster that holds them all (recommend's 'total').\n"
	      "\n"
	      "Workload options:\n", f);
	cli_workload_usage(f);
	fputs("\nOutput:\n"
	      "  -o, --output FILE.csv              where to write the BOM ('-': standard output)\n"
	      "      --summary FILE.txt             also write a plain-text summary: scenario,\n"
	      "                                     assumptions, catalog version, date\n"
	      "      --elevation FILE.txt           also write the rack elevation: every rack\n"
	      "                                     unit by unit (nodes, switches), its kW and\n"
	      "                                     PDUs ('-': standard output)\n"
	      "      --header                       start the CSV with a header block: customer,\n"
	      "                                     opportunity, scenario, date, catalog version\n"
	      "                                     (key,value rows and an empty row; off by\n"
	      "                                     default, so a plain import stays one table)\n"
	      "      --customer TEXT                who it is for (over the scenario's)\n"
	      "      --opportunity TEXT             the opportunity (over the scenario's)\n"
	      "  -h, --help                         display this help and exit\n"
	      "\n"
	      "--prices FILE.csv: columns sku, unit_price (or unit_price_XXX, XXX an ISO\n"
	      "4217 code), and optionally currency, category, discount_pct, description;\n"
	      "any other column is an error.  Lines CURRENCY (rate per USD), MARGIN (%),\n"
	      "SUPPORT-YEARS, '*' (a category's discount) set the quote's terms; see\n"
	      "accelsizer(1).  The total is the capex recommend prints with the same --prices.\n"
	      "Money is exact to the cent: the total row is the sum of the lines.  Cells a\n"
	      "spreadsheet would run as a formula (starting with = + - @, tab or CR) get a\n"
	      "leading apostrophe.  Files are written whole or not at all.\n"
	      "\n"
	      "Exit status: 0 written, 1 the workload cannot be met, 2 bad input or a file\n"
	      "that cannot be written (nothing is written then).\n", f);
}

struct opts {
	const char *out, *summary, *elevation, *prices, *header, *customer, *opportunity;
	const char *scenario;
};

/* Price-list lines that match nothing are worth a word: a misspelt SKU
 * means a line quoted at the catalog's estimate. */
static void warn_unused_prices(const struct catalog *c, const struct prices *pl, const struct bom *b)
{
	for (size_t i = 0; i < pl->n; i++) {
		/* a rental rate for an accelerator the catalog does not have is
		 * a typo that would leave rent or buy without it */
		const char *id = engine_rent_sku_accel(pl->items[i].sku);
		if (id && !catalog_accel(c, id))
			fprintf(stderr, "accelsizer: warning: %s:%ld:%ld: sku '%s' names no accelerator "
				"of the catalog\n", pl->path, pl->items[i].line, pl->items[i].col,
				pl->items[i].sku);
		if (!bom_has_sku(b, pl->items[i].sku) && !engine_price_setting(pl->items[i].sku))
			fprintf(stderr, "accelsizer: warning: %s:%ld:%ld: sku '%s' is not in this "
				"bill of materials\n", pl->path, pl->items[i].line, pl->items[i].col,
				pl->items[i].sku);
	}
}

/* The result to build: the named accelerator's, or the best fitting one. */
static const struct engine_result *choose(const struct engine_report *r,
					  const struct catalog_accel *named)
{
	if (named)
		return engine_report_find(r, named);
	for (size_t i = 0; i < r->n; i++)
		if (r->results[i].fits && !r->results[i].filtered)
			return &r->results[i];
	return NULL;
}

/* Several workloads: the chosen accelerator's cluster (its total result
 * is what recommend prints for 'total'), and each workload's share of it
 * for the summary. */
static const struct engine_result *multi_choice(const struct cluster *m, struct bom_summary_info *info,
						struct bom_workload *parts, char (*lays)[48])
{
	size_t a = cluster_choose(m);
	if (a >= m->n_accel)
		return NULL;
	const struct engine_result *t = &m->cl[a].total;
	size_t n = 0;
	for (size_t e = 0; e < m->s->n_entries; e++) {
		const struct engine_result *r = cluster_used(m, e, a);
		if (!r)
			continue;
		const struct scenario_entry *se = &m->s->entries[e];
		engine_result_layout(r, se->w.cls, lays[n], sizeof lays[n]);
		parts[n] = (struct bom_workload){ se->name, &se->w, r->gpus, lays[n] };
		n++;
	}
	info->workloads = parts;
	info->n_workloads = n;
	info->sharing = t->reason;
	return t;
}

/* --customer and --opportunity over the scenario's, for the header and
 * the summary. */
static bool apply_texts(const struct opts *o, struct scenario *s)
{
	if ((o->customer && !scenario_set_text(&s->customer, o->customer)) ||
	    (o->opportunity && !scenario_set_text(&s->opportunity, o->opportunity))) {
		fprintf(stderr, PROG ": out of memory\n");
		return false;
	}
	return true;
}

/* Why there is no BOM to write (exit 1). */
static void say_unmet(const struct scenario *s, const struct engine_result *res)
{
	char rb[ENGINE_REASON_MAX], nb[256];
	const char *why = res ? engine_result_reason(res, rb, sizeof rb) : "";
	if (s->w.accel && s->n_entries > 1)
		fprintf(stderr, "accelsizer: %s cannot hold every workload of the scenario "
			"('recommend --scenario' shows which does not fit)\n",
			out_inert(s->w.accel->name, nb, sizeof nb));
	else if (s->w.accel)
		fprintf(stderr, "accelsizer: %s cannot meet this workload: %s\n",
			out_inert(s->w.accel->name, nb, sizeof nb),
			out_inert(why[0] ? why : "no configuration fits", rb, sizeof rb));
	else
		fprintf(stderr, "accelsizer: no accelerator in the catalog can meet this "
			"%s (accelsizer recommend shows why)\n",
			s->n_entries > 1 ? "scenario's workloads on one cluster" : "workload");
}

/* Every output to its temporary file, then all renamed together (or none,
 * when one of them fails): issue 13 item 2.  A failure names the file that
 * failed, never the other one. */
static int write_outputs(const struct opts *o, const struct bom *b, const struct catalog *c,
			 const struct scenario *s, const struct prices *pl, struct bom_summary_info *info_in)
{
	char err[PATH_MAX + 128];
	struct bom_summary_info info = *info_in;
	info.customer = s->customer;
	info.opportunity = s->opportunity;
	info.notes = s->notes;
	info.prices_path = pl ? pl->path : NULL;
	bool to_stdout = !strcmp(o->out, "-");
	bool elev_stdout = o->elevation && !strcmp(o->elevation, "-");
	struct atomic_file csv = { 0 }, sum = { 0 }, elev = { 0 };
	struct atomic_file *all[] = { to_stdout ? NULL : &csv, o->summary ? &sum : NULL,
				      o->elevation && !elev_stdout ? &elev : NULL };
	if (!to_stdout && !atomic_file_open(&csv, o->out, err, sizeof err))
		goto fail;
	if (o->summary && !atomic_file_open(&sum, o->summary, err, sizeof err)) {
		atomic_file_abort(&csv);
		goto fail;
	}
	if (o->elevation && !elev_stdout && !atomic_file_open(&elev, o->elevation, err, sizeof err)) {
		atomic_file_abort(&csv);
		atomic_file_abort(&sum);
		goto fail;
	}
	errno = 0;
	const char *bad = NULL;
	const struct bom_header head = { s->customer, s->opportunity, o->scenario };
	if (!(o->header ? bom_fwrite_csv_header(b, c, &head, to_stdout ? stdout : csv.fp)
			: bom_fwrite_csv(b, to_stdout ? stdout : csv.fp)))
		bad = to_stdout ? "standard output" : o->out;
	else if (o->summary && !bom_fwrite_summary(b, c, &s->w, &info, sum.fp))
		bad = o->summary;
	else if (o->elevation && !bom_fwrite_elevation(b, c, elev_stdout ? stdout : elev.fp))
		bad = elev_stdout ? "standard output" : o->elevation;
	else if ((to_stdout || elev_stdout) && (fflush(stdout) != 0 || ferror(stdout)))
		bad = "standard output";
	if (bad) {
		snprintf(err, sizeof err, "cannot write '%s': %s", bad, strerror(errno ? errno : EIO));
		atomic_file_abort(&csv);
		atomic_file_abort(&sum);
		atomic_file_abort(&elev);
		goto fail;
	}
	if (!atomic_file_commit_all(all, 3, err, sizeof err))
		goto fail;
	return EXIT_OK;
fail:
	fprintf(stderr, "accelsizer: %s\n", err);
	return EXIT_BADINPUT;
}

/* The output options are named, and at most one of them is '-'. */
static bool outputs_named(const struct opts *o)
{
	const char *why = NULL;
	if (!o->out || !*o->out)
		why = "missing -o FILE.csv (where to write the BOM)";
	else if (o->summary && !*o->summary)
		why = "--summary needs a file name";
	else if (o->elevation && !*o->elevation)
		why = "--elevation needs a file name";
	else if (o->elevation && !strcmp(o->elevation, "-") && !strcmp(o->out, "-"))
		why = "-o and --elevation cannot both be '-' (standard output)";
	if (why)
		fprintf(stderr, PROG ": %s\n", why);
	return !why;
}

int cli_bom_main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct cli_opt mine[] = {
		{ "-o", true, &o.out }, { "--output", true, &o.out },
		{ "--summary", true, &o.summary }, { "--elevation", true, &o.elevation },
		{ "--header", false, &o.header },
		{ "--customer", true, &o.customer }, { "--opportunity", true, &o.opportunity },
	};
	struct cli_extra x = { .opts = mine, .n_opts = sizeof mine / sizeof mine[0] };
	if (cli_workload_prescan(argc, argv, &x))
		return EXIT_BADINPUT;
	if (x.help) {
		usage(stdout);
		return EXIT_OK;
	}

	struct catalog *c = frontend_load_catalog(x.catalog_dir);
	if (!c)
		return EXIT_BADINPUT;
	struct scenario s;
	struct prices pl;
	struct engine_report rep = { 0 };
	struct bom b;
	struct cluster m = { 0 };
	struct bom_summary_info info = { 0 };
	struct bom_workload parts[SCENARIO_MAX_WORKLOADS];
	char lays[SCENARIO_MAX_WORKLOADS][48];
	const struct engine_result *res;
	scenario_init(&s, c);
	prices_init(&pl);
	bom_init(&b);
	char err[1024];
	int rc = EXIT_BADINPUT;

	/* The scenario first, then the flags over it. */
	if (cli_workload_start(&x, c, &s) || cli_workload_parse(argc, argv, c, &s.w, &x))
		goto out;
	o.scenario = x.scenario;
	if (!apply_texts(&o, &s))
		goto out;
	if (!outputs_named(&o))
		goto out;
	/* Nothing is written over an input or over the other output. */
	const struct atomic_name outs[] = { { "-o", o.out }, { "--summary", o.summary },
					    { "--elevation", o.elevation } };
	o.prices = x.prices;
	if (!cli_outputs_check(c, x.scenario, o.prices, x.model_config, outs, 3))
		goto out;
	/* A bad price list stops everything before anything is written. */
	if (cli_load_prices(&x, &pl, &s.w))
		goto out;
	if (s.n_entries > 1 && !cli_multi_flags(&s))
		goto out;

	if (s.n_entries > 1) {
		if (!cluster_size(c, &s, NULL, &m)) {
			fprintf(stderr, "accelsizer: out of memory\n");
			goto out;
		}
		res = multi_choice(&m, &info, parts, lays);
	} else {
		if (!engine_report_init(&rep, c)) {
			fprintf(stderr, "accelsizer: out of memory\n");
			goto out;
		}
		engine_run(c, &s.w, &rep);
		res = choose(&rep, s.w.accel);
	}
	if (!res || !res->fits || !res->platform) {
		say_unmet(&s, res);
		rc = EXIT_UNMET;
		goto out;
	}
	if (res->filtered) {
		char nb[256];
		fprintf(stderr, "accelsizer: warning: %s is outside your filters (%s); writing its "
			"BOM because you asked for it\n", out_inert(res->accel->name, nb, sizeof nb),
			res->filter_reason);
	}
	const struct workload *bw = s.n_entries > 1 ? &s.entries[0].w : &s.w;
	if (!bom_build(c, bw, res, o.prices ? &pl : NULL, &b, err, sizeof err)) {
		fprintf(stderr, "accelsizer: %s\n", err);
		goto out;
	}
	if (o.prices)
		warn_unused_prices(c, &pl, &b);
	rc = write_outputs(&o, &b, c, &s, o.prices ? &pl : NULL, &info);
	if (rc == EXIT_OK && strcmp(o.out, "-") && !(o.elevation && !strcmp(o.elevation, "-"))) {
		char total[32], kw[32];
		bom_format_cents(b.total_cents, total, sizeof total);
		bom_format_number(b.total_power_w / 1000.0, kw, sizeof kw);
		char without[64] = "";
		if (b.n_unpriced)
			snprintf(without, sizeof without, ", %zu " BOM_UNPRICED " line%s not in it", b.n_unpriced,
				 b.n_unpriced == 1 ? "" : "s");
		printf("%s: %zu lines for %d x %s (%d node%s + %d spare), total %s %s%s, %s kW, "
		       "%d rack%s\n", o.out, b.n, res->gpus, res->accel->id, res->nodes,
		       res->nodes == 1 ? "" : "s", res->spare_nodes, total, b.result.currency, without, kw,
		       b.racks, b.racks == 1 ? "" : "s");
	}
	if (rc == EXIT_OK && b.n_unpriced) {
		char which[200];
		bom_unpriced_list(&b, which, sizeof which);
		cli_warn_unpriced((int)b.n_unpriced, res->accel->id, which);
	}
out:
	cluster_fini(&m);
	bom_fini(&b);
	if (rep.results)
		engine_report_fini(&rep);
	prices_fini(&pl);
	scenario_fini(&s);
	catalog_free(c);
	return rc;
}
