#!/bin/sh
# Hostile terminals: the real wizard in tmux with TERM=dumb, TERM unset,
# TERM=vt100, a 20x5 window, 50 resizes in a row, a non-UTF-8 locale
# (LC_ALL=C), standard output not a terminal and standard input closed.
# None may crash, hang or garble the screen: the wizard either works, or
# refuses with exit 2 and a message saying what to use instead.
#
# Each case runs in this test's own tmux server (-L with the pid), polls
# with a bound (5 s), and the server is always killed, also on signals.
. "$TOP_SRCDIR/tests/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"

SOCK="accelsizer-hardening-terminals-$$"
tm() {
	tmux -L "$SOCK" -f /dev/null "$@"
}
cleanup() {
	tm kill-server >/dev/null 2>&1
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM HUP

# start W H 'ENV SETTINGS' 'REDIRECTIONS' ARGS...: the wizard in a fresh
# tmux session of W x H; its stderr goes to $TMPD/stderr and its exit
# status to $TMPD/rc when it ends (the pane then stays, for reading).
start() {
	w=$1 h=$2 envs=$3 redir=$4
	shift 4
	tm kill-server >/dev/null 2>&1
	rm -f "$TMPD/rc" "$TMPD/stderr"
	{
		echo "cd '$TMPD' || exit 99"
		printf "exec env %s '%s'" "$envs" "$ACCELSIZER"
		for a in "$@"; do printf " '%s'" "$a"; done
		printf " 2>'%s' %s\n" "$TMPD/stderr" "$redir"
	} >"$TMPD/launch.sh"
	n=10
	until tm new-session -d -s t -x "$w" -y "$h" \
		"sh '$TMPD/launch.sh'; echo \$? >'$TMPD/rc'; sleep 600" >/dev/null 2>&1; do
		n=$((n - 1))
		[ "$n" -gt 0 ] || break
		sleep 0.1
	done
}

screen() {
	screen=$(tm capture-pane -p -t t 2>/dev/null)
}

# wait_for TEXT: polls the screen (5 s at most) until it shows TEXT, then
# until it stops changing.
wait_for() {
	n=50
	while [ "$n" -gt 0 ]; do
		screen
		case $screen in *"$1"*) break ;; esac
		sleep 0.1
		n=$((n - 1))
	done
	[ "$n" -gt 0 ] || return 1
	n=20
	while [ "$n" -gt 0 ]; do
		prev=$screen
		sleep 0.05
		screen
		[ "$prev" = "$screen" ] && return 0
		n=$((n - 1))
	done
	return 0
}

# exit_status: waits (5 s at most) for the program to end; sets $rc, $err.
exit_status() {
	n=50
	while [ "$n" -gt 0 ] && [ ! -s "$TMPD/rc" ]; do
		sleep 0.1
		n=$((n - 1))
	done
	rc=$(cat "$TMPD/rc" 2>/dev/null || echo "still running")
	err=$(cat "$TMPD/stderr" 2>/dev/null)
}

keys() {
	tm send-keys -t t "$@"
}

# quit: q, then y if the wizard asks; sets $rc.
quit() {
	keys q
	sleep 0.2
	screen
	case $screen in *"(y/n)"*) keys y ;; esac
	exit_status
}

# check_screen NAME TEXT
check_screen() {
	if wait_for "$2"; then tap_ok "$1"; else tap_not_ok "$1" "expected on screen: $2" "screen:" "$screen"; fi
}

# Nothing a terminal should have interpreted shows up as text: escape
# sequence debris such as "[0m", "^[" or "\033", or (for ASCII screens)
# any byte outside printable ASCII.
no_debris() {
	name=$1 ascii=${2:-}
	screen
	bad=$(printf '%s\n' "$screen" | grep -nE '\^\[|\[[0-9;]*[mHJK]|\\033|\\e\[' | head -n 3)
	if [ -z "$bad" ] && [ -n "$ascii" ]; then
		bad=$(printf '%s\n' "$screen" | LC_ALL=C grep -n '[^ -~]' | head -n 3)
	fi
	if [ -z "$bad" ]; then tap_ok "$name"; else tap_not_ok "$name" "debris: $bad" "screen:" "$screen"; fi
}

REFUSE_HINT="'accelsizer recommend'"

# ---- TERM=dumb: cannot move the cursor, refused ----
start 80 24 "LC_ALL=C.UTF-8 TERM=dumb" ""
exit_status
check "TERM=dumb: exit 2" equals "$rc" 2
check "TERM=dumb: says why and what to use" equals "$err" \
	"accelsizer: the terminal 'dumb' cannot move the cursor, which the wizard needs; use a full terminal (e.g. TERM=xterm-256color) or $REFUSE_HINT"
no_debris "TERM=dumb: nothing drawn on the screen"

# ---- TERM unset, and a TERM no terminfo knows ----
start 80 24 "-u TERM LC_ALL=C.UTF-8" ""
exit_status
check "TERM unset: exit 2 (not ncurses' exit 1)" equals "$rc" 2
check "TERM unset: says to set it" equals "$err" \
	"accelsizer: TERM is not set, so the wizard cannot drive the terminal; set it (e.g. TERM=xterm-256color) or use $REFUSE_HINT"
start 80 24 "LC_ALL=C.UTF-8 TERM=no-such-terminal" ""
exit_status
check "TERM unknown: exit 2" equals "$rc" 2
check "TERM unknown: names it" contains "$err" "cannot use the terminal type 'no-such-terminal'"

# ---- TERM=vt100: no colours, works in monochrome ----
start 80 24 "LC_ALL=C.UTF-8 TERM=vt100" ""
check_screen "TERM=vt100: the step bar is drawn" "1 Workload"
check_screen "TERM=vt100: the key bar is drawn" "quit"
keys 3
check_screen "TERM=vt100: keys work (step 3)" "Silicon"
no_debris "TERM=vt100: no escape debris"
quit
check "TERM=vt100: q quits with exit 0" equals "$rc" 0

# ---- a 20x5 window: says so, in words that fit ----
start 20 5 "LC_ALL=C.UTF-8 TERM=xterm-256color" ""
check_screen "20x5: says what size it needs" "need 80x24"
check_screen "20x5: and what it has" "now 20x5, q quits"
no_debris "20x5: no escape debris"
tm resize-window -t t -x 80 -y 24
check_screen "20x5 then 80x24: the wizard appears" "1 Workload"
tm resize-window -t t -x 20 -y 5
check_screen "back to 20x5: the message again" "need 80x24"
quit
check "20x5: q quits with exit 0" equals "$rc" 0
check "20x5: nothing on stderr" equals "$err" ""

# ---- 50 resizes in a row, some too small, then a clean 80x24 screen ----
start 80 24 "LC_ALL=C.UTF-8 TERM=xterm-256color" ""
wait_for "1 Workload"
fresh=$screen
i=1
while [ $i -le 50 ]; do
	tm resize-window -t t -x $((10 + (i * 37) % 170)) -y $((3 + (i * 13) % 60))
	i=$((i + 1))
done
tm resize-window -t t -x 80 -y 24
wait_for "1 Workload"
sleep 0.3
screen
check "50 resizes: the program is still running" equals "$(cat "$TMPD/rc" 2>/dev/null)" ""
check "50 resizes: the 80x24 screen is exactly as before" equals "$screen" "$fresh"
keys 2
check_screen "50 resizes: keys still work" "Constraint"
quit
check "50 resizes: q quits with exit 0" equals "$rc" 0
check "50 resizes: nothing on stderr" equals "$err" ""

# ---- LC_ALL=C: ASCII only, nothing garbled ----
start 80 24 "LC_ALL=C TERM=xterm-256color" ""
check_screen "LC_ALL=C: the step bar in ASCII" "1 Workload > 2 Constraint"
no_debris "LC_ALL=C: only printable ASCII on the screen" ascii
keys 3
check_screen "LC_ALL=C: step 3" "Silicon"
no_debris "LC_ALL=C: step 3 in printable ASCII (bars too)" ascii
quit
check "LC_ALL=C: q quits with exit 0" equals "$rc" 0
start 80 24 "LC_ALL=C TERM=xterm-256color" "" --scenario "$TOP_SRCDIR/tests/fixtures/scenarios/good/inference.yaml"
check_screen "LC_ALL=C: a scenario with UTF-8 text opens" "1 Workload"
no_debris "LC_ALL=C: its UTF-8 text does not garble the screen" ascii
quit
check "LC_ALL=C with a UTF-8 scenario: exit 0" equals "$rc" 0

# ---- standard output not a terminal ----
WIZ_REFUSED="accelsizer: the wizard needs a terminal; use 'accelsizer recommend' for scripts"
start 80 24 "LC_ALL=C.UTF-8 TERM=xterm-256color" ">'$TMPD/out.txt'"
exit_status
check "stdout to a file: exit 2" equals "$rc" 2
check "stdout to a file: points to recommend" equals "$err" "$WIZ_REFUSED"
check "stdout to a file: no escape sequences written to it" equals "$(cat "$TMPD/out.txt")" ""
start 80 24 "LC_ALL=C.UTF-8 TERM=xterm-256color" "| cat >'$TMPD/pipe.txt'"
exit_status
check "stdout to a pipe: refused, pointing to recommend" equals "$err" "$WIZ_REFUSED"
check "stdout to a pipe: nothing written to it" equals "$(cat "$TMPD/pipe.txt")" ""

# ---- standard input not a terminal, or closed ----
start 80 24 "LC_ALL=C.UTF-8 TERM=xterm-256color" "</dev/null"
exit_status
check "stdin from /dev/null: exit 2" equals "$rc" 2
check "stdin from /dev/null: points to recommend" equals "$err" "$WIZ_REFUSED"
start 80 24 "LC_ALL=C.UTF-8 TERM=xterm-256color" "<&-"
exit_status
check "stdin closed: exit 2, no crash" equals "$rc" 2
check "stdin closed: points to recommend" equals "$err" "$WIZ_REFUSED"
start 80 24 "LC_ALL=C.UTF-8 TERM=xterm-256color" ">&-"
exit_status
check "stdout closed: exit 2, no crash" equals "$rc" 2
check "stdout closed: points to recommend" equals "$err" "$WIZ_REFUSED"

done_testing
