#!/bin/sh
# Issue 18 in the wizard: a fine-tune's hours a week (hours_per_week) and
# whether training takes its own GPUs or time-shares the serving GPUs
# (share_gpus) are step 1 rows of a scenario with several workloads; a
# change is saved in the scenario and re-sizes the cluster, whose total on
# step 4 is what `recommend --scenario` prints for the saved file.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

A=$ACCELSIZER
W=$TOP_SRCDIR/tests/fixtures/scenarios/workloads
{ cat "$W/three.yaml"; echo "accelerator: h100-sxm"; } >"$TMPD/three.yaml"

# recommend's total row for a scenario file: "GPUs capex"
total_of() {
	run $A recommend --scenario "$1" --format csv
	printf '%s\n' "$out" >"$TMPD/rec.csv"
	row=$(($(grep -n '^"total",' "$TMPD/rec.csv" | cut -d: -f1) - 1))
	tgpus=$(csv_col "$TMPD/rec.csv" gpus $row)
	tcapex=$(csv_col "$TMPD/rec.csv" capex_usd $row)
	tmoney=$(printf '%s' "$tcapex" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\([.,]\)/\1,\2\3/;ta')
}

tui_start 120 40 --scenario "$TMPD/three.yaml"
tui_wait "Input tokens"
check_screen_re "serving has no hours a week" "Training GPUs +‹ shared with serving"
check_screen_lacks "a serving workload shows no hours row" "Hours a week"
tui_keys w w Up
check_screen_re "the fine-tune's hours a week" "Hours a week +8 h"
check_screen "its hint" "this training's share of the week (hours_per_week); 168 = always"

# the fine-tune runs all week on the serving GPUs: 168 hours
tui_keys Enter C-u
tui_type "168"
tui_keys Enter
check_screen_re "the hours changed" "Hours a week +168 h"
tui_keys Enter C-u
tui_type "0"
tui_keys Enter
check_screen "no hours is refused" "Hours a week must be more than 0; kept the old value."
tui_keys Enter C-u
tui_type "200"
tui_keys Enter
check_screen "more than a week is refused" "Hours a week: '200' is out of range (0 to 168); kept the old value."
tui_keys Enter C-u
tui_type "40"
tui_keys Enter
check_screen_re "40 hours a week" "Hours a week +40 h"
tui_keys u
check_screen_re "u undoes it" "Hours a week +168 h"
tui_keys Enter C-u
tui_type "40"
tui_keys Enter
check_screen_re "40 hours again" "Hours a week +40 h"
tui_keys s C-u
tui_type "$TMPD/hours.yaml"
tui_keys Enter
check_screen "saved" "Saved the scenario to $TMPD/hours.yaml."
check "the file holds the fine-tune's 40 hours" contains "$(cat "$TMPD/hours.yaml" 2>/dev/null)" "hours_per_week: 40"
total_of "$TMPD/hours.yaml"
check "recommend reads the saved file" rc 0
tui_keys n n n
check_screen_re "step 4: the cluster, recommend's total for the saved file" "All of them +$tgpus GPUs?, [0-9]+ nodes?, \\\$$tmoney"
tui_keys p p p
tui_wait "Input tokens"

# training on its own GPUs: the cluster grows by the fine-tune's GPUs
total_of "$TMPD/three.yaml"
shared_gpus=$tgpus
tui_keys Down Right
check_screen_re "training takes its own GPUs" "Training GPUs +‹ own GPUs"
tui_keys s C-u
tui_type "$TMPD/own.yaml"
tui_keys Enter
check_screen "saved again" "Saved the scenario to $TMPD/own.yaml."
check "the file says share_gpus: false" contains "$(cat "$TMPD/own.yaml" 2>/dev/null)" "share_gpus: false"
total_of "$TMPD/own.yaml"
check "recommend reads it" rc 0
check "own GPUs: a bigger cluster than time-shared ($tgpus > $shared_gpus)" equals "$([ "$tgpus" -gt "$shared_gpus" ] && echo bigger)" bigger
tui_keys n n n
check_screen_re "step 4: the re-sized cluster, recommend's total" "All of them +$tgpus GPUs?, [0-9]+ nodes?, \\\$$tmoney"

# a fine-tune turned to serving drops its hours (serving runs always)
tui_keys p p p
tui_wait "Input tokens"
tui_keys Up Down Down Left Left
check_screen_re "the class is inference" "Class +‹ inference ›"
check_screen_lacks "no hours row for serving" "Hours a week"
tui_keys s C-u
tui_type "$TMPD/serving.yaml"
tui_keys Enter
check_screen "saved a third time" "Saved the scenario to $TMPD/serving.yaml."
check "no hours_per_week left in the file" lacks "$(cat "$TMPD/serving.yaml" 2>/dev/null)" "hours_per_week"
run $A recommend --scenario "$TMPD/serving.yaml" --format csv
check "the file loads" rc 0

done_testing
