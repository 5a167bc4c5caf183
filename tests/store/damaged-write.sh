#!/bin/bash
# damaged-write.sh - a database with one damaged page (the moves table's root, which a bench
# never reads): SQLite's quick_check finds it malformed. bench used to insert its run into
# the damaged file anyway and say it was saved; now it leaves the file byte for byte as it
# was and says the run was not saved, and why. An intact copy still takes the run.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"
command -v python3 >/dev/null || skip "python3 missing"

bench() {
	sb bench "$tmp/dir" --engine null --test rw=read,bs=4k,time=0.01s --runs 1 --size 1m "$@"
}
mkdir "$tmp/dir"
for _ in 1 2; do
	bench --db "$tmp/good.db"
	expect_rc 0 "a run into a new database"
done
cp "$tmp/good.db" "$tmp/bad.db"
# the first byte of the moves table's root page (its b-tree page type) made invalid
python3 - "$tmp/bad.db" <<'PY' || fail "damaging the copy"
import sqlite3, sys
p = sys.argv[1]
c = sqlite3.connect(p)
root = c.execute("SELECT rootpage FROM sqlite_master WHERE name = 'moves'").fetchone()[0]
c.close()
d = bytearray(open(p, 'rb').read())
ps = int.from_bytes(d[16:18], 'big') or 65536
d[(root - 1) * ps] = 0x42
open(p, 'wb').write(d)
PY
check "the copy is damaged" python3 -c 'import sqlite3, sys
try:
    r = sqlite3.connect(sys.argv[1]).execute("PRAGMA quick_check").fetchall()
except sqlite3.DatabaseError:
    sys.exit(0)
sys.exit(0 if r != [("ok",)] else 1)' "$tmp/bad.db"
sum0=$(sha256sum <"$tmp/bad.db")
bench --db "$tmp/bad.db"
grep_out "the results were not saved: .*corrupt" err "bench: not saved, the damage said"
check "bench: the damaged database unchanged" test "$(sha256sum <"$tmp/bad.db")" = "$sum0"
bench --db "$tmp/good.db"
expect_rc 0 "the intact database"
grep_out "saved as run 3" err "the intact database takes the run"
finish
