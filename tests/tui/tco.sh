#!/bin/sh
# Step 4 shows the total cost of ownership `recommend` prints (issue 17
# item 2): the TCO to the cent, its horizon, and its parts; a scenario's
# costs section moves the wizard as it moves the CLI.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

SCEN="$TOP_SRCDIR/tests/fixtures/scenarios/good/inference.yaml"

whole() { tui_money "$(awk -v v="$1" 'BEGIN { printf "%.2f", int(v + 0.5) }')" | sed 's/\..*//'; }

step4() {	# step4 SCENARIO CSV: the wizard's step 4 against recommend's csv
	tui_start 120 40 --scenario "$1"
	tui_wait "Input tokens"
	tui_keys 4
	tui_wait "Parallel layout"
	years=$(csv_col "$2" tco_years)
	check_screen "step 4: the TCO is recommend's tco_usd to the cent, over $years years" \
		"TCO                    $(tui_money "$(csv_col "$2" tco_usd)")  over $years years, capex included"
	check_screen "step 4: energy + colocation" \
		"Energy + colocation   $(whole "$(csv_col "$2" tco_energy_usd)") + $(whole "$(csv_col "$2" tco_colocation_usd)")"
	check_screen "step 4: support + licences" \
		"Support + licences    $(whole "$(csv_col "$2" tco_support_usd)") + $(whole "$(csv_col "$2" tco_licence_usd)")"
	tui_quit
}

run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --format csv -o "$TMPD/rec.csv"
check "recommend: exit 0" rc 0
step4 "$SCEN" "$TMPD/rec.csv"

# a scenario with its own costs: 3 years, licences
{ cat "$SCEN"; printf 'costs:\n  years: 3\n  licence_usd_per_gpu_year: 4500\n'; } >"$TMPD/costs.yaml"
run "$ACCELSIZER" recommend --scenario "$TMPD/costs.yaml" --accelerator h100-sxm --format csv -o "$TMPD/rec3.csv"
check "recommend with costs: exit 0" rc 0
check "recommend with costs: 3 years" equals "$(csv_col "$TMPD/rec3.csv" tco_years)" 3
step4 "$TMPD/costs.yaml" "$TMPD/rec3.csv"

done_testing
