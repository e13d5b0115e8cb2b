/*
 * catalog_bundled: the bundled catalog from the image linked into the
 * program (see catalog_bundled.h for when it is used).
 */
#include "config.h"

#include "catalog_bundled.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_image.h"
#include "catalog_schema.h"

/* Is dir, resolved, the installed data folder's catalog or the source
 * tree's? */
static bool bundled_place(const char *dir)
{
	char real[PATH_MAX], want[PATH_MAX];
	if (!realpath(dir, real))
		return false;
	static const char *const places[] = { PKGDATADIR "/catalog", ABS_TOP_SRCDIR "/catalog" };
	for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
		if (realpath(places[i], want) && !strcmp(real, want))
			return true;
	return false;
}

struct catalog *catalog_bundled_load(const char *dir)
{
	if (!dir || !bundled_place(dir) || catalog_bundled_layout != catalog_schema_layout())
		return NULL;
	if (!catalog_image_content_is(dir, catalog_bundled_key, catalog_bundled_key_len))
		return NULL;
	return catalog_image_open(catalog_bundled_blob, catalog_bundled_len,
				  catalog_bundled_str_start, dir, true);
}
