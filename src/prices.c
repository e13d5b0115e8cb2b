/*
 * prices: price-list CSV reader.  The format and the messages are described
 * in prices.h.  libcsv does the CSV (quoting, CRLF, embedded newlines); this
 * file checks what the fields mean.  libcsv hands fields to a callback
 * without positions and without keeping them, so each field is copied and
 * records are counted in the end-of-record callback.
 */
#include "prices.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ytree.h"		/* ytree_escape_text */

/* A unit price above this (USD 1e9) is surely a typo, and the limit keeps
 * qty x price x discount arithmetic far from int64 overflow. */
#define MAX_UNIT_CENTS 100000000000LL

enum col { COL_SKU, COL_PRICE, COL_CURRENCY, COL_DISCOUNT, COL_DESCRIPTION, COL_COUNT };
static const char *const col_names[COL_COUNT] = {
	"sku", "unit_price_usd", "currency", "discount_pct", "description",
};

struct ctx {
	const char *name;
	char *err;
	size_t errsz;
	bool failed;
	long records;			/* completed records, header included */
	char **fields;			/* the record being read */
	size_t nf, capf;
	int colmap[64];			/* header column -> enum col */
	size_t ncols;
	int where[COL_COUNT];		/* enum col -> header column, -1 absent */
	struct prices *out;
	size_t cap;
};

static void fail(struct ctx *c, long record, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct ctx *c, long record, const char *fmt, ...)
{
	if (c->failed)
		return;
	c->failed = true;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* Messages quote fields from the file: keep them inert on a terminal,
	 * and cut a long one between characters, not inside one. */
	int n = snprintf(c->err, c->errsz, "%s:record %ld: ", c->name, record);
	if (n >= 0 && (size_t)n < c->errsz)
		ytree_escape_text(c->err + n, c->errsz - (size_t)n, msg);
}

/* Strict UTF-8 (RFC 3629): no overlongs, no surrogates, nothing past
 * U+10FFFF. */
static bool utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned char b = s[i];
		size_t len;
		unsigned lo = 0x80, hi = 0xBF;
		if (b < 0x80) {
			i++;
			continue;
		} else if (b >= 0xC2 && b <= 0xDF) {
			len = 2;
		} else if (b >= 0xE0 && b <= 0xEF) {
			len = 3;
			if (b == 0xE0)
				lo = 0xA0;
			else if (b == 0xED)
				hi = 0x9F;
		} else if (b >= 0xF0 && b <= 0xF4) {
			len = 4;
			if (b == 0xF0)
				lo = 0x90;
			else if (b == 0xF4)
				hi = 0x8F;
		} else {
			return false;
		}
		if (n - i < len)
			return false;
		if (s[i + 1] < lo || s[i + 1] > hi)
			return false;
		for (size_t k = 2; k < len; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xBF)
				return false;
		i += len;
	}
	return true;
}

int prices_parse_cents(const char *s, int64_t *out)
{
	const char *p = s;
	while (*p == ' ' || *p == '\t')
		p++;
	bool neg = false;
	if (*p == '-') {
		neg = true;
		p++;
	} else if (*p == '+') {
		p++;
	}
	int64_t whole = 0;
	int digits = 0;
	bool too_big = false;
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (whole > MAX_UNIT_CENTS)
			too_big = true;
		else
			whole = whole * 10 + (*p - '0');
	}
	int64_t frac = 0;		/* in cents */
	int fdigits = 0;
	bool round_up = false;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, fdigits++) {
			if (fdigits < 2)
				frac = frac * 10 + (*p - '0');
			else if (fdigits == 2)
				round_up = *p >= '5';
		}
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p || digits + fdigits == 0)
		return -1;
	if (fdigits == 1)
		frac *= 10;
	int64_t cents = too_big ? MAX_UNIT_CENTS + 1 : whole * 100 + frac + round_up;
	if (neg && cents > 0)
		return -2;
	if (cents > MAX_UNIT_CENTS)
		return -3;
	*out = cents;
	return 0;
}

int prices_parse_pct(const char *s, int32_t *out)
{
	const char *p = s;
	while (*p == ' ' || *p == '\t')
		p++;
	bool neg = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	int64_t v = 0;
	int digits = 0, fdigits = 0;
	for (; *p >= '0' && *p <= '9'; p++, digits++)
		if (v <= 1000 * (int64_t)PRICES_PCT_ONE)	/* past 100 already; stop growing */
			v = v * 10 + (*p - '0');
	v *= PRICES_PCT_ONE;
	if (*p == '.') {
		int64_t scale = PRICES_PCT_ONE / 10;
		for (p++; *p >= '0' && *p <= '9'; p++, fdigits++, scale /= 10) {
			if (fdigits == 6)
				return -1;
			v += (*p - '0') * scale;
		}
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p || digits + fdigits == 0)
		return -1;
	if ((neg && v > 0) || v > 100 * (int64_t)PRICES_PCT_ONE)
		return -2;
	*out = (int32_t)v;
	return 0;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

static void on_field(void *data, size_t len, void *vctx)
{
	struct ctx *c = vctx;
	if (c->failed)
		return;
	long rec = c->records + 1;
	const char *d = data ? data : "";
	if (len && memchr(d, '\0', len)) {
		fail(c, rec, "field %zu contains a NUL byte", c->nf + 1);
		return;
	}
	if (!utf8_valid((const unsigned char *)d, len)) {
		fail(c, rec, "field %zu is not valid UTF-8 (save the file as UTF-8)", c->nf + 1);
		return;
	}
	if (c->nf == c->capf) {
		size_t ncap = c->capf ? 2 * c->capf : 8;
		char **nf = realloc(c->fields, ncap * sizeof *nf);
		if (!nf) {
			fail(c, rec, "out of memory");
			return;
		}
		c->fields = nf;
		c->capf = ncap;
	}
	char *f = malloc(len + 1);
	if (!f) {
		fail(c, rec, "out of memory");
		return;
	}
	memcpy(f, d, len);
	f[len] = '\0';
	c->fields[c->nf++] = f;
}

static void read_header(struct ctx *c)
{
	const long rec = 1;
	for (int k = 0; k < COL_COUNT; k++)
		c->where[k] = -1;
	bool any_known = false;
	for (size_t i = 0; i < c->nf; i++) {
		const char *h = trim(c->fields[i]);
		for (int k = 0; k < COL_COUNT; k++)
			if (!strcasecmp(h, col_names[k]))
				any_known = true;
	}
	if (!any_known) {
		fail(c, rec, "no header: the first record must name the columns, "
		     "at least sku and unit_price_usd");
		return;
	}
	if (c->nf > sizeof c->colmap / sizeof c->colmap[0]) {
		fail(c, rec, "%zu columns in the header; at most %zu are expected",
		     c->nf, sizeof c->colmap / sizeof c->colmap[0]);
		return;
	}
	for (size_t i = 0; i < c->nf; i++) {
		const char *h = trim(c->fields[i]);
		int k;
		for (k = 0; k < COL_COUNT; k++)
			if (!strcasecmp(h, col_names[k]))
				break;
		if (k == COL_COUNT) {
			if (!*h)
				fail(c, rec, "column %zu has no name in the header", i + 1);
			else
				fail(c, rec, "unknown column '%s' (known: sku, unit_price_usd, "
				     "currency, discount_pct, description)", h);
			return;
		}
		if (c->where[k] >= 0) {
			fail(c, rec, "duplicate column '%s'", col_names[k]);
			return;
		}
		c->where[k] = (int)i;
		c->colmap[i] = k;
	}
	c->ncols = c->nf;
	if (c->where[COL_SKU] < 0)
		fail(c, rec, "missing required column 'sku' in the header");
	else if (c->where[COL_PRICE] < 0)
		fail(c, rec, "missing required column 'unit_price_usd' in the header");
}

static const char *field(struct ctx *c, enum col k)
{
	return c->where[k] < 0 ? "" : trim(c->fields[c->where[k]]);
}

static void read_row(struct ctx *c)
{
	long rec = c->records + 1;
	bool all_empty = true;
	for (size_t i = 0; i < c->nf; i++)
		if (*trim(c->fields[i]))
			all_empty = false;
	if (all_empty)
		return;
	if (c->nf != c->ncols) {
		fail(c, rec, "%zu field%s, expected %zu as in the header", c->nf,
		     c->nf == 1 ? "" : "s", c->ncols);
		return;
	}
	const char *sku = field(c, COL_SKU);
	if (!*sku) {
		fail(c, rec, "empty sku");
		return;
	}
	/* A part number never holds a control character; one that does would
	 * garble the BOM on screen and in the spreadsheet. */
	for (const unsigned char *u = (const unsigned char *)sku; *u; u++) {
		if (*u < 0x20 || *u == 0x7f) {
			fail(c, rec, "sku holds a control character (byte 0x%02x)", *u);
			return;
		}
		if (u[0] == 0xC2 && u[1] >= 0x80 && u[1] < 0xA0) {	/* C1: U+0080..U+009F */
			fail(c, rec, "sku holds a control character (U+%04X)", u[1]);
			return;
		}
	}
	const char *price = field(c, COL_PRICE);
	struct price_entry e = { .record = rec };
	if (!*price) {
		fail(c, rec, "empty unit_price_usd for sku '%s'", sku);
		return;
	}
	switch (prices_parse_cents(price, &e.list_cents)) {
	case -1:
		fail(c, rec, "unit_price_usd '%s' is not a number (write 1234.56: "
		     "no currency sign, no thousands separators)", price);
		return;
	case -2:
		fail(c, rec, "negative unit_price_usd '%s' for sku '%s'", price, sku);
		return;
	case -3:
		fail(c, rec, "unit_price_usd '%s' is too large (over 1000000000)", price);
		return;
	}
	const char *cur = field(c, COL_CURRENCY);
	if (*cur && strcasecmp(cur, "USD")) {
		fail(c, rec, "currency '%s' is not supported: prices must be in USD", cur);
		return;
	}
	const char *disc = field(c, COL_DISCOUNT);
	int32_t upct = 0;
	if (*disc) {
		int r = prices_parse_pct(disc, &upct);
		if (r == -1) {
			fail(c, rec, "discount_pct '%s' is not a number (a percentage such as 12.5, "
			     "at most 6 decimals)", disc);
			return;
		}
		if (r != 0) {
			fail(c, rec, "discount_pct '%s' is outside 0-100", disc);
			return;
		}
	}
	e.discount_upct = upct;
	/* Half up, in unsigned integers: list <= 1e11 cents and the factor
	 * <= 1e8, so the product stays under 1e19 < 2^64. */
	const uint64_t one = 100ULL * PRICES_PCT_ONE;
	e.net_cents = (int64_t)(((uint64_t)e.list_cents * (one - (uint64_t)upct) + one / 2) / one);
	const char *desc = field(c, COL_DESCRIPTION);
	e.sku = strdup(sku);
	e.description = *desc ? strdup(desc) : NULL;
	if (!e.sku || (*desc && !e.description)) {
		free(e.sku);
		free(e.description);
		fail(c, rec, "out of memory");
		return;
	}
	struct prices *p = c->out;
	if (p->n == c->cap) {
		size_t ncap = c->cap ? 2 * c->cap : 64;
		struct price_entry *ni = realloc(p->items, ncap * sizeof *ni);
		if (!ni) {
			free(e.sku);
			free(e.description);
			fail(c, rec, "out of memory");
			return;
		}
		p->items = ni;
		c->cap = ncap;
	}
	p->items[p->n++] = e;
}

static void on_record(int term, void *vctx)
{
	(void)term;
	struct ctx *c = vctx;
	if (!c->failed) {
		if (c->records == 0)
			read_header(c);
		else
			read_row(c);
	}
	for (size_t i = 0; i < c->nf; i++)
		free(c->fields[i]);
	c->nf = 0;
	c->records++;
}

static int by_sku_then_record(const void *a, const void *b)
{
	const struct price_entry *x = a, *y = b;
	int r = strcmp(x->sku, y->sku);
	if (r)
		return r;
	return (x->record > y->record) - (x->record < y->record);
}

/* Sorts the entries by sku for prices_find().  Returns the duplicate that
 * comes earliest in the file (its later occurrence), or NULL. */
static const struct price_entry *sort_and_find_duplicate(struct prices *p, long *first)
{
	if (p->n)
		qsort(p->items, p->n, sizeof *p->items, by_sku_then_record);
	const struct price_entry *dup = NULL;
	for (size_t i = 1; i < p->n; i++)
		if (!strcmp(p->items[i].sku, p->items[i - 1].sku) &&
		    (!dup || p->items[i].record < dup->record)) {
			dup = &p->items[i];
			/* the first occurrence of this sku: the run's start */
			size_t j = i - 1;
			while (j > 0 && !strcmp(p->items[j - 1].sku, dup->sku))
				j--;
			*first = p->items[j].record;
		}
	return dup;
}

void prices_init(struct prices *p)
{
	p->path = NULL;
	p->items = NULL;
	p->n = 0;
}

void prices_fini(struct prices *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->items[i].sku);
		free(p->items[i].description);
	}
	free(p->items);
	free(p->path);
	prices_init(p);
}

bool prices_parse(const char *name, const char *text, size_t len, struct prices *out,
		  char *err, size_t errsz)
{
	prices_init(out);
	struct ctx c = { .name = name, .err = err, .errsz = errsz, .out = out };
	/* A UTF-8 byte-order mark (spreadsheets on Windows write one) is not
	 * part of the first column's name. */
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
		text += 3;
		len -= 3;
	}
	struct csv_parser p;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
		snprintf(err, errsz, "%s: out of memory", name);
		return false;
	}
	size_t used = csv_parse(&p, text, len, on_field, on_record, &c);
	if (!c.failed && used != len)
		fail(&c, c.records + 1, "%s", csv_error(&p) == CSV_EPARSE ?
		     "malformed quoting: a quote inside an unquoted field or text after a closing quote"
		     : csv_strerror(csv_error(&p)));
	if (!c.failed && csv_fini(&p, on_field, on_record, &c) != 0)
		fail(&c, c.records + 1, "unterminated quoted field (a \" opened and never closed)");
	csv_free(&p);
	for (size_t i = 0; i < c.nf; i++)
		free(c.fields[i]);
	free(c.fields);

	if (!c.failed && c.records == 0)
		fail(&c, 1, "empty file: a price list starts with a header line "
		     "naming sku and unit_price_usd");
	/* Duplicates are found once the entries are sorted; one that comes
	 * before another error is the one to report. */
	long first = 0;
	const struct price_entry *dup = sort_and_find_duplicate(out, &first);
	if (dup) {
		c.failed = false;
		fail(&c, dup->record, "duplicate sku '%s' (first on record %ld)", dup->sku, first);
	}
	if (c.failed) {
		prices_fini(out);
		return false;
	}
	out->path = strdup(name);
	if (!out->path) {
		snprintf(err, errsz, "%s: out of memory", name);
		prices_fini(out);
		return false;
	}
	return true;
}

bool prices_load(const char *path, struct prices *out, char *err, size_t errsz)
{
	prices_init(out);
	/* O_NONBLOCK: a FIFO must not hang the program waiting for a writer.
	 * The size is checked before anything is read. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > PRICES_MAX_BYTES) {
		if (S_ISDIR(st.st_mode))
			snprintf(err, errsz, "%s: %s", path, strerror(EISDIR));
		else if (!S_ISREG(st.st_mode))
			snprintf(err, errsz, "%s: not a regular file", path);
		else
			snprintf(err, errsz, "%s: larger than %ld MiB; is this a price list?",
				 path, PRICES_MAX_BYTES / (1024 * 1024));
		close(fd);
		return false;
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		close(fd);
		return false;
	}
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			if (cap >= (size_t)PRICES_MAX_BYTES) {
				snprintf(err, errsz, "%s: larger than %ld MiB; is this a price list?",
					 path, PRICES_MAX_BYTES / (1024 * 1024));
				free(buf);
				fclose(f);
				return false;
			}
			size_t ncap = cap ? 2 * cap : 65536;
			char *nb = realloc(buf, ncap + 1);
			if (!nb) {
				snprintf(err, errsz, "%s: out of memory", path);
				free(buf);
				fclose(f);
				return false;
			}
			buf = nb;
			cap = ncap;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		free(buf);
		fclose(f);
		return false;
	}
	fclose(f);
	bool ok = prices_parse(path, buf ? buf : "", len, out, err, errsz);
	free(buf);
	return ok;
}

static int cmp_key(const void *key, const void *elem)
{
	return strcmp(key, ((const struct price_entry *)elem)->sku);
}

const struct price_entry *prices_find(const struct prices *p, const char *sku)
{
	if (!p || !p->n || !sku)
		return NULL;
	return bsearch(sku, p->items, p->n, sizeof *p->items, cmp_key);
}
