#!/bin/sh
# accelsizer compare (issue 17 item 8): two or three scenarios side by side,
# settings then the recommended accelerator's figures, the rows that differ
# marked; the figures are recommend's; csv and yaml for scripts; a bad
# scenario is file:line:col and exit 2 with nothing written.
. "$TOP_SRCDIR/tests/lib.sh"

FIX=$TOP_SRCDIR/tests/fixtures/scenarios/good
A=$FIX/inference.yaml
B=$TOP_SRCDIR/tests/tui/llama70b-fp16.yaml
P=$FIX/pretrain-minimal.yaml
mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1

# a row of compare's csv: the cell of column COL (4 = the first scenario)
# in the row SECTION,KEY
cell() {	# cell FILE SECTION KEY COL
	awk -F'","' -v s="\"$2" -v k="$3" -v c="$4" '$1 == s && $2 == k { v = $c; gsub(/"/, "", v); print v }' "$1"
}

# ---- the table ----
run "$ACCELSIZER" compare "$A" "$B"
check "two scenarios: exit 0" rc 0
check "the table says how many rows differ" matches "$out" '^Comparing 2 scenarios: [0-9]+ of [0-9]+ rows differ \(marked \*\)$'
check "a header with both files" matches "$out" "^  key +$A +$B\$"
check "the model differs: marked" matches "$out" '^\* workload\.model +llama-3\.1-70b +llama-2-70b$'
check "the class is the same: not marked" matches "$out" '^  workload\.class +inference +inference$'
check "an accelerator named in one only: - in the other" matches "$out" '^\* accelerator +h100-sxm +-$'
check "the recommended accelerators differ" matches "$out" '^\* result\.accelerator +h100-sxm +rtx-pro-6000$'
check "capex, TCO and \$/Mtok are compared" matches "$out" '
\* result\.capex_usd .*
\* result\.tco_usd .*
.*
\* result\.usd_per_mtok '
check "a figure of no scenario's class is left out" lacks "$out" "result.train_hours"

# ---- the figures are recommend's ----
run "$ACCELSIZER" compare --format csv "$A" "$B" -o cmp.csv
check "csv to a file: exit 0" rc 0
run "$ACCELSIZER" recommend --scenario "$B" --format csv -o rec.csv
for k in accelerator gpus nodes output_tokens_per_s ttft_ms capex_usd tco_usd usd_per_mtok; do
	check "B's $k is recommend's first row's" equals "$(cell cmp.csv result "$k" 5)" "$(csv_col rec.csv "$k" 1)"
done
run "$ACCELSIZER" recommend --scenario "$A" --accelerator h100-sxm --format csv -o reca.csv
check "A's capex is its chosen accelerator's" equals "$(cell cmp.csv result capex_usd 4)" "$(csv_col reca.csv capex_usd 1)"
check "csv header: section, key, differs and the files" equals "$(head -n 1 cmp.csv)" "\"section\",\"key\",\"differs\",\"$A\",\"$B\""
check "csv: differs true where the values differ" equals "$(grep '^"workload","model",' cmp.csv | cut -d, -f3)" '"true"'
check "csv: differs false where they agree" equals "$(grep '^"workload","class",' cmp.csv | cut -d, -f3)" '"false"'

# ---- yaml ----
run "$ACCELSIZER" compare --format yaml "$A" "$B"
check "yaml: exit 0" rc 0
n=$(printf '%s\n' "$out" | grep -c '^  differs: true$')
check "yaml: differences counts the rows that differ" contains "$out" "differences: $n"
check "yaml: the scenarios listed" contains "$out" "scenarios:
- \"$A\"
- \"$B\""

# ---- three, and one with itself ----
run "$ACCELSIZER" compare "$A" "$B" "$P"
check "three scenarios: exit 0" rc 0
check "three columns" matches "$out" "^  key +$A +$B +$P\$"
check "pretraining settings: - for the serving scenarios" matches "$out" '^\* workload\.tokens +- +- +[0-9]'
check "time to train shown for the pretraining one" matches "$out" '^\* result\.train_hours +- +- +[0-9]'
run "$ACCELSIZER" compare "$A" "$A"
check "a scenario with itself: no difference" matches "$out" '^Comparing 2 scenarios: 0 of '
check "nothing marked" lacks "$out" "
*"

# ---- a scenario that cannot be met ----
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-2-70b\nfilters:\n  budget_usd: 1\n' >poor.yaml
run "$ACCELSIZER" compare "$A" poor.yaml
check "no accelerator fits one: exit 1" rc 1
check "... and the comparison is written" matches "$out" '^\* result\.accelerator +h100-sxm +none$'

# ---- bad input: exit 2, nothing written ----
printf 'schema: 1\nworkload:\n  class: inference\n  modle: llama-2-70b\n' >bad.yaml
refuse_with "a bad scenario: file:line:col" "bad.yaml:4:3: unknown key 'modle'" "$ACCELSIZER" compare "$A" bad.yaml
check "... and nothing on standard output" equals "$out" ""
rm -f out.csv
refuse_with "a bad scenario with -o" "bad.yaml:4:3:" "$ACCELSIZER" compare "$A" bad.yaml -o out.csv
check "... writes no file" equals "$(ls out.csv 2>/dev/null)" ""
refuse_with "one scenario is not a comparison" "name two or three scenario files" "$ACCELSIZER" compare "$A"
refuse_with "four are too many" "at most 3 scenarios" "$ACCELSIZER" compare "$A" "$B" "$P" "$A"
refuse_with "a missing file" "missing.yaml" "$ACCELSIZER" compare "$A" missing.yaml
refuse_with "an unknown option" "unknown option '--frmat'" "$ACCELSIZER" compare --frmat csv "$A" "$B"
refuse_with "a bad format" "--format: 'xml' is not one of table, csv, yaml" "$ACCELSIZER" compare --format xml "$A" "$B"
refuse_with "--format without a value" "option '--format' needs a value" "$ACCELSIZER" compare "$A" "$B" --format
cp "$A" a.yaml
refuse_with "-o over a scenario" "refusing to overwrite an input" "$ACCELSIZER" compare a.yaml "$B" -o a.yaml
check "... which is left as it was" equals "$(cmp a.yaml "$A" && echo same)" "same"
mkfifo fifo.yaml
refuse_with "a FIFO as a scenario does not hang" "fifo.yaml" "$ACCELSIZER" compare "$A" fifo.yaml

run "$ACCELSIZER" compare --help
check "--help: exit 0" rc 0
check "--help names the formats" contains "$out" "table (default), csv or yaml"
done_testing
