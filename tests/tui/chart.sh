#!/bin/sh
# The trade-off chart (issue 15 item 10): step 3's g draws, for the
# accelerator under the cursor or the marked ones, tokens/s per GPU against
# tokens/s per user as the batch grows (engine_tradeoff_curve()), with the
# operating point and the per-user target marked; the figures it states
# are the CLI's (recommend's operating point, sweep --curve's batches); the
# ASCII fallback draws it with the theme's ASCII glyphs; Esc closes it.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

mkdir "$TMPD/cli" && cd "$TMPD/cli" || exit 1
run "$ACCELSIZER" recommend --format csv -o top.csv
top=$(csv_col top.csv accelerator)
tps_gpu=$(csv_col top.csv tokens_per_s_per_gpu)
batch=$(csv_col top.csv batch_per_replica)
run "$ACCELSIZER" sweep --curve --top 1 -o curve.csv
check "sweep --curve exits 0" rc 0
n_points=$(($(wc -l <curve.csv) - 1))
check "the curve has points" matches "$n_points" '^([3-9]|[1-9][0-9])$'
last=$(csv_col curve.csv batch "$n_points")
op_batch=
i=1
while [ "$i" -le "$n_points" ]; do
	[ "$(csv_col curve.csv operating_point "$i")" = true ] && op_batch=$(csv_col curve.csv batch "$i")
	i=$((i + 1))
done
check "the curve's operating row is the top result's batch" equals "$op_batch" "$batch"
gpu_shown=$(awk -v v="$tps_gpu" 'BEGIN { printf "%.0f", v }')

for size in 120x40 80x24; do
	tui_start "${size%x*}" "${size#*x}"
	tui_wait "Top ranked"
	tui_keys g
	tui_settle
	check_screen_lacks "$size: g on step 1 draws no chart" "Trade-off:"
	tui_keys 3
	tui_wait "Ranked by"
	tui_keys g
	check_screen "$size: g opens the trade-off chart" "Trade-off: tokens/s per GPU against tokens/s per user"
	check_screen "$size: the operating point is in the legend" "◉ operating point"
	check_screen "$size: the per-user target is marked" "┆ target 20.0 tok/s per user"
	check_screen "$size: the y axis is tokens/s per GPU" "tok/s per GPU"
	check_screen "$size: the x axis is tokens/s per user" "tok/s per user"
	tui_screen
	check "$size: the operating point is drawn" equals "$(printf '%s\n' "$screen" | sed -n '5,$p' | grep -c '◉')" 1
	check "$size: the curve's points are drawn" matches "$(printf '%s\n' "$screen" | grep -o '●' | wc -l)" '^ *([3-9]|[1-9][0-9])$'
	check "$size: the target is a vertical line" matches "$(printf '%s\n' "$screen" | grep -c '┆')" '^([5-9]|[1-9][0-9])$'
	check_screen_re "$size: the summary states recommend's operating point" \
		"● .*batch $batch, $gpu_shown tok/s per GPU"
	if [ "$size" = 120x40 ]; then
		check_screen "$size: ... and the batches the curve spans (sweep --curve)" "batch 1 to $last"
	fi
	tui_keys Escape
	tui_wait_gone "Trade-off:"
	check_screen "$size: Esc closes it, back on step 3" "Ranked by"
	tui_keys q
	tui_exit_status
	check "$size: quits cleanly" equals "$rc" "0"
done

# marked accelerators: one curve each, in rank order, with their own glyph
tui_start 120 40
tui_wait "Top ranked"
tui_keys 3
tui_wait "Ranked by"
tui_keys Space Down Space
tui_wait "Marked"
tui_keys g
check_screen "two marked: the first one's curve" "●"
check_screen_re "two marked: the second one's curve and summary" "▲ .*batch [0-9]+, [0-9,]+ tok/s per GPU"
tui_screen
check "two marked: two operating points" equals "$(printf '%s\n' "$screen" | sed -n '5,$p' | grep -o '◉' | wc -l | tr -d ' ')" 2
tui_keys g
tui_wait_gone "Trade-off:"
check_screen "g again closes it" "Ranked by"
tui_keys q
tui_exit_status

# ASCII: the theme's ASCII glyphs
tui_start 100 30 --ascii
tui_wait "Top ranked"
tui_keys 3
tui_wait "Ranked by"
tui_keys g
check_screen "ascii: the operating point" "O operating point"
check_screen "ascii: the target" ": target 20.0 tok/s per user"
tui_screen
check "ascii: no UTF-8 on the chart" equals "$(printf '%s\n' "$screen" | LC_ALL=C grep -c '[^ -~]')" 0
tui_keys Escape q
tui_exit_status

# training: no curve, and it says why
printf 'schema: 1\nworkload:\n  class: pretrain\n  model: llama-2-7b\n  tokens: 1e11\n' >"$TMPD/train.yaml"
tui_start 100 30 --scenario "$TMPD/train.yaml"
tui_wait "Top ranked"
tui_keys 3
tui_wait "Ranked by"
tui_keys g
check_screen "training: the chart says it is for serving" "is for serving (Class: inference)"
tui_keys Escape q
tui_exit_status
done_testing
