/*
 * Limits: inputs built to exhaust memory, time or the stack are refused
 * early with a message that says which limit was hit.
 *   - a catalog folder of 10,000 accelerators (refused past 5,000 files,
 *     before any file is read);
 *   - a 100 MB scenario, catalog or price file (refused from its size,
 *     which only fstat() knows, so nothing was read: the file is sparse);
 *   - YAML aliases ("billion laughs"), nesting 100 and 100,000 deep;
 *   - a mapping with 100,000 keys and a 3 MB value (accepted: big is not
 *     hostile), and text that must be escaped in messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"
#include "prices.h"
#include "scenario.h"
#include "fixture.h"
#include "tap.h"
#include "theme.h"
#include "ytree.h"

#define GOOD ABS_TOP_SRCDIR "/tests/fixtures/catalog/good"
#define LIMITS ABS_TOP_SRCDIR "/tests/fixtures/regress/scenario"

static char tmp[256];

static void make_tmp(void)
{
	ck_assert_msg(fixture_tmpdir(tmp, sizeof tmp, "accelsizer-limits"), "mkdtemp: %s", strerror(errno));
}

static void remove_tmp(void)
{
	fixture_remove_tree(tmp);
}

static void sh(const char *fmt, const char *a, const char *b)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, fmt, a, b);
	ck_assert_msg(system(cmd) == 0, "%s", cmd);
}

/* A sparse file of size bytes: nothing is written, so a loader that read
 * it would have to read zeros; one that checks the size never does. */
static void sparse(const char *path, off_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, size), 0);
	close(fd);
}

static struct catalog *good_catalog(void)
{
	struct catalog_errors errs;
	struct catalog *c = catalog_load(GOOD, &errs);
	ck_assert_msg(c != NULL, "%s", errs.n ? errs.msg[0] : "?");
	catalog_errors_fini(&errs);
	return c;
}

START_TEST(ten_thousand_accelerators_refused)
{
	make_tmp();
	sh("cp -R '%s/.' '%s/'", GOOD, tmp);
	char dir[512];
	snprintf(dir, sizeof dir, "%s/accelerators", tmp);
	for (int i = 0; i < 10000; i++) {
		char p[600];
		snprintf(p, sizeof p, "%s/gen-%05d.yaml", dir, i);
		int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	struct catalog_errors errs;
	struct catalog *c = catalog_load(tmp, &errs);
	ck_assert_ptr_null(c);
	/* The folder is refused as a whole before any file in it is read; the
	 * fixture's four platforms then name accelerators that are missing. */
	char want[600];
	snprintf(want, sizeof want, "%s/accelerators: too many files (more than 5000)", tmp);
	ck_assert_str_eq(errs.msg[0], want);
	/* None of the generated files was read. */
	for (size_t i = 0; i < errs.n; i++)
		ck_assert_msg(!strstr(errs.msg[i], "gen-"), "%s", errs.msg[i]);
	catalog_errors_fini(&errs);
	remove_tmp();
}
END_TEST

START_TEST(five_thousand_files_are_read)
{
	/* At the limit the folder is read, and the empty files each say so
	 * (the loader stops collecting after CATALOG_MAX_ERRORS). */
	make_tmp();
	sh("cp -R '%s/.' '%s/'", GOOD, tmp);
	for (int i = 0; i < 5000 - 3; i++) {
		char p[600];
		snprintf(p, sizeof p, "%s/models/gen-%05d.yaml", tmp, i);
		int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	struct catalog_errors errs;
	struct catalog *c = catalog_load(tmp, &errs);
	ck_assert_ptr_null(c);
	ck_assert_uint_eq(errs.n, CATALOG_MAX_ERRORS);
	ck_assert(errs.truncated);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "gen-00000.yaml: the file is empty"));
	catalog_errors_fini(&errs);
	remove_tmp();
}
END_TEST

START_TEST(hundred_megabyte_scenario_refused_from_its_size)
{
	make_tmp();
	char p[512], err[512], want[600];
	snprintf(p, sizeof p, "%s/huge.yaml", tmp);
	sparse(p, 100L * 1024 * 1024);
	/* The exact size in the message comes from fstat(): the file was
	 * never read (reading would stop at the limit, not know the size). */
	snprintf(want, sizeof want, "%s: file is too large (104857600 bytes, the limit is %ld)", p,
		 (long)YTREE_MAX_BYTES);
	ck_assert_ptr_null(ytree_parse_file(p, err, sizeof err));
	ck_assert_str_eq(err, want);

	struct catalog *c = good_catalog();
	struct scenario s;
	ck_assert(!scenario_load(p, c, &s, err, sizeof err));
	ck_assert_str_eq(err, want);
	scenario_fini(&s);
	catalog_free(c);
	remove_tmp();
}
END_TEST

START_TEST(just_over_the_yaml_limit)
{
	make_tmp();
	char p[512], err[512];
	snprintf(p, sizeof p, "%s/over.yaml", tmp);
	sparse(p, YTREE_MAX_BYTES + 1);
	ck_assert_ptr_null(ytree_parse_file(p, err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "file is too large (4194305 bytes"));
	/* The same from memory. */
	char *big = calloc(1, (size_t)YTREE_MAX_BYTES + 1);
	ck_assert_ptr_nonnull(big);
	ck_assert_ptr_null(ytree_parse_string("mem.yaml", big, (size_t)YTREE_MAX_BYTES + 1, err,
					      sizeof err));
	ck_assert_str_eq(err, "mem.yaml: file is too large (4194305 bytes, the limit is 4194304)");
	free(big);
	remove_tmp();
}
END_TEST

START_TEST(hundred_megabyte_price_list_refused_from_its_size)
{
	make_tmp();
	char p[512], err[512], want[600];
	snprintf(p, sizeof p, "%s/huge.csv", tmp);
	sparse(p, 100L * 1024 * 1024);
	struct prices pr;
	ck_assert(!prices_load(p, &pr, err, sizeof err));
	snprintf(want, sizeof want, "%s: larger than 16 MiB; is this a price list?", p);
	ck_assert_str_eq(err, want);
	ck_assert_uint_eq(pr.n, 0);
	prices_fini(&pr);
	remove_tmp();
}
END_TEST

START_TEST(hundred_megabyte_catalog_file_refused)
{
	make_tmp();
	sh("cp -R '%s/.' '%s/'", GOOD, tmp);
	char p[512];
	snprintf(p, sizeof p, "%s/fabrics/ib-ndr.yaml", tmp);
	sparse(p, 100L * 1024 * 1024);
	struct catalog_errors errs;
	ck_assert_ptr_null(catalog_load(tmp, &errs));
	bool found = false;
	for (size_t i = 0; i < errs.n; i++)
		found |= strstr(errs.msg[i], "ib-ndr.yaml: file is too large (104857600 bytes") != NULL;
	ck_assert_msg(found, "%s", errs.n ? errs.msg[0] : "no error");
	catalog_errors_fini(&errs);
	remove_tmp();
}
END_TEST

START_TEST(billion_laughs_refused)
{
	char err[512];
	ck_assert_ptr_null(ytree_parse_file(LIMITS "/billion-laughs.yaml", err, sizeof err));
	ck_assert_str_eq(err, LIMITS "/billion-laughs.yaml:3:8: aliases are not supported");
	struct catalog *c = good_catalog();
	struct scenario s;
	ck_assert(!scenario_load(LIMITS "/billion-laughs.yaml", c, &s, err, sizeof err));
	ck_assert_str_eq(err, LIMITS "/billion-laughs.yaml:3:8: aliases are not supported");
	scenario_fini(&s);
	catalog_free(c);
}
END_TEST

START_TEST(merge_key_alias_refused)
{
	char err[512];
	const char *y = "base: &b {a: 1}\nother:\n  <<: *b\n";
	ck_assert_ptr_null(ytree_parse_string("m.yaml", y, strlen(y), err, sizeof err));
	ck_assert_str_eq(err, "m.yaml:3:7: aliases are not supported");
}
END_TEST

/* n levels of block mappings: "k0:\n  k1:\n    k2: ..." */
static char *nested_block(int n)
{
	size_t cap = (size_t)n * (size_t)(2 * n + 16) + 16;
	char *s = malloc(cap), *p = s;
	for (int i = 0; i < n; i++) {
		p += sprintf(p, "%*sk%d:", 2 * i, "", i);
		*p++ = i + 1 < n ? '\n' : ' ';
	}
	strcpy(p, "1\n");
	return s;
}

START_TEST(hundred_deep_nesting_refused)
{
	char err[512];
	char *y = nested_block(100);
	ck_assert_ptr_null(ytree_parse_string("deep.yaml", y, strlen(y), err, sizeof err));
	/* Level 33 opens at key k32, line 33, column 2 x 32 + 1. */
	ck_assert_str_eq(err, "deep.yaml:33:65: nesting deeper than 32 levels");
	free(y);

	ck_assert_ptr_null(ytree_parse_file(LIMITS "/nested-100.yaml", err, sizeof err));
	/* The root mapping is level 1: the 32nd bracket is one too many. */
	ck_assert_str_eq(err, LIMITS "/nested-100.yaml:2:42: nesting deeper than 32 levels");
}
END_TEST

START_TEST(hundred_thousand_brackets_refused)
{
	/* Flow nesting is where recursive parsers blow the stack. */
	size_t n = 100000;
	char *y = malloc(2 * n + 1);
	memset(y, '[', n);
	memset(y + n, ']', n);
	y[2 * n] = '\0';
	char err[512];
	ck_assert_ptr_null(ytree_parse_string("brackets.yaml", y, 2 * n, err, sizeof err));
	ck_assert_str_eq(err, "brackets.yaml:1:33: nesting deeper than 32 levels");
	free(y);
}
END_TEST

START_TEST(thirty_two_levels_accepted)
{
	char err[512] = "";
	char *y = nested_block(YTREE_MAX_DEPTH);
	struct ytree *t = ytree_parse_string("ok.yaml", y, strlen(y), err, sizeof err);
	ck_assert_msg(t != NULL, "%s", err);
	ytree_free(t);
	free(y);
}
END_TEST

START_TEST(hundred_thousand_keys_accepted_and_duplicates_found)
{
	size_t n = 100000;
	char *y = malloc(n * 24 + 32), *p = y;
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "key%06zu: %zu\n", i, i);
	char err[512] = "";
	struct ytree *t = ytree_parse_string("keys.yaml", y, (size_t)(p - y), err, sizeof err);
	ck_assert_msg(t != NULL, "%s", err);
	ck_assert_uint_eq(t->root->n, n);
	ytree_free(t);
	p += sprintf(p, "key050000: again\n");
	ck_assert_ptr_null(ytree_parse_string("keys.yaml", y, (size_t)(p - y), err, sizeof err));
	ck_assert_str_eq(err, "keys.yaml:100001:1: duplicate key 'key050000' (first at line 50001)");
	free(y);
}
END_TEST

START_TEST(three_megabyte_value_accepted)
{
	size_t n = 3u << 20;
	char *y = malloc(n + 32);
	ck_assert_ptr_nonnull(y);
	strcpy(y, "notes: ");
	memset(y + 7, 'x', n);
	strcpy(y + 7 + n, "\n");
	char err[512] = "";
	struct ytree *t = ytree_parse_string("big.yaml", y, strlen(y), err, sizeof err);
	ck_assert_msg(t != NULL, "%s", err);
	ck_assert_uint_eq(strlen(t->root->items[0]->scalar), n);
	ytree_free(t);
	free(y);
}
END_TEST

START_TEST(escape_text_makes_values_inert)
{
	char buf[64];
	ck_assert_uint_eq(ytree_escape_text(buf, sizeof buf, "a\x1b[2Jb"), 9);
	ck_assert_str_eq(buf, "a\\x1b[2Jb");
	ytree_escape_text(buf, sizeof buf, "one\ntwo\rthree\tfour");
	ck_assert_str_eq(buf, "one\\ntwo\\rthree\tfour");
	ytree_escape_text(buf, sizeof buf, "csi \xc2\x9b" "2J, del \x7f, bad \xff, caf\xc3\xa9");
	ck_assert_str_eq(buf, "csi \\u009b2J, del \\x7f, bad \\xff, caf\xc3\xa9");
	/* Truncation keeps whole characters and whole escapes. */
	ck_assert_uint_eq(ytree_escape_text(buf, 5, "ab\xc3\xa9\xc3\xa9"), 6);
	ck_assert_str_eq(buf, "ab\xc3\xa9");
	ytree_escape_text(buf, 5, "abc\n");
	ck_assert_str_eq(buf, "abc");
	ck_assert_uint_eq(ytree_escape_text(NULL, 0, "\x01"), 4);
	char *d = ytree_escape_dup("x\x07y");
	ck_assert_str_eq(d, "x\\x07y");
	free(d);
}
END_TEST

START_TEST(escape_sequences_from_files_stay_inert)
{
	/* A quoted value with an escape sequence, quoted back in a message. */
	struct catalog *c = good_catalog();
	struct scenario s;
	char err[512];
	const char *y = "schema: 1\nworkload:\n  class: \"\\e[2J\\nfake: line\"\n";
	ck_assert(!scenario_load_string("esc.yaml", y, strlen(y), c, &s, err, sizeof err));
	ck_assert_ptr_null(strchr(err, '\x1b'));
	ck_assert_ptr_null(strchr(err, '\n'));
	ck_assert_ptr_nonnull(strstr(err, "got '\\x1b[2J\\nfake: line'"));
	scenario_fini(&s);
	catalog_free(c);

	struct prices pr;
	const char *csv = "sku,unit_price_usd,colour\x1b[31m\nA,1,x\n";
	ck_assert(!prices_parse("p.csv", csv, strlen(csv), &pr, err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "unknown column 'colour\\x1b[31m'"));
	prices_fini(&pr);
	csv = "sku,unit_price_usd\n\"A\bB\",1\n";
	ck_assert(!prices_parse("p.csv", csv, strlen(csv), &pr, err, sizeof err));
	ck_assert_str_eq(err, "p.csv:record 2: sku holds a control character (byte 0x08)");
	prices_fini(&pr);
}
END_TEST

START_TEST(wide_theme_glyph_refused)
{
	struct theme th;
	char err[512];
	ck_assert(!theme_load_file(&th, ABS_TOP_SRCDIR "/tests/fixtures/regress/theme/wide-glyph.yaml",
				   err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "glyphs.utf8.marked must be one printable, one column wide, "
				     "character"));
}
END_TEST

int main(void)
{
	/* Theme glyph widths are judged in a UTF-8 locale, as the wizard's. */
	setlocale(LC_ALL, "C.UTF-8");
	Suite *s = suite_create("limits");
	TCase *tc = tcase_create("limits");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ten_thousand_accelerators_refused);
	tcase_add_test(tc, five_thousand_files_are_read);
	tcase_add_test(tc, hundred_megabyte_scenario_refused_from_its_size);
	tcase_add_test(tc, just_over_the_yaml_limit);
	tcase_add_test(tc, hundred_megabyte_price_list_refused_from_its_size);
	tcase_add_test(tc, hundred_megabyte_catalog_file_refused);
	tcase_add_test(tc, billion_laughs_refused);
	tcase_add_test(tc, merge_key_alias_refused);
	tcase_add_test(tc, hundred_deep_nesting_refused);
	tcase_add_test(tc, hundred_thousand_brackets_refused);
	tcase_add_test(tc, thirty_two_levels_accepted);
	tcase_add_test(tc, hundred_thousand_keys_accepted_and_duplicates_found);
	tcase_add_test(tc, three_megabyte_value_accepted);
	tcase_add_test(tc, escape_text_makes_values_inert);
	tcase_add_test(tc, escape_sequences_from_files_stay_inert);
	tcase_add_test(tc, wide_theme_glyph_refused);
	suite_add_tcase(s, tc);
	return tap_run(s);
}
