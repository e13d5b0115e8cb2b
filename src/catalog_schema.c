/*
 * catalog_schema: walks over the catalog tables (catalog_schema.h), for
 * every module that needs the shape of a catalog struct.  The tables
 * themselves are catalog_load.c's.
 */
#include "catalog_schema.h"

#include <stdlib.h>
#include <string.h>

void *catalog_kind_items(const struct catalog *c, size_t k, size_t *n)
{
	*n = catalog_slot_count(c, catalog_kinds[k].n_off);
	return catalog_slot_ptr(c, catalog_kinds[k].arr_off);
}

void catalog_item_free(const struct catalog_schema *s, void *base)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct catalog_field *f = &s->f[i];
		if (catalog_field_is_str(f)) {
			free(catalog_slot_ptr(base, f->off));
		} else if (f->type == CF_STRLIST) {
			char **list = catalog_slot_ptr(base, f->off);
			size_t n = catalog_slot_count(base, f->off_n);
			for (size_t j = 0; list && j < n; j++)
				free(list[j]);
			free(list);
		} else if (f->type == CF_LIST) {
			char *arr = catalog_slot_ptr(base, f->off);
			size_t n = catalog_slot_count(base, f->off_n);
			for (size_t j = 0; arr && j < n; j++)
				catalog_item_free(f->sub, arr + j * f->sub->size);
			free(arr);
		}
	}
	if (s->has_file)
		free(catalog_slot_ptr(base, s->file_off));
}

size_t catalog_item_unconfirmed(const struct catalog_schema *s, const void *base)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct catalog_field *f = &s->f[i];
		if (f->type == CF_STRLIST && (f->flags & CF_SOURCE)) {
			char **list = catalog_slot_ptr(base, f->off);
			size_t n = catalog_slot_count(base, f->off_n);
			for (size_t j = 0; list && j < n; j++)
				k += catalog_source_unconfirmed(list[j]);
		} else if (f->type == CF_LIST) {
			const char *arr = catalog_slot_ptr(base, f->off);
			size_t n = catalog_slot_count(base, f->off_n);
			for (size_t j = 0; arr && j < n; j++)
				k += catalog_item_unconfirmed(f->sub, arr + j * f->sub->size);
		} else if ((f->flags & CF_SOURCE) && catalog_field_is_str(f)) {
			k += catalog_source_unconfirmed(catalog_slot_ptr(base, f->off));
		}
	}
	return k;
}

const char *catalog_schema_key(const struct catalog_schema *s, size_t off, bool group,
			       char *buf, size_t n)
{
	for (size_t i = 0; i < s->n; i++) {
		const char *key = s->f[i].key;
		if (s->f[i].off != off)
			continue;
		const char *dot = group ? strrchr(key, '.') : NULL;
		size_t len = dot ? (size_t)(dot - key) : strlen(key);
		if (len >= n)
			len = n ? n - 1 : 0;
		if (n) {
			memcpy(buf, key, len);
			buf[len] = '\0';
		}
		return n ? buf : "";
	}
	return "?";
}

/* ---- layout hash ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3u;
	return h ^ (h >> 29);
}

static uint64_t mix_double(uint64_t h, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof v);
	return mix(h, v);
}

/* What the binary layout and the checks on it depend on: types, flags,
 * offsets, ranges and enum counts (a key's spelling does not move a
 * byte of an image). */
uint64_t catalog_schema_hash(const struct catalog_schema *s, uint64_t h)
{
	h = mix(h, s->n);
	h = mix(h, s->size);
	h = mix(h, s->has_file ? s->file_off + 1 : 0);
	for (size_t i = 0; i < s->n; i++) {
		const struct catalog_field *f = &s->f[i];
		h = mix(h, (uint64_t)f->type);
		h = mix(h, f->flags);
		h = mix(h, f->off);
		h = mix(h, f->off_n);
		h = mix_double(h, f->min);
		h = mix_double(h, f->max);
		h = mix_double(h, f->scale);
		h = mix(h, (uint64_t)f->count);
		if (f->sub)
			h = catalog_schema_hash(f->sub, h);
	}
	return h;
}

uint64_t catalog_schema_layout(void)
{
	/* the tables are constant: hashed once per process */
	static uint64_t memo;
	if (memo)
		return memo;
	uint64_t h = 0xcbf29ce484222325u;
	h = mix(h, sizeof(struct catalog));
	h = mix(h, sizeof(void *));
	for (size_t k = 0; k < CATALOG_N_KINDS; k++) {
		const struct catalog_kind *kd = &catalog_kinds[k];
		h = mix(h, kd->arr_off);
		h = mix(h, kd->n_off);
		h = mix(h, kd->id_off);
		h = mix(h, kd->line_off);
		h = catalog_schema_hash(kd->s, h);
	}
	h = mix(h, offsetof(struct catalog, defaults));
	h = mix(h, offsetof(struct catalog, dir));
	h = catalog_schema_hash(&catalog_defaults_schema, h);
	memo = h ? h : 1;
	return memo;
}
