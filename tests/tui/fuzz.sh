#!/bin/sh
# No crash on any key sequence: thousands of random keys (resizes and mouse
# clicks included) through the real key handler on a real screen with the
# hidden test mode, then a few hundred random keystrokes typed through tmux.
# Under the ASan build any memory error or leak fails the run.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

sanitizer_clean() {
	case $1 in
	*AddressSanitizer*|*LeakSanitizer*|*"runtime error"*|*UndefinedBehavior*) return 1 ;;
	esac
	return 0
}

# Random keys can save the scenario under its own name plus whatever was
# typed: run on a copy in this test's folder, never on the source tree's.
cp "$SCENARIO" "$TMPD/scenario.yaml"
SCENARIO=$TMPD/scenario.yaml

for spec in "80 24 3000:1" "120 40 3000:2" "100 30 2000:3"; do
	set -- $spec
	tui_start_env "$1" "$2" "ACCELSIZER_TEST_KEYS=$3" -- --scenario "$SCENARIO"
	tui_exit_status 300
	check "test keys $3 at $1x$2: exit 0" equals "$rc" "0"
	check "test keys $3 at $1x$2: every key handled" contains "$err" "test mode: ${3%%:*} keys handled"
	if sanitizer_clean "$err"; then
		tap_ok "test keys $3 at $1x$2: no sanitizer report"
	else
		tap_not_ok "test keys $3 at $1x$2: no sanitizer report" "$(printf '%s' "$err" | head -n 30)"
	fi
done
check "test mode writes no files" equals "$(ls "$TMPD" | grep -c 'accelsizer-')" "0"

# real keystrokes: random keys from what a person might press (no q or
# Ctrl-C, so the wizard must still be there at the end)
tui_start 100 30 --scenario "$SCENARIO"
tui_wait "Input tokens"
awk -v seed=42 'BEGIN {
	srand(seed)
	n = split("Up Down Left Right Tab BTab Enter Escape NPage PPage + - ? F1 1 2 3 4 5 n p b Space c e s o [ ] C-l BSpace DC Home End a x 0 7 k M . , y m l Enter Escape", k, " ")
	for (i = 0; i < 400; i++) printf "%s%s", k[int(rand() * n) + 1], (i % 20 == 19 ? "\n" : " ")
}' >"$TMPD/keys.txt"
batch=0
while read -r line; do
	# shellcheck disable=SC2086
	tui_keys $line
	batch=$((batch + 1))
	case $batch in
	5) tui_resize 70 20 ;;
	6) tui_resize 140 45 ;;
	12) tui_resize 80 24 ;;
	13) tui_resize 100 30 ;;
	esac
done <"$TMPD/keys.txt"
sleep 0.3
check "after 400 random keystrokes the wizard still runs" equals "$(test -e "$TMPD/rc" && echo ended || echo running)" "running"
# back to a known place: close whatever is open, go to step 1
tui_keys Escape Escape Escape n
sleep 0.2
tui_keys Escape 1
check_screen "it still answers: step 1" "1 Workload"
tui_keys q
sleep 0.2
tui_keys y
tui_exit_status 50
check "and quits cleanly" equals "$rc" "0"
if sanitizer_clean "$err"; then
	tap_ok "random keystrokes: no sanitizer report"
else
	tap_not_ok "random keystrokes: no sanitizer report" "$(printf '%s' "$err" | head -n 30)"
fi

check "the source tree's scenario folder holds no saved copy" equals \
	"$(ls "$TOP_SRCDIR/tests/tui" | grep -c '^llama70b-fp16\.yaml.')" "0"

done_testing
