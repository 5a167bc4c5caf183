#!/bin/bash
# seed-import.sh - tools/import-results turns data/seed-results/*.csv into exactly the
# committed seed-runs.json, and the verdicts the issue names hold on those figures.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

seeds=$SBCDISK_SRCDIR/data/seed-results
python3 "$SBCDISK_SRCDIR/tools/import-results" "$seeds" >"$tmp/seeds.json" 2>"$tmp/skipped"
cmp -s "$tmp/seeds.json" "$seeds/seed-runs.json" ||
	fail "tools/import-results output differs from data/seed-results/seed-runs.json"
# what is not a figure of one drive is named, not imported
grep -q "boot to desktop" "$tmp/skipped" || fail "boot times not reported as skipped"
grep -q "'tens of' is not a figure" "$tmp/skipped" || fail "'tens of' not reported"

# a direction that is not one of the four is refused, not carried into the file
mkdir "$tmp/bad"
cp "$seeds"/*.csv "$tmp/bad/"
python3 - "$tmp/bad/seed001-fio-microsd-vs-ssd.csv" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")
lines[2] = lines[2].replace(",read,", ',"""><p><script>/*",', 1)
open(p, "w").write("\n".join(lines))
PY
python3 "$SBCDISK_SRCDIR/tools/import-results" "$tmp/bad" >"$tmp/bad.json" 2>"$tmp/bad.err" &&
	fail "a hostile rw was converted: $(head -c 300 "$tmp/bad.json")"
grep -q "rw '\"><p><script>/\*' is not one of read, write, randread, randwrite" "$tmp/bad.err" ||
	fail "hostile rw: $(cat "$tmp/bad.err")"

db=$tmp/results.db
sb history --db "$db" --import "$tmp/seeds.json"
expect_rc 0
sb history --db "$db" --json
python3 - "$tmp/out" <<'PY' || fail "seed verdicts"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
# the USB 2.0 SSD at 32.47 hdparm-MB/s: limited by the link
usb2 = [v for r in runs if r["device"]["usb"] and r["device"]["usb"].get("speed_mbps") == 480
        for v in r["verdicts"] if v["test"] == "buffered disk reads"]
assert len(usb2) == 1 and usb2[0]["limit"] == "link", usb2
assert usb2[0]["text"] == "limited by the link (USB 2.0, 480M)", usb2
assert usb2[0]["ceiling_bytes_per_s"] == 40000000, usb2
assert usb2[0]["expected_bytes_per_s"] == {"low": 30000000, "high": 40000000}, usb2
def verdicts(board, model, test):
    return [v for r in runs if r["board"].startswith(board) and r["device"]["model"] == model
            for v in r["verdicts"] if v["test"] == test]
# the Jetson's NVMe drive at 21.9 hdparm-MB/s: far below its path, with the next command
jet = [v for r in runs if r["board"] == "Jetson AGX Orin" and r["device"]["transport"] == "nvme"
       for v in r["verdicts"] if v["test"] == "buffered disk reads"]
assert len(jet) == 1 and jet[0]["limit"] == "problem", jet
assert jet[0]["text"].startswith("far below this path — "), jet
assert "sbcdisk list" in jet[0]["text"], jet
assert jet[0]["expected_bytes_per_s"]["low"] >= 1000e6, jet
# the same drive on the VisionFive 2 is not called a problem
vf2 = [v for r in runs if r["board"] == "VisionFive 2" and r["device"]["transport"] == "nvme"
       for v in r["verdicts"] if v["test"] == "buffered disk reads"]
assert len(vf2) == 1 and vf2[0]["limit"] != "problem", vf2
# seed 004: usb-storage on the Pi 4's USB 3 port at 270 hdparm-MB/s is the protocol's limit
bot = [v for r in runs if r["device"]["usb"] and r["device"]["usb"].get("driver") == "usb-storage"
       for v in r["verdicts"] if v["test"] == "buffered disk reads"]
assert len(bot) == 1 and bot[0]["limit"] == "protocol", bot
assert bot[0]["text"] == "limited by the protocol (usb-storage on USB 3 Gen 1, 5000M)", bot
# seed 003: the HDD is the limit on the Pi 4 and on the PC
hdd = verdicts("Raspberry Pi 4B", "Seagate ST1000LM048 HDD", "buffered disk reads")
hdd += verdicts("Windows", "Seagate ST1000LM048 2.5in HDD", "SEQ1M Q8T1")
assert len(hdd) == 3 and {v["limit"] for v in hdd} == {"device"}, hdd
# seed 003: the SATA SSD at queue depth 1 gives the same verdict on the Pi 4 (hdparm, 315 MB/s)
# as on the PC (CrystalDiskMark SEQ1M Q1T1, 310 MB/s); at Q8 the PC reaches its link
pi = verdicts("Raspberry Pi 4B", "ADATA ASU650SS-120GT SSD", "buffered disk reads")
pc1 = [v for v in verdicts("Windows", "ADATA ASU650SS-120GT SATA SSD", "SEQ1M Q1T1")
       if v["rw"] == "read"]
pc8 = [v for v in verdicts("Windows", "ADATA ASU650SS-120GT SATA SSD", "SEQ1M Q8T1")
       if v["rw"] == "read"]
assert len(pi) == len(pc1) == len(pc8) == 1, (pi, pc1, pc8)
assert pi[0]["limit"] == pc1[0]["limit"] == "device", (pi, pc1)
assert pc8[0]["limit"] == "link", pc8
# the importer keeps CrystalDiskMark's queue depth (the Q of "SEQ1M" is not it)
q8 = [t for r in runs for t in r["tests"] if t["name"] == "SEQ1M Q8T1"]
assert q8 and {t["queue_depth"] for t in q8} == {8}, q8
# a memory figure is never judged against the disk
mem = [v for r in runs for v in r["verdicts"] if v["test"] == "cached reads"]
assert mem and all(v["limit"] == "memory" and v["ceiling_bytes_per_s"] is None and
                   v["expected_bytes_per_s"] is None for v in mem), mem
# every verdict carries the four keys
for r in runs:
    for v in r["verdicts"]:
        assert {"limit", "ceiling_bytes_per_s", "expected_bytes_per_s", "text"} <= set(v), v
        assert v["limit"] in ("link", "protocol", "device", "problem", "memory", None), v
print("seed verdicts ok")
PY
sb history --db "$db" --since yesterday
expect_rc 2
finish
