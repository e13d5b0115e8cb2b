#!/bin/sh
# The model picker's "From config.json..." (issue 15 item 9): a path
# prompt reads a Hugging Face config.json into custom figures a person sees
# under Model; a bad file is refused on the status line at file:line:col and
# the model stays; a saved scenario keeps the figures, not the path, and the
# CLI sizes it as the wizard did.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

HF=$TOP_SRCDIR/tests/fixtures/hf
cp "$SCENARIO" "$TMPD/start.yaml"	# a save goes next to it, never into the source tree
printf '{\n  "hidden_size": 4096\n}\n' >"$TMPD/bad.json"

pick_config() {	# opens the pick list on Model and takes "From config.json..."
	tui_keys Enter
	tui_wait "Model search:"
	tui_type "config.json"
	tui_wait "From config.json..."
	tui_keys Enter
}

tui_start 100 32 --scenario "$TMPD/start.yaml"
tui_wait "Top ranked"
tui_keys Down
tui_keys Enter
check_screen "Enter on Model opens the pick list" "Model search:"
tui_type "json"
check_screen "the pick list offers a config.json" "From config.json... (a Hugging Face model's config)"
tui_keys Escape
tui_wait "Model unchanged."

pick_config
check_screen "the entry asks for a path" "Model from config.json: ./"
tui_keys C-u
tui_type "$HF/deepseek-v3/config.json"
tui_keys Enter
check_screen "the status line names the model and its count" \
	"Model: deepseek_v3 (config.json), 671.025B parameters counted from its shapes"
check_screen_re "Model shows the config's model" "Model +deepseek_v3 \\(config"
check_screen_re "the parameters counted from the shapes" "Parameters +671\\.025 B"
check_screen_re "the active parameters" "Active parameters +37\\.551 B"
check_screen_re "61 layers" "Layers +61"
check_screen_re "128 KV heads as config.json states" "KV heads +128"
check_screen "the header marks unsaved changes" "[+]"

# a bad file: the model stays, the reason names file:line:col
pick_config
tui_wait "Model from config.json: "
tui_keys C-u
tui_type "$TMPD/bad.json"
tui_keys Enter
check_screen "a missing key is refused at file:line:col" \
	"Model unchanged: $TMPD/bad.json:1:1: no 'num_hidden_layers'"
check_screen_re "the model is kept" "Layers +61"
pick_config
tui_wait "Model from config.json: "
tui_keys C-u
tui_type "$TMPD/none.json"
tui_keys Enter
check_screen "a missing file is refused" "Model unchanged: $TMPD/none.json: cannot open"

# save: the figures go into the file, the path does not
tui_keys s
tui_wait "Save scenario to:"
tui_keys C-u
tui_type "$TMPD/saved.yaml"
tui_keys Enter
check_screen "saved" "saved.yaml"
tui_keys q
tui_settle
case $screen in *"Quit without saving"*) tui_keys d ;; esac
tui_exit_status
check "quits cleanly" equals "$rc" "0"
saved=$(cat "$TMPD/saved.yaml" 2>/dev/null)
check "the scenario holds the custom figures" contains "$saved" "custom_model:"
check "... the MLA rank" contains "$saved" "kv_lora_rank: 512"
check "... the experts" matches "$saved" "total: 256"
check "... not the path of the config" lacks "$saved" "$HF"
run "$ACCELSIZER" recommend --scenario "$TMPD/saved.yaml" --accelerator h200-sxm --format csv -o "$TMPD/a.csv"
check "the CLI reads the saved scenario" rc 0
run "$ACCELSIZER" recommend --scenario "$TMPD/start.yaml" --model-config "$HF/deepseek-v3/config.json" \
	--accelerator h200-sxm --format csv -o "$TMPD/b.csv"
check "... and sizes it as --model-config does" equals "$(csv_col "$TMPD/a.csv" gpus)" "$(csv_col "$TMPD/b.csv" gpus)"
check "the source folder holds no saved copy" equals "$(ls "$TOP_SRCDIR/tests/tui" | grep -c 'saved\.yaml')" 0
done_testing
