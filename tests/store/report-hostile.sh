#!/bin/bash
# report-hostile.sh - a test's rw that would close an attribute and open a script: the import
# refuses it, and a page made from a database that holds it anyway (edited behind sbcdisk's
# back) runs no script in headless Chromium: alert, confirm, prompt and errors are trapped.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

db=$tmp/results.db
# the case of the issue: two tests whose rw values open and close a script element
cat >"$tmp/hostile.json" <<'JSON'
{"schema": 1, "runs": [{"started_at": "2026-11-30T10:00:00Z", "profile": "default",
 "tests": [{"name": "X", "rw": "\"><p><script>/*", "bw_bytes_per_s": 1000000},
           {"name": "*/alert(1)/*", "rw": "*/</script>", "bw_bytes_per_s": 2000000}]}]}
JSON
sb history --db "$db" --import "$tmp/hostile.json"
expect_rc 1
grep -q "'rw' is not one of read, write, randread, randwrite in test 'X'; nothing was imported" \
	"$tmp/err" || fail "hostile rw imported: $(cat "$tmp/err" "$tmp/out")"

# the same values put into the database directly: the page must still run nothing
sed -e 's/"\\"><p><script>\/\*"/"read"/' -e 's/"\*\/<\/script>"/"write"/' "$tmp/hostile.json" \
	>"$tmp/tame.json"
sb history --db "$db" --import "$tmp/tame.json"
expect_rc 0
python3 - "$db" <<'PY' || fail "cannot edit the database"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE tests SET rw = '\"><p><script>/*' WHERE name = 'X'")
c.execute("UPDATE tests SET rw = '*/</script>' WHERE name = '*/alert(1)/*'")
c.commit()
PY
sb report --db "$db" 1 -o "$tmp/report.html"
expect_rc 0
grep -q '<script' "$tmp/report.html" && fail "markup from the database: $(grep -o '.\{30\}<script.\{10\}' "$tmp/report.html" | head -3)"
# a start time is checked on import, not in the database: it is escaped like the rest
cp "$db" "$tmp/time.db"
python3 - "$tmp/time.db" <<'PY' || fail "cannot edit the database"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE runs SET started_at = '<svg onload=alert(5)>'")
c.commit()
PY
sb report --db "$tmp/time.db" 1 -o "$tmp/time.html"
expect_rc 0
grep -q '<svg onl' "$tmp/time.html" && fail "start time not escaped: $(grep -o '.\{30\}<svg onl.\{10\}' "$tmp/time.html" | head -3)"

if ! command -v chromium >/dev/null; then
	echo "skip: no chromium to render the page"
	[ "$failures" = 0 ] && exit 77
	exit 1
fi
# the trap goes first in <head>: it records every alert/confirm/prompt and every error
trap_js='<script id="sbcdisk-trap">window.__ran=[];'
trap_js+='["alert","confirm","prompt"].forEach(function(n){window[n]=function(m){window.__ran.push(n+":"+m);};});'
trap_js+='window.onerror=function(m){window.__ran.push("error:"+m);};'
trap_js+='window.addEventListener("load",function(){document.body.setAttribute("data-ran",window.__ran.join("|")||"none");});</script>'
python3 - "$tmp/report.html" "$tmp/trapped.html" "$trap_js" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
i = page.index("<head>") + len("<head>")
open(sys.argv[2], "w", encoding="utf-8").write(page[:i] + sys.argv[3] + page[i:])
PY
timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$tmp/chrome" --virtual-time-budget=2000 --dump-dom \
	"file://$tmp/trapped.html" >"$tmp/dom.html" 2>"$tmp/chrome.err"
ran=$(grep -o 'data-ran="[^"]*"' "$tmp/dom.html")
echo "rendered: $ran"
[ "$ran" = 'data-ran="none"' ] || fail "a script ran in the page or the trap did not: ${ran:-no data-ran: $(tail -3 "$tmp/chrome.err")}"
[ "$(grep -o '<script' "$tmp/dom.html" | wc -l)" = 1 ] || fail "script elements in the DOM"
grep -q 'alert(1)' "$tmp/dom.html" || fail "the test name is not shown as text"
finish
