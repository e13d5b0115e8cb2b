#!/bin/sh
# Regenerates the fuzzers' seed corpora and dictionaries from the real
# files: catalog/, themes/ and the fixtures under tests/fixtures/.
#   sh fuzz/seeds.sh        (from anywhere; writes fuzz/corpus and fuzz/dict)
# A catalog seed is one byte naming the kind of file (0 accelerator,
# 1 platform, 2 fabric, 3 model, 4 defaults.yaml; see fuzz/fuzz_catalog.c)
# followed by the file.  Run it again when the catalog or fixtures change.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
corpus=fuzz/corpus
# (the cache and number targets' seeds are written by hand, not from
# files: see fuzz/fuzz_cache.c and fuzz/fuzz_number.c; they stay)
for t in catalog scenario theme prices ledger hfconfig; do
	rm -rf "${corpus:?}/$t" "fuzz/dict/$t.dict"
done
mkdir -p "$corpus/catalog" "$corpus/scenario" "$corpus/theme" "$corpus/prices" "$corpus/ledger" \
	"$corpus/hfconfig" fuzz/dict

kind_byte() {	# folder name -> the selector byte
	case $1 in
	accelerators) printf '\000' ;;
	platforms) printf '\001' ;;
	fabrics) printf '\002' ;;
	models) printf '\003' ;;
	*) printf '\004' ;;
	esac
}

# Seeds are named after where they come from, with / turned into _.
seed_name() { printf '%s' "$1" | sed 's|^tests/fixtures/||; s|/|_|g'; }

find catalog tests/fixtures/catalog \( -name published -o -name bad-published \) -prune -o \
	-name '*.yaml' ! -name ledger-template.yaml -type f -print | sort | while read -r f; do
	dir=$(basename "$(dirname "$f")")
	case $(basename "$f") in defaults.yaml) dir=defaults ;; esac
	{ kind_byte "$dir"; cat "$f"; } >"$corpus/catalog/$(seed_name "$f")"
done

find tests/fixtures/scenarios -name '*.yaml' -type f | sort | while read -r f; do
	cp "$f" "$corpus/scenario/$(seed_name "$f")"
done
find themes -name '*.yaml' -type f | sort | while read -r f; do
	cp "$f" "$corpus/theme/$(seed_name "$f")"
done
find tests/fixtures/hf -name '*.json' -type f | sort | while read -r f; do
	cp "$f" "$corpus/hfconfig/$(seed_name "$f")"
done
find tests/fixtures/prices -name '*.csv' -type f | sort | while read -r f; do
	cp "$f" "$corpus/prices/$(seed_name "$f")"
done
# The ledger target loads against the good fixture catalog: the template
# entry (with a value) loads, the bundled files and the malformed fixtures
# give it the keys and the errors.
sed 's/VALUE/1000/' tests/fixtures/catalog/ledger-template.yaml >"$corpus/ledger/ledger-template.yaml"
find catalog/published -maxdepth 1 -name '*.yaml' -type f | sort | while read -r f; do
	cp "$f" "$corpus/ledger/$(seed_name "$f")"
done
find tests/fixtures/catalog/bad-published -name '*.yaml' -type f | sort | while read -r f; do
	cp "$f" "$corpus/ledger/$(seed_name "$f")"
done

# Dictionaries: every key and every plain word value the seeds use, so
# the fuzzer spells the schema's words instead of guessing them byte by
# byte, plus the YAML and number forms a hostile file would try.
yaml_words() {
	sed -n 's/^[ -]*\([A-Za-z_][A-Za-z0-9_]*\):.*/\1:/p; s/^[ -]*[A-Za-z_][A-Za-z0-9_]*: *\([a-z][a-z0-9.-]*\) *$/\1/p' "$@" |
		LC_ALL=C grep -a '^[ -~]*$' | sort -u | sed 's/.*/"&"/'
	cat <<'WORDS'
"&a"
"*a"
"!!str "
"!!binary "
"<<: "
"---"
"..."
"{"
"}"
"["
"]"
"\x22"
"'"
"|"
">"
"~"
"null"
".nan"
".inf"
"-.inf"
"1e308"
"-0"
"18446744073709551616"
"9223372036854775807"
"2147483648"
"1e-320"
"\x5cx1b"
"\x5cu0000"
WORDS
}
yaml_words catalog/*/*.yaml catalog/defaults.yaml >fuzz/dict/catalog.dict
yaml_words tests/fixtures/scenarios/*/*.yaml >fuzz/dict/scenario.dict
yaml_words themes/*.yaml >fuzz/dict/theme.dict
yaml_words "$corpus"/ledger/* >fuzz/dict/ledger.dict
{
	sed -n '1p' tests/fixtures/prices/*/*.csv | tr ',\r' '\n\n' | sed '/^$/d' | sort -u | sed 's/.*/"&"/'
	cat <<'WORDS'
"sku"
"unit_price_usd"
"currency"
"discount_pct"
"description"
"USD"
","
"\x22"
"\x0d\x0a"
"\xef\xbb\xbf"
"100"
"0.005"
"99999999999.995"
"1e9"
"-0"
WORDS
} | sort -u >fuzz/dict/prices.dict

# config.json: its keys as JSON spells them, and the JSON forms
{
	grep -oh '"[A-Za-z_][A-Za-z0-9_]*":' tests/fixtures/hf/*/*.json | sed 's/"/\\x22/g; s/.*/"&"/'
	cat <<'WORDS'
"null"
"true"
"false"
"{"
"}"
"["
"]"
","
"\x22text_config\x22:"
"\x22layer_types\x22:"
"\x22sliding_attention\x22"
"\x22use_sliding_window\x22:"
"\x22max_window_layers\x22:"
"\x22num_experts\x22:"
"\x22shared_expert_intermediate_size\x22:"
"\x22head_dim\x22:"
"1e308"
"-1"
"2147483648"
WORDS
} | sort -u >fuzz/dict/hfconfig.dict

for t in catalog scenario theme prices ledger hfconfig; do
	echo "fuzz/corpus/$t: $(ls "$corpus/$t" | wc -l) seeds, fuzz/dict/$t.dict: $(wc -l <fuzz/dict/$t.dict) words"
done
