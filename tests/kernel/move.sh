#!/bin/bash
# move.sh - case 6 of the kernel suite: `sbcdisk move` on a real kernel's partition devices. A
# Raspberry Pi OS-like SD card on QEMU's sd-card and one UAS disk on xHCI holding an old
# table (one ext4 partition). In the guest: the dry run exits 0 with clone's plan and writes
# nothing (the disk's bytes and the kernel's old table stay); the refusals (onto the card,
# onto the disk while its old partition is mounted) are clone's own, byte for byte: one line,
# exit 1, nothing written, nothing in the store; --apply gives the kernel's new partitions at
# once, a clean e2fsck, new PARTUUIDs named by cmdline.txt and fstab, `boot check` of the
# copy, the boot order only said (not a Pi), one row in the store's moves, the card
# unchanged. The dry run names the disks by bare kernel names, resolved to the same devices
# (the plan and the first line name /dev/...); --apply names the target by a
# /dev/disk/by-id/ link, made in the guest as udev names a UAS disk. The card's config.txt
# gives a Pi 5 its own command line file ([pi5] cmdline=cmdline-pi5.txt): on this board,
# which is no Pi, move says which file the firmware reads cannot be told and refuses;
# with --board pi5 the copy's cmdline-pi5.txt gets the new root and its cmdline.txt is
# left as it was. One boot, about 1 to 3 minutes.
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"
kernel_card
# a Pi 5 reads the command line from cmdline-pi5.txt; the others from cmdline.txt (issue 34
# item 2: the file the firmware reads is the one the copy's rewrite must land in)
printf '[all]\nkernel=kernel8.img\narm_64bit=1\n[pi5]\ncmdline=cmdline-pi5.txt\n[all]\n' \
	>"$tmp/config.txt"
printf 'console=serial0,115200 root=PARTUUID=0badc0de-02 rootfstype=ext4 rootwait\n' \
	>"$tmp/cmdline-pi5.txt"
mcopy -o -i "$tmp/card.img@@$((8192 * 512))" "$tmp/config.txt" "$tmp/cmdline-pi5.txt" :: ||
	fail "mcopy config.txt"
card_sum=$(sum_of "$tmp/card.img")
# the old disk: its own table and one ext4 partition, the kernel's partitions at boot
truncate -s 320M "$tmp/uas.img"
printf 'label: dos\nlabel-id: 0x01dd15c0\nstart=2048, size=300000, type=83\n' |
	sfdisk -q "$tmp/uas.img" >/dev/null || fail "sfdisk uas"
mke2fs -q -F -t ext4 -L old -E offset=$((2048 * 512)) "$tmp/uas.img" 150000k ||
	fail "mke2fs uas"
q_sd card "$tmp/card.img"
q_xhci x
q_uas uas x "$tmp/uas.img" "" port=1

mkdir -p "$tmp/move"
cat >"$tmp/move/run.sh" <<'EOF'
. "$K/guest-lib.sh"
wait_blocks 2 || exit 1
card=$(basename "$(ls -d /sys/block/mmcblk[0-9] | head -1)")
u=$(blk_serial uas)
[ -n "$card" ] && [ -n "$u" ] || { no "disks: card '$card' uas '$u'"; exit 1; }
t "the card's partitions are the kernel's" test -b "/dev/${card}p2"
t "the old disk's one partition is the kernel's" \
	sh -c "grep -qx 2048 /sys/block/$u/${u}1/start && test ! -e /sys/block/$u/${u}2"
# sum DISK: the disk's bytes, read around the page cache
sum() { dd if="/dev/$1" bs=1M iflag=direct status=none | sha256sum | cut -d' ' -f1; }
card0=$(sum "$card") u0=$(sum "$u")
db=/tmp/move.db
# moves: the rows of the store's moves, "none" without a store
moves() {
	[ -e "$db" ] || { echo none; return; }
	python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT src_name, dst_name FROM moves").fetchall())' \
		"$db" 2>&1
}
mv() { "$SBCDISK" move "$@" --no-bench --no-tryboot --db "$db"; }
# the by-id link udev makes for a UAS disk: usb-VENDOR_MODEL_SERIAL-0:0 (no udev here)
mkdir -p /dev/disk/by-id
byid=/dev/disk/by-id/usb-QEMU_QEMU_HARDDISK_uas-0:0
ln -sf "../../$u" "$byid"
t "the by-id link names the disk ($(readlink -f "$byid"))" test "$(readlink -f "$byid")" = "/dev/$u"
echo "time: $SECONDS s, the disks read"
# a hang is told where: what each process waits in, the kernel's blocked tasks
(
	sleep 300
	echo "watchdog: still running after 300 s"
	# first what needs nothing from the 9p share (a stalled share is one way to hang): the
	# blocked tasks on the console
	echo 8 >/proc/sys/kernel/printk
	echo w >/proc/sysrq-trigger
	ps -eo pid,stat,wchan:24,args | grep -v ' \[.*\]$'
	for p in /proc/[0-9]*; do
		grep -q '^State:.*D' "$p/status" 2>/dev/null || continue
		echo "--- ${p#/proc/} $(tr '\0' ' ' <"$p/cmdline")"
		cat "$p/stack"
	done
	dmesg | tail -40
) &
watchdog=$!

# --- [pi5] cmdline= on a board that is no Pi: not told, refused ---------------------------------
mv "$card" "$u" >"$K/m0.out" 2>"$K/m0.err"
rc=$?
t "[pi5] cmdline=, no --board: exit 1 (got $rc)" test $rc = 1
t "[pi5] cmdline=, no --board: says it cannot be told ($(cat "$K/m0.err"))" \
	sh -c "grep -q 'sets cmdline= under \[pi5\]' '$K/m0.err' && grep -q -- '--board' '$K/m0.err'"
t "[pi5] cmdline=, no --board: nothing written" test "$(sum "$u")" = "$u0"
t "[pi5] cmdline=, no --board: no move in the store ($(moves))" \
	test "$(moves)" = none -o "$(moves)" = "[]"

# --- the dry run -----------------------------------------------------------------------------
# by bare kernel names, as clone's help spells disks: resolved to the same devices
mv "$card" "$u" --board pi5 >"$K/m1.out" 2>"$K/m1.err"
rc=$?
echo "time: $SECONDS s, the dry run"
t "dry run: exit 0 (got $rc: $(head -c 300 "$K/m1.err"))" test $rc = 0
t "dry run: says so" grep -q "^sbcdisk move: /dev/$card -> /dev/$u (dry run" "$K/m1.out"
t "dry run: clone's plan" grep -q "^== 2\. the clone's plan" "$K/m1.out"
t "dry run: the plan's root partition" grep -q "^p2 .* ext4 " "$K/m1.out"
t "dry run: clone's own last word" grep -q "^dry run: nothing written" "$K/m1.out"
t "dry run: --board pi5 rewrites cmdline-pi5.txt" grep -q "^  cmdline-pi5.txt:1" "$K/m1.out"
t "dry run: --board pi5 leaves cmdline.txt" sh -c "! grep -q '^  cmdline.txt:' '$K/m1.out'"
t "dry run: the disk's bytes unchanged" test "$(sum "$u")" = "$u0"
t "dry run: the kernel still shows the old table" \
	sh -c "grep -qx 2048 /sys/block/$u/${u}1/start && grep -qx 300000 /sys/block/$u/${u}1/size && test ! -e /sys/block/$u/${u}2"
t "dry run: no move in the store ($(moves))" test "$(moves)" = none -o "$(moves)" = "[]"

# --- the refusals: clone's own, byte for byte ------------------------------------------------
# refused WHAT N: move's refusal N (m$N.err) is one line, exit 1 (rc), clone's stderr for the
# same arguments (c$N.err), nothing written to the disk, nothing in the store
refused() {
	t "$1: exit 1 (got $rc)" test $rc = 1
	t "$1: one line ($(cat "$K/m$2.err"))" test "$(wc -l <"$K/m$2.err")" = 1
	t "$1: clone's ($(cat "$K/c$2.err"), exit $crc)" \
		sh -c "test $crc = 1 && cmp -s '$K/m$2.err' '$K/c$2.err'"
	t "$1: nothing written" test "$(sum "$u")" = "$u0"
	t "$1: nothing in the store ($(moves))" test "$(moves)" = none -o "$(moves)" = "[]"
}
mv "/dev/$card" "/dev/$card" --apply --board pi5 >"$K/m2.out" 2>"$K/m2.err"
rc=$?
"$SBCDISK" clone "/dev/$card" "/dev/$card" --apply --board pi5 --db "$db" >"$K/c2.out" \
	2>"$K/c2.err"
crc=$?
refused "move onto the card itself" 2
mkdir -p /tmp/old
if mount -o ro "/dev/${u}1" /tmp/old; then
	mv "/dev/$card" "$byid" --apply --board pi5 >"$K/m3.out" 2>"$K/m3.err"
	rc=$?
	# clone named the disk move resolved the link to: move hands the steps the disk
	"$SBCDISK" clone "/dev/$card" "/dev/$u" --apply --board pi5 --db "$db" >"$K/c3.out" \
		2>"$K/c3.err"
	crc=$?
	umount /tmp/old
	refused "move onto the disk, its partition mounted" 3
	t "the refusal names the mount" grep -q "${u}1 is mounted on /tmp/old" "$K/m3.err"
else
	no "mount ${u}1: the refusal of a mounted target not tried"
fi
echo "time: $SECONDS s, the refusals"

# --- --apply ---------------------------------------------------------------------------------
# with the benches of step 1 (reads only, stored): 1 s a test (5 s add a minute under TCG);
# the target by its by-id link, the copy for a Pi 5
"$SBCDISK" move "/dev/$card" "$byid" --apply --no-tryboot --time 1s --board pi5 --db "$db" \
	>"$K/m4.out" 2>"$K/m4.err"
rc=$?
echo "time: $SECONDS s, the move done"
t "--apply: exit 0 (got $rc: $(head -c 300 "$K/m4.err"))" test $rc = 0
t "--apply: the by-id link resolved to the disk" \
	grep -q "^sbcdisk move: /dev/$card -> /dev/$u (--apply" "$K/m4.out"
t "--apply: the benches" grep -q "^== 1\. before: a quick bench" "$K/m4.out"
runs=$("$SBCDISK" history --db "$db" --json 2>&1 | python3 -c 'import json, sys
print(sorted((r["profile"], (r["device"] or {}).get("name")) for r in json.load(sys.stdin)["runs"]))' 2>&1)
t "--apply: both benches stored ($runs)" test "$runs" = "[('quick', '$card'), ('quick', '$u')]"
t "--apply: the clone" grep -q "^== 2\. the clone$" "$K/m4.out"
t "--apply: boot check ran" grep -q "^== 3\. will the copy boot" "$K/m4.out"
sed -n '/^== 3\./,/^== 4\./p' "$K/m4.out" >"$K/check.out"
t "--apply: boot check's verdict on the copy ($(grep -m1 "^$u: " "$K/check.out"))" \
	grep -q "^$u: \(will\|may\) boot" "$K/check.out"
t "--apply: boot check found the copy's ids unique" grep -q "PASS  id-unique" "$K/check.out"
t "--apply: not a Pi, what to change is said" \
	grep -q "^Not a Raspberry Pi: make the board's boot loader start from /dev/$u " "$K/m4.out"
t "--apply: the move recorded ($(grep -m1 '^Recorded' "$K/m4.out"))" \
	grep -q "^Recorded as move #1 ($card -> $u)" "$K/m4.out"
t "--apply: one move in the store ($(moves))" test "$(moves)" = "[('$card', '$u')]"

kparts_same "$u" "at once"
t "two partitions, the first no more at the old start" \
	sh -c "test -b /dev/${u}2 && ! grep -qx 2048 /sys/block/$u/${u}1/start"
e2fsck -fn "/dev/${u}2" >"$K/fsck.out" 2>&1
rc=$?
t "e2fsck -fn of the copy's root clean (exit $rc: $(tail -1 "$K/fsck.out"))" test $rc = 0
pu1=$(blkid -p -o value -s PART_ENTRY_UUID "/dev/${u}1")
pu2=$(blkid -p -o value -s PART_ENTRY_UUID "/dev/${u}2")
t "new PARTUUIDs ($pu1 $pu2): not the card's, not the old disk's" sh -c \
	"test -n '$pu1' -a -n '$pu2' -a '$pu1' != '$pu2' && ! echo '$pu1 $pu2' | grep -q '0badc0de\|01dd15c0'"
mkdir -p /tmp/d
modprobe -d "$kmods" -a nls_cp437 nls_ascii nls_utf8 2>/dev/null
if mount -o ro "/dev/${u}1" /tmp/d; then
	t "cmdline-pi5.txt (a Pi 5's) names the new root" \
		grep -q "root=PARTUUID=$pu2 " /tmp/d/cmdline-pi5.txt
	t "cmdline.txt (not read on a Pi 5) left as it was" \
		grep -q "root=PARTUUID=0badc0de-02 " /tmp/d/cmdline.txt
	umount /tmp/d
else
	no "mount ${u}1"
fi
if mount -o ro,noload "/dev/${u}2" /tmp/d; then
	t "fstab names the new boot partition" grep -q "^PARTUUID=$pu1 " /tmp/d/etc/fstab
	t "fstab names the new root" grep -q "^PARTUUID=$pu2 " /tmp/d/etc/fstab
	umount /tmp/d
else
	no "mount ${u}2"
fi
echo "time: $SECONDS s, the copy checked"
t "the card unchanged" test "$(sum "$card")" = "$card0"
kill $watchdog 2>/dev/null
EOF

if kboot move; then
	kresults move "the card unchanged"
	grep '^time: ' "$tmp/move/out"
elif [ -f "$tmp/move/out" ]; then
	kout move 80
fi
check "the card image unchanged" test "$(sum_of "$tmp/card.img")" = "$card_sum"
finish
