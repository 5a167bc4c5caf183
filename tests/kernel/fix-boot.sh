#!/bin/bash
# fix-boot.sh - case 3 of the kernel suite: `fix uas VID:PID --apply`, judged by the next boot.
# Boot 1: a UAS disk (QEMU's usb-uas, 46f4:0003) and a BOT disk on xHCI, and a boot partition
# (/boot/firmware, from this side) whose cmdline.txt has a quoted usb-storage.quirks list, a
# quoted value and other parameters; the fix is applied in the guest. Boot 2: the kernel
# command line is that file's line; the kernel's quirks parameter is exactly the merged list,
# the kernel says "UAS is ignored" for 46f4:0003 and no other device, the BOT disk is still
# there, the UAS disk is gone (usb-uas has no BOT interface for usb-storage to take), and
# doctor reports uas-disabled for 46f4:0003 and that its disk is gone.
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
kernel_prepare

truncate -s 96M "$tmp/uas.img"
truncate -s 48M "$tmp/bot.img"
devices() {
	q_xhci x
	q_uas uas1 x "$tmp/uas.img"
	q_bot bot1 x "$tmp/bot.img"
}
# the quirks before: two bridges, quoted as some guides write it
old='152d:0578:u,174c:55aa:u'
line="console=serial0,115200 console=tty1 root=PARTUUID=3e2d4a5b-02 rootfstype=ext4"
line="$line fsck.repair=yes usb-storage.quirks=\"$old\" rootwait note=\"a b\" quiet splash"
for b in fix1 fix2; do
	mkdir -p "$tmp/$b/boot/firmware"
	cat >"$tmp/$b/run.sh" <<'G'
. $K/guest-lib.sh
mount --bind $K/boot /boot
wait_blocks "$(cat $K/disks)" || exit 1
lsblk -d -o NAME,SERIAL,TRAN >$K/lsblk
for s in uas1 bot1; do echo "$s=$(blk_serial $s)"; done >$K/serials
cat /proc/cmdline >$K/cmdline
cat /sys/module/usb_storage/parameters/quirks >$K/quirks
dmesg >$K/dmesg.txt
if [ -f $K/apply ]; then
	"$SBCDISK" fix uas 46f4:0003 --apply --no-save >$K/fix.out 2>&1
	echo "fix: exit $?"
fi
"$SBCDISK" --json doctor >$K/doctor.json 2>$K/doctor.err
echo "doctor: exit $?"
"$SBCDISK" doctor >$K/doctor.txt 2>&1
G
done
printf 'kernel=vmlinuz\n' >"$tmp/fix1/boot/firmware/config.txt"
printf '%s\n' "$line" >"$tmp/fix1/boot/firmware/cmdline.txt"
touch "$tmp/fix1/apply"
echo 2 >"$tmp/fix1/disks"
devices
kboot fix1 || finish
cat "$tmp/fix1/out"
check "the first boot's guest script ran" [ "$(cat "$tmp/fix1/rc")" = 0 ]
check "the fix exits 0: $(tail -2 "$tmp/fix1/fix.out")" grep -qx 'fix: exit 0' "$tmp/fix1/out"
check "before: the UAS disk is on uas ($(cat "$tmp/fix1/lsblk" | tr '\n' ' '))" \
	grep -q '^uas1=sd' "$tmp/fix1/serials"
new=$(cat "$tmp/fix1/boot/firmware/cmdline.txt")
echo "cmdline.txt before: $line"
echo "cmdline.txt after:  $new"
check "a backup of cmdline.txt was kept" \
	grep -qxF -- "$line" "$tmp"/fix1/boot/firmware/cmdline.txt.sbcdisk-*
# the merged list, as the file says it; everything else on the line unchanged
q=$(printf '%s\n' "$new" | tr ' ' '\n' | sed -n 's/^usb-storage\.quirks=//p' | tr -d '"')
check "the list has the old entries and 46f4:0003:u once ($q)" \
	[ "$q" = "$old,46f4:0003:u" ]
check "only the quirks changed on the line" \
	[ "${new/usb-storage.quirks=*\" rootwait/X rootwait}" = "${line/usb-storage.quirks=*\" rootwait/X rootwait}" ]

# the next boot: that line (console=ttyS0 last, so that it stays the console)
cp "$tmp/fix1/boot/firmware/cmdline.txt" "$tmp/fix1/boot/firmware/config.txt" \
	"$tmp/fix2/boot/firmware/"
echo 1 >"$tmp/fix2/disks"
devices
kboot fix2 "$new console=ttyS0" || finish
cat "$tmp/fix2/out"
check "the second boot's guest script ran" [ "$(cat "$tmp/fix2/rc")" = 0 ]
echo "the kernel's command line: $(cat "$tmp/fix2/cmdline")"
echo "the kernel's quirks parameter: $(cat "$tmp/fix2/quirks")"
check "the kernel's quirks are the merged list ($(cat "$tmp/fix2/quirks"))" \
	[ "$(cat "$tmp/fix2/quirks")" = "$q" ]
ign=$(grep -c 'UAS is ignored for this device' "$tmp/fix2/dmesg.txt")
check "the kernel ignores UAS once ($ign)" [ "$ign" = 1 ]
# ignored_id: the USB id of the device whose "UAS is ignored" line the kernel printed
ignored_id() {
	local port
	port=$(sed -n 's/.*usb \([0-9.-]*\): UAS is ignored for this device.*/\1/p' \
		"$tmp/fix2/dmesg.txt")
	[ -n "$port" ] && sed -n "s/.*usb $port: New USB device found, idVendor=\([0-9a-f]*\), idProduct=\([0-9a-f]*\),.*/\1:\2/p" \
		"$tmp/fix2/dmesg.txt"
}
check "... for 46f4:0003 ($(ignored_id))" [ "$(ignored_id)" = 46f4:0003 ]
check "the BOT disk is still there" grep -q '^bot1=sd' "$tmp/fix2/serials"
check "the UAS disk is gone ($(cat "$tmp/fix2/lsblk" | tr '\n' ' '))" grep -qx 'uas1=' "$tmp/fix2/serials"
cp "$tmp/fix2/doctor.json" "$tmp/out"
json "[f for f in d['findings'] if f['id'] == 'uas-disabled' and f['usb_id'] == '46f4:0003']" \
	"doctor reports uas-disabled for 46f4:0003"
json "[f for f in d['findings'] if f['id'] == 'uas-disabled' and 'its disk is gone' in f['title']]" \
	"... which says that its disk is gone (usb-uas has no Bulk-Only interface)"
json "not [f for f in d['findings'] if f['id'] == 'uas-disabled' and f['usb_id'] != '46f4:0003']" \
	"... and for no other device"
echo "--- doctor after the fix"
cat "$tmp/fix2/doctor.txt"
echo "--- the second boot's log of USB and storage"
grep -i 'usb\|uas\|storage\|scsi\|sd[a-z]' "$tmp/fix2/dmesg.txt" | grep -v 'usbcore\|usbserial\|hub\|xhci' | tail -30
if [ "$failures" -ne 0 ]; then
	echo "--- the fix"; cat "$tmp/fix1/fix.out"
fi
echo "fix-boot: $(($(date +%s) - start)) s"
finish
