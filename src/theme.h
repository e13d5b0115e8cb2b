/*
 * theme: the wizard's colours and glyphs, read from themes/NAME.yaml.
 *
 * Code never asks for a colour, only for a UI role (frame, bar_over,
 * selection...); a theme fills one style per role plus the glyphs that make
 * every state readable without colour (fits / tight / over / binding).  This
 * module only parses and finds theme files; it does not include curses, so
 * the wizard maps a struct theme onto colour pairs itself (tui_draw.c).
 *
 * Ownership: struct theme is a plain caller-owned value, nothing to free.
 */
#ifndef ACCELSIZER_THEME_H
#define ACCELSIZER_THEME_H

#include <stdbool.h>
#include <stddef.h>

/* X(role, what it paints) */
#define THEME_ROLES(X) \
	X(frame,        "separators and the frame around the screen") \
	X(title,        "the title line and key names in the key bar") \
	X(step_current, "the current step in the step bar") \
	X(step_other,   "the other steps in the step bar") \
	X(step_missing, "a step that still lacks input") \
	X(field,        "field labels") \
	X(field_focus,  "the field or row under the cursor") \
	X(value,        "values and figures") \
	X(unit,         "units next to values") \
	X(muted,        "greyed-out rows, hints, filtered accelerators") \
	X(error,        "refused input and errors on the status line") \
	X(status,       "the status line and key bar labels") \
	X(bar_fits,     "a bar that fits") \
	X(bar_tight,    "a bar that is tight (above defaults.tight_fraction)") \
	X(bar_over,     "a bar that does not fit") \
	X(binding,      "the binding-constraint marker") \
	X(selection,    "the chosen accelerator") \
	X(header,       "table headers and section titles")

enum theme_role {
#define X(role, doc) ROLE_##role,
	THEME_ROLES(X)
#undef X
	ROLE_COUNT
};

/* X(glyph, utf-8 default, ascii default, columns, meaning).  columns is
 * the most display columns the glyph may take: 1 for the bars, marks and
 * lines that other cells align to; 2 for the signs written inside text
 * (ASCII has no one-column "at least"). */
#define THEME_GLYPHS(X) \
	X(bar_full,  "\u2588", "#", 1, "a filled bar cell") \
	X(bar_empty, "\u00b7", ".", 1, "an empty bar cell") \
	X(fits,      "\u2713", "+", 1, "the resource fits") \
	X(tight,     "!",      "~", 1, "the resource is tight") \
	X(over,      "\u2717", "x", 1, "the resource does not fit") \
	X(binding,   "\u25c6", "*", 1, "the binding constraint") \
	X(best,      "\u2605", "^", 1, "the best value in a comparison") \
	X(differs,   "\u2260", "*", 1, "a row whose values differ (the pinned scenario beside the current)") \
	X(marked,    "\u25cf", "@", 1, "an accelerator marked for comparison") \
	X(unpriced,  "*",      "*", 1, "a money figure that leaves out BOM lines no price covers") \
	X(missing,   "?",      "?", 1, "a step that still lacks input") \
	X(chosen,    "\u25b8", ">", 1, "the chosen accelerator in a list") \
	X(scroll_up, "\u2191", "^", 1, "more rows above") \
	X(scroll_down, "\u2193", "v", 1, "more rows below") \
	X(choice_left, "\u2039", "<", 1, "before a choice that Left/Right cycles") \
	X(choice_right, "\u203a", ">", 1, "after a choice that Left/Right cycles") \
	X(step_sep,  "\u203a", ">", 1, "between the steps of the step bar") \
	X(vline,     "\u2502", "|", 1, "the line between the form and the side panel") \
	X(hline,     "\u2500", "-", 1, "horizontal rules: section lines, the folded panel's top") \
	X(chart_1,   "\u25cf", "o", 1, "the trade-off chart: the first accelerator's points") \
	X(chart_2,   "\u25b2", "+", 1, "the trade-off chart: the second accelerator's points") \
	X(chart_3,   "\u25a0", "%", 1, "the trade-off chart: the third accelerator's points") \
	X(chart_line, "\u2219", ".", 1, "the trade-off chart: between two points of a curve") \
	X(chart_op,  "\u25c9", "O", 1, "the trade-off chart: the operating point the sizing chose") \
	X(chart_target, "\u2506", ":", 1, "the trade-off chart: the per-user speed target") \
	X(at_least,  "\u2265", ">=", 2, "a validation threshold a measurement must reach (step 5)") \
	X(at_most,   "\u2264", "<=", 2, "a validation threshold a measurement must stay under (step 5)") \
	X(plus_minus, "\u00b1", "+/-", 3, "before an error band's half width, as in 12% (6 published)") \
	X(dot_sep,   "\u00b7", "-", 1, "between the headline figure and whose it is on one status line")

enum theme_glyph {
#define X(g, u, a, cols, doc) GLYPH_##g,
	THEME_GLYPHS(X)
#undef X
	GLYPH_COUNT
};

/* Attributes, mapped onto A_BOLD etc. by the wizard. */
enum {
	THEME_BOLD = 1u << 0,
	THEME_REVERSE = 1u << 1,
	THEME_UNDERLINE = 1u << 2,
	THEME_DIM = 1u << 3,
};

#define THEME_DEFAULT_COLOUR (-1)

struct theme_style {
	short fg, bg;		/* 0-255, or THEME_DEFAULT_COLOUR */
	unsigned attrs;		/* THEME_BOLD | ... */
};

#define THEME_GLYPH_MAX 8	/* bytes, at most three display columns */

struct theme {
	char name[64];
	struct theme_style role[ROLE_COUNT];
	char utf8[GLYPH_COUNT][THEME_GLYPH_MAX];
	char ascii[GLYPH_COUNT][THEME_GLYPH_MAX];
	bool uses_colour;	/* false when every fg/bg is default */
};

const char *theme_role_name(enum theme_role r);
const char *theme_glyph_name(enum theme_glyph g);
/* The most display columns glyph g may take (THEME_GLYPHS). */
int theme_glyph_columns(enum theme_glyph g);

/* "red", "bright-blue", "default", "0".."255".  */
bool theme_colour_parse(const char *s, short *out);

/* Fills th with attributes only (no colours) and the default glyphs: what
 * the wizard uses when no theme file can be found at all. */
void theme_builtin_mono(struct theme *th);

/*
 * Reads a theme file.  Every role is required; glyphs are optional and
 * default to the built-in pairs.  On error returns false with
 * "file:line:col: message" in err (the first problem found).
 */
bool theme_load_file(struct theme *th, const char *path, char *err, size_t errsz);

/*
 * Finds a theme by name or path.  A value containing '/' or ending in
 * ".yaml" is a file; otherwise NAME.yaml is looked for in, in order:
 * $XDG_CONFIG_HOME/accelsizer/themes (or ~/.config/accelsizer/themes), the
 * themes/ folder next to the catalog in use, the source tree's themes/ for
 * an uninstalled build, PKGDATADIR/themes.  Returns false if not found.
 */
bool theme_find(const char *name, const char *catalog_dir, char *path, size_t pathsz);

#endif
