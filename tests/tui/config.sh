#!/bin/sh
# Step 4's configuration choices (issue 17 items 4 and 5): the site's
# cooling, the fabric kind and the GPUs per node are rows of step 4; a
# change re-sizes, the fabric and the rack elevation follow, and the
# numbers are the CLI's for the same choice.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

S="$TMPD/train16.yaml"
printf 'schema: 1\nworkload:\n  class: pretrain\n  model: llama-2-7b\n  precision: bf16\n  tokens: 2e12\naccelerator: h100-sxm\nnode:\n  gpus: 16\n' >"$S"

run "$ACCELSIZER" recommend --scenario "$S" --fabric ethernet --format csv -o "$TMPD/eth.csv"
check "recommend --fabric ethernet: exit 0" rc 0
run "$ACCELSIZER" recommend --scenario "$S" --fabric ethernet --fabric-speed 200 --format csv -o "$TMPD/eth200.csv"
check "recommend --fabric ethernet --fabric-speed 200: exit 0" rc 0

tui_start 120 40 --scenario "$S"
tui_wait "Training tokens"
tui_keys 4
tui_wait "Parallel layout"
check_screen "step 4: the elevation row" "Rack elevation"
# the first rack as bom --elevation heads it: the nodes, the leaf on top,
# the front-end pair and the OOB switch below it (issue 17 item 4)
run "$ACCELSIZER" bom --scenario "$S" -o "$TMPD/b.csv" --elevation "$TMPD/e.txt"
rack1=$(sed -n 's/^\(rack 1: [^;]*\);.*/\1/p' "$TMPD/e.txt")
check "bom --elevation: rack 1 holds the facility switches" equals "$rack1" \
	"rack 1: node 1-2 U1-16, oob 1 U37, front-end 1-2 U38-41, leaf 1 U42"
# (the row is cut at the side panel: its first 48 columns)
check_screen "step 4: the first rack, as bom --elevation heads it" "First rack            $(printf '%s' "$rack1" | cut -c1-48)"
check_screen "step 4: InfiniBand by default (nics.fabrics' first)" "Scale-out              InfiniBand NDR 400G (Quantum-2 QM9700)"
check_screen "step 4: the fabric row starts at auto" "Fabric                 auto"
# editable rows: GPUs, Spare nodes, Rack power, Cooling, Fabric, ...
tui_keys Down Down Down Down
tui_keys Right
check_screen_re "Right on Fabric: infiniband" "Fabric +[^a-z ]* ?infiniband"
tui_keys Right
check_screen_re "Right again: ethernet" "Fabric +[^a-z ]* ?ethernet"
check_screen "the nodes are re-sized on RoCE" "Scale-out              RoCE 400GbE (Spectrum-4 SN5600)"
capex=$(tui_money "$(csv_col "$TMPD/eth.csv" capex_usd)")
check_screen "the capex is recommend --fabric ethernet's to the cent" "Capex                  $capex"
# Cooling: up one row
tui_keys Up
tui_keys Right
check_screen_re "Cooling air" "Cooling +[^a-z ]* ?air"
tui_keys Right
check_screen_re "Cooling liquid" "Cooling +[^a-z ]* ?liquid"
# Fabric speed, two rows down: 200 Gb/s re-sizes on the split-port fabric
# (--fabric-speed; catalog nics.split_gbit, breakout fabrics)
check_screen_re "the fabric speed row starts at auto" "Fabric speed +auto"
tui_keys Down Down
tui_keys 2 0 0 Enter
check_screen_re "Fabric speed 200" "Fabric speed +200 Gb/s"
check_screen "the nodes are re-sized on 200GbE" "Scale-out              RoCE 200GbE (Spectrum-4 SN5600, split ports)"
check_screen "the capex is recommend --fabric-speed 200's to the cent" \
	"Capex                  $(tui_money "$(csv_col "$TMPD/eth200.csv" capex_usd)")"
run "$ACCELSIZER" recommend --scenario "$S" --fabric ethernet --fabric-speed 200 --format csv -o "$TMPD/x.csv"
check "recommend --fabric-speed 200: the split-port fabric" equals "$(csv_col "$TMPD/eth200.csv" fabric)" "roce-200"
tui_keys q
tui_settle
case $screen in *"discard"*) tui_keys d ;; *"Quit without saving"*|*"unsaved"*) tui_keys y ;; esac
tui_exit_status
check "quits cleanly" equals "$rc" 0

# GPUs per node on a PCIe card: the 8-card server (no source prices either
# server: at equal prices the bigger node), then the 4-card one
P="$TMPD/l40s.yaml"
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-3.1-8b\n  precision: fp8\n  concurrency: 8\naccelerator: l40s\n' >"$P"
tui_start 120 40 --scenario "$P"
tui_wait "Input tokens"
tui_keys 4
tui_wait "Parallel layout"
check_screen "l40s: the 8-card server by default" "Node shape             PCIe server, 8 x"
tui_keys Down Down Down Down Down Down
tui_keys 4 Enter
check_screen_re "GPUs per node 4" "GPUs per node +4( |$)"
check_screen "the 4-card server" "Node shape             PCIe server, 4 x"
tui_keys q
tui_settle
case $screen in *"discard"*) tui_keys d ;; *"Quit without saving"*|*"unsaved"*) tui_keys y ;; esac
tui_exit_status
check "quits cleanly (l40s)" equals "$rc" 0

done_testing
