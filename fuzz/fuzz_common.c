/*
 * Checks shared by the fuzz targets: what makes an error message clean.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool fuzz_printable_utf8(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	while (*u) {
		unsigned c = *u;
		size_t n;
		uint32_t cp;
		if (c < 0x80) {
			/* Tab is harmless; every other C0 control and DEL is not. */
			if ((c < 0x20 && c != '\t') || c == 0x7f)
				return false;
			u++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			n = 2, cp = c & 0x1F;
		else if (c >= 0xE0 && c <= 0xEF)
			n = 3, cp = c & 0x0F;
		else if (c >= 0xF0 && c <= 0xF4)
			n = 4, cp = c & 0x07;
		else
			return false;
		for (size_t i = 1; i < n; i++) {
			if ((u[i] & 0xC0) != 0x80)
				return false;
			cp = cp << 6 | (u[i] & 0x3F);
		}
		static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
		if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return false;
		/* C1 controls: xterm and others act on U+009B (CSI) and friends. */
		if (cp >= 0x80 && cp <= 0x9F)
			return false;
		u += n;
	}
	return true;
}

bool fuzz_clean_message(const char *what, const char *msg, const char *prefix)
{
	if (!msg || !*msg) {
		fprintf(stderr, "fuzz: %s failed without a message\n", what);
		return false;
	}
	if (prefix && strncmp(msg, prefix, strlen(prefix))) {
		fprintf(stderr, "fuzz: %s: message does not start with '%s': %s\n", what, prefix, msg);
		return false;
	}
	if (!fuzz_printable_utf8(msg)) {
		fprintf(stderr, "fuzz: %s: message holds control characters or bad UTF-8: ", what);
		for (const unsigned char *u = (const unsigned char *)msg; *u; u++)
			fprintf(stderr, *u < 0x20 || *u >= 0x7f ? "\\x%02x" : "%c", *u);
		fputc('\n', stderr);
		return false;
	}
	return true;
}

uint8_t *fuzz_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, got;
	do {
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap = cap ? 2 * cap : 4096);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return buf;
}
