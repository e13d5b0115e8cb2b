#!/bin/sh
# Typing replaces (issue 12 item 1): an edit starts with the old value
# selected, so the first printable key replaces it; arrows and Backspace
# edit it instead; Esc restores it; a digit on a focused number field starts
# the edit with that digit.  And a committed unchanged value clears the
# "Editing" status (item 12).
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

tui_start 100 30 --scenario "$SCENARIO"
tui_wait "Concurrent users"
# Class, Model, Precision, KV precision, Input, Output, Concurrent users
tui_keys Down Down Down Down Down Down
check_screen_re "the scenario's one user" "Concurrent users +1 sequences?"

# Enter, type 300, Enter: 300, not 1300
tui_keys Enter
tui_type "300"
tui_keys Enter
check_screen_re "Enter then 300 replaces the old value" "Concurrent users +300 sequences"

# a digit on the focused field starts the edit with that digit (it does
# not jump to step 2)
tui_type "64"
check_screen "a digit starts the edit" "Editing Concurrent users"
tui_keys Enter
check_screen_re "typed 64 straight away" "Concurrent users +64 sequences"
check_screen "still on step 1" "Input tokens"

# arrows edit: Right then 0 appends
tui_keys Enter Right
tui_type "0"
tui_keys Enter
check_screen_re "Right then 0 appends" "Concurrent users +640 sequences"

# Backspace edits: removes the last digit rather than everything
tui_keys Enter BSpace
tui_keys Enter
check_screen_re "Backspace removes one digit" "Concurrent users +64 sequences"

# Esc restores the old value, even after typing over it
tui_keys Enter
tui_type "999"
tui_keys Escape
tui_settle
check_screen_re "Esc restores" "Concurrent users +64 sequences"

# Enter on an unchanged value clears "Editing"
tui_keys Enter
check_screen "editing" "Editing Concurrent users"
tui_keys Enter
tui_settle
check_screen_lacks "an unchanged commit clears the Editing status" "Editing Concurrent users"

tui_quit
check "quits cleanly" equals "$rc" "0"

done_testing
