#!/bin/bash
# run-fix-disk-inuse.sh - fix --disk IMAGE writes the image's boot partition through its
# table (mtools-like offsets), so it asks the one in-use oracle first: with the image's boot
# partition held through another loop device (held open exclusively, as a mount in another
# namespace holds it; or mounted, where vfat can be mounted here), or its root mounted
# through mount -o loop,offset=... (as --disk of a disk with a mounted partition is refused),
# fix uas --apply is refused in one line and the image is unchanged. With nothing over it,
# the same command writes the quirk. --disk is resolved by what it points to: a link in /dev
# named like another loop device, and a by-id style link, edit the disk they point to.
. "$(dirname "$0")/lib.sh"
clone_need

mkimage "$tmp/disk.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
p1off=$((8192 * 512)) p2off=$((139264 * 512))
sum0=$(sum_of "$tmp/disk.img")

refused() { # WHAT: exit 1, one line saying it is in use, the image unchanged
	expect_rc 1 "$1"
	if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^sbcdisk: fix: --disk $tmp/disk.img is in use: .*over the same file $tmp/disk.img" "$tmp/err"; then
		ok
	else
		fail "$1: not one line saying what uses it:"; sed 's/^/  err: /' "$tmp/err" | head -3
	fi
	check "$1: the image unchanged" test "$(sum_of "$tmp/disk.img")" = "$sum0"
}

# the boot partition through a loop device at its offset, held open exclusively
p1=$(losetup -f --show -o $p1off --sizelimit $((131072 * 512)) "$tmp/disk.img") ||
	{ fail "losetup p1"; finish; }
at_exit "loop_detach '$p1'"
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(120)' "$p1" "$tmp/held" &
holder=$!
at_exit "kill $holder 2>/dev/null"
for _ in $(seq 100); do [ -e "$tmp/held" ] && break; sleep 0.1; done
sb fix uas 1234:5678 --disk "$tmp/disk.img" --apply --no-save
refused "the boot partition held through another loop device"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
mkdir -p "$tmp/mnt"
if mount -t vfat "$p1" "$tmp/mnt" 2>/dev/null; then
	sb fix uas 1234:5678 --disk "$tmp/disk.img" --apply --no-save
	refused "the boot partition mounted through another loop device"
	umount "$tmp/mnt"
else
	echo "note: no vfat here; the mounted boot partition case is not tested"
fi
loop_detach "$p1"

# the root through mount -o loop,offset= (read-only: any change is ours)
mount -o loop,ro,noload,offset=$p2off "$tmp/disk.img" "$tmp/mnt" ||
	skip "mount -o loop,offset= failed"
at_exit "umount '$tmp/mnt' 2>/dev/null"
sb fix uas 1234:5678 --disk "$tmp/disk.img" --apply --no-save
refused "the root mounted through mount -o loop,offset="
umount "$tmp/mnt"

sb fix uas 1234:5678 --disk "$tmp/disk.img" --apply --no-save
expect_rc 0 "nothing over the image: the fix is written"
check "the quirk is in the image's cmdline.txt" sh -c \
	"mtype -i '$tmp/disk.img@@$p1off' ::cmdline.txt | grep -q 1234:5678:u"

# --disk names a disk by what the name points to, never by its last component: a link in
# /dev named like another loop device (as a /dev/disk/by-label/ name can be) edits the disk
# it points to; a by-id style link outside /dev is followed too
mkimage "$tmp/a.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage a"; finish; }
cp "$tmp/a.img" "$tmp/b.img"
loop_attach "$tmp/a.img" || { fail "losetup a"; finish; }
la=$loopdev
loop_attach "$tmp/b.img" || { fail "losetup b"; finish; }
lb=$loopdev
links=/dev/sbcdisk-test.$$
mkdir -p "$links" "$tmp/by-id"
at_exit "rm -rf '$links'"
ln -s "$lb" "$links/${la#/dev/}"
ln -s "$lb" "$tmp/by-id/usb-Hostile_Disk 1-0:0"
suma=$(sum_of "$tmp/a.img")
sb fix uas 1234:5678 --disk "$links/${la#/dev/}" --apply --no-save
expect_rc 0 "a link in /dev named like another disk"
check "that other disk unchanged" test "$(sum_of "$tmp/a.img")" = "$suma"
check "the disk the link points to is edited" sh -c \
	"mtype -i '$tmp/b.img@@$p1off' ::cmdline.txt | grep -q 1234:5678:u"
sb fix uas 1234:5679 --disk "$tmp/by-id/usb-Hostile_Disk 1-0:0" --apply --no-save
expect_rc 0 "a by-id style link with a space"
check "the by-id link's disk is edited" sh -c \
	"mtype -i '$tmp/b.img@@$p1off' ::cmdline.txt | grep -q 1234:5679:u"
check "the other disk still unchanged" test "$(sum_of "$tmp/a.img")" = "$suma"
finish
