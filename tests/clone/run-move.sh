#!/bin/bash
# run-move.sh - sbcdisk move on a loop-device source and target: the dry run benches both
# (not stored), shows clone's plan and writes nothing to the target (its checksum is the same);
# a new image target is not benched; a refusal is clone's; --apply through a symlink to the
# target copies, checks the copy with boot check and says what to change on a board that is
# not a Pi; TERM after the clone step stops the move. About 60 s.
. "$(dirname "$0")/lib.sh"
clone_need

mkimage "$tmp/src.img" dos 300 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
truncate -s 400m "$tmp/dst.img"
loop_attach "$tmp/src.img"; src_dev=$loopdev
loop_attach "$tmp/dst.img"; dst_dev=$loopdev
src_sum=$(sum_of "$src_dev") dst_sum=$(sum_of "$dst_dev")

# the dry run: the benches stored, clone's plan, nothing written
sbc move "$src_dev" "$dst_dev" --time 200ms --db "$tmp/db"
expect_rc 0 "move dry run"
grep_out "^== 1\. before: a quick bench of the source and the target, not stored" out "the bench step"
grep_out "^== 2\. the clone's plan" out "the clone step"
grep_out "^p2 .* ext4 " out "clone's plan table"
grep_out "^dry run: nothing written" out "the dry run says so"
grep_out "Not a Raspberry Pi: make the board's boot loader start from $dst_dev" out \
	"other boards: what to change"
check "dry run: the target is unchanged" test "$(sum_of "$dst_dev")" = "$dst_sum"
check "dry run: the source is unchanged" test "$(sum_of "$src_dev")" = "$src_sum"
# the dry run measures and stores nothing: no database made
check "dry run: no bench stored" test ! -e "$tmp/db"

# a new image TARGET is no block device: not measured (the dry run made no image either)
sbc move "$src_dev" "$tmp/new.img" --time 200ms
expect_rc 0 "move to a new image"
grep_out "^TARGET '$tmp/new.img' is no block device: not measured\.$" out "the image not benched"
check "dry run: no image made" test ! -e "$tmp/new.img"
# --apply into an image file copies it and checks the copy, but no boot order or record
# for it: nothing boots from an image (the names of the record were empty before)
sbc move "$tmp/src.img" "$tmp/new.img" --apply --no-bench --db "$tmp/db-img"
expect_rc 0 "move into an image --apply"
grep_out "^new.img: will boot$" out "the image's copy checked"
grep_out "is an image file, no disk: no boot loader starts from it" out "no boot order for an image"
! grep -q "^Recorded as move" "$tmp/out" || fail "a move into an image was recorded"
check "move into an image: nothing stored" test ! -e "$tmp/db-img"
rm -f "$tmp/new.img"

# a refusal is clone's own: the target is the source
sbc move "$src_dev" "$src_dev" --no-bench
expect_rc 1 "move onto its own source"
grep -q "clone: target '$src_dev' is the source" "$tmp/err" && ok ||
	fail "the refusal is clone's: $(cat "$tmp/err")"

# --apply through a symlink to the target (as a udev link is): the copy, boot check of it,
# each step on the device it names
ln -s "$dst_dev" "$tmp/dst-link"
sbc move "$src_dev" "$tmp/dst-link" --apply --no-bench --db "$tmp/db"
expect_rc 0 "move --apply"
grep_out "^== 3\. will the copy boot" out "the boot check step"
check "--apply: the target was written" test "$(sum_of "$dst_dev")" != "$dst_sum"
check "--apply: the source is unchanged" test "$(sum_of "$src_dev")" = "$src_sum"
check "the copy's table" sh -c "sfdisk -d '$dst_dev' | grep -q 'label: dos'"
grep_out "^Recorded as move #1 (${src_dev#/dev/} -> ${dst_dev#/dev/})" out "the move recorded"
moves=$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT src_name || \" \" || dst_name || \" \" ||"
      " length(moved_at) FROM moves").fetchall())' "$tmp/db" 2>&1)
check "the move in the store ($moves)" test "$moves" = "[('${src_dev#/dev/} ${dst_dev#/dev/} 20',)]"
# a signal after the clone step stops the move (the clone's own handler is not left to
# swallow it): the database is held locked so that the move is still running when it comes
truncate -s 400m "$tmp/dst2.img"
loop_attach "$tmp/dst2.img"; dst2_dev=$loopdev
python3 - "$tmp/db2" <<'PY' &
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[1] + ".locked", "w").close()
while not os.path.exists(sys.argv[1] + ".done"):
    time.sleep(0.05)
PY
locker=$!
while [ ! -e "$tmp/db2.locked" ] && kill -0 "$locker" 2>/dev/null; do sleep 0.05; done
$run "$bin" move "$src_dev" "$dst2_dev" --apply --no-bench --db "$tmp/db2" >"$tmp/out" 2>"$tmp/err" &
mover=$!
until grep -q "^== 3\. will the copy boot" "$tmp/out" || ! kill -0 "$mover" 2>/dev/null; do
	sleep 0.05
done
kill -TERM "$mover" 2>/dev/null
wait "$mover"; rc=$?
touch "$tmp/db2.done"; wait "$locker"
expect_rc 143 "TERM after the clone step"
grep -q "move: stopped by a signal" "$tmp/err" || fail "TERM: said: $(cat "$tmp/err")"
! grep -q "^== 5\." "$tmp/out" || fail "TERM: the move went on to step 5"
finish
