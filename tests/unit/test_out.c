/*
 * Unit tests for the one output layer (out.h): CSV quoting in both styles,
 * formula neutralisation and inert text in every text cell but never in a
 * number, rows larger than the write buffer, text written inert, YAML
 * quoting, and a scenario whose strings hold control characters saved as
 * YAML that reads back the same.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "out.h"
#include "scenario.h"
#include "fixture.h"
#include "tap.h"

/* What fn writes to a memory stream, malloc'd. */
static char *capture(void (*fn)(FILE *fp, void *ctx), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ck_assert(fp != NULL);
	fn(fp, ctx);
	ck_assert(fclose(fp) == 0);
	return buf;
}

static void csv_needed(FILE *fp, void *ctx)
{
	(void)ctx;
	struct out_csv o;
	out_csv_begin(&o, fp, OUT_CSV_QUOTE_NEEDED);
	const char *cells[] = { "plain", "with,comma", "say \"hi\"", "two\nlines", " pad", "",
				NULL, "123.45" };
	out_csv_row(&o, cells, 8, OUT_TEXT);
	ck_assert(out_csv_finish(&o));
}

START_TEST(csv_quotes_only_when_needed)
{
	char *s = capture(csv_needed, NULL);
	ck_assert_str_eq(s, "plain,\"with,comma\",\"say \"\"hi\"\"\",\"two\nlines\",\" pad\",,,123.45\n");
	free(s);
}
END_TEST

static void csv_all(FILE *fp, void *ctx)
{
	(void)ctx;
	struct out_csv o;
	out_csv_begin(&o, fp, OUT_CSV_QUOTE_ALL);
	out_csv_cell(&o, "1", OUT_PLAIN);
	out_csv_cell(&o, "", OUT_TEXT);		/* empty stays empty */
	out_csv_cell(&o, "a\"b", OUT_TEXT);
	out_csv_end(&o);
	out_csv_cell(&o, "-3", OUT_PLAIN);	/* a number is never altered */
	out_csv_end(&o);
	ck_assert(out_csv_finish(&o));
}

START_TEST(csv_quotes_all)
{
	char *s = capture(csv_all, NULL);
	ck_assert_str_eq(s, "\"1\",,\"a\"\"b\"\n\"-3\"\n");
	free(s);
}
END_TEST

static void csv_hostile(FILE *fp, void *ctx)
{
	(void)ctx;
	struct out_csv o;
	out_csv_begin(&o, fp, OUT_CSV_QUOTE_NEEDED);
	const char *cells[] = { "=1+2", "+x", "-x", "@SUM(A1)", "\tx", "\rx",
				"=cmd|' /C calc'!A0", "a\x1b]0;t\x07" "b\r", "ok\xc2\x9b" "1m", "caf\xc3\xa9" };
	out_csv_row(&o, cells, 10, OUT_TEXT);
	ck_assert(out_csv_finish(&o));
}

START_TEST(csv_text_neutralised)
{
	char *s = capture(csv_hostile, NULL);
	ck_assert_str_eq(s, "'=1+2,'+x,'-x,'@SUM(A1),'\tx,'\\rx,'=cmd|' /C calc'!A0,"
			 "a\\x1b]0;t\\x07b\\r,ok\\u009b1m,caf\xc3\xa9\n");
	free(s);
}
END_TEST

/* 200,000 cells: the buffer is written out as it fills, nothing lost */
static void csv_big(FILE *fp, void *ctx)
{
	(void)ctx;
	struct out_csv o;
	out_csv_begin(&o, fp, OUT_CSV_QUOTE_ALL);
	for (int r = 0; r < 20000; r++) {
		for (int c = 0; c < 10; c++)
			out_csv_cell(&o, "cell", OUT_TEXT);
		out_csv_end(&o);
	}
	ck_assert(out_csv_finish(&o));
}

START_TEST(csv_large_output)
{
	char *s = capture(csv_big, NULL);
	const char *row = "\"cell\",\"cell\",\"cell\",\"cell\",\"cell\",\"cell\",\"cell\",\"cell\",\"cell\",\"cell\"\n";
	ck_assert_uint_eq(strlen(s), 20000 * strlen(row));
	ck_assert(!strncmp(s + 19999 * strlen(row), row, strlen(row)));
	free(s);
}
END_TEST

static void text_lines(FILE *fp, void *ctx)
{
	(void)ctx;
	ck_assert(out_line(fp, "name %s (%d)", "x\x1b[2Jy\r", 3));
	ck_assert(out_puts_lines(fp, "one\x07\ntwo\n"));
	ck_assert(out_puts(fp, "plain\n"));
}

START_TEST(text_inert)
{
	char *s = capture(text_lines, NULL);
	ck_assert_str_eq(s, "name x\\x1b[2Jy\\r (3)\none\\x07\ntwo\nplain\\n");
	free(s);
	char buf[8];
	const char *plain = "abc";
	ck_assert_ptr_eq(out_inert(plain, buf, sizeof buf), plain);	/* no copy */
	ck_assert_str_eq(out_inert("\x1b[31mlong", buf, sizeof buf), "\\x1b[31");	/* cut */
	ck_assert_ptr_null(out_inert(NULL, buf, sizeof buf));
}
END_TEST

static void yaml_doc(FILE *fp, void *ctx)
{
	(void)ctx;
	struct out_yaml y;
	ck_assert(out_yaml_begin(&y, fp));
	out_yaml_map(&y, true);
	out_yaml_key(&y, "a");
	out_yaml_scalar(&y, "true", OUT_YAML_TEXT);	/* a string, not a boolean */
	out_yaml_key(&y, "b");
	out_yaml_scalar(&y, "plain text", OUT_YAML_TEXT);
	out_yaml_key(&y, "c");
	out_yaml_scalar(&y, "x\x1b[2J", OUT_YAML_TEXT);
	out_yaml_num(&y, "d", 1.25, 1);
	out_yaml_num(&y, "e", INFINITY, 1);
	out_yaml_key(&y, "f");
	out_yaml_scalar(&y, "line one\nline two", OUT_YAML_BLOCK);
	out_yaml_map(&y, false);
	ck_assert(out_yaml_end(&y, NULL));
}

START_TEST(yaml_quoting)
{
	char *s = capture(yaml_doc, NULL);
	ck_assert_str_eq(s, "a: 'true'\nb: plain text\nc: \"x\\e[2J\"\nd: 1.2\ne: null\n"
			 "f: |-\n  line one\n  line two\n");
	free(s);
}
END_TEST

static struct catalog *cat;

static void emit_scenario(FILE *fp, void *ctx)
{
	char err[256];
	ck_assert_msg(scenario_emit(ctx, fp, err, sizeof err), "%s", err);
}

START_TEST(scenario_save_inert)
{
	static const char text[] =
		"schema: 1\n"
		"customer: \"\\e]0;owned\\aACME\\rX\"\n"
		"workload:\n"
		"  class: inference\n"
		"  custom_model:\n"
		"    name: \"=cmd|' /C calc'!A0 \\e[31mred\\a\\r\\u009b1m\"\n"
		"    params_b: 7\n"
		"    layers: 32\n"
		"    hidden_size: 4096\n"
		"    attention_heads: 32\n"
		"    kv_heads: 32\n"
		"    ffn_size: 11008\n"
		"    vocab_size: 32000\n"
		"    max_context: 4096\n";
	struct scenario s, back;
	char err[512];
	ck_assert_msg(scenario_load_string("evil.yaml", text, sizeof text - 1, cat, &s, err, sizeof err),
		      "%s", err);
	char *yaml = capture(emit_scenario, &s);
	for (const unsigned char *p = (const unsigned char *)yaml; *p; p++)
		ck_assert_msg(*p == '\n' || (*p >= 0x20 && *p != 0x7f), "control byte 0x%02x in the YAML", *p);
	ck_assert_msg(!strstr(yaml, "\xc2\x9b"), "a C1 control in the YAML");
	ck_assert_msg(scenario_load_string("saved.yaml", yaml, strlen(yaml), cat, &back, err, sizeof err),
		      "%s", err);
	ck_assert_str_eq(back.customer, s.customer);
	ck_assert_str_eq(back.w.model->name, s.w.model->name);
	free(yaml);
	scenario_fini(&s);
	scenario_fini(&back);
}
END_TEST

static void html_text(FILE *fp, void *ctx)
{
	(void)ctx;
	ck_assert(out_html(fp, "<b a='1'>\"x\" & y</b>\x1b[2J\n"));
	ck_assert(fputs("|", fp) != EOF);
	ck_assert(out_html_lines(fp, "one\ntwo"));
	ck_assert(fputs("|", fp) != EOF);
	ck_assert(out_html_printf(fp, "%s=%d", "<", 3));
}

START_TEST(html_escaped)
{
	char *s = capture(html_text, NULL);
	ck_assert_str_eq(s, "&lt;b a=&#39;1&#39;&gt;&quot;x&quot; &amp; y&lt;/b&gt;\\x1b[2J |one<br/>two|&lt;=3");
	free(s);
}
END_TEST

static void md_text(FILE *fp, void *ctx)
{
	(void)ctx;
	ck_assert(out_md(fp, "a|b *c* [d](e) <f> `g` power_kw _x_ AT&T &amp; 14.3 -3"));
	ck_assert(fputs("\n", fp) != EOF);
	ck_assert(out_md_lines(fp, "# h\n- i\n1. j\n---\nplain"));
	ck_assert(fputs("\n", fp) != EOF);
	ck_assert(out_md(fp, "one\ntwo"));
}

START_TEST(md_escaped)
{
	char *s = capture(md_text, NULL);
	ck_assert_str_eq(s, "a\\|b \\*c\\* \\[d\\](e) \\<f\\> \\`g\\` power_kw \\_x\\_ AT&T \\&amp; 14.3 -3\n"
			 "\\# h  \n\\- i  \n1\\. j  \n\\---  \nplain\none two");
	free(s);
}
END_TEST

START_TEST(grouped_and_date)
{
	char b[32];
	ck_assert_str_eq(out_grouped(1234567.8, 0, b, sizeof b), "1,234,568");
	ck_assert_str_eq(out_grouped(-1234.5, 1, b, sizeof b), "-1,234.5");
	ck_assert_str_eq(out_grouped(999, 0, b, sizeof b), "999");
	ck_assert_str_eq(out_grouped(NAN, 0, b, sizeof b), "-");
	setenv("SOURCE_DATE_EPOCH", "1767225600", 1);
	out_date(b, sizeof b);
	ck_assert_str_eq(b, "2026-01-01");
	unsetenv("SOURCE_DATE_EPOCH");
}
END_TEST

int main(void)
{
	cat = fixture_shipped_catalog();
	Suite *s = suite_create("out");
	tap_add(s, "out: CSV quotes only when needed (BOM style)", csv_quotes_only_when_needed);
	tap_add(s, "out: CSV quotes every non-empty cell (recommend style), numbers as they are",
	    csv_quotes_all);
	tap_add(s, "out: CSV text cells neutralised: formula starts, C0 and C1 controls", csv_text_neutralised);
	tap_add(s, "out: CSV larger than the buffer is written whole", csv_large_output);
	tap_add(s, "out: text written inert, newlines kept only where asked", text_inert);
	tap_add(s, "out: YAML strings quoted when they would read as another type", yaml_quoting);
	tap_add(s, "out: a scenario with control characters saves inert and reads back the same",
	    scenario_save_inert);
	tap_add(s, "out: HTML text escaped (& < > \" ') and inert, LFs as <br/> only where asked", html_escaped);
	tap_add(s, "out: Markdown escapes markup, block markers at a line start, keeps plain words", md_escaped);
	tap_add(s, "out: thousands grouped without a locale; the date from SOURCE_DATE_EPOCH", grouped_and_date);
	int rc = tap_run(s);
	catalog_free(cat);
	return rc;
}
