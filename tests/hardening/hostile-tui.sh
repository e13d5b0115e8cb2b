#!/bin/sh
# The wizard's part of issue 13's hostile-input suite (the CLI's is
# hostile.sh), driven in tmux and judged by what a person sees:
#   1  export and save never overwrite an input (price list, scenario)
#   9  a FIFO as export or save target is refused at once; q still quits
#  10  every fatal signal puts the terminal back (alternate screen, mouse
#      reporting, keypad mode, cursor)
#  11  squeezed to 1 column and back to 80x24, the screen is whole again
#      (the main screen and the model pick list)
#  12  Alt+key in a prompt is one key and ignored: the typed path stays,
#      the key does not run as a command
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

cd "$TMPD" || exit 1
printf 'sku,unit_price_usd\nRACK,1000\n' >p.csv
cp "$SCENARIO" s.yaml
mkfifo out.fifo
ln -s out.fifo fifo-link.csv

flag() {	# a tmux pane flag: alternate_on, mouse_any_flag, cursor_flag, ...
	tm display-message -p -t t "#{$1}"
}

# ---- 1 and 9: export and save targets ----
tui_start 100 30 --scenario "$TMPD/s.yaml" --prices "$TMPD/p.csv"
tui_wait "Input tokens"
tui_keys 5
tui_wait "Validation plan"
tui_keys e C-u
tui_type "./p.csv"
tui_keys Enter
check_screen "1: export over the --prices file is refused" "export './p.csv' is the --prices file"
tui_keys e C-u
tui_type "$TMPD/s.yaml"
tui_keys Enter
check_screen "1: export over the opened scenario is refused" "is the --scenario file"
tui_keys s C-u
tui_type "p.csv"
tui_keys Enter
check_screen "1: save over the --prices file is refused" "save 'p.csv' is the --prices file"
check "1: the price list is untouched" equals "$(cat p.csv)" "sku,unit_price_usd
RACK,1000"
tui_keys e C-u
tui_type "out.fifo"
tui_keys Enter
check_screen "9: export to a FIFO is refused at once" "Cannot write 'out.fifo': not a regular file"
tui_keys s C-u
tui_type "fifo-link.csv"
tui_keys Enter
check_screen "9: save to a link to a FIFO is refused at once" "Cannot write 'fifo-link.csv': not a regular file"
tui_keys q
tui_wait "Quit without saving?" 20 || true
tui_keys y
tui_exit_status
check "9: q still quits" equals "$rc" "0"

# ---- 12: Alt+key in a prompt ----
tui_start 100 30 --scenario "$TMPD/s.yaml"
tui_wait "Input tokens"
tui_keys 3
tui_wait "Ranked by"
tui_screen
before=$(printf '%s\n' "$screen" | grep 'Ranked by')
tui_keys 5
tui_wait "Validation plan"
tui_keys e C-u
tui_type "typed-path.csv"
tui_keys M-b
sleep 0.3
check_screen "12: Alt+b leaves the export prompt open with the typed path" "Export BOM to: typed-path.csv"
tui_keys M-x M-3
sleep 0.3
check_screen "12: ... so do Alt+x and Alt+3" "Export BOM to: typed-path.csv"
tui_keys Escape
check_screen "12: Esc alone still cancels" "Cancelled."
tui_keys 3
tui_wait "Ranked by"
tui_screen
check "12: the ranking was not changed by the b of Alt+b" equals \
	"$(printf '%s\n' "$screen" | grep 'Ranked by')" "$before"
check "12: nothing was exported" equals "$(ls typed-path.csv 2>/dev/null)" ""

# ---- 11: a 1-column window and back ----
tui_start 80 24 --scenario "$TMPD/s.yaml"
tui_wait "Input tokens"
tui_screen
fresh=$screen
for h in 24 3; do
	tui_resize 1 $h
	sleep 0.4
	tui_resize 80 24
	sleep 0.5
	tui_settle
	check "11: 1x$h and back to 80x24: the screen is whole again" equals "$screen" "$fresh"
done
tui_keys m
tui_wait "Llama"
tui_settle
picker=$screen
tui_resize 1 24
sleep 0.4
tui_resize 80 24
sleep 0.5
tui_settle
check "11: the model pick list too" equals "$screen" "$picker"

# ---- 10: every fatal signal puts the terminal back ----
for pair in QUIT:3 HUP:1 PIPE:13 USR1:10 ALRM:14 INT:2 TERM:15; do
	sig=${pair%:*}
	tui_start 80 24 --scenario "$TMPD/s.yaml"
	tui_wait "Input tokens"
	before="$(flag alternate_on)$(flag mouse_any_flag)$(flag cursor_flag)"	# 1 1 0 while running
	if [ "$sig" = QUIT ]; then
		tui_keys 'C-\'	# as a person sends it
	else
		kill -$sig "$(cat "$TMPD/pid")"
	fi
	tui_exit_status
	after="alt=$(flag alternate_on) mouse=$(flag mouse_any_flag) cursor=$(flag cursor_flag) keypad=$(flag keypad_flag)"
	want="alt=0 mouse=0 cursor=1 keypad=0"
	if [ "$rc" = $((128 + ${pair#*:})) ] && [ "$after" = "$want" ] && [ "$before" = "110" ]; then
		tap_ok "10: SIG$sig: the terminal is put back ($want)"
	else
		tap_not_ok "10: SIG$sig: the terminal is put back ($want)" "exit $rc" \
			"while running: alt, mouse, cursor = $before" "after: $after" "stderr: $err"
	fi
done

done_testing
