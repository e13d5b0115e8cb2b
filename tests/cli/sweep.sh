#!/bin/sh
# accelsizer sweep: the grid's size is the number of rows, the header is the
# axes then recommend's CSV header, every row equals `recommend --format csv`
# for the same point (inference, training, --accelerator/--gpus, --scenario),
# ranges expand as documented, bad lists and ranges exit 2 naming the flag,
# the grid is capped, and -o writes all or nothing.
. "$TOP_SRCDIR/tests/lib.sh"

A=$ACCELSIZER

# The number of accelerators, from the catalog itself (no number hard-coded).
run $A recommend --format csv
check "recommend csv works" rc 0
rec_header=$(printf '%s\n' "$out" | head -n 1)
n_acc=$(($(printf '%s\n' "$out" | wc -l) - 1))
[ "$n_acc" -gt 1 ] && tap_ok "catalog has $n_acc accelerators" || tap_not_ok "catalog has accelerators" "got $n_acc"

# point CSV N PREFIX: the rows starting with PREFIX (the point's leading
# cells, quoted, comma-separated), without their N leading columns.  Axis
# values never hold a comma, so cut can drop them.
point() {
	printf '%s\n' "$1" | awk -v p="$3" 'index($0, p) == 1' | cut -d, -f$(($2 + 1))-
}
rows_of() { point "$1" 3 "\"$2\",\"$3\",\"$4\","; }

# ---- grid size, header ----
run $A sweep --models llama-2-7b,llama-2-70b --precisions fp16,fp8 --concurrency 1..8
check "sweep exits 0" rc 0
check "nothing on stderr (no terminal, no progress)" equals "$err" ""
sweep_out=$out
lines=$(printf '%s\n' "$out" | wc -l)
check "2 models x 2 precisions x 4 concurrencies x $n_acc accelerators + header" equals "$lines" $((2 * 2 * 4 * n_acc + 1))
check "header: the axes, then recommend's columns" equals "$(printf '%s\n' "$out" | head -n 1)" \
	"\"model\",\"precision\",\"concurrency\",$rec_header"
check "concurrency 1..8 doubles: 1 2 4 8" equals \
	"$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f3 | tr -d '"' | sort -n -u | tr '\n' ' ')" "1 2 4 8 "
check "models in the order given, outermost" equals \
	"$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f1 | uniq | tr -d '"' | tr '\n' ' ')" "llama-2-7b llama-2-70b "

# ---- values equal recommend --format csv for the same point ----
for point in "llama-2-70b fp8 8" "llama-2-7b fp16 1" "llama-2-70b fp16 4"; do
	set -- $point
	run $A recommend --model "$1" --precision "$2" --concurrency "$3" --format csv
	want=$(printf '%s\n' "$out" | tail -n +2)
	got=$(rows_of "$sweep_out" "$1" "$2" "$3")
	# both empty (recommend failing, no row matched) must not pass
	check "recommend $1 $2 x$3 gives one row per accelerator" equals \
		"$(printf '%s\n' "$want" | grep -c .)" "$n_acc"
	check "rows of $1 $2 x$3 equal recommend's" equals "$got" "$want"
done

# an axis with one value, and options the axes do not vary
run $A sweep --models llama-3.1-8b --input-tokens 2048 --output-tokens 512,1024 --concurrency 16 \
	--objective cost-per-token --form-factor pcie
check "sweep with shared options exits 0" rc 0
got=$(point "$out" 4 '"llama-3.1-8b","16","2048","1024",')
run $A recommend --model llama-3.1-8b --input-tokens 2048 --output-tokens 1024 --concurrency 16 \
	--objective cost-per-token --form-factor pcie --format csv
check "rows with --objective and --form-factor equal recommend's" equals "$got" "$(printf '%s\n' "$out" | tail -n +2)"

# training
run $A sweep --workload pretrain --models llama-2-7b --seq-len 2048,4096 --days 30
check "pretrain sweep exits 0" rc 0
check "pretrain header starts with model,seq_len" contains "$(printf '%s\n' "$out" | head -n 1)" '"model","seq_len","rank"'
got=$(point "$out" 2 '"llama-2-7b","4096",')
run $A recommend --workload pretrain --model llama-2-7b --seq-len 4096 --days 30 --format csv
check "pretrain rows equal recommend's" equals "$got" "$(printf '%s\n' "$out" | tail -n +2)"

run $A sweep --workload finetune --method qlora --models llama-2-70b --precisions bf16,fp8
check "finetune sweep exits 0" rc 0
got=$(point "$out" 2 '"llama-2-70b","fp8",')
run $A recommend --workload finetune --method qlora --model llama-2-70b --precision fp8 --format csv
check "finetune rows equal recommend's" equals "$got" "$(printf '%s\n' "$out" | tail -n +2)"

# --accelerator with a --gpus axis: one row per point, as recommend --accelerator
run $A sweep --model llama-2-70b --accelerator h100-sxm --gpus 8,16
check "gpus sweep exits 0" rc 0
check "gpus sweep: one row per point" equals "$(printf '%s\n' "$out" | wc -l)" 3
check "the axis column is gpus_requested, not the result's gpus" contains \
	"$(printf '%s\n' "$out" | head -n 1)" '"gpus_requested","rank"'
got=$(point "$out" 1 '"16",')
run $A recommend --model llama-2-70b --accelerator h100-sxm --gpus 16 --format csv
check "gpus 16 row equals recommend --accelerator --gpus 16" equals "$got" "$(printf '%s\n' "$out" | tail -n +2)"

# --scenario under the flags
cat >"$TMPD/s.yaml" <<'EOF'
schema: 1
workload:
  class: inference
  model: llama-2-13b
  precision: fp8
  input_tokens: 512
  output_tokens: 128
EOF
run $A recommend --scenario "$TMPD/s.yaml" --format csv
if [ "$rc" = 0 ]; then
	want=$(printf '%s\n' "$out" | tail -n +2)
	run $A sweep --scenario "$TMPD/s.yaml" --concurrency 4,32
	check "sweep --scenario exits 0" rc 0
	got=$(point "$out" 1 '"32",')
	run $A recommend --scenario "$TMPD/s.yaml" --concurrency 32 --format csv
	check "scenario rows equal recommend --scenario's" equals "$got" "$(printf '%s\n' "$out" | tail -n +2)"
else
	tap_not_ok "recommend --scenario works" "$err"
fi

# no axis at all: the same as recommend --format csv
run $A sweep --model llama-2-70b --precision fp8
check "no axis: exactly recommend's CSV" equals "$out" "$(cd . && $A recommend --model llama-2-70b --precision fp8 --format csv)"

# a combination the engine refuses is rows, not an error
run $A sweep --models llama-2-7b,llama-3.1-8b --input-tokens 8192 --output-tokens 256
check "prompt past one model's context: exit 0" rc 0
check "its rows do not fit" matches "$out" '^"llama-2-7b","8192","256",[^,]*,[^,]*,.*"false"'
check "and say why" contains "$out" "context"
check "the other model's rows fit" matches "$out" '^"llama-3.1-8b","8192","256","1",'

# ---- range forms ----
axis_values() { printf '%s\n' "$1" | tail -n +2 | cut -d, -f1 | tr -d '"' | uniq | tr '\n' ' '; }
run $A sweep --model llama-2-7b --concurrency 1..64*4
check "A..B*F multiplies" equals "$(axis_values "$out")" "1 4 16 64 "
run $A sweep --model llama-2-7b --input-tokens 128..512+128
check "A..B+S adds" equals "$(axis_values "$out")" "128 256 384 512 "
run $A sweep --model llama-2-7b --concurrency 1,4..16,max
check "lists mix values, ranges and max" equals "$(axis_values "$out")" "1 4 8 16 max "
run $A sweep --model llama-2-7b --concurrency 3..20
check "doubling stops at the last value not past B" equals "$(axis_values "$out")" "3 6 12 "
run $A sweep --model llama-2-7b --concurrency=2..2
check "--flag=value and a one-value range" equals "$(axis_values "$out")" "2 "

# ---- filters on rows ----
run $A sweep --models llama-2-7b,llama-2-70b --top 1
check "--top 1: one row per scenario" equals "$(printf '%s\n' "$out" | wc -l)" 3
run $A recommend --model llama-2-70b --format csv
check "--top 1 row is recommend's first" equals \
	"$(printf '%s\n' "$out" | sed -n 2p)" "$($A sweep --models llama-2-70b --top 1 | sed -n 2p | cut -d, -f2-)"
run $A sweep --model llama-2-70b --precisions fp16 --fitting
check "--fitting: every row fits and passes the filters" equals \
	"$(printf '%s\n' "$out" | tail -n +2 | grep -vc '"true","false",')" 0

# ---- bad input: exit 2, the flag named ----
bad() {
	name=$1 want=$2
	shift 2
	run $A sweep "$@"
	check "$name: exit 2" rc 2
	check "$name: message" contains "$err" "$want"
	check "$name: nothing on stdout" equals "$out" ""
}
bad "empty range" "accelsizer: --concurrency: '8..1' is an empty range" --concurrency 8..1
bad "not a range" "--input-tokens: '1..x' is not a range" --input-tokens 1..x
bad "range with a step of zero" "--output-tokens: '1..8+0' never grows" --output-tokens 1..8+0
bad "doubling from zero" "--concurrency: '0..8' never grows" --concurrency 0..8
bad "factor 1" "--seq-len: '1..8*1' never grows" --workload pretrain --seq-len 1..8*1
bad "value out of range" "--concurrency: '0' is out of range" --concurrency 0,8
bad "not a number" "--input-tokens: 'abc' is not a number" --input-tokens 1,abc
bad "empty element" "--concurrency: empty element in '1,,8'" --concurrency 1,,8
bad "trailing comma" "--concurrency: empty element" --concurrency 1,8,
bad "empty list" "--concurrency: the list is empty" --concurrency ""
bad "unknown model with a suggestion" "--models: unknown model 'llama-2-70'; did you mean 'llama-2-70b'?" \
	--models llama-2-7b,llama-2-70
bad "bad precision" "--precisions: 'fp9' is not one of" --precisions fp16,fp9
bad "range of models" "--models: '1..4': ranges apply to numbers only" --models 1..4
bad "axis given twice" "--concurrency is given twice" --concurrency 1 --concurrency 2
bad "--model and --models" "--model and --models: give one" --model llama-2-7b --models llama-2-7b
bad "--gpus without --accelerator" "--gpus needs --accelerator" --gpus 8,16
bad "axis without a value" "--models needs a value" --models
bad "bad shared option" "--ttft-ms: 'soon' is not a number" --ttft-ms soon --concurrency 1..4
bad "--top 0" "--top: '0' is out of range" --top 0
bad "unknown option" "unknown option '--concurency'" --concurency 8
bad "grid over the cap" "the grid is too large" --concurrency 1..100000000+1
bad "grid over the cap, several axes" "is more than 10000000 evaluations" \
	--input-tokens 1..100000+1 --output-tokens 1..1000+1

# ---- -o: atomic ----
run $A sweep --models llama-2-7b --concurrency 1..4 -o "$TMPD/grid.csv"
check "-o exits 0" rc 0
check "-o says what it wrote" contains "$out" "grid.csv: 3 scenarios x $n_acc accelerators, $((3 * n_acc)) rows"
check "-o file equals standard output" equals "$(cat "$TMPD/grid.csv")" \
	"$($A sweep --models llama-2-7b --concurrency 1..4)"
check "-o leaves no temporary file" equals "$(ls "$TMPD" | grep -c grid)" 1

printf 'precious\n' >"$TMPD/keep.csv"
run $A sweep --concurrency 8..1 -o "$TMPD/keep.csv"
check "bad range with -o: exit 2" rc 2
check "bad range leaves the target as it was" equals "$(cat "$TMPD/keep.csv")" precious
run $A sweep --concurrency 1..100000000+1 -o "$TMPD/keep.csv"
check "grid over the cap leaves the target as it was" equals "$(cat "$TMPD/keep.csv")" precious
run $A sweep --concurrency 1,2 -o "$TMPD/no/such/dir/g.csv"
check "unwritable -o: exit 2" rc 2
check "unwritable -o: message names the file" contains "$err" "no/such/dir/g.csv"
mkdir "$TMPD/adir"
run $A sweep --concurrency 1,2 -o "$TMPD/adir"
check "-o a directory: exit 2" rc 2
check "-o a directory: still a directory" equals "$([ -d "$TMPD/adir" ] && echo dir)" dir
check "no stray temporary files" equals "$(ls -A "$TMPD/adir" | wc -l)" 0

# ---- --stats on stderr only ----
run $A sweep --models llama-2-7b --concurrency 1..4 --stats
check "--stats: exit 0" rc 0
check "--stats counts the evaluations" contains "$err" "3 scenarios x $n_acc accelerators = $((3 * n_acc)) evaluations ("
check "--stats leaves stdout as without it" equals "$out" "$($A sweep --models llama-2-7b --concurrency 1..4)"

run $A sweep --help
check "help exits 0" rc 0
for f in --models --precisions --concurrency --input-tokens --output-tokens --seq-len --gpus \
	-o --top --fitting --stats --scenario --workload; do
	check "help lists $f" contains "$out" "$f"
done

done_testing
