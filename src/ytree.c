/*
 * ytree: one YAML document read with libyaml's event parser into a tree of
 * nodes that keep their 1-based line and column.
 *
 * Why events rather than yaml_parser_load(): the document API expands
 * aliases and has no depth limit, so a hostile file ("billion laughs", or
 * ten thousand nested brackets) could exhaust memory or the stack.  With
 * events we refuse aliases and count depth ourselves.
 *
 * Every node and string lives in one arena owned by the tree, so freeing a
 * tree is a walk over a few blocks, and the loaders never free nodes.
 */
#include "ytree.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

/* ---- arena ---- */

struct ablock {
	struct ablock *next;
	size_t used, cap;
	max_align_t data[];
};

struct ytree_impl {
	struct ytree pub;	/* first, so a struct ytree * converts back */
	struct ablock *arena;
};

#define ARENA_BLOCK 16384

static void *arena_alloc(struct ytree_impl *t, size_t size)
{
	const size_t align = sizeof(max_align_t);
	size = (size + align - 1) / align * align;
	struct ablock *b = t->arena;
	if (!b || b->cap - b->used < size) {
		size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
		b = malloc(sizeof *b + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = t->arena;
		t->arena = b;
	}
	void *p = (char *)b->data + b->used;
	b->used += size;
	return p;
}

/* ---- error formatting ---- */

static void set_err(char *err, size_t errsz, const char *path, int line, int col,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void set_err(char *err, size_t errsz, const char *path, int line, int col,
		    const char *fmt, ...)
{
	if (!err || !errsz)
		return;
	char raw[1024];
	int n;
	if (line > 0)
		n = snprintf(raw, sizeof raw, "%s:%d:%d: ", path, line, col);
	else
		n = snprintf(raw, sizeof raw, "%s: ", path);
	if (n >= 0 && (size_t)n < sizeof raw) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(raw + n, sizeof raw - (size_t)n, fmt, ap);
		va_end(ap);
	}
	/* Messages quote values from the file: keep them inert. */
	ytree_escape_text(err, errsz, raw);
}

/* ---- UTF-8 ---- */

/* Is c a line break as libyaml counts them?  Returns the byte length of the
 * break at s (CR LF counts as one), or 0. */
static size_t break_len(const unsigned char *s, size_t left)
{
	if (s[0] == '\n')
		return 1;
	if (s[0] == '\r')
		return left > 1 && s[1] == '\n' ? 2 : 1;
	if (left > 1 && s[0] == 0xC2 && s[1] == 0x85)		/* NEL */
		return 2;
	if (left > 2 && s[0] == 0xE2 && s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9))
		return 3;					/* LS, PS */
	return 0;
}

/* Length of the valid UTF-8 sequence at s, or 0 if the bytes are not
 * well-formed UTF-8 (overlong forms, surrogates and values beyond U+10FFFF
 * are refused, as RFC 3629 requires). */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	unsigned c = s[0];
	if (c < 0x80)
		return 1;
	size_t n;
	unsigned min;
	uint32_t cp;
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2, min = 0x80, cp = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3, min = 0x800, cp = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4, min = 0x10000, cp = c & 0x07;
	} else {
		return 0;
	}
	if (left < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

/* Line and column (1-based, columns in characters like libyaml's) of byte
 * offset off in text, which is valid UTF-8 up to off. */
static void offset_position(const char *text, size_t off, int *line, int *col)
{
	const unsigned char *s = (const unsigned char *)text;
	int l = 1, c = 1;
	size_t i = 0;
	while (i < off) {
		size_t b = break_len(s + i, off - i);
		if (b) {
			l++, c = 1, i += b;
			continue;
		}
		size_t n = utf8_len(s + i, off - i);
		i += n ? n : 1;
		c++;
	}
	*line = l;
	*col = c;
}

/* Checks the whole text once; on a bad byte reports its position. */
static bool check_utf8(const char *path, const char *text, size_t len, char *err, size_t errsz)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0;
	while (i < len) {
		/* ASCII eight bytes at a time: catalog files are nearly all
		 * ASCII, and this scan used to cost as much as reading them */
		while (len - i >= 8) {
			uint64_t w;
			memcpy(&w, s + i, 8);
			if (w & 0x8080808080808080ULL)
				break;
			i += 8;
		}
		if (i >= len)
			break;
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		size_t n = utf8_len(s + i, len - i);
		if (!n) {
			int line, col;
			offset_position(text, i, &line, &col);
			set_err(err, errsz, path, line, col,
				"invalid UTF-8 byte 0x%02x (the file must be UTF-8 text)", s[i]);
			return false;
		}
		i += n;
	}
	return true;
}

/* ---- building the tree from events ---- */

/* One open collection: its node and the children seen so far (for a
 * mapping, keys and values alternate). */
struct frame {
	struct ynode *node;
	struct ynode **kids;
	size_t n, cap;
};

struct builder {
	struct ytree_impl *t;
	const char *path;
	struct frame stack[YTREE_MAX_DEPTH];
	int depth;
	char *err;
	size_t errsz;
};

static bool build_oom(struct builder *b)
{
	set_err(b->err, b->errsz, b->path, 0, 0, "out of memory");
	return false;
}

static struct ynode *new_node(struct builder *b, enum ynode_kind kind, const yaml_mark_t *m)
{
	struct ynode *n = arena_alloc(b->t, sizeof *n);
	if (!n)
		return NULL;
	memset(n, 0, sizeof *n);
	n->kind = kind;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	return n;
}

/* Hangs node under the open collection (or makes it the root). */
static bool attach(struct builder *b, struct ynode *node)
{
	if (b->depth == 0) {
		b->t->pub.root = node;
		return true;
	}
	struct frame *f = &b->stack[b->depth - 1];
	if (f->node->kind == YN_MAP && f->n % 2 == 0 && node->kind != YN_SCALAR) {
		set_err(b->err, b->errsz, b->path, node->line, node->col,
			"a mapping key must be a plain value, not %s", ynode_kind_name(node->kind));
		return false;
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		struct ynode **k = realloc(f->kids, cap * sizeof *k);
		if (!k)
			return build_oom(b);
		f->kids = k;
		f->cap = cap;
	}
	f->kids[f->n++] = node;
	return true;
}

struct keyref {
	const char *s;
	size_t idx;
};

static int keyref_cmp(const void *a, const void *b)
{
	const struct keyref *x = a, *y = b;
	int c = strcmp(x->s, y->s);
	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The earliest key that repeats an earlier one, by sorting: O(n log n) so
 * that a mapping with many keys cannot stall the parser.  False when out
 * of memory. */
static bool sorted_duplicate(const struct ynode *map, size_t *dup, size_t *first)
{
	struct keyref *r = malloc(map->n * sizeof *r);
	if (!r)
		return false;
	for (size_t i = 0; i < map->n; i++)
		r[i] = (struct keyref){ map->keys[i]->scalar, i };
	qsort(r, map->n, sizeof *r, keyref_cmp);
	for (size_t i = 1; i < map->n; i++) {
		if (strcmp(r[i].s, r[i - 1].s))
			continue;
		size_t run = i - 1;
		while (run > 0 && !strcmp(r[run - 1].s, r[i].s))
			run--;
		if (r[i].idx < *dup)
			*dup = r[i].idx, *first = r[run].idx;
	}
	free(r);
	return true;
}

/* Reports the earliest key that repeats an earlier one. */
static bool check_duplicates(struct builder *b, const struct ynode *map)
{
	if (map->n < 2)
		return true;
	size_t dup = SIZE_MAX, first = 0;
	if (map->n <= 24) {
		/* Small mappings, nearly all of them: compare every pair in
		 * order, which finds the same earliest repeat without the
		 * allocation and the sort. */
		for (size_t i = 1; i < map->n && dup == SIZE_MAX; i++) {
			const char *ki = map->keys[i]->scalar;
			for (size_t j = 0; j < i; j++) {
				const char *kj = map->keys[j]->scalar;
				if (ki[0] == kj[0] && !strcmp(ki, kj)) {
					dup = i, first = j;
					break;
				}
			}
		}
	} else if (!sorted_duplicate(map, &dup, &first)) {
		return build_oom(b);
	}
	if (dup == SIZE_MAX)
		return true;
	const struct ynode *k = map->keys[dup];
	set_err(b->err, b->errsz, b->path, k->line, k->col, "duplicate key '%s' (first at line %d)",
		k->scalar, map->keys[first]->line);
	return false;
}

/* Closes the innermost collection: its children move into the arena. */
static bool close_frame(struct builder *b)
{
	struct frame *f = &b->stack[--b->depth];
	struct ynode *node = f->node;
	if (node->kind == YN_MAP) {
		node->n = f->n / 2;
		node->keys = arena_alloc(b->t, (node->n ? node->n : 1) * sizeof *node->keys);
		node->items = arena_alloc(b->t, (node->n ? node->n : 1) * sizeof *node->items);
		if (!node->keys || !node->items)
			return build_oom(b);
		for (size_t i = 0; i < node->n; i++) {
			node->keys[i] = f->kids[2 * i];
			node->items[i] = f->kids[2 * i + 1];
		}
		f->n = 0;
		return check_duplicates(b, node);
	}
	node->n = f->n;
	node->items = arena_alloc(b->t, (node->n ? node->n : 1) * sizeof *node->items);
	if (!node->items)
		return build_oom(b);
	if (node->n)
		memcpy(node->items, f->kids, node->n * sizeof *node->items);
	f->n = 0;
	return true;
}

static bool on_scalar(struct builder *b, const yaml_event_t *ev)
{
	struct ynode *n = new_node(b, YN_SCALAR, &ev->start_mark);
	if (!n)
		return build_oom(b);
	size_t len = ev->data.scalar.length;
	const char *v = (const char *)ev->data.scalar.value;
	/* A "\0" escape would cut the C string short without anyone noticing. */
	if (memchr(v, '\0', len)) {
		set_err(b->err, b->errsz, b->path, n->line, n->col,
			"a NUL character inside a value is not supported");
		return false;
	}
	n->scalar = arena_alloc(b->t, len + 1);
	if (!n->scalar)
		return build_oom(b);
	memcpy(n->scalar, v, len);
	n->scalar[len] = '\0';
	/* A tag (!!str 80) makes the text explicit, like quotes do. */
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		   ev->data.scalar.plain_implicit;
	return attach(b, n);
}

static bool on_start(struct builder *b, const yaml_event_t *ev, enum ynode_kind kind)
{
	int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;
	if (b->depth == YTREE_MAX_DEPTH) {
		set_err(b->err, b->errsz, b->path, line, col,
			"nesting deeper than %d levels", YTREE_MAX_DEPTH);
		return false;
	}
	struct ynode *n = new_node(b, kind, &ev->start_mark);
	if (!n)
		return build_oom(b);
	if (!attach(b, n))
		return false;
	b->stack[b->depth].node = n;
	b->stack[b->depth].n = 0;
	b->depth++;
	return true;
}

/* Turns libyaml's error into "path:line:col: problem (context)". */
static void parser_error(struct builder *b, const yaml_parser_t *p, const char *text)
{
	const char *problem = p->problem ? p->problem : "invalid YAML";
	int line, col;
	switch (p->error) {
	case YAML_MEMORY_ERROR:
		build_oom(b);
		return;
	case YAML_READER_ERROR:
		/* Reader errors carry a byte offset, not a mark. */
		offset_position(text, p->problem_offset, &line, &col);
		if (p->problem_value != -1)
			set_err(b->err, b->errsz, b->path, line, col, "%s (character 0x%x)",
				problem, (unsigned)p->problem_value);
		else
			set_err(b->err, b->errsz, b->path, line, col, "%s", problem);
		return;
	default:
		line = (int)p->problem_mark.line + 1;
		col = (int)p->problem_mark.column + 1;
		if (p->context)
			set_err(b->err, b->errsz, b->path, line, col, "%s (%s at line %d)", problem,
				p->context, (int)p->context_mark.line + 1);
		else
			set_err(b->err, b->errsz, b->path, line, col, "%s", problem);
		return;
	}
}

static bool run_parser(struct builder *b, const char *text, size_t len)
{
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		return build_oom(b);
	/* A UTF-8 byte-order mark may open the stream (YAML 1.2, 5.2); with
	 * the encoding set explicitly libyaml would read it as content, so
	 * it is skipped here.  Line and column marks are unchanged by it. */
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
		text += 3;
		len -= 3;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);

	bool ok = true, done = false;
	int documents = 0;
	while (ok && !done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			parser_error(b, &p, text);
			ok = false;
			break;
		}
		int line = (int)ev.start_mark.line + 1, col = (int)ev.start_mark.column + 1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++documents > 1) {
				set_err(b->err, b->errsz, b->path, line, col,
					"a second YAML document is not supported (one document per file)");
				ok = false;
			}
			break;
		case YAML_ALIAS_EVENT:
			set_err(b->err, b->errsz, b->path, line, col, "aliases are not supported");
			ok = false;
			break;
		case YAML_SCALAR_EVENT:
			ok = on_scalar(b, &ev);
			break;
		case YAML_SEQUENCE_START_EVENT:
			ok = on_start(b, &ev, YN_SEQ);
			break;
		case YAML_MAPPING_START_EVENT:
			ok = on_start(b, &ev, YN_MAP);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			ok = close_frame(b);
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);

	/* "---" alone parses as one empty plain value: treat it as empty. */
	struct ynode *r = b->t->pub.root;
	if (ok && r && r->kind == YN_SCALAR && r->plain && !r->scalar[0])
		b->t->pub.root = NULL;
	return ok;
}

/* ---- public ---- */

void ytree_free(struct ytree *t)
{
	if (!t)
		return;
	struct ytree_impl *ti = (struct ytree_impl *)t;
	for (struct ablock *b = ti->arena, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(t->path);
	free(ti);
}

struct ytree *ytree_parse_string(const char *path, const char *text, size_t len,
				 char *err, size_t errsz)
{
	if (err && errsz)
		err[0] = '\0';
	if (len > (size_t)YTREE_MAX_BYTES) {
		set_err(err, errsz, path, 0, 0, "file is too large (%zu bytes, the limit is %ld)",
			len, (long)YTREE_MAX_BYTES);
		return NULL;
	}
	if (!check_utf8(path, text, len, err, errsz))
		return NULL;

	struct ytree_impl *t = calloc(1, sizeof *t);
	if (!t || !(t->pub.path = strdup(path))) {
		free(t);
		set_err(err, errsz, path, 0, 0, "out of memory");
		return NULL;
	}
	struct builder b = { .t = t, .path = path, .err = err, .errsz = errsz };
	bool ok = run_parser(&b, text, len);
	for (int i = 0; i < YTREE_MAX_DEPTH; i++)
		free(b.stack[i].kids);
	if (!ok) {
		ytree_free(&t->pub);
		return NULL;
	}
	return &t->pub;
}

/* Reads at most YTREE_MAX_BYTES + 1 bytes so an oversized file is
 * detected without reading it all. */
static char *read_file(const char *path, size_t *len, char *err, size_t errsz)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		set_err(err, errsz, path, 0, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		set_err(err, errsz, path, 0, 0, "cannot read: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		set_err(err, errsz, path, 0, 0, "is a directory, not a YAML file");
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		set_err(err, errsz, path, 0, 0, "not a regular file");
		close(fd);
		return NULL;
	}
	if (st.st_size > YTREE_MAX_BYTES) {
		set_err(err, errsz, path, 0, 0, "file is too large (%lld bytes, the limit is %ld)",
			(long long)st.st_size, (long)YTREE_MAX_BYTES);
		close(fd);
		return NULL;
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	char *buf = malloc(cap + 1);
	if (!buf) {
		set_err(err, errsz, path, 0, 0, "out of memory");
		close(fd);
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			/* The file grew while we read it; keep the size bound. */
			if (cap > (size_t)YTREE_MAX_BYTES) {
				set_err(err, errsz, path, 0, 0,
					"file is too large (the limit is %ld bytes)",
					(long)YTREE_MAX_BYTES);
				goto fail;
			}
			size_t ncap = cap * 2 > (size_t)YTREE_MAX_BYTES + 1 ?
				      (size_t)YTREE_MAX_BYTES + 1 : cap * 2;
			char *nb = realloc(buf, ncap + 1);
			if (!nb) {
				set_err(err, errsz, path, 0, 0, "out of memory");
				goto fail;
			}
			buf = nb;
			cap = ncap;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			set_err(err, errsz, path, 0, 0, "cannot read: %s", strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

struct ytree *ytree_parse_file(const char *path, char *err, size_t errsz)
{
	if (err && errsz)
		err[0] = '\0';
	size_t len;
	char *text = read_file(path, &len, err, errsz);
	if (!text)
		return NULL;
	struct ytree *t = ytree_parse_string(path, text, len, err, errsz);
	free(text);
	return t;
}

const struct ynode *ytree_get(const struct ynode *map, const char *key)
{
	if (!map || map->kind != YN_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i]->scalar, key))
			return map->items[i];
	return NULL;
}

const char *ynode_kind_name(enum ynode_kind k)
{
	switch (k) {
	case YN_SCALAR:
		return "a value";
	case YN_MAP:
		return "a mapping";
	case YN_SEQ:
		return "a list";
	}
	return "?";
}

/* ---- scalar conversions ---- */

bool ynode_is_null(const struct ynode *n)
{
	if (!n)
		return true;
	if (n->kind != YN_SCALAR || !n->plain)
		return false;
	const char *s = n->scalar;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

/* YAML 1.2 core schema number: [-+]? ( .digits | digits [. digits?] )
 * [eE [-+]? digits]?  No hex, no inf/nan, no underscores: a catalog figure
 * must read the same to a person as to the program. */
static bool is_decimal(const char *s, bool allow_fraction)
{
	if (*s == '+' || *s == '-')
		s++;
	size_t ip = strspn(s, "0123456789");
	s += ip;
	if (!allow_fraction)
		return ip > 0 && !*s;
	size_t fp = 0;
	if (*s == '.') {
		s++;
		fp = strspn(s, "0123456789");
		s += fp;
	}
	if (!ip && !fp)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		size_t ep = strspn(s, "0123456789");
		if (!ep)
			return false;
		s += ep;
	}
	return !*s;
}

/* Clinger's fast path: at most 15 significant digits, no exponent and at
 * most 22 decimals.  The digits and the power of ten are then exact doubles
 * and one division rounds once, so the result is strtod's to the bit, for
 * a fraction of its cost (strtod was most of reading a catalog's numbers).
 * False: leave it to strtod. */
static bool fast_decimal(const char *s, double *out)
{
	static const double p10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};
	bool neg = *s == '-';
	if (*s == '+' || *s == '-')
		s++;
	uint64_t m = 0;
	int digits = 0, decimals = 0;
	bool frac = false;
	for (;; s++) {
		if (*s == '.' && !frac) {
			frac = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		if ((m || *s != '0') && ++digits > 15)
			return false;
		m = m * 10 + (uint64_t)(*s - '0');
		decimals += frac;
	}
	if (*s || decimals > 22)
		return false;
	double v = (double)m / p10[decimals];
	*out = neg ? -v : v;
	return true;
}

bool ynode_number(const struct ynode *n, double *out)
{
	if (!n || n->kind != YN_SCALAR || !n->plain || !is_decimal(n->scalar, true))
		return false;
	if (fast_decimal(n->scalar, out))
		return true;
	errno = 0;
	double v = strtod(n->scalar, NULL);
	if (errno == ERANGE && (v > 1 || v < -1))
		return false;		/* overflow; underflow to ~0 is fine */
	*out = v;
	return true;
}

bool ynode_integer(const struct ynode *n, long *out)
{
	if (!n || n->kind != YN_SCALAR || !n->plain || !is_decimal(n->scalar, false))
		return false;
	errno = 0;
	long v = strtol(n->scalar, NULL, 10);
	if (errno == ERANGE)
		return false;
	*out = v;
	return true;
}

bool ynode_bool(const struct ynode *n, bool *out)
{
	if (!n || n->kind != YN_SCALAR || !n->plain)
		return false;
	static const char *const yes[] = { "true", "True", "TRUE" };
	static const char *const no[] = { "false", "False", "FALSE" };
	for (size_t i = 0; i < 3; i++) {
		if (!strcmp(n->scalar, yes[i])) {
			*out = true;
			return true;
		}
		if (!strcmp(n->scalar, no[i])) {
			*out = false;
			return true;
		}
	}
	return false;
}

const char *ynode_describe(const struct ynode *n, char *buf, size_t sz)
{
	if (!buf || !sz)
		return "";
	if (!n) {
		snprintf(buf, sz, "nothing");
	} else if (n->kind != YN_SCALAR) {
		snprintf(buf, sz, "%s", ynode_kind_name(n->kind));
	} else if (n->plain && ynode_is_null(n)) {
		snprintf(buf, sz, "%s", n->scalar[0] ? "null" : "nothing");
	} else {
		/* Long values are cut so one message stays one line. */
		const int max = 40;
		int len = (int)strlen(n->scalar);
		const char *nl = strpbrk(n->scalar, "\r\n");
		if (nl && nl - n->scalar < len)
			len = (int)(nl - n->scalar);
		bool cut = len > max || n->scalar[len];
		if (len > max) {
			len = max;
			while (len > 0 && ((unsigned char)n->scalar[len] & 0xC0) == 0x80)
				len--;		/* do not split a UTF-8 character */
		}
		if (n->plain)
			snprintf(buf, sz, "'%.*s%s'", len, n->scalar, cut ? "..." : "");
		else
			snprintf(buf, sz, "the string \"%.*s%s\"", len, n->scalar, cut ? "..." : "");
	}
	return buf;
}

int ytree_format_error(char *buf, size_t sz, const char *path, const struct ynode *n,
		       const char *fmt, ...)
{
	if (!buf || !sz)
		return 0;
	int off = n ? snprintf(buf, sz, "%s:%d:%d: ", path, n->line, n->col)
		    : snprintf(buf, sz, "%s: ", path);
	if (off < 0)
		return off;
	if ((size_t)off >= sz)
		return off;
	va_list ap;
	va_start(ap, fmt);
	int m = vsnprintf(buf + off, sz - (size_t)off, fmt, ap);
	va_end(ap);
	if (m < 0)
		return m;
	/* The message quotes values from the file: escape what a terminal
	 * would act on (the prefix is the caller's path, kept as is). */
	char *safe = ytree_escape_dup(buf + off);
	if (safe) {
		m = (int)ytree_escape_text(buf + off, sz - (size_t)off, safe);
		free(safe);
	}
	return off + m;
}

/* Length of the UTF-8 character at s that may be shown as it is, 0 if the
 * byte must be escaped (a control character or not UTF-8). */
static size_t shown_len(const unsigned char *s, size_t left)
{
	if (s[0] < 0x80)
		return (s[0] < 0x20 && s[0] != '\t') || s[0] == 0x7f ? 0 : 1;
	size_t n = utf8_len(s, left);
	if (n == 2 && s[0] == 0xC2 && s[1] < 0xA0)
		return 0;		/* C1 control, U+0080..U+009F */
	return n;
}

size_t ytree_escape_text(char *dst, size_t dstsz, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t left = strlen(src), need = 0, used = 0;
	bool full = !dst || !dstsz;
	while (left) {
		char esc[8];
		const char *piece;
		size_t len = shown_len(s, left);
		if (len) {
			piece = (const char *)s;
		} else if (s[0] == '\n' || s[0] == '\r') {
			snprintf(esc, sizeof esc, "\\%c", s[0] == '\n' ? 'n' : 'r');
			piece = esc;
		} else if (s[0] == 0xC2 && left > 1 && s[1] >= 0x80 && s[1] < 0xA0) {
			snprintf(esc, sizeof esc, "\\u%04x", s[1]);
			piece = esc;
			s++, left--;	/* two bytes, one escape */
		} else {
			snprintf(esc, sizeof esc, "\\x%02x", s[0]);
			piece = esc;
		}
		size_t plen = len ? len : strlen(esc);
		/* Whole characters and whole escapes only. */
		if (!full && used + plen < dstsz) {
			memcpy(dst + used, piece, plen);
			used += plen;
		} else {
			full = true;
		}
		need += plen;
		s += len ? len : 1;
		left -= len ? len : 1;
	}
	if (dst && dstsz)
		dst[used] = '\0';
	return need;
}

char *ytree_escape_dup(const char *src)
{
	size_t n = ytree_escape_text(NULL, 0, src);
	char *d = malloc(n + 1);
	if (d)
		ytree_escape_text(d, n + 1, src);
	return d;
}
