#!/bin/sh
# The wizard's resident memory as a user runs it: accelsizer in a detached
# tmux pane (120x40), a few keys on every step, then VmHWM (peak) and VmRSS
# from /proc/PID/status.  Prints "VmHWM KB VmRSS KB", or a reason on stderr
# and exit 1.
#   bench/wizard-rss.sh ACCELSIZER
set -u
bin=${1:?usage: wizard-rss.sh ACCELSIZER}
command -v tmux >/dev/null 2>&1 || { echo "wizard-rss: tmux not found" >&2; exit 1; }
[ -r /proc/self/status ] || { echo "wizard-rss: no /proc" >&2; exit 1; }

sock=accelsizer-bench-$$
t() { tmux -L "$sock" "$@"; }
trap 't kill-server 2>/dev/null' EXIT

t -f /dev/null new-session -d -x 120 -y 40 \
	"exec env LC_ALL=${LC_ALL:-C.UTF-8} TERM=xterm-256color $bin" || exit 1
pid=$(t list-panes -F '#{pane_pid}' | head -n 1)
# wait until the wizard has drawn its step bar
i=0
while [ $i -lt 50 ]; do
	t capture-pane -p | grep -q 'Workload' && break
	sleep 0.1
	i=$((i + 1))
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
	echo "wizard-rss: the wizard (pid $pid) is not running" >&2
	exit 1
fi
echo "$hwm $rss"
