/*
 * tui: the wizard's shared state and the contract between its files.
 *
 * One loop (tui.c) owns the keyboard.  Each step is a const struct tui_step
 * of operations (draw, key, enter, leave); overlays (help, compare, the
 * model pick list) have the same shape.  A key is first turned into an
 * action from the one table in tui_actions.h; the editor, the overlay, the
 * step and finally the loop get a chance to handle it and return flags
 * (handled, workload changed, quit).  When the workload changed the loop
 * re-runs the engine once into a report allocated at start-up, so the
 * wizard shows exactly what `accelsizer recommend` would.
 *
 * Files: tui.c loop, layout and start-up; tui_frame.c step bar, status
 * line, prompts, key bar; tui_draw.c colours, glyphs, text, bars and number
 * formats; tui_form.c fields and the line editor; tui_list.c the list
 * helper of every table and scrolled view; tui_panel.c side panel;
 * tui_step1.c .. tui_step5.c; tui_picker.c model pick list;
 * tui_compare.c; tui_help.c.
 */
#ifndef ACCELSIZER_TUI_H
#define ACCELSIZER_TUI_H

#include <curses.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>

#include "cluster.h"
#include "compare.h"
#include "engine.h"
#include "prices.h"
#include "scenario.h"
#include "theme.h"
#include "tui_actions.h"

enum tui_action {
#define X(id, k1, k2, keys, label, prio, steps, help) ACT_##id,
	TUI_ACTIONS(X)
#undef X
	ACT_COUNT,
	ACT_NONE = -1
};

struct tui_action_def {
	int key, alt_key;
	const char *keys, *label;
	int priority;
	unsigned steps;
	const char *help;
};
extern const struct tui_action_def tui_action_defs[ACT_COUNT];
/* The action bound to a key, or ACT_NONE. */
enum tui_action tui_action_for_key(int ch);
/* How the help screen and the key bar name an action's keys ("A", "Esc"),
 * for a message that tells which key to press: the table stays the one
 * place a key is written (docs/design.md, "How to add"). */
static inline const char *tui_key(enum tui_action a)
{
	return tui_action_defs[a].keys;
}

/* What a handler did with a key. */
enum {
	TUI_UNHANDLED = 0,
	TUI_HANDLED = 1 << 0,
	TUI_CHANGED = 1 << 1,	/* the workload changed: re-run the engine */
	TUI_QUIT = 1 << 2,
	TUI_UNDONE = 1 << 3,	/* with TUI_CHANGED: an undo, not a change to undo */
};

#define TUI_NSTEPS 5
#define TUI_MIN_COLS 80
#define TUI_MIN_LINES 24
#define TUI_WIDE_COLS 110	/* from here the side panel sits on the right */
#define TUI_MAX_MARKED 3

struct tui;

/* A step screen or an overlay. */
struct tui_step {
	const char *name;	/* "Workload" */
	void (*draw)(struct tui *t, WINDOW *win, int h, int w);
	int (*key)(struct tui *t, enum tui_action a, int ch);
	void (*enter)(struct tui *t);
	void (*leave)(struct tui *t);
	bool (*missing)(const struct tui *t);	/* step bar marks it */
	bool full_width;	/* overlays: draw over the form and the panel */
};

extern const struct tui_step tui_step1, tui_step2, tui_step3, tui_step4, tui_step5;
extern const struct tui_step tui_help_view, tui_compare_view, tui_picker_view, tui_pin_view;
extern const struct tui_step tui_chart_view;	/* tui_chart.c: step 3's trade-off chart */

/* A one-line text editor: fields, the pick list search, path prompts. */
#define TUI_LINE_MAX 512
struct tui_line {
	char buf[TUI_LINE_MAX];
	int len, cur;		/* bytes */
	/* The whole text is selected (a field's edit starts so): the first
	 * printable key replaces it, a cursor key or Backspace edits it. */
	bool selected;
};
enum tui_line_result { LINE_EDITING, LINE_COMMIT, LINE_CANCEL, LINE_IGNORED };
void tui_line_set(struct tui_line *l, const char *s);
/* tui_line_set() with the text selected. */
void tui_line_set_selected(struct tui_line *l, const char *s);
enum tui_line_result tui_line_key(struct tui_line *l, int ch);
/* Draws the line in width w with the cursor kept visible; returns the
 * screen column of the cursor relative to x. */
int tui_line_draw(struct tui *t, WINDOW *win, int y, int x, int w, enum theme_role r,
		  const struct tui_line *l);

enum tui_prompt {
	PROMPT_NONE,
	PROMPT_QUIT,		/* unsaved changes before quitting: save / discard / cancel */
	PROMPT_EXPORT,		/* path */
	PROMPT_SAVE,		/* path */
	PROMPT_OPEN,		/* path */
	PROMPT_UNSAVED_OPEN,	/* unsaved changes before opening: save / discard / cancel */
	PROMPT_OVERWRITE,	/* the export, proposal or save path exists: y/n */
	PROMPT_MODEL_CONFIG,	/* path of a config.json (the model picker) */
	PROMPT_PROPOSAL,	/* path */
	PROMPT_RENAME,		/* the workload's new name */
};
/* What follows a save the unsaved-changes prompt asked for. */
enum tui_then { THEN_NOTHING, THEN_QUIT, THEN_OPEN };

struct tui_layout {
	bool too_small;
	bool wide;		/* panel on the right; else folded below */
	int lines, cols;
	int body_y, body_h;
	int form_y, form_x, form_h, form_w;
	int sep_y, sep_x, sep_h, sep_w;
	int panel_y, panel_x, panel_h, panel_w;
};

/* ---- lists: every table and scrolled view (tui_list.c) ---- */
/* A list's cursor (the row it rests on) and the first row shown.  A view
 * without a cursor (help, compare, the BOM preview, the side panel) uses
 * only top. */
struct tui_list {
	int focus;
	int top;
};
enum tui_list_move {
	LIST_NONE, LIST_UP, LIST_DOWN, LIST_PAGE_UP, LIST_PAGE_DOWN, LIST_HOME, LIST_END,
};
/* The rows a cursor moves over: n of them, and when ok is set only those
 * it accepts (a form's headings and read-only rows are passed over). */
struct tui_list_rows {
	int n;
	bool (*ok)(const void *ctx, int i);
	const void *ctx;
};

/* ---- each view's own state (as tig's views and htop's panels) ---- */
struct tui_workload_state {	/* step 1 */
	struct tui_list form;
	size_t current;			/* several workloads: the entry on screen */
};
struct tui_constraint_state {	/* step 2 */
	struct tui_list table;
};
struct tui_silicon_state {	/* step 3 */
	struct tui_list table;
	/* marked for compare (Space), in the order marked */
	const struct catalog_accel *marked[TUI_MAX_MARKED];
	int n_marked;
};
struct tui_node_state {		/* step 4 */
	struct tui_list form;
};
struct tui_validate_state {	/* step 5 */
	struct tui_bom *preview;	/* the BOM preview, rebuilt after every run
					 * (tui_step5_init/refresh/fini) */
	struct tui_list bom;		/* its lines */
	bool show_bom;			/* one part at a time: the BOM, else the plan */
};
struct tui_picker_state {	/* the model pick list */
	struct tui_list list;
	struct tui_line search;		/* the filter */
};
struct tui_help_state {
	struct tui_list list;
};
struct tui_compare_state {
	struct tui_list list;
};
struct tui_panel_state {
	struct tui_list list;
	bool follow;			/* scroll to the chosen one once */
};

/* A workload state, for the pin (a) and the undo stack (u): the workload
 * and its custom model, self-contained (w.model points at custom when
 * has_custom; the model's texts are copied in). */
struct tui_snapshot {
	struct workload w;
	struct catalog_model custom;	/* figures; id, name, family point below */
	bool has_custom;
	char custom_id[64], custom_name[128], custom_family[64];
	/* several workloads: the entry's hours of the week and share_gpus
	 * (step 1's rows), while the list has as many entries */
	size_t n_entries;
	double share;
	bool share_gpus;
};
#define TUI_UNDO_MAX 32
struct tui_history {
	struct tui_snapshot undo[TUI_UNDO_MAX];	/* a ring: the last n changes */
	int undo_next, n_undo;
	bool pinned;
	struct tui_snapshot pin;
	struct engine_result pin_result;	/* the pinned workload's chosen (or
						 * top-ranked) accelerator */
	bool pin_has_result;
};
struct tui_pin_state {		/* the pinned-vs-current view */
	struct tui_list list;
	struct compare settings;	/* the two workloads' settings (compare.h) */
};

struct accuracy_bands;

struct tui {
	/* model */
	struct catalog *cat;
	struct accuracy_bands *bands;	/* error bands of the results (accuracy.h);
					 * NULL: every figure unvalidated */
	char catalog_dir[PATH_MAX];
	struct scenario sc;		/* sc.w is the workload; sc.custom a custom model */
	/* several workloads (tui_workloads.c): sc.w is the entry on screen's
	 * (workload.current), cl their cluster on every accelerator while
	 * cl_sized */
	struct cluster cl;
	bool cl_sized;
	struct engine_plan cl_plan;	/* the chosen accelerator's cluster's plan */
	struct engine_report rep;
	struct engine_plan plan;
	bool ran;			/* rep holds a run of the current w */

	/* look */
	struct theme theme;
	bool utf8;			/* decided once at start-up */
	bool colour;			/* colour pairs in use */
	attr_t role_attr[ROLE_COUNT];	/* each role's curses attributes, pair
					 * included (tui_colours_init()) */

	/* navigation: the step table (tui.c) and each view's own state */
	int step;			/* index into the step table */
	const struct tui_step *overlay;	/* help, compare, pick list, or NULL */
	struct tui_workload_state workload;	/* step 1 */
	struct tui_constraint_state constraint;	/* step 2 */
	struct tui_silicon_state silicon;	/* step 3 */
	struct tui_node_state node;		/* step 4 */
	struct tui_validate_state validate;	/* step 5 */
	struct tui_picker_state picker;
	struct tui_help_state help;
	struct tui_compare_state compare;
	struct tui_panel_state panel;
	struct tui_pin_state pin_view;
	struct tui_history history;	/* the pin and the undo stack (tui.c) */
	bool chosen_first;		/* the choice was the first-ranked when made */

	/* editing: the line editor of the form in view (steps 1 and 4) */
	bool editing;			/* a field is being edited in place */
	int edit_field;			/* its field in the form */
	struct tui_line edit;

	/* status line and prompts */
	enum tui_prompt prompt;
	struct tui_line prompt_line;
	enum tui_then then;		/* after the save the unsaved prompt led to */
	enum tui_prompt overwrite_of;	/* PROMPT_OVERWRITE: export or save */
	char overwrite_path[PATH_MAX];
	char export_path[TUI_LINE_MAX];	/* the export prompt starts here */
	char status[320];
	bool status_error;

	/* scenario */
	bool dirty;			/* unsaved changes */
	char scenario_path[PATH_MAX];

	struct prices prices;		/* --prices: the same overrides as `bom --prices` */
	bool have_prices;

	bool test_mode;			/* ACCELSIZER_TEST_KEYS: no files written */

	/* screen */
	struct tui_layout lay;
	WINDOW *wstep, *wform, *wsep, *wpanel, *wbody, *wstatus, *wkeys;
	int cursor_y, cursor_x;		/* screen cursor, -1 = hidden */
	/* hit boxes from the last draw, for mouse clicks */
	int step_x0[TUI_NSTEPS], step_x1[TUI_NSTEPS];
	struct { int x0, x1; enum tui_action a; } keyhit[ACT_COUNT];
	int n_keyhit;
};

/* ---- tui.c ---- */
const struct tui_step *tui_step_at(int step);
void tui_goto_step(struct tui *t, int step);
void tui_open_overlay(struct tui *t, const struct tui_step *v);
void tui_close_overlay(struct tui *t);
/* Runs the engine on the current workload (called after every change). */
void tui_recompute(struct tui *t);
/* The accelerator steps 4 and 5 are about: the chosen one, else the
 * top-ranked one; NULL only for an empty catalog. */
const struct engine_result *tui_chosen(const struct tui *t);
bool tui_is_marked(const struct tui *t, const struct catalog_accel *a);
/* The current workload as a snapshot, and a snapshot made current again. */
void tui_snapshot_take(const struct tui *t, struct tui_snapshot *s);
void tui_snapshot_restore(struct tui *t, const struct tui_snapshot *s);
/* a: pins the current workload (and its chosen accelerator's figures). */
int tui_pin(struct tui *t);
/* u: back to the workload before the last change. */
int tui_undo(struct tui *t);
/* Keeps s (the state before a change) on the undo stack; the oldest goes
 * when it is full. */
void tui_undo_push(struct tui *t, const struct tui_snapshot *s);
/* Another scenario was opened: its changes start afresh (the pin stays). */
void tui_undo_clear(struct tui *t);
/* Opens a scenario file into the wizard; false with a message on failure. */
bool tui_open_scenario(struct tui *t, const char *path, char *err, size_t errsz);
/* For bench/ only: after the caller set t up and opened a screen, lay out
 * and draw; then one key as the loop handles it (handle, re-run the engine
 * if the workload changed, redraw), returning the handler's flags; then
 * free the windows. */
void tui_bench_start(struct tui *t);
int tui_bench_key(struct tui *t, int ch);
void tui_bench_stop(struct tui *t);

/* ---- tui_frame.c ---- */
void tui_draw_stepbar(struct tui *t, WINDOW *win, int w);
void tui_draw_status(struct tui *t, WINDOW *win, int w);
void tui_draw_keybar(struct tui *t, WINDOW *win, int w);
void tui_draw_small(struct tui *t, WINDOW *win, int h, int w);
void tui_draw_sep(struct tui *t, WINDOW *win, int h, int w);
void tui_status(struct tui *t, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tui_prompt_start(struct tui *t, enum tui_prompt p, const char *initial);
int tui_prompt_key(struct tui *t, int ch);

/* ---- tui_draw.c ---- */
void tui_colours_init(struct tui *t);
attr_t tui_role(const struct tui *t, enum theme_role r);
const char *tui_glyph(const struct tui *t, enum theme_glyph g);
/* Display columns of a UTF-8 string (one per code point; the wizard prints
 * no wide characters). */
int tui_width(const char *s);
/* Prints s at y,x in at most maxw columns with the role's look; in ASCII
 * mode non-ASCII characters are transliterated.  Returns columns used. */
int tui_put(struct tui *t, WINDOW *win, int y, int x, int maxw, enum theme_role r, const char *s);
/* Right-aligned in a field of w columns. */
int tui_put_right(struct tui *t, WINDOW *win, int y, int x, int w, enum theme_role r, const char *s);
/* Paints n columns from x with the role's background. */
void tui_fill(struct tui *t, WINDOW *win, int y, int x, int n, enum theme_role r);
void tui_hline(struct tui *t, WINDOW *win, int y, int x, int n, enum theme_role r);

enum tui_state { ST_FITS, ST_TIGHT, ST_OVER };
enum tui_state tui_state_of(const struct tui *t, double pct);
enum theme_role tui_state_role(enum tui_state s);
enum theme_glyph tui_state_glyph(enum tui_state s);
/* A bar of w cells for pct (0..100, more is clipped), coloured by state,
 * with eighth blocks in UTF-8 mode. */
void tui_bar(struct tui *t, WINDOW *win, int y, int x, int w, double pct);

/* Number formats shared by every screen, rounded as the CLI rounds
 * (see tui_draw.c). */
char *tui_fmt_num(char *buf, size_t n, double v, int decimals);	/* 1,234.5 */
char *tui_fmt_gb(char *buf, size_t n, double gb);
char *tui_fmt_pct(char *buf, size_t n, double pct);
char *tui_fmt_usd(char *buf, size_t n, double usd, const char *cur);
char *tui_fmt_usd_cents(char *buf, size_t n, double usd, const char *cur);	/* $878,472.00: the quote */
/* full if it fits in w columns, else v abbreviated: 13.2k, $998.1M. */
char *tui_fmt_fit(char *buf, size_t n, int w, const char *full, double v, const char *prefix);
/* The error band of r's figure k relative to v: "±12% (6 published)",
 * "+41%..+63% (4 published)" when the band does not straddle v, or
 * "unvalidated" (returns false) when no published result covers it. */
bool tui_fmt_band(const struct tui *t, const struct engine_result *r, enum engine_band_figure k,
		  double v, char *buf, size_t n);
/* r's headline figure with its band: "3,470 tok/s ±12% (6 published)"
 * (serving) or "12.3 days ±20% (40 published)" (training), drawn at
 * (y, x) with the band muted when unvalidated.  Returns the width used. */
int tui_put_headline(struct tui *t, WINDOW *win, int y, int x, int w, enum theme_role role,
		     const struct engine_result *r);
/* The row under the cursor at line y: over two lines "PREFIX NAME: REASON"
 * then "3,470 tok/s ±12% (6 published); REST OF THE REASON"; on one line
 * "3,470 tok/s ±12% (6 published) · NAME: REASON" (broken at a space). */
void tui_put_result_line(struct tui *t, WINDOW *win, int y, int w, int lines, const char *prefix,
			 const struct engine_result *r);
char *tui_fmt_rate(char *buf, size_t n, double per_s);	/* tokens/s */
char *tui_fmt_rate1(char *buf, size_t n, double per_s);	/* tokens/s per user */
char *tui_fmt_usd_hour(char *buf, size_t n, double usd, const char *cur);
/* A money figure fig of r by its price state (engine_price_state()): "no
 * GPU price" when the GPU has none, fig and the unpriced glyph when it
 * leaves lines out, else fig; written into buf. */
char *tui_fmt_priced(const struct tui *t, const struct engine_result *r, const char *fig, char *buf, size_t n);
char *tui_fmt_hours(char *buf, size_t n, double hours);
char *tui_fmt_kw(char *buf, size_t n, double kw);
char *tui_fmt_si(char *buf, size_t n, double v);	/* 2T, 300B, 4096 */
char *tui_fmt_ms(char *buf, size_t n, double ms);
char *tui_fmt_usd_mtok(char *buf, size_t n, double usd, const char *cur);
/* The accelerator's catalog name, and without the vendor for narrow
 * columns. */
const char *tui_accel_name(const struct catalog_accel *a);
const char *tui_accel_short(const struct catalog_accel *a);

/* ---- tui_form.c ---- */
enum tui_field_kind {
	TF_HEADING,		/* a section title, not focusable */
	TF_CHOICE,		/* an enum cycled with Left/Right/+/- */
	TF_NUMBER,		/* typed, validated, stepped with +/- */
	TF_MODEL,		/* opens the model pick list */
	TF_DRAFT,		/* speculative decoding's draft, cycled with Left/Right/+/- */
	TF_PLATFORM,		/* the chosen accelerator's platform, cycled likewise */
	TF_INFO,		/* read-only figure */
	TF_TEXT,		/* free text of the scenario (customer...) */
};
enum tui_field_store { FS_LONG, FS_INT, FS_DOUBLE, FS_ENUM, FS_BOOL };
/* FB_ENTRY: the scenario's workloads: entry on screen (workload.current),
 * for what an entry has beside its workload (its hours of the week). */
enum tui_field_base { FB_WORKLOAD, FB_MODEL, FB_SCENARIO, FB_ENTRY };
enum tui_field_special {
	SP_NONE,
	SP_ZERO_NONE,		/* 0 shows "none" (no target, no limit) */
	SP_NEG_AUTO,		/* -1 shows "auto" (engine chooses) */
	SP_CONCURRENCY,		/* "max" sets concurrency_max */
};

/*
 * A form row.  A row for a workload field names it (.field = EF_x + 1) and
 * a custom-model row its figure (.figure = MF_x + 1); tui_fields_resolve()
 * then fills in the label, unit, hint, storage, bounds and +/- steps from
 * the engine's table (engine_fields.c) or the catalog's
 * (CATALOG_MODEL_FIGURES), so the wizard holds no second copy of them.  A
 * member the row sets itself (a label, the classes) is kept.
 */
struct tui_field {
	int field;			/* enum engine_field_id + 1; 0 = none */
	int figure;			/* enum catalog_model_figure_id + 1; 0 = none */
	const char *label, *unit, *hint;
	enum tui_field_kind kind;
	unsigned classes;		/* bit per workload class; 0 = every class */
	bool custom_only;		/* shown only for the custom model */
	bool lora_only;			/* shown only for LoRA / QLoRA */
	bool (*shown)(const struct tui *t);	/* shown only while it says so; NULL = always */
	/* storage */
	enum tui_field_base base;
	enum tui_field_store store;
	size_t offset;
	enum tui_field_special special;
	const char *zero_word;		/* SP_ZERO_NONE: what 0 is called */
	double scale;			/* shown = stored / scale; 0 means 1 */
	double times;			/* > 0: shown = stored * times instead */
	bool positive;			/* must be more than lim.min, not equal */
	/* numbers, in shown units */
	struct engine_field_limit lim;	/* from the table the CLI and scenario
					 * files read: the accepted range and
					 * whether whole numbers only */
	enum number_syntax syntax;	/* how it is typed (number.h) */
	double step;			/* +/-: > 0 adds, 0 doubles and halves */
	double start;			/* +/- from none starts here */
	/* what "auto" stands for now (stored units), shown next to it */
	double (*auto_value)(const struct tui *t);
	/* choices */
	int choice_first, choice_count;
	const char *(*choice_name)(int v);
	/* A derived default: the text shown next to the value while it follows
	 * another field ("follows Precision"), or NULL once the user set it. */
	const char *(*follows)(const struct tui *t);
	/* called after the value changed (the class resets its fields) */
	void (*after_set)(struct tui *t);
	/* read-only figures */
	void (*info)(const struct tui *t, char *buf, size_t n);
	bool (*muted)(const struct tui *t);	/* info shown muted when true */
};

#define TUI_CLASS(c) (1u << (c))

/* Copies n rows from in to out, completed from the tables. */
void tui_fields_resolve(const struct tui_field *in, struct tui_field *out, int n);
bool tui_field_visible(const struct tui *t, const struct tui_field *f);
/* Text of the field's value as shown (and as the editor starts with). */
void tui_field_text(const struct tui *t, const struct tui_field *f, char *buf, size_t n);
/* Draws a form of n fields with the cursor and scroll position of l (the
 * step's own). */
void tui_form_draw(struct tui *t, WINDOW *win, int h, int w, const struct tui_field *fields,
		   int n, struct tui_list *l);
int tui_form_key(struct tui *t, enum tui_action a, int ch, const struct tui_field *fields,
		 int n, struct tui_list *l);

/* ---- tui_list.c ---- */
/* The move an action stands for in a list: Up/Down, Home/End, and
 * PgUp/PgDn when the list pages by page rows (else they change steps). */
enum tui_list_move tui_list_move_of(enum tui_action a, int page);
/* Moves the cursor of a list of n rows; it stays within them. */
void tui_list_move(struct tui_list *l, enum tui_list_move m, int n, int page);
/* The same over the rows r accepts. */
void tui_list_move_rows(struct tui_list *l, enum tui_list_move m, const struct tui_list_rows *r,
			int page);
/* Scrolls a view without a cursor (top; the draw clamps it). */
void tui_list_scroll(struct tui_list *l, enum tui_list_move m, int n, int page);
/* tui_list_move / tui_list_scroll for an action; false when the action is
 * not a list move. */
bool tui_list_key(struct tui_list *l, enum tui_action a, int n, int page);
bool tui_list_scroll_key(struct tui_list *l, enum tui_action a, int n, int page);
/* Before drawing n rows `rows` at a time: the cursor within the rows and
 * in view, no empty rows at the bottom, top >= 0. */
void tui_list_clamp(struct tui_list *l, int n, int rows);
/* The same for a view without a cursor: only top. */
void tui_list_clamp_top(struct tui_list *l, int n, int rows);
/* Its scroll marks at column x: the up glyph on row y_up when rows are
 * hidden above, the down glyph on row y_down when rows are hidden below. */
void tui_list_marks(struct tui *t, WINDOW *win, const struct tui_list *l, int rows, int n, int y_up,
		    int y_down, int x);

/* ---- tui_panel.c ---- */
void tui_panel_draw(struct tui *t, WINDOW *win, int h, int w, bool compact);

/* ---- tui_step2.c: shared by the accelerator tables ---- */
/* Makes r's accelerator the chosen one (resetting the node overrides). */
int tui_choose_accel(struct tui *t, const struct engine_result *r);
/* Why the chosen accelerator is stale after a workload change (it is
 * filtered out, no longer fits, or was first and no longer is), with the
 * offer of the new first ("f takes ..."); NULL when it is not stale. */
const char *tui_stale_note(const struct tui *t, char *buf, size_t n);
/* f: choose the new first-ranked accelerator in place of a stale choice. */
int tui_take_first(struct tui *t);
/* Puts the cursor of a table of the report on the chosen (or top-ranked)
 * row. */
void tui_table_focus_chosen(struct tui *t, struct tui_list *l);
/* Up/Down/Tab/Enter over a table of the report's n results. */
int tui_table_key(struct tui *t, enum tui_action a, struct tui_list *l, int n);

/* ---- tui_step3.c ---- */
/* Predicted throughput or time, and cost per Mtok or per run, as step 3
 * shows them. */
void tui_result_perf(const struct tui *t, const struct engine_result *r, char *buf, size_t n);
void tui_result_cost(const struct tui *t, const struct engine_result *r, char *buf, size_t n);

/* ---- tui_step5.c: BOM preview and files ---- */
void tui_step5_init(struct tui *t);
void tui_step5_fini(struct tui *t);
/* Rebuilds the BOM preview after the engine ran. */
void tui_step5_refresh(struct tui *t);
/* Export and save ask before replacing an existing file (PROMPT_OVERWRITE)
 * unless force; saving over the scenario's own file does not ask. */
int tui_do_export(struct tui *t, const char *path, bool force);
/* P: asks where to write the proposal, from the scenario's name
 * ("bank.yaml" -> "bank-proposal.html"). */
int tui_proposal_prompt(struct tui *t);
/* The proposal (proposal.h) of the scenario as it stands, to path. */
int tui_do_proposal(struct tui *t, const char *path, bool force);
int tui_do_save(struct tui *t, const char *path, bool force);
int tui_do_open(struct tui *t, const char *path);

/* ---- tui_workloads.c: several workloads on one cluster ---- */
bool tui_wl_multi(const struct tui *t);
/* sc.w back into its entry, with the settings every entry shares. */
void tui_wl_store(struct tui *t);
/* After the engine ran: the list stored and every cluster sized again. */
void tui_wl_refresh(struct tui *t);
void tui_wl_fini(struct tui *t);
/* Step 1: a class turned to serving drops the entry's hours of the week;
 * the names of share_gpus's two values. */
void tui_wl_class_changed(struct tui *t);
const char *tui_wl_share_gpus_name(int v);
/* The chosen accelerator's cluster's validation plan into cl_plan (none
 * with one workload). */
void tui_wl_plan(struct tui *t);
/* Accelerator a's cluster, or NULL (one workload, or not sized). */
const struct engine_cluster *tui_wl_cluster(const struct tui *t, const struct catalog_accel *a);
/* "chat [small] weekly-lora", the current one in brackets. */
void tui_wl_list(const struct tui *t, char *buf, size_t n);
/* "small, 2 of 3 (...keys)": the workload on screen. */
void tui_wl_editing(const struct tui *t, char *buf, size_t n);
/* Entry e's share of a's cluster: "chat: 2 GPUs as 1x TP2"; false when
 * there is none to show. */
bool tui_wl_share(const struct tui *t, size_t e, const struct catalog_accel *a, char *buf, size_t n);
/* a's cluster: "8 GPUs, 1 node, $444,436.00, 10.2 kW: why". */
bool tui_wl_total(const struct tui *t, const struct catalog_accel *a, char *buf, size_t n);
/* w, a, x, r: switch, add, remove, rename (the prompt). */
int tui_wl_action(struct tui *t, enum tui_action a);
int tui_wl_rename(struct tui *t, const char *name);

/* ---- tui_picker.c ---- */
void tui_picker_open(struct tui *t);
/* +/- on the model field: the next or previous catalog model. */
int tui_picker_cycle(struct tui *t, int dir);
/* The model from a Hugging Face config.json (hfconfig.h) as custom
 * figures; an unreadable or bad file keeps the model and says why. */
int tui_picker_from_config(struct tui *t, const char *path);

#endif
