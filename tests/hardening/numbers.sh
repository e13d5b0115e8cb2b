#!/bin/sh
# Numbers a hostile or careless user types: 1e308, -0, NaN, Inf, .nan, .inf,
# 2^64, "70B", "1,000" and the like, in command-line flags, catalog YAML,
# scenario YAML and price lists.  Each is parsed as documented (--tokens 2T)
# or refused with exit 2 and a message naming the flag or the
# file:line:col and key.  Extreme but accepted values must be computed
# without undefined behaviour: the sanitizer build (CI runs the suite
# under UBSan) prints "runtime error" if not, which these tests look for.
. "$TOP_SRCDIR/tests/lib.sh"

FIX=$TOP_SRCDIR/tests/fixtures
GOOD=$FIX/catalog/good
SCEN=$FIX/scenarios/good/inference.yaml
cd "$TMPD" || exit 1

HOSTILE='1e308 1e309 -0 -1 NaN nan Inf inf .nan .inf -.inf 18446744073709551616 9223372036854775807 70B 1,00 0x10 1_000 +5 5.5.5'

# refused FLAG VALUE [ARGS...]: exit 2 and a one-line message naming FLAG.
refused() {
	flag=$1 value=$2
	shift 2
	run "$ACCELSIZER" recommend "$@" "$flag" "$value"
	if [ "$rc" = 2 ] && case $err in *"$flag"*) true ;; *) false ;; esac &&
		[ "$(printf '%s\n' "$err" | wc -l)" -le 2 ]; then
		tap_ok "$flag $value: refused naming the flag"
	else
		tap_not_ok "$flag $value: refused naming the flag" "exit $rc" "stderr: $err"
	fi
}

# ---- command-line flags ----
for v in $HOSTILE; do
	case $v in
	-0 | +5) ;;		# plain numbers elsewhere; checked one by one below
	*) refused --input-tokens "$v" ;;
	esac
done
for v in 1e308 NaN Inf .inf 18446744073709551616 1,00 70B -5 0; do
	refused --concurrency "$v"
done
for v in 1e308 NaN .nan 2147483648 18446744073709551616 0 -1 10,00 8x; do
	refused --gpus "$v" --accelerator h100-sxm
done
for v in 1e308 NaN Inf .inf -.inf 18446744073709551616 1,00 -1 '$5T' 5kk 0x10; do
	refused --budget-usd "$v"
done
for v in 1e308 NaN Inf .nan -0.5 1,5 10kW; do
	refused --max-power-kw "$v"
done
for v in 1e308 NaN .inf 18446744073709551616 1,00 -2T 2X 2TT; do
	refused --tokens "$v" --workload pretrain --model llama-2-7b --days 30
done
refused --output-tokens 9223372036854775807
refused --input-tokens 9223372036854775808
refused --ttft-ms 1e400
refused --tokens-per-s-per-user -1
refused --epochs 0 --workload finetune --model llama-3.1-8b
refused --epochs 1e308 --workload finetune --model llama-3.1-8b
refused --days Inf --workload pretrain --model llama-2-7b
refused --seq-len 1e9 --workload pretrain --model llama-2-7b
refused --global-batch-tokens 1e300 --workload pretrain --model llama-2-7b
refused --lora-rank 4294967297 --workload finetune --method lora --model llama-3.1-8b
refused --spare-nodes 1e4

# ---- one number syntax (issue 12, item 8): the CLI takes what the wizard
# and scenario files take: k M B/G T on counts, $ and k M B on money, s and
# ms on times, thousands separators; hex refused everywhere ----
same_as() {	# same_as NAME ARGS-A -- ARGS-B: both accepted, the same CSV
	name=$1
	shift
	a=
	while [ "$1" != -- ]; do a="$a '$1'"; shift; done
	shift
	eval "run \"\$ACCELSIZER\" recommend $a --format csv"
	ra=$rc oa=$out ea=$err
	run "$ACCELSIZER" recommend "$@" --format csv
	if [ "$ra" = 0 ] && [ "$rc" = 0 ] && [ "$oa" = "$out" ]; then
		tap_ok "$name"
	else
		tap_not_ok "$name" "exit $ra / $rc" "stderr: $ea / $err"
	fi
}
same_as "--budget-usd 3M is 3000000" --budget-usd 3M -- --budget-usd 3000000
same_as "--budget-usd \$3,000,000 is 3000000" --budget-usd '$3,000,000' -- --budget-usd 3000000
same_as "--budget-usd \$250k is 250000" --budget-usd '$250k' --spare-nodes 0 -- --budget-usd 250000 --spare-nodes 0
same_as "--input-tokens 2k is 2000" --input-tokens 2k -- --input-tokens 2000
same_as "--input-tokens 2,048 is 2048" --input-tokens 2,048 -- --input-tokens 2048
same_as "--concurrency 1,000 is 1000" --concurrency 1,000 -- --concurrency 1000
same_as "--ttft-ms 1.5s is 1500" --ttft-ms 1.5s -- --ttft-ms 1500
same_as "--ttft-ms 800ms is 800" --ttft-ms 800ms -- --ttft-ms 800
same_as "--target-tokens-per-s 5k is 5000" --target-tokens-per-s 5k -- --target-tokens-per-s 5000
same_as "--hours 2d is 48" --workload pretrain --model llama-2-7b --hours 2d -- \
	--workload pretrain --model llama-2-7b --hours 48
same_as "--days 36h is 1.5" --workload pretrain --model llama-2-7b --days 36h -- \
	--workload pretrain --model llama-2-7b --days 1.5
same_as "--tokens 2,000,000,000,000 is 2T" --workload pretrain --model llama-2-7b --days 30 \
	--tokens 2,000,000,000,000 -- --workload pretrain --model llama-2-7b --days 30 --tokens 2T
for flag in --input-tokens --budget-usd --ttft-ms --max-power-kw --gpus; do
	run "$ACCELSIZER" recommend --accelerator h100-sxm "$flag" 0x10
	check "$flag 0x10: exit 2" rc 2
	check "$flag 0x10: hex refused, quoting it" equals "$err" \
		"accelsizer: $flag: '0x10' is not a decimal number: hexadecimal is not accepted"
done
run "$ACCELSIZER" recommend --input-tokens 2,04
check "--input-tokens 2,04: says where separators go" equals "$err" \
	"accelsizer: --input-tokens: '2,04' is not a number: thousands separators go every three digits (2,048 or 1,000,000)"
run "$ACCELSIZER" recommend --workload pretrain --model llama-2-7b --days 30 --tokens 1e20
check "--tokens 1e20: quoted as typed" equals "$err" \
	"accelsizer: --tokens: '1e20' is out of range (1 to 1e+16)"
run "$ACCELSIZER" recommend --max-power-kw 5k
check "--max-power-kw 5k: no count suffix on kW" equals "$err" \
	"accelsizer: --max-power-kw: '5k' is not a number (e.g. 20, 0.5, 1,000, 1e3)"
# scenario files read the same syntax (plain scalars; quoted text stays text)
cat >syn.yaml <<'YAML'
schema: 1
workload:
  class: inference
  model: llama-2-70b
  input_tokens: 2k
  concurrency: 1,000
  ttft_ms: 1.5s
filters:
  budget_usd: $3M
YAML
run "$ACCELSIZER" recommend --scenario syn.yaml --format csv
check "scenario 2k, 1,000, 1.5s, \$3M: accepted" rc 0
syn_out=$out
run "$ACCELSIZER" recommend --input-tokens 2000 --concurrency 1000 --ttft-ms 1500 --budget-usd 3000000 --format csv
check "scenario 2k, 1,000, 1.5s, \$3M: read as the flags read them" equals "$syn_out" "$out"
printf 'schema: 1\nworkload:\n  input_tokens: 0x10\n' >syn.yaml
run "$ACCELSIZER" recommend --scenario syn.yaml
check "scenario 0x10: refused at file:line:col" equals "$err" \
	"accelsizer: syn.yaml:3:17: 'input_tokens' must be a whole number, got '0x10'"

# -0 is zero where zero is allowed, and never a negative count.
run "$ACCELSIZER" recommend --budget-usd 0 --format csv
check "--budget-usd 0 is accepted" rc 0
zero=$out
run "$ACCELSIZER" recommend --budget-usd 0.0e5 --format csv
check "--budget-usd 0.0e5 is accepted" rc 0
check "--budget-usd 0.0e5 reads as 0" equals "$out" "$zero"

# Documented suffixes: --tokens 2T is 2e12, 500B is 5e11.
run "$ACCELSIZER" recommend --workload pretrain --model llama-2-7b --tokens 2T --days 30 --format yaml
check "--tokens 2T: accepted" rc 0
check "--tokens 2T: read as 2e12" matches "$out" 'tokens: (2000000000000|2e\+?12)$'
run "$ACCELSIZER" recommend --workload pretrain --model llama-2-7b --tokens 500B --days 30 --format yaml
check "--tokens 500B: read as 5e11" matches "$out" 'tokens: (500000000000|5e\+?11)$'
run "$ACCELSIZER" recommend --workload pretrain --model llama-2-7b --global-batch-tokens 4M --days 30 --format yaml
check "--global-batch-tokens 4M: read as 4e6" matches "$out" 'global_batch_tokens: (4000000|4e\+?06)$'

# The extremes the flags accept are computed without undefined behaviour
# (UBSan reports "runtime error" in the sanitizer build) and without
# silly output such as inf or nan.
extreme() {
	name=$1
	shift
	run "$ACCELSIZER" recommend "$@" --format csv
	case $rc in 0 | 1) ok=1 ;; *) ok=0 ;; esac
	case $err$out in *"runtime error"* | *inf,* | *nan* | *-nan*) ok=0 ;; esac
	if [ $ok = 1 ]; then tap_ok "extreme but accepted: $name"; else
		tap_not_ok "extreme but accepted: $name" "exit $rc" "stderr: $(printf '%s' "$err" | head -c 600)" \
			"stdout: $(printf '%s' "$out" | grep -E 'inf|nan' | head -n 3)"
	fi
}
extreme "100M users, 10M-token context model limits" --model llama-3.1-8b --concurrency 100000000 \
	--input-tokens 100000 --output-tokens 31072
extreme "concurrency max at the longest context" --model llama-3.1-8b --concurrency max \
	--input-tokens 131000 --output-tokens 72
extreme "1e9 tokens/s target with a 1 ms TTFT" --model llama-3.1-70b --target-tokens-per-s 1e9 \
	--ttft-ms 1 --tokens-per-s-per-user 1e5
extreme "1e16 training tokens in a day" --workload pretrain --model llama-3.1-405b --tokens 1e16 \
	--days 1 --global-batch-tokens 1e12 --seq-len 10000000
extreme "pretraining one token" --workload pretrain --model llama-2-7b --tokens 1 --days 0 \
	--global-batch-tokens 1 --seq-len 1
extreme "fine-tuning 1000 epochs, rank 4096 (the hidden size)" --workload finetune --method lora --lora-rank 4096 \
	--model llama-3.1-8b --tokens 1e16 --epochs 1000 --hours 876600
extreme "65536 GPUs of one kind" --model llama-3.1-8b --accelerator h100-sxm --gpus 65536
extreme "budget and power at the limits" --model llama-3.1-8b --budget-usd 1e12 --max-power-kw 1e6
extreme "tiny budget and power" --model llama-3.1-8b --budget-usd 1 --max-power-kw 0.01

# ---- catalog YAML: catalog check names file:line:col and the key ----
cp -R "$GOOD" cat
for v in 1e308 1e309 -0 NaN .nan .inf -.inf 18446744073709551616 70B '"80"' 1,000 0x50 '~'; do
	sed "s/^  capacity_gb: 80$/  capacity_gb: $v/" "$GOOD/accelerators/h100-sxm.yaml" >cat/accelerators/h100-sxm.yaml
	run "$ACCELSIZER" catalog check cat
	if [ "$rc" = 2 ] && case $err in *"accelerators/h100-sxm.yaml:8:"*"memory.capacity_gb"*) true ;; *) false ;; esac; then
		tap_ok "catalog memory.capacity_gb: $v refused at file:line:col"
	else
		tap_not_ok "catalog memory.capacity_gb: $v refused at file:line:col" "exit $rc" "stderr: $err"
	fi
done
cp "$GOOD/accelerators/h100-sxm.yaml" cat/accelerators/
for v in 1e308 18446744073709551616 2147483648 -1 8.5 .inf; do
	sed "s/^  domain_size: 8$/  domain_size: $v/" "$GOOD/accelerators/h100-sxm.yaml" >cat/accelerators/h100-sxm.yaml
	run "$ACCELSIZER" catalog check cat
	if [ "$rc" = 2 ] && case $err in *"h100-sxm.yaml:"*"link.domain_size"*) true ;; *) false ;; esac; then
		tap_ok "catalog link.domain_size (an integer): $v refused"
	else
		tap_not_ok "catalog link.domain_size (an integer): $v refused" "exit $rc" "stderr: $err"
	fi
done
cp "$GOOD/accelerators/h100-sxm.yaml" cat/accelerators/
run "$ACCELSIZER" catalog check cat
check "catalog restored: valid again" rc 0

# ---- scenario YAML ----
scenario() {	# scenario KEY VALUE [SECTION]: a scenario file with one value
	section=${3:-workload}
	{
		echo "schema: 1"
		echo "$section:"
		[ "$section" = workload ] && echo "  model: llama-3.1-8b"
		echo "  $1: $2"
	} >s.yaml
}
for key in input_tokens output_tokens concurrency; do
	for v in 1e308 .nan .inf 18446744073709551616 9223372036854775807 70B '"1,000"' 1,00 -5 0x10; do
		scenario "$key" "$v"
		run "$ACCELSIZER" recommend --scenario s.yaml
		if [ "$rc" = 2 ] && case $err in *"s.yaml:4:"*"'$key'"*) true ;; *) false ;; esac; then
			tap_ok "scenario $key: $v refused at file:line:col"
		else
			tap_not_ok "scenario $key: $v refused at file:line:col" "exit $rc" "stderr: $err"
		fi
	done
done
for key in tokens_per_s_per_user ttft_ms target_tokens_per_s; do
	for v in 1e308 1e309 .nan .inf -.inf -1 70B; do
		scenario "$key" "$v"
		run "$ACCELSIZER" recommend --scenario s.yaml
		if [ "$rc" = 2 ] && case $err in *"s.yaml:4:"*"'$key'"*) true ;; *) false ;; esac; then
			tap_ok "scenario $key: $v refused at file:line:col"
		else
			tap_not_ok "scenario $key: $v refused at file:line:col" "exit $rc" "stderr: $err"
		fi
	done
done
for key in max_power_kw budget_usd; do
	for v in 1e308 .nan .inf -1 18446744073709551616 '"1,000"'; do
		scenario "$key" "$v" filters
		run "$ACCELSIZER" recommend --scenario s.yaml
		if [ "$rc" = 2 ] && case $err in *"s.yaml:3:"*"'$key'"*) true ;; *) false ;; esac; then
			tap_ok "scenario filters.$key: $v refused at file:line:col"
		else
			tap_not_ok "scenario filters.$key: $v refused at file:line:col" "exit $rc" "stderr: $err"
		fi
	done
done
scenario budget_usd -0 filters
run "$ACCELSIZER" recommend --scenario s.yaml --format csv
check "scenario budget_usd: -0 is zero (no limit)" rc 0
{
	echo "schema: 1"
	echo "workload:"
	echo "  class: pretrain"
	echo "  model: llama-2-7b"
	echo "  tokens: 1e16"
	echo "  global_batch_tokens: 1e12"
	echo "  seq_len: 10000000"
	echo "  target_hours: 876600"
} >s.yaml
run "$ACCELSIZER" recommend --scenario s.yaml --format csv
case $rc in 0 | 1) r=ok ;; *) r=bad ;; esac
case $err in *"runtime error"*) r=bad ;; esac
check "scenario at the bounds: computed without undefined behaviour" equals "$r" ok
# Every figure at the largest value a scenario accepts, for each class.
for f in extreme-inference extreme-inference-max extreme-pretrain extreme-finetune-lora; do
	run "$ACCELSIZER" recommend --scenario "$TOP_SRCDIR/tests/fixtures/regress/scenario/$f.yaml" --format csv
	case $rc in 0 | 1) r=ok ;; *) r="exit $rc" ;; esac
	case $err in *"runtime error"*) r="undefined behaviour" ;; esac
	check "scenario $f: computed without undefined behaviour" equals "$r" ok
done
sed 's/global_batch_tokens: 1e12/global_batch_tokens: 1.000001e12/' s.yaml >s2.yaml
run "$ACCELSIZER" recommend --scenario s2.yaml
check "scenario global_batch_tokens past the bound: refused" contains "$err" "s2.yaml:6:24: 'global_batch_tokens' 1.000001e12 is out of range (1 to 1000000000000)"
printf 'schema: 1\nworkload:\n  custom_model: {params_b: 1e308, layers: 2, hidden_size: 64, attention_heads: 2, kv_heads: 2}\n' >s.yaml
run "$ACCELSIZER" recommend --scenario s.yaml
check "scenario custom params_b 1e308: refused" contains "$err" "s.yaml:3:28: 'params_b' 1e308 is out of range (0.001 to 100000)"

# ---- price lists ----
for v in 1e308 -1 NaN Inf .inf 18446744073709551616 '"1,000"' 70B '$100' 0x10 1e3; do
	printf 'sku,unit_price_usd\nh100-sxm,%s\n' "$v" >p.csv
	run "$ACCELSIZER" bom --scenario "$SCEN" --prices p.csv -o bom.csv
	if [ "$rc" = 2 ] && case $err in *"p.csv:2:10: "*unit_price*) true ;; *) false ;; esac &&
		[ ! -e bom.csv ]; then
		tap_ok "price list unit_price_usd $v: refused at its line and column, no BOM written"
	else
		tap_not_ok "price list unit_price_usd $v: refused at its line and column, no BOM written" "exit $rc" "stderr: $err"
	fi
done
for v in 100.01 -5 NaN 1e2 '"1,5"'; do
	printf 'sku,unit_price_usd,discount_pct\nh100-sxm,100,%s\n' "$v" >p.csv
	run "$ACCELSIZER" bom --scenario "$SCEN" --prices p.csv -o bom.csv
	if [ "$rc" = 2 ] && case $err in *"p.csv:2:14: "*discount_pct*) true ;; *) false ;; esac; then
		tap_ok "price list discount_pct $v: refused at its line and column"
	else
		tap_not_ok "price list discount_pct $v: refused at its line and column" "exit $rc" "stderr: $err"
	fi
done
printf 'sku,unit_price_usd\nh100-sxm,999999999.995\n' >p.csv
run "$ACCELSIZER" bom --scenario "$SCEN" --prices p.csv -o bom.csv
check "price list: the largest price rounds to 1e9 exactly" rc 0
case $(cat bom.csv 2>/dev/null) in *"1000000000.00,"*) r=ok ;; *) r=bad ;; esac
check "price list: the largest price in the BOM" equals "$r" ok
case $err in *"runtime error"*) r=bad ;; *) r=ok ;; esac
check "price list: large quantities times the largest price without overflow" equals "$r" ok

done_testing
