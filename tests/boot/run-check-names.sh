#!/bin/bash
# run-check-names.sh - `boot check DISK` resolves DISK once (probe/ref.h), inside a captured
# tree: a bare kernel name, /dev/NAME, a /dev/disk/by-id/ link and another symbolic link all
# name the same disk and get the same checks (issue 34, 8: a by-id TARGET was copied, then
# `boot check` of that name exited 2); a link to no disk is still a usage error.
. "$(dirname "$0")/../lib.sh"

cat >"$tmp/t.desc" <<DESC
include $src/tests/sysroots/pi4-usb-boot.desc
file /dev/sda ""
link /dev/disk/by-id/usb-JMicron_Generic_0123456789ABCDEF-0:0 /dev/sda
link /dev/disk/by-path/platform-fd500000.pcie-pci-0000:01:00.0-usb-0:2:1.0-scsi-0:0:0:0 /dev/sda
link /dev/disk/by-id/usb-nothing-0:0 /dev/sdz
DESC
python3 "$src/tools/mksysroot" "$tmp/t.desc" "$tmp/t" >/dev/null || { fail "mksysroot"; finish; }

bc() { # NAME: boot check NAME in the tree, stdout in $tmp/out.NAME-ish, status in $rc
	timeout 20 $run "$bin" --sysroot "$tmp/t" --no-color boot check "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

bc sda
rc0=$rc
cp "$tmp/out" "$tmp/out.sda"
check "sda: checked (exit 0 or 3, not $rc0)" [ "$rc0" = 0 ] || [ "$rc0" = 3 ]
grep_out "sda" out.sda "sda: the disk is named"
for name in /dev/sda /dev/disk/by-id/usb-JMicron_Generic_0123456789ABCDEF-0:0 \
	/dev/disk/by-path/platform-fd500000.pcie-pci-0000:01:00.0-usb-0:2:1.0-scsi-0:0:0:0; do
	bc "$name"
	check "$name: the same exit as sda ($rc0), got $rc" [ "$rc" = "$rc0" ]
	check "$name: the same checks as sda" cmp -s "$tmp/out" "$tmp/out.sda"
done

bc /dev/disk/by-id/usb-nothing-0:0
expect_rc 2 "a link to no disk of the tree"
grep_out "no disk of this system" err "a link to no disk: said so"
bc /dev/sda1
expect_rc 2 "a partition"
grep_out "a partition" err "a partition: said so"
finish
