/*
 * catalog_cache: a validated catalog kept as one binary image, so that a
 * command run against an unchanged catalog folder does not parse 115 KB of
 * YAML again (libyaml's parser is three quarters of a `recommend` process).
 *
 * The image is written after a successful catalog_load() (the full parse
 * and validation) to $XDG_CACHE_HOME/accelsizer/ (else ~/.cache/accelsizer/)
 * through the atomic writer, in a file named by a hash of the catalog
 * folder's absolute path.  It is keyed by accelsizer's version and build,
 * the layout of the catalog structs, the folder's path, and the name, size,
 * mtime, ctime and inode of every file the loader reads (every *.yaml and
 * *.yml in the four folders, and defaults.yaml): any edit, touch, added or
 * removed file gives another key, and the folder is parsed again.  Only a
 * valid catalog is ever written; an invalid one is parsed, and reported,
 * every time.
 *
 * The cache is used only when it is ours, as ssh treats ~/.ssh: the cache
 * folder and the image must belong to the user running the program and not
 * be writable by group or others, and the image must be a regular file
 * (opened without blocking, so a FIFO there cannot hang a command).  Else
 * the YAML is parsed, nothing is written there, and info->why says why
 * (ACCELSIZER_DEBUG_CACHE prints it).
 *
 * An image is trusted only when its magic, lengths, key, checksum and every
 * offset, count, enum, flag and figure (the loader's ranges,
 * catalog_values_ok()) check out; anything else (a truncated,
 * damaged or foreign file) falls back to the YAML path, silently.  Writing
 * the image is silent too: a read-only or missing cache folder only costs
 * the next run a parse.  ACCELSIZER_NO_CACHE (set and not empty) turns the
 * cache off both ways.
 *
 * A catalog rebuilt from the image is one block (the struct catalog, its
 * arrays and strings) plus the platform index; catalog_free() frees it like
 * any other.  `catalog check` does not come here: it is the validator and
 * always parses.
 */
#ifndef ACCELSIZER_CATALOG_CACHE_H
#define ACCELSIZER_CATALOG_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog.h"

/* The image file starts with this header, then the key and the blob
 * (catalog_cache.c describes the blob).  Native byte order and sizes: an
 * image is only read by the build that wrote it. */
struct catalog_cache_header {
	char magic[8];		/* "ACSZCAT\x01" */
	uint32_t layout;	/* CATALOG_CACHE_LAYOUT */
	uint32_t byte_order;	/* 0x01020304 as written */
	uint32_t ptr_size;
	uint32_t pad;
	uint64_t key_len;
	uint64_t blob_len;
	uint64_t str_start;	/* where the strings start, from the blob's start */
	uint64_t sum;		/* checksum of key + blob */
};

/* Bump on any change to the file or blob format (catalog_image.h).  The
 * shape of the catalog structs needs no bump: the key holds a hash of the
 * catalog tables (catalog_schema_layout()). */
#define CATALOG_CACHE_LAYOUT 3

enum catalog_cache_how {
	CATALOG_CACHE_OFF,	/* ACCELSIZER_NO_CACHE, or no cache folder: parsed */
	CATALOG_CACHE_HIT,	/* rebuilt from the image */
	CATALOG_CACHE_MISS,	/* no usable image (none, stale or damaged): parsed */
};

struct catalog_cache_info {
	enum catalog_cache_how how;
	bool written;		/* a new image was written after the parse */
	char path[4096];	/* the image file; "" when the cache is off */
	char why[4200];		/* "" or why the cache was not trusted */
};

/*
 * catalog_load() through the cache: the same result, the same errors.
 * cache_dir is the folder holding the images, NULL for the default one
 * (catalog_cache_default_dir()).  info may be NULL.
 */
struct catalog *catalog_cache_load(const char *dir, const char *cache_dir,
				   struct catalog_errors *errs, struct catalog_cache_info *info);

/* $XDG_CACHE_HOME/accelsizer (when absolute), else $HOME/.cache/accelsizer;
 * false when neither is set or the path does not fit. */
bool catalog_cache_default_dir(char *buf, size_t bufsz);

/* Is the cache turned off by $ACCELSIZER_NO_CACHE? */
bool catalog_cache_disabled(void);

/* For tests: recomputes the checksum of the image at path, so that a test
 * can alter an image and reach the structural checks behind the checksum.
 * False when the file cannot be read or written. */
bool catalog_cache_reseal(const char *path);

#endif
