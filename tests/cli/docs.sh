#!/bin/sh
# `make docs` runs the generators of docs/cli-examples.md, README.md's
# accuracy section and docs/screens.md against the built program.  Each is
# run here into a scratch file (never the source tree): it must succeed,
# write the same bytes twice, and carry nothing of the machine it ran on
# (the checkout's path once leaked into `catalog show`'s example).
# Whether the committed pages are current is not checked: they are made
# again when a release is cut.
# shellcheck source=tests/lib.sh source-path=SCRIPTDIR/../..
. "$TOP_SRCDIR/tests/lib.sh"

A=$ACCELSIZER
S=$TOP_SRCDIR/scripts
top=$(cd "$TOP_SRCDIR" && pwd)

run sh "$S/cli-examples.sh" -b "$A" -o "$TMPD/ex1.md" --no-readme
check "cli-examples.sh runs every example" rc 0
run sh "$S/cli-examples.sh" -b "$A" -o "$TMPD/ex2.md" --no-readme
check "cli-examples.sh writes the same page twice" equals \
	"$(cat "$TMPD/ex2.md" 2>/dev/null)" "$(cat "$TMPD/ex1.md" 2>/dev/null)"
check "the examples do not carry the checkout's path" lacks "$(cat "$TMPD/ex1.md" 2>/dev/null)" "$top/"
check "catalog show names the catalog's file" contains "$(cat "$TMPD/ex1.md" 2>/dev/null)" \
	"accelerator h200-sxm  (catalog/accelerators/h200-sxm.yaml)"

cp "$TOP_SRCDIR/README.md" "$TMPD/README.md"
chmod u+w "$TMPD/README.md"
run sh "$S/accuracy-report.sh" -b "$A" -o "$TMPD/README.md"
check "accuracy-report.sh fills the README's accuracy section" rc 0
check "the section is there" contains "$(cat "$TMPD/README.md")" "<!-- accuracy: begin"
check "the accuracy section does not carry the checkout's path" lacks "$(cat "$TMPD/README.md")" "$top/"

if command -v tmux >/dev/null 2>&1; then
	run sh "$S/capture-screens.sh" -b "$A" -o "$TMPD/screens.md" --no-readme
	check "capture-screens.sh captures every step" rc 0
	check "the captures do not carry the checkout's path" lacks "$(cat "$TMPD/screens.md" 2>/dev/null)" "$top/"
	check "the captures show step 1" contains "$(cat "$TMPD/screens.md" 2>/dev/null)" "Workload"
else
	tap_ok "# SKIP tmux is not installed"
fi

done_testing
