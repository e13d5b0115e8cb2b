/*
 * Unit tests for the validated-catalog cache: a catalog rebuilt from the
 * image equals the YAML load field by field (bundled catalog and the good
 * fixture); touching, resizing, adding or removing a file makes the image
 * stale; a truncated, bit-flipped, foreign or hostile image (offsets,
 * counts, enums or figures out of range behind a valid checksum) is never
 * used; ACCELSIZER_NO_CACHE writes nothing; an unwritable cache folder is
 * silent; an invalid catalog is never cached and reports the same errors.
 *
 * `make check` sets ACCELSIZER_NO_CACHE for every other test; this one
 * clears it and keeps every image in its own temporary folder.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "accuracy.h"
#include "catalog.h"
#include "catalog_bundled.h"
#include "catalog_cache.h"
#include "catalog_image.h"
#include "catalog_schema.h"
#include "ledger.h"
#include "fixture.h"
#include "tap.h"

static char top[PATH_MAX];
static char tmp[1024];	/* this run's scratch folder */

static const char *path2(const char *a, const char *b)
{
	static char buf[2][PATH_MAX + 256];
	static int k;
	k ^= 1;
	snprintf(buf[k], sizeof buf[k], "%s/%s", a, b);
	return buf[k];
}

static void sh(const char *cmd)
{
	ck_assert_msg(system(cmd) == 0, "command failed: %s", cmd);
}

/* A fresh cache folder and a copy of a catalog folder to change. */
static void fresh(const char *name, const char *src, char *cache, char *cat)
{
	char cmd[3 * PATH_MAX];
	snprintf(cache, PATH_MAX, "%.1000s/%.100s-cache", tmp, name);
	snprintf(cat, PATH_MAX, "%.1000s/%.100s-catalog", tmp, name);
	snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s' && mkdir -p '%s' && cp -R '%s' '%s'", cache, cat,
		 cache, src, cat);
	sh(cmd);
}

/* ---- deep comparison ---- */

#define STR(f) str_eq(x->f, y->f, #f, where)
#define NUM(f) ck_assert_msg(!memcmp(&x->f, &y->f, sizeof x->f), "%s: %s differs", where, #f)

static void str_eq(const char *a, const char *b, const char *what, const char *where)
{
	ck_assert_msg((a == NULL) == (b == NULL), "%s: %s NULL in one only", where, what);
	if (a)
		ck_assert_msg(!strcmp(a, b), "%s: %s '%s' != '%s'", where, what, a, b);
}

static void list_eq(char **a, size_t na, char **b, size_t nb, const char *where)
{
	ck_assert_msg(na == nb, "%s: sources count %zu != %zu", where, na, nb);
	for (size_t i = 0; i < na; i++)
		str_eq(a[i], b[i], "sources[]", where);
}

static void sourced_eq(const struct sourced *x, const struct sourced *y, const char *where)
{
	NUM(value);
	STR(source);
}

static void partition_eq(const struct catalog_partition *x, const struct catalog_partition *y,
			 const char *where)
{
	STR(profile);
	NUM(memory_gb); NUM(compute_slices); NUM(max_per_gpu);
}

static void accel_eq(const struct catalog_accel *x, const struct catalog_accel *y)
{
	const char *where = x->id;
	STR(id); STR(name); STR(vendor); STR(architecture);
	NUM(form); NUM(mem_gb); NUM(mem_addressable_gb);
	STR(mem_type);
	NUM(mem_bw_tb_s); NUM(mem_usable_fraction); NUM(peak_tflops);
	STR(link_kind);
	NUM(link_gb_s); NUM(link_domain);
	STR(host_interface);
	NUM(host_pcie_gb_s); NUM(power_w);
	ck_assert_uint_eq(x->n_partitions, y->n_partitions);
	for (size_t i = 0; i < x->n_partitions; i++)
		partition_eq(&x->partitions[i], &y->partitions[i], where);
	NUM(stack);
	sourced_eq(&x->eff_compute, &y->eff_compute, where);
	sourced_eq(&x->eff_mem_bw, &y->eff_mem_bw, where);
	sourced_eq(&x->eff_link, &y->eff_link, where);
	sourced_eq(&x->eff_training, &y->eff_training, where);
	sourced_eq(&x->eff_training_fp8, &y->eff_training_fp8, where);
	sourced_eq(&x->eff_training_fp4, &y->eff_training_fp4, where);
	NUM(price.usd); STR(price.date); STR(price.source);
	list_eq(x->sources, x->n_sources, y->sources, y->n_sources, where);
	STR(file);
	NUM(line);
}

static void bom_eq(const struct catalog_bom_line *x, const struct catalog_bom_line *y,
		   const char *where)
{
	STR(sku); STR(category); STR(description);
	NUM(qty); NUM(unit_price_usd); NUM(power_w);
	STR(source);
}

static void platform_eq(const struct catalog *cx, const struct catalog_platform *x,
			const struct catalog *cy, const struct catalog_platform *y)
{
	const char *where = x->id;
	STR(id); STR(name); STR(accel_id);
	ck_assert_msg((x->accel == NULL) == (y->accel == NULL), "%s: accel resolved in one only", where);
	if (x->accel) {
		/* resolved to the same accelerator, inside each one's own catalog */
		ck_assert(y->accel >= cy->accels && y->accel < cy->accels + cy->n_accels);
		ck_assert_int_eq(x->accel - cx->accels, y->accel - cy->accels);
	}
	NUM(gpus_per_node); NUM(topology); NUM(nic_count); NUM(nic_gbit);
	STR(nic_kind);
	STR(cooling);
	NUM(nics_on_accel); NUM(rack_units); NUM(max_power_w); NUM(whole_rack);
	STR(sku);
	NUM(price.usd); STR(price.date); STR(price.source);
	ck_assert_uint_eq(x->n_bom, y->n_bom);
	for (size_t i = 0; i < x->n_bom; i++)
		bom_eq(&x->bom[i], &y->bom[i], where);
	list_eq(x->sources, x->n_sources, y->sources, y->n_sources, where);
	STR(file);
	NUM(line);
}

static void fabric_eq(const struct catalog_fabric *x, const struct catalog_fabric *y)
{
	const char *where = x->id;
	STR(id); STR(name); STR(kind);
	NUM(port_gbit);
	STR(switch_sku); STR(switch_name);
	NUM(switch_radix); NUM(switch_rack_units); NUM(switch_power_w); NUM(switch_price_usd);
	STR(cable_sku); STR(cable_description);
	NUM(cable_price_usd); NUM(cable_power_w);
	STR(nic_sku); STR(nic_description);
	NUM(nic_price_usd); NUM(nic_power_w);
	sourced_eq(&x->efficiency, &y->efficiency, where);
	NUM(latency_us);
	list_eq(x->sources, x->n_sources, y->sources, y->n_sources, where);
	STR(file);
	NUM(line);
}

static void model_eq(const struct catalog_model *x, const struct catalog_model *y)
{
	const char *where = x->id;
	STR(id); STR(name); STR(family);
	NUM(params); NUM(active_params);
	NUM(layers); NUM(hidden); NUM(heads); NUM(kv_heads); NUM(head_dim); NUM(ffn); NUM(vocab);
	NUM(max_context); NUM(experts); NUM(experts_active);
	NUM(mla_kv_lora_rank); NUM(mla_qk_rope_head_dim);
	NUM(sliding_window); NUM(sliding_layers);
	list_eq(x->sources, x->n_sources, y->sources, y->n_sources, where);
	STR(file);
	NUM(line);
}

static void catalog_eq(const struct catalog *x, const struct catalog *y)
{
	const char *where = "catalog";
	ck_assert_ptr_nonnull(x);
	ck_assert_ptr_nonnull(y);
	STR(dir);
	ck_assert_uint_eq(x->n_accels, y->n_accels);
	ck_assert_uint_eq(x->n_platforms, y->n_platforms);
	ck_assert_uint_eq(x->n_fabrics, y->n_fabrics);
	ck_assert_uint_eq(x->n_models, y->n_models);
	for (size_t i = 0; i < x->n_accels; i++)
		accel_eq(&x->accels[i], &y->accels[i]);
	for (size_t i = 0; i < x->n_platforms; i++)
		platform_eq(x, &x->platforms[i], y, &y->platforms[i]);
	for (size_t i = 0; i < x->n_fabrics; i++)
		fabric_eq(&x->fabrics[i], &y->fabrics[i]);
	for (size_t i = 0; i < x->n_models; i++)
		model_eq(&x->models[i], &y->models[i]);
	const struct catalog_defaults *dx = &x->defaults, *dy = &y->defaults;
#define X(name, unit, doc) sourced_eq(&dx->name, &dy->name, "defaults." #name);
	CATALOG_DEFAULTS(X)
#undef X
	str_eq(dx->version, dy->version, "version", "defaults");
	str_eq(dx->file, dy->file, "file", "defaults");
	/* the platform index: built, with the same groups */
	ck_assert((x->plat_by_accel_ == NULL) == (y->plat_by_accel_ == NULL));
	ck_assert((x->plat_start_ == NULL) == (y->plat_start_ == NULL));
	if (x->plat_start_) {
		for (size_t k = 0; k <= x->n_accels; k++)
			ck_assert_uint_eq(x->plat_start_[k], y->plat_start_[k]);
		for (size_t i = 0; i < x->n_platforms; i++)
			ck_assert_int_eq(x->plat_by_accel_[i] - x->platforms,
					 y->plat_by_accel_[i] - y->platforms);
	}
	for (size_t k = 0; k < x->n_accels; k++) {
		const struct catalog_platform *px[64], *py[64];
		size_t nx = catalog_platforms_for(x, &x->accels[k], px, 64);
		size_t ny = catalog_platforms_for(y, &y->accels[k], py, 64);
		ck_assert_uint_eq(nx, ny);
		for (size_t i = 0; i < nx; i++)
			ck_assert_int_eq(px[i] - x->platforms, py[i] - y->platforms);
	}
	/* lookups go through the rebuilt pointers */
	for (size_t i = 0; i < x->n_models; i++)
		ck_assert_ptr_eq(catalog_model(y, x->models[i].id), &y->models[i]);
	ck_assert_uint_eq(catalog_count_unconfirmed(x), catalog_count_unconfirmed(y));
}

/* ---- loading through the cache ---- */

static struct catalog *cload(const char *dir, const char *cache, enum catalog_cache_how want,
			     struct catalog_cache_info *ci)
{
	struct catalog_errors e;
	struct catalog *c = catalog_cache_load(dir, cache, &e, ci);
	ck_assert_msg(c != NULL, "%s: %s", dir, e.n ? e.msg[0] : "no message");
	ck_assert_uint_eq(e.n, 0);
	catalog_errors_fini(&e);
	ck_assert_msg(ci->how == want, "%s: cache %d, expected %d", dir, (int)ci->how, (int)want);
	return c;
}

static void equal_to_yaml(const char *dir)
{
	char cache[PATH_MAX];
	snprintf(cache, sizeof cache, "%.1000s/eq-cache", tmp);
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
	sh(cmd);
	struct catalog_cache_info ci;
	struct catalog *y = catalog_load(dir, NULL);
	ck_assert_ptr_nonnull(y);
	ck_assert(!y->image_);
	struct catalog *first = cload(dir, cache, CATALOG_CACHE_MISS, &ci);
	ck_assert_msg(ci.written, "the image was written");
	ck_assert_int_eq(access(ci.path, R_OK), 0);
	catalog_eq(y, first);
	struct catalog *cached = cload(dir, cache, CATALOG_CACHE_HIT, &ci);
	ck_assert(cached->image_);
	catalog_eq(y, cached);
	catalog_eq(cached, y);
	/* a third load reads the same image again */
	struct catalog *again = cload(dir, cache, CATALOG_CACHE_HIT, &ci);
	catalog_eq(y, again);
	catalog_free(again);
	catalog_free(cached);
	catalog_free(first);
	catalog_free(y);
}

START_TEST(bundled_equal)
{
	equal_to_yaml(path2(top, "catalog"));
}
END_TEST

START_TEST(fixture_equal)
{
	equal_to_yaml(path2(top, "tests/fixtures/catalog/good"));
}
END_TEST

/* The bundled catalog from the image linked into the program equals the
 * YAML load field by field; a copy elsewhere is not the bundled one; the
 * content key sees a one-byte edit and an added file. */
START_TEST(bundled_image)
{
	const char *dir = path2(top, "catalog");
	struct catalog *img = catalog_bundled_load(dir);
	ck_assert_msg(img != NULL, "the bundled catalog loads from the linked image");
	struct catalog_errors e;
	struct catalog *yaml = catalog_load(dir, &e);
	catalog_errors_fini(&e);
	ck_assert(yaml != NULL);
	catalog_eq(yaml, img);
	ck_assert_uint_eq(catalog_count_unconfirmed(yaml), catalog_count_unconfirmed(img));
	catalog_free(yaml);
	catalog_free(img);

	char cache[PATH_MAX], cat[PATH_MAX], cmd[2 * PATH_MAX];
	fresh("bundled", dir, cache, cat);
	ck_assert_msg(catalog_bundled_load(cat) == NULL, "a copy elsewhere keeps the cache path");
	unsigned char *k0, *k1;
	size_t n0, n1;
	ck_assert(catalog_image_content_key(dir, &k0, &n0));
	ck_assert(catalog_image_content_key(cat, &k1, &n1));
	ck_assert_msg(n0 == n1 && !memcmp(k0, k1, n0), "an identical copy has the same content key");
	free(k1);
	/* one byte changed, same size and name */
	snprintf(cmd, sizeof cmd, "sed -i 's/^name: N/name: M/' '%s/accelerators/h100-sxm.yaml'", cat);
	sh(cmd);
	ck_assert(catalog_image_content_key(cat, &k1, &n1));
	ck_assert_msg(n0 == n1 && memcmp(k0, k1, n0), "a one-byte edit changes the content key");
	free(k1);
	snprintf(cmd, sizeof cmd, "cp '%s/accelerators/h100-sxm.yaml' '%s/accelerators/h100-sxm.yml'",
		 dir, cat);
	sh(cmd);
	ck_assert(catalog_image_content_key(cat, &k1, &n1));
	ck_assert_msg(n0 != n1, "an added .yml file changes the content key");
	free(k1);
	free(k0);
}
END_TEST

/* The bundled image's error-band table is, cell for cell, the one built
 * from the ledger through the engine, and the front ends read it. */
START_TEST(bundled_bands)
{
	const char *dir = path2(top, "catalog");
	struct catalog *img = catalog_bundled_load(dir);
	ck_assert(img != NULL);
	ck_assert_msg(img->bands_ != NULL, "the bundled image carries its band table");
	ck_assert_uint_eq(img->n_bands_, ACCURACY_BAND_CELLS(img));
	struct catalog_errors e;
	struct ledger *l = ledger_load(img, &e);
	catalog_errors_fini(&e);
	ck_assert(l != NULL);
	struct accuracy_bands *b = accuracy_bands_build(img, l);
	ck_assert(b != NULL);
	const struct accuracy_band_cell *want = accuracy_bands_cells(b);
	size_t covered = 0;
	for (size_t i = 0; i < img->n_bands_; i++) {
		ck_assert_int_eq(img->bands_[i].n, want[i].n);
		if (want[i].n) {
			covered++;
			ck_assert(img->bands_[i].gmin == want[i].gmin);
			ck_assert(img->bands_[i].gmax == want[i].gmax);
		}
	}
	ck_assert_msg(covered > 0, "some figures are validated");
	struct accuracy_bands *back = accuracy_bands_from_cells(img, img->bands_, img->n_bands_);
	ck_assert(back != NULL);
	ck_assert(accuracy_bands_from_cells(img, img->bands_, img->n_bands_ - 1) == NULL);
	accuracy_bands_free(back);
	accuracy_bands_free(b);
	ledger_free(l);
	catalog_free(img);
}
END_TEST

/* Loads dir expecting how, frees it. */
static void expect(const char *dir, const char *cache, enum catalog_cache_how how)
{
	struct catalog_cache_info ci;
	catalog_free(cload(dir, cache, how, &ci));
}

START_TEST(touch_invalidates)
{
	char cache[PATH_MAX], cat[PATH_MAX];
	fresh("touch", path2(top, "tests/fixtures/catalog/good"), cache, cat);
	expect(cat, cache, CATALOG_CACHE_MISS);
	expect(cat, cache, CATALOG_CACHE_HIT);
	/* the same content, a new mtime */
	const char *f = path2(cat, "models/llama-3-8b.yaml");
	struct timespec ts[2] = { { 1000000000, 5 }, { 1000000000, 5 } };
	ck_assert_int_eq(utimensat(AT_FDCWD, f, ts, 0), 0);
	expect(cat, cache, CATALOG_CACHE_MISS);
	expect(cat, cache, CATALOG_CACHE_HIT);
	/* a nanosecond later */
	ts[1].tv_nsec = 6;
	ck_assert_int_eq(utimensat(AT_FDCWD, f, ts, 0), 0);
	expect(cat, cache, CATALOG_CACHE_MISS);
	/* defaults.yaml counts too */
	ck_assert_int_eq(utimensat(AT_FDCWD, path2(cat, "defaults.yaml"), ts, 0), 0);
	expect(cat, cache, CATALOG_CACHE_MISS);
	expect(cat, cache, CATALOG_CACHE_HIT);
}
END_TEST

START_TEST(edit_invalidates)
{
	char cache[PATH_MAX], cat[PATH_MAX];
	fresh("edit", path2(top, "tests/fixtures/catalog/good"), cache, cat);
	expect(cat, cache, CATALOG_CACHE_MISS);
	expect(cat, cache, CATALOG_CACHE_HIT);
	/* a new figure: the image must not give the old one */
	const char *f = path2(cat, "models/llama-3-8b.yaml");
	struct catalog *before = catalog_load(cat, NULL);
	ck_assert_ptr_nonnull(before);
	char cmd[2 * PATH_MAX];
	snprintf(cmd, sizeof cmd, "sed -i 's/^name: .*/name: Renamed Llama/' '%s'", f);
	sh(cmd);
	struct catalog_cache_info ci;
	struct catalog *c = cload(cat, cache, CATALOG_CACHE_MISS, &ci);
	ck_assert_str_eq(catalog_model(c, "llama-3-8b")->name, "Renamed Llama");
	catalog_free(c);
	c = cload(cat, cache, CATALOG_CACHE_HIT, &ci);
	ck_assert_str_eq(catalog_model(c, "llama-3-8b")->name, "Renamed Llama");
	catalog_free(c);
	catalog_free(before);
	/* a longer file */
	snprintf(cmd, sizeof cmd, "echo '# a comment' >> '%s'", f);
	sh(cmd);
	expect(cat, cache, CATALOG_CACHE_MISS);
	expect(cat, cache, CATALOG_CACHE_HIT);
}
END_TEST

START_TEST(add_remove_invalidates)
{
	char cache[PATH_MAX], cat[PATH_MAX];
	fresh("add", path2(top, "tests/fixtures/catalog/good"), cache, cat);
	struct catalog_cache_info ci;
	struct catalog *c = cload(cat, cache, CATALOG_CACHE_MISS, &ci);
	size_t n = c->n_models;
	catalog_free(c);
	/* a second model: a copy of one under another id */
	char cmd[3 * PATH_MAX];
	snprintf(cmd, sizeof cmd, "sed 's/^id: .*/id: llama-copy/' '%s' > '%s'",
		 path2(cat, "models/llama-3-8b.yaml"), path2(cat, "models/llama-copy.yaml"));
	sh(cmd);
	c = cload(cat, cache, CATALOG_CACHE_MISS, &ci);
	ck_assert_uint_eq(c->n_models, n + 1);
	ck_assert_ptr_nonnull(catalog_model(c, "llama-copy"));
	catalog_free(c);
	c = cload(cat, cache, CATALOG_CACHE_HIT, &ci);
	ck_assert_uint_eq(c->n_models, n + 1);
	catalog_free(c);
	/* removed again */
	ck_assert_int_eq(unlink(path2(cat, "models/llama-copy.yaml")), 0);
	c = cload(cat, cache, CATALOG_CACHE_MISS, &ci);
	ck_assert_uint_eq(c->n_models, n);
	ck_assert_ptr_null(catalog_model(c, "llama-copy"));
	catalog_free(c);
	/* a .yml file the loader refuses: the cached catalog must not hide it */
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path2(cat, "models/llama-3-8b.yaml"),
		 path2(cat, "models/extra.yml"));
	sh(cmd);
	struct catalog_errors e;
	c = catalog_cache_load(cat, cache, &e, &ci);
	ck_assert_ptr_null(c);
	ck_assert_uint_ge(e.n, 1);
	ck_assert_ptr_nonnull(strstr(e.msg[0], "must end in .yaml"));
	catalog_errors_fini(&e);
}
END_TEST

/* The errors through the cache are catalog_load()'s, and nothing is
 * written for an invalid catalog. */
START_TEST(errors_not_cached)
{
	char cache[PATH_MAX], cat[PATH_MAX];
	fresh("errors", path2(top, "tests/fixtures/catalog/good"), cache, cat);
	expect(cat, cache, CATALOG_CACHE_MISS);
	char cmd[2 * PATH_MAX];
	snprintf(cmd, sizeof cmd, "rm -f '%s'/* && sed -i 's/^layers: .*/layers: -3/' '%s'", cache,
		 path2(cat, "models/llama-3-8b.yaml"));
	sh(cmd);
	for (int round = 0; round < 2; round++) {
		struct catalog_errors e1, e2;
		struct catalog_cache_info ci;
		struct catalog *a = catalog_load(cat, &e1);
		struct catalog *b = catalog_cache_load(cat, cache, &e2, &ci);
		ck_assert_ptr_null(a);
		ck_assert_ptr_null(b);
		ck_assert_uint_ge(e1.n, 1);
		ck_assert_uint_eq(e1.n, e2.n);
		ck_assert(e1.truncated == e2.truncated);
		for (size_t i = 0; i < e1.n; i++)
			ck_assert_str_eq(e1.msg[i], e2.msg[i]);
		ck_assert(!ci.written);
		ck_assert_int_ne(access(ci.path, F_OK), 0);
		catalog_errors_fini(&e1);
		catalog_errors_fini(&e2);
	}
}
END_TEST

/* ---- damaged and hostile images ---- */

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, 0, SEEK_END);
	long len = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	unsigned char *p = malloc((size_t)len);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(fread(p, 1, (size_t)len, fp), (size_t)len);
	fclose(fp);
	*n = (size_t)len;
	return p;
}

static void spit(const char *path, const unsigned char *p, size_t n)
{
	FILE *fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(p, 1, n, fp), n);
	ck_assert_int_eq(fclose(fp), 0);
}

/* A good image of the fixture in cache; returns its bytes. */
static unsigned char *good_image(char *cache, char *cat, const char *name, size_t *n,
				 char *path)
{
	fresh(name, path2(top, "tests/fixtures/catalog/good"), cache, cat);
	struct catalog_cache_info ci;
	catalog_free(cload(cat, cache, CATALOG_CACHE_MISS, &ci));
	ck_assert(ci.written);
	snprintf(path, PATH_MAX, "%s", ci.path);
	return slurp(path, n);
}

/* The damaged image at path is refused, the YAML gives the catalog, equal
 * to a plain load, and then a good image replaces the damaged one. */
static void refused(const char *cat, const char *cache)
{
	struct catalog_cache_info ci;
	struct catalog *c = cload(cat, cache, CATALOG_CACHE_MISS, &ci);
	struct catalog *y = catalog_load(cat, NULL);
	catalog_eq(y, c);
	catalog_free(y);
	catalog_free(c);
	ck_assert(ci.written);
	expect(cat, cache, CATALOG_CACHE_HIT);
}

START_TEST(truncated_refused)
{
	char cache[PATH_MAX], cat[PATH_MAX], path[PATH_MAX];
	size_t n;
	unsigned char *img = good_image(cache, cat, "trunc", &n, path);
	size_t cuts[] = { 0, 1, 8, sizeof(struct catalog_cache_header) - 1,
			  sizeof(struct catalog_cache_header), n / 2, n - 1 };
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		spit(path, img, cuts[i]);
		refused(cat, cache);
	}
	/* one byte too many */
	unsigned char *longer = malloc(n + 1);
	memcpy(longer, img, n);
	longer[n] = 0;
	spit(path, longer, n + 1);
	refused(cat, cache);
	free(longer);
	free(img);
}
END_TEST

START_TEST(bit_flips_refused)
{
	char cache[PATH_MAX], cat[PATH_MAX], path[PATH_MAX];
	size_t n;
	unsigned char *img = good_image(cache, cat, "flip", &n, path);
	/* a flipped bit anywhere: header, key, arrays, strings, last byte */
	size_t at[] = { 3, 9, offsetof(struct catalog_cache_header, key_len),
			offsetof(struct catalog_cache_header, sum) + 2,
			sizeof(struct catalog_cache_header) + 5, n / 3, n / 2, n - 2, n - 1 };
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		img[at[i]] ^= 0x10;
		spit(path, img, n);
		img[at[i]] ^= 0x10;
		refused(cat, cache);
	}
	/* wrong magic, wrong layout */
	memcpy(img, "NOTMAGIC", 8);
	spit(path, img, n);
	refused(cat, cache);
	free(img);
	img = slurp(path, &n);
	((struct catalog_cache_header *)(void *)img)->layout += 1;
	spit(path, img, n);
	ck_assert(catalog_cache_reseal(path));
	refused(cat, cache);
	/* not a file: a folder where the image should be */
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	struct catalog_cache_info ci;
	catalog_free(cload(cat, cache, CATALOG_CACHE_MISS, &ci));
	ck_assert(!ci.written);
	rmdir(path);
	free(img);
}
END_TEST

/* Poke a value into the blob's struct catalog (or an item of its arrays)
 * behind a valid checksum: the structural checks must catch it. */
struct poke {
	const char *what;
	size_t off;		/* from the blob's start */
	uint64_t value;
	size_t size;
};

static size_t blob_at(const unsigned char *img)
{
	const struct catalog_cache_header *h = (const void *)img;
	return sizeof *h + (size_t)h->key_len;
}

START_TEST(hostile_refused)
{
	char cache[PATH_MAX], cat[PATH_MAX], path[PATH_MAX];
	size_t n;
	unsigned char *img = good_image(cache, cat, "hostile", &n, path);
	const struct catalog_cache_header *h = (const void *)img;
	size_t b = blob_at(img);
	const struct catalog *c = (const void *)(img + b);
	/* where the arrays are in a good image: offset + 1 in each slot */
	uintptr_t acc, plt;
	memcpy(&acc, (const char *)c + offsetof(struct catalog, accels), sizeof acc);
	memcpy(&plt, (const char *)c + offsetof(struct catalog, platforms), sizeof plt);
	ck_assert(acc > 0 && plt > 0);
	size_t a0 = acc - 1, p0 = plt - 1;
	struct poke pokes[] = {
		{ "accels offset huge", offsetof(struct catalog, accels), UINT64_MAX / 2, 8 },
		{ "accels offset past the end", offsetof(struct catalog, accels), h->blob_len + 16, 8 },
		{ "accels offset inside the header", offsetof(struct catalog, accels), 1, 8 },
		{ "accels offset one off", offsetof(struct catalog, accels), acc + 1, 8 },
		{ "accels NULL with a count", offsetof(struct catalog, accels), 0, 8 },
		{ "accel count huge", offsetof(struct catalog, n_accels), UINT64_MAX, 8 },
		{ "accel count past the strings", offsetof(struct catalog, n_accels), 1000, 8 },
		{ "model count huge", offsetof(struct catalog, n_models), SIZE_MAX / 8, 8 },
		{ "dir string huge", offsetof(struct catalog, dir), UINT64_MAX - 7, 8 },
		{ "dir string past the end", offsetof(struct catalog, dir), h->blob_len + 1, 8 },
		{ "dir string in the arrays", offsetof(struct catalog, dir), acc, 8 },
		{ "defaults.file NULL", offsetof(struct catalog, defaults.file), 0, 8 },
		{ "accelerator id huge", a0 + offsetof(struct catalog_accel, id), UINT64_MAX, 8 },
		{ "accelerator sources count huge", a0 + offsetof(struct catalog_accel, n_sources),
		  UINT64_MAX / 16, 8 },
		{ "accelerator form out of range", a0 + offsetof(struct catalog_accel, form), 99, 4 },
		{ "accelerator stack negative", a0 + offsetof(struct catalog_accel, stack), 0xffffffffu, 4 },
		{ "platform accel index past the accelerators", p0 + offsetof(struct catalog_platform, accel),
		  1000, 8 },
		{ "platform accel unresolved", p0 + offsetof(struct catalog_platform, accel), 0, 8 },
		{ "platform topology out of range", p0 + offsetof(struct catalog_platform, topology), 7, 4 },
		{ "platform bool not 0 or 1", p0 + offsetof(struct catalog_platform, whole_rack), 2, 1 },
		{ "platform BOM count huge", p0 + offsetof(struct catalog_platform, n_bom), 1u << 30, 8 },
		{ "platform gpus_per_node 0", p0 + offsetof(struct catalog_platform, gpus_per_node), 0, 4 },
		{ "platform gpus_per_node negative", p0 + offsetof(struct catalog_platform, gpus_per_node),
		  0xfffffff0u, 4 },
		{ "accelerator memory bandwidth NaN", a0 + offsetof(struct catalog_accel, mem_bw_tb_s),
		  0x7ff8000000000000u, 8 },
		{ "accelerator memory 0", a0 + offsetof(struct catalog_accel, mem_gb), 0, 8 },
		{ "accelerator link domain 0", a0 + offsetof(struct catalog_accel, link_domain), 0, 4 },
		{ "defaults pue 0.5", offsetof(struct catalog, defaults.pue.value),
		  0x3fe0000000000000u, 8 },
		{ "defaults micro_batch 1.5", offsetof(struct catalog, defaults.micro_batch.value),
		  0x3ff8000000000000u, 8 },
		{ "string area start past the end", SIZE_MAX, 0, 0 },
	};
	for (size_t i = 0; i < sizeof pokes / sizeof pokes[0]; i++) {
		unsigned char *bad = malloc(n);
		memcpy(bad, img, n);
		if (pokes[i].off == SIZE_MAX) {
			((struct catalog_cache_header *)(void *)bad)->str_start = h->blob_len + 1;
		} else {
			ck_assert_uint_le(pokes[i].off + pokes[i].size, h->blob_len);
			memcpy(bad + b + pokes[i].off, &pokes[i].value, pokes[i].size);
		}
		spit(path, bad, n);
		free(bad);
		ck_assert_msg(catalog_cache_reseal(path), "%s: reseal", pokes[i].what);
		struct catalog_cache_info ci;
		struct catalog_errors e;
		struct catalog *got = catalog_cache_load(cat, cache, &e, &ci);
		ck_assert_msg(got && ci.how == CATALOG_CACHE_MISS, "%s: not refused", pokes[i].what);
		catalog_errors_fini(&e);
		catalog_free(got);
	}
	/* and the same bytes resealed untouched are accepted: the checks
	 * above refused the pokes, not the resealing */
	spit(path, img, n);
	ck_assert(catalog_cache_reseal(path));
	expect(cat, cache, CATALOG_CACHE_HIT);
	free(img);
}
END_TEST

/* ---- trusted only when ours (issue 13 item 4) ---- */

/* An image forged behind a valid checksum (the first accelerator at $3) is
 * used from a folder of ours, and refused, with the reason, once the
 * folder or the file is writable by others or belongs to someone else. */
START_TEST(foreign_refused)
{
	char cache[PATH_MAX], cat[PATH_MAX], path[PATH_MAX];
	size_t n;
	unsigned char *img = good_image(cache, cat, "foreign", &n, path);
	size_t b = blob_at(img);
	const struct catalog *c0 = (const void *)(img + b);
	uintptr_t acc;
	memcpy(&acc, (const char *)c0 + offsetof(struct catalog, accels), sizeof acc);
	double three = 3.0;
	memcpy(img + b + acc - 1 + offsetof(struct catalog_accel, price.usd), &three, sizeof three);
	spit(path, img, n);
	ck_assert(catalog_cache_reseal(path));
	ck_assert_int_eq(chmod(path, 0600), 0);
	struct catalog_cache_info ci;
	struct catalog *c = cload(cat, cache, CATALOG_CACHE_HIT, &ci);
	ck_assert(c->accels[0].price.usd == 3.0);	/* the forge works when trusted */
	catalog_free(c);
	struct catalog *y = catalog_load(cat, NULL);
	ck_assert(y->accels[0].price.usd != 3.0);

	/* the folder writable by others (world-writable like /tmp, sticky) */
	ck_assert_int_eq(chmod(cache, 01777), 0);
	c = cload(cat, cache, CATALOG_CACHE_MISS, &ci);
	ck_assert(c->accels[0].price.usd == y->accels[0].price.usd);
	ck_assert(!ci.written);
	ck_assert_msg(strstr(ci.why, "writable by group or others"), "why: %s", ci.why);
	catalog_free(c);
	ck_assert_int_eq(chmod(cache, 0700), 0);

	/* the image writable by others */
	ck_assert_int_eq(chmod(path, 0666), 0);
	c = cload(cat, cache, CATALOG_CACHE_MISS, &ci);
	ck_assert(c->accels[0].price.usd == y->accels[0].price.usd);
	ck_assert_msg(strstr(ci.why, "the image") && strstr(ci.why, "writable by group or others"),
		      "why: %s", ci.why);
	catalog_free(c);
	ck_assert_int_eq(chmod(path, 0600), 0);

	/* someone else's folder and file (CI runs as root: give them to nobody) */
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(path, 65534, 65534), 0);
		c = cload(cat, cache, CATALOG_CACHE_MISS, &ci);
		ck_assert(c->accels[0].price.usd == y->accels[0].price.usd);
		ck_assert_msg(strstr(ci.why, "belongs to uid 65534, not to you"), "why: %s", ci.why);
		catalog_free(c);
		ck_assert_int_eq(chown(path, 0, 0), 0);
		ck_assert_int_eq(chown(cache, 65534, 65534), 0);
		c = cload(cat, cache, CATALOG_CACHE_MISS, &ci);
		ck_assert_msg(strstr(ci.why, "cache folder") && strstr(ci.why, "belongs to uid 65534"),
			      "why: %s", ci.why);
		catalog_free(c);
		/* the case: a world-writable folder of another user's
		 * holding the forged image (itself made to look like ours) */
		ck_assert_int_eq(chmod(cache, 01777), 0);
		c = cload(cat, cache, CATALOG_CACHE_MISS, &ci);
		ck_assert(c->accels[0].price.usd == y->accels[0].price.usd);
		ck_assert(!ci.written);
		catalog_free(c);
		ck_assert_int_eq(chmod(cache, 0700), 0);
		ck_assert_int_eq(chown(cache, 0, 0), 0);
	}
	/* back to ours: the forged image is found again (nothing overwrote
	 * it while it was not trusted) */
	expect(cat, cache, CATALOG_CACHE_HIT);
	catalog_free(y);
	free(img);
}
END_TEST

/* A FIFO where the image would be: parsed at once, never opened for a
 * blocking read or write (issue 13 item 9). */
START_TEST(fifo_image_does_not_hang)
{
	char cache[PATH_MAX], cat[PATH_MAX], path[PATH_MAX];
	size_t n;
	free(good_image(cache, cat, "fifo", &n, path));
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	alarm(10);	/* a hang fails the test instead of the suite's timeout */
	struct catalog_cache_info ci;
	catalog_free(cload(cat, cache, CATALOG_CACHE_MISS, &ci));
	ck_assert(!ci.written);
	ck_assert_msg(strstr(ci.why, "not a regular file"), "why: %s", ci.why);
	alarm(0);
	unlink(path);
}
END_TEST

/* ---- turning it off, failing to write ---- */

START_TEST(no_cache_env)
{
	char cache[PATH_MAX], cat[PATH_MAX];
	fresh("nocache", path2(top, "tests/fixtures/catalog/good"), cache, cat);
	setenv("ACCELSIZER_NO_CACHE", "1", 1);
	struct catalog_cache_info ci;
	catalog_free(cload(cat, cache, CATALOG_CACHE_OFF, &ci));
	catalog_free(cload(cat, cache, CATALOG_CACHE_OFF, &ci));
	ck_assert(!ci.written);
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s')\"", cache);
	sh(cmd);
	/* an image already there is not read either */
	unsetenv("ACCELSIZER_NO_CACHE");
	catalog_free(cload(cat, cache, CATALOG_CACHE_MISS, &ci));
	setenv("ACCELSIZER_NO_CACHE", "yes", 1);
	catalog_free(cload(cat, cache, CATALOG_CACHE_OFF, &ci));
	/* empty means not set */
	setenv("ACCELSIZER_NO_CACHE", "", 1);
	catalog_free(cload(cat, cache, CATALOG_CACHE_HIT, &ci));
	unsetenv("ACCELSIZER_NO_CACHE");
}
END_TEST

START_TEST(unwritable_silent)
{
	char cache[PATH_MAX], cat[PATH_MAX];
	fresh("unwritable", path2(top, "tests/fixtures/catalog/good"), cache, cat);
	/* a folder under a regular file cannot exist, even for root */
	char file[PATH_MAX + 16], under[2 * PATH_MAX];
	snprintf(file, sizeof file, "%s/plain-file", cache);
	spit(file, (const unsigned char *)"x", 1);
	snprintf(under, sizeof under, "%s/accelsizer", file);
	for (int i = 0; i < 2; i++) {
		struct catalog_cache_info ci;
		struct catalog *c = cload(cat, under, CATALOG_CACHE_MISS, &ci);
		ck_assert(!ci.written);
		struct catalog *y = catalog_load(cat, NULL);
		catalog_eq(y, c);
		catalog_free(y);
		catalog_free(c);
	}
	/* the default folder from the environment, missing levels made */
	char xdg[PATH_MAX + 16];
	snprintf(xdg, sizeof xdg, "%s/xdg", cache);
	setenv("XDG_CACHE_HOME", xdg, 1);
	char def[PATH_MAX];
	ck_assert(catalog_cache_default_dir(def, sizeof def));
	ck_assert_str_eq(def, path2(xdg, "accelsizer"));
	struct catalog_cache_info ci;
	catalog_free(cload(cat, NULL, CATALOG_CACHE_MISS, &ci));
	ck_assert(ci.written);
	ck_assert_int_eq(strncmp(ci.path, def, strlen(def)), 0);
	catalog_free(cload(cat, NULL, CATALOG_CACHE_HIT, &ci));
	/* a relative XDG_CACHE_HOME is ignored for $HOME/.cache */
	setenv("XDG_CACHE_HOME", "relative", 1);
	setenv("HOME", cache, 1);
	ck_assert(catalog_cache_default_dir(def, sizeof def));
	ck_assert_str_eq(def, path2(cache, ".cache/accelsizer"));
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	ck_assert(!catalog_cache_default_dir(def, sizeof def));
	/* no folder at all: parsed, nothing written */
	catalog_free(cload(cat, NULL, CATALOG_CACHE_OFF, &ci));
}
END_TEST

/* The layout key is computed from the catalog tables.  A size check (what
 * guarded the image before) cannot see an int that fills a padding hole:
 * struct catalog_accel has one after link_domain, an int before a pointer.
 * A row added there leaves the struct's size alone but changes the key, and
 * the key is part of every image's key: an image keyed otherwise is
 * refused. */
START_TEST(layout_from_tables)
{
	size_t hole = offsetof(struct catalog_accel, link_domain) + sizeof(int);
	ck_assert_uint_ge(offsetof(struct catalog_accel, host_interface), hole + sizeof(int));
	const struct catalog_schema *as = catalog_kinds[0].s;
	ck_assert_str_eq(as->what, "accelerator");
	static struct catalog_field rows[128];
	ck_assert_uint_lt(as->n, 128);
	memcpy(rows, as->f, as->n * sizeof rows[0]);
	rows[as->n] = (struct catalog_field){ .key = "link.lanes", .type = CF_INT, .off = hole,
					      .min = 1, .max = 64 };
	struct catalog_schema grown = *as;
	grown.f = rows;
	grown.n = as->n + 1;
	ck_assert_uint_eq(grown.size, sizeof(struct catalog_accel));	/* same size */
	ck_assert(catalog_schema_hash(&grown, 1) != catalog_schema_hash(as, 1));
	/* a moved row, a changed range and a new enum value count too */
	grown.n = as->n;
	ck_assert(catalog_schema_hash(&grown, 1) == catalog_schema_hash(as, 1));
	for (size_t i = 0; i < as->n; i++) {
		struct catalog_field keep = rows[i];
		rows[i].off += 4;
		ck_assert_msg(catalog_schema_hash(&grown, 1) != catalog_schema_hash(as, 1), "%s moved", keep.key);
		rows[i] = keep;
		rows[i].max += 1;
		ck_assert_msg(catalog_schema_hash(&grown, 1) != catalog_schema_hash(as, 1), "%s range", keep.key);
		rows[i] = keep;
		if (keep.type == CF_ENUM) {
			rows[i].count++;
			ck_assert(catalog_schema_hash(&grown, 1) != catalog_schema_hash(as, 1));
			rows[i] = keep;
		}
	}
	/* every image's key holds the layout: change those bytes and reseal,
	 * and the image is not used */
	char cache[PATH_MAX], cat[PATH_MAX], path[PATH_MAX];
	size_t n;
	unsigned char *img = good_image(cache, cat, "layout", &n, path);
	uint64_t layout = catalog_schema_layout();
	const struct catalog_cache_header *h = (const void *)img;
	unsigned char *key = img + sizeof *h, *at = NULL;
	for (size_t i = 0; i + sizeof layout <= h->key_len && !at; i++)
		if (!memcmp(key + i, &layout, sizeof layout))
			at = key + i;
	ck_assert_msg(at != NULL, "the image's key holds catalog_schema_layout()");
	at[0] ^= 1;
	spit(path, img, n);
	ck_assert(catalog_cache_reseal(path));
	refused(cat, cache);
	free(img);
}
END_TEST

int main(void)
{
	const char *t = getenv("TOP_SRCDIR");
	snprintf(top, sizeof top, "%s", t && *t ? t : ABS_TOP_SRCDIR);
	/* `make check` turns the cache off for every other test */
	unsetenv("ACCELSIZER_NO_CACHE");
	unsetenv("ACCELSIZER_CATALOG");
	if (!fixture_tmpdir(tmp, sizeof tmp, "accelsizer-cache-test")) {
		perror("mkdtemp");
		return EXIT_FAILURE;
	}
	/* nothing may reach the real ~/.cache */
	char home[PATH_MAX + 16];
	snprintf(home, sizeof home, "%.1000s/home", tmp);
	setenv("HOME", home, 1);
	unsetenv("XDG_CACHE_HOME");

	Suite *s = suite_create("catalog_cache");
	tap_add(s, "cache: a forged image in a folder or file not ours is not used", foreign_refused);
	tap_add(s, "cache: a FIFO as the image does not hang", fifo_image_does_not_hang);
	tap_add(s, "cache: bundled catalog from the image equals the YAML load", bundled_equal);
	tap_add(s, "cache: the bundled image equals the YAML load; only for the bundled folder",
	    bundled_image);
	tap_add(s, "cache: the bundled image's band table is the one the ledger gives", bundled_bands);
	tap_add(s, "cache: good fixture from the image equals the YAML load", fixture_equal);
	tap_add(s, "cache: a touched file (utimensat, mtime to the ns) invalidates", touch_invalidates);
	tap_add(s, "cache: an edited or longer file invalidates", edit_invalidates);
	tap_add(s, "cache: an added or removed file invalidates; .yml still refused",
	    add_remove_invalidates);
	tap_add(s, "cache: an invalid catalog is never cached, same errors", errors_not_cached);
	tap_add(s, "cache: truncated or extended images fall back to YAML", truncated_refused);
	tap_add(s, "cache: bit flips, wrong magic or layout fall back to YAML", bit_flips_refused);
	tap_add(s, "cache: hostile offsets, counts, enums, figures behind a valid checksum are refused",
	    hostile_refused);
	tap_add(s, "cache: the layout key comes from the tables (a row in a padding hole changes it)",
	    layout_from_tables);
	tap_add(s, "cache: ACCELSIZER_NO_CACHE neither writes nor reads", no_cache_env);
	tap_add(s, "cache: an unwritable cache folder is silent; default folder", unwritable_silent);
	int rc = tap_run(s);
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		rc = EXIT_FAILURE;
	return rc;
}
