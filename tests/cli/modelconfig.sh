#!/bin/sh
# --model-config FILE (issue 15 item 9): a Hugging Face config.json is the
# model.  The four published configs in tests/fixtures/hf size like the
# catalog's model of the same name (same GPUs and layout on every
# accelerator), the result names the config's model, and bad files are
# refused at file:line:col with exit 2 on every command that takes a model.
. "$TOP_SRCDIR/tests/lib.sh"

HF=$TOP_SRCDIR/tests/fixtures/hf
mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1

# Columns that follow from the shapes; params differ from the catalog's
# rounded params_b by under 0.1%, which moves no GPU count.  DeepSeek-V3's
# card gives 37B activated parameters where its config's shapes give
# 37.55B (1.5% more work per token), so an accelerator at the edge of the
# per-user target may take one more replica: there the layout (TP) is
# compared on every accelerator, not the GPU count (nor the ranking).
cols() {	# cols FILE GPUS: accelerator,gpus,tp per row (GPUS 0: accelerator,tp)
	awk -F'","' -v g="$2" 'NR == 1 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); h[$i] = i }; next }
		{ print $h["accelerator"] (g ? "," $h["gpus"] : "") "," $h["tp"] }' "$1" |
		if [ "$2" = 0 ]; then sort; else cat; fi
}
for m in llama-3.1-8b mixtral-8x7b deepseek-v3 mistral-7b; do
	run "$ACCELSIZER" recommend --model-config "$HF/$m/config.json" --format csv -o "$m-hf.csv"
	check "$m: recommend --model-config exits 0" rc 0
	run "$ACCELSIZER" recommend --model "$m" --format csv -o "$m-cat.csv"
	g=1
	[ "$m" = deepseek-v3 ] && g=0
	check "$m: sizes as the catalog's $m on every accelerator" equals "$(cols "$m-hf.csv" $g)" "$(cols "$m-cat.csv" $g)"
done
check "the result names the config's model" matches "$(awk -F'","' '$2 == "b300"' deepseek-v3-hf.csv)" 'deepseek_v3 \(config.json\) at fp16 needs'
run "$ACCELSIZER" recommend --model-config "$HF/deepseek-v3/config.json" --format yaml
check "yaml: the custom figures are the config's" contains "$out" "custom: deepseek_v3 (config.json), 671.0"

run "$ACCELSIZER" recommend --model-config "$HF/mistral-7b/config.json" --accelerator h100-sxm
check "table: the model is named" contains "$out" "mistral (config.json)"
run "$ACCELSIZER" bom --model-config "$HF/llama-3.1-8b/config.json" --accelerator h100-sxm -o bom.csv
check "bom --model-config exits 0" rc 0
run "$ACCELSIZER" sweep --model-config "$HF/mixtral-8x7b/config.json" --accelerator h100-sxm --concurrency 1,64
check "sweep --model-config exits 0" rc 0
check "sweep: two rows" equals "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 3

# ---- bad input: flag, file, line and column; exit 2 ----
printf '{\n  "hidden_size": 4096,\n  "num_attention_heads": 32\n}\n' >missing.json
refuse_with "missing key: file:line:col" "missing.json:1:1: no 'num_hidden_layers' (the number of layers) in this config.json" \
	"$ACCELSIZER" recommend --model-config missing.json
printf '{\n  "num_hidden_layers": 100000\n}\n' >range.json
refuse_with "out of range: at the value" "range.json:2:24: 'num_hidden_layers' 100000 (Layers) is out of range (1 to 10000)" \
	"$ACCELSIZER" validate --model-config range.json --accelerator h100-sxm
printf '{"num_hidden_layers": 32,, }' >broken.json
refuse_with "not JSON: the parser's place" "broken.json:1:26: " "$ACCELSIZER" bom --model-config broken.json -o x.csv
check "no BOM written for a broken config" equals "$(ls x.csv 2>/dev/null)" ""
refuse_with "no such file" "nope.json: cannot open" "$ACCELSIZER" sweep --model-config nope.json --concurrency 1,2
refuse_with "--model and --model-config together" "give either --model or --model-config, not both" \
	"$ACCELSIZER" recommend --model-config "$HF/mistral-7b/config.json" --model llama-2-7b
refuse_with "sweep's --models with --model-config" "give either --models or --model-config, not both" \
	"$ACCELSIZER" sweep --model-config "$HF/mistral-7b/config.json" --models llama-2-7b,llama-2-13b
refuse_with "needs a value" "--model-config needs a value" "$ACCELSIZER" recommend --model-config
printf '{"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 10, "max_position_embeddings": 64, "intermediate_size": 128}' >tiny.json
refuse_with "a model below the smallest parameter count" "tiny.json:1:1: Parameters computed from the shapes" \
	"$ACCELSIZER" recommend --model-config tiny.json

# ---- an output is never the config it reads ----
cp "$HF/mistral-7b/config.json" keep.json
refuse_with "-o is the --model-config file: refused" "is the --model-config file" \
	"$ACCELSIZER" recommend --model-config keep.json --format csv -o keep.json
check "... and the config is intact" equals "$(cmp keep.json "$HF/mistral-7b/config.json" && echo same)" same
refuse_with "bom -o over the config: refused" "is the --model-config file" \
	"$ACCELSIZER" bom --model-config keep.json --accelerator h100-sxm -o keep.json

# ---- a scenario's custom model is replaced by the config, flags over both ----
run "$ACCELSIZER" recommend --scenario "$TOP_SRCDIR/tests/tui/llama70b-fp16.yaml" \
	--model-config "$HF/llama-3.1-8b/config.json" --accelerator h100-sxm --format csv -o s.csv
check "--scenario then --model-config: the config's model" matches "$(csv_col s.csv reason)" '^llama \(config.json\)'
check "... one H100 holds an 8B model at fp16" equals "$(csv_col s.csv gpus)" 1
done_testing
