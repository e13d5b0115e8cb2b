#!/bin/sh
# A stale choice is flagged (issue 12 item 10): after a workload change the
# accelerator chosen on step 3 stays on steps 4 and 5; when it no longer
# fits, is filtered out, or is no longer ranked first, those steps say so
# and offer the new first (f).
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

tui_start 120 40
tui_wait "Input tokens"
tui_keys n n
tui_wait "Ranked by"
first=$(printf '%s\n' "$screen" | grep -E '^ ▸ +1 ' | sed -E 's/^ ▸ +1 +//; s/  .*//')
tui_keys Enter
check_screen "the first-ranked is chosen" "step 4 shows its node"
tui_keys n
check_screen "step 4 shows the choice, not flagged" "Accelerator"
check_screen_lacks "a fresh choice is not stale" "f takes"

# back to step 1: the other vendor's stack only (the first-ranked's vendor
# depends on which GPUs the catalog can price)
case $first in
AMD*|Instinct*) stack=cuda vendor=NVIDIA ;;
*) stack=rocm vendor=AMD ;;
esac
tui_keys p p p
tui_wait "Input tokens"
tui_keys Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up Up
tui_goto "Software stack"
tui_until "^ Software stack +‹ $stack ›" Right 6
check_screen_re "$vendor only" "Software stack +‹ $stack ›"
tui_keys n n n
tui_wait "Node shape"
check_screen "step 4 flags the choice the filter now excludes" "outside your filters"
check_screen_re "step 4 offers the new first" "f takes [A-Z]"
tui_keys n
tui_wait "Validation plan"
check_screen "step 5 flags it too" "outside your filters"
check_screen_re "step 5 offers the new first" "f takes [A-Z]"
tui_keys f
check_screen_re "f chooses the new first" "Chose $vendor"
check_screen_lacks "no longer stale" "outside your filters"
tui_keys p
tui_wait "Node shape"
check_screen_re "step 4 shows the new first" "Accelerator +$vendor"

tui_keys q
tui_settle
case $screen in *"Unsaved changes"*) tui_keys d ;; esac
tui_exit_status
check "quits cleanly" equals "$rc" "0"
done_testing
