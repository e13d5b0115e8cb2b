#!/bin/sh
# A realistic default (issue 12 item 11): with no flags the workload is an
# interactive service with a per-user speed and a time-to-first-token
# target, so the first-ranked configuration serves each user at least
# that fast; the wizard starts from the same defaults.
. "$TOP_SRCDIR/tests/lib.sh"

run "$ACCELSIZER" recommend --format yaml
check "recommend with no flags: exit 0" rc 0
check "default speed per user is a target" contains "$out" "  tokens_per_s_per_user: 20"
check "default time to first token is a target" contains "$out" "  ttft_ms: 2000"
first=$(printf '%s\n' "$out" | sed -n '/^- rank: 1$/,/^- rank/p')
speed=$(printf '%s\n' "$first" | sed -n 's/^  tokens_per_s_per_user: //p')
ttft=$(printf '%s\n' "$first" | sed -n 's/^  ttft_ms: //p')
check "the first-ranked serves each user at 20 tok/s or more" equals \
	"$(awk -v s="$speed" 'BEGIN { print (s >= 20) ? "yes" : "no (" s ")" }')" "yes"
check "the first-ranked starts answering within 2 s" equals \
	"$(awk -v t="$ttft" 'BEGIN { print (t <= 2000) ? "yes" : "no (" t ")" }')" "yes"
run "$ACCELSIZER" recommend --help
check "the man page says why" contains "$(cat "$TOP_SRCDIR/man/accelsizer.1")" "interactive"
done_testing
