/*
 * tui_help: the help screen, generated from the same action table as the
 * key map and the key bar, plus the glyph legend and typing tips.
 */
#include "config.h"

#include <stdio.h>

#include "tui.h"

static const char *const tips[] = {
	"Numbers accept 4096, 4k, 1.5M, 70B, 2T and 1,000; targets accept 'none'.",
	"Overrides (GPUs, spare nodes) accept 'auto'; concurrent users accept 'max'.",
	"A refused value keeps the old one; the status line says why.",
	"Every change re-runs the engine: the same figures as 'accelsizer recommend'.",
	"The mouse works on the step bar and the key bar; the wheel scrolls.",
};

/* An action with a line of its own (Home/End share one). */
static bool has_line(const struct tui_action_def *d)
{
	return d->help && *d->help;
}

/* lines: actions, a blank, the legend (4), a blank, the tips */
static int total_lines(void)
{
	int n = 0;
	for (int a = 0; a < ACT_COUNT; a++)
		n += has_line(&tui_action_defs[a]);
	return n + 1 + 5 + 1 + (int)(sizeof tips / sizeof tips[0]);
}

static void draw(struct tui *t, WINDOW *win, int h, int w)
{
	char l[160];
	tui_put(t, win, 0, 0, w, ROLE_header, "Keys");
	snprintf(l, sizeof l, "  Esc or ? closes, Up/Down scroll.  Theme: %s; %s.", t->theme.name,
		 t->utf8 ? "UTF-8" : "ASCII");
	tui_put(t, win, 0, 4, w - 4, ROLE_muted, l);
	int avail = h - 1;
	int n = total_lines();
	tui_list_clamp_top(&t->help.list, n, avail);
	const int top = t->help.list.top;
	int line = 0, y = 1;
#define EMIT(stmt) do { if (line >= top && y < h) { stmt; y++; } line++; } while (0)
	for (int a = 0; a < ACT_COUNT; a++) {
		const struct tui_action_def *d = &tui_action_defs[a];
		if (has_line(d))
			EMIT((tui_put(t, win, y, 2, 12, ROLE_title, d->keys),
			      tui_put(t, win, y, 16, w - 16, ROLE_field, d->help)));
	}
	EMIT((void)0);
	EMIT(tui_put(t, win, y, 0, w, ROLE_header, "Bars and marks"));
	snprintf(l, sizeof l, "fits: the resource has room (below the tight threshold, %.0f%%)",
		 t->cat->defaults.tight_fraction.value * 100);
	EMIT((tui_put(t, win, y, 2, 2, ROLE_bar_fits, tui_glyph(t, GLYPH_fits)),
	      tui_put(t, win, y, 5, w - 5, ROLE_field, l)));
	EMIT((tui_put(t, win, y, 2, 2, ROLE_bar_tight, tui_glyph(t, GLYPH_tight)),
	      tui_put(t, win, y, 5, w - 5, ROLE_field, "tight: above the threshold, little headroom")));
	EMIT((tui_put(t, win, y, 2, 2, ROLE_bar_over, tui_glyph(t, GLYPH_over)),
	      tui_put(t, win, y, 5, w - 5, ROLE_field, "over: needs more than the GPUs have")));
	EMIT((tui_put(t, win, y, 2, 2, ROLE_binding, tui_glyph(t, GLYPH_binding)),
	      tui_put(t, win, y, 5, w - 5, ROLE_field,
		      "binding: the resource that runs out first, the one you are buying")));
	EMIT((void)0);
	for (size_t i = 0; i < sizeof tips / sizeof tips[0]; i++)
		EMIT(tui_put(t, win, y, 2, w - 2, ROLE_muted, tips[i]));
#undef EMIT
}

static int key(struct tui *t, enum tui_action a, int ch)
{
	(void)ch;
	/* PgUp/PgDn (and p/n) page by ten lines */
	if (tui_list_scroll_key(&t->help.list, a, total_lines(), 10))
		return TUI_HANDLED;
	switch (a) {
	case ACT_BACK:
	case ACT_HELP:
		tui_close_overlay(t);
		return TUI_HANDLED;
	case ACT_QUIT:
		return TUI_UNHANDLED;
	default:
		return TUI_HANDLED;	/* help is modal: nothing else happens behind it */
	}
}

static void enter(struct tui *t)
{
	t->help.list.top = 0;
}

const struct tui_step tui_help_view = {
	.name = "Help",
	.draw = draw,
	.key = key,
	.enter = enter,
	.full_width = true,
};
