/*
 * Price-list reader: every malformed fixture in tests/fixtures/prices/bad
 * gives exactly the message in its .expect file; the good fixtures read
 * back the figures a person would compute by hand.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "prices.h"
#include "fixture.h"
#include "tap.h"

#define FIXTURES ABS_TOP_SRCDIR "/tests/fixtures/prices"

static glob_t bad;

START_TEST(bad_fixture_exact_message)
{
	const char *csv = bad.gl_pathv[_i];
	char expect_path[1024];
	snprintf(expect_path, sizeof expect_path, "%.*s.expect", (int)(strlen(csv) - 4), csv);
	char *expect = fixture_slurp(expect_path);
	char want[2048], err[1024] = "";
	snprintf(want, sizeof want, "%s:%s", csv, expect);
	struct prices p;
	bool ok = prices_load(csv, &p, err, sizeof err);
	ck_assert_msg(!ok, "%s loaded", csv);
	ck_assert_str_eq(err, want);
	ck_assert_uint_eq(p.n, 0);
	ck_assert_ptr_null(p.items);
	prices_fini(&p);
	free(expect);
}
END_TEST

START_TEST(at_least_fifteen_bad_fixtures)
{
	ck_assert_uint_ge(bad.gl_pathc, 15);
}
END_TEST

START_TEST(mixed_good_fixture)
{
	/* BOM, CRLF, columns in another order and case, a quoted description
	 * with a comma, doubled quotes and a line break, a blank record,
	 * spaces around values, discounts, UTF-8 text. */
	struct prices p;
	char err[512] = "";
	ck_assert_msg(prices_load(FIXTURES "/good/mixed.csv", &p, err, sizeof err), "%s", err);
	ck_assert_uint_eq(p.n, 4);

	const struct price_entry *w = prices_find(&p, "W-1");
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(w->list_cents, 100001);	/* 1000.005 rounds half up */
	ck_assert_int_eq(w->discount_upct, 10 * PRICES_PCT_ONE);
	ck_assert_int_eq(w->net_cents, 90001);		/* 900.009 -> 900.01 */
	ck_assert_str_eq(w->description, "Widget, large \"XL\"\r\nsecond line");
	ck_assert_int_eq(w->record, 2);

	const struct price_entry *f = prices_find(&p, "F-1");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(f->list_cents, 29);		/* 0.285 -> 0.29, no float */
	ck_assert_int_eq(f->net_cents, 29);
	ck_assert_str_eq(f->description, "=HYPERLINK(\"http://x\")");
	ck_assert_int_eq(f->record, 4);			/* the blank record counts */

	const struct price_entry *s = prices_find(&p, "SPACE-1");
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(s->net_cents, 4200);
	ck_assert_ptr_null(s->description);

	const struct price_entry *u = prices_find(&p, "U-1");
	ck_assert_ptr_nonnull(u);
	ck_assert_int_eq(u->net_cents, 7000);		/* 80 less 12.5 % */
	ck_assert_str_eq(u->description, "Note: caf\xc3\xa9 \xe2\x82\xac");

	ck_assert_ptr_null(prices_find(&p, "w-1"));	/* SKUs are exact */
	prices_fini(&p);
}
END_TEST

START_TEST(cents_parsing)
{
	static const struct {
		const char *in;
		int rc;
		int64_t cents;
	} cases[] = {
		{ "0", 0, 0 }, { "12", 0, 1200 }, { "12.5", 0, 1250 }, { "12.34", 0, 1234 },
		{ "0.285", 0, 29 }, { "0.284999", 0, 28 }, { "1.005", 0, 101 }, { ".5", 0, 50 },
		{ "7.", 0, 700 }, { " 3 ", 0, 300 }, { "+4", 0, 400 },
		{ "1000000000", 0, 100000000000LL },
		{ "", -1, 0 }, { ".", -1, 0 }, { "1,5", -1, 0 }, { "1e3", -1, 0 }, { "abc", -1, 0 },
		{ "12 USD", -1, 0 }, { "-1", -2, 0 }, { "-0.01", -2, 0 },
		{ "1000000000.01", -3, 0 }, { "99999999999999999999999", -3, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int64_t v = -7;
		int rc = prices_parse_cents(cases[i].in, &v);
		ck_assert_msg(rc == cases[i].rc, "'%s': rc %d, expected %d", cases[i].in, rc,
			      cases[i].rc);
		if (rc == 0)
			ck_assert_msg(v == cases[i].cents, "'%s': %lld cents, expected %lld",
				      cases[i].in, (long long)v, (long long)cases[i].cents);
	}
}
END_TEST

START_TEST(percent_parsing)
{
	/* issue 13 item 6: a percentage is a decimal in 0-100, not cents. */
	static const struct {
		const char *in;
		int rc;
		int32_t upct;
	} cases[] = {
		{ "0", 0, 0 }, { "12.345", 0, 12345000 }, { "99.999", 0, 99999000 },
		{ "100", 0, 100000000 }, { "100.000000", 0, 100000000 }, { " 4 ", 0, 4000000 },
		{ "0.000001", 0, 1 }, { ".5", 0, 500000 },
		{ "100.004", -2, 0 }, { "100.000001", -2, 0 }, { "-1", -2, 0 }, { "1000000000000", -2, 0 },
		{ "0.0000001", -1, 0 }, { "", -1, 0 }, { ".", -1, 0 }, { "5%", -1, 0 }, { "1e1", -1, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int32_t v = -7;
		int rc = prices_parse_pct(cases[i].in, &v);
		ck_assert_msg(rc == cases[i].rc, "'%s': rc %d, expected %d", cases[i].in, rc,
			      cases[i].rc);
		if (rc == 0)
			ck_assert_msg(v == cases[i].upct, "'%s': %d, expected %d", cases[i].in, (int)v,
				      (int)cases[i].upct);
	}
	/* $1,000,000 less 12.345 % is 876,550.00; less 99.999 % is 10.00. */
	struct prices p;
	char err[256] = "";
	const char *t = "sku,unit_price_usd,discount_pct\nA,1000000,12.345\nB,1000000,99.999\n";
	ck_assert_msg(prices_parse("pct.csv", t, strlen(t), &p, err, sizeof err), "%s", err);
	ck_assert_int_eq(prices_find(&p, "A")->net_cents, 87655000);
	ck_assert_int_eq(prices_find(&p, "B")->net_cents, 1000);
	prices_fini(&p);
}
END_TEST

START_TEST(header_only_is_an_empty_list)
{
	struct prices p;
	char err[256] = "";
	const char *t = "sku,unit_price_usd\n";
	ck_assert_msg(prices_parse("mem.csv", t, strlen(t), &p, err, sizeof err), "%s", err);
	ck_assert_uint_eq(p.n, 0);
	ck_assert_ptr_null(prices_find(&p, "x"));
	prices_fini(&p);
}
END_TEST

START_TEST(full_discount_and_many_rows)
{
	/* 3000 rows: lookups go through the sorted table. */
	size_t cap = 3000 * 40 + 64, len = 0;
	char *t = malloc(cap);
	len += (size_t)snprintf(t + len, cap - len, "unit_price_usd,sku,discount_pct\n");
	for (int i = 0; i < 3000; i++)
		len += (size_t)snprintf(t + len, cap - len, "%d.%02d,SKU-%04d,%s\n", i, i % 100,
					3000 - i, i == 7 ? "100" : "0");
	struct prices p;
	char err[256] = "";
	ck_assert_msg(prices_parse("many.csv", t, len, &p, err, sizeof err), "%s", err);
	ck_assert_uint_eq(p.n, 3000);
	const struct price_entry *e = prices_find(&p, "SKU-2000");	/* i = 1000 */
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->net_cents, 100000);
	ck_assert_int_eq(e->record, 1002);
	e = prices_find(&p, "SKU-2993");				/* i = 7 */
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->list_cents, 707);
	ck_assert_int_eq(e->net_cents, 0);
	prices_fini(&p);
	free(t);
}
END_TEST

START_TEST(missing_file_and_directory)
{
	struct prices p;
	char err[512] = "";
	ck_assert(!prices_load(FIXTURES "/no-such.csv", &p, err, sizeof err));
	ck_assert_str_eq(err, FIXTURES "/no-such.csv: No such file or directory");
	prices_fini(&p);
	ck_assert(!prices_load(FIXTURES "/good", &p, err, sizeof err));
	ck_assert_str_eq(err, FIXTURES "/good: Is a directory");
	prices_fini(&p);
}
END_TEST

START_TEST(quoted_newlines_count_as_one_record)
{
	/* Record numbers follow records, not lines: the error is on the third
	 * record even though it starts on line 5. */
	const char *t = "sku,description,unit_price_usd\n"
			"A,\"line one\nline two\nline three\",10\n"
			"B,plain,ten\n";
	struct prices p;
	char err[256] = "";
	ck_assert(!prices_parse("q.csv", t, strlen(t), &p, err, sizeof err));
	ck_assert_str_eq(err, "q.csv:record 3: unit_price_usd 'ten' is not a number "
			 "(write 1234.56: no currency sign, no thousands separators)");
	prices_fini(&p);
}
END_TEST

#define ADD(s, fn) TAP_ADD(s, fn)

int main(void)
{
	if (glob(FIXTURES "/bad/*.csv", 0, NULL, &bad) != 0) {
		printf("Bail out! no fixtures under %s\n", FIXTURES);
		return 1;
	}
	Suite *s = suite_create("prices");
	TCase *tc = tcase_create("bad price-list fixture: exact message");
	tcase_add_loop_test(tc, bad_fixture_exact_message, 0, (int)bad.gl_pathc);
	suite_add_tcase(s, tc);
	ADD(s, at_least_fifteen_bad_fixtures);
	ADD(s, mixed_good_fixture);
	ADD(s, cents_parsing);
	ADD(s, percent_parsing);
	ADD(s, header_only_is_an_empty_list);
	ADD(s, full_discount_and_many_rows);
	ADD(s, missing_file_and_directory);
	ADD(s, quoted_newlines_count_as_one_record);
	int rc = tap_run(s);
	globfree(&bad);
	return rc;
}
