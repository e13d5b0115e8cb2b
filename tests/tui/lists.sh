#!/bin/sh
# Every table, form and list of the wizard moves with the one list helper
# (src/tui_list.c): Home and End reach the first and the last row of the
# step 3 ranking, the step 1 form, the BOM preview and help, and the view
# scrolls to show it.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

GOLDEN=$TOP_SRCDIR/tests/golden/screens

# Home and End as xterm sends them in keypad mode (SS3 H, SS3 F), which is
# what the wizard's TERM=xterm-256color reads; tmux's own Home and End keys
# are the screen terminal's.
ss3=$(printf '\033O')
home() { tm send-keys -t t -l "${ss3}H"; }
end() { tm send-keys -t t -l "${ss3}F"; }

tui_start 80 24 --scenario "$SCENARIO"
tui_wait "Top ranked "

# ---- step 1: the form ----
end
check_screen "End on step 1 goes to the last field" "Opportunity"
tui_settle
check "the screen is the one Down reaches at the last field (golden step1-end)" equals "$screen" "$(cat "$GOLDEN/80x24-step1-end.txt")"
home
tui_wait_gone "Opportunity"
tui_settle
check "Home goes back to the first field (golden step1)" equals "$screen" "$(cat "$GOLDEN/80x24-step1.txt")"

# ---- step 3: the ranking, 20 rows in 9 ----
tui_keys 3
tui_wait "Ranked by lowest capex"
check_screen_lacks "the last-ranked row is below the fold" "20 NVIDIA L4"
end
check_screen_re "End shows the last row" "^ +20 NVIDIA L4"
tui_screen
check "the cursor is on it: the result line names it" matches "$screen" "published\\) · NVIDIA L4"
check "rows above are marked hidden" matches "$screen" "
 +12 NVIDIA H200 NVL 141GB .*↑
"
home
check_screen_re "Home shows the first row" "^ ▸  1 NVIDIA RTX PRO"
tui_screen
check "the cursor is back on the first" matches "$screen" "published\\) · NVIDIA RTX PRO 6000"
check_screen_lacks "the last is hidden again" "20 NVIDIA L4"

# ---- help ----
tui_keys '?'
tui_wait "Esc or ? closes"
check_screen_lacks "the tips are below the fold" "The mouse works on the step bar"
end
check_screen "End shows the end of help" "The mouse works on the step bar"
home
check_screen "Home its top" "show this help"
check_screen_lacks "the tips are hidden again" "The mouse works on the step bar"
tui_keys Escape

tui_keys q
tui_exit_status
check "the wizard quits" equals "$rc" "0"

# ---- step 5: the BOM preview (13 lines for 7 Gaudi 3 nodes) ----
tui_start 80 24 --scenario "$TOP_SRCDIR/tests/fixtures/scenarios/good/pretrain-minimal.yaml"
tui_wait "Top ranked "
tui_keys n n n n
tui_wait "Validation plan:"
tui_keys Tab
tui_wait "Bill of materials: "
tui_screen
lines=$(printf '%s\n' "$screen" | sed -n 's/.*lines [0-9]*-[0-9]* of \([0-9]*\) (Up\/Down scroll).*/\1/p')
check "the BOM preview scrolls" matches "$lines" '^[0-9]+$'
end
check_screen_re "End shows the BOM's last line" "lines [0-9]+-$lines of $lines "
home
check_screen_re "Home shows its first" "lines 1-[0-9]+ of $lines "
done_testing
