#!/bin/bash
# boot-times.sh - `boot time --record` against a fake systemd on a private D-Bus (its figures
# changed between boots, each boot a new boot id in a sysroot tree): the SD card, a JMS567 USB
# drive on uas and the same drive on usb-storage; stored once per boot; `history --boot`
# figures checked exactly and against a golden table; `compare` and `report` show them for
# the runs' drives; a schema 6 database takes its first boot; bad input refused.
# Skips when dbus-daemon or python3-dbus is missing. With BOOT_KEEP=DIR the report page and
# its database are left there (boot-times-render.sh renders the page in Chromium).
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"
. "$SBCDISK_SRCDIR/tests/boot/fake-bus.sh"
trap 'fake_bus_stop; cleanup' EXIT
export SOURCE_DATE_EPOCH=1796025600

fig=$tmp/figures
echo "0 0" >"$fig"
fake_bus_start "$tmp" "$fig"
case $? in
0) ;;
77) skip "$fake_bus_skip" ;;
*) exit 1 ;;
esac
export DBUS_SYSTEM_BUS_ADDRESS=$fake_bus_addr SBCDISK_BOOT_TIME_SYSROOT=1

# the SD card of seed 000's Pi 4, the JMS567 drive booted on uas, the same after the quirk
for t in sd:pi4-sd-jms567-usb2 uas:pi4-jms567-usb3-uas quirk:pi4-jms567-usb3-quirk; do
	python3 "$src/tools/mksysroot" "$src/tests/sysroots/${t#*:}.desc" "$tmp/${t%%:*}" >/dev/null ||
		{ echo "FAIL: mksysroot ${t#*:}"; exit 1; }
	mkdir -p "$tmp/${t%%:*}/proc/sys/kernel/random"
done
db=$tmp/results.db
n=0
# boot TREE USERSPACE_S FINISH_S [INITRD_S]: a new boot (a new boot id), recorded
boot() {
	n=$((n + 1))
	id=$(printf '5b00f1e0-0000-4000-8000-%012d' "$n")
	echo "$id" >"$tmp/$1/proc/sys/kernel/random/boot_id"
	python3 -c 'import sys; print(" ".join(str(round(float(x) * 1e6)) for x in sys.argv[1:]))' \
		"$2" "$3" ${4:+"$4"} >"$fig"
	sb --sysroot "$tmp/$1" boot time --record --db "$db"
	expect_rc 0
	grep -q "^Recorded boot $id (" "$tmp/out" || fail "boot $n ($1): $(tail -2 "$tmp/out")"
}
# seed 003 timed the microSD card five times with a stopwatch: 30.88 31.20 31.02 31.07 30.89
boot sd 7.10 30.88
boot sd 7.30 31.20
boot sd 7.00 31.02
boot sd 7.20 31.07
boot sd 7.15 30.89
# the same boot again, with other figures: nothing changes
echo "7000000 99000000" >"$fig"
sb --sysroot "$tmp/sd" boot time --record --db "$db"
expect_rc 0
grep -q "This boot ($id) was recorded at .* already: nothing was changed." "$tmp/out" ||
	fail "second --record in one boot: $(tail -1 "$tmp/out")"
boot uas 6.90 27.70
boot uas 6.90 28.03
# --json: the record in the document
n=$((n + 1))
id=$(printf '5b00f1e0-0000-4000-8000-%012d' "$n")
echo "$id" >"$tmp/uas/proc/sys/kernel/random/boot_id"
echo "6900000 27490000" >"$fig"
sb --sysroot "$tmp/uas" --json boot time --record --db "$db"
expect_rc 0
python3 - "$tmp/out" "$id" <<'PY' || fail "boot time --record --json: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
r, t = d["record"], d["boot_time"]
assert r["boot_id"] == sys.argv[2] and r["stored"] is True and r["recorded_at"], r
assert abs(t["total_s"] - 27.49) < 1e-9 and t["boot_device"] == "sda", t
PY
# the drive with the quirk (usb-storage), booted through an initrd
boot quirk 6.00 29.50 4.00
boot quirk 6.50 30.50 4.00
# the boot has not finished: refused, nothing stored
echo 5b00f1e0-0000-4000-8000-0000000000ff >"$tmp/sd/proc/sys/kernel/random/boot_id"
echo "7000000 0" >"$fig"
sb --sysroot "$tmp/sd" boot time --record --db "$db"
expect_rc 1
grep -q "the boot has not finished yet" "$tmp/err" || fail "unfinished boot: $(cat "$tmp/err")"
# no boot id: this boot cannot be told from another
rm "$tmp/sd/proc/sys/kernel/random/boot_id"
echo "7000000 31000000" >"$fig"
sb --sysroot "$tmp/sd" boot time --record --db "$db"
expect_rc 1
grep -q "the kernel gives no boot id" "$tmp/err" || fail "no boot id: $(cat "$tmp/err")"
# a tree is not this machine: only into a database named with --db
echo 5b00f1e0-0000-4000-8000-0000000000fe >"$tmp/sd/proc/sys/kernel/random/boot_id"
sb --sysroot "$tmp/sd" boot time --record
expect_rc 1
grep -q "name the database with --db" "$tmp/err" || fail "tree without --db: $(cat "$tmp/err")"

# --- history --boot: per boot device (disk and attachment), the fastest first ---
sb history --boot --db "$db"
expect_rc 0
golden boot-history.txt
sb history --boot --db "$db" --json
expect_rc 0
python3 - "$tmp/out" <<'PY' || fail "history --boot --json figures"
import json, sys
d = json.load(open(sys.argv[1]))
g = {(x["dev_name"], x["attachment"]): x for x in d["boot_devices"]}
print(sorted(g))
def fig(x, key, boots, mean, lo, hi):
    f = x[key]
    ok = f["boots"] == boots and all(abs(a - b) < 1e-9 for a, b in
                                     ((f["mean"], mean), (f["min"], lo), (f["max"], hi)))
    assert ok, (key, f, mean, lo, hi)
sd = g[("mmcblk0", "mmc sd uhs DDR50")]
assert sd["device"] == "SC64G" and sd["boots"] == 5 and sd["serial"] == "0x8c1f2e3d", sd
fig(sd, "total_s", 5, 31.012, 30.88, 31.20)
fig(sd, "kernel_s", 5, 7.15, 7.00, 7.30)
fig(sd, "userspace_s", 5, 31.012 - 7.15, 30.89 - 7.15, 31.02 - 7.00)
assert sd["initrd_s"] is None, sd
uas = g[("sda", "usb 5000M uas 152d:0578")]
assert uas["boots"] == 3, uas
fig(uas, "total_s", 3, 27.74, 27.49, 28.03)
q = g[("sda", "usb 5000M usb-storage 152d:0578")]
assert q["serial"] == uas["serial"], q  # one drive, two attachments: two rows
fig(q, "total_s", 2, 30.0, 29.5, 30.5)
fig(q, "kernel_s", 2, 4.0, 4.0, 4.0)
fig(q, "initrd_s", 2, 2.25, 2.0, 2.5)
fig(q, "userspace_s", 2, 23.75, 23.5, 24.0)
assert [x["dev_name"] + " " + x["attachment"] for x in d["boot_devices"]] == [
    "sda usb 5000M uas 152d:0578", "sda usb 5000M usb-storage 152d:0578",
    "mmcblk0 mmc sd uhs DDR50"]
assert "not visible" in d["not_counted"] or "cannot see" in d["not_counted"], d
PY
sb history --boot --db "$db" --device SC64G
expect_rc 0
[ "$(grep -c ' mmc ' "$tmp/out")" = 1 ] && ! grep -q 152d "$tmp/out" ||
	fail "history --boot --device: $(cat "$tmp/out")"
sb history --boot --db "$db" --since 2999-01-01
expect_rc 0
grep -q "no boot times stored that match" "$tmp/err" || fail "none match: $(cat "$tmp/err")"
for bad in "history --boot --csv" "history --boot --last 2" "history --boot --import x.json" \
	"boot --record" "boot time --db x.db" "boot order nvme --record" "boot check --record"; do
	# shellcheck disable=SC2086 # the words of $bad are the arguments
	sb $bad --db "$db"
	expect_rc 2
	[ "$(grep -c '^sbcdisk: ' "$tmp/err")" = 1 ] || fail "$bad: not one message: $(cat "$tmp/err")"
done

# --- compare and report: the boot times of the runs' drives ---
python3 "$src/tests/store/mkruns.py" "$tmp/runs.json" default "$tmp/sd:mmcblk0:43.9:10.1" \
	"$tmp/uas:sda:380.0:23.0" || { echo "FAIL: cannot make the runs"; exit 1; }
sb history --db "$db" --import "$tmp/runs.json"
expect_rc 0
grep -q "imported 2 runs as 1-2" "$tmp/out" || fail "import: $(cat "$tmp/out")"
sb history --db "$db" --import "$src/data/seed-results/seed-runs.json"
expect_rc 0
sb compare --db "$db" 1 2
expect_rc 0
golden boot-compare.txt
sb compare --db "$db" --json 1 2
expect_rc 0
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
b = d["boot_times"]
assert [x["dev_name"] for x in b] == ["sda", "sda", "mmcblk0"], b
assert abs(b[2]["total_s"]["mean"] - 31.012) < 1e-9, b' "$tmp/out" || fail "compare --json boot_times"
# runs of drives that never booted here: no boot times
sb compare --db "$db" 3 4
expect_rc 0
grep -q "Boot times" "$tmp/out" && fail "compare of seed runs shows boot times"
sb compare --db "$db" --json 3 4
python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["boot_times"] != [])' \
	"$tmp/out" || fail "compare --json of seed runs: boot_times not empty"
sb report --db "$db" 1 2 -o "$tmp/report.html"
expect_rc 0
cp "$tmp/report.html" "$tmp/out"
golden boot-report.html
[ "$(grep -c '<tr class="boot-device">' "$tmp/report.html")" = 3 ] ||
	fail "report: not 3 boot devices"
grep -q "cannot see on a Raspberry Pi" "$tmp/report.html" || fail "report: the firmware note"
sb report --db "$db" 3 4 -o "$tmp/seed.html"
expect_rc 0
grep -q 'id="boot-times"' "$tmp/seed.html" && fail "report of seed runs shows boot times"

# --- a damaged database: one message, exit 1, the file as it was (JSON: no document) ---
head -c 20000 "$src/tests/store/fixtures/schema6.db" >"$tmp/bad.db"
cp "$tmp/bad.db" "$tmp/bad.orig"
echo 5b00f1e0-0000-4000-8000-0000000000fd >"$tmp/sd/proc/sys/kernel/random/boot_id"
for json in "" --json; do
	sb --sysroot "$tmp/sd" $json boot time --record --db "$tmp/bad.db"
	expect_rc 1
	[ "$(grep -c . "$tmp/err")" = 1 ] && grep -q "not an SQLite database, or it is corrupt" "$tmp/err" ||
		fail "damaged database$json: $(cat "$tmp/err")"
	[ -n "$json" ] && [ -s "$tmp/out" ] && fail "damaged database --json: a document was printed"
	cmp -s "$tmp/bad.db" "$tmp/bad.orig" || fail "the damaged database was changed"
done
sb history --boot --db "$tmp/bad.db"
expect_rc 1

# --- a schema 6 database (made by the sbcdisk before boot times) takes its first boot ---
cp "$src/tests/store/fixtures/schema6.db" "$tmp/old.db"
sb --sysroot "$tmp/sd" boot time --record --db "$tmp/old.db"
expect_rc 0
sb history --db "$tmp/old.db" --json
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if len(d["runs"]) == 19 and len(d["fixes"]) == 2 else 1)' "$tmp/out" ||
	fail "schema 6 database: runs or fixes lost"
sb history --boot --db "$tmp/old.db"
expect_rc 0
grep -q "^SC64G .* mmc .*  *1 " "$tmp/out" || fail "schema 6 database: the boot: $(cat "$tmp/out")"

[ -n "${BOOT_KEEP:-}" ] && cp "$tmp/report.html" "$db" "$BOOT_KEEP/"
finish
