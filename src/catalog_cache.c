/*
 * catalog_cache: the validated catalog as one binary image (see
 * catalog_cache.h for what it is keyed by and when it is trusted).
 *
 * The image file:
 *
 *   header   magic, layout, byte order, pointer size, key and blob
 *            lengths, where the strings start, checksum of key + blob
 *   key      the bytes catalog_cache_load() builds from the folder (the
 *            image is used only when they are exactly equal)
 *   blob     the catalog as catalog_image_build() writes it
 *            (catalog_image.h describes it and what the reader checks)
 *   bands    n_bands error-band cells (struct accuracy_band_cell), checked
 *            by accuracy_bands_from_cells() when they are used
 */
#include "catalog_cache.h"

#include "accuracy.h"
#include "atomic.h"
#include "buf.h"
#include "catalog_image.h"
#include "catalog_schema.h"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "ACSZCAT\x01"
#define BYTE_ORDER_MARK 0x01020304u
#define MAX_BLOB (64u << 20)	/* far beyond any catalog; a bigger file is foreign */
#define MAX_KEY (16u << 20)

#define header catalog_cache_header

/* ---- small helpers ---- */

#define checksum catalog_image_checksum

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3u;
	return h;
}

bool catalog_cache_disabled(void)
{
	const char *v = getenv("ACCELSIZER_NO_CACHE");
	return v && *v;
}

bool catalog_cache_default_dir(char *buf, size_t bufsz)
{
	/* The XDG spec says to ignore a relative $XDG_CACHE_HOME. */
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, bufsz, "%s/accelsizer", xdg);
	else if (home && *home)
		n = snprintf(buf, bufsz, "%s/.cache/accelsizer", home);
	else
		return false;
	return n > 0 && (size_t)n < bufsz;
}

/* ---- the key ---- */

static void key_u64(struct buf *k, uint64_t v)
{
	buf_add(k, &v, sizeof v);
}

static void key_str(struct buf *k, const char *s)
{
	buf_add(k, s, strlen(s) + 1);
}

static bool key_stat(struct buf *k, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	key_u64(k, (uint64_t)st.st_dev);
	key_u64(k, (uint64_t)st.st_ino);
	key_u64(k, (uint64_t)st.st_mode);
	key_u64(k, (uint64_t)st.st_size);
	key_u64(k, (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec);
	key_u64(k, (uint64_t)st.st_ctim.tv_sec * 1000000000u + (uint64_t)st.st_ctim.tv_nsec);
	return true;
}

/* The names of folder that the loader looks at, sorted, each with its
 * stat; false when the folder cannot be read (the loader reports that). */
static bool key_folder(struct buf *k, const char *root, const char *sub)
{
	char **names;
	size_t cnt;
	if (!catalog_image_folder_names(root, sub, &names, &cnt))
		return false;
	key_str(k, sub);
	key_u64(k, cnt);
	bool ok = true;
	for (size_t i = 0; ok && i < cnt; i++) {
		char path[PATH_MAX];
		int n = snprintf(path, sizeof path, "%s/%s/%s", root, sub, names[i]);
		key_str(k, names[i]);
		ok = n > 0 && (size_t)n < sizeof path && key_stat(k, path);
	}
	catalog_image_names_free(names, cnt);
	return ok;
}

/* The key of folder dir as it is now; false when it cannot be made (the
 * folder is then simply parsed). */
static bool make_key(struct buf *k, const char *dir, const char *abs)
{
	key_str(k, "accelsizer catalog cache");
	key_str(k, PACKAGE_VERSION);
	key_u64(k, CATALOG_CACHE_LAYOUT);
	/* the catalog structs' shape, computed from the tables: any row
	 * added, removed or moved gives another key */
	key_u64(k, catalog_schema_layout());
	/* The program itself: a rebuilt binary may validate differently
	 * under the same version number. */
	if (!key_stat(k, "/proc/self/exe"))
		key_u64(k, 0);
	key_str(k, abs);
	key_str(k, dir);	/* the file fields are spelled from it */
	for (size_t i = 0; i < CATALOG_N_KINDS; i++) {
		/* an optional folder that is missing is keyed as missing */
		int gone = catalog_kinds[i].optional ? catalog_image_folder_absent(abs, catalog_kinds[i].dir) : 0;
		if (gone > 0) {
			key_str(k, "no folder");
			key_str(k, catalog_kinds[i].dir);
		}
		else if (gone < 0 || !key_folder(k, abs, catalog_kinds[i].dir))
			return false;
	}
	char path[PATH_MAX];
	int n = snprintf(path, sizeof path, "%s/defaults.yaml", abs);
	if (n < 0 || (size_t)n >= sizeof path)
		return false;
	key_str(k, "defaults.yaml");
	if (!key_stat(k, path))
		return false;
	/* the published results, whose band table the image keeps */
	int absent = catalog_image_ledger_absent(abs);
	if (absent > 0)
		key_str(k, "no " CATALOG_IMAGE_LEDGER_DIR);
	else if (absent < 0 || !key_folder(k, abs, CATALOG_IMAGE_LEDGER_DIR))
		return false;
	return !k->oom;
}

/* ---- writing the image ---- */

struct image_out {
	const struct header *h;
	const struct buf *key;
	const struct catalog_blob *blob;
	const struct accuracy_band_cell *bands;
};

static bool write_image(FILE *fp, void *ctx, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	const struct image_out *o = ctx;
	return fwrite(o->h, sizeof *o->h, 1, fp) == 1 &&
	       fwrite(o->key->p, 1, o->key->len, fp) == o->key->len &&
	       fwrite(o->blob->p, 1, o->blob->len, fp) == o->blob->len &&
	       (!o->h->n_bands ||
		fwrite(o->bands, sizeof *o->bands, o->h->n_bands, fp) == o->h->n_bands);
}

/* mkdir -p for the cache folder's last two levels (~/.cache may not exist
 * yet on a fresh account); failures show up when the file is written. */
static void make_dirs(const char *dir)
{
	if (mkdir(dir, 0700) == 0 || errno != ENOENT)
		return;
	char parent[PATH_MAX];
	int n = snprintf(parent, sizeof parent, "%s", dir);
	if (n < 0 || (size_t)n >= sizeof parent)
		return;
	char *slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return;
	*slash = '\0';
	if (mkdir(parent, 0700) == 0 || errno == EEXIST)
		(void)mkdir(dir, 0700);
}

static bool save(const char *path, const char *cache_dir, const struct buf *key,
		 const struct catalog *c, const struct accuracy_band_cell *bands, size_t n_bands)
{
	struct catalog_blob blob;
	struct header h = { .magic = MAGIC };
	bool ok = catalog_image_build(c, false, &blob);
	if (ok) {
		h.str_start = blob.str_start;
		h.layout = CATALOG_CACHE_LAYOUT;
		h.byte_order = BYTE_ORDER_MARK;
		h.ptr_size = sizeof(void *);
		h.key_len = key->len;
		h.blob_len = blob.len;
		h.n_bands = n_bands;
		h.sum = checksum(checksum(checksum(0, key->p, key->len), blob.p, blob.len), bands,
				 n_bands * sizeof *bands);
		make_dirs(cache_dir);
		char err[256];
		struct image_out o = { &h, key, &blob, bands };
		ok = atomic_write(path, write_image, &o, err, sizeof err);
	}
	free(blob.p);
	return ok;
}

/* ---- reading the image ---- */

static bool read_all(int fd, void *buf, size_t n)
{
	unsigned char *p = buf;
	while (n) {
		ssize_t r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t)r;
	}
	return true;
}

/* Ours, as ssh wants ~/.ssh: owned by the user running the program, not
 * writable by group or others (issue 13 item 4).  Else why says so. */
static bool ours(const struct stat *st, const char *what, const char *path, char *why,
		 size_t whysz)
{
	if (st->st_uid != geteuid())
		snprintf(why, whysz, "the %s %s belongs to uid %ld, not to you", what, path,
			 (long)st->st_uid);
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, whysz, "the %s %s is writable by group or others", what, path);
	else
		return true;
	return false;
}

/* The catalog in the image at path when its key is key and the file is
 * ours; NULL otherwise, with why set when the file is there but not
 * trusted (*blocked then: no image may be written over it either). */
static struct catalog *load_image(const char *path, const struct buf *key, char *why,
				  size_t whysz, bool *blocked)
{
	/* O_NONBLOCK: a FIFO at the image's path must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	struct stat st;
	struct header h;
	unsigned char *kb = NULL, *blob = NULL;
	struct accuracy_band_cell *bands = NULL;
	struct catalog *c = NULL;
	if (fstat(fd, &st) != 0)
		goto out;
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whysz, "the image %s is not a regular file", path);
		*blocked = true;
		goto out;
	}
	if (!ours(&st, "image", path, why, whysz)) {
		*blocked = true;
		goto out;
	}
	if ((uint64_t)st.st_size < sizeof h || !read_all(fd, &h, sizeof h))
		goto out;
	if (memcmp(h.magic, MAGIC, sizeof h.magic) || h.layout != CATALOG_CACHE_LAYOUT ||
	    h.byte_order != BYTE_ORDER_MARK || h.ptr_size != sizeof(void *) ||
	    h.key_len != key->len || h.key_len > MAX_KEY || h.blob_len > MAX_BLOB ||
	    h.blob_len < sizeof(struct catalog) || h.str_start > h.blob_len ||
	    h.n_bands > MAX_BLOB / sizeof *bands ||
	    (uint64_t)st.st_size != sizeof h + h.key_len + h.blob_len + h.n_bands * sizeof *bands)
		goto out;
	kb = malloc(h.key_len ? h.key_len : 1);
	if (!kb || !read_all(fd, kb, h.key_len) || memcmp(kb, key->p, key->len))
		goto out;
	blob = malloc(h.blob_len);
	if (!blob || !read_all(fd, blob, h.blob_len))
		goto out;
	size_t bands_len = (size_t)h.n_bands * sizeof *bands;
	if (h.n_bands && (!(bands = malloc(bands_len)) || !read_all(fd, bands, bands_len)))
		goto out;
	/* read straight into the block that becomes the catalog */
	if (checksum(checksum(checksum(0, kb, h.key_len), blob, h.blob_len), bands, bands_len) ==
		    h.sum &&
	    (c = catalog_image_adopt(blob, h.blob_len, h.str_start)) != NULL) {
		blob = NULL;
		c->bands_ = bands;
		c->n_bands_ = (size_t)h.n_bands;
		c->bands_owned_ = bands != NULL;
		bands = NULL;
	}
out:
	close(fd);
	free(kb);
	free(blob);
	free(bands);
	return c;
}

/* ---- the entry point ---- */

struct catalog *catalog_cache_load(const char *dir, const char *cache_dir,
				   struct catalog_errors *errs, struct catalog_cache_info *info)
{
	return catalog_cache_load_bands(dir, cache_dir, NULL, errs, info);
}

struct catalog *catalog_cache_load_bands(const char *dir, const char *cache_dir,
					 catalog_cache_bands_fn *bands, struct catalog_errors *errs,
					 struct catalog_cache_info *info)
{
	struct catalog_cache_info ignored;
	if (!info)
		info = &ignored;
	info->how = CATALOG_CACHE_OFF;
	info->written = false;
	info->path[0] = '\0';
	info->why[0] = '\0';

	char defdir[PATH_MAX], abs[PATH_MAX];
	if (!cache_dir && catalog_cache_default_dir(defdir, sizeof defdir))
		cache_dir = defdir;
	if (catalog_cache_disabled() || !cache_dir || !dir || !realpath(dir, abs))
		return catalog_load(dir, errs);
	int n = snprintf(info->path, sizeof info->path, "%s/catalog-%016llx.cache", cache_dir,
			 (unsigned long long)fnv1a(abs));
	if (n < 0 || (size_t)n >= sizeof info->path) {
		info->path[0] = '\0';
		return catalog_load(dir, errs);
	}
	info->how = CATALOG_CACHE_MISS;

	/* A folder that is not ours is neither read nor written. */
	struct stat ds;
	if (stat(cache_dir, &ds) == 0 && !ours(&ds, "cache folder", cache_dir, info->why,
					       sizeof info->why))
		return catalog_load(dir, errs);

	/* The key is taken before the parse: a file edited during the parse
	 * leaves an image whose key no longer matches, never a stale one. */
	struct buf key = { 0 };
	bool keyed = make_key(&key, dir, abs), blocked = false;
	if (keyed) {
		struct catalog *c = load_image(info->path, &key, info->why, sizeof info->why, &blocked);
		if (c) {
			if (errs)
				memset(errs, 0, sizeof *errs);
			info->how = CATALOG_CACHE_HIT;
			free(key.p);
			return c;
		}
	}
	struct catalog *c = catalog_load(dir, errs);
	if (c && keyed && !blocked) {
		struct accuracy_band_cell *cells = NULL;
		size_t n_cells = 0;
		if (!bands || !bands(c, &cells, &n_cells)) {
			free(cells);
			cells = NULL;
			n_cells = 0;
		}
		info->written = save(info->path, cache_dir, &key, c, cells, n_cells);
		/* this run uses the table it computed */
		c->bands_ = cells;
		c->n_bands_ = n_cells;
		c->bands_owned_ = cells != NULL;
	}
	free(key.p);
	return c;
}

/* ---- for tests ---- */

bool catalog_cache_reseal(const char *path)
{
	FILE *fp = fopen(path, "r+b");
	if (!fp)
		return false;
	struct header h;
	unsigned char *all = NULL;
	bool ok = fread(&h, sizeof h, 1, fp) == 1 && h.key_len <= MAX_KEY && h.blob_len <= MAX_BLOB;
	ok = ok && h.n_bands <= MAX_BLOB / sizeof(struct accuracy_band_cell);
	size_t nb = ok ? (size_t)h.n_bands * sizeof(struct accuracy_band_cell) : 0;
	size_t n = ok ? (size_t)(h.key_len + h.blob_len) + nb : 0;
	if (ok && (all = malloc(n ? n : 1)) != NULL && fread(all, 1, n, fp) == n) {
		h.sum = checksum(checksum(checksum(0, all, h.key_len), all + h.key_len, h.blob_len),
				 all + h.key_len + h.blob_len, nb);
		ok = fseek(fp, 0, SEEK_SET) == 0 && fwrite(&h, sizeof h, 1, fp) == 1;
	} else {
		ok = false;
	}
	free(all);
	return fclose(fp) == 0 && ok;
}
