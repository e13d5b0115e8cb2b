/*
 * Fuzz target: the published-results ledger (catalog/published/), through
 * ledger_load_dir() against the good fixture catalog, then `accuracy` and
 * the error bands on whatever loads.
 *
 * The input is one results file, written into a private folder the target
 * keeps.  A ledger that loads must hold what accuracy and the bands rely
 * on without checking again: ids of the allowed characters, sorted and
 * unique; an accelerator and a model from the catalog; a value in (0, the
 * metric's maximum]; a source with repo, path and commit or a URL, and a
 * date.  Each entry then runs through accuracy_run() and the bands are
 * built and laid onto a result, so hostile setups that pass validation
 * still reach the engine.  A refused file gives clean messages only, each
 * starting with the file's path.
 */
#include "fuzz.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accuracy.h"
#include "catalog.h"
#include "engine.h"
#include "ledger.h"

#ifndef FUZZ_LEDGER_CATALOG
#define FUZZ_LEDGER_CATALOG ABS_TOP_SRCDIR "/tests/fixtures/catalog/good"
#endif

static struct catalog *cat;
static char dir[512], file[600];
static pid_t owner;

static void cleanup(void)
{
	/* Check forks a child per test: only the folder's maker removes it. */
	if (dir[0] && getpid() == owner) {
		unlink(file);
		rmdir(dir);
	}
	catalog_free(cat);
	cat = NULL;
}

int fuzz_ledger_init(void)
{
	struct catalog_errors e;
	cat = catalog_load(FUZZ_LEDGER_CATALOG, &e);
	catalog_errors_fini(&e);
	if (!cat) {
		fprintf(stderr, "fuzz: cannot load %s\n", FUZZ_LEDGER_CATALOG);
		return 1;
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/accelsizer-fuzz-ledger.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	snprintf(file, sizeof file, "%s/results.yaml", dir);
	owner = getpid();
	atexit(cleanup);
	return 0;
}

static bool write_input(const uint8_t *data, size_t size)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return false;
	bool ok = size == 0 || write(fd, data, size) == (ssize_t)size;
	return close(fd) == 0 && ok;
}

static int check_entry(const struct ledger_entry *e, const struct ledger_entry *prev)
{
	const struct ledger_metric_info *m = ledger_metric(e->metric);
	if (!e->id || !*e->id || !fuzz_printable_utf8(e->id) || strpbrk(e->id, " ,\"")) {
		fprintf(stderr, "fuzz: an entry with an empty or unsafe id\n");
		return 1;
	}
	if (prev && strcmp(prev->id, e->id) >= 0) {
		fprintf(stderr, "fuzz: ids not sorted and unique: '%s' then '%s'\n", prev->id, e->id);
		return 1;
	}
	if (!m || !e->accel || !e->w.model || catalog_accel(cat, e->accel->id) != e->accel) {
		fprintf(stderr, "fuzz: %s: metric, accelerator or model missing\n", e->id);
		return 1;
	}
	if (!(e->value > 0) || !(e->value <= m->max) || e->role >= LEDGER_ROLE_COUNT) {
		fprintf(stderr, "fuzz: %s: value %g or role %d out of range\n", e->id, e->value, e->role);
		return 1;
	}
	if (!((e->repo && e->path && e->commit) || e->url) || !e->date || !e->quote) {
		fprintf(stderr, "fuzz: %s: source incomplete\n", e->id);
		return 1;
	}
	if (e->gpus == 0 || e->gpus < -1) {
		fprintf(stderr, "fuzz: %s: gpus %d\n", e->id, e->gpus);
		return 1;
	}
	return 0;
}

static int exercise(const struct ledger *l)
{
	int bad = 0;
	struct accuracy_row *row = malloc(sizeof *row);
	if (!row)
		return 0;
	for (size_t i = 0; i < l->n && !bad; i++) {
		const struct ledger_entry *e = &l->entries[i];
		bad = check_entry(e, i ? &l->entries[i - 1] : NULL);
		if (bad)
			break;
		if (ledger_find(l, e->id) != e) {
			fprintf(stderr, "fuzz: ledger_find('%s') does not find its entry\n", e->id);
			bad = 1;
			break;
		}
		accuracy_run(cat, e, row);
		if (row->mapped && (!isfinite(row->predicted) || !isfinite(row->error_pct))) {
			fprintf(stderr, "fuzz: %s: mapped with a figure that is not finite\n", e->id);
			bad = 1;
		} else if (!row->mapped && !fuzz_printable_utf8(row->why)) {
			fprintf(stderr, "fuzz: %s: not mapped without a clean reason\n", e->id);
			bad = 1;
		}
	}
	free(row);
	struct accuracy_bands *b = accuracy_bands_build(cat, l);
	if (b && l->n) {
		struct engine_result r;
		engine_evaluate(cat, &l->entries[0].w, l->entries[0].accel, &r);
		accuracy_bands_apply(b, &r);
		for (int k = 0; k < BAND_COUNT && !bad; k++)
			if (r.band[k].n < 0 || (r.band[k].n && !(r.band[k].low > 0 && r.band[k].low <= r.band[k].high))) {
				fprintf(stderr, "fuzz: band %d: %g..%g from %d\n", k, r.band[k].low,
					r.band[k].high, r.band[k].n);
				bad = 1;
			}
	}
	accuracy_bands_free(b);
	return bad;
}

int fuzz_ledger_one(const uint8_t *data, size_t size)
{
	if (!cat || !write_input(data, size))
		return 0;	/* nothing to judge (a full /tmp) */
	struct catalog_errors e;
	struct ledger *l = ledger_load_dir(cat, dir, &e);
	int bad = 0;
	if (l) {
		if (e.n) {
			fprintf(stderr, "fuzz: a ledger loaded with %zu problems\n", e.n);
			bad = 1;
		}
		bad |= exercise(l);
	} else if (!e.n) {
		fprintf(stderr, "fuzz: the ledger was refused without a message\n");
		bad = 1;
	} else {
		/* about the file, or (calibrated_from) about the catalog's */
		for (size_t i = 0; i < e.n && !bad; i++) {
			const char *prefix = strncmp(e.msg[i], file, strlen(file)) ? FUZZ_LEDGER_CATALOG
										  : file;
			if (!fuzz_clean_message("ledger_load", e.msg[i], prefix))
				bad = 1;
		}
	}
	ledger_free(l);
	catalog_errors_fini(&e);
	return bad;
}
