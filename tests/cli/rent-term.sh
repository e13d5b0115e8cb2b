#!/bin/sh
# The rental term rent or buy is judged against (issue 17 item 3):
# --rent-term auto | on-demand | 1y | 3y, the scenario's costs.rent_term and
# a price list's RENT-TERM line (0 on-demand, 1 or 3 years reserved), in
# that order, else auto (the cheapest term priced).  A term no source and no
# price list prices is unpriced: no rent, no month, and the sentence names
# the SKU that gives one.  A reserved term is a commitment: it is billed
# every hour of its term, so a training run shorter than the term pays the
# whole term.  Figures are worked out here from the list's and the
# catalog's rates.
. "$TOP_SRCDIR/tests/lib.sh"

FIX=$TOP_SRCDIR/tests/fixtures
SCEN=$FIX/scenarios/good/inference.yaml
EUR=$FIX/prices/good/quote-eur.csv
mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1


# ---- the flag picks the term; auto keeps the cheapest priced ----
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --format csv -o auto.csv
check "auto: exit 0" rc 0
check "auto: the cheapest priced (the list's 1-year)" equals "$(csv_col auto.csv rent_basis)" "reserved-1y"
gpus=$(csv_col auto.csv gpus)
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --rent-term on-demand \
	--format csv -o od.csv
check "--rent-term on-demand: exit 0" rc 0
check "--rent-term on-demand: the basis" equals "$(csv_col od.csv rent_basis)" "on-demand"
# the catalog's USD 2.69 at the list's 0.92
near "--rent-term on-demand: the catalog's rate converted, a year" "$(csv_col od.csv rent_eur)" \
	"$(calc "$gpus * 2.69 * 0.92 * 8766")"
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --rent-term on-demand --format yaml
check "--rent-term on-demand: the answer is against it" matches "$out" \
	"rent_or_buy: buying (breaks even after [0-9]+ months|does not break even in 5 years) against on-demand rental"
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --rent-term 1y --format csv -o y1.csv
check "--rent-term 1y: the list's rate" equals "$(csv_col y1.csv rent_basis)" "reserved-1y"
near "--rent-term 1y: EUR 1.95 a GPU-hour, a year" "$(csv_col y1.csv rent_eur)" "$(calc "$gpus * 1.95 * 8766")"

# ---- a term nobody prices: unpriced, never estimated ----
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --rent-term 3y --format csv -o y3.csv
check "--rent-term 3y: exit 0" rc 0
check "--rent-term 3y unpriced: no basis" equals "$(csv_col y3.csv rent_basis)" ""
check "--rent-term 3y unpriced: no rent" equals "$(csv_col y3.csv rent_eur)" ""
check "--rent-term 3y unpriced: no month" equals "$(csv_col y3.csv breakeven_months)" ""
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --rent-term 3y --format yaml
check "--rent-term 3y unpriced: the sentence names the SKU" contains "$out" \
	"rent_or_buy: no 3-year reserved rate (a price list's RENT-3Y:h100-sxm)"
run "$ACCELSIZER" bom --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --rent-term 3y -o b3.csv --summary s3.txt
check "bom --rent-term 3y: exit 0" rc 0
check "summary: the term asked for" contains "$(cat s3.txt)" "rent_term                    3-year reserved  (your input)"
check "summary: the unpriced term's sentence" contains "$(cat s3.txt)" "no 3-year reserved rate (a price list's RENT-3Y:h100-sxm)"
run "$ACCELSIZER" proposal --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --rent-term 3y -o p3.md
check "proposal --rent-term 3y: exit 0" rc 0
check "proposal: the term in the assumptions" contains "$(cat p3.md)" "| rent_term | 3-year reserved | your input |"
check "proposal: the alternatives' row says the term has no rate" contains "$(cat p3.md)" "| Renting instead | no 3-year reserved rate |"

# ---- the scenario's costs.rent_term, and the price list's RENT-TERM ----
{ cat "$SCEN"; printf 'costs:\n  rent_term: on-demand\n'; } >od.yaml
run "$ACCELSIZER" recommend --scenario od.yaml --accelerator h100-sxm --prices "$EUR" --format csv -o sod.csv
check "scenario rent_term on-demand: exit 0" rc 0
check "scenario rent_term on-demand: the basis" equals "$(csv_col sod.csv rent_basis)" "on-demand"
run "$ACCELSIZER" recommend --scenario od.yaml --accelerator h100-sxm --prices "$EUR" --format yaml
check "the YAML's settings carry the term" contains "$out" "rent_term: on-demand"
{ cat "$EUR"; printf 'RENT-TERM,0,,,,\n'; } >term0.csv
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices term0.csv --format csv -o t0.csv
check "price list RENT-TERM 0: on-demand" equals "$(csv_col t0.csv rent_basis)" "on-demand"
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices term0.csv --rent-term 1y --format csv -o t01.csv
check "the flag wins over the list's RENT-TERM" equals "$(csv_col t01.csv rent_basis)" "reserved-1y"

# ---- bad terms: the flag, the file's line and column, exit 2 ----
refuse_with "--rent-term 2y is refused" "--rent-term" "$ACCELSIZER" recommend --rent-term 2y
run "$ACCELSIZER" recommend --rent-term 2y
check "--rent-term 2y: the words it takes" contains "$err" "auto, on-demand, 1y, 3y"
{ cat "$SCEN"; printf 'costs:\n  rent_term: monthly\n'; } >bad.yaml
run "$ACCELSIZER" recommend --scenario bad.yaml
check "scenario rent_term monthly: exit 2" rc 2
check "scenario rent_term monthly: file:line:col" matches "$err" "bad.yaml:[0-9]+:[0-9]+: .*rent_term"
printf 'sku,unit_price\nRENT-TERM,2\n' >bad2.csv
run "$ACCELSIZER" bom --scenario "$SCEN" --prices bad2.csv -o nobom.csv
check "RENT-TERM 2: exit 2" rc 2
check "RENT-TERM 2: at its cell, what it takes" contains "$err" \
	"bad2.csv:2:11: RENT-TERM '2': the rental term is 0 (on-demand), 1 or 3 (years reserved), as --rent-term"
check "RENT-TERM 2: no BOM written" equals "$(ls nobom.csv 2>/dev/null)" ""

# ---- a reserved term is billed for all of it: a short run pays the year ----
printf 'sku,unit_price_usd\nRENT-1Y:h100-sxm,2.00\n' >r1.csv
run "$ACCELSIZER" recommend --workload pretrain --model llama-3.1-8b --tokens 100B --accelerator h100-sxm \
	--prices r1.csv --rent-term 1y --format csv -o tr.csv
check "pretrain --rent-term 1y: exit 0" rc 0
tg=$(csv_col tr.csv gpus)
check "the run is shorter than a year" equals "$(awk -v h="$(csv_col tr.csv train_hours)" 'BEGIN { print (h < 8766) ? "yes" : "no" }')" "yes"
near "a 1-year term for a shorter run: the whole year" "$(csv_col tr.csv rent_usd)" "$(calc "$tg * 2.00 * 8766")"
run "$ACCELSIZER" recommend --workload pretrain --model llama-3.1-8b --tokens 100B --accelerator h100-sxm \
	--prices r1.csv --rent-term on-demand --format csv -o tro.csv
check "on-demand still rents the run alone" equals "$(awk -v a="$(csv_col tro.csv rent_usd)" -v g="$(csv_col tro.csv gpus)" \
	-v h="$(csv_col tro.csv train_hours)" 'BEGIN { d = a - g * 2.69 * h; t = g * 2.69 * 0.005 + 0.01;
	print (d <= t && d >= -t) ? "the run" : a " vs " g * 2.69 * h }')" "the run"

done_testing
