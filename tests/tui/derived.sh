#!/bin/sh
# One set of derived defaults (issue 12 item 2): in the wizard the KV cache
# precision follows Precision, as `recommend --precision` makes it follow,
# until the user sets it; the screen says so; a scenario file with no
# kv_precision follows its precision in the CLI and the wizard alike.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

tui_start 120 40
tui_wait "KV cache precision"
check_screen_re "the default KV precision follows Precision" "KV cache precision +fp16 +follows Precision"
# Class, Model, Precision: fp16 -> next choice is bf16? step until fp8
tui_keys Down Down
tui_until "Precision +. fp8 " Right 8
check_screen_re "Precision is fp8" "^ Precision +. fp8 ."
check_screen_re "the KV cache follows to fp8" "KV cache precision +fp8 +follows Precision"
tui_keys 3
tui_settle
row=$(printf '%s\n' "$screen" | grep -E '^ . +1 ' | head -n 1)
run "$ACCELSIZER" recommend --precision fp8
set -- $(printf '%s\n' "$out" | awk '$1 == "1" { print $3, $4, $7; exit }')
check "step 3's first has the GPUs, nodes and tok/s of recommend --precision fp8" matches "$row" " $1 +$2 +$3 "
tui_keys 1
tui_wait "KV cache precision"
# set the KV precision by hand: it no longer follows
tui_keys Down
tui_keys Right
tui_settle
check "a KV precision the user set does not follow" lacks "$(printf '%s\n' "$screen" | grep 'KV cache precision')" "follows"
tui_quit

# A scenario file without kv_precision: the KV cache follows its precision
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-2-70b\n  precision: fp8\n' >"$TMPD/nokv.yaml"
run "$ACCELSIZER" recommend --scenario "$TMPD/nokv.yaml" --format yaml
check "CLI: a scenario's fp8 without kv_precision stores the KV cache in fp8" contains "$out" "kv_precision: fp8"
tui_start 120 40 --scenario "$TMPD/nokv.yaml"
check_screen_re "wizard: the same scenario's KV cache follows to fp8" "KV cache precision +fp8 +follows Precision"
tui_quit
check "quits cleanly" equals "$rc" "0"

done_testing
