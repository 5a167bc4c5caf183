#!/bin/bash
# run-boot-check.sh - `sbcdisk boot check` on broken layouts: each case builds a good tree,
# breaks one thing, and requires exactly the expected check(s) to FAIL on the named disk
# (every other check of that disk must not fail), and exit code 3.
set -u
. "$(dirname "$0")/lib.sh"
status=0
checked=0

build() { # TREE: a fresh $tmp/root (each tree is generated once, then copied)
	if [ ! -d "$tmp/cache/$1" ]; then
		python3 "$src/tools/mksysroot" "$src/tests/sysroots/$1.desc" "$tmp/cache/$1" ||
			exit 1
	fi
	rm -rf "$tmp/root"
	cp -a "$tmp/cache/$1" "$tmp/root"
}

# expect NAME DISK IDS...: boot check DISK must fail exactly IDS (space-separated ids)
expect() {
	local name=$1 disk=$2
	shift 2
	checked=$((checked + 1))
	bin_run 20 --sysroot "$tmp/root" --json boot check "$disk"
	if grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error:' \
		"$tmp/err"; then
		echo "FAIL: $name: sanitizer report"
		status=1
	fi
	got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(c["id"] for c in d["checks"] if c["result"] == "fail" and c["disk"] == sys.argv[2])))' "$tmp/out" "$disk" 2>&1)
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" != "$want" ]; then
		echo "FAIL: $name: failing checks of $disk are '$got', expected '$want'"
		status=1
	elif [ -n "$want" ] && [ "$rc" -ne 3 ]; then
		echo "FAIL: $name: exit $rc, expected 3"
		status=1
	elif [ -z "$want" ] && [ "$rc" -ne 0 ]; then
		echo "FAIL: $name: exit $rc, expected 0"
		status=1
	else
		echo "ok: $name${want:+ fails $want}"
	fi
}

R() { echo "$tmp/root$1"; }

build pi4-usb-boot
expect good sda
rm "$(R /boot/kernel8.img)"
expect no-kernel sda boot-files
build pi4-usb-boot
rm "$(R /boot/start4.elf)"
expect no-start4 sda boot-files
build pi4-usb-boot
printf 'kernel=vmlinuz-6.1\n' >>"$(R /boot/config.txt)"
expect config-kernel-missing sda boot-files
build pi4-usb-boot
printf 'console=tty1\nroot=PARTUUID=5487497e-02 rootwait\n' >"$(R /boot/cmdline.txt)"
# the firmware passes line 1 on: it has no root=, so root-resolves fails too (issue 34 item
# 10: the root= of line 2 was judged)
expect two-lines sda cmdline-one-line root-resolves
build pi4-usb-boot
printf 'console=tty1 root=PARTUUID=5487497e-02 rootwait\r\n' >"$(R /boot/cmdline.txt)"
expect carriage-return sda cmdline-one-line
build pi4-usb-boot
printf 'console=tty1 root=PARTUUID=deadbeef-02 rootwait\n' >"$(R /boot/cmdline.txt)"
expect root-nowhere sda root-resolves
build pi4-usb-boot
printf 'console=tty1 rootwait\n' >"$(R /boot/cmdline.txt)"
expect no-root sda root-resolves
build pi4-usb-boot
printf 'PARTUUID=5487497e-01 /boot vfat defaults 0 2\nPARTUUID=738a4d67-02 / ext4 defaults 0 1\n' \
	>"$(R /etc/fstab)"
expect fstab-root-elsewhere sda fstab-resolves
build pi4-usb-boot
printf '\0\0\0\0' >"$(R /sys/firmware/devicetree/base/chosen/bootloader/capabilities)"
expect no-usb-capability sda bootloader-can
build pi4-usb-boot
sed -i 's/BOOT_ORDER=0xf14/BOOT_ORDER=0xf21/' \
	"$(R /sys/devices/platform/reserved-memory/nvram@0/rmem0/nvmem)"
expect order-never-usb sda boot-order
build pi4-usb-boot
printf '152d:0578:u\n' >"$(R /sys/module/usb_storage/parameters/quirks)"
expect quirk-not-carried sda usb-quirks
build pi4-usb-boot
printf '152d:0578:u\n' >"$(R /sys/module/usb_storage/parameters/quirks)"
printf 'console=tty1 root=PARTUUID=5487497e-02 usb-storage.quirks=152d:0578:u rootwait\n' \
	>"$(R /boot/cmdline.txt)"
expect quirk-carried sda
build pi4-usb-root-oldbl
expect old-bootloader sda bootloader-can
build pi5-nvme-probe
sed -i '/PCIE_PROBE=1/d' "$(R /sys/devices/platform/reserved-memory/nvram@0/rmem0/nvmem)"
expect no-pcie-probe nvme0n1 pcie-probe
build pi5-nvme-probe
sed -i 's/PCIE_PROBE=1//' "$(R /sys/devices/platform/reserved-memory/nvram@0/rmem0/nvmem)"
mkdir -p "$(R /sys/firmware/devicetree/base/hat)"
expect hat-plus nvme0n1
build pi5-nvme-probe
sed -i 's/ID_FS_TYPE=vfat/ID_FS_TYPE=ext4/' "$(R /run/udev/data/b259:1)"
expect boot-partition-ext4 nvme0n1 boot-partition
build pi5-partuuid-dup
expect partuuid-shared mmcblk0 id-unique
expect partuuid-shared-ssd sda id-unique
build cm4-emmc-boot
expect cm4-emmc mmcblk0

# doctor's boot findings from the same facts: FINDING DEVICE present (or "none")
finding() { # NAME ID DEVICE
	checked=$((checked + 1))
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout 20 $run "$bin" --sysroot "$tmp/root" --json doctor --kmsg /dev/null \
		>"$tmp/out" 2>"$tmp/err"
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
ids = [(f["id"], f["device"]) for f in d["findings"] if f["id"].startswith("boot")]
want = [] if sys.argv[2] == "none" else [(sys.argv[2], sys.argv[3])]
sys.exit(0 if ids == want else "boot findings %s, expected %s" % (ids, want))' \
		"$tmp/out" "$2" "${3:-}"; then
		echo "ok: doctor $1"
	else
		echo "FAIL: doctor $1"
		status=1
	fi
}
build pi4-usb-boot
finding usb3-boot none
printf '\0\0\0\2' >"$(R /sys/firmware/devicetree/base/chosen/bootloader/usb/usb-version)"
finding usb2-boot boot-usb2 sda
build pi4-usb-root-oldbl
finding old-bootloader bootloader-old sda
build pi5-nvme-probe
finding pi5-nvme none
build pi5-partuuid-dup
timeout 20 $run "$bin" --sysroot "$tmp/root" --json doctor --kmsg /dev/null >"$tmp/out" 2>&1
for id in boot-partuuid-duplicate boot-order; do
	checked=$((checked + 1))
	grep -q "\"id\": \"$id\"" "$tmp/out" && echo "ok: doctor $id" ||
		{ echo "FAIL: doctor: no $id on pi5-partuuid-dup"; status=1; }
done

echo "$checked cases"
exit "$status"
