#!/bin/bash
# run-move-journey.sh - `move` on a Raspberry Pi 5 tree (SD card root, a USB drive) as one
# journey on resolved disks: a bare name or a /dev/disk/by-id link is the disk it names (the
# running disk's trial boot, the copy's PARTUUID), a move to the SD card tries the SD card
# first, a directory or a bare name that matches one in the working directory is never
# benched, the move is recorded in the tree's own store (a failed record is a failure), the
# health check says the move is pending until the next boot, tryboot.txt has one [all].
. "${SBCDISK_SRCDIR:?}/tests/lib.sh"
root=$tmp/root fw=$tmp/root/boot/firmware db=$tmp/root/var/lib/sbcdisk/results.db

python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi5-usb-asm-sandisk.desc" "$root" \
	>/dev/null || { echo "FAIL: mksysroot"; exit 1; }
printf '\000\000\000\177' >"$root/sys/firmware/devicetree/base/chosen/bootloader/capabilities"
# the udev link of the USB drive, as clone's help recommends naming a target
mkdir -p "$root/dev/disk/by-id"
: >"$root/dev/sda"
ln -s ../../sda "$root/dev/disk/by-id/usb-SanDisk_Extreme_55AE_3233-0:0"
byid=/dev/disk/by-id/usb-SanDisk_Extreme_55AE_3233-0:0

sb() { bin_run 60 --sysroot "$root" "$@"; }
has() { grep -q -- "$1" "$tmp/out" || fail "$2: no '$1' in: $(cat "$tmp/out" "$tmp/err")"; }
hasnt() { ! grep -q -- "$1" "$tmp/out" || fail "$2: '$1' in: $(cat "$tmp/out")"; }

# a bare name is the disk it names: the source is the running system's disk, so a trial
sb move mmcblk0 sda --no-copy
expect_rc 0 "bare names"
has "^== 4\. the first boot from the target as a trial (the firmware's tryboot)$" "bare names: trial"
hasnt "not the running system's disk" "bare names"

# a bad --time or --board is a usage error before any step runs (--time was bench's own
# error at step 1, after the move had begun; --board is clone's and the boot check's)
sb move mmcblk0 sda --time 0
expect_rc 2 "move --time 0"
[ ! -s "$tmp/out" ] || fail "move --time 0: a step ran: $(cat "$tmp/out")"
grep -q "bad time '0'" "$tmp/err" || fail "move --time 0: $(cat "$tmp/err")"
sb move mmcblk0 sda --board pi9
expect_rc 2 "move --board pi9"
[ ! -s "$tmp/out" ] || fail "move --board pi9: a step ran: $(cat "$tmp/out")"
grep -q "bad --board 'pi9'" "$tmp/err" || fail "move --board pi9: $(cat "$tmp/err")"

# a move to the SD card tries the SD card first, and says so
sb move sda mmcblk0 --no-copy
expect_rc 0 "to the SD card"
has "^BOOT_ORDER new: 0xf41 (SD card, then USB mass storage, then start again)$" \
	"to the SD card: the order"
hasnt "goes on to the SD card" "to the SD card: the text"
has "tries the SD card or eMMC first" "to the SD card: which is tried first"

# a directory, or a bare name that matches one in the working directory, is never benched
mkdir -p "$tmp/d1" "$tmp/d2" "$tmp/cwd/sda"
touch -d '2020-01-01 00:00:00' "$tmp/d1" "$tmp/d2" "$tmp/cwd/sda"
(cd "$tmp/cwd" && bin_run 120 --sysroot "$root" move mmcblk0 sda --time 100ms --db "$tmp/db")
(cd "$tmp/cwd" && bin_run 120 move "$tmp/d1" "$tmp/d2" --time 100ms --db "$tmp/db")
for d in d1 d2 cwd/sda; do
	[ "$(stat -c %y "$tmp/$d")" = "2020-01-01 00:00:00.000000000 +0000" ] ||
		fail "$d was written into: $(stat -c %y "$tmp/$d")"
done
[ ! -e "$tmp/db" ] || fail "a dry run stored something: $(ls -l "$tmp/db")"

# a /dev/disk/by-id TARGET: the copy's PARTUUID read from the disk it names, the move
# recorded in the tree's own store
before=$(ls "$fw"; cat "$fw"/*)
sb move "$byid" --no-copy --apply
expect_rc 0 "by-id --apply"
has "^Written: /boot/firmware/cmdline-sbcdisk-trial.txt and /boot/firmware/tryboot.txt\.$" \
	"by-id: the trial written"
grep -q "root=PARTUUID=6d1f3ab2-02 " "$fw/cmdline-sbcdisk-trial.txt" ||
	fail "by-id: the trial's root: $(cat "$fw/cmdline-sbcdisk-trial.txt")"
has "^Recorded as move #1 (mmcblk0 -> sda)" "by-id: the move recorded"
r=$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT src_name, dst_name, tryboot FROM moves").fetchall())' \
	"$db" 2>&1)
[ "$r" = "[('mmcblk0', 'sda', 1)]" ] || fail "the tree's store: $r"
# one [all] more than config.txt has would be a second one after its own final [all]
n_cfg=$(grep -c '^\[all\]' "$fw/config.txt") n_try=$(grep -c '^\[all\]' "$fw/tryboot.txt")
[ "$n_try" = "$n_cfg" ] || fail "tryboot.txt: $n_try [all] lines, config.txt $n_cfg: $(cat "$fw/tryboot.txt")"
tail -1 "$fw/tryboot.txt" | grep -q "^cmdline=cmdline-sbcdisk-trial.txt$" ||
	fail "tryboot.txt ends with its cmdline="

# before the reboot (this boot began before the move) the health check says it is pending
printf 'cpu  1 2 3 4\nbtime %s\n' "$(($(date +%s) - 3600))" >"$root/proc/stat"
sb
has "^Pending: reboot with sudo reboot '0 tryboot'" "health before the reboot"
hasnt "did not take" "health before the reboot"
# after a reboot (this boot began after the move) the move is judged
printf 'cpu  1 2 3 4\nbtime %s\n' "$(($(date +%s) + 3600))" >"$root/proc/stat"
sb
has "^The move did not take" "health after a reboot"

# a move whose record fails is a failure
rm -f "$db"
mkdir "$db"
sb move sda --no-copy --apply
expect_rc 1 "the record failed"
grep -q "move: the move was not recorded" "$tmp/err" || fail "the record failed: $(cat "$tmp/err")"
finish
