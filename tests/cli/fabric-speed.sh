#!/bin/sh
# The scale-out fabric's speed (issue 17 item 5): --fabric-speed N, the
# scenario's node.fabric_speed and step 4's row.  The catalog says which
# speeds a platform's NICs run (nics.speed_gbit, and nics.split_gbit for a
# NIC that also runs at a switch's split ports: ConnectX-7 at NDR200 /
# 200GbE) and which fabrics are built of split ports (breakout: true, taken
# only at that speed); the engine sizes the fabric at the speed asked (its
# bandwidth, its switches' ports) and the BOM follows.  A job that spans
# nodes on a platform whose NICs do not run the speed is filtered with the
# reason.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1
A=$ACCELSIZER
# 8B pretraining on 256 H100 (32 nodes): one job across nodes
JOB="--workload pretrain --model llama-3.1-8b --tokens 1T --accelerator h100-sxm --gpus 256"

# ---- the catalog's rule ----
run "$A" catalog show hgx-h100-8
check "catalog show: the NICs' split speed" matches "$out" "split_gbit +200 Gb/s"
run "$A" catalog list --fabrics
check "the NDR200 fabric is listed" contains "$out" "ib-ndr200"
check "the 200GbE fabric is listed" contains "$out" "roce-200"
run "$A" catalog show ib-ndr200
check "ib-ndr200: 128 ports of 200 Gb/s" matches "$out" "switch.radix +128 ports"
check "ib-ndr200: a breakout fabric" matches "$out" "breakout +true"

# ---- 400 (the NICs' own speed, what auto gives) against 200 ----
# shellcheck disable=SC2086
run "$A" recommend $JOB --format csv -o f400.csv
check "auto: exit 0" rc 0
check "auto: the NICs' own speed, NDR 400" equals "$(csv_col f400.csv fabric)" "ib-ndr-400"
# shellcheck disable=SC2086
run "$A" recommend $JOB --fabric-speed 400 --format csv -o e400.csv
check "--fabric-speed 400 is auto's fabric" equals "$(csv_col e400.csv fabric)" "ib-ndr-400"
check "--fabric-speed 400: the same answer as auto" equals "$(csv_col e400.csv train_hours)" "$(csv_col f400.csv train_hours)"
# shellcheck disable=SC2086
run "$A" recommend $JOB --fabric-speed 200 --format csv -o f200.csv
check "--fabric-speed 200: exit 0" rc 0
check "--fabric-speed 200: NDR200" equals "$(csv_col f200.csv fabric)" "ib-ndr200"
check "--fabric-speed 200: the same NICs" equals "$(csv_col f200.csv nics)" "$(csv_col f400.csv nics)"
# 256 node ports: on 64-port switches 8 leaves (+ spines), on 128 ports 4
check "--fabric-speed 200: fewer leaves (128 ports each)" equals \
	"$(csv_col f200.csv leaf_switches) $(csv_col f400.csv leaf_switches)" "4 8"
check "--fabric-speed 200: not faster than 400" equals \
	"$(awk -v a="$(csv_col f200.csv train_hours)" -v b="$(csv_col f400.csv train_hours)" 'BEGIN { print (a >= b) ? "yes" : a " < " b }')" "yes"
# shellcheck disable=SC2086
run "$A" bom $JOB --fabric-speed 200 -o b200.csv
check "bom --fabric-speed 200: exit 0" rc 0
check "bom: the split-port link" contains "$(cat b200.csv)" "MMS4X00-NS + MFP7E40 + MMS4X00-NS400"
check "bom: the switch at 128 ports of 200 Gb/s" contains "$(cat b200.csv)" "128 ports of 200 Gb/s"
check "bom: the NICs at 200 Gb/s" contains "$(cat b200.csv)" "200 Gb/s, 8 per node"
# shellcheck disable=SC2086
run "$A" recommend $JOB --fabric-speed 200 --fabric ethernet --format csv -o r200.csv
check "--fabric-speed 200 --fabric ethernet: 200GbE" equals "$(csv_col r200.csv fabric)" "roce-200"

# ---- a speed the NICs do not run: filtered with the reason ----
# shellcheck disable=SC2086
run "$A" recommend $JOB --fabric-speed 800 --format csv -o f800.csv
check "--fabric-speed 800 on H100: filtered" equals "$(csv_col f800.csv filtered)" "true"
check "--fabric-speed 800: the reason names the flag" contains "$(cat f800.csv)" \
	"hgx-h100-8's NICs run 400 or 200 Gb/s, not 800 (nics.speed_gbit, nics.split_gbit; --fabric-speed)"
# one node needs no fabric: nothing to filter
run "$A" recommend --model llama-3.1-8b --accelerator h100-sxm --gpus 1 --fabric-speed 800 --format csv -o one.csv
check "one node: no fabric, not filtered" equals "$(csv_col one.csv filtered)" "false"
# B300's ConnectX-8 runs 800 only in the catalog
run "$A" recommend --workload pretrain --model llama-3.1-8b --tokens 1T --accelerator b300 --gpus 64 \
	--fabric-speed 200 --format csv -o b3.csv
check "B300 at 200: filtered" contains "$(cat b3.csv)" "hgx-b300-8's NICs run 800 Gb/s, not 200"

# ---- copper within one rack, optics across racks (issue 17 item 6) ----
# 2 H100 nodes and their leaf in one 40 kW rack: passive DAC splitters
run "$A" bom --workload pretrain --model llama-3.1-8b --tokens 1T --accelerator h100-sxm --gpus 16 \
	-o c1.csv --elevation c1.txt
check "one rack: exit 0" rc 0
check "one rack: a single rack" equals "$(grep -c '^rack ' c1.txt)" "1"
check "one rack: the links are copper splitters" contains "$(cat c1.csv)" "MCP7Y00-Nxxx"
check "one rack: no optics on the fabric" lacks "$(cat c1.csv)" "MMS4X00-NS400"
run "$A" recommend --workload pretrain --model llama-3.1-8b --tokens 1T --accelerator h100-sxm --gpus 16 --format csv -o c1r.csv
# the rack's draw (bom --elevation) is the configuration's power
check "one rack: the rack draws power_kw" contains "$(cat c1.txt)" "$(awk -v p="$(csv_col c1r.csv power_kw)" 'BEGIN { printf "%.1f", p }') of 40 kW"
# copper draws under 0.1 W a cable: 16 links of 17.5 W optics are not in it
check "one rack: power_kw without the optics" equals "$(csv_col c1r.csv power_kw)" "22.52"
# 32 nodes span racks: optics
check "across racks: optics" contains "$(cat b200.csv)" "MMS4X00-NS400"
run "$A" bom --workload pretrain --model llama-3.1-8b --tokens 1T --accelerator h100-sxm --gpus 16 --fabric-speed 200 -o c2.csv
check "one rack at 200G: 1:4 copper splitters" contains "$(cat c2.csv)" "MCP7Y50-Nxxx"

# ---- scenario and errors ----
printf 'schema: 1\nworkload:\n  class: pretrain\n  model: llama-3.1-8b\n  tokens: 1T\naccelerator: h100-sxm\nnode:\n  gpus: 256\n  fabric_speed: 200\n' >s200.yaml
run "$A" recommend --scenario s200.yaml --format csv -o s200.csv
check "scenario node.fabric_speed 200: exit 0" rc 0
check "scenario node.fabric_speed 200: NDR200" equals "$(csv_col s200.csv fabric)" "ib-ndr200"
printf 'schema: 1\nworkload:\n  class: pretrain\nnode:\n  fabric_speed: fast\n' >bad.yaml
run "$A" recommend --scenario bad.yaml
check "scenario fabric_speed fast: exit 2" rc 2
check "scenario fabric_speed fast: file:line:col" matches "$err" "bad.yaml:5:[0-9]+: .*fabric_speed"
refuse_with "--fabric-speed fast is refused" "--fabric-speed" "$A" recommend --fabric-speed fast
refuse_with "--fabric-speed 0.5 is refused" "--fabric-speed" "$A" recommend --fabric-speed 0.5

done_testing
