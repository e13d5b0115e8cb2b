#!/bin/sh
# The error bands in the wizard: steps 2 and 3 show the row's headline
# figure with the band of the published validation results ("21 tok/s
# ±17% (5 published)"), step 4 has an Error band line, compare a row per
# headline figure, and the wizard's count of results is the CLI's band_n
# for the same scenario.  With a catalog that has no published results
# every figure reads "unvalidated", in the muted colour.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

SCEN="$TOP_SRCDIR/tests/tui/llama70b-fp16.yaml"
band_re='tok/s (±[0-9]+%|[-+][0-9]+%\.\.[-+][0-9]+%) \([0-9]+ published\)'

# the CLI's band for the top-ranked accelerator of the scenario
run "$ACCELSIZER" recommend --scenario "$SCEN" --format csv
check "recommend csv has the band columns" contains "$(printf '%s\n' "$out" | head -n 1)" \
	'"output_tokens_per_s_low","output_tokens_per_s_high"'
run "$ACCELSIZER" recommend --scenario "$SCEN" --format yaml
top=$(printf '%s\n' "$out" | sed -n 's/^ *accelerator: //p' | head -n 1)
nband=$(printf '%s\n' "$out" | sed -n 's/^ *band_n: //p' | head -n 1)
check "the top result has a band ($top, $nband results)" matches "$nband" '^[1-9][0-9]*$'

tui_start 120 40 --scenario "$SCEN"
tui_wait "Input tokens"
tui_keys 2
check_screen_re "step 2: the focused row's throughput with its band" "$band_re"
check_screen_re "step 2: as many results as the CLI's band_n" "tok/s [^(]*\\($nband published\\)"
tui_keys 3
check_screen_re "step 3: the focused row's throughput with its band" "$band_re"
tui_keys 4
check_screen_re "step 4: the Error band line" "Error band +throughput .*\\($nband published\\)"
# p, not 3: on step 4 a digit edits the GPU count; Space marks without
# moving the cursor (issue 12)
tui_keys p Space Down Space c
check_screen "compare: an error band row" "error band"
tui_keys Escape
tui_quit
check "quits cleanly" equals "$rc" "0"

# a catalog without published results: nothing is validated
cat >"$TMPD/small.yaml" <<'EOF'
schema: 1
workload:
  class: inference
  model: llama-3-8b
  precision: fp8
  input_tokens: 512
  output_tokens: 128
  concurrency: 8
EOF
tui_start 120 40 --catalog "$TOP_SRCDIR/tests/fixtures/catalog/good" --scenario "$TMPD/small.yaml"
tui_wait "Input tokens"
tui_keys 4
check_screen "step 4 says unvalidated" "unvalidated (no published result covers it)"
tui_screen_escapes
line=$(printf '%s\n' "$screen_e" | grep 'unvalidated' | head -n 1)
tui_keys p p
check_screen "step 2 says unvalidated" "tok/s unvalidated;"
# muted: drawn with other attributes than the Predicted line above it
pred=$(printf '%s\n' "$screen_e" | grep 'Predicted' | head -n 1)
val=$(printf '%s' "$line" | sed 's/.*Error band//' | sed 's/unvalidated.*//')
pv=$(printf '%s' "$pred" | sed 's/.*Predicted//' | sed 's/[0-9].*//')
if [ -n "$line" ] && [ "$val" != "$pv" ]; then
	tap_ok "step 4: unvalidated is drawn in another colour than the figures"
else
	tap_not_ok "step 4: unvalidated is drawn in another colour than the figures" "line: $line" "pred: $pred"
fi
tui_quit
check "quits cleanly (no published results)" equals "$rc" "0"

# a broken ledger is refused before the screen opens
d=$TMPD/cat
mkdir -p "$d/published"
for p in accelerators platforms fabrics models defaults.yaml; do ln -s "$TOP_SRCDIR/tests/fixtures/catalog/good/$p" "$d/$p"; done
cp "$TOP_SRCDIR/tests/fixtures/catalog/bad-published/bad-role.yaml" "$d/published/"
run "$ACCELSIZER" --catalog "$d"
check "a broken ledger: exit 2" rc 2
check "a broken ledger: the problem named" contains "$err" "bad-role.yaml:6:11: role: expected one of calibration, validation, got 'check'"

done_testing
