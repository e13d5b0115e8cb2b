# Shared helpers for the shell tests: each test prints one TAP line, so the
# automake TAP driver counts every assertion a person would recognise.
#   . "$TOP_SRCDIR/tests/lib.sh"
#   run "$ACCELSIZER" catalog list      # sets $out, $err, $rc
#   check "lists h100" contains "$out" "H100"
#   done_testing

: "${ACCELSIZER:?run through make check}"
: "${TOP_SRCDIR:?run through make check}"
tap_n=0
tap_failed=0
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/accelsizer-test.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT

run() {
	"$@" >"$TMPD/out" 2>"$TMPD/err" </dev/null
	rc=$?
	out=$(cat "$TMPD/out")
	err=$(cat "$TMPD/err")
}

tap_ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

tap_not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	shift
	for line in "$@"; do printf '#   %s\n' "$line"; done
}

# check NAME rc EXPECTED            — last run's exit status
# check NAME contains HAYSTACK NEEDLE
# check NAME lacks HAYSTACK NEEDLE
# check NAME equals ACTUAL EXPECTED
# check NAME matches HAYSTACK ERE
check() {
	name=$1 kind=$2
	shift 2
	case $kind in
	rc) if [ "$rc" = "$1" ]; then tap_ok "$name"; else tap_not_ok "$name" "exit $rc, expected $1" "stderr: $err"; fi ;;
	contains) case $1 in *"$2"*) tap_ok "$name" ;; *) tap_not_ok "$name" "expected to contain: $2" "got: $(printf '%s' "$1" | head -c 2000)" ;; esac ;;
	lacks) case $1 in *"$2"*) tap_not_ok "$name" "expected not to contain: $2" ;; *) tap_ok "$name" ;; esac ;;
	equals) if [ "$1" = "$2" ]; then tap_ok "$name"; else tap_not_ok "$name" "got: $1" "expected: $2"; fi ;;
	matches) if printf '%s\n' "$1" | grep -Eq -- "$2"; then tap_ok "$name"; else tap_not_ok "$name" "expected to match: $2" "got: $(printf '%s' "$1" | head -c 2000)"; fi ;;
	*) tap_not_ok "$name" "unknown check kind $kind" ;;
	esac
}

# csv_col FILE COLUMN [ROW]: the value of COLUMN (by header name) in data
# row ROW (1 = the first after the header), RFC 4180 quoting understood.
csv_col() {
	[ -f "$1" ] || { echo "MISSING $1"; return; }
	awk -v want="$2" -v row="${3:-1}" '
	function split_csv(line, out,    n, i, c, q, f) {
		n = 0; f = ""; q = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q) {
				if (c == "\"") {
					if (substr(line, i + 1, 1) == "\"") { f = f "\""; i++ }
					else q = 0
				} else f = f c
			} else if (c == "\"") q = 1
			else if (c == ",") { out[++n] = f; f = "" }
			else f = f c
		}
		out[++n] = f
		return n
	}
	NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) if (h[i] == want) col = i; next }
	NR == row + 1 { split_csv($0, v); print v[col]; exit }
	' "$1"
}

# calc EXPR: awk arithmetic printed to the cent (money worked out here from
# the catalog's and a price list's figures, not read back from the program).
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }

# near NAME A B: |A - B| <= 0.02, a cent either way for sums of rounded parts.
near() {
	if awk -v a="$2" -v b="$3" 'BEGIN { d = a - b; exit !(d <= 0.02 && d >= -0.02) }'; then
		tap_ok "$1"
	else
		tap_not_ok "$1" "got: $2" "expected: $3"
	fi
}

# same [--nonempty] NAME A B: files A and B byte for byte (the start of
# their diff when not); --nonempty also requires A to hold something.
same() {
	need=
	[ "$1" = --nonempty ] && { need=1; shift; }
	if { [ -z "$need" ] || [ -s "$2" ]; } && cmp -s "$2" "$3"; then
		tap_ok "$1"
	else
		tap_not_ok "$1" "$(diff "$2" "$3" 2>&1 | head -n 10)"
	fi
}

# catalog_refuses REFUSED-NAME MESSAGE-NAME KIND TEXT: `catalog check` of
# ./cat, an edited copy of the catalog, exits 2 and its stderr KIND
# (contains | matches) TEXT; the copy is removed after.
catalog_refuses() {
	run "$ACCELSIZER" catalog check --catalog cat
	check "$1" rc 2
	check "$2" "$3" "$err" "$4"
	rm -r cat
}

# refused NAME EXPECTED-MESSAGE COMMAND...: exit 2 with that message, fast
# (a FIFO must not block: the command runs with a 10 s guard; 124 = hung).
# numbers.sh and limits.sh have their own, for a flag and its value.
refuse_with() {
	name=$1 want=$2
	shift 2
	run timeout 10 "$@"
	if [ "$rc" = 2 ] && case $err in *"$want"*) true ;; *) false ;; esac; then
		tap_ok "$name"
	else
		tap_not_ok "$name" "exit $rc (124 = hung)" "expected: $want" "stderr: $err"
	fi
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" = 0 ]
}
