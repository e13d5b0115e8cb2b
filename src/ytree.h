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
 *
 * Errors: a problem with a place reads "path:line:col: message"; a problem
 * with the file as a whole (cannot open, a directory, too large) reads
 * "path: message".  An empty file, or one with only comments, is not an
 * error: it gives a tree whose root is NULL and the caller decides.
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

/*
 * Scalar conversions.  Only plain (unquoted, untagged) scalars are numbers,
 * booleans or null: "80" in quotes is a string, and a catalog that says so
 * is an error rather than a guess.  Numbers are YAML 1.2 decimals (no hex,
 * inf, nan or underscores).  Each returns false when n is not such a value
 * and leaves *out alone.
 */
bool ynode_number(const struct ynode *n, double *out);
bool ynode_integer(const struct ynode *n, long *out);	/* digits only */
bool ynode_bool(const struct ynode *n, bool *out);	/* true/false */
bool ynode_is_null(const struct ynode *n);	/* NULL node, "", ~, null */

/* What n is, for "expected a number, got %s": "'fast'", "the string \"80\"",
 * "a mapping", "a list", "nothing", "null".  Writes into buf, returns it. */
const char *ynode_describe(const struct ynode *n, char *buf, size_t sz);

/* snprintf of "path:line:col: " (n's position; "path: " when n is NULL)
 * followed by fmt.  Returns what snprintf returns. */
int ytree_format_error(char *buf, size_t sz, const char *path, const struct ynode *n,
		       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * Text quoted back from a file into a message must not act on the
 * terminal that shows it: a value such as "\e[2J" would clear the user's
 * screen, a newline would forge a second message.  ytree_escape_text()
 * copies src into dst with C0 controls (but tab), DEL and C1 controls
 * written as visible escapes ("\n", "\x1b", "\u009b") and any byte that
 * is not UTF-8 as "\xNN"; truncation never cuts a character in half.
 * Returns the length the whole escaped text needs (like snprintf); dst
 * may be NULL when dstsz is 0.  ytree_escape_dup() returns a malloc'd
 * escaped copy (NULL when out of memory).
 */
size_t ytree_escape_text(char *dst, size_t dstsz, const char *src);
char *ytree_escape_dup(const char *src);

#endif
