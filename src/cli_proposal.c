/*
 * `accelsizer proposal`: the customer's document (proposal.h) for a
 * workload or a scenario, as self-contained HTML or Markdown.  Thin on
 * purpose: the wizard's P key calls the same proposal_ functions, so both
 * write the same bytes.
 *
 * Order of work, so that bad input never leaves a file behind: options,
 * catalog, scenario, flags, texts, price list and the output's name and
 * format are checked first; then the engine runs, and the file is written
 * to a temporary and renamed into place (atomic.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy.h"
#include "cli.h"
#include "cli_multi.h"
#include "cli_outputs.h"
#include "cli_report.h"
#include "cli_workload.h"
#include "out.h"
#include "prices.h"
#include "proposal.h"
#include "scenario.h"

#define PROG "accelsizer"

static void usage(FILE *f)
{
	fputs("Usage: accelsizer proposal [WORKLOAD OPTION]... [OPTION]... -o FILE.html|FILE.md\n"
	      "Write the proposal a customer reads after the call: the workload in plain words,\n"
	      "the recommended configuration and two alternatives, predicted performance with\n"
	      "its error band and what binds it, the validation plan, the bill of materials and\n"
	      "its total, the total cost of ownership, the assumptions and their sources.\n"
	      "\n"
	      "Workload options:\n", f);
	cli_workload_usage(f);
	fputs("\nOutput:\n"
	      "  -o, --output FILE                  where to write it ('-': standard output,\n"
	      "                                     with --format)\n"
	      "      --format html|md               HTML (one self-contained file that prints on\n"
	      "                                     two pages) or Markdown (for an email); by\n"
	      "                                     default from FILE's extension\n"
	      "      --customer TEXT                who it is for (over the scenario's)\n"
	      "      --opportunity TEXT             the opportunity (over the scenario's)\n"
	      "      --notes TEXT                   notes and assumptions (over the scenario's)\n"
	      "  -h, --help                         display this help and exit\n"
	      "\n"
	      "The figures are recommend's, validate's and bom's for the same options: the\n"
	      "BOM total is the bom command's to the cent.  The date is today's, or\n"
	      "$SOURCE_DATE_EPOCH's.  The file is written whole or not at all.\n"
	      "\n"
	      "Exit status: 0 written, 1 the workload cannot be met, 2 bad input or a file\n"
	      "that cannot be written (nothing is written then).\n", f);
}

struct opts {
	const char *out, *format, *customer, *opportunity, *notes;
};

/* The output's format: --format, else the file name's extension. */
static bool choose_format(const struct opts *o, enum proposal_format *f)
{
	if (o->format) {
		if (proposal_format_parse(o->format, f))
			return true;
		fprintf(stderr, PROG ": --format: '%s' is not a proposal format (html or md)\n", o->format);
		return false;
	}
	if (!strcmp(o->out, "-")) {
		fprintf(stderr, PROG ": -o -: standard output needs --format html or --format md\n");
		return false;
	}
	if (proposal_format_of_path(o->out, f))
		return true;
	fprintf(stderr, PROG ": -o '%s': name the file .html or .md, or give --format html|md\n", o->out);
	return false;
}

/* --customer, --opportunity and --notes over the scenario's texts. */
static bool apply_texts(const struct opts *o, struct scenario *s)
{
	return (!o->customer || scenario_set_text(&s->customer, o->customer)) &&
	       (!o->opportunity || scenario_set_text(&s->opportunity, o->opportunity)) &&
	       (!o->notes || scenario_set_text(&s->notes, o->notes));
}

/* Everything a proposal needs checked, before the engine runs. */
static int check_inputs(int argc, char **argv, struct cli_extra *x, const struct opts *o,
			const struct catalog *c, struct scenario *s, struct prices *pl,
			enum proposal_format *fmt)
{
	char err[1024];
	if (x->scenario && !scenario_apply_file(x->scenario, c, s, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_BADINPUT;
	}
	if (cli_workload_parse(argc, argv, c, &s->w, x))
		return EXIT_BADINPUT;
	if (!o->out || !*o->out) {
		fprintf(stderr, PROG ": missing -o FILE.html or FILE.md (where to write the proposal)\n");
		return EXIT_BADINPUT;
	}
	if (!choose_format(o, fmt))
		return EXIT_BADINPUT;
	if (!apply_texts(o, s)) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_BADINPUT;
	}
	const struct atomic_name outs[] = { { "-o", o->out } };
	if (!cli_outputs_check(c, x->scenario, x->prices, x->model_config, outs, 1))
		return EXIT_BADINPUT;
	if (cli_load_prices(x, pl, &s->w))
		return EXIT_BADINPUT;
	/* several workloads: the flags and the price list reach every one */
	return s->n_entries > 1 && !cli_multi_flags(s) ? EXIT_BADINPUT : EXIT_OK;
}

static int write_out(const struct opts *o, const struct proposal *p, enum proposal_format fmt)
{
	char err[1024];
	if (!strcmp(o->out, "-")) {
		if (!proposal_fwrite(p, fmt, stdout) || fflush(stdout)) {
			fprintf(stderr, PROG ": cannot write the proposal to standard output\n");
			return EXIT_BADINPUT;
		}
		return EXIT_OK;
	}
	if (!proposal_write(p, fmt, o->out, err, sizeof err)) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_BADINPUT;
	}
	char total[32];
	bom_format_cents(p->bom.total_cents, total, sizeof total);
	printf("%s: proposal for %d x %s, BOM total %s %s\n", o->out, p->rec->gpus, p->rec->accel->id,
	       total, p->currency);
	if (p->bom.n_unpriced) {
		char which[200];
		bom_unpriced_list(&p->bom, which, sizeof which);
		cli_warn_unpriced((int)p->bom.n_unpriced, p->rec->accel->id, which);
	}
	return EXIT_OK;
}

int cli_proposal_main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct cli_opt mine[] = {
		{ "-o", true, &o.out }, { "--output", true, &o.out }, { "--format", true, &o.format },
		{ "--customer", true, &o.customer }, { "--opportunity", true, &o.opportunity },
		{ "--notes", true, &o.notes },
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
	struct proposal p;
	struct accuracy_bands *bands = NULL;
	enum proposal_format fmt = PROPOSAL_HTML;
	char err[1024];
	scenario_init(&s, c);
	prices_init(&pl);
	memset(&p, 0, sizeof p);
	int rc = check_inputs(argc, argv, &x, &o, c, &s, &pl, &fmt);
	if (rc)
		goto out;
	rc = EXIT_BADINPUT;
	if (!(bands = frontend_load_bands(c)))
		goto out;
	switch (proposal_build(&p, c, &s, bands, err, sizeof err)) {
	case PROPOSAL_OK:
		rc = write_out(&o, &p, fmt);
		break;
	case PROPOSAL_UNMET:
		out_line(stderr, PROG ": %s", err);
		rc = EXIT_UNMET;
		break;
	default:
		out_line(stderr, PROG ": %s", err);
		break;
	}
out:
	proposal_fini(&p);
	accuracy_bands_free(bands);
	prices_fini(&pl);
	scenario_fini(&s);
	catalog_free(c);
	return rc;
}
