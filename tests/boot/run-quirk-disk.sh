#!/bin/bash
# run-quirk-disk.sh - `boot check DISK` judges the disk's own cmdline.txt: report 000's path,
# where `fix uas sda --apply` wrote the quirk into the running system's (the SD card's)
# cmdline.txt, must fail for the SSD whose own file lacks it, and pass once it has it.
. "$(dirname "$0")/../lib.sh"

python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi4-sd-ssd-bootfs-mounted.desc" "$tmp/t" ||
	exit 1
bc() { bin_run 20 --sysroot "$tmp/t" boot check sda; }

bc
grep_out "PASS  usb-quirks       the running system uses no usb-storage quirk for 152d:0578" out \
	"no quirk anywhere: nothing to carry"
# report 000: the quirk written where the system runs from, not into the SSD's file
bin_run 20 --sysroot "$tmp/t" fix uas sda --apply --no-save
expect_rc 0 "fix uas sda --apply (the running system's file)"
check "the running system's cmdline.txt has the quirk" grep -q 'usb-storage.quirks=152d:0578:u' \
	"$tmp/t/boot/cmdline.txt"
bc
expect_rc 3 "boot check sda fails"
grep_out "FAIL  usb-quirks       the running system's /boot/cmdline.txt gives 152d:0578:u, but cmdline.txt on sda lacks it" \
	out "the SD card's quirk does not count for the SSD"
grep_out "fix: add 152d:0578:u to usb-storage.quirks= in /media/pi/bootfs/cmdline.txt" out \
	"the fix names the SSD's own file"
# the fix written where it is needed: the SSD's own file, through its mount
cp "$tmp/t/boot/cmdline.txt" "$tmp/running.txt"
bin_run 20 --sysroot "$tmp/t" fix uas sda --disk sda --apply --no-save
expect_rc 0 "fix uas sda --disk sda --apply"
grep_out "^+++ b/media/pi/bootfs/cmdline.txt$" out "--disk edits the SSD's mounted cmdline.txt"
check "the SSD's cmdline.txt has the quirk" grep -q 'rootwait quiet splash plymouth.ignore-serial-consoles usb-storage.quirks=152d:0578:u$' \
	"$tmp/t/media/pi/bootfs/cmdline.txt"
check "the running system's file is left alone" cmp -s "$tmp/running.txt" "$tmp/t/boot/cmdline.txt"
bc
grep_out "PASS  usb-quirks       cmdline.txt carries usb-storage.quirks 152d:0578:u, as the running system uses" \
	out "the SSD's own quirk passes"
bin_run 20 --sysroot "$tmp/t" fix undo --disk sda --apply --no-save
expect_rc 0 "fix undo --disk sda --apply"
check "undo: the SSD's cmdline.txt without the quirk again" sh -c "! grep -q quirks '$tmp/t/media/pi/bootfs/cmdline.txt'"
check "undo: no backup left" test "$(ls "$tmp/t/media/pi/bootfs")" = "$(printf 'cmdline.txt\nconfig.txt')"
finish
