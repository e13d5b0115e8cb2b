#!/bin/sh
# No function in src/ over 120 lines or with a cyclomatic complexity over 40
# (issue 11, "Done when"), measured with pmccabe (Debian package pmccabe;
# quickstart.sh installs it for the tests).  One TAP line per source file.
#
# A function over the limit while it is being split may be listed in
# EXEMPT as FILE:FUNCTION; each listed one must still be over it (an
# exemption that is no longer needed fails, so the list only shrinks).
. "$TOP_SRCDIR/tests/lib.sh"

command -v pmccabe >/dev/null 2>&1 || skip_all "pmccabe is not installed (apt-get install pmccabe)"

MAX_LINES=120
MAX_COMPLEXITY=40
EXEMPT="
"

cd "$TOP_SRCDIR" || exit 1
# pmccabe: modified complexity, traditional complexity, statements, first
# line, lines, then "file(line): function"
pmccabe src/*.c >"$TMPD/all" 2>"$TMPD/err"
check "pmccabe reads every source file" equals "$(cat "$TMPD/err")" ""
awk -v L="$MAX_LINES" -v C="$MAX_COMPLEXITY" '$2 > C || $5 > L {
	f = $6; sub(/\(.*/, "", f); print f ":" $7 "\t" $2 "\t" $5 }' "$TMPD/all" >"$TMPD/over"

for src in src/*.c; do
	bad=
	while IFS="$(printf '\t')" read -r fn cc lines; do
		case ${fn%%:*} in "$src") ;; *) continue ;; esac
		case $EXEMPT in *"
$fn
"*) continue ;; esac
		bad="$bad ${fn#*:} (complexity $cc, $lines lines)"
	done <"$TMPD/over"
	check "$src: every function within $MAX_LINES lines and complexity $MAX_COMPLEXITY" equals "$bad" ""
done
for fn in $EXEMPT; do
	if grep -q "^$fn	" "$TMPD/over"; then
		tap_ok "$fn is still over the limit (exempt until it is split)"
	else
		tap_not_ok "$fn is within the limits now: remove it from EXEMPT in $0"
	fi
done
done_testing
