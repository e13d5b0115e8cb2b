#!/bin/sh
# cli-examples.sh: runs the command-line examples against the real binary
# and writes them, with their real output, to docs/cli-examples.md (and
# into README.md between its "cli-examples" markers, when it has them).
# An example whose exit status is not the expected one stops the script,
# so the page never shows a command that no longer works.
#
#   scripts/cli-examples.sh [-b BINARY] [-o FILE] [--no-readme]
#
# BINARY defaults to $ACCELSIZER, then build/accelsizer, then accelsizer on
# $PATH.  The examples read the source tree's catalog and run in a
# temporary folder; BOM summaries are dated from the last commit
# (SOURCE_DATE_EPOCH) so that rerunning changes nothing unless the
# program or the catalog did.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${ACCELSIZER:-}
out=$top/docs/cli-examples.md
readme=$top/README.md
while [ $# -gt 0 ]; do
	case $1 in
	-b) bin=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	--no-readme) readme=""; shift ;;
	-h|--help) sed -n '2,14s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "cli-examples.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ -z "$bin" ]; then
	if [ -x "$top/build/accelsizer" ]; then bin=$top/build/accelsizer
	else bin=$(command -v accelsizer || true); fi
fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "cli-examples.sh: no accelsizer binary (build it, or give -b)" >&2; exit 2; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli-examples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/work"
# The catalog by a relative name from the work folder, where every example
# runs: `catalog show` prints the file's path as the folder was named, and
# the page must not carry the path of the checkout it was made in.
ln -s "$top/catalog" "$tmp/work/catalog"
ACCELSIZER_CATALOG=catalog
LC_ALL=C.UTF-8
export ACCELSIZER_CATALOG LC_ALL
unset ACCELSIZER_THEME XDG_CONFIG_HOME 2>/dev/null || true
if [ -z "${SOURCE_DATE_EPOCH:-}" ] && command -v git >/dev/null 2>&1; then
	SOURCE_DATE_EPOCH=$(git -C "$top" log -1 --format=%ct 2>/dev/null || true)
	[ -n "$SOURCE_DATE_EPOCH" ] && export SOURCE_DATE_EPOCH
fi

# The files the examples use.
cat >"$tmp/work/acme-chat.yaml" <<'EOF'
schema: 1
customer: ACME Corp
opportunity: Chat assistant
workload:
  class: inference
  model: llama-3.1-70b
  precision: fp8
  kv_precision: fp8
  input_tokens: 2048
  output_tokens: 512
  concurrency: 128
  tokens_per_s_per_user: 25
  ttft_ms: 800
objective: capex
accelerator: h200-sxm
EOF
cat >"$tmp/work/acme-prices.csv" <<'EOF'
sku,unit_price_usd,discount_pct,description
h200-sxm,31000,5,
"HGX H200 8-GPU, 8U (e.g. NVIDIA DGX H200)",52000,5,
NVIDIA ConnectX-7 2x200G QSFP112,1750,,"ConnectX-7 2x200G, storage network"
EOF

body=$tmp/body.md
rbody=$tmp/readme-body.md
: >"$body"
: >"$rbody"
# README.md gets the examples given between readme_on and readme_off.
in_readme=0
readme_on() { in_readme=1; }
readme_off() { in_readme=0; }
emit() {
	cat >>"$body"
	[ "$in_readme" = 0 ] || cat "$body.last" >>"$rbody"
}

# The command runs as written, with "accelsizer" being the binary under test.
accelsizer() { "$bin" "$@"; }

# example EXPECTED_STATUS 'COMMAND' [FILTER]: runs COMMAND in the work
# folder and appends it and its output (stdout and stderr) to the page.
# FILTER, a shell pipeline stage, may shorten long output; it is shown.
example() {
	want=$1 cmd=$2 filter=${3:-}
	set +e
	(cd "$tmp/work" && eval "$cmd") >"$tmp/out" 2>&1
	rc=$?
	set -e
	if [ "$rc" != "$want" ]; then
		echo "cli-examples.sh: '$cmd' exited $rc, expected $want:" >&2
		cat "$tmp/out" >&2
		exit 1
	fi
	shown=$cmd
	if [ -n "$filter" ]; then
		# "cmd | filter; echo $?" would print the filter's status
		[ "$want" = 0 ] || { echo "cli-examples.sh: a filter on a failing example" >&2; exit 2; }
		shown="$cmd | $filter"
		(cd "$tmp/work" && eval "$filter") <"$tmp/out" >"$tmp/out.f"
		mv "$tmp/out.f" "$tmp/out"
	fi
	{
		printf '```console\n$ %s\n' "$shown"
		cat "$tmp/out"
		[ "$rc" = 0 ] || printf '$ echo $?\n%s\n' "$rc"
		printf '```\n\n'
	} >"$body.last"
	emit <"$body.last"
}

text() { printf '%s\n\n' "$*" >"$body.last"; emit <"$body.last"; }
heading() { printf '### %s\n\n' "$*" >"$body.last"; emit <"$body.last"; }

heading "What is in the catalog"
text "Every command takes the ids in the first column. \`catalog list --models\`, \`--platforms\`, \`--fabrics\` and \`--defaults\` list the rest; \`catalog show ID\` prints every figure of one item with its sources."
example 0 'accelsizer catalog list'
example 0 'accelsizer catalog list --models'
example 0 'accelsizer catalog show h200-sxm'

readme_on
heading "Inference for a named model"
text "Llama 3.1 70B at fp8 for a chat assistant: 2048-token prompts, 512-token answers, 128 concurrent users who each need 25 tokens/s and a first token within 800 ms. Every accelerator is sized (GPUs, nodes, tensor-parallel layout), ranked by capital cost, and the resource that binds is named with the reason. Rows marked \`no\` cannot meet the workload."
example 0 'accelsizer recommend --model llama-3.1-70b --precision fp8 \
    --input-tokens 2048 --output-tokens 512 --concurrency 128 \
    --tokens-per-s-per-user 25 --ttft-ms 800'
readme_off
text "The same for scripts and spreadsheets: \`--format csv\` writes one row per accelerator, \`--format yaml\` also the workload and what it needs. Here only CUDA hardware, ranked by cost per million tokens, the top three, a few of the columns:"
example 0 'accelsizer recommend --model llama-3.1-70b --precision fp8 \
    --input-tokens 2048 --output-tokens 512 --concurrency 128 \
    --tokens-per-s-per-user 25 --ttft-ms 800 \
    --stack cuda --objective cost-per-token --format csv' \
	"cut -d, -f1-6 | head -n 4"

readme_on
heading "Pretraining in N days"
text "Llama 2 7B on 2 trillion tokens in 30 days: GPUs, nodes, parallel layout (tensor, pipeline, data parallel and ZeRO stage), predicted hours, MFU, scaling efficiency, cost of the run."
example 0 'accelsizer recommend --workload pretrain --model llama-2-7b \
    --tokens 2T --days 30'

heading "LoRA fine-tuning"
text "A LoRA fine-tune of Llama 3.1 70B on 100M tokens, 3 epochs, within 24 hours, fastest first:"
example 0 'accelsizer recommend --workload finetune --method lora \
    --model llama-3.1-70b --tokens 100M --epochs 3 --hours 24 --objective time'

heading "A grid of scenarios"
text "\`sweep\` runs the engine over every combination of the axes given and writes one CSV row per scenario and accelerator. Here: which accelerator is cheapest as the number of users grows, for two models at two precisions (the first columns of each scenario's best-ranked accelerator):"
example 0 'accelsizer sweep --models llama-3.1-8b,llama-3.1-70b --precisions fp16,fp8 \
    --concurrency 1..256*4 --tokens-per-s-per-user 20 --top 1' "cut -d, -f1-9"

readme_off
heading "What to measure before buying"
text "The validation plan for one accelerator: the benchmark, the metric, the engine's prediction and the threshold a measurement must meet."
example 0 'accelsizer validate --scenario acme-chat.yaml --accelerator h200-sxm'

heading "A bill of materials with your own price list"
text "A saved scenario (the wizard's \`s\` key writes one) and a price list from a distributor. The price list overrides the catalog's indicative prices by SKU; a discount column is applied to the cent."
example 0 'cat acme-chat.yaml'
example 0 'cat acme-prices.csv'
example 0 'accelsizer bom --scenario acme-chat.yaml --prices acme-prices.csv \
    --summary acme-chat.txt -o acme-chat-bom.csv'
example 0 'cat acme-chat-bom.csv'
example 0 'cat acme-chat.txt'
text "Flags override the scenario, so one saved scenario gives several quotes:"
example 0 'accelsizer bom --scenario acme-chat.yaml --accelerator mi300x -o -' "tail -n 3"

heading "Several workloads on one cluster"
text "A customer rarely buys for one model: a scenario's \`workloads:\` list is sized workload by workload, then as one cluster per accelerator. Serving workloads that each fill part of a node share nodes, small models share cards on MIG slices when that saves cards, and a weekly fine-tune may time-share the serving GPUs (\`share_gpus\`) at the cost the \`total\` row states. \`bom\` quotes the whole cluster (its total is recommend's \`total\` capex) and \`validate\` adds the shared cluster's plan to each workload's."
cat >"$tmp/work/acme-all.yaml" <<'EOF'
schema: 1
customer: ACME Corp
share_gpus: true
workloads:
  - {name: chat, model: llama-3.1-70b, precision: fp8, concurrency: 64}
  - {name: search, model: llama-3.1-8b, precision: fp8, concurrency: 1}
  - {name: support, model: llama-3.1-8b, precision: fp8, concurrency: 1}
  - {name: weekly-lora, class: finetune, model: llama-3.1-8b, method: lora, tokens: 50M,
     epochs: 1, hours_per_week: 8}
EOF
example 0 'cat acme-all.yaml'
example 0 'accelsizer recommend --scenario acme-all.yaml --accelerator h100-sxm'
example 0 'accelsizer bom --scenario acme-all.yaml --accelerator h100-sxm -o acme-all-bom.csv'
example 0 'accelsizer validate --scenario acme-all.yaml --accelerator h100-sxm' "sed -n '/shared cluster/,\$p'"

heading "A proposal for the customer"
text "The document to send after the call, from the same scenario: HTML to print (two pages) or Markdown for an email. Its BOM total is the bom command's to the cent."
example 0 'accelsizer proposal --scenario acme-chat.yaml -o acme-chat.html'
example 0 'accelsizer proposal --scenario acme-chat.yaml --format md -o -' "sed -n 1,40p"

readme_on
heading "When the answer is no, or the input is wrong"
text "Exit status 1 means nothing in the catalog can meet the workload, 2 means bad input; the message names the flag or the file, line and column."
example 1 'accelsizer recommend --model llama-3.1-405b --tokens-per-s-per-user 300 \
    --accelerator h200-sxm'
example 2 'accelsizer recommend --model llama-3.1-70 --input-tokens 2,048'
readme_off
example 2 'accelsizer recommend --model llama-3.1-70b --input-tokens 0x800'
printf 'schema: 1\nworkload:\n  class: inference\n  concurrency: lots\n' >"$tmp/work/broken.yaml"
example 2 'accelsizer recommend --scenario broken.yaml'

version=$("$bin" --version)
{
	cat <<EOF
# accelsizer on the command line

Real commands and their real output ($version, the bundled catalog),
generated by \`scripts/cli-examples.sh\`: run it again after changing the
program or the catalog and this page follows. Prices are the catalog's
indicative list prices, not quotes.

EOF
	sed 's/^### /## /' "$body"
} >"$tmp/page.md"

mkdir -p "$(dirname "$out")"
# No trailing blank line at the end of the file.
awk 'NF { for (; blank > 0; blank--) print ""; print; next } { blank++ }' "$tmp/page.md" >"$out"
echo "cli-examples.sh: wrote $out"

# README.md: the same examples between
#   <!-- cli-examples: begin (scripts/cli-examples.sh) -->
#   <!-- cli-examples: end -->
if [ -n "$readme" ] && [ -f "$readme" ] && grep -q '^<!-- cli-examples: begin' "$readme"; then
	{
		echo
		awk 'NF { for (; blank > 0; blank--) print ""; print; next } { blank++ }' "$rbody"
		echo
		echo "More, with CSV and YAML output, a BOM with a price list and the validation plan: [docs/cli-examples.md](docs/cli-examples.md)."
		echo
	} >"$tmp/block"
	awk -v block="$tmp/block" '
		/^<!-- cli-examples: begin/ { print; while ((getline l < block) > 0) print l; skip = 1; next }
		/^<!-- cli-examples: end/ { skip = 0 }
		!skip { print }' "$readme" >"$tmp/readme"
	if ! cmp -s "$tmp/readme" "$readme"; then
		cat "$tmp/readme" >"$readme"
		echo "cli-examples.sh: updated the examples in $readme"
	fi
fi
