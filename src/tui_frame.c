/*
 * tui_frame: what surrounds every step: the step bar on top, the separator
 * between the form and the side panel, the status line (messages and
 * prompts), the key bar generated from the action table, and the "terminal
 * too small" screen.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui.h"

const struct tui_action_def tui_action_defs[ACT_COUNT] = {
#define X(id, k1, k2, keys_, label_, prio, steps_, help_) \
	[ACT_##id] = { .key = (k1), .alt_key = (k2), .keys = (keys_), .label = (label_), \
		       .priority = (prio), .steps = (steps_), .help = (help_) },
	TUI_ACTIONS(X)
#undef X
};

enum tui_action tui_action_for_key(int ch)
{
	if (ch == 0 || ch == ERR)
		return ACT_NONE;
	if (ch == '\r')		/* Enter in raw terminals */
		ch = '\n';
	for (int a = 0; a < ACT_COUNT; a++)
		if (tui_action_defs[a].key == ch || tui_action_defs[a].alt_key == ch)
			return (enum tui_action)a;
	return ACT_NONE;
}

/* ---- step bar ---- */

void tui_draw_stepbar(struct tui *t, WINDOW *win, int w)
{
	const char *sep = tui_glyph(t, GLYPH_step_sep);
	int x = 0;

	tui_fill(t, win, 0, 0, w, ROLE_step_other);
	for (int s = 0; s < TUI_NSTEPS; s++) {
		const struct tui_step *st = tui_step_at(s);
		bool missing = st->missing && st->missing(t);
		enum theme_role r = s == t->step ? ROLE_step_current
				    : missing ? ROLE_step_missing : ROLE_step_other;
		char label[48];
		snprintf(label, sizeof label, " %d %s%s ", s + 1, st->name,
			 missing ? tui_glyph(t, GLYPH_missing) : "");
		t->step_x0[s] = x;
		x += tui_put(t, win, 0, x, w - x, r, label);
		t->step_x1[s] = x;
		if (s + 1 < TUI_NSTEPS)
			x += tui_put(t, win, 0, x, w - x, ROLE_step_other, sep);
	}
	/* the program's name and an unsaved-changes mark, right-aligned */
	char title[64];
	snprintf(title, sizeof title, "%saccelsizer ", t->dirty ? "[+] " : "");
	int tw = tui_width(title);
	if (w - x >= tw + 1)
		tui_put(t, win, 0, w - tw, tw, ROLE_title, title);
}

/* ---- separator between the form and the panel ---- */

void tui_draw_sep(struct tui *t, WINDOW *win, int h, int w)
{
	if (t->lay.wide) {
		const char *v = tui_glyph(t, GLYPH_vline);
		for (int y = 0; y < h; y++)
			tui_put(t, win, y, 0, 1, ROLE_frame, v);
	} else {
		tui_hline(t, win, 0, 0, w, ROLE_frame);
		int x = 2 + tui_put(t, win, 0, 2, w - 4, ROLE_header, " Fit per accelerator ");
		/* the legend, so the glyphs explain themselves */
		char legend[96];
		snprintf(legend, sizeof legend, " %sfits %stight %sover %sbinding ",
			 tui_glyph(t, GLYPH_fits), tui_glyph(t, GLYPH_tight), tui_glyph(t, GLYPH_over),
			 tui_glyph(t, GLYPH_binding));
		int lw = tui_width(legend);
		if (w - 2 - lw > x + 2)
			tui_put(t, win, 0, w - 2 - lw, lw, ROLE_muted, legend);
	}
}

/* ---- status line ---- */

void tui_status(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->status, sizeof t->status, fmt, ap);
	va_end(ap);
	t->status_error = error;
}

static const char *prompt_label(enum tui_prompt p)
{
	switch (p) {
	case PROMPT_QUIT: return "Unsaved changes. Quit without saving? s save, d discard, Esc cancel ";
	case PROMPT_UNSAVED_OPEN: return "Unsaved changes. Open another scenario? s save, d discard, Esc cancel ";
	case PROMPT_OVERWRITE: return "";
	case PROMPT_EXPORT: return "Export BOM to: ";
	case PROMPT_PROPOSAL: return "Write proposal to: ";
	case PROMPT_SAVE: return "Save scenario to: ";
	case PROMPT_OPEN: return "Open scenario: ";
	case PROMPT_RENAME: return "Rename workload: ";
	case PROMPT_MODEL_CONFIG: return "Model from config.json: ";
	default: return "";
	}
}

void tui_draw_status(struct tui *t, WINDOW *win, int w)
{
	t->cursor_y = -1;
	if (t->prompt != PROMPT_NONE) {
		char asked[PATH_MAX + 40];
		const char *label = prompt_label(t->prompt);
		if (t->prompt == PROMPT_OVERWRITE) {
			snprintf(asked, sizeof asked, "%s exists: overwrite? (y/n) ", t->overwrite_path);
			label = asked;
		}
		int x = tui_put(t, win, 0, 0, w, ROLE_title, label);
		if (t->prompt != PROMPT_QUIT && t->prompt != PROMPT_UNSAVED_OPEN &&
		    t->prompt != PROMPT_OVERWRITE) {
			int cx = tui_line_draw(t, win, 0, x, w - x, ROLE_value, &t->prompt_line);
			t->cursor_y = t->lay.lines - 2;
			t->cursor_x = x + cx;
		}
		return;
	}
	if (t->status[0]) {
		if (t->status_error) {
			int x = tui_put(t, win, 0, 0, w, ROLE_error, tui_glyph(t, GLYPH_over));
			tui_put(t, win, 0, x + 1, w - x - 1, ROLE_error, t->status);
		} else {
			tui_put(t, win, 0, 0, w, ROLE_status, t->status);
		}
		return;
	}
	/* nothing to say: the one-line answer for the chosen accelerator */
	const struct engine_result *r = tui_chosen(t);
	if (!r) {
		tui_put(t, win, 0, 0, w, ROLE_muted, "The catalog has no accelerators.");
		return;
	}
	/* the "?" the step bar puts on step 3 says no accelerator is chosen */
	char line[400], rb[ENGINE_REASON_MAX];
	const char *why = engine_result_reason(r, rb, sizeof rb);
	snprintf(line, sizeof line, "%s%s %s: %s",
		 t->sc.w.accel ? "" : "Silicon? = none chosen yet. ",
		 t->sc.w.accel ? "Chosen" : "Top ranked", tui_accel_name(r->accel),
		 why[0] ? why : r->filter_reason);
	tui_put(t, win, 0, 0, w, ROLE_muted, line);
}

/* ---- prompts ---- */

void tui_prompt_start(struct tui *t, enum tui_prompt p, const char *initial)
{
	t->prompt = p;
	tui_line_set(&t->prompt_line, initial ? initial : "");
	t->status[0] = '\0';
}

/* The open prompt, from the scenario's own path. */
static void start_open(struct tui *t)
{
	tui_prompt_start(t, PROMPT_OPEN, t->scenario_path[0] ? t->scenario_path : "./");
}

/* Unsaved changes before quitting or opening: s saves first (then does
 * it), d (or y, "quit without saving? y") discards, Esc / n / c cancels. */
static int unsaved_key(struct tui *t, int ch)
{
	bool quitting = t->prompt == PROMPT_QUIT;
	switch (ch) {
	case 's': case 'S':
		if (t->lay.too_small)
			return TUI_HANDLED;	/* no room for a path: y or n */
		t->then = quitting ? THEN_QUIT : THEN_OPEN;
		tui_prompt_start(t, PROMPT_SAVE, t->scenario_path[0] ? t->scenario_path
							 : "./accelsizer-scenario.yaml");
		return TUI_HANDLED;
	case 'd': case 'D': case 'y': case 'Y':
		t->then = THEN_NOTHING;
		if (quitting)
			return TUI_QUIT | TUI_HANDLED;
		start_open(t);
		return TUI_HANDLED;
	case 'n': case 'N': case 'c': case 'C': case 'q': case TUI_KEY_ESC: case '\n': case '\r':
		t->prompt = PROMPT_NONE;
		t->then = THEN_NOTHING;
		tui_status(t, false, quitting ? "Not quitting." : "Not opened; your changes are kept.");
		return TUI_HANDLED;
	default:
		return TUI_HANDLED;	/* every other key waits for an answer */
	}
}

/* After a save the unsaved-changes prompt asked for: go on with what
 * the user wanted, once nothing is unsaved any more. */
static int after_save(struct tui *t, int flags)
{
	enum tui_then then = t->then;
	if (t->prompt != PROMPT_NONE)
		return flags;		/* still asking (overwrite?) */
	t->then = THEN_NOTHING;
	if (t->dirty)
		return flags;		/* the save failed: stay, the status says why */
	if (then == THEN_QUIT)
		return flags | TUI_QUIT;
	if (then == THEN_OPEN)
		start_open(t);
	return flags;
}

int tui_prompt_key(struct tui *t, int ch)
{
	enum tui_prompt p = t->prompt;
	if (p == PROMPT_QUIT || p == PROMPT_UNSAVED_OPEN)
		return unsaved_key(t, ch);
	if (p == PROMPT_OVERWRITE) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s", t->overwrite_path);
		if (ch == 'y' || ch == 'Y') {
			t->prompt = PROMPT_NONE;
			if (t->overwrite_of == PROMPT_EXPORT)
				return tui_do_export(t, path, true);
			if (t->overwrite_of == PROMPT_PROPOSAL)
				return tui_do_proposal(t, path, true);
			return after_save(t, tui_do_save(t, path, true));
		}
		if (ch == 'n' || ch == 'N' || ch == TUI_KEY_ESC || ch == 'q' || ch == '\n' || ch == '\r') {
			t->prompt = PROMPT_NONE;
			t->then = THEN_NOTHING;
			tui_status(t, false, "Not written: %s is unchanged.", path);
		}
		return TUI_HANDLED;
	}
	switch (tui_line_key(&t->prompt_line, ch)) {
	case LINE_CANCEL:
		t->prompt = PROMPT_NONE;
		t->then = THEN_NOTHING;
		tui_status(t, false, "Cancelled.");
		return TUI_HANDLED;
	case LINE_COMMIT: {
		char path[TUI_LINE_MAX];
		snprintf(path, sizeof path, "%s", t->prompt_line.buf);
		t->prompt = PROMPT_NONE;
		if (p == PROMPT_RENAME)
			return tui_wl_rename(t, path);
		if (!path[0]) {
			t->then = THEN_NOTHING;
			tui_status(t, true, "No file name given.");
			return TUI_HANDLED;
		}
		if (p == PROMPT_EXPORT) {
			/* the next export starts from here */
			snprintf(t->export_path, sizeof t->export_path, "%s", path);
			return tui_do_export(t, path, false);
		}
		if (p == PROMPT_SAVE)
			return after_save(t, tui_do_save(t, path, false));
		if (p == PROMPT_MODEL_CONFIG)
			return tui_picker_from_config(t, path);
		if (p == PROMPT_PROPOSAL)
			return tui_do_proposal(t, path, false);
		return tui_do_open(t, path);
	}
	default:
		return TUI_HANDLED;
	}
}

/* ---- key bar ---- */

void tui_draw_keybar(struct tui *t, WINDOW *win, int w)
{
	unsigned step_bit = 1u << t->step;
	bool show[ACT_COUNT] = { false };
	int need = 0;

	for (int a = 0; a < ACT_COUNT; a++) {
		const struct tui_action_def *d = &tui_action_defs[a];
		if (d->label[0] && (d->steps & step_bit)) {
			show[a] = true;
			need += tui_width(d->keys) + 1 + tui_width(d->label) + 2;
		}
	}
	/* drop the least important entries until the bar fits */
	while (need > w) {
		int worst = -1;
		for (int a = 0; a < ACT_COUNT; a++)
			if (show[a] && (worst < 0 || tui_action_defs[a].priority >= tui_action_defs[worst].priority))
				worst = a;
		if (worst < 0)
			break;
		show[worst] = false;
		need -= tui_width(tui_action_defs[worst].keys) + 1 + tui_width(tui_action_defs[worst].label) + 2;
	}
	tui_fill(t, win, 0, 0, w, ROLE_status);
	int x = 0;
	t->n_keyhit = 0;
	for (int a = 0; a < ACT_COUNT && x < w; a++) {
		if (!show[a])
			continue;
		const struct tui_action_def *d = &tui_action_defs[a];
		int x0 = x;
		x += tui_put(t, win, 0, x, w - x, ROLE_title, d->keys);
		x += tui_put(t, win, 0, x, w - x, ROLE_status, " ");
		x += tui_put(t, win, 0, x, w - x, ROLE_status, d->label);
		t->keyhit[t->n_keyhit].x0 = x0;
		t->keyhit[t->n_keyhit].x1 = x;
		t->keyhit[t->n_keyhit].a = (enum tui_action)a;
		t->n_keyhit++;
		x += 2;
	}
}

/* ---- too small ---- */

void tui_draw_small(struct tui *t, WINDOW *win, int h, int w)
{
	char msg[96], size[64];
	snprintf(msg, sizeof msg, "terminal too small (need %dx%d)", TUI_MIN_COLS, TUI_MIN_LINES);
	snprintf(size, sizeof size, "now %dx%d; enlarge it, or %s to quit", w, h, tui_key(ACT_QUIT));
	/* A very small window gets the short forms rather than cut ones. */
	if (tui_width(msg) > w)
		snprintf(msg, sizeof msg, "need %dx%d", TUI_MIN_COLS, TUI_MIN_LINES);
	if (tui_width(size) > w)
		snprintf(size, sizeof size, "now %dx%d, %s quits", w, h, tui_key(ACT_QUIT));
	int y = h / 2 - 1;
	if (y < 0)
		y = 0;
	int mw = tui_width(msg);
	tui_put(t, win, y, mw < w ? (w - mw) / 2 : 0, w, ROLE_error, msg);
	int sw = tui_width(size);
	tui_put(t, win, y + 1, sw < w ? (w - sw) / 2 : 0, w, ROLE_muted, size);
	if (t->prompt == PROMPT_QUIT)
		tui_put(t, win, y + 2, 0, w, ROLE_title, "Quit without saving? (y/n)");
}
