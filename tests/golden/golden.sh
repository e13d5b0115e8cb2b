#!/bin/sh
# The golden set: every invocation of cli.list and the wizard's screens
# must give, byte for byte, the recordings in cli/ and screens/.  A
# difference is shown as a diff.  An intended change regenerates them with
# update.sh (make golden-update) in the same commit; see README.md.
: "${TOP_SRCDIR:?run through make check}"
if command -v tmux >/dev/null 2>&1; then
	. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"
	have_tmux=yes
else
	. "$TOP_SRCDIR/tests/lib.sh"
	have_tmux=no
fi
. "$TOP_SRCDIR/tests/golden/lib-golden.sh"

golden_env "$TMPD"
golden_links "$TMPD"
mkdir "$TMPD/actual" "$TMPD/work"

# compare NAME EXPECTED ACTUAL: one TAP line; the diff on a difference.
compare() {
	if [ ! -f "$2" ]; then
		tap_not_ok "$1" "no recording ${2#"$TOP_SRCDIR/"}: run make golden-update if this is new"
	elif cmp -s "$2" "$3"; then
		tap_ok "$1"
	else
		tap_not_ok "$1" "differs from ${2#"$TOP_SRCDIR/"} (- recorded, + now):"
		diff -u "$2" "$3" | sed '1,2d; s/^/#   /' | head -n 80
	fi
}

golden_cli "$TMPD/actual" "$TMPD/work" || tap_not_ok "recording the CLI invocations"
while IFS= read -r line; do
	slug=$(golden_slug "$line")
	compare "accelsizer $line" "$GOLDEN_SRC/cli/$slug.txt" "$TMPD/actual/cli/$slug.txt"
done <"$TMPD/work/lines"

# every recording belongs to a line of cli.list
stale=
for f in "$GOLDEN_SRC"/cli/*.txt; do
	[ -e "$TMPD/actual/cli/${f##*/}" ] || stale="$stale ${f##*/}"
done
check "no recording without its line in cli.list" equals "$stale" ""

if [ "$have_tmux" = yes ]; then
	for size in 80x24 120x40; do
		golden_wizard "$TMPD/actual" "$size"
	done
	for f in "$TMPD"/actual/screens/*.txt; do
		name=${f##*/}
		compare "wizard screen ${name%.txt}" "$GOLDEN_SRC/screens/$name" "$f"
	done
	stale=
	for f in "$GOLDEN_SRC"/screens/*.txt; do
		[ -e "$TMPD/actual/screens/${f##*/}" ] || stale="$stale ${f##*/}"
	done
	check "no screen recording left over" equals "$stale" ""
else
	tap_ok "wizard screens # SKIP tmux is not installed"
fi
done_testing
