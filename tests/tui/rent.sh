#!/bin/sh
# The wizard loads the same price list as the CLI (issue 17 items 1 and
# 3): steps 3 and 4 say its currency, step 4 shows the licences, the
# margin and the support term of the list, and both steps show rent or
# buy with the sentence `recommend` writes.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

SCEN="$TOP_SRCDIR/tests/fixtures/scenarios/good/inference.yaml"
EUR="$TOP_SRCDIR/tests/fixtures/prices/good/quote-eur.csv"

# "878472.00" -> "EUR 878,472.00", as the wizard writes money to the cent.
eur() { tui_money "$1" "${2:-EUR }"; }
whole() { eur "$(awk -v v="$1" 'BEGIN { printf "%d", int(v + 0.5) }')" "$2"; }

run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --format csv -o "$TMPD/rec.csv"
check "recommend --prices EUR: exit 0" rc 0
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --format yaml
statement=$(printf '%s\n' "$out" | sed -n 's/^ *rent_or_buy: //p' | head -1)
check "recommend yaml has the rent-or-buy sentence" matches "$statement" '^buying '

tui_start 120 40 --scenario "$SCEN" --prices "$EUR"
tui_wait "Input tokens"
tui_keys 4
tui_wait "Parallel layout"
check_screen "step 4: capex in the list's currency, to the cent" \
	"Capex                  $(eur "$(csv_col "$TMPD/rec.csv" capex_eur)")  $(csv_col "$TMPD/rec.csv" unpriced_lines) unpriced lines NOT in it"
check_screen "step 4: the licences line" \
	"Licences               $(eur "$(csv_col "$TMPD/rec.csv" capex_licences_eur)")  software per GPU, 5 years"
check_screen "step 4: the margin line" \
	"Margin                 $(eur "$(csv_col "$TMPD/rec.csv" capex_margin_eur)")  the price list's MARGIN"
check_screen "step 4: the list's support term" "Support term                         auto (5)"
check_screen "step 4: rent, a year of the working GPUs at the cheapest term" \
	"Rent                   $(whole "$(csv_col "$TMPD/rec.csv" rent_eur)")/year, 1-year reserved, $(csv_col "$TMPD/rec.csv" gpus) GPUs"
check_screen "step 4: rent or buy, recommend's sentence up to the term" \
	"Rent or buy            ${statement% against *}"

# step 4's Rent term row (--rent-term): on-demand is recommend's on-demand
# figure; 3y, which neither the catalog nor the list prices, is unpriced
run "$ACCELSIZER" recommend --scenario "$SCEN" --accelerator h100-sxm --prices "$EUR" --rent-term on-demand \
	--format csv -o "$TMPD/od.csv"
choose_term() {	# choose_term WORD: down to the row, then Right until it shows WORD
	i=0
	while [ $i -lt 80 ] && ! printf '%s\n' "$screen" | grep -Eq '^ Rent term +‹'; do
		tui_keys Down
		tui_settle
		i=$((i + 1))
	done
	j=0
	while [ $j -lt 6 ] && ! printf '%s\n' "$screen" | grep -Eq "^ Rent term +‹ $1 ›"; do
		tui_keys Right
		tui_settle
		j=$((j + 1))
	done
}
choose_term on-demand
check_screen_re "step 4: the Rent term row on on-demand" "Rent term +‹ on-demand ›"
check_screen "step 4: rent at the on-demand rate, recommend's" \
	"Rent                   $(whole "$(csv_col "$TMPD/od.csv" rent_eur)")/year, on-demand, $(csv_col "$TMPD/od.csv" gpus) GPUs"
choose_term 3y
check_screen "step 4: a term nobody prices: no rent" "Rent                   -"
check_screen "step 4: a term nobody prices: the SKU that gives one" \
	"Rent or buy            no 3-year reserved rate (a price list's RENT-3Y"
choose_term auto

# step 3: the money columns and the line under the table say the currency;
# the chosen H100 row shows its rent or buy
tui_keys p
tui_wait "Capex EUR"
check_screen "step 3: capex header in EUR" "Capex EUR"
check_screen "step 3: cost per million tokens in EUR" "EUR/Mtok"
check_screen_re "step 3: the chosen row's capex in EUR" "1 H100 SXM5 80GB +[0-9]+ +[0-9]+ +[0-9,]+ EUR [0-9]"
check_screen "step 3: rent or buy of the row under the cursor" \
	"Rent $(whole "$(csv_col "$TMPD/rec.csv" rent_eur)")/yr reserved-1y: ${statement% against *}"
tui_keys q
tui_settle
case $screen in *"Quit without saving"*|*"unsaved"*) tui_keys y ;; esac
tui_exit_status

# a bad price list is refused before the terminal is touched, as the CLI does
printf 'sku,unit_price\nMARGIN,100\n' >"$TMPD/bad.csv"
run "$ACCELSIZER" --prices "$TMPD/bad.csv"
check "wizard: a bad MARGIN: exit 2" rc 2
check "wizard: a bad MARGIN: file, line and column" contains "$err" "$TMPD/bad.csv:2:8: MARGIN '100'"

done_testing
