/*
 * Fuzz target: the catalog loader, through its real entry point.
 *
 * catalog_load() reads a folder, so the target keeps a private copy of the
 * good fixture catalog (tests/fixtures/catalog/good) in a temporary folder
 * and, for each input, writes one file into it, loads the whole catalog,
 * then puts the folder back as it was.
 *
 * Input: the first byte picks the kind of file (modulo 5: accelerator,
 * platform, fabric, model, defaults.yaml); the rest is the file's content.
 * The file is named after the content's "id:" line when that is a valid id
 * (so a real catalog file loads cleanly next to the fixture ones, or
 * replaces the fixture file of the same id), otherwise "fuzz.yaml".
 *
 * A loaded catalog is then used the way `recommend` uses it: lookups,
 * platforms per accelerator, did-you-mean, and one engine run with the
 * default workload, so hostile figures that pass validation still reach
 * the arithmetic they feed.
 */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"
#include "engine.h"

#ifndef FUZZ_CATALOG_SEED
#define FUZZ_CATALOG_SEED ABS_TOP_SRCDIR "/tests/fixtures/catalog/good"
#endif

static char base[512];
static pid_t owner;

static const char *const kind_dir[FUZZ_CAT_KINDS] = {
	"accelerators", "platforms", "fabrics", "models", "",
};

static bool copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return false;
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return false;
	}
	char buf[8192];
	ssize_t n;
	bool ok = true;
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			ok = false;
	close(in);
	return close(out) == 0 && ok && n == 0;
}

/* Copies the regular files of from into to (one level: the catalog's
 * folders are copied one by one by the caller). */
static bool copy_dir(const char *from, const char *to)
{
	if (mkdir(to, 0755) && errno != EEXIST)
		return false;
	DIR *d = opendir(from);
	if (!d)
		return false;
	bool ok = true;
	struct dirent *e;
	while (ok && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char a[1024], b[1024];
		int la = snprintf(a, sizeof a, "%s/%s", from, e->d_name);
		int lb = snprintf(b, sizeof b, "%s/%s", to, e->d_name);
		if (la < 0 || lb < 0 || (size_t)la >= sizeof a || (size_t)lb >= sizeof b)
			continue;
		struct stat st;
		if (stat(a, &st) == 0 && S_ISREG(st.st_mode))
			ok = copy_file(a, b);
	}
	closedir(d);
	return ok;
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char p[1024];
		int n = snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (n < 0 || (size_t)n >= sizeof p)
			continue;
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			remove_tree(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static void cleanup(void)
{
	/* Check (the regression test) forks a child per test: only the
	 * process that made the folder removes it. */
	if (base[0] && getpid() == owner)
		remove_tree(base);
}

int fuzz_catalog_init(void)
{
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp) {
		struct stat st;
		tmp = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
		      access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	}
	snprintf(base, sizeof base, "%s/accelsizer-fuzz-catalog.XXXXXX", tmp);
	if (!mkdtemp(base)) {
		perror(base);
		return 1;
	}
	owner = getpid();
	atexit(cleanup);
	char from[1024], to[1024];
	for (int k = 0; k < FUZZ_CAT_DEFAULTS; k++) {
		snprintf(from, sizeof from, "%s/%s", FUZZ_CATALOG_SEED, kind_dir[k]);
		snprintf(to, sizeof to, "%s/%s", base, kind_dir[k]);
		if (!copy_dir(from, to)) {
			fprintf(stderr, "fuzz: cannot copy %s to %s\n", from, to);
			return 1;
		}
	}
	snprintf(from, sizeof from, "%s/defaults.yaml", FUZZ_CATALOG_SEED);
	snprintf(to, sizeof to, "%s/defaults.yaml", base);
	if (!copy_file(from, to)) {
		fprintf(stderr, "fuzz: cannot copy %s\n", from);
		return 1;
	}
	/* The copy must load: otherwise every input would only test errors. */
	struct catalog_errors errs;
	struct catalog *c = catalog_load(base, &errs);
	if (!c)
		fprintf(stderr, "fuzz: the seed catalog %s does not load: %s\n", FUZZ_CATALOG_SEED,
			errs.n ? errs.msg[0] : "?");
	catalog_free(c);
	catalog_errors_fini(&errs);
	return c ? 0 : 1;
}

/* The id on an "id:" line at the start of a line, if it is one the loader
 * could accept as a file name; else "fuzz". */
static void pick_name(const uint8_t *data, size_t size, char *name, size_t sz)
{
	snprintf(name, sz, "fuzz");
	for (size_t i = 0; i + 3 < size; i++) {
		if ((i && data[i - 1] != '\n') || memcmp(data + i, "id:", 3))
			continue;
		size_t j = i + 3;
		while (j < size && (data[j] == ' ' || data[j] == '"' || data[j] == '\''))
			j++;
		size_t len = 0;
		char id[65];
		while (j < size && len < 64 &&
		       ((data[j] >= 'a' && data[j] <= 'z') || (data[j] >= '0' && data[j] <= '9') ||
			data[j] == '-' || data[j] == '_' || (data[j] == '.' && len)))
			id[len++] = (char)data[j++];
		id[len] = '\0';
		if (len && strcmp(id, "defaults"))
			snprintf(name, sz, "%s", id);
		return;
	}
}


static bool write_all(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return false;
	const char *p = data;
	while (size) {
		ssize_t w = write(fd, p, size);
		if (w <= 0) {
			close(fd);
			return false;
		}
		p += w;
		size -= (size_t)w;
	}
	return close(fd) == 0;
}

/* What recommend does with a catalog; the sanitizers judge the outcome. */
static int use_catalog(const struct catalog *c)
{
	int bad = 0;
	const struct catalog_platform *plats[64];
	for (size_t i = 0; i < c->n_accels; i++) {
		const struct catalog_accel *a = &c->accels[i];
		if (catalog_accel(c, a->id) != a) {
			fprintf(stderr, "fuzz: catalog_accel('%s') does not find it\n", a->id);
			bad = 1;
		}
		size_t n = catalog_platforms_for(c, a, plats, 64);
		for (size_t k = 0; k < n; k++)
			if (plats[k]->accel != a) {
				fprintf(stderr, "fuzz: platform %s listed for %s\n", plats[k]->id, a->id);
				bad = 1;
			}
	}
	for (size_t i = 0; i < c->n_platforms; i++)
		if (!c->platforms[i].accel) {
			fprintf(stderr, "fuzz: platform %s loaded without its accelerator\n",
				c->platforms[i].id);
			bad = 1;
		}
	(void)catalog_count_unconfirmed(c);
	(void)catalog_suggest(c, CATALOG_ANY, "h100-sxn");

	struct workload w;
	engine_workload_init(&w, c);
	char why[256];
	if (w.model && engine_workload_valid(&w, why, sizeof why)) {
		struct engine_report r;
		if (engine_report_init(&r, c)) {
			engine_run(c, &w, &r);
			for (size_t i = 0; i < r.n; i++) {
				struct engine_plan plan;
				if (r.results[i].fits && !r.results[i].filtered)
					engine_validation_plan(c, &w, &r.results[i], &plan);
			}
			engine_report_fini(&r);
		}
	}
	return bad;
}

int fuzz_catalog_one(const uint8_t *data, size_t size)
{
	if (size < 1 || !base[0])
		return 0;
	int kind = data[0] % FUZZ_CAT_KINDS;
	data++, size--;
	char path[1024], name[80];
	if (kind == FUZZ_CAT_DEFAULTS) {
		snprintf(path, sizeof path, "%s/defaults.yaml", base);
	} else {
		pick_name(data, size, name, sizeof name);
		snprintf(path, sizeof path, "%s/%s/%s.yaml", base, kind_dir[kind], name);
	}
	size_t orig_len = 0;
	char *orig = (char *)fuzz_slurp(path, &orig_len);
	if (!write_all(path, data, size)) {
		perror(path);
		free(orig);
		return 0;	/* the machine's problem, not the loader's */
	}

	int bad = 0;
	struct catalog_errors errs;
	struct catalog *c = catalog_load(base, &errs);
	if (c) {
		if (errs.n) {
			fprintf(stderr, "fuzz: catalog loaded with %zu errors\n", errs.n);
			bad = 1;
		}
		bad |= use_catalog(c);
		catalog_free(c);
	} else {
		if (!errs.n) {
			fprintf(stderr, "fuzz: catalog refused without a message\n");
			bad = 1;
		}
		for (size_t i = 0; i < errs.n; i++)
			if (!fuzz_clean_message("catalog_load", errs.msg[i], base))
				bad = 1;
	}
	catalog_errors_fini(&errs);

	/* Put the folder back. */
	if (orig)
		write_all(path, orig, orig_len);
	else
		unlink(path);
	free(orig);
	return bad;
}
