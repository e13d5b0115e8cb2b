#!/bin/sh
# Step 5's files: save the scenario, export the BOM (byte for byte what
# `accelsizer bom` writes for the same scenario), open a scenario back,
# and the errors a bad path or a bad file give on the status line.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

tui_start 120 40 --scenario "$SCENARIO"
tui_wait "Input tokens"

tui_keys 3
tui_wait "Ranked by"
tui_keys Enter
check_screen "choose the top-ranked accelerator" "step 4 shows its node"

# the customer, typed in step 1, goes into the scenario file
tui_keys 1
tui_wait "Input tokens"
tui_goto Customer
tui_keys Enter C-u
tui_type "ACME Corp, Ünïcode dept"
tui_keys Enter
check_screen_re "the customer is set" "Customer +ACME Corp, Ünïcode dept"

tui_keys 5
tui_wait "Validation plan"
tui_keys s
check_screen "s prompts for a path, starting from the opened file" "Save scenario to: $SCENARIO"
tui_keys C-u
tui_type "$TMPD/saved.yaml"
tui_keys Enter
check_screen "saved" "Saved the scenario to $TMPD/saved.yaml."
check "the scenario file exists" equals "$(test -s "$TMPD/saved.yaml" && echo yes)" "yes"
check "it records the chosen accelerator" matches "$(cat "$TMPD/saved.yaml" 2>/dev/null)" "^accelerator: [a-z0-9-]+"
check "it records the workload" matches "$(cat "$TMPD/saved.yaml" 2>/dev/null)" "model: '?llama-2-70b"
check "it records the customer" contains "$(cat "$TMPD/saved.yaml" 2>/dev/null)" "ACME Corp, Ünïcode dept"
tui_screen
check "saving clears the unsaved mark" lacks "$(printf '%s\n' "$screen" | head -n1)" "[+]"

check_bom_export "$TMPD/wizard-bom.csv" " \\(total USD [0-9]+\\.[0-9][0-9]\\)"
check "the BOM has the CSV header" matches "$(head -n1 "$TMPD/wizard-bom.csv" 2>/dev/null)" "^line,category,sku,description,qty"

run "$ACCELSIZER" bom --scenario "$TMPD/saved.yaml" -o "$TMPD/cli-bom.csv"
check "accelsizer bom on the saved scenario" rc 0
same "the wizard's BOM is the CLI's BOM, byte for byte" "$TMPD/wizard-bom.csv" "$TMPD/cli-bom.csv"
tui_screen
total=$(printf '%s\n' "$screen" | sed -n 's/.*(total USD \([0-9.]*\)).*/\1/p' | head -n1)
check "the status line total is the file's total" matches "$(tail -n1 "$TMPD/wizard-bom.csv")" "total.*$total"

tui_keys e C-u
tui_type "/nonexistent-dir/x/bom.csv"
tui_keys Enter
check_screen "an unwritable path is an error on the status line" "cannot write '/nonexistent-dir/x/bom.csv'"
check "nothing half-written" equals "$(ls /nonexistent-dir 2>/dev/null)" ""

tui_keys s
tui_wait "Save scenario to:"
tui_keys Escape
check_screen "Esc cancels a prompt" "Cancelled."

# change, then open the saved file back
tui_keys 1
tui_wait "Input tokens"
tui_goto "Input tokens" Up
tui_keys +
check_screen_re "a change" "Input tokens +2048 tok/request"
check_screen "marks the scenario unsaved" "[+] accelsizer"
tui_keys o
check_screen "o over unsaved changes asks first" "Unsaved changes. Open another scenario?"
tui_keys d
check_screen "o prompts for a scenario" "Open scenario: $TMPD/saved.yaml"
tui_keys Enter
check_screen "opened" "Opened $TMPD/saved.yaml."
check_screen_re "the saved value is back" "Input tokens +1024 tok/request"
check_screen_lacks "an opened scenario has no unsaved changes" "[+] accelsizer"

printf 'schema: 1\nworkload:\n  class: inference\n  input_tokens: lots\n' >"$TMPD/bad.yaml"
tui_keys o C-u
tui_type "$TMPD/bad.yaml"
tui_keys Enter
check_screen "a bad scenario: file:line:col on the status line" "$TMPD/bad.yaml:4:"
check_screen_re "the workload is untouched" "Input tokens +1024 tok/request"

tui_keys q
tui_exit_status
check "q quits without asking after a save/open" equals "$rc" "0"

done_testing
