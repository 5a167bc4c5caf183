#!/bin/bash
# clone.sh - case 4 of the kernel suite: clone on a real kernel's partition devices. A Raspberry Pi OS-like
# SD card (FAT + ext4, cmdline.txt and fstab by PARTUUID) on QEMU's sd-card, cloned in the
# guest to a UAS disk on xHCI: exit 0, the kernel shows the new partitions at once (no
# re-plug, no partprobe), e2fsck clean, the same tree, the new ids in cmdline.txt and fstab,
# the card unchanged, `boot check` of the copy. Then the loop driver is unloaded (a module
# whose node only systemd makes): a clone to a second UAS disk needs none, and one to an
# image says so in one line before writing anything. A third UAS disk whose bridge shows
# 4096-byte sectors gets the copy in its sectors: the kernel's partitions, its FAT (of
# 4096-byte sectors) and ext4 mounted, the same files, the new ids, e2fsck and boot check
# clean. One boot, about 1 to 3 minutes. `move`
# of such a card is case 6 (move.sh), in a boot of its own.
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"
kernel_card
truncate -s 320M "$tmp/uas1.img" "$tmp/uas2.img" "$tmp/four.img"
# the old disk's table on the first target: its partitions are what the kernel shows at boot
printf 'label: dos\nstart=2048, size=200000, type=83\nstart=202048, type=83\n' |
	sfdisk -q "$tmp/uas1.img" >/dev/null || fail "sfdisk uas1"
q_sd card "$tmp/card.img"
q_xhci x
q_uas uas1 x "$tmp/uas1.img" "" port=1
q_uas uas2 x "$tmp/uas2.img" "" port=2
# a bridge that shows 4096-byte sectors (issue 34, 9): UAS's scsi-hd takes a block size
q_drive dfour "$tmp/four.img"
qdev -device "usb-uas,id=ufour,bus=x.0,serial=four,port=3" \
	-device "scsi-hd,bus=ufour.0,scsi-id=0,lun=0,drive=dfour,serial=four,logical_block_size=4096,physical_block_size=4096"

mkdir -p "$tmp/clone"
cat >"$tmp/clone/run.sh" <<'EOF'
. "$K/guest-lib.sh"
wait_blocks 4 || exit 1
card=$(basename "$(ls -d /sys/block/mmcblk[0-9] | head -1)")
u1=$(blk_serial uas1) u2=$(blk_serial uas2) f=$(blk_serial four)
[ -n "$card" ] && [ -n "$u1" ] && [ -n "$u2" ] && [ -n "$f" ] ||
	{ no "disks: card '$card' uas '$u1' '$u2' four '$f'"; exit 1; }
t "the card's partitions are the kernel's" test -b "/dev/${card}p2"
sum0=$(sha256sum </dev/$card | cut -d' ' -f1)

# --- the clone, the loop driver loaded ------------------------------------------------------
"$SBCDISK" --json clone "/dev/$card" "/dev/$u1" --apply >"$K/c1.json" 2>"$K/c1.err"
rc=$?
echo "time: $SECONDS s, the first clone done"
t "clone to the UAS disk: exit 0 (got $rc: $(head -c 300 "$K/c1.err"))" test $rc = 0
kparts_same "$u1" "at once"
t "the old disk's second partition is no more at its old start" \
	sh -c "! grep -qx 202048 /sys/block/$u1/${u1}2/start"
e2fsck -fn "/dev/${u1}2" >"$K/fsck.out" 2>&1
rc=$?
t "e2fsck -fn of the copy's root clean (exit $rc: $(tail -1 "$K/fsck.out"))" test $rc = 0
pu1=$(python3 -c "import json; d=json.load(open('$K/c1.json')); print(d['partitions'][0]['target_partuuid'])")
pu2=$(python3 -c "import json; d=json.load(open('$K/c1.json')); print(d['partitions'][1]['target_partuuid'])")
t "the kernel's view: PARTUUID of ${u1}2 is the new one" \
	test "$(blkid -p -o value -s PART_ENTRY_UUID "/dev/${u1}2")" = "$pu2"
mkdir -p /tmp/s1 /tmp/s2 /tmp/d1 /tmp/d2
# tree DIR: every name with its type, owner, mode, links and link target; the files' sums
tree() {
	(cd "$1" && find . -path ./lost+found -prune -o -printf '%p %y %U %G %m %n %l\n' | sort &&
		find . -path ./lost+found -prune -o -path ./etc/fstab -prune -o -type f -print0 |
		sort -z | xargs -0 sha256sum)
}
# vfat's character sets: the kernel's own request for them runs this root's modprobe
modprobe -d "$kmods" -a nls_cp437 nls_ascii nls_utf8 2>/dev/null
if mount -o ro "/dev/${card}p1" /tmp/s1 && mount -o ro,noload "/dev/${card}p2" /tmp/s2 &&
	mount -o ro "/dev/${u1}1" /tmp/d1 && mount -o ro "/dev/${u1}2" /tmp/d2; then
	echo "time: $SECONDS s, the copy mounted"
	t "cmdline.txt names the new root" grep -q "root=PARTUUID=$pu2 " /tmp/d1/cmdline.txt
	t "fstab names the new boot partition" grep -q "^PARTUUID=$pu1 " /tmp/d2/etc/fstab
	t "fstab names the new root" grep -q "^PARTUUID=$pu2 " /tmp/d2/etc/fstab
	t "the same boot files" diff -r -x cmdline.txt /tmp/s1 /tmp/d1
	tree /tmp/s2 >/tmp/s2.tree
	tree /tmp/d2 >/tmp/d2.tree
	t "the same root tree: names, types, owners, modes, links, contents ($(wc -l </tmp/s2.tree) lines)" \
		cmp -s /tmp/s2.tree /tmp/d2.tree
	diff /tmp/s2.tree /tmp/d2.tree | head -5
	umount /tmp/s1 /tmp/s2 /tmp/d1 /tmp/d2
	"$SBCDISK" boot check "$u1" >"$K/boot.out" 2>&1
	rc=$?
	t "boot check of the copy passes (exit $rc: $(grep -m1 FAIL "$K/boot.out"))" test $rc = 0
else
	no "mount the card's and the copy's partitions: the trees not compared"
	umount /tmp/s1 /tmp/s2 /tmp/d1 /tmp/d2 2>/dev/null
fi
echo "time: $SECONDS s, the copy checked"

# --- a 4Kn target: the table in its sectors, FAT and ext4 made anew, the kernel reads them ---
t "the 4Kn disk has 4096-byte sectors" grep -qx 4096 "/sys/block/$f/queue/logical_block_size"
"$SBCDISK" --json clone "/dev/$card" "/dev/$f" --apply >"$K/c4.json" 2>"$K/c4.err"
rc=$?
echo "time: $SECONDS s, the 4Kn clone done"
t "clone to the 4Kn disk: exit 0 (got $rc: $(head -c 300 "$K/c4.err"))" test $rc = 0
# the table counts 4096-byte sectors, the kernel's sysfs 512-byte ones: the same bytes
want=$(sfdisk -d "/dev/$f" | sed -n 's|^/dev/\([a-z0-9]*\) : start= *\([0-9]*\), size= *\([0-9]*\).*|\1 \2 \3|p' |
	while read -r n a z; do echo "$n $((a * 8)) $((z * 8))"; done)
got=$(for d in /sys/block/"$f"/"$f"*; do
	[ -e "$d/start" ] && echo "${d##*/} $(cat "$d/start") $(cat "$d/size")"
done)
t "4Kn: the kernel's partitions are the table's (table '$want', kernel '$got')" \
	test -n "$want" -a "$want" = "$got"
t "4Kn: the table in 4096-byte sectors" sh -c "sfdisk -d /dev/$f | grep -qx 'sector-size: 4096'"
t "4Kn: p2 starts where the card's does, in bytes" \
	test "$(cat /sys/block/$f/${f}2/start)" = "$(cat /sys/block/$card/${card}p2/start)"
fu2=$(python3 -c "import json; d=json.load(open('$K/c4.json')); print(d['partitions'][1]['target_partuuid'])")
mkdir -p /tmp/f1 /tmp/f2
if mount -o ro "/dev/${f}1" /tmp/f1 && mount -o ro "/dev/${f}2" /tmp/f2; then
	t "4Kn: the FAT the kernel mounts has 4096-byte sectors" \
		sh -c "od -An -tu2 -j 11 -N2 /dev/${f}1 | grep -qw 4096"
	t "4Kn: cmdline.txt names the new root" grep -q "root=PARTUUID=$fu2 " /tmp/f1/cmdline.txt
	t "4Kn: fstab names the new root" grep -q "^PARTUUID=$fu2 " /tmp/f2/etc/fstab
	mount -o ro "/dev/${card}p1" /tmp/s1 && mount -o ro,noload "/dev/${card}p2" /tmp/s2
	t "4Kn: the same boot files" diff -r -x cmdline.txt /tmp/s1 /tmp/f1
	tree /tmp/s2 >/tmp/s2.tree
	tree /tmp/f2 >/tmp/f2.tree
	t "4Kn: the same root tree: names, types, owners, modes, links, contents" \
		cmp -s /tmp/s2.tree /tmp/f2.tree
	diff /tmp/s2.tree /tmp/f2.tree | head -5
	umount /tmp/s1 /tmp/s2 /tmp/f1 /tmp/f2
	"$SBCDISK" boot check "$f" >"$K/boot4.out" 2>&1
	rc=$?
	t "4Kn: boot check of the copy passes (exit $rc: $(grep -m1 FAIL "$K/boot4.out"))" test $rc = 0
else
	no "4Kn: mount the copy's partitions"
	umount /tmp/f1 /tmp/f2 2>/dev/null
fi
e2fsck -fn "/dev/${f}2" >"$K/fsck4.out" 2>&1
rc=$?
t "4Kn: e2fsck -fn of the copy's root clean (exit $rc: $(tail -1 "$K/fsck4.out"))" test $rc = 0

# --- the loop driver unloaded ----------------------------------------------------------------
rmmod loop 2>/dev/null
t "no loop driver now" test ! -e /dev/loop-control -a ! -d /sys/module/loop
"$SBCDISK" clone "/dev/$card" "/dev/$u2" --apply >"$K/c2.out" 2>"$K/c2.err"
rc=$?
t "no loop driver: clone to the second UAS disk: exit 0 (got $rc: $(head -c 300 "$K/c2.err"))" test $rc = 0
kparts_same "$u2" "no loop driver"
e2fsck -fn "/dev/${u2}2" >/dev/null 2>&1
rc=$?
t "no loop driver: e2fsck -fn clean (exit $rc)" test $rc = 0
t "no loop driver: still none loaded" test ! -d /sys/module/loop
"$SBCDISK" clone "/dev/$card" /tmp/card-copy.img --apply >"$K/c3.out" 2>"$K/c3.err"
rc=$?
t "no loop driver, to an image: exit 1 (got $rc)" test $rc = 1
t "no loop driver, to an image: one line naming the driver ($(cat "$K/c3.err"))" \
	sh -c "test \$(wc -l <'$K/c3.err') = 1 && grep -q 'modprobe loop' '$K/c3.err'"
t "no loop driver, to an image: nothing written" test ! -e /tmp/card-copy.img
sum1=$(sha256sum </dev/$card | cut -d' ' -f1)
t "the card unchanged" test "$sum0" = "$sum1"
EOF

if kboot clone; then
	kresults clone "the card unchanged"
elif [ -f "$tmp/clone/out" ]; then
	kout clone 80
fi
check "the card image unchanged" test "$(sum_of "$tmp/card.img")" = "$card_sum"
finish
