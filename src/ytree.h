/*
 * ytree: a YAML document read with libyaml into a small tree whose every
 * node keeps its line and column, so each loader (catalog, scenario, theme)
 * can walk plain data and still report file:line:col: message.
 *
 * Bounded on purpose: documents nest at most YTREE_MAX_DEPTH deep, aliases
 * are refused (no "billion laughs"), files larger than YTREE_MAX_BYTES are
 * refused, and non-UTF-8 input is an error.  Nothing is global.
 *
 * Ownership: ytree_parse_file() returns a tree the caller frees with
 * ytree_free(); every node and string belongs to the tree.
 */
#ifndef ACCELSIZER_YTREE_H
#define ACCELSIZER_YTREE_H

#include <stdbool.h>
#include <stddef.h>

#define YTREE_MAX_DEPTH 32
#define YTREE_MAX_BYTES (4L * 1024 * 1024)

enum ynode_kind { YN_SCALAR, YN_MAP, YN_SEQ };

struct ynode {
	enum ynode_kind kind;
	int line, col;			/* 1-based */
	char *scalar;			/* YN_SCALAR: the text */
	bool plain;			/* YN_SCALAR: unquoted (so "null", numbers apply) */
	struct ynode **keys;		/* YN_MAP: scalar keys */
	struct ynode **items;		/* YN_MAP: values; YN_SEQ: items */
	size_t n;
};

struct ytree {
	char *path;
	struct ynode *root;		/* NULL for an empty document */
};

/* Parses one YAML document.  On error returns NULL and writes
 * "path:line:col: message" into err. */
struct ytree *ytree_parse_file(const char *path, char *err, size_t errsz);
struct ytree *ytree_parse_string(const char *path, const char *text, size_t len,
				 char *err, size_t errsz);
void ytree_free(struct ytree *t);

/* Value of key in a mapping, or NULL. */
const struct ynode *ytree_get(const struct ynode *map, const char *key);
const char *ynode_kind_name(enum ynode_kind k);	/* "a mapping" */

#endif
