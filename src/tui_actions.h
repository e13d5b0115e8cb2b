/*
 * tui_actions: the wizard's one table of actions.  The enum of actions, the
 * key map, the help screen and the key bar are all generated from it, so
 * they cannot disagree (the way tig generates its requests).
 *
 * X(ID, key, alt_key, keys_shown, bar_label, bar_priority, steps, help)
 *   key, alt_key  curses key codes (0 = none)
 *   keys_shown    how help and the key bar name the keys
 *   bar_label     short label in the key bar ("" = help only)
 *   bar_priority  1 = shown first; when the bar is short of room the highest
 *                 numbers are dropped first
 *   steps         in which steps the key bar shows it (TUI_S1..TUI_S5,
 *                 TUI_SALL); the key works wherever a handler takes it
 *   help          one line for the help screen ("": the line of the action
 *                 before it names both, as Home/End)
 */
#ifndef ACCELSIZER_TUI_ACTIONS_H
#define ACCELSIZER_TUI_ACTIONS_H

#define TUI_S1 (1u << 0)
#define TUI_S2 (1u << 1)
#define TUI_S3 (1u << 2)
#define TUI_S4 (1u << 3)
#define TUI_S5 (1u << 4)
#define TUI_SALL (TUI_S1 | TUI_S2 | TUI_S3 | TUI_S4 | TUI_S5)
#define TUI_CTRL(c) ((c) & 0x1f)
#define TUI_KEY_ESC 27

#define TUI_ACTIONS(X) \
	X(HELP,       '?',          KEY_F(1),   "?/F1",      "help",     1, TUI_SALL, "show this help (Esc closes it)") \
	X(QUIT,       'q',          0,          "q",         "quit",     1, TUI_SALL, "quit (asks first when the scenario has unsaved changes)") \
	X(EDIT,       '\n',         KEY_ENTER,  "Enter",     "select",   2, TUI_S1 | TUI_S3 | TUI_S4, "edit the field under the cursor (typing replaces the value, arrows edit it, Esc restores it); in step 3 choose the accelerator") \
	X(BACK,       TUI_KEY_ESC,  0,          "Esc",       "",         9, 0, "cancel an edit, close help, compare or a pick list") \
	X(INC,        '+',          '=',        "+/-",       "step",     4, TUI_S1 | TUI_S4, "step a number up/down (tokens double/halve, counts by one); cycle a choice") \
	X(DEC,        '-',          '_',        "-",         "",         9, 0, "step a number down") \
	X(UP,         KEY_UP,       0,          "Up",        "",         9, 0, "move up") \
	X(DOWN,       KEY_DOWN,     0,          "Down",      "",         9, 0, "move down") \
	X(HOME,       KEY_HOME,     0,          "Home/End",  "",         9, 0, "the first / last row of a table, form or list") \
	X(END,        KEY_END,      0,          "End",       "",         9, 0, "") \
	X(NEXT_FIELD, '\t',         0,          "Tab",       "",         9, 0, "next field") \
	X(PREV_FIELD, KEY_BTAB,     0,          "S-Tab",     "",         9, 0, "previous field") \
	X(LEFT,       KEY_LEFT,     0,          "Left",      "",         9, 0, "previous choice") \
	X(RIGHT,      KEY_RIGHT,    0,          "Right",     "",         9, 0, "next choice") \
	X(OBJECTIVE,  'b',          0,          "b",         "sort by",  2, TUI_S3, "cycle the ranking objective: capex, cost per token, time, GPUs, perf/W") \
	X(MARK,       ' ',          0,          "Space",     "mark",     3, TUI_S3, "mark or unmark an accelerator for comparison (up to three)") \
	X(COMPARE,    'c',          0,          "c",         "compare",  3, TUI_S3, "compare the marked accelerators side by side") \
	X(CHART,      'g',          0,          "g",         "chart",    3, TUI_S3, "chart the trade-off: output tokens/s per GPU against tokens/s per user as the batch grows, for the marked accelerators or the one under the cursor") \
	X(EXPORT,     'e',          0,          "e",         "export BOM", 2, TUI_SALL, "export the bill of materials as CSV") \
	X(PROPOSAL,   'P',          0,          "P",         "proposal", 4, TUI_S5, "write the customer's proposal, HTML or Markdown by the file name (as 'accelsizer proposal')") \
	X(SAVE,       's',          0,          "s",         "save",     2, TUI_SALL, "save the scenario as YAML") \
	X(OPEN,       'o',          0,          "o",         "open",     2, TUI_SALL, "open a saved scenario") \
	X(WL_NEXT,    'w',          0,          "w",         "workload", 3, TUI_S1, "several workloads: switch to the scenario's next workload") \
	X(WL_ADD,     'A',          0,          "A",         "add",      7, TUI_S1, "add a workload to the scenario (a copy of this one), sized with the others on one cluster") \
	X(WL_REMOVE,  'x',          0,          "x",         "",         9, 0, "remove this workload from the scenario") \
	X(WL_RENAME,  'r',          0,          "r",         "",         9, 0, "rename this workload") \
	X(PIN,        'a',          0,          "a",         "pin",      6, TUI_S1 | TUI_S4, "pin this scenario; after changes, a again shows it beside the current one, differences marked") \
	X(UNDO,       'u',          0,          "u",         "undo",     7, TUI_S1 | TUI_S4, "undo the last change to the workload (up to 32 changes)") \
	X(FIRST,      'f',          0,          "f",         "new first", 3, TUI_S4 | TUI_S5, "after a workload change, choose the new first-ranked accelerator in place of a stale choice") \
	X(NEXT_STEP,  KEY_NPAGE,    'n',        "PgDn/n",    "next",     2, TUI_SALL, "next step") \
	X(PREV_STEP,  KEY_PPAGE,    'p',        "PgUp/p",    "back",     5, TUI_SALL, "previous step") \
	X(STEP1,      '1',          0,          "1-5",       "step",     6, TUI_SALL, "jump to a step (on a number field a digit starts typing its value)") \
	X(STEP2,      '2',          0,          "2",         "",         9, 0, "jump to step 2, Constraint") \
	X(STEP3,      '3',          0,          "3",         "",         9, 0, "jump to step 3, Silicon") \
	X(STEP4,      '4',          0,          "4",         "",         9, 0, "jump to step 4, Node") \
	X(STEP5,      '5',          0,          "5",         "",         9, 0, "jump to step 5, Validate") \
	X(PANEL_UP,   '[',          0,          "[ ]",       "panel",    7, TUI_SALL, "scroll the side panel up / down") \
	X(PANEL_DOWN, ']',          0,          "]",         "",         9, 0, "scroll the side panel down") \
	X(REDRAW,     TUI_CTRL('l'), 0,         "Ctrl-L",    "",         9, 0, "redraw the whole screen")

#endif
