#!/bin/sh
# Attention data parallel with expert parallel (issue 15 item 4):
# --attention-dp with --ep N reproduces a published DEPn layout (attention
# replicated across the N GPUs, experts sharded), across nodes too; the
# ledger's DEP rows run in it; a dense model or an EP degree that does not
# divide the experts is refused with the reason; unforced, the search
# offers DEP where the stack runs it and TP would replicate the KV cache.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1
oss="--model gpt-oss-120b --precision fp8 --input-tokens 1000 --output-tokens 1000 --concurrency max --accelerator h100-sxm --gpus 4"

run "$ACCELSIZER" recommend $oss --tp 4 --ep 4 --format csv -o tp.csv
check "EP4 inside TP4: exit 0" rc 0
run "$ACCELSIZER" recommend $oss --ep 4 --attention-dp --format csv -o dep.csv
check "--attention-dp --ep 4: exit 0" rc 0
check "DEP4: expert parallel 4" equals "$(csv_col dep.csv ep)" "4"
check "DEP4: four GPUs" equals "$(csv_col dep.csv gpus)" "4"
check "DEP4: attention and shared weights whole on each GPU, more memory per GPU than TP4" equals \
	"$(awk -v a="$(csv_col dep.csv mem_per_gpu_gb)" -v b="$(csv_col tp.csv mem_per_gpu_gb)" 'BEGIN { print (a > b) ? "more" : "not more" }')" "more"
run "$ACCELSIZER" recommend $oss --ep 4 --attention-dp
check "the table names the layout DEP4" contains "$out" "1x DEP4"
run "$ACCELSIZER" validate $oss --ep 4 --attention-dp
check "the validation plan names the layout" contains "$out" "4 GPUs as 1 x DEP4"

# EP across nodes: the all-to-all leaves the node over the NICs (at 5
# tok/s per user: a prompt prefilled whole on one of 16 ranks, its
# dispatch over the NICs, holds the iteration of all 16 past 20 tok/s)
run "$ACCELSIZER" recommend --model deepseek-r1 --precision fp8 --concurrency 256 --tokens-per-s-per-user 5 --accelerator h200-sxm --ep 16 --attention-dp --gpus 16 --spare-nodes 0 --format csv -o wide.csv
check "DEP16 on 8-GPU nodes: exit 0" rc 0
check "DEP16: two nodes" equals "$(csv_col wide.csv nodes)" "2"
check "DEP16: expert parallel 16" equals "$(csv_col wide.csv ep)" "16"
check "DEP16: a NIC per GPU for the all-to-all" equals "$(csv_col wide.csv nics)" "16"

# unforced, the search offers DEP on TensorRT-LLM for an MLA model (TP
# would hold its one latent KV head whole on every GPU), not on vLLM (its
# catalog file has no attention_dp), and not for gpt-oss (8 KV heads: TP
# splits its cache)
r1="--model deepseek-r1 --precision fp4 --kv-precision fp8 --input-tokens 804 --output-tokens 3886 --concurrency max --accelerator gb300 --gpus 8"
run "$ACCELSIZER" recommend $r1 --serving-stack tensorrt-llm
check "DeepSeek-R1 on TensorRT-LLM, unforced: a DEP layout" contains "$out" "x DEP"
run "$ACCELSIZER" recommend $r1 --serving-stack vllm
check "... on vLLM: no DEP" lacks "$out" "DEP"
run "$ACCELSIZER" recommend $r1 --serving-stack tensorrt-llm --tp 8
check "... with --tp forced: no DEP" lacks "$out" "DEP"
run "$ACCELSIZER" recommend --model gpt-oss-120b --precision fp8 --input-tokens 1000 --output-tokens 1000 --concurrency max --accelerator h100-sxm --gpus 4
check "gpt-oss unforced (TP splits its KV): no DEP" lacks "$out" "DEP"

# the scenario key round-trips
run "$ACCELSIZER" recommend $oss --ep 4 --attention-dp --format yaml
check "yaml: the workload says attention_dp on" contains "$out" "attention_dp: 'on'"

# refusals
run "$ACCELSIZER" recommend $oss --ep 3 --attention-dp --format csv -o bad.csv
check "EP3 does not divide 128 experts: does not fit" equals "$(csv_col bad.csv fits)" "false"
check "... and says why" contains "$(csv_col bad.csv reason)" "attention data parallel needs"
run "$ACCELSIZER" recommend --model llama-3.1-70b --accelerator h100-sxm --ep 8 --attention-dp --format csv -o dense.csv
check "a dense model: does not fit" equals "$(csv_col dense.csv fits)" "false"

# the ledger's DEP rows carry the layout
run "$ACCELSIZER" accuracy --role validation --workload inference --format csv
check "the DEP rows are mapped" contains "$out" "trtllm11-h100-sxm-dep4-gpt-oss-120b-1000-1000"
done_testing
