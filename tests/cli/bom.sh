#!/bin/sh
. "$TOP_SRCDIR/tests/lib.sh"
run "$ACCELSIZER" --version
check "version" rc 0
done_testing
