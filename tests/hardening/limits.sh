#!/bin/sh
# Limits through the real binary: inputs built to exhaust memory, time or
# the stack are refused early, with exit 2 and a message that names the
# file and the limit.  (tests/unit/test_limits.c checks the same limits at
# the API level.)  Memory is capped with ulimit -v where the build allows
# it (not under AddressSanitizer, which reserves terabytes of address
# space), so "bounded memory" is checked, not assumed; every command runs
# under a 30 s guard so that a hang fails instead of stalling the suite.
. "$TOP_SRCDIR/tests/lib.sh"

GOOD=$TOP_SRCDIR/tests/fixtures/catalog/good
REGRESS=$TOP_SRCDIR/tests/fixtures/regress/scenario
SCEN=$TOP_SRCDIR/tests/fixtures/scenarios/good/inference.yaml
cd "$TMPD" || exit 1

# 256 MB of address space is plenty for a catalog check and far less than
# reading 10,000 files or a 100 MB file whole would need.
if grep -q __asan_init "$ACCELSIZER" 2>/dev/null; then
	cap=
else
	cap="ulimit -v 262144;"
fi

# refused NAME EXPECTED COMMAND...: exit 2 and the message, in bounded
# memory, without hanging.
refused() {
	name=$1 want=$2
	shift 2
	run sh -c "$cap exec timeout 30 \"\$@\"" sh "$@"
	if [ "$rc" = 2 ] && case $err in *"$want"*) true ;; *) false ;; esac; then
		tap_ok "$name"
	else
		tap_not_ok "$name" "exit $rc (124 = hung)" "expected: $want" "stderr: $(printf '%s' "$err" | head -c 1000)"
	fi
}

# ---- 10,000 accelerators: the folder is refused before a file is read ----
cp -R "$GOOD" big
i=0
while [ $i -lt 10000 ]; do
	: >"big/accelerators/gen-$i.yaml"
	i=$((i + 1))
done
refused "catalog check: 10,000 accelerator files refused" \
	"big/accelerators: too many files (more than 5000)" "$ACCELSIZER" catalog check big
refused "recommend --catalog: 10,000 accelerator files refused" \
	"big/accelerators: too many files (more than 5000)" "$ACCELSIZER" recommend --catalog big
check "catalog check: the count of problems is stated" contains "$err" "is invalid"
rm -rf big

# ---- 100 MB files: refused from their size (sparse: nothing to read) ----
truncate -s 100M huge.yaml huge.csv
refused "--scenario 100 MB: refused from its size" \
	"accelsizer: huge.yaml: file is too large (104857600 bytes, the limit is 4194304)" \
	"$ACCELSIZER" recommend --scenario huge.yaml
refused "--prices 100 MB: refused from its size" \
	"accelsizer: huge.csv: larger than 16 MiB; is this a price list?" \
	"$ACCELSIZER" bom --scenario "$SCEN" --prices huge.csv -o bom.csv
refused "--theme 100 MB: refused from its size" \
	"huge.yaml: file is too large (104857600 bytes, the limit is 4194304)" \
	"$ACCELSIZER" --theme ./huge.yaml
cp -R "$GOOD" cat
truncate -s 100M cat/models/huge.yaml
refused "catalog: a 100 MB model file refused from its size" \
	"cat/models/huge.yaml: file is too large (104857600 bytes, the limit is 4194304)" \
	"$ACCELSIZER" catalog check cat
rm -rf cat huge.yaml huge.csv

# ---- YAML bombs ----
refused "billion laughs scenario: aliases refused" \
	"accelsizer: $REGRESS/billion-laughs.yaml:3:8: aliases are not supported" \
	"$ACCELSIZER" recommend --scenario "$REGRESS/billion-laughs.yaml"
refused "scenario nested 100 deep refused with a message" \
	"accelsizer: $REGRESS/nested-100.yaml:2:42: nesting deeper than 32 levels" \
	"$ACCELSIZER" recommend --scenario "$REGRESS/nested-100.yaml"
awk 'BEGIN { printf "schema: 1\nworkload:\n"; for (i = 0; i < 100; i++) { printf "%*sk%d:\n", 2 * i + 2, "", i } }' >deep.yaml
refused "scenario with 100 nested block mappings refused" \
	"accelsizer: deep.yaml:34:65: nesting deeper than 32 levels" \
	"$ACCELSIZER" recommend --scenario deep.yaml
awk 'BEGIN { printf "schema: 1\nworkload: "; for (i = 0; i < 200000; i++) printf "["; for (i = 0; i < 200000; i++) printf "]"; print "" }' >brackets.yaml
refused "scenario with 200,000 nested brackets refused (no stack overflow)" \
	"accelsizer: brackets.yaml:2:42: nesting deeper than 32 levels" \
	"$ACCELSIZER" recommend --scenario brackets.yaml
cp -R "$GOOD" cat
cat "$REGRESS/billion-laughs.yaml" >cat/fabrics/bomb.yaml
refused "catalog: billion laughs refused" "cat/fabrics/bomb.yaml:3:8: aliases are not supported" \
	"$ACCELSIZER" catalog check cat
cp "$REGRESS/billion-laughs.yaml" laughs-theme.yaml
refused "theme: billion laughs refused" "laughs-theme.yaml:3:8: aliases are not supported" \
	"$ACCELSIZER" --theme ./laughs-theme.yaml

# ---- many small things are fine: big is not hostile ----
awk 'BEGIN { printf "schema: 1\nnotes: \""; for (i = 0; i < 300000; i++) printf "0123456789"; print "\"" }' >notes.yaml
run sh -c "$cap exec timeout 30 \"\$@\"" sh "$ACCELSIZER" recommend --scenario notes.yaml --format csv
check "a 3 MB notes field is accepted" rc 0

done_testing
