#!/bin/bash
# schema6.sh - a schema 6 database (tests/store/fixtures/schema6.db, made by the sbcdisk before
# schema 7's boot times) is upgraded in place on its first open: every row of every table it
# had is kept as it was, the boot_times table is added; a damaged copy is refused and left as
# it is; the upgraded file reads and takes runs as before.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

cp "$src/tests/store/fixtures/schema6.db" "$tmp/old.db"
sb history --db "$tmp/old.db" --json
expect_rc 0
python3 - "$src/tests/store/fixtures/schema6.db" "$tmp/old.db" "$tmp/out" <<'PY' ||
import json, sqlite3, sys
before = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True)
after = sqlite3.connect(sys.argv[2])
def rows(c, t):
    return c.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()
tables = [r[0] for r in before.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
for t in tables:
    b, a = rows(before, t), rows(after, t)
    if t == "schema_migrations":
        a = a[:len(b)]
    assert b == a, f"table {t} changed"
    print(f"{t}: {len(b)} rows kept")
v = after.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
n = after.execute("SELECT count(*) FROM boot_times").fetchone()[0]
assert v == 8 and n == 0, (v, n)
runs = rows(before, "runs")
assert len(runs) == 19 and len(rows(before, "fixes")) == 2, "the fixture lost its rows"
d = json.load(open(sys.argv[3]))
assert len(d["runs"]) == 19 and len(d["fixes"]) == 2, "history does not show them"
PY
	fail "schema 6 database: not upgraded with every row kept"
# the upgraded file: a second open changes nothing, an import finds every run stored
cp "$tmp/old.db" "$tmp/old.once"
sb history --db "$tmp/old.db" --boot
expect_rc 0
grep -q "no boot times stored yet" "$tmp/err" || fail "no boots yet: $(cat "$tmp/err")"
sb history --db "$tmp/old.db" --import "$src/tests/store/fixtures/seed-runs-v1.json"
expect_rc 0
grep -q "imported 0 runs (18 were stored already)" "$tmp/out" || fail "re-import: $(cat "$tmp/out")"
# a damaged copy: refused in one line, left as it is, by a read and by a write
head -c 20000 "$src/tests/store/fixtures/schema6.db" >"$tmp/bad.db"
cp "$tmp/bad.db" "$tmp/bad.orig"
for args in "history --boot" "history --import $src/data/seed-results/seed-runs.json"; do
	# shellcheck disable=SC2086 # the words of $args are the arguments
	sb $args --db "$tmp/bad.db"
	expect_rc 1
	[ "$(grep -c . "$tmp/err")" = 1 ] && grep -q "not an SQLite database, or it is corrupt" "$tmp/err" ||
		fail "damaged ($args): $(cat "$tmp/err")"
	cmp -s "$tmp/bad.db" "$tmp/bad.orig" || fail "the damaged database was changed ($args)"
done
finish
