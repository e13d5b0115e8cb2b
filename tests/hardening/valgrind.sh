#!/bin/sh
# The command-line paths under valgrind: zero memory errors and zero
# definite or indirect leaks, on success and on every kind of error exit.
# Skipped when valgrind is missing (make check-valgrind sets
# VALGRIND_REQUIRED=1 and fails instead) and in the AddressSanitizer build,
# which valgrind cannot run.
#
# valgrind's own verdict uses exit status 99, not 1: accelsizer already
# exits 1 when a workload cannot be met and 2 on bad input, and both are
# paths this test must run.
. "$TOP_SRCDIR/tests/lib.sh"

if ! command -v valgrind >/dev/null 2>&1; then
	if [ "${VALGRIND_REQUIRED:-0}" = 1 ]; then
		echo "not ok 1 - valgrind is not installed (Debian: apt-get install valgrind)"
		echo "1..1"
		exit 1
	fi
	skip_all "valgrind is not installed"
fi
if grep -q __asan_init "$ACCELSIZER" 2>/dev/null; then
	skip_all "this build uses AddressSanitizer, which valgrind cannot run"
fi

FIX=$TOP_SRCDIR/tests/fixtures
SCEN=$FIX/scenarios/good/inference.yaml
cd "$TMPD" || exit 1

# vg NAME EXPECTED-EXIT ARGS...: runs accelsizer ARGS under memcheck, as
# many at a time as there are processors; the verdicts are printed in order
# by finish.
jobs=$(nproc 2>/dev/null || echo 2)
count=0 running=0
vg() {
	name=$1 want=$2
	shift 2
	count=$((count + 1))
	n=$count
	(
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
			--show-leak-kinds=definite,indirect --error-exitcode=99 --log-file="vg-$n.log" \
			"$ACCELSIZER" "$@" >"out-$n" 2>"err-$n" </dev/null
		got=$?
		if [ "$got" = "$want" ] && [ ! -s "vg-$n.log" ]; then
			echo "ok - valgrind: $name: exit $got, no errors, no leaks"
		elif [ "$got" = 99 ] || [ -s "vg-$n.log" ]; then
			echo "not ok - valgrind: $name: memory errors or leaks (exit $got)"
			head -n 40 "vg-$n.log" | sed 's/^/#   /'
		else
			echo "not ok - valgrind: $name: exit $got, expected $want"
			head -c 600 "err-$n" | sed 's/^/#   stderr: /'
		fi >"res-$n"
	) &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
}

finish() {
	wait
	i=1
	while [ $i -le $count ]; do
		line=$(head -n 1 "res-$i")
		case $line in
		"ok - "*) tap_ok "${line#ok - }" ;;
		*) tap_not_ok "${line#not ok - }" "$(tail -n +2 "res-$i")" ;;
		esac
		i=$((i + 1))
	done
}

# ---- catalog ----
vg "catalog list" 0 catalog list
vg "catalog list --models" 0 catalog list --models
vg "catalog list --platforms" 0 catalog list --platforms
vg "catalog list --fabrics" 0 catalog list --fabrics
vg "catalog list --defaults" 0 catalog list --defaults
vg "catalog show h100-sxm" 0 catalog show h100-sxm
vg "catalog show unknown id (did you mean)" 2 catalog show h100-sxn
vg "catalog check" 0 catalog check
vg "catalog check of a catalog with many errors" 2 catalog check "$FIX/catalog/bad/several"
vg "catalog check, 50 errors and more" 2 catalog check "$FIX/catalog/bad/too-many-errors"
vg "catalog check of a missing folder" 2 catalog check /nonexistent

# ---- recommend, every class in every format ----
for fmt in table csv yaml; do
	vg "recommend inference --format $fmt" 0 recommend --model llama-3.1-70b --precision fp8 \
		--concurrency 64 --format "$fmt"
	vg "recommend pretrain --format $fmt" 0 recommend --workload pretrain --model llama-2-7b \
		--tokens 2T --days 30 --format "$fmt"
	vg "recommend finetune --format $fmt" 0 recommend --workload finetune --method qlora \
		--model llama-3.1-70b --tokens 100M --epochs 2 --format "$fmt"
done
vg "recommend --accelerator" 0 recommend --model llama-3.1-8b --accelerator h100-sxm --gpus 2
vg "recommend -o file" 0 recommend --model llama-3.1-8b --format csv -o rec.csv
vg "recommend: nothing can meet it" 1 recommend --model llama-3.1-405b --precision fp16 \
	--max-power-kw 0.5

# ---- validate ----
vg "validate" 0 validate --model llama-3.1-70b --accelerator h100-sxm
vg "validate --format csv -o" 0 validate --model llama-3.1-70b --accelerator h100-sxm \
	--format csv -o plan.csv
vg "validate without an accelerator" 2 validate --model llama-3.1-70b

# ---- scenarios ----
vg "recommend --scenario" 0 recommend --scenario "$SCEN"
vg "recommend --scenario: fine-tuning a custom model" 0 recommend --scenario "$FIX/scenarios/good/finetune-custom.yaml"
vg "bad scenario: unknown key" 2 recommend --scenario "$FIX/scenarios/bad/04-unknown-top-key.yaml"
vg "bad scenario: not UTF-8" 2 recommend --scenario "$FIX/scenarios/bad/23-latin1.yaml"
vg "bad scenario: aliases" 2 recommend --scenario "$TOP_SRCDIR/tests/fixtures/regress/scenario/billion-laughs.yaml"
vg "scenario is a folder" 2 recommend --scenario "$FIX"

# ---- bom with a price list ----
vg "bom --prices -o --summary" 0 bom --scenario "$SCEN" --prices "$FIX/prices/good/h100.csv" \
	-o bom.csv --summary bom.txt
vg "bom --prices (mixed list)" 0 bom --scenario "$SCEN" --prices "$FIX/prices/good/mixed.csv" -o bom2.csv
vg "bom to standard output" 0 bom --scenario "$SCEN" -o -
vg "bom: malformed price list" 2 bom --scenario "$SCEN" --prices "$FIX/prices/bad/02-no-header.csv" -o bom3.csv
vg "bom: -o a folder" 2 bom --scenario "$SCEN" -o "$TMPD"

# ---- other error paths ----
vg "unknown command" 2 frobnicate
vg "unknown flag" 2 recommend --frobnicate
vg "bad number" 2 recommend --input-tokens 1,00
vg "unknown model (did you mean)" 2 recommend --model llama-3.1-70c
vg "bad catalog folder" 2 recommend --catalog "$FIX/catalog/bad/several"
vg "wizard: unknown theme" 2 --theme no-such-theme
vg "wizard: not a terminal" 2 --ascii
vg "--help" 0 --help

finish
done_testing
