#!/bin/sh
# The wizard's P (issue 17 items 7 and 9): the proposal of the scenario as
# it stands, byte for byte the file `accelsizer proposal` writes for the
# same scenario (HTML and Markdown); the prompt's default name comes from
# the scenario; the Notes field on step 1 is saved in the scenario and
# printed in the proposal; a bad name or an existing file is asked about.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH
cp "$TOP_SRCDIR/examples/bank-chat.yaml" "$TMPD/bank-chat.yaml"
cp "$SCENARIO" "$TMPD/plain.yaml"
chmod u+w "$TMPD/bank-chat.yaml" "$TMPD/plain.yaml"

# ---- the bank's call, opened from its scenario ----
tui_start_env 120 40 "SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH" -- --scenario "$TMPD/bank-chat.yaml"
tui_wait "Input tokens"
tui_goto Notes
check_screen_re "step 1 shows the scenario's notes" "Notes +Llama 3.1 70B for 300 concurrent"
tui_keys NPage NPage NPage NPage
tui_wait "Validation plan"
check_screen_re "step 5's key bar offers P" "P proposal"
tui_keys P
tui_wait "Write proposal to:"
check_screen "P asks where, from the scenario's name" "Write proposal to: $TMPD/bank-chat-proposal.html"
tui_keys Enter
tui_wait_re "Wrote the proposal to .*bank-chat-proposal.html \(BOM total USD [0-9]+\.[0-9]{2}\)"
check_screen_re "the proposal is written" "Wrote the proposal to .*bank-chat-proposal.html"
w_total=$(printf '%s\n' "$screen" | sed -n 's/.*BOM total USD \([0-9.]*\)).*/\1/p' | head -n 1)

# the same name again: asked first, n keeps the file
tui_keys P
tui_wait "Write proposal to:"
tui_keys Enter
tui_wait "exists: overwrite? (y/n)"
check_screen "an existing proposal: asked first" "bank-chat-proposal.html exists: overwrite? (y/n)"
tui_keys n
tui_wait "Not written"
check_screen "n keeps it" "Not written:"

# a name that is neither .html nor .md
tui_keys P
tui_wait "Write proposal to:"
tui_keys C-u
tui_type "$TMPD/bank.txt"
tui_keys Enter
tui_wait "Name the proposal"
check_screen "a .txt name is refused" "Name the proposal .html or .md"
check "nothing written for .txt" equals "$(ls "$TMPD/bank.txt" 2>/dev/null)" ""

# Markdown
tui_keys P
tui_wait "Write proposal to:"
tui_keys C-u
tui_type "$TMPD/wizard.md"
tui_keys Enter
tui_wait "Wrote the proposal to $TMPD/wizard.md"
check_screen "the Markdown proposal is written" "Wrote the proposal to $TMPD/wizard.md"

# notes of several lines are kept, not cut by the one-line editor
tui_keys 1
tui_wait "Input tokens"
tui_goto Notes
tui_keys Enter
tui_wait "holds several lines"
check_screen "multi-line notes: left as they are" "Notes holds several lines"
tui_keys q
tui_exit_status
check "the wizard quits cleanly" rc 0

run "$ACCELSIZER" proposal --scenario "$TMPD/bank-chat.yaml" -o "$TMPD/cli.html"
check "CLI: proposal on the same scenario" rc 0
same "the wizard's HTML is the CLI's, byte for byte" "$TMPD/bank-chat-proposal.html" "$TMPD/cli.html"
run "$ACCELSIZER" proposal --scenario "$TMPD/bank-chat.yaml" -o "$TMPD/cli.md"
same "the wizard's Markdown is the CLI's, byte for byte" "$TMPD/wizard.md" "$TMPD/cli.md"
run "$ACCELSIZER" bom --scenario "$TMPD/bank-chat.yaml" -o "$TMPD/bom.csv"
check "the status line's total is the BOM's" equals "$w_total" "$(tail -n 1 "$TMPD/bom.csv" | awk -F, '{ print $7 }')"

# ---- the Notes field: typed, saved, printed ----
tui_start_env 120 40 "SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH" -- --scenario "$TMPD/plain.yaml"
tui_wait "Input tokens"
tui_goto Notes
check_screen_re "the last field of step 1 is Notes" "Notes +\(none\)"
tui_keys Down
if tui_goto Notes Down 0; then tap_ok "... Down stays on it: nothing follows"; else tap_not_ok "... Down stays on it: nothing follows"; fi
tui_keys Enter C-u
tui_type "Racks limited to 15 kW; <b>bold</b> & co"
tui_keys Enter
tui_settle
check_screen_re "the note is set" "Notes +Racks limited to 15 kW; <b>bold</b> & co"
tui_keys n n n n
tui_wait "Validation plan"
tui_keys s
tui_wait "Save scenario to:"
tui_keys Enter
tui_wait "Saved the scenario"
check "the note is saved in the scenario" contains "$(cat "$TMPD/plain.yaml")" "notes: \"Racks limited to 15 kW; <b>bold</b> & co\""
tui_keys P
tui_wait "Write proposal to:"
check_screen "the default name follows the scenario" "Write proposal to: $TMPD/plain-proposal.html"
tui_keys Enter
tui_wait "Wrote the proposal"
tui_keys q
tui_exit_status
p=$(cat "$TMPD/plain-proposal.html" 2>/dev/null)
check "the proposal prints the note, escaped" contains "$p" "Racks limited to 15 kW; &lt;b&gt;bold&lt;/b&gt; &amp; co"
run "$ACCELSIZER" proposal --scenario "$TMPD/plain.yaml" -o "$TMPD/plain-cli.html"
same "after a typed note, the wizard's file is still the CLI's" "$TMPD/plain-proposal.html" "$TMPD/plain-cli.html"

done_testing
