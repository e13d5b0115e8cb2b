#!/bin/sh
# Unpriced BOM lines in the wizard (issue 17 item 6): the front-end and
# out-of-band networks' switches and cables, the rack, the PDUs and the
# burn-in have no price in any source, so step 4's capex says it leaves
# them out and step 5's BOM marks them; a price list that names their
# SKUs prices them, and the marks go.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

S="$TMPD/one.yaml"
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-3.1-8b\naccelerator: h100-sxm\nnode:\n  spare_nodes: 0\n' >"$S"
printf 'sku,unit_price_usd\nMSN4600C,1000\nDAC-100G-QSFP28,10\nMSN2201,500\nCAT6A-PATCH,1\nRACK,1000\nPDU,100\nBURN-IN,1000\n' >"$TMPD/net.csv"

tui_start 120 40 --scenario "$S"
tui_wait "Input tokens"
tui_keys 4
tui_wait "Parallel layout"
check_screen "step 4: the capex says it leaves 7 lines out" "Capex                  \$432,536.00  7 unpriced lines NOT in it"
tui_keys PgDn
tui_wait "Validation plan"
tui_keys Tab
tui_settle
check_screen_re "step 5: a network line is marked unpriced" "SN4600C.* unpriced"
check_screen_re "step 5: the BOM's total says it leaves them out" "Bill of materials: 15 lines, USD [0-9.]+ \\(7 unpriced not in it\\), "
tui_keys e
check_screen "e prompts with the default BOM path" "Export BOM to: ./accelsizer-bom.csv"
tui_keys C-u
tui_type "$TMPD/wizard-bom.csv"
tui_keys Enter
check_screen_re "exported" "Exported [0-9]+ BOM lines to $TMPD/wizard-bom.csv"
run "$ACCELSIZER" bom --scenario "$S" -o "$TMPD/cli-bom.csv"
check "the CLI's BOM: exit 0" rc 0
if cmp -s "$TMPD/wizard-bom.csv" "$TMPD/cli-bom.csv"; then
	tap_ok "the wizard's BOM with its unpriced lines is the CLI's, byte for byte"
else
	tap_not_ok "the wizard's BOM with its unpriced lines is the CLI's, byte for byte" \
		"$(diff "$TMPD/wizard-bom.csv" "$TMPD/cli-bom.csv" | head -n 10)"
fi
tui_quit
check "quits cleanly" equals "$rc" "0"

tui_start 120 40 --scenario "$S" --prices "$TMPD/net.csv"
tui_wait "Input tokens"
tui_keys 4
tui_wait "Parallel layout"
run "$ACCELSIZER" bom --scenario "$S" --prices "$TMPD/net.csv" -o "$TMPD/priced.csv"
total=$(tui_money "$(awk -F, '$2 == "total" { print $7 }' "$TMPD/priced.csv")")
check_screen "priced: the capex is the priced BOM's whole total" "Capex                  $total  the BOM total "
check_screen_lacks "priced: no unpriced line left" "unpriced"
tui_quit
check "quits cleanly (priced)" equals "$rc" "0"

done_testing
