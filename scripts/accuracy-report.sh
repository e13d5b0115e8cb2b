#!/bin/sh
# accuracy-report.sh: runs `accelsizer accuracy` on the source tree's
# catalog and writes its figures as Markdown into README.md between the
# "accuracy" markers (the README's accuracy section is generated, never
# edited by hand; docs/accuracy.md points to it).  `make docs` runs it.
#
#   scripts/accuracy-report.sh [-b BINARY] [-o FILE]
#
# BINARY defaults to $ACCELSIZER, then build/accelsizer, then accelsizer on
# $PATH; FILE to README.md.  Rerunning changes nothing unless the engine,
# the catalog or its published results did.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${ACCELSIZER:-}
readme=$top/README.md
while [ $# -gt 0 ]; do
	case $1 in
	-b) bin=$2; shift 2 ;;
	-o) readme=$2; shift 2 ;;
	-h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "accuracy-report.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ -z "$bin" ]; then
	if [ -x "$top/build/accelsizer" ]; then bin=$top/build/accelsizer
	else bin=$(command -v accelsizer || true); fi
fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "accuracy-report.sh: no accelsizer binary (build it, or give -b)" >&2; exit 2; }
grep -q '^<!-- accuracy: begin' "$readme" || { echo "accuracy-report.sh: no '<!-- accuracy: begin' marker in $readme" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/accuracy-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
LC_ALL=C.UTF-8
export LC_ALL
"$bin" accuracy --catalog "$top/catalog" --format yaml >"$tmp/acc.yaml"
"$bin" catalog check "$top/catalog" >"$tmp/check.txt"
set +e
"$bin" accuracy --catalog "$top/catalog" --check >/dev/null 2>"$tmp/check-err.txt"
sed -i 's/^accuracy --check: //' "$tmp/check-err.txt"
set -e

# The YAML is flat enough to read with awk: items start with "- key:",
# fields are "  key: value".
awk -v check="$(cat "$tmp/check-err.txt")" -v counts="$(sed -n 's/^published results OK: //p' "$tmp/check.txt")" '
function flush() {
	if (sec == "results" && r["id"] != "") {
		total++
		if (r["not_mapped"] != "null") unmapped++
		if (r["role"] == "calibration")
			cal[++ncal] = sprintf("| `%s` | %s | %s | %s | %s |", r["id"], r["accelerator"], r["metric"],
				num(r["published"]), r["predicted"] == "null" ? "not mapped" : num(r["predicted"]) " (" pct(r["error_pct"]) ")")
	}
	if (sec == "summary" && r["role"] != "")
		row[r["role"] == "calibration" ? 1 : 2, ++nrow[r["role"] == "calibration" ? 1 : 2]] = \
			sprintf("| %s | %s | %s | %s | %s (`%s`) |", r["family"], r["workload"], r["n"],
				pct(r["median_abs_error_pct"], 1), pct(r["worst_error_pct"]), r["worst"])
	delete r
}
function num(v,   s, neg, i, out) {
	v = sprintf(v >= 100 ? "%.0f" : v >= 1 ? "%.2f" : "%.3f", v)
	s = v; sub(/\..*/, "", s); frac = v; if (!sub(/^[^.]*/, "", frac)) frac = ""
	out = ""
	for (i = length(s); i > 3; i -= 3) out = "," substr(s, i - 2, 3) out
	return substr(s, 1, i) out frac
}
function pct(v, abs) { return abs ? sprintf("%.1f%%", v) : sprintf("%+.1f%%", v) }
/^[a-z_]+:$/ { flush(); sec = substr($0, 1, length($0) - 1); next }
/^- / { flush(); sub(/^- /, "  ") }
/^  [a-z_]+: / { k = $1; sub(/:$/, "", k); v = $0; sub(/^  [a-z_]+: /, "", v); r[k] = v; next }
/^[a-z_]+:/ { flush() }
END {
	flush()
	print "The published results the engine is checked against are data: the ledger"
	print "`catalog/published/*.yaml`, each entry with its source (repository, path"
	print "and commit, or URL), its setup and its role. `accelsizer accuracy` runs"
	print "every entry through the engine; this section is its output"
	print "(`scripts/accuracy-report.sh`, run by `make docs`). The ledger holds"
	print "published results: " counts "."
	print ""
	print "**Calibration** results are the ones the efficiency figures were set from"
	print "(each figure names them in `calibrated_from`):"
	print ""
	print "| entry | accelerator | metric | published | accelsizer |"
	print "|---|---|---|---:|---:|"
	for (i = 1; i <= ncal; i++) print cal[i]
	print ""
	print "**Validation** results only judge the model. Per accelerator family and"
	print "workload class (entries the engine maps; " unmapped " of " total " are listed by"
	print "`accelsizer accuracy` as not mapped, with the reason):"
	print ""
	print "| family | workload | n | median \\|error\\| | worst |"
	print "|---|---|---:|---:|---|"
	for (i = 1; i <= nrow[2]; i++) print row[2, i]
	print ""
	print "`accelsizer accuracy --check` holds the validation set to a median"
	print "|error| of 10% and no entry over 25%; today: " check "."
	print ""
	print "Every prediction in `recommend`/`sweep` CSV and YAML and in the wizard"
	print "carries the band these errors give it (`*_low`, `*_high`, `band_n`;"
	print "\"±12% (6 published)\" or \"unvalidated\"). How each figure is modelled and"
	print "the older hand-made comparisons: [docs/accuracy.md](docs/accuracy.md)."
}' "$tmp/acc.yaml" >"$tmp/block"

awk -v block="$tmp/block" '
	/^<!-- accuracy: begin/ { print; print ""; while ((getline l < block) > 0) print l; print ""; skip = 1; next }
	/^<!-- accuracy: end/ { skip = 0 }
	!skip { print }' "$readme" >"$tmp/readme"
if ! cmp -s "$tmp/readme" "$readme"; then
	cat "$tmp/readme" >"$readme"
	echo "accuracy-report.sh: updated the accuracy section of $readme"
fi
