#!/bin/sh
# The facility (issue 17 item 4): --rack-kw sets the power one rack feeds
# and cools; racks are counted by power as well as by space, the PDUs (two
# per rack) follow, the BOM says which limit it sized at, and a scenario's
# node.rack_kw does the same.  The bank's call: 15 kW racks.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1
bank="--model llama-3.1-70b --input-tokens 2000 --output-tokens 400 --concurrency 300 --tokens-per-s-per-user 20 --ttft-ms 1000 --stack cuda --accelerator h100-sxm"

run "$ACCELSIZER" recommend $bank --format csv -o d.csv
check "default racks: exit 0" rc 0
run "$ACCELSIZER" recommend $bank --rack-kw 15 --format csv -o r15.csv
check "--rack-kw 15: exit 0" rc 0
kw=$(csv_col r15.csv power_kw)
want=$(awk -v p="$kw" 'BEGIN { r = int(p / 15); if (r * 15 < p) r++; print r }')
check "--rack-kw 15: racks = ceil(power / 15 kW)" equals "$(csv_col r15.csv racks)" "$want"
check "--rack-kw 15 needs more racks than the catalog's 40 kW" equals \
	"$(awk -v a="$(csv_col r15.csv racks)" -v b="$(csv_col d.csv racks)" 'BEGIN { print (a > b) ? "more" : "not more" }')" "more"
check "--rack-kw: capex follows the racks" equals \
	"$(awk -v a="$(csv_col r15.csv capex_racks_usd)" -v b="$(csv_col d.csv capex_racks_usd)" 'BEGIN { print (a > b) ? "more" : "not more" }')" "more"

run "$ACCELSIZER" bom $bank --rack-kw 15 -o b.csv
check "bom --rack-kw 15: exit 0" rc 0
racks=$(csv_col r15.csv racks)
check "the BOM buys those racks" matches "$(grep ",RACK," b.csv)" ",RACK,\"[^\"]*\",$racks,"
check "and two PDUs per rack" matches "$(grep ',PDU,' b.csv)" ",PDU,[^,]*,$((racks * 2)),"
check "the BOM says what it sized at" contains "$(cat b.csv)" "sized at 15 kW and 42 U per rack (--rack-kw"

printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-3.1-70b\n  concurrency: 300\nnode:\n  rack_kw: 15\naccelerator: h100-sxm\nfilters:\n  stack: cuda\n' > s.yaml
run "$ACCELSIZER" recommend --scenario s.yaml --format csv -o s.csv
check "scenario node.rack_kw: exit 0" rc 0
kw=$(csv_col s.csv power_kw)
want=$(awk -v p="$kw" 'BEGIN { r = int(p / 15); if (r * 15 < p) r++; print r }')
check "scenario node.rack_kw: racks by 15 kW" equals "$(csv_col s.csv racks)" "$want"

run "$ACCELSIZER" recommend --rack-kw 0.5
check "--rack-kw 0.5: exit 2" rc 2
check "--rack-kw 0.5: names the flag and the range" contains "$err" "--rack-kw: '0.5' is out of range (1 to 1000)"

done_testing
