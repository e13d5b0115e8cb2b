/*
 * BOM: lines and totals in exact cents, the CSV read back by libcsv, formula
 * neutralisation, the atomic writer's guarantees, and (with the shipped
 * catalog and engine) a BOM built from a real engine result.
 */
#include <csv.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "bom.h"
#include "cli_report.h"
#include "scenario.h"
#include "fixture.h"
#include "tap.h"

static struct catalog *cat;

/* ---- helpers ---- */

static char tmpdir[256];

static void make_tmpdir(void)
{
	ck_assert(fixture_tmpdir(tmpdir, sizeof tmpdir, "test_bom"));
}

static void cleanup_tmpdir(void)
{
	fixture_remove_tree(tmpdir);
}

static char *path_in(const char *name)
{
	static char buf[4][512];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
	return buf[k];
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Files in tmpdir, to prove no temporary file is left behind. */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	if (d)
		closedir(d);
	return n;
}

/* A CSV read back with libcsv: rows of NUL-terminated cells. */
struct table {
	char ***rows;
	size_t *ncells;
	size_t n;
	char **cur;
	size_t ncur;
};

static void tcell(void *s, size_t len, void *vt)
{
	struct table *t = vt;
	t->cur = realloc(t->cur, (t->ncur + 1) * sizeof *t->cur);
	t->cur[t->ncur] = malloc(len + 1);
	memcpy(t->cur[t->ncur], s ? s : "", len);
	t->cur[t->ncur][len] = '\0';
	t->ncur++;
}

static void trow(int c, void *vt)
{
	(void)c;
	struct table *t = vt;
	t->rows = realloc(t->rows, (t->n + 1) * sizeof *t->rows);
	t->ncells = realloc(t->ncells, (t->n + 1) * sizeof *t->ncells);
	t->rows[t->n] = t->cur;
	t->ncells[t->n] = t->ncur;
	t->n++;
	t->cur = NULL;
	t->ncur = 0;
}

static void read_csv(const char *path, struct table *t)
{
	memset(t, 0, sizeof *t);
	char *text = read_all(path);
	ck_assert_ptr_nonnull(text);
	struct csv_parser p;
	ck_assert_int_eq(csv_init(&p, CSV_STRICT | CSV_STRICT_FINI), 0);
	size_t len = strlen(text);
	ck_assert_uint_eq(csv_parse(&p, text, len, tcell, trow, t), len);
	ck_assert_int_eq(csv_fini(&p, tcell, trow, t), 0);
	csv_free(&p);
	free(text);
}

static void free_table(struct table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		for (size_t j = 0; j < t->ncells[i]; j++)
			free(t->rows[i][j]);
		free(t->rows[i]);
	}
	free(t->rows);
	free(t->ncells);
}

/* A line's money cell: blank only on an unpriced line (its notes say
 * so), which counts 0 in the total. */
static int64_t cents_of(const char *s);
static int64_t line_cents(const char *cell, const char *notes)
{
	if (!*cell) {
		ck_assert_msg(strstr(notes, BOM_UNPRICED ": ") != NULL, "a blank price on a priced line: %s",
			      notes);
		return 0;
	}
	return cents_of(cell);
}

/* "123.45" -> 12345, checking the plain format on the way. */
static int64_t cents_of(const char *s)
{
	int64_t v;
	ck_assert_msg(prices_parse_cents(s, &v) == 0, "'%s' is not plain money", s);
	const char *dot = strchr(s, '.');
	ck_assert_msg(dot && strlen(dot) == 3, "'%s' does not have two decimals", s);
	return v;
}

/* ---- atomic writer ---- */

static bool write_text_cb(FILE *fp, void *ctx, char *err, size_t errsz)
{
	(void)err;
	(void)errsz;
	fputs(ctx, fp);
	return true;
}

/* Writes half its text, then fails like a writer that ran out of data. */
static bool write_half_then_fail(FILE *fp, void *ctx, char *err, size_t errsz)
{
	const char *s = ctx;
	fwrite(s, 1, strlen(s) / 2, fp);
	fflush(fp);
	snprintf(err, errsz, "injected failure");
	return false;
}

START_TEST(atomic_creates_and_replaces)
{
	make_tmpdir();
	const char *p = path_in("out.csv");
	char err[512] = "";
	ck_assert_msg(atomic_write(p, write_text_cb, "first\n", err, sizeof err), "%s", err);
	char *t = read_all(p);
	ck_assert_str_eq(t, "first\n");
	free(t);
	ck_assert_msg(atomic_write(p, write_text_cb, "second\n", err, sizeof err), "%s", err);
	t = read_all(p);
	ck_assert_str_eq(t, "second\n");
	free(t);
	ck_assert_int_eq(count_entries(tmpdir), 1);
	/* a new file gets the usual permissions, not mkstemp's 0600 */
	mode_t mask = umask(022);
	umask(mask);
	struct stat st;
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0666 & ~mask);
	cleanup_tmpdir();
}
END_TEST

START_TEST(atomic_keeps_permissions_of_existing_file)
{
	make_tmpdir();
	const char *p = path_in("keep.csv");
	fixture_write_file(p, "old\n");
	chmod(p, 0640);
	char err[512] = "";
	ck_assert_msg(atomic_write(p, write_text_cb, "new\n", err, sizeof err), "%s", err);
	struct stat st;
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0640);
	cleanup_tmpdir();
}
END_TEST

START_TEST(atomic_failed_writer_leaves_old_file)
{
	make_tmpdir();
	const char *p = path_in("bom.csv");
	fixture_write_file(p, "old content\n");
	char err[512] = "";
	ck_assert(!atomic_write(p, write_half_then_fail, "new content that is long\n", err,
				sizeof err));
	ck_assert_str_eq(err, "injected failure");
	char *t = read_all(p);
	ck_assert_str_eq(t, "old content\n");
	free(t);
	ck_assert_int_eq(count_entries(tmpdir), 1);	/* no temporary left */
	cleanup_tmpdir();
}
END_TEST

START_TEST(atomic_abort_leaves_nothing)
{
	make_tmpdir();
	struct atomic_file af;
	char err[512] = "";
	ck_assert_msg(atomic_file_open(&af, path_in("x.csv"), err, sizeof err), "%s", err);
	fputs("partial", af.fp);
	ck_assert_int_eq(count_entries(tmpdir), 1);	/* the temporary */
	atomic_file_abort(&af);
	ck_assert_int_eq(count_entries(tmpdir), 0);
	cleanup_tmpdir();
}
END_TEST

START_TEST(atomic_directory_at_target)
{
	make_tmpdir();
	const char *p = path_in("adir");
	ck_assert_int_eq(mkdir(p, 0755), 0);
	fixture_write_file(path_in("adir/inside"), "keep\n");
	char err[512] = "", want[600];
	ck_assert(!atomic_write(p, write_text_cb, "x\n", err, sizeof err));
	snprintf(want, sizeof want, "cannot write '%s': Is a directory", p);
	ck_assert_str_eq(err, want);
	char *t = read_all(path_in("adir/inside"));
	ck_assert_str_eq(t, "keep\n");
	free(t);
	ck_assert_int_eq(count_entries(tmpdir), 1);
	cleanup_tmpdir();
}
END_TEST

START_TEST(atomic_missing_folder)
{
	make_tmpdir();
	const char *p = path_in("no/such/dir/bom.csv");
	char err[512] = "", want[600];
	ck_assert(!atomic_write(p, write_text_cb, "x\n", err, sizeof err));
	snprintf(want, sizeof want, "cannot write '%s': No such file or directory", p);
	ck_assert_str_eq(err, want);
	cleanup_tmpdir();
}
END_TEST

START_TEST(atomic_replaces_symlink_not_its_target)
{
	make_tmpdir();
	const char *victim = path_in("victim.txt");
	const char *link = path_in("bom.csv");
	fixture_write_file(victim, "precious\n");
	ck_assert_int_eq(symlink(victim, link), 0);
	char err[512] = "";
	ck_assert_msg(atomic_write(link, write_text_cb, "bom\n", err, sizeof err), "%s", err);
	char *t = read_all(victim);
	ck_assert_str_eq(t, "precious\n");
	free(t);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	t = read_all(link);
	ck_assert_str_eq(t, "bom\n");
	free(t);
	cleanup_tmpdir();
}
END_TEST

START_TEST(atomic_dangling_symlink_is_replaced)
{
	make_tmpdir();
	const char *link = path_in("bom.csv");
	ck_assert_int_eq(symlink(path_in("elsewhere/new.csv"), link), 0);
	char err[512] = "";
	ck_assert_msg(atomic_write(link, write_text_cb, "bom\n", err, sizeof err), "%s", err);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_int_ne(access(path_in("elsewhere"), F_OK), 0);
	cleanup_tmpdir();
}
END_TEST

START_TEST(atomic_readonly_folder)
{
	/* Registered only when not root (root ignores permissions); the CLI
	 * test covers this case as another user. */
	make_tmpdir();
	const char *dir = path_in("ro");
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	const char *p = path_in("ro/bom.csv");
	fixture_write_file(p, "old\n");
	chmod(dir, 0555);
	char err[512] = "", want[600];
	ck_assert(!atomic_write(p, write_text_cb, "new\n", err, sizeof err));
	snprintf(want, sizeof want, "cannot write '%s': Permission denied", p);
	ck_assert_str_eq(err, want);
	char *t = read_all(p);
	ck_assert_str_eq(t, "old\n");
	free(t);
	cleanup_tmpdir();
}
END_TEST

/* ---- numbers ---- */

START_TEST(money_and_numbers_print_plainly)
{
	char b[64];
	bom_format_cents(0, b, sizeof b);
	ck_assert_str_eq(b, "0.00");
	bom_format_cents(5, b, sizeof b);
	ck_assert_str_eq(b, "0.05");
	bom_format_cents(12345678, b, sizeof b);
	ck_assert_str_eq(b, "123456.78");
	bom_format_cents(100000000000000LL, b, sizeof b);
	ck_assert_str_eq(b, "1000000000000.00");
	bom_format_number(700, b, sizeof b);
	ck_assert_str_eq(b, "700");
	bom_format_number(10.5, b, sizeof b);
	ck_assert_str_eq(b, "10.5");
	bom_format_number(45.2, b, sizeof b);
	ck_assert_str_eq(b, "45.2");
	bom_format_number(0.125, b, sizeof b);
	ck_assert_str_eq(b, "0.125");
	bom_format_number(123456789.0, b, sizeof b);
	ck_assert_str_eq(b, "123456789");
	bom_format_number(1234567.891, b, sizeof b);
	ck_assert_str_eq(b, "1234568");
	bom_format_number(0.000123456, b, sizeof b);
	ck_assert_str_eq(b, "0.000123456");
	ck_assert_int_eq(bom_usd_to_cents(30000.0), 3000000);
	ck_assert_int_eq(bom_usd_to_cents(0.1 + 0.2), 30);
	ck_assert_int_eq(bom_usd_to_cents(19.995), 2000);
	ck_assert_int_eq(bom_usd_to_cents(-5), 0);
	ck_assert_int_eq(bom_usd_to_cents(NAN), 0);
}
END_TEST

/* ---- CSV ---- */

static const char *const header =
	"line,category,sku,description,qty,unit_price_usd,extended_price_usd,"
	"power_w_each,rack_units_each,notes\n";

START_TEST(csv_round_trip_lines_and_totals)
{
	make_tmpdir();
	struct bom b;
	bom_init(&b);
	/* Odd cents on purpose: 3 x 0.10 must total exactly 0.30. */
	ck_assert(bom_add(&b, BOM_SERVER, "SRV-1", "Server, 8 GPU \"HGX\"", 3, 2500001, 2400, 8,
			  "includes 1 spare node"));
	ck_assert(bom_add(&b, BOM_ACCELERATOR, "h100-sxm", "NVIDIA H100\nSXM5", 24, 3000000, 700, 0, ""));
	ck_assert(bom_add(&b, BOM_CABLE, "CBL", "Cable", 3, 10, 0.5, 0, NULL));
	ck_assert(bom_add(&b, BOM_NETWORK, "NIC", "NIC", 7, 133333, 23.5, 0, ""));
	ck_assert(bom_add(&b, BOM_SERVICE, "NOPRICE", "Unpriced", 2, 0, 0, 0,
			  BOM_UNPRICED ": give SKU NOPRICE a price in your price list (--prices)"));
	ck_assert_int_eq(b.n_unpriced, 1);
	const char *p = path_in("bom.csv");
	char err[512] = "";
	ck_assert_msg(bom_write_csv(&b, p, err, sizeof err), "%s", err);

	char *text = read_all(p);
	ck_assert_msg(!strncmp(text, header, strlen(header)), "header: %.120s", text);
	free(text);

	struct table t;
	read_csv(p, &t);
	ck_assert_uint_eq(t.n, 1 + b.n + 1);
	int64_t sum = 0;
	double watts = 0, units = 0;
	for (size_t i = 0; i < b.n; i++) {
		char **r = t.rows[i + 1];
		const struct bom_line *l = &b.lines[i];
		ck_assert_uint_eq(t.ncells[i + 1], 10);
		ck_assert_int_eq(atoi(r[0]), l->line);
		ck_assert_str_eq(r[1], bom_category_name(l->category));
		ck_assert_str_eq(r[2], l->sku);
		ck_assert_str_eq(r[3], l->description);
		ck_assert_int_eq(atol(r[4]), l->qty);
		ck_assert_int_eq(line_cents(r[5], r[9]), l->unit_cents);
		ck_assert_int_eq(line_cents(r[6], r[9]), l->extended_cents);
		ck_assert_int_eq(line_cents(r[6], r[9]), line_cents(r[5], r[9]) * atol(r[4]));
		ck_assert_str_eq(r[9], l->notes);
		sum += line_cents(r[6], r[9]);
		watts += atol(r[4]) * strtod(r[7], NULL);
		units += atol(r[4]) * strtod(r[8], NULL);
	}
	char **tot = t.rows[t.n - 1];
	ck_assert_str_eq(tot[1], "total");
	ck_assert_int_eq(cents_of(tot[6]), sum);
	ck_assert_int_eq(sum, b.total_cents);
	ck_assert_int_eq(sum, 3 * 2500001LL + 24 * 3000000LL + 30 + 7 * 133333LL);
	/* the total power in W, the column's unit (issue 12) */
	ck_assert_double_eq_tol(strtod(tot[7], NULL), watts, 1e-9);
	ck_assert_double_eq_tol(strtod(tot[8], NULL), units, 1e-9);
	ck_assert_str_eq(t.rows[3][7], "0.5");
	ck_assert_str_eq(t.rows[4][7], "23.5");
	free_table(&t);
	bom_fini(&b);
	cleanup_tmpdir();
}
END_TEST

START_TEST(csv_neutralises_formulas)
{
	make_tmpdir();
	struct bom b;
	bom_init(&b);
	static const char *const evil[] = {
		"=HYPERLINK(\"http://evil\",\"x\")", "+1+1", "-2+3", "@SUM(A1:A9)", "\tindent",
		"\rcr", "=1,2",
	};
	for (size_t i = 0; i < sizeof evil / sizeof evil[0]; i++)
		ck_assert(bom_add(&b, BOM_SERVER, evil[i], evil[i], 1, 100, 0, 0, evil[i]));
	ck_assert(bom_add(&b, BOM_SERVER, "safe", "a=b, not a formula", 1, 100, 0, 0, "x-1"));
	const char *p = path_in("evil.csv");
	char err[512] = "";
	ck_assert_msg(bom_write_csv(&b, p, err, sizeof err), "%s", err);
	struct table t;
	read_csv(p, &t);
	for (size_t i = 0; i < sizeof evil / sizeof evil[0]; i++) {
		/* a control character is also written as a visible escape */
		char want[128];
		snprintf(want, sizeof want, "'%s", evil[i][0] == '\r' ? "\\rcr" : evil[i]);
		for (int col = 2; col <= 9; col += (col == 3 ? 6 : 1)) {
			if (col == 2 || col == 3 || col == 9)
				ck_assert_str_eq(t.rows[i + 1][col], want);
		}
	}
	char **safe = t.rows[sizeof evil / sizeof evil[0] + 1];
	ck_assert_str_eq(safe[2], "safe");
	ck_assert_str_eq(safe[3], "a=b, not a formula");
	ck_assert_str_eq(safe[9], "x-1");
	/* no cell anywhere in the file starts with a formula character */
	for (size_t r = 0; r < t.n; r++)
		for (size_t c = 0; c < t.ncells[r]; c++)
			ck_assert_msg(!strchr("=+-@\t\r", t.rows[r][c][0]) || !t.rows[r][c][0],
				      "row %zu col %zu: %s", r, c, t.rows[r][c]);
	free_table(&t);
	bom_fini(&b);
	cleanup_tmpdir();
}
END_TEST

START_TEST(plan_csv)
{
	make_tmpdir();
	struct engine_plan plan;
	memset(&plan, 0, sizeof plan);
	plan.n = 2;
	snprintf(plan.rows[0].benchmark, sizeof plan.rows[0].benchmark, "vLLM benchmark_serving, 1024 in / 256 out");
	snprintf(plan.rows[0].metric, sizeof plan.rows[0].metric, "output tokens/s");
	snprintf(plan.rows[0].unit, sizeof plan.rows[0].unit, "tokens/s");
	plan.rows[0].predicted = 2345.678;
	plan.rows[0].threshold = 2111.1;
	plan.rows[0].higher_is_better = true;
	snprintf(plan.rows[1].benchmark, sizeof plan.rows[1].benchmark, "-TTFT p50");
	snprintf(plan.rows[1].metric, sizeof plan.rows[1].metric, "ttft");
	snprintf(plan.rows[1].unit, sizeof plan.rows[1].unit, "ms");
	plan.rows[1].predicted = 180;
	plan.rows[1].threshold = 250;
	plan.rows[1].higher_is_better = false;
	snprintf(plan.rows[1].notes, sizeof plan.rows[1].notes, "at 64 concurrent users");
	/* the one validation-plan CSV: validate --format csv's */
	const char *p = path_in("plan.csv");
	struct engine_result res;
	memset(&res, 0, sizeof res);
	res.accel = catalog_accel(cat, "h100-sxm");
	struct workload w;
	engine_workload_init(&w, cat);
	FILE *fp = fopen(p, "w");
	ck_assert(fp != NULL);
	ck_assert(cli_plan_write(fp, CLI_FMT_CSV, &w, &res, &plan));
	ck_assert(fclose(fp) == 0);
	struct table t;
	read_csv(p, &t);
	ck_assert_uint_eq(t.n, 3);
	ck_assert_str_eq(t.rows[0][0], "accelerator");
	ck_assert_str_eq(t.rows[0][7], "notes");
	ck_assert_str_eq(t.rows[1][0], "h100-sxm");
	ck_assert_str_eq(t.rows[1][1], "vLLM benchmark_serving, 1024 in / 256 out");
	ck_assert_str_eq(t.rows[1][4], "2346");
	ck_assert_str_eq(t.rows[1][5], "2111");
	ck_assert_str_eq(t.rows[1][6], ">=");
	ck_assert_str_eq(t.rows[2][1], "'-TTFT p50");	/* neutralised */
	ck_assert_str_eq(t.rows[2][4], "180");
	ck_assert_str_eq(t.rows[2][6], "<=");
	ck_assert_str_eq(t.rows[2][7], "at 64 concurrent users");
	free_table(&t);
	cleanup_tmpdir();
}
END_TEST

START_TEST(failed_export_keeps_previous_bom)
{
	make_tmpdir();
	struct bom b;
	bom_init(&b);
	ck_assert(bom_add(&b, BOM_SERVER, "S", "S", 1, 100, 0, 0, ""));
	const char *dir = path_in("bom.csv");
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	char err[512] = "", want[600];
	ck_assert(!bom_write_csv(&b, dir, err, sizeof err));
	snprintf(want, sizeof want, "cannot write '%s': Is a directory", dir);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(count_entries(tmpdir), 1);
	bom_fini(&b);
	cleanup_tmpdir();
}
END_TEST


/* ---- BOMs from the shipped catalog and the engine ---- */

/* Evaluates one accelerator for w and builds its BOM. */
static void build_for(const struct workload *w, const char *accel, const struct prices *pl,
		      struct engine_result *res, struct bom *b)
{
	const struct catalog_accel *a = catalog_accel(cat, accel);
	ck_assert_msg(a != NULL, "no accelerator %s", accel);
	/* The engine sees the price list the BOM is built with. */
	struct workload wp = *w;
	wp.prices = pl;
	engine_evaluate(cat, &wp, a, res);
	ck_assert_msg(res->platform != NULL, "%s: no platform (%s)", accel, res->reason);
	char err[512] = "";
	ck_assert_msg(bom_build(cat, w, res, pl, b, err, sizeof err), "%s", err);
}

static const struct bom_line *find_line(const struct bom *b, enum bom_category c, const char *sku)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->lines[i].category == c && (!sku || !strcmp(b->lines[i].sku, sku)))
			return &b->lines[i];
	return NULL;
}

/* The front-end and OOB networks' lines (in the fabric's part of capex). */
static double network_usd(const struct bom *b)
{
	const struct catalog_defaults *d = &cat->defaults;
	int64_t c = 0;
	for (size_t i = 0; i < b->n; i++)
		for (size_t j = 0; j < d->n_networks; j++) {
			const struct catalog_network *nw = &d->networks[j];
			if (!strcmp(b->lines[i].sku, nw->sku) || !strcmp(b->lines[i].sku, nw->copper_sku) ||
			    !strcmp(b->lines[i].sku, nw->optics_sku))
				c += b->lines[i].extended_cents;
		}
	return c / 100.0;
}

static int64_t hardware_cents(const struct bom *b)
{
	int64_t hw = 0;
	for (size_t i = 0; i < b->n; i++)
		if (b->lines[i].category != BOM_SUPPORT && b->lines[i].category != BOM_SERVICE)
			hw += b->lines[i].extended_cents;
	return hw;
}

/* What the BOM adds up to is what the engine ranked on: capex, power,
 * rack units and racks; and every line is qty x unit, the total the sum. */
static void assert_agrees_with_engine(const struct bom *b, const struct engine_result *r)
{
	int64_t sum = 0;
	double watts = 0, units = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct bom_line *l = &b->lines[i];
		ck_assert_int_eq(l->extended_cents, l->unit_cents * l->qty);
		ck_assert_int_gt(l->qty, 0);
		sum += l->extended_cents;
		watts += l->qty * l->power_w_each;
		units += l->qty * l->rack_units_each;
	}
	ck_assert_int_eq(sum, b->total_cents);
	/* capex is the quote: the BOM's total to the cent, support and
	 * services included (issue 12). */
	int64_t capex = (int64_t)llround(r->capex_usd * 100.0);
	ck_assert_msg(b->total_cents == capex, "BOM total %lld, engine capex %lld",
		      (long long)b->total_cents, (long long)capex);
	int64_t parts = llround(r->capex_hardware_usd * 100) + llround(r->capex_fabric_usd * 100) +
			llround(r->capex_racks_usd * 100) + llround(r->capex_support_usd * 100) +
			llround(r->capex_services_usd * 100);
	ck_assert_int_eq(parts, capex);
	ck_assert_int_eq(llround(r->capex_support_usd * 100) + llround(r->capex_services_usd * 100),
			 b->total_cents - hardware_cents(b));
	ck_assert_double_eq_tol(watts / 1000.0, r->power_kw, 1e-6);
	ck_assert_double_eq_tol(b->total_power_w, watts, 1e-6);
	ck_assert_double_eq_tol(units, r->rack_units, 1e-9);
	ck_assert_int_eq(b->racks, (int)r->racks);
}

START_TEST(single_node_inference_bom)
{
	struct workload w;
	engine_workload_init(&w, cat);
	w.model = catalog_model(cat, "llama-3.1-8b");
	w.concurrency = 16;
	struct engine_result r;
	struct bom b;
	build_for(&w, "h100-sxm", NULL, &r, &b);
	assert_agrees_with_engine(&b, &r);
	const struct catalog_platform *p = r.platform;
	const struct bom_line *srv = find_line(&b, BOM_SERVER, p->sku);
	ck_assert_ptr_nonnull(srv);
	ck_assert_int_eq(srv->qty, r.nodes + r.spare_nodes);
	ck_assert_int_eq(srv->unit_cents, bom_usd_to_cents(p->price.usd));
	ck_assert_int_eq(srv->rack_units_each, p->rack_units);
	const struct bom_line *gpu = find_line(&b, BOM_ACCELERATOR, "h100-sxm");
	ck_assert_ptr_nonnull(gpu);
	ck_assert_int_eq(gpu->qty, r.gpus_installed);
	ck_assert_int_eq(gpu->qty, (r.nodes + r.spare_nodes) * p->gpus_per_node);
	ck_assert_int_eq(gpu->unit_cents, bom_usd_to_cents(r.accel->price.usd));
	ck_assert_ptr_nonnull(strstr(gpu->notes, "indicative catalog price"));
	/* every platform BOM line, times the servers */
	for (size_t i = 0; i < p->n_bom; i++) {
		const struct bom_line *l = NULL;
		for (size_t j = 0; j < b.n; j++)
			if (!strcmp(b.lines[j].sku, p->bom[i].sku))
				l = &b.lines[j];
		ck_assert_msg(l != NULL, "missing %s", p->bom[i].sku);
		ck_assert_int_eq(l->qty, (long)p->bom[i].qty * srv->qty);
	}
	/* racks and PDUs at the catalog defaults, stated in the notes */
	const struct bom_line *rack = find_line(&b, BOM_RACK, BOM_SKU_RACK);
	ck_assert_ptr_nonnull(rack);
	ck_assert_int_eq(rack->qty, (long)r.racks);
	char kw[32];
	bom_format_number(cat->defaults.rack_kw.value, kw, sizeof kw);
	char want[64];
	snprintf(want, sizeof want, "sized at %s kW", kw);
	ck_assert_ptr_nonnull(strstr(rack->notes, want));
	const struct bom_line *pdu = find_line(&b, BOM_POWER, BOM_SKU_PDU);
	ck_assert_ptr_nonnull(pdu);
	ck_assert_int_eq(pdu->qty, rack->qty * llround(cat->defaults.pdu_per_rack.value));
	/* support: years x share x hardware, rounded once */
	const struct bom_line *sup = find_line(&b, BOM_SUPPORT, NULL);
	ck_assert_ptr_nonnull(sup);
	ck_assert_int_eq(sup->extended_cents,
			 llround((double)hardware_cents(&b) * cat->defaults.support_years.value *
				 cat->defaults.support_fraction_per_year.value));
	/* one node: no scale-out fabric, but its front-end and OOB cables */
	if (r.nodes + r.spare_nodes == 1) {
		for (size_t i = 0; i < b.n; i++)
			if (b.lines[i].category == BOM_CABLE)
				ck_assert_int_le(b.lines[i].qty, 2);
		ck_assert_ptr_null(b.fabric);
	}
	bom_fini(&b);
}
END_TEST

/* A whole-rack platform (GB200 NVL72: 48 U, 132 kW, over the 42 U and
 * 40 kW of defaults) is one rack per node with its own power shelves: no
 * rack enclosure and no PDU is bought for it, and nothing is added to it,
 * so racks are only bought for the switches: a 72-GPU job's front-end
 * pair and OOB switch take one (engine_rack.c), with its PDUs. */
START_TEST(whole_rack_platform_is_one_rack)
{
	const struct catalog_platform *nvl = catalog_platform(cat, "gb200-nvl72");
	ck_assert_ptr_nonnull(nvl);
	ck_assert(nvl->whole_rack);
	ck_assert(nvl->max_power_w / 1000.0 > cat->defaults.rack_kw.value);
	ck_assert(nvl->rack_units > cat->defaults.rack_units.value);

	struct workload w;
	engine_workload_init(&w, cat);
	w.model = catalog_model(cat, "llama-3.1-405b");
	w.precision = w.kv_precision = PREC_FP8;
	w.concurrency = 16;
	w.accel = catalog_accel(cat, "gb200");
	w.gpus = 72;
	w.spare_nodes = 0;
	struct engine_result r;
	struct bom b;
	build_for(&w, "gb200", NULL, &r, &b);
	ck_assert_ptr_eq(r.platform, nvl);
	ck_assert_int_eq(r.nodes, 1);
	ck_assert_double_eq(r.racks, 2);
	ck_assert_double_eq(r.capex_racks_usd, 0);	/* no source prices racks or PDUs */
	assert_agrees_with_engine(&b, &r);
	ck_assert_int_eq(b.racks, 2);
	const struct bom_line *one = find_line(&b, BOM_RACK, BOM_SKU_RACK);
	ck_assert_ptr_nonnull(one);
	ck_assert_int_eq(one->qty, 1);
	ck_assert_ptr_nonnull(strstr(one->notes, "for the network switches"));
	const struct bom_line *pdus = find_line(&b, BOM_POWER, BOM_SKU_PDU);
	ck_assert_ptr_nonnull(pdus);
	ck_assert_int_eq(pdus->qty, llround(cat->defaults.pdu_per_rack.value));
	const struct bom_line *srv = find_line(&b, BOM_SERVER, nvl->sku);
	ck_assert_ptr_nonnull(srv);
	ck_assert_ptr_nonnull(strstr(srv->notes, "whole rack (48 U) with its own power shelves: 1 rack"));
	bom_fini(&b);

	/* Four racks of training: four node racks, plus racks (with PDUs)
	 * for the leaf and spine switches only. */
	engine_workload_class_defaults(&w, WL_PRETRAIN);
	w.model = catalog_model(cat, "llama-3.1-70b");
	w.precision = PREC_BF16;
	w.tokens = 1e12;
	w.accel = catalog_accel(cat, "gb200");
	w.gpus = 288;
	w.spare_nodes = 0;
	build_for(&w, "gb200", NULL, &r, &b);
	ck_assert_int_eq(r.nodes, 4);
	ck_assert_ptr_nonnull(r.fabric);
	const struct catalog_fabric *f = r.fabric;
	double sw_u = (double)(r.leaf_switches + r.spine_switches) * f->switch_rack_units;
	double sw_kw = (r.leaf_switches + r.spine_switches) * f->switch_power_w / 1000.0;
	double net = fmax(ceil(sw_u / cat->defaults.rack_units.value),
			  ceil(sw_kw / cat->defaults.rack_kw.value));
	ck_assert_double_eq(r.racks, 4 + net);
	assert_agrees_with_engine(&b, &r);
	const struct bom_line *rack = find_line(&b, BOM_RACK, BOM_SKU_RACK);
	ck_assert_ptr_nonnull(rack);
	ck_assert_int_eq(rack->qty, (long)net);
	ck_assert_ptr_nonnull(strstr(rack->notes, "for the network switches"));
	const struct bom_line *pdu = find_line(&b, BOM_POWER, BOM_SKU_PDU);
	ck_assert_ptr_nonnull(pdu);
	ck_assert_int_eq(pdu->qty, (long)net * llround(cat->defaults.pdu_per_rack.value));
	ck_assert_double_eq(r.capex_racks_usd, net * (cat->defaults.rack_price_usd.value +
						      cat->defaults.pdu_per_rack.value *
						      cat->defaults.pdu_price_usd.value));
	bom_fini(&b);
}
END_TEST

/* Gaudi 3's scale-out ports are on the accelerators (3 of 24 x 200GbE per
 * chip): a multi-node cluster buys switch ports and cables for them, no
 * NIC cards. */
START_TEST(ports_on_accelerator_need_no_nics)
{
	const struct catalog_platform *p = catalog_platform(cat, "gaudi3-8-oam");
	ck_assert_ptr_nonnull(p);
	ck_assert(p->nics_on_accel);
	struct workload w;
	engine_workload_init(&w, cat);
	engine_workload_class_defaults(&w, WL_PRETRAIN);
	w.model = catalog_model(cat, "llama-2-7b");
	w.precision = PREC_BF16;
	w.tokens = 1e12;
	w.accel = catalog_accel(cat, "gaudi3");
	w.gpus = 32;
	w.spare_nodes = 0;
	struct engine_result r;
	struct bom b;
	build_for(&w, "gaudi3", NULL, &r, &b);
	ck_assert_int_eq(r.nodes, 4);
	ck_assert_ptr_nonnull(r.fabric);
	const struct catalog_fabric *f = r.fabric;
	/* every port still gets a switch port and a cable */
	ck_assert_int_eq(r.nics, 4 * p->nic_count);
	ck_assert_int_ge(r.cables, r.nics);
	ck_assert_int_ge(r.leaf_switches, 1);
	assert_agrees_with_engine(&b, &r);
	ck_assert_ptr_null(find_line(&b, BOM_NETWORK, f->nic_sku));
	const struct bom_line *sw = find_line(&b, BOM_NETWORK, f->switch_sku);
	ck_assert_ptr_nonnull(sw);
	ck_assert_int_eq(sw->qty, r.leaf_switches + r.spine_switches);
	ck_assert_ptr_nonnull(strstr(sw->notes, "48 node ports: 12 per node on the accelerators, no NIC cards"));
	const struct bom_line *cable = find_line(&b, BOM_CABLE, f->cable_sku);
	ck_assert_ptr_nonnull(cable);
	ck_assert_int_eq(cable->qty, r.cables);
	double capex = r.capex_usd, fabric = r.capex_fabric_usd, kw = r.power_kw;
	int unpriced = r.unpriced_lines;
	ck_assert_double_eq_tol(fabric, (r.leaf_switches + r.spine_switches) * f->switch_price_usd +
					r.cables * f->cable_price_usd + network_usd(&b), 1e-6);
	bom_fini(&b);

	/* The same cluster with NIC cards: the NICs' line, price (none in the
	 * shipped catalog: one more unpriced line) and power on top, nothing
	 * else. */
	struct catalog_platform *pm = (struct catalog_platform *)p;
	pm->nics_on_accel = false;
	build_for(&w, "gaudi3", NULL, &r, &b);
	pm->nics_on_accel = true;
	ck_assert_ptr_nonnull(find_line(&b, BOM_NETWORK, f->nic_sku));
	ck_assert_double_eq_tol(r.capex_fabric_usd - fabric, r.nics * f->nic_price_usd, 1e-6);
	if (f->nic_price_usd > 0)
		ck_assert(r.capex_usd > capex);
	else
		ck_assert_int_eq(r.unpriced_lines, unpriced + 1);
	ck_assert_double_eq_tol(r.power_kw - kw, r.nics * f->nic_power_w / 1000.0, 1e-9);
	bom_fini(&b);
}
END_TEST

/* Installation and burn-in: a service line per node, spares included,
 * after the support line (which covers hardware only).  The shipped
 * defaults give no figure (no source prices the service): the line is
 * quoted unpriced; a figure in the defaults or a price list prices it. */
START_TEST(burn_in_service_line)
{
	struct workload w;
	engine_workload_init(&w, cat);
	w.model = catalog_model(cat, "llama-3.1-8b");
	w.concurrency = 16;
	w.spare_nodes = 1;
	struct engine_result r;
	struct bom b;
	build_for(&w, "h100-sxm", NULL, &r, &b);
	assert_agrees_with_engine(&b, &r);
	ck_assert_int_eq(r.nodes, 1);
	ck_assert_int_eq(r.spare_nodes, 1);
	ck_assert_double_eq(cat->defaults.burn_in_usd_per_node.value, 0);
	const struct bom_line *svc = find_line(&b, BOM_SERVICE, BOM_SKU_BURN_IN);
	ck_assert_ptr_nonnull(svc);
	ck_assert_int_eq(svc->qty, 2);
	ck_assert_int_eq(svc->extended_cents, 0);
	ck_assert_ptr_nonnull(strstr(svc->notes, "give SKU BURN-IN a price"));
	int64_t without = b.total_cents;
	int unpriced = r.unpriced_lines;
	bom_fini(&b);

	/* a figure in the defaults prices it */
	double per_node = 1500;
	struct catalog_defaults *d = (struct catalog_defaults *)&cat->defaults;
	d->burn_in_usd_per_node.value = per_node;
	build_for(&w, "h100-sxm", NULL, &r, &b);
	d->burn_in_usd_per_node.value = 0;
	assert_agrees_with_engine(&b, &r);
	svc = find_line(&b, BOM_SERVICE, BOM_SKU_BURN_IN);
	ck_assert_ptr_nonnull(svc);
	ck_assert_int_eq(svc->qty, 2);
	ck_assert_int_eq(svc->unit_cents, bom_usd_to_cents(per_node));
	ck_assert_int_eq(svc->extended_cents, 2 * bom_usd_to_cents(per_node));
	ck_assert_ptr_nonnull(strstr(svc->notes, "spares included"));
	ck_assert_ptr_nonnull(strstr(svc->notes, "catalog figure (defaults.burn_in_usd_per_node)"));
	ck_assert_int_eq(r.unpriced_lines, unpriced - 1);
	/* the support line is a share of the hardware, not of the service */
	const struct bom_line *sup = find_line(&b, BOM_SUPPORT, NULL);
	ck_assert_ptr_nonnull(sup);
	ck_assert_int_lt(sup->line, svc->line);
	ck_assert_int_eq(sup->extended_cents,
			 llround((double)hardware_cents(&b) * cat->defaults.support_years.value *
				 cat->defaults.support_fraction_per_year.value));
	ck_assert_int_eq(b.total_cents, hardware_cents(&b) + sup->extended_cents + svc->extended_cents);
	ck_assert_int_eq(b.total_cents, without + 2 * bom_usd_to_cents(per_node));
	bom_fini(&b);

	/* a price list prices it like any SKU */
	struct prices pl;
	char err[256];
	const char *text = "sku,unit_price_usd\nBURN-IN,2500\n";
	ck_assert_msg(prices_parse("p.csv", text, strlen(text), &pl, err, sizeof err), "%s", err);
	build_for(&w, "h100-sxm", &pl, &r, &b);
	svc = find_line(&b, BOM_SERVICE, BOM_SKU_BURN_IN);
	ck_assert_ptr_nonnull(svc);
	ck_assert_int_eq(svc->unit_cents, 250000);
	ck_assert(svc->from_price_list);
	bom_fini(&b);
	prices_fini(&pl);
}
END_TEST

START_TEST(multi_node_training_bom_has_fabric)
{
	struct workload w;
	engine_workload_init(&w, cat);
	engine_workload_class_defaults(&w, WL_PRETRAIN);
	w.model = catalog_model(cat, "llama-3.1-70b");
	w.precision = PREC_BF16;
	w.tokens = 2e12;
	w.target_hours = 30 * 24;
	struct engine_result r;
	struct bom b;
	build_for(&w, "h100-sxm", NULL, &r, &b);
	ck_assert_int_gt(r.nodes, 1);
	ck_assert_ptr_nonnull(r.fabric);
	assert_agrees_with_engine(&b, &r);
	const struct bom_line *sw = find_line(&b, BOM_NETWORK, r.fabric->switch_sku);
	ck_assert_ptr_nonnull(sw);
	ck_assert_int_eq(sw->qty, r.leaf_switches + r.spine_switches);
	ck_assert_int_eq(sw->rack_units_each, r.fabric->switch_rack_units);
	const struct bom_line *cb = find_line(&b, BOM_CABLE, r.fabric->cable_sku);
	ck_assert_ptr_nonnull(cb);
	ck_assert_int_eq(cb->qty, r.cables);
	bom_fini(&b);
}
END_TEST

START_TEST(price_list_overrides_catalog)
{
	struct workload w;
	engine_workload_init(&w, cat);
	w.model = catalog_model(cat, "llama-3.1-8b");
	struct engine_result r;
	struct bom b0, b;
	build_for(&w, "h100-sxm", NULL, &r, &b0);
	char text[1024];
	snprintf(text, sizeof text,
		 "sku,unit_price_usd,discount_pct,description\n"
		 "h100-sxm,27000.50,10,\"H100 SXM5 80GB, partner price\"\n"
		 "\"%s\",111.11,,\n"
		 "RACK,0,,\n"
		 "NOT-IN-BOM,5,,\n", r.platform->sku);
	struct prices pl;
	char err[512] = "";
	ck_assert_msg(prices_parse("pl.csv", text, strlen(text), &pl, err, sizeof err), "%s", err);
	build_for(&w, "h100-sxm", &pl, &r, &b);
	const struct bom_line *gpu = find_line(&b, BOM_ACCELERATOR, "h100-sxm");
	ck_assert_int_eq(gpu->unit_cents, 2430045);		/* 27000.50 less 10 % */
	ck_assert_int_eq(gpu->extended_cents, 2430045LL * gpu->qty);
	ck_assert_str_eq(gpu->description, "H100 SXM5 80GB, partner price");
	ck_assert_ptr_nonnull(strstr(gpu->notes, "price list: 27000.50 less 10%"));
	ck_assert(gpu->from_price_list);
	const struct bom_line *srv = find_line(&b, BOM_SERVER, r.platform->sku);
	ck_assert_int_eq(srv->unit_cents, 11111);
	ck_assert_str_eq(srv->description, r.platform->name);	/* no description given */
	/* a zero price from the list is a price: no "no price" note */
	const struct bom_line *rack = find_line(&b, BOM_RACK, BOM_SKU_RACK);
	ck_assert_int_eq(rack->extended_cents, 0);
	ck_assert_ptr_null(strstr(rack->notes, "no price"));
	/* the list's unknown SKU is reported by the caller */
	ck_assert(!bom_has_sku(&b, "NOT-IN-BOM"));
	ck_assert(bom_has_sku(&b, "h100-sxm"));
	/* same quantities as without the list */
	ck_assert_uint_eq(b.n, b0.n);
	for (size_t i = 0; i < b.n; i++)
		ck_assert_int_eq(b.lines[i].qty, b0.lines[i].qty);
	ck_assert_int_lt(b.total_cents, b0.total_cents);
	prices_fini(&pl);
	bom_fini(&b0);
	bom_fini(&b);
}
END_TEST

START_TEST(unpriced_lines_say_so)
{
	struct workload w;
	engine_workload_init(&w, cat);
	w.model = catalog_model(cat, "llama-3.1-8b");
	struct catalog_accel *a = (struct catalog_accel *)catalog_accel(cat, "h100-sxm");
	double saved = a->price.usd;
	a->price.usd = 0;
	struct engine_result r;
	struct bom b;
	build_for(&w, "h100-sxm", NULL, &r, &b);
	a->price.usd = saved;
	const struct bom_line *gpu = find_line(&b, BOM_ACCELERATOR, "h100-sxm");
	ck_assert_int_eq(gpu->unit_cents, 0);
	ck_assert(!gpu->priced);
	ck_assert_ptr_nonnull(strstr(gpu->notes, "unpriced: give SKU h100-sxm a price in your price list"));
	ck_assert_uint_ge(b.n_unpriced, 1);
	bom_fini(&b);
}
END_TEST

START_TEST(real_bom_csv_round_trip)
{
	make_tmpdir();
	struct workload w;
	engine_workload_init(&w, cat);
	engine_workload_class_defaults(&w, WL_PRETRAIN);
	w.model = catalog_model(cat, "llama-3.1-70b");
	w.precision = PREC_BF16;
	w.target_hours = 30 * 24;
	w.tokens = 2e12;
	struct engine_result r;
	struct bom b;
	build_for(&w, "mi300x", NULL, &r, &b);
	const char *p = path_in("real.csv");
	char err[512] = "";
	ck_assert_msg(bom_write_csv(&b, p, err, sizeof err), "%s", err);
	struct table t;
	read_csv(p, &t);
	ck_assert_uint_eq(t.n, b.n + 2);
	int64_t sum = 0;
	for (size_t i = 1; i + 1 < t.n; i++) {
		ck_assert_uint_eq(t.ncells[i], 10);
		ck_assert_str_eq(t.rows[i][2], b.lines[i - 1].sku);
		ck_assert_str_eq(t.rows[i][3], b.lines[i - 1].description);
		ck_assert_int_eq(atol(t.rows[i][4]), b.lines[i - 1].qty);
		const char *notes = t.rows[i][9];
		ck_assert_int_eq(line_cents(t.rows[i][6], notes),
				 line_cents(t.rows[i][5], notes) * atol(t.rows[i][4]));
		sum += line_cents(t.rows[i][6], notes);
	}
	ck_assert_int_eq(cents_of(t.rows[t.n - 1][6]), sum);
	ck_assert_int_eq(sum, b.total_cents);
	free_table(&t);
	bom_fini(&b);
	cleanup_tmpdir();
}
END_TEST

START_TEST(summary_states_scenario_assumptions_version_date)
{
	make_tmpdir();
	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);	/* 2023-11-14 */
	struct scenario s;
	char err[512] = "";
	ck_assert_msg(scenario_load(ABS_TOP_SRCDIR "/tests/fixtures/scenarios/good/inference.yaml",
				    cat, &s, err, sizeof err), "%s", err);
	struct engine_result r;
	struct bom b;
	build_for(&s.w, "h100-sxm", NULL, &r, &b);
	struct bom_summary_info info = { .customer = s.customer, .opportunity = s.opportunity,
					.notes = s.notes, .prices_path = "prices.csv" };
	const char *p = path_in("summary.txt");
	ck_assert_msg(bom_write_summary(&b, cat, &s.w, &info, p, err, sizeof err), "%s", err);
	unsetenv("SOURCE_DATE_EPOCH");
	char *t = read_all(p);
	ck_assert_ptr_nonnull(strstr(t, "Date         2023-11-14\n"));
	char want[128];
	snprintf(want, sizeof want, "Catalog      version %s\n", cat->defaults.version);
	ck_assert_ptr_nonnull(strstr(t, want));
	ck_assert_ptr_nonnull(strstr(t, s.customer));
	ck_assert_ptr_nonnull(strstr(t, "Prices       prices.csv\n"));
	ck_assert_ptr_nonnull(strstr(t, "  model                        llama-3.1-70b\n"));
	ck_assert_ptr_nonnull(strstr(t, "  input_tokens                 2048\n"));
	ck_assert_ptr_nonnull(strstr(t, "  filters.budget_usd           2500000\n"));
	ck_assert_ptr_nonnull(strstr(t, "  rack_kw "));
	ck_assert_ptr_nonnull(strstr(t, "  support_fraction_per_year "));
	char total[32];
	bom_format_cents(b.total_cents, total, sizeof total);
	snprintf(want, sizeof want, "  price_usd                    %s\n", total);
	ck_assert_ptr_nonnull(strstr(t, want));
	free(t);
	bom_fini(&b);
	scenario_fini(&s);
	cleanup_tmpdir();
}
END_TEST

START_TEST(no_platform_is_an_error)
{
	struct engine_result r;
	memset(&r, 0, sizeof r);
	r.accel = catalog_accel(cat, "h100-sxm");
	struct workload w;
	engine_workload_init(&w, cat);
	struct bom b;
	char err[256] = "";
	ck_assert(!bom_build(cat, &w, &r, NULL, &b, err, sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "no node configuration"));
	ck_assert_uint_eq(b.n, 0);
}
END_TEST

/* The front-end and out-of-band networks, counted by hand from the
 * catalog's networks (SN4600C: 64 ports, 2 a node; SN2201: 48 ports, 1 a
 * node): 4 nodes in one rack: 8 ports, 1 + 1 switches, 8 + 4 copper
 * cables; 40 nodes in 10 racks: 80 ports over 64 is 2 front-end switches,
 * 40 over 48 is 1 OOB switch, 80 + 40 cables across racks (optics). */
struct net_count {
	long sw[2], cable[2];
	const char *cable_sku[2];
};

static void count_net(const struct engine_quote_line *l, void *ctx)
{
	struct net_count *n = ctx;
	const struct catalog_defaults *d = &cat->defaults;
	for (int i = 0; i < 2 && (size_t)i < d->n_networks; i++) {
		const struct catalog_network *nw = &d->networks[i];
		if (l->item == QUOTE_SWITCH && !strcmp(l->sku, nw->sku))
			n->sw[i] += l->qty;
		if (l->item == QUOTE_CABLE &&
		    (!strcmp(l->sku, nw->copper_sku) || !strcmp(l->sku, nw->optics_sku))) {
			n->cable[i] += l->qty;
			n->cable_sku[i] = l->sku;
		}
	}
}

static void quote_nodes(int nodes, double racks, struct net_count *n)
{
	struct engine_result r;
	memset(&r, 0, sizeof r);
	r.accel = catalog_accel(cat, "h100-sxm");
	r.platform = catalog_platform(cat, "hgx-h100-8");
	ck_assert_ptr_nonnull(r.platform);
	r.nodes = nodes;
	r.racks = racks;
	struct workload w;
	engine_workload_init(&w, cat);
	memset(n, 0, sizeof *n);
	struct engine_quote_totals t;
	engine_quote(cat, &w, &r, count_net, n, &t);
}

START_TEST(frontend_and_oob_networks_counted)
{
	const struct catalog_defaults *d = &cat->defaults;
	ck_assert_uint_eq(d->n_networks, 2);
	ck_assert_str_eq(d->networks[0].role, "frontend");
	ck_assert_int_eq(d->networks[0].ports, 64);
	ck_assert_int_eq(d->networks[0].ports_per_node, 2);
	ck_assert_int_eq(d->networks[0].min_switches, 2);
	ck_assert_str_eq(d->networks[1].role, "oob");
	ck_assert_int_eq(d->networks[1].ports, 48);
	ck_assert_int_eq(d->networks[1].ports_per_node, 1);
	/* no source gave a price: none in the catalog, so none is invented */
	for (size_t i = 0; i < d->n_networks; i++) {
		ck_assert(d->networks[i].price_usd == 0);
		ck_assert(d->networks[i].copper_price_usd == 0);
		ck_assert(d->networks[i].optics_price_usd == 0);
	}
	struct net_count n;
	/* 4 nodes in one rack: 8 front-end ports, one pair; copper */
	quote_nodes(4, 1, &n);
	ck_assert_int_eq(n.sw[0], 2);
	ck_assert_int_eq(n.sw[1], 1);
	ck_assert_int_eq(n.cable[0], 8);
	ck_assert_int_eq(n.cable[1], 4);
	ck_assert_str_eq(n.cable_sku[0], d->networks[0].copper_sku);
	ck_assert_str_eq(n.cable_sku[1], d->networks[1].copper_sku);
	/* 40 nodes in 10 racks: 80 ports over 64 is 2 (a pair), 40 BMC ports
	 * one switch; optics across racks */
	quote_nodes(40, 10, &n);
	ck_assert_int_eq(n.sw[0], 2);
	ck_assert_int_eq(n.sw[1], 1);
	ck_assert_int_eq(n.cable[0], 80);
	ck_assert_int_eq(n.cable[1], 40);
	ck_assert_str_eq(n.cable_sku[0], d->networks[0].optics_sku);
	ck_assert_str_eq(n.cable_sku[1], d->networks[1].optics_sku);
	/* 65 nodes: 130 ports need 3 switches, bought as two pairs; 65 BMC
	 * ports 2 */
	quote_nodes(65, 17, &n);
	ck_assert_int_eq(n.sw[0], 4);
	ck_assert_int_eq(n.sw[1], 2);
	/* one node still has a pair and one OOB switch */
	quote_nodes(1, 1, &n);
	ck_assert_int_eq(n.sw[0], 2);
	ck_assert_int_eq(n.sw[1], 1);
}
END_TEST

/* The networks' lines are unpriced: the quote counts them and excludes
 * them from the total, and a price list's lines price them exactly. */
START_TEST(unpriced_networks_counted_and_priced_by_list)
{
	struct workload w;
	engine_workload_init(&w, cat);
	w.model = catalog_model(cat, "llama-3.1-8b");
	w.spare_nodes = 0;
	struct engine_result r;
	struct bom b;
	build_for(&w, "h100-sxm", NULL, &r, &b);
	/* the four network lines, and the server, its five parts, the rack,
	 * PDU and burn-in lines that no source prices either: all but the GPU */
	ck_assert_int_eq(r.unpriced_lines, 13);
	ck_assert_uint_eq(b.n_unpriced, 13);
	ck_assert_int_eq(engine_price_state(&r), PRICE_PARTIAL);
	ck_assert_int_eq(llround(r.capex_usd * 100), b.total_cents);
	int64_t before = b.total_cents;
	bom_fini(&b);

	static const char list[] = "sku,unit_price_usd\nMSN4600C,1000\nDAC-100G-QSFP28,10\n"
				   "MSN2201,500\nCAT6A-PATCH,1\n";
	struct prices pl;
	char err[256] = "";
	ck_assert_msg(prices_parse("net.csv", list, sizeof list - 1, &pl, err, sizeof err), "%s", err);
	build_for(&w, "h100-sxm", &pl, &r, &b);
	ck_assert_int_eq(r.unpriced_lines, 9);
	ck_assert_uint_eq(b.n_unpriced, 9);
	/* 2 x 1000 + 2 x 10 + 500 + 1, and support on it (years x share) */
	double share = cat->defaults.support_years.value * cat->defaults.support_fraction_per_year.value;
	ck_assert_int_eq(b.total_cents, before + llround(252100 * (1 + share)));
	bom_fini(&b);
	prices_fini(&pl);

	/* A GPU no source prices (B200): its line is unpriced too, and the
	 * result's price state says its money figures are no figures. */
	build_for(&w, "b200", NULL, &r, &b);
	ck_assert(!r.accel_priced);
	ck_assert_int_eq(engine_price_state(&r), PRICE_UNKNOWN);
	ck_assert_int_eq(r.unpriced_lines, (int)b.n_unpriced);
	ck_assert(isnan(r.breakeven_months));
	bom_fini(&b);
}
END_TEST

#define ADD(s, fn) TAP_ADD(s, fn)

int main(void)
{
	cat = fixture_shipped_catalog();
	Suite *s = suite_create("bom");
	ADD(s, atomic_creates_and_replaces);
	ADD(s, atomic_keeps_permissions_of_existing_file);
	ADD(s, atomic_failed_writer_leaves_old_file);
	ADD(s, atomic_abort_leaves_nothing);
	ADD(s, atomic_directory_at_target);
	ADD(s, atomic_missing_folder);
	ADD(s, atomic_replaces_symlink_not_its_target);
	ADD(s, atomic_dangling_symlink_is_replaced);
	if (geteuid() != 0)
		ADD(s, atomic_readonly_folder);
	ADD(s, money_and_numbers_print_plainly);
	ADD(s, csv_round_trip_lines_and_totals);
	ADD(s, csv_neutralises_formulas);
	ADD(s, plan_csv);
	ADD(s, failed_export_keeps_previous_bom);
	ADD(s, single_node_inference_bom);
	ADD(s, multi_node_training_bom_has_fabric);
	ADD(s, whole_rack_platform_is_one_rack);
	ADD(s, ports_on_accelerator_need_no_nics);
	ADD(s, burn_in_service_line);
	ADD(s, price_list_overrides_catalog);
	ADD(s, unpriced_lines_say_so);
	ADD(s, real_bom_csv_round_trip);
	ADD(s, summary_states_scenario_assumptions_version_date);
	ADD(s, no_platform_is_an_error);
	ADD(s, frontend_and_oob_networks_counted);
	ADD(s, unpriced_networks_counted_and_priced_by_list);
	int rc = tap_run(s);
	catalog_free(cat);
	return rc;
}
