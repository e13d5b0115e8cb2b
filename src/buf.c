/*
 * buf: a growable byte buffer (see buf.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

bool buf_grow(struct buf *b, size_t need)
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

void buf_add(struct buf *b, const void *src, size_t n)
{
	if (!buf_grow(b, b->len + n))
		return;
	if (n)
		memcpy(b->p + b->len, src, n);
	b->len += n;
}

void buf_free(struct buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}
