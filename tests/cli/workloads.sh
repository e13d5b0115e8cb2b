#!/bin/sh
# Issue 18: a scenario's workloads: list.  A list of one prints exactly what
# the same workload given by flags prints; bad lists are refused with the
# file, line and column.
. "$TOP_SRCDIR/tests/lib.sh"

A=$ACCELSIZER
W=$TOP_SRCDIR/tests/fixtures/scenarios/workloads
FLAGS="--model llama-3.1-70b --precision fp8 --input-tokens 2048 --output-tokens 512 --concurrency 128 --tokens-per-s-per-user 25 --ttft-ms 800 --stack cuda"

for fmt in table csv yaml; do
	# shellcheck disable=SC2086
	run $A recommend $FLAGS --format $fmt
	by_flags=$out
	by_flags_rc=$rc
	run $A recommend --scenario "$W/one.yaml" --format $fmt
	check "a list of one, $fmt: same exit status as by flags" rc "$by_flags_rc"
	check "a list of one, $fmt: byte-identical to the flags" equals "$out" "$by_flags"
done

bad() {	# bad NAME YAML EXPECTED-STDERR-PART
	printf '%s\n' "$2" >"$TMPD/bad.yaml"
	run $A recommend --scenario "$TMPD/bad.yaml"
	check "$1: exit 2" rc 2
	check "$1: says why" contains "$err" "$3"
}
bad "no name" 'schema: 1
workloads:
  - model: llama-3.1-8b' "bad.yaml:3:5: a workloads: entry needs a 'name'"
bad "name twice" 'schema: 1
workloads:
  - {name: a, model: llama-3.1-8b}
  - {name: a, model: llama-3.1-8b}' "bad.yaml:4:12: workload name 'a' is used twice"
bad "total is the cluster's" 'schema: 1
workloads:
  - {name: total, model: llama-3.1-8b}' "'name' must be text other than 'total'"
bad "both workload and workloads" 'schema: 1
workload: {model: llama-3.1-8b}
workloads:
  - {name: a, model: llama-3.1-8b}' "give either 'workload' or 'workloads', not both"
bad "hours on serving" 'schema: 1
workloads:
  - {name: a, model: llama-3.1-8b, hours_per_week: 8}' "'hours_per_week' applies to training and fine-tuning"
bad "hours out of range" 'schema: 1
workloads:
  - {name: a, class: finetune, model: llama-3.1-8b, hours_per_week: 200}' "'hours_per_week' 200 is out of range"
bad "an unknown key in an entry" 'schema: 1
workloads:
  - {name: a, model: llama-3.1-8b, colour: red}' "unknown key 'colour' in workload"
bad "not a list" 'schema: 1
workloads: {name: a}' "'workloads' must be a list of one or more workloads"

# Several workloads: one record per workload and accelerator, then the
# cluster's (workload = total), and the cluster of one accelerator holds
# them all.
run $A recommend --scenario "$W/three.yaml" --format csv
check "three workloads: exit 0" rc 0
check "three workloads: a workload column first" matches "$out" '^"workload","rank","accelerator",'
h100=$(printf '%s\n' "$out" | grep -F '"h100-sxm",')
check "three workloads: four h100-sxm records" equals "$(printf '%s\n' "$h100" | wc -l | tr -d ' ')" 4
check "three workloads: chat, small, weekly-lora, total" equals "$(printf '%s\n' "$h100" | cut -d, -f1 | tr '\n' ' ')" '"chat" "small" "weekly-lora" "total" '
check "three workloads: the small model on a MIG slice" matches "$h100" '^"small",.*,"1g\.20gb","4",'
check "three workloads: the fine-tune time-shares serving GPUs" matches "$h100" '^"total",.*training time-shares'
run $A recommend --scenario "$W/three.yaml"
check "three workloads, table: exit 0" rc 0
check "three workloads, table: names them" contains "$out" "3 workloads on one cluster (training may time-share serving GPUs): chat, small, weekly-lora"
run $A recommend --scenario "$W/three.yaml" --format yaml
check "three workloads, yaml: a total record" contains "$out" "workload: total"
run $A recommend --scenario "$W/three.yaml" --accelerator h100-sxm --stack cuda --format csv
check "three workloads, --accelerator: that one only" equals "$(printf '%s\n' "$out" | sed 1d | grep -vc '"h100-sxm",')" 0
check "three workloads, --accelerator: its four records" equals "$(printf '%s\n' "$out" | sed 1d | wc -l | tr -d ' ')" 4
run $A recommend --scenario "$W/three.yaml" --model llama-2-7b
check "three workloads, --model: exit 2" rc 2
check "three workloads, --model: names no one workload" contains "$err" "--model: the scenario holds 3 workloads; set it on each in the file"
run $A validate --scenario "$W/three.yaml" --accelerator h100-sxm
check "validate refuses several workloads: exit 2" rc 2
check "validate refuses several workloads: says why" contains "$err" "the scenario holds 3 workloads"
run $A bom --scenario "$W/three.yaml" --accelerator h100-sxm -o "$TMPD/bom.csv"
check "bom refuses several workloads: exit 2" rc 2
check "bom refuses several workloads: nothing written" equals "$(ls "$TMPD/bom.csv" 2>/dev/null)" ""

done_testing
