#!/bin/bash
# store-open.sh - what the store opens and what a read leaves behind: an empty --db, FIFOs,
# devices and symlinks to them refused without a hang or a "-journal" beside them; a foreign
# database refused byte for byte unchanged; a 0444 database read by another user, a read on
# a full disk and on a read-only mount write nothing; unmerged -wal data that cannot be read
# is said; a new database on a read-only mount names the directory.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

seeds=$SBCDISK_SRCDIR/data/seed-results/seed-runs.json
bench() {
	sb bench "$tmp/dir" --engine null --test rw=read,bs=4k,time=0.01s --runs 1 --size 1m "$@"
}
mkdir "$tmp/dir"
# a run that never returns would hang the suite: every open is bounded here
hist() {
	timeout 20 ${SBCDISK_RUN:-} "$SBCDISK" history "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# an empty path: SQLite's temporary database kept nothing and said "saved as run 1"; one
# parse of --db for every command makes it a usage error (bench measured and exited 0,
# history exited 1)
bench --db ''
expect_rc 2
grep -q "saved as run" "$tmp/err" && fail "--db '' said it saved: $(cat "$tmp/err")"
grep -qx "sbcdisk: bench: option '--db' needs a value" "$tmp/err" ||
	fail "bench --db '': $(cat "$tmp/err")"
hist --db ''
expect_rc 2
grep -q "option '--db' needs a value" "$tmp/err" || fail "history --db '': $(cat "$tmp/err")"

# a FIFO hung the read; a database that is a regular file with a FIFO as its -wal too
mkfifo "$tmp/fifo.db"
hist --db "$tmp/fifo.db"
expect_rc 1
grep -q "database '$tmp/fifo.db': not a regular file (a FIFO): a database is a file" "$tmp/err" ||
	fail "FIFO: $(cat "$tmp/err")"
hist --db "$tmp/fifo.db" --import "$seeds"
expect_rc 1
sb history --db "$tmp/w.db" --import "$seeds"
expect_rc 0
mkfifo "$tmp/w.db-wal"
hist --db "$tmp/w.db" --last 1
expect_rc 1
grep -q "'$tmp/w.db-wal' is not a regular file (a FIFO)" "$tmp/err" || fail "FIFO -wal: $(cat "$tmp/err")"
hist --db "$tmp/dir"
expect_rc 1
grep -q "not a regular file (a directory)" "$tmp/err" || fail "directory: $(cat "$tmp/err")"

# devices: private copies of /dev/null and /dev/full, and a symlink to one
if [ "$(id -u)" = 0 ] && mknod "$tmp/null" c 1 3 && mknod "$tmp/full" c 1 7; then
	ln -s "$tmp/null" "$tmp/link.db"
	hist --db "$tmp/null"
	expect_rc 1
	grep -q "not a regular file (a character device)" "$tmp/err" || fail "null: $(cat "$tmp/err")"
	bench --db "$tmp/full"
	expect_rc 0
	grep -q "not saved: database '$tmp/full': not a regular file" "$tmp/err" ||
		fail "bench --db full: $(cat "$tmp/err")"
	hist --db "$tmp/link.db"
	expect_rc 1
	for f in null full link.db; do
		for c in -journal -wal -shm; do
			[ -e "$tmp/$f$c" ] && fail "'$f$c' was created"
		done
	done
	[ -c "$tmp/null" ] && [ -c "$tmp/full" ] || fail "a device node was replaced"
else
	echo "skip: cannot mknod device copies (not root)"
fi

# a foreign database: refused by every command, not one byte changed (journal_mode=WAL
# rewrote bytes 18 and 19 of its header before the check)
python3 - "$tmp/foreign.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("CREATE TABLE photos (x)")
c.execute("INSERT INTO photos VALUES ('holiday')")
c.commit()
c.close()
PY
cp "$tmp/foreign.db" "$tmp/foreign.orig"
hist --db "$tmp/foreign.db" --import "$seeds"
expect_rc 1
grep -q "not a database of this sbcdisk" "$tmp/err" || fail "foreign import: $(cat "$tmp/err")"
bench --db "$tmp/foreign.db"
grep -q "not saved: database '$tmp/foreign.db': not a database of this sbcdisk" "$tmp/err" ||
	fail "foreign bench: $(cat "$tmp/err")"
hist --db "$tmp/foreign.db"
expect_rc 1
cmp "$tmp/foreign.db" "$tmp/foreign.orig" >"$tmp/cmp" || fail "the foreign database was changed: $(cat "$tmp/cmp")"
ls "$tmp"/foreign.db-* >/dev/null 2>&1 && fail "files beside the foreign database: $(ls "$tmp"/foreign.db-*)"

if [ "$(id -u)" != 0 ]; then
	echo "skip: not root: no other user, no mounts for the rest"
	finish
fi

# a 0444 database read by a normal user: no -wal or -shm left behind, later writes work
mkdir "$tmp/user"
chmod 755 "$tmp"
chown nobody: "$tmp/user"
cp "$SBCDISK" "$tmp/sbcdisk"
chmod 755 "$tmp/sbcdisk"
as_nobody() {
	timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups ${SBCDISK_RUN:-} \
		"$tmp/sbcdisk" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
# the source tree may sit where nobody cannot read (a clone under /root): a copy of the seeds
cp "$seeds" "$tmp/user/seeds.json"
chmod 644 "$tmp/user/seeds.json"
as_nobody history --db "$tmp/user/r.db" --import "$tmp/user/seeds.json"
expect_rc 0
chmod 0444 "$tmp/user/r.db"
as_nobody history --db "$tmp/user/r.db" --last 2
expect_rc 0
[ "$(wc -l <"$tmp/out")" = 3 ] || fail "0444 read: $(cat "$tmp/out" "$tmp/err")"
left=$(ls "$tmp"/user/r.db-* 2>/dev/null)
[ -z "$left" ] || fail "a read left $left"
chmod 0644 "$tmp/user/r.db"
python3 - "$seeds" "$tmp/one.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"] = d["runs"][:1]
d["runs"][0]["profile"] = "another"
json.dump(d, open(sys.argv[2], "w"))
PY
chmod 644 "$tmp/one.json"
as_nobody history --db "$tmp/user/r.db" --import "$tmp/one.json"
expect_rc 0
grep -qx "imported 1 run as 19-19" "$tmp/out" || fail "write after a 0444 read: $(cat "$tmp/out" "$tmp/err")"

# a full disk: reading needs no space
mnt=$tmp/mnt
mkdir "$mnt"
if mount -t tmpfs -o size=2m tmpfs "$mnt"; then
	sb history --db "$mnt/results.db" --import "$seeds"
	expect_rc 0
	dd if=/dev/zero of="$mnt/fill" bs=4k 2>/dev/null
	hist --db "$mnt/results.db" --json
	expect_rc 0
	[ "$(grep -c '"started_at"' "$tmp/out")" = 18 ] || fail "read on a full disk: $(cat "$tmp/err")"
	# the export says why it failed in the user's words
	hist --db "$mnt/results.db" --export "$mnt/export.json"
	expect_rc 1
	grep -q "cannot write '$mnt/export.json': the disk is full" "$tmp/err" ||
		fail "export to a full disk: $(cat "$tmp/err")"
	rm -f "$mnt/fill"

	# unmerged -wal data (a writer that died) on a read-only mount: read, and said
	python3 - "$mnt/results.db" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint=0")
c.execute("INSERT INTO runs (started_at, profile) VALUES ('2026-12-01T00:00:00Z', 'late')")
os._exit(0)  # no close: the run stays in the -wal
PY
	[ -s "$mnt/results.db-wal" ] || fail "no -wal data to test with"
	rm -f "$mnt/results.db-shm"
	mount -o remount,ro "$mnt"
	hist --db "$mnt/results.db" --json
	expect_rc 0
	grep -q "results.db-wal' holds changes that cannot be read without writing beside the database: runs may be missing" \
		"$tmp/err" || fail "unmerged -wal not said: $(cat "$tmp/err")"
	[ "$(grep -c '"started_at"' "$tmp/out")" = 18 ] || fail "ro read: $(head -3 "$tmp/err")"
	# a database of schema 4 (before the digests) there: read as it is, and said
	umount "$mnt"
	mount -t tmpfs -o size=2m tmpfs "$mnt"
	sb history --db "$mnt/old.db" --import "$seeds"
	python3 - "$mnt/old.db" <<'PY' || fail "cannot make a schema 4 database"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("DROP INDEX runs_digest")
c.execute("ALTER TABLE runs DROP COLUMN digest")
c.execute("DROP TABLE fixes")
c.execute("ALTER TABLE runs DROP COLUMN boot_id")
c.execute("DELETE FROM schema_migrations WHERE version >= 5")
c.close()
PY
	mount -o remount,ro "$mnt"
	hist --db "$mnt/old.db" --json
	expect_rc 0
	[ "$(grep -c '"started_at"' "$tmp/out")" = 18 ] || fail "old schema on a ro mount: $(cat "$tmp/err")"
	grep -q "schema 4 was not brought to 8 (the database is read-only): read as it is" "$tmp/err" ||
		fail "old schema on a ro mount not said: $(cat "$tmp/err")"
	# a new database there: the directory is named as read-only
	hist --db "$mnt/new.db" --import "$seeds"
	expect_rc 1
	grep -qx "sbcdisk: history: database '$mnt/new.db': cannot create it: the directory '$mnt' is on a read-only file system" \
		"$tmp/err" || fail "new database on a read-only mount: $(cat "$tmp/err")"
	umount "$mnt"
else
	echo "skip: cannot mount a tmpfs for the full-disk and read-only tests"
fi
finish
