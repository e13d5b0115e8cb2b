#!/bin/sh
# Themes, colour and character-set choices, and the refusals that happen
# before the screen opens: bad theme, unknown theme, bad option, no tty.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

# SGR colour parameters (30-38, 40-48, 90-97, 100-107) in the screen with
# escapes; 39/49 (default colours) and attributes do not count.
colour_codes() {
	printf '%s' "$screen_e" | grep -oE "$(printf '\033')\\[[0-9;]*m" | tr -d '\033[m' | tr ';' '\n' |
		grep -cE '^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$'
}

non_ascii_bytes() {
	printf '%s' "$screen" | LC_ALL=C tr -d '\n\040-\176' | wc -c | tr -d ' '
}

# ---- before the screen opens ----
cat >"$TMPD/bad.yaml" <<'YAML'
name: broken
roles:
  frame: {fg: purple}
YAML
run "$ACCELSIZER" --theme "$TMPD/bad.yaml"
check "bad theme file: exit 2" rc 2
check "bad theme file: file:line:col message" equals "$err" "$TMPD/bad.yaml:3:15: bad colour 'purple' for frame.fg: use default, black, red, green, yellow, blue, magenta, cyan, white, bright-NAME or 0-255"

printf 'name: half\nroles:\n  frame: {fg: red}\n' >"$TMPD/half.yaml"
run "$ACCELSIZER" --theme "$TMPD/half.yaml"
check "theme missing a role: exit 2" rc 2
check "theme missing a role: names it" contains "$err" "half.yaml:3:3: role 'title' missing"

printf 'name: x\nroles: [\n' >"$TMPD/syntax.yaml"
run "$ACCELSIZER" --theme "$TMPD/syntax.yaml"
check "theme YAML syntax error: exit 2" rc 2
check "theme YAML syntax error: position" matches "$err" "syntax.yaml:[0-9]+:[0-9]+: "

run "$ACCELSIZER" --theme nosuch
check "unknown theme name: exit 2" rc 2
check "unknown theme name: message" contains "$err" "accelsizer: --theme: no theme 'nosuch'"

run env ACCELSIZER_THEME=nosuch "$ACCELSIZER"
check "unknown \$ACCELSIZER_THEME: exit 2" rc 2
check "unknown \$ACCELSIZER_THEME: message" contains "$err" "\$ACCELSIZER_THEME: no theme 'nosuch'"

run "$ACCELSIZER" --bogus
check "unknown option: exit 2" rc 2
check "unknown option: message" contains "$err" "accelsizer: unknown option '--bogus'"

run "$ACCELSIZER" --theme
check "option without value: exit 2" rc 2
check "option without value: message" contains "$err" "needs a value"

run "$ACCELSIZER" --scenario "$TMPD/none.yaml"
check "missing scenario: exit 2" rc 2
check "missing scenario: names the file" contains "$err" "none.yaml"

run "$ACCELSIZER" --ascii --help
check "wizard --help: exit 0" rc 0
check "wizard --help: lists --theme" contains "$out" "--theme NAME|FILE"

run "$ACCELSIZER"
check "stdin not a tty: exit 2" rc 2
check "stdin not a tty: message" equals "$err" "accelsizer: the wizard needs a terminal; use 'accelsizer recommend' for scripts"
for t in dark light high-contrast mono; do
	run "$ACCELSIZER" --theme "$t"
	check "shipped theme $t loads (then refuses: no tty)" contains "$err" "the wizard needs a terminal"
done

# stdout redirected but stdin a terminal
rm -f "$TMPD/rc"
tm_new -x 80 -y 24 "'$ACCELSIZER' >'$TMPD/out.txt' 2>'$TMPD/stderr'; echo \$? >'$TMPD/rc'; sleep 60"
tui_exit_status
check "stdout not a tty: exit 2" equals "$rc" "2"
check "stdout not a tty: message" contains "$err" "the wizard needs a terminal"

# ---- on screen ----
tui_start 80 24 --scenario "$SCENARIO"
tui_wait "Input tokens"
tui_screen_escapes
n=$(colour_codes)
if [ "$n" -gt 0 ]; then tap_ok "dark theme uses colours ($n codes)"; else tap_not_ok "dark theme uses colours" "$screen_e"; fi
tui_screen
check "UTF-8 locale: bars with block glyphs" contains "$screen" "█"
check "UTF-8 locale: step separator" contains "$screen" "1 Workload › 2 Constraint"

tui_start_env 80 24 NO_COLOR=1 -- --scenario "$SCENARIO"
tui_wait "Input tokens"
tui_screen_escapes
check "NO_COLOR: no colour codes" equals "$(colour_codes)" "0"
check "NO_COLOR: current step in reverse video" matches "$screen_e" "$(printf '\033')\\[[0-9;]*7m ?1 Workload"
tui_keys ?
tui_wait "Theme:"
check_screen "NO_COLOR: help names the mono theme" "Theme: mono;"

# a terminal without colours gets the mono theme whatever was asked
tui_start_env 80 24 TERM=vt100 -- --theme dark --scenario "$SCENARIO"
tui_wait "Input tokens"
tui_screen_escapes
check "no-colour terminal: no colour codes" equals "$(colour_codes)" "0"
tui_keys F1
check_screen "no-colour terminal: the mono theme" "Theme: mono;"

tui_start_env 80 24 NO_COLOR=1 -- --theme light --scenario "$SCENARIO"
tui_wait "Input tokens"
tui_screen_escapes
n=$(colour_codes)
if [ "$n" -gt 0 ]; then tap_ok "--theme overrides NO_COLOR"; else tap_not_ok "--theme overrides NO_COLOR" "$screen_e"; fi

cp "$TOP_SRCDIR/themes/high-contrast.yaml" "$TMPD/mine.yaml"
tui_start_env 80 24 ACCELSIZER_THEME="$TMPD/mine.yaml" -- --scenario "$SCENARIO"
tui_wait "Input tokens"
tui_keys F1
check_screen "\$ACCELSIZER_THEME picks a theme file" "Theme: high-contrast;"

tui_start_env 80 24 LC_ALL=C -- --scenario "$SCENARIO"
check_screen "C locale: ASCII step bar" "1 Workload > 2 Constraint > 3 Silicon? > 4 Node > 5 Validate"
tui_screen
check "C locale: nothing but ASCII on screen" equals "$(non_ascii_bytes)" "0"
check "C locale: ASCII bars and state marks" matches "$screen" "mem +[#.]+ +[0-9]+%[+~x]"
check "C locale: ASCII separator" contains "$screen" "-- Fit per accelerator --"
tui_keys 2
tui_wait "What the workload needs"
tui_screen
check "C locale: step 2 is ASCII too" equals "$(non_ascii_bytes)" "0"
check "C locale: ASCII binding marker" matches "$screen" "[0-9]+% [+~x]\\*"

tui_start 120 40 --ascii --scenario "$SCENARIO"
tui_wait "Input tokens"
tui_screen
check "--ascii in a UTF-8 locale: nothing but ASCII" equals "$(non_ascii_bytes)" "0"
check "--ascii: vertical separator" matches "$screen" "Precision .*\\|"
tui_keys 5
tui_wait "Validation plan"
tui_screen
check "--ascii: thresholds in ASCII" matches "$screen" "(>=|<=) [0-9]"
check "--ascii: step 5 is ASCII" equals "$(non_ascii_bytes)" "0"

done_testing
