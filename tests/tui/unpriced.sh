#!/bin/sh
# Unpriced BOM lines in the wizard (issue 17 items 1 and 6): the server
# and its parts, the front-end and out-of-band networks' switches and
# cables, the rack, the PDUs and the burn-in have no price in any source,
# so step 4's capex says it leaves them out and step 5's BOM marks them; a
# price list that names their SKUs prices them, and the marks go.  Step 3
# marks a capex that leaves lines out and shows none for a GPU no source
# prices, ranked after every priced one (the CLI's rule).
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

S="$TMPD/one.yaml"
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-3.1-8b\naccelerator: h100-sxm\nnode:\n  spare_nodes: 0\n' >"$S"
NET=$TOP_SRCDIR/tests/fixtures/prices/good/bom-parts.csv

tui_start 120 40 --scenario "$S"
tui_wait "Input tokens"
tui_keys 4
tui_wait "Parallel layout"
check_screen "step 4: the capex says it leaves 13 lines out" "Capex                  \$312,000.00  13 unpriced lines NOT in it"
tui_keys PgDn
tui_wait "Validation plan"
tui_keys Tab
tui_settle
check_screen_re "step 5: a network line is marked unpriced" "SN4600C.* unpriced"
check_screen_re "step 5: the BOM's total says it leaves them out" "Bill of materials: 15 lines, USD [0-9.]+ \\(13 unpriced not in it\\), "
check_bom_export "$TMPD/wizard-bom.csv"
run "$ACCELSIZER" bom --scenario "$S" -o "$TMPD/cli-bom.csv"
check "the CLI's BOM: exit 0" rc 0
same "the wizard's BOM with its unpriced lines is the CLI's, byte for byte" "$TMPD/wizard-bom.csv" "$TMPD/cli-bom.csv"

# step 3: priced GPUs first, each capex marked; then the GPUs with no price,
# no capex or cost figure
tui_keys 3
tui_wait "Ranked by"
tui_screen
order=$(printf '%s\n' "$screen" | sed 's/│.*//' | awk '
	{ f = $1; if (f !~ /^[0-9]+$/) f = $2 }
	f ~ /^[0-9]+$/ && / (-|\$[0-9,]+\*) / {
		if ($0 ~ /\$[0-9,]+\* /) { if (unknown) bad = 1; priced++ } else unknown++
	}
	END { print (bad ? "a priced row after an unpriced one" : priced " priced, then " unknown " with no price") }')
check "step 3: priced rows first, then the GPUs with no price" matches "$order" '^[1-9][0-9]* priced, then [1-9][0-9]* with no price$'
check_screen_re "step 3: B200 has no capex or cost figure" "B200 180GB +[0-9]+ +[0-9]+ +[0-9,.]+ +- +[0-9.]+ +-"
check_screen_re "step 3: H100 SXM's capex is marked" "H100 SXM5 80GB +[0-9]+ +[0-9]+ +[0-9,.]+ +\\\$[0-9,]+\\*"
tui_until '· NVIDIA B200 180GB' Down 20
check_screen "step 3: the line under the table says why B200 has no figure" \
	"- no GPU price: not ranked by cost; a price list line b200 gives one"
tui_quit
check "quits cleanly" equals "$rc" "0"

tui_start 120 40 --scenario "$S" --prices "$NET"
tui_wait "Input tokens"
tui_keys 4
tui_wait "Parallel layout"
run "$ACCELSIZER" bom --scenario "$S" --prices "$NET" -o "$TMPD/priced.csv"
total=$(tui_money "$(awk -F, '$2 == "total" { print $7 }' "$TMPD/priced.csv")")
check_screen "priced: the capex is the priced BOM's whole total" "Capex                  $total  the BOM total "
check_screen_lacks "priced: no unpriced line left" "unpriced"
tui_quit
check "quits cleanly (priced)" equals "$rc" "0"

done_testing
