#!/bin/sh
# Step 1, training: the layout degrees (tp, pp, vp, cp, ep, micro-batch) are
# rows of the field table; "auto" (0) leaves them to the search, a number
# forces one, out-of-range values are refused with the table's range.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

tui_start 120 40 --scenario "$TOP_SRCDIR/tests/fixtures/scenarios/good/pretrain-minimal.yaml"
tui_wait "Training tokens"
check_screen_re "tensor parallel is searched by default" "Tensor parallel +auto"
check_screen_re "micro-batch is searched by default" "Micro-batch +auto"
check_screen_re "virtual stages are searched by default" "Virtual stages +auto"
tui_goto "Tensor parallel"
check_screen "the row's hint says what auto means" "auto: the layout search chooses it"
tui_keys Enter C-u
tui_type "2"
tui_keys Enter
check_screen_re "a typed degree forces it" "Tensor parallel +2 GPUs"
tui_keys Enter C-u
tui_type "2000"
tui_keys Enter
check_screen "past the table's maximum is refused" \
	"Tensor parallel: '2000' is out of range (1 to 1024, or 0 for auto); kept the old value."
tui_keys Enter C-u
tui_type "auto"
tui_keys Enter
check_screen_re "auto hands it back to the search" "Tensor parallel +auto"
tui_goto "Micro-batch"
tui_keys Enter C-u
tui_type "2"
tui_keys Enter
check_screen_re "micro-batch forced to 2" "Micro-batch +2 sequences"
tui_keys - -
check_screen_re "minus below 1 goes back to auto" "Micro-batch +auto"
tui_keys q y
tui_exit_status
check "y quits" equals "$rc" "0"

done_testing
