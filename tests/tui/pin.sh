#!/bin/sh
# The pin and undo (issue 17 item 8): a pins the scenario, inputs change,
# a again shows the pinned one beside the current with the differences
# marked; u undoes the last changes to the workload, one at a time.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

tui_start 120 40 --scenario "$SCENARIO"
tui_wait "Input tokens"
tui_screen
check "the key bar offers a pin" contains "$(printf '%s\n' "$screen" | tail -n 1)" "a pin"
tui_keys u
check_screen "nothing to undo before a change" "Nothing to undo."

tui_keys a
check_screen_re "a pins the scenario, naming its accelerator and capex" \
	"Pinned: Llama 2 70B on 2 x RTX PRO 6000 .*, \\\$52,000\\*\\. Change inputs; a compares, u undoes\\."

# Precision fp16 -> fp8
tui_until '^ Precision +‹' Down 10
tui_keys Right
check_screen_re "Precision is now fp8" "^ Precision +‹ fp8 ›"
tui_keys a
check_screen "a again shows the pinned one beside the current" "Pinned vs current:"
tui_screen
check "the precision row is marked, pinned fp16, current fp8" matches "$screen" "≠ +workload\\.precision +fp16 +fp8"
check "the class is the same: not marked" matches "$screen" "
  +workload\\.class +inference +inference"
check "results first: the accelerator of each" matches "$screen" "Accelerator +NVIDIA"
check "the GPUs of each" matches "$screen" "
. +GPUs +[0-9]+ +[0-9]+"
check "capex and TCO of each" matches "$screen" "Capex +\\\$[0-9,]+\\*? +\\\$[0-9,]+\\*?.*
. TCO +\\\$[0-9,]+\\*? over 5 years +\\\$[0-9,]+\\*? over 5 years"
check "the cost per Mtok of each" matches "$screen" "Cost per Mtok +\\\$[0-9.]+\\*? +\\\$[0-9.]+"
check "the number of differences is said" matches "$screen" "Pinned vs current: [1-9][0-9]* rows? differ"
tui_keys Escape
check_screen "Esc closes it" "Input tokens"

# undo: back to fp16, then nothing more
tui_keys u
check_screen "u undoes the change" "Undid the last change; this is where the session started."
check_screen_re "Precision is fp16 again" "^ Precision +‹ fp16 ›"
tui_keys a
check_screen "the comparison now has no difference" "Pinned vs current: 0 rows differ"
tui_keys Escape

# three changes, three undos in reverse order, then nothing
tui_keys Right
tui_wait_re "^ Precision +‹ fp8 ›"
tui_keys Right
tui_wait_re "^ Precision +‹ fp4 ›"
tui_keys Down Down Down + 
tui_settle
tui_keys u
check_screen "the first undo names what is left" "Undid the last change (2 more to undo)."
tui_keys u
check_screen_re "the second goes back to fp8" "^ Precision +fp8 "
tui_keys u
check_screen_re "the third to fp16" "^ Precision +fp16 "
tui_keys u
check_screen "and then there is nothing to undo" "Nothing to undo."

# a in the comparison pins the current one
tui_keys Right
tui_wait_re "^ Precision +‹ fp8 ›"
tui_keys a
tui_wait "Pinned vs current:"
tui_keys a
check_screen "a in the comparison pins the current" "Pinned vs current: 0 rows differ"
tui_keys Escape

tui_keys '?'
tui_wait "Esc or ? closes"
tui_screen
check "help explains a" matches "$screen" "
  a +pin this scenario; after changes, a again shows it beside the current one"
check "help explains u" matches "$screen" "
  u +undo the last change to the workload \\(up to 32 changes\\)"
tui_keys Escape
tui_quit
check "quits cleanly" equals "$rc" "0"
done_testing
