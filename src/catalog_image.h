/*
 * catalog_image: a validated catalog as one position-independent block of
 * bytes, and back.  The cache (catalog_cache.c) keeps such blocks in files
 * for user catalogs; the build compiles the bundled catalog into one that
 * is linked into the program (catalog_imagegen.c, catalog_bundled.c).
 *
 * The blob: struct catalog at offset 0; then the arrays, each at the next
 * 16-byte boundary: the four kinds' arrays in catalog_kinds order, then
 * per item, in the same order and depth first, the arrays its table rows
 * own (CF_STRLIST, CF_LIST); then every string, NUL-terminated.  Every
 * pointer holds offset + 1 instead (0 for NULL), except a CF_ACCEL_REF's
 * resolved pointer, which holds the accelerator's index + 1.  Which slots
 * are strings, arrays, enums and flags is read from the tables
 * (catalog_schema.h), never listed here.
 *
 * The reader walks the same order and insists that each array sits
 * exactly where the writer put it, so arrays cannot overlap each other or
 * the strings; it checks every enum, flag and reference, the strings'
 * bounds and termination, and every figure against the loader's ranges
 * (catalog_values_ok), so a damaged or forged blob is refused rather than
 * handed to the engine.
 *
 * See docs/design.md, "The bundled catalog".
 */
#ifndef ACCELSIZER_CATALOG_IMAGE_H
#define ACCELSIZER_CATALOG_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog.h"

struct catalog_blob {
	unsigned char *p;	/* malloc'd; the caller frees it */
	size_t len;
	size_t str_start;	/* where the strings start */
};

/*
 * The blob of c.  With relative, every item's file (and defaults.file) is
 * written relative to c->dir and dir itself as "": a blob that
 * catalog_image_open() can place under any folder.  False when out of
 * memory or when c is not self-contained (a reference outside it).
 */
bool catalog_image_build(const struct catalog *c, bool relative, struct catalog_blob *out);

/*
 * The catalog in the len bytes at img (not changed), or NULL when anything
 * in them is out of place.  With dir, the blob was built relative and
 * every file is spelled under dir as catalog_load(dir) would spell it.
 * The result is one block catalog_free() frees.  built_in: img is the
 * image compiled into the program (catalog_bundled.h), which outlives
 * every catalog and whose figures were checked against the loader's
 * ranges when it was built (catalog_imagegen opens it with built_in
 * false): its strings are used where they are and the figures are not
 * checked again; the structure always is.  Otherwise img is not kept.
 */
struct catalog *catalog_image_open(const void *img, size_t len, size_t str_start, const char *dir,
				   bool built_in);

/* catalog_image_open() of an untrusted blob that is already in a
 * malloc'd block (read from a cache file), fixed up where it is: on
 * success the block is the catalog (catalog_free() frees it); on failure
 * NULL and the caller still owns blob. */
struct catalog *catalog_image_adopt(unsigned char *blob, size_t len, size_t str_start);

/* A checksum against damage (not against forgery: nothing secret exists
 * to key one with), folded into h. */
uint64_t catalog_image_checksum(uint64_t h, const void *p, size_t n);

/*
 * The content key of catalog folder dir: the name, size and bytes of
 * every file the loader reads (the *.yaml and *.yml in the four folders,
 * sorted, then defaults.yaml), then of the published results
 * (CATALOG_IMAGE_LEDGER_DIR, or that it is absent), whose error bands are
 * kept with the image, in a malloc'd buffer.  Two folders with the
 * same key load to the same catalog.  False when a folder or file cannot
 * be read, or out of memory.
 */
bool catalog_image_content_key(const char *dir, unsigned char **key, size_t *len);
/* Is folder dir's content key exactly key?  Compared while the files are
 * read, stopping at the first difference. */
bool catalog_image_content_is(const char *dir, const unsigned char *key, size_t len);

/* The ledger's folder (ledger.h), and whether dir has none: 1 absent (an
 * empty ledger), 0 present, -1 cannot tell. */
#define CATALOG_IMAGE_LEDGER_DIR "published"
int catalog_image_ledger_absent(const char *dir);
/* The same for any sub-folder of dir (an optional catalog kind's). */
int catalog_image_folder_absent(const char *dir, const char *sub);

/* The names in folder root/sub that the loader looks at (not hidden,
 * *.yaml, and *.yml, which it refuses), sorted; free them with
 * catalog_image_names_free().  False when the folder cannot be read or
 * out of memory. */
bool catalog_image_folder_names(const char *root, const char *sub, char ***names, size_t *n);
void catalog_image_names_free(char **names, size_t n);

#endif
