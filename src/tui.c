/*
 * tui: `accelsizer` with no command: the five-step wizard.
 *
 * Start-up does everything that can fail with a message before the screen
 * opens (options, catalog, theme, scenario, terminal check), so errors are
 * plain "file:line:col: message" lines on stderr and exit 2.  Then one loop
 * owns the keyboard: a key becomes an action (tui_actions.h), the editor,
 * the prompt, the overlay, the step and finally the loop itself may handle
 * it, and a change to the workload re-runs the engine once into the report
 * allocated here.  Each pass redraws with werase + wnoutrefresh per window
 * and one doupdate(); the only clear is Ctrl-L.  Resizes arrive only as
 * KEY_RESIZE and go through one layout().  A fatal signal ends the program
 * through cleanup.c's one handler, which puts the terminal back first.
 */
#include "config.h"

#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accuracy.h"
#include "cleanup.h"
#include "frontend.h"
#include "tui.h"

static const struct tui_step *const steps[TUI_NSTEPS] = {
	&tui_step1, &tui_step2, &tui_step3, &tui_step4, &tui_step5,
};

const struct tui_step *tui_step_at(int step)
{
	return steps[step < 0 ? 0 : step >= TUI_NSTEPS ? TUI_NSTEPS - 1 : step];
}

/* ---- model ---- */

const struct engine_result *tui_chosen(const struct tui *t)
{
	if (!t->rep.n)
		return NULL;
	if (t->sc.w.accel) {
		const struct engine_result *r = engine_report_find(&t->rep, t->sc.w.accel);
		if (r)
			return r;
	}
	for (size_t i = 0; i < t->rep.n; i++)
		if (t->rep.results[i].fits && !t->rep.results[i].filtered)
			return &t->rep.results[i];
	return &t->rep.results[0];
}

bool tui_is_marked(const struct tui *t, const struct catalog_accel *a)
{
	for (int i = 0; i < t->silicon.n_marked; i++)
		if (t->silicon.marked[i] == a)
			return true;
	return false;
}

void tui_recompute(struct tui *t)
{
	/* --prices drives every cost, as it does in the CLI (a scenario
	 * opened since start-up brought no price list of its own). */
	t->sc.w.prices = t->have_prices ? &t->prices : NULL;
	engine_workload_derive(&t->sc.w);
	engine_run(t->cat, &t->sc.w, &t->rep);
	accuracy_bands_apply_report(t->bands, &t->rep);
	tui_wl_refresh(t);
	const struct engine_result *r = tui_chosen(t);
	memset(&t->plan, 0, sizeof t->plan);
	if (r)
		engine_validation_plan(t->cat, &t->sc.w, r, &t->plan);
	tui_wl_plan(t);
	tui_step5_refresh(t);
	t->ran = true;
}

void tui_goto_step(struct tui *t, int step)
{
	if (step < 0 || step >= TUI_NSTEPS)
		return;
	tui_close_overlay(t);
	if (step == t->step)
		return;
	const struct tui_step *old = steps[t->step];
	if (old->leave)
		old->leave(t);
	t->editing = false;
	t->step = step;
	if (steps[step]->enter)
		steps[step]->enter(t);
}

void tui_open_overlay(struct tui *t, const struct tui_step *v)
{
	t->editing = false;
	t->overlay = v;
	if (v->enter)
		v->enter(t);
}

void tui_close_overlay(struct tui *t)
{
	if (t->overlay && t->overlay->leave)
		t->overlay->leave(t);
	t->overlay = NULL;
}

/* ---- screen ---- */

static void free_windows(struct tui *t)
{
	WINDOW **all[] = { &t->wstep, &t->wform, &t->wsep, &t->wpanel, &t->wbody, &t->wstatus, &t->wkeys };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (*all[i]) {
			delwin(*all[i]);
			*all[i] = NULL;
		}
}

/* The one place that turns LINES x COLS into windows. */
static void layout(struct tui *t)
{
	struct tui_layout *l = &t->lay;
	free_windows(t);
	memset(l, 0, sizeof *l);
	l->lines = LINES;
	l->cols = COLS;
	l->too_small = LINES < TUI_MIN_LINES || COLS < TUI_MIN_COLS;
	if (l->too_small) {
		t->wbody = newwin(LINES > 0 ? LINES : 1, COLS > 0 ? COLS : 1, 0, 0);
		return;
	}
	l->body_y = 1;
	l->body_h = LINES - 3;
	l->wide = COLS >= TUI_WIDE_COLS;
	if (l->wide) {
		/* panel on the right: 38% of the width, 42..64 columns */
		l->panel_w = COLS * 38 / 100;
		if (l->panel_w < 42)
			l->panel_w = 42;
		if (l->panel_w > 64)
			l->panel_w = 64;
		l->form_y = l->sep_y = l->panel_y = l->body_y;
		l->form_h = l->sep_h = l->panel_h = l->body_h;
		l->form_w = COLS - l->panel_w - 1;
		l->sep_x = l->form_w;
		l->sep_w = 1;
		l->panel_x = l->form_w + 1;
	} else {
		/* folded below the form: one line per accelerator, about a
		 * third of the body, never over the form */
		int want = (int)t->rep.n;
		int cap = l->body_h * 3 / 10;
		if (cap < 3)
			cap = 3;
		l->panel_h = want < cap ? (want > 0 ? want : 1) : cap;
		l->form_y = l->body_y;
		l->form_h = l->body_h - l->panel_h - 1;
		l->form_w = COLS;
		l->sep_y = l->form_y + l->form_h;
		l->sep_h = 1;
		l->sep_w = COLS;
		l->panel_y = l->sep_y + 1;
		l->panel_w = COLS;
	}
	t->wstep = newwin(1, COLS, 0, 0);
	t->wbody = newwin(l->body_h, COLS, l->body_y, 0);
	t->wform = newwin(l->form_h, l->form_w, l->form_y, 0);
	t->wsep = newwin(l->sep_h, l->sep_w, l->sep_y, l->sep_x);
	t->wpanel = newwin(l->panel_h, l->panel_w, l->panel_y, l->panel_x);
	t->wstatus = newwin(1, COLS, LINES - 2, 0);
	t->wkeys = newwin(1, COLS, LINES - 1, 0);
}

static void paint(WINDOW *w)
{
	touchwin(w);	/* an overlay may have covered it: copy it all */
	wnoutrefresh(w);
}

static void draw(struct tui *t)
{
	struct tui_layout *l = &t->lay;
	t->cursor_y = -1;
	if (l->too_small || !t->wstep) {
		if (!t->wbody)
			return;
		werase(t->wbody);
		tui_draw_small(t, t->wbody, l->lines, l->cols);
		paint(t->wbody);
		curs_set(0);
		doupdate();
		return;
	}
	werase(t->wstep);
	tui_draw_stepbar(t, t->wstep, l->cols);
	paint(t->wstep);

	const struct tui_step *v = t->overlay ? t->overlay : steps[t->step];
	if (t->overlay && t->overlay->full_width) {
		werase(t->wbody);
		v->draw(t, t->wbody, l->body_h, l->cols);
		paint(t->wbody);
	} else {
		werase(t->wform);
		v->draw(t, t->wform, l->form_h, l->form_w);
		paint(t->wform);
		werase(t->wsep);
		tui_draw_sep(t, t->wsep, l->sep_h, l->sep_w);
		paint(t->wsep);
		werase(t->wpanel);
		tui_panel_draw(t, t->wpanel, l->panel_h, l->panel_w, !l->wide);
		paint(t->wpanel);
	}
	int cy = t->cursor_y, cx = t->cursor_x;	/* set by an open editor */
	werase(t->wstatus);
	tui_draw_status(t, t->wstatus, l->cols);
	paint(t->wstatus);
	if (t->cursor_y < 0) {
		t->cursor_y = cy;
		t->cursor_x = cx;
	}
	werase(t->wkeys);
	tui_draw_keybar(t, t->wkeys, l->cols);
	paint(t->wkeys);
	if (t->cursor_y >= 0) {
		curs_set(1);
		setsyx(t->cursor_y, t->cursor_x);
	} else {
		curs_set(0);
	}
	doupdate();
}

/* ---- keys ---- */

static int global_action(struct tui *t, enum tui_action a)
{
	switch (a) {
	case ACT_HELP:
		if (t->overlay == &tui_help_view)
			tui_close_overlay(t);
		else
			tui_open_overlay(t, &tui_help_view);
		return TUI_HANDLED;
	case ACT_QUIT:
		if (t->dirty) {
			tui_prompt_start(t, PROMPT_QUIT, NULL);
			return TUI_HANDLED;
		}
		return TUI_QUIT | TUI_HANDLED;
	case ACT_BACK:
		if (t->overlay) {
			tui_close_overlay(t);
			return TUI_HANDLED;
		}
		return TUI_HANDLED;	/* Esc with nothing open: nothing to do */
	case ACT_NEXT_STEP:
		if (t->step + 1 < TUI_NSTEPS)
			tui_goto_step(t, t->step + 1);
		else
			tui_status(t, false, "This is the last step: %s exports the BOM, %s saves the scenario.",
				   tui_key(ACT_EXPORT), tui_key(ACT_SAVE));
		return TUI_HANDLED;
	case ACT_PREV_STEP:
		if (t->step > 0)
			tui_goto_step(t, t->step - 1);
		return TUI_HANDLED;
	case ACT_STEP1: case ACT_STEP2: case ACT_STEP3: case ACT_STEP4: case ACT_STEP5:
		tui_goto_step(t, (int)(a - ACT_STEP1));
		return TUI_HANDLED;
	case ACT_PANEL_UP:
	case ACT_PANEL_DOWN:
		tui_list_scroll(&t->panel.list, a == ACT_PANEL_UP ? LIST_UP : LIST_DOWN, (int)t->rep.n, 0);
		return TUI_HANDLED;
	case ACT_OBJECTIVE:
		t->sc.w.objective = (enum objective)((t->sc.w.objective + 1) % OBJ_COUNT);
		tui_status(t, false, "Ranking by %s.", objective_name(t->sc.w.objective));
		return TUI_HANDLED | TUI_CHANGED;
	case ACT_FIRST:
		return tui_take_first(t);
	case ACT_PIN:
		if (!t->history.pinned)
			return tui_pin(t);
		tui_open_overlay(t, &tui_pin_view);
		return TUI_HANDLED;
	case ACT_UNDO:
		return tui_undo(t);
	case ACT_EXPORT:
		tui_prompt_start(t, PROMPT_EXPORT, t->export_path[0] ? t->export_path
						    : "./accelsizer-bom.csv");
		return TUI_HANDLED;
	case ACT_PROPOSAL:
		return tui_proposal_prompt(t);
	case ACT_SAVE:
		tui_prompt_start(t, PROMPT_SAVE, t->scenario_path[0] ? t->scenario_path
						  : "./accelsizer-scenario.yaml");
		return TUI_HANDLED;
	case ACT_OPEN:
		if (t->dirty) {
			tui_prompt_start(t, PROMPT_UNSAVED_OPEN, NULL);
			return TUI_HANDLED;
		}
		tui_prompt_start(t, PROMPT_OPEN, t->scenario_path[0] ? t->scenario_path : "./");
		return TUI_HANDLED;
	default:
		return tui_wl_action(t, a);
	}
}

static int dispatch(struct tui *t, enum tui_action a, int ch)
{
	int r;
	if (t->editing)
		return steps[t->step]->key(t, ACT_NONE, ch);
	if (t->overlay) {
		r = t->overlay->key(t, a, ch);
		if (r)
			return r;
	} else {
		r = steps[t->step]->key ? steps[t->step]->key(t, a, ch) : 0;
		if (r)
			return r;
	}
	return a == ACT_NONE ? TUI_UNHANDLED : global_action(t, a);
}

static int handle_mouse(struct tui *t, const MEVENT *ev)
{
	struct tui_layout *l = &t->lay;
	if (l->too_small || t->prompt != PROMPT_NONE || t->editing)
		return TUI_HANDLED;
	if (ev->bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		int dir = ev->bstate & BUTTON4_PRESSED ? -1 : 1;
		bool in_panel = !(t->overlay && t->overlay->full_width) &&
			ev->y >= l->panel_y && ev->y < l->panel_y + l->panel_h &&
			ev->x >= l->panel_x && ev->x < l->panel_x + l->panel_w;
		if (in_panel)
			return global_action(t, dir < 0 ? ACT_PANEL_UP : ACT_PANEL_DOWN);
		return dispatch(t, dir < 0 ? ACT_UP : ACT_DOWN, dir < 0 ? KEY_UP : KEY_DOWN);
	}
	if (!(ev->bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return TUI_HANDLED;
	if (ev->y == 0) {
		for (int s = 0; s < TUI_NSTEPS; s++)
			if (ev->x >= t->step_x0[s] && ev->x < t->step_x1[s]) {
				tui_goto_step(t, s);
				break;
			}
		return TUI_HANDLED;
	}
	if (ev->y == l->lines - 1) {
		for (int i = 0; i < t->n_keyhit; i++)
			if (ev->x >= t->keyhit[i].x0 && ev->x < t->keyhit[i].x1) {
				enum tui_action a = t->keyhit[i].a;
				return dispatch(t, a, tui_action_defs[a].key);
			}
	}
	return TUI_HANDLED;
}

static int handle_key_now(struct tui *t, int ch)
{
	if (ch == KEY_RESIZE) {
		layout(t);
		return TUI_HANDLED;
	}
	if (ch == TUI_CTRL('l')) {
		clearok(curscr, TRUE);	/* the one full repaint */
		return TUI_HANDLED;
	}
	if (t->lay.too_small) {
		/* only quitting makes sense until the terminal grows */
		if (t->prompt == PROMPT_QUIT)
			return tui_prompt_key(t, ch);
		if (ch == 'q')
			return global_action(t, ACT_QUIT);
		return TUI_HANDLED;
	}
	if (ch == KEY_MOUSE) {
		MEVENT ev;
		if (getmouse(&ev) != OK)
			return TUI_HANDLED;
		return handle_mouse(t, &ev);
	}
	if (t->prompt != PROMPT_NONE)
		return tui_prompt_key(t, ch);
	if (!t->editing)
		t->status[0] = '\0';	/* a message lives until the next key */
	return dispatch(t, tui_action_for_key(ch), ch);
}

/* A key, with the workload before it kept for undo when the key changed
 * it (an undo itself is not kept). */
static int handle_key(struct tui *t, int ch)
{
	struct tui_snapshot before;
	tui_snapshot_take(t, &before);
	int flags = handle_key_now(t, ch);
	if ((flags & TUI_CHANGED) && !(flags & TUI_UNDONE))
		tui_undo_push(t, &before);
	return flags;
}

/* Applies a handler's flags; returns true to leave the loop. */
static bool after_key(struct tui *t, int flags)
{
	if (flags & TUI_CHANGED) {
		t->dirty = true;
		tui_recompute(t);
	}
	return (flags & TUI_QUIT) != 0;
}

/* ---- hidden test mode: random keys through the real handler ---- */

static unsigned long long rng_next(unsigned long long *s)
{
	/* xorshift64*: reproducible from the seed, no global state */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* wgetch() returns ERR after this long without a key (the loop goes on). */
#define INPUT_TIMEOUT_MS 250

/* resizeterm() grows every window that touches the right or bottom edge:
 * squeezed to 1 column, the 1x1 input window touches both, and back at
 * 80x24 it had become the whole first line, which the next wgetch()
 * repainted blank over the step bar (issue 13 item 11).  It goes back to
 * 1x1 after every resize, untouched so that wgetch() paints nothing. */
static void keep_input_window(WINDOW *in)
{
	wresize(in, 1, 1);
	mvwin(in, 0, 0);
	untouchwin(in);
}

/* Called after ESC while a prompt or an editor is open: is ESC the start of
 * Alt+key (the terminal sends ESC then the key, at once), or of an escape
 * sequence ncurses does not know?  Then the rest of it is read here and the
 * whole is one key, which a prompt ignores: Alt+b must neither cancel the
 * typed path nor then run b (issue 13 item 12).  A second ESC is left for
 * the next read (Esc Esc is two Escs). */
static bool escape_prefix(WINDOW *in)
{
	wtimeout(in, 0);
	int c = wgetch(in);
	bool prefix = c != ERR && c != TUI_KEY_ESC;
	if (c == TUI_KEY_ESC)
		ungetch(c);
	if (c == '[' || c == 'O') {
		/* CSI / SS3: parameter bytes up to the final byte (ECMA-48 5.4) */
		for (int n = 0; n < 32; n++) {
			int d = wgetch(in);
			if (d == ERR || (d >= 0x40 && d <= 0x7e))
				break;
		}
	}
	wtimeout(in, INPUT_TIMEOUT_MS);
	return prefix;
}

static void run_test_keys(struct tui *t, long n, unsigned long long seed)
{
	static const int pool[] = {
		KEY_UP, KEY_DOWN, KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT, '\t', KEY_BTAB,
		'\n', '\n', TUI_KEY_ESC, KEY_NPAGE, KEY_PPAGE, '+', '-', '+', '-', '?', KEY_F(1),
		'1', '2', '3', '4', '5', 'n', 'p', 'b', ' ', 'c', 'e', 's', 'o', '[', ']',
		TUI_CTRL('l'), KEY_BACKSPACE, KEY_DC, KEY_HOME, KEY_END, 'a', 'x', '0', '7',
		'k', 'M', '.', ',', 'y', 'q', 'm', 'l', 'a', 'i', 'h', KEY_RESIZE, KEY_MOUSE,
		TUI_CTRL('u'), 'N', 'o', 'n', 'e', 'u', 'u',
	};
	const int npool = (int)(sizeof pool / sizeof pool[0]);
	int lines0 = LINES, cols0 = COLS;
	unsigned long long s = seed ? seed : 0x9e3779b97f4a7c15ULL;

	for (long i = 0; i < n; i++) {
		int ch = pool[rng_next(&s) % (unsigned long long)npool];
		int flags;
		if (ch == KEY_RESIZE) {
			/* any size, too small ones included */
			int ln = 10 + (int)(rng_next(&s) % 60), co = 30 + (int)(rng_next(&s) % 190);
			if (rng_next(&s) % 3 == 0) {
				ln = lines0;
				co = cols0;
			}
			resizeterm(ln, co);
			flags = handle_key(t, KEY_RESIZE);
		} else if (ch == KEY_MOUSE) {
			MEVENT ev = { 0 };
			ev.x = (int)(rng_next(&s) % (unsigned long long)(COLS > 0 ? COLS : 1));
			ev.y = (int)(rng_next(&s) % 2) ? 0 : LINES - 1;
			static const mmask_t buttons[] = { BUTTON1_CLICKED, BUTTON4_PRESSED, BUTTON5_PRESSED };
			ev.bstate = buttons[rng_next(&s) % 3];
			flags = t->lay.too_small ? TUI_HANDLED : handle_mouse(t, &ev);
		} else {
			flags = handle_key(t, ch);
		}
		if (flags & TUI_QUIT) {
			/* keep going: the point is to reach every screen */
			flags &= ~TUI_QUIT;
			t->prompt = PROMPT_NONE;
		}
		after_key(t, flags);
		draw(t);
	}
	resizeterm(lines0, cols0);
	handle_key(t, KEY_RESIZE);
	draw(t);
}

/* ---- start-up ---- */

static void usage(FILE *f)
{
	fputs("Usage: accelsizer [--catalog DIR] [--scenario FILE] [--prices FILE] [--theme NAME|FILE] [--ascii]\n"
	      "Open the sizing wizard: workload, binding constraint, silicon, node, validate.\n"
	      "\n"
	      "  --catalog DIR      read the catalog from DIR\n"
	      "  --scenario FILE    start from a saved scenario\n"
	      "  --prices FILE      price list (CSV) for the BOM preview and export, as\n"
	      "                     'accelsizer bom --prices'\n"
	      "  --theme NAME|FILE  colour theme: dark (default), light, high-contrast, mono,\n"
	      "                     or a theme file; $ACCELSIZER_THEME also chooses one;\n"
	      "                     NO_COLOR or a terminal without colours means mono\n"
	      "  --ascii            draw with ASCII only (also when the locale is not UTF-8)\n"
	      "  -h, --help         display this help and exit\n"
	      "\n"
	      "In the wizard ? or F1 lists every key.  For scripts use 'accelsizer recommend'.\n", f);
}

struct options {
	const char *catalog, *scenario, *theme, *prices;
	bool ascii;
};

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "catalog", required_argument, NULL, 'C' },
		{ "scenario", required_argument, NULL, 'S' },
		{ "theme", required_argument, NULL, 'T' },
		{ "prices", required_argument, NULL, 'P' },
		{ "ascii", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	memset(o, 0, sizeof *o);
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'C': o->catalog = optarg; break;
		case 'S': o->scenario = optarg; break;
		case 'T': o->theme = optarg; break;
		case 'P': o->prices = optarg; break;
		case 'A': o->ascii = true; break;
		case 'h': usage(stdout); return EXIT_OK + 100;
		case ':':
			fprintf(stderr, "accelsizer: option '%s' needs a value\n", argv[optind - 1]);
			return EXIT_BADINPUT;
		default:
			fprintf(stderr, "accelsizer: unknown option '%s'\n"
				"Try 'accelsizer --help' for more information.\n", argv[optind - 1]);
			return EXIT_BADINPUT;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "accelsizer: unexpected argument '%s'\n"
			"Try 'accelsizer --help' for more information.\n", argv[optind]);
		return EXIT_BADINPUT;
	}
	if (o->theme && !*o->theme) {
		fprintf(stderr, "accelsizer: --theme needs a name or a file\n");
		return EXIT_BADINPUT;
	}
	return -1;
}

/* Theme: --theme, then $ACCELSIZER_THEME, then NO_COLOR -> mono, then dark.
 * A theme the user named must exist and parse; the default may be absent
 * (an installed binary without its data) and falls back to built-in mono. */
static bool choose_theme(struct tui *t, const struct options *o)
{
	const char *name = o->theme;
	const char *what = "--theme";
	if (!name) {
		const char *env = getenv("ACCELSIZER_THEME");
		if (env && *env) {
			name = env;
			what = "$ACCELSIZER_THEME";
		}
	}
	bool named = name != NULL;
	if (!named) {
		const char *nc = getenv("NO_COLOR");
		name = nc && *nc ? "mono" : "dark";
	}
	char path[PATH_MAX], err[512];
	if (!theme_find(name, t->catalog_dir, path, sizeof path)) {
		if (named) {
			fprintf(stderr, "accelsizer: %s: no theme '%s' (themes: dark, light, high-contrast, "
				"mono, or a path to a .yaml file)\n", what, name);
			return false;
		}
		theme_builtin_mono(&t->theme);
		return true;
	}
	if (!theme_load_file(&t->theme, path, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return false;
	}
	return true;
}

/* The terminal cannot show colours: the mono theme (same glyphs). */
static void fall_back_to_mono(struct tui *t)
{
	char path[PATH_MAX], err[512];
	struct theme th;
	if (theme_find("mono", t->catalog_dir, path, sizeof path) &&
	    theme_load_file(&th, path, err, sizeof err))
		t->theme = th;
	else
		theme_builtin_mono(&t->theme);
}

bool tui_open_scenario(struct tui *t, const char *path, char *err, size_t errsz)
{
	struct scenario s;
	if (!scenario_load(path, t->cat, &s, err, errsz)) {
		scenario_fini(&s);
		return false;
	}
	scenario_move(&t->sc, &s);
	scenario_fini(&s);
	t->workload.current = 0;
	snprintf(t->scenario_path, sizeof t->scenario_path, "%s", path);
	t->dirty = false;
	t->silicon.n_marked = 0;
	tui_undo_clear(t);
	return true;
}

/* <term.h> cannot be included next to the wizard's code: it defines a
 * macro for every terminfo capability name (lines, columns, tab...).
 * These are its declarations of the three calls needed here. */
struct term;
extern int setupterm(const char *term, int fd, int *errret);
extern struct term *set_curterm(struct term *t);
extern int del_curterm(struct term *t);

/* Can ncurses drive this terminal?  With TERM unset or unknown, initscr
 * prints ncurses' own message and exits 1 (which here means "the workload
 * cannot be met"); on a terminal that cannot move the cursor (TERM=dumb)
 * the wizard would draw nothing at all.  Both are refused, before the
 * screen is touched, with a message that says what to do instead.
 * setupterm with an error pointer reports rather than exits, and unlike a
 * failed newterm it frees what it allocated. */
static bool terminal_usable(void)
{
	const char *term = getenv("TERM");
	int err = 0;
	if (!term || !*term) {
		fputs("accelsizer: TERM is not set, so the wizard cannot drive the terminal; set it "
		      "(e.g. TERM=xterm-256color) or use 'accelsizer recommend'\n", stderr);
		return false;
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		fprintf(stderr, "accelsizer: the wizard cannot use the terminal type '%s'; set TERM "
			"(e.g. TERM=xterm-256color) or use 'accelsizer recommend'\n", term);
		return false;
	}
	const char *cup = tigetstr("cup");
	bool ok = cup && cup != (char *)-1;
	del_curterm(set_curterm(NULL));	/* initscr sets it up again */
	if (!ok)
		fprintf(stderr, "accelsizer: the terminal '%s' cannot move the cursor, which the wizard "
			"needs; use a full terminal (e.g. TERM=xterm-256color) or 'accelsizer recommend'\n",
			term);
	return ok;
}

/* Appends terminfo capability cap to buf (absent ones skipped). */
static void add_cap(char *buf, size_t size, size_t *len, const char *cap)
{
	const char *s = tigetstr(cap);
	size_t n = s && s != (char *)-1 ? strlen(s) : 0;
	if (n && *len + n < size) {
		memcpy(buf + *len, s, n);
		*len += n;
	}
}

/* What endwin() would undo of screen_start(), as bytes a signal handler
 * can write (cleanup.h). */
static void arm_terminal_restore(void)
{
	char seq[256];
	size_t len = 0;
	add_cap(seq, sizeof seq, &len, "sgr0");		/* attributes, colours */
	/* mouse reporting: ncurses turns on xterm's 1000 (with 1006 for SGR
	 * coordinates) when the entry has kmous; both off is harmless */
	const char *kmous = tigetstr("kmous");
	static const char mouse_off[] = "\033[?1006l\033[?1000l";
	if (kmous && kmous != (char *)-1 && len + sizeof mouse_off - 1 < sizeof seq) {
		memcpy(seq + len, mouse_off, sizeof mouse_off - 1);
		len += sizeof mouse_off - 1;
	}
	add_cap(seq, sizeof seq, &len, "rmkx");		/* keypad transmit mode */
	add_cap(seq, sizeof seq, &len, "cnorm");	/* the cursor */
	add_cap(seq, sizeof seq, &len, "rmcup");	/* the alternate screen */
	cleanup_terminal_arm(seq, len);
}

static void screen_start(struct tui *t)
{
	/* A fatal signal puts the terminal back from here on (cleanup.h). */
	cleanup_terminal_save(STDOUT_FILENO);
	initscr();
	cbreak();
	noecho();
	set_escdelay(25);
	curs_set(0);
	refresh();	/* stdscr is never drawn on again: no blank repaint later */
	if (t->theme.uses_colour && !has_colors())
		fall_back_to_mono(t);
	tui_colours_init(t);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	arm_terminal_restore();
}

int tui_main(int argc, char **argv)
{
	struct options o;
	int rc = parse_options(argc, argv, &o);
	if (rc == EXIT_OK + 100)
		return EXIT_OK;
	if (rc >= 0)
		return rc;

	/* decide the character set once, for the whole run; numbers keep
	 * the C locale so "1.5" parses and prints the same everywhere */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");

	static struct tui tui;	/* large; one per process */
	struct tui *t = &tui;
	memset(t, 0, sizeof *t);
	t->utf8 = !o.ascii && !strcmp(nl_langinfo(CODESET), "UTF-8");

	if (!catalog_find_dir(o.catalog, t->catalog_dir, sizeof t->catalog_dir))
		t->catalog_dir[0] = '\0';
	t->cat = frontend_load_catalog(o.catalog);
	if (!t->cat)
		return EXIT_BADINPUT;
	if (t->cat->dir)
		snprintf(t->catalog_dir, sizeof t->catalog_dir, "%s", t->cat->dir);
	rc = EXIT_BADINPUT;
	/* the error bands: a broken ledger is refused before the screen opens */
	if (!(t->bands = frontend_load_bands(t->cat)))
		goto out_catalog;
	if (!choose_theme(t, &o))
		goto out_catalog;
	scenario_init(&t->sc, t->cat);
	if (o.scenario) {
		char err[512];
		if (!tui_open_scenario(t, o.scenario, err, sizeof err)) {
			fprintf(stderr, "%s\n", err);
			goto out_scenario;
		}
	}
	prices_init(&t->prices);
	if (o.prices) {
		char err[512];
		if (!prices_load(o.prices, &t->prices, err, sizeof err) ||
		    !engine_prices_valid(&t->prices, err, sizeof err)) {
			fprintf(stderr, "accelsizer: %s\n", err);
			goto out_scenario;
		}
		t->have_prices = true;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fputs("accelsizer: the wizard needs a terminal; use 'accelsizer recommend' for scripts\n", stderr);
		goto out_scenario;
	}
	if (!terminal_usable())
		goto out_scenario;
	if (!engine_report_init(&t->rep, t->cat)) {
		fputs("accelsizer: out of memory\n", stderr);
		goto out_scenario;
	}
	tui_step5_init(t);

	const char *test = getenv("ACCELSIZER_TEST_KEYS");
	long test_n = 0;
	unsigned long long test_seed = 0;
	if (test && *test) {
		char *end;
		test_n = strtol(test, &end, 10);
		if (*end == ':' || *end == ' ')
			test_seed = strtoull(end + 1, NULL, 10);
		t->test_mode = test_n > 0;
	}

	screen_start(t);
	/* input comes from a window that is never drawn, so reading a key
	 * never repaints anything (see keep_input_window) */
	WINDOW *in = newwin(1, 1, 0, 0);
	keypad(in, TRUE);
	wtimeout(in, INPUT_TIMEOUT_MS);
	tui_recompute(t);
	layout(t);
	draw(t);

	if (t->test_mode) {
		run_test_keys(t, test_n, test_seed);
	} else {
		for (;;) {
			int ch = wgetch(in);
			if (ch == ERR)
				continue;
			if (ch == KEY_RESIZE)
				keep_input_window(in);
			if (ch == TUI_KEY_ESC && (t->prompt != PROMPT_NONE || t->editing) &&
			    escape_prefix(in))
				continue;
			if (after_key(t, handle_key(t, ch)))
				break;
			draw(t);
		}
	}
	free_windows(t);
	delwin(in);
	cleanup_terminal_disarm();
	endwin();
	if (t->test_mode)
		fprintf(stderr, "accelsizer: test mode: %ld keys handled\n", test_n);
	rc = EXIT_OK;
	tui_step5_fini(t);
	tui_wl_fini(t);
	engine_report_fini(&t->rep);
out_scenario:
	prices_fini(&t->prices);
	scenario_fini(&t->sc);
out_catalog:
	accuracy_bands_free(t->bands);
	catalog_free(t->cat);
	return rc;
}

/* ---- for bench/ (make bench): the loop's work without a keyboard ----
 * The caller has filled t (catalog, theme, scenario, report, step 5) and
 * opened a screen (newterm); these run exactly what the loop runs, so the
 * measured cost of a key is the cost a user waits for. */

void tui_bench_start(struct tui *t)
{
	tui_recompute(t);
	layout(t);
	draw(t);
}

int tui_bench_key(struct tui *t, int ch)
{
	int flags = handle_key(t, ch);
	after_key(t, flags);
	draw(t);
	return flags;
}

void tui_bench_stop(struct tui *t)
{
	free_windows(t);
}
