#!/bin/bash
# output.sh - `report -o` and `history --export` write only to a regular file or a new name
# (through the atomic writer): a device node, a FIFO, a symbolic link, a directory and the
# database being read (or its -wal/-shm) are refused with one line and left as they were;
# '-' is standard output; a 255-character name works; no temporary file is left.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"
export SOURCE_DATE_EPOCH=1796025600

db=$tmp/r.db
sb history --db "$db" --import "$SBCDISK_SRCDIR/data/seed-results/seed-runs.json"
expect_rc 0
cd "$tmp" || exit 1

# refused: the thing stays what it was (type, inode, size: SQLite itself touches the -shm
# file's time when it reads), the message is one line naming the reason
refused() { # WHAT TARGET PATTERN
	local what=$1 target=$2 pattern=$3 before after
	before=$(stat -c '%F %i %s' "$target" 2>/dev/null)
	for cmd in "report --db $db 1 -o" "history --db $db --export"; do
		# shellcheck disable=SC2086 # cmd is two words and options
		sb $cmd "$target"
		expect_rc 1
		[ "$(wc -l <"$tmp/err")" = 1 ] || fail "$what: $cmd: not one line: $(cat "$tmp/err")"
		grep -q "$pattern" "$tmp/err" || fail "$what: $cmd: '$pattern' not in: $(cat "$tmp/err")"
		after=$(stat -c '%F %i %s' "$target" 2>/dev/null)
		[ "$before" = "$after" ] || fail "$what: $cmd: changed ($before -> $after)"
	done
}

if mknod "$tmp/null" c 1 3 2>/dev/null; then
	refused "a character device" "$tmp/null" "not a regular file"
	[ -c "$tmp/null" ] || fail "the device node was replaced"
else
	echo "no CAP_MKNOD: the device node case is not run"
fi
mkfifo "$tmp/fifo"
refused "a FIFO" "$tmp/fifo" "not a regular file"
[ -p "$tmp/fifo" ] || fail "the FIFO was replaced"
echo keep >"$tmp/target"
ln -s target "$tmp/link"
refused "a symbolic link" "$tmp/link" "symbolic link"
[ -L "$tmp/link" ] && [ "$(cat "$tmp/target")" = keep ] || fail "the link or its target changed"
mkdir "$tmp/dir"
refused "a directory" "$tmp/dir" "directory"
refused "a directory (trailing /)" "$tmp/dir/" "directory"

# the database itself, by name, through a hard link, and its -wal/-shm
sum=$(md5sum <"$db")
refused "the database" "$db" "the database this command reads"
ln "$db" "$tmp/same-inode"
refused "the database (a hard link)" "$tmp/same-inode" "the database this command reads"
[ "$(md5sum <"$db")" = "$sum" ] || fail "the database changed"
sb history --db "$db" -n 1
expect_rc 0
for x in wal shm; do
	if [ -e "$db-$x" ]; then
		refused "the database's -$x" "$db-$x" "the database this command reads"
	fi
done

# stdout, a new file, a regular file replaced, a 255-character name
sb report --db "$db" 1 -o -
expect_rc 0
grep -q '<html' "$tmp/out" || fail "report -o - wrote no page to stdout"
sb history --db "$db" --export -
expect_rc 0
grep -q '"runs"' "$tmp/out" || fail "history --export - wrote no document to stdout"
echo old >"$tmp/regular"
sb report --db "$db" 1 -o "$tmp/regular"
expect_rc 0
grep -q '<html' "$tmp/regular" || fail "a regular file was not replaced"
long=$(printf 'r%.0s' $(seq 250)).html
sb report --db "$db" 1 -o "$tmp/$long"
expect_rc 0
[ -s "$tmp/$long" ] || fail "a 255-character name was not written ($(cat "$tmp/err"))"
sb history --db "$db" --export "$tmp/$long"
expect_rc 0

# nothing temporary is left anywhere
left=$(find "$tmp" -name '.sbcdisk-*' -o -name '*.tmp-*')
[ -z "$left" ] || fail "temporary files left: $left"
finish
