#!/bin/sh
# update.sh: records the golden set again from the program just built:
# tests/golden/cli/ (every line of cli.list) and tests/golden/screens/ (the
# wizard at 80x24 and 120x40), replacing what is there.  `make
# golden-update` runs it.  Review `git diff tests/golden` before
# committing: every difference must be one the commit intends (README.md).
#
#   tests/golden/update.sh [BINARY]     default: $ACCELSIZER, then build/accelsizer
set -u
TOP_SRCDIR=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ACCELSIZER=${1:-${ACCELSIZER:-$TOP_SRCDIR/build/accelsizer}}
case $ACCELSIZER in /*) ;; *) ACCELSIZER=$(pwd)/$ACCELSIZER ;; esac
export TOP_SRCDIR ACCELSIZER
[ -x "$ACCELSIZER" ] || { echo "update.sh: no program at $ACCELSIZER (build it first)" >&2; exit 2; }
command -v tmux >/dev/null 2>&1 || { echo "update.sh: tmux is needed to record the wizard's screens" >&2; exit 2; }

. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"
. "$TOP_SRCDIR/tests/golden/lib-golden.sh"
golden_env "$TMPD"
golden_links "$TMPD"
mkdir "$TMPD/new" "$TMPD/work"
golden_cli "$TMPD/new" "$TMPD/work" || exit 1
for size in 80x24 120x40; do
	golden_wizard "$TMPD/new" "$size"
done
for d in cli screens; do
	rm -rf "${GOLDEN_SRC:?}/$d"
	cp -R "$TMPD/new/$d" "$GOLDEN_SRC/$d"
done
echo "update.sh: recorded $(ls "$GOLDEN_SRC/cli" | wc -l) invocations and $(ls "$GOLDEN_SRC/screens" | wc -l) screens in $GOLDEN_SRC"
