#!/bin/sh
# The wizard and `accelsizer recommend` show the same figures for the same
# scenario: step 3's ranked table against the CSV (order, GPUs, nodes,
# capex exactly; rounded figures within one unit of the CSV's last digit)
# and against the CLI's own table (the same rounding, so the very same
# text), for an inference and a fine-tuning scenario.
. "$TOP_SRCDIR/tests/tui/lib-tmux.sh"

# Step 3 rows as "rank|name|gpus|nodes|perf|capex|kw|cost" (ranked rows only).
wizard_rows() {
	printf '%s\n' "$screen" | sed 's/│.*//' | awk '
		{ pre = $0; sub(/[0-9].*/, "", pre) }
		NR > 1 && (/\$/ || / - /) && pre !~ /[A-Za-z]/ && $0 ~ /[0-9]/ {
			# from the right: cost kw capex perf nodes gpus
			n = NF
			if ($(n) == "h" || $(n-1) ~ /h$/) { }
			cost = $n; kw = $(n-1); capex = $(n-2); perf = $(n-3)
			k = n - 4
			if (perf == "h") { perf = $(n-4) " h"; k = n - 5 }
			nodes = $k; gpus = $(k-1)
			# rank: the first field that is a number
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) { r = i; break }
			name = ""
			for (i = r + 1; i < k - 1; i++) name = name (name == "" ? "" : " ") $i
			print $r "|" name "|" gpus "|" nodes "|" perf "|" capex "|" kw "|" cost
		}'
}

# id -> name from the catalog listing (the NAME column, located by the
# header, up to where the MEM GB column starts).
catalog_names() {
	"$ACCELSIZER" catalog list | awk '
		NR == 1 { ns = index($0, "NAME"); ms = index($0, "MEM GB"); next }
		{ name = substr($0, ns, ms - ns); sub(/ +$/, "", name); print $1 "|" name }'
}

group() {
	# 1234567.891 DEC -> 1,234,567.891 (as the CLI and the wizard print)
	awk -v v="$1" -v d="$2" 'BEGIN {
		s = sprintf("%." d "f", v); ip = s; fp = ""
		if (index(s, ".")) { ip = substr(s, 1, index(s, ".") - 1); fp = substr(s, index(s, ".")) }
		o = ""; n = length(ip)
		for (i = 1; i <= n; i++) { o = o substr(ip, i, 1); if ((n - i) % 3 == 0 && i < n) o = o "," }
		print o fp }'
}

# within one unit of the last shown digit: |a - b| <= 10^-dec (+ slack)
close_to() {
	awk -v a="$(printf '%s' "$1" | tr -d '$,h ')" -v b="$2" -v d="$3" 'BEGIN {
		diff = a - b; if (diff < 0) diff = -diff
		exit !(diff <= 10 ^ (-d) * 1.0001) }'
}

compare_scenario() {
	label=$1 file=$2 inf=$3
	"$ACCELSIZER" recommend --scenario "$file" --format csv >"$TMPD/rec.csv" 2>"$TMPD/rec.err"
	rrc=$?
	if [ "$rrc" -ne 0 ] && [ "$rrc" -ne 1 ]; then
		tap_not_ok "$label: recommend runs" "exit $rrc" "$(cat "$TMPD/rec.err")"
		return
	fi
	"$ACCELSIZER" recommend --scenario "$file" >"$TMPD/rec.txt" 2>/dev/null
	tui_start 200 60 --scenario "$file"
	tui_wait "Fit per accelerator"
	tui_keys 3
	tui_wait "Ranked by"
	tui_screen
	wizard_rows >"$TMPD/wiz.txt"
	catalog_names >"$TMPD/names.txt"
	# the CSV's columns by name
	# (libcsv quotes fields; reasons hold commas: split on commas outside quotes)
	awk '
		function split_csv(line, out,    n, i, c, q, f) {
			n = 0; f = ""; q = 0
			for (i = 1; i <= length(line); i++) {
				c = substr(line, i, 1)
				if (c == "\"") { if (q && substr(line, i + 1, 1) == "\"") { f = f c; i++ } else q = !q }
				else if (c == "," && !q) { out[++n] = f; f = "" }
				else f = f c
			}
			out[++n] = f
			return n
		}
		NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
		{ split_csv($0, v)
		  if (v[col["fits"]] != "true" || v[col["filtered"]] != "false") next
		  print v[col["rank"]] "|" v[col["accelerator"]] "|" v[col["gpus"]] "|" v[col["nodes"]] "|" \
			v[col["output_tokens_per_s"]] "|" v[col["capex_usd"]] "|" v[col["power_kw"]] "|" \
			v[col["usd_per_mtok"]] "|" v[col["train_hours"]] "|" v[col["run_cost_usd"]] "|" \
			v[col["price_state"]] }' \
		"$TMPD/rec.csv" >"$TMPD/csv.txt"
	nw=$(wc -l <"$TMPD/wiz.txt" | tr -d ' ')
	nc=$(wc -l <"$TMPD/csv.txt" | tr -d ' ')
	check "$label: the CSV has ranked rows" matches "$nc" '^[1-9]'
	check "$label: as many ranked rows as the CSV ($nc)" equals "$nw" "$nc"
	i=0
	while IFS='|' read -r rank id gpus nodes tps capex kw mtok hours runc state; do
		bad=""
		i=$((i + 1))
		line=$(sed -n "${i}p" "$TMPD/wiz.txt")
		IFS='|' read -r wrank wname wgpus wnodes wperf wcapex wkw wcost <<-EOF2
		$line
		EOF2
		name=$(grep "^$id|" "$TMPD/names.txt" | cut -d'|' -f2)
		case $name in "$wname"*) ;; *) bad="$bad [$rank name '$wname' vs $id '$name']" ;; esac
		[ "$wrank" = "$rank" ] || bad="$bad [$id rank $wrank vs $rank]"
		[ "$wgpus" = "$gpus" ] || bad="$bad [$id gpus $wgpus vs $gpus]"
		[ "$wnodes" = "$nodes" ] || bad="$bad [$id nodes $wnodes vs $nodes]"
		# a money figure as the CSV's price_state says (engine_price_state()):
		# '-' for a GPU with no price, the unpriced mark when lines are left out
		mark=""
		[ "$state" = partial ] && mark="*"
		money() { if [ "$state" = unknown ]; then echo "-"; else echo "\$$(group "$1" 0)$mark"; fi; }
		[ "$wcapex" = "$(money "$capex")" ] || bad="$bad [$id capex $wcapex vs $capex $state]"
		close_to "$wkw" "$kw" 1 || bad="$bad [$id kW $wkw vs $kw]"
		if [ "$inf" = yes ]; then
			close_to "$wperf" "$tps" 0 || bad="$bad [$id tok/s $wperf vs $tps]"
			if [ "$state" = unknown ]; then
				[ "$wcost" = "-" ] || bad="$bad [$id \$/Mtok $wcost for a GPU with no price]"
			else
				close_to "$wcost" "$mtok" 3 || bad="$bad [$id \$/Mtok $wcost vs $mtok]"
			fi
			# the CLI table rounds exactly as the wizard does (its
			# columns are fixed: printf widths in cli_report.c; the TCO
			# column after capex is 14 wide)
			tline=$(awk -v id="$id" '$2 == id' "$TMPD/rec.txt")
			ttps=$(printf '%s\n' "$tline" | cut -c49-58 | tr -d ' ')
			tkw=$(printf '%s\n' "$tline" | cut -c105-111 | tr -d ' ')
			tcost=$(printf '%s\n' "$tline" | cut -c113-121 | tr -d ' ')
			case $tcost in -) want="-" ;; *) want="\$$tcost" ;; esac
			[ "$wcost" = "$want" ] || bad="$bad [$id table \$/Mtok $wcost vs $tcost]"
			[ "$wkw" = "$tkw" ] || bad="$bad [$id table kW $wkw vs $tkw]"
			[ "$wperf" = "$ttps" ] || bad="$bad [$id table tok/s $wperf vs $ttps]"
		else
			close_to "$wperf" "$hours" 1 || bad="$bad [$id hours $wperf vs $hours]"
			[ "$wcost" = "$(money "$runc")" ] || bad="$bad [$id run cost $wcost vs $runc]"
		fi
		check "$label: rank $rank $id as the CLI shows it" equals "$bad" ""
	done <"$TMPD/csv.txt"
}

compare_scenario "inference" "$SCENARIO" yes

# step 2's requirements read as the CLI's headline
head=$(sed -n 2p "$TMPD/rec.txt")
weights=$(printf '%s\n' "$head" | sed -n 's/^Needs: \([0-9.,]*\) GB of weights.*/\1/p')
kvtok=$(printf '%s\n' "$head" | sed -n 's/.*, \([0-9,]*\) bytes of KV cache per token.*/\1/p')
kvall=$(printf '%s\n' "$head" | sed -n 's/.*(\([0-9.,]*\) GB for all users.*/\1/p')
tui_keys 2
tui_wait "What the workload needs"
check_screen_re "step 2 weights as the CLI headline ($weights GB)" "Weights +$weights GB"
check_screen_re "step 2 KV cache as the CLI headline ($kvall GB, $kvtok bytes/token)" "KV cache +$kvall GB +$kvtok bytes per token"

cat >"$TMPD/lora.yaml" <<'YAML'
schema: 1
workload:
  class: finetune
  model: llama-2-70b
  precision: bf16
  method: lora
  lora_rank: 16
  tokens: 100000000
  epochs: 1
  seq_len: 4096
objective: time
YAML
compare_scenario "LoRA fine-tuning" "$TMPD/lora.yaml" no

cat >"$TMPD/busy.yaml" <<'YAML'
schema: 1
workload:
  class: inference
  model: llama-3.1-70b
  precision: fp8
  kv_precision: fp8
  input_tokens: 2048
  output_tokens: 512
  concurrency: 256
  tokens_per_s_per_user: 25
objective: cost-per-token
YAML
compare_scenario "fp8 serving, 256 users" "$TMPD/busy.yaml" yes

done_testing
