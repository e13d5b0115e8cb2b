#!/bin/sh
# A platform chosen on step 4 belongs to its accelerator (issue 17 item
# 5): choosing another accelerator on step 3 drops it, so step 4 shows
# Platform auto and sizes the new accelerator on its own default node, the
# capex recommend gives for it with no --platform.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

A=h100-pcie
B=a100-pcie-80gb
B_ROW="A100 80GB PCIe"	# its name in step 3's ranking
S="$TMPD/pcie.yaml"
printf 'schema: 1\nworkload:\n  class: inference\naccelerator: %s\n' "$A" >"$S"
# no source prices either card: a price list does, so the capex is a figure
printf 'sku,unit_price_usd\n%s,20000\n%s,12000\n' "$A" "$B" >"$TMPD/gpus.csv"
run "$ACCELSIZER" recommend --scenario "$S" --prices "$TMPD/gpus.csv" --accelerator "$B" --format csv -o "$TMPD/b.csv"
check "recommend --accelerator $B: exit 0" rc 0

tui_start 120 40 --scenario "$S" --prices "$TMPD/gpus.csv"
tui_wait "Input tokens"
tui_keys 4
tui_wait "Parallel layout"
# editable rows: GPUs, Spare nodes, Rack power, Cooling, Fabric, Fabric
# speed, GPUs per node, Platform
tui_keys Down Down Down Down Down Down Down
tui_until '^ Platform +[^a-z ]* ?pcie-h100-4( |$)' Right 4
check_screen_re "step 4: $A on the 4-card platform" "Platform +[^a-z ]* ?pcie-h100-4( |$)"
check_screen "step 4: its node" "Node shape             PCIe server, 4 x H100 PCIe"

tui_keys 3
check_screen "step 3: the ranking" "Ranked by"
# the cursor starts on the accelerator in use (the marked row); move it
# to B's row, as many rows down (or up) as the screen puts them apart
from=$(printf '%s\n' "$screen" | grep -n -m1 '▸ *[0-9]* H100 PCIe' | cut -d: -f1)
to=$(printf '%s\n' "$screen" | grep -n -m1 "^ *[0-9]* $B_ROW " | cut -d: -f1)
check "step 3: $A's row is marked chosen" matches "${from:-none}" '^[0-9]+$'
check "step 3: $B is ranked" matches "${to:-none}" '^[0-9]+$'
if [ -n "$from" ] && [ -n "$to" ]; then
	k=Down n=$((to - from))
	[ "$n" -lt 0 ] && k=Up n=$((from - to))
	while [ "$n" -gt 0 ]; do
		tui_keys "$k"
		n=$((n - 1))
	done
fi
tui_keys Enter
check_screen "step 3: $B chosen" "Chose NVIDIA $B_ROW"
check_screen_re "step 3: $B's row is marked chosen" "▸ +[0-9]+ $B_ROW "

tui_keys 4
check_screen "step 4: $B" "Accelerator            NVIDIA $B_ROW"
check_screen_re "step 4: Platform auto, $A's platform dropped" "^ Platform +[^a-z ]* ?auto +│"
check_screen_lacks "step 4: no trace of pcie-h100-4" "pcie-h100-4"
check_screen_re "working and spare nodes as recommend counts them" \
	"Nodes +$(csv_col "$TMPD/b.csv" nodes) working \\+ $(csv_col "$TMPD/b.csv" spare_nodes) spare"
check_screen "the capex is recommend --accelerator $B's to the cent" \
	"Capex                  $(tui_money "$(csv_col "$TMPD/b.csv" capex_usd)")"
tui_quit
check "quits cleanly" equals "$rc" 0

done_testing
