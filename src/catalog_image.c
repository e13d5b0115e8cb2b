/*
 * catalog_image: the catalog as one block of bytes and back (the layout is
 * described in catalog_image.h); every slot is found through the catalog
 * tables (catalog_schema.h).
 */
#include "catalog_image.h"

#include "buf.h"
#include "catalog_schema.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ALIGN 16

_Static_assert(sizeof(uintptr_t) == sizeof(char *), "pointer slots hold a uintptr_t");
_Static_assert(sizeof(enum form_factor) == sizeof(int) && sizeof(enum stack) == sizeof(int) &&
	       sizeof(enum topology) == sizeof(int), "CF_ENUM slots are int-sized");

static size_t align_up(size_t n)
{
	return (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
}

static uintptr_t slot_get(const void *base, size_t off)
{
	uintptr_t v;
	memcpy(&v, (const char *)base + off, sizeof v);
	return v;
}

static void slot_set(void *base, size_t off, uintptr_t v)
{
	memcpy((char *)base + off, &v, sizeof v);
}

uint64_t catalog_image_checksum(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	const uint64_t k = 0x9E3779B97F4A7C15u;
	/* four independent lanes over 32-byte blocks, then words, then bytes */
	uint64_t l[4] = { h, h ^ 1, h ^ 2, h ^ 3 };
	size_t i = 0;
	for (; i + 32 <= n; i += 32) {
		for (int j = 0; j < 4; j++) {
			uint64_t w;
			memcpy(&w, p + i + 8 * j, 8);
			l[j] = (l[j] ^ w) * k;
			l[j] ^= l[j] >> 29;
		}
	}
	h = l[0] ^ (l[1] * 3) ^ (l[2] * 5) ^ (l[3] * 7);
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * k;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * k;
	h ^= n;
	h *= k;
	return h ^ (h >> 32);
}

/* ---- writing ---- */

struct writer {
	struct buf b;
	const struct catalog *c;
	size_t strip;		/* bytes of c->dir (and its '/') taken off files */
	bool foreign;		/* a reference outside c */
};

/* Copies n items of sz bytes at src to the next boundary and stores
 * offset + 1 (0 for NULL) in the slot at slot_off; returns the offset. */
static size_t put_array(struct buf *b, size_t slot_off, const void *src, size_t n, size_t sz)
{
	if (!src) {
		if (!b->oom)
			slot_set(b->p, slot_off, 0);
		return 0;
	}
	size_t off = align_up(b->len);
	if (!buf_grow(b, off))
		return 0;
	b->len = off;
	buf_add(b, src, n * sz);
	if (!b->oom)
		slot_set(b->p, slot_off, off + 1);
	return off;
}

/* The arrays item orig (copied to at) owns by table s, depth first; its
 * accelerator reference as an index. */
static void put_arrays(struct writer *w, const struct catalog_schema *s, size_t at, const void *orig)
{
	for (size_t i = 0; i < s->n && !w->b.oom; i++) {
		const struct catalog_field *f = &s->f[i];
		/* only list fields hold a pointer at f->off: reading 8 bytes
		 * at an int field near the end of a small item (a partition's
		 * max_per_gpu) read past it (AddressSanitizer, fuzz_cache) */
		bool list = f->type == CF_STRLIST || f->type == CF_LIST;
		const void *arr = list ? catalog_slot_ptr(orig, f->off) : NULL;
		size_t n = list ? catalog_slot_count(orig, f->off_n) : 0;
		if (f->type == CF_STRLIST) {
			put_array(&w->b, at + f->off, arr, n, sizeof(char *));
		} else if (f->type == CF_LIST) {
			size_t sub = put_array(&w->b, at + f->off, arr, n, f->sub->size);
			for (size_t j = 0; arr && j < n; j++)
				put_arrays(w, f->sub, sub + j * f->sub->size,
					   (const char *)arr + j * f->sub->size);
		} else if (f->type == CF_ACCEL_REF) {
			const struct catalog_accel *a = catalog_slot_ptr(orig, f->off_n), *all = w->c->accels;
			uintptr_t v = 0;
			if (a && (a < all || a >= all + w->c->n_accels))
				w->foreign = true;
			else if (a)
				v = (uintptr_t)(a - all) + 1;
			slot_set(w->b.p, at + f->off_n, v);
		}
	}
}

/* Appends string s and stores its offset + 1 in the slot at slot_off. */
static void put_str(struct buf *b, size_t slot_off, const char *s)
{
	if (!s) {
		if (!b->oom)
			slot_set(b->p, slot_off, 0);
		return;
	}
	size_t at = b->len;
	buf_add(b, s, strlen(s) + 1);
	if (!b->oom)
		slot_set(b->p, slot_off, at + 1);
}

static const char *file_str(const struct writer *w, const char *file)
{
	if (file && w->strip && !strncmp(file, w->c->dir, strlen(w->c->dir)) &&
	    strlen(file) >= w->strip)
		return file + w->strip;
	return file;
}

static void put_strs(struct writer *w, const struct catalog_schema *s, size_t at, const void *orig)
{
	for (size_t i = 0; i < s->n && !w->b.oom; i++) {
		const struct catalog_field *f = &s->f[i];
		/* a pointer only where the field holds one (see put_arrays) */
		const char *const *arr = f->type == CF_STRLIST || f->type == CF_LIST
					 ? catalog_slot_ptr(orig, f->off) : NULL;
		if (catalog_field_is_str(f)) {
			put_str(&w->b, at + f->off, catalog_slot_ptr(orig, f->off));
		} else if (f->type == CF_STRLIST && arr) {
			size_t list = slot_get(w->b.p, at + f->off) - 1;
			for (size_t j = 0; j < catalog_slot_count(orig, f->off_n); j++)
				put_str(&w->b, list + j * sizeof(char *), arr[j]);
		} else if (f->type == CF_LIST && arr) {
			size_t sub = slot_get(w->b.p, at + f->off) - 1;
			for (size_t j = 0; j < catalog_slot_count(orig, f->off_n); j++)
				put_strs(w, f->sub, sub + j * f->sub->size,
					 (const char *)arr + j * f->sub->size);
		}
	}
	if (s->has_file && !w->b.oom)
		put_str(&w->b, at + s->file_off, file_str(w, catalog_slot_ptr(orig, s->file_off)));
}

/* Writes with put (put_arrays or put_strs) every item of every kind, at
 * items[kind] in the blob. */
static void put_items(struct writer *w, const struct catalog *c, const size_t *items,
		      void (*put)(struct writer *, const struct catalog_schema *, size_t, const void *))
{
	for (size_t k = 0; k < CATALOG_N_KINDS; k++) {
		const struct catalog_schema *s = catalog_kinds[k].s;
		size_t n;
		const char *arr = catalog_kind_items(c, k, &n);
		for (size_t i = 0; arr && i < n; i++)
			put(w, s, items[k] + i * s->size, arr + i * s->size);
	}
}

bool catalog_image_build(const struct catalog *c, bool relative, struct catalog_blob *out)
{
	struct writer w = { .c = c };
	memset(out, 0, sizeof *out);
	if (relative && c->dir)
		w.strip = strlen(c->dir) + (c->dir[0] && c->dir[strlen(c->dir) - 1] != '/');
	buf_add(&w.b, c, sizeof *c);
	if (w.b.oom)
		return false;
	/* the index is rebuilt by the reader; image_ is set there */
	slot_set(w.b.p, offsetof(struct catalog, plat_by_accel_), 0);
	slot_set(w.b.p, offsetof(struct catalog, plat_start_), 0);
	((struct catalog *)(void *)w.b.p)->image_ = false;
	/* the band table is kept beside the blob, not in it */
	slot_set(w.b.p, offsetof(struct catalog, bands_), 0);
	((struct catalog *)(void *)w.b.p)->n_bands_ = 0;
	((struct catalog *)(void *)w.b.p)->bands_owned_ = false;

	size_t items[CATALOG_N_KINDS];
	for (size_t k = 0; k < CATALOG_N_KINDS; k++) {
		size_t n;
		const void *arr = catalog_kind_items(c, k, &n);
		items[k] = put_array(&w.b, catalog_kinds[k].arr_off, arr, n, catalog_kinds[k].s->size);
	}
	put_items(&w, c, items, put_arrays);
	size_t def = offsetof(struct catalog, defaults);
	put_arrays(&w, &catalog_defaults_schema, def, &c->defaults);

	out->str_start = w.b.len;
	put_str(&w.b, offsetof(struct catalog, dir), relative ? "" : c->dir);
	put_strs(&w, &catalog_defaults_schema, def, &c->defaults);
	put_items(&w, c, items, put_strs);
	if (w.b.oom || w.foreign) {
		free(w.b.p);
		return false;
	}
	out->p = w.b.p;
	out->len = w.b.len;
	return true;
}

/* ---- reading ---- */

struct fix {
	unsigned char *p;
	size_t len, str_start;
	size_t cursor;		/* where the next array must start */
	const unsigned char *strs;	/* the blob the strings are read from: p, or
					 * the built-in image they stay in */
};

/* The string slot at p + off: NULL, or a string starting inside the
 * string area (which fix_up() checked ends with a NUL, so every string
 * in it is terminated). */
static bool fix_str(const struct fix *f, size_t off)
{
	uintptr_t v = slot_get(f->p, off);
	char *s = NULL;
	if (v) {
		size_t at = v - 1;
		if (at < f->str_start || at >= f->len)
			return false;
		s = (char *)(uintptr_t)(f->strs + at);	/* never written through */
	}
	memcpy(f->p + off, &s, sizeof s);
	return true;
}

/* The array slot at p + off with n items of sz bytes: NULL with no items,
 * or exactly at the next boundary, wholly before the strings.  *at gets
 * its offset. */
static bool fix_array(struct fix *f, size_t off, size_t n, size_t sz, size_t *at)
{
	uintptr_t v = slot_get(f->p, off);
	void *ptr = NULL;
	*at = 0;
	if (v) {
		size_t want = align_up(f->cursor);
		if (v - 1 != want || want > f->str_start || n > (f->str_start - want) / sz)
			return false;
		*at = want;
		f->cursor = want + n * sz;
		ptr = f->p + want;
	} else if (n) {
		return false;
	}
	memcpy(f->p + off, &ptr, sizeof ptr);
	return true;
}

/* An int-sized enum slot in 0 .. count - 1, a bool slot 0 or 1. */
static bool scalar_ok(const struct catalog_field *f, const unsigned char *item)
{
	if (f->type == CF_ENUM) {
		int v;
		memcpy(&v, item + f->off, sizeof v);
		return v >= 0 && v < f->count;
	}
	if (f->type == CF_BOOL)
		return item[f->off] <= 1;
	return true;
}

/* The arrays, enums, flags and references of the item at `at`, in the
 * writer's order. */
static bool fix_arrays(struct fix *f, const struct catalog_schema *s, size_t at)
{
	const struct catalog *c = (const struct catalog *)(void *)f->p;
	for (size_t i = 0; i < s->n; i++) {
		const struct catalog_field *r = &s->f[i];
		unsigned char *item = f->p + at;
		size_t arr;
		if (!scalar_ok(r, item))
			return false;
		if (r->type == CF_STRLIST) {
			if (!fix_array(f, at + r->off, catalog_slot_count(item, r->off_n), sizeof(char *), &arr))
				return false;
		} else if (r->type == CF_LIST) {
			size_t n = catalog_slot_count(item, r->off_n);
			if (!fix_array(f, at + r->off, n, r->sub->size, &arr))
				return false;
			for (size_t j = 0; j < n; j++)
				if (!fix_arrays(f, r->sub, arr + j * r->sub->size))
					return false;
		} else if (r->type == CF_ACCEL_REF) {
			uintptr_t v = slot_get(item, r->off_n);
			const struct catalog_accel *a = NULL;
			if (v) {
				if (v - 1 >= c->n_accels)
					return false;
				a = &c->accels[v - 1];
			} else if (r->flags & CF_REQ) {
				return false;	/* a valid catalog resolves every one */
			}
			memcpy(item + r->off_n, &a, sizeof a);
		}
	}
	return true;
}

/* The strings of the item at `at` (its arrays already in place); an id
 * and a file are never NULL in a valid catalog. */
static bool fix_strs(struct fix *f, const struct catalog_schema *s, size_t at)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct catalog_field *r = &s->f[i];
		if (catalog_field_is_str(r)) {
			if (!fix_str(f, at + r->off) || (r->type == CF_ID && !catalog_slot_ptr(f->p + at, r->off)))
				return false;
		} else if (r->type == CF_STRLIST || r->type == CF_LIST) {
			const unsigned char *arr = catalog_slot_ptr(f->p + at, r->off);
			size_t n = catalog_slot_count(f->p + at, r->off_n);
			size_t sz = r->type == CF_LIST ? r->sub->size : sizeof(char *);
			for (size_t j = 0; arr && j < n; j++) {
				size_t e = (size_t)(arr - f->p) + j * sz;
				if (r->type == CF_LIST ? !fix_strs(f, r->sub, e) : !fix_str(f, e))
					return false;
			}
		}
	}
	if (s->has_file && (!fix_str(f, at + s->file_off) || !catalog_slot_ptr(f->p + at, s->file_off)))
		return false;
	return true;
}

/* Fixes with fix (fix_arrays or fix_strs) every item of every kind, at
 * items[kind]. */
static bool fix_items(struct fix *f, const size_t *items,
		      bool (*fix)(struct fix *, const struct catalog_schema *, size_t))
{
	for (size_t k = 0; k < CATALOG_N_KINDS; k++) {
		const struct catalog_schema *s = catalog_kinds[k].s;
		size_t n = catalog_slot_count(f->p, catalog_kinds[k].n_off);
		for (size_t i = 0; i < n; i++)
			if (!fix(f, s, items[k] + i * s->size))
				return false;
	}
	return true;
}

/* Turns the blob at p into a catalog in place; false when anything is out
 * of place. */
static bool fix_up(unsigned char *p, size_t len, size_t str_start, const unsigned char *strs,
		   bool check_values)
{
	struct fix f = { p, len, str_start, sizeof(struct catalog), strs };
	if (len < sizeof(struct catalog) || str_start >= len || str_start < sizeof(struct catalog) ||
	    strs[len - 1] != '\0')
		return false;
	struct catalog *c = (struct catalog *)(void *)p;
	/* counts are read before their arrays are placed; fix_array()
	 * bounds them by the bytes that are there */
	size_t items[CATALOG_N_KINDS];
	for (size_t k = 0; k < CATALOG_N_KINDS; k++)
		if (!fix_array(&f, catalog_kinds[k].arr_off, catalog_slot_count(p, catalog_kinds[k].n_off),
			       catalog_kinds[k].s->size, &items[k]))
			return false;
	if (!fix_items(&f, items, fix_arrays))
		return false;
	size_t def = offsetof(struct catalog, defaults);
	if (!fix_arrays(&f, &catalog_defaults_schema, def))
		return false;

	/* the strings: every slot, arrays already in place */
	if (!fix_str(&f, offsetof(struct catalog, dir)) || !c->dir ||
	    !fix_strs(&f, &catalog_defaults_schema, def) || !fix_items(&f, items, fix_strs))
		return false;
	/* the rest of the program relies on at least one accelerator; the
	 * figures are checked too: the engine divides by some of them, and a
	 * checksum only tells damage, not a forged image, apart */
	return c->n_accels > 0 && (!check_values || catalog_values_ok(c));
}

/* Bytes the files of the blob's items need when spelled under a folder of
 * dlen bytes: at most the string area again plus one folder per file. */
static size_t placed_extra(const unsigned char *img, size_t len, size_t str_start, size_t dlen)
{
	size_t files = 2;	/* defaults.yaml and dir itself */
	for (size_t k = 0; k < CATALOG_N_KINDS; k++) {
		size_t n = catalog_slot_count(img, catalog_kinds[k].n_off);
		if (n > len)
			return SIZE_MAX;	/* foreign: fix_up() refuses it */
		files += n;
	}
	return (len - str_start) + files * (dlen + 2);
}

/* dir + "/" + rel at *end, as catalog_load() joins them; returns it. */
static char *place(char **end, const char *dir, size_t dlen, const char *rel)
{
	char *s = *end;
	memcpy(s, dir, dlen);
	size_t n = dlen;
	if (dlen && dir[dlen - 1] != '/')
		s[n++] = '/';
	size_t rlen = strlen(rel);
	memcpy(s + n, rel, rlen + 1);
	*end = s + n + rlen + 1;
	return s;
}

static void place_files(struct catalog *c, char *end, const char *dir)
{
	size_t dlen = strlen(dir);
	memcpy(end, dir, dlen + 1);
	c->dir = end;
	end += dlen + 1;
	c->defaults.file = place(&end, dir, dlen, c->defaults.file);
	for (size_t k = 0; k < CATALOG_N_KINDS; k++) {
		const struct catalog_schema *s = catalog_kinds[k].s;
		size_t n;
		char *arr = catalog_kind_items(c, k, &n);
		for (size_t i = 0; i < n; i++) {
			char *item = arr + i * s->size;
			char *file = (char *)catalog_slot_ptr(item, s->file_off);
			file = place(&end, dir, dlen, file);
			memcpy(item + s->file_off, &file, sizeof file);
		}
	}
}

/* A fixed-up blob as a catalog: one block catalog_free() frees, with no
 * band table of its own (the front end attaches one), indexed as a loaded
 * catalog is.  False when the index cannot be built. */
static bool as_image(struct catalog *c)
{
	c->plat_by_accel_ = NULL;
	c->plat_start_ = NULL;
	c->image_ = true;
	c->bands_ = NULL;
	c->n_bands_ = 0;
	c->bands_owned_ = false;
	return catalog_index(c);
}

struct catalog *catalog_image_open(const void *img, size_t len, size_t str_start, const char *dir,
				   bool built_in)
{
	if (!img || len < sizeof(struct catalog) || str_start > len)
		return NULL;
	size_t extra = dir ? placed_extra(img, len, str_start, strlen(dir)) : 0;
	/* a built-in image's strings stay where they are: only the structs
	 * and arrays before them are copied to be fixed up */
	size_t copy = built_in ? str_start : len;
	if (extra == SIZE_MAX || copy > SIZE_MAX - extra)
		return NULL;
	unsigned char *p = malloc(copy + extra);
	if (!p)
		return NULL;
	memcpy(p, img, copy);
	if (!fix_up(p, len, str_start, built_in ? img : p, !built_in)) {
		free(p);
		return NULL;
	}
	struct catalog *c = (struct catalog *)(void *)p;
	if (dir)
		place_files(c, (char *)p + copy, dir);
	if (!as_image(c)) {
		free(p);
		return NULL;
	}
	return c;
}

struct catalog *catalog_image_adopt(unsigned char *blob, size_t len, size_t str_start)
{
	if (!blob || !fix_up(blob, len, str_start, blob, true))
		return NULL;
	struct catalog *c = (struct catalog *)(void *)blob;
	return as_image(c) ? c : NULL;
}

/* ---- the content key ---- */

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A name the loader looks at: not hidden, .yaml (read) or .yml (refused,
 * so its appearance must change a key). */
static bool loader_name(const char *name)
{
	size_t len = strlen(name);
	if (name[0] == '.')
		return false;
	return (len > 5 && !strcmp(name + len - 5, ".yaml")) ||
	       (len > 4 && !strcmp(name + len - 4, ".yml"));
}

void catalog_image_names_free(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

bool catalog_image_folder_names(const char *root, const char *sub, char ***out, size_t *count)
{
	char path[PATH_MAX];
	*out = NULL;
	*count = 0;
	int len = snprintf(path, sizeof path, "%s/%s", root, sub);
	if (len < 0 || (size_t)len >= sizeof path)
		return false;
	DIR *d = opendir(path);
	if (!d)
		return false;
	size_t cnt = 0, cap = 64;
	char **names = malloc(cap * sizeof *names);
	bool ok = names != NULL;
	struct dirent *e;
	while (ok && (e = readdir(d))) {
		if (!loader_name(e->d_name))
			continue;
		if (cnt == cap) {
			char **nn = cap < 65536 ? realloc(names, (cap *= 2) * sizeof *names) : NULL;
			ok = nn != NULL;
			if (!ok)
				break;
			names = nn;
		}
		if (!(names[cnt] = strdup(e->d_name)))
			ok = false;
		else
			cnt++;
	}
	closedir(d);
	if (!ok) {
		catalog_image_names_free(names, cnt);
		return false;
	}
	qsort(names, cnt, sizeof *names, cmp_name);
	*out = names;
	*count = cnt;
	return true;
}

#define LEDGER_ABSENT "no " CATALOG_IMAGE_LEDGER_DIR

int catalog_image_ledger_absent(const char *dir)
{
	return catalog_image_folder_absent(dir, CATALOG_IMAGE_LEDGER_DIR);
}

int catalog_image_folder_absent(const char *dir, const char *sub)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof path, "%s/%s", dir, sub);
	if (n < 0 || (size_t)n >= sizeof path)
		return -1;
	struct stat st;
	if (stat(path, &st) == 0)
		return 0;
	return errno == ENOENT ? 1 : -1;
}

/* The content key is written to a sink: into a buffer (the build's
 * generator), or compared as it is read with a key already made (every
 * run), so a run never holds a second copy of the folder. */
struct sink {
	struct buf *b;			/* building, or */
	const unsigned char *want;	/* comparing with want[0..want_len) */
	size_t want_len, at;
	bool differs;
};

static void sink(struct sink *k, const void *p, size_t n)
{
	if (k->b) {
		buf_add(k->b, p, n);
		return;
	}
	if (k->differs || n > k->want_len - k->at || memcmp(k->want + k->at, p, n))
		k->differs = true;
	else
		k->at += n;
}

static bool sink_ok(const struct sink *k)
{
	return k->b ? !k->b->oom : !k->differs;
}

/* "name\0", the size and the bytes of file path: the key holds the
 * content itself, so no two different folders share one. */
static bool key_file(struct sink *k, const char *path, const char *name)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	struct stat st;
	bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= (64 << 20);
	uint64_t size = ok ? (uint64_t)st.st_size : 0, seen = 0;
	sink(k, name, strlen(name) + 1);
	sink(k, &size, sizeof size);
	unsigned char chunk[16384];
	while (ok && sink_ok(k)) {
		ssize_t r = read(fd, chunk, sizeof chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			ok = false;
		if (r <= 0)
			break;
		sink(k, chunk, (size_t)r);
		seen += (uint64_t)r;
	}
	close(fd);
	return ok && seen == size && sink_ok(k);
}

static bool key_folder(struct sink *k, const char *root, const char *sub)
{
	char **names;
	size_t cnt;
	if (!catalog_image_folder_names(root, sub, &names, &cnt))
		return false;
	uint64_t n64 = cnt;
	sink(k, sub, strlen(sub) + 1);
	sink(k, &n64, sizeof n64);
	bool ok = sink_ok(k);
	/* root/sub/ once, then each name after it */
	char path[PATH_MAX];
	size_t rl = strlen(root), sl = strlen(sub), at = rl + 1 + sl + 1;
	ok = ok && at < sizeof path;
	if (ok) {
		memcpy(path, root, rl);
		path[rl] = '/';
		memcpy(path + rl + 1, sub, sl);
		path[at - 1] = '/';
	}
	for (size_t i = 0; ok && i < cnt; i++) {
		size_t nl = strlen(names[i]);
		ok = at + nl < sizeof path;
		if (ok) {
			memcpy(path + at, names[i], nl + 1);
			ok = key_file(k, path, names[i]);
		}
	}
	catalog_image_names_free(names, cnt);
	return ok;
}

static bool content_key(struct sink *k, const char *dir)
{
	bool ok = true;
	for (size_t i = 0; ok && i < CATALOG_N_KINDS; i++) {
		/* an optional folder that is missing is keyed as missing */
		int gone = catalog_kinds[i].optional ? catalog_image_folder_absent(dir, catalog_kinds[i].dir) : 0;
		if (gone > 0) {
			sink(k, "no ", 3);
			sink(k, catalog_kinds[i].dir, strlen(catalog_kinds[i].dir) + 1);
		} else {
			ok = gone == 0 && key_folder(k, dir, catalog_kinds[i].dir);
		}
	}
	char path[PATH_MAX];
	int n = snprintf(path, sizeof path, "%s/defaults.yaml", dir);
	ok = ok && n > 0 && (size_t)n < sizeof path && key_file(k, path, "defaults.yaml");
	/* the ledger, whose error bands the image keeps (an absent folder is
	 * an empty ledger, and keyed as such) */
	int absent = catalog_image_ledger_absent(dir);
	if (ok && absent > 0)
		sink(k, LEDGER_ABSENT, sizeof LEDGER_ABSENT);
	return ok && absent == 0 ? key_folder(k, dir, CATALOG_IMAGE_LEDGER_DIR)
			       : ok && absent > 0 && sink_ok(k);
}

bool catalog_image_content_key(const char *dir, unsigned char **key, size_t *len)
{
	struct buf b = { 0 };
	struct sink k = { .b = &b };
	*key = NULL;
	*len = 0;
	if (!content_key(&k, dir) || b.oom) {
		free(b.p);
		return false;
	}
	*key = b.p;
	*len = b.len;
	return true;
}

bool catalog_image_content_is(const char *dir, const unsigned char *key, size_t len)
{
	struct sink k = { .want = key, .want_len = len };
	return content_key(&k, dir) && k.at == len;
}
