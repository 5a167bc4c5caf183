#!/bin/bash
# run-data.sh - what clone copies of a source that is not clean: an ext4 whose journal needs
# recovery (a card pulled after a crash: its bitmaps are older than the journal) gives a copy
# with the files as the journal makes them, not zero-filled; a source whose file system has
# errors is named as the cause when the copy's check fails. About 15 s.
. "$(dirname "$0")/../bench/lib.sh"
. "$(dirname "$0")/lib.sh"
clone_need
command -v debugfs >/dev/null || { echo "skip: debugfs missing"; exit 77; }

p2=$((139264 * 512))

# part_start IMG N: the byte offset of partition N of IMG
part_start() {
	echo $(( $(sfdisk -d "$1" | sed -n "s|^$1$2 .*start= *\([0-9]*\).*|\1|p") * 512 ))
}

# mkdirty IMG: a Pi-like image whose p2 was copied while mounted, after its new files were
# fsynced (data in place, metadata in the journal only) and before the kernel wrote the
# metadata home: its journal needs recovery and its bitmaps do not know the new files.
# The files are kept in $tmp/orig to compare.
mkdirty() {
	local img=$1 dev
	mkimage "$tmp/base.img" dos 200 PARTUUID=0badc0de-02 || return 1
	rm -rf "$tmp/orig" && mkdir -p "$tmp/orig" "$tmp/mnt"
	for i in 1 2 3 4; do head -c $((i * 700000)) /dev/urandom >"$tmp/orig/f$i"; done
	dev=$(losetup -f --show -o $p2 --sizelimit $(((200 << 20) - p2)) "$tmp/base.img") ||
		return 1
	cleanups=("loop_detach '$dev'" "${cleanups[@]}")
	mount "$dev" "$tmp/mnt" || return 1
	mkdir "$tmp/mnt/new" && cp "$tmp"/orig/f* "$tmp/mnt/new/" &&
		python3 -c 'import os, sys
for n in sys.argv[1:]:
	fd = os.open(n, os.O_RDONLY); os.fsync(fd); os.close(fd)' "$tmp"/mnt/new/f* "$tmp/mnt/new" &&
		cp --sparse=always "$tmp/base.img" "$img"
	local r=$?
	umount "$tmp/mnt"
	loop_detach "$dev"
	return $r
}

# the dirty image, checked to be what it should: the journal to replay, the new files unseen
# by a reader that does not replay it (debugfs), seen after e2fsck replays it
made=0
for try in 1 2 3; do
	mkdirty "$tmp/src.img" || { fail "mkdirty"; finish; }
	if dumpe2fs -h "$tmp/src.img?offset=$p2" 2>/dev/null | grep -q needs_recovery &&
		! debugfs -R "stat /new/f1" "$tmp/src.img?offset=$p2" 2>&1 | grep -q Inode:; then
		made=1
		break
	fi
	echo "try $try: the kernel wrote the metadata home before the copy; again"
done
check "a source whose journal needs recovery was made" test "$made" = 1
src_sum=$(sum_of "$tmp/src.img")

sbc --json clone "$tmp/src.img" "$tmp/c.img" --apply --verify full
expect_rc 0 "clone of a source whose journal needs recovery"
check "source untouched (its journal not replayed on it)" test "$(sum_of "$tmp/src.img")" = "$src_sum"
json "[x for x in d['warnings'] if 'journal needs recovery' in x]" \
	"the plan says the journal needs recovery"
t2=$(part_start "$tmp/c.img" 2)
fsck_clean "the copy's p2" "$tmp/c.img?offset=$t2"
for i in 1 2 3 4; do
	rm -f "$tmp/got"
	debugfs -R "dump /new/f$i $tmp/got" "$tmp/c.img?offset=$t2" >/dev/null 2>&1
	if cmp -s "$tmp/got" "$tmp/orig/f$i"; then ok; else
		fail "/new/f$i on the copy is not the file the journal holds ($(
			[ -s "$tmp/got" ] && od -An -tx1 -N16 "$tmp/got" | tr -s ' ' || echo missing))"
	fi
done

# a source with an error e2fsck cannot preen: the copy's check fails, and says it is the
# source's
mkimage "$tmp/bad.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
debugfs -w -R "set_inode_field /home/pi/hello.txt mode 0" "$tmp/bad.img?offset=$p2" \
	>/dev/null 2>&1
bad_sum=$(sum_of "$tmp/bad.img")
sbc clone "$tmp/bad.img" "$tmp/c2.img" --apply
expect_rc 1 "clone of a source with file system errors"
grep_out "source's p2 has errors too" err "the source named as the cause"
check "the bad source untouched" test "$(sum_of "$tmp/bad.img")" = "$bad_sum"

finish
