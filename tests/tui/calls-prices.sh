#!/bin/sh
# Issue 17's "Done when" with the customer's own price list: the three
# calls (examples/bank-chat.yaml, lab-pretrain.yaml, startup-lora.yaml)
# opened in the wizard with a list in EUR that carries an exchange rate, a
# discount per category, a margin, a support term, the NVIDIA AI
# Enterprise licence (a catalog line the list names) and rental rates.
# Step 3 ranks in the list's currency; the BOM step 5 exports and the
# proposal P writes (HTML and Markdown) are byte for byte what `accelsizer
# bom` and `accelsizer proposal` write with the same list; the proposal's
# total is the BOM's, its TCO is over 5 years in EUR and it answers rent
# or buy.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH
EX=$TOP_SRCDIR/examples
L=$TOP_SRCDIR/tests/fixtures/prices/good/calls-eur.csv

# export NAME: from step 1, on to step 5, e (the BOM) and P twice (HTML,
# Markdown), then quit.
export_all() {
	tui_keys n n n n
	tui_wait "Validation plan"
	tui_answer e "Export BOM to:" "$TMPD/$1-bom.csv"
	tui_wait_re "Exported [0-9]+ BOM lines"
	for f in html md; do
		tui_answer P "Write proposal to:" "$TMPD/$1.$f"
		tui_wait "Wrote the proposal to $TMPD/$1.$f"
	done
	tui_keys q
	tui_settle
	case $screen in *"Unsaved changes"*) tui_keys d ;; esac
	tui_exit_status
}

for call in bank-chat lab-pretrain startup-lora; do
	sc=$EX/$call.yaml
	run "$ACCELSIZER" recommend --scenario "$sc" --prices "$L" --format csv -o "$TMPD/$call-rec.csv"
	check "$call: recommend with the list: exit 0" rc 0
	tui_start_env 120 40 "SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH" -- --scenario "$sc" --prices "$L"
	tui_wait "Notes"
	tui_keys n n
	tui_wait "Ranked by"
	check_screen "$call: step 3 ranks in the list's currency" "Capex EUR"
	check_screen_re "$call: step 3's first is recommend's" \
		"^ ▸ +1 .*$(csv_col "$TMPD/$call-rec.csv" accelerator | cut -c1-3 | tr 'a-z' 'A-Z')"
	tui_keys p p
	tui_wait "Notes"
	export_all "$call"
	check "$call: the wizard quits cleanly" equals "$rc" 0

	run "$ACCELSIZER" bom --scenario "$sc" --prices "$L" -o "$TMPD/$call-cli-bom.csv"
	check "$call: bom with the list: exit 0" rc 0
	same --nonempty "$call: the wizard's BOM is the CLI's, byte for byte" "$TMPD/$call-bom.csv" "$TMPD/$call-cli-bom.csv"
	for f in html md; do
		run "$ACCELSIZER" proposal --scenario "$sc" --prices "$L" -o "$TMPD/$call-cli.$f"
		check "$call: proposal ($f) with the list: exit 0" rc 0
		same --nonempty "$call: the wizard's proposal ($f) is the CLI's, byte for byte" "$TMPD/$call.$f" "$TMPD/$call-cli.$f"
	done
	md=$(cat "$TMPD/$call.md")
	bom=$(cat "$TMPD/$call-bom.csv")
	total=$(tail -n 1 "$TMPD/$call-bom.csv" | awk -F, '{ print $7 }')
	check "$call: the BOM is in EUR" matches "$(head -n 1 "$TMPD/$call-bom.csv")" ',unit_price_eur,extended_price_eur,'
	check "$call: the BOM total is recommend's capex_eur" equals "$total" "$(csv_col "$TMPD/$call-rec.csv" capex_eur)"
	check "$call: the proposal's total is the BOM's" equals \
		"$(grep 'Total (EUR)' "$TMPD/$call.md" | grep -oE 'EUR [0-9][0-9,]*\.[0-9]{2}' | tr -d 'EUR ,')" "$total"
	check "$call: the list's category discount reached the BOM" matches "$bom" "less 4% \\((price list, )?its category's discount\\)"
	check "$call: the list's margin is a BOM line" matches "$bom" ',margin,MARGIN,Margin,1,'
	check "$call: the list's support term" contains "$bom" "(support term: the price list"
	check "$call: TCO over 5 years in EUR" contains "$md" "## Total cost of ownership over 5 years"
	check "$call: the TCO table in EUR" matches "$md" '^\| 5 \| EUR 0 \|'
	check "$call: rent or buy answered" matches "$md" '^\*\*The answer:\*\* buying (breaks even after [0-9]+ months|does not break even in 5 years) against on-demand rental\.'
done

# the bank's B300 at the list's own price (EUR 41,000 less the 4 % of its
# category), with NVIDIA AI Enterprise quoted for the support term
b=$(cat "$TMPD/bank-chat-bom.csv")
check "bank: the list's B300 price, less its category's 4 %" matches "$b" ',accelerator,b300,[^,]*,16,39360\.00,'
check "bank: NVIDIA AI Enterprise quoted (the list names it)" matches "$b" ',licence,NVAIE-SUB,'
check "bank: rented at the list's on-demand rate" contains "$(cat "$TMPD/bank-chat.md")" "| **on-demand (your price list)** | **EUR 5.10** |"
# the startup's run is 0.3 h: a 1-year term would bill the whole year, so
# the answer is on-demand even though the list's 1-year rate is lower
check "startup: the list's 1-year rate shown" contains "$(cat "$TMPD/startup-lora.md")" "| 1-year reserved (your price list) | EUR 1.40 |"

done_testing
