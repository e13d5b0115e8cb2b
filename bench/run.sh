#!/bin/sh
# make bench: times, instruction counts and memory of accelsizer on this
# machine, with the targets they are held to.  Run from the build folder:
#   sh bench/run.sh ACCELSIZER BENCH TOP_SRCDIR
# Times vary with the machine and its load; instruction counts (callgrind)
# repeat exactly, so they are the figures to compare between commits.
set -u
bin=${1:?usage: run.sh ACCELSIZER BENCH TOP_SRCDIR}
bench=${2:?usage: run.sh ACCELSIZER BENCH TOP_SRCDIR}
top=${3:?usage: run.sh ACCELSIZER BENCH TOP_SRCDIR}
export LC_ALL=C.UTF-8
export ACCELSIZER_CATALOG=${ACCELSIZER_CATALOG:-$top/catalog}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/accelsizer-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The validated-catalog cache in a folder of our own, so that "cold" (no
# image yet: parse + write) and "warm" (image read) are measured, never
# the user's ~/.cache.
unset ACCELSIZER_NO_CACHE
export XDG_CACHE_HOME="$tmp/cache"
status=0

line() { printf '%s\n' "------------------------------------------------------------------------"; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f MB", k / 1024 }'; }
millions() { awk -v n="$1" 'BEGIN { printf "%.2f M", n / 1e6 }'; }

line
echo "1. Times (bench/bench)"
line
"$bench" || status=1
echo

# ---- instruction counts ----
line
echo "2. Instruction counts"
line
if perf stat -e instructions -x, true 2>"$tmp/perf" >/dev/null &&
	! grep -q 'not supported\|not counted' "$tmp/perf" && grep -q instructions "$tmp/perf"; then
	perf_ok=1
	echo "perf stat -e instructions works here: hardware counts (user + kernel) below."
else
	perf_ok=0
	echo "perf stat -e instructions: not available here (perf stat -e instructions true says"
	echo "'$(sed -n 's/^\([^,]*\),.*/\1/p' "$tmp/perf" | head -n 1)'); callgrind counts only."
fi
have_cg=0
command -v valgrind >/dev/null 2>&1 && have_cg=1
[ $have_cg = 1 ] || echo "valgrind not found: no callgrind counts (apt-get install valgrind)."

if [ $have_cg = 1 ]; then
	echo
	echo "per operation, callgrind (instructions, user space, exact):"
	valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$tmp/ops.%p" \
		"$bench" --count >/dev/null 2>"$tmp/ops.err" || { status=1; tail -5 "$tmp/ops.err"; }
	for f in "$tmp"/ops.*; do
		case $f in *.err) continue ;; esac
		awk '
			/^desc: Trigger: Client Request: / { name = $5 }
			/^(totals|summary): / { tot = $2 }
			END {
				if (name == "") exit
				split(name, p, "/")
				printf "  %-26s %14.0f instructions per call (%d calls)\n", p[1], tot / p[2], p[2]
			}' "$f"
	done | sort -k1,1 >"$tmp/ops.txt"
	# keep the bench's own order: load, wizard, engine 1x/10x/100x
	for k in catalog-load wizard-key-field wizard-key-move wizard-recompute \
		engine-inference-1x engine-pretrain-1x engine-finetune-1x \
		engine-inference-10x engine-pretrain-10x engine-finetune-10x \
		engine-inference-100x engine-pretrain-100x engine-finetune-100x; do
		grep "^  $k " "$tmp/ops.txt"
	done
	echo
	echo "linear in catalog size (instructions per accelerator, 10x and 100x catalogs vs 1x):"
	for sc in inference pretrain finetune; do
		awk -v sc="$sc" '
			$1 == "engine-" sc "-1x" { a = $2 }
			$1 == "engine-" sc "-10x" { b = $2 }
			$1 == "engine-" sc "-100x" { c = $2 }
			END {
				if (a > 0) {
					r = (b / 10 > c / 100 ? b / 10 : c / 100) / a
					printf "  %-10s 10x %.3fx, 100x %.3fx   target linear: %s\n", sc,
						b / 10 / a, c / 100 / a, r < 1.25 ? "met" : "MISSED"
				}
			}' "$tmp/ops.txt"
	done
fi

# a whole process, start to exit: one callgrind run; prints the count and
# where the catalog came from (the parse and libyaml's share of it, or the
# cache image)
cg() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/p.out" "$@" >/dev/null 2>"$tmp/p.err"
	rc=$?
	ir=$(awk '/^(totals|summary): / { print $2; exit }' "$tmp/p.out")
	callgrind_annotate --inclusive=yes "$tmp/p.out" >"$tmp/p.txt" 2>/dev/null
	# loading the catalog: through the cache when it is on (the parse
	# and the image's writing or reading), catalog_load alone when not
	cat=$(awk '/:catalog_bundled_load \[/ { gsub(",", "", $1); print $1; exit }' "$tmp/p.txt")
	cat2=$(awk '/:catalog_cache_load \[/ { gsub(",", "", $1); print $1; exit }' "$tmp/p.txt")
	[ -n "$cat2" ] && cat=$(( ${cat:-0} + cat2 ))
	[ -n "$cat" ] || cat=$(awk '/:catalog_load \[/ { gsub(",", "", $1); print $1; exit }' "$tmp/p.txt")
	yp=$(awk '/:yaml_parser_parse \[/ { gsub(",", "", $1); print $1; exit }' "$tmp/p.txt")
	printf '%8s (exit %s; loading the catalog %s, of which libyaml parser %s)' \
		"$(millions "$ir")" "$rc" "$(millions "${cat:-0}")" "$(millions "${yp:-0}")"
}

# the bundled catalog on a fresh install (no cache folder: the image linked
# into the program), then a user catalog (the bundled one copied and
# edited, so it is not the bundled one): no cache, cold (first run: parse
# + write the image), warm (image read)
user_cat=$tmp/user-catalog
cp -R "$ACCELSIZER_CATALOG" "$user_cat" && echo "# edited: a user catalog" >>"$user_cat/defaults.yaml"
proc() {
	name=$1
	shift
	if [ $have_cg = 1 ]; then
		rm -rf "$XDG_CACHE_HOME"
		printf '  %-30s bundled  %s\n' "$name" "$(cg "$@")"
		awk '/^(totals|summary): / { print $2; exit }' "$tmp/p.out" >"$tmp/last-bundled"
		[ -n "$(ls -A "$XDG_CACHE_HOME" 2>/dev/null)" ] && echo "    (the bundled run wrote a cache image: it should not)"
		printf '  %-30s no cache %s\n' "  user catalog" \
			"$(ACCELSIZER_NO_CACHE=1 ACCELSIZER_CATALOG=$user_cat; export ACCELSIZER_NO_CACHE ACCELSIZER_CATALOG; cg "$@")"
		rm -rf "$XDG_CACHE_HOME"
		printf '  %-30s cold     %s\n' "" "$(ACCELSIZER_CATALOG=$user_cat; export ACCELSIZER_CATALOG; cg "$@")"
		printf '  %-30s warm     %s\n' "" "$(ACCELSIZER_CATALOG=$user_cat; export ACCELSIZER_CATALOG; cg "$@")"
		awk '/^(totals|summary): / { print $2; exit }' "$tmp/p.out" >"$tmp/last-ir"
	fi
	if [ $perf_ok = 1 ]; then
		perf stat -e instructions -x, "$@" >/dev/null 2>"$tmp/perf"
		printf '  %-30s %8s instructions (perf stat, user + kernel, warm)\n' "$name" \
			"$(millions "$(awk -F, '/instructions/ { print $1; exit }' "$tmp/perf")")"
	fi
}

echo
echo "whole processes (start, load the catalog, evaluate, print, exit), in instructions;"
echo "bundled = the bundled catalog on a fresh install (the image linked into the program);"
echo "for a user catalog: cold = first run after a catalog edit (parse + write the cache"
echo "image), warm = image read:"
if ! "$bin" recommend >/dev/null 2>"$tmp/rec.err"; then
	echo "  accelsizer recommend fails here, so its count would mean nothing:"
	sed 's/^/    /' "$tmp/rec.err" | head -n 5
	status=1
fi
proc "recommend" "$bin" recommend
rec_ir=$(cat "$tmp/last-ir" 2>/dev/null || echo 0)
rec_bundled=$(cat "$tmp/last-bundled" 2>/dev/null || echo 0)
proc "recommend --format csv" "$bin" recommend --format csv
proc "recommend --workload pretrain" "$bin" recommend --workload pretrain
pre_ir=$(cat "$tmp/last-ir" 2>/dev/null || echo 0)
pre_bundled=$(cat "$tmp/last-bundled" 2>/dev/null || echo 0)
proc "recommend --workload finetune" "$bin" recommend --workload finetune
proc "catalog check (always parses)" "$bin" catalog check
echo

# ---- memory ----
line
echo "3. Memory"
line
if [ -x /usr/bin/time ]; then
	/usr/bin/time -v "$bin" recommend >/dev/null 2>"$tmp/time"
	kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time")
	echo "  recommend, max resident (/usr/bin/time -v):  $(mb "$kb")"
else
	echo "  /usr/bin/time not found: no max RSS for recommend (apt-get install time)"
fi
wiz_hwm=
if out=$(sh "$top/bench/wizard-rss.sh" "$bin" 2>"$tmp/wiz"); then
	wiz_hwm=${out% *}
	echo "  wizard in tmux 120x40, peak resident (VmHWM): $(mb "$wiz_hwm") (now $(mb "${out#* }"))"
else
	echo "  wizard in tmux: not measured: $(cat "$tmp/wiz")"
fi
echo

# ---- sweep ----
line
echo "4. accelsizer sweep"
line
# grids of valid points only (every prompt within every model's context):
# an invalid point costs next to nothing and would flatter the rate
train_models=llama-2-7b,llama-2-13b,llama-2-70b,llama-3.1-8b,llama-3.1-70b,llama-3.1-405b,mistral-7b,mixtral-8x7b
if "$bin" sweep --help >/dev/null 2>&1; then
	for args in \
		"--models llama-2-7b,llama-2-70b,llama-3.1-405b --precisions fp16,fp8 --concurrency 1..256 --input-tokens 128,512,1024,2048 --output-tokens 128,256,512,1024" \
		"--workload pretrain --models $train_models --precisions bf16,fp8 --seq-len 1024,2048,4096" \
		"--workload finetune --models $train_models --precisions bf16,fp8 --seq-len 1024,2048,4096"; do
		# shellcheck disable=SC2086
		"$bin" sweep $args --stats >/dev/null 2>"$tmp/sweep" || status=1
		echo "  sweep $args"
		sed 's/^/    /' "$tmp/sweep"
	done
else
	echo "  accelsizer sweep is not built yet"
fi
echo

# ---- targets ----
line
echo "5. Whole-process and memory targets"
line
if [ $have_cg = 1 ]; then
	v=met
	[ "$rec_ir" -lt 20000000 ] 2>/dev/null || v=MISSED
	printf '  target %-44s %s\n' "recommend process, warm: $(millions "$rec_ir") < 20 M" "$v"
	v=met
	[ "$rec_bundled" -le 2000000 ] 2>/dev/null || v=MISSED
	printf '  target %-44s %s\n' "recommend, fresh install: $(millions "$rec_bundled") <= 2 M" "$v"
	# the bundled catalog is read from the built-in image on every run,
	# so that is its warm run; a user catalog's cache image is shown too
	v=met
	[ "$pre_bundled" -lt 2000000 ] 2>/dev/null || v=MISSED
	printf '  target %-44s %s\n' "recommend --workload pretrain: $(millions "$pre_bundled") < 2 M" "$v"
	printf '  (info) %-44s\n' "the same on a user catalog's cache image: $(millions "$pre_ir")"
	# the engine_run budgets are times (section 1, 50 us each); their
	# instruction counts are the figures that repeat between runs
	for sc in inference pretrain finetune; do
		awk -v sc="$sc" '$1 == "engine-" sc "-1x" {
			printf "  (info) engine_run, whole catalog, %-10s %9d instructions (budget: 50 us, section 1)\n", sc ":", $2 }' \
			"$tmp/ops.txt"
	done
fi
if [ -n "$wiz_hwm" ]; then
	v=met
	[ "$wiz_hwm" -lt 16384 ] || v=MISSED
	printf '  target %-44s %s\n' "wizard in tmux: $(mb "$wiz_hwm") < 16 MB" "$v"
fi
exit $status
