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
 *   blob     struct catalog at offset 0; then the arrays, each at the next
 *            16-byte boundary, in a fixed order: accelerators, platforms,
 *            fabrics, models, then per accelerator its partitions and
 *            sources list, per
 *            platform its BOM lines and sources list, per fabric and per
 *            model its sources list; then every string, NUL-terminated.
 *
 * Every pointer in the blob holds offset + 1 instead (0 for NULL), except
 * platform->accel, which holds the accelerator's index + 1.  The reader
 * walks the same order and insists that each array sits exactly where the
 * writer would have put it: arrays cannot overlap each other, the header
 * or the strings, so a fix-up never rewrites a slot another check already
 * read.  The blob is read into one malloc'd block that becomes the struct
 * catalog itself (catalog->image_), and pointers are fixed up in place.
 */
#include "catalog_cache.h"

#include "atomic.h"
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The tables below list every pointer of every catalog struct.  A field
 * added to a struct without a row here would be copied as a raw pointer:
 * these sizes make such a change fail to compile until the tables and
 * CATALOG_CACHE_LAYOUT are updated.
 */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(struct catalog_accel) == 384, "update catalog_cache.c and CATALOG_CACHE_LAYOUT");
_Static_assert(sizeof(struct catalog_platform) == 176, "update catalog_cache.c and CATALOG_CACHE_LAYOUT");
_Static_assert(sizeof(struct catalog_partition) == 24, "update catalog_cache.c and CATALOG_CACHE_LAYOUT");
_Static_assert(sizeof(struct catalog_bom_line) == 56, "update catalog_cache.c and CATALOG_CACHE_LAYOUT");
_Static_assert(sizeof(struct catalog_fabric) == 200, "update catalog_cache.c and CATALOG_CACHE_LAYOUT");
_Static_assert(sizeof(struct catalog_model) == 160, "update catalog_cache.c and CATALOG_CACHE_LAYOUT");
_Static_assert(sizeof(struct catalog) == 928, "update catalog_cache.c and CATALOG_CACHE_LAYOUT");
#endif
_Static_assert(sizeof(uintptr_t) == sizeof(char *), "pointer slots hold a uintptr_t");

#define MAGIC "ACSZCAT\x01"
#define BYTE_ORDER_MARK 0x01020304u
#define ALIGN 16
#define MAX_BLOB (64u << 20)	/* far beyond any catalog; a bigger file is foreign */
#define MAX_KEY (16u << 20)

#define header catalog_cache_header

/* ---- string slots of each struct ---- */

#define S(type, field) offsetof(struct type, field)

static const size_t accel_strs[] = {
	S(catalog_accel, id), S(catalog_accel, name), S(catalog_accel, vendor),
	S(catalog_accel, architecture), S(catalog_accel, mem_type), S(catalog_accel, link_kind),
	S(catalog_accel, host_interface),
	S(catalog_accel, eff_compute.source), S(catalog_accel, eff_mem_bw.source),
	S(catalog_accel, eff_link.source), S(catalog_accel, eff_training.source),
	S(catalog_accel, eff_compute.calibrated_from), S(catalog_accel, eff_mem_bw.calibrated_from),
	S(catalog_accel, eff_link.calibrated_from), S(catalog_accel, eff_training.calibrated_from),
	S(catalog_accel, price.date), S(catalog_accel, price.source), S(catalog_accel, file),
};

static const size_t platform_strs[] = {
	S(catalog_platform, id), S(catalog_platform, name), S(catalog_platform, accel_id),
	S(catalog_platform, nic_kind), S(catalog_platform, sku), S(catalog_platform, cooling),
	S(catalog_platform, price.date),
	S(catalog_platform, price.source), S(catalog_platform, file),
};

static const size_t bom_strs[] = {
	S(catalog_bom_line, sku), S(catalog_bom_line, category),
	S(catalog_bom_line, description), S(catalog_bom_line, source),
};

static const size_t partition_strs[] = {
	S(catalog_partition, profile),
};

static const size_t fabric_strs[] = {
	S(catalog_fabric, id), S(catalog_fabric, name), S(catalog_fabric, kind),
	S(catalog_fabric, switch_sku), S(catalog_fabric, switch_name),
	S(catalog_fabric, cable_sku), S(catalog_fabric, cable_description),
	S(catalog_fabric, nic_sku), S(catalog_fabric, nic_description),
	S(catalog_fabric, efficiency.source), S(catalog_fabric, efficiency.calibrated_from),
	S(catalog_fabric, file),
};

static const size_t model_strs[] = {
	S(catalog_model, id), S(catalog_model, name), S(catalog_model, family),
	S(catalog_model, file),
};

static const size_t catalog_strs[] = {
	S(catalog, dir),
#define X(name, unit, doc) S(catalog, defaults.name.source), S(catalog, defaults.name.calibrated_from),
	CATALOG_DEFAULTS(X)
#undef X
	S(catalog, defaults.version), S(catalog, defaults.file),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- small helpers ---- */

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

/* A checksum against damage, not against forgery (nothing secret exists
 * to key one with): 64-bit words folded with a multiply and a rotation. */
static uint64_t checksum(uint64_t h, const unsigned char *p, size_t n)
{
	const uint64_t k = 0x9E3779B97F4A7C15u;
	size_t i = 0;
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

/* ---- a growable byte buffer ---- */

struct buf {
	unsigned char *p;
	size_t len, cap;
	bool oom;
};

static bool buf_grow(struct buf *b, size_t need)
{
	if (b->oom)
		return false;
	if (need > SIZE_MAX / 2) {
		b->oom = true;
		return false;
	}
	if (need <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < need)
		cap *= 2;
	unsigned char *p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	memset(p + b->cap, 0, cap - b->cap);	/* padding is written as zeros */
	b->p = p;
	b->cap = cap;
	return true;
}

static void buf_add(struct buf *b, const void *src, size_t n)
{
	if (!buf_grow(b, b->len + n))
		return;
	if (n)
		memcpy(b->p + b->len, src, n);
	b->len += n;
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

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool catalog_name(const char *name)
{
	size_t len = strlen(name);
	if (name[0] == '.')
		return false;	/* the loader skips hidden files */
	/* .yml files are refused by the loader: one appearing must change
	 * the key so that the refusal is reported */
	return (len > 5 && !strcmp(name + len - 5, ".yaml")) ||
	       (len > 4 && !strcmp(name + len - 4, ".yml"));
}

/* The names of folder that the loader looks at, sorted, each with its
 * stat; false when the folder cannot be read (the loader reports that). */
static bool key_folder(struct buf *k, const char *root, const char *sub)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof path, "%s/%s", root, sub);
	if (n < 0 || (size_t)n >= sizeof path)
		return false;
	DIR *d = opendir(path);
	if (!d)
		return false;
	size_t cnt = 0, cap = 64;
	char **names = malloc(cap * sizeof *names);
	bool ok = names != NULL;
	struct dirent *e;
	while (ok && (e = readdir(d))) {
		if (!catalog_name(e->d_name))
			continue;
		if (cnt == cap) {
			char **nn = cap < 65536 ? realloc(names, (cap *= 2) * sizeof *names) : NULL;
			if (!nn) {
				ok = false;
				break;
			}
			names = nn;
		}
		if (!(names[cnt] = strdup(e->d_name))) {
			ok = false;
			break;
		}
		cnt++;
	}
	closedir(d);
	if (ok)
		qsort(names, cnt, sizeof *names, cmp_name);
	key_str(k, sub);
	key_u64(k, cnt);
	for (size_t i = 0; ok && i < cnt; i++) {
		n = snprintf(path, sizeof path, "%s/%s/%s", root, sub, names[i]);
		key_str(k, names[i]);
		ok = n > 0 && (size_t)n < sizeof path && key_stat(k, path);
	}
	for (size_t i = 0; i < cnt; i++)
		free(names[i]);
	free(names);
	return ok;
}

/* The key of folder dir as it is now; false when it cannot be made (the
 * folder is then simply parsed). */
static bool make_key(struct buf *k, const char *dir, const char *abs)
{
	key_str(k, "accelsizer catalog cache");
	key_str(k, PACKAGE_VERSION);
	key_u64(k, CATALOG_CACHE_LAYOUT);
	key_u64(k, sizeof(struct catalog));
	key_u64(k, sizeof(struct catalog_accel));
	key_u64(k, sizeof(struct catalog_platform));
	key_u64(k, sizeof(struct catalog_bom_line));
	key_u64(k, sizeof(struct catalog_partition));
	key_u64(k, sizeof(struct catalog_fabric));
	key_u64(k, sizeof(struct catalog_model));
	/* The program itself: a rebuilt binary may validate differently
	 * under the same version number. */
	if (!key_stat(k, "/proc/self/exe"))
		key_u64(k, 0);
	key_str(k, abs);
	key_str(k, dir);	/* the file fields are spelled from it */
	static const char *const subs[] = { "accelerators", "platforms", "fabrics", "models" };
	for (size_t i = 0; i < N(subs); i++)
		if (!key_folder(k, abs, subs[i]))
			return false;
	char path[PATH_MAX];
	int n = snprintf(path, sizeof path, "%s/defaults.yaml", abs);
	if (n < 0 || (size_t)n >= sizeof path)
		return false;
	key_str(k, "defaults.yaml");
	if (!key_stat(k, path))
		return false;
	return !k->oom;
}

/* ---- writing the image ---- */

/* Copies n items of size sz at src into the blob at the next boundary and
 * stores offset + 1 (0 for NULL) in the slot at slot_off. */
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

/* Appends the string the original struct at orig holds at field off and
 * stores its offset + 1 in the image's slot at base + off. */
static void put_str(struct buf *b, size_t base, const void *orig, size_t off)
{
	const char *s;
	memcpy(&s, (const char *)orig + off, sizeof s);
	if (!s) {
		if (!b->oom)
			slot_set(b->p, base + off, 0);
		return;
	}
	size_t at = b->len;
	buf_add(b, s, strlen(s) + 1);
	if (!b->oom)
		slot_set(b->p, base + off, at + 1);
}

static void put_strs(struct buf *b, size_t base, const void *orig, const size_t *offs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_str(b, base, orig, offs[i]);
}

static void put_list(struct buf *b, size_t arr, char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_str(b, arr, list, i * sizeof(char *));
}

/* The blob of c in b; false when out of memory. */
static bool build_image(struct buf *b, const struct catalog *c, uint64_t *str_start)
{
	buf_add(b, c, sizeof *c);
	if (b->oom)
		return false;
	/* the index is rebuilt by the reader; image_ is set there */
	slot_set(b->p, offsetof(struct catalog, plat_by_accel_), 0);
	slot_set(b->p, offsetof(struct catalog, plat_start_), 0);
	((struct catalog *)(void *)b->p)->image_ = false;

	size_t acc = put_array(b, offsetof(struct catalog, accels), c->accels, c->n_accels,
			       sizeof *c->accels);
	size_t plt = put_array(b, offsetof(struct catalog, platforms), c->platforms,
			       c->n_platforms, sizeof *c->platforms);
	size_t fab = put_array(b, offsetof(struct catalog, fabrics), c->fabrics, c->n_fabrics,
			       sizeof *c->fabrics);
	size_t mod = put_array(b, offsetof(struct catalog, models), c->models, c->n_models,
			       sizeof *c->models);
	if (b->oom)
		return false;

	/* platform->accel as an index */
	for (size_t i = 0; i < c->n_platforms; i++) {
		const struct catalog_accel *a = c->platforms[i].accel;
		uintptr_t v = 0;
		if (a) {
			if (a < c->accels || a >= c->accels + c->n_accels)
				return false;	/* not this catalog's: not cacheable */
			v = (uintptr_t)(a - c->accels) + 1;
		}
		slot_set(b->p, plt + i * sizeof *c->platforms + offsetof(struct catalog_platform, accel), v);
	}

	/* the lists, in the order the reader expects them */
	size_t *src_acc = calloc(c->n_accels + 1, sizeof *src_acc);
	size_t *part_acc = calloc(c->n_accels + 1, sizeof *part_acc);
	size_t *src_plt = calloc(c->n_platforms + 1, sizeof *src_plt);
	size_t *bom_plt = calloc(c->n_platforms + 1, sizeof *bom_plt);
	size_t *src_fab = calloc(c->n_fabrics + 1, sizeof *src_fab);
	size_t *src_mod = calloc(c->n_models + 1, sizeof *src_mod);
	bool ok = src_acc && part_acc && src_plt && bom_plt && src_fab && src_mod;
	for (size_t i = 0; ok && i < c->n_accels; i++) {
		size_t it = acc + i * sizeof *c->accels;
		part_acc[i] = put_array(b, it + offsetof(struct catalog_accel, partitions),
					c->accels[i].partitions, c->accels[i].n_partitions,
					sizeof *c->accels[i].partitions);
		src_acc[i] = put_array(b, it + offsetof(struct catalog_accel, sources),
				       c->accels[i].sources, c->accels[i].n_sources, sizeof(char *));
	}
	for (size_t i = 0; ok && i < c->n_platforms; i++) {
		size_t it = plt + i * sizeof *c->platforms;
		bom_plt[i] = put_array(b, it + offsetof(struct catalog_platform, bom), c->platforms[i].bom,
				       c->platforms[i].n_bom, sizeof *c->platforms[i].bom);
		src_plt[i] = put_array(b, it + offsetof(struct catalog_platform, sources),
				       c->platforms[i].sources, c->platforms[i].n_sources, sizeof(char *));
	}
	for (size_t i = 0; ok && i < c->n_fabrics; i++)
		src_fab[i] = put_array(b, fab + i * sizeof *c->fabrics + offsetof(struct catalog_fabric, sources),
				       c->fabrics[i].sources, c->fabrics[i].n_sources, sizeof(char *));
	for (size_t i = 0; ok && i < c->n_models; i++)
		src_mod[i] = put_array(b, mod + i * sizeof *c->models + offsetof(struct catalog_model, sources),
				       c->models[i].sources, c->models[i].n_sources, sizeof(char *));

	/* then the strings */
	*str_start = b->len;
	if (ok) {
		put_strs(b, 0, c, catalog_strs, N(catalog_strs));
		for (size_t i = 0; i < c->n_accels; i++) {
			const struct catalog_accel *a = &c->accels[i];
			put_strs(b, acc + i * sizeof *a, a, accel_strs, N(accel_strs));
			for (size_t j = 0; j < a->n_partitions; j++)
				put_strs(b, part_acc[i] + j * sizeof *a->partitions, &a->partitions[j],
					 partition_strs, N(partition_strs));
			put_list(b, src_acc[i], a->sources, a->n_sources);
		}
		for (size_t i = 0; i < c->n_platforms; i++) {
			const struct catalog_platform *p = &c->platforms[i];
			put_strs(b, plt + i * sizeof *p, p, platform_strs, N(platform_strs));
			for (size_t j = 0; j < p->n_bom; j++)
				put_strs(b, bom_plt[i] + j * sizeof *p->bom, &p->bom[j], bom_strs, N(bom_strs));
			put_list(b, src_plt[i], p->sources, p->n_sources);
		}
		for (size_t i = 0; i < c->n_fabrics; i++) {
			const struct catalog_fabric *f = &c->fabrics[i];
			put_strs(b, fab + i * sizeof *f, f, fabric_strs, N(fabric_strs));
			put_list(b, src_fab[i], f->sources, f->n_sources);
		}
		for (size_t i = 0; i < c->n_models; i++) {
			const struct catalog_model *m = &c->models[i];
			put_strs(b, mod + i * sizeof *m, m, model_strs, N(model_strs));
			put_list(b, src_mod[i], m->sources, m->n_sources);
		}
	}
	free(src_acc);
	free(part_acc);
	free(src_plt);
	free(bom_plt);
	free(src_fab);
	free(src_mod);
	return ok && !b->oom;
}

struct image_out {
	const struct header *h;
	const struct buf *key, *blob;
};

static bool write_image(FILE *fp, void *ctx, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	const struct image_out *o = ctx;
	return fwrite(o->h, sizeof *o->h, 1, fp) == 1 &&
	       fwrite(o->key->p, 1, o->key->len, fp) == o->key->len &&
	       fwrite(o->blob->p, 1, o->blob->len, fp) == o->blob->len;
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
		 const struct catalog *c)
{
	struct buf blob = { 0 };
	struct header h = { .magic = MAGIC };
	bool ok = build_image(&blob, c, &h.str_start);
	if (ok) {
		h.layout = CATALOG_CACHE_LAYOUT;
		h.byte_order = BYTE_ORDER_MARK;
		h.ptr_size = sizeof(void *);
		h.key_len = key->len;
		h.blob_len = blob.len;
		h.sum = checksum(checksum(0, key->p, key->len), blob.p, blob.len);
		make_dirs(cache_dir);
		char err[256];
		struct image_out o = { &h, key, &blob };
		ok = atomic_write(path, write_image, &o, err, sizeof err);
	}
	free(blob.p);
	return ok;
}

/* ---- reading the image ---- */

struct fix {
	unsigned char *p;
	size_t len, str_start;
	size_t cursor;		/* where the next array must start */
};

/* The string slot at p + off: NULL, or a NUL-terminated string inside the
 * string area. */
static bool fix_str(const struct fix *f, size_t off)
{
	uintptr_t v = slot_get(f->p, off);
	char *s = NULL;
	if (v) {
		size_t at = v - 1;
		if (at < f->str_start || at >= f->len || !memchr(f->p + at, 0, f->len - at))
			return false;
		s = (char *)f->p + at;
	}
	memcpy(f->p + off, &s, sizeof s);
	return true;
}

static bool fix_strs(const struct fix *f, size_t base, const size_t *offs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!fix_str(f, base + offs[i]))
			return false;
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

static bool enum_ok(const void *base, size_t off, size_t size, int count)
{
	int v;
	if (size != sizeof v)
		return false;
	memcpy(&v, (const char *)base + off, sizeof v);
	return v >= 0 && v < count;
}

static bool bool_ok(const void *base, size_t off)
{
	unsigned char v;
	memcpy(&v, (const char *)base + off, 1);
	return v <= 1;
}

#define ENUM_OK(base, type, field, count) \
	enum_ok(base, offsetof(struct type, field), sizeof(((struct type *)0)->field), count)

/* Turns the blob into a catalog in place; false when anything is out of
 * place (the caller frees the blob). */
static bool fix_up(unsigned char *p, size_t len, size_t str_start)
{
	struct fix f = { p, len, str_start, sizeof(struct catalog) };
	if (len < sizeof(struct catalog) || str_start > len || str_start < sizeof(struct catalog))
		return false;
	struct catalog *c = (struct catalog *)(void *)p;
	/* counts are read before their arrays are placed; the checks in
	 * fix_array() bound them by the bytes that are there */
	size_t acc, plt, fab, mod;
	if (!fix_array(&f, offsetof(struct catalog, accels), c->n_accels, sizeof *c->accels, &acc) ||
	    !fix_array(&f, offsetof(struct catalog, platforms), c->n_platforms, sizeof *c->platforms, &plt) ||
	    !fix_array(&f, offsetof(struct catalog, fabrics), c->n_fabrics, sizeof *c->fabrics, &fab) ||
	    !fix_array(&f, offsetof(struct catalog, models), c->n_models, sizeof *c->models, &mod))
		return false;
	(void)acc;
	(void)plt;
	(void)fab;
	(void)mod;
	size_t at;
	for (size_t i = 0; i < c->n_accels; i++) {
		struct catalog_accel *a = &c->accels[i];
		size_t base = (size_t)((unsigned char *)a - p);
		if (!fix_array(&f, base + offsetof(struct catalog_accel, partitions), a->n_partitions,
			       sizeof *a->partitions, &at) ||
		    !fix_array(&f, base + offsetof(struct catalog_accel, sources), a->n_sources,
			       sizeof(char *), &at) ||
		    !ENUM_OK(a, catalog_accel, form, FORM_COUNT) ||
		    !ENUM_OK(a, catalog_accel, stack, STACK_COUNT))
			return false;
	}
	for (size_t i = 0; i < c->n_platforms; i++) {
		struct catalog_platform *pl = &c->platforms[i];
		size_t base = (size_t)((unsigned char *)pl - p);
		uintptr_t v = slot_get(pl, offsetof(struct catalog_platform, accel));
		const struct catalog_accel *a = NULL;
		if (v) {
			if (v - 1 >= c->n_accels)
				return false;
			a = &c->accels[v - 1];
		}
		memcpy((char *)pl + offsetof(struct catalog_platform, accel), &a, sizeof a);
		if (!fix_array(&f, base + offsetof(struct catalog_platform, bom), pl->n_bom,
			       sizeof *pl->bom, &at) ||
		    !fix_array(&f, base + offsetof(struct catalog_platform, sources), pl->n_sources,
			       sizeof(char *), &at) ||
		    !ENUM_OK(pl, catalog_platform, topology, TOPO_COUNT) ||
		    !bool_ok(pl, offsetof(struct catalog_platform, nics_on_accel)) ||
		    !bool_ok(pl, offsetof(struct catalog_platform, whole_rack)))
			return false;
	}
	for (size_t i = 0; i < c->n_fabrics; i++) {
		size_t base = (size_t)((unsigned char *)&c->fabrics[i] - p);
		if (!fix_array(&f, base + offsetof(struct catalog_fabric, sources),
			       c->fabrics[i].n_sources, sizeof(char *), &at))
			return false;
	}
	for (size_t i = 0; i < c->n_models; i++) {
		size_t base = (size_t)((unsigned char *)&c->models[i] - p);
		if (!fix_array(&f, base + offsetof(struct catalog_model, sources),
			       c->models[i].n_sources, sizeof(char *), &at))
			return false;
	}

	/* the strings: every slot, arrays already in place */
	if (!fix_strs(&f, 0, catalog_strs, N(catalog_strs)))
		return false;
	for (size_t i = 0; i < c->n_accels; i++) {
		struct catalog_accel *a = &c->accels[i];
		size_t base = (size_t)((unsigned char *)a - p);
		if (!fix_strs(&f, base, accel_strs, N(accel_strs)))
			return false;
		for (size_t j = 0; j < a->n_partitions; j++)
			if (!fix_strs(&f, (size_t)((unsigned char *)&a->partitions[j] - p), partition_strs,
				      N(partition_strs)))
				return false;
		for (size_t j = 0; j < a->n_sources; j++)
			if (!fix_str(&f, (size_t)((unsigned char *)&a->sources[j] - p)))
				return false;
	}
	for (size_t i = 0; i < c->n_platforms; i++) {
		struct catalog_platform *pl = &c->platforms[i];
		size_t base = (size_t)((unsigned char *)pl - p);
		if (!fix_strs(&f, base, platform_strs, N(platform_strs)))
			return false;
		for (size_t j = 0; j < pl->n_bom; j++)
			if (!fix_strs(&f, (size_t)((unsigned char *)&pl->bom[j] - p), bom_strs, N(bom_strs)))
				return false;
		for (size_t j = 0; j < pl->n_sources; j++)
			if (!fix_str(&f, (size_t)((unsigned char *)&pl->sources[j] - p)))
				return false;
	}
	for (size_t i = 0; i < c->n_fabrics; i++) {
		struct catalog_fabric *fb = &c->fabrics[i];
		if (!fix_strs(&f, (size_t)((unsigned char *)fb - p), fabric_strs, N(fabric_strs)))
			return false;
		for (size_t j = 0; j < fb->n_sources; j++)
			if (!fix_str(&f, (size_t)((unsigned char *)&fb->sources[j] - p)))
				return false;
	}
	for (size_t i = 0; i < c->n_models; i++) {
		struct catalog_model *m = &c->models[i];
		if (!fix_strs(&f, (size_t)((unsigned char *)m - p), model_strs, N(model_strs)))
			return false;
		for (size_t j = 0; j < m->n_sources; j++)
			if (!fix_str(&f, (size_t)((unsigned char *)&m->sources[j] - p)))
				return false;
	}
	/* a valid catalog always has these; the rest of the program relies
	 * on them */
	if (!c->dir || !c->defaults.file || !c->n_accels)
		return false;
	for (size_t i = 0; i < c->n_accels; i++)
		if (!c->accels[i].id || !c->accels[i].file)
			return false;
	for (size_t i = 0; i < c->n_platforms; i++)
		if (!c->platforms[i].id || !c->platforms[i].accel || !c->platforms[i].file)
			return false;
	for (size_t i = 0; i < c->n_fabrics; i++)
		if (!c->fabrics[i].id || !c->fabrics[i].file)
			return false;
	for (size_t i = 0; i < c->n_models; i++)
		if (!c->models[i].id || !c->models[i].file)
			return false;
	/* the figures too: the engine divides by some of them, and a
	 * checksum only tells damage, not a forged image, apart */
	return catalog_values_ok(c);
}

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
	    (uint64_t)st.st_size != sizeof h + h.key_len + h.blob_len)
		goto out;
	kb = malloc(h.key_len ? h.key_len : 1);
	if (!kb || !read_all(fd, kb, h.key_len) || memcmp(kb, key->p, key->len))
		goto out;
	blob = malloc(h.blob_len);
	if (!blob || !read_all(fd, blob, h.blob_len))
		goto out;
	if (checksum(checksum(0, kb, h.key_len), blob, h.blob_len) != h.sum ||
	    !fix_up(blob, h.blob_len, h.str_start))
		goto out;
	c = (struct catalog *)(void *)blob;
	c->plat_by_accel_ = NULL;
	c->plat_start_ = NULL;
	c->image_ = true;
	if (!catalog_index(c)) {
		c = NULL;
		goto out;
	}
	blob = NULL;	/* now the catalog's */
out:
	close(fd);
	free(kb);
	free(blob);
	return c;
}

/* ---- the entry point ---- */

struct catalog *catalog_cache_load(const char *dir, const char *cache_dir,
				   struct catalog_errors *errs, struct catalog_cache_info *info)
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
	if (c && keyed && !blocked)
		info->written = save(info->path, cache_dir, &key, c);
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
	size_t n = ok ? (size_t)(h.key_len + h.blob_len) : 0;
	if (ok && (all = malloc(n ? n : 1)) != NULL && fread(all, 1, n, fp) == n) {
		h.sum = checksum(checksum(0, all, h.key_len), all + h.key_len, h.blob_len);
		ok = fseek(fp, 0, SEEK_SET) == 0 && fwrite(&h, sizeof h, 1, fp) == 1;
	} else {
		ok = false;
	}
	free(all);
	return fclose(fp) == 0 && ok;
}
