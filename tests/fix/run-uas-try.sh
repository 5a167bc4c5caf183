#!/bin/bash
# run-uas-try.sh - `fix uas DEV --try` without --now on captured Pi 4 trees: the plan of the
# driver experiment (both quirks lists, the interface, the way back), nothing changed or stored;
# the refusals (the running root's disk, a tree, a disk not on USB) and the usage errors.
. "${SBCDISK_SRCDIR:?}/tests/lib.sh"
for t in pi4-sd-jms567-usb2 pi4-jms567-usb3-uas pi4-jms567-usb3-quirk; do
	python3 "$src/tools/mksysroot" "$src/tests/sysroots/$t.desc" "$tmp/$t" >/dev/null ||
		{ echo "FAIL: mksysroot $t"; exit 1; }
done
q=sys/module/usb_storage/parameters/quirks
q0=$(od -c "$tmp/pi4-sd-jms567-usb2/$q")
not_in() { ! grep -q -- "$1" "$tmp/$2"; }

# uas now, on USB 2 behind the hub: the plan only
sb --sysroot "$tmp/pi4-sd-jms567-usb2" fix uas sda --try --db "$tmp/r.db"
expect_rc 0 "dry run"
grep_out "The driver experiment on sda (USB 152d:0578, interface 1-1.3:1.0, now on uas)" out \
	"dry run: the device"
grep_out "quirks: '' -> '152d:0578:u'" out "dry run: the entry for usb-storage"
grep_out "unbound from uas and bound to usb-storage" out "dry run: the switch"
grep_out "both runs side by side, by the ids they were stored as" out "dry run: the comparison"
grep_out "the device put back as it was" out "dry run: the way back"
grep_out "switched back to uas and that is said" out "dry run: a device that does not come back"
grep_out "Dry run: nothing was changed" out "dry run: said"
check "dry run: the quirks parameter untouched" \
	test "$(od -c "$tmp/pi4-sd-jms567-usb2/$q")" = "$q0"
check "dry run: nothing stored" test ! -e "$tmp/r.db"
check "dry run: not the running root" not_in "running root" out
sb --sysroot "$tmp/pi4-sd-jms567-usb2" fix uas sda --try --apply --db "$tmp/r.db"
expect_rc 1 "--apply on a tree"
grep_out "not on a --sysroot tree" err "--apply on a tree: said"
check "--apply on a tree: the quirks parameter untouched" \
	test "$(od -c "$tmp/pi4-sd-jms567-usb2/$q")" = "$q0"
sb --sysroot "$tmp/pi4-sd-jms567-usb2" fix uas mmcblk0 --try
expect_rc 1 "an SD card"
grep_out "mmcblk0 is not attached over USB" err "an SD card: said"

# booted from the drive: said in the plan, refused without --running-root
sb --sysroot "$tmp/pi4-jms567-usb3-uas" fix uas sda --try
expect_rc 0 "running root: dry run"
grep_out "this disk holds the running root file system" out "running root: said"
sb --sysroot "$tmp/pi4-jms567-usb3-uas" fix uas sda --try --now
expect_rc 1 "running root: --now"
grep_out "sda holds the running root: not switched without --running-root" err \
	"running root: refused"
sb --sysroot "$tmp/pi4-jms567-usb3-uas" fix uas sda --try --now --running-root
expect_rc 1 "running root allowed, on a tree"
grep_out "not on a --sysroot tree" err "running root allowed: the tree refused"

# usb-storage now (the quirk): uas is tried, the entry taken out for it
sb --sysroot "$tmp/pi4-jms567-usb3-quirk" fix uas sda --try
expect_rc 0 "usb-storage now"
grep_out "now on usb-storage" out "usb-storage now: the driver"
grep_out "quirks: '152d:0578:u' -> ''" out "usb-storage now: the entry out for uas"
grep_out "unbound from usb-storage and bound to uas" out "usb-storage now: the switch"

# the experiment's two runs as the store holds them (the drive on uas, then on usb-storage):
# compare shows each run's driver side by side
SBCDISK_RUN="" python3 "$src/tests/store/mkruns.py" "$tmp/runs.json" quick \
	"$tmp/pi4-jms567-usb3-uas:sda:38:10" "$tmp/pi4-jms567-usb3-quirk:sda:270:20" ||
	{ echo "FAIL: mkruns"; exit 1; }
sb history --db "$tmp/runs.db" --import "$tmp/runs.json"
expect_rc 0 "the two runs imported"
sb compare --db "$tmp/runs.db" --device 152d:0578 --last 2
expect_rc 0 "compare the two runs"
check "compare: the drivers side by side" \
	grep -Eq '^ +on uas +on usb-storage$' "$tmp/out"
sb compare --db "$tmp/runs.db" --device 152d:0578 --last 2 --json
check "compare --json: each run's driver" test "$(python3 -c 'import json, sys
print(" ".join(r["driver"] for r in json.load(open(sys.argv[1]))["runs"]))' "$tmp/out")" = \
	"uas usb-storage"

# usage
sb --sysroot "$tmp/pi4-sd-jms567-usb2" fix uas 152d:0578 --try
expect_rc 2 "--try with a USB id"
sb --sysroot "$tmp/pi4-sd-jms567-usb2" fix uas sda --running-root
expect_rc 2 "--running-root without --try"
sb --sysroot "$tmp/pi4-sd-jms567-usb2" --json fix uas sda --try
expect_rc 2 "--try with --json"
grep_out "its runs are in 'sbcdisk --json compare'" err "--try with --json: said"
sb --sysroot "$tmp/pi4-sd-jms567-usb2" fix pcie-gen 3 --try
expect_rc 2 "--try off uas"
grep_out "'--try' is for 'fix uas' only" err "--try off uas: said"
finish
