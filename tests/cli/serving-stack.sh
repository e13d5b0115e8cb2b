#!/bin/sh
# The serving stack as an input (issue 15 item 5): --serving-stack picks the
# stack whose figures catalog/serving-stacks/ holds; the default is each
# vendor's best published stack; every result names its stack; a stack that
# does not run on an accelerator filters it out, or is an error with
# --accelerator; unknown names list the valid ones; scenarios keep it.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1
wl="--model llama-2-70b --precision fp8 --input-tokens 300 --output-tokens 300 --concurrency max --gpus 8"

run "$ACCELSIZER" recommend $wl --accelerator h200-sxm --format csv -o trt.csv
check "default on H200: exit 0" rc 0
check "default on NVIDIA: tensorrt-llm" equals "$(csv_col trt.csv serving_stack)" "tensorrt-llm"
run "$ACCELSIZER" recommend $wl --accelerator mi300x --format csv -o amd.csv
check "default on MI300X: vllm" equals "$(csv_col amd.csv serving_stack)" "vllm"
run "$ACCELSIZER" recommend $wl --accelerator gaudi3 --format csv -o gaudi.csv
check "default on Gaudi 3: optimum-habana" equals "$(csv_col gaudi.csv serving_stack)" "optimum-habana"

run "$ACCELSIZER" recommend $wl --accelerator h200-sxm --serving-stack vllm --format csv -o vllm.csv
check "--serving-stack vllm on H200: exit 0" rc 0
check "the result names vllm" equals "$(csv_col vllm.csv serving_stack)" "vllm"
# vLLM 0.6.4 reached half of TensorRT-LLM's throughput on the same 8 x H200
# (MLPerf v5.0 open, Krai, against NVIDIA's v4.1 closed result)
check "vLLM on H200 is slower than TensorRT-LLM" equals \
	"$(awk -v a="$(csv_col vllm.csv output_tokens_per_s)" -v b="$(csv_col trt.csv output_tokens_per_s)" \
	'BEGIN { print (a < 0.7 * b) ? "slower" : "not slower" }')" "slower"
run "$ACCELSIZER" recommend $wl --accelerator h200-sxm --serving-stack tensorrt-llm --format csv -o trt2.csv
check "naming the default gives the default's figures" equals \
	"$(csv_col trt2.csv output_tokens_per_s)" "$(csv_col trt.csv output_tokens_per_s)"

# vLLM's V1 engine (0.8 on) is its own stack: Krai's vLLM 0.9.2 served
# 30,893.1 tok/s on the 8 x H200 where 0.6.4 served 15,906.1 (MLPerf v5.0 and
# v5.1 open), about TensorRT-LLM's throughput
run "$ACCELSIZER" recommend $wl --accelerator h200-sxm --serving-stack vllm-v1 --format csv -o v1.csv
check "--serving-stack vllm-v1 on H200: exit 0" rc 0
check "the result names vllm-v1" equals "$(csv_col v1.csv serving_stack)" "vllm-v1"
check "vLLM V1 on H200 is within 10% of TensorRT-LLM, above vLLM V0" equals \
	"$(awk -v a="$(csv_col v1.csv output_tokens_per_s)" -v b="$(csv_col trt.csv output_tokens_per_s)" \
	-v c="$(csv_col vllm.csv output_tokens_per_s)" \
	'BEGIN { print (a > 0.9 * b && a < 1.1 * b && a > 1.5 * c) ? "yes" : a " " b " " c }')" "yes"
refuse_with "vllm-v1 is not listed on ROCm: exit 2, names the flag" \
	"--serving-stack: 'vllm-v1' does not run on mi300x (a rocm accelerator)" \
	"$ACCELSIZER" recommend --serving-stack vllm-v1 --accelerator mi300x

run "$ACCELSIZER" recommend $wl --accelerator h200-sxm --serving-stack sglang --format yaml
check "yaml: serving_stack" contains "$out" "serving_stack: sglang"

run "$ACCELSIZER" recommend --serving-stack sglang --format csv -o all.csv
check "sglang over the catalog: exit 0" rc 0
check "an AMD accelerator is filtered with the reason" contains "$(grep '"mi300x"' all.csv)" \
	"runs no sglang (a rocm accelerator)"
check "Gaudi is filtered with the reason" contains "$(grep '"gaudi3"' all.csv)" "runs no sglang (a gaudi accelerator)"
check "an NVIDIA accelerator is not filtered" contains "$(grep '"h100-sxm"' all.csv)" '"false","sglang"'

run "$ACCELSIZER" recommend
check "the table says which stacks it assumes" contains "$out" \
	"Serving stack: each vendor's best published, TensorRT-LLM on cuda, vLLM on rocm, Optimum Habana on gaudi"
run "$ACCELSIZER" recommend --serving-stack vllm
check "the table names a chosen stack" contains "$out" "Serving stack: vLLM (--serving-stack vllm)"

refuse_with "a stack with an accelerator it does not run on: exit 2, names the flag" \
	"--serving-stack: 'sglang' does not run on mi300x (a rocm accelerator)" \
	"$ACCELSIZER" recommend --serving-stack sglang --accelerator mi300x
refuse_with "an unknown stack: exit 2, lists the valid ones" \
	"--serving-stack: 'trt' is not one of auto, tensorrt-llm, vllm, sglang, optimum-habana, vllm-v1" \
	"$ACCELSIZER" recommend --serving-stack trt

printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-2-70b\n  serving_stack: vllm\naccelerator: h100-sxm\n' > s.yaml
run "$ACCELSIZER" recommend --scenario s.yaml --format csv -o s.csv
check "scenario workload.serving_stack: exit 0" rc 0
check "scenario workload.serving_stack is used" equals "$(csv_col s.csv serving_stack)" "vllm"
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-2-70b\n  serving_stack: tgi\n' > bad.yaml
run "$ACCELSIZER" recommend --scenario bad.yaml
check "scenario: an unknown stack is refused" rc 2
check "scenario: the message names the key" contains "$err" "serving_stack"

run "$ACCELSIZER" recommend --help
check "--help lists --serving-stack" contains "$out" "--serving-stack NAME"

# the catalog refuses a second default on a platform, and an unknown id
cp -r "$TOP_SRCDIR/catalog" cat
sed 's/^  - platform: cuda$/  - platform: cuda\n    default: true/' cat/serving-stacks/sglang.yaml > t && mv t cat/serving-stacks/sglang.yaml
sed -i 's/      value: 0.966/      value: 1/' cat/serving-stacks/sglang.yaml
catalog_refuses "two defaults on cuda: refused" "two defaults: the message says which" \
	contains "tensorrt-llm is marked the default stack on cuda, which already has one: sglang"
# a platform listed twice in one stack's runs_on, at the second item
cp -r "$TOP_SRCDIR/catalog" cat
sed -i 's/^runs_on:$/runs_on:\n  - platform: cuda/' cat/serving-stacks/sglang.yaml
catalog_refuses "a platform twice in runs_on: refused" "a platform twice: the message says where and which" \
	contains "sglang.yaml:7:5: runs_on: platform cuda is listed twice"
cp -r "$TOP_SRCDIR/catalog" cat
sed 's/^id: sglang/id: tgi/' cat/serving-stacks/sglang.yaml > cat/serving-stacks/tgi.yaml
catalog_refuses "an unknown stack id: refused" "an unknown stack id: the message lists the known" \
	contains "unknown serving stack 'tgi'"

# Memory is the stack's: TensorRT-LLM fills the whole 85.52 GB of an H100
# with weights and gives its KV cache 0.90 of what is left; vLLM fits all
# in 0.90 of it.  Llama 3.1 70B at fp8 on one H100: a batch against about
# one sequence.
FIT="--model llama-3.1-70b --precision fp8 --input-tokens 1000 --output-tokens 1000 --concurrency max --accelerator h100-sxm --gpus 1 --tokens-per-s-per-user 0 --ttft-ms 0 --format csv"
run "$ACCELSIZER" recommend $FIT -o trt.csv
check "70B fp8 on one H100, TensorRT-LLM: exit 0" rc 0
check "TensorRT-LLM: the whole 85.5 GB is available" equals "$(csv_col trt.csv mem_avail_per_gpu_gb)" "85.5"
run "$ACCELSIZER" recommend $FIT --serving-stack vllm -o vllm.csv
check "vLLM: 0.90 of it" equals "$(csv_col vllm.csv mem_avail_per_gpu_gb)" "77.0"
check "TensorRT-LLM's KV room holds a batch, vLLM's about one sequence" \
	equals "$(awk -v a="$(csv_col trt.csv batch_per_replica)" -v b="$(csv_col vllm.csv batch_per_replica)" 'BEGIN { print (a >= 10 && b <= 2) ? "yes" : a " " b }')" "yes"
# kv_free_fraction is a sourced share in (0.05, 1]
cp -r "$TOP_SRCDIR/catalog" cat
sed -i 's/^      value: 0.90$/      value: 1.5/' cat/serving-stacks/tensorrt-llm.yaml
catalog_refuses "kv_free_fraction 1.5: refused" "kv_free_fraction 1.5: the message names the key and file" \
	matches "tensorrt-llm.yaml:[0-9]+:[0-9]+:.*kv_free_fraction"

done_testing
