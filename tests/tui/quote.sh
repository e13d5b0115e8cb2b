#!/bin/sh
# Step 4 shows the quote the CLI prints and the BOM totals: working + spare
# = total nodes as `recommend` counts them, capex to the cent with a
# breakdown that adds up to it, and --prices moving steps 3 and 4 as it
# moves `recommend --prices` (issue 12, items 3, 4 and 5).
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

SCEN="$TOP_SRCDIR/tests/fixtures/scenarios/good/inference.yaml"
printf 'sku,unit_price_usd,discount_pct\nh100-sxm,27500,10\n' >"$TMPD/prices.csv"


# ---- without a price list ----
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --format csv -o "$TMPD/rec.csv"
tui_start 120 40 --scenario "$SCEN"
tui_wait "Input tokens"
tui_keys 4
tui_wait "Parallel layout"
check_screen_re "step 4: working + spare = total, as recommend counts them" \
	"Nodes +$(csv_col "$TMPD/rec.csv" nodes) working \\+ $(csv_col "$TMPD/rec.csv" spare_nodes) spare = 2 nodes"
capex=$(tui_money "$(csv_col "$TMPD/rec.csv" capex_usd)")
check_screen "step 4: capex is recommend's capex_usd to the cent" "Capex                  $capex"
check_screen "step 4: hardware part" "Hardware               $(tui_money "$(csv_col "$TMPD/rec.csv" capex_hardware_usd)")"
check_screen "step 4: fabric part" "Fabric                 $(tui_money "$(csv_col "$TMPD/rec.csv" capex_fabric_usd)")"
check_screen "step 4: racks and PDUs part" "Racks and PDUs         $(tui_money "$(csv_col "$TMPD/rec.csv" capex_racks_usd)")"
check_screen "step 4: support part" "Support                $(tui_money "$(csv_col "$TMPD/rec.csv" capex_support_usd)")"
check_screen "step 4: services part" "Services               $(tui_money "$(csv_col "$TMPD/rec.csv" capex_services_usd)")"

# One more spare node: still working + spare = total.
# to the last editable row (Rent term), then up past TCO years, Support
# term, Platform, GPUs per node, Fabric speed, Fabric, Cooling and Rack
# power to Spare nodes
tui_keys Down Down Down Down Down Down Down Down Down Down Down Up Up Up Up Up Up Up Up Up
tui_keys +
check_screen_re "step 4 after +: one more spare, the working nodes unchanged" "Nodes +1 working \\+ 2 spare = 3 nodes"
tui_quit

# ---- with a price list: steps 3 and 4 follow it as recommend does ----
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices "$TMPD/prices.csv" \
	--format csv -o "$TMPD/recp.csv"
check "recommend --prices: exit 0" rc 0
pcapex=$(tui_money "$(csv_col "$TMPD/recp.csv" capex_usd)")
check "the price list changes capex" lacks "$pcapex" "$capex"
tui_start 120 40 --scenario "$SCEN" --prices "$TMPD/prices.csv"
tui_wait "Input tokens"
tui_keys 4
check_screen "step 4 with --prices: capex is recommend --prices' capex_usd" "Capex                  $pcapex"
tui_keys p
whole=$(printf '%s' "$pcapex" | sed 's/^\$//; s/\..*//')
check_screen_re "step 3 with --prices: the priced capex in the table" \
	"H100 SXM5 80GB +[0-9]+ +[0-9]+ +[0-9,]+ +[$]$whole"
tui_quit
check "quits cleanly" equals "$rc" "0"

done_testing
