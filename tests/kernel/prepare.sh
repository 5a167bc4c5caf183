#!/bin/bash
# prepare.sh - case 7 of the kernel suite: `sbcdisk prepare` on a real kernel. An empty UAS
# disk on xHCI, and a UAS disk whose bridge shows 4096-byte sectors. In the
# guest, with --sysroot a tree on the writable share that binds the guest's /sys, /proc, /dev
# and /run (its /etc/fstab is the test's; the guest's own root is read-only): the dry run
# writes nothing; the 4Kn bridge is planned in its sectors, with a note; --apply gives the
# kernel's partition device at once, ext4 labelled data, the UUID= nofail line; `mount -a -T`
# of that fstab mounts it by UUID; a second run refuses the disk, which now holds data. One
# boot, 1 to 3 minutes.
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"
kernel_prepare
truncate -s 256M "$tmp/uas.img"
truncate -s 64M "$tmp/four.img"
q_xhci x
q_uas uas x "$tmp/uas.img" "" port=1
# a bridge that shows 4096-byte sectors (usb-storage takes no block size: UAS's scsi-hd does)
q_drive dfour "$tmp/four.img"
qdev -device "usb-uas,id=ufour,bus=x.0,serial=four,port=2" \
	-device "scsi-hd,bus=ufour.0,scsi-id=0,lun=0,drive=dfour,serial=four,logical_block_size=4096,physical_block_size=4096"

mkdir -p "$tmp/prep"
cat >"$tmp/prep/run.sh" <<'EOF'
. "$K/guest-lib.sh"
wait_blocks 2 || exit 1
u=$(blk_serial uas) f=$(blk_serial four)
[ -n "$u" ] && [ -n "$f" ] || { no "disks: uas '$u' four '$f'"; exit 1; }
root=$K/root
mkdir -p "$root/sys" "$root/proc" "$root/dev" "$root/run" "$root/etc"
printf '# the fstab of the test tree\n' >"$root/etc/fstab"
for d in sys proc dev run; do mount --rbind "/$d" "$root/$d" || no "bind /$d"; done
fstab0=$(sha256sum <"$root/etc/fstab")
# sum DISK: the disk's bytes, read around the page cache
sum() { dd if="/dev/$1" bs=1M iflag=direct status=none | sha256sum | cut -d' ' -f1; }
u0=$(sum "$u")
pr() { "$SBCDISK" --sysroot "$root" prepare "$@"; }
echo "time: $SECONDS s, the disks read"

pr "/dev/$u" /tmp/data >"$K/p1.out" 2>"$K/p1.err"
rc=$?
t "dry run: exit 0 (got $rc: $(head -c 300 "$K/p1.err"))" test $rc = 0
t "dry run: the fstab line" grep -q "^fstab: *UUID=.* /tmp/data ext4 defaults,nofail,x-systemd.device-timeout=10s 0 2$" "$K/p1.out"
t "dry run: the disk's bytes unchanged" test "$(sum "$u")" = "$u0"
t "dry run: the fstab unchanged" test "$(sha256sum <"$root/etc/fstab")" = "$fstab0"
t "dry run: no partition" test ! -e "/sys/block/$u/${u}1"

pr "/dev/$f" /tmp/four >"$K/p2.out" 2>"$K/p2.err"
rc=$?
t "4Kn behind a USB bridge: planned (got $rc: $(head -c 300 "$K/p2.err"))" test $rc = 0
t "4Kn behind a USB bridge: the plan says the table is seen only through such a bridge" \
	grep -q "^note: *the disk has 4096-byte logical sectors (4Kn): the table counts them; its bridge shows them, so the table is seen only through a bridge that shows them too$" "$K/p2.out"

pr "/dev/$u" /tmp/data --apply --time 1s --db /tmp/p.db >"$K/p3.out" 2>"$K/p3.err"
rc=$?
echo "time: $SECONDS s, prepared"
t "--apply: exit 0 (got $rc: $(head -c 300 "$K/p3.err"))" test $rc = 0
t "--apply: on the kernel's partition device" grep -q "made ext4 'data' on /dev/${u}1\.$" "$K/p3.out"
kparts_same "$u" "at once"
t "--apply: GPT, the partition at 1 MiB" sh -c \
	"sfdisk -d /dev/$u | grep -q '^label: gpt' && grep -qx 2048 /sys/block/$u/${u}1/start"
uuid=$(blkid -p -o value -s UUID "/dev/${u}1")
t "--apply: ext4 labelled data" test "$(blkid -p -o value -s LABEL "/dev/${u}1")" = data
t "--apply: the fstab line by UUID ($uuid)" grep -q "^UUID=$uuid /tmp/data ext4 defaults,nofail,x-systemd.device-timeout=10s 0 2$" "$root/etc/fstab"
t "--apply: mounted in the tree" sh -c "findmnt -n -o SOURCE '$root/tmp/data' | grep -qx /dev/${u}1"
t "--apply: the bench ran" grep -q "^== a quick bench" "$K/p3.out"
umount "$root/tmp/data" || no "umount"
mkdir -p /tmp/data
mount -a -T "$root/etc/fstab" >"$K/mount.out" 2>&1
t "mount -a -T the written fstab mounts it by UUID ($(cat "$K/mount.out"))" sh -c \
	"findmnt -n -o SOURCE /tmp/data | grep -qx /dev/${u}1"
umount /tmp/data
u1=$(sum "$u")
pr "/dev/$u" /tmp/data --apply >"$K/p4.out" 2>"$K/p4.err"
rc=$?
t "a second run: refused, the disk holds data ($(cat "$K/p4.err"))" sh -c \
	"test $rc = 1 && test \$(wc -l <'$K/p4.err') = 1 && grep -q \"holds a gpt partition table with partition 1 (${u}1): ext4 'data'\" '$K/p4.err'"
t "a second run: nothing written" test "$(sum "$u")" = "$u1"
echo "time: $SECONDS s, the end"
EOF

if kboot prep; then
	kresults prep "a second run: nothing written"
	grep '^time: ' "$tmp/prep/out"
elif [ -f "$tmp/prep/out" ]; then
	kout prep 80
fi
finish
