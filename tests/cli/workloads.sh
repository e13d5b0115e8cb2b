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
# the small model alone on its MIG profile: slices would save no card,
# so it keeps its whole GPU (which serves more for the same price)
check "three workloads: the small model alone keeps a whole GPU" lacks "$(printf '%s\n' "$h100" | grep '^"small",')" '"1g.'
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

# bom and validate: a list of one is byte-identical to the flags too.
# shellcheck disable=SC2086
run $A bom $FLAGS --accelerator h100-sxm -o - --summary "$TMPD/flags.txt"
by_flags=$out
run $A bom --scenario "$W/one.yaml" --accelerator h100-sxm -o - --summary "$TMPD/one.txt"
check "bom, a list of one: exit 0" rc 0
check "bom, a list of one: the same BOM as by flags" equals "$out" "$by_flags"
check "bom, a list of one: the same summary as by flags" equals "$(cat "$TMPD/one.txt")" "$(cat "$TMPD/flags.txt")"
for fmt in table csv yaml; do
	# shellcheck disable=SC2086
	run $A validate $FLAGS --accelerator h100-sxm --format $fmt
	by_flags=$out
	run $A validate --scenario "$W/one.yaml" --accelerator h100-sxm --format $fmt
	check "validate, a list of one, $fmt: exit 0" rc 0
	check "validate, a list of one, $fmt: byte-identical to the flags" equals "$out" "$by_flags"
done

# bom of several workloads: ONE BOM for the cluster, its total the capex
# recommend prints for 'total', with each workload in the summary.
run $A recommend --scenario "$W/three.yaml" --accelerator h100-sxm --format csv
printf '%s\n' "$out" >"$TMPD/rec.csv"
total_row=$(grep -n '^"total",' "$TMPD/rec.csv" | cut -d: -f1)
capex=$(csv_col "$TMPD/rec.csv" capex_usd $((total_row - 1)))
gpus=$(csv_col "$TMPD/rec.csv" gpus $((total_row - 1)))
installed=$(csv_col "$TMPD/rec.csv" gpus_installed $((total_row - 1)))
run $A bom --scenario "$W/three.yaml" --accelerator h100-sxm -o "$TMPD/bom.csv" --summary "$TMPD/sum.txt"
check "bom, three workloads: exit 0" rc 0
check "bom, three workloads: the total is recommend's total capex" equals "$(grep ',total,' "$TMPD/bom.csv" | cut -d, -f7)" "$capex"
check "bom, three workloads: the cluster's GPUs installed" equals "$(grep ',accelerator,h100-sxm,' "$TMPD/bom.csv" | cut -d, -f5)" "$installed"
check "bom, three workloads: one total row" equals "$(grep -c ',total,' "$TMPD/bom.csv")" 1
check "bom, three workloads: says what it wrote" contains "$out" "for $gpus x h100-sxm"
sum=$(cat "$TMPD/sum.txt")
check "bom summary: each workload's settings" matches "$sum" "  workload chat"
check "bom summary: the fine-tune's settings" contains "$sum" "  workload weekly-lora
    class                      finetune"
check "bom summary: each workload's share" matches "$sum" "    small +1 GPU as 1x TP1"
check "bom summary: how they share it" contains "$sum" "sharing                      training time-shares"
check "bom summary: the shared settings once" equals "$(printf '%s\n' "$sum" | grep -c 'filters.stack')" 1
check "bom summary: the TCO of the whole" contains "$sum" "Total cost of ownership over"
# no --accelerator: the best-ranked cluster, as recommend ranks them
run $A recommend --scenario "$W/three.yaml" --format csv
first=$(printf '%s\n' "$out" | grep '^"total","1",' | cut -d, -f3 | tr -d '"')
run $A bom --scenario "$W/three.yaml" -o "$TMPD/best.csv"
check "bom, three workloads, best-ranked: exit 0" rc 0
check "bom, three workloads, best-ranked: recommend's first" contains "$out" "x $first ("
# the price list reaches every workload and the cluster, as in recommend
P=$TOP_SRCDIR/tests/fixtures/prices/good/h100.csv
run $A recommend --scenario "$W/three.yaml" --accelerator h100-sxm --prices "$P" --format csv
printf '%s\n' "$out" >"$TMPD/recp.csv"
pcapex=$(csv_col "$TMPD/recp.csv" capex_usd $((total_row - 1)))
check "recommend, three workloads, --prices: the cluster is priced with it" lacks "$pcapex" "$capex"
run $A bom --scenario "$W/three.yaml" --accelerator h100-sxm --prices "$P" -o "$TMPD/bomp.csv"
check "bom, three workloads, --prices: the total is recommend's" equals "$(grep ',total,' "$TMPD/bomp.csv" | cut -d, -f7)" "$pcapex"
run $A bom --scenario "$W/three.yaml" --model llama-2-7b -o "$TMPD/x.csv"
check "bom, three workloads, --model: exit 2" rc 2
check "bom, three workloads, --model: nothing written" equals "$(ls "$TMPD/x.csv" 2>/dev/null)" ""

# validate of several workloads: a plan per workload and the cluster's.
run $A validate --scenario "$W/three.yaml" --accelerator h100-sxm
check "validate, three workloads: exit 0" rc 0
check "validate, three workloads: chat's plan" contains "$out" "Validation plan for chat on NVIDIA H100"
check "validate, three workloads: the fine-tune's plan" contains "$out" "Validation plan for weekly-lora on"
check "validate, three workloads: the cluster's plan" contains "$out" "Validation plan for the shared cluster on"
check "validate, three workloads: every serving workload at once" contains "$out" "benchmark_serving for the 2 serving workloads at once"
check "validate, three workloads: serving around the fine-tune" contains "$out" "weekly-lora on all"
run $A validate --scenario "$W/three.yaml" --accelerator h100-sxm --format csv
check "validate csv: a workload column first" matches "$out" '^"workload","accelerator","benchmark",'
check "validate csv: the workloads and the cluster" equals "$(printf '%s\n' "$out" | sed 1d | cut -d, -f1 | uniq | tr '\n' ' ')" '"chat" "small" "weekly-lora" "total" '
run $A validate --scenario "$W/three.yaml" --accelerator h100-sxm --format yaml
check "validate yaml: a list of plans" contains "$out" "plans:
- workload: chat"
check "validate yaml: the cluster's" contains "$out" "- workload: total"
sed 's/share_gpus: true/share_gpus: false/' "$W/three.yaml" >"$TMPD/dedicated.yaml"
run $A validate --scenario "$TMPD/dedicated.yaml" --accelerator h100-sxm
check "validate, dedicated fine-tune: its steps while serving runs" contains "$out" "weekly-lora: 100 training steps while serving runs at load"
run $A validate --scenario "$W/three.yaml"
check "validate, three workloads, no --accelerator: exit 2" rc 2

# Known answers.  Two workloads that each take half an HGX H100 node
# share one node, with no scale-out fabric.
run $A recommend --scenario "$W/halves.yaml" --format csv
printf '%s\n' "$out" >"$TMPD/halves.csv"
check "two halves: each takes 4 GPUs" equals "$(csv_col "$TMPD/halves.csv" gpus 1) $(csv_col "$TMPD/halves.csv" gpus 2)" "4 4"
check "two halves: the cluster is 8 GPUs" equals "$(csv_col "$TMPD/halves.csv" gpus 3)" 8
check "two halves: on one node" equals "$(csv_col "$TMPD/halves.csv" nodes 3)" 1
check "two halves: no fabric" equals "$(csv_col "$TMPD/halves.csv" fabric 3)" ""
run $A bom --scenario "$W/halves.yaml" -o "$TMPD/halves-bom.csv"
# one working server and the serving spare (N+1, defaults.spare_nodes_serving)
check "two halves, bom: one server and its spare" equals "$(csv_col "$TMPD/halves-bom.csv" qty 1)" 2
# Seven one-user 8B services at fp8 on an H200: 1g.18gb each, one card.
run $A recommend --scenario "$W/seven-small.yaml" --format csv
printf '%s\n' "$out" >"$TMPD/seven.csv"
check "seven small: each on a 1g.18gb slice" equals "$(for i in 1 2 3 4 5 6 7; do csv_col "$TMPD/seven.csv" partition $i; done | sort -u)" 1g.18gb
check "seven small: seven a card" equals "$(csv_col "$TMPD/seven.csv" partitions_per_gpu 1)" 7
check "seven small: the cluster is one card" equals "$(csv_col "$TMPD/seven.csv" gpus 8)" 1
# a slice's gpus is its own count (1); cluster_gpus and sharing say that
# the card is the pool's, shared by all seven, as the total row counts it
check "seven small: each on the pool's one card" equals "$(for i in 1 2 3 4 5 6 7; do csv_col "$TMPD/seven.csv" cluster_gpus $i; done | sort -u)" 1
check "seven small: each shares it with the six others" equals "$(for i in 1 2 3 4 5 6 7; do csv_col "$TMPD/seven.csv" sharing $i; done | sort -u)" 7
check "seven small: the total, one card for seven" equals "$(csv_col "$TMPD/seven.csv" cluster_gpus 8) $(csv_col "$TMPD/seven.csv" sharing 8)" "1 7"
run $A recommend --scenario "$W/seven-small.yaml" --format yaml
check "seven small, yaml: the same columns" contains "$out" "  cluster_gpus: 1
  sharing: 7"
run $A recommend --scenario "$W/seven-small.yaml"
check "seven small, table: the slice says its card is shared" contains "$out" "on 1 GPU shared with 6 other workloads: Llama 3.1 8B"
check "two halves: whole GPUs of their own" equals "$(csv_col "$TMPD/halves.csv" cluster_gpus 1)/$(csv_col "$TMPD/halves.csv" sharing 1) $(csv_col "$TMPD/halves.csv" cluster_gpus 3)/$(csv_col "$TMPD/halves.csv" sharing 3)" "4/1 8/2"
run $A bom --scenario "$W/seven-small.yaml" -o "$TMPD/seven-bom.csv"
# one baseboard working (one card used) and the N+1 spare: 2 x 8
check "seven small, bom: one H200 board and its spare" equals "$(grep ',accelerator,h200-sxm,' "$TMPD/seven-bom.csv" | cut -d, -f5)" 16
done_testing
