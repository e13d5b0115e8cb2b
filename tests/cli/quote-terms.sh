#!/bin/sh
# The quote's terms in a price list and rent or buy (issue 17 items 1 and
# 3): a currency with its rate (every money column says it), a discount per
# line or category, a margin as a BOM line of its own, a support term of 3
# or 5 years, licences as catalog lines, and what renting the same GPUs
# costs with the month buying breaks even.  Figures are computed here from
# the catalog's and the list's numbers, not read back from the program.
. "$TOP_SRCDIR/tests/lib.sh"

FIX=$TOP_SRCDIR/tests/fixtures
SCEN=$FIX/scenarios/good/inference.yaml
EUR=$FIX/prices/good/quote-eur.csv
mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1

bom_col() {	# bom_col FILE SKU COLUMN: a BOM line's cell, by its header's name
	r=1
	while :; do
		k=$(csv_col "$1" sku "$r")
		[ -z "$k" ] && [ "$(csv_col "$1" category "$r")" = "" ] && return
		[ "$k" = "$2" ] && { csv_col "$1" "$3" "$r"; return; }
		r=$((r + 1))
	done
}

# ---- a EUR list: rate 0.92, 12 % margin, 5 years, 10 % off the network,
# 8 % off the catalog's H100, NVIDIA AI Enterprise at 20 % off ----
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --format csv -o e.csv
check "EUR list: exit 0" rc 0
head -1 e.csv >head.txt
check "the money columns say the currency" contains "$(cat head.txt)" '"capex_eur","capex_hardware_eur"'
check "no column says USD" lacks "$(cat head.txt)" "_usd"
check "cost per million tokens in EUR" contains "$(cat head.txt)" '"eur_per_mtok"'
run "$ACCELSIZER" bom --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" -o b.csv --summary s.txt
check "EUR bom: exit 0" rc 0
check "bom: its money columns say EUR" matches "$(head -1 b.csv)" '^line,category,sku,description,qty,unit_price_eur,extended_price_eur,'
total=$(bom_col b.csv "" extended_price_eur)
check "bom total is recommend's capex_eur" equals "$total" "$(csv_col e.csv capex_eur)"
check "bom: stdout names the currency" contains "$out" "EUR,"
# the H100: catalog USD 30,000 x 0.92 less its own 8 %
check "a line discounting the catalog's price" equals "$(bom_col b.csv h100-sxm unit_price_eur)" "$(calc "30000 * 0.92 * 0.92")"
# a network part without a discount of its own takes its category's 10 %
# (no source prices the NIC, so the list names it, in EUR)
{ cat "$EUR"; printf '"NVIDIA ConnectX-7 2x200G QSFP112",1840,EUR,,,\n'; } >eur-nic.csv
run "$ACCELSIZER" bom --scenario "$SCEN" --accelerator h100-sxm --prices eur-nic.csv -o bn.csv
check "EUR bom with the NIC: exit 0" rc 0
check "the catalog gives the NIC no price: unpriced without the line" equals \
	"$(bom_col b.csv "NVIDIA ConnectX-7 2x200G QSFP112" unit_price_eur)" ""
check "a category's discount" equals "$(bom_col bn.csv "NVIDIA ConnectX-7 2x200G QSFP112" unit_price_eur)" \
	"$(calc "1840 * 0.9")"
# licences: USD 4,500 per GPU-year x 0.92 less 20 %, for the 5-year term
check "the licence is a BOM line in its category" equals "$(bom_col b.csv NVAIE-SUB category)" "licence"
check "licence: per GPU for the support term" equals "$(bom_col b.csv NVAIE-SUB unit_price_eur)" "$(calc "4500 * 0.92 * 0.8 * 5")"
check "licence: one per installed GPU" equals "$(bom_col b.csv NVAIE-SUB qty)" "$(csv_col e.csv gpus_installed)"
check "support for the list's 5 years" contains "$(bom_col b.csv SUPPORT description)" "5 years"
# the margin: 12 % of the selling price on everything above it
cost=$(calc "$total - $(bom_col b.csv MARGIN extended_price_eur)")
near "the margin is its own line: 12 % of the selling price" "$(bom_col b.csv MARGIN extended_price_eur)" "$(calc "$cost * 12 / 88")"
near "capex_margin_eur is that line" "$(csv_col e.csv capex_margin_eur)" "$(bom_col b.csv MARGIN extended_price_eur)"
check "summary: TCO in EUR" contains "$(cat s.txt)" "Total cost of ownership over 5 years (EUR"
check "summary: energy at the converted rate" contains "$(cat s.txt)" "EUR/kWh"
check "summary: support term from the list" contains "$(cat s.txt)" "support_years                5 years  (the price list)"
check "no support renewal within a 5-year term" equals "$(csv_col e.csv tco_support_eur)" "0.00"

# the budget (USD) is compared at the list's rate and said in its currency
run "$ACCELSIZER" recommend --scenario "$SCEN" --prices "$EUR" --budget-usd 1000000 --format csv -o bu.csv
check "a EUR budget filter names both currencies" contains "$(cat bu.csv)" "over the EUR 920000 budget (USD 1000000)"

# ---- rent or buy: the list's 1-year rate (EUR 1.95) is the cheapest ----
gpus=$(csv_col e.csv gpus)
check "rent basis: the cheapest rate priced" equals "$(csv_col e.csv rent_basis)" "reserved-1y"
near "rent_eur: the working GPUs for a year" "$(csv_col e.csv rent_eur)" "$(calc "$gpus * 1.95 * 8766")"
check "summary: each term with its price" contains "$(cat s.txt)" "1-year reserved  1.95 per GPU-hour (price list)"
check "summary: the catalog's on-demand converted" contains "$(cat s.txt)" "on-demand        2.4748 per GPU-hour (catalog)"
check "summary: no 3-year figure, the SKU that gives one" contains "$(cat s.txt)" \
	"3-year reserved  no published rate in the catalog; a price list line RENT-3Y:h100-sxm gives one"

# ---- the month buying breaks even, by hand: capex, then a twelfth of a
# year's running costs a month (support renewed after 3 years) ----
run "$ACCELSIZER" recommend --accelerator h100-sxm --gpus 8 --spare-nodes 0 --format csv -o p.csv
check "h100-sxm: exit 0" rc 0
check "h100-sxm: the catalog's on-demand rate" equals "$(csv_col p.csv rent_basis)" "on-demand"
g=$(csv_col p.csv gpus)
near "rent_usd: GPUs x USD 2.69 x 8,766 h" "$(csv_col p.csv rent_usd)" "$(calc "$g * 2.69 * 8766")"
be=$(awk -v capex="$(csv_col p.csv capex_usd)" -v e="$(csv_col p.csv tco_energy_usd)" \
	-v c="$(csv_col p.csv tco_colocation_usd)" -v s="$(csv_col p.csv tco_support_usd)" -v g="$g" 'BEGIN {
	run = (e + c) / 5 / 12; renew = s / 2 / 12; rent = g * 2.69 * 8766 / 12; buy = capex
	for (m = 1; m <= 60; m++) {
		buy += run + (m > 36 ? renew : 0)
		if (buy <= rent * m) { print m; exit }
	}
	print "none"
}')
check "breakeven month worked out here" matches "$be" '^[0-9]+$'
check "breakeven_months is that month" equals "$(csv_col p.csv breakeven_months)" "$be"
run "$ACCELSIZER" recommend --accelerator h100-sxm --gpus 8 --spare-nodes 0 --format yaml
check "yaml: the sentence" contains "$out" "rent_or_buy: buying breaks even after $be months against on-demand rental"

# the price list's rate wins; too cheap a rental never breaks even
printf 'sku,unit_price_usd\nRENT-ON-DEMAND:h100-sxm,0.50\n' >cheap.csv
run "$ACCELSIZER" recommend --accelerator h100-sxm --gpus 8 --spare-nodes 0 --prices cheap.csv --format csv -o c.csv
near "the list's rental rate" "$(csv_col c.csv rent_usd)" "$(calc "$g * 0.5 * 8766")"
check "never within the TCO's years: empty" equals "$(csv_col c.csv breakeven_months)" ""
run "$ACCELSIZER" recommend --accelerator h100-sxm --gpus 8 --spare-nodes 0 --prices cheap.csv --format yaml
check "yaml: does not break even" contains "$out" "buying does not break even in 5 years against on-demand rental"
# a GPU no source prices (H100 PCIe): renting has a figure, buying none,
# so no month is made up
run "$ACCELSIZER" recommend --accelerator h100-pcie --format csv -o u.csv
check "no GPU price: price_state unknown" equals "$(csv_col u.csv price_state)" "unknown"
check "no GPU price: the rent is still priced" matches "$(csv_col u.csv rent_usd)" '^[0-9]+\.[0-9]{2}$'
check "no GPU price: no breakeven month" equals "$(csv_col u.csv breakeven_months)" ""
check "no GPU price: no capex, TCO or cost figure" equals \
	"$(csv_col u.csv capex_usd)|$(csv_col u.csv tco_usd)|$(csv_col u.csv usd_per_mtok)" "||"
run "$ACCELSIZER" recommend --accelerator h100-pcie --format yaml
check "yaml: says why there is no breakeven" contains "$out" \
	"rent_or_buy: 'no breakeven: the GPU has no price (a price list''s h100-pcie)'"
# a rental line for an accelerator the catalog does not have is a typo
printf 'sku,unit_price_usd\nRENT-1Y:h100sxm,2\n' >typo.csv
run "$ACCELSIZER" bom --accelerator h100-pcie --prices typo.csv -o typo-bom.csv
check "a RENT line for no accelerator: warned at its line" contains "$err" \
	"warning: typo.csv:2:1: sku 'RENT-1Y:h100sxm' names no accelerator of the catalog"
# no rental figure for the accelerator (no first-hand source for the B200): nothing is made up
run "$ACCELSIZER" recommend --accelerator b200 --format csv -o m.csv
check "no rental price: rent empty" equals "$(csv_col m.csv rent_usd)" ""
check "no rental price: no basis" equals "$(csv_col m.csv rent_basis)" ""
# the catalog's first-hand on-demand rates (provider pages, read 2026-12-01):
# 8 working MI300X at DigitalOcean's $1.99, 4 A100 SXM at Barrack AI's $1.59,
# a year of serving
run "$ACCELSIZER" recommend --accelerator mi300x --gpus 8 --format csv -o m8.csv
check "MI300X: on-demand basis" equals "$(csv_col m8.csv rent_basis)" "on-demand"
near "MI300X: 8 x 1.99 a GPU-hour, a year" "$(csv_col m8.csv rent_usd)" "$(calc "8 * 1.99 * 8766")"
for pair in a100-sxm-80gb:1.59 a100-pcie-80gb:1.55 l40s:1.57; do
	id=${pair%%:*} rate=${pair#*:}
	run "$ACCELSIZER" catalog show "$id"
	check "$id: rent_on_demand $rate, with its date" matches "$out" "rent_on_demand +USD $rate per GPU-hour as of 2026-12-01"
done

# training rents the GPUs for the run
run "$ACCELSIZER" recommend --workload pretrain --model llama-3.1-8b --tokens 100B --accelerator h100-sxm \
	--format csv -o t.csv
check "pretrain: exit 0" rc 0
# train_hours is written to 0.01 h: the rent is exact within GPUs x rate x 0.005 h
check "training: rent is the run" equals "$(awk -v a="$(csv_col t.csv rent_usd)" -v g="$(csv_col t.csv gpus)" \
	-v h="$(csv_col t.csv train_hours)" 'BEGIN { d = a - g * 2.69 * h; t = g * 2.69 * 0.005 + 0.01;
	print (d <= t && d >= -t) ? "the run" : a " vs " g * 2.69 * h }')" "the run"

# ---- the support term by flag ----
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --support-years 5 --format csv -o y5.csv
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --format csv -o y3.csv
hw=$(awk "BEGIN { printf \"%.2f\", $(csv_col y3.csv capex_hardware_usd) + $(csv_col y3.csv capex_fabric_usd) + $(csv_col y3.csv capex_racks_usd) }")
near "--support-years 5: five years of 10 %" "$(csv_col y5.csv capex_support_usd)" "$(calc "$hw * 0.5")"
check "--support-years 5: nothing renewed in 5 years" equals "$(csv_col y5.csv tco_support_usd)" "0.00"
# the support share by flag and by price list line
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --support-fraction-per-year 0.05 --format csv -o f5.csv
near "--support-fraction-per-year 0.05: 3 years of 5 %" "$(csv_col f5.csv capex_support_usd)" "$(calc "$hw * 0.15")"
printf 'sku,unit_price\nSUPPORT-FRACTION,0.2\n' >share.csv
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices share.csv --format csv -o f20.csv
near "price list SUPPORT-FRACTION 0.2: 3 years of 20 %" "$(csv_col f20.csv capex_support_usd)" "$(calc "$hw * 0.6")"
near "SUPPORT-FRACTION: renewed at 20 % in years 4 and 5" "$(csv_col f20.csv tco_support_usd)" "$(calc "$hw * 0.4")"
refuse_with "--support-years 6 is refused" "--support-years" "$ACCELSIZER" recommend --support-years 6

# ---- bad settings: file:line:col, exit 2, nothing written ----
printf 'sku,unit_price_usd\nh100-sxm,25000\nPUE,0.5\n' >bad.csv
run "$ACCELSIZER" bom --scenario "$SCEN" --prices bad.csv -o nobom.csv
check "PUE 0.5 in a price list: exit 2" rc 2
check "PUE 0.5: file, line and column, and the flag's bounds" contains "$err" "bad.csv:3:1: PUE: pue must be from 1 to 5"
check "PUE 0.5: no BOM written" equals "$(ls nobom.csv 2>/dev/null)" ""
printf 'sku,unit_price\nSUPPORT-YEARS,4\n' >bad4.csv
run "$ACCELSIZER" recommend --prices bad4.csv
check "SUPPORT-YEARS 4: exit 2" rc 2
check "SUPPORT-YEARS 4: 3 or 5, at its cell" contains "$err" "bad4.csv:2:15: SUPPORT-YEARS '4': the support term is 3 or 5 years"
run "$ACCELSIZER" recommend --prices "$FIX/prices/bad/30-eur-without-rate.csv"
check "EUR without a rate: exit 2" rc 2
check "EUR without a rate: says what to add" contains "$err" "30-eur-without-rate.csv:1:5: the list is in EUR: add a line CURRENCY"

done_testing
