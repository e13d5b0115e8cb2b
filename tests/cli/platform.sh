#!/bin/sh
# Alternative platforms per accelerator (issue 17 item 5): --platform ID
# (and the scenario key node.platform) sizes its own accelerator on that
# server; the engine re-sizes, the BOM follows, the other accelerators of
# the ranking keep theirs.  An unknown platform, one for another
# accelerator or of another size than --node-gpus names the flag, exit 2.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1
row() { awk -F'","' -v id="$2" '$2 == id { print; exit }' "$1"; }
field() {	# field FILE ACCEL COLUMN: that accelerator's row's COLUMN
	awk -F, -v id="\"$2\"" -v col="$3" 'NR == 1 { for (i = 1; i <= NF; i++) { h = $i; gsub(/"/, "", h); if (h == col) c = i } }
		NR > 1 && $2 == id { v = $c; gsub(/"/, "", v); print v; exit }' "$1"
}

# H100 PCIe comes as a 4- and an 8-card server; no source prices either
# server or the card, so at equal (unknown) prices the engine takes the
# bigger node (fewer boxes).  A price list for the card makes the capex a
# figure to compare.
printf 'sku,unit_price_usd\nh100-pcie,20000\n' >gpu.csv
run "$ACCELSIZER" recommend --accelerator h100-pcie --prices gpu.csv --format csv -o auto.csv
check "h100-pcie: exit 0" rc 0
check "h100-pcie: the 8-card server by default (no server prices: fewer boxes)" equals \
	"$(csv_col auto.csv platform)" "pcie-h100-8"
run "$ACCELSIZER" recommend --accelerator h100-pcie --prices gpu.csv --platform pcie-h100-4 --format csv -o p4.csv
check "--platform pcie-h100-4: exit 0" rc 0
check "--platform pcie-h100-4: sized on it" equals "$(csv_col p4.csv platform)" "pcie-h100-4"
check "--platform pcie-h100-4: not filtered" equals "$(csv_col p4.csv filtered)" "false"
check "re-sized: 3 four-card nodes for the 12 GPUs (2 eight-card ones before)" equals \
	"$(csv_col auto.csv nodes) -> $(csv_col p4.csv nodes)" "2 -> 3"
check "re-sized: the capex differs (16 cards with the spare, not 24)" equals \
	"$(awk -v a="$(csv_col auto.csv capex_usd)" -v b="$(csv_col p4.csv capex_usd)" 'BEGIN { print (a != b && a > 0 && b > 0) ? "differs" : a " vs " b }')" \
	"differs"
run "$ACCELSIZER" recommend --accelerator h100-pcie --prices gpu.csv --platform auto --format csv -o back.csv
check "--platform auto: the engine's choice again" equals "$(csv_col back.csv platform)" "pcie-h100-8"

# the BOM follows: the 4-card server's line, and the total is the capex
run "$ACCELSIZER" bom --accelerator h100-pcie --prices gpu.csv --platform pcie-h100-4 -o b4.csv
check "bom --platform: exit 0" rc 0
check "bom --platform: the 4-card server, 3 working + 1 spare" contains "$(grep '^1,server' b4.csv)" \
	'"PCIe server, 4 x H100 PCIe",4,'
check "bom --platform: the 8-card server is not in it" lacks "$(cat b4.csv)" "8 x H100 PCIe"
total=$(awk -F, '$2 == "total" { print $7; exit }' b4.csv)
check "bom --platform: its total is recommend's capex" equals "$total" "$(csv_col p4.csv capex_usd)"

# without --accelerator: only the platform's own accelerator is pinned
run "$ACCELSIZER" recommend --platform pcie-h100-8 --format csv -o all.csv
check "ranking with --platform: exit 0" rc 0
check "the h100-pcie row is on the 8-card server" equals "$(field all.csv h100-pcie platform)" "pcie-h100-8"
run "$ACCELSIZER" recommend --format csv -o none.csv
check "the l40s row keeps the engine's server" equals "$(field all.csv l40s platform)" \
	"$(field none.csv l40s platform)"
check "the h100-sxm row keeps HGX" equals "$(field all.csv h100-sxm platform)" "hgx-h100-8"

# a platform the site's cooling rules out is filtered with the reason
run "$ACCELSIZER" recommend --accelerator mi355x --platform mi355x-8-oam --cooling air --format csv -o air.csv
check "liquid-only platform on an air site: filtered" equals "$(csv_col air.csv filtered)" "true"
check "the reason names --cooling" contains "$(csv_col air.csv filter_reason)" \
	"mi355x-8-oam needs liquid cooling, the site has air (--cooling)"

# bad input names the flag, exit 2, nothing sized
run "$ACCELSIZER" recommend --platform pcie-h100
check "unknown platform: exit 2" rc 2
check "unknown platform: names the flag, suggests" contains "$err" \
	"accelsizer: --platform: unknown platform 'pcie-h100'; did you mean 'pcie-h100-4'?"
run "$ACCELSIZER" recommend --platform nothing-like-it
check "unknown platform, nothing near: exit 2" rc 2
check "unknown platform: where to look" contains "$err" "see 'accelsizer catalog list --platforms'"
run "$ACCELSIZER" recommend --accelerator b200 --platform pcie-h100-4
check "another accelerator's platform: exit 2" rc 2
check "another accelerator's platform: both flags named" contains "$err" \
	"accelsizer: --platform: pcie-h100-4 is a server for h100-pcie, not for --accelerator b200"
run "$ACCELSIZER" bom --platform pcie-h100-4 --node-gpus 8 --accelerator h100-pcie -o x.csv
check "another size than --node-gpus: exit 2" rc 2
check "another size than --node-gpus: named" contains "$err" \
	"--platform: pcie-h100-4 holds 4 GPUs per node, not the 8 of --node-gpus"
check "no half-written BOM" equals "$([ -e x.csv ] && echo written || echo none)" "none"

# the scenario key node.platform, and its errors at file:line:column
printf 'schema: 1\nworkload:\n  class: inference\naccelerator: h100-pcie\nnode:\n  platform: pcie-h100-4\n' >s.yaml
run "$ACCELSIZER" recommend --scenario s.yaml --format csv -o s.csv
check "scenario node.platform: exit 0" rc 0
check "scenario node.platform: sized on it" equals "$(csv_col s.csv platform)" "pcie-h100-4"
run "$ACCELSIZER" recommend --scenario s.yaml --platform auto --format csv -o s2.csv
check "the flag overrides the scenario" equals "$(csv_col s2.csv platform)" "pcie-h100-8"
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-3.1-70b\nnode:\n  platform: pcie-h100-9\n' >bad.yaml
run "$ACCELSIZER" recommend --scenario bad.yaml
check "scenario: unknown platform: exit 2" rc 2
check "scenario: unknown platform at its line and column" contains "$err" "bad.yaml:6:13"
check "scenario: unknown platform: says platform" contains "$err" "platform"
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-3.1-70b\naccelerator: b200\nnode:\n  platform: pcie-h100-8\n' >mis.yaml
run "$ACCELSIZER" recommend --scenario mis.yaml
check "scenario: another accelerator's platform: exit 2" rc 2
check "scenario: another accelerator's platform: why" contains "$err" \
	"pcie-h100-8 is a server for h100-pcie, not for the accelerator b200"

# the proposal's configurations show the platform chosen
run "$ACCELSIZER" proposal --accelerator h100-pcie --platform pcie-h100-8 -o p.md
check "proposal --platform: exit 0" rc 0
check "proposal: the recommended server is the 8-card one" contains "$(grep '^| Server |' p.md)" \
	"| Server | PCIe server, 8 x H100 PCIe |"

done_testing
