#!/bin/bash
# inventory.sh - case 1 of the kernel suite: BOT and UAS disks on xHCI (5000M) and EHCI
# (480M), a BOT disk behind QEMU's full-speed hub, an NVMe drive behind a PCIe root port
# trained to 8 GT/s x4, an SD card: `sbcdisk list --json` in the guest agrees with what the
# guest kernel says (lsblk -J, lsusb -t, sysfs; tests/kernel/facts.sh), field by field.
# The table at 80 columns is printed for the record (its fit is the layout issue's).
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
kernel_prepare

for i in uasx:96 bhub:32 uase:80 bote:48 nvme:112 sd:64; do
	truncate -s "${i#*:}M" "$tmp/${i%%:*}.img"
done
q_xhci x
q_ehci e
q_hub x 1
q_bot bhub x "$tmp/bhub.img" '' port=1.1
q_uas uasx x "$tmp/uasx.img"
q_bot bote e "$tmp/bote.img"
q_uas uase e "$tmp/uase.img"
q_nvme nvme1 "$tmp/nvme.img" 8 4
q_sd sd "$tmp/sd.img"

mkdir -p "$tmp/inv"
cp "$kdir/facts.sh" "$tmp/inv/"
cat >"$tmp/inv/run.sh" <<'G'
. $K/guest-lib.sh
wait_blocks 6 || exit 1
. $K/facts.sh
"$SBCDISK" list --json >$K/list.json 2>$K/list.err || echo "list --json: exit $?"
COLUMNS=80 "$SBCDISK" list >$K/list80.txt 2>&1
for s in uasx bhub uase bote nvme1; do echo "$s=$(blk_serial $s)"; done >$K/serials
G
kboot inv || finish
[ "$(cat "$tmp/inv/rc")" = 0 ] || { fail "the guest script: exit $(cat "$tmp/inv/rc")"; kout inv; finish; }

# the devices are what was asked for (else the comparison proves less than it says)
# fact DISK-SERIAL KEY: a sysfs fact of the disk with that serial number
fact() {
	local d
	d=$(sed -n "s/^$1=//p" "$tmp/inv/serials")
	[ -n "$d" ] && sed -n "s/^$2=//p" "$tmp/inv/facts/$d.txt"
}
check "UAS on xHCI at 5000M ($(fact uasx usb_speed) $(fact uasx usb_interface_driver))" \
	[ "$(fact uasx usb_speed) $(fact uasx usb_interface_driver)" = "5000 uas" ]
check "UAS on EHCI at 480M ($(fact uase usb_speed) $(fact uase usb_interface_driver))" \
	[ "$(fact uase usb_speed) $(fact uase usb_interface_driver)" = "480 uas" ]
check "BOT on EHCI at 480M ($(fact bote usb_speed) $(fact bote usb_interface_driver))" \
	[ "$(fact bote usb_speed) $(fact bote usb_interface_driver)" = "480 usb-storage" ]
check "BOT behind the hub at 12M ($(fact bhub usb_speed) $(fact bhub usb_hubs))" \
	[ "$(fact bhub usb_speed) $(fact bhub usb_hubs | cut -d: -f1)" = "12 1-1" ]
check "NVMe behind a port of 8 GT/s x4 ($(fact nvme1 pcie_port_max_speed) x$(fact nvme1 pcie_port_max_width))" \
	[ "$(fact nvme1 pcie_port_max_speed) $(fact nvme1 pcie_port_max_width)" = "8.0 GT/s PCIe 4" ]
check "an SD card ($(sed -n 's/^mmc_type=//p' "$tmp"/inv/facts/mmcblk0.txt))" \
	grep -qx mmc_type=SD "$tmp/inv/facts/mmcblk0.txt"

if python3 "$kdir/inventory-check.py" "$tmp/inv/facts" "$tmp/inv/list.json" >"$tmp/cmp.out"; then
	ok
else
	fail "list --json disagrees with the kernel:"
fi
cat "$tmp/cmp.out"
echo "--- list at 80 columns (widest line $(awk '{ if (length > w) w = length } END { print w }' \
	"$tmp/inv/list80.txt") characters)"
cat "$tmp/inv/list80.txt"
echo "inventory: $(($(date +%s) - start)) s"
finish
