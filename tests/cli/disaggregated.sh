#!/bin/sh
# Disaggregated prefill and decode (issue 15 item 7): --disaggregated sizes
# a prefill pool for the first-token target and a decode pool for the
# per-token target, sends the KV cache over the link or the fabric, and
# says whether that beats the aggregated layout for the targets.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1
# long prompts, a strict per-token target: prefills stall aggregated decode steps
strict="--model llama-3.1-70b --precision fp8 --input-tokens 4000 --output-tokens 500 --concurrency 200 --tokens-per-s-per-user 60 --ttft-ms 2000 --accelerator h100-sxm"
# short prompts, a loose per-token target: one pool is enough
loose="--model llama-3.1-70b --precision fp8 --input-tokens 1000 --output-tokens 1000 --concurrency 300 --tokens-per-s-per-user 30 --ttft-ms 2000 --accelerator h100-sxm"

run "$ACCELSIZER" recommend $strict --format csv -o agg.csv
check "aggregated: exit 0" rc 0
check "aggregated: no pool columns" equals "$(csv_col agg.csv prefill_gpus)" ""
run "$ACCELSIZER" recommend $strict --disaggregated --format csv -o d.csv
check "--disaggregated: exit 0" rc 0
p=$(csv_col d.csv prefill_gpus) d=$(csv_col d.csv decode_gpus)
check "the pools add up to the GPUs" equals "$((p + d))" "$(csv_col d.csv gpus)"
check "the aggregated layout's GPUs are reported" equals "$(csv_col d.csv aggregated_gpus)" "$(csv_col agg.csv gpus)"
check "strict targets: disaggregated needs fewer GPUs" equals \
	"$(awk -v a="$(csv_col d.csv gpus)" -v b="$(csv_col agg.csv gpus)" 'BEGIN { print (a < b) ? "fewer" : "not fewer" }')" "fewer"
check "strict targets: the reason says it beats aggregated" contains "$(csv_col d.csv reason)" "beats aggregated"
check "the first token at p99 meets the target" equals \
	"$(awk -v t="$(csv_col d.csv ttft_p99_ms)" 'BEGIN { print (t <= 2000) ? "met" : "missed" }')" "met"
check "the time per token at p99 meets the target" equals \
	"$(awk -v t="$(csv_col d.csv tpot_p99_ms)" 'BEGIN { print (t <= 1000 / 60) ? "met" : "missed" }')" "met"
check "the KV transfer is costed" equals \
	"$(awk -v t="$(csv_col d.csv kv_transfer_ms)" 'BEGIN { print (t > 0) ? "yes" : "no" }')" "yes"
check "past one node the KV crosses the fabric" contains "$(csv_col d.csv reason)" "over the fabric"

run "$ACCELSIZER" recommend $loose --disaggregated --format csv -o l.csv
check "loose targets: exit 0" rc 0
check "loose targets: the reason says it does not beat aggregated" contains "$(csv_col l.csv reason)" \
	"does not beat it for these targets"
check "within one node the KV crosses the GPU link" contains "$(csv_col l.csv reason)" "over the GPU link"

run "$ACCELSIZER" recommend --model llama-3.1-8b --concurrency max --accelerator l40s --disaggregated --format csv -o max.csv
check "as many users as fit: judged per GPU" contains "$(csv_col max.csv reason)" "tok/s per GPU against aggregated's"
check "as many users as fit: the pools add up to the GPUs" equals \
	"$(($(csv_col max.csv prefill_gpus) + $(csv_col max.csv decode_gpus)))" "$(csv_col max.csv gpus)"
run "$ACCELSIZER" recommend $strict --disaggregated
check "the table's layout names both pools" matches "$out" "h100-sxm +$((p + d)) +[0-9]+ P$p\+D"

run "$ACCELSIZER" recommend $strict --disaggregated=on --format yaml
check "--disaggregated=on, yaml: the pools" contains "$out" "prefill_gpus: $p"
run "$ACCELSIZER" recommend $strict --disaggregated=off --format csv -o off.csv
check "--disaggregated=off is the aggregated layout" equals "$(csv_col off.csv gpus)" "$(csv_col agg.csv gpus)"
refuse_with "a bad value names the flag" "--disaggregated: 'yes' is not one of off, on" \
	"$ACCELSIZER" recommend --disaggregated=yes

printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-3.1-70b\n  precision: fp8\n  input_tokens: 4000\n  output_tokens: 500\n  concurrency: 200\n  tokens_per_s_per_user: 60\n  ttft_ms: 2000\n  disaggregated: on\naccelerator: h100-sxm\n' > s.yaml
run "$ACCELSIZER" recommend --scenario s.yaml --format csv -o s.csv
check "scenario workload.disaggregated: on" equals "$(csv_col s.csv prefill_gpus)" "$p"

run "$ACCELSIZER" recommend --help
check "--help lists --disaggregated (no value)" matches "$out" "--disaggregated  +inference: prefill and decode"

done_testing
