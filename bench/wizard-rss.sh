#!/bin/sh
# The wizard's resident memory as a user runs it: accelsizer in a detached
# tmux pane (120x40), a few keys on every step, then VmHWM (peak) and VmRSS
# from /proc/PID/status.  Prints "VmHWM_KB VmRSS_KB", or a reason on stderr
# and exit 1.
#   bench/wizard-rss.sh ACCELSIZER
set -u
bin=${1:?usage: wizard-rss.sh ACCELSIZER}
command -v tmux >/dev/null 2>&1 || { echo "tmux not found" >&2; exit 1; }
[ -r /proc/self/status ] || { echo "no /proc" >&2; exit 1; }

sock=accelsizer-bench-$$
errf=$(mktemp "${TMPDIR:-/tmp}/accelsizer-rss.XXXXXX")
t() { tmux -L "$sock" "$@" 2>/dev/null; }
trap 't kill-server; rm -f "$errf"' EXIT

t -f /dev/null new-session -d -x 120 -y 40 \
	"exec env LC_ALL=${LC_ALL:-C.UTF-8} TERM=xterm-256color $bin 2>$errf" ||
	{ echo "tmux could not start a session" >&2; exit 1; }
pid=$(t list-panes -F '#{pane_pid}' | head -n 1)
# wait until the wizard has drawn its step bar
i=0
while :; do
	if ! scr=$(t capture-pane -p) || ! kill -0 "$pid" 2>/dev/null; then
		echo "the wizard exited at start: $(head -c 300 "$errf")" >&2
		exit 1
	fi
	case $scr in *Workload*) break ;; esac
	i=$((i + 1))
	if [ $i -ge 50 ]; then
		echo "the wizard drew no step bar in 5 s" >&2
		exit 1
	fi
	sleep 0.1
done
# a field change on step 1, then every step and the help screen
for k in Down Down '+' '+' '-' 2 3 Down 4 5 '?' Escape 1; do
	t send-keys "$k"
	sleep 0.05
done
sleep 0.3
hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
if [ -z "$hwm" ]; then
	echo "the wizard (pid $pid) stopped during the keys: $(head -c 300 "$errf")" >&2
	exit 1
fi
echo "$hwm $rss"
