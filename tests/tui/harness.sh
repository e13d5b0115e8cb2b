#!/bin/sh
# The serving harness in the wizard (issue 15 items 1 and 6): step 1's
# Inference rows set what a published run's harness fixed (batch per
# replica, token budget, attention data parallel, dispatch, separate
# prefill iterations, multi-step decoding, the client's submission
# window) as `recommend --batch --prefill --scheduler-steps` do; step 3
# shows what the CLI prints for the same flags; a saved scenario keeps
# them and the CLI sizes it the same.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

mkdir "$TMPD/cli" && cd "$TMPD/cli" || exit 1
run "$ACCELSIZER" recommend --batch 16 --prefill separate --scheduler-steps 8 --format csv -o harness.csv
check "the CLI sizes the default workload under the harness" rc 0
tps=$(awk -v v="$(csv_col harness.csv output_tokens_per_s)" 'BEGIN { s = sprintf("%.0f", v); n = length(s); o = ""
	while (n > 3) { o = "," substr(s, n - 2, 3) o; n -= 3 } print substr(s, 1, n) o }')
gpus=$(csv_col harness.csv gpus)
run "$ACCELSIZER" recommend --format csv -o plain.csv
check "the harness changes the first result's throughput" matches \
	"$(awk -v a="$(csv_col harness.csv output_tokens_per_s)" -v b="$(csv_col plain.csv output_tokens_per_s)" \
		'BEGIN { print (a != b) ? "yes" : "no" }')" '^yes$'

tui_start 100 40
tui_wait "Top ranked"
# (a choice under the cursor shows between ‹ ›)
for row in "Attention DP +(‹ )?off" "Batch per replica +none" "Token budget +none" "Dispatch +(‹ )?independent" \
	"Prefill +(‹ )?chunked" "Scheduler steps +none" "Harness window +none"; do
	tui_goto "${row%% +*}"
	check_screen_re "step 1 offers the ${row%% +*} row, unset" "$row"
done
tui_goto "Batch per replica" Up
check_screen "the batch row's hint names the published setting" "max_batch_size: a replica never runs more"
tui_keys Enter C-u
tui_type "16"
tui_keys Enter
check_screen_re "the batch is typed" "Batch per replica +16"
tui_goto "Prefill"
tui_keys Right
check_screen_re "Right: prompts in their own iterations" "Prefill +‹ separate ›"
tui_goto "Scheduler steps"
tui_keys Enter C-u
tui_type "8"
tui_keys Enter
check_screen_re "the decode block is typed" "Scheduler steps +8"
tui_keys Enter C-u
tui_type "65"
tui_keys Enter
check_screen "a block beyond the bound is refused, the old value kept" "kept the old value"
check_screen_re "... still 8" "Scheduler steps +8"
tui_keys NPage NPage	# a digit here would type into the field
tui_wait "Ranked by"
row=$(printf '%s\n' "$screen" | grep -E '^ ▸  1 ' | head -n 1)
check "step 3's first row is the CLI's first" matches "$row" "$(csv_col harness.csv accelerator | cut -c1-4 | tr a-z A-Z)|NVIDIA"
check "step 3's throughput is the CLI's ($tps tok/s on $gpus GPUs)" matches "$row" " $gpus +[0-9]+ +$tps "
tui_keys s
tui_wait "Save scenario to:"
tui_keys C-u
tui_type "$TMPD/harness.yaml"
tui_keys Enter
tui_wait "harness.yaml"
tui_keys q
tui_exit_status
check "quits cleanly" equals "$rc" "0"
saved=$(cat "$TMPD/harness.yaml" 2>/dev/null)
check "the scenario keeps the batch" matches "$saved" "batch: 16"
check "... the prefill" contains "$saved" "prefill: separate"
check "... and the decode block" contains "$saved" "scheduler_steps: 8"
run "$ACCELSIZER" recommend --scenario "$TMPD/harness.yaml" --format csv -o again.csv
check "the CLI sizes the saved scenario as the flags" equals "$(csv_col again.csv output_tokens_per_s)" "$(csv_col harness.csv output_tokens_per_s)"
done_testing
