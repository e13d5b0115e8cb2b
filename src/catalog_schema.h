/*
 * catalog_schema: the shape of every catalog file, written down once.
 *
 * Each kind of file (accelerator, platform, fabric, model, defaults, and
 * the BOM lines inside a platform) has one table of its keys: dotted path,
 * type, where the value goes in the struct, range, flags.  catalog_load.c
 * owns the tables and reads YAML with them; everything else that needs
 * the shape of a catalog struct walks the same tables instead of listing
 * fields again: freeing (catalog_free), counting unconfirmed sources, the
 * binary image's string slots, enum and flag checks and its layout key
 * (catalog_image.c), and the ranges a figure from an image must meet
 * (catalog_values_ok).  A new catalog field is one row in its table plus
 * its member in catalog.h (docs/design.md, "Catalog tables").
 */
#ifndef ACCELSIZER_CATALOG_SCHEMA_H
#define ACCELSIZER_CATALOG_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "catalog.h"

enum catalog_ftype {
	CF_ID,		/* the item's id (char *): must equal the file name */
	CF_STR,		/* non-empty string (char *) */
	CF_DATE,	/* "2024-06" or "2024-06-30" (char *) */
	CF_NUM,		/* double, plain YAML number */
	CF_BOOL,	/* bool, plain YAML true or false */
	CF_INT,		/* int */
	CF_LONG,	/* long */
	CF_ENUM,	/* one of ->names (any case), kept as its index: an int-sized enum */
	CF_CHOICE,	/* string (char *) that must be one of ->choices */
	CF_STRLIST,	/* list of strings: char ** at off, size_t count at off_n */
	CF_LIST,	/* list of mappings read with ->sub: array at off, count at off_n */
	CF_ACCEL_REF,	/* accelerator id: char * at off, resolved pointer at off_n */
	CF_IDLIST,	/* list of ids, kept as one "a, b" string (char *) at off */
};

enum {
	CF_REQ = 1,		/* required whenever the mapping holding it exists */
	CF_OPTGROUP = 2,	/* ...but the mapping holding it is optional */
	CF_GT_MIN = 4,		/* min is exclusive */
	CF_SOURCE = 8,		/* a source text: "unconfirmed:" marks count */
	CF_ZERO_OK = 16,	/* 0 also accepted: the figure is not given */
};

struct catalog_schema;
struct catalog_load_ctx;	/* private to catalog_load.c */
struct ynode;

struct catalog_field {
	const char *key;	/* dotted path: "memory.capacity_gb" */
	enum catalog_ftype type;
	unsigned flags;
	size_t off, off_n;
	double min, max;
	double scale;		/* CF_NUM: stored value = value x scale (0: 1) */
	const char *const *names;	/* CF_ENUM: the words, indexed by value */
	int count;		/* CF_ENUM: values are 0 .. count - 1 */
	const char *choices;	/* CF_CHOICE: "a, b, c", for messages too */
	const struct catalog_schema *sub;	/* CF_LIST */
};

struct catalog_schema {
	const char *what;		/* "accelerator", for messages */
	const struct catalog_field *f;
	size_t n;
	size_t size;			/* one item or list element */
	bool has_file;			/* a char *file (the YAML it came from) at file_off */
	size_t file_off;
	/* Checks that involve several keys, after the table pass. */
	void (*check)(struct catalog_load_ctx *x, void *item, const struct ynode *root);
};

/* The folders of a catalog, in load order (platforms refer to
 * accelerators, so those come first), with where each one's array sits in
 * struct catalog. */
struct catalog_kind {
	const char *dir;		/* "accelerators" */
	const struct catalog_schema *s;
	size_t arr_off, n_off;		/* in struct catalog */
	size_t id_off, line_off;	/* in the item */
	bool optional;			/* the folder may be missing (an older catalog) */
};

#define CATALOG_N_KINDS 6
extern const struct catalog_kind catalog_kinds[CATALOG_N_KINDS];
extern const struct catalog_schema catalog_defaults_schema;
extern const struct catalog_schema catalog_accel_schema, catalog_partition_schema, catalog_ar_point_schema,
	catalog_platform_schema, catalog_bom_schema, catalog_fabric_schema, catalog_model_schema,
	catalog_licence_schema, catalog_network_schema, catalog_serving_stack_schema, catalog_stack_platform_schema,
	catalog_training_stack_schema, catalog_train_platform_schema, catalog_train_share_schema;

/* The words of the catalog's enums, indexed by value (catalog.c): the
 * loader's CF_ENUM rows, its messages and the *_name() functions share
 * them. */
extern const char *const catalog_form_names[FORM_COUNT];
extern const char *const catalog_stack_names[STACK_COUNT];
extern const char *const catalog_topology_names[TOPO_COUNT];
extern const char *const catalog_train_prec_names[TPREC_COUNT];
extern const char *const catalog_dp_overlap_names[DPO_COUNT];

/* Index of s among names[0 .. n - 1], case-insensitive (so "FP8" on a
 * command line works), or -1. */
int catalog_name_find(const char *const *names, int n, const char *s);

/* The key of the row that stores the member at off of an item of s
 * ("memory.capacity_gb"), or with group the mapping that holds it
 * ("efficiency.compute" for efficiency.compute.value, "experts" for
 * experts.total), written into buf; "?" when no row stores it.  For
 * labels (`catalog show`), so no key is spelled twice. */
const char *catalog_schema_key(const struct catalog_schema *s, size_t off, bool group,
			       char *buf, size_t n);

/* The pointer, or the count, in the slot at byte offset off of a catalog
 * struct (a table's off or off_n); memcpy, since the table, not a type,
 * says what the slot holds.  Inline: the image code reads every slot. */
static inline void *catalog_slot_ptr(const void *base, size_t off)
{
	void *p;
	memcpy(&p, (const char *)base + off, sizeof p);
	return p;
}

static inline size_t catalog_slot_count(const void *base, size_t off)
{
	size_t n;
	memcpy(&n, (const char *)base + off, sizeof n);
	return n;
}

/* Is this row a string the struct owns (char * at off)?  Inline: the
 * image reader asks it for every row of every item. */
static inline bool catalog_field_is_str(const struct catalog_field *f)
{
	return f->type == CF_ID || f->type == CF_STR || f->type == CF_DATE ||
	       f->type == CF_CHOICE || f->type == CF_ACCEL_REF || f->type == CF_IDLIST;
}

/* The items of kind k in c, and how many. */
void *catalog_kind_items(const struct catalog *c, size_t k, size_t *n);

/* Frees what the item at base owns by s (strings, lists, nested lists, its
 * file), not the item itself. */
void catalog_item_free(const struct catalog_schema *s, void *base);

/* Sources in the item marked "unconfirmed:" (CF_SOURCE rows and the
 * strings of every sources list, nested lists included). */
size_t catalog_item_unconfirmed(const struct catalog_schema *s, const void *base);

/* A hash of table s (every row's type, flags, offsets, range and enum
 * count) and of what it nests, folded into h: the catalog image's layout
 * key, so that any change to a table, even a field that fills a padding
 * hole and leaves the struct's size alone, gives another key. */
uint64_t catalog_schema_hash(const struct catalog_schema *s, uint64_t h);

/* catalog_schema_hash over every kind, the defaults and struct catalog's
 * own layout. */
uint64_t catalog_schema_layout(void);

#endif
