#!/bin/sh
# The manual pages: they lint clean, and they cannot drift from the
# program.  Every option of every --help is in accelsizer(1) and every
# option accelsizer(1) documents still exists; the wizard's key list is the
# one generated from src/tui_actions.h; every key of the catalog loader's
# tables, the scenario table, the theme roles and the price-list columns is
# in accelsizer-catalog(5); the example accelerator in accelsizer-catalog(5)
# passes `catalog check`; the examples in accelsizer(1) run.
# shellcheck source=tests/lib.sh source-path=SCRIPTDIR/../..
. "$TOP_SRCDIR/tests/lib.sh"

A=$ACCELSIZER
MAN1=$TOP_SRCDIR/man/accelsizer.1
MAN5=$TOP_SRCDIR/man/accelsizer-catalog.5
SRC=$TOP_SRCDIR/src

tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# ---- lint ----
for page in "$MAN1" "$MAN5"; do
	name=$(basename "$page")
	if command -v mandoc >/dev/null 2>&1; then
		run mandoc -Tlint -W warning "$page"
		check "$name: mandoc -Tlint -W warning exits 0" rc 0
		check "$name: mandoc -Tlint prints nothing" equals "$out$err" ""
	else
		tap_skip "$name: mandoc -Tlint" "mandoc is not installed"
	fi
	if command -v groff >/dev/null 2>&1; then
		run groff -ww -z -mdoc "$page"
		check "$name: groff -ww -z -mdoc exits 0" rc 0
		check "$name: groff -ww prints no warning" equals "$out$err" ""
	else
		tap_skip "$name: groff -ww -mdoc" "groff is not installed"
	fi
done

# ---- the wizard's keys ----
run sh "$TOP_SRCDIR/scripts/gen-keys.sh" --check "$TOP_SRCDIR"
check "the key list in accelsizer.1 is the one generated from tui_actions.h" rc 0
# an action with an empty help line shares the line before (Home/End)
n_actions=$(sed -n '/^#define TUI_ACTIONS(X)/,/[^\\]$/p' "$SRC/tui_actions.h" | grep '^[[:space:]]*X(' |
	grep -vc '"[^"]*", *[0-9]*, *[^,]*, *"") *\\*$')
n_keys=$(sed -n '/BEGIN KEYS/,/END KEYS/p' "$MAN1" | grep -c '^\.It Ic ')
check "tui_actions.h has actions" matches "$n_actions" '^[1-9][0-9]+$'
check "one key entry per action ($n_actions)" equals "$n_keys" "$n_actions"
for k in "?/F1" "PgDn/n" "Ctrl\\-L" "Space" "Home/End"; do
	check "key list names $k" contains "$(sed -n '/BEGIN KEYS/,/END KEYS/p' "$MAN1")" ".It Ic \"\\&$k\""
done

# ---- options: every --help option is documented, and only those ----
# Options a --help text lists: --long and -x forms.
help_options() {
	grep -oE '(^|[[:space:]]|\[)--?[a-zA-Z][-a-zA-Z0-9]*' | sed 's/^[[:space:][]*//' | sort -u
}
documented() {	# "Fl -name" / "Fl x" in the page, or in the text given as $2
	if [ $# -ge 2 ]; then
		printf '%s\n' "$2" | grep -qE "(^\.?|[[:space:]])Fl -?${1#-}([[:space:]]|\$)"
	else
		grep -qE "(^\.?|[[:space:]])Fl -?${1#-}([[:space:]]|\$)" "$MAN1"
	fi
}
# The text of one .Ss (up to the next .Ss or .Sh), or of one .Sh.
subsection() { awk -v t=".Ss $1" '$0 == t { f = 1; next } f && /^\.S[sh] / { exit } f' "$MAN1"; }
section() { awk -v t=".Sh $1" '$0 == t { f = 1; next } f && /^\.Sh / { exit } f' "$MAN1"; }
workload_text=$(section "WORKLOAD OPTIONS")
check "accelsizer.1 has a WORKLOAD OPTIONS section" matches "$workload_text" 'Fl -model'

run "$A" --help
check "accelsizer --help exits 0" rc 0
commands=$(printf '%s\n' "$out" | sed -n 's/^ *\(Usage\|or\): *accelsizer \([a-z][a-z]*\).*/\2/p' | sort -u)
check "--help lists the commands" matches "$commands" '^recommend$'
all_opts=$(printf '%s\n' "$out" | help_options)
wizard_text=$(subsection "Wizard options")
for o in $(printf '%s\n' "$out" | sed -n '/^Wizard options/,/^$/p' | help_options); do
	if documented "$o" "$wizard_text"; then tap_ok "accelsizer --help: $o is under Wizard options"
	else tap_not_ok "accelsizer --help: $o is under Wizard options" "no 'Fl $o' in .Ss Wizard options"; fi
done
for c in $commands; do
	run "$A" "$c" --help
	if [ "$rc" != 0 ] && printf '%s' "$err" | grep -q 'not built yet'; then
		tap_skip "accelsizer $c --help" "'$c' is not built yet"
		continue
	fi
	check "command $c has its section in accelsizer.1" contains "$(cat "$MAN1")" ".Ss $c"
	check "accelsizer $c --help exits 0" rc 0
	opts=$(printf '%s\n' "$out" | help_options)
	check "accelsizer $c --help lists options" matches "$opts" '^--help$'
	all_opts=$(printf '%s\n%s\n' "$all_opts" "$opts" | sort -u)
	# Each option in the command's own section, or (for the commands that
	# take them) under WORKLOAD OPTIONS.
	text=$(subsection "$c")
	printf '%s\n' "$out" | grep -q 'Workload options' && text="$text
$workload_text"
	for o in $opts; do
		if documented "$o" "$text"; then tap_ok "accelsizer $c --help: $o is in its section of accelsizer.1"
		else tap_not_ok "accelsizer $c --help: $o is in its section of accelsizer.1" "no 'Fl $o' under .Ss $c"; fi
	done
done
for sub in list show check; do
	check "catalog $sub is in accelsizer.1" contains "$(cat "$MAN1")" "Cm catalog $sub"
done
# The other way round: an option the page documents must still exist.
for o in $(grep -oE '(^|[[:space:]])Fl -[a-z][-a-z0-9]*' "$MAN1" | sed 's/.*Fl /-/' | sort -u); do
	if printf '%s\n' "$all_opts" | grep -qxF -- "$o"; then
		tap_ok "accelsizer.1 documents $o, which some --help lists"
	else
		tap_not_ok "accelsizer.1 documents $o, which some --help lists" "no --help prints $o"
	fi
done

# ---- environment and exit status ----
for v in ACCELSIZER_CATALOG ACCELSIZER_THEME ACCELSIZER_NO_CACHE ACCELSIZER_DEBUG_CACHE NO_COLOR XDG_CONFIG_HOME XDG_CACHE_HOME HOME LC_ALL LANG; do
	check "accelsizer.1 documents \$$v" contains "$(cat "$MAN1")" "Ev $v"
done
for v in ACCELSIZER_CATALOG ACCELSIZER_THEME ACCELSIZER_NO_CACHE ACCELSIZER_DEBUG_CACHE NO_COLOR XDG_CONFIG_HOME XDG_CACHE_HOME HOME; do
	check "\$$v is one the program reads" contains "$(cat "$SRC"/*.c)" "getenv(\"$v\")"
done
check "accelsizer.1 has an EXIT STATUS section" contains "$(cat "$MAN1")" ".Sh EXIT STATUS"

# ---- catalog keys: every key of the loader's tables is in accelsizer-catalog.5 ----
# The tables are X_fields[] (struct catalog_field) in catalog_load.c: rows NUM("key", ...),
# INT/STR/DATE/SOURCED/ENUM/LIST("key", ...), { .key = "key" ...}, PEAK(p),
# ID(T), SOURCES(T), PRICE(T, ...), RENT("term", i), PART("part", ...); defaults.yaml's rows come from
# CATALOG_DEFAULTS in catalog.h.
catalog_keys() {
	sed -n '/^static const struct catalog_field [a-z]*_fields\[\] = {/,/^};/p' "$SRC/catalog_load.c" |
		grep -v '^#' | awk '
		{
			line = $0
			while (match(line, /(NUM|INT|STR|DATE|SOURCED|ENUM|LIST)\("[^"]+"/)) {
				s = substr(line, RSTART, RLENGTH); sub(/^[A-Z]+\("/, "", s); sub(/"$/, "", s)
				print s; line = substr(line, RSTART + RLENGTH)
			}
			line = $0
			while (match(line, /\.key = "[^"]+"/)) {
				s = substr(line, RSTART, RLENGTH); sub(/^\.key = "/, "", s); sub(/"$/, "", s)
				print s; line = substr(line, RSTART + RLENGTH)
			}
			line = $0
			while (match(line, /PEAK\([a-z0-9]+\)/)) {
				s = substr(line, RSTART + 5, RLENGTH - 6)
				print "peak_tflops." s; line = substr(line, RSTART + RLENGTH)
			}
			if ($0 ~ /(^|[^A-Z_])ID\(/) print "id"
			if ($0 ~ /SOURCES\(/) print "sources"
			if ($0 ~ /PRICE\(/) { print "price.usd"; print "price.date"; print "price.source" }
			line = $0
			while (match(line, /RENT\("[a-z0-9_]+"/)) {
				s = substr(line, RSTART + 6, RLENGTH - 7)
				print "rent_" s ".usd_per_gpu_hour"; print "rent_" s ".date"; print "rent_" s ".source"
				line = substr(line, RSTART + RLENGTH)
			}
			line = $0
			while (match(line, /PART\("[a-z0-9_]+"/)) {
				s = substr(line, RSTART + 6, RLENGTH - 7)
				print s ".sku"; print s ".description"; print s ".price_usd"; print s ".power_w"
				line = substr(line, RSTART + RLENGTH)
			}
		}'
	sed -n '/^#define CATALOG_DEFAULTS(X)/,/[^\\]$/p' "$SRC/catalog.h" |
		sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\),.*/\1/p'
	model_figure_keys
}
# A model's figures: X(ID, "key", ...) rows of CATALOG_MODEL_FIGURES.
model_figure_keys() {
	sed -n '/^#define CATALOG_MODEL_FIGURES(X)/,/[^\\]$/p' "$SRC/catalog.h" |
		sed -n 's/^[[:space:]]*X([A-Z_]*, "\([a-z0-9_.]*\)",.*/\1/p'
}
keys=$(catalog_keys | sort -u)
nkeys=$(printf '%s\n' "$keys" | grep -c .)
check "the loader's tables yield many keys ($nkeys)" matches "$nkeys" '^[1-9][0-9][0-9]*$'
for k in memory.capacity_gb peak_tflops.fp8 efficiency.compute price.usd nics.count bom \
	unit_price_usd switch.radix experts.total sliding_window.layers pue max_tp id sources \
	rent_reserved_1y.usd_per_gpu_hour licences usd_per_gpu_year; do
	check "key extraction finds $k" matches "$keys" "^$(printf '%s' "$k" | sed 's/\./\\./g')\$"
done
# The keys `catalog show` prints must be among the extracted ones (a check
# on the extraction itself).
for id in h100-sxm hgx-h100-8 ib-ndr-400 deepseek-v3 defaults; do
	run "$A" catalog show "$id"
	check "catalog show $id exits 0" rc 0
	shown=$(printf '%s\n' "$out" | sed -n 's/^  \([a-z_][a-z0-9_]*\.[a-z0-9_.]*\) .*/\1/p')
	missing=""
	for k in $shown; do
		printf '%s\n' "$keys" | grep -qxF "$k" || missing="$missing $k"
	done
	check "every dotted key 'catalog show $id' prints was extracted" equals "$missing" ""
done
cm_documented() {	# "Cm key" in the page, key followed by a space, comma, or line end
	grep -qE "(^\.?|[[:space:]])Cm $(printf '%s' "$1" | sed 's/\./\\./g')([[:space:],]|\$)" "$2"
}
for k in $keys; do
	if cm_documented "$k" "$MAN5"; then tap_ok "catalog key $k is in accelsizer-catalog.5"
	else tap_not_ok "catalog key $k is in accelsizer-catalog.5" "no 'Cm $k' in $MAN5"; fi
done

# ---- scenario keys, theme roles and glyphs, price-list columns ----
# The engine's field table: [EF_X] = { "key", "section", ... rows (engine_fields.c);
# a custom model's text keys ({ "id", offsetof... in scenario.c) and figures
sc_keys=$( (sed -n 's/^[[:space:]]*\[EF_[A-Z_]*\] = { "\([a-z_]*\)", .*/\1/p' "$SRC/engine_fields.c"
	sed -n 's/^[[:space:]]*{ "\([a-z_]*\)", offsetof(struct catalog_model.*/\1/p' "$SRC/scenario.c"
	model_figure_keys) | sort -u)
check "scenario.c's tables yield keys" matches "$sc_keys" '^tokens_per_s_per_user$'
check "scenario.c's tables yield custom-model keys" matches "$sc_keys" '^experts\.total$'
for k in $sc_keys schema customer opportunity notes workload filters node model custom_model; do
	if cm_documented "$k" "$MAN5"; then
		tap_ok "scenario key $k is in accelsizer-catalog.5"
	else
		tap_not_ok "scenario key $k is in accelsizer-catalog.5"
	fi
done
roles=$(sed -n '/^#define THEME_ROLES(X)/,/[^\\]$/p' "$SRC/theme.h" | sed -n 's/^[[:space:]]*X(\([a-z_]*\),.*/\1/p')
glyphs=$(sed -n '/^#define THEME_GLYPHS(X)/,/[^\\]$/p' "$SRC/theme.h" | sed -n 's/^[[:space:]]*X(\([a-z_]*\),.*/\1/p')
check "theme.h yields roles" matches "$roles" '^bar_over$'
check "theme.h yields glyphs" matches "$glyphs" '^binding$'
for k in $roles; do
	check "theme role $k is in accelsizer-catalog.5" matches "$(cat "$MAN5")" "(Cm|,) $k( ,|\$| \\.)"
done
for k in $glyphs; do
	check "theme glyph $k is in accelsizer-catalog.5" matches "$(cat "$MAN5")" "(Cm|,) $k( ,|\$| \\.)"
done
cols=$(grep -o '"sku", "unit_price"[^}]*' "$SRC/prices.c" | grep -o '"[a-z_]*"' | tr -d '"')
check "prices.c yields its columns" matches "$cols" '^discount_pct$'
for k in $cols; do
	check "price-list column $k is in accelsizer-catalog.5" matches "$(sed -n '/^\.Ss Price lists/,/^\.Sh/p' "$MAN5")" "Cm $k"
done

# The SKUs of the lines the BOM builds itself (rack, PDU, support...) are
# what a price list names them by.
skus=$(sed -n 's/^#define ENGINE_SKU_[A-Z_]* "\([^"]*\)".*/\1/p' "$SRC/engine.h")
check "engine.h yields the BOM's own SKUs" matches "$skus" '^RACK$'
for k in $skus; do
	check "BOM SKU $k is in accelsizer-catalog.5's price lists" contains \
		"$(sed -n '/^\.Ss Price lists/,/^\.Sh/p' "$MAN5")" ".Ql $k"
done

# ---- the ranges accelsizer(1) gives the workload options are the CLI's ----
# They come from the engine's table (engine_limits.c), which scenario files
# and the wizard read too (tests/unit/test_scenario.c, tests/tui/edit.sh).
ranges=$(awk '/^\.It Fl -/ { flag = "-" $3 } /^Range: / { sub(/^Range: /, ""); sub(/\.$/, ""); print flag "\t" $0 }' "$MAN1")
check "accelsizer.1 gives the range of 45 workload options" equals "$(printf '%s\n' "$ranges" | wc -l | tr -d ' ')" 45
while IFS='	' read -r flag range; do
	max=${range#* to }
	max=${max%%,*}
	run "$A" recommend "$flag" "$max" --format csv
	case $err in
	*"out of range"*) tap_not_ok "$flag $max (the documented maximum) is not refused" "$err" ;;
	*) tap_ok "$flag $max (the documented maximum) is not refused" ;;
	esac
	# ten times the maximum (a share such as 0.99 included)
	big=$(awk -v m="$max" 'BEGIN { printf "%.15g", m * 10 }')
	run "$A" recommend "$flag" "$big"
	check "$flag $big: refused with the documented range" equals "$err" \
		"accelsizer: $flag: '$big' is out of range ($range)"
done <<EOF
$ranges
EOF

# ---- the example accelerator in accelsizer-catalog.5 is valid ----
cp -R "$ACCELSIZER_CATALOG" "$TMPD/cat"
chmod -R u+w "$TMPD/cat"	# the source tree is read-only under make distcheck
awk '/^A minimal accelerator file:/ { f = 1; next } f && /^\.Bd/ { g = 1; next } g && /^\.Ed/ { exit } g { print }' \
	"$MAN5" >"$TMPD/cat/accelerators/acme-x1.yaml"
check "the example accelerator was found" contains "$(cat "$TMPD/cat/accelerators/acme-x1.yaml")" "id: acme-x1"
sed -e 's/^id: .*/id: acme-x1-8/' -e 's/^accelerator: .*/accelerator: acme-x1/' \
	"$ACCELSIZER_CATALOG/platforms/hgx-h100-8.yaml" >"$TMPD/cat/platforms/acme-x1-8.yaml"
run "$A" catalog check "$TMPD/cat"
check "catalog check accepts the example accelerator" rc 0
run "$A" catalog show acme-x1 --catalog "$TMPD/cat"
check "catalog show finds it" contains "$out" "ACME X1 96GB"
run "$A" recommend --catalog "$TMPD/cat" --accelerator acme-x1 --model llama-3.1-70b --precision fp8
check "recommend sizes it" rc 0
check "recommend lists it" contains "$out" "acme-x1"

# ---- the examples in accelsizer.1 run ----
# Each .Bd -literal block of EXAMPLES becomes a shell script; lines that need
# a terminal (the wizard) or the user's home are left out; the files the
# examples name are made from the test fixtures.
cp "$TOP_SRCDIR/tests/fixtures/scenarios/good/inference.yaml" "$TMPD/acme-chat.yaml"
chmod u+w "$TMPD/acme-chat.yaml"
printf 'sku,unit_price_usd,discount_pct\nh100-sxm,28500,6\n' >"$TMPD/acme-prices.csv"
# compare's two quotes
cp "$TOP_SRCDIR/tests/tui/llama70b-fp16.yaml" "$TMPD/fp16.yaml"
cp "$TOP_SRCDIR/tests/fixtures/scenarios/good/inference.yaml" "$TMPD/fp8.yaml"
sed -n '/^\.Sh EXAMPLES/,/^\.Sh SEE ALSO/p' "$MAN1" |
	awk '/^\.Bd -literal/ { f = 1; next } /^\.Ed/ { f = 0; print "#"; next } f { print }' |
	sed 's/\\e/\\/g' >"$TMPD/examples.txt"
n=0
# Join continued lines, then run each command.
awk '{ if (sub(/\\$/, "")) { buf = buf $0; next } print buf $0; buf = "" }' "$TMPD/examples.txt" |
	grep '^accelsizer ' >"$TMPD/commands.txt"
while IFS= read -r cmd; do
	case $cmd in
	"accelsizer --scenario"* | *"~"*) continue ;;
	esac
	n=$((n + 1))
	(cd "$TMPD" && eval "\"\$ACCELSIZER\" ${cmd#accelsizer }") >"$TMPD/ex.out" 2>"$TMPD/ex.err" </dev/null
	rc=$?
	err=$(cat "$TMPD/ex.err")
	check "example runs: $cmd" rc 0
done <"$TMPD/commands.txt"
check "the examples were found" matches "$n" '^([5-9]|[1-9][0-9]+)$'
check "the BOM example wrote its CSV" matches "$(head -n 1 "$TMPD/acme-chat-bom.csv" 2>/dev/null)" '^line,category,sku'
check "the BOM example used the price list" contains "$(cat "$TMPD/acme-chat-bom.csv" 2>/dev/null)" "less 6%"
check "the proposal example wrote its HTML" contains "$(head -n 1 "$TMPD/acme-chat.html" 2>/dev/null)" "<!DOCTYPE html>"
check "the proposal example wrote its Markdown" contains "$(head -n 1 "$TMPD/acme-chat.md" 2>/dev/null)" "# Sizing proposal"
check "the CSV example wrote a ranking" matches "$(head -n 1 "$TMPD/ranking.csv" 2>/dev/null)" '^"?rank"?,"?accelerator'

done_testing
