#!/bin/sh
# The validated-catalog cache as a user meets it: the first `recommend`
# parses the catalog and writes an image under $XDG_CACHE_HOME/accelsizer,
# the second reads the image (ACCELSIZER_DEBUG_CACHE=1 says which on
# stderr) and prints byte-identical output; an edited catalog is parsed
# again; ACCELSIZER_NO_CACHE writes nothing; `catalog check` always parses;
# a damaged image or an unwritable cache folder changes nothing for the
# user.  `make check` sets ACCELSIZER_NO_CACHE for every other test; this
# one clears it, and keeps every image in its own temporary folder.
# shellcheck source=tests/lib.sh source-path=SCRIPTDIR/../..
. "$TOP_SRCDIR/tests/lib.sh"

unset ACCELSIZER_NO_CACHE
XDG_CACHE_HOME=$TMPD/xdg
HOME=$TMPD/home		# nothing reaches the real ~/.cache
export XDG_CACHE_HOME HOME
A=$ACCELSIZER
CAT=$TMPD/catalog
cp -R "$TOP_SRCDIR/catalog" "$CAT"
REC="recommend --catalog $CAT --model llama-2-70b --format csv"
# the table's first line names the model (csv rows name it only in some reasons)
REC_TABLE="recommend --catalog $CAT --model llama-2-70b"

ACCELSIZER_DEBUG_CACHE=1; export ACCELSIZER_DEBUG_CACHE
# shellcheck disable=SC2086
run "$A" $REC
check "first run: exit 0" rc 0
check "first run parses and writes the image" contains "$err" "catalog: parsed, cache written $XDG_CACHE_HOME/accelsizer/catalog-"
first=$out
n=$(find "$XDG_CACHE_HOME/accelsizer" -name 'catalog-*.cache' -type f | wc -l)
check "one image under \$XDG_CACHE_HOME/accelsizer" equals "$n" 1
check "the cache folder is private (0700)" equals "$(stat -c %a "$XDG_CACHE_HOME/accelsizer")" 700
# shellcheck disable=SC2086
run "$A" $REC
check "second run: exit 0" rc 0
check "second run reads the image" contains "$err" "catalog: from cache"
check "second run prints byte-identical CSV" equals "$out" "$first"
check "the CSV has rows" matches "$first" 'h100'

# every other format and command gives the same output from the image
# (the formats recommend has: a format it lacks would compare two empty
# outputs and pass whatever the cache did)
for f in table csv yaml; do
	unset ACCELSIZER_NO_CACHE
	# shellcheck disable=SC2086
	run "$A" recommend --catalog "$CAT" --model llama-2-70b --format $f
	check "recommend --format $f from the image: exit 0" rc 0
	check "recommend --format $f from the image: names the H100" contains "$out" "h100"
	cached=$out
	# shellcheck disable=SC2086
	ACCELSIZER_NO_CACHE=1 run "$A" recommend --catalog "$CAT" --model llama-2-70b --format $f
	check "recommend --format $f: same output from the image as from YAML" equals "$cached" "$out"
done
run "$A" catalog show h100-sxm --catalog "$CAT"
cached=$out
check "catalog show from the image: the accelerator and its file" contains "$cached" "accelerators/h100-sxm.yaml"
ACCELSIZER_NO_CACHE=1 run "$A" catalog show h100-sxm --catalog "$CAT"
check "catalog show: same from the image (files and lines too)" equals "$cached" "$out"

# the bundled catalog itself: the image linked into the program, nothing
# read or written under the cache folder, the same output as a parse
rm -rf "$XDG_CACHE_HOME"
run "$A" recommend --catalog "$TOP_SRCDIR/catalog" --model llama-2-70b --format csv
check "bundled catalog: from the linked image" contains "$err" "catalog: bundled image"
check "bundled catalog: no cache folder made" equals "$(test -e "$XDG_CACHE_HOME" && echo yes)" ""
bundled=$out
ACCELSIZER_NO_CACHE=1 run "$A" recommend --catalog "$CAT" --model llama-2-70b --format csv
check "bundled catalog: the same CSV as a parse of its copy" equals "$bundled" "$out"
run "$A" catalog show h100-sxm --catalog "$TOP_SRCDIR/catalog"
check "bundled catalog: catalog show names the bundled folder's file" \
	contains "$out" "$TOP_SRCDIR/catalog/accelerators/h100-sxm.yaml"
ACCELSIZER_CATALOG=$TOP_SRCDIR/catalog run "$A" catalog check
check "bundled catalog: catalog check exit 0" rc 0

# an edited catalog is parsed again and the new figure is used
f=$CAT/models/llama-2-70b.yaml
sed 's/^name: .*/name: Llama Two Seventy/' "$f" >"$f.new" && mv "$f.new" "$f"
# shellcheck disable=SC2086
run "$A" $REC_TABLE
check "after an edit: parsed again" contains "$err" "catalog: parsed, cache written"
check "after an edit: the new name is used" contains "$out" "Llama Two Seventy"
# shellcheck disable=SC2086
run "$A" $REC_TABLE
check "after an edit: the next run reads the new image" contains "$err" "catalog: from cache"
check "after an edit: the image has the new name" contains "$out" "Llama Two Seventy"

# the image keeps the error bands (the csv's *_low/*_high/band_n): an
# edit under published/ is parsed again and the bands follow it (fewer
# validation entries, other bands), from the image as from the YAML
# shellcheck disable=SC2086
run "$A" $REC
before_ledger=$out
sed 's/role: validation/role: calibration/' "$CAT/published/mlperf-inference-v5.0.yaml" >"$TMPD/l.yaml"
cp "$CAT/published/mlperf-inference-v5.0.yaml" "$TMPD/ledger-saved.yaml"
cp "$TMPD/l.yaml" "$CAT/published/mlperf-inference-v5.0.yaml"
# shellcheck disable=SC2086
run "$A" $REC
check "after a ledger edit: parsed again" contains "$err" "catalog: parsed, cache written"
check "after a ledger edit: other bands" equals "$(test "$out" != "$before_ledger" && echo differ)" differ
edited=$out
# shellcheck disable=SC2086
run "$A" $REC
check "after a ledger edit: the next run reads the new image" contains "$err" "catalog: from cache"
check "after a ledger edit: the image's bands are the new ones" equals "$out" "$edited"
# shellcheck disable=SC2086
ACCELSIZER_NO_CACHE=1 run "$A" $REC
check "after a ledger edit: the same bands from the YAML" equals "$out" "$edited"
cp "$TMPD/ledger-saved.yaml" "$CAT/published/mlperf-inference-v5.0.yaml"

# an invalid catalog is reported every time, never cached
cp "$f" "$TMPD/saved.yaml"
sed 's/^layers: .*/layers: -1/' "$TMPD/saved.yaml" >"$f"
for i in 1 2; do
	# shellcheck disable=SC2086
	run "$A" $REC
	check "invalid catalog (run $i): exit 2" rc 2
	check "invalid catalog (run $i): the error names the file" contains "$err" "models/llama-2-70b.yaml:"
	check "invalid catalog (run $i): nothing written" contains "$err" "catalog: parsed, cache not written"
done
cp "$TMPD/saved.yaml" "$f"

# catalog check always parses
run "$A" catalog check "$CAT"
check "catalog check: exit 0" rc 0
check "catalog check never reads the image" lacks "$err" "catalog:"

# a damaged image: same output, parsed, a good image written again
img=$(find "$XDG_CACHE_HOME/accelsizer" -name 'catalog-*.cache' -type f | head -n 1)
# shellcheck disable=SC2086
run "$A" $REC
good=$out
check "the reference output has rows" matches "$good" 'h100'
printf 'garbage' | dd of="$img" bs=1 seek=200 conv=notrunc 2>/dev/null
# shellcheck disable=SC2086
run "$A" $REC
check "damaged image: exit 0" rc 0
check "damaged image: parsed, not trusted" contains "$err" "catalog: parsed, cache written"
check "damaged image: same output" equals "$out" "$good"
head -c 1000 "$img" >"$img.cut" && mv "$img.cut" "$img"
# shellcheck disable=SC2086
run "$A" $REC
check "truncated image: parsed, same output" equals "$out" "$good"

# ACCELSIZER_NO_CACHE: nothing read or written
rm -rf "$XDG_CACHE_HOME"
# shellcheck disable=SC2086
ACCELSIZER_NO_CACHE=1 run "$A" $REC
check "ACCELSIZER_NO_CACHE: exit 0" rc 0
check "ACCELSIZER_NO_CACHE: says the cache is off" contains "$err" "catalog: parsed (cache off)"
check "ACCELSIZER_NO_CACHE: no cache folder made" equals "$(test -e "$XDG_CACHE_HOME" && echo yes)" ""

# an unwritable cache folder: silent, same output
printf 'x' >"$TMPD/file"
unset ACCELSIZER_DEBUG_CACHE
# shellcheck disable=SC2086
XDG_CACHE_HOME=$TMPD/file run "$A" $REC
check "unwritable cache folder: exit 0" rc 0
check "unwritable cache folder: no word of the cache on stderr" lacks "$err" "cache"
check "unwritable cache folder: same output" equals "$out" "$good"

# without XDG_CACHE_HOME, $HOME/.cache
# shellcheck disable=SC2086
env -u XDG_CACHE_HOME ACCELSIZER_DEBUG_CACHE=1 "$A" $REC >/dev/null 2>"$TMPD/e"
check "without \$XDG_CACHE_HOME the image goes to \$HOME/.cache/accelsizer" contains "$(cat "$TMPD/e")" "$HOME/.cache/accelsizer/catalog-"

done_testing
