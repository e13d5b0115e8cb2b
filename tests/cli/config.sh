#!/bin/sh
# Configuration choices and the facility (issue 17 items 4 and 5):
# --fabric (the kinds a platform's NICs run are the catalog's nics.fabrics,
# never its description), --cooling (platforms declare theirs), and
# --node-gpus (the server shapes the catalog has).  Each filters with its
# reason when the accelerator has no platform that meets it; bad values
# name the flag and exit 2.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1
train="--workload pretrain --model llama-2-7b --precision bf16"

# HGX H100's NIC is described "InfiniBand NDR / 400GbE": the fabric is the
# list's first, InfiniBand, not Ethernet for the "GbE" in the description.
run "$ACCELSIZER" recommend $train --accelerator h100-sxm --gpus 64 --format csv -o d.csv
check "h100 x 64: exit 0" rc 0
check "h100 x 64: InfiniBand NDR (nics.fabrics' first)" equals "$(csv_col d.csv fabric)" "ib-ndr-400"
run "$ACCELSIZER" recommend $train --accelerator h100-sxm --gpus 64 --fabric ethernet --format csv -o e.csv
check "--fabric ethernet: exit 0" rc 0
check "--fabric ethernet: RoCE 400GbE" equals "$(csv_col e.csv fabric)" "roce-400"
check "--fabric ethernet: not filtered (ConnectX-7 runs both)" equals "$(csv_col e.csv filtered)" "false"
check "--fabric ethernet: the BOM follows (other switches)" equals \
	"$(awk -v a="$(csv_col e.csv capex_fabric_usd)" -v b="$(csv_col d.csv capex_fabric_usd)" 'BEGIN { print (a != b) ? "differs" : "same" }')" "differs"
# one node needs no fabric: nothing to filter
run "$ACCELSIZER" recommend $train --accelerator gb200 --gpus 72 --fabric ethernet --format csv -o g1.csv
check "gb200 x 72 --fabric ethernet: one rack, no fabric, not filtered" equals \
	"$(csv_col g1.csv filtered),$(csv_col g1.csv fabric)" "false,"
# GB200 NVL72's NICs run InfiniBand only (nics.fabrics: [infiniband])
run "$ACCELSIZER" recommend $train --accelerator gb200 --gpus 144 --fabric ethernet --format csv -o g2.csv
check "gb200 x 144 --fabric ethernet: filtered" equals "$(csv_col g2.csv filtered)" "true"
check "gb200 x 144 --fabric ethernet: the reason" contains "$(csv_col g2.csv filter_reason)" \
	"gb200-nvl72's NICs do not run ethernet (nics.fabrics; --fabric)"
check "gb200 x 144 --fabric ethernet: sized on its own InfiniBand" equals "$(csv_col g2.csv fabric)" "ib-ndr-400"
run "$ACCELSIZER" catalog show hgx-h100-8
check "catalog show: nics.fabrics" contains "$out" "nics.fabrics               infiniband, ethernet"

# --cooling air: GB200 NVL72 and MI355X are liquid-cooled in the catalog
run "$ACCELSIZER" recommend --cooling air --format csv -o air.csv
check "--cooling air: exit 0" rc 0
row() { awk -F'","' -v id="$2" '$2 == id { print; exit }' "$1"; }
check "--cooling air: gb200 filtered with the reason" contains "$(row air.csv gb200)" \
	"gb200-nvl72 needs liquid cooling, the site has air (--cooling)"
check "--cooling air: mi355x filtered" contains "$(row air.csv mi355x)" "mi355x-8-oam needs liquid cooling"
check "--cooling air: mi350x (air-cooled) is not" lacks "$(row air.csv mi350x)" "needs liquid cooling"
run "$ACCELSIZER" recommend --cooling liquid --format csv -o liq.csv
check "--cooling liquid: nothing filtered for cooling" lacks "$(cat liq.csv)" "needs liquid cooling"
run "$ACCELSIZER" recommend --cooling air --accelerator gb200 --format csv -o a1.csv
check "--cooling air --accelerator gb200: warned on stderr" contains "$err" "gb200 is outside your filters"

# --node-gpus: L40S comes as a 4- and an 8-card server, H100 SXM only as 8
run "$ACCELSIZER" recommend --accelerator l40s --node-gpus 4 --format csv -o l4.csv
check "--node-gpus 4 on l40s: the 4-card server" equals "$(csv_col l4.csv platform)" "pcie-l40s-4"
check "--node-gpus 4 on l40s: not filtered" equals "$(csv_col l4.csv filtered)" "false"
run "$ACCELSIZER" recommend --accelerator l40s --node-gpus 8 --format csv -o l8.csv
check "--node-gpus 8 on l40s: the 8-card server" equals "$(csv_col l8.csv platform)" "pcie-l40s-8"
run "$ACCELSIZER" recommend --accelerator h100-sxm --node-gpus 4 --format csv -o h4.csv
check "--node-gpus 4 on h100-sxm: filtered" equals "$(csv_col h4.csv filtered)" "true"
check "--node-gpus 4 on h100-sxm: the reason" contains "$(csv_col h4.csv filter_reason)" \
	"no 4-GPU server for it in the catalog (--node-gpus)"

# a scenario's node section, and the BOM follows
printf 'schema: 1\nworkload:\n  class: pretrain\n  model: llama-2-7b\naccelerator: h100-sxm\nnode:\n  gpus: 64\n  fabric: ethernet\n' > s.yaml
run "$ACCELSIZER" recommend --scenario s.yaml --format csv -o s.csv
check "scenario node.fabric: exit 0" rc 0
check "scenario node.fabric: RoCE" equals "$(csv_col s.csv fabric)" "roce-400"
run "$ACCELSIZER" bom --scenario s.yaml -o s-bom.csv
check "scenario node.fabric: the BOM's switch is the SN5600" contains "$(cat s-bom.csv)" ",MSN5600,"

# bad values: the flag, the value, exit 2
run "$ACCELSIZER" recommend --fabric token-ring
check "--fabric token-ring: exit 2" rc 2
check "--fabric token-ring: names the flag and the choices" contains "$err" \
	"--fabric: 'token-ring' is not one of auto, infiniband, ethernet"
run "$ACCELSIZER" recommend --cooling water
check "--cooling water: exit 2" rc 2
check "--cooling water: names the flag" contains "$err" "--cooling: 'water' is not one of any, air, liquid"
run "$ACCELSIZER" recommend --node-gpus 0.5
check "--node-gpus 0.5: exit 2" rc 2
check "--node-gpus 0.5: names the flag" contains "$err" "--node-gpus: '0.5'"
run "$ACCELSIZER" recommend --node-gpus 200
check "--node-gpus 200: exit 2" rc 2
check "--node-gpus 200: the range" contains "$err" "--node-gpus: '200' is out of range (1 to 128, or 0 for auto)"

done_testing
