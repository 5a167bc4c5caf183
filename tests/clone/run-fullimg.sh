#!/bin/bash
# run-fullimg.sh - a live clone whose image's own file system fills during the second pass
# (the image on a small tmpfs, 60 MB added to the source between the passes): the loop
# device's writes fail under the target's file system; the clone fails, says why, passes no
# check on what the page cache shows, and removes the image it made. An image whose name is
# made a symlink to another file between the passes: that file is never written.
. "$(dirname "$0")/lib.sh"
clone_need

mkimage "$tmp/src.img" dos 400 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
live_part "$tmp/src.img" 400 || { fail "losetup"; finish; }
mkdir -p "$tmp/mnt" "$tmp/small"
mount "$part" "$tmp/mnt" || { fail "mount the source"; finish; }
at_exit "umount '$tmp/mnt'"
mount -t tmpfs -o size=300m tmpfs "$tmp/small" || { fail "mount a tmpfs"; finish; }
at_exit "umount '$tmp/small'"

# between the passes: the tmpfs filled but for 20 MiB, then 60 MB more on the source
hook="avail=\$(df -B1 --output=avail '$tmp/small' | tail -1)"
hook+="; fallocate -l \$((avail - (20 << 20))) '$tmp/small/filler'"
hook+="; head -c 60000000 /dev/urandom >'$tmp/mnt/home/pi/grown.bin'"
SBCDISK_TEST_BETWEEN_PASSES=$hook sbc clone "$srcloop" "$tmp/small/full.img" --apply
expect_rc 1 "the image's file system full in the second pass"
if grep -q "target full" "$tmp/err"; then ok; else
	fail "the image's file system full: no line naming the cause (target full)"
	sed 's/^/  err: /' "$tmp/err" | head -5
fi
if grep "PASS *tree p2" "$tmp/out" "$tmp/err"; then
	fail "the image's file system full: a tree check passed"
else ok; fi
check "the image's file system full: the image it made is removed" \
	test ! -e "$tmp/small/full.img"

# the image's name made a symlink to another file between the passes (a user, another
# program): what is written after (the table, the boot files) and what is checked goes to the
# image it opened, never to the file the name now points at
rm -f "$tmp/small/filler" "$tmp/mnt/home/pi/grown.bin"
head -c 1048576 /dev/urandom >"$tmp/victim.img"
truncate -s 1g "$tmp/victim.img"
victim_sum=$(md5sum <"$tmp/victim.img")
hook="mv '$tmp/swap.img' '$tmp/swap-moved.img' && ln -s '$tmp/victim.img' '$tmp/swap.img'"
SBCDISK_TEST_BETWEEN_PASSES=$hook sbc clone "$srcloop" "$tmp/swap.img" --apply
check "the image's name swapped for a symlink: the file it points at untouched" \
	test "$(md5sum <"$tmp/victim.img")" = "$victim_sum"
if sfdisk -d "$tmp/swap-moved.img" 2>/dev/null | grep -q "type=83"; then ok; else
	fail "the image's name swapped for a symlink: the table not on the image it opened"
	sed 's/^/  err: /' "$tmp/err" | head -3
fi
finish
