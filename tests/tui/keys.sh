#!/bin/sh
# Keys and mouse: help generated from the action table, redraw, quitting
# (confirmation, Ctrl-C, SIGTERM restore the terminal), choosing, marking
# and comparing in step 3, the objective, node overrides, panel scrolling.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

alt_screen() {
	tm display-message -p -t t '#{alternate_on}'
}

tui_start 120 40 --scenario "$SCENARIO"
tui_wait "Input tokens"
tui_screen
bar=$(printf '%s\n' "$screen" | tail -n1)

# ---- help ----
tui_keys ?
check_screen "? opens help" "Esc or ? closes"
tui_screen
check "help lists the objective key" matches "$screen" "b +cycle the ranking objective"
check "help lists the workload keys" matches "$screen" "w +several workloads: switch to the scenario's next workload"
# every key the bar shows is in help: one table for both
missing=""
for k in "?/F1" "q" "Enter" "+/-" "PgDn/n" "PgUp/p" "1-5" "[ ]"; do
	case $bar in *"$k "*) ;; *) continue ;; esac
	printf '%s\n' "$screen" | grep -qF -- "  $k " || missing="$missing $k"
done
check "every key bar entry is in help" equals "$missing" ""
# the glyph legend follows the keys: a page down (PgDn pages help by ten)
tui_keys NPage
tui_settle
check "help explains the glyphs" matches "$screen" "◆ +binding: the resource that runs out first"
check "help lists Ctrl-L" matches "$screen" "Ctrl-L +redraw the whole screen"
tui_keys Escape
check_screen "Esc closes help" "Input tokens"
tui_keys F1
check_screen "F1 opens help" "Esc or ? closes"
tui_keys ?
check_screen "? closes help" "Input tokens"

tui_keys C-l
check_screen "Ctrl-L redraws" "Input tokens"

# ---- mouse ----
tui_click 30 0
check_screen "a click on the step bar changes step" "Ranked by lowest capex"
tui_click 2 39
check_screen "a click on the key bar runs the key" "Esc or ? closes"
tui_keys Escape

# ---- step 3: objective, choose, mark, compare ----
tui_keys 3
tui_wait "Ranked by"
tui_keys b
check_screen "b changes the objective" "Ranked by lowest cost per token"
tui_keys b b b b b
check_screen "b cycles back" "Ranked by lowest capex"
tui_keys c
check_screen "compare needs marks" "Mark two or three accelerators with Space first."
tui_keys Space Down Space
check_screen "Space marks (the cursor stays; Down to the next)" "(2 of 3); c compares."
tui_keys c
check_screen "c opens the comparison" "Compare 2 accelerators"
tui_screen
check "compare: GPUs row" matches "$screen" "GPUs +[0-9]+"
check "compare: capex row" matches "$screen" "Capex +\\\$[0-9,]+"
check "compare: bars for memory" matches "$screen" "Memory fit +[^ ]+ +[0-9]+% "
check "compare: best value marked" contains "$screen" "★"
tui_keys Escape
check_screen "Esc closes the comparison" "Ranked by"
tui_keys Up Space
check_screen "Space again unmarks" "Unmarked"

tui_keys Enter
check_screen "Enter chooses the accelerator" "step 4 shows its node"
tui_screen
check "the step bar no longer asks for step 3" matches "$(printf '%s\n' "$screen" | head -n1)" "3 Silicon ›"
chosen=$(printf '%s\n' "$screen" | grep -m1 "^Chose " | sed 's/^Chose \(.*\); step 4.*/\1/')

# ---- step 4: overrides ----
tui_keys 4
check_screen "step 4 names the chosen accelerator" "Accelerator            $chosen"
tui_screen
auto=$(printf '%s\n' "$screen" | sed -n 's/.* GPUs  *auto (\([0-9]*\)).*/\1/p' | head -n1)
tui_keys +
want=$((auto + 1))
check_screen_re "+ overrides the GPU count" "GPUs +$want "
check_screen "the override shows in the panel" "$want GPUs"
tui_keys Enter C-u
tui_type "auto"
tui_keys Enter
check_screen_re "auto gives the count back to the engine" "GPUs +auto \\($auto\\)"
# serving is N+1 by default (auto = 1): + asks for a second spare
tui_keys Down +
check_screen_re "spare nodes override" "Spare nodes +2 "
check_screen_re "nodes follow the spare" "Nodes +[0-9]+ working \\+ 2 spare"

# ---- panel scrolling ----
tui_screen
first=$(printf '%s\n' "$screen" | sed -n 3p | sed 's/.*│//')
tui_keys ]
tui_wait_gone "$first" 20
tui_screen
check "] scrolls the panel" lacks "$(printf '%s\n' "$screen" | sed -n 3p)" "$first"
tui_keys [
check_screen "[ scrolls it back" "$first"

# ---- quitting ----
tui_keys q
check_screen "q with changes asks" "Quit without saving? s save, d discard, Esc cancel"
tui_keys n
check_screen "n keeps the wizard" "Not quitting."
tui_keys q
tui_wait "Quit without saving?"
tui_keys Escape
check_screen "Esc answers no" "Not quitting."

tui_keys C-c
tui_exit_status
check "Ctrl-C ends the wizard (128+SIGINT)" equals "$rc" "130"
check "Ctrl-C leaves the alternate screen" equals "$(alt_screen)" "0"
tui_screen
check "Ctrl-C: the wizard is off the screen" lacks "$screen" "1 Workload"

tui_start 80 24 --scenario "$SCENARIO"
tui_wait "Input tokens"
tui_keys +
tui_wait "[+] accelsizer"
pid=$(cat "$TMPD/pid")
kill -TERM "$pid"
tui_exit_status
check "SIGTERM ends the wizard (128+SIGTERM)" equals "$rc" "143"
check "SIGTERM leaves the alternate screen" equals "$(alt_screen)" "0"
check "SIGTERM: nothing on stderr" equals "$err" ""

done_testing
