#!/bin/sh
# `accelsizer bom`: the CSV and summary as a user gets them, price lists good
# and bad, scenario files good and bad, and the promise that a failed export
# never leaves a half-written or clobbered file.
. "$TOP_SRCDIR/tests/lib.sh"

FIX=$TOP_SRCDIR/tests/fixtures
SCEN=$FIX/scenarios/good/inference.yaml
HEADER='line,category,sku,description,qty,unit_price_usd,extended_price_usd,power_w_each,rack_units_each,notes'
mkdir "$TMPD/w" && cd "$TMPD/w" || exit 1

# ---- the BOM itself ----
run "$ACCELSIZER" bom --scenario "$SCEN" -o bom.csv
check "bom -o: exit 0" rc 0
check "bom -o: says what it wrote" contains "$out" "bom.csv: "
check "bom -o: header line" equals "$(head -n 1 bom.csv)" "$HEADER"
check "bom -o: server line" matches "$(cat bom.csv)" '^1,server,'
check "bom -o: accelerator line for the scenario's choice" matches "$(cat bom.csv)" '^2,accelerator,h100-sxm,'
check "bom -o: spare node from the scenario" contains "$(sed -n 2p bom.csv)" "1 working + 1 spare node"
check "bom -o: rack line states rack_kw" matches "$(cat bom.csv)" ',rack,RACK,.*sized at [0-9.]+ kW'
check "bom -o: PDU line" matches "$(cat bom.csv)" ',power,PDU,'
check "bom -o: support line" matches "$(cat bom.csv)" ',support,SUPPORT,'
check "bom -o: installation and burn-in for the working and the spare node" matches "$(cat bom.csv)" ',service,BURN-IN,Installation and burn-in \(per node\),2,,,.*unpriced: give SKU BURN-IN a price'
check "bom -o: total row last" matches "$(tail -n 1 bom.csv)" '^,total,,Total,,,[0-9]+\.[0-9][0-9],'
check "bom -o: no temporary file left" equals "$(ls -A | tr '\n' ' ')" "bom.csv "

run "$ACCELSIZER" bom --scenario "$SCEN" -o -
check "bom -o -: CSV on standard output" equals "$(printf '%s\n' "$out" | head -n 1)" "$HEADER"

# flags override the scenario
run "$ACCELSIZER" bom --scenario "$SCEN" --accelerator mi300x --spare-nodes 0 -o mi.csv
check "flags over scenario: exit 0" rc 0
check "flags over scenario: accelerator" matches "$(cat mi.csv)" '^2,accelerator,mi300x,'
check "flags over scenario: no spare" lacks "$(cat mi.csv)" "spare node"

# workload flags alone, as recommend takes them
run "$ACCELSIZER" bom --model llama-3.1-8b --precision fp8 --concurrency 32 --accelerator h100-sxm --gpus 2 --spare-nodes 0 -o flags.csv
check "workload flags: exit 0" rc 0
check "workload flags: the named accelerator, 2 GPUs on one node" matches "$(cat flags.csv)" '^2,accelerator,h100-sxm,NVIDIA H100[^,]*,8,.*the workload uses 2'
run "$ACCELSIZER" bom --scenario "$SCEN" --input-tokens 4096 --summary flags.txt -o flags2.csv
check "flag over scenario value: in the summary" contains "$(cat flags.txt)" "  input_tokens                 4096"

# ---- --summary ----
SOURCE_DATE_EPOCH=1700000000 run "$ACCELSIZER" bom --scenario "$SCEN" -o s.csv --summary s.txt
check "summary: exit 0" rc 0
s=$(cat s.txt)
check "summary: date" contains "$s" "Date         2023-11-14"
check "summary: catalog version" matches "$s" 'Catalog      version [0-9]'
check "summary: customer" contains "$s" "Müller & Söhne GmbH"
check "summary: scenario inputs" contains "$s" "  input_tokens                 2048"
check "summary: assumptions" matches "$s" '  rack_kw +[0-9.]+ kW'
check "summary: total equals the CSV's" contains "$s" "price_usd                    $(tail -n 1 s.csv | cut -d, -f7)"

run "$ACCELSIZER" bom --scenario "$SCEN" -o same.csv --summary same.csv
check "summary and -o the same file: exit 2" rc 2

# ---- price lists ----
run "$ACCELSIZER" bom --scenario "$SCEN" --prices "$FIX/prices/good/h100.csv" -o p.csv
check "prices: exit 0" rc 0
check "prices: discounted unit price" matches "$(cat p.csv)" '^2,accelerator,h100-sxm,.*,24000\.00,'
check "prices: rack price from the list" matches "$(cat p.csv)" ',rack,RACK,.*,1234\.56,'
check "prices: note says where the price came from" contains "$(cat p.csv)" "price list: 25000.00 less 4%"
check "prices: formula in a description neutralised" contains "$(cat p.csv)" "\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"H100\"\")\""
check "prices: unknown sku warned about" contains "$err" "warning: $FIX/prices/good/h100.csv:4:1: sku 'NO-SUCH-PART' is not in this bill of materials"

printf 'old bom\n' > keep.csv
n=0
for f in "$FIX"/prices/bad/*.csv; do
	n=$((n + 1))
	base=$(basename "$f" .csv)
	run "$ACCELSIZER" bom --scenario "$SCEN" --prices "$f" -o keep.csv --summary keep.txt
	check "bad price list $base: exit 2" rc 2
	check "bad price list $base: exact message" equals "$err" "accelsizer: $f$(printf ':'; cat "$FIX/prices/bad/$base.expect")"
	check "bad price list $base: old BOM untouched, no summary" equals "$(cat keep.csv; ls keep.txt 2>/dev/null)" "old bom"
done
check "at least 15 bad price lists" matches "$n" '^(1[5-9]|[2-9][0-9])$'

run "$ACCELSIZER" bom --scenario "$SCEN" --prices "$TMPD/none.csv" -o x.csv
check "missing price list: exit 2" rc 2
check "missing price list: message" equals "$err" "accelsizer: $TMPD/none.csv: No such file or directory"

# ---- where the files go ----
mkdir adir
run "$ACCELSIZER" bom --scenario "$SCEN" -o adir
check "directory at the output path: exit 2" rc 2
check "directory at the output path: message" equals "$err" "accelsizer: cannot write 'adir': Is a directory"

run "$ACCELSIZER" bom --scenario "$SCEN" -o nodir/bom.csv
check "missing folder: exit 2" rc 2
check "missing folder: message" equals "$err" "accelsizer: cannot write 'nodir/bom.csv': No such file or directory"

printf 'precious\n' > victim.txt
ln -s victim.txt link.csv
run "$ACCELSIZER" bom --scenario "$SCEN" -o link.csv
check "symlink at the output path: exit 0" rc 0
check "symlink at the output path: its target untouched" equals "$(cat victim.txt)" "precious"
check "symlink at the output path: replaced by the BOM" equals "$(test -L link.csv || head -n 1 link.csv)" "$HEADER"

# An unwritable folder: as an ordinary user, or as nobody when root.
mkdir ro && printf 'old\n' > ro/bom.csv && chmod 555 ro && chmod 755 "$TMPD" "$TMPD/w"
as_user=""
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null 2>&1; then
		as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	fi
fi
if [ "$(id -u)" != 0 ] || [ -n "$as_user" ]; then
	# The checkout may sit where nobody cannot read (a clone under /root):
	# give that user its own readable copy of the binary, catalog and scenario.
	nb_bin=$ACCELSIZER nb_cat=$ACCELSIZER_CATALOG nb_scen=$SCEN
	if [ -n "$as_user" ]; then
		mkdir "$TMPD/nb" && cp "$ACCELSIZER" "$TMPD/nb/accelsizer" &&
			cp -R "$ACCELSIZER_CATALOG" "$TMPD/nb/catalog" && cp "$SCEN" "$TMPD/nb/scen.yaml" &&
			chmod -R a+rX "$TMPD/nb"
		nb_bin=$TMPD/nb/accelsizer nb_cat=$TMPD/nb/catalog nb_scen=$TMPD/nb/scen.yaml
	fi
	run $as_user env ACCELSIZER_CATALOG="$nb_cat" "$nb_bin" bom --scenario "$nb_scen" -o "$TMPD/w/ro/bom.csv" --summary "$TMPD/w/s2.txt"
	check "unwritable folder: exit 2" rc 2
	check "unwritable folder: message" equals "$err" "accelsizer: cannot write '$TMPD/w/ro/bom.csv': Permission denied"
	check "unwritable folder: old file kept" equals "$(cat ro/bom.csv)" "old"
	check "unwritable folder: summary not written either" equals "$(ls s2.txt 2>/dev/null)" ""
else
	tap_ok "unwritable folder: skipped (root without setpriv) # SKIP"
fi
chmod 755 ro

# ---- scenario files ----
for f in "$FIX"/scenarios/good/*.yaml; do
	run "$ACCELSIZER" bom --scenario "$f" -o good.csv
	check "good scenario $(basename "$f"): exit 0" rc 0
done
for f in "$FIX"/scenarios/bad/*.yaml; do
	base=$(basename "$f" .yaml)
	run "$ACCELSIZER" bom --scenario "$f" -o bad.csv
	check "bad scenario $base: exit 2" rc 2
	msg=$(cat "$FIX/scenarios/bad/$base.expect")
	case $base in
	*-whole-*)
		# The whole workload is checked after the command-line flags,
		# which may fix it: the engine's reason, without a position.
		# A check the flags name themselves has its own .cli.expect.
		if [ -f "$FIX/scenarios/bad/$base.cli.expect" ]; then
			check "bad scenario $base: message" equals "$err" "$(cat "$FIX/scenarios/bad/$base.cli.expect")"
		else
			check "bad scenario $base: message" equals "$err" "accelsizer: ${msg#:*:*: }"
		fi ;;
	*)
		check "bad scenario $base: exact message" equals "$err" "accelsizer: $f$msg" ;;
	esac
done
check "bad scenarios wrote nothing" equals "$(ls bad.csv 2>/dev/null)" ""

# ---- validate -o: the plan as CSV, through the same atomic writer ----
run "$ACCELSIZER" validate --scenario "$SCEN" --format csv -o plan.csv
check "validate -o: exit 0" rc 0
check "validate -o: nothing on standard output" equals "$out" ""
check "validate -o: plan header" matches "$(head -n 1 plan.csv)" 'benchmark.*metric.*predicted.*threshold'
check "validate -o: one row per benchmark" matches "$(sed -n 2p plan.csv)" 'h100-sxm'
run "$ACCELSIZER" validate --scenario "$SCEN" --format csv -o adir
check "validate -o directory: exit 2" rc 2
check "validate -o directory: message" equals "$err" "accelsizer: cannot write 'adir': Is a directory"

# ---- bad input and unmet workloads ----
run "$ACCELSIZER" bom --scenario "$SCEN"
check "no -o: exit 2" rc 2
check "no -o: message" equals "$err" "accelsizer: missing -o FILE.csv (where to write the BOM)"
run "$ACCELSIZER" bom --frobnicate -o x.csv
check "unknown option: exit 2" rc 2
run "$ACCELSIZER" bom --scenario "$SCEN" --gpus many -o x.csv
check "bad --gpus: message" equals "$err" "accelsizer: --gpus: 'many' is not a number or 'auto' (e.g. 2048, 2,048, 2k, 1.5M, 2T, 2e12)"
run "$ACCELSIZER" bom --scenario "$SCEN" --accelerator h100-sxn -o x.csv
check "unknown accelerator: did you mean" equals "$err" "accelsizer: --accelerator: unknown accelerator 'h100-sxn'; did you mean 'h100-sxm'?"
printf 'schema: 1\nworkload:\n  model: llama-3.1-405b\naccelerator: l4\nnode:\n  gpus: 1\n' > unmet.yaml
run "$ACCELSIZER" bom --scenario unmet.yaml -o unmet.csv
check "unmet: exit 1" rc 1
check "unmet: says why" contains "$err" "NVIDIA L4 cannot meet this workload"
check "nothing written by failed runs" equals "$(ls x.csv unmet.csv 2>/dev/null)" ""

# A whole-rack platform: 72 x GB200 is one NVL72 rack with its own power
# shelves, nothing added to it: its front-end pair and OOB switch get a
# rack of their own, the one enclosure (and its PDUs) bought; two racks in
# the summary.
run "$ACCELSIZER" bom --model llama-3.1-405b --precision fp8 --concurrency 16 --accelerator gb200 \
	--gpus 72 --spare-nodes 0 -o gb200.csv --summary gb200.txt
check "72 x GB200: exit 0" rc 0
check "72 x GB200: two racks on stdout" contains "$out" ", 2 racks"
check "72 x GB200: one NVL72 line" matches "$(cat gb200.csv)" '^1,server,[^,]*NVL72[^,]*,[^,]*,1,'
check "72 x GB200: the node is its own rack" contains "$(cat gb200.csv)" "whole rack (48 U) with its own power shelves: 1 rack"
check "72 x GB200: one rack enclosure, for the facility switches" matches "$(cat gb200.csv)" ',rack,RACK,"Rack enclosure, 42 U, installed",1,'
check "72 x GB200: its PDUs" matches "$(cat gb200.csv)" ',power,PDU,Metered rack PDU,2,'
check "72 x GB200: summary says 2 racks" matches "$(cat gb200.txt)" '^  racks +2$'

# Gaudi 3: the scale-out ports are on the accelerators: switch ports and
# cables for 4 nodes x 12 ports, no NIC cards.
run "$ACCELSIZER" bom --workload pretrain --model llama-2-7b --tokens 1T --accelerator gaudi3 \
	--gpus 32 --spare-nodes 0 -o gaudi3.csv
check "4 x Gaudi 3 node: exit 0" rc 0
check "4 x Gaudi 3 node: no NIC card line" lacks "$(cat gaudi3.csv)" "ConnectX-7 single-port OSFP, 400GbE"
check "4 x Gaudi 3 node: switch line counts the ports on the accelerators" contains "$(cat gaudi3.csv)" "48 node ports: 12 per node on the accelerators, no NIC cards"
check "4 x Gaudi 3 node: cables" matches "$(cat gaudi3.csv)" '^[0-9]+,cable,'

# Devices and pipes are written in place, never replaced by a regular file
# (as root, a rename over /dev/null would break the machine).
run "$ACCELSIZER" bom --scenario "$SCEN" -o /dev/null
check "-o /dev/null: exit 0" rc 0
if [ -c /dev/null ]; then tap_ok "-o /dev/null: still a character device"; else tap_not_ok "-o /dev/null: still a character device" "$(ls -l /dev/null)"; fi
run "$ACCELSIZER" recommend --scenario "$SCEN" --format csv -o /dev/null
if [ -c /dev/null ]; then tap_ok "recommend -o /dev/null: still a character device"; else tap_not_ok "recommend -o /dev/null: still a character device"; fi
mkfifo fifo && ln -s fifo fifo-link
cat fifo-link > from-fifo.csv &
reader=$!
run "$ACCELSIZER" bom --scenario "$SCEN" -o fifo-link
wait $reader
check "-o FIFO behind a symlink: exit 0" rc 0
check "-o FIFO behind a symlink: the BOM came through the pipe" matches "$(head -n 1 from-fifo.csv)" '^line,category,sku'
if [ -p fifo ] && [ -L fifo-link ]; then tap_ok "-o FIFO: the pipe and the link are left as they were"; else tap_not_ok "-o FIFO: the pipe and the link are left as they were" "$(ls -l fifo fifo-link)"; fi

# ---- --header (issue 17 item 9): a header block, off by default ----
run "$ACCELSIZER" bom --scenario "$SCEN" -o plain.csv
check "without --header: the table starts the file" matches "$(head -n 1 plain.csv)" '^line,category,sku'
SOURCE_DATE_EPOCH=1767225600 run "$ACCELSIZER" bom --scenario "$SCEN" --header -o headed.csv
check "--header: exit 0" rc 0
check "--header: customer first" matches "$(head -n 1 headed.csv)" '^customer,'
check "--header: the scenario's opportunity" equals "$(sed -n 2p headed.csv)" "opportunity,Q3 inference refresh"
check "--header: the scenario file" equals "$(sed -n 3p headed.csv)" "scenario,$SCEN"
check "--header: the date" equals "$(sed -n 4p headed.csv)" "date,2026-01-01"
check "--header: the catalog's version" matches "$(sed -n 5p headed.csv)" '^catalog,[0-9]{4}\.[0-9]+$'
check "--header: an empty row before the table" equals "$(sed -n 6p headed.csv)" ""
check "--header: then the same table, byte for byte" equals "$(tail -n +7 headed.csv)" "$(cat plain.csv)"
run "$ACCELSIZER" bom --scenario "$SCEN" --header --customer '=HYPERLINK("http://x")' --opportunity '@SUM(1)' -o evil.csv
check "--customer: a formula is neutralised" equals "$(head -n 1 evil.csv)" "customer,\"'=HYPERLINK(\"\"http://x\"\")\""
check "--opportunity: a formula is neutralised" equals "$(sed -n 2p evil.csv)" "opportunity,'@SUM(1)"
run "$ACCELSIZER" bom --model llama-3.1-8b --header -o flags.csv
check "--header without a scenario: its row is empty" equals "$(sed -n 3p flags.csv)" "scenario,"

# ---- the front-end and out-of-band networks (issue 17 item 6), always ----
# One node of llama-3.1-8b (one rack): a pair of SN4600C (a node's two
# front-end ports go to two separate switches) with 2 copper DACs, one
# SN2201 with one patch cable.  No source gives their prices, nor the
# server's and its five parts', the rack's, the PDUs' or the burn-in's:
# each line is quoted with its quantity, blank money cells and "unpriced",
# the total says it excludes the 13 lines (all but the GPU), and stderr
# warns.
run "$ACCELSIZER" bom --model llama-3.1-8b --accelerator h100-sxm --spare-nodes 0 -o one.csv
check "one node: exit 0" rc 0
check "one node: a pair of front-end switches, unpriced" matches "$(cat one.csv)" '^[0-9]+,network,MSN4600C,.*,2,,,0,2,.*unpriced: give SKU MSN4600C a price'
check "one node: an OOB switch, unpriced" matches "$(cat one.csv)" '^[0-9]+,network,MSN2201,.*,1,,,0,1,.*unpriced'
check "one node: two front-end copper cables" matches "$(cat one.csv)" '^[0-9]+,cable,DAC-100G-QSFP28,.*,2,,,0,0,'
check "one node: one OOB patch cable" matches "$(cat one.csv)" '^[0-9]+,cable,CAT6A-PATCH,.*,1,,,0,0,'
check "one node: a switch with no power figure says so" matches "$(cat one.csv)" 'MSN2201,.*power: no datasheet figure in the catalog, not in power_kw'
check "one node: the total row says what it excludes" matches "$(tail -1 one.csv)" 'the total EXCLUDES 13 unpriced lines \((line [0-9]+, ){12}line [0-9]+\): from price list'
check "one node: stdout says the total leaves 13 lines out" contains "$out" "USD, 13 unpriced lines not in it,"
check "one node: stderr warns the capex is incomplete" contains "$err" "warning: the capex of h100-sxm excludes 13 unpriced BOM lines (line"
# 52 nodes of H100 training in 18 racks: 104 front-end ports on 64-port
# switches is 2 (one pair), 52 BMC ports on 48-port switches is 2; optics
# (NVIDIA's MFA1A00 AOC) and longer copper runs across racks.  (At Meta's
# stack's BF16 share: NeMo's default reaches more and needs fewer nodes.)
run "$ACCELSIZER" bom --workload pretrain --model llama-3.1-70b --accelerator h100-sxm --tokens 1T --days 30 \
	--training-stack meta -o many.csv
check "52 nodes: exit 0" rc 0
check "52 nodes: two front-end switches" matches "$(cat many.csv)" '^[0-9]+,network,MSN4600C,.*,2,,,'
check "52 nodes: two OOB switches" matches "$(cat many.csv)" '^[0-9]+,network,MSN2201,.*,2,,,'
check "52 nodes: 104 front-end AOCs across racks" matches "$(cat many.csv)" '^[0-9]+,cable,MFA1A00-C0xx,.*,104,,,'
check "52 nodes: 52 OOB cable runs across racks" matches "$(cat many.csv)" '^[0-9]+,cable,CAT6A-RUN,.*,52,,,'
check "52 nodes: no copper DAC across racks" lacks "$(cat many.csv)" "DAC-100G-QSFP28"

# A price list fills them: the same lines priced, no warning, and the
# total grows by exactly the lines, the support on the hardware among them
# (3 years x 10%) and the burn-in service (not covered by support): the
# server 100 and its parts 2 x 10 + 32 x 1 + 2 x 1 + 8 x 1 + 2 x 10, one
# rack and two PDUs, 2521 + 182 + 100 + 2 x 10 of hardware, 50 of service.
# The list prices every line no source prices, at those round figures.
NET=$FIX/prices/good/bom-parts.csv
run "$ACCELSIZER" bom --model llama-3.1-8b --accelerator h100-sxm --spare-nodes 0 --prices "$NET" -o priced.csv
check "priced: exit 0" rc 0
check "priced: the front-end pair at the list's price" matches "$(cat priced.csv)" '^[0-9]+,network,MSN4600C,.*,2,1000\.00,2000\.00,.*price list'
check "priced: the OOB cable at the list's price" matches "$(cat priced.csv)" '^[0-9]+,cable,CAT6A-PATCH,.*,1,1\.00,1\.00,'
check "priced: no unpriced line left" lacks "$(cat priced.csv)" "unpriced"
check "priced: no unpriced warning" lacks "$err" "unpriced"
check "priced: the total grows by the lines and their support" equals \
	"$(awk -F, '$2 == "total" { print $7 }' priced.csv)" \
	"$(awk -F, '$2 == "total" { printf "%.2f", $7 + 2823 * 1.3 + 50 }' one.csv)"
run "$ACCELSIZER" recommend --model llama-3.1-8b --accelerator h100-sxm --spare-nodes 0 --format csv -o rec.csv
check "recommend: unpriced_lines 13 without a list" equals "$(csv_col rec.csv unpriced_lines)" 13
check "recommend: the capex without a list is the BOM's (it excludes the same lines)" equals \
	"$(csv_col rec.csv capex_usd)" "$(awk -F, '$2 == "total" { print $7 }' one.csv)"
check "recommend: stderr warns once" equals "$(printf '%s\n' "$err" | grep -c 'warning: the capex of h100-sxm excludes 13 unpriced')" 1
run "$ACCELSIZER" recommend --model llama-3.1-8b --accelerator h100-sxm --spare-nodes 0 --format csv --prices "$NET" -o rec2.csv
check "recommend --prices: unpriced_lines 0" equals "$(csv_col rec2.csv unpriced_lines)" 0
check "recommend --prices: capex is the priced BOM's total" equals \
	"$(csv_col rec2.csv capex_usd)" "$(awk -F, '$2 == "total" { print $7 }' priced.csv)"
check "recommend --prices: no unpriced warning" lacks "$err" "unpriced"

# A catalog whose source gives the switch's price and power (a user's
# catalog with their datasheet): the line is priced and its power counted;
# a price of 0 is refused at its line and column (absent is "no price").
cp -r "$TOP_SRCDIR/catalog" mycat
chmod -R u+w mycat
awk '{ print } /^      min: 2$/ && !done { print "      price_usd: 12000"; print "      power_w: 466"; done = 1 }' \
	"$TOP_SRCDIR/catalog/defaults.yaml" >mycat/defaults.yaml
ACCELSIZER_NO_CACHE=1 run "$ACCELSIZER" bom --catalog mycat --model llama-3.1-8b --accelerator h100-sxm --spare-nodes 0 -o mine.csv
check "a sourced switch price: exit 0" rc 0
check "a sourced switch price: the pair priced, its power counted" matches "$(cat mine.csv)" '^[0-9]+,network,MSN4600C,.*,2,12000\.00,24000\.00,466,2,.*catalog price \(defaults\.networks\)'
check "a sourced switch price: 12 lines left unpriced" contains "$out" "12 unpriced lines not in it"
check "a sourced switch power: in the total's power" equals "$(awk -F, '$2 == "total" { print $8 }' mine.csv)" \
	"$(awk -F, '$2 == "total" { print $8 + 932 }' one.csv)"
sed 's/^      price_usd: 12000$/      price_usd: 0/' mycat/defaults.yaml >mycat/d.yaml && mv mycat/d.yaml mycat/defaults.yaml
ACCELSIZER_NO_CACHE=1 run "$ACCELSIZER" bom --catalog mycat --model llama-3.1-8b -o zero.csv
check "a switch price of 0: exit 2" rc 2
check "a switch price of 0: file, line, column and key" matches "$err" 'defaults\.yaml:[0-9]+:[0-9]+: switch\.price_usd must be in \[0\.01, '

# ---- --storage-tb: a storage line, priced only by a price list ----
run "$ACCELSIZER" bom --model llama-3.1-8b --accelerator h100-sxm --spare-nodes 0 --storage-tb 99.5 -o stor.csv
check "--storage-tb 99.5: exit 0" rc 0
check "--storage-tb 99.5: 100 TB, unpriced" matches "$(cat stor.csv)" '^[0-9]+,storage,STORAGE,.*,100,,,.*unpriced: give SKU STORAGE a price'
check "--storage-tb without a list: the total is unchanged" equals \
	"$(awk -F, '$2 == "total" { print $7 }' stor.csv)" "$(awk -F, '$2 == "total" { print $7 }' one.csv)"
check "--storage-tb without a list: 14 unpriced lines" contains "$(tail -1 stor.csv)" "EXCLUDES 14 unpriced lines"
run "$ACCELSIZER" bom --model llama-3.1-8b --accelerator h100-sxm --spare-nodes 0 --storage-tb 99.5 --prices "$NET" -o stor-priced.csv
check "--storage-tb with STORAGE in the list: 100 TB at 100" matches "$(cat stor-priced.csv)" '^[0-9]+,storage,STORAGE,.*,100,100\.00,10000\.00,'
check "--storage-tb: the total grows by the line and its support" equals \
	"$(awk -F, '$2 == "total" { print $7 }' stor-priced.csv)" \
	"$(awk -F, '$2 == "total" { printf "%.2f", $7 + 10000 * 1.3 }' priced.csv)"
check "without --storage-tb: no storage line" lacks "$(cat one.csv)" ",storage,"
printf 'schema: 1\nworkload:\n  class: inference\n  model: llama-3.1-8b\nnode:\n  spare_nodes: 0\n  storage_tb: 99.5\n' >stor.yaml
run "$ACCELSIZER" bom --scenario stor.yaml --accelerator h100-sxm -o stor2.csv
check "scenario node.storage_tb: the same BOM as the flag" equals "$(cat stor2.csv)" "$(cat stor.csv)"
run "$ACCELSIZER" bom --model llama-3.1-8b --storage-tb -1 -o bad.csv
check "--storage-tb -1: exit 2" rc 2
check "--storage-tb -1: names the flag" contains "$err" "--storage-tb"

run "$ACCELSIZER" bom --help
check "--help: exit 0" rc 0
check "--help: documents formula neutralisation" contains "$out" "leading apostrophe"

done_testing
