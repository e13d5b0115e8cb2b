#!/bin/sh
# Issue 18 in the wizard: a scenario's several workloads.  Step 1 lists
# them (w switches, A adds, r renames, x removes); step 2 shows what each
# needs and the sum; step 3 and the panel the cluster's GPUs per
# accelerator; step 4 what each workload gets of the chosen accelerator and
# the cluster's total, the capex `recommend --scenario` prints for `total`;
# the saved scenario holds every workload and the exported BOM is the one
# `bom --scenario` writes.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

A=$ACCELSIZER
W=$TOP_SRCDIR/tests/fixtures/scenarios/workloads
# three.yaml with its accelerator chosen, so the CLI and the wizard quote
# the same cluster
{ cat "$W/three.yaml"; echo "accelerator: h100-sxm"; } >"$TMPD/three.yaml"
run $A recommend --scenario "$TMPD/three.yaml" --format csv
printf '%s\n' "$out" >"$TMPD/rec.csv"
row=$(($(grep -n '^"total",' "$TMPD/rec.csv" | cut -d: -f1) - 1))
capex=$(csv_col "$TMPD/rec.csv" capex_usd $row)
gpus=$(csv_col "$TMPD/rec.csv" gpus $row)
money=$(printf '%s' "$capex" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\([.,]\)/\1,\2\3/;ta')

tui_start 120 40 --scenario "$TMPD/three.yaml"
tui_wait "Input tokens"
check_screen_re "step 1 lists the workloads, the one on screen in brackets" "Workloads +\\[chat\\] small weekly-lora"
check_screen_re "step 1 says which one is on screen" "Editing +chat, 1 of 3"
check_screen_re "its model" "Model +Llama 3.1 70B"
check_screen_re "the key bar offers switching" "w workload +a pin"
tui_keys ?
check_screen "help offers adding" "  A             add a workload to the scenario"
tui_keys Escape

tui_keys w
check_screen_re "w switches to the next workload" "Editing +small, 2 of 3"
check_screen_re "its own model" "Model +Llama 3.1 8B"
check_screen_re "its own load" "Concurrent users +4 sequences"
tui_screen
check "switching is no unsaved change" lacks "$(printf '%s\n' "$screen" | head -n1)" "[+]"

tui_keys 2
check_screen "step 2: every workload's needs" "Every workload of the scenario, on one cluster"
check_screen_re "step 2: the chat's" "chat +[0-9.]+ GB +inference, llama-3.1-70b"
check_screen_re "step 2: the fine-tune's" "weekly-lora +[0-9.]+ GB +finetune, llama-3.1-8b"
check_screen_re "step 2: their sum" "All of them +[0-9.]+ GB +memory the cluster holds"

tui_keys 3
check_screen_re "step 3: the cluster of the accelerator under the cursor" "All 3 workloads: [0-9]+ GPUs?, [0-9]+ nodes?, \\$"
check_screen_re "the panel: the sum per accelerator" "GPUs?, [0-9]+ in all"

tui_keys 4
check_screen_re "step 4: the chosen accelerator" "Accelerator +NVIDIA H100 SXM5 80GB"
check_screen_re "step 4: what the chat gets" "Workloads +chat: [0-9]+ GPUs? as [0-9]+x TP[0-9]"
check_screen_re "step 4: what the fine-tune gets" "weekly-lora: 8 GPUs as TP"
check_screen_re "step 4: the cluster, recommend's total" "All of them +$gpus GPUs, 1 node, \\\$$money"

# add, rename, remove (back with p: a digit on step 4's GPU field types)
tui_keys p p p
tui_wait "Input tokens"
tui_keys A
check_screen "A adds a copy of the workload on screen" "Added workload-4, a copy of small"
check_screen_re "the list has it, on screen" "Workloads +chat small weekly-lora \\[workload-4\\]"
tui_screen
check "adding is an unsaved change" contains "$(printf '%s\n' "$screen" | head -n1)" "[+]"
tui_keys r
check_screen "r asks for the name" "Rename workload: workload-4"
tui_keys C-u
tui_type "total"
tui_keys Enter
check_screen "'total' is the cluster's" "text other than 'total'"
tui_keys r C-u
tui_type "chat"
tui_keys Enter
check_screen "a name used twice is refused" "Another workload is called chat already."
tui_keys r C-u
tui_type "embeddings"
tui_keys Enter
check_screen_re "renamed" "Workloads +chat small weekly-lora \\[embeddings\\]"
tui_keys 4
check_screen_re "step 4 has the new one" "embeddings: "
# two copies of the small model share a card on MIG slices (alone, it
# kept a whole GPU)
check_screen_re "step 4: the small models on slices of one card" "small: 1 x 1g\\.10gb MIG slice on 1 GPU"
check_screen_re "step 4: the copy too" "embeddings: 1 x 1g\\.10gb MIG slice"
tui_keys p p p
tui_wait "Input tokens"
tui_keys x
check_screen "x removes the workload on screen" "Removed embeddings: 3 workloads left, this is weekly-lora."
check_screen_re "the list without it" "Workloads +chat small \\[weekly-lora\\]"

# step 5: the workload's plan and the shared cluster's, as validate
# --scenario writes them; the BOM is the cluster's
tui_keys 5
check_screen "step 5: which workload's plan" "Validation plan for weekly-lora: NVIDIA H100 SXM5 80GB"
check_screen_re "step 5: the shared cluster's plan" "The shared cluster, all 3 workloads at once: $gpus GPUs, 1 node"
check_screen "step 5: every serving workload at once" "benchmark_serving for the 2 serving workloads at once"
check_screen_re "step 5: the cluster's BOM total (its unpriced lines said)" "Bill of materials: [0-9]+ lines, USD $capex \\([0-9]+ unpriced not in it\\),"

# save: every workload in the file; the exported BOM is the CLI's
tui_keys s C-u
tui_type "$TMPD/saved.yaml"
tui_keys Enter
check_screen "saved" "Saved the scenario to $TMPD/saved.yaml."
saved=$(cat "$TMPD/saved.yaml" 2>/dev/null)
check "the file lists the workloads" contains "$saved" "workloads:
- name: chat"
check "the fine-tune keeps its 8 hours a week" contains "$saved" "hours_per_week: 8"
check "three workloads saved" equals "$(printf '%s\n' "$saved" | grep -c '^- name: ')" 3
run $A recommend --scenario "$TMPD/saved.yaml" --format csv
check "the saved scenario sizes as the original" equals "$out" "$(cat "$TMPD/rec.csv")"
tui_keys e C-u
tui_type "$TMPD/wizard-bom.csv"
tui_keys Enter
check_screen "exported" "Exported"
run $A bom --scenario "$TMPD/saved.yaml" -o "$TMPD/cli-bom.csv"
check "bom --scenario on the saved file" rc 0
check "the wizard's BOM is the cluster's, byte for byte" equals "$(cat "$TMPD/wizard-bom.csv" 2>/dev/null)" "$(cat "$TMPD/cli-bom.csv")"
check "its total is recommend's total capex" equals "$(grep ',total,' "$TMPD/cli-bom.csv" | cut -d, -f7)" "$capex"
# the proposal (P) of the cluster: the proposal command's for the saved file
tui_keys P
tui_wait "Write proposal to:"
tui_keys C-u
tui_type "$TMPD/wizard.md"
tui_keys Enter
check_screen_re "P writes the cluster's proposal" "Wrote the proposal to .*wizard.md \\(BOM total USD $capex\\)"
run $A proposal --scenario "$TMPD/saved.yaml" -o "$TMPD/cli.md"
check "the wizard's proposal is the command's" equals "$(cat "$TMPD/wizard.md" 2>/dev/null)" "$(cat "$TMPD/cli.md")"
check "it shows every workload" contains "$(cat "$TMPD/wizard.md" 2>/dev/null)" "**weekly-lora**: A LoRA fine-tune"

# a plain scenario: one workload; A makes it a list, x goes back to one
tui_start 120 40 --scenario "$SCENARIO"
tui_wait "Input tokens"
check_screen_re "one workload" "Workloads +one \\(A adds another"
tui_keys A
check_screen_re "A makes a list of two" "Workloads +workload-1 \\[workload-2\\]"
check_screen "the panel sums them" "in all"
tui_keys x
check_screen_re "x goes back to one" "Workloads +one \\(A adds another"
tui_keys x
check_screen "nothing to remove from one" "there is none to remove"
tui_keys r
check_screen "r on one workload names the key that adds one (A, not a: a pins)" \
	"One workload needs no name: A adds a second, and each gets one."

done_testing
