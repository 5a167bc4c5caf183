#!/bin/bash
# report-render.sh - the page report.sh makes, rendered in headless Chromium: the PNG has real
# content and the DOM holds every chart with every bar and no script. A test of its own, so
# that a missing browser cannot hide behind the report's other checks: it fails when
# Chromium is missing but installable (tools/setup installs it), and says SKIP with the
# reason only where no Chromium package exists.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

if ! command -v chromium >/dev/null; then
	if apt-cache policy chromium 2>/dev/null | grep -q 'Candidate: [0-9]'; then
		echo "FAIL: chromium is not installed but can be: run tools/setup (apt-get install" \
			"chromium)"
		exit 1
	fi
	echo "SKIP: no chromium, and no chromium package for this system (apt-cache policy" \
		"chromium has no candidate): the report is not rendered"
	exit 77
fi
mkdir "$tmp/page"
REPORT_KEEP=$tmp/page bash "$SBCDISK_SRCDIR/tests/store/report.sh" >"$tmp/report.log" 2>&1 ||
	{ echo "FAIL: report.sh, which makes the page:"; cat "$tmp/report.log"; exit 1; }
db=$tmp/page/results.db
cp "$tmp/page/report.html" "$tmp/report.html"
chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$tmp/chrome.XXXXXX")" "$@" 2>"$tmp/chrome.err"
}
chrome --screenshot="$tmp/report.png" --window-size=1200,2400 "file://$tmp/report.html" >/dev/null
[ -f "$tmp/report.png" ] || fail "no screenshot: $(tail -3 "$tmp/chrome.err")"
[ -f "$tmp/report.png" ] && { python3 "$SBCDISK_SRCDIR/tests/store/png-check.py" \
	"$tmp/report.png" 30000 || fail "the screenshot is blank"; }
chrome --dump-dom "file://$tmp/report.html" >"$tmp/dom.html"
# expected: one chart per compare row, one bar per measured value
run compare --db "$db" --json 6 7 8 9 19
python3 - "$tmp/out" "$tmp/dom.html" <<'PY' || fail "charts in the rendered page"
import json, re, sys
cmp = json.load(open(sys.argv[1]))
dom = open(sys.argv[2]).read()
charts = len(cmp["rows"])
bars = sum(v is not None for r in cmp["rows"] for v in r["values"])
got_charts = len(re.findall(r'<svg class="chart"', dom))
got_bars = len(re.findall(r'<rect class="bar ', dom))
scripts = len(re.findall(r"<script", dom, re.I))
print(f"rendered: {got_charts}/{charts} charts, {got_bars}/{bars} bars, {scripts} scripts")
ok = got_charts == charts and got_bars == bars and scripts == 0 and charts > 0
ok = ok and "Storage report" in dom and "&lt;script&gt;alert(1)&lt;/script&gt;" in dom
sys.exit(0 if ok else 1)
PY
finish
