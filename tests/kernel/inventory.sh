#!/bin/bash
# inventory.sh - case 1 of the kernel suite: BOT and UAS disks on xHCI (5000M) and EHCI
# (480M), a BOT disk behind QEMU's full-speed hub, an NVMe drive behind a PCIe root port
# trained to 8 GT/s x4, an SD card: `sbcdisk list --json` in the guest agrees with what the
# guest kernel says (lsblk -J, lsusb -t, sysfs; tests/kernel/facts.sh), field by field.
# Then the commands a user types first, on a pseudo-terminal of 80 and 120 columns in the
# guest (tests/bench/ptyrun.py --cols): on the real kernel's devices too every line fits and
# each device is one row of the table.
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
cp "$kdir/facts.sh" "$src/tests/bench/ptyrun.py" "$tmp/inv/"
cat >"$tmp/inv/run.sh" <<'G'
. $K/guest-lib.sh
wait_blocks 6 || exit 1
. $K/facts.sh
"$SBCDISK" list --json >$K/list.json 2>$K/list.err || echo "list --json: exit $?"
# fit NAME COLS ARGS...: sbcdisk ARGS on a terminal of COLS; what it showed in $K/NAME.COLS,
# its lines too long in $K/NAME.COLS.long, the status in $K/NAME.COLS.rc
fit() {
	local name=$1 cols=$2 d=$K/pty
	shift 2
	mkdir -p $d
	python3 $K/ptyrun.py $d --cols $cols -- "$SBCDISK" "$@" 2>$K/$name.$cols.long
	echo $? >$K/$name.$cols.rc
	mv $d/tty $K/$name.$cols
}
"$SBCDISK" list -o NAME >$K/names.txt 2>&1
for c in 80 120; do
	fit list $c list
	fit health $c
	fit doctor $c doctor
done
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
# table_rows FILE: the rows of the table in FILE (from the line after its NAME header to a
# blank line; a message on the terminal may come before the header)
table_rows() { awk 'h && /^$/ { exit } h { n++ } /^NAME / { h = 1 } END { print n + 0 }' "$1"; }
want=$(($(wc -l <"$tmp/inv/names.txt") - 1))
for c in 80 120; do
	for n in list health doctor; do
		f=$tmp/inv/$n.$c
		# (the health check exits 3 when it found a warning: QEMU's UAS device on EHCI is one)
		check "$n at $c columns: exit 0 or 3 (got $(cat "$f.rc")), no line longer ($(head -c 300 "$f.long"))" \
			[ \( "$(cat "$f.rc")" = 0 -o "$(cat "$f.rc")" = 3 \) -a ! -s "$f.long" ]
	done
	for n in list health; do
		got=$(table_rows "$tmp/inv/$n.$c")
		[ "$got" = "$want" ] && ok ||
			{ fail "$n at $c columns: one row a device ($got rows for $want devices):"; cat "$tmp/inv/$n.$c"; }
	done
done
echo "--- list at 80 columns"
cat "$tmp/inv/list.80"
echo "inventory: $(($(date +%s) - start)) s"
finish
