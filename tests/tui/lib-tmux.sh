# Helpers for the wizard's end-to-end tests (sourced, not a test itself).
# Each test drives the real binary in its own tmux server (a socket named
# after the test and the shell's pid) and always kills it.
#
#   . "$TOP_SRCDIR/tests/tui/lib-tmux.sh"
#   tui_start 80 24 --scenario "$SCENARIO"     # LC_ALL=C.UTF-8, TERM=xterm-256color
#   tui_wait "1 Workload"  || ...               # polls capture-pane, up to 5 s
#   tui_keys 3                                 # tmux send-keys
#   tui_screen                                 # sets $screen
#   tui_exit_status                            # waits for the program to end; sets $rc
. "$TOP_SRCDIR/tests/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"

TUI_SOCK="accelsizer-$(basename "$0" .sh)-$$"
SCENARIO="$TOP_SRCDIR/tests/tui/llama70b-fp16.yaml"
export SCENARIO

tm() {
	tmux -L "$TUI_SOCK" -f /dev/null "$@"
}

# Stops this test's tmux server and waits until it is gone, so the next
# session never talks to a dying server.
tm_stop() {
	tm kill-server >/dev/null 2>&1
	n=30
	while [ "$n" -gt 0 ] && tm has-session >/dev/null 2>&1; do
		sleep 0.05
		n=$((n - 1))
	done
}

# tm_new ARGS...: new-session in $TMPD (anything the wizard writes to a
# relative path stays there), retried while a previous server winds down.
tm_new() {
	tm_stop
	n=10
	while [ "$n" -gt 0 ]; do
		tm new-session -d -s t -c "$TMPD" "$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		n=$((n - 1))
	done
	tm new-session -d -s t -c "$TMPD" "$@"
}

tui_cleanup() {
	tm kill-server >/dev/null 2>&1
	rm -rf "$TMPD"
}
trap tui_cleanup EXIT
trap 'tui_cleanup; exit 1' INT TERM HUP

# tui_start_env W H "ENV=..." ... -- ARGS...: starts the wizard in a fresh
# session with extra environment.  A launcher script records the wizard's
# pid in $TMPD/pid (it execs into the wizard), stderr goes to
# $TMPD/stderr and the exit status to $TMPD/rc when it ends.
tui_start_env() {
	w=$1 h=$2
	shift 2
	rm -f "$TMPD/rc" "$TMPD/stderr" "$TMPD/pid"
	{
		echo "echo \$\$ >'$TMPD/pid'"
		printf 'exec env LC_ALL=C.UTF-8 TERM=xterm-256color'
		while [ $# -gt 0 ] && [ "$1" != "--" ]; do
			printf " '%s'" "$1"
			shift
		done
		[ "${1-}" = "--" ] && shift
		printf " '%s'" "$ACCELSIZER"
		for a in "$@"; do printf " '%s'" "$a"; done
		printf " 2>'%s'\n" "$TMPD/stderr"
	} >"$TMPD/launch.sh"
	# the pane stays after exit (sleep) so a failure can still be read
	tm_new -x "$w" -y "$h" "sh '$TMPD/launch.sh'; echo \$? >'$TMPD/rc'; sleep 60"
}

tui_start() {
	w=$1 h=$2
	shift 2
	tui_start_env "$w" "$h" -- "$@"
}

tui_screen() {
	screen=$(tm capture-pane -p -t t 2>/dev/null)
}

# Captures until two captures 50 ms apart agree (at most 2 s): the
# program has finished drawing what it drew.
tui_settle() {
	n=40
	tui_screen
	while [ "$n" -gt 0 ]; do
		sleep 0.05
		prev=$screen
		tui_screen
		[ "$prev" = "$screen" ] && return 0
		n=$((n - 1))
	done
}

# Screen with escape sequences (colours and attributes).
tui_screen_escapes() {
	screen_e=$(tm capture-pane -p -e -t t 2>/dev/null)
}

# tui_wait TEXT [TENTHS]: polls the screen until it shows TEXT (default
# 5 s).  Returns 1 on timeout, with the last screen in $screen.
tui_wait() {
	n=${2:-50}
	while [ "$n" -gt 0 ]; do
		tui_screen
		case $screen in *"$1"*) tui_settle; return 0 ;; esac
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# tui_wait_re ERE [TENTHS]: like tui_wait with an extended regex.
tui_wait_re() {
	n=${2:-50}
	while [ "$n" -gt 0 ]; do
		tui_screen
		printf '%s\n' "$screen" | grep -Eq -- "$1" && { tui_settle; return 0; }
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# tui_wait_gone TEXT: until TEXT is no longer on the screen.
tui_wait_gone() {
	n=${2:-50}
	while [ "$n" -gt 0 ]; do
		tui_screen
		case $screen in *"$1"*) ;; *) return 0 ;; esac
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

tui_keys() {
	tm send-keys -t t "$@"
}

# Types text literally (no key names).
tui_type() {
	tm send-keys -t t -l "$1"
}

# tui_answer KEY PROMPT TEXT: KEY opens a one-line prompt (save, export,
# proposal); once PROMPT shows, the offered text is cleared and TEXT typed
# and entered.  The caller waits for what the answer does.
tui_answer() {
	tui_keys "$1"
	tui_wait "$2"
	tui_keys C-u
	tui_type "$3"
	tui_keys Enter
}

tui_resize() {
	tm resize-window -t t -x "$1" -y "$2"
}

# Waits (up to 5 s) for the program to end; sets $rc and $err.
tui_exit_status() {
	n=${1:-50}
	while [ "$n" -gt 0 ] && [ ! -s "$TMPD/rc" ]; do
		sleep 0.1
		n=$((n - 1))
	done
	rc=$(cat "$TMPD/rc" 2>/dev/null || echo "still running")
	err=$(cat "$TMPD/stderr" 2>/dev/null)
}

# check_screen NAME TEXT: waits for TEXT and records one TAP line.
check_screen() {
	if tui_wait "$2"; then
		tap_ok "$1"
	else
		tap_not_ok "$1" "expected on screen: $2" "screen:" "$screen"
	fi
}

# check_screen_re NAME ERE: waits for a line matching ERE.
check_screen_re() {
	if tui_wait_re "$2"; then
		tap_ok "$1"
	else
		tap_not_ok "$1" "expected a line matching: $2" "screen:" "$screen"
	fi
}

# check_bom_export FILE [ERE]: e from step 5 with two checks: the prompt
# offers the default path, and, once FILE is entered, the status line
# says it was written (followed by ERE when given).
check_bom_export() {
	tui_keys e
	check_screen "e prompts with the default BOM path" "Export BOM to: ./accelsizer-bom.csv"
	tui_keys C-u
	tui_type "$1"
	tui_keys Enter
	check_screen_re "exported" "Exported [0-9]+ BOM lines to $1${2-}"
}

# check_screen_lacks NAME TEXT: the current screen must not show TEXT.
check_screen_lacks() {
	tui_screen
	case $screen in
	*"$2"*) tap_not_ok "$1" "not expected on screen: $2" "screen:" "$screen" ;;
	*) tap_ok "$1" ;;
	esac
}

# A mouse click at 0-based column x, row y, as xterm reports it to a
# program that asked for SGR mouse mode (what ncurses asks for with
# TERM=xterm-256color): ESC [ < 0 ; x+1 ; y+1 M, then the release (m).
tui_click() {
	esc=$(printf '\033')
	tm send-keys -t t -l "$esc[<0;$(($1 + 1));$(($2 + 1))M$esc[<0;$(($1 + 1));$(($2 + 1))m"
}

# The line of the screen that contains TEXT (first match).
screen_line() {
	printf '%s\n' "$screen" | grep -F -m1 -- "$1"
}

# tui_until ERE KEY [TRIES]: presses KEY (tmux key name) until a line of
# the screen matches ERE, at most TRIES times (default 20); returns 1 when
# it never does, with the last screen in $screen.
tui_until() {
	_tu_n=${3:-20}
	while :; do
		tui_settle
		printf '%s\n' "$screen" | grep -Eq -- "$1" && return 0
		[ "$_tu_n" -gt 0 ] || return 1
		tui_keys "$2"
		_tu_n=$((_tu_n - 1))
	done
}

# tui_goto LABEL [KEY] [TRIES]: presses KEY (default Down) until the row
# under the cursor is the one labelled LABEL, at most TRIES times (default
# 60), so a test names the row it edits instead of counting the rows
# before it.  The row under the cursor is the one painted in the theme's
# field_focus role (themes/dark.yaml, the default: black on cyan, SGR 46);
# returns 1 when it never gets there, with the last screen in $screen.
tui_goto() {
	_tg_n=${3:-60}
	_tg_esc=$(printf '\033')
	while :; do
		tui_settle
		tui_screen_escapes
		# the label ends at a space or at the next attribute change
		case $screen_e in *"$_tg_esc[46m $1 "* | *"$_tg_esc[46m $1$_tg_esc"*) return 0 ;; esac
		[ "$_tg_n" -gt 0 ] || return 1
		tui_keys "${2:-Down}"
		_tg_n=$((_tg_n - 1))
	done
}

# tui_quit: q, discarding unsaved changes when the wizard asks; then waits
# for the program to end ($rc, $err as tui_exit_status sets them).
tui_quit() {
	tui_keys q
	tui_settle
	case $screen in *"Quit without saving"*) tui_keys y ;; esac
	tui_exit_status
}

# tui_money VALUE [PREFIX]: a csv money figure as the wizard writes it,
# "878472.00" -> "$878,472.00" (PREFIX default "$", e.g. "EUR ").
tui_money() {
	awk -v v="$1" -v pre="${2-\$}" 'BEGIN {
		split(v, p, "."); i = p[1]; s = ""
		while (length(i) > 3) { s = "," substr(i, length(i) - 2) s; i = substr(i, 1, length(i) - 3) }
		printf "%s%s%s%s\n", pre, i, s, (p[2] != "" ? "." p[2] : "")
	}'
}
