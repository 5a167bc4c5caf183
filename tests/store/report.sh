#!/bin/bash
# report.sh - `sbcdisk report` on the seed figures plus a run with hostile strings: the page
# against a golden file, every device string escaped, then rendered in headless Chromium:
# the PNG has real content and the DOM holds every chart with every bar.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"
export SOURCE_DATE_EPOCH=1796025600

db=$tmp/results.db
run history --db "$db" --import "$SBCDISK_SRCDIR/data/seed-results/seed-runs.json"
expect_rc 0
cat >"$tmp/hostile.json" <<'JSON'
{"schema": 1, "runs": [{"started_at": "2026-11-30T10:00:00Z", "profile": "default",
 "board": "<img src=x onerror=alert(2)>", "kernel": "6.6 & \"more\"",
 "device": {"name": "sdz", "model": "<script>alert(1)</script>", "serial": "'><svg onload=alert(3)>",
            "transport": "usb", "usb": {"vid": "152d", "pid": "0578", "speed_mbps": 480,
            "product": "</title></rect><script>x</script>", "hubs": [{"product": "<b>hub</b>"}]}},
 "findings": [{"id": "uas-errors", "severity": "error", "title": "<i>resets</i>"}],
 "tests": [{"name": "SEQ1M Q8T1", "rw": "read", "block_bytes": 1048576, "queue_depth": 8,
            "bw_bytes_per_s": 36000000},
           {"name": "<svg/onload=alert(4)>", "rw": "read", "bw_bytes_per_s": 1000000}]}]}
JSON
run history --db "$db" --import "$tmp/hostile.json"
expect_rc 0

# the four drives of seed 003 and the hostile run
run report --db "$db" 6 7 8 9 19 -o "$tmp/report.html"
expect_rc 0
cp "$tmp/report.html" "$tmp/out"
golden report.html
# nothing from a device became markup
grep -qi "<script\|<img\|<svg onload\|<svg/onload\|<i>resets\|<b>hub" "$tmp/report.html" &&
	fail "a device string was not escaped: $(grep -oi '<script[^>]*>\|<img[^>]*>' "$tmp/report.html" | head -3)"
grep -q "&lt;script&gt;alert(1)&lt;/script&gt;" "$tmp/report.html" || fail "model not shown as text"
# self-contained: nothing is fetched
grep -qiE "(src|href)=\"(https?:)?//" "$tmp/report.html" && fail "the page fetches something"

run report --db "$db" 6 x
expect_rc 2
run report --db "$db" 999
expect_rc 1

if ! command -v chromium >/dev/null; then
	echo "skip: no chromium for the render test"
	[ "$failures" = 0 ] && exit 77
	exit 1
fi
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
