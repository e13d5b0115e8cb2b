#!/bin/sh
# `accelsizer proposal` (issue 17 item 7): well-formed self-contained HTML
# and Markdown with every section, the BOM's total to the cent, the same
# bytes twice, every user string escaped, bad output names refused with
# nothing written.
# shellcheck source=tests/lib.sh source-path=SCRIPTDIR/../..
. "$TOP_SRCDIR/tests/lib.sh"

A=$ACCELSIZER
SOURCE_DATE_EPOCH=1767225600	# 2026-01-01
export SOURCE_DATE_EPOCH
BANK="--model llama-3.1-70b --input-tokens 2000 --output-tokens 400 --concurrency 300
	--tokens-per-s-per-user 20 --ttft-ms 1000 --stack cuda --rack-kw 15"

# well_formed FILE: xmllint (libxml2-utils, installed by quickstart.sh
# test) parses the HTML as XML: every tag closed, every entity known.
well_formed() {
	if ! command -v xmllint >/dev/null 2>&1; then
		tap_not_ok "$2" "xmllint is not installed (Debian: libxml2-utils; ./quickstart.sh test installs it)"
		return
	fi
	if xmllint --noout --nonet "$1" 2>"$TMPD/xmllint.err"; then
		tap_ok "$2"
	else
		tap_not_ok "$2" "$(head -n 5 "$TMPD/xmllint.err")"
	fi
}

# bom_total CSV: the total row's extended price.
bom_total() {
	tail -n 1 "$1" | awk -F, '{ print $7 }'
}

# total_in FILE: the "$1,234.56" of the BOM's total row, as 1234.56.
total_in() {
	grep 'Total (USD)' "$1" | grep -oE '\$[0-9][0-9,]*\.[0-9]{2}' | tr -d '$,'
}

# ---- help ----
run "$A" proposal --help
check "--help exits 0" rc 0
check "--help names the formats" contains "$out" "--format html|md"
check "--help lists the workload options" contains "$out" "--model"
run "$A" --help
check "the top-level --help lists proposal" contains "$out" "accelsizer proposal"

# ---- HTML ----
# shellcheck disable=SC2086
run "$A" proposal $BANK --customer "First Bank" --opportunity "Chat" --notes "15 kW racks" \
	-o "$TMPD/bank.html"
check "bank: exit 0" rc 0
check "bank: says what it wrote" contains "$out" "bank.html: proposal for"
H=$TMPD/bank.html
well_formed "$H" "bank: the HTML is well-formed"
html=$(cat "$H")
check "bank: an HTML5 document" matches "$(head -n 1 "$H")" '^<!DOCTYPE html>$'
for id in notes workload configurations performance validation bom tco assumptions; do
	check "bank: section '$id'" contains "$html" "<section id=\"$id\""
done
check "bank: the customer" contains "$html" "First Bank"
check "bank: the notes" contains "$html" "15 kW racks"
check "bank: the workload in plain words" contains "$html" "Serve Llama 3.1 70B"
check "bank: 300 users in the words" contains "$html" "300 concurrent users"
check "bank: the recommended column and two alternatives" contains "$html" \
	'<th>Recommended</th><th>Alternative 1</th><th>Alternative 2</th>'
check "bank: an error band" matches "$html" 'error band [0-9,.]+ to [0-9,.]+ tokens/s, from [0-9]+ published'
check "bank: the binding resource and its reason" matches "$html" \
	'<strong>Binding resource:</strong> [a-z ]+\. .+'
check "bank: two inline SVG charts" equals "$(grep -c '<svg xmlns="http://www.w3.org/2000/svg"' "$H")" 2
check "bank: the trade-off curve" contains "$html" '<polyline fill="none"'
check "bank: fit bars" contains "$html" 'aria-label="fit bars"'
check "bank: acceptance thresholds" contains "$html" "≥"
check "bank: five years of TCO" contains "$html" "Total cost of ownership over 5 years"
check "bank: 15 kW racks from the input" contains "$html" "<li><strong>rack_kw</strong> 15 kW: your input</li>"
check "bank: the colocation source" contains "$html" "CBRE"
check "bank: the date" contains "$html" "2026-01-01"
check "bank: the tool's version" matches "$html" 'accelsizer [0-9]+\.[0-9]+'
check "bank: print CSS: the second page starts at the validation plan" contains "$html" \
	'<section id="validation" class="page2">'
check "bank: print CSS" contains "$html" "page-break-before: always"
check "bank: inline CSS" contains "$html" "<style>"
check "bank: no script" lacks "$html" "<script"
check "bank: nothing fetched (no src=)" lacks "$html" " src="
check "bank: nothing fetched (no link or import)" equals \
	"$(grep -cE '<link|@import|url\(|href=' "$H")" 0

# The total is the BOM's, to the cent.
# shellcheck disable=SC2086
run "$A" bom $BANK -o "$TMPD/bank.csv"
check "bank: bom exits 0" rc 0
total=$(bom_total "$TMPD/bank.csv")
check "bank: the BOM has a total" matches "$total" '^[0-9]+\.[0-9]{2}$'
check "bank: the HTML's total is the BOM's" equals "$(total_in "$H")" "$total"
check "bank: the HTML's BOM total row" contains "$html" \
	"<tr class=\"total\"><td>Total (USD)</td>"
check "bank: the stdout line gives the same total" contains "$out" "$total USD"
# The server and its five parts, the front-end and OOB networks' 4 lines,
# the rack, the PDUs and the burn-in have no price (no source gives one):
# the summary marks them and says the total leaves the 13 lines out.
check "bank: the BOM summary marks the unpriced row" contains "$html" \
	"<tr><th>network and cables</th><td class=\"num\">5*</td>"
check "bank: the total row is marked" matches "$html" '<tr class="total"><td>Total \(USD\)</td><td class="num">[0-9]+\*</td>'
check "bank: and says what the mark means" contains "$html" "*13 lines unpriced (price list), not in the total."
printf 'sku,unit_price_usd\nMSN4600C,1000\nMFA1A00-C0xx,100\nMSN2201,500\nCAT6A-RUN,5\nRACK,1000\nPDU,100\nBURN-IN,1000\n%s\n%s\n%s\n%s\n%s\n%s\n' \
	'"HGX B300 8-GPU, 10U (e.g. NVIDIA DGX B300)",50000' 'Intel Xeon 6776P,5000' 'DDR5-6400 RDIMM 128GB,800' \
	'NVMe M.2 1.92TB,300' 'NVMe U.2 3.84TB,600' 'NVIDIA BlueField-3 B3220 DPU,3000' >"$TMPD/net.csv"
# shellcheck disable=SC2086
# B300 as above: with its parts priced and another candidate's left
# unpriced (left out of the ranking's capex), that other one would rank first
run "$A" proposal $BANK --accelerator b300 --prices "$TMPD/net.csv" -o "$TMPD/bank-priced.html"
check "bank with the parts priced: exit 0" rc 0
check "bank with the parts priced: no mark" lacks "$(cat "$TMPD/bank-priced.html")" "unpriced"
check "bank with the parts priced: no warning" lacks "$err" "unpriced"
# shellcheck disable=SC2086
run "$A" proposal $BANK -o "$TMPD/bank-again.html"
check "bank: the proposal command warns on stderr" contains "$err" "excludes 13 unpriced BOM lines"

# ---- Markdown ----
# shellcheck disable=SC2086
run "$A" proposal $BANK --customer "First Bank" -o "$TMPD/bank.md"
check "bank md: exit 0" rc 0
M=$TMPD/bank.md
md=$(cat "$M")
check "bank md: a title" equals "$(head -n 1 "$M")" "# Sizing proposal"
for t in "The workload" "Recommended configuration and alternatives" "Predicted performance" \
	"Validation plan" "Bill of materials" "Total cost of ownership over 5 years" \
	"Assumptions and their sources"; do
	check "bank md: section '$t'" contains "$md" "
## $t
"
done
check "bank md: no HTML in it" lacks "$md" "<"
check "bank md: tables" contains "$md" "| --- |"
check "bank md: the BOM's total" contains "$md" "**Total (USD)**"
check "bank md: the total is the BOM's" equals "$(total_in "$M")" "$total"
check "bank md: the trade-off as a table" contains "$md" "| Batch | Tokens/s per user | Tokens/s per GPU | Meets your targets |"
# the curve is engine_tradeoff_curve()'s, as sweep --curve prints it
acc=$(grep '^| Accelerator' "$M" | sed 's/^| Accelerator | \([^|]*\) |.*/\1/')
id=$("$A" catalog list | awk -v n="$acc" 'index($0, n) { print $1; exit }')
# shellcheck disable=SC2086
run "$A" sweep $BANK --curve --accelerator "$id" -o "$TMPD/curve.csv"
check "bank: sweep --curve for the recommended ($id)" rc 0
md_curve=$(sed -n '/^| Batch |/,/^$/p' "$M" | awk -F' [|] ' 'NR > 2 && NF > 2 { sub(/^[|] /, "", $1); sub(/ [|]$/, "", $4); print $1, $4 }')
sw_curve=$(i=1; n=$(($(wc -l <"$TMPD/curve.csv") - 1)); while [ $i -le $n ]; do
	m=$(csv_col "$TMPD/curve.csv" meets_targets $i)
	echo "$(csv_col "$TMPD/curve.csv" batch $i) $([ "$m" = true ] && echo yes || echo no)"
	i=$((i + 1)); done)
check "bank: the proposal's curve is sweep --curve's (batch, targets met)" equals "$md_curve" "$sw_curve"

# ---- reproducible ----
# shellcheck disable=SC2086
run "$A" proposal $BANK --customer "First Bank" --opportunity "Chat" --notes "15 kW racks" \
	-o "$TMPD/again.html"
if cmp -s "$H" "$TMPD/again.html"; then
	tap_ok "the same inputs give the same bytes"
else
	tap_not_ok "the same inputs give the same bytes" "$(diff "$H" "$TMPD/again.html" | head -n 5)"
fi
# shellcheck disable=SC2086
SOURCE_DATE_EPOCH=1798761600 run "$A" proposal $BANK -o "$TMPD/later.md"
check "SOURCE_DATE_EPOCH sets the date" contains "$(cat "$TMPD/later.md")" "2027-01-01"
# shellcheck disable=SC2086
run "$A" proposal $BANK --format md -o -
check "-o - --format md: standard output" contains "$out" "# Sizing proposal"
check "-o - is the file's bytes" equals "$out" "$(cat "$TMPD/later.md" | sed 's/2027-01-01/2026-01-01/g')"

# ---- escaping ----
evil='<script>alert(1)</script> & "q" '\''s =HYPERLINK("x")'
run "$A" proposal --model llama-3.1-8b --customer "$evil" --opportunity "# not a heading" \
	--notes "$(printf 'line 1\n- not a list | pipe \033]0;title\007')" -o "$TMPD/evil.html"
check "evil: exit 0" rc 0
well_formed "$TMPD/evil.html" "evil: still well-formed"
e=$(cat "$TMPD/evil.html")
check "evil: no script tag" lacks "$e" "<script"
check "evil: the text escaped" contains "$e" "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;s"
check "evil: the terminal escape made inert" lacks "$e" "$(printf '\033')"
check "evil: the note's lines kept" contains "$e" "line 1<br/>- not a list"
run "$A" proposal --model llama-3.1-8b --customer "$evil" --opportunity "# not a heading" \
	--notes "$(printf 'line 1\n- not a list | pipe')" -o "$TMPD/evil.md"
m=$(cat "$TMPD/evil.md")
check "evil md: tags escaped" contains "$m" '\<script\>alert(1)\</script\>'
check "evil md: a pipe cannot break a table" contains "$m" '\| pipe'
check "evil md: a list marker stays text" contains "$m" '\- not a list'
check "evil md: a heading marker stays text" contains "$m" '\# not a heading'

# ---- scenarios: the texts come from the file, the flags win ----
sc=$TOP_SRCDIR/tests/fixtures/scenarios/good/inference.yaml
run "$A" proposal --scenario "$sc" -o "$TMPD/sc.html"
check "scenario: exit 0" rc 0
s=$(cat "$TMPD/sc.html")
check "scenario: its customer" contains "$s" "Müller &amp; Söhne GmbH"
check "scenario: its notes, formula and all" contains "$s" "=SUM(A1:A2) must stay text."
check "scenario: the chosen accelerator is recommended" contains "$s" "On the recommended"
check "scenario: H100 chosen" contains "$s" "H100 SXM"
run "$A" proposal --scenario "$sc" --customer "Other" -o "$TMPD/sc2.md"
check "--customer over the scenario's" contains "$(cat "$TMPD/sc2.md")" "**Customer**: Other"

run "$A" proposal --model llama-3.1-8b --accelerator mi300x --stack cuda -o "$TMPD/filtered.md"
check "a chosen accelerator outside the filters: written" rc 0
check "a chosen accelerator outside the filters: said so" contains "$(cat "$TMPD/filtered.md")" \
	"The chosen AMD Instinct MI300X is outside the filters:"
printf 'schema: 1\nworkloads:\n  - name: chat\n    model: llama-3.1-8b\n  - name: big\n    model: llama-3.1-70b\n' \
	>"$TMPD/multi.yaml"
# several workloads (issue 18): each workload, the cluster that holds them,
# its BOM (the bom command's total) and each plan with the cluster's
run "$A" proposal --scenario "$TMPD/multi.yaml" -o "$TMPD/multi.html"
check "several workloads: written" rc 0
W=$TOP_SRCDIR/tests/fixtures/scenarios/workloads
run "$A" proposal --scenario "$W/three.yaml" --accelerator h100-sxm -o "$TMPD/three.md"
check "three workloads: written" rc 0
md=$(cat "$TMPD/three.md")
check "three workloads: the workloads section" contains "$md" "## The workloads, on one cluster"
check "three workloads: each by name" contains "$md" "**weekly-lora**: A LoRA fine-tune"
check "three workloads: the fine-tune's hours" contains "$md" "It runs 8 hours a week."
check "three workloads: each one's share of the cluster" matches "$md" "^\\| chat \\| 2 GPUs: 2 replicas of TP1 \\|"
check "three workloads: how they share it" contains "$md" "How they share the recommended cluster: training time-shares"
check "three workloads: the cluster's plan" contains "$md" "**The shared cluster, every workload at once**"
check "three workloads: a plan per workload" contains "$md" "**small**"
run "$A" bom --scenario "$W/three.yaml" --accelerator h100-sxm -o "$TMPD/three-bom.csv"
total=$(grep ',total,' "$TMPD/three-bom.csv" | cut -d, -f7)
check "three workloads: the BOM total is the bom command's" contains "$md" "$(printf '%s' "$total" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\([.,]\)/\1,\2\3/;ta')"
run "$A" proposal --scenario "$W/three.yaml" --model llama-2-7b -o "$TMPD/x.md"
check "three workloads, --model: exit 2" rc 2
check "three workloads, --model: nothing written" equals "$(ls "$TMPD/x.md" 2>/dev/null)" ""
# a list of one is that workload: the same proposal as by flags
run "$A" proposal --scenario "$W/one.yaml" --accelerator h100-sxm --format md -o -
one=$out
run "$A" proposal --model llama-3.1-70b --precision fp8 --input-tokens 2048 --output-tokens 512 \
	--concurrency 128 --tokens-per-s-per-user 25 --ttft-ms 800 --stack cuda --accelerator h100-sxm --format md -o -
check "a list of one: the proposal by flags" equals "$one" "$out"

# ---- bad output names: exit 2, nothing written ----
run "$A" proposal --model llama-3.1-8b
check "no -o: exit 2" rc 2
check "no -o: says so" contains "$err" "missing -o"
run "$A" proposal --model llama-3.1-8b -o "$TMPD/p.txt"
check ".txt: exit 2" rc 2
check ".txt: says how to name it" contains "$err" "name the file .html or .md"
check ".txt: nothing written" equals "$(ls "$TMPD/p.txt" 2>/dev/null)" ""
run "$A" proposal --model llama-3.1-8b -o -
check "-o - without --format: exit 2" rc 2
run "$A" proposal --model llama-3.1-8b --format pdf -o "$TMPD/p.html"
check "--format pdf: exit 2" rc 2
check "--format pdf: names the choices" contains "$err" "'pdf' is not a proposal format (html or md)"
run "$A" proposal --model llama-3.1-8b -o "$TMPD/no/such/dir/p.html"
check "a folder that does not exist: exit 2" rc 2
check "a folder that does not exist: names the file" contains "$err" "cannot write '$TMPD/no/such/dir/p.html'"
run "$A" proposal --model llama-3.1-8b -o "$TMPD"
check "a folder as the file: exit 2" rc 2
run "$A" proposal --model llama-3.1-8b --scenario "$sc" -o "$sc"
check "over the scenario: exit 2" rc 2
printf 'old\n' >"$TMPD/keep.html"
run "$A" proposal --model llama-3.1-70b --accelerator l4 --gpus 1 -o "$TMPD/keep.html"
check "a workload that cannot be met: exit 1" rc 1
check "a workload that cannot be met: says why" contains "$err" "cannot meet this workload"
check "a workload that cannot be met: the old file is intact" equals "$(cat "$TMPD/keep.html")" "old"
run "$A" proposal --model llama-3.1-8b -o /dev/full --format html
check "/dev/full: exit 2" rc 2
check "/dev/full: says so" contains "$err" "/dev/full"
check "no temporary file left" equals "$(ls -a "$TMPD" | grep -c '\.tmp')" 0


# ---- rent or buy (issue 17 item 7): the section after the TCO, the
# side-by-side row, and the figures recommend --format yaml prints ----
# yaml_of KEY: the first KEY: value of $out (the recommended result's).
yaml_of() {
	printf '%s\n' "$out" | sed -n "s/^  $1: //p" | head -n 1
}
# shellcheck disable=SC2086
run "$A" recommend $BANK --accelerator h100-sxm --format yaml
rent=$(printf '%.0f' "$(yaml_of rent_usd)")
be=$(yaml_of breakeven_months)
rent_g=$(printf '%s' "$rent" | sed ':a;s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta')
check "recommend prices renting the h100-sxm" matches "$rent" '^[0-9]+$'
for fmt in md html; do
	# shellcheck disable=SC2086
	run "$A" proposal $BANK --accelerator h100-sxm --format $fmt -o -
	check "rent, $fmt: exit 0" rc 0
	rs=$(printf '%s\n' "$out" | sed -n '/Rent or buy/,$p')
	check "rent, $fmt: a Rent or buy section" contains "$out" "Rent or buy"
	check "rent, $fmt: the year's rent recommend prints" contains "$rs" "\$$rent_g"
	check "rent, $fmt: the break-even month recommend prints" contains "$rs" \
		"buying breaks even after $be months against on-demand rental"
	check "rent, $fmt: terms without a rate say so" contains "$rs" "no published rate"
	check "rent, $fmt: a row in the side-by-side table" contains "$out" \
		"\$$rent_g a year (on-demand); buying breaks even after $be months"
done
# a GPU with no price (H100 PCIe): renting is priced, buying has no figure
# to break even against, and the proposal says so instead of a month
# shellcheck disable=SC2086
run "$A" proposal $BANK --accelerator h100-pcie --format md -o -
check "rent, h100-pcie: no breakeven, the GPU has no price" contains "$out" \
	"no breakeven: the GPU has no price (a price list's h100-pcie)"
check "rent, h100-pcie: no month in the rent table" lacks "$(printf '%s\n' "$out" | sed -n '/Rent or buy/,/The answer/p')" "after "
run "$A" proposal --scenario "$TOP_SRCDIR/examples/bank-chat.yaml" --accelerator b200 --format md -o -
check "rent, b200: says plainly there is no rental price" contains "$out" \
	"No rental price for the NVIDIA B200"
check "rent, b200: names the price-list line that gives one" contains "$out" "RENT-ON-DEMAND:b200"

# ---- currency: a EUR price list's figures everywhere money is printed ----
EUR=$TOP_SRCDIR/tests/fixtures/prices/good/quote-eur.csv
run "$A" proposal --model llama-3.1-8b --accelerator h100-sxm --prices "$EUR" -o "$TMPD/eur.md"
check "EUR: exit 0" rc 0
check "EUR: the line it prints says EUR" matches "$out" 'BOM total [0-9.]+ EUR$'
check "EUR: the line it prints does not say USD" lacks "$out" "USD"
md=$(cat "$TMPD/eur.md")
check "EUR: the BOM total in EUR" contains "$md" "**Total (EUR)**"
check "EUR: the rent from the price list, in EUR" contains "$md" \
	"| **1-year reserved (your price list)** | **EUR 1.95** |"
# (the catalog's sources quote their dollars; the figures are EUR)
check "EUR: no dollar sign on a figure" equals "$(printf '%s\n' "$md" | grep -v 'catalog defaults' |
	grep -c '\$[0-9]')" 0
check "EUR: the colocation rate in EUR" contains "$md" "| colocation_eur_per_kw_month | 169.335 EUR/kW/month |"
check "EUR: no rate in USD" lacks "$md" "USD/"
check "EUR: not 'to the dollar'" lacks "$md" "to the dollar"
run "$A" bom --model llama-3.1-8b --accelerator h100-sxm --prices "$EUR" -o "$TMPD/eur.csv"
check "EUR bom: exit 0" rc 0
check "EUR bom: the line it prints says EUR" contains "$out" " EUR, "
check "EUR bom: the line it prints does not say USD" lacks "$out" "USD"

done_testing
