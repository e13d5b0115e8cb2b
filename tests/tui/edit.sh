#!/bin/sh
# Step 1 editing: typed values, refused values, Esc, +/-, the model pick
# list, the class; the side panel's bars follow every accepted change.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

# The memory line of an accelerator in the wide side panel.
mem_line_after() {
	printf '%s\n' "$screen" | grep -F -A1 -- "$1" | sed -n 2p | sed 's/.*│//'
}

tui_start 120 40 --scenario "$SCENARIO"
check_screen "wizard opens" "Input tokens"
tui_screen
before=$(mem_line_after "NVIDIA L40S")
check "panel shows L40S memory" matches "$before" "mem .* [0-9]+% [0-9.]+/[0-9.]+ GB"

# Class, Model, Precision, KV precision, Input, Output, Concurrent users
tui_keys Down Down Down Down Down Down
tui_keys Enter C-u
tui_type "16"
tui_keys Enter
check_screen_re "typed concurrency accepted" "Concurrent users +16 sequences"
tui_screen
after=$(mem_line_after "NVIDIA L40S")
if [ -n "$after" ] && [ "$after" != "$before" ]; then
	tap_ok "L40S memory bar changed after the edit"
else
	tap_not_ok "L40S memory bar changed after the edit" "before: $before" "after:  $after"
fi
check "unsaved-changes mark in the step bar" matches "$(printf '%s\n' "$screen" | head -n1)" "\\[\\+\\] accelsizer"

# The bounds are the engine's table (engine_limits.c), the same the CLI
# flags and scenario files use: the maximum is accepted, one past it is
# refused with the range worded as they word it.
tui_keys Enter C-u
tui_type "100000000"
tui_keys Enter
check_screen_re "the table's maximum concurrency is accepted" "Concurrent users +100M sequences"
tui_keys Enter C-u
tui_type "100000001"
tui_keys Enter
check_screen "one past the maximum is refused with the table's range" \
	"Concurrent users: '100000001' is out of range (1 to 100000000); kept the old value."
check_screen_re "the maximum is kept" "Concurrent users +100M sequences"
tui_keys Enter C-u
tui_type "16"
tui_keys Enter
check_screen_re "back to 16 users" "Concurrent users +16 sequences"

# Tab / Shift-Tab move like Up/Down: back to Input tokens
tui_keys BTab BTab
tui_keys Enter C-u
tui_type "lots"
tui_keys Enter
check_screen "a word is refused with a message" "Input tokens: 'lots' is not a number"
check_screen_re "the old value is kept" "Input tokens +1024 tok/request"

tui_keys Enter C-u
tui_type "0"
tui_keys Enter
check_screen "out of range is refused" "Input tokens: '0' is out of range (1 to 100000000); kept the old value."

# One number syntax with the CLI and scenario files (issue 12, item 8):
# thousands separators, suffixes, no hex.
tui_keys Enter C-u
tui_type "2,048"
tui_keys Enter
check_screen_re "2,048 is read as 2048" "Input tokens +2048 tok/request"
tui_keys Enter C-u
tui_type "0x10"
tui_keys Enter
check_screen "hex is refused as on the command line" \
	"Input tokens: '0x10' is not a decimal number: hexadecimal is not accepted; kept the old value."
check_screen_re "the old value is kept after hex" "Input tokens +2048 tok/request"
tui_keys Enter C-u
tui_type "2,04"
tui_keys Enter
check_screen "a misplaced separator is refused" "Input tokens: '2,04' is not a number: thousands separators go every three digits"
tui_keys Enter C-u
tui_type "1024"
tui_keys Enter
check_screen_re "back to 1024" "Input tokens +1024 tok/request"

tui_keys Enter C-u
tui_type "4k"
tui_keys Enter
check_screen "the model's context limit is checked" "Input tokens refused: input + output tokens (4256) exceed Llama 2 70B's context of 4096"
tui_keys Enter C-u
tui_type "1.5k"
tui_keys Enter
check_screen_re "1.5k is read as 1500" "Input tokens +1500 tok/request"

tui_keys Enter C-u
tui_type "999"
tui_keys Escape
check_screen "Esc cancels an edit" "Edit cancelled; Input tokens unchanged."
check_screen_re "value unchanged after Esc" "Input tokens +1500 tok/request"

tui_keys +
check_screen_re "+ doubles tokens" "Input tokens +3000 tok/request"
tui_keys - -
check_screen_re "- halves tokens" "Input tokens +750 tok/request"

# a target with none: Speed per user is two below Input tokens... go there
tui_keys Down Down Down
tui_keys +
check_screen_re "+ on a 'none' target starts it" "Speed per user +20 tok/s"
tui_keys -
check_screen_re "- steps a rate by 5" "Speed per user +15 tok/s"
tui_keys Enter C-u
tui_type "none"
tui_keys Enter
check_screen_re "'none' clears a target" "Speed per user +none"

# the model pick list: Up to Model
tui_keys Tab BTab Up Up Up Up Up Up
tui_keys Enter
check_screen "Enter on Model opens the pick list" "Model search:"
tui_screen
check "pick list shows parameters and context" matches "$screen" "Name +Params +Layers +KV +Context"
check "pick list offers custom figures" contains "$screen" "Custom figures"
tui_type "mixtral 22"
check_screen "typing filters the list" "Mixtral 8x22B"
check_screen_lacks "other models are filtered out" "Mistral 7B"
tui_keys Enter
check_screen_re "Enter picks the model" "Model +Mixtral 8x22B"
check_screen "the model line shows active parameters" "active), 56 layers"

tui_keys Enter
tui_type "llama 2 70"
tui_keys Escape
check_screen "Esc keeps the model" "Model unchanged."
check_screen_re "still Mixtral" "Model +Mixtral 8x22B"

tui_keys Enter
tui_keys Down Down Down Down Down Down Down Down Down Down Down Down Down Down Down
tui_keys Enter
check_screen "custom figures" "Custom model: edit its figures"
check_screen "custom fields appear" "Parameters"
tui_screen
check "custom starts from the current model" matches "$screen" "Layers +56"

# class: Up to Class, Right cycles
tui_keys Up Up Up
tui_keys Right
check_screen "Right changes the class" "Pretraining"
check_screen "pretraining fields" "Training tokens"
check_screen_lacks "inference fields go away" "Input tokens"
tui_keys Right
check_screen "fine-tuning fields" "Dataset tokens"

tui_keys q
check_screen "q asks before dropping changes" "Quit without saving? s save, d discard, Esc cancel"
tui_keys y
tui_exit_status
check "y quits" equals "$rc" "0"

# Pretraining: an out-of-range count is quoted as typed (it showed as
# "100000000T"), and the budget takes money ($3M) as --budget-usd does.
tui_start 120 40 --scenario "$TOP_SRCDIR/tests/fixtures/scenarios/good/pretrain-minimal.yaml"
tui_wait "Training tokens"
tui_keys Down Down Down
tui_keys Enter C-u
tui_type "1e20"
tui_keys Enter
check_screen "1e20 is refused, quoted as typed" \
	"Training tokens: '1e20' is out of range (1 to 1e+16); kept the old value."
check_screen_lacks "1e20 is not echoed as 100000000T" "100000000T"
tui_keys Enter C-u
tui_type "2,000,000,000,000"
tui_keys Enter
check_screen_re "2,000,000,000,000 tokens is 2T" "Training tokens +2T tokens"
tui_goto Budget
tui_keys Enter C-u
tui_type '$3M'
tui_keys Enter
check_screen_re "\$3M is a budget of 3M USD" "Budget +3M USD"
tui_keys Enter C-u
tui_type "3T"
tui_keys Enter
check_screen "money takes no T" "Budget: '3T' is not a number or none (e.g. 3000000, 3,000,000, \$3M, 250k); kept the old value."
tui_keys q y
tui_exit_status

# filters: a software stack leaves the others visible, greyed, with the reason
tui_start 100 30 --scenario "$SCENARIO"
tui_wait "Input tokens"
tui_goto "Software stack"
tui_keys Right Right
check_screen_re "Right cycles the stack filter" "Software stack +. ?rocm"
tui_keys 3
check_screen "step 3 after filtering" "Ranked by"
tui_screen
check "filtered-out accelerators stay visible with the reason" matches "$screen" "NVIDIA .*filtered: "
check "ROCm accelerators are ranked" matches "$screen" " +1 AMD Instinct"
tui_keys 2
check_screen_re "step 2 greys them too" "NVIDIA .*filtered: "

done_testing
