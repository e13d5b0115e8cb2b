#!/bin/sh
# accelsizer recommend / validate: strict option parsing (every flag's bad
# values exit 2 with a message naming the flag), the csv and yaml field
# names, empty-not-zero for fields that do not apply, exit 1 when nothing
# can meet the workload, and the validation plan.
. "$TOP_SRCDIR/tests/lib.sh"

A=$ACCELSIZER
INF="--model llama-2-70b --precision fp8"

# ---- happy paths ----
run $A recommend $INF
check "recommend runs" rc 0
check "table names the binding constraint" contains "$out" "binding"
check "table ranks h100-sxm" contains "$out" "h100-sxm"
check "table shows the requirement line" contains "$out" "GB of weights"

run $A recommend --help
check "help exits 0" rc 0
for f in --workload --model --precision --kv-precision --input-tokens --output-tokens \
	--concurrency --tokens-per-s-per-user --ttft-ms --target-tokens-per-s --spare-nodes \
	--tokens --epochs --days --hours --seq-len --global-batch-tokens --eval-tokens --recompute --method \
	--lora-rank --stack --form-factor --max-power-kw --budget-usd --accelerator --gpus \
	--objective --format --catalog --scenario; do
	check "help lists $f" contains "$out" "$f"
done

# ---- every flag's bad values ----
whole_flags="--input-tokens --output-tokens --spare-nodes --seq-len --lora-rank --gpus"
for f in $whole_flags; do
	for v in abc 1,00 -5 nan inf 1e308 18446744073709551616 "" 1.5 0x10 " 7 7"; do
		extra=""
		[ "$f" = --gpus ] && extra="--accelerator h100-sxm"
		run $A recommend $INF $extra "$f" "$v"
		check "$f '$v' exits 2" rc 2
		check "$f '$v' message names the flag" contains "$err" "$f"
	done
done
run $A recommend $INF --input-tokens abc
check "not-a-number message, with examples" contains "$err" "accelsizer: --input-tokens: 'abc' is not a number (e.g. 2048, 2,048, 2k"
run $A recommend $INF --input-tokens 1.5
check "whole-number message" contains "$err" "accelsizer: --input-tokens: '1.5' is not a whole number"

num_flags="--tokens-per-s-per-user --ttft-ms --target-tokens-per-s --epochs --days --hours --max-power-kw --budget-usd"
for f in $num_flags; do
	for v in abc 1,0000 -5 nan inf NaN Infinity 1e308 "" 0x10 1e; do
		run $A recommend $INF "$f" "$v"
		check "$f '$v' exits 2" rc 2
		check "$f '$v' message names the flag" contains "$err" "$f"
	done
done
run $A recommend $INF --ttft-ms soon
check "number message" contains "$err" "accelsizer: --ttft-ms: 'soon' is not a number (e.g. 500, 500ms, 1.5s)"

for f in --tokens --global-batch-tokens; do
	for v in abc 1,00 -5 nan inf 1e308 2X "" 5TT 0 0x10; do
		run $A recommend --workload pretrain --model llama-2-7b "$f" "$v"
		check "$f '$v' exits 2" rc 2
		check "$f '$v' message names the flag" contains "$err" "$f"
	done
done
# --eval-tokens: 0 is none (the default); the evaluations add their
# forward passes to the time to train, the step stays
for v in abc 1,00 -5 nan inf 1e308 2X "" 5TT 0x10; do
	run $A recommend --workload pretrain --model llama-2-7b --eval-tokens "$v"
	check "--eval-tokens '$v' exits 2" rc 2
	check "--eval-tokens '$v' message names the flag" contains "$err" "--eval-tokens"
done
ev="--workload pretrain --model llama-2-7b --precision bf16 --tokens 1B --recompute none --accelerator a100-sxm-80gb --gpus 8 --format csv"
$A recommend $ev > "$TMPD/ev0.csv" 2>/dev/null
$A recommend $ev --eval-tokens 0 > "$TMPD/ev00.csv" 2>/dev/null
$A recommend $ev --eval-tokens 3B > "$TMPD/ev3.csv" 2>/dev/null
check "--eval-tokens 0 is the default" equals "$(cat "$TMPD/ev00.csv")" "$(cat "$TMPD/ev0.csv")"
check "--eval-tokens keeps the step" equals "$(csv_col "$TMPD/ev3.csv" step_ms)" "$(csv_col "$TMPD/ev0.csv" step_ms)"
check "--eval-tokens 3B (a third of 1B's FLOPs a token) adds a third more time" equals \
	"$(awk -v a="$(csv_col "$TMPD/ev0.csv" train_hours)" -v b="$(csv_col "$TMPD/ev3.csv" train_hours)" \
	'BEGIN { d = b / a - 2; print (d < 0.02 && d > -0.02) ? "yes" : b " / " a }')" "yes"
for v in 2e12 2T 500B 1.5M 20k 1000000; do
	run $A recommend --workload pretrain --model llama-2-7b --tokens "$v" --format csv
	check "--tokens accepts $v" rc 0
done

for v in abc 0 -1 1,00 1.5 max2 ""; do
	run $A recommend $INF --concurrency "$v"
	check "--concurrency '$v' exits 2" rc 2
	check "--concurrency '$v' message names the flag" contains "$err" "--concurrency"
done
run $A recommend $INF --concurrency max
check "--concurrency max works" rc 0

for pair in "--workload training-ish" "--precision fp7" "--kv-precision fp3" "--recompute some" \
	"--method dora" "--stack cuda12" "--form-factor oam-ish" "--objective speed" "--format json" \
	"--model nope-70b" "--accelerator h100-sxn"; do
	set -- $pair
	run $A recommend $INF "$1" "$2"
	check "$1 '$2' exits 2" rc 2
	check "$1 '$2' message names the flag" contains "$err" "$1"
done
run $A recommend $INF --accelerator h100-sxn
check "unknown accelerator suggests the near one" contains "$err" "h100-sxm"
run $A recommend $INF --precision fp7
check "enum message lists the choices" contains "$err" "fp32, bf16, fp16, fp8, int8, int4, fp4, mxfp4"

run $A recommend $INF --model
check "missing value exits 2" rc 2
check "missing value names the flag" contains "$err" "--model needs a value"
run $A recommend $INF --frobnicate 3
check "unknown option exits 2" rc 2
check "unknown option is named" contains "$err" "--frobnicate"
run $A recommend $INF stray
check "stray argument exits 2" rc 2
run $A recommend $INF --gpus 8
check "--gpus without --accelerator exits 2" rc 2
check "--gpus without --accelerator says so" contains "$err" "--accelerator"
run $A recommend --model llama-2-70b --input-tokens 4000 --output-tokens 500
check "context beyond the model exits 2" rc 2
check "context message gives the model's context" contains "$err" "4096"
check "context message names the flags" contains "$err" "--input-tokens + --output-tokens"
run $A recommend --workload pretrain --seq-len 8192 --global-batch-tokens 4096
check "batch smaller than a sequence exits 2" rc 2
check "batch message names the flag" contains "$err" "--global-batch-tokens"
run $A recommend --workload pretrain --precision int4
check "int4 training exits 2" rc 2
check "int4 training message names the flag" contains "$err" "--precision"
run $A recommend $INF --catalog /nonexistent/catalog
check "missing catalog exits 2" rc 2
run $A recommend $INF --input-tokens=512 --output-tokens=128 --format=csv
check "--flag=value works" rc 0

# ---- csv ----
run $A recommend $INF --format csv
check "csv exits 0" rc 0
header=$(printf '%s\n' "$out" | head -n 1)
for f in rank accelerator platform gpus nodes tp replicas fits binding reason precision_used \
	mem_required_gb mem_per_gpu_gb mem_util_pct bw_util_pct link_util_pct output_tokens_per_s \
	tokens_per_s_per_user ttft_ms train_hours gpu_hours scaling_efficiency capex_usd power_kw \
	usd_per_mtok; do
	check "csv header has $f" matches "$header" "(^|,)\"?$f\"?(,|$)"
done
nrows=$(printf '%s\n' "$out" | wc -l)
nacc=$(ls "$ACCELSIZER_CATALOG/accelerators" | grep -c '\.yaml$')
check "csv has one record per accelerator" equals "$nrows" "$((nacc + 1))"
# Fields that do not apply are empty, never 0: training figures of an
# inference run.
col() { printf '%s\n' "$header" | tr ',' '\n' | sed 's/"//g' | grep -n "^$1\$" | cut -d: -f1; }
printf '%s\n' "$out" >"$TMPD/inf.csv"
check "inference csv: train_hours is empty" equals "$(csv_col "$TMPD/inf.csv" train_hours)" ""
check "inference csv: gpu_hours is empty" equals "$(csv_col "$TMPD/inf.csv" gpu_hours)" ""
check "csv rank 1 first" equals "$(csv_col "$TMPD/inf.csv" rank)" "1"

run $A recommend --workload pretrain --model llama-2-7b --tokens 2T --format csv
header=$(printf '%s\n' "$out" | head -n 1)
ot=$(col output_tokens_per_s)
um=$(col usd_per_mtok)
first=$(printf '%s\n' "$out" | sed -n 2p)
check "training csv: output_tokens_per_s is empty" equals "$(printf '%s\n' "$first" | cut -d, -f"$ot")" ""
check "training csv: usd_per_mtok is empty" equals "$(printf '%s\n' "$first" | cut -d, -f"$um")" ""
check "training csv: train_hours is a number" matches "$(printf '%s\n' "$first" | cut -d, -f"$(col train_hours)")" '^"?[0-9]+(\.[0-9]+)?"?$'

# ---- yaml ----
run $A recommend $INF --format yaml
check "yaml exits 0" rc 0
check "yaml has workload" matches "$out" '^workload:'
check "yaml has results" matches "$out" '^results:'
for f in weights_gb kv_bytes_per_token kv_gb flops_total; do
	check "yaml workload has $f" matches "$out" "^  $f: "
done
for f in rank accelerator platform gpus nodes tp replicas fits binding reason precision_used \
	mem_required_gb mem_per_gpu_gb mem_util_pct bw_util_pct link_util_pct output_tokens_per_s \
	tokens_per_s_per_user ttft_ms train_hours gpu_hours scaling_efficiency capex_usd power_kw \
	usd_per_mtok; do
	check "yaml results have $f" matches "$out" "^(- |  )$f: "
done
check "yaml: training fields of inference are null" matches "$out" '^  train_hours: null$'
check "yaml: no zero train_hours" lacks "$out" "train_hours: 0"
check "yaml kv bytes per token (fp8)" matches "$out" '^  kv_bytes_per_token: 163840$'
if command -v python3 >/dev/null 2>&1 && python3 -c 'import yaml' 2>/dev/null; then
	printf '%s\n' "$out" >"$TMPD/r.yaml"
	n=$(python3 -c 'import yaml,sys; d=yaml.safe_load(open(sys.argv[1])); print(len(d["results"]))' "$TMPD/r.yaml")
	check "yaml parses with one result per accelerator" equals "$n" "$nacc"
fi

# ---- one accelerator, exit 1 ----
run $A recommend $INF --accelerator h100-sxm --format csv
check "--accelerator sizes one" equals "$(printf '%s\n' "$out" | wc -l)" "2"
check "--accelerator row is that one" contains "$out" "h100-sxm"
run $A recommend $INF --max-power-kw 0.01
check "power limit nobody meets exits 1" rc 1
check "exit 1 says why" contains "$err" "filtered out"
check "filtered rows stay visible" contains "$out" "filtered: draws"
run $A recommend $INF --stack rocm --accelerator h100-sxm
check "a named accelerator outside the filters exits 1" rc 1
check "and says which filter" contains "$err" "outside your filters: runs cuda, not rocm"
run $A recommend --model llama-3.1-405b --precision bf16 --accelerator l4 --gpus 1
check "405B on one L4 exits 1" rc 1
check "exit 1 names the accelerator and the reason" contains "$err" "l4 cannot meet this workload"
run $A recommend --model llama-2-70b --tokens-per-s-per-user 100000
check "unreachable per-user speed exits 1" rc 1
check "unreachable target says nothing can" contains "$err" "nothing in the catalog can meet"

# ---- memory as the runtime sees it ----
# Llama-2-70B at fp16, one user, 1024 in / 256 out: 2 x H100 (85.52 GB as
# nvidia-smi reports it, all of which TensorRT-LLM may fill, each holds half
# the weights and the workspace; its KV cache takes 0.90 of the rest),
# 1 x MI300X.  gpus is the 4th csv column (nothing before it
# holds a comma).
ONE="--model llama-2-70b --precision fp16 --concurrency 1 --input-tokens 1024 --output-tokens 256"
run $A recommend $ONE --accelerator h100-sxm --format csv
check "70B fp16 one user on H100: exit 0" rc 0
check "70B fp16 one user needs 2 x H100 SXM" equals "$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f4 | tr -d '"')" "2"
check "the reason names the marketed 80 GB and the 86 GB usable" contains "$out" "more than one 80 GB GPU (86 GB usable)"
run $A recommend $ONE --accelerator h100-sxm
check "headline: 1 user, singular" contains "$out" "1024 in / 256 out tokens, 1 user,"
check "reason: the one user's KV cache in tenths of a GB" contains "$out" "; 1 user's KV cache adds 0.4 GB"
check "no '1 users' anywhere" lacks "$out" "1 users"
run $A recommend $ONE --accelerator mi300x --format csv
check "70B fp16 one user fits 1 x MI300X" equals "$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f4 | tr -d '"')" "1"
run $A catalog show h100-sxm
check "catalog show gives the addressable memory" contains "$out" "memory.addressable_gb      85.52 GB as the runtime reports it"

# ---- whole-rack platforms ----
run $A recommend --model llama-3.1-405b --precision fp8 --concurrency 16 --accelerator gb200 --gpus 72 --spare-nodes 0 --format csv
check "72 x GB200: exit 0" rc 0
check "72 x GB200 is one NVL72 node" equals "$(csv_col "$TMPD/out" nodes)" "1"
# its own rack, not ceil(132 kW / 40 kW), and one for its front-end and OOB
# switches (nothing is added to an NVL72 rack)
check "72 x GB200 is its own rack and one for the facility switches, not ceil(132 kW / 40 kW)" equals \
	"$(csv_col "$TMPD/out" racks)" "2"
run $A catalog show l40s
check "catalog show gives the card's PCIe generation" contains "$out" "host_pcie_gb_s             64 GB/s per GPU, both directions, raw"
run $A catalog show h100-nvl
check "catalog show: H100 NVL is Gen5" contains "$out" "host_pcie_gb_s             128 GB/s"
run $A catalog show gb200-nvl72
check "catalog show gives whole_rack" contains "$out" "whole_rack                 true"

# ---- validate ----
run $A validate $INF --accelerator h100-sxm
check "validate exits 0" rc 0
check "validate names the serving benchmark" contains "$out" "benchmark_serving"
check "validate gives thresholds" contains "$out" "pass if"
check "validate has TTFT p99" contains "$out" "TTFT p99"
run $A validate $INF --accelerator h100-sxm --format csv
check "validate csv exits 0" rc 0
# the plan's first-token rows are the figures recommend reports at this load
# (p50 and p99 with queueing), not the unloaded time of one request
LOADED="--model llama-3.1-70b --concurrency 300 --tokens-per-s-per-user 20 --ttft-ms 1000 --accelerator b200"
run $A recommend $LOADED --format yaml
rec_p50=$(printf '%s\n' "$out" | sed -n 's/^ *ttft_p50_ms: //p' | head -n 1)
rec_p99=$(printf '%s\n' "$out" | sed -n 's/^ *ttft_p99_ms: //p' | head -n 1)
run $A validate $LOADED --format csv
plan_p50=$(printf '%s\n' "$out" | awk -F'","' '$3 == "TTFT p50" { printf "%.1f", $5 }')
plan_p99=$(printf '%s\n' "$out" | awk -F'","' '$3 == "TTFT p99" { printf "%.1f", $5 }')
check "validate's TTFT p50 is recommend's ttft_p50_ms" equals "$plan_p50" "$rec_p50"
check "validate's TTFT p99 is recommend's ttft_p99_ms" equals "$plan_p99" "$rec_p99"
check "validate csv header" equals "$(printf '%s\n' "$out" | head -n 1)" '"accelerator","benchmark","metric","unit","predicted","threshold","pass_if","notes"'
run $A validate $INF --accelerator h100-sxm --format yaml
check "validate yaml has plan" matches "$out" '^plan:'
run $A validate --workload pretrain --model llama-2-7b --accelerator h100-sxm --gpus 32
check "validate training exits 0" rc 0
check "validate training has step time" contains "$out" "step time"
check "validate multi-node has all_reduce_perf" contains "$out" "all_reduce_perf"
run $A validate $INF
check "validate without --accelerator exits 2" rc 2
check "validate says it needs --accelerator" contains "$err" "--accelerator"
run $A validate --model llama-3.1-405b --precision bf16 --accelerator l4 --gpus 1
check "validate of an unfit accelerator exits 1" rc 1

# No layout holds one sequence: the reason names the GPUs the user gave,
# and says when it is the workspace, not the weights, that does not fit.
run "$ACCELSIZER" recommend --model llama-3.1-70b --accelerator l4 --gpus 1 --format csv
check "--gpus 1 too small: exit 1" rc 1
check "--gpus 1 too small: the row keeps 1 GPU" matches "$out" '^"[0-9a-z]*","l4","[^"]*","1",'
check "--gpus 1 too small: reason names 1 GPU" contains "$out" "needs 141 GB of weights: more than 1 x 24 GB GPU (24 GB usable)"
# (vLLM: its measured 5.9 GB workspace; TensorRT-LLM's one layer of
# activation buffers at the token budget fits beside the weights)
run "$ACCELSIZER" recommend --model llama-3.1-70b --accelerator l4 --gpus 8 --serving-stack vllm
check "weights fit 8 GPUs but not with workspace: exit 1" rc 1
check "weights fit 8 GPUs but not with workspace: why" contains "$err" "141 GB of weights on 8 x 24 GB GPUs is 18 GB each; with 6.6 GB of runtime workspace and 0.1 GB of KV per sequence that exceeds 22 GB usable"

# --dispatch: how requests reach the replicas.  Least-loaded shares the
# replicas' swings in load (NVIDIA's MLPerf harness), so 8 TP1 replicas
# carry more under the same p99 targets than independent ones.
ILV="--model llama-2-70b --precision fp8 --input-tokens 300 --output-tokens 300 --concurrency max
	--tokens-per-s-per-user 25 --ttft-ms 450 --accelerator h200-sxm --gpus 8 --tp 1 --format csv"
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $ILV
check "--dispatch left out: independent, exit 0" rc 0
ind_b=$(csv_col "$TMPD/out" batch_per_replica)
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $ILV --dispatch least-loaded
check "--dispatch least-loaded: exit 0" rc 0
ll_b=$(csv_col "$TMPD/out" batch_per_replica)
check "--dispatch least-loaded: a larger batch a replica ($ind_b -> $ll_b)" equals \
	"$( [ "${ll_b:-0}" -gt "${ind_b:-0}" ] && echo yes)" "yes"
run "$ACCELSIZER" recommend --dispatch nearest
check "--dispatch nearest: exit 2" rc 2
check "--dispatch nearest: names the choices" contains "$err" "--dispatch: 'nearest' is not one of independent, least-loaded"
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-2-70b\n  dispatch: nearest\n' >"$TMPD/dispatch.yaml"
run "$ACCELSIZER" recommend --scenario "$TMPD/dispatch.yaml"
check "a scenario's dispatch: nearest: exit 2" rc 2
check "a scenario's dispatch: nearest: file:line:col" matches "$err" "dispatch.yaml:5:[0-9]+: .*nearest"

# --prefill separate (vLLM without chunked prefill): at Interactive limits a
# prompt pays its own prefill iteration, so 8 TP1 MI300X replicas carry
# fewer sequences than with chunked prefill; --scheduler-steps groups them.
PRV="--model llama-2-70b --precision fp8 --input-tokens 300 --output-tokens 300 --concurrency max
	--tokens-per-s-per-user 25 --ttft-ms 450 --accelerator mi300x --gpus 8 --tp 1 --serving-stack vllm --format csv"
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $PRV
ch_b=$(csv_col "$TMPD/out" batch_per_replica)
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $PRV --prefill separate
check "--prefill separate: exit 0" rc 0
sep_b=$(csv_col "$TMPD/out" batch_per_replica)
check "--prefill separate: a smaller batch a replica ($ch_b -> $sep_b)" equals \
	"$( [ "${sep_b:-0}" -lt "${ch_b:-0}" ] && [ "${sep_b:-0}" -gt 0 ] && echo yes)" "yes"
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $PRV --prefill separate --scheduler-steps 8
check "--scheduler-steps 8: exit 0" rc 0
run "$ACCELSIZER" recommend --prefill whole
check "--prefill whole: exit 2" rc 2
check "--prefill whole: names the choices" contains "$err" "--prefill: 'whole' is not one of chunked, separate"
run "$ACCELSIZER" recommend --scheduler-steps 65
check "--scheduler-steps 65: exit 2" rc 2
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-2-70b\n  prefill: whole\n' >"$TMPD/prefill.yaml"
run "$ACCELSIZER" recommend --scenario "$TMPD/prefill.yaml"
check "a scenario's prefill: whole: exit 2" rc 2
check "a scenario's prefill: whole: file:line:col" matches "$err" "prefill.yaml:5:[0-9]+: .*whole"

# ---- --vp: the interleaved schedule's virtual stages, forced ----
# Megatron-Bridge's DGX-H100 Qwen3-30B-A3B layout (PP 2, VP 24, EP 8)
VPW="--workload pretrain --model qwen3-30b-a3b --precision fp8 --seq-len 4096 --global-batch-tokens 2097152"
VPW="$VPW --tokens 1e12 --accelerator h100-sxm --gpus 16 --tp 1 --pp 2 --cp 1 --ep 8 --micro-batch 2 --format csv"
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $VPW --vp 24 -o "$TMPD/vp24.csv"
check "--vp 24: exit 0" rc 0
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $VPW --vp 1 -o "$TMPD/vp1.csv"
check "--vp 1: exit 0" rc 0
# step_s of the first result of a csv file
vp_step() { csv_col "$1" step_s; }
s24=$(vp_step "$TMPD/vp24.csv")
s1=$(vp_step "$TMPD/vp1.csv")
check "--vp 24 and --vp 1 size different steps" equals "$([ -n "$s24" ] && [ "$s24" != "$s1" ] && echo differ)" "differ"
printf 'schema: 1\nworkload:\n  class: pretrain\n  model: qwen3-30b-a3b\n  vp: 24\n' >"$TMPD/vp.yaml"
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend --scenario "$TMPD/vp.yaml" $VPW -o "$TMPD/vps.csv"
check "a scenario's vp: 24 is --vp 24" equals "$(vp_step "$TMPD/vps.csv")" "$s24"
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $VPW --vp 25
check "--vp 25 on 24 layers a stage: exit 1" rc 1
check "--vp 25: no layout of the forced degrees" contains "$out$err" "no layout with the forced parallel degrees"

# A per-user target that caps the users a replica holds is named in the
# reason even when the link's share of the step is what binds (it is what
# the customer can change): the default workload on RTX PRO 6000, TP4 over
# PCIe, 20 tok/s per user
run "$ACCELSIZER" recommend --accelerator rtx-pro-6000 --format csv -o "$TMPD/capped.csv"
check "link-bound and capped: binding interconnect" equals "$(csv_col "$TMPD/capped.csv" binding)" "interconnect"
check "... the reason names the per-user cap, then the link" matches "$(csv_col "$TMPD/capped.csv" reason)" \
	"^20 tok/s per user at p99 caps a TP[0-9]+ replica at [0-9]+ users: TP[0-9]+ all-reduces over PCIe take [0-9]+% of each decode step; [0-9]+ replicas$"
# a typed target is echoed as typed, not rounded like a computed figure
run "$ACCELSIZER" recommend --accelerator rtx-pro-6000 --tokens-per-s-per-user 12.5 --format csv -o "$TMPD/typed.csv"
check "12.5 tok/s per user stays 12.5 in the reason" matches "$(csv_col "$TMPD/typed.csv" reason)" "^12.5 tok/s per user at p99"
done_testing
