#!/bin/bash
# report-render.sh - the page report.sh makes, rendered in headless Chromium: the PNG has real
# content and the DOM holds every chart with every bar and no script. A test of its own, so
# that a missing browser cannot hide behind the report's other checks: it fails when
# Chromium is missing but installable (tools/setup installs it), and says SKIP with the
# reason only where no Chromium package exists.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

chromium_or_skip "the report is not rendered"
mkdir "$tmp/page"
REPORT_KEEP=$tmp/page bash "$SBCDISK_SRCDIR/tests/store/report.sh" >"$tmp/report.log" 2>&1 ||
	{ echo "FAIL: report.sh, which makes the page:"; cat "$tmp/report.log"; exit 1; }
db=$tmp/page/results.db
cp "$tmp/page/report.html" "$tmp/report.html"
chrome --screenshot="$tmp/report.png" --window-size=1200,2400 "file://$tmp/report.html" >/dev/null
[ -f "$tmp/report.png" ] || fail "no screenshot: $(tail -3 "$tmp/chrome.err")"
[ -f "$tmp/report.png" ] && { python3 "$SBCDISK_SRCDIR/tests/store/png-check.py" \
	"$tmp/report.png" 30000 || fail "the screenshot is blank"; }
chrome --dump-dom "file://$tmp/report.html" >"$tmp/dom.html"
# expected: one chart per compare row, one bar per measured value
sb compare --db "$db" --json 6 7 8 9 19
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
