/*
 * prices: price-list CSV reader.  The format and the messages are described
 * in prices.h.  libcsv does the CSV (quoting, CRLF, embedded newlines); this
 * file checks what the fields mean.  libcsv hands fields to a callback
 * without positions and without keeping them, so each field is copied and
 * records are counted in the end-of-record callback.
 */
#include "prices.h"

#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bom.h"		/* bom_category_parse */
#include "ytree.h"		/* ytree_escape_text */

/* A unit price above this (USD 1e9) is surely a typo, and the limit keeps
 * qty x price x discount arithmetic far from int64 overflow. */
#define MAX_UNIT_CENTS 100000000000LL

enum col { COL_SKU, COL_PRICE, COL_CURRENCY, COL_CATEGORY, COL_DISCOUNT, COL_DESCRIPTION, COL_COUNT };
static const char *const col_names[COL_COUNT] = {
	"sku", "unit_price", "currency", "category", "discount_pct", "description",
};

/* Where a field starts: line and column (characters), both from 1. */
struct pos {
	long line, col;
};

struct ctx {
	const char *name;
	char *err;
	size_t errsz;
	bool failed;
	long fail_line;			/* the line of the error reported */
	long records;			/* completed records, header included */
	char **fields;			/* the record being read */
	struct pos *at;			/* where each of them starts */
	size_t nf, capf;
	struct pos here;		/* the byte being fed to libcsv */
	struct pos start;		/* where the field being read started */
	bool want_start;		/* the next byte that is not a line end starts one */
	int colmap[64];			/* header column -> enum col */
	size_t ncols;
	int where[COL_COUNT];		/* enum col -> header column, -1 absent */
	char header_currency[4];	/* from unit_price_XXX, or "" */
	struct pos header_currency_at;
	struct prices *out;
	size_t cap, cap_rules;
};

static void fail(struct ctx *c, struct pos at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct ctx *c, struct pos at, const char *fmt, ...)
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
	c->fail_line = at.line;
	int n = snprintf(c->err, c->errsz, "%s:%ld:%ld: ", c->name, at.line, at.col);
	if (n >= 0 && (size_t)n < c->errsz)
		ytree_escape_text(c->err + n, c->errsz - (size_t)n, msg);
}

/* The position of the record's first field (or of the byte being read). */
static struct pos record_at(const struct ctx *c)
{
	return c->nf ? c->at[0] : c->here;
}

static struct pos field_at(const struct ctx *c, int k)
{
	return c->where[k] >= 0 && (size_t)c->where[k] < c->nf ? c->at[c->where[k]] : record_at(c);
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
	struct pos at = c->want_start ? c->here : c->start;
	c->want_start = true;
	if (c->failed)
		return;
	const char *d = data ? data : "";
	if (len && memchr(d, '\0', len)) {
		fail(c, at, "field %zu contains a NUL byte", c->nf + 1);
		return;
	}
	if (!utf8_valid((const unsigned char *)d, len)) {
		fail(c, at, "field %zu is not valid UTF-8 (save the file as UTF-8)", c->nf + 1);
		return;
	}
	if (c->nf == c->capf) {
		size_t ncap = c->capf ? 2 * c->capf : 8;
		char **nf = realloc(c->fields, ncap * sizeof *nf);
		if (nf)
			c->fields = nf;
		struct pos *na = nf ? realloc(c->at, ncap * sizeof *na) : NULL;
		if (!na) {
			fail(c, at, "out of memory");
			return;
		}
		c->at = na;
		c->capf = ncap;
	}
	char *f = malloc(len + 1);
	if (!f) {
		fail(c, at, "out of memory");
		return;
	}
	memcpy(f, d, len);
	f[len] = '\0';
	c->at[c->nf] = at;
	c->fields[c->nf++] = f;
}

/* "unit_price", "unit_price_usd" or "unit_price_XXX": the price column,
 * and the currency its name states ("" when it states none). */
static bool price_header(const char *h, char cur[4])
{
	cur[0] = '\0';
	if (strncasecmp(h, "unit_price", 10))
		return false;
	if (!h[10])
		return true;
	if (h[10] != '_' || strlen(h + 11) != 3)
		return false;
	for (int i = 0; i < 3; i++) {
		if (!isalpha((unsigned char)h[11 + i]))
			return false;
		cur[i] = (char)toupper((unsigned char)h[11 + i]);
	}
	cur[3] = '\0';
	return true;
}

static int header_column(const char *h, char cur[4])
{
	if (price_header(h, cur))
		return COL_PRICE;
	for (int k = 0; k < COL_COUNT; k++)
		if (k != COL_PRICE && !strcasecmp(h, col_names[k]))
			return k;
	return COL_COUNT;
}

static void read_header(struct ctx *c)
{
	for (int k = 0; k < COL_COUNT; k++)
		c->where[k] = -1;
	bool any_known = false;
	char cur[4];
	for (size_t i = 0; i < c->nf; i++)
		if (header_column(trim(c->fields[i]), cur) != COL_COUNT)
			any_known = true;
	if (!any_known) {
		fail(c, record_at(c), "no header: the first record must name the columns, "
		     "at least sku and unit_price");
		return;
	}
	if (c->nf > sizeof c->colmap / sizeof c->colmap[0]) {
		fail(c, record_at(c), "%zu columns in the header; at most %zu are expected",
		     c->nf, sizeof c->colmap / sizeof c->colmap[0]);
		return;
	}
	for (size_t i = 0; i < c->nf; i++) {
		const char *h = trim(c->fields[i]);
		int k = header_column(h, cur);
		if (k == COL_COUNT) {
			if (!*h)
				fail(c, c->at[i], "column %zu has no name in the header", i + 1);
			else
				fail(c, c->at[i], "unknown column '%s' (known: sku, unit_price "
				     "or unit_price_XXX with a currency code, currency, category, "
				     "discount_pct, description)", h);
			return;
		}
		if (c->where[k] >= 0) {
			fail(c, c->at[i], "duplicate column '%s'", col_names[k]);
			return;
		}
		if (k == COL_PRICE && cur[0]) {
			memcpy(c->header_currency, cur, 4);
			c->header_currency_at = c->at[i];
		}
		c->where[k] = (int)i;
		c->colmap[i] = k;
	}
	c->ncols = c->nf;
	if (c->where[COL_SKU] < 0)
		fail(c, record_at(c), "missing required column 'sku' in the header");
	else if (c->where[COL_PRICE] < 0)
		fail(c, record_at(c), "missing required column 'unit_price' in the header");
}

static const char *field(struct ctx *c, enum col k)
{
	return c->where[k] < 0 ? "" : trim(c->fields[c->where[k]]);
}

/* The list has one currency: every code it states must agree. */
static bool take_currency(struct ctx *c, const char *code, struct pos at)
{
	if (strlen(code) != 3 || !isalpha((unsigned char)code[0]) ||
	    !isalpha((unsigned char)code[1]) || !isalpha((unsigned char)code[2])) {
		fail(c, at, "currency '%s' is not an ISO 4217 code (three letters, such as "
		     "USD, EUR, GBP)", code);
		return false;
	}
	char up[4] = { (char)toupper((unsigned char)code[0]), (char)toupper((unsigned char)code[1]),
		       (char)toupper((unsigned char)code[2]), '\0' };
	struct prices *p = c->out;
	if (p->currency_set_ && strcmp(p->currency, up)) {
		fail(c, at, "currency '%s' differs from the list's %s (first stated on line %ld): "
		     "a price list has one currency", up, p->currency, p->currency_line_);
		return false;
	}
	if (!p->currency_set_) {
		memcpy(p->currency, up, 4);
		p->currency_set_ = true;
		p->currency_line_ = at.line;
		p->currency_col_ = at.col;
	}
	return true;
}

/* A part number never holds a control character; one that does would
 * garble the BOM on screen and in the spreadsheet. */
static bool sku_ok(struct ctx *c, const char *sku, struct pos at)
{
	if (!*sku) {
		fail(c, at, "empty sku");
		return false;
	}
	for (const unsigned char *u = (const unsigned char *)sku; *u; u++) {
		if (*u < 0x20 || *u == 0x7f) {
			fail(c, at, "sku holds a control character (byte 0x%02x)", *u);
			return false;
		}
		if (u[0] == 0xC2 && u[1] >= 0x80 && u[1] < 0xA0) {	/* C1: U+0080..U+009F */
			fail(c, at, "sku holds a control character (U+%04X)", u[1]);
			return false;
		}
	}
	return true;
}

static bool read_discount(struct ctx *c, struct price_entry *e)
{
	const char *disc = field(c, COL_DISCOUNT);
	if (!*disc)
		return true;
	int r = prices_parse_pct(disc, &e->discount_upct);
	if (r == -1)
		fail(c, field_at(c, COL_DISCOUNT), "discount_pct '%s' is not a number (a percentage "
		     "such as 12.5, at most 6 decimals)", disc);
	else if (r != 0)
		fail(c, field_at(c, COL_DISCOUNT), "discount_pct '%s' is outside 0-100", disc);
	e->has_discount = r == 0;
	return r == 0;
}

static bool read_price(struct ctx *c, struct price_entry *e, const char *sku)
{
	const char *price = field(c, COL_PRICE);
	struct pos at = field_at(c, COL_PRICE);
	if (!*price) {
		if (e->has_discount)
			return true;	/* a discount on the catalog's price */
		fail(c, at, "empty unit_price for sku '%s' (give a price, or a discount_pct "
		     "to apply to the catalog's)", sku);
		return false;
	}
	switch (prices_parse_cents(price, &e->list_cents)) {
	case -1:
		fail(c, at, "unit_price '%s' is not a number (write 1234.56: "
		     "no currency sign, no thousands separators)", price);
		return false;
	case -2:
		fail(c, at, "negative unit_price '%s' for sku '%s'", price, sku);
		return false;
	case -3:
		fail(c, at, "unit_price '%s' is too large (over 1000000000)", price);
		return false;
	}
	e->has_price = true;
	e->value = strtod(price, NULL);		/* checked as a plain decimal above */
	return true;
}

/* The settings lines (prices.h): their number has its own meaning. */
static bool read_setting(struct ctx *c, struct price_entry *e, const char *sku)
{
	struct prices *p = c->out;
	struct pos at = field_at(c, COL_PRICE);
	const char *price = field(c, COL_PRICE);
	if (!strcmp(sku, PRICES_SKU_CURRENCY)) {
		const char *cur = field(c, COL_CURRENCY);
		if (!*cur) {
			fail(c, record_at(c), "the CURRENCY line needs the currency's code in the "
			     "currency column");
			return false;
		}
		if (!(e->value > 0)) {
			fail(c, at, "CURRENCY '%s': give the exchange rate, units of %s per USD, "
			     "above 0", price, cur);
			return false;
		}
		p->usd_rate = e->value;
		p->rate_set_ = true;
		return true;
	}
	if (!strcmp(sku, PRICES_SKU_MARGIN)) {
		int32_t m;
		if (prices_parse_pct(price, &m) != 0 || m >= 100 * PRICES_PCT_ONE) {
			fail(c, at, "MARGIN '%s' is not a percentage from 0 to below 100 (the gross "
			     "margin on the selling price)", price);
			return false;
		}
		p->margin_upct = m;
		return true;
	}
	if (!strcmp(sku, PRICES_SKU_SUPPORT_YEARS)) {
		if (strcmp(price, "3") && strcmp(price, "5")) {
			fail(c, at, "SUPPORT-YEARS '%s': the support term is 3 or 5 years", price);
			return false;
		}
		p->support_years = atoi(price);
		return true;
	}
	if (!strcmp(sku, PRICES_SKU_RENT_TERM) && strcmp(price, "0") && strcmp(price, "1") &&
	    strcmp(price, "3")) {
		fail(c, at, "RENT-TERM '%s': the rental term is 0 (on-demand), 1 or 3 (years reserved), "
		     "as --rent-term", price);
		return false;
	}
	return true;
}

static bool add_rule(struct ctx *c, const struct price_entry *e)
{
	const char *cat = field(c, COL_CATEGORY);
	enum bom_category bc;
	if (*cat && !bom_category_parse(cat, &bc)) {
		fail(c, field_at(c, COL_CATEGORY), "unknown category '%s' (accelerator, server, "
		     "network, cable, rack, power, support, service, licence, storage)", cat);
		return false;
	}
	if (!e->has_discount || e->has_price) {
		fail(c, record_at(c), "a '*' line is a discount for a category: give discount_pct "
		     "and no unit_price");
		return false;
	}
	struct prices *p = c->out;
	for (size_t i = 0; i < p->n_rules; i++)
		if (!strcmp(p->rules[i].category ? p->rules[i].category : "", cat)) {
			fail(c, record_at(c), "a second '*' line for %s%s (first on line %ld)",
			     *cat ? "category " : "every line", cat, p->rules[i].line);
			return false;
		}
	if (p->n_rules == c->cap_rules) {
		size_t ncap = c->cap_rules ? 2 * c->cap_rules : 8;
		struct price_rule *nr = realloc(p->rules, ncap * sizeof *nr);
		if (!nr) {
			fail(c, record_at(c), "out of memory");
			return false;
		}
		p->rules = nr;
		c->cap_rules = ncap;
	}
	struct price_rule r = { .category = *cat ? strdup(cat) : NULL,
				.discount_upct = e->discount_upct, .line = e->line, .col = e->col };
	if (*cat && !r.category) {
		fail(c, record_at(c), "out of memory");
		return false;
	}
	p->rules[p->n_rules++] = r;
	return true;
}

static bool add_entry(struct ctx *c, struct price_entry *e, const char *sku)
{
	const char *desc = field(c, COL_DESCRIPTION);
	e->sku = strdup(sku);
	e->description = *desc ? strdup(desc) : NULL;
	struct prices *p = c->out;
	if (e->sku && (!*desc || e->description) && p->n == c->cap) {
		size_t ncap = c->cap ? 2 * c->cap : 64;
		struct price_entry *ni = realloc(p->items, ncap * sizeof *ni);
		if (ni) {
			p->items = ni;
			c->cap = ncap;
		}
	}
	if (!e->sku || (*desc && !e->description) || p->n == c->cap) {
		free(e->sku);
		free(e->description);
		fail(c, record_at(c), "out of memory");
		return false;
	}
	p->items[p->n++] = *e;
	return true;
}

static void read_row(struct ctx *c)
{
	bool all_empty = true;
	for (size_t i = 0; i < c->nf; i++)
		if (*trim(c->fields[i]))
			all_empty = false;
	if (all_empty)
		return;
	if (c->nf != c->ncols) {
		fail(c, record_at(c), "%zu field%s, expected %zu as in the header", c->nf,
		     c->nf == 1 ? "" : "s", c->ncols);
		return;
	}
	const char *sku = field(c, COL_SKU);
	struct pos at = field_at(c, COL_SKU);
	struct price_entry e = { .line = at.line, .col = at.col };
	if (!sku_ok(c, sku, at) || !read_discount(c, &e))
		return;
	bool any = !strcmp(sku, PRICES_SKU_ANY);
	if (any && *field(c, COL_PRICE)) {
		fail(c, field_at(c, COL_PRICE), "a '*' line has no unit_price: it discounts a category");
		return;
	}
	if (!any && !read_price(c, &e, sku))
		return;
	const char *cur = field(c, COL_CURRENCY);
	if (*cur && !take_currency(c, cur, field_at(c, COL_CURRENCY)))
		return;
	if (*field(c, COL_CATEGORY) && !any) {
		fail(c, field_at(c, COL_CATEGORY), "category is for '*' lines (a discount for a "
		     "category); a part's category is the catalog's");
		return;
	}
	e.net_cents = prices_discounted(e.list_cents, e.discount_upct);
	if (any)
		add_rule(c, &e);
	else if (read_setting(c, &e, sku))
		add_entry(c, &e, sku);
}

static void on_record(int term, void *vctx)
{
	(void)term;
	struct ctx *c = vctx;
	c->want_start = true;
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

static int by_sku_then_line(const void *a, const void *b)
{
	const struct price_entry *x = a, *y = b;
	int r = strcmp(x->sku, y->sku);
	if (r)
		return r;
	return (x->line > y->line) - (x->line < y->line);
}

/* Sorts the entries by sku for prices_find().  Returns the duplicate that
 * comes earliest in the file (its later occurrence), or NULL. */
static const struct price_entry *sort_and_find_duplicate(struct prices *p, long *first)
{
	if (p->n)
		qsort(p->items, p->n, sizeof *p->items, by_sku_then_line);
	const struct price_entry *dup = NULL;
	for (size_t i = 1; i < p->n; i++)
		if (!strcmp(p->items[i].sku, p->items[i - 1].sku) &&
		    (!dup || p->items[i].line < dup->line)) {
			dup = &p->items[i];
			/* the first occurrence of this sku: the run's start */
			size_t j = i - 1;
			while (j > 0 && !strcmp(p->items[j - 1].sku, dup->sku))
				j--;
			*first = p->items[j].line;
		}
	return dup;
}

double prices_usd_rate(const struct prices *p)
{
	return p && p->usd_rate > 0 ? p->usd_rate : 1.0;
}

const char *prices_currency(const struct prices *p)
{
	return p && p->currency[0] ? p->currency : "USD";
}

const char *prices_money_prefix(const char *code, char *buf, size_t n)
{
	if (!code || !strcmp(code, "USD"))
		snprintf(buf, n, "$");
	else
		snprintf(buf, n, "%s ", code);
	return buf;
}

const char *prices_money_name(const char *name, const char *code, char *buf, size_t n)
{
	const char *u = strstr(name, "usd");
	if (!code || !strcmp(code, "USD") || !u || strlen(code) != 3) {
		snprintf(buf, n, "%s", name);
		return buf;
	}
	char low[4] = { (char)tolower((unsigned char)code[0]), (char)tolower((unsigned char)code[1]),
			(char)tolower((unsigned char)code[2]), '\0' };
	snprintf(buf, n, "%.*s%s%s", (int)(u - name), name, low, u + 3);
	return buf;
}

void prices_init(struct prices *p)
{
	memset(p, 0, sizeof *p);
	memcpy(p->currency, "USD", 4);
	p->usd_rate = 1.0;
}

void prices_fini(struct prices *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->items[i].sku);
		free(p->items[i].description);
	}
	for (size_t i = 0; i < p->n_rules; i++)
		free(p->rules[i].category);
	free(p->rules);
	free(p->items);
	free(p->path);
	prices_init(p);
}

int64_t prices_discounted(int64_t cents, int32_t upct)
{
	/* Half up, in unsigned integers: cents <= 1e11 and the factor
	 * <= 1e8, so the product stays under 1e19 < 2^64. */
	const uint64_t one = 100ULL * PRICES_PCT_ONE;
	if (cents <= 0 || upct <= 0)
		return cents;
	return (int64_t)(((uint64_t)cents * (one - (uint64_t)upct) + one / 2) / one);
}

static const struct price_rule *rule_for(const struct prices *p, const char *category)
{
	const struct price_rule *all = NULL;
	for (size_t i = 0; i < p->n_rules; i++) {
		if (!p->rules[i].category)
			all = &p->rules[i];
		else if (category && !strcmp(p->rules[i].category, category))
			return &p->rules[i];
	}
	return all;
}

int64_t prices_unit_cents(const struct prices *p, const char *sku, const char *category,
			  int64_t catalog_cents, const struct price_entry **entry,
			  int32_t *discount_upct)
{
	const struct price_entry *e = prices_find(p, sku);
	*entry = e;
	*discount_upct = 0;
	if (!p)
		return catalog_cents;
	int64_t base = e && e->has_price ? e->list_cents : catalog_cents;
	const struct price_rule *r = rule_for(p, category);
	if (e && e->has_discount)
		*discount_upct = e->discount_upct;
	else if (r)
		*discount_upct = r->discount_upct;
	return prices_discounted(base, *discount_upct);
}

int64_t prices_margin_cents(const struct prices *p, int64_t cost_cents)
{
	if (!p || p->margin_upct <= 0 || cost_cents <= 0)
		return 0;
	/* cost x m / (1 - m), m in millionths of a percent, half up; cost
	 * under 2^53 cents keeps the long double exact enough to the cent. */
	const long double one = 100.0L * PRICES_PCT_ONE;
	long double m = (long double)cost_cents * p->margin_upct / (one - p->margin_upct);
	return m < 9e18L ? (int64_t)(m + 0.5L) : INT64_MAX;
}

/* Feeds libcsv one byte at a time so that every field's line and column
 * is known (libcsv reports none): the field starts at the first byte fed
 * after the previous one ended, line ends excepted. */
static void parse_bytes(struct ctx *c, struct csv_parser *p, const char *text, size_t len)
{
	c->here = (struct pos){ 1, 1 };
	c->want_start = true;
	for (size_t i = 0; i < len && !c->failed; i++) {
		unsigned char b = (unsigned char)text[i];
		if (c->want_start && b != '\r' && b != '\n') {
			c->start = c->here;
			c->want_start = false;
		}
		if (csv_parse(p, text + i, 1, on_field, on_record, c) != 1) {
			fail(c, c->here, "%s", csv_error(p) == CSV_EPARSE ?
			     "malformed quoting: a quote inside an unquoted field or text after "
			     "a closing quote" : csv_strerror(csv_error(p)));
			return;
		}
		/* LF, CRLF and a lone CR (libcsv ends a record at each) are one
		 * line end each */
		bool cr_alone = b == '\r' && (i + 1 == len || text[i + 1] != '\n');
		if (b == '\n' || cr_alone) {
			c->here.line++;
			c->here.col = 1;
		} else if ((b & 0xC0) != 0x80) {
			c->here.col++;		/* characters, not bytes */
		}
	}
}

/* After the last line: the currency stated needs a rate to convert the
 * catalog's USD, and a rate needs a currency. */
static void check_currency(struct ctx *c)
{
	struct prices *p = c->out;
	if (c->header_currency[0] && !c->failed)
		take_currency(c, c->header_currency, c->header_currency_at);
	if (c->failed)
		return;
	bool usd = !strcmp(p->currency, "USD");
	const struct price_entry *line = prices_find(p, PRICES_SKU_CURRENCY);
	struct pos at = line ? (struct pos){ line->line, line->col }
			: (struct pos){ p->currency_line_, p->currency_col_ };
	if (!usd && !p->rate_set_)
		fail(c, at, "the list is in %s: add a line CURRENCY with the exchange rate (%s per "
		     "USD) in unit_price and %s in currency, so catalog prices can be converted",
		     p->currency, p->currency, p->currency);
	else if (usd && p->rate_set_ && p->usd_rate != 1.0)
		fail(c, at, "the list is in USD: the CURRENCY line's rate must be 1");
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
	parse_bytes(&c, &p, text, len);
	if (!c.failed && csv_fini(&p, on_field, on_record, &c) != 0)
		fail(&c, c.start, "unterminated quoted field (a \" opened and never closed)");
	csv_free(&p);
	for (size_t i = 0; i < c.nf; i++)
		free(c.fields[i]);
	free(c.fields);
	free(c.at);

	if (!c.failed && c.records == 0)
		fail(&c, c.here, "empty file: a price list starts with a header line "
		     "naming sku and unit_price");
	/* Duplicates are found once the entries are sorted; one that comes
	 * before another error is the one to report. */
	long first = 0;
	const struct price_entry *dup = sort_and_find_duplicate(out, &first);
	if (dup && (!c.failed || dup->line <= c.fail_line)) {
		c.failed = false;
		fail(&c, (struct pos){ dup->line, dup->col }, "duplicate sku '%s' (first on line %ld)",
		     dup->sku, first);
	}
	check_currency(&c);
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
