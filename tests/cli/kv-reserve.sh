#!/bin/sh
# How a request's KV cache is taken (issue 15): --kv-reserve full sizes the
# batch with each request's whole input + output reserved at admission
# (TensorRT-LLM's guaranteed-no-evict, trtllm-bench's default), on-demand
# (the default) with I + O/2 a sequence at maximum load; the perf-overview
# rows that trtllm-bench ran state it in the ledger; a bad value is refused.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1
# Llama 3.1 70B fp8 on one H100: the KV room holds few long sequences
one="--model llama-3.1-70b --precision fp8 --input-tokens 128 --output-tokens 4096 --concurrency max --accelerator h100-sxm --gpus 1 --tp 1 --serving-stack tensorrt-llm --tokens-per-s-per-user 0 --ttft-ms 0"

run "$ACCELSIZER" recommend $one --format csv -o demand.csv
check "on demand (the default): exit 0" rc 0
run "$ACCELSIZER" recommend $one --kv-reserve full --format csv -o full.csv
check "--kv-reserve full: exit 0" rc 0
bd=$(csv_col demand.csv batch_per_replica) bf=$(csv_col full.csv batch_per_replica)
# I + O/2 = 2,176 tokens a sequence on demand, I + O = 4,224 reserved:
# the same room holds about 1.94 times as many on demand
check "full reservation holds fewer sequences (on demand $bd, full $bf)" equals \
	"$(awk -v a="$bd" -v b="$bf" 'BEGIN { r = a / b; print (r > 1.8 && r < 2.1) ? "about 2x" : r }')" "about 2x"
check "... and so fewer tokens a second" equals \
	"$(awk -v a="$(csv_col demand.csv output_tokens_per_s)" -v b="$(csv_col full.csv output_tokens_per_s)" 'BEGIN { print (b < a) ? "fewer" : "not fewer" }')" "fewer"
run "$ACCELSIZER" recommend $one --kv-reserve on-demand --format csv -o od.csv
check "--kv-reserve on-demand is the default" equals "$(csv_col od.csv batch_per_replica)" "$bd"

# a fixed number of users is sized at full context either way
run "$ACCELSIZER" recommend --model llama-3.1-70b --precision fp8 --concurrency 16 --accelerator h100-sxm --gpus 1 --tp 1 --format csv -o u1.csv
run "$ACCELSIZER" recommend --model llama-3.1-70b --precision fp8 --concurrency 16 --accelerator h100-sxm --gpus 1 --tp 1 --kv-reserve full --format csv -o u2.csv
check "fixed users: the same memory either way" equals "$(csv_col u2.csv mem_per_gpu_gb)" "$(csv_col u1.csv mem_per_gpu_gb)"

# the scenario key
run "$ACCELSIZER" recommend $one --kv-reserve full --format yaml
check "yaml: the workload says kv_reserve full" contains "$out" "kv_reserve: full"
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-3.1-70b\n  precision: fp8\n  input_tokens: 128\n  output_tokens: 4096\n  concurrency: max\n  tokens_per_s_per_user: 0\n  ttft_ms: 0\n  serving_stack: tensorrt-llm\n  kv_reserve: full\n  tp: 1\naccelerator: h100-sxm\nnode:\n  gpus: 1\n' > s.yaml
run "$ACCELSIZER" recommend --scenario s.yaml --format csv -o s.csv
check "scenario workload.kv_reserve: full" equals "$(csv_col s.csv batch_per_replica)" "$bf"

refuse_with "a bad value names the flag and the words" "--kv-reserve: 'all' is not one of on-demand, full" \
	"$ACCELSIZER" recommend --kv-reserve all
run "$ACCELSIZER" recommend --help
check "--help lists --kv-reserve" matches "$out" "--kv-reserve HOW +inference: a request's KV cache"

# the ledger's trtllm-bench rows state it
run "$ACCELSIZER" catalog show trtllm017-h100-sxm-tp1-llama3.1-70b-128-4096
check "catalog show: the perf-overview row reserves the whole context" matches "$out" "kv_reserve +full"
done_testing
