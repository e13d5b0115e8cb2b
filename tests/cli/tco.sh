#!/bin/sh
# Total cost of ownership (issue 17 item 2): tco_usd = capex + energy (kW x
# PUE x USD/kWh x hours x utilisation) + colocation (USD per kW per month)
# + support after the quoted term + licences; its parts add up to it; the
# horizon defaults to catalog/defaults.yaml's tco_years (5); every
# assumption is overridable by flag, scenario and price list; $/Mtok and
# the run cost spread the TCO; `--objective tco` ranks by it.
. "$TOP_SRCDIR/tests/lib.sh"

FIX=$TOP_SRCDIR/tests/fixtures
SCEN=$FIX/scenarios/good/inference.yaml
mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1

run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --format csv -o d.csv
check "recommend csv: exit 0" rc 0
check "tco_years defaults to 5 (defaults.yaml tco_years)" equals "$(csv_col d.csv tco_years)" 5
capex=$(csv_col d.csv capex_usd)
kw=$(csv_col d.csv power_kw)
tco=$(csv_col d.csv tco_usd)
check "tco_usd is money" matches "$tco" '^[0-9]+\.[0-9][0-9]$'
sum=$capex
for part in energy colocation support licence; do
	v=$(csv_col d.csv tco_${part}_usd)
	check "csv has tco_${part}_usd" matches "$v" '^[0-9]+\.[0-9][0-9]$'
	sum=$(calc "$sum + $v")
done
near "capex + energy + colocation + support + licences = tco_usd" "$sum" "$tco"
# energy at the catalog's 0.12 USD/kWh, PUE 1.3, 70% of 8766 h a year
near "energy = kW x PUE x price x hours x utilisation x years" "$(csv_col d.csv tco_energy_usd)" \
	"$(calc "$kw * 1.3 * 0.12 * 8766 * 0.7 * 5")"
near "colocation = kW x 184.06 x 12 x 5" "$(csv_col d.csv tco_colocation_usd)" \
	"$(calc "$kw * 184.06 * 12 * 5")"
# support: the quote prepaid 3 years at 10%; years 4 and 5 renew at 10% of
# the hardware, fabric and racks
base=$(calc "$(csv_col d.csv capex_hardware_usd) + $(csv_col d.csv capex_fabric_usd) + $(csv_col d.csv capex_racks_usd)")
near "support after the 3-year term: 2 years x 10%" "$(csv_col d.csv tco_support_usd)" "$(calc "$base * 0.10 * 2")"
check "no licence by default" equals "$(csv_col d.csv tco_licence_usd)" "0.00"
# $/Mtok spreads the TCO over its years
mtok=$(csv_col d.csv usd_per_mtok)
tps=$(csv_col d.csv output_tokens_per_s)
# (output_tokens_per_s is printed whole: within 0.1%)
want=$(calc "$tco / 5 / ($tps * 3600 * 8766 * 0.7) * 1e6")
check "usd_per_mtok = TCO / years / tokens a year" equals \
	"$(awk -v a="$mtok" -v b="$want" 'BEGIN { d = (a - b) / b; e = a - b; print ((d < 0.001 && d > -0.001) || (e <= 0.005 && e >= -0.005)) ? "within 0.1%" : a " vs " b }')" \
	"within 0.1%"

# flags
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --years 3 --format csv -o y3.csv
check "--years 3: exit 0" rc 0
check "--years 3: tco_years 3" equals "$(csv_col y3.csv tco_years)" 3
check "--years 3: no support renewal" equals "$(csv_col y3.csv tco_support_usd)" "0.00"
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --pue 1.5 --electricity-usd-per-kwh 0.2 \
	--utilisation 1 --colocation-usd-per-kw-month 0 --licence-usd-per-gpu-year 4500 --format csv -o f.csv
check "cost flags: exit 0" rc 0
near "--pue, --electricity-usd-per-kwh, --utilisation drive the energy" "$(csv_col f.csv tco_energy_usd)" \
	"$(calc "$kw * 1.5 * 0.2 * 8766 * 5")"
check "--colocation-usd-per-kw-month 0: none" equals "$(csv_col f.csv tco_colocation_usd)" "0.00"
# licences: in the quote for the 3-year support term, renewed in years 4 and 5
near "--licence-usd-per-gpu-year: the quote holds 3 years per installed GPU" \
	"$(csv_col f.csv capex_licences_usd)" "$(calc "$(csv_col f.csv gpus_installed) * 4500 * 3")"
near "--licence-usd-per-gpu-year: renewed after the term" "$(csv_col f.csv tco_licence_usd)" \
	"$(calc "$(csv_col f.csv gpus_installed) * 4500 * 2")"
run "$ACCELSIZER" recommend --years 0
check "--years 0: exit 2" rc 2
check "--years 0: names the flag" contains "$err" "--years"
run "$ACCELSIZER" recommend --pue 0.5
check "--pue 0.5: exit 2" rc 2

# a price list's COLOCATION and LICENCE lines; a flag wins over them
printf 'sku,unit_price_usd\nCOLOCATION,100\nLICENCE,1000\n' > p.csv
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices p.csv --format csv -o p1.csv
check "price list: exit 0" rc 0
near "price list COLOCATION" "$(csv_col p1.csv tco_colocation_usd)" "$(calc "$kw * 100 * 12 * 5")"
near "price list LICENCE" "$(csv_col p1.csv tco_licence_usd)" "$(calc "$(csv_col p1.csv gpus_installed) * 1000 * 2")"
near "price list LICENCE: the term in the capex" "$(csv_col p1.csv capex_licences_usd)" \
	"$(calc "$(csv_col p1.csv gpus_installed) * 1000 * 3")"
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices p.csv \
	--colocation-usd-per-kw-month 50 --format csv -o p2.csv
near "the flag wins over the price list" "$(csv_col p2.csv tco_colocation_usd)" "$(calc "$kw * 50 * 12 * 5")"

# a scenario's costs section, saved and read back
cat > s.yaml <<EOF
schema: 1
workload:
  class: inference
  model: llama-3.1-8b
costs:
  years: 4
  pue: 1.2
EOF
run "$ACCELSIZER" recommend --scenario s.yaml --format csv -o s.csv
check "scenario costs: exit 0" rc 0
check "scenario costs.years" equals "$(csv_col s.csv tco_years)" 4
run "$ACCELSIZER" recommend --scenario s.yaml --format yaml
check "yaml echoes the costs section" contains "$out" "costs:
  years: 4"
check "yaml has tco_usd" matches "$out" 'tco_usd: [0-9]+\.[0-9][0-9]'
# the per-year breakdown: capex in year 1, support renewed in years 4 and 5
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --format yaml
years=$(printf '%s\n' "$out" | awk '/^  tco_by_year:/ { on = 1; next } on && /^  [a-z]/ { on = 0 }
	on && /year:/ { n++ } on && /total_usd:/ { t += $2 } END { printf "%d %.2f\n", n, t }')
check "yaml: five years in tco_by_year" equals "${years% *}" 5
near "yaml: the years add up to tco_usd" "${years#* }" "$tco"
check "yaml: capex falls in year 1" contains "$out" "- year: 1
    capex_usd: $capex"
check "yaml: year 4 renews support" matches "$(printf '%s\n' "$out" | grep -A4 -- '- year: 4' | grep support_usd)" \
	'support_usd: [1-9]'
printf 'schema: 1\nworkload:\n  years: 4\n' > bad.yaml
run "$ACCELSIZER" recommend --scenario bad.yaml
check "years under workload: exit 2" rc 2
check "years under workload: says where it belongs" contains "$err" "under costs"

# the tco objective ranks by tco_usd; a GPU with no price (catalog
# "unknown", no price list) cannot be ranked by cost: its rows follow
# every priced one (their TCO leaves the GPUs out)
run "$ACCELSIZER" recommend --objective tco --format csv -o t.csv
check "--objective tco: exit 0" rc 0
ok=ascending last=0 i=1 unpriced=0
while [ "$(csv_col t.csv fits "$i")" = true ] && [ "$(csv_col t.csv filtered "$i")" = false ]; do
	v=$(csv_col t.csv tco_usd "$i")
	if "$ACCELSIZER" catalog show "$(csv_col t.csv accelerator "$i")" | grep -q '^  price  *unknown'; then
		unpriced=1
	elif [ "$unpriced" = 1 ]; then
		ok="row $i: a priced GPU after an unpriced one"
	else
		awk -v a="$v" -v b="$last" 'BEGIN { exit !(a >= b) }' || ok="row $i: $v after $last"
		last=$v
	fi
	i=$((i + 1))
done
[ "$i" -gt 2 ] || ok="only $((i - 1)) fitting rows"
check "--objective tco: fitting rows by ascending tco_usd" equals "$ok" "ascending"
run "$ACCELSIZER" recommend
check "the table shows the 5-year TCO" contains "$out" "5y TCO"
check "the table says what the TCO holds" contains "$out" "TCO over 5 years: capex + energy"

done_testing
