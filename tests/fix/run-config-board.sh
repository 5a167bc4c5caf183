#!/bin/bash
# run-config-board.sh - fix and boot check on a Raspberry Pi 5 tree whose config.txt names the
# command line file under [pi5] in an included file (issue 34 item 2): `fix uas --apply` edits
# that file and no other, boot check judges root= from it (its first line), a cmdline= under a
# filter that cannot be known offline is refused by name, and the quirk goes before '--'.
. "${SBCDISK_SRCDIR:?}/tests/lib.sh"
root=$tmp/root fw=$tmp/root/boot/firmware

python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi5-usb-asm-sandisk.desc" "$root" \
	>/dev/null || { echo "FAIL: mksysroot"; exit 1; }
sb() { bin_run 60 --sysroot "$root" "$@"; }

# cmdline.txt names a root that is nowhere; the Pi 5's file names the SD card's root
printf 'include extra.txt\n[all]\n' >>"$fw/config.txt"
printf '[pi4]\ncmdline=cmdline-pi4.txt\n[pi5]\ncmdline=cmdline-pi5.txt\n' >"$fw/extra.txt"
pi5_line="console=tty1 root=PARTUUID=2f0a1c77-02 rootfstype=ext4 rootwait quiet"
echo "console=tty1 root=PARTUUID=deadbeef-02 rootwait" >"$fw/cmdline.txt"
echo "$pi5_line" >"$fw/cmdline-pi5.txt"
old_cmdline=$(cat "$fw/cmdline.txt")

sb fix uas 174c:55aa --apply
expect_rc 0 "fix uas --apply"
check "fix uas: the Pi 5's file has the quirk" \
	grep -qx "$pi5_line usb-storage.quirks=174c:55aa:u" "$fw/cmdline-pi5.txt"
check "fix uas: cmdline.txt untouched" test "$(cat "$fw/cmdline.txt")" = "$old_cmdline"
grep_out "Wrote /boot/firmware/cmdline-pi5.txt" out "fix uas: says which file"

sb boot check
grep_out "PASS  root-resolves    root=PARTUUID=2f0a1c77-02 in cmdline-pi5.txt is mmcblk0p2" out \
	"boot check: root= from the Pi 5's file"
# a second line is not read: root-resolves judges line 1, cmdline-one-line fails
printf '%s\nroot=PARTUUID=deadbeef-02\n' "$pi5_line" >"$fw/cmdline-pi5.txt"
sb boot check
grep_out "PASS  root-resolves    root=PARTUUID=2f0a1c77-02 in cmdline-pi5.txt" out \
	"boot check: root= of line 1, not line 2"
grep_out "FAIL  cmdline-one-line cmdline-pi5.txt has 2 lines" out "boot check: two lines said"

# '--': what follows is init's, the quirk goes before it
echo "$pi5_line -- single" >"$fw/cmdline-pi5.txt"
sb fix uas 174c:55aa --apply
expect_rc 0 "fix uas before --"
check "fix uas: the quirk before '--'" \
	grep -qx "$pi5_line usb-storage.quirks=174c:55aa:u -- single" "$fw/cmdline-pi5.txt"

# a cmdline= under [gpio4=1]: which file the firmware reads is not known before boot
printf '[gpio4=1]\ncmdline=cmdline-gpio.txt\n' >>"$fw/extra.txt"
before=$(cat "$fw"/cmdline*.txt)
sb fix uas 174c:55aa --apply
expect_rc 1 "fix uas under [gpio4=1]"
grep_out "cmdline= under \[gpio4=1\], which cannot be known" err "fix uas: the filter named"
check "fix uas under [gpio4=1]: one line" [ "$(wc -l <"$tmp/err")" -eq 1 ]
check "fix uas under [gpio4=1]: nothing written" test "$(cat "$fw"/cmdline*.txt)" = "$before"
sb boot check
grep_out "WARN  boot-files *mmcblk0p1 (/boot/firmware): config.txt sets cmdline= under \[gpio4=1\]" \
	out "boot check under [gpio4=1]: said, not guessed"
finish
