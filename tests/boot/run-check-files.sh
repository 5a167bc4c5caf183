#!/bin/bash
# run-check-files.sh - `boot check` on a cmdline.txt that is there but is no command line: a
# directory, a device node, a FIFO, a 50 MB file. Each is named for what it is (not "missing"),
# the disk fails, and a missing one is still "missing".
set -u
src=${SBCDISK_SRCDIR:?} bin=${SBCDISK:?} run=${SBCDISK_RUN:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi4-usb-boot.desc" "$tmp/t" || exit 1
f=$tmp/t/boot/cmdline.txt

check() { # WHAT WANT: boot check fails and says WANT about cmdline.txt
	timeout 20 $run "$bin" --sysroot "$tmp/t" boot check >"$tmp/out" 2>&1
	rc=$?
	[ "$rc" -ne 0 ] || fail "$1: exit 0"
	grep -qF -- "$2" "$tmp/out" || { fail "$1: no '$2' in:"; cat "$tmp/out"; }
	if [ "$1" != missing ] && grep -q "cmdline.txt is missing\|lacks cmdline.txt" "$tmp/out"; then
		fail "$1: called missing"; cat "$tmp/out"
	fi
}

rm -f "$f"; mkdir "$f"
check directory "cmdline.txt on sda1 (/boot) is a directory, not a regular file"
grep -qF "cmdline.txt is a directory, not a regular file: root= not checked" "$tmp/out" ||
	fail "directory: root-resolves does not say what it is"
rmdir "$f"
mkfifo "$f"
check fifo "cmdline.txt on sda1 (/boot) is not a regular file"
rm -f "$f"
if [ "$(id -u)" = 0 ] && mknod "$f" c 1 3 2>/dev/null; then
	check device "cmdline.txt on sda1 (/boot) is not a regular file"
	rm -f "$f"
else
	echo "note: no device node case (mknod needs root)"
fi
truncate -s 50M "$f"
check "50 MB" "cmdline.txt on sda1 (/boot) is too large for a kernel command line"
rm -f "$f"
check missing "sda1 (/boot) lacks cmdline.txt"

[ "$status" -eq 0 ] && echo "ok: boot check names what cmdline.txt is"
exit "$status"
