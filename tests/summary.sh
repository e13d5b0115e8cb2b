#!/bin/sh
# Adds up automake test-suite.log files and prints "N passed, N failed".
# Every TAP line of every test counts; a skipped test counts as neither.
pass=0 fail=0 skip=0
for log in "$@"; do
	[ -f "$log" ] || { fail=$((fail + 1)); echo "missing $log" >&2; continue; }
	p=$(sed -n 's/^# PASS: *//p' "$log" | head -n1)
	x=$(sed -n 's/^# XPASS: *//p' "$log" | head -n1)
	f=$(sed -n 's/^# FAIL: *//p' "$log" | head -n1)
	e=$(sed -n 's/^# ERROR: *//p' "$log" | head -n1)
	s=$(sed -n 's/^# SKIP: *//p' "$log" | head -n1)
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-0} + ${e:-0} + ${x:-0}))
	skip=$((skip + ${s:-0}))
done
echo "$pass passed, $fail failed, $skip skipped"
