#!/bin/sh
# Runs every libFuzzer target (built by `make fuzz`) for a while and says
# how many inputs each one tried.
#
#   sh fuzz/run.sh [-t SECONDS] [-b DIR] [-l LOG] [-r] [TARGET...]
#     -t SECONDS  time per target (default 60)
#     -b DIR      where the fuzz_TARGET binaries are (default build/fuzz)
#     -l LOG      also write a summary in the automake test-suite.log form
#                 (# PASS: / # FAIL: / # SKIP:), which tests/summary.sh adds up
#     -r          a missing binary is a failure (CI), not a skip
#     TARGET      catalog, scenario, theme, prices, ledger (default: all five)
#
# Seeds come from fuzz/corpus/TARGET (read only); what the fuzzer learns goes
# to DIR/work/TARGET, kept between runs.  A crash, leak, timeout or
# out-of-memory input is saved in tests/fixtures/regress/TARGET/ (where
# tests/unit/test_regress replays it) and makes the exit status 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=60
bindir=build/fuzz
log=
require=0
while getopts t:b:l:r opt; do
	case $opt in
	t) seconds=$OPTARG ;;
	b) bindir=$OPTARG ;;
	l) log=$OPTARG ;;
	r) require=1 ;;
	*) echo "usage: fuzz/run.sh [-t SECONDS] [-b DIR] [-l LOG] [-r] [TARGET...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
targets=${*:-catalog scenario theme prices ledger}
case $seconds in '' | *[!0-9]*) echo "fuzz/run.sh: -t wants whole seconds, got '$seconds'" >&2; exit 2 ;; esac
if [ -d "$bindir" ]; then
	bindir=$(cd "$bindir" && pwd)
else
	echo "fuzz/run.sh: no folder $bindir (run make fuzz)" >&2
fi

n=0 pass=0 fail=0 skip=0 tap=
say() {		# one TAP line, on stdout and into the log
	echo "$1"
	tap="$tap$1
"
}

for t in $targets; do
	n=$((n + 1))
	bin=$bindir/fuzz_$t
	if [ ! -x "$bin" ]; then
		if [ "$require" = 1 ]; then
			fail=$((fail + 1))
			say "not ok $n - fuzz_$t: no binary at $bin (make fuzz needs clang and libclang-rt-14-dev)"
		else
			skip=$((skip + 1))
			say "ok $n - fuzz_$t # SKIP not built (make fuzz needs clang and libclang-rt-14-dev)"
		fi
		continue
	fi
	work=$bindir/work/$t
	regress=$top/tests/fixtures/regress/$t
	mkdir -p "$work" "$regress"
	dict=
	[ -f "$top/fuzz/dict/$t.dict" ] && dict=-dict=$top/fuzz/dict/$t.dict
	out=$bindir/work/$t.log
	# The catalog target keeps a scratch catalog in TMPDIR (or /dev/shm);
	# a crash skips its cleanup, so give it a folder that is removed here.
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/accelsizer-fuzz.XXXXXX")
	start=$(date +%s)
	# -rss_limit_mb: a loader that balloons on a small input is a bug too.
	# -timeout: no input may take 10 s (a hang).
	TMPDIR=$scratch UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
		-print_final_stats=1 -artifact_prefix="$regress/" $dict \
		"$work" "$top/fuzz/corpus/$t" >"$out" 2>&1 </dev/null
	rc=$?
	rm -rf "$scratch"
	took=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out" | tail -n1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out" | tail -n1)
	cov=$(sed -n 's/.*DONE *cov: \([0-9]*\).*/\1/p' "$out" | tail -n1)
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1))
		say "ok $n - fuzz_$t: ${execs:-?} executions in ${took} s (${rate:-?}/s, ${cov:-?} edges), no crash"
	else
		fail=$((fail + 1))
		saved=$(sed -n "s|.*Test unit written to \\(.*\\)|\\1|p" "$out" | tail -n1)
		say "not ok $n - fuzz_$t: exit $rc after ${execs:-?} executions; input saved as ${saved:-?}"
		sed -n '/==ERROR\|runtime error\|^fuzz:\|SUMMARY/p' "$out" | head -n 20 | sed 's/^/#   /'
		echo "#   full log: $out"
	fi
done

echo "1..$n"
if [ -n "$log" ]; then
	{
		printf '%s' "$tap"
		echo "1..$n"
		echo "# TOTAL: $n"
		echo "# PASS: $pass"
		echo "# SKIP: $skip"
		echo "# FAIL: $fail"
	} >"$log"
fi
[ "$fail" = 0 ]
