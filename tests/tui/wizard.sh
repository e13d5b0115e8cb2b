#!/bin/sh
# The five steps of the wizard for a known scenario (Llama-2-70B at fp16,
# tests/tui/llama70b-fp16.yaml), at 80x24 and at 120x40: what a person sees.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

# GPUs shown in step 3 for an accelerator: the first number after its name.
gpus_of() {
	screen_line "$1" | sed "s/.*$1 *//" | awk '{print $1}'
}

for size in 80x24 120x40; do
	w=${size%x*} h=${size#*x}
	tui_start "$w" "$h" --scenario "$SCENARIO"

	check_screen "$size: step bar" " 1 Workload › 2 Constraint › 3 Silicon? › 4 Node › 5 Validate "
	tui_screen
	check "$size: step bar on the first line" matches "$(printf '%s\n' "$screen" | head -n1)" "1 Workload.*5 Validate"
	check "$size: step 1 shows the model" contains "$screen" "Llama 2 70B"
	check "$size: step 1 shows the model's figures" matches "$screen" "80 layers, 8 KV heads"
	check "$size: step 1 shows the input tokens" matches "$screen" "Input tokens +1024 tok/request"
	check "$size: step 1 shows the precision" matches "$screen" "Precision +. ?fp16"
	check "$size: side panel" contains "$screen" "Fit per accelerator"
	check "$size: key bar on the last line" matches "$(printf '%s\n' "$screen" | tail -n1)" "\\?/F1 help +q quit"
	check "$size: a status line with the top-ranked reason" matches "$(printf '%s\n' "$screen" | tail -n2 | head -n1)" "^(Silicon\\? = none chosen yet\\. )?Top ranked "

	tui_keys n
	check_screen "$size: n goes to step 2" "What the workload needs"
	tui_screen
	check "$size: step 2 requirements" matches "$screen" "Weights +1[0-9][0-9]\\.[0-9] GB"
	check "$size: step 2 KV cache per token" matches "$screen" "KV cache .* per token, fp16"
	check "$size: step 2 table header" matches "$screen" "Accelerator +GPUs +Memory +Bandwidth +Interconn +Compute"
	check "$size: step 2 marks a binding resource" contains "$screen" "◆"
	check "$size: step 2 gives the engine's reason" matches "$screen" "◆ .*: .*fp16"

	tui_keys 3
	check_screen "$size: 3 jumps to step 3" "Ranked by lowest capex"
	tui_screen
	check "$size: step 3 header" matches "$screen" "# Accelerator +GPUs +Nodes +Tok/s +Capex +kW +\\\$/Mtok"
	# the MI300X and H100 SXM rows may be below the fold at 80x24: move
	# down to each (ranks 10 and 15 of 20 for this scenario)
	tui_keys Down Down Down Down Down Down Down Down Down
	tui_wait "MI300X"
	mi=$(gpus_of "MI300X")
	tui_keys Down Down Down Down Down Down
	tui_wait "H100 SXM5 80GB "
	h100=$(gpus_of "H100 SXM5 80GB")
	check "$size: MI300X fits in one GPU" equals "$mi" "1"
	# 138 GB of fp16 weights: more than one 80 GB H100, less than two
	check "$size: H100 SXM needs two GPUs" equals "$h100" "2"

	tui_keys NPage
	check_screen "$size: PgDn goes to step 4" "Node shape"
	tui_screen
	check "$size: step 4 GPU override shows auto" matches "$screen" "GPUs +auto \\([0-9]+\\)"
	check "$size: step 4 parallel layout" matches "$screen" "Parallel layout +TP [0-9]+ x PP"
	check "$size: step 4 space and power" matches "$screen" "Space and power +[0-9]+U in [0-9]+ rack"

	# on step 4 the cursor is on the GPU count, where a digit starts an
	# edit (issue 12): n goes on to step 5
	tui_keys n
	check_screen "$size: step 5 plan" "Validation plan:"
	tui_screen
	check "$size: step 5 acceptance thresholds" matches "$screen" "(≥|≤) [0-9.,]+ "
	# at 80x24 the plan and the BOM take turns (Tab); at 120x40 both show
	tui_keys Tab
	check_screen_re "$size: step 5 BOM preview" "Bill of materials: [0-9]+ lines, USD [0-9]+\\.[0-9][0-9]"
	tui_screen
	check "$size: step 5 key bar" matches "$(printf '%s\n' "$screen" | tail -n1)" "e export BOM +(P proposal +)?s save +o open"

	tui_keys PPage p
	check_screen "$size: PgUp and p go back two steps" "Ranked by"
	tui_keys 1
	check_screen "$size: 1 returns to step 1" "Input tokens"

	if [ "$size" = 120x40 ]; then
		tui_screen
		check "120x40: the panel sits right of the form" matches "$screen" "Precision .*│.*(mem|bw|link) "
		check "120x40: memory bar with absolute figures" matches "$screen" "mem +[^ ]+ +[0-9]+% [0-9.]+/[0-9.]+ GB"
		check "120x40: bandwidth bar" matches "$screen" "bw +[^ ]+ +[0-9]+% of [0-9.]+ TB/s"
	else
		tui_screen
		check "80x24: the panel folds below the form" matches "$screen" "── Fit per accelerator ──"
		check "80x24: one line per accelerator" matches "$screen" "mem +[^ ]+ +[0-9]+%.+bw .+link "
	fi
	tui_keys q
	tui_exit_status
	check "$size: q quits at once without changes" equals "$rc" "0"
done

done_testing
