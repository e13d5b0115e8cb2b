/*
 * What the unit tests share besides the TAP runner (tap.h): the shipped
 * catalog (a TAP "Bail out!" when it does not load), a scratch folder of their own, and small file helpers.  Every
 * helper stops the test (ck_assert) or the program when it cannot do its
 * job, so a test never runs on a half-made fixture.
 *
 * Ownership: fixture_shipped_catalog() and fixture_slurp() return what the
 * caller frees (catalog_free(), free()).
 */
#ifndef ACCELSIZER_TEST_FIXTURE_H
#define ACCELSIZER_TEST_FIXTURE_H

#include <check.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"

#ifndef ABS_TOP_SRCDIR
#define ABS_TOP_SRCDIR "."
#endif

/* The shipped catalog ($ACCELSIZER_CATALOG, else the source tree's); the
 * program exits when it does not load, since no test can run without it. */
static inline struct catalog *fixture_shipped_catalog(void)
{
	const char *dir = getenv("ACCELSIZER_CATALOG");
	char buf[4096];
	if (!dir || !*dir) {
		snprintf(buf, sizeof buf, "%s/catalog", ABS_TOP_SRCDIR);
		dir = buf;
	}
	struct catalog_errors e;
	struct catalog *cat = catalog_load(dir, &e);
	for (size_t i = 0; i < e.n; i++)
		fprintf(stderr, "%s\n", e.msg[i]);
	catalog_errors_fini(&e);
	if (!cat) {
		printf("Bail out! the shipped catalog does not load from %s\n", dir);
		exit(EXIT_FAILURE);
	}
	return cat;
}

static inline const struct catalog_accel *fixture_accel(const struct catalog *cat, const char *id)
{
	const struct catalog_accel *a = catalog_accel(cat, id);
	ck_assert_msg(a != NULL, "accelerator %s missing from the catalog", id);
	return a;
}

static inline const struct catalog_model *fixture_model(const struct catalog *cat, const char *id)
{
	const struct catalog_model *m = catalog_model(cat, id);
	ck_assert_msg(m != NULL, "model %s missing from the catalog", id);
	return m;
}

/* A new empty folder $TMPDIR/NAME.XXXXXX (TMPDIR unset: /tmp) in buf. */
static inline bool fixture_tmpdir(char *buf, size_t n, const char *name)
{
	const char *base = getenv("TMPDIR");
	int k = snprintf(buf, n, "%s/%s.XXXXXX", base && *base ? base : "/tmp", name);
	return k > 0 && (size_t)k < n && mkdtemp(buf) != NULL;
}

/* Removes path and everything below it (links are removed, not followed;
 * folders a test made unreadable are opened up first). */
static inline void fixture_remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	chmod(path, 0700);
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char sub[4096];
		int n = snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
		if (n > 0 && (size_t)n < sizeof sub)
			fixture_remove_tree(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

static inline void fixture_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot create %s", path);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The first 4095 bytes of a small text file (an expected message) without
 * its trailing newlines. */
static inline char *fixture_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char *buf = calloc(1, 4096);
	ck_assert_ptr_nonnull(buf);
	size_t n = fread(buf, 1, 4095, f);
	fclose(f);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return buf;
}

#endif
