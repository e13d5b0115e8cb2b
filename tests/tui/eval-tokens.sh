#!/bin/sh
# The evaluations a time-to-train run interleaves (issue 16 item 5, MLPerf
# Training): step 1's Evaluation tokens row, in pretraining and in
# fine-tuning, sets what `recommend --eval-tokens` does; the saved
# scenario sizes as the flag does, and the evaluations cost GPUs or hours
# (this scenario holds a target time, so GPUs).
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

PRE="$TOP_SRCDIR/tests/fixtures/scenarios/good/pretrain-minimal.yaml"
tui_start 120 40 --scenario "$PRE"
tui_wait "Training tokens"
tui_goto "Evaluation tokens"
check_screen_re "pretraining: the row, unset" "Evaluation tokens +none"
check_screen "its hint says what it counts" "read forward, in the run's time"
tui_keys Enter C-u
tui_type "2e11"
tui_keys Enter
check_screen_re "typed: 200B tokens" "Evaluation tokens +200B tokens"
tui_keys s
tui_wait "Save scenario to:"
tui_keys C-u
tui_type "$TMPD/eval.yaml"
tui_keys Enter
tui_wait "eval.yaml"
tui_goto "Class" Up
tui_keys Right
tui_wait "Dataset tokens"
tui_goto "Evaluation tokens"
check_screen_re "fine-tuning: the row too" "Evaluation tokens +"
tui_keys q y
tui_exit_status
check "quits cleanly" equals "$rc" "0"
saved=$(cat "$TMPD/eval.yaml" 2>/dev/null)
check "the scenario keeps the evaluations" matches "$saved" "eval_tokens: 2(00000000000|e\\+11)"
run "$ACCELSIZER" recommend --scenario "$PRE" --format csv -o "$TMPD/plain.csv"
run "$ACCELSIZER" recommend --scenario "$TMPD/eval.yaml" --format csv -o "$TMPD/eval.csv"
check "the saved scenario sizes as --eval-tokens does" equals "$(csv_col "$TMPD/eval.csv" train_hours)" \
	"$("$ACCELSIZER" recommend --scenario "$PRE" --eval-tokens 2e11 --format csv -o "$TMPD/flag.csv" && csv_col "$TMPD/flag.csv" train_hours)"
check "the evaluations cost GPUs or hours" equals "$(awk -v ag="$(csv_col "$TMPD/eval.csv" gpus)" \
	-v bg="$(csv_col "$TMPD/plain.csv" gpus)" -v ah="$(csv_col "$TMPD/eval.csv" train_hours)" \
	-v bh="$(csv_col "$TMPD/plain.csv" train_hours)" 'BEGIN { print (ag > bg || ah > bh) ? "yes" : "no" }')" "yes"
done_testing
