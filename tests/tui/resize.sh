#!/bin/sh
# Resizing at any moment: the layout follows, the too-small screen says
# what is needed, keys pressed while it shows change nothing, and state
# (step, open editor, overlays) survives.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

tui_start 120 40 --scenario "$SCENARIO"
tui_wait "Input tokens"
tui_screen
check "120x40: side panel on the right" matches "$screen" "Precision .*│"

tui_resize 80 24
check_screen "to 80x24: the panel folds below the form" "── Fit per accelerator ──"
tui_wait_re "^\?/F1 help.*1-5 step$"
tui_screen
check "80x24: nothing beyond 80 columns" equals "$(printf '%s\n' "$screen" | wc -L | tr -d ' ')" "80"
check "80x24: key bar on row 24" matches "$(printf '%s\n' "$screen" | sed -n 24p)" "\\?/F1 help"

tui_resize 60 20
check_screen "to 60x20: too-small screen" "terminal too small (need 80x24)"
check_screen "too-small screen gives the size" "now 60x20"
tui_keys 3
sleep 0.2
check_screen "keys wait while too small" "terminal too small"

tui_resize 79 24
check_screen "79 columns is too small" "now 79x24"
tui_resize 80 23
check_screen "23 lines is too small" "now 80x23"

tui_resize 100 30
check_screen "back to 100x30: the wizard again" "Input tokens"
tui_screen
check "the step did not change while small" contains "$screen" "Workload"
check_screen_lacks "the too-small message is gone" "terminal too small"

tui_resize 200 60
check_screen_re "to 200x60: panel on the right" "Precision .*│"
check "200x60: key bar on the last row" matches "$(printf '%s\n' "$screen" | sed -n 60p)" "\\?/F1 help"

# an open editor survives a resize
tui_keys Down Down Down Down Enter C-u
tui_type "2"
tui_resize 80 24
tui_wait "Fit per accelerator"
tui_type "048"
tui_keys Enter
check_screen_re "an edit survives a resize" "Input tokens +2048 tok/request"

# help survives a resize too
tui_keys ?
tui_wait "Bars and marks" || tui_wait "Keys"
tui_resize 120 40
check_screen "help stays open across a resize" "Esc or ? closes"
tui_keys Escape
check_screen "Esc closes help" "Input tokens"

# every step at 80x24 and back (n: on step 4 a digit would edit the
# focused GPU count)
for s in 2 3 4 5; do
	tui_keys n
	tui_resize 80 24
	sleep 0.1
	tui_resize 120 40
done
check_screen "step 5 after resizes" "Validation plan"

# quitting from the too-small screen asks when there are changes
tui_resize 50 10
tui_wait "terminal too small"
tui_keys q
check_screen "q on the small screen asks" "Quit without saving? (y/n)"
tui_keys y
tui_exit_status
check "y quits from the small screen" equals "$rc" "0"

done_testing
