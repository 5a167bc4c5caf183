#!/bin/bash
# run-fix-disk.sh - `fix uas VID:PID --disk DISK` writes the quirk into the named disk's own
# cmdline.txt (an image laid out like Raspberry Pi OS, as a loop device whose partitions the
# kernel need not have, and as an image file): the diff, the dated backup beside it, nothing
# else on the disk or of the running system changed, `boot check` sees the quirk there, and
# `fix undo --disk` puts the file back byte for byte.
# shellcheck source=tests/clone/lib.sh
. "$(dirname "$0")/lib.sh"
clone_need
command -v mdel >/dev/null || skip "mdel (mtools) missing"

img=$tmp/pi.img
mkimage "$img" dos 200 PARTUUID=0badc0de-02 || fail "cannot build the image"
off=$((8192 * 512))
# the image's own cmdline.txt without any quirk: the fix has something to add
printf 'console=serial0,115200 console=tty1 root=PARTUUID=0badc0de-02 rootfstype=ext4 fsck.repair=yes rootwait\n' >"$tmp/cmdline.orig"
mcopy -o -i "$img@@$off" "$tmp/cmdline.orig" ::cmdline.txt || fail "mcopy"
mtype -i "$img@@$off" ::config.txt >"$tmp/config.orig"
fat() { mtype -i "$img@@$off" "::$1"; }
listing() { mdir -/ -b -i "$img@@$off" :: | sort; }
listing >"$tmp/list.orig"
# the running system's own boot files, to see that they stay as they are
running_sum() { cat /boot/firmware/cmdline.txt /boot/cmdline.txt 2>/dev/null | md5sum; }
running_before=$(running_sum)

loop_attach "$img" || fail "losetup"
disk=${loopdev#/dev/}

sb fix uas 152d:0578 --disk "$disk" --no-save
expect_rc 0 "dry run"
grep_out "^+.*rootwait usb-storage.quirks=152d:0578:u$" out "the dry run shows the quirk added"
grep_out "^--- a/${disk}p1/cmdline.txt$" out "the diff names the disk's boot partition"
check "dry run: cmdline.txt unchanged" cmp -s "$tmp/cmdline.orig" <(fat cmdline.txt)
check "dry run: no backup" cmp -s "$tmp/list.orig" <(listing)

sb fix uas 152d:0578 --disk "$disk" --apply --no-save
expect_rc 0 "--apply"
check "the image's cmdline.txt has the quirk" \
	test "$(fat cmdline.txt)" = "$(sed 's/$/ usb-storage.quirks=152d:0578:u/' "$tmp/cmdline.orig")"
check "the backup beside it holds the old line" \
	cmp -s "$tmp/cmdline.orig" <(fat "$(listing | sed -n 's|^::/\(cmdline.txt.sbcdisk-[0-9-]*\)$|\1|p')")
check "nothing else on the partition changed: one file more, the backup" \
	test "$(comm -13 "$tmp/list.orig" <(listing) | grep -c '^::/cmdline.txt.sbcdisk-')" = 1
check "config.txt unchanged" cmp -s "$tmp/config.orig" <(fat config.txt)
check "the running system's boot files unchanged" test "$(running_sum)" = "$running_before"
grep_out "fix undo --disk $disk --apply' puts it back" out "the undo hint names the disk"

sb boot check "$disk"
grep_out "cmdline.txt carries usb-storage.quirks=152d:0578:u" out "boot check sees the quirk"
grep_out "PASS  root-resolves" out "boot check reads the disk's own cmdline.txt"

sb fix uas 152d:0578 --disk "$disk" --no-save
grep_out "already holds the quirk" out "a second fix changes nothing"

sb fix undo --disk "$disk" --apply --no-save
expect_rc 0 "undo --apply"
check "undo restores cmdline.txt byte for byte" cmp -s "$tmp/cmdline.orig" <(fat cmdline.txt)
check "undo removes the backup" cmp -s "$tmp/list.orig" <(listing)
sb boot check "$disk"
check "boot check: the quirk is gone" sh -c "! grep -q 'usb-storage.quirks' '$tmp/out'"
loop_detach "$loopdev"

# the image file itself
sb fix uas 152d:0578 --disk "$img" --apply --no-save
expect_rc 0 "--disk IMAGE --apply"
check "image: cmdline.txt has the quirk" sh -c "mtype -i '$img@@$off' ::cmdline.txt | grep -q 'usb-storage.quirks=152d:0578:u'"
sb fix undo --disk "$img" --apply --no-save
check "image: undo restores cmdline.txt" cmp -s "$tmp/cmdline.orig" <(fat cmdline.txt)

# what is not a disk is refused with one message
sb fix uas 152d:0578 --disk "$tmp/none.img" --no-save
expect_rc 1 "a missing --disk"
grep_out "no such block device or image file" err "a missing --disk is said"
truncate -s 1M "$tmp/blank.img"
sb fix uas 152d:0578 --disk "$tmp/blank.img" --no-save
expect_rc 1 "an image without a table"
grep_out "no boot partition found" err "an image without a boot partition is said"
finish
