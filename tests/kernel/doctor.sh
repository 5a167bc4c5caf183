#!/bin/bash
# doctor.sh - case 2 of the kernel suite: doctor reads the guest kernel's live /dev/kmsg after
# real faults. A throttled UAS disk whose SCSI timeout is 2 s (real uas aborts and resets),
# a healthy BOT disk on the same xHCI, a throttled NVMe drive with nvme_core.io_timeout=2
# (real NVMe timeouts), a BOT disk whose reads of one sector fail (blkdebug: real I/O
# errors), an SD card whose backend fails the same way (QEMU's sd-card hides the error from
# the guest: what doctor says of it is printed, not checked). Each finding on the right disk,
# with the right USB id and the fix for that device only; nothing on the healthy disk.
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
kernel_prepare

for i in slowu:96 goodb:32 slown:112 badb:48 sd:64; do
	truncate -s "${i#*:}M" "$tmp/${i%%:*}.img"
done
# blkdebug: every read that touches sector 8192 (4 MiB in) fails with EIO
cat >"$tmp/eio.conf" <<'C'
[inject-error]
event = "read_aio"
iotype = "read"
errno = "5"
sector = "8192"
C
q_xhci x
q_ehci e
q_uas slowu x "$tmp/slowu.img" throttling.bps-total=65536
q_bot goodb x "$tmp/goodb.img"
q_bot badb e "blkdebug:$tmp/eio.conf:$tmp/badb.img"
q_nvme slown "$tmp/slown.img" '' '' throttling.bps-total=65536
q_sd sd "blkdebug:$tmp/eio.conf:$tmp/sd.img"

mkdir -p "$tmp/doc"
cat >"$tmp/doc/run.sh" <<'G'
. $K/guest-lib.sh
wait_blocks 5 || exit 1
for s in slowu goodb slown badb; do echo "$s=$(blk_serial $s)"; done >$K/serials
. $K/serials
# the UAS disk: at 64 KiB/s a 1 MiB read takes 16 s (the first passes, QEMU then throttles
# those after it), its commands time out after 2 s
echo 2 >/sys/block/$slowu/device/timeout
dd if=/dev/$slowu of=/dev/null bs=1M count=3 iflag=direct 2>$K/dd-slowu &
# the NVMe drive: the same, with nvme_core.io_timeout=2 from the command line
dd if=/dev/$slown of=/dev/null bs=1M count=3 iflag=direct 2>$K/dd-slown &
# the failing sector, on the BOT disk and the card
dd if=/dev/$badb of=/dev/null bs=4k skip=1024 count=1 iflag=direct 2>$K/dd-badb
dd if=/dev/mmcblk0 of=/dev/null bs=4k skip=1024 count=1 iflag=direct 2>$K/dd-sd
# the healthy disk works
dd if=/dev/$goodb of=/dev/null bs=1M count=8 iflag=direct 2>$K/dd-goodb
wait
# the faults are in the log; now the slow disks answer within their timeouts (30 s, small
# reads), so that doctor's own look at them (blkid) does not wait on more resets
for d in $slowu $slown; do
	echo 30000 >/sys/block/$d/queue/io_timeout
	echo 4 >/sys/block/$d/queue/read_ahead_kb
done
echo "io_timeout=$(cat /sys/module/nvme_core/parameters/io_timeout)"
dmesg >$K/dmesg.txt
cut -d" " -f1 /proc/uptime >$K/t-doctor
"$SBCDISK" --json doctor >$K/doctor.json 2>$K/doctor.err
echo "doctor --json: exit $?"
cut -d" " -f1 /proc/uptime >>$K/t-doctor
G
kboot doc "nvme_core.io_timeout=2" || finish
[ "$(cat "$tmp/doc/rc")" = 0 ] || { fail "the guest script: exit $(cat "$tmp/doc/rc")"; kout doc; finish; }
cat "$tmp/doc/out"
echo "the guest: doctor started $(head -1 "$tmp/doc/t-doctor") s after boot and took" \
	"$(awk 'NR == 1 { a = $1 } NR == 2 { printf "%.1f", $1 - a }' "$tmp/doc/t-doctor") s"
slowu='' goodb='' slown='' badb=''
# shellcheck disable=SC1091 # written by the guest
. "$tmp/doc/serials"
echo "disks: slow UAS $slowu, healthy BOT $goodb, slow NVMe $slown, failing BOT $badb"
check "the guest knows every disk" [ -n "$slowu" ] && [ -n "$goodb" ] && [ -n "$slown" ] &&
	[ -n "$badb" ]
grep_dmesg() { if grep -q -- "$1" "$tmp/doc/dmesg.txt"; then ok; else fail "$2: no '$1' in the guest's log"; fi; }
# the faults happened (else doctor's silence would prove nothing)
grep_dmesg "\[$slowu\] tag#[0-9]* uas_eh_abort_handler" "a UAS abort on $slowu"
grep_dmesg "uas_eh_device_reset_handler" "a UAS device reset"
grep_dmesg "nvme nvme0: I/O [0-9]* QID [0-9]* timeout" "an NVMe timeout"
grep_dmesg "I/O error, dev $badb, sector 8192" "the injected error on $badb"

# shellcheck disable=SC2254,SC2317 # a pattern, on purpose
like() { case $1 in $2) return 0 ;; *) return 1 ;; esac; }
# finding ID DEVICE: the fields of doctor's first finding ID on DEVICE, as one line
finding() {
	python3 - "$tmp/doc/doctor.json" "$1" "$2" <<'P'
import json, sys
doc = json.load(open(sys.argv[1]))
for f in doc["findings"]:
    if f["id"] == sys.argv[2] and f["device"] == sys.argv[3]:
        print(f["usb_id"], "|", " ; ".join(f["fix"]["commands"]))
        sys.exit(0)
sys.exit(1)
P
}
# json EXPR DESCRIPTION on doctor's document
jdoc() { cp "$tmp/doc/doctor.json" "$tmp/out"; json "$1" "$2"; }
echo "--- doctor's findings"
python3 -c "import json
for f in json.load(open('$tmp/doc/doctor.json'))['findings']:
    print(f['severity'], f['id'], f['device'], f['usb_id'], '|', f['title'])"
u=$(finding uas-errors "$slowu")
check "uas-errors on $slowu" [ -n "$u" ]
check "... with the UAS bridge's id 46f4:0003 ($u)" [ "${u%% |*}" = 46f4:0003 ]
# the fix's commands: its fix uas for this id, and no other USB id in any of them
only_id() { like "$1" "*sbcdisk fix uas 46f4:0003 --apply*" &&
	! grep -oE '[0-9a-f]{4}:[0-9a-f]{4}' <<<"$1" | grep -qvx 46f4:0003; }
check "... and the fix for that id only ($u)" only_id "${u#*| }"
# (QEMU's BOT disks share 46f4:0001: the failing one may name it)
jdoc "not [f for f in d['findings'] if f['device'] == '$goodb' or (f['usb_id'] == '46f4:0001' and f['device'] != '$badb')]" \
	"no finding on the healthy BOT disk $goodb, nor one for its id 46f4:0001 on another disk"
jdoc "not [c for f in d['findings'] for c in f['fix']['commands'] if 'fix uas' in c and '46f4:0003' not in c]" \
	"no other UAS fix"
jdoc "not [f for f in d['findings'] if f['id'] == 'uas-errors' and f['device'] != '$slowu']" \
	"uas-errors on $slowu only"
check "nvme-errors on $slown" eval 'finding nvme-errors "$slown" >/dev/null'
jdoc "not [f for f in d['findings'] if f['id'] == 'nvme-errors' and f['device'] != '$slown']" \
	"nvme-errors on $slown only"
check "io-errors on $badb" eval 'finding io-errors "$badb" >/dev/null'
jdoc "not [f for f in d['findings'] if f['id'] == 'io-errors' and f['device'] not in ('$badb', '$slowu', '$slown')]" \
	"io-errors only on the disks that had them"
echo "the SD card (blkdebug under QEMU's sd-card): dd said '$(tail -1 "$tmp/doc/dd-sd")';" \
	"the guest logged $(grep -c mmc "$tmp/doc/dmesg.txt") mmc lines;" \
	"doctor: $(python3 -c "import json; print([f['id'] for f in json.load(open('$tmp/doc/doctor.json'))['findings'] if (f['device'] or '').startswith('mmcblk')])")"
[ "$failures" -eq 0 ] || { echo "--- guest log"; grep -v '^\[ *[0-9.]*\] \(ACPI\|pci\|PCI\)' "$tmp/doc/dmesg.txt" | tail -60; }
echo "doctor: $(($(date +%s) - start)) s"
finish
