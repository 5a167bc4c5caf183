#!/bin/bash
# bench-save.sh - a real bench run lands in the store with the facts of its disk; --no-save
# keeps nothing; a store that cannot be written leaves the printed results and exit 0.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

bench() { sb bench "$tmp/dir" --profile quick --time 100ms --runs 1 --size 8m "$@"; }
mkdir "$tmp/dir"
db=$tmp/results.db

bench --db "$db"
expect_rc 0
grep -q "RND4K Q1T1" "$tmp/out" || fail "no bench table: $(head -5 "$tmp/out" "$tmp/err")"
grep -q "saved as run 1" "$tmp/err" || fail "not saved: $(cat "$tmp/err")"
sb history --db "$db" --json
grep -q '"profile": "quick"' "$tmp/out" || fail "run not in history"
grep -q '"kernel": "' "$tmp/out" || fail "no kernel stored"
grep -q '"disk": "' "$tmp/out" || fail "no target disk stored"
[ "$(grep -c '"name": "RND4K Q1T1"' "$tmp/out")" = 2 ] || fail "tests not stored"

bench --no-save --db "$tmp/other.db"
expect_rc 0
[ -e "$tmp/other.db" ] && fail "--no-save created a database"

# a corrupt database: the results are printed, one message, exit 0, the file untouched
printf 'garbage, not a database\n' >"$tmp/junk.db"
cp "$tmp/junk.db" "$tmp/junk.orig"
bench --db "$tmp/junk.db"
expect_rc 0
grep -q "RND4K Q1T1" "$tmp/out" || fail "results not printed when the store failed"
[ "$(grep -c 'not saved' "$tmp/err")" = 1 ] || fail "store failure: $(cat "$tmp/err")"
cmp -s "$tmp/junk.db" "$tmp/junk.orig" || fail "the corrupt database was changed"

# JSON output stays pure JSON when the run is saved
sb --json bench "$tmp/dir" --profile quick --time 100ms --runs 1 --size 8m --db "$db"
expect_rc 0
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" || fail "bench --json broken"
sb history --db "$db" --json
[ "$(grep -c '"started_at"' "$tmp/out")" = 2 ] || fail "second run not stored"
finish
