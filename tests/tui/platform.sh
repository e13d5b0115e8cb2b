#!/bin/sh
# Step 4's Platform row (issue 17 item 5): auto, then the catalog's
# platforms for the accelerator on screen; a choice re-sizes the node and
# the numbers are recommend --platform's for the same choice.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

S="$TMPD/pcie.yaml"
printf 'schema: 1\nworkload:\n  class: inference\naccelerator: h100-pcie\n' >"$S"
# no source prices the H100 PCIe: a price list gives it one, so the capex
# is a figure to compare (the servers stay unpriced: equal prices, so the
# engine takes the bigger node)
printf 'sku,unit_price_usd\nh100-pcie,20000\n' >"$TMPD/gpu.csv"
run "$ACCELSIZER" recommend --scenario "$S" --prices "$TMPD/gpu.csv" --platform pcie-h100-4 --format csv -o "$TMPD/p4.csv"
check "recommend --platform pcie-h100-4: exit 0" rc 0

tui_start 120 40 --scenario "$S" --prices "$TMPD/gpu.csv"
tui_wait "Input tokens"
tui_keys 4
tui_wait "Parallel layout"
check_screen "the 8-card server by default" "Node shape             PCIe server, 8 x H100 PCIe"
check_screen "the platform row starts at auto" "Platform               auto"
# editable rows: GPUs, Spare nodes, Rack power, Cooling, Fabric, Fabric
# speed, GPUs per node, Platform
tui_keys Down Down Down Down Down Down Down
tui_keys Right
check_screen_re "Right: the catalog's first platform for it, the 4-card server" "Platform +[^a-z ]* ?pcie-h100-4( |$)"
check_screen "the node is re-sized on it" "Node shape             PCIe server, 4 x H100 PCIe"
check_screen_re "working and spare nodes as recommend counts them" \
	"Nodes +$(csv_col "$TMPD/p4.csv" nodes) working \\+ $(csv_col "$TMPD/p4.csv" spare_nodes) spare"
check_screen "the capex is recommend --platform's to the cent" "Capex                  $(tui_money "$(csv_col "$TMPD/p4.csv" capex_usd)")"
check_screen "the status line says what was chosen" "Platform: PCIe server, 4 x H100 PCIe, 4 GPUs per node."
tui_keys Right
check_screen_re "Right again: the 8-card server" "Platform +[^a-z ]* ?pcie-h100-8( |$)"
tui_keys Right
check_screen_re "Right past the last: auto again" "Platform +[^a-z ]* ?auto"
check_screen "auto: the 8-card server again" "Node shape             PCIe server, 8 x H100 PCIe"
tui_keys q
tui_settle
case $screen in *"discard"*) tui_keys d ;; *"Quit without saving"*|*"unsaved"*) tui_keys y ;; esac
tui_exit_status
check "quits cleanly" equals "$rc" 0

done_testing
