#!/bin/sh
# `accelsizer catalog list|show|check`: tables, item details, validation
# and exit codes, on the fixture catalog (exact output), on the bundled
# catalog (it must pass its own check) and on broken catalogs.
# shellcheck source=tests/lib.sh source-path=SCRIPTDIR/../..
. "$TOP_SRCDIR/tests/lib.sh"

A=$ACCELSIZER
FIX=$TOP_SRCDIR/tests/fixtures/catalog
GOOD=$FIX/good
BUNDLED=$TOP_SRCDIR/catalog
nl='
'

# ---- help and version ----
run "$A" --version
check "--version exits 0" rc 0
check "--version names the program" matches "$out" '^accelsizer [0-9]+\.[0-9]+'
run "$A" --help
check "--help exits 0" rc 0
check "--help mentions the catalog command" contains "$out" "accelsizer catalog list|show ID|check [DIR]"
run "$A" catalog --help
check "catalog --help exits 0" rc 0
check "catalog --help shows usage" contains "$out" "Usage: accelsizer catalog list"
for sub in list show check; do
	run "$A" catalog $sub --help
	check "catalog $sub --help exits 0" rc 0
	check "catalog $sub --help prints usage on stdout" contains "$out" "--catalog DIR"
	check "catalog $sub --help is quiet on stderr" equals "$err" ""
done
run "$A" catalog list --version
check "catalog list --version exits 0" rc 0
check "catalog list --version prints the version" matches "$out" '^accelsizer [0-9]'

# ---- list on the fixture: exact tables ----
run "$A" catalog list --catalog "$GOOD"
check "list exits 0" rc 0
check "list: aligned accelerator table" equals "$out" \
"ID        NAME                   MEM GB  BW TB/s  BF16 TFLOPS  FP8 TFLOPS  LINK             LINK GB/s  POWER W
h100-sxm  NVIDIA H100 SXM5 80GB      80     3.35          989        1979  NVLink4                900      700
l40s      NVIDIA L40S                48    0.864          362         733  PCIe                    64      350
mi300x    AMD Instinct MI300X       192      5.3       1307.4      2614.9  Infinity Fabric        896      750"

run "$A" catalog list --models --catalog "$GOOD"
check "list --models exits 0" rc 0
check "list --models: aligned model table" equals "$out" \
"ID            NAME          PARAMS B  ACTIVE B  LAYERS  HIDDEN  HEADS  KV HEADS  CONTEXT
deepseek-v3   DeepSeek-V3        671        37      61    7168    128       128   163840
llama-3-8b    Llama 3 8B        8.03      8.03      32    4096     32         8     8192
mixtral-8x7b  Mixtral 8x7B      46.7      12.9      32    4096     32         8    32768"

run "$A" catalog list --platforms --catalog "$GOOD"
check "list --platforms exits 0" rc 0
check "list --platforms: aligned platform table" equals "$out" \
"ID           NAME                     ACCELERATOR  GPUS  TOPOLOGY      NICS  RU  MAX W  PRICE USD
hgx-h100-8   HGX H100 8-GPU server    h100-sxm        8  switched  8 x 400G   8  10200     100000
mi300x-8     MI300X 8-GPU UBB server  mi300x          8  mesh      8 x 400G   8  10000      90000
pcie-l40s-4  PCIe server with 4 L40S  l40s            4  pcie      1 x 200G   2   2400      20000
pcie-l40s-8  PCIe server with 8 L40S  l40s            8  pcie      2 x 200G   4   4800      30000"

run "$A" catalog list --fabrics --catalog "$GOOD"
check "list --fabrics exits 0" rc 0
check "list --fabrics: aligned fabric table" equals "$out" \
"ID      NAME                 KIND        PORT Gb/s  SWITCH            RADIX  SWITCH USD  LATENCY us
ib-ndr  InfiniBand NDR 400G  infiniband        400  Quantum-2 QM9700     64       30000           5"

run "$A" catalog list --defaults --catalog "$GOOD"
check "list --defaults exits 0" rc 0
check "list --defaults: every default with unit and source" contains "$out" \
"pue                             1.3  ratio         fixture pue"
ndefaults=$(sed -n '/^#define CATALOG_DEFAULTS(X)/,/[^\\]$/p' "$TOP_SRCDIR/src/catalog.h" | grep -c '^[[:space:]]*X(')
check "list --defaults: one row per default plus the header" equals "$(printf '%s\n' "$out" | wc -l)" "$((ndefaults + 1))"
check "the defaults were read from CATALOG_DEFAULTS ($ndefaults)" matches "$ndefaults" '^[1-9][0-9]+$'

run "$A" catalog list --models --fabrics --catalog "$GOOD"
check "list with two tables is refused" rc 2
check "list with two tables says why" contains "$err" "choose one of --models, --platforms, --fabrics, --defaults"

# ---- show on the fixture ----
run "$A" catalog show h100-sxm --catalog "$GOOD"
check "show accelerator exits 0" rc 0
check "show: header names the file" equals "$(printf '%s\n' "$out" | head -1)" \
	"accelerator h100-sxm  ($GOOD/accelerators/h100-sxm.yaml)"
check "show: memory" contains "$out" "  memory.capacity_gb         80 GB${nl}  memory.type                HBM3${nl}  memory.bandwidth_tb_s      3.35 TB/s"
check "show: unsupported precision" contains "$out" "  peak_tflops.fp4            - (not supported)"
check "show: int8 in TOPS" contains "$out" "  peak_tflops.int8           1979 TOPS dense"
check "show: efficiency with its source" contains "$out" \
	"  efficiency.compute         0.5  (source: fixture: compute efficiency)"
check "show: unconfirmed efficiency marked" contains "$out" \
	"  efficiency.link            0.65  (source: unconfirmed: fixture link efficiency)  [UNCONFIRMED]"
check "show: price with date and source" contains "$out" \
	"  price                      USD 30000 as of 2024-06, indicative  (source: fixture price)"
check "show: platforms of the accelerator" contains "$out" "  platforms                  hgx-h100-8 (8 GPUs)"
check "show: sources with the unconfirmed one marked" contains "$out" \
"  sources (1 of 2 unconfirmed, marked !)
    - NVIDIA H100 datasheet
    ! unconfirmed: fp64 tensor figure"

run "$A" catalog show l40s --catalog "$GOOD"
check "show: training MFU falls back to the default" contains "$out" \
	"  efficiency.training        - (defaults.training_mfu 0.35 applies)"
check "show: two platforms, smallest first" contains "$out" \
	"  platforms                  pcie-l40s-4 (4 GPUs), pcie-l40s-8 (8 GPUs)"

run "$A" catalog show hgx-h100-8 --catalog "$GOOD"
check "show platform exits 0" rc 0
check "show platform: accelerator resolved" contains "$out" "  accelerator                h100-sxm - NVIDIA H100 SXM5 80GB"
check "show platform: BOM line" contains "$out" \
	"    8 x NIC-CX7  ConnectX-7 400G  [network]  USD 2000 each, 25 W each  (source: unconfirmed: fixture NIC price)  [UNCONFIRMED]"

run "$A" catalog show ib-ndr --catalog "$GOOD"
check "show fabric exits 0" rc 0
check "show fabric: switch" contains "$out" "  switch.radix               64 ports"
check "show fabric: efficiency" contains "$out" "  efficiency                 0.85  (source: fixture)"

run "$A" catalog show mixtral-8x7b --catalog "$GOOD"
check "show model exits 0" rc 0
check "show model: experts" contains "$out" "  experts.total              8${nl}  experts.active             2"
check "show model: sliding window on all layers" contains "$out" "  sliding_window.layers      all"
check "show model: params in billions" contains "$out" "  active_params_b            12.9 billion per token"

run "$A" catalog show defaults --catalog "$GOOD"
check "show defaults exits 0" rc 0
check "show defaults: version" contains "$out" "  version                    fixture-1"
check "show defaults: a default with its unit and source" contains "$out" \
	"  electricity_usd_per_kwh    0.12 USD/kWh  (source: fixture electricity_usd_per_kwh)"
# the bundled catalog's networks: what a source gives, and that no price
# or switch power was read (their BOM lines are unpriced)
run "$A" catalog show defaults
check "show defaults: the front-end network, its shape" contains "$out" \
	"frontend: MSN4600C NVIDIA Spectrum-3 SN4600C, 64 x 100GbE QSFP28, 2U (front-end: in-band management and storage), 64 ports in sets of 2, 2 per node, 2U; power not in the catalog; price none (from price list); cables DAC-100G-QSFP28 / MFA1A00-C0xx"
check "show defaults: the OOB network's sources" contains "$out" \
	"source: ports_per_node 1: DGX BasePOD Core Components"

run "$A" catalog show h100-sxn --catalog "$GOOD"
check "show unknown id exits 2" rc 2
check "show unknown id names it and suggests" equals "$err" \
	"accelsizer catalog show: no accelerator, platform, fabric, model or published result 'h100-sxn'; did you mean 'h100-sxm'?"
check "show unknown id prints nothing on stdout" equals "$out" ""
run "$A" catalog show nothing-like-it --catalog "$GOOD"
check "show unknown id without a near one exits 2" rc 2
check "show unknown id points at list" contains "$err" "'nothing-like-it' (see 'accelsizer catalog list')"
run "$A" catalog show --catalog "$GOOD"
check "show without an id exits 2" rc 2
check "show without an id says so" contains "$err" "which item?"
run "$A" catalog show a b --catalog "$GOOD"
check "show with two ids exits 2" rc 2
check "show with two ids names the extra one" contains "$err" "unexpected argument 'b'"

# ---- check ----
run "$A" catalog check "$GOOD"
check "check good fixture exits 0" rc 0
check "check good fixture summary" equals "$out" \
	"catalog OK: 3 accelerators, 4 platforms, 1 fabric, 3 models (3 figures unconfirmed)"
run "$A" catalog check --catalog "$GOOD"
check "check --catalog DIR works like check DIR" rc 0

run "$A" catalog check "$FIX/bad/several"
check "check broken catalog exits 2" rc 2
check "check broken catalog: first problem" contains "$err" \
	"$FIX/bad/several/accelerators/l40s.yaml:22:10: power_w must be in [1, 100000], got 0"
check "check broken catalog: second problem, same file" contains "$err" \
	"$FIX/bad/several/accelerators/l40s.yaml:24:8: stack: expected one of cuda, rocm, gaudi, got 'opencl'"
check "check broken catalog: problem in another file" contains "$err" \
	"$FIX/bad/several/platforms/pcie-l40s-4.yaml:4:16: gpus_per_node must be in [1, 128], got 0"
check "check broken catalog: summary" contains "$err" "is invalid: 3 problems"
check "check broken catalog: nothing on stdout" equals "$out" ""

run "$A" catalog check "$FIX/bad/too-many-errors"
check "check with more than 50 problems exits 2" rc 2
check "check with more than 50 problems says it stopped" contains "$err" "stopped after 50 problems"
check "check with more than 50 problems shows 50" equals "$(printf '%s\n' "$err" | grep -c 'unknown key')" 50

run "$A" catalog check /nonexistent/catalog
check "check missing folder exits 2" rc 2
check "check missing folder names it" equals "$err" "accelsizer: catalog folder '/nonexistent/catalog' not found"
run "$A" catalog check "$GOOD" --catalog "$GOOD"
check "check with both DIR and --catalog exits 2" rc 2

# ---- a broken catalog stops every command ----
run "$A" catalog list --catalog "$FIX/bad/unknown-key-typo"
check "list on a broken catalog exits 2" rc 2
check "list on a broken catalog prints the problem" contains "$err" \
	"accelerators/h100-sxm.yaml:10:3: unknown key 'bandwith_tb_s'; did you mean 'bandwidth_tb_s'?"
check "list on a broken catalog prints no table" equals "$out" ""
run env ACCELSIZER_CATALOG="$FIX/bad/no-bf16" "$A" catalog list
check "\$ACCELSIZER_CATALOG is used" contains "$err" "missing required key 'peak_tflops.bf16'"
run env ACCELSIZER_CATALOG=/nonexistent/env "$A" catalog list
check "\$ACCELSIZER_CATALOG naming no folder exits 2" rc 2
check "\$ACCELSIZER_CATALOG naming no folder says where it came from" equals "$err" \
	"accelsizer: catalog folder '/nonexistent/env' not found (from \$ACCELSIZER_CATALOG)"
run "$A" catalog list --catalog /nonexistent/flag
check "--catalog naming no folder says where it came from" equals "$err" \
	"accelsizer: catalog folder '/nonexistent/flag' not found (from --catalog)"

# ---- bad command lines ----
run "$A" catalog
check "catalog without a command exits 2" rc 2
check "catalog without a command says so" contains "$err" "which command?"
run "$A" catalog frob
check "unknown catalog command exits 2" rc 2
check "unknown catalog command is named" contains "$err" "unknown command 'frob'"
run "$A" catalog list --bogus
check "unknown option exits 2" rc 2
check "unknown option is named" contains "$err" "accelsizer catalog list: unknown option '--bogus'"
run "$A" catalog list --catalog
check "--catalog without a value exits 2" rc 2
check "--catalog without a value is named" contains "$err" "option '--catalog' needs a value"
run "$A" catalog show x --models
check "list-only option on show exits 2" rc 2
run "$A" catalog list extra
check "list with an argument exits 2" rc 2

# ---- the bundled catalog ----
run "$A" catalog check "$BUNDLED"
check "bundled catalog passes check" rc 0
count() { find "$BUNDLED/$1" -name '*.yaml' | wc -l | tr -d ' '; }
na=$(count accelerators) np=$(count platforms) nf=$(count fabrics) nm=$(count models)
check "bundled catalog: counts match its files" matches "$out" \
	"^catalog OK: $na accelerators?, $np platforms?, $nf fabrics?, $nm models? \\([0-9]+ figures? unconfirmed\\)\$"
run "$A" catalog list
check "bundled list exits 0" rc 0
check "bundled list: one row per accelerator" equals "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" $((na + 1))
for f in "$BUNDLED"/accelerators/*.yaml; do
	id=$(basename "$f" .yaml)
	check "bundled list has $id" matches "$out" "^$id "
done
for what in models platforms fabrics; do
	run "$A" catalog list --$what
	check "bundled list --$what exits 0" rc 0
	n=$(count $what)
	check "bundled list --$what: one row each" equals "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" $((n + 1))
done
for f in "$BUNDLED"/accelerators/*.yaml "$BUNDLED"/platforms/*.yaml "$BUNDLED"/fabrics/*.yaml "$BUNDLED"/models/*.yaml; do
	id=$(basename "$f" .yaml)
	run "$A" catalog show "$id"
	check "bundled show $id" rc 0
done

# An uninstalled build finds its source tree's catalog on its own.
mkdir -p "$TMPD/home" "$TMPD/xdg"
# shellcheck disable=SC2016 # $@ belongs to the inner shell
without_env='unset ACCELSIZER_CATALOG; exec "$@"'
run sh -c "$without_env" sh env HOME="$TMPD/home" XDG_CONFIG_HOME="$TMPD/xdg" "$A" catalog check
check "uninstalled build finds the source catalog" rc 0
# The user's own catalog comes before it.
mkdir -p "$TMPD/xdg/accelsizer"
cp -R "$GOOD" "$TMPD/xdg/accelsizer/catalog"
run sh -c "$without_env" sh env HOME="$TMPD/home" XDG_CONFIG_HOME="$TMPD/xdg" "$A" catalog check
check "user's catalog passes" rc 0
check "\$XDG_CONFIG_HOME/accelsizer/catalog comes first" equals "$out" \
	"catalog OK: 3 accelerators, 4 platforms, 1 fabric, 3 models (3 figures unconfirmed)"

done_testing
