#!/bin/bash
# run-move-tryboot.sh - `move --no-copy` on a Raspberry Pi 5 tree (SD card root, the copy on a
# USB drive): with the tryboot bit in the bootloader's capabilities the dry run shows the
# trial files as a diff and writes nothing; --apply writes tryboot.txt and the trial command
# line beside config.txt (root= on the copy, panic=10), backs up what was there on a second
# run, and records the move as a trial; without the bit it says why and sets the boot order.
# No Pi here: the firmware's side (reading tryboot.txt once) is the documentation's word.
. "${SBCDISK_SRCDIR:?}/tests/lib.sh"
root=$tmp/root fw=$tmp/root/boot/firmware

python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi5-usb-asm-sandisk.desc" "$root" \
	>/dev/null || { echo "FAIL: mksysroot"; exit 1; }
caps=$root/sys/firmware/devicetree/base/chosen/bootloader/capabilities
printf '\000\000\000\177' >"$caps"  # 0x7f: tryboot (bit 3) among them

# sb ARGS...: sbcdisk on the tree, stdout in $tmp/out, stderr in $tmp/err, exit in $rc
sb() { bin_run 60 --sysroot "$root" "$@"; }
has() { grep -q -- "$1" "$tmp/out" || fail "$2: no '$1' in: $(cat "$tmp/out" "$tmp/err")"; }

before=$(ls "$fw"; cat "$fw"/*)
sb move /dev/sda --no-copy
[ "$rc" = 0 ] || fail "dry run: exit $rc"
has "^== 4\. the first boot from the target as a trial (the firmware's tryboot)$" "dry run heading"
has "^+++ /boot/firmware/tryboot.txt$" "dry run: the diff of tryboot.txt"
has "^+console=serial0,115200 console=tty1 root=PARTUUID=6d1f3ab2-02 rootfstype=ext4 .* rootwait=30 .* panic=10$" \
	"dry run: the trial command line, root= on the copy"
has "^+cmdline=cmdline-sbcdisk-trial.txt$" "dry run: tryboot.txt names it"
has "^Reboot with:  sudo reboot '0 tryboot'$" "the reboot command"
has "the next start reads config.txt and the board is on /dev/mmcblk0 as before" "the fallback"
[ "$(ls "$fw"; cat "$fw"/*)" = "$before" ] || fail "dry run: the boot partition changed"

sb move /dev/sda --no-copy --apply --db "$tmp/db"
[ "$rc" = 0 ] || fail "--apply: exit $rc: $(cat "$tmp/err")"
has "^Written: /boot/firmware/cmdline-sbcdisk-trial.txt and /boot/firmware/tryboot.txt\.$" \
	"--apply: what was written"
{
	printf '%s\n' "# sbcdisk move: one trial boot with the root file system on the copy." \
		"# The firmware reads this file instead of config.txt only on the boot" \
		"# after reboot '0 tryboot'; any later boot reads config.txt again." \
		"# Below: config.txt as it was, then the trial's command line."
	cat "$fw/config.txt"
	# config.txt ends in its own [all]: the trial's line follows it without a second one
	printf '%s\n' "cmdline=cmdline-sbcdisk-trial.txt"
} >"$tmp/want"
cmp -s "$tmp/want" "$fw/tryboot.txt" || fail "tryboot.txt: $(cat "$fw/tryboot.txt")"
# the tree's kernel is 6.6: rootwait=30 gives up on a root that never comes
want_cmd="$(sed -e 's/root=PARTUUID=[^ ]*/root=PARTUUID=6d1f3ab2-02/' -e 's/ rootwait / rootwait=30 /' \
	"$fw/cmdline.txt") panic=10"
[ "$(cat "$fw/cmdline-sbcdisk-trial.txt")" = "$want_cmd" ] ||
	fail "the trial command line: $(cat "$fw/cmdline-sbcdisk-trial.txt")"
grep -q "root=PARTUUID=2f0a1c77-02" "$fw/cmdline.txt" || fail "cmdline.txt itself changed"
has "^Recorded as move #1 (mmcblk0 -> sda)" "the move recorded"
python3 -c 'import sqlite3, sys
r = sqlite3.connect(sys.argv[1]).execute("SELECT src_name, dst_name, tryboot FROM moves").fetchall()
sys.exit(0 if r == [("mmcblk0", "sda", 1)] else 1)' "$tmp/db" || fail "the move row"

# a second --apply keeps a backup of each file it replaces
echo "# edited" >>"$fw/tryboot.txt"
sb move /dev/sda --no-copy --apply --db "$tmp/db"
[ "$rc" = 0 ] || fail "second --apply: exit $rc"
has "^Backup of the old tryboot.txt: /boot/firmware/tryboot.txt.sbcdisk-" "the backup said"
bk=$(ls "$fw"/tryboot.txt.sbcdisk-* 2>/dev/null | head -1)
[ -n "$bk" ] && grep -q "^# edited$" "$bk" || fail "the backup holds the old tryboot.txt"
cmp -s "$tmp/want" "$fw/tryboot.txt" || fail "tryboot.txt rewritten"

# no tryboot bit: no trial, the boot order instead
printf '\000\000\000\167' >"$caps"
rm -f "$fw"/tryboot.txt* "$fw/cmdline-sbcdisk-trial.txt"
sb move /dev/sda --no-copy
has "^No trial boot (the firmware's tryboot): the bootloader's capabilities lack tryboot (bit 3)\.$" \
	"no tryboot bit: why"
has "^== 4\. the boot order that tries the target first$" "no tryboot bit: the boot order"
[ ! -e "$fw/tryboot.txt" ] || fail "no tryboot bit: tryboot.txt written"
finish
