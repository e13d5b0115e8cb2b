#!/bin/sh
# Speculative decoding in the wizard (issue 15 item 8): step 1's Draft
# model cycles through none and the models that can draft for the one in
# use (engine_draft_fits(): its tokenizer, fewer parameters, or its MTP
# modules); Draft acceptance speculates; step 3 then shows what
# `recommend --draft-model --speculative-acceptance` prints; a saved
# scenario keeps the draft.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

mkdir "$TMPD/cli" && cd "$TMPD/cli" || exit 1
run "$ACCELSIZER" recommend --draft-model llama-2-7b --speculative-acceptance 0.5 --format csv -o spec.csv
check "the CLI speculates on the default workload" rc 0
top=$(csv_col spec.csv accelerator)
run "$ACCELSIZER" recommend --format csv -o plain.csv
plain_tps=$(csv_col plain.csv output_tokens_per_s)
check "speculation changes the first result's throughput" matches \
	"$(awk -v a="$(csv_col spec.csv output_tokens_per_s)" -v b="$plain_tps" 'BEGIN { print (a != b) ? "yes" : "no" }')" '^yes$'

tui_start 100 40
tui_wait "Top ranked"
check_screen_re "step 1 shows the draft row" "Draft model +none"
check_screen_re "... the acceptance row" "Draft acceptance +none"
check_screen_re "... the drafted tokens row" "Drafted tokens +none"
# down to the Draft model row: its hint shows when the cursor is on it
tui_until "none, the model's MTP modules" Down 30
check_screen "the row's hint says what it cycles" "none, the model's MTP modules, smaller models with its tokenizer"
tui_keys Right
check_screen_re "Right: the first model that can draft for Llama 2 70B" "Draft model +Llama 2 13B"
check_screen "without an acceptance it says what is missing" "set Draft acceptance to speculate"
tui_keys Right
check_screen_re "Right again: the next one" "Draft model +Llama 2 7B"
tui_screen
check "no model of another tokenizer is offered (Llama 3.1 8B skipped)" lacks "$screen" "Draft model            Llama 3.1"
tui_keys Down
tui_keys Enter C-u
tui_type "0.5"
tui_keys Enter
check_screen_re "the acceptance is typed" "Draft acceptance +0.5"
tui_keys NPage NPage	# a digit here would type into the field
tui_wait "Ranked by"
check_step3_is_cli spec.csv
tui_keys s
tui_wait "Save scenario to:"
tui_keys C-u
tui_type "$TMPD/spec.yaml"
tui_keys Enter
tui_wait "spec.yaml"
tui_keys q
tui_exit_status
check "quits cleanly" equals "$rc" "0"
saved=$(cat "$TMPD/spec.yaml" 2>/dev/null)
check "the scenario keeps the draft" contains "$saved" "draft_model: llama-2-7b"
check "... and the acceptance" contains "$saved" "speculative_acceptance: 0.5"
run "$ACCELSIZER" recommend --scenario "$TMPD/spec.yaml" --format csv -o again.csv
check "the CLI sizes the saved scenario as the flags" equals "$(csv_col again.csv output_tokens_per_s)" "$(csv_col spec.csv output_tokens_per_s)"

# DeepSeek-V3 offers its own MTP module first
printf 'schema: 1\nworkload:\n  model: deepseek-v3\n  precision: fp8\n' >"$TMPD/ds.yaml"
tui_start 100 40 --scenario "$TMPD/ds.yaml"
tui_wait "Top ranked"
tui_until "none, the model's MTP modules" Down 30
tui_keys Right
check_screen_re "DeepSeek-V3: its MTP modules first" "Draft model +its multi-token"
tui_keys Left
check_screen_re "Left goes back to none" "Draft model +none"
tui_keys q
tui_settle
case $screen in *"Quit without saving"*) tui_keys d ;; esac
tui_exit_status
done_testing
