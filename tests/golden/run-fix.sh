#!/bin/bash
# run-fix.sh - golden test of `sbcdisk fix` on one generated sysroot tree: dry run, --apply
# with --now, a second run that changes nothing, JSON, undo, and the refusals; the boot file
# is checked byte for byte after undo. usage: run-fix.sh TREE [uas|pcie] (UPDATE_GOLDEN=1
# rewrites); pcie: the Raspberry Pi 5 PCIe generation in config.txt.
tree=${1:?usage: run-fix.sh TREE [uas|pcie]}
scenario=${2:-uas}
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
want=$src/tests/golden/fix/$tree.txt
[ "$scenario" = pcie ] && want=$src/tests/golden/fix/$tree-pcie.txt

python3 "$src/tools/mksysroot" "$src/tests/sysroots/$tree.desc" "$tmp/root" || exit 1
root=$tmp/root
boot=/boot
[ -f "$root/boot/firmware/config.txt" ] && boot=/boot/firmware
cp "$root$boot/cmdline.txt" "$tmp/cmdline.orig"
cp "$root$boot/config.txt" "$tmp/config.orig"

step() { # args...: run sbcdisk, print the command, its output and its exit code
	echo "\$ sbcdisk $*"
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout 20 $run "$bin" --sysroot "$root" "$@" >"$tmp/out" 2>&1
	echo "[exit $?]"
	sed -E -e "s|$root|SYSROOT|g" -e 's/sbcdisk-[0-9]{8}-[0-9]{6}(-[2-9])?/sbcdisk-STAMP/g' \
		"$tmp/out"
	echo
}
show() { # target path: its bytes, made visible
	echo "# $1"
	if [ -f "$root$1" ]; then od -An -c "$root$1" | sed 's/  */ /g'; else echo "(none)"; fi
	echo
}

pcie_steps() {
	step fix pcie-gen 2
	step fix pcie-gen 3
	cmp -s "$tmp/config.orig" "$root$boot/config.txt" && echo "dry run: config.txt unchanged"
	step --json fix pcie-gen 3 --apply
	show "$boot/config.txt" | tail -8
	step fix pcie-gen 3
	step fix pcie-gen 2 --apply
	step fix undo --apply
	step fix undo --apply
	step fix undo
	ls -A "$root$boot" | sed -E 's/sbcdisk-[0-9]{8}-[0-9]{6}(-[2-9])?/sbcdisk-STAMP/g'
}

if [ "$scenario" = pcie ]; then
	pcie_steps >"$tmp/actual"
else {
	step fix uas sda --now
	# a dry run writes nothing: not the file, no backup, not the running kernel's list
	cmp -s "$tmp/cmdline.orig" "$root$boot/cmdline.txt" && echo "dry run: cmdline.txt unchanged"
	echo "dry run: $(ls -A "$root$boot" | wc -l) files in $boot"
	show /sys/module/usb_storage/parameters/quirks
	step fix uas sda --apply --now
	show "$boot/cmdline.txt"
	show /sys/module/usb_storage/parameters/quirks
	step fix uas 152d:0578 --apply
	step --json fix uas 152d:0578
	step fix undo
	step fix undo --apply
	step fix undo
	step fix pcie-gen 3 --apply
	step fix pcie-gen 3
	step fix undo --apply
	step fix uas 12345:0578
	step fix uas mmcblk9
	step fix pcie-gen 4
	step fix uas
	step fix frobnicate
	step fix undo --now
	ls -A "$root$boot" | sed -E 's/sbcdisk-[0-9]{8}-[0-9]{6}(-[2-9])?/sbcdisk-STAMP/g'
} >"$tmp/actual"
fi

# after the undos both files are the originals, byte for byte
cmp "$tmp/cmdline.orig" "$root$boot/cmdline.txt" || fail "cmdline.txt not restored"
cmp "$tmp/config.orig" "$root$boot/config.txt" || fail "config.txt not restored"
if grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error:' \
	"$tmp/actual"; then
	fail "sanitizer report"
fi
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
	mkdir -p "$(dirname "$want")"
	cp "$tmp/actual" "$want"
	echo "updated ${want#"$src"/}"
elif ! diff -u --label "expected ${want#"$src"/}" --label actual "$want" "$tmp/actual"; then
	fail "$tree differs from its golden file"
fi
finish
