#!/bin/sh
# Speculative decoding (issue 15 item 8): --speculative-acceptance with
# --draft-model ID or mtp.  The header states the tokens a step yields
# (Leviathan et al.: (1 - a^(k+1)) / (1 - a)), the draft's cost and one
# user's speed-up; the same GPUs serve faster per user and per GPU; the
# first token is unchanged; csv and yaml carry k, the acceptance and the
# tokens a step yields; bad combinations exit 2 naming the flags; a
# scenario carries the draft.
. "$TOP_SRCDIR/tests/lib.sh"
mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1

base="--model llama-3.1-70b --precision fp8 --accelerator h100-sxm --tp 2 --concurrency 16 --batch 16"
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $base --format csv -o plain.csv
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $base --draft-model llama-3.1-8b --speculative-acceptance 0.8 --speculative-tokens 4
check "exit 0" rc 0
check "the header states the draft's effect" contains "$out" \
	"Speculative decoding: 4 tokens drafted a step by Llama 3.1 8B, accepted at 0.8: 3.36 tokens per step of the model"
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $base --draft-model llama-3.1-8b --speculative-acceptance 0.8 --speculative-tokens 4 \
	--format csv -o spec.csv
check "the same GPUs" equals "$(csv_col spec.csv gpus)" "$(csv_col plain.csv gpus)"
check "faster per user" matches "$(awk -v a="$(csv_col spec.csv tokens_per_s_per_user)" \
	-v b="$(csv_col plain.csv tokens_per_s_per_user)" 'BEGIN { print (a > 1.4 * b) ? "yes" : a " vs " b }')" '^yes$'
check "more tokens per GPU" matches "$(awk -v a="$(csv_col spec.csv tokens_per_s_per_gpu)" \
	-v b="$(csv_col plain.csv tokens_per_s_per_gpu)" 'BEGIN { print (a > b) ? "yes" : a " vs " b }')" '^yes$'
check "the first token unchanged" equals "$(csv_col spec.csv ttft_ms)" "$(csv_col plain.csv ttft_ms)"
check "csv: the tokens drafted a step" equals "$(csv_col spec.csv spec_k)" "4"
check "csv: the acceptance assumed" equals "$(csv_col spec.csv spec_acceptance)" "0.80"
check "csv: the tokens a step yields" equals "$(csv_col spec.csv spec_tokens_per_step)" "3.36"
check "csv: no speculation, the columns empty" equals "$(csv_col plain.csv spec_k)" ""
# shellcheck disable=SC2086
run "$ACCELSIZER" recommend $base --draft-model llama-3.1-8b --speculative-acceptance 0.8 --speculative-tokens 4 \
	--format yaml
check "yaml: the tokens a step yields" contains "$out" "spec_tokens_per_step: 3.36"
run "$ACCELSIZER" recommend --model deepseek-v3 --precision fp8 --draft-model mtp --speculative-acceptance 0.85
check "mtp: DeepSeek-V3 drafts one token with its module" contains "$out" \
	"1 token drafted a step by its MTP modules, accepted at 0.85: 1.85 tokens per step"

refuse_with "acceptance without a draft" "speculative decoding needs a draft" \
	"$ACCELSIZER" recommend --model llama-3.1-70b --speculative-acceptance 0.7
refuse_with "a draft without acceptance" "a draft model needs --speculative-acceptance" \
	"$ACCELSIZER" recommend --model llama-3.1-70b --draft-model llama-3.1-8b
refuse_with "mtp on a model without MTP" "Llama 3.1 70B has no multi-token prediction modules" \
	"$ACCELSIZER" recommend --model llama-3.1-70b --draft-model mtp --speculative-acceptance 0.7
refuse_with "another tokenizer" "a draft must share its model's tokenizer" \
	"$ACCELSIZER" recommend --model llama-3.1-70b --draft-model llama-2-7b --speculative-acceptance 0.7
refuse_with "an unknown draft" "--draft-model: unknown model 'llama-3.1-9b'; did you mean" \
	"$ACCELSIZER" recommend --model llama-3.1-70b --draft-model llama-3.1-9b --speculative-acceptance 0.7
refuse_with "acceptance out of range" "--speculative-acceptance: '1' is out of range (0.01 to 0.99" \
	"$ACCELSIZER" recommend --model llama-3.1-70b --draft-model llama-3.1-8b --speculative-acceptance 1

printf 'schema: 1\nworkload:\n  model: llama-3.1-70b\n  precision: fp8\n  draft_model: llama-3.1-8b\n  speculative_acceptance: 0.8\n  speculative_tokens: 4\n' >s.yaml
run "$ACCELSIZER" recommend --scenario s.yaml --accelerator h100-sxm --tp 2 --concurrency 16 --batch 16 --format csv -o fromfile.csv
check "a scenario carries the draft" equals "$(csv_col fromfile.csv tokens_per_s_per_user)" "$(csv_col spec.csv tokens_per_s_per_user)"
run "$ACCELSIZER" bom --scenario s.yaml --accelerator h100-sxm -o b.csv --summary sum.txt
check "the BOM summary lists the draft" contains "$(cat sum.txt)" "draft_model"
done_testing
