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
# the SSD's own file with the quirk
sed -i 's/rootwait/rootwait usb-storage.quirks=152d:0578:u/' "$tmp/t/media/pi/bootfs/cmdline.txt"
bc
grep_out "PASS  usb-quirks       cmdline.txt carries usb-storage.quirks 152d:0578:u, as the running system uses" \
	out "the SSD's own quirk passes"
finish
