#!/bin/sh
# The training stack in the wizard (issue 16): step 1's Training stack row
# cycles auto and the stacks of catalog/training-stacks/ like Serving
# stack; step 4 names the stack the figures assume, and its capex and
# time are what `recommend --training-stack` prints for the same choice;
# a saved scenario keeps it.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

S="$TMPD/train8b.yaml"
printf 'schema: 1\nworkload:\n  class: pretrain\n  model: llama-3.1-8b\n  precision: bf16\n  tokens: 1e11\naccelerator: h100-sxm\nnode:\n  gpus: 8\n' >"$S"
run "$ACCELSIZER" recommend --scenario "$S" --training-stack meta --format csv -o "$TMPD/meta.csv"
check "recommend --training-stack meta: exit 0" rc 0

tui_start 120 40 --scenario "$S"
tui_wait "Training tokens"
check_screen_re "step 1 shows the row at auto" "Training stack +auto"
tui_until "each accelerator's best published stack" Down 30
check_screen "the row's hint says what auto means" "auto: each accelerator's best published stack; another is filtered"
tui_keys 4
tui_wait "Parallel layout"
check_screen "step 4: the default stack, named" "Training stack         NeMo (Megatron-Core) (the vendor's best published)"
check_screen_lacks "step 4: no serving stack for training" "Serving stack"
tui_keys PPage PPage PPage	# a digit on step 4 would type into its GPUs row
tui_wait "Training tokens"
tui_until "each accelerator's best published stack" Down 30
tui_keys Right
check_screen_re "Right: nemo" "Training stack +[^a-z ]* ?nemo"
tui_keys Right
check_screen_re "Right again: meta" "Training stack +[^a-z ]* ?meta"
tui_keys 4	# on an enum row a digit is a key, not typing
tui_wait "Parallel layout"
check_screen "step 4: the chosen stack" "Training stack         Meta Llama training stack (as chosen on step 1)"
capex=$(tui_money "$(csv_col "$TMPD/meta.csv" capex_usd)")
check_screen "the capex is recommend --training-stack meta's to the cent" "Capex                  $capex"
tui_keys s
tui_wait "Save scenario to:"
tui_keys C-u
tui_type "$TMPD/saved.yaml"
tui_keys Enter
tui_wait "Saved"
check "the saved scenario keeps it" contains "$(cat "$TMPD/saved.yaml")" "training_stack: meta"
tui_keys q y
tui_exit_status
check "y quits" equals "$rc" "0"

done_testing
