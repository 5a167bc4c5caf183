#!/bin/bash
# move-health.sh - the health check after `move --apply`: a tree's own result store (below
# --sysroot) holds a move from the SD card to the USB drive, bench runs of both and a boot
# time of the target; with the root on the target the check says the move is complete and
# shows the two drives side by side, with the root still on the SD card it says the move did
# not take and what to check; without a stored move it says nothing of one.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

# tree CASE DESC: $tmp/CASE from tests/sysroots/DESC.desc, with a store holding runs of the
# SD card (43.9 / 10.1 MB/s) and of sda (380 / 23 MB/s), the move mmcblk0 -> sda and one
# boot time of sda (21.5 s)
tree() {
	local root=$tmp/$1 db=$tmp/$1/var/lib/sbcdisk/results.db
	python3 "$src/tools/mksysroot" "$src/tests/sysroots/$2.desc" "$root" >/dev/null ||
		{ fail "mksysroot $2"; return 1; }
	mkdir -p "${db%/*}"
	python3 "$src/tests/store/mkruns.py" "$tmp/runs.json" quick "$root:mmcblk0:43.9:10.1" \
		"$root:sda:380.0:23.0" || { fail "runs for $2"; return 1; }
	sb history --db "$db" --import "$tmp/runs.json"
	expect_rc 0
	python3 - "$db" "$root" <<'PY' || fail "the move for $2"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
serial = {}
for name in ("mmcblk0", "sda"):
    serial[name] = db.execute("SELECT dev_serial, dev_model FROM runs WHERE dev_name = ?",
                              (name,)).fetchone()
db.execute("INSERT INTO moves (moved_at, src_name, src_model, src_serial, dst_name, dst_model,"
           " dst_serial, tryboot) VALUES ('2026-11-20T10:05:00Z', 'mmcblk0', ?, ?, 'sda', ?, ?,"
           " 1)", (serial["mmcblk0"][1], serial["mmcblk0"][0], serial["sda"][1],
                   serial["sda"][0]))
db.execute("INSERT INTO boot_times (boot_id, recorded_at, total_s, dev_name, dev_model,"
           " dev_serial) VALUES ('b1', '2026-11-20T10:10:00Z', 21.5, 'sda', ?, ?)",
           (serial["sda"][1], serial["sda"][0]))
db.commit()
PY
}

# the root on the target: complete, side by side
tree done pi4-usb-root-oldbl || finish
sb --sysroot "$tmp/done"
grep -q "^Move: mmcblk0 -> sda (move --apply 2026-11-20T10:05:00Z, first boot as a tryboot trial)$" \
	"$tmp/out" || fail "done: the move line: $(cat "$tmp/out")"
grep -q "^Booted from: SD card; root on sda$" "$tmp/out" || fail "done: where it booted from"
grep -q "^The move is complete: the root file system is on sda, the move's target\. The firmware and kernel still came from the SD card (the tryboot trial): \`sbcdisk boot order usb,sd --apply\`" \
	"$tmp/out" || fail "done: complete: $(cat "$tmp/out")"
grep -Eq "^  SEQ1M Q8T1 read +43\.9 MB/s +380\.0 MB/s  x8\.7$" "$tmp/out" ||
	fail "done: the sequential read side by side"
grep -Eq "^  RND4K Q1T1 read +10\.1 MB/s +23\.0 MB/s  x2\.3$" "$tmp/out" ||
	fail "done: the random read side by side"
grep -Eq "^  boot time \(boots\) +- +21\.5 s \(1\)$" "$tmp/out" || fail "done: the boot times"
sb --sysroot "$tmp/done" --json
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
m = d["move"]
assert d["schema"] and m["state"] == "complete" and m["source"] == "mmcblk0", m
assert m["target"] == "sda" and m["root_disk"] == "sda" and m["boot_mode"] == "sd", m
assert m["tryboot"] is True and m["source_run_id"] == 1 and m["target_run_id"] == 2, m
' "$tmp/out" || fail "done: the JSON move object"

# on a terminal of 80 columns: no line longer
timeout 60 python3 "$src/tests/bench/ptyrun.py" "$tmp" --cols 80 -- ${SBCDISK_RUN:-} "$SBCDISK" \
	--sysroot "$tmp/done" >/dev/null 2>"$tmp/err"
pty_rc=$?
[ "$pty_rc" != 90 ] || fail "at 80 columns: lines longer than the terminal: $(cat "$tmp/err")"
grep -q "^The move is complete" "$tmp/tty" || fail "at 80 columns: $(cat "$tmp/tty")"

# the root still on the SD card: the move did not take
tree back pi4-sd-jms567-usb2 || finish
sb --sysroot "$tmp/back"
grep -q "^The move did not take: the board started from mmcblk0, the move's source, again (the tryboot trial failed and the firmware fell back)\. Check: sbcdisk boot check /dev/sda" \
	"$tmp/out" || fail "back: not taken: $(cat "$tmp/out")"
grep -q "move is complete" "$tmp/out" && fail "back: says complete"
sb --sysroot "$tmp/back" --json
python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["move"]
assert m["state"] == "not-taken" and m["root_disk"] == "mmcblk0", m
' "$tmp/out" || fail "back: the JSON move object"

# no move stored: nothing of one
rm -rf "$tmp/back/var/lib/sbcdisk"
sb --sysroot "$tmp/back"
grep -q "^Move:" "$tmp/out" && fail "no move: a move section"
sb --sysroot "$tmp/back" --json
grep -q '"move"' "$tmp/out" && fail "no move: a move key"
finish
