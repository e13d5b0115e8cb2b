#!/bin/sh
# The proposal prints on two pages (issue 17 item 7): each call of
# examples/, the longest elevation and the most workloads, laid out by WeasyPrint on A4 and on Letter (the paper a
# printer would choose: the page rule has no size of its own) gives two
# pages, the first ending before the validation plan and the second
# holding the rest and the footer.  WeasyPrint (Debian: weasyprint,
# installed by ./quickstart.sh test) uses the fonts it finds; DejaVu Sans,
# wider than the Helvetica and Arial the style names, is the worst case.
# shellcheck source=tests/lib.sh source-path=SCRIPTDIR/../..
. "$TOP_SRCDIR/tests/lib.sh"

SOURCE_DATE_EPOCH=1767225600
export SOURCE_DATE_EPOCH
PY=/usr/bin/python3
if ! [ -x "$PY" ] || ! "$PY" -c 'import weasyprint' 2>/dev/null; then
	skip_all "WeasyPrint is not installed (Debian: weasyprint)"
fi

# pages FILE.html: one line per page, the section ids that start on it.
cat >"$TMPD/pages.py" <<'EOF'
import sys, logging
logging.getLogger('weasyprint').setLevel(logging.ERROR)
from weasyprint import HTML
def walk(box, out):
    el = getattr(box, 'element', None)
    if el is not None and getattr(box, 'element_tag', None) in ('section', 'footer'):
        name = el.get('id') or 'footer'
        if name not in out:
            out.append(name)
        return
    for c in getattr(box, 'children', None) or []:
        walk(c, out)
for page in HTML(sys.argv[1]).render().pages:
    out = []
    walk(page._page_box, out)
    print(' '.join(out))
EOF

# the three calls, a 256-GPU H100 pretraining (32 nodes in 11 racks: the
# longest elevation) and three workloads on one purchase (the most tables)
for call in bank-chat lab-pretrain startup-lora big three; do
	case $call in
	big) set -- --workload pretrain --model llama-3.1-70b --accelerator h100-sxm --gpus 256 ;;
	three) set -- --scenario "$TOP_SRCDIR/tests/fixtures/scenarios/workloads/three.yaml" ;;
	*) set -- --scenario "$TOP_SRCDIR/examples/$call.yaml" ;;
	esac
	run "$ACCELSIZER" proposal "$@" -o "$TMPD/$call.html"
	check "$call: proposal written" rc 0
	for paper in A4 letter; do
		sed "s/@page { margin: \([0-9]*mm\); }/@page { size: $paper; margin: \1; }/" "$TMPD/$call.html" \
			>"$TMPD/$call-$paper.html"
		check "$call, $paper: the page rule was found" contains "$(cat "$TMPD/$call-$paper.html")" \
			"size: $paper"
		layout=$("$PY" "$TMPD/pages.py" "$TMPD/$call-$paper.html" 2>"$TMPD/py.err")
		check "$call, $paper: two pages" equals "$(printf '%s\n' "$layout" | wc -l | tr -d ' ')" 2
		check "$call, $paper: page 2 starts at the validation plan" matches \
			"$(printf '%s\n' "$layout" | sed -n 2p)" '^validation '
		check "$call, $paper: the footer is on page 2" matches \
			"$(printf '%s\n' "$layout" | sed -n 2p)" ' footer$'
	done
done

done_testing
