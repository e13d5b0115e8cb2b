#!/bin/sh
# The rack elevation in the proposal (issue 17 items 4 and 7): which node
# sits in which rack at which unit, the PDUs and each rack's draw, equal to
# `bom --elevation` for the same scenario.  The table's rows are derived
# here from bom --elevation's rack lines on their own rule (consecutive
# racks alike once their node and switch numbers are set aside share a
# row), in Markdown and in HTML alike.
# shellcheck source=tests/lib.sh source-path=SCRIPTDIR/../..
. "$TOP_SRCDIR/tests/lib.sh"

mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1
SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH

# expected FILE.txt: the Markdown rows bom --elevation's rack lines make
expected() {
	awk '/^rack [0-9]+: / {
		n = $2; sub(/:$/, "", n)
		line = $0; sub(/^rack [0-9]+: /, "", line)
		holds = line; sub(/; [^;]* kW( \(over\))?$/, "", holds)
		draw = line; sub(/^.*; /, "", draw)
		shape = holds; gsub(/(node|spare|leaf|spine) [0-9]+(-[0-9]+)?/, "&#", shape)
		gsub(/ [0-9]+(-[0-9]+)?#/, "", shape); shape = shape "|" draw
		if (count && shape == last_shape) { to = n; to_holds = holds; count++; next }
		if (count) emit()
		from = n; from_holds = holds; last_shape = shape; last_draw = draw; count = 1
	}
	function emit() {
		if (count == 1) printf "| %s | %s | %s |\n", from, from_holds, last_draw
		else printf "| %s-%s | %s; ... rack %s: %s | %s each |\n", from, to, from_holds, to, to_holds, last_draw
	}
	END { if (count) emit() }' "$1"
}
# table FILE.md: the proposal's elevation rows
table() {
	sed -n '/^## Rack elevation/,/^## /p' "$1" | grep '^| [0-9]'
}

calls="bank-chat lab-pretrain startup-lora"
for call in $calls big; do
	case $call in
	big) set -- --workload pretrain --model llama-3.1-70b --accelerator h100-sxm --gpus 256 ;;
	*) set -- --scenario "$TOP_SRCDIR/examples/$call.yaml" ;;
	esac
	run "$ACCELSIZER" bom "$@" -o "$call.csv" --elevation "$call.txt"
	check "$call: bom --elevation written" rc 0
	run "$ACCELSIZER" proposal "$@" -o "$call.md"
	check "$call: proposal.md written" rc 0
	run "$ACCELSIZER" proposal "$@" -o "$call.html"
	check "$call: proposal.html written" rc 0
	want=$(expected "$call.txt")
	check "$call: bom --elevation has racks" matches "$want" '^\| 1'
	check "$call: the proposal's racks are bom --elevation's" equals "$(table "$call.md")" "$want"
	racks=$(sed -n 's/^accelsizer rack elevation: .* in \([0-9]*\) racks*$/\1/p' "$call.txt")
	check "$call: the sentence's rack count is the elevation's" contains "$(cat "$call.md")" \
		" in $racks rack"
	nodes=$(sed -n 's/^accelsizer rack elevation: \([0-9]*\) nodes* of .*/\1/p' "$call.txt")
	check "$call: the sentence's node count is the elevation's" matches "$(cat "$call.md")" \
		"^$nodes nodes? \\("
	pdus=$(sed -n 's/^  42U, \([0-9]*\) PDUs* (0U, at the rear)$/\1/p' "$call.txt" | sort -u)
	check "$call: the PDUs per rack are the elevation's" contains "$(cat "$call.md")" "$pdus PDUs each"
	# HTML: the same rows, cell by cell
	html_rows=$(sed -n '/<section id="elevation">/,/<\/section>/p' "$call.html" | grep -c '^<tr><th>')
	check "$call: HTML has as many rack rows" equals "$html_rows" "$(printf '%s\n' "$want" | wc -l | tr -d ' ')"
	first=$(printf '%s\n' "$want" | sed -n 1p | awk -F' \\| ' '{ print $2 }')
	check "$call: HTML's first row holds what bom --elevation's rack 1 does" contains \
		"$(sed -n '/<section id="elevation">/,/<\/section>/p' "$call.html")" "<td>$first</td>"
done
# the bank's two racks: its working node and its N+1 spare, one per 15 kW rack
check "bank: the working node in rack 1, the spare in rack 2" equals "$(table bank-chat.md)" \
"| 1 | node 1 U1-10, oob 1 U38, front-end 1-2 U39-42 | 14.5 of 15 kW |
| 2 | spare 2 U1-10 | 14.5 of 15 kW |"
check "bank: 15 kW is the user's" contains "$(cat bank-chat.md)" "at 15 kW (your input)"
check "big: alike racks share a row" contains "$(table big.md)" \
	"| 5-10 | node 13-15 U1-24; ... rack 10: node 28-30 U1-24 | 31.2 of 40 kW each |"

done_testing
