#!/bin/sh
# The quote a customer signs: recommend's capex_usd is the BOM's total to the
# cent (support and burn-in, racks and PDUs included), its breakdown adds up
# to it, the budget filter judges that total, and a price list given with
# --prices moves recommend, validate, sweep and bom alike.
. "$TOP_SRCDIR/tests/lib.sh"

FIX=$TOP_SRCDIR/tests/fixtures
SCEN=$FIX/scenarios/good/inference.yaml
mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1

# The BOM's total row: its extended price.
bom_total() {
	[ -f "$1" ] || { echo "NO BOM $1"; return; }
	tail -n 1 "$1" | awk -F, '{ print $7 }'
}

# ---- item 4: capex is the BOM total ----
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --format csv -o rec.csv
check "recommend csv: exit 0" rc 0
run "$ACCELSIZER" bom --scenario "$SCEN" -o bom.csv
check "bom: exit 0" rc 0
capex=$(csv_col rec.csv capex_usd)
check "capex_usd equals the BOM total to the cent" equals "$capex" "$(bom_total bom.csv)"
sum=0
for part in hardware fabric racks support services; do
	v=$(csv_col rec.csv capex_${part}_usd)
	check "csv has capex_${part}_usd" matches "$v" '^[0-9]+\.[0-9][0-9]$'
	sum=$(awk -v a="$sum" -v b="$v" 'BEGIN { printf "%.2f", a + b }')
done
check "the breakdown adds up to capex_usd" equals "$sum" "$capex"
# support and services on their own match the BOM's lines
check "capex_support_usd is the BOM's support line" equals "$(csv_col rec.csv capex_support_usd)" \
	"$(grep ',support,SUPPORT,' bom.csv | awk -F, '{ print $7 }')"

run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --format yaml
check "yaml: capex_usd is the BOM total" contains "$out" "capex_usd: $capex"
check "yaml: capex_support_usd" matches "$out" 'capex_support_usd: [0-9]+\.[0-9][0-9]'

# The budget filter judges the quote: a budget one cent under the BOM's
# total filters the configuration out, the total itself keeps it.
under=$(awk -v t="$capex" 'BEGIN { printf "%.2f", t - 0.01 }')
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --budget-usd "$under" --format csv -o b1.csv
check "a budget a cent under the BOM total filters it" equals "$(csv_col b1.csv filtered)" "true"
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --budget-usd "$capex" --format csv -o b2.csv
check "a budget equal to the BOM total keeps it" equals "$(csv_col b2.csv filtered)" "false"

# The lab's call: 8B on 1T tokens in 14 days for about $3M.  The budget
# judges the whole quote, and a quote without a GPU price cannot be judged:
# no source gives B200's, so it is filtered with the price unknown (it used
# to "fit" on an estimate); whatever ranks first within $3M has a BOM
# within $3M.
lab="--workload pretrain --model llama-3.1-8b --tokens 1T --days 14"
run "$ACCELSIZER" recommend $lab --budget-usd 3000000 --accelerator b200 --format csv -o lab-b200.csv
check "lab at \$3M: B200 without a price is filtered" equals "$(csv_col lab-b200.csv filtered)" "true"
check "lab at \$3M: the reason says the price is unknown" equals "$(csv_col lab-b200.csv filter_reason)" \
	"price unknown: load a price list to check the budget"
check "lab at \$3M: no capex figure for it" equals "$(csv_col lab-b200.csv capex_usd)" ""
run "$ACCELSIZER" recommend $lab --budget-usd 3000000 --format csv -o lab.csv
check "lab at \$3M: something fits the budget" rc 0
top=$(csv_col lab.csv accelerator)
run "$ACCELSIZER" bom $lab --budget-usd 3000000 --accelerator "$top" -o lab-bom.csv
check "lab: BOM of the first-ranked equals its capex" equals "$(bom_total lab-bom.csv)" "$(csv_col lab.csv capex_usd)"
check "lab: BOM of the first-ranked is within the budget" equals \
	"$(awk -v t="$(bom_total lab-bom.csv)" 'BEGIN { print (t <= 3000000) ? "yes" : "no" }')" "yes"

# ---- item 5: --prices drives every command ----
cat >p.csv <<'EOF'
sku,unit_price_usd,discount_pct
h100-sxm,20000,10
RACK,1000,
EOF
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices p.csv --format csv -o recp.csv
check "recommend --prices: exit 0" rc 0
run "$ACCELSIZER" bom --scenario "$SCEN" --prices p.csv -o bomp.csv
check "recommend --prices: capex is the priced BOM's total" equals "$(csv_col recp.csv capex_usd)" "$(bom_total bomp.csv)"
check "recommend --prices: the price list changed capex" equals \
	"$(awk -v a="$(csv_col recp.csv capex_usd)" -v b="$capex" 'BEGIN { print (a < b) ? "lower" : "not lower" }')" "lower"
check "recommend --prices: cost per Mtok follows" equals \
	"$(awk -v a="$(csv_col recp.csv usd_per_mtok)" -v b="$(csv_col rec.csv usd_per_mtok)" 'BEGIN { print (a < b) ? "lower" : "not lower" }')" "lower"
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices p.csv \
	--budget-usd "$(csv_col recp.csv capex_usd)" --format csv -o recpb.csv
check "recommend --prices: the budget filter uses the priced total" equals "$(csv_col recpb.csv filtered)" "false"
run "$ACCELSIZER" validate --scenario "$SCEN" --prices p.csv
check "validate --prices: exit 0" rc 0
run "$ACCELSIZER" sweep --scenario "$SCEN" --prices p.csv --accelerator h100-sxm --concurrency 128 -o sw.csv
check "sweep --prices: exit 0" rc 0
check "sweep --prices: capex is the priced BOM's total" equals "$(csv_col sw.csv capex_usd)" "$(bom_total bomp.csv)"
run "$ACCELSIZER" recommend --scenario "$SCEN" --prices "$FIX/prices/bad/10-negative-price.csv"
check "recommend --prices bad file: exit 2" rc 2
check "recommend --prices bad file: names the file, line and column" contains "$err" "10-negative-price.csv:3:4: "
run "$ACCELSIZER" recommend --scenario "$SCEN" --prices
check "recommend --prices without a file: exit 2" rc 2

# ---- item 3: node arithmetic ----
check "nodes: working + spare as the BOM counts them" equals \
	"$(csv_col rec.csv nodes)+$(csv_col rec.csv spare_nodes)" "1+1"

done_testing
