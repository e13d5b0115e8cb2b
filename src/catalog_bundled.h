/*
 * catalog_bundled: the catalog shipped with accelsizer, compiled at build
 * time into a validated binary image linked into the program
 * (catalog_imagegen.c writes it from the source tree's catalog/), so that
 * the first run of a fresh install does not parse 115 KB of YAML.
 *
 * The image is used only for the bundled catalog itself: the folder found
 * is the installed data folder or the source tree's catalog (however it
 * was named: --catalog, $ACCELSIZER_CATALOG or the default search), and
 * its content is, file by file, the content the image was built from
 * (names, sizes and bytes, catalog_image_content_key()).  Any other
 * folder, or the bundled one edited, goes through the cache
 * (catalog_cache.h) and the YAML as before.
 *
 * See docs/design.md, "The bundled catalog".
 */
#ifndef ACCELSIZER_CATALOG_BUNDLED_H
#define ACCELSIZER_CATALOG_BUNDLED_H

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"

/* The catalog of folder dir from the bundled image, or NULL when dir is
 * not the bundled catalog as it was built (then load it another way).
 * catalog_free() frees it. */
struct catalog *catalog_bundled_load(const char *dir);

/* Written by catalog_imagegen (catalog_bundled_data.c in the build tree). */
extern const uint64_t catalog_bundled_layout;
extern const size_t catalog_bundled_len, catalog_bundled_str_start, catalog_bundled_key_len;
extern const unsigned char catalog_bundled_blob[];
extern const unsigned char catalog_bundled_key[];

#endif
