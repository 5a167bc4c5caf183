#!/bin/bash
# messages.sh - what history says about bad input, in the user's terms: a document that is
# null, a figure too large for what it measures (1e400, an integer past 64 bits), an
# impossible date. (An export to a full disk and a new database on a read-only mount are in
# store-open.sh: they need a mount.)
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

db=$tmp/results.db
import_says() { # DOCUMENT EXPECTED-LINE
	printf '%s' "$1" >"$tmp/doc.json"
	sb history --db "$db" --import "$tmp/doc.json"
	expect_rc 1
	grep -qxF "sbcdisk: history: import '$tmp/doc.json': $2; nothing was imported" "$tmp/err" ||
		fail "for $(head -c 80 "$tmp/doc.json"): $(cat "$tmp/err")"
}
import_says 'null' "the document is not a JSON object"
import_says '{"schema": 1, "runs": [' "not JSON: unexpected end of document at byte 23"
test='{"schema":1,"runs":[{"started_at":"2026-11-30T10:00:00Z","profile":"p","tests":[{"name":"A","rw":"read",'
import_says "$test\"iops\":1e400}]}]}" \
	"run 1 of 1: 'iops' is too large (at most 1000000000000000000) in test 'A read'"
import_says "$test\"block_bytes\":100000000000000000000000}]}]}" \
	"run 1 of 1: 'block_bytes' is too large (at most 1099511627776) in test 'A read'"
import_says "$test\"iops\":-1}]}]}" "run 1 of 1: 'iops' is negative in test 'A read'"
[ -e "$db" ] && fail "a refused import created the database"

for d in 2026-02-30 2026-02-29 2026-04-31 2026-04-30T24:00:00Z; do
	sb history --db "$db" --since "$d"
	expect_rc 2
	grep -qxF "sbcdisk: history: '--since $d': there is no such day or time" "$tmp/err" ||
		fail "--since $d: $(cat "$tmp/err")"
done
sb history --db "$db" --until 2024-02-29
expect_rc 0
sb history --db "$db" --until 2026-2-01
expect_rc 2
grep -q "'--until 2026-2-01': not a date like 2026-11-30" "$tmp/err" || fail "--until: $(cat "$tmp/err")"
finish
