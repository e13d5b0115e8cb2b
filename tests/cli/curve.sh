#!/bin/sh
# sweep --curve (issue 15 item 10): each accelerator's serving trade-off
# as CSV rows, the data of the wizard's chart (engine_tradeoff_curve()):
# batch 1 first, one operating-point row at the batch recommend sizes,
# tokens/s per GPU rising and per user falling with the batch; axes lead;
# training is refused.
. "$TOP_SRCDIR/tests/lib.sh"
mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1

run "$ACCELSIZER" sweep --curve --accelerator h100-sxm --model llama-3.1-70b --precision fp8 -o c.csv
check "exit 0" rc 0
check "the columns" equals "$(head -n 1 c.csv)" \
	'"accelerator","tp","pp","ep","partition","batch","tokens_per_s_per_gpu","tokens_per_s_per_user","ttft_ms","meets_targets","operating_point"'
check "batch 1 first" equals "$(csv_col c.csv batch 1)" 1
n=$(($(wc -l <c.csv) - 1))
check "one row per batch: 1, 2, 4 ... and the room's end" matches "$n" '^([5-9]|1[0-9]|2[0-4])$'
run "$ACCELSIZER" recommend --accelerator h100-sxm --model llama-3.1-70b --precision fp8 --format csv -o r.csv
ops=0 op_batch= mono=yes i=2
while [ "$i" -le "$n" ]; do
	a=$(csv_col c.csv tokens_per_s_per_gpu $((i - 1))) b=$(csv_col c.csv tokens_per_s_per_gpu "$i")
	u=$(csv_col c.csv tokens_per_s_per_user $((i - 1))) v=$(csv_col c.csv tokens_per_s_per_user "$i")
	awk -v a="$a" -v b="$b" -v u="$u" -v v="$v" 'BEGIN { exit !(b >= a && v <= u) }' || mono=no
	i=$((i + 1))
done
i=1
while [ "$i" -le "$n" ]; do
	if [ "$(csv_col c.csv operating_point "$i")" = true ]; then
		ops=$((ops + 1))
		op_batch=$(csv_col c.csv batch "$i")
	fi
	i=$((i + 1))
done
check "per GPU rises and per user falls with the batch" equals "$mono" yes
check "one operating point" equals "$ops" 1
check "... at recommend's batch per replica" equals "$op_batch" "$(csv_col r.csv batch_per_replica)"
check "... on recommend's layout" equals "$(csv_col c.csv tp 1)" "$(csv_col r.csv tp)"
check "the slow end meets the 20 tok/s target, the fast end does not" equals \
	"$(csv_col c.csv meets_targets 1) $(csv_col c.csv meets_targets "$n")" "true false"

run "$ACCELSIZER" sweep --curve --models llama-2-7b,llama-2-70b --accelerator h100-sxm
check "axes lead the curve's columns" matches "$(printf '%s\n' "$out" | head -n 1)" '^"model","accelerator","tp"'
check "both models have curves" equals "$(printf '%s\n' "$out" | grep -c '"operating_point"\|,"true"$')" 3
run "$ACCELSIZER" sweep --curve --top 2
check "every accelerator: --top 2 gives two curves" equals "$(printf '%s\n' "$out" | grep -c ',"true"$')" 2
refuse_with "training is refused" "--curve: the trade-off of batch against speed per user is for inference" \
	"$ACCELSIZER" sweep --curve --workload pretrain --model llama-2-7b
done_testing
