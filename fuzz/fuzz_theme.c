/*
 * Fuzz target: theme files.  theme_load_file() only takes a path, so the
 * input is written to an in-memory file (memfd) and read back through
 * /proc/self/fd/N: the loader's real open/fstat/read path runs every time,
 * without touching the disk.  A temporary file stands in where memfd is
 * missing.
 *
 * A theme that loads must hold what the wizard draws without checking:
 * a name and every glyph as valid, printable UTF-8 that fits its slot, and
 * colours in range.
 */
#define _GNU_SOURCE		/* memfd_create */
#include "fuzz.h"

#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wchar.h>

#include "theme.h"

static int fd = -1;
static char path[512];
static pid_t owner;

static void cleanup(void)
{
	if (getpid() == owner && strncmp(path, "/proc/", 6))
		unlink(path);
}

int fuzz_theme_init(void)
{
	/* For wcwidth(): the wizard draws glyphs in a UTF-8 locale. */
	setlocale(LC_CTYPE, "C.UTF-8");
	fd = memfd_create("fuzz-theme.yaml", MFD_CLOEXEC);
	if (fd >= 0) {
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		return 0;
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(path, sizeof path, "%s/accelsizer-fuzz-theme.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	owner = getpid();
	atexit(cleanup);
	return 0;
}

/* Display columns of printable UTF-8 s; -1 if a character has none. */
static int display_columns(const char *s)
{
	int cols = 0;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	for (size_t left = strlen(s); left > 0;) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, left, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0)
			return -1;
		int w = wcwidth(wc);
		if (w < 0)
			return -1;
		cols += w;
		s += n;
		left -= n;
	}
	return cols;
}

static bool colour_ok(short c)
{
	return c == THEME_DEFAULT_COLOUR || (c >= 0 && c <= 255);
}

static int check_theme(const struct theme *th)
{
	int bad = 0;
	if (!memchr(th->name, '\0', sizeof th->name) || !fuzz_printable_utf8(th->name)) {
		fprintf(stderr, "fuzz: theme name is not printable UTF-8: '%.*s'\n",
			(int)sizeof th->name, th->name);
		bad = 1;
	}
	for (int g = 0; g < GLYPH_COUNT; g++) {
		if (!th->utf8[g][0] || !memchr(th->utf8[g], '\0', THEME_GLYPH_MAX) ||
		    !fuzz_printable_utf8(th->utf8[g])) {
			fprintf(stderr, "fuzz: utf8 glyph %s is empty or not printable\n",
				theme_glyph_name(g));
			bad = 1;
		} else {
			/* At most the glyph's columns (one for the bars and marks
			 * other cells align to), as the screen is laid out. */
			int cols = display_columns(th->utf8[g]);
			if (cols < 1 || cols > theme_glyph_columns(g)) {
				fprintf(stderr, "fuzz: utf8 glyph %s '%s' is %d columns wide, not 1 to %d\n",
					theme_glyph_name(g), th->utf8[g], cols, theme_glyph_columns(g));
				bad = 1;
			}
		}
		const char *a = th->ascii[g];
		size_t alen = strlen(a);
		bool printable = alen >= 1 && alen <= (size_t)theme_glyph_columns(g);
		for (size_t i = 0; printable && i < alen; i++)
			printable = (unsigned char)a[i] >= 0x20 && (unsigned char)a[i] < 0x7f;
		if (!printable) {
			fprintf(stderr, "fuzz: ascii glyph %s is not 1 to %d printable ASCII characters\n",
				theme_glyph_name(g), theme_glyph_columns(g));
			bad = 1;
		}
	}
	for (int r = 0; r < ROLE_COUNT; r++)
		if (!colour_ok(th->role[r].fg) || !colour_ok(th->role[r].bg) ||
		    th->role[r].attrs & ~(unsigned)(THEME_BOLD | THEME_REVERSE | THEME_UNDERLINE |
						    THEME_DIM)) {
			fprintf(stderr, "fuzz: role %s has a colour or attribute out of range\n",
				theme_role_name(r));
			bad = 1;
		}
	return bad;
}

int fuzz_theme_one(const uint8_t *data, size_t size)
{
	if (fd < 0)
		return 0;
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
		perror(path);
		return 0;
	}
	struct theme th;
	char err[1024] = "";
	if (theme_load_file(&th, path, err, sizeof err))
		return check_theme(&th);
	return fuzz_clean_message("theme_load_file", err, path) ? 0 : 1;
}
