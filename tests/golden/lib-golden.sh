# Shared by golden.sh (the test) and update.sh (regenerates the goldens):
# how a golden CLI invocation and a wizard screen are recorded.  Sourced;
# needs $ACCELSIZER (the binary) and $TOP_SRCDIR.  Nothing is written under
# $TOP_SRCDIR except by update.sh, so the test runs with a read-only source
# tree (make distcheck).

GOLDEN_SRC=$TOP_SRCDIR/tests/golden
GOLDEN_LIST=$GOLDEN_SRC/cli.list

# The same environment for every recording: the bundled catalog through a
# relative link (so no absolute path can reach an output), no cache (as in
# the rest of make check), a fixed date for BOM summaries, and no user
# configuration or theme.
golden_env() {
	LC_ALL=C.UTF-8
	ACCELSIZER_CATALOG=catalog
	ACCELSIZER_NO_CACHE=1
	SOURCE_DATE_EPOCH=1767225600	# 2026-01-01 00:00:00 UTC
	HOME=$1/home
	XDG_CONFIG_HOME=$1/home/.config
	XDG_CACHE_HOME=$1/home/.cache
	export LC_ALL ACCELSIZER_CATALOG ACCELSIZER_NO_CACHE SOURCE_DATE_EPOCH HOME \
		XDG_CONFIG_HOME XDG_CACHE_HOME
	unset ACCELSIZER_THEME ACCELSIZER_DEBUG_CACHE COLUMNS LINES 2>/dev/null || true
	mkdir -p "$1/home"
}

# golden_links DIR: the links every invocation and wizard run sees.
golden_links() {
	ln -s "$TOP_SRCDIR/catalog" "$1/catalog"
	ln -s "$TOP_SRCDIR/tests/fixtures" "$1/fixtures"
	ln -s "$TOP_SRCDIR/tests/tui" "$1/tui"
}

# golden_slug LINE: the recording's file name (without .txt), readable and
# short enough for the tar format make dist uses (99 characters a path).
golden_slug() {
	s=$(printf '%s' "$1" | tr -c 'A-Za-z0-9._\n' '-' | tr -s '-' | sed 's/^-//; s/-$//')
	[ -n "$s" ] || s=no-arguments
	if [ "${#s}" -gt 60 ]; then
		sum=$(printf '%s' "$1" | cksum | cut -d' ' -f1)
		s=$(printf '%s' "$s" | cut -c1-50)-$sum
	fi
	printf '%s' "$s"
}

# golden_lines: the invocations of cli.list, comments and blank lines left out.
golden_lines() {
	grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$GOLDEN_LIST"
}

# golden_section TITLE FILE: one section of a recording.  The bytes are
# copied as they are; a last line without a newline is marked, so that the
# next section's title cannot hide the difference.
golden_section() {
	printf -- '--- %s\n' "$1"
	cat "$2"
	if [ -s "$2" ] && [ "$(tail -c1 "$2" | od -An -c | tr -d ' ')" != '\n' ]; then
		printf '\n\\ no newline at end\n'
	fi
}

# golden_record_cli LINE OUT WORK: runs one invocation in the empty folder
# WORK/run and writes its recording to OUT: the command, stdout, stderr,
# the exit status and every file it left in the folder.
golden_record_cli() {
	cmdline=$1 rec=$2 work=$3
	run=$work/run
	rm -rf "$run"
	mkdir "$run"
	golden_links "$run"
	eval "set -- $cmdline"
	(cd "$run" && exec "$ACCELSIZER" "$@" >"$work/stdout" 2>"$work/stderr" </dev/null)
	status=$?
	{
		printf '$ accelsizer %s\n' "$cmdline"
		golden_section stdout "$work/stdout"
		golden_section stderr "$work/stderr"
		printf -- '--- exit %s\n' "$status"
		for f in $(cd "$run" && find . -mindepth 1 ! -type l | sed 's|^\./||' | LC_ALL=C sort); do
			if [ -f "$run/$f" ]; then
				golden_section "file $f" "$run/$f"
			else
				printf -- '--- folder %s\n' "$f"
			fi
		done
	} >"$rec"
}

# golden_cli OUTDIR WORK: records every invocation of cli.list into
# OUTDIR/cli/SLUG.txt; refuses two lines with the same slug.
golden_cli() {
	mkdir -p "$1/cli"
	golden_lines >"$2/lines"
	while IFS= read -r line; do
		slug=$(golden_slug "$line")
		if [ -e "$1/cli/$slug.txt" ]; then
			echo "golden: two invocations record to cli/$slug.txt: make one line differ" >&2
			return 1
		fi
		golden_record_cli "$line" "$1/cli/$slug.txt" "$2"
	done <"$2/lines"
}

# ---- the wizard's screens (needs tests/tui/lib-tmux.sh sourced) ----

# golden_shot OUTDIR NAME TEXT: waits until the screen shows TEXT and has
# settled, then records it as OUTDIR/screens/NAME.txt.  A screen that never
# shows TEXT is recorded all the same (the comparison then fails on it) and
# named on stderr.
golden_shot() {
	tui_wait "$3" || echo "golden: screen $2 never showed '$3'" >&2
	tui_settle
	printf '%s\n' "$screen" >"$1/screens/$2.txt"
}

# golden_wizard OUTDIR SIZE: the wizard at SIZE (WxH) in $TMPD, which holds
# the links of golden_links.  Every step of the known scenario, step 5's
# other half, help, compare and the trade-off chart; step 1 of a pretraining and of a custom
# fine-tuning scenario; step 1 with no scenario (the defaults).
golden_wizard() {
	o=$1 size=$2
	w=${size%x*} h=${size#*x}
	mkdir -p "$o/screens"
	set -- ACCELSIZER_CATALOG=catalog ACCELSIZER_NO_CACHE=1 "HOME=$HOME" \
		"XDG_CONFIG_HOME=$XDG_CONFIG_HOME" "XDG_CACHE_HOME=$XDG_CACHE_HOME"

	tui_start_env "$w" "$h" "$@" -- --scenario tui/llama70b-fp16.yaml
	golden_shot "$o" "$size-step1" "Top ranked "
	tui_goto Notes	# the last field
	golden_shot "$o" "$size-step1-end" "Opportunity"
	tui_keys n
	golden_shot "$o" "$size-step2" "What the workload needs"
	tui_keys 3
	golden_shot "$o" "$size-step3" "Ranked by lowest capex"
	tui_keys 4
	golden_shot "$o" "$size-step4" "Node shape"
	# n, not 5: on step 4 the cursor is on the GPU count, where a digit
	# starts typing a value (issue 12)
	tui_keys n
	golden_shot "$o" "$size-step5" "Validation plan:"
	tui_keys Tab
	golden_shot "$o" "$size-step5-tab" "Bill of materials: "
	tui_keys '?'
	golden_shot "$o" "$size-help" "show this help"
	tui_keys Escape 3
	golden_shot "$o" "$size-step3-again" "Ranked by lowest capex"
	# Space marks without moving the cursor (issue 12): Down between
	tui_keys Space Down Space c
	golden_shot "$o" "$size-compare" "Memory fit"
	# the trade-off chart of the two marked (issue 15 item 10)
	tui_keys Escape g
	golden_shot "$o" "$size-chart" "operating point"
	# the pin (a) beside the current after Precision fp16 -> fp8 (Home is
	# Class, two Downs Precision; SS3 H is Home as xterm sends it)
	tui_keys Escape 1
	tui_wait "Input tokens"
	tui_keys a
	tui_wait "Pinned: "
	tm send-keys -t t -l "$(printf '\033OH')"
	tui_keys Down Down Right
	tui_wait_re "^ Precision +. fp8 "
	tui_keys a
	golden_shot "$o" "$size-pin" "Pinned vs current:"
	tm_stop

	tui_start_env "$w" "$h" "$@" -- --scenario fixtures/scenarios/good/pretrain-minimal.yaml
	golden_shot "$o" "$size-step1-pretrain" "Top ranked "
	tm_stop
	tui_start_env "$w" "$h" "$@" -- --scenario fixtures/scenarios/good/finetune-custom.yaml
	golden_shot "$o" "$size-step1-finetune-custom" "Top ranked "
	tm_stop
	tui_start_env "$w" "$h" "$@" --
	golden_shot "$o" "$size-step1-default" "Top ranked "
	tm_stop
}
