#!/bin/sh
# The hostile-input suite of issue 13: one or more cases per finding, so
# that none of them can come back.  Each block names the item it guards.
#   1 outputs compared by identity      8 (neutralising: tests/cli)
#   2 all or nothing, under a lock      9 no FIFO hangs anything
#   3 full disks fail loudly           10 signals clean up (TUI: tests/tui)
#   4 the cache is trusted when ours   11/12 (TUI: tests/tui/resize, keys)
#   5 one set of bounds                13 a byte-order mark is accepted
#   6 percentages are decimals         14 (checks that could only pass)
#   7 LoRA rank within the model
. "$TOP_SRCDIR/tests/lib.sh"

FIX=$TOP_SRCDIR/tests/fixtures
GOOD=$FIX/catalog/good
SCEN=$FIX/scenarios/good/inference.yaml
cd "$TMPD" || exit 1

# refused NAME EXPECTED-MESSAGE COMMAND...: exit 2 with that message, within
# a 10 s guard (124 = it hung).
refused() {
	name=$1 want=$2
	shift 2
	run timeout 10 "$@"
	if [ "$rc" = 2 ] && case $err in *"$want"*) true ;; *) false ;; esac; then
		tap_ok "$name"
	else
		tap_not_ok "$name" "exit $rc (124 = hung)" "expected: $want" "stderr: $err"
	fi
}

# ---- 13: a UTF-8 byte-order mark before the first key ----
grep -v '^#' "$SCEN" >plain.yaml
{ printf '\357\273\277'; cat plain.yaml; } >bom-scenario.yaml
run "$ACCELSIZER" recommend --scenario plain.yaml
want=$out
run "$ACCELSIZER" recommend --scenario bom-scenario.yaml
check "13: scenario opening with a BOM is read" rc 0
check "13: ... and sized as without it" equals "$out" "$want"
cp -R "$GOOD" bomcat
f=$(ls bomcat/accelerators/*.yaml | head -n1)
{ printf '\357\273\277'; grep -v '^#' "$f"; } >"$f.new" && mv "$f.new" "$f"
run "$ACCELSIZER" catalog check bomcat
check "13: catalog file opening with a BOM passes catalog check" rc 0

# ---- 6: discount_pct is a decimal percentage, not cents ----
# A $1,000,000 unit less 12.345 % is 876,550.00 (the money parser made it
# 12.34 %); 99.999 % is not 100 %; 100.004 % is refused.
pct_unit() {	# DISCOUNT: the accelerator line's unit price
	printf 'sku,unit_price_usd,discount_pct\nh100-sxm,1000000,%s\n' "$1" >pct.csv
	run "$ACCELSIZER" bom --scenario "$SCEN" --accelerator h100-sxm --prices pct.csv -o -
	printf '%s\n' "$out" | grep ',accelerator,h100-sxm,' | cut -d, -f6
}
check "6: discount 12.345 % of 1,000,000 is 876,550.00" equals "$(pct_unit 12.345)" "876550.00"
check "6: discount 99.999 % leaves 10.00, not 0" equals "$(pct_unit 99.999)" "10.00"
printf 'sku,unit_price_usd,discount_pct\nh100-sxm,1000000,100.004\n' >pct.csv
refused "6: discount 100.004 % is refused" "pct.csv:record 2: discount_pct '100.004' is outside 0-100" \
	"$ACCELSIZER" bom --scenario "$SCEN" --prices pct.csv -o -

done_testing
