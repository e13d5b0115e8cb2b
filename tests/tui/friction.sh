#!/bin/sh
# Friction (issue 12 item 12): Space marks without moving the cursor;
# compare lists the marked in rank order and keeps each name readable at
# 80 columns; unmarked rows get no selection-coloured cell; e, s and o are
# in the key bar wherever they work; the "?" on step 3 is explained.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

# the accelerator named on the why-line under the table: the cursor's row
why_name() {
	tui_settle
	printf '%s\n' "$screen" | grep -E '(^| · )(NVIDIA|AMD|Intel) [^:]*: ' | tail -n 1 |
		sed 's/.* · //; s/:.*//'
}

tui_start 80 24
tui_wait "Input tokens"
tui_screen
check "step 1's key bar has e, s and o" matches "$(printf '%s\n' "$screen" | tail -n 1)" "e export.*s save.*o open"
check "the ? on step 3 is explained" matches "$screen" "Silicon\\? = none chosen yet"
tui_keys n n
tui_wait "Ranked by"
# the second, third and fourth: the first (RTX PRO 6000 Blackwell Server
# Edition) has a name longer than the status line and the compare column
# show whole at 80 columns
tui_keys Down Down Down
third=$(why_name)
tui_keys Space
check "Space marks without moving the cursor" equals "$(why_name)" "$third"
tui_keys Up Up
first=$(why_name)
tui_keys Space Down
second=$(why_name)
tui_keys Space
tui_keys c
tui_wait "Compare 3 accelerators"
hdr=$(printf '%s\n' "$screen" | sed -n '3,4p')
check "the cursor's row is named under the table" matches "$first" '^(NVIDIA|AMD|Intel) '
for n in first second third; do
	eval "full=\$$n"
	short=$(printf '%s' "$full" | sed 's/^[A-Za-z]* //')
	check "compare at 80 columns: the $n-ranked's name is whole" contains "$hdr" "$short"
	# a long name wraps over both header lines: its column is where its
	# first words are, on whichever line they are
	eval "pos_$n=$(printf '%s\n' "$hdr" | awk -v s="$(printf '%s' "$short" | cut -c1-12)" '
		{ i = index($0, s); if (i && !p) p = i } END { print p + 0 }')"
done
check "compare: columns in rank order, whatever order they were marked in" equals \
	"$( [ "$pos_first" -gt 0 ] && [ "$pos_first" -lt "$pos_second" ] && [ "$pos_second" -lt "$pos_third" ] && echo yes)" "yes"
tui_keys Escape
tui_wait "Ranked by"

# unmark them all (rows 3, 4, then 2) and leave the cursor on row 1; row 2
# is then neither marked nor chosen nor under the cursor
tui_keys Space Down Space Up Up Space Up
tui_settle
tm capture-pane -p -e -t t >"$TMPD/esc.txt"
at=$(printf '%s\n' "$screen" | grep -nE '^ +2 [A-Z]' | head -n 1 | cut -d: -f1)
# the escaped line up to the rank's digit: the mark and arrow cells
row2=$(sed -n "${at:-1}p" "$TMPD/esc.txt" | sed -E 's/2.*//')
check "an unmarked row's mark cells have no background colour" equals \
	"$(printf '%s' "$row2" | grep -Ec '\[(4[0-7]|10[0-7])m')" "0"

tui_keys n
tui_wait "Node shape"
check "step 4's key bar has e, s and o" matches "$(printf '%s\n' "$screen" | tail -n 1)" "e export.*s save.*o open"
tui_keys q
tui_settle
case $screen in *"Unsaved changes"*) tui_keys d ;; esac
tui_exit_status

# The BOM's total row: units that match the header (W in power_w_each)
run "$ACCELSIZER" bom --scenario "$TOP_SRCDIR/tests/fixtures/scenarios/good/inference.yaml" -o "$TMPD/b.csv"
total_w=$(tail -n 1 "$TMPD/b.csv" | awk -F, '{ print $8 }')
lines=$(($(wc -l <"$TMPD/b.csv") - 2))
sum_w=0 r=1
while [ $r -le $lines ]; do
	sum_w=$(awk -v a="$sum_w" -v q="$(csv_col "$TMPD/b.csv" qty $r)" -v p="$(csv_col "$TMPD/b.csv" power_w_each $r)" \
		'BEGIN { printf "%.0f", a + q * p }')
	r=$((r + 1))
done
check "the total row's power is in W, the sum of qty x power_w_each" equals "$total_w" "$sum_w"
done_testing
