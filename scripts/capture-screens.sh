#!/bin/sh
# capture-screens.sh: text captures of every wizard step, taken from the
# real binary running in tmux at 100x30, written to docs/screens.md (and
# into README.md between its "screens" markers, when it has them).
#
#   scripts/capture-screens.sh [-b BINARY] [-o FILE] [--no-readme]
#
# BINARY defaults to $ACCELSIZER, then build/accelsizer, then accelsizer
# on $PATH.  The wizard reads the source tree's catalog and themes, in a
# UTF-8 locale, with the demo scenario below, so the captures do not
# depend on the machine.  Needs tmux.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${ACCELSIZER:-}
out=$top/docs/screens.md
readme=$top/README.md
cols=100 lines=30
while [ $# -gt 0 ]; do
	case $1 in
	-b) bin=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	--no-readme) readme=""; shift ;;
	-h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "capture-screens.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ -z "$bin" ]; then
	if [ -x "$top/build/accelsizer" ]; then bin=$top/build/accelsizer
	else bin=$(command -v accelsizer || true); fi
fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "capture-screens.sh: no accelsizer binary (build it, or give -b)" >&2; exit 2; }
command -v tmux >/dev/null 2>&1 || { echo "capture-screens.sh: tmux is not installed" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/capture-screens.XXXXXX")
sock=accelsizer-capture-$$
tm() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { tm kill-server >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM

# The demo: a presales call about a chat assistant.
cat >"$tmp/acme-chat.yaml" <<'EOF'
schema: 1
customer: ACME Corp
opportunity: Chat assistant
workload:
  class: inference
  model: llama-3.1-70b
  precision: fp8
  kv_precision: fp8
  input_tokens: 2048
  output_tokens: 512
  concurrency: 128
  tokens_per_s_per_user: 25
  ttft_ms: 800
objective: capex
EOF

tm new-session -d -s cap -x "$cols" -y "$lines" \
	"env LC_ALL=C.UTF-8 TERM=xterm-256color ACCELSIZER_CATALOG='$top/catalog' \
	 '$bin' --scenario '$tmp/acme-chat.yaml' 2>'$tmp/stderr'; sleep 600"

screen() { tm capture-pane -p -t cap | sed 's/[[:space:]]*$//'; }

# settle PREVIOUS: waits (up to 5 s) until the screen differs from PREVIOUS
# and has stopped changing, then prints it.
settle() {
	prev=$1 last="" n=0
	while [ $n -lt 50 ]; do
		sleep 0.1
		cur=$(screen)
		if [ "$cur" != "$prev" ] && [ "$cur" = "$last" ] && [ -n "$cur" ]; then
			printf '%s\n' "$cur"
			return 0
		fi
		last=$cur
		n=$((n + 1))
	done
	echo "capture-screens.sh: the screen did not settle; last screen:" >&2
	printf '%s\n' "$cur" >&2
	cat "$tmp/stderr" >&2 2>/dev/null || true
	return 1
}

first=$(settle "")
case $first in
*"1 Workload"*) ;;
*) echo "capture-screens.sh: the wizard did not start" >&2; exit 1 ;;
esac

names="Workload Constraint Silicon Node Validate"
prev=$first
i=0
for name in $names; do
	i=$((i + 1))
	if [ $i = 1 ]; then
		shot=$first
	else
		tm send-keys -t cap n	# a digit would edit step 4's GPU field
		shot=$(settle "$prev")
	fi
	printf '%s\n' "$shot" >"$tmp/step$i"
	prev=$shot
done
# Step 3 again, three accelerators marked, the comparison.
tm send-keys -t cap p
prev=$(settle "$prev")
tm send-keys -t cap p
prev=$(settle "$prev")
tm send-keys -t cap Space Down Space Down Space
prev=$(settle "$prev")
tm send-keys -t cap c
settle "$prev" >"$tmp/compare"
tm send-keys -t cap Escape
prev=$(settle "$(cat "$tmp/compare")")
tm send-keys -t cap '?'
settle "$prev" >"$tmp/help"

version=$("$bin" --version)
{
	cat <<EOF
# The wizard, step by step

Text captures of the real program ($version) in a 100x30 terminal,
taken with tmux by \`scripts/capture-screens.sh\` (run it again after
changing the wizard, the engine or the catalog). Colours are not shown.
The scenario is a chat assistant: Llama 3.1 70B at fp8, 2048-token
prompts and 512-token answers, 128 concurrent users who each need 25
tokens/s and a first token within 800 ms:

\`\`\`yaml
$(cat "$tmp/acme-chat.yaml")
\`\`\`

opened with \`accelsizer --scenario acme-chat.yaml\`. The bottom part of
every screen is the live side panel: memory, bandwidth and interconnect
use of each accelerator, the binding one marked with ◆.
EOF
	i=0
	for name in $names; do
		i=$((i + 1))
		printf '\n## Step %d: %s\n\n' "$i" "$name"
		case $i in
		1) echo "The workload: class, model, precision, tokens per request, users and targets, filters." ;;
		2) echo "What the workload needs, and which resource binds first on each accelerator." ;;
		3) echo "The accelerators ranked under the objective (here lowest capex); \`b\` changes it." ;;
		4) echo "The node and cluster for the chosen accelerator; every figure can be overridden." ;;
		5) echo "The validation plan (what to measure before buying) and the bill of materials." ;;
		esac
		printf '\n```text\n'
		cat "$tmp/step$i"
		printf '```\n'
	done
	printf '\n## Comparing accelerators\n\nIn step 3, `Space` marks up to three accelerators and `c` compares them side by side.\n\n```text\n'
	cat "$tmp/compare"
	printf '```\n\n## Help\n\n`?` or `F1` lists every key.\n\n```text\n'
	cat "$tmp/help"
	printf '```\n'
} >"$tmp/screens.md"

mkdir -p "$(dirname "$out")"
cat "$tmp/screens.md" >"$out"
echo "capture-screens.sh: wrote $out"

# README.md: the five steps (not the comparison and help) between
#   <!-- screens: begin (scripts/capture-screens.sh) -->
#   <!-- screens: end -->
if [ -n "$readme" ] && [ -f "$readme" ] && grep -q '^<!-- screens: begin' "$readme"; then
	{
		i=0
		for name in $names; do
			i=$((i + 1))
			printf '\n**Step %d: %s**\n\n```text\n' "$i" "$name"
			cat "$tmp/step$i"
			printf '```\n'
		done
		echo
	} >"$tmp/block"
	awk -v block="$tmp/block" '
		/^<!-- screens: begin/ { print; while ((getline l < block) > 0) print l; skip = 1; next }
		/^<!-- screens: end/ { skip = 0 }
		!skip { print }' "$readme" >"$tmp/readme"
	if ! cmp -s "$tmp/readme" "$readme"; then
		cat "$tmp/readme" >"$readme"
		echo "capture-screens.sh: updated the screens in $readme"
	fi
fi
