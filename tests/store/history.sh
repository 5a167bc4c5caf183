#!/bin/bash
# history.sh - `sbcdisk history` on the seed figures: table, JSON, CSV against golden files,
# filters, export/import round trip, a malformed import rejected whole, and the failure paths
# of the database (corrupt, locked, read-only medium, full disk) with nothing stored lost.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

db=$tmp/results.db
seeds=$SBCDISK_SRCDIR/data/seed-results/seed-runs.json

# no database yet: an empty history, not an error
sb history --db "$db"
expect_rc 0
grep -q "no runs stored yet" "$tmp/err" || fail "missing db: $(cat "$tmp/err")"

sb history --db "$db" --import "$seeds"
expect_rc 0
grep -qx "imported 18 runs as 1-18" "$tmp/out" || fail "import: $(cat "$tmp/out")"

# the same file again: nothing is stored twice
sb history --db "$db" --import "$seeds"
expect_rc 0
grep -qx "imported 0 runs (18 were stored already)" "$tmp/out" || fail "re-import: $(cat "$tmp/out")"

sb history --db "$db"
expect_rc 0
golden history.txt
sb history --db "$db" --json
golden history.json
sb history --db "$db" --csv
golden history.csv

# filters
count() { sb history --db "$db" --json "$@"; grep -c '"started_at"' "$tmp/out"; }
[ "$(count --device nvme)" = 4 ] || fail "--device nvme: $(count --device nvme)"
[ "$(count --device 152D:0576)" = 4 ] || fail "--device VID:PID"
[ "$(count --profile extended)" = 2 ] || fail "--profile"
[ "$(count --since 2023-04-01)" = 5 ] || fail "--since"
[ "$(count --until 2021-05-04)" = 4 ] || fail "--until (a date is the whole day)"
[ "$(count --last 3)" = 3 ] || fail "--last"
sb history --db "$db" --last 0
expect_rc 2
sb history --db "$db" --bogus
expect_rc 2

# export, import into a new database, export again: the same document
sb history --db "$db" --export "$tmp/export.json"
expect_rc 0
sb history --db "$tmp/copy.db" --import "$tmp/export.json"
expect_rc 0
sb history --db "$tmp/copy.db" --export "$tmp/export2.json"
cmp -s "$tmp/export.json" "$tmp/export2.json" || fail "export/import/export differs"

# a file whose third run is bad is rejected whole, with the reason
python3 - "$seeds" "$tmp/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"][2]["tests"][0]["bw_bytes_per_s"] = "fast"
json.dump(d, open(sys.argv[2], "w"))
PY
sb history --db "$db" --import "$tmp/bad.json"
expect_rc 1
grep -q "run 3 of 18: 'bw_bytes_per_s' is not a number in test 'SEQ1M Q1T1 read'; nothing was imported" \
	"$tmp/err" || fail "bad import message: $(cat "$tmp/err")"
[ "$(count)" = 18 ] || fail "a rejected import changed the store"
printf '{"schema": 1, "runs": [' >"$tmp/cut.json"
sb history --db "$db" --import "$tmp/cut.json"
expect_rc 1
grep -q "not JSON" "$tmp/err" || fail "truncated import: $(cat "$tmp/err")"

# hostile strings: stored as they are, defused in CSV
cat >"$tmp/hostile.json" <<'JSON'
{"schema": 1, "runs": [{"started_at": "2026-11-30T10:00:00Z", "profile": "default",
 "board": "=cmd|' /C calc'!A0", "device": {"name": "sdz", "model": "<script>alert(\"x\")</script>, \"quoted\"\nnext"},
 "tests": [{"name": "SEQ1M Q8T1", "rw": "read", "bw_bytes_per_s": 1000000}]}]}
JSON
sb history --db "$tmp/h.db" --import "$tmp/hostile.json"
expect_rc 0
sb history --db "$tmp/h.db" --csv
golden hostile.csv

# a corrupt database: a clear message, the file left exactly as it was
printf 'not a database at all\n' >"$tmp/junk.db"
cp "$tmp/junk.db" "$tmp/junk.orig"
sb history --db "$tmp/junk.db"
expect_rc 1
grep -q "not an SQLite database, or it is corrupt (it was left as it is)" "$tmp/err" ||
	fail "corrupt: $(cat "$tmp/err")"
sb history --db "$tmp/junk.db" --import "$seeds"
expect_rc 1
cmp -s "$tmp/junk.db" "$tmp/junk.orig" || fail "the corrupt database was changed"

# locked by another process: one clear message after the busy timeout, nothing lost
if command -v sqlite3 >/dev/null; then
	mkfifo "$tmp/lockin"
	sqlite3 "$db" <"$tmp/lockin" >/dev/null 2>&1 &
	lockpid=$!
	exec 7>"$tmp/lockin"
	echo "BEGIN IMMEDIATE; SELECT 1;" >&7
	sleep 0.5
	sb history --db "$db" --import "$seeds"
	expect_rc 1
	grep -q "locked by another process" "$tmp/err" || fail "locked: $(cat "$tmp/err")"
	sb history --db "$db" --last 1 # readers are not blocked in WAL mode
	expect_rc 0
	echo "ROLLBACK;" >&7
	exec 7>&-
	wait "$lockpid"
	[ "$(count)" = 18 ] || fail "the lock test changed the store"
else
	echo "skip: no sqlite3 shell for the lock test"
fi

# read-only medium and full disk need a mount of our own
mnt=$tmp/mnt
mkdir "$mnt"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=2m tmpfs "$mnt" 2>/dev/null; then
	at_exit "umount '$mnt'"
	cp "$db" "$mnt/results.db"
	mount -o remount,ro "$mnt"
	sb history --db "$mnt/results.db" --last 2
	expect_rc 0
	[ "$(wc -l <"$tmp/out")" = 3 ] || fail "read-only read: $(cat "$tmp/out" "$tmp/err")"
	sb history --db "$mnt/results.db" --import "$seeds"
	expect_rc 1
	grep -q "read-only" "$tmp/err" || fail "read-only: $(cat "$tmp/err")"
	mount -o remount,rw "$mnt"
	# full: fill what is left, then try to store 18 more runs
	dd if=/dev/zero of="$mnt/fill" bs=4k 2>/dev/null
	sb history --db "$mnt/results.db" --import "$seeds"
	expect_rc 1
	grep -q "disk is full" "$tmp/err" || fail "full disk: $(cat "$tmp/err")"
	rm -f "$mnt/fill"
	sb history --db "$mnt/results.db" --json
	[ "$(grep -c '"started_at"' "$tmp/out")" = 18 ] || fail "full disk lost runs"
	umount "$mnt"
else
	echo "skip: cannot mount a tmpfs for the read-only and full-disk tests"
fi
finish
