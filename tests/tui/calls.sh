#!/bin/sh
# Issue 12's three customer calls, played in the wizard as a new user would
# (typing each figure on step 1), and for each: step 3's and step 4's
# figures, `recommend --format csv`, the exported BOM and the saved
# scenario reloaded by the CLI agree to the cent and to the GPU; and
# issue 17's "Done when": the proposal P writes (HTML and Markdown) is the
# one `accelsizer proposal` writes for the saved scenario, byte for byte.
#
#   1. a bank's chat assistant: Llama 3.1 70B, 2,000-token prompts,
#      400-token answers, 300 users at 20 tok/s each, first token within
#      1 s, NVIDIA only, 15 kW per rack, typed as step 4's Rack power
#      (the scenario's node.rack_kw, --rack-kw on the command line).
#   2. a lab pretraining an 8B model on 1T tokens in 14 days for about $3M:
#      the budget judges the whole quote, support and services included.
#   3. a startup's LoRA fine-tune of Mixtral 8x7B on 50M tokens (one epoch)
#      in 8 hours on AMD.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"
# the proposals the wizard writes are dated, as the CLI's (issue 17)
SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH


# ---- driving step 1 ----

# to_top: the cursor on the first field (Class).
to_top() {
	tui_keys Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up
	tui_settle
}

# set_num LABEL VALUE: finds the number field by typing a digit on each
# field in turn (on a number field a digit opens its editor, whose status
# line names it), then types VALUE over it.
set_num() {
	to_top
	i=0
	while [ $i -lt 30 ]; do
		tui_type 1
		# a number field's editor names it on the status line; wait for
		# it (the machine may be slow), a second at most
		if tui_wait "Editing " 10; then
			case $screen in
			*"Editing $1:"*)
				tui_keys C-u
				tui_type "$2"
				tui_keys Enter
				tui_wait_gone "Editing $1:"
				tui_settle
				return 0 ;;
			esac
			tui_keys Escape
			tui_wait_gone "Editing "
		fi
		tui_keys Down
		tui_settle
		i=$((i + 1))
	done
	return 1
}

# set_choice LABEL VALUE: moves down to the choice (drawn "‹ value ›" under
# the cursor), then Right until it shows VALUE.
set_choice() {
	to_top
	i=0
	while [ $i -lt 30 ]; do
		printf '%s\n' "$screen" | grep -Eq "^ $1 +‹" && break
		tui_keys Down
		tui_settle
		i=$((i + 1))
	done
	j=0
	while [ $j -lt 10 ]; do
		printf '%s\n' "$screen" | grep -Eq "^ $1 +‹ $2 ›" && return 0
		tui_keys Right
		tui_settle
		j=$((j + 1))
	done
	return 1
}

# set_model ID: the pick list, searched by id.
set_model() {
	to_top
	tui_keys Down Enter
	tui_wait "Model search:"
	tui_type "$1"
	tui_settle
	tui_keys Enter
	tui_wait_gone "Model search:"
}

# step 3's first row: "GPUS CAPEX" as shown; step 4's capex to the cent.
# From step 1 with n (a digit on a number field would start an edit).
read_wizard() {
	tui_keys n n
	tui_wait "Ranked by"
	row=$(printf '%s\n' "$screen" | grep -E '^ ▸ +1 ' | head -n 1)
	w_gpus=$(printf '%s\n' "$row" | sed -E 's/^ ▸ +1 +.{0,30}[^0-9]([0-9]+) +[0-9]+ +[0-9.,]+ +\$.*/\1/')
	w_capex3=$(printf '%s\n' "$row" | grep -Eo '\$[0-9,]+' | head -n 1 | tr -d '$,')
	tui_keys n
	tui_wait "Node shape"
	w_capex4=$(printf '%s\n' "$screen" | sed -n 's/^ Capex  *\$\([0-9,.]*\) .*/\1/p' | tr -d ',')
	w_nodes=$(printf '%s\n' "$screen" | sed -n 's/^ Nodes  *\([0-9]*\) working + \([0-9]*\) spare.*/\1 \2/p')
}

# save_and_export NAME: s and e from step 5 (step 4's GPU field would take
# a digit, so n goes on).
save_and_export() {
	tui_keys n
	tui_wait "Validation plan"
	tui_answer s "Save scenario to:" "$TMPD/$1.yaml"
	tui_wait "Saved the scenario"
	tui_answer e "Export BOM to:" "$TMPD/$1-bom.csv"
	tui_wait_re "Exported [0-9]+ BOM lines"
	tui_answer P "Write proposal to:" "$TMPD/$1-proposal.html"
	tui_wait "Wrote the proposal"
	tui_answer P "Write proposal to:" "$TMPD/$1-proposal.md"
	tui_wait "Wrote the proposal to $TMPD/$1-proposal.md"
	tui_keys q
	tui_settle
	case $screen in *"Unsaved changes"*) tui_keys d ;; esac
	tui_exit_status
}

# compare NAME CLI-ARGS...: the wizard's figures against recommend with the
# call's flags, the saved scenario reloaded, and the exported BOM.
compare() {
	call=$1
	shift
	run "$ACCELSIZER" recommend "$@" --format csv -o "$TMPD/$call-flags.csv"
	check "$call: recommend with the call's flags: exit 0" rc 0
	run "$ACCELSIZER" recommend --scenario "$TMPD/$call.yaml" $cat_opt --format csv -o "$TMPD/$call-saved.csv"
	check "$call: recommend on the saved scenario: exit 0" rc 0
	cf=$TMPD/$call-flags.csv cs=$TMPD/$call-saved.csv
	check "$call: the saved scenario ranks the same first as the flags" equals \
		"$(csv_col "$cs" accelerator)" "$(csv_col "$cf" accelerator)"
	check "$call: step 3's GPUs are the CLI's" equals "$w_gpus" "$(csv_col "$cf" gpus)"
	check "$call: the saved scenario's GPUs are the CLI's" equals "$(csv_col "$cs" gpus)" "$(csv_col "$cf" gpus)"
	check "$call: step 4's nodes are the CLI's" equals "$w_nodes" "$(csv_col "$cf" nodes) $(csv_col "$cf" spare_nodes)"
	check "$call: step 4's capex is the CLI's to the cent" equals "$w_capex4" "$(csv_col "$cf" capex_usd)"
	check "$call: step 3's capex is the CLI's to the dollar" equals "$w_capex3" \
		"$(awk -v c="$(csv_col "$cf" capex_usd)" 'BEGIN { printf "%.0f", c }')"
	check "$call: the saved scenario's capex is the CLI's" equals "$(csv_col "$cs" capex_usd)" "$(csv_col "$cf" capex_usd)"
	check "$call: the exported BOM totals the capex" equals \
		"$(tail -n 1 "$TMPD/$call-bom.csv" | awk -F, '{ print $7 }')" "$(csv_col "$cf" capex_usd)"
	run "$ACCELSIZER" bom --scenario "$TMPD/$call.yaml" $cat_opt -o "$TMPD/$call-cli-bom.csv"
	same "$call: the wizard's BOM is the CLI's on the saved scenario, byte for byte" \
		"$TMPD/$call-bom.csv" "$TMPD/$call-cli-bom.csv"
	for f in html md; do
		run "$ACCELSIZER" proposal --scenario "$TMPD/$call.yaml" $cat_opt -o "$TMPD/$call-cli-proposal.$f"
		check "$call: the CLI's proposal ($f) on the saved scenario: exit 0" rc 0
		same --nonempty "$call: the wizard's proposal ($f) is the CLI's, byte for byte" \
			"$TMPD/$call-proposal.$f" "$TMPD/$call-cli-proposal.$f"
	done
	check "$call: the proposal's total is the BOM's" equals \
		"$(grep 'Total (USD)' "$TMPD/$call-proposal.md" | grep -oE '\$[0-9][0-9,]*\.[0-9]{2}' | tr -d '$,')" \
		"$(tail -n 1 "$TMPD/$call-bom.csv" | awk -F, '{ print $7 }')"
	check "$call: the proposal has TCO over 5 years" contains "$(cat "$TMPD/$call-proposal.md")" \
		"## Total cost of ownership over 5 years"
}

# ---- 1. the bank ----
cat_opt=
tui_start 120 40
tui_wait "Input tokens"
set_model llama-3.1-70b
check_screen_re "bank: model" "Model +Llama 3.1 70B"
set_num "Input tokens" 2000
set_num "Output tokens" 400
set_num "Concurrent users" 300
set_num "Speed per user" 20
set_num "Time to first token" 1000
set_choice "Software stack" cuda
tui_settle
check "bank: step 1 holds the call" matches "$screen" "Time to first token +1000 ms"
check "bank: 300 users" matches "$screen" "Concurrent users +300 sequences"
check "bank: NVIDIA only" matches "$screen" "Software stack +‹ cuda ›"
# 15 kW racks on step 4 (n: a digit would edit a field), then back
tui_keys n n n
tui_wait "Node shape"
set_num "Rack power" 15
check "bank: 15 kW racks on step 4" matches "$screen" "Rack power +15 kW"
tui_keys p p p
tui_wait "Input tokens"
read_wizard
check "bank: step 3 has a first" matches "$w_gpus" '^[0-9]+$'
save_and_export bank
compare bank --model llama-3.1-70b --input-tokens 2000 --output-tokens 400 \
	--concurrency 300 --tokens-per-s-per-user 20 --ttft-ms 1000 --stack cuda --rack-kw 15
check "bank: racks sized at 15 kW" contains "$(cat "$TMPD/bank-bom.csv")" "sized at 15 kW"
check "bank: the saved scenario keeps the 15 kW" contains "$(cat "$TMPD/bank.yaml")" "rack_kw: 15"
check "bank: the proposal says 15 kW racks" contains "$(cat "$TMPD/bank-proposal.md")" "racks of at most 15 kW"

# ---- 2. the lab ----
cat_opt=
tui_start 120 40
tui_wait "Input tokens"
set_choice "Class" pretrain
set_model llama-3.1-8b
set_num "Training tokens" 1T
set_num "Target time" 14
set_num "Budget" 3000000
tui_settle
check "lab: step 1 holds the call" matches "$screen" "Target time +14 days"
read_wizard
save_and_export lab
compare lab --workload pretrain --model llama-3.1-8b --tokens 1T --days 14 --budget-usd 3000000
check "lab: the first-ranked's quote is within \$3M" equals \
	"$(awk -v t="$(csv_col "$TMPD/lab-flags.csv" capex_usd)" 'BEGIN { print (t <= 3000000) ? "yes" : "no" }')" "yes"

# ---- 3. the startup ----
tui_start 120 40
tui_wait "Input tokens"
set_choice "Class" finetune
set_model mixtral-8x7b
set_choice "Method" lora
set_num "Dataset tokens" 50M
set_num "Epochs" 1
set_num "Target time" 8
set_choice "Software stack" rocm
tui_settle
check "startup: step 1 holds the call" matches "$screen" "Target time +8 hours"
read_wizard
save_and_export startup
compare startup --workload finetune --model mixtral-8x7b --method lora --tokens 50M --epochs 1 \
	--hours 8 --stack rocm

done_testing
