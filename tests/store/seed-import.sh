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
# the Jetson's NVMe drive at 21.9 hdparm-MB/s: far below its link
jet = [v for r in runs if r["board"] == "Jetson AGX Orin" and r["device"]["transport"] == "nvme"
       for v in r["verdicts"] if v["test"] == "buffered disk reads"]
assert len(jet) == 1 and jet[0]["limit"] == "problem", jet
assert jet[0]["text"].startswith("far below what the link allows"), jet
# the same drive on the VisionFive 2 is not called a problem
vf2 = [v for r in runs if r["board"] == "VisionFive 2" and r["device"]["transport"] == "nvme"
       for v in r["verdicts"] if v["test"] == "buffered disk reads"]
assert len(vf2) == 1 and vf2[0]["limit"] != "problem", vf2
# no memory figure is judged
assert not [v for r in runs for v in r["verdicts"] if v["test"] == "cached reads"]
print("seed verdicts ok")
PY
sb history --db "$db" --since yesterday
expect_rc 2
finish
