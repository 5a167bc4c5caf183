#!/bin/bash
# run-check-files.sh - `boot check` on a cmdline.txt that is there but is no command line: a
# directory, a device node, a FIFO, a 50 MB file. Each is named for what it is (not "missing"),
# the disk fails, and a missing one is still "missing".
. "$(dirname "$0")/../lib.sh"

python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi4-usb-boot.desc" "$tmp/t" || exit 1
f=$tmp/t/boot/cmdline.txt

bc() { # WHAT WANT: boot check fails and says WANT about cmdline.txt
	timeout 20 $run "$bin" --sysroot "$tmp/t" boot check >"$tmp/out" 2>&1
	rc=$?
	check "$1: not exit 0" [ "$rc" -ne 0 ]
	grep_out "$2" out "$1"
	if [ "$1" != missing ]; then
		check "$1: not called missing" sh -c "! grep -q 'cmdline.txt is missing\|lacks cmdline.txt' '$tmp/out'"
	fi
}

rm -f "$f"; mkdir "$f"
bc directory "cmdline.txt on sda1 (/boot) is a directory, not a regular file"
grep_out "cmdline.txt is a directory, not a regular file: root= not checked" out \
	"directory: root-resolves says what it is"
rmdir "$f"
mkfifo "$f"
bc fifo "cmdline.txt on sda1 (/boot) is not a regular file"
rm -f "$f"
if [ "$(id -u)" = 0 ] && mknod "$f" c 1 3 2>/dev/null; then
	bc device "cmdline.txt on sda1 (/boot) is not a regular file"
	rm -f "$f"
else
	echo "note: no device node case (mknod needs root)"
fi
truncate -s 50M "$f"
bc "50 MB" "cmdline.txt on sda1 (/boot) is too large for a kernel command line"
rm -f "$f"
bc missing "sda1 (/boot) lacks cmdline.txt"
finish
