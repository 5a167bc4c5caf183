#!/bin/bash
# run-keep.sh - what a file copy keeps and what --verify full proves (issue 34, 10): a source
# whose root is mounted read-write is copied by files, and a file made immutable there
# (chattr +i) is immutable on the copy; --verify full with a TMPDIR too small to copy the
# FAT partition's files out to fails, it does not pass with a tree "not compared".
. "$(dirname "$0")/lib.sh"
clone_need
command -v chattr >/dev/null || skip "chattr missing (e2fsprogs)"
command -v debugfs >/dev/null || skip "debugfs missing (e2fsprogs)"

mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
live_part "$tmp/src.img" 200 || { fail "losetup"; finish; }
mkdir -p "$tmp/mnt"
mount "$part" "$tmp/mnt" || { fail "mount the source's root"; finish; }
at_exit "umount '$tmp/mnt' 2>/dev/null"
echo keep >"$tmp/mnt/home/pi/fixed.txt"
chattr +i "$tmp/mnt/home/pi/fixed.txt" || skip "chattr +i refused"
at_exit "chattr -i '$tmp/mnt/home/pi/fixed.txt' 2>/dev/null"
sync

sbc --json clone "$srcloop" "$tmp/t.img" --apply
expect_rc 0 "a source mounted read-write"
json "d['partitions'][1]['method'] == 'files'" "the root is copied by files"
# debugfs's "Flags: 0x80010": EXT4_IMMUTABLE_FL is 0x10
flags=$(debugfs -R 'stat /home/pi/fixed.txt' "$tmp/t.img?offset=$((139264 * 512))" 2>/dev/null |
	sed -n 's/.*Flags: \(0x[0-9a-f]*\).*/\1/p')
check "the immutable flag is on the copy (flags ${flags:-none})" \
	sh -c "[ -n '$flags' ] && [ \$(( $flags & 0x10 )) -ne 0 ]"

# --verify full and a TMPDIR with no room for the FAT files (kernel8.img alone is 300 kB)
mkdir -p "$tmp/small"
if mount -t tmpfs -o size=128k tmpfs "$tmp/small"; then
	at_exit "umount '$tmp/small' 2>/dev/null"
	rm -f "$tmp/t2.img"
	TMPDIR=$tmp/small sbc --json clone "$srcloop" "$tmp/t2.img" --apply --verify full
	expect_rc 1 "--verify full, TMPDIR full"
	json "any(c['name'] == 'tree p1' and c['state'] == 'FAIL' for c in d['checks'])" \
		"--verify full, TMPDIR full: the FAT tree not compared is a failure"
	grep_out "TMPDIR" out "--verify full, TMPDIR full: the fix says where the room is needed"
	rm -f "$tmp/t3.img"
	TMPDIR=$tmp/small sbc --json clone "$srcloop" "$tmp/t3.img" --apply
	expect_rc 0 "a sample with TMPDIR full: a warning only"
	json "any(c['name'] == 'tree p1' and c['state'] == 'WARN' for c in d['checks'])" \
		"a sample with TMPDIR full: the tree not compared is a warning"
else
	fail "cannot mount a small tmpfs"
fi
chattr -i "$tmp/mnt/home/pi/fixed.txt"
umount "$tmp/mnt"
finish
