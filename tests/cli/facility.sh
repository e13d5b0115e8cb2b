#!/bin/sh
# The facility (issue 17 item 4): --rack-kw sets the power one rack feeds
# and cools; racks are packed by power as well as by space (the rack
# elevation, engine_rack.c: a 10.2 kW HGX H100 a 15 kW rack, since two are
# 20.4 kW), the PDUs (two per rack) follow, the BOM says which limit it sized at, and a scenario's
# node.rack_kw does the same.  The bank's call: 15 kW racks.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1
bank="--model llama-3.1-70b --input-tokens 2000 --output-tokens 400 --concurrency 300 --tokens-per-s-per-user 20 --ttft-ms 1000 --stack cuda --accelerator h100-sxm"

run "$ACCELSIZER" recommend $bank --format csv -o d.csv
check "default racks: exit 0" rc 0
run "$ACCELSIZER" recommend $bank --rack-kw 15 --format csv -o r15.csv
check "--rack-kw 15: exit 0" rc 0
want=$(($(csv_col r15.csv nodes) + $(csv_col r15.csv spare_nodes)))
check "--rack-kw 15: one 10.2 kW node a rack" equals "$(csv_col r15.csv racks)" "$want"
check "--rack-kw 15 needs more racks than the catalog's 40 kW" equals \
	"$(awk -v a="$(csv_col r15.csv racks)" -v b="$(csv_col d.csv racks)" 'BEGIN { print (a > b) ? "more" : "not more" }')" "more"
# no source prices a rack or a PDU: a price list does, and the capex then
# follows the racks
printf 'sku,unit_price_usd\nRACK,1000\nPDU,100\n' >racks.csv
run "$ACCELSIZER" recommend $bank --prices racks.csv --format csv -o dp.csv
run "$ACCELSIZER" recommend $bank --rack-kw 15 --prices racks.csv --format csv -o r15p.csv
check "--rack-kw: capex follows the racks" equals \
	"$(awk -v a="$(csv_col r15p.csv capex_racks_usd)" -v b="$(csv_col dp.csv capex_racks_usd)" 'BEGIN { print (a > b) ? "more" : "not more" }')" "more"

run "$ACCELSIZER" bom $bank --rack-kw 15 -o b.csv
check "bom --rack-kw 15: exit 0" rc 0
racks=$(csv_col r15.csv racks)
check "the BOM buys those racks" matches "$(grep ",RACK," b.csv)" ",RACK,\"[^\"]*\",$racks,"
check "and two PDUs per rack" matches "$(grep ',PDU,' b.csv)" ",PDU,[^,]*,$((racks * 2)),"
check "the BOM says what it sized at" contains "$(cat b.csv)" "sized at 15 kW and 42 U per rack (--rack-kw"

printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-3.1-70b\n  concurrency: 300\nnode:\n  rack_kw: 15\naccelerator: h100-sxm\nfilters:\n  stack: cuda\n' > s.yaml
run "$ACCELSIZER" recommend --scenario s.yaml --format csv -o s.csv
check "scenario node.rack_kw: exit 0" rc 0
want=$(($(csv_col s.csv nodes) + $(csv_col s.csv spare_nodes)))
check "scenario node.rack_kw: one node a 15 kW rack" equals "$(csv_col s.csv racks)" "$want"

# The rack elevation: every rack unit by unit, the same racks as the BOM.
run "$ACCELSIZER" bom $bank --rack-kw 15 -o e.csv --elevation e.txt
check "bom --elevation: exit 0" rc 0
check "--elevation: as many racks as the BOM buys" equals "$(grep -c '^rack [0-9]*:' e.txt)" "$racks"
check "--elevation: the limit and where it came from" contains "$(cat e.txt)" "racks of 42U at 15 kW (--rack-kw)"
check "--elevation: node 1 at the bottom of rack 1, the facility switches on top" contains "$(cat e.txt)" \
	"rack 1: node 1 U1-8, oob 1 U38, front-end 1-2 U39-42; 10.2 of 15 kW"
check "--elevation: a front-end switch's units and SKU, no power figure made up" contains "$(cat e.txt)" \
	"  U41-42    front-end switch 1   MSN4600C, no power figure"
check "--elevation: the OOB switch under the pair" contains "$(cat e.txt)" \
	"  U38       out-of-band switch 1 MSN2201, no power figure"
check "--elevation: rack 2 has no facility switch" contains "$(cat e.txt)" "rack 2: node 2 U1-8; 10.2 of 15 kW"
check "--elevation: the free units" contains "$(cat e.txt)" "  U9-42     (empty)"
check "--elevation: PDUs" contains "$(cat e.txt)" "  42U, 2 PDUs (0U, at the rear)"
run "$ACCELSIZER" bom $bank --rack-kw 15 -o e2.csv --elevation -
check "--elevation -: to standard output" equals "$out" "$(cat e.txt)"
run "$ACCELSIZER" bom $bank -o - --elevation -
check "-o - --elevation -: exit 2" rc 2
check "-o - --elevation -: says why" contains "$err" "-o and --elevation cannot both be '-'"
# training across nodes: the leaf switch sits on top of the nodes
run "$ACCELSIZER" bom --workload pretrain --model llama-3.1-8b --accelerator h100-sxm --gpus 16 -o t.csv --elevation t.txt
check "training elevation: exit 0" rc 0
check "training elevation: 2 nodes and the leaf in one 40 kW rack" matches "$(cat t.txt)" "rack 1: node 1-2 U1-16, oob 1 U[0-9]+, front-end 1-2 U[0-9-]+, leaf 1 U[0-9-]*; [0-9.]* of 40 kW"

run "$ACCELSIZER" recommend --rack-kw 0.5
check "--rack-kw 0.5: exit 2" rc 2
check "--rack-kw 0.5: names the flag and the range" contains "$err" "--rack-kw: '0.5' is out of range (1 to 1000)"

done_testing
