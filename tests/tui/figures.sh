#!/bin/sh
# No figure is cut (issue 12 item 6): a 405B pretraining needs 13,200 B200s
# and capex in the hundreds of millions; step 3 showed "$765,900,60" and
# "1320".  Every figure on step 3 and in the side panel is whole, or
# abbreviated with its unit (13.2k, $998.1M); the panel keeps its units.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

printf 'schema: 1\nworkload:\n  class: pretrain\n  model: llama-3.1-405b\n  tokens: 15e12\n  target_hours: 1440\n' >"$TMPD/405b.yaml"
# no source prices the B200: a price list gives it one, so its capex is a
# figure (marked: the servers and the rest stay unpriced)
printf 'sku,unit_price_usd\nb200,35000\n' >"$TMPD/b200.prices"
run "$ACCELSIZER" recommend --scenario "$TMPD/405b.yaml" --prices "$TMPD/b200.prices" --accelerator b200 --format csv -o "$TMPD/b200.csv"
gpus=$(awk -F, 'NR == 2 { gsub(/"/, ""); print $4 }' "$TMPD/b200.csv")
check "the CLI sizes B200 at more than 9,999 GPUs" matches "$gpus" '^[0-9]{5}$'

# The figure as written whole (with or without separators) or abbreviated
# to one decimal with k/M: 13200 -> 13200|13,200|13.2k.
gpu_re=$(awk -v v="$gpus" 'BEGIN {
	s = sprintf("%d", v); c = substr(s, 1, length(s) - 3) "," substr(s, length(s) - 2)
	printf "(%s|%s|%.1fk)", s, c, v / 1000 }')

for size in 80x24 120x40; do
	tui_start "${size%x*}" "${size#*x}" --scenario "$TMPD/405b.yaml" --prices "$TMPD/b200.prices"
	tui_wait "Top ranked"
	tui_keys 3
	tui_wait "Ranked by"
	tui_screen
	# the table's row (left of the panel, after its rank), the panel's line
	row=$(printf '%s\n' "$screen" | sed 's/│.*//' | grep -E '[0-9]+ (NVIDIA )?B200 180GB' | head -n 1)
	check "$size: B200's GPU count is whole or abbreviated" matches "$row" "B200 180GB +$gpu_re "
	check "$size: B200's capex is whole or abbreviated with its unit" matches "$row" '\$([0-9]{3},[0-9]{3},[0-9]{3}|[0-9][0-9,]*\.[0-9]M|[0-9.]+B)\*? '
	check "$size: B200's run cost is whole or abbreviated" matches "$row" '\$([0-9]{2},[0-9]{3},[0-9]{3}|[0-9]+\.[0-9]M)\*?( |$|│)'
	# no money figure in the table ends in a cut group ("$765,900,60")
	check "$size: no cut money figure on step 3" equals \
		"$(printf '%s\n' "$screen" | grep -Eo '\$[0-9,]+' | grep -Ev '^\$[0-9]{1,3}(,[0-9]{3})*$' | head -n 3)" ""
	# the side panel: the GPU count whole or abbreviated, and its units kept
	if [ "$size" = 120x40 ]; then
		panel=$(printf '%s\n' "$screen" | grep '│' | sed 's/^[^│]*│//' | grep 'B200 180GB' | head -n 1)
	else
		panel=$(printf '%s\n' "$screen" | grep -E '^(▸| ) B200 180GB' | head -n 1)
	fi
	if [ "$size" = 120x40 ]; then
		check "$size: panel keeps 'GPUs' after the count" matches "$panel" "$gpu_re GPUs"
		check "$size: panel memory figures keep their unit" matches "$(printf '%s\n' "$screen" | grep -A1 'NVIDIA B200 180GB' | sed -n 2p)" 'mem .*[0-9]+(\.[0-9])?/[0-9,.]+ (GB|TB) '
		check "$size: panel bandwidth keeps its unit" matches "$(printf '%s\n' "$screen" | grep -A2 'NVIDIA B200 180GB' | sed -n 3p)" 'of [0-9.,]+ (TB|PB)/s'
	else
		check "$size: compact panel GPU count whole or abbreviated" matches "$panel" "B200 180GB +$gpu_re "
	fi
	tui_quit
done
check "quits cleanly" equals "$rc" "0"

done_testing
