/*
 * buf: a growable byte buffer, for the binary images and keys the catalog
 * image (catalog_image.c) and cache (catalog_cache.c) build.
 *
 * A zeroed struct buf is empty.  Appending never fails loudly: on the
 * first allocation failure (or a size past SIZE_MAX / 2) the buffer sets
 * oom and ignores everything after, so a builder appends without checks
 * and looks at oom once at the end.  Bytes the buffer grows by are zeros,
 * so padding between aligned parts is written as zeros.
 *
 * Ownership: the caller owns p and frees it with free() (or buf_free()).
 */
#ifndef ACCELSIZER_BUF_H
#define ACCELSIZER_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct buf {
	unsigned char *p;
	size_t len, cap;
	bool oom;
};

/* Room for need bytes in all (len is unchanged); false once oom. */
bool buf_grow(struct buf *b, size_t need);
/* Appends n bytes of src. */
void buf_add(struct buf *b, const void *src, size_t n);
/* Frees p and empties the buffer. */
void buf_free(struct buf *b);

#endif
