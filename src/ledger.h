/*
 * ledger: the published results accelsizer is checked against
 * (catalog/published/, one .yaml file per source family), one entry per
 * measurement: what was measured (metric, value, unit), on what (accelerator, GPU count, software), the
 * setup written with a scenario's workload keys, and where it was read
 * (repository + path + commit, or URL, and the date).  The format is in
 * catalog/SCHEMA.md ("Published results").
 *
 * An entry's role keeps calibration apart from validation: the efficiency
 * figures of the catalog were set from the calibration entries (each names
 * them in calibrated_from), the validation entries only judge the model.
 *
 * The ledger is read after the catalog (its ids must exist there) and is
 * not part of the catalog cache: the commands that need it (catalog check,
 * accuracy, and the error bands) read it.  Nothing here prints.
 *
 * Ownership: ledger_load() returns a ledger the caller frees with
 * ledger_free() before the catalog it points into.
 */
#ifndef ACCELSIZER_LEDGER_H
#define ACCELSIZER_LEDGER_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "engine.h"

enum ledger_role { LEDGER_CALIBRATION, LEDGER_VALIDATION, LEDGER_ROLE_COUNT };
const char *ledger_role_name(enum ledger_role r);	/* "calibration" */
bool ledger_role_parse(const char *s, enum ledger_role *out);

/* What a published result measured.  ledger.c's one table gives each its
 * name, unit, the workload it belongs to and its direction. */
enum ledger_metric {
	LM_OUTPUT_TOKENS_PER_S,
	LM_TOKENS_PER_S_PER_USER,
	LM_TTFT_MS,
	LM_TTFT_P50_MS,
	LM_TTFT_P99_MS,
	LM_TPOT_MS,
	LM_REQUEST_LATENCY_S,		/* one request, first token to last */
	LM_REQUESTS_PER_S,
	LM_SAMPLES_PER_S,
	LM_TOKENS_PER_S_PER_GPU,
	LM_MFU,
	LM_STEP_S,
	LM_TRAIN_MINUTES,
	LM_GPU_HOURS,
	LM_COUNT
};

struct ledger_metric_info {
	const char *name;		/* "output_tokens_per_s" */
	const char *unit;		/* "tok/s" */
	bool training;			/* a training figure (else serving) */
	bool both;			/* ...or either (tokens/s per GPU: output
					 * tokens when serving) */
	bool higher_is_better;		/* a rate (else a time) */
	double max;			/* largest value a real result can have */
};
const struct ledger_metric_info *ledger_metric(enum ledger_metric m);
bool ledger_metric_parse(const char *s, enum ledger_metric *out);

/* The published layout, where the source gives it (0 = not given). */
/* vp: interleaved pipeline chunks per GPU (Megatron's virtual pipeline). */
enum { LEDGER_TP, LEDGER_PP, LEDGER_DP, LEDGER_EP, LEDGER_CP, LEDGER_VP, LEDGER_BATCH,
       LEDGER_TOKEN_BUDGET, LEDGER_LAYOUT_COUNT };
const char *ledger_layout_key(int i);			/* "tp" */

struct ledger_entry {
	char *id;
	enum ledger_role role;
	/* source: repo + path + commit, or url (or both); date and quote */
	char *repo, *path, *commit, *url, *date, *quote;
	enum ledger_metric metric;
	double value;
	const struct catalog_accel *accel;
	int gpus;			/* -1: not published, the engine sizes */
	char *stack, *benchmark, *notes;
	/* The setup: engine_workload_init() defaults, the entry's workload
	 * keys on top, then accel and gpus set to the measured system. */
	struct workload w;
	/* which training keys the source gave (a step time means nothing
	 * without the batch, samples without the sequence length) */
	bool has_tokens, has_seq_len, has_batch;
	bool has_lengths;		/* serving: input_tokens and output_tokens */
	long layout[LEDGER_LAYOUT_COUNT];
	const char *file;		/* the ledger's copy of the path */
	int line, col;			/* where the entry starts */
};

struct ledger {
	struct ledger_entry *entries;	/* sorted by id */
	size_t n;
	char **files;			/* paths read, sorted */
	size_t n_files;
};

/*
 * Reads every .yaml file in c->dir/published/ (a catalog without that
 * folder has an empty ledger) and checks each entry against c: keys,
 * types, metric and unit, source, ids that exist, workload.  Also checks
 * every calibrated_from list of c against the ledger (ids that exist and
 * are calibration entries; once the ledger has calibration entries, every
 * accelerator efficiency must say which it was set from, [] for none).
 * Returns NULL when anything is wrong, with every problem in *errs as
 * "file:line:col: message" (initialised here; the caller finalises it
 * either way).  ledger_load_dir() reads another folder the same way.
 */
struct ledger *ledger_load(const struct catalog *c, struct catalog_errors *errs);
struct ledger *ledger_load_dir(const struct catalog *c, const char *dir,
			       struct catalog_errors *errs);
void ledger_free(struct ledger *l);

const struct ledger_entry *ledger_find(const struct ledger *l, const char *id);
size_t ledger_count(const struct ledger *l, enum ledger_role r);

#endif
