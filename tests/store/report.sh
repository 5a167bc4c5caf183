#!/bin/bash
# report.sh - `sbcdisk report` on the seed figures plus a run with hostile strings: the page
# against a golden file, every device string escaped (report-render.sh renders it).
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"
export SOURCE_DATE_EPOCH=1796025600

db=$tmp/results.db
sb history --db "$db" --import "$SBCDISK_SRCDIR/data/seed-results/seed-runs.json"
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
sb history --db "$db" --import "$tmp/hostile.json"
expect_rc 0

# the four drives of seed 003 and the hostile run
sb report --db "$db" 6 7 8 9 19 -o "$tmp/report.html"
expect_rc 0
cp "$tmp/report.html" "$tmp/out"
golden report.html
# nothing from a device became markup
grep -qi "<script\|<img\|<svg onload\|<svg/onload\|<i>resets\|<b>hub" "$tmp/report.html" &&
	fail "a device string was not escaped: $(grep -oi '<script[^>]*>\|<img[^>]*>' "$tmp/report.html" | head -3)"
grep -q "&lt;script&gt;alert(1)&lt;/script&gt;" "$tmp/report.html" || fail "model not shown as text"
# self-contained: nothing is fetched
grep -qiE "(src|href)=\"(https?:)?//" "$tmp/report.html" && fail "the page fetches something"

# a page made after 2038 says so, on a 32-bit build too (time_t has 64 bits there)
SOURCE_DATE_EPOCH=2240611200 sb report --db "$db" 6 -o "$tmp/late.html"
expect_rc 0
grep -q 'made by sbcdisk [^<]*2041-01-01 00:00 UTC' "$tmp/late.html" ||
	fail "the time past 2038 is wrong: $(grep -o 'made by sbcdisk[^<]*' "$tmp/late.html")"

# the Pi 4 drives of seed 003 (hdparm): the cached reads are memory figures, never drawn
# against the disk's ceiling nor judged as the disk; the disk reads are
sb report --db "$db" 10 11 12 13 -o "$tmp/pi4.html"
expect_rc 0
python3 - "$tmp/pi4.html" <<'PY' || fail "cached reads judged against the disk"
import re, sys
page = open(sys.argv[1]).read()
charts = dict(re.findall(r'data-test="([^"]+)">(.*?)</svg>', page, re.S))
cached, disk = charts["cached reads read"], charts["buffered disk reads read"]
assert 'class="ceiling"' not in cached, "a ceiling on the cached reads"
assert "lim-memory" in cached and "limited by" not in cached, cached[:400]
assert "limited by the device" in disk, "the disk reads not judged"
PY

sb report --db "$db" 6 x
expect_rc 2
sb report --db "$db" 999
expect_rc 1

# report-render.sh renders this page in Chromium: it runs this script with REPORT_KEEP=DIR
[ -n "${REPORT_KEEP:-}" ] && cp "$tmp/report.html" "$db" "$REPORT_KEEP/"
finish
