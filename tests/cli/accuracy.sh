#!/bin/sh
# `accelsizer accuracy` and the ledger (catalog/published/): the bundled
# ledger passes its own check and every entry is either mapped or listed
# with a reason (the figures are reported as TAP comments, not judged:
# the budget is for the physics to reach); --check's exit status on small
# ledgers written from the engine's own predictions; every malformed
# fixture in tests/fixtures/catalog/bad-published/ gives its exact message.
# shellcheck source=tests/lib.sh source-path=SCRIPTDIR/../..
. "$TOP_SRCDIR/tests/lib.sh"

A=$ACCELSIZER
FIX=$TOP_SRCDIR/tests/fixtures/catalog
BUNDLED=$TOP_SRCDIR/catalog

# ---- the bundled ledger ----
run "$A" catalog check "$BUNDLED"
check "catalog check passes the bundled ledger" rc 0
check "catalog check counts the published results" matches "$out" \
	'^published results OK: [0-9]+ \([0-9]+ calibration, [0-9]+ validation\) in [0-9]+ files$'
run "$A" accuracy --catalog "$BUNDLED"
check "accuracy runs on the bundled ledger" rc 0
check "accuracy prints the summary" contains "$out" "summary (entries the engine maps)"
check "accuracy names a calibration entry" contains "$out" "mlpinf41-h100x8-llama2-70b-offline"
# The figures, for the log (make check): the validation and calibration sets.
printf '%s\n' "$out" | sed -n '/^summary/,$p' | sed 's/^/# /'
run "$A" accuracy --catalog "$BUNDLED" --check
case $rc in 0|1) tap_ok "accuracy --check exits 0 or 1 on the bundled ledger ($rc)" ;;
*) tap_not_ok "accuracy --check exits 0 or 1 on the bundled ledger" "exit $rc: $err" ;; esac
check "--check reports the figures against the budget" matches "$err" \
	'^accuracy --check: validation median \|error\| [0-9.]+% \(budget 10%\), worst [-+][0-9.]+% \(budget 25%\) over [0-9]+ results: (within|over) budget$'

run "$A" accuracy --catalog "$BUNDLED" --format csv
check "csv exits 0" rc 0
# libcsv quotes every cell
check "csv header" equals "$(printf '%s\n' "$out" | head -n 1 | tr -d '"')" \
	"id,role,accelerator,family,workload,model,precision,gpus,metric,unit,published,predicted,error_pct,mapped,not_mapped_why,benchmark,stack,date,source"
rows=$(printf '%s\n' "$out" | tail -n +2 | wc -l)
run "$A" catalog check "$BUNDLED"
n=$(printf '%s\n' "$out" | sed -n 's/^published results OK: \([0-9]*\) .*/\1/p')
check "csv has one row per published result ($n)" equals "$rows" "$n"
run "$A" accuracy --catalog "$BUNDLED" --format csv --role calibration
check "--role calibration keeps only calibration rows" lacks "$out" ",validation,"
# The efficiencies were set from the calibration entries, so the engine
# must reproduce every mapped one closely: a default that leaks into a
# published setup (a service target on an Offline run) shows here first.
far=$(printf '%s\n' "$out" | tail -n +2 | awk -F'","' '$14 == "true" { e = $13 + 0; if (e < -5 || e > 5) print $1 " " e "%" }' | tr -d '"')
check "every mapped calibration entry is within 5%" equals "$far" ""
run "$A" accuracy --catalog "$BUNDLED" --format csv --accelerator mi300x --workload inference
check "--accelerator and --workload filter" equals \
	"$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f3,5 | tr -d '"' | sort -u)" "mi300x,inference"
run "$A" accuracy --catalog "$BUNDLED" --format yaml --role calibration
check "yaml exits 0" rc 0
check "yaml has the results and the summary" matches "$out" '^summary:'
check "yaml has the validation totals" matches "$out" '^validation:'

# ---- catalog show of a published result ----
run "$A" catalog show mlpinf41-h100x8-llama2-70b-offline --catalog "$BUNDLED"
check "catalog show of a published result exits 0" rc 0
check "catalog show names the result and its file" matches "$out" \
	'^published result mlpinf41-h100x8-llama2-70b-offline  \(.*/published/mlperf-inference-v4.1.yaml:[0-9]+\)$'
check "catalog show gives the role" matches "$out" '^  role +calibration$'
check "catalog show gives the workload keys" matches "$out" '^  workload.model +llama-2-70b$'
check "catalog show gives the source" contains "$out" "mlcommons/inference_results_v4.1/"
run "$A" catalog show h100-sxm --catalog "$BUNDLED"
check "catalog show of an accelerator names its calibration entries" matches "$out" \
	'calibrated from: mlpinf41-h100x8-llama2-70b-offline$'

# ---- bad options ----
run "$A" accuracy --role best
check "--role best exits 2" rc 2
check "--role best names the flag" contains "$err" "--role: 'best' is not one of calibration, validation, all"
run "$A" accuracy --accelerator h100-sxn --catalog "$BUNDLED"
check "--accelerator typo exits 2" rc 2
check "--accelerator typo suggests" contains "$err" "unknown accelerator 'h100-sxn'; did you mean 'h100-sxm'?"
run "$A" accuracy --format xml
check "--format xml exits 2" rc 2
run "$A" accuracy --help
check "--help exits 0" rc 0
check "--help names --check" contains "$out" "--check"

# ---- --check on ledgers written from the engine's predictions ----
cat_dir() {	# a copy of the fixture catalog with published/ holding $1
	d=$TMPD/$2
	rm -rf "$d"
	mkdir -p "$d/published"
	for p in accelerators platforms fabrics models defaults.yaml; do
		ln -s "$FIX/good/$p" "$d/$p"
	done
	cp "$1" "$d/published/results.yaml"
	echo "$d"
}
d=$(cat_dir "$FIX/ledger-template.yaml" probe)
sed -i 's/VALUE/1000/' "$d/published/results.yaml"
run "$A" accuracy --catalog "$d" --format csv
pred=$(printf '%s\n' "$out" | tail -n 1 | cut -d, -f12 | tr -d '"')
check "the fixture entry is mapped" matches "$pred" '^[0-9.]+$'
# entries at published = predicted x factor: error = 1/factor - 1
write_ledger() {	# NAME FACTOR... : one entry per factor
	d=$(cat_dir "$FIX/ledger-template.yaml" "$1")
	shift
	f=$d/published/results.yaml
	head -n 4 "$FIX/ledger-template.yaml" > "$f"
	i=0
	for k in "$@"; do
		i=$((i + 1))
		v=$(awk -v p="$pred" -v k="$k" 'BEGIN { printf "%.3f", p * k }')
		sed -n '/^  - id:/,$p' "$FIX/ledger-template.yaml" |
			sed -e "s/fixture-h100x8-llama3-8b/fixture-$i/" -e "s/VALUE/$v/" >> "$f"
	done
	echo "$d"
}
d=$(write_ledger within 1.05 0.95 1.02)
run "$A" accuracy --catalog "$d" --check
check "--check: errors of about 5% are within budget (exit 0)" rc 0
check "--check says within budget" contains "$err" "over 3 results: within budget"
d=$(write_ledger median 1.3 1.3 0.75)
run "$A" accuracy --catalog "$d" --check
check "--check: a median over 10% exits 1" rc 1
check "--check says over budget" contains "$err" "over budget"
d=$(write_ledger worst 1.02 1.02 1.02 0.6)
run "$A" accuracy --catalog "$d" --check
check "--check: one entry over 25% exits 1 even with a small median" rc 1
check "--check reports the worst" contains "$err" "worst +66.7% (budget 25%)"
run "$A" accuracy --catalog "$d"
check "without --check the same ledger exits 0" rc 0

# ---- malformed files: exact messages ----
bad_case() {	# NAME MESSAGE (path inside the temporary catalog)
	d=$(cat_dir "$FIX/bad-published/$1.yaml" "bad-$1")
	run "$A" catalog check "$d"
	check "bad-published/$1 exits 2" rc 2
	msg=$(printf '%s\n' "$2" | sed "s|@F@|$d/published/results.yaml|")
	check "bad-published/$1: message" equals "$(printf '%s\n' "$err" | head -n 1)" "$d/published/results.yaml:$msg"
}
bad_case bad-commit "10:15: source.commit: expected 40 lower-case hex digits, got '0123456'"
bad_case bad-date "11:13: source.date: expected a date like 2024, 2024-08 or 2024-08-28, got 'August 2024'"
bad_case bad-metric "13:13: unknown metric 'output_token_per_s'; did you mean 'output_tokens_per_s'?"
bad_case bad-role "6:11: role: expected one of calibration, validation, got 'check'"
bad_case duplicate-id "27:5: id 'fixture-h100x8-llama3-8b' is already used at @F@:5:5 (ids are unique across the ledger)"
bad_case metric-class "13:13: metric samples_per_s is a training figure but workload.class is inference"
bad_case missing-value "5:5: a result: missing required key 'value'"
bad_case negative-value "14:12: value must be in (0, 1000000000] for output_tokens_per_s, got -5"
bad_case token-budget-range "29:21: layout.token_budget must be in [2, 1000000], got 1"
bad_case newer-schema "1:9: schema 2 is not one this accelsizer reads (1)"
bad_case no-source "8:7: source: give repo, path and commit, or url"
bad_case source-partial "8:7: source: a repository file needs repo, path and commit (missing 'commit')"
bad_case unit-mismatch "15:11: unit 'tokens/s' does not go with metric output_tokens_per_s (use 'tok/s')"
bad_case unknown-accelerator "16:18: unknown accelerator 'h100-sxn'; did you mean 'h100-sxm'?"
bad_case unknown-key-typo "13:5: unknown key 'metirc' in a result; did you mean 'metric'?"
bad_case unknown-model "22:14: unknown model 'llama-3-8'; did you mean 'llama-3-8b'?"
bad_case effective-bits-range "20:21: effective_bits must be in (8, 16) for precision fp8 (its layers fp8 or bf16), got 6"
bad_case effective-bits-precision "20:21: effective_bits: a mixed checkpoint is a serving result at precision fp4 (with fp8 layers) or fp8 (with 16-bit layers), not inference bf16"
run "$A" accuracy --catalog "$TMPD/bad-bad-role"
check "accuracy refuses a broken ledger (exit 2)" rc 2
check "accuracy points at catalog check" contains "$err" "'accelsizer catalog check' lists them"

# ---- calibrated_from ----
d=$TMPD/calib
rm -rf "$d"
mkdir -p "$d"
cp -R "$BUNDLED/." "$d/"
sed -i 's/calibrated_from: \[mlpinf41-h100x8-llama2-70b-offline\]/calibrated_from: [mlpinf41-h100x8-llama2-70b-server]/' \
	"$d/accelerators/h100-sxm.yaml"
run "$A" catalog check "$d"
check "a validation entry in calibrated_from exits 2" rc 2
check "a validation entry in calibrated_from is named" matches "$err" \
	"accelerators/h100-sxm.yaml:[0-9]+:[0-9]+: efficiency.compute.calibrated_from: 'mlpinf41-h100x8-llama2-70b-server' is a validation entry"
sed -i '/calibrated_from: \[\]/d' "$d/accelerators/l4.yaml"
run "$A" catalog check "$d"
check "an efficiency without calibrated_from is refused" matches "$err" \
	"accelerators/l4.yaml:[0-9]+:[0-9]+: efficiency.memory_bw: missing calibrated_from"
# a serving stack's figure names only calibration entries
cp "$BUNDLED/serving-stacks/vllm.yaml" "$d/serving-stacks/vllm.yaml"
sed -i 's/rocm-vllm073-mi300x-tp8-llama3.1-405b-bs1-128-2048-latency\]/rocm-vllm010-mi300x-tp8-llama3.1-405b-bs1-128-2048-latency]/' \
	"$d/serving-stacks/vllm.yaml"
run "$A" catalog check "$d"
check "a serving stack's figure set from a validation entry exits 2" rc 2
check "a serving stack's figure set from a validation entry is named" matches "$err" \
	"serving-stacks/vllm.yaml:[0-9]+:[0-9]+: runs_on.layer_overhead_us.calibrated_from: 'rocm-vllm010-mi300x-tp8-llama3.1-405b-bs1-128-2048-latency' is a validation entry"

done_testing
