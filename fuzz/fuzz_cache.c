/*
 * Fuzz target: the catalog cache image, structure-aware (issue 13).
 *
 * A byte-level fuzzer rarely gets past the image's checksum, so this one
 * starts from a good image of the fixture catalog and lets the input pick
 * fields to change: the input is a list of 16-byte mutations, each
 *   byte 0     where: 0 struct catalog, 1 an accelerator, 2 a platform,
 *              3 a fabric, 4 a model, 5 anywhere in the blob, 6 the header
 *   byte 1     which item of that array (modulo its length)
 *   bytes 2-3  the byte offset inside that item (modulo its size)
 *   byte 4     the width written: 1, 2, 4 or 8 bytes (low two bits)
 *   byte 5     below 24 one of the values[] below (zero, one, all ones,
 *              NaN, infinity, 1e-300, the blob's length, the string area's
 *              start, an array's offset + 1, ...), else bytes 8-15 raw
 * applied in order.  The checksum is then recomputed (catalog_cache_
 * reseal()), as a forger would, and the catalog is loaded through the
 * cache.  Whatever the image holds, the load must give a catalog that
 * passes catalog_values_ok() with the fixture's counts and ids (from the
 * image when every check passed, else from the YAML), and one engine run
 * over it must not hit undefined behaviour.
 */
#include "fuzz.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"
#include "catalog_cache.h"
#include "engine.h"

#ifndef FUZZ_CACHE_SEED
#define FUZZ_CACHE_SEED ABS_TOP_SRCDIR "/tests/fixtures/catalog/good"
#endif

static char cache_dir[512];
static char image[4200];
static pid_t owner;
static uint8_t *good;		/* the good image's bytes */
static size_t good_len, blob_at, blob_len, str_start;
static struct catalog *ref;	/* the YAML load, for comparison */

/* Where each array of the blob starts, its item size and count. */
static struct {
	size_t off, size, n;
} arrays[5];

static void cleanup(void)
{
	if (!cache_dir[0] || getpid() != owner)
		return;
	DIR *d = opendir(cache_dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			char p[1024];
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
			    snprintf(p, sizeof p, "%s/%s", cache_dir, e->d_name) < (int)sizeof p)
				unlink(p);
		}
		closedir(d);
	}
	rmdir(cache_dir);
	catalog_free(ref);
	free(good);
}

static uint64_t slot(size_t blob_off)
{
	uint64_t v = 0;
	memcpy(&v, good + blob_at + blob_off, sizeof v);
	return v;
}

int fuzz_cache_init(void)
{
	/* make check turns the cache off for every other test */
	unsetenv("ACCELSIZER_NO_CACHE");
	const char *tmp = getenv("TMPDIR");
	snprintf(cache_dir, sizeof cache_dir, "%s/accelsizer-fuzz-cache.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(cache_dir)) {
		perror(cache_dir);
		cache_dir[0] = '\0';
		return 1;
	}
	owner = getpid();
	atexit(cleanup);
	struct catalog_errors e;
	struct catalog_cache_info ci;
	struct catalog *c = catalog_cache_load(FUZZ_CACHE_SEED, cache_dir, &e, &ci);
	catalog_errors_fini(&e);
	if (!c || !ci.written) {
		fprintf(stderr, "fuzz: no image written for %s in %s\n", FUZZ_CACHE_SEED, cache_dir);
		catalog_free(c);
		return 1;
	}
	catalog_free(c);
	snprintf(image, sizeof image, "%s", ci.path);
	good = fuzz_slurp(image, &good_len);
	ref = catalog_load(FUZZ_CACHE_SEED, NULL);
	if (!good || !ref || good_len < sizeof(struct catalog_cache_header))
		return 1;
	struct catalog_cache_header h;
	memcpy(&h, good, sizeof h);
	blob_at = sizeof h + (size_t)h.key_len;
	blob_len = (size_t)h.blob_len;
	str_start = (size_t)h.str_start;
	arrays[0].off = 0;
	arrays[0].size = sizeof(struct catalog);
	arrays[0].n = 1;
	const size_t slots[4][3] = {
		{ offsetof(struct catalog, accels), sizeof(struct catalog_accel), ref->n_accels },
		{ offsetof(struct catalog, platforms), sizeof(struct catalog_platform), ref->n_platforms },
		{ offsetof(struct catalog, fabrics), sizeof(struct catalog_fabric), ref->n_fabrics },
		{ offsetof(struct catalog, models), sizeof(struct catalog_model), ref->n_models },
	};
	for (int i = 0; i < 4; i++) {
		uint64_t v = slot(slots[i][0]);	/* offset + 1, 0 for NULL */
		arrays[i + 1].off = v ? (size_t)v - 1 : 0;
		arrays[i + 1].size = slots[i][1];
		arrays[i + 1].n = v ? slots[i][2] : 0;
	}
	return 0;
}

static uint64_t bits(double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof v);
	return v;
}

/* A value worth trying for mutation selector k (0..23). */
static uint64_t value(unsigned k)
{
	switch (k) {
	case 0: return 0;
	case 1: return 1;
	case 2: return 2;
	case 3: return UINT64_MAX;
	case 4: return INT64_MAX;
	case 5: return (uint64_t)INT64_MIN;
	case 6: return bits(NAN);
	case 7: return bits(INFINITY);
	case 8: return bits(-INFINITY);
	case 9: return bits(1e-300);
	case 10: return bits(-0.0);
	case 11: return bits(1e300);
	case 12: return bits(-1.0);
	case 13: return blob_len;
	case 14: return blob_len + 1;
	case 15: return str_start;
	case 16: return str_start + 1;
	case 17: return arrays[1].off + 1;
	case 18: return arrays[2].off + 1;
	case 19: return arrays[4].off + 1;
	case 20: return 0x7fffffff;
	case 21: return 0x80000000u;
	case 22: return 65536;
	default: return 1000;
	}
}

static void mutate(uint8_t *img, const uint8_t *m)
{
	size_t width = (size_t)1 << (m[4] & 3);
	unsigned where = m[0] % 7;
	size_t base, span;
	if (where == 6) {		/* the header */
		base = 0;
		span = sizeof(struct catalog_cache_header);
	} else if (where == 5) {	/* anywhere in the blob */
		base = blob_at;
		span = blob_len;
	} else {
		if (!arrays[where].n)
			return;
		size_t item = m[1] % arrays[where].n;
		base = blob_at + arrays[where].off + item * arrays[where].size;
		span = arrays[where].size;
	}
	if (span < width || base + span > good_len)
		return;
	size_t off = (size_t)(m[2] | m[3] << 8) % (span - width + 1);
	uint64_t v;
	if (m[5] < 24)
		v = value(m[5]);
	else
		memcpy(&v, m + 8, sizeof v);
	memcpy(img + base + off, &v, width);	/* little-endian low bytes */
}

static int check(const struct catalog *c)
{
	if (!catalog_values_ok(c)) {
		fprintf(stderr, "fuzz: a figure outside the loader's ranges was served\n");
		return 1;
	}
	if (c->n_accels != ref->n_accels || c->n_platforms != ref->n_platforms ||
	    c->n_fabrics != ref->n_fabrics || c->n_models != ref->n_models) {
		fprintf(stderr, "fuzz: counts differ from the YAML load\n");
		return 1;
	}
	for (size_t i = 0; i < c->n_accels; i++)
		if (!c->accels[i].id || catalog_accel(c, c->accels[i].id) != &c->accels[i] ||
		    !fuzz_printable_utf8(c->accels[i].id)) {
			fprintf(stderr, "fuzz: accelerator %zu: bad id or lookup\n", i);
			return 1;
		}
	for (size_t i = 0; i < c->n_platforms; i++)
		if (!c->platforms[i].accel || !c->platforms[i].id) {
			fprintf(stderr, "fuzz: platform %zu unresolved\n", i);
			return 1;
		}
	return 0;
}

int fuzz_cache_one(const uint8_t *data, size_t size)
{
	uint8_t *img = malloc(good_len);
	if (!img)
		return 0;
	memcpy(img, good, good_len);
	for (size_t i = 0; i + 16 <= size && i < 16 * 64; i += 16)
		mutate(img, data + i);
	FILE *f = fopen(image, "wb");
	bool written = f && fwrite(img, 1, good_len, f) == good_len;
	if (f && fclose(f) != 0)
		written = false;
	free(img);
	if (!written)
		return 0;
	chmod(image, 0600);		/* ours, so that it is read at all */
	(void)catalog_cache_reseal(image);	/* may refuse a mangled header */

	struct catalog_errors e;
	struct catalog_cache_info ci;
	struct catalog *c = catalog_cache_load(FUZZ_CACHE_SEED, cache_dir, &e, &ci);
	int bad = 0;
	if (!c || e.n) {
		fprintf(stderr, "fuzz: the good catalog failed to load through the cache (%s)\n",
			e.n ? e.msg[0] : "no message");
		bad = 1;
	} else {
		bad = check(c);
		if (!bad) {
			struct workload w;
			struct engine_report rep;
			engine_workload_init(&w, c);
			if (engine_report_init(&rep, c)) {
				engine_run(c, &w, &rep);
				engine_report_fini(&rep);
			}
		}
	}
	catalog_errors_fini(&e);
	catalog_free(c);
	return bad;
}
