/*
 * proposal: the document a customer reads after the call, as HTML (one
 * self-contained file: inline CSS and SVG, no script, nothing fetched,
 * two printed A4 or Letter pages) or Markdown (to paste into an email).
 * Shared by `accelsizer proposal` and the wizard's P key, so both write
 * the same bytes for the same scenario.
 *
 * Every figure comes from the engine functions the CLI and the wizard
 * use: engine_run() for the ranking, the recommended configuration and
 * its two alternatives, accuracy_bands_apply_report() for the error
 * bands, engine_validation_plan() for the acceptance thresholds,
 * bom_build() (engine_quote()) for the bill of materials and its total,
 * engine_tco_year() and engine_tco_inputs() for the total cost of
 * ownership and its assumptions, engine_tradeoff_curve() for the
 * throughput / latency trade-off (the wizard's chart's).  Nothing is computed here but layout.
 *
 * Every user or catalog string goes through out.h's HTML or Markdown
 * escaping; the date is out_date() ($SOURCE_DATE_EPOCH for reproducible
 * files).
 *
 * Ownership: proposal_build() fills a caller-owned struct proposal that
 * proposal_fini() releases; it borrows the catalog and the scenario, which
 * must outlive it.
 */
#ifndef ACCELSIZER_PROPOSAL_H
#define ACCELSIZER_PROPOSAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "accuracy.h"
#include "bom.h"
#include "catalog.h"
#include "cluster.h"
#include "engine.h"
#include "scenario.h"

enum proposal_format { PROPOSAL_HTML, PROPOSAL_MD, PROPOSAL_FORMAT_COUNT };
const char *proposal_format_name(enum proposal_format f);	/* "html", "md" */
bool proposal_format_parse(const char *s, enum proposal_format *out);
/* From the file name: .html or .htm, .md or .markdown (any case). */
bool proposal_format_of_path(const char *path, enum proposal_format *out);

/* The alternatives shown beside the recommended configuration. */
#define PROPOSAL_ALTERNATIVES 2

struct proposal {
	const struct catalog *c;
	const struct scenario *s;
	struct workload w;		/* the scenario's workload, derived */
	struct engine_report rep;
	const struct engine_result *rec;	/* the recommended configuration */
	const struct engine_result *alt[PROPOSAL_ALTERNATIVES];
	size_t n_alt;
	struct engine_plan plan;
	struct bom bom;
	struct engine_curve curve;	/* the recommended one's trade-off (inference) */
	char date[32];
	const char *currency;		/* ISO 4217 code every money figure is in */
	/* Several workloads (s->n_entries > 1): the clusters (cluster.h); rec
	 * and alt are clusters' totals, plan the shared cluster's plan and
	 * plans[] each workload's on rec's accelerator (items of rec_accel). */
	bool several;
	struct cluster cl;
	size_t rec_accel;
	struct engine_plan plans[SCENARIO_MAX_WORKLOADS];
};

enum proposal_status {
	PROPOSAL_OK,
	PROPOSAL_UNMET,			/* nothing (or not the chosen one) fits */
	PROPOSAL_FAILED,		/* out of memory, a BOM that cannot be built */
};

/*
 * Sizes the scenario's workload (s->w, with its price list in w.prices)
 * on the catalog and gathers everything the document shows.  A scenario
 * of several workloads (every entry with the shared settings and price
 * list, cli_multi_flags() or the wizard) is sized as one cluster per
 * accelerator (cluster.h): the document then shows each workload and the
 * cluster that holds them, its BOM and TCO the cluster's.  The
 * recommended configuration is the chosen accelerator (s->w.accel) or the
 * best-ranked one that fits the filters; the alternatives are the next
 * ones that do.  bands may be NULL (every figure unvalidated).  On
 * failure err says why, in words for the customer's engineer.
 */
enum proposal_status proposal_build(struct proposal *p, const struct catalog *c,
				    const struct scenario *s, const struct accuracy_bands *bands,
				    char *err, size_t errsz);
void proposal_fini(struct proposal *p);

bool proposal_fwrite(const struct proposal *p, enum proposal_format f, FILE *fp);
/* Atomically (atomic.h): the file is whole or untouched.  err: "cannot
 * write 'PATH': ..." */
bool proposal_write(const struct proposal *p, enum proposal_format f, const char *path,
		    char *err, size_t errsz);

/* The file name a scenario's proposal gets by default: the scenario's
 * file name with "-proposal.html" for its extension ("bank.yaml" ->
 * "bank-proposal.html"), or "accelsizer-proposal.html". */
void proposal_default_path(const char *scenario_path, char *buf, size_t n);

#endif
