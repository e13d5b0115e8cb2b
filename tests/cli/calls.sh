#!/bin/sh
# Issue 17's "Done when", from the CLI: the three calls, each an example
# scenario in examples/, end in a proposal (HTML and Markdown) and a BOM a
# customer could sign off: well-formed, every section, the proposal's
# total the BOM's to the cent, TCO over 5 years, and each call's own
# constraint visible in both (the bank's 15 kW racks, the lab's $3M, the
# startup's AMD).  The wizard's side is tests/tui/calls.sh.
# shellcheck source=tests/lib.sh source-path=SCRIPTDIR/../..
. "$TOP_SRCDIR/tests/lib.sh"

A=$ACCELSIZER
EX=$TOP_SRCDIR/examples
SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH

# one NAME: proposal (html, md) and BOM for examples/NAME.yaml, checked.
one() {
	call=$1
	sc=$EX/$call.yaml
	run "$A" proposal --scenario "$sc" -o "$TMPD/$call.html"
	check "$call: proposal.html exit 0" rc 0
	run "$A" proposal --scenario "$sc" -o "$TMPD/$call.md"
	check "$call: proposal.md exit 0" rc 0
	run "$A" bom --scenario "$sc" --header -o "$TMPD/$call-bom.csv" --summary "$TMPD/$call.txt"
	check "$call: bom exit 0" rc 0
	if command -v xmllint >/dev/null 2>&1 && xmllint --noout --nonet "$TMPD/$call.html" 2>"$TMPD/x.err"; then
		tap_ok "$call: the HTML is well-formed"
	else
		tap_not_ok "$call: the HTML is well-formed" "$(head -n 3 "$TMPD/x.err" 2>/dev/null)"
	fi
	html=$(cat "$TMPD/$call.html")
	md=$(cat "$TMPD/$call.md")
	for id in notes workload configurations performance validation bom tco assumptions; do
		check "$call: section $id" contains "$html" "<section id=\"$id\""
	done
	total=$(tail -n 1 "$TMPD/$call-bom.csv" | awk -F, '{ print $7 }')
	check "$call: the BOM has a total" matches "$total" '^[0-9]+\.[0-9]{2}$'
	for f in html md; do
		got=$(grep 'Total (USD)' "$TMPD/$call.$f" | grep -oE '\$[0-9][0-9,]*\.[0-9]{2}' | tr -d '$,')
		check "$call: the $f proposal's total is the BOM's" equals "$got" "$total"
	done
	check "$call: TCO over 5 years (html)" contains "$html" "Total cost of ownership over 5 years"
	check "$call: TCO over 5 years (md)" contains "$md" "## Total cost of ownership over 5 years"
	check "$call: year 5 in the TCO" contains "$md" "| 5 | \$0 |"
	check "$call: the validation plan has thresholds" matches "$md" '\| [≥≤] [0-9]'
	check "$call: the customer" contains "$md" "Example"
	check "$call: the BOM's header names the customer" matches "$(head -n 1 "$TMPD/$call-bom.csv")" '^customer,Example'
	check "$call: the BOM's header names the scenario" equals "$(sed -n 3p "$TMPD/$call-bom.csv")" "scenario,$sc"
	check "$call: the summary's TCO is five years" contains "$(cat "$TMPD/$call.txt")" "over 5 years"
	check "$call: the proposal's rent-or-buy section" contains "$html" '<section id="rent"'
	check "$call: the summary says rent or buy" contains "$(cat "$TMPD/$call.txt")" "Rent or buy ("
}

# ---- 1. the bank: 300-user chat on NVIDIA, 15 kW racks ----
one bank-chat
check "bank: the words say 300 users" contains "$md" "300 concurrent users"
check "bank: NVIDIA only" contains "$md" "only accelerators on the cuda software stack"
check "bank: racks of 15 kW" contains "$md" "racks of at most 15 kW"
check "bank: the BOM's racks sized at 15 kW" contains "$(cat "$TMPD/bank-chat-bom.csv")" "sized at 15 kW"
check "bank: the recommended is NVIDIA" matches "$(grep '^| Accelerator' "$TMPD/bank-chat.md")" '^\| Accelerator \| NVIDIA'
check "bank: 15 kW is the input" contains "$md" "| rack_kw | 15 kW | your input |"
check "bank: the trade-off curve" contains "$html" "<polyline"
# no first-hand rental rate for the B300 (docs/design.md, "Rent or buy"):
# the answer names the price-list line that gives one, nothing estimated
check "bank: rent or buy names the SKU a price list fills" contains "$md" \
	"No rental price for the NVIDIA B300 288GB (a price-list line RENT-ON-DEMAND:b300 gives one)."

# ---- 2. the lab: 8B pretraining in 14 days for about $3M ----
one lab-pretrain
check "lab: pretraining in 14 days" matches "$md" "^Pretrain Llama 3.1 8B .* on 1T tokens in 14 days"
check "lab: the budget" contains "$md" "a budget of \$3,000,000 for the quote"
check "lab: the quote within \$3M" equals "$(awk -v t="$total" 'BEGIN { print (t <= 3000000) ? "yes" : "no" }')" "yes"
check "lab: rent or buy answered (the catalog's on-demand MI300X rate)" matches "$md" \
	'^\*\*The answer:\*\* buying (breaks even after [0-9]+ months|does not break even in 5 years) against on-demand rental'
check "lab: trains within 14 days" matches "$(grep '^| Time to train' "$TMPD/lab-pretrain.md")" '^\| Time to train \| 1[0-4](\.[0-9])? days'

# ---- 3. the startup: Mixtral LoRA in 8 hours on AMD ----
one startup-lora
check "startup: LoRA of Mixtral in 8 hours" contains "$md" "A LoRA fine-tune (adapter rank 16) of Mixtral 8x7B"
check "startup: 8 hours" contains "$md" "in 8 hours"
check "startup: AMD only" contains "$md" "only accelerators on the rocm software stack"
check "startup: rent or buy answered" matches "$md" \
	'^\*\*The answer:\*\* buying (breaks even after [0-9]+ months|does not break even in 5 years) against on-demand rental'
check "startup: the recommended is AMD" matches "$(grep '^| Accelerator' "$TMPD/startup-lora.md")" '^\| Accelerator \| AMD'

done_testing
