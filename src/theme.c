/*
 * theme: parse themes/NAME.yaml into a role table and glyph pairs, and find
 * theme files.  See theme.h.
 *
 * File shape (every role required, glyphs optional):
 *   name: dark
 *   roles:
 *     frame: {fg: blue, bg: default, attrs: [bold]}
 *     ...
 *   glyphs:
 *     utf8:  {bar_full: "█", fits: "✓", ...}
 *     ascii: {bar_full: "#", fits: "+", ...}
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

#include "theme.h"
#include "ytree.h"

static const char *const role_names[ROLE_COUNT] = {
#define X(role, doc) #role,
	THEME_ROLES(X)
#undef X
};

static const char *const glyph_names[GLYPH_COUNT] = {
#define X(g, u, a, cols, doc) #g,
	THEME_GLYPHS(X)
#undef X
};

static const char *const glyph_utf8_default[GLYPH_COUNT] = {
#define X(g, u, a, cols, doc) u,
	THEME_GLYPHS(X)
#undef X
};

static const char *const glyph_ascii_default[GLYPH_COUNT] = {
#define X(g, u, a, cols, doc) a,
	THEME_GLYPHS(X)
#undef X
};

static const int glyph_cols[GLYPH_COUNT] = {
#define X(g, u, a, cols, doc) cols,
	THEME_GLYPHS(X)
#undef X
};

const char *theme_role_name(enum theme_role r)
{
	return (unsigned)r < ROLE_COUNT ? role_names[r] : "?";
}

int theme_glyph_columns(enum theme_glyph g)
{
	return (unsigned)g < GLYPH_COUNT ? glyph_cols[g] : 1;
}

const char *theme_glyph_name(enum theme_glyph g)
{
	return (unsigned)g < GLYPH_COUNT ? glyph_names[g] : "?";
}

/* The eight ANSI colours; "bright-" adds 8 (the aixterm convention that
 * every 16-colour terminal follows). */
static const char *const colour_names[8] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

bool theme_colour_parse(const char *s, short *out)
{
	if (!s || !*s)
		return false;
	if (!strcasecmp(s, "default")) {
		*out = THEME_DEFAULT_COLOUR;
		return true;
	}
	int base = 0;
	const char *n = s;
	if (!strncasecmp(s, "bright-", 7)) {
		base = 8;
		n = s + 7;
	}
	for (int i = 0; i < 8; i++)
		if (!strcasecmp(n, colour_names[i])) {
			*out = (short)(base + i);
			return true;
		}
	if (base)
		return false;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v > 255)
		return false;
	*out = (short)v;
	return true;
}

static void glyph_defaults(struct theme *th)
{
	for (int g = 0; g < GLYPH_COUNT; g++) {
		snprintf(th->utf8[g], sizeof th->utf8[g], "%s", glyph_utf8_default[g]);
		snprintf(th->ascii[g], sizeof th->ascii[g], "%s", glyph_ascii_default[g]);
	}
}

void theme_builtin_mono(struct theme *th)
{
	memset(th, 0, sizeof *th);
	snprintf(th->name, sizeof th->name, "mono (built-in)");
	for (int r = 0; r < ROLE_COUNT; r++) {
		th->role[r].fg = THEME_DEFAULT_COLOUR;
		th->role[r].bg = THEME_DEFAULT_COLOUR;
	}
	/* Attributes alone still separate every state a person must see. */
	th->role[ROLE_title].attrs = THEME_BOLD;
	th->role[ROLE_step_current].attrs = THEME_REVERSE | THEME_BOLD;
	th->role[ROLE_step_missing].attrs = THEME_UNDERLINE;
	th->role[ROLE_field_focus].attrs = THEME_REVERSE;
	th->role[ROLE_value].attrs = THEME_BOLD;
	th->role[ROLE_muted].attrs = THEME_DIM;
	th->role[ROLE_error].attrs = THEME_BOLD;
	th->role[ROLE_bar_over].attrs = THEME_BOLD;
	th->role[ROLE_binding].attrs = THEME_BOLD;
	th->role[ROLE_selection].attrs = THEME_UNDERLINE | THEME_BOLD;
	th->role[ROLE_header].attrs = THEME_UNDERLINE;
	glyph_defaults(th);
	th->uses_colour = false;
}

/* ---- parsing ---- */

struct tparse {
	const char *path;
	char *err;
	size_t errsz;
};

static bool fail(struct tparse *p, const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool fail(struct tparse *p, const struct ynode *n, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* Messages quote values from the file: keep them inert on a terminal,
	 * and cut a long one between characters, not inside one. */
	int len = snprintf(p->err, p->errsz, "%s:%d:%d: ", p->path, n ? n->line : 1, n ? n->col : 1);
	if (len >= 0 && (size_t)len < p->errsz)
		ytree_escape_text(p->err + len, p->errsz - (size_t)len, msg);
	return false;
}

static int lookup(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

static bool want_scalar(struct tparse *p, const struct ynode *n, const char *what)
{
	if (n->kind != YN_SCALAR)
		return fail(p, n, "%s must be a scalar, not %s", what, ynode_kind_name(n->kind));
	return true;
}

static bool parse_attrs(struct tparse *p, const struct ynode *n, unsigned *out)
{
	static const char *const attr_names[] = { "bold", "reverse", "underline", "dim" };
	static const unsigned attr_bits[] = { THEME_BOLD, THEME_REVERSE, THEME_UNDERLINE, THEME_DIM };

	*out = 0;
	if (n->kind != YN_SEQ)
		return fail(p, n, "attrs must be a list such as [bold, underline]");
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *a = n->items[i];
		if (!want_scalar(p, a, "an attribute"))
			return false;
		int k = lookup(attr_names, 4, a->scalar);
		if (k < 0)
			return fail(p, a, "unknown attribute '%s' (bold, reverse, underline, dim)", a->scalar);
		*out |= attr_bits[k];
	}
	return true;
}

static bool parse_style(struct tparse *p, const char *role, const struct ynode *n,
			struct theme_style *st)
{
	st->fg = st->bg = THEME_DEFAULT_COLOUR;
	st->attrs = 0;
	if (n->kind != YN_MAP)
		return fail(p, n, "role '%s' must be a mapping {fg, bg, attrs}", role);
	for (size_t i = 0; i < n->n; i++) {
		const char *k = n->keys[i]->scalar;
		const struct ynode *v = n->items[i];
		if (!strcmp(k, "fg") || !strcmp(k, "bg")) {
			if (!want_scalar(p, v, k))
				return false;
			if (!theme_colour_parse(v->scalar, !strcmp(k, "fg") ? &st->fg : &st->bg))
				return fail(p, v, "bad colour '%s' for %s.%s: use default, black, red, green, "
					    "yellow, blue, magenta, cyan, white, bright-NAME or 0-255",
					    v->scalar, role, k);
		} else if (!strcmp(k, "attrs")) {
			if (!parse_attrs(p, v, &st->attrs))
				return false;
		} else {
			return fail(p, n->keys[i], "unknown key '%s' in role '%s' (fg, bg, attrs)", k, role);
		}
	}
	return true;
}

/* One display column: one printable ASCII byte, or for utf8 one code point
 * outside the control ranges (ytree already refused invalid UTF-8). */
static bool one_glyph(const char *s, bool ascii)
{
	const unsigned char *u = (const unsigned char *)s;
	if (ascii)
		return u[0] >= 0x20 && u[0] < 0x7f && !u[1];
	if (u[0] < 0x80)
		return u[0] >= 0x20 && u[0] != 0x7f && !u[1];
	size_t len = u[0] >= 0xf0 ? 4 : u[0] >= 0xe0 ? 3 : u[0] >= 0xc0 ? 2 : 0;
	if (!len || strlen(s) != len || len >= THEME_GLYPH_MAX)
		return false;
	/* One column: a wide (CJK) or combining character would shift every
	 * bar drawn with it.  Only a UTF-8 locale can tell, and only a UTF-8
	 * locale draws these glyphs (the wizard decides once, before loading
	 * the theme); elsewhere the ascii set is used. */
	wchar_t wc;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t n = mbrtowc(&wc, s, len, &st);
	if (n == len)
		return wcwidth(wc) == 1;
	return true;
}

/* A glyph of up to cols columns: as many printable ASCII bytes, or for
 * utf8 one one-column code point as one_glyph() takes. */
static bool glyph_fits(const char *s, bool ascii, int cols)
{
	size_t len = strlen(s);
	bool plain = len >= 1 && len <= (size_t)cols;
	for (size_t i = 0; plain && i < len; i++)
		plain = s[i] >= 0x20 && s[i] < 0x7f;
	return plain || one_glyph(s, ascii);
}

static bool parse_glyph_set(struct tparse *p, const struct ynode *n, bool ascii,
			    char table[GLYPH_COUNT][THEME_GLYPH_MAX])
{
	const char *set = ascii ? "ascii" : "utf8";
	if (n->kind != YN_MAP)
		return fail(p, n, "glyphs.%s must be a mapping", set);
	for (size_t i = 0; i < n->n; i++) {
		const char *k = n->keys[i]->scalar;
		int g = lookup(glyph_names, GLYPH_COUNT, k);
		if (g < 0)
			return fail(p, n->keys[i], "unknown glyph '%s'", k);
		const struct ynode *v = n->items[i];
		if (!want_scalar(p, v, k))
			return false;
		if (glyph_cols[g] > 1 && !glyph_fits(v->scalar, ascii, glyph_cols[g]))
			return fail(p, v, "glyphs.%s.%s must be up to %d printable ASCII characters%s", set, k,
				    glyph_cols[g], ascii ? "" : " or one printable character one column wide");
		if (glyph_cols[g] == 1 && !one_glyph(v->scalar, ascii))
			return fail(p, v, "glyphs.%s.%s must be one %s character", set, k,
				    ascii ? "printable ASCII" : "printable, one column wide,");
		snprintf(table[g], THEME_GLYPH_MAX, "%s", v->scalar);
	}
	return true;
}

static bool parse_theme(struct tparse *p, const struct ynode *root, struct theme *th)
{
	bool seen[ROLE_COUNT] = { false };
	const struct ynode *roles = NULL;

	if (!root)
		return fail(p, NULL, "empty theme file");
	if (root->kind != YN_MAP)
		return fail(p, root, "a theme must be a mapping with name, roles and glyphs");
	for (size_t i = 0; i < root->n; i++) {
		const char *k = root->keys[i]->scalar;
		const struct ynode *v = root->items[i];
		if (!strcmp(k, "name")) {
			if (!want_scalar(p, v, "name"))
				return false;
			snprintf(th->name, sizeof th->name, "%s", v->scalar);
		} else if (!strcmp(k, "description")) {
			if (!want_scalar(p, v, "description"))
				return false;
		} else if (!strcmp(k, "roles")) {
			roles = v;
			if (v->kind != YN_MAP)
				return fail(p, v, "roles must be a mapping of role: {fg, bg, attrs}");
			for (size_t j = 0; j < v->n; j++) {
				const char *rk = v->keys[j]->scalar;
				int r = lookup(role_names, ROLE_COUNT, rk);
				if (r < 0)
					return fail(p, v->keys[j], "unknown role '%s'", rk);
				if (seen[r])
					return fail(p, v->keys[j], "role '%s' given twice", rk);
				seen[r] = true;
				if (!parse_style(p, rk, v->items[j], &th->role[r]))
					return false;
			}
		} else if (!strcmp(k, "glyphs")) {
			if (v->kind != YN_MAP)
				return fail(p, v, "glyphs must be a mapping with utf8 and ascii");
			for (size_t j = 0; j < v->n; j++) {
				const char *gk = v->keys[j]->scalar;
				bool ascii;
				if (!strcmp(gk, "utf8"))
					ascii = false;
				else if (!strcmp(gk, "ascii"))
					ascii = true;
				else
					return fail(p, v->keys[j], "unknown glyph set '%s' (utf8, ascii)", gk);
				if (!parse_glyph_set(p, v->items[j], ascii, ascii ? th->ascii : th->utf8))
					return false;
			}
		} else {
			return fail(p, root->keys[i], "unknown key '%s' (name, description, roles, glyphs)", k);
		}
	}
	if (!roles)
		return fail(p, root, "missing 'roles'");
	for (int r = 0; r < ROLE_COUNT; r++)
		if (!seen[r])
			return fail(p, roles, "role '%s' missing (%s)", role_names[r], "every role is required");
	th->uses_colour = false;
	for (int r = 0; r < ROLE_COUNT; r++)
		if (th->role[r].fg != THEME_DEFAULT_COLOUR || th->role[r].bg != THEME_DEFAULT_COLOUR)
			th->uses_colour = true;
	return true;
}

bool theme_load_file(struct theme *th, const char *path, char *err, size_t errsz)
{
	struct theme tmp;
	memset(&tmp, 0, sizeof tmp);
	glyph_defaults(&tmp);
	struct ytree *t = ytree_parse_file(path, err, errsz);
	if (!t)
		return false;
	struct tparse p = { .path = path, .err = err, .errsz = errsz };
	bool ok = parse_theme(&p, t->root, &tmp);
	ytree_free(t);
	if (ok) {
		if (!tmp.name[0]) {
			/* unnamed: call it after its file */
			const char *b = strrchr(path, '/');
			snprintf(tmp.name, sizeof tmp.name, "%s", b ? b + 1 : path);
		}
		*th = tmp;
	}
	return ok;
}

/* ---- finding ---- */

static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The running binary sits in the build tree: an uninstalled build, which
 * reads the source tree's data (the same test catalog_find_dir makes). */
static bool running_uninstalled(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	char build[PATH_MAX];
	if (!realpath(ABS_TOP_BUILDDIR, build))
		return false;
	return !strcmp(exe, build);
}

static bool try_dir(const char *dir, const char *name, char *path, size_t pathsz)
{
	if (!dir || !*dir || !is_dir(dir))
		return false;
	int n = snprintf(path, pathsz, "%s/%s.yaml", dir, name);
	return n > 0 && (size_t)n < pathsz && is_file(path);
}

bool theme_find(const char *name, const char *catalog_dir, char *path, size_t pathsz)
{
	char dir[PATH_MAX];
	size_t len = strlen(name);

	if (!*name)
		return false;
	if (strchr(name, '/') || (len > 5 && !strcmp(name + len - 5, ".yaml"))) {
		int n = snprintf(path, pathsz, "%s", name);
		return n > 0 && (size_t)n < pathsz && is_file(path);
	}
	/* a name is a file name, never a path */
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	if (xdg && xdg[0] == '/') {	/* XDG: ignore a relative value */
		snprintf(dir, sizeof dir, "%s/accelsizer/themes", xdg);
		if (try_dir(dir, name, path, pathsz))
			return true;
	} else if (home && *home) {
		snprintf(dir, sizeof dir, "%s/.config/accelsizer/themes", home);
		if (try_dir(dir, name, path, pathsz))
			return true;
	}
	if (catalog_dir && *catalog_dir) {
		/* themes/ is a sibling of catalog/ in the source tree and in
		 * PKGDATADIR alike */
		snprintf(dir, sizeof dir, "%s", catalog_dir);
		size_t l = strlen(dir);
		while (l > 1 && dir[l - 1] == '/')
			dir[--l] = '\0';
		char *slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			size_t used = strlen(dir);
			if (used + sizeof "/themes" <= sizeof dir) {
				memcpy(dir + used, "/themes", sizeof "/themes");
				if (try_dir(dir, name, path, pathsz))
					return true;
			}
		}
	}
	if (running_uninstalled() && try_dir(ABS_TOP_SRCDIR "/themes", name, path, pathsz))
		return true;
	return try_dir(PKGDATADIR "/themes", name, path, pathsz);
}
