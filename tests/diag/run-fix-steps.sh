#!/bin/bash
# run-fix-steps.sh - every command a finding's fix names is run, in the order the fix gives
# them, as its dry run (--apply left out) on the tree the finding came from: each must
# succeed. `fix verify` follows `fix uas --apply` on a copy of the tree (it compares the
# drive before and after a fix that is recorded). clone and bench open the device node
# itself, not through --sysroot: they run on an image file standing for the disk (source
# and target named), so what is checked there is the command line and clone's dry run.
set -u
. "$SBCDISK_SRCDIR/tests/cli/lib.sh"
cd "$src" || exit 1

# case TREE [LOG]: the findings' commands of doctor on TREE (with LOG), each run
case_() {
	local tree=$1 log=${2:-} root="$tmp/$1" cmds line n=0
	rm -rf "$root"
	python3 "$src/tools/mksysroot" "${descdir:-$src/tests/sysroots}/$tree.desc" "$root" || exit 1
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	$run "$bin" --sysroot "$root" --json doctor ${log:+--kmsg "$log"} >"$tmp/doc.json"
	cmds=$(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    for c in (f.get("fix") or {}).get("commands") or []:
        print(f["id"] + "\t" + c)' "$tmp/doc.json")
	while IFS=$'\t' read -r id line; do
		[ -n "$line" ] || continue
		n=$((n + 1))
		step "$tree" "$id" "$root" "$line"
	done <<<"$cmds"
	echo "$tree${log:+ + ${log##*/}}: $n commands"
	[ "$n" -gt 0 ] && ok || fail "$tree: no command in the fixes"
}

# step TREE ID ROOT LINE: one command of a fix, as its dry run
step() {
	local tree=$1 id=$2 root=$3 line=$4 args=() a
	[ "${line%% *}" = sbcdisk ] || { fail "$tree $id: '$line' is not an sbcdisk command"; return; }
	read -r -a args <<<"${line#sbcdisk }"
	local dry=()
	for a in "${args[@]}"; do [ "$a" = --apply ] || dry+=("$a"); done
	case "${dry[0]}" in
	clone)
		# the running system's disk and the target, as image files
		mkimage "$tmp/src.img" dos 300 PARTUUID=0badc0de-02 >/dev/null 2>&1 ||
			{ fail "mkimage"; return; }
		rm -f "$tmp/${dry[1]##*/}.img"
		sb clone "$tmp/src.img" "$tmp/${dry[1]##*/}.img" "${dry[@]:2}" ;;
	bench)
		truncate -s 64M "$tmp/bench-${dry[1]##*/}.img"
		sb bench "$tmp/bench-${dry[1]##*/}.img" --engine null --runs 1 --time 100ms \
			--interval 0 --no-save "${dry[@]:2}" ;;
	fix)
		# on a copy, recorded in a store of the test's own; verify after the apply
		[ -d "$root.fix" ] || cp -a "$root" "$root.fix"
		if [ "${dry[1]}" = verify ]; then
			sb --sysroot "$root.fix" fix uas "${dry[3]}" --apply --db "$tmp/$tree.db"
			expect_rc 0 "$tree $id: fix uas ${dry[3]} --apply before '$line'"
		fi
		# --disk DISK: the disk's boot partition is read through its node, which a tree
		# has not; an image laid out like Raspberry Pi OS stands for it
		local i
		for i in "${!dry[@]}"; do
			if [ "${dry[$i]}" = --disk ] && [ $((i + 1)) -lt ${#dry[@]} ]; then
				mkimage "$tmp/disk-${dry[$((i + 1))]}.img" dos 200 \
					PARTUUID=0badc0de-02 >/dev/null 2>&1 || { fail "mkimage"; return; }
				dry[$((i + 1))]=$tmp/disk-${dry[$((i + 1))]}.img
			fi
		done
		sb --sysroot "$root.fix" "${dry[@]}" --db "$tmp/$tree.db" ;;
	*)
		sb --sysroot "$root" "${dry[@]}" ;;
	esac
	expect_rc 0 "$tree $id: '$line' (its dry run)"
}

if [ "$(id -u)" = 0 ] && command -v sfdisk >/dev/null && command -v mkfs.vfat >/dev/null &&
	command -v mcopy >/dev/null && command -v mke2fs >/dev/null && [ -z "$run" ]; then
	export MTOOLS_SKIP_CHECK=1
	. "$src/tests/clone/lib.sh"
else
	skip "clone's stand-in images need root, sfdisk, mkfs.vfat, mcopy and mke2fs"
fi

case_ pi4-sd-jms567-usb2
case_ pi4-jms567-usb3-uas tests/diag/klog/seed000-jms567-uas-resets-usb3.log
case_ pi5-usb-asm-sandisk
case_ visionfive2-sd-nvme
# a Pi 5's SD card in command-queue recovery: fix sd-cqe; a drive that refused APST: fix nvme-apst
case_ pi5-usb-asm-sandisk tests/diag/klog/m09_rpi6561_pi5_samsung_pro_plus_cqe_bare.log
case_ pi5-nvme-gen2 tests/diag/klog/m15_tkg953_kingston_a1000_apst_failed.log
# a board without the Pi's EEPROM bootloader (Jetson) and a CM4, their NVMe drive not
# mounted (a mounted one is named as no target, below): no step that the board refuses
descdir=$tmp/desc
mkdir -p "$descdir"
cp "$src"/tests/sysroots/*.inc "$src"/tests/sysroots/jetson-orin-emmc-nvme.desc \
	"$src"/tests/sysroots/cm4-emmc-nvme.desc "$descdir/"
sed -i '/^mount 259:[0-9]* \/dev\/nvme0n1p1 /d' "$descdir"/jetson-orin-emmc-nvme.desc \
	"$descdir"/cm4-emmc-nvme.desc
case_ jetson-orin-emmc-nvme
case_ cm4-emmc-nvme
descdir=

# the order of the steps: uas trouble with no stored run measures first, verifies last
sb --sysroot "$tmp/pi4-jms567-usb3-uas" --json doctor \
	--kmsg tests/diag/klog/seed000-jms567-uas-resets-usb3.log
python3 -c '
import json, sys
f = [f for f in json.load(open(sys.argv[1]))["findings"] if f["id"] == "uas-errors"][0]
c = f["fix"]["commands"]
assert c[0] == "sbcdisk bench /dev/sda", c
assert c[-1] == "sbcdisk fix verify --device 152d:0578", c' "$tmp/out" && ok ||
	fail "uas-errors: bench first, fix verify last"

# root-on-sd names the target's clone, then boot order; a drive with a mounted file system
# is no target, and the fix says why
sb --sysroot "$tmp/pi4-sd-jms567-usb2" --json doctor
python3 -c '
import json, sys
f = [f for f in json.load(open(sys.argv[1]))["findings"] if f["id"] == "root-on-sd"][0]
c = f["fix"]["commands"]
assert c == ["sbcdisk clone /dev/sda", "sbcdisk clone /dev/sda --apply",
             "sbcdisk boot order usb,sd"], c' "$tmp/out" && ok || fail "root-on-sd: the steps"
python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi4-hub-seagate-uas.desc" "$tmp/seagate" ||
	exit 1
sb --sysroot "$tmp/seagate" --json doctor
python3 -c '
import json, sys
f = [f for f in json.load(open(sys.argv[1]))["findings"] if f["id"] == "root-on-sd"][0]
assert not f["fix"]["commands"], f["fix"]
assert "sda1 is mounted on /media/pi/One Touch" in f["fix"]["summary"], f["fix"]' "$tmp/out" &&
	ok || fail "root-on-sd: a mounted target is named as no target"

finish
