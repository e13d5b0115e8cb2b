#!/bin/sh
# The training stack as an input (issue 16): --training-stack picks the
# stack whose shares catalog/training-stacks/ holds; the default is each
# vendor's best published stack; every training result names its stack;
# NeMo on Hopper at BF16 has its own share (the accelerators' BF16 figure
# is Meta's stack's), at FP8 both take the accelerator's; a stack that does
# not run on an accelerator filters it out, or is an error with
# --accelerator; unknown names list the valid ones and the nearest;
# scenarios keep it; the catalog and the ledger check the stacks' files.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1
all="--workload pretrain --model llama-3.1-8b --tokens 1e10"
wl="$all --gpus 8"

run "$ACCELSIZER" recommend $wl --precision bf16 --accelerator h100-sxm --format csv -o nemo.csv
check "default on H100: exit 0" rc 0
check "default on NVIDIA: nemo" equals "$(csv_col nemo.csv training_stack)" "nemo"
check "a training result has no serving stack" equals "$(csv_col nemo.csv serving_stack)" ""
run "$ACCELSIZER" recommend $wl --precision bf16 --accelerator mi300x --format csv -o amd.csv
check "default on MI300X: nemo (AMD's MLPerf builds)" equals "$(csv_col amd.csv training_stack)" "nemo"
run "$ACCELSIZER" recommend $wl --precision bf16 --accelerator gaudi3 --format csv -o gaudi.csv
check "default on Gaudi 3: megatron-deepspeed" equals "$(csv_col gaudi.csv training_stack)" "megatron-deepspeed"
run "$ACCELSIZER" recommend --model llama-2-70b --format csv -o inf.csv
check "a serving result has no training stack" equals "$(csv_col inf.csv training_stack)" ""

run "$ACCELSIZER" recommend $wl --precision bf16 --accelerator h100-sxm --training-stack meta --format csv -o meta.csv
check "--training-stack meta on H100: exit 0" rc 0
check "the result names meta" equals "$(csv_col meta.csv training_stack)" "meta"
# NeMo's share on Hopper at BF16 (0.696, the DGX Cloud 8B BF16 column)
# against the accelerators' 0.498 (the Llama 3 paper, Meta's stack)
check "BF16 on H100: Meta's stack takes longer than NeMo" equals \
	"$(awk -v a="$(csv_col meta.csv train_hours)" -v b="$(csv_col nemo.csv train_hours)" \
	'BEGIN { print (a > 1.2 * b) ? "longer" : a " vs " b }')" "longer"
run "$ACCELSIZER" recommend $wl --precision bf16 --accelerator h100-sxm --training-stack nemo --format csv -o nemo2.csv
check "naming the default gives the default's figures" equals \
	"$(csv_col nemo2.csv train_hours)" "$(csv_col nemo.csv train_hours)"
# the stacks also hide the data-parallel exchange differently (their
# dp_overlap); one rule for both leaves the share alone
run "$ACCELSIZER" recommend $wl --precision fp8 --accelerator h100-sxm --dp-overlap none --format csv -o nemo8.csv
run "$ACCELSIZER" recommend $wl --precision fp8 --accelerator h100-sxm --training-stack meta --dp-overlap none \
	--format csv -o meta8.csv
check "FP8 on H100: no share of NeMo's own, both take the accelerator's" equals \
	"$(csv_col meta8.csv train_hours)" "$(csv_col nemo8.csv train_hours)"
run "$ACCELSIZER" recommend $wl --precision bf16 --accelerator h200-sxm --format csv -o h200.csv
run "$ACCELSIZER" recommend $wl --precision bf16 --accelerator h200-sxm --training-stack meta --format csv -o h200m.csv
check "the Hopper family shares NeMo's figure (H200)" equals \
	"$(awk -v a="$(csv_col h200m.csv train_hours)" -v b="$(csv_col h200.csv train_hours)" \
	'BEGIN { print (a > 1.2 * b) ? "longer" : a " vs " b }')" "longer"

run "$ACCELSIZER" recommend --workload finetune --model llama-3.1-8b --training-stack automodel --format yaml
check "yaml: training_stack" contains "$out" "training_stack: automodel"

run "$ACCELSIZER" recommend $all --training-stack meta --format csv -o all.csv
check "meta over the catalog: exit 0" rc 0
check "an AMD accelerator is filtered with the reason" contains "$(grep '"mi300x"' all.csv)" \
	"runs no meta (a rocm accelerator)"
check "Gaudi is filtered with the reason" contains "$(grep '"gaudi3"' all.csv)" "runs no meta (a gaudi accelerator)"

run "$ACCELSIZER" recommend $all
check "the table says which stacks it assumes" contains "$out" \
	"Training stack: each vendor's best published, NeMo (Megatron-Core) on cuda, NeMo (Megatron-Core) on rocm, Megatron-DeepSpeed (Intel Gaudi) on gaudi"
run "$ACCELSIZER" recommend $all --training-stack automodel
check "the table names a chosen stack" contains "$out" "Training stack: NeMo AutoModel (--training-stack automodel)"
run "$ACCELSIZER" recommend --model llama-2-70b
check "a serving table names no training stack" lacks "$out" "Training stack"

refuse_with "a stack with an accelerator it does not run on: exit 2, names the flag" \
	"--training-stack: 'meta' does not run on mi300x (a rocm accelerator)" \
	"$ACCELSIZER" recommend $wl --training-stack meta --accelerator mi300x
refuse_with "an unknown stack: exit 2, lists the valid ones and the nearest" \
	"--training-stack: 'nemoo' is not one of auto, nemo, meta, automodel, megatron-deepspeed; did you mean 'nemo'?" \
	"$ACCELSIZER" recommend $all --training-stack nemoo
refuse_with "a far name: the list alone" \
	"--training-stack: 'torchtitan' is not one of auto, nemo, meta, automodel, megatron-deepspeed" \
	"$ACCELSIZER" recommend $all --training-stack torchtitan

printf 'schema: 1\nworkload:\n  class: pretrain\n  model: llama-3.1-8b\n  precision: bf16\n  training_stack: meta\naccelerator: h100-sxm\n' > s.yaml
run "$ACCELSIZER" recommend --scenario s.yaml --format csv -o s.csv
check "scenario workload.training_stack: exit 0" rc 0
check "scenario workload.training_stack is used" equals "$(csv_col s.csv training_stack)" "meta"
printf 'schema: 1\nworkload:\n  class: pretrain\n  model: llama-3.1-8b\n  training_stack: deepspeed\n' > bad.yaml
run "$ACCELSIZER" recommend --scenario bad.yaml
check "scenario: an unknown stack is refused" rc 2
check "scenario: the message names the key" contains "$err" "training_stack"

run "$ACCELSIZER" catalog show nemo
check "catalog show of a stack id: no 'did you mean' itself" lacks "$err" "did you mean 'nemo'"

run "$ACCELSIZER" recommend --help
check "--help lists --training-stack" contains "$out" "--training-stack NAME"

# the catalog refuses a second default on a platform, an unknown id, a
# family listed twice at one precision; the ledger a share set from a
# validation entry
cp -r "$TOP_SRCDIR/catalog" cat
printf 'id: meta\nname: Meta\nruns_on:\n  - platform: cuda\n    default: true\nsources: ["x"]\n' > cat/training-stacks/meta.yaml
catalog_refuses "two defaults on cuda: refused" "two defaults: the message says which" \
	contains "is marked the default training stack on cuda, which already has one"
# a platform listed twice in one stack's runs_on, at the second item
cp -r "$TOP_SRCDIR/catalog" cat
sed -i 's/^runs_on:$/runs_on:\n  - platform: cuda/' cat/training-stacks/meta.yaml
catalog_refuses "a platform twice in runs_on: refused" "a platform twice: the message says where and which" \
	contains "meta.yaml:7:5: runs_on: platform cuda is listed twice"
cp -r "$TOP_SRCDIR/catalog" cat
sed 's/^id: meta/id: torchtitan/' cat/training-stacks/meta.yaml > cat/training-stacks/torchtitan.yaml
catalog_refuses "an unknown stack id: refused" "an unknown stack id: the message lists the known" \
	contains "unknown training stack 'torchtitan'"
cp -r "$TOP_SRCDIR/catalog" cat
printf '  - family: Hopper\n    precision: bf16\n    training:\n      value: 0.5\n      source: "x"\n      calibrated_from: []\n' > dup
sed -i '/^efficiency:$/r dup' cat/training-stacks/nemo.yaml
catalog_refuses "a family twice at one precision: refused" "a family twice: the message says which" \
	contains "efficiency: Hopper at bf16 is listed twice"
cp -r "$TOP_SRCDIR/catalog" cat
sed -i 's/calibrated_from: \[dgxc-h100x8-llama31-8b-bf16\]/calibrated_from: [dgxc-h100x576-llama31-405b-bf16]/' cat/training-stacks/nemo.yaml
catalog_refuses "a share from a validation entry: refused" "a share from a validation entry: the message names the file" matches \
	"nemo.yaml.*'dgxc-h100x576-llama31-405b-bf16' is a validation entry"
# a dropless MoE layer waits for the host that issues it (nemo's
# moe_host_layer_ms): Qwen3 30B A3B on one B200 node at micro-batch 1 is
# host-bound, and says so; at micro-batch 8 the layers hide the host
moe="--workload pretrain --model qwen3-30b-a3b --precision fp8 --seq-len 4096 --global-batch-tokens 2097152 --tokens 1e12"
moe="$moe --accelerator b200 --gpus 8 --tp 1 --pp 1 --cp 1 --ep 8"
run "$ACCELSIZER" recommend $moe --micro-batch 1 --format csv -o host1.csv
check "MoE at micro-batch 1: exit 0" rc 0
check "MoE at micro-batch 1: the reason names the host" contains "$(csv_col host1.csv reason)" \
	"the host issuing the MoE layers"
run "$ACCELSIZER" recommend $moe --micro-batch 8 --format csv -o host8.csv
check "MoE at micro-batch 8: the host hides" lacks "$(csv_col host8.csv reason)" "the host issuing"
check "MoE: micro-batch 8 trains faster than 1" equals \
	"$(awk -v a="$(csv_col host8.csv tokens_per_s_per_gpu)" -v b="$(csv_col host1.csv tokens_per_s_per_gpu)" \
	'BEGIN { print (a > 2 * b) ? "faster" : a " vs " b }')" "faster"
run "$ACCELSIZER" recommend $moe --micro-batch 1 --training-stack automodel --format csv -o host1a.csv
check "a stack without the figure: the GPU's time" lacks "$(csv_col host1a.csv reason)" "the host issuing"

# the dropless dispatcher's host time per MoE layer pass: a sourced figure
# in range, set from calibration entries only
cp -r "$TOP_SRCDIR/catalog" cat
sed -i '/^moe_host_layer_ms:$/,/^sources:$/s/^  value: .*/  value: 5000/' cat/training-stacks/nemo.yaml
catalog_refuses "moe_host_layer_ms out of range: refused" "moe_host_layer_ms out of range: file, line and key" matches \
	"nemo.yaml:[0-9]+:[0-9]+: moe_host_layer_ms.value must be in"
cp -r "$TOP_SRCDIR/catalog" cat
sed -i 's/calibrated_from: \[mbridge2511-b200x8-qwen3-30b-a3b-fp8mx\]/calibrated_from: [mbridge2602-b200x8-qwen3-30b-a3b-mxfp8]/' \
	cat/training-stacks/nemo.yaml
catalog_refuses "moe_host_layer_ms from a validation entry: refused" "moe_host_layer_ms from a validation entry: the message names it" matches \
	"nemo.yaml.*moe_host_layer_ms.calibrated_from: 'mbridge2602-b200x8-qwen3-30b-a3b-mxfp8' is a validation entry"

done_testing
