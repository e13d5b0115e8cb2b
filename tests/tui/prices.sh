#!/bin/sh
# The wizard's --prices: the same price list `accelsizer bom --prices` reads
# drives the BOM preview and export, and a bad one is refused before the
# screen opens.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

SCEN="$TOP_SRCDIR/tests/fixtures/scenarios/good/inference.yaml"
printf 'sku,unit_price_usd,discount_pct\nh100-sxm,27500,10\n' >"$TMPD/prices.csv"

# refused before the terminal is touched (no tty needed for that)
printf 'sku,unit_price_usd\nh100-sxm,-5\n' >"$TMPD/bad-prices.csv"
run "$ACCELSIZER" --prices "$TMPD/bad-prices.csv"
check "a bad price list: exit 2" rc 2
check "a bad price list: file, line and column named" contains "$err" "$TMPD/bad-prices.csv:2:10: "
run "$ACCELSIZER" --prices "$TMPD/none.csv"
check "a missing price list: exit 2" rc 2
check "a missing price list: path named" contains "$err" "$TMPD/none.csv"
run "$ACCELSIZER" --help
check "--help lists --prices" contains "$out" "--prices FILE"

tui_start 120 40 --scenario "$SCEN" --prices "$TMPD/prices.csv"
tui_wait "Input tokens"
tui_keys 5
tui_wait "Validation plan"
check_bom_export "$TMPD/wizard-bom.csv"
check "the price list's discounted GPU price is used" matches "$(cat "$TMPD/wizard-bom.csv" 2>/dev/null)" '^[0-9]+,accelerator,h100-sxm,.*,24750\.00,'

run "$ACCELSIZER" bom --scenario "$SCEN" --prices "$TMPD/prices.csv" -o "$TMPD/cli-bom.csv"
check "accelsizer bom --prices on the same scenario" rc 0
same "the wizard's priced BOM is the CLI's, byte for byte" "$TMPD/wizard-bom.csv" "$TMPD/cli-bom.csv"
tui_quit
check "quits cleanly" equals "$rc" "0"

done_testing
