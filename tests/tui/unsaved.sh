#!/bin/sh
# No silent loss (issue 12 item 7): open and quit over unsaved changes offer
# save / discard / cancel; export and save over an existing file ask first;
# the export prompt remembers its last path.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

cp "$SCENARIO" "$TMPD/s.yaml"
cp "$SCENARIO" "$TMPD/other.yaml"

tui_start 120 40 --scenario "$TMPD/s.yaml"
tui_wait "Input tokens"
# Input tokens (the 5th field): 1024 -> 2048, unsaved
tui_keys Down Down Down Down +
check_screen_re "a change" "Input tokens +2048 tok/request"

# o over unsaved changes asks; Esc keeps everything
tui_keys o
check_screen "o over unsaved changes offers save / discard / cancel" "Unsaved changes"
tui_screen
check "the offer names the keys" matches "$screen" "s save.*d discard.*Esc cancel"
tui_keys Escape
check_screen "Esc cancels the open" "Not opened"
check_screen_re "the change is still there" "Input tokens +2048 tok/request"
# o, d: discard and go on to the open prompt
tui_keys o
tui_wait "Unsaved changes"
tui_keys d
check_screen "d discards and goes on to open" "Open scenario: "
tui_keys Escape
tui_settle

# export: the prompt remembers its path; over an existing file it asks
tui_keys e
tui_wait "Export BOM to:"
tui_keys C-u
tui_type "$TMPD/bom.csv"
tui_keys Enter
check_screen_re "exported" "Exported [0-9]+ BOM lines to $TMPD/bom.csv"
tui_keys e
check_screen "the export prompt remembers the last path" "Export BOM to: $TMPD/bom.csv"
printf 'keep me\n' >"$TMPD/bom.csv"
tui_keys Enter
check_screen "export over an existing file asks" "$TMPD/bom.csv exists: overwrite? (y/n)"
tui_keys n
check_screen "n leaves it" "Not written"
check "the existing file is untouched" equals "$(cat "$TMPD/bom.csv")" "keep me"
tui_keys e Enter
tui_wait "overwrite?"
tui_keys y
check_screen_re "y overwrites" "Exported [0-9]+ BOM lines to $TMPD/bom.csv"
check "the file is the BOM now" matches "$(head -n 1 "$TMPD/bom.csv")" "^line,category"

# save over another existing file asks
tui_keys s
tui_wait "Save scenario to:"
tui_keys C-u
tui_type "$TMPD/other.yaml"
tui_keys Enter
check_screen "save over an existing file asks" "$TMPD/other.yaml exists: overwrite? (y/n)"
tui_keys n
check_screen "n leaves it" "Not written"
check "the other scenario is untouched" equals "$(cmp -s "$SCENARIO" "$TMPD/other.yaml" && echo same)" "same"

# quit over unsaved changes: s saves (to the file it was opened from, no
# question) and then quits
tui_keys q
check_screen "quit over unsaved changes offers save / discard / cancel" "Unsaved changes"
tui_keys s
check_screen "s asks where to save" "Save scenario to: $TMPD/s.yaml"
tui_keys Enter
tui_exit_status
check "saved, then quit" equals "$rc" "0"
check "the change reached the file" matches "$(cat "$TMPD/s.yaml")" "input_tokens: 2048"

done_testing
