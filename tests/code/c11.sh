#!/bin/sh
# The sources are C11 (docs/design.md, "Rules"): the compiler flags
# every object is built with must refuse what a later standard or a
# compiler extension allows, so a construct one compiler accepts and
# another refuses fails here, in the test command, and not only in the
# clang build of the fuzz targets.
. "$TOP_SRCDIR/tests/lib.sh"

[ -n "${CC:-}" ] || skip_all "CC is not set (run through make check)"

fixture="$TOP_SRCDIR/tests/fixtures/c11/label-declaration.c"
# shellcheck disable=SC2086 # WARN_CFLAGS is a list of flags
if $CC -std=c11 ${WARN_CFLAGS:-} -Werror -fsyntax-only "$fixture" >"$TMPD/out" 2>&1; then
	tap_not_ok "the build's flags refuse a declaration after a case label (C23, not C11)" \
		"$CC -std=c11 ${WARN_CFLAGS:-} accepted $fixture"
else
	tap_ok "the build's flags refuse a declaration after a case label (C23, not C11)"
fi
check "the refusal names the fixture's line" contains "$(cat "$TMPD/out")" "label-declaration.c:12"
done_testing
