#!/bin/bash
# boot-times-render.sh - the report page of boot-times.sh (runs with recorded boot times)
# rendered in headless Chromium: the boot-times table is in the DOM with one row per boot
# device and its figures, the bars are drawn, the screenshot is not blank, and no script.
# As report-render.sh: fails when Chromium is missing but installable, skips where no
# Chromium package exists; skips with boot-times.sh when there is no D-Bus to fake systemd on.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

chromium_or_skip "the page is not rendered"
mkdir "$tmp/page"
BOOT_KEEP=$tmp/page bash "$SBCDISK_SRCDIR/tests/store/boot-times.sh" >"$tmp/make.log" 2>&1
rc=$?
[ "$rc" = 77 ] && { echo "SKIP: boot-times.sh, which makes the page: $(tail -1 "$tmp/make.log")"; exit 77; }
[ "$rc" = 0 ] || { echo "FAIL: boot-times.sh, which makes the page:"; cat "$tmp/make.log"; exit 1; }
chrome --screenshot="$tmp/page.png" --window-size=1200,1600 "file://$tmp/page/report.html" >/dev/null
[ -f "$tmp/page.png" ] || fail "no screenshot: $(tail -3 "$tmp/chrome.err")"
[ -f "$tmp/page.png" ] && { python3 "$SBCDISK_SRCDIR/tests/store/png-check.py" \
	"$tmp/page.png" 30000 || fail "the screenshot is blank"; }
chrome --dump-dom "file://$tmp/page/report.html" >"$tmp/dom.html"
# expected: the boot devices of history --boot for the drives of runs 1 and 2
sb history --boot --db "$tmp/page/results.db" --json
python3 - "$tmp/out" "$tmp/dom.html" <<'PY' || fail "boot times in the rendered page"
import json, re, sys
want = json.load(open(sys.argv[1]))["boot_devices"]
dom = open(sys.argv[2]).read()
sec = re.search(r'<section class="card" id="boot-times">(.*?)</section>', dom, re.S)
assert sec, "no boot-times section in the DOM"
rows = re.findall(r'<tr class="boot-device">(.*?)</tr>', sec.group(1), re.S)
cells = [re.findall(r"<td[^>]*>(.*?)</td>", r, re.S) for r in rows]
got = [(c[0], c[1], int(c[2]), re.sub(r"<.*", "", c[3], flags=re.S)) for c in cells]
exp = [(w["device"], w["attachment"], w["boots"], "%.2f" % w["total_s"]["mean"]) for w in want]
print("rendered:", got)
assert got == exp, (got, exp)
assert len(re.findall(r'<span class="boot" style="width:\d+%">', sec.group(1))) == len(want)
assert "cannot see on a Raspberry Pi" in sec.group(1)
assert not re.search(r"<script", dom, re.I)
PY
finish
