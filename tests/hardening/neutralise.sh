#!/bin/sh
# Neutralise everywhere (issue 13 item 8): a custom model named like a
# spreadsheet formula, and catalog and scenario strings holding ESC, OSC,
# BEL, CR and C1 controls.  Every CSV cell that holds text is neutralised as
# the BOM's are (a leading apostrophe before = + - @ TAB CR), and no text
# output (recommend's table, validate, catalog list/show, the BOM summary)
# writes a control character other than newline (and tab): each is shown as
# a visible escape instead.
. "$TOP_SRCDIR/tests/lib.sh"

cd "$TMPD" || exit 1
# YAML double-quoted escapes: \e ESC, \a BEL, \r CR, \u009b the C1 CSI
cat >evil.yaml <<'YAML'
schema: 1
customer: "\e]0;owned\aACME\rX"
notes: "line one\e[2J"
workload:
  class: inference
  custom_model:
    name: "=cmd|' /C calc'!A0 \e[31mred\a\r\u009b1m"
    params_b: 7
    layers: 32
    hidden_size: 4096
    attention_heads: 32
    kv_heads: 32
    ffn_size: 11008
    vocab_size: 32000
    max_context: 4096
  precision: fp16
  concurrency: 8
YAML
cp -R "$TOP_SRCDIR/catalog" cat
sed 's/^name: .*/name: "NVIDIA \\e]0;owned\\x07 H100\\r\\u009b31m"/' cat/accelerators/h100-sxm.yaml >x &&
	mv x cat/accelerators/h100-sxm.yaml
sed 's/^\(    description:\) "64 GB DDR5/\1 "=2+3 \\e[5m64 GB DDR5/' cat/platforms/hgx-h100-8.yaml >x &&
	mv x cat/platforms/hgx-h100-8.yaml
sed 's/^  - "/  - "\\e]8;;http:\/\/evil\\x07/' cat/models/llama-2-7b.yaml >x &&
	mv x cat/models/llama-2-7b.yaml
run "$ACCELSIZER" catalog check cat
check "the hostile catalog is a valid catalog (strings may hold anything)" rc 0

# inert FILE NAME: no C0 control but LF and TAB, no DEL, no C1 (U+0080..U+009F)
ctl=$(printf '[\001-\010\013-\037\177]')
c1=$(printf '\302[\200-\237]')
inert() {
	if LC_ALL=C grep -q "$ctl" "$1"; then
		tap_not_ok "$2" "a control character reaches the output:" \
			"$(LC_ALL=C grep -n "$ctl" "$1" | head -n 2 | od -c | head -n 4)"
	elif LC_ALL=C grep -q "$c1" "$1"; then
		tap_not_ok "$2" "a C1 control reaches the output"
	else
		tap_ok "$2"
	fi
}
# no_formula FILE NAME: no CSV cell starts with = + - @ (quoted or not),
# other than a number
no_formula() {
	if LC_ALL=C grep -Eq '(^|,)"?[=+@]|(^|,)"?-[^0-9]' "$1"; then
		tap_not_ok "$2" "a cell starts a formula:" "$(LC_ALL=C grep -Eo '(^|,)"?[=+@-][^,]{0,30}' "$1" | head -n 3)"
	else
		tap_ok "$2"
	fi
}

# ---- CSV: the custom model's name in every text cell ----
"$ACCELSIZER" recommend --scenario evil.yaml --format csv >rec.csv 2>rec.err
check "recommend --format csv: exit 0" equals "$?" 0
no_formula rec.csv "recommend --format csv: no cell runs as a formula"
check "recommend --format csv: the reason cell keeps its text behind an apostrophe" \
	contains "$(cat rec.csv)" "\"'=cmd|' /C calc'!A0 \\x1b[31mred\\x07\\r\\u009b1m at fp16"
inert rec.csv "recommend --format csv: no control characters"
"$ACCELSIZER" sweep --scenario evil.yaml --concurrency 1,8 -o sweep.csv 2>sweep.err
check "sweep: exit 0" equals "$?" 0
no_formula sweep.csv "sweep: no cell runs as a formula"
inert sweep.csv "sweep: no control characters"
"$ACCELSIZER" recommend --catalog cat --model llama-2-7b --format csv >cat.csv 2>/dev/null
inert cat.csv "recommend --format csv, hostile catalog: no control characters"
"$ACCELSIZER" bom --catalog cat --scenario evil.yaml --accelerator h100-sxm -o bom.csv \
	--summary summary.txt >/dev/null 2>bom.err
check "bom: exit 0" equals "$?" 0
no_formula bom.csv "bom CSV: no cell runs as a formula"
check "bom CSV: a catalog description behind an apostrophe" contains "$(cat bom.csv)" "'=2+3 \\x1b[5m64 GB DDR5"
inert bom.csv "bom CSV: no control characters"
"$ACCELSIZER" validate --catalog cat --scenario evil.yaml --accelerator h100-sxm --format csv \
	-o plan.csv >/dev/null 2>&1
check "validate --format csv: exit 0" equals "$?" 0
no_formula plan.csv "validation plan CSV: no cell runs as a formula"
inert plan.csv "validation plan CSV: no control characters"

# ---- text ----
"$ACCELSIZER" recommend --scenario evil.yaml >rec.txt 2>&1
inert rec.txt "recommend table: no control characters"
check "recommend table: the name shown with visible escapes" contains "$(cat rec.txt)" "\\x1b[31mred\\x07\\r\\u009b1m"
"$ACCELSIZER" recommend --catalog cat --model llama-2-7b >rec2.txt 2>&1
inert rec2.txt "recommend table, hostile catalog: no control characters"
"$ACCELSIZER" validate --catalog cat --scenario evil.yaml --accelerator h100-sxm >val.txt 2>&1
check "validate: the accelerator's name shown with visible escapes" contains "$(cat val.txt)" "NVIDIA \\x1b]0;owned\\x07 H100"
inert val.txt "validate: no control characters"
inert summary.txt "bom --summary: no control characters"
check "bom --summary: the customer shown with visible escapes" contains "$(cat summary.txt)" "\\x1b]0;owned\\x07ACME\\rX"
"$ACCELSIZER" catalog list --catalog cat >list.txt 2>&1
inert list.txt "catalog list: no control characters"
check "catalog list: the name shown with visible escapes" contains "$(cat list.txt)" "NVIDIA \\x1b]0;owned\\x07 H100\\r\\u009b31m"
"$ACCELSIZER" catalog show h100-sxm --catalog cat >show.txt 2>&1
inert show.txt "catalog show accelerator: no control characters"
"$ACCELSIZER" catalog show hgx-h100-8 --catalog cat >show2.txt 2>&1
inert show2.txt "catalog show platform (BOM lines): no control characters"
"$ACCELSIZER" catalog show llama-2-7b --catalog cat >show3.txt 2>&1
inert show3.txt "catalog show model (sources): no control characters"

# ---- YAML: libyaml escapes; the name reads back as written ----
"$ACCELSIZER" recommend --scenario evil.yaml --format yaml >rec.yaml 2>&1
inert rec.yaml "recommend --format yaml: no control characters"
# (scenario save, the wizard's, is checked in tests/unit/test_out.c)

done_testing
