#!/bin/bash
# health-headlines.sh - doctor reads the stored runs of every drive, found by the identity the
# store keeps (serial, else model and name; not only a USB id), in a tree's own result store;
# the health check gives one headline per drive (its last run's verdict, the most serious
# finding ranked problem > power > link > protocol > device, the one next step), as text and
# in --json, on the Jetson, CM4, VisionFive 2 and Pi 4 trees.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

# tree NAME DESC NAME:SEQ:RND...: $tmp/NAME from tests/sysroots/DESC.desc with its own store
# holding one quick run of each drive (SEQ1M Q8T1 read SEQ MB/s, RND4K Q1T1 RND MB/s)
tree() {
	local desc=$2 root=$tmp/$1 spec specs=()
	shift 2
	python3 "$src/tools/mksysroot" "$src/tests/sysroots/$desc.desc" "$root" >/dev/null ||
		{ fail "mksysroot $desc"; return 1; }
	mkdir -p "$root/var/lib/sbcdisk"
	for spec in "$@"; do specs+=("$root:$spec"); done
	python3 "$src/tests/store/mkruns.py" "$tmp/runs.json" quick "${specs[@]}" ||
		{ fail "runs for $desc"; return 1; }
	sb history --db "$root/var/lib/sbcdisk/results.db" --import "$tmp/runs.json"
	expect_rc 0
}

# headline TREE DEV PYEXPR: the health check's JSON headline of DEV (h) satisfies PYEXPR
headline() {
	sb --sysroot "$tmp/$1" --json
	python3 - "$tmp/out" "$2" "$3" <<'PY' && ok || fail "$1 $2: the headline: $(cat "$tmp/out.h")"
import json, sys
d = json.load(open(sys.argv[1]))
h = [x for x in d["headlines"] if x["device"] == sys.argv[2]]
open(sys.argv[1] + ".h", "w").write(json.dumps(d["headlines"], indent=1))
assert len(h) == 1, h
h = h[0]
assert set(h) == {"device", "run_id", "verdict", "headline", "finding", "finding_title",
                  "next_step"}, h
v = h["verdict"]
assert v is None or set(v) == {"limit", "ceiling_bytes_per_s", "expected_bytes_per_s",
                               "text"}, v
assert eval(sys.argv[3].replace("\n", " ")), h
PY
}

# report 002: the Orin's NVMe at 23 MB/s on a link trained at 2.5 GT/s x1, no log errors
tree orin jetson-orin-emmc-nvme nvme0n1:23.0:5.0 || finish
sb --sysroot "$tmp/orin" doctor --json
python3 - "$tmp/out" <<'PY' && ok || fail "orin: doctor's run-far-below: $(cat "$tmp/out")"
import json, sys
f = [x for x in json.load(open(sys.argv[1]))["findings"] if x["id"] == "run-far-below"]
assert len(f) == 1 and f[0]["device"] == "nvme0n1" and f[0]["severity"] == "warning", f
ev = " ".join(e["text"] for e in f[0]["evidence"])
assert "run #1: Jetson AGX Orin PCIe Gen 1 x1" in ev and "measured 23 MB/s: far below" in ev, ev
PY
headline orin nvme0n1 'v["limit"] == "problem" and h["run_id"] == 1 and
  v["expected_bytes_per_s"] == {"low": 200000000, "high": 225000000} and
  h["finding"] == "run-far-below" and h["next_step"] == "sbcdisk list"'
# ranked: the problem before the link's own finding (pcie-link-degraded, also a warning)
grep -q '"id": "pcie-link-degraded"' "$tmp/out" && ok || fail "orin: no pcie-link-degraded"
headline orin mmcblk0 'h["run_id"] is None and v is None and
  h["headline"].startswith("no run yet; ") and h["next_step"] == "sbcdisk bench /dev/mmcblk0"'
# the verdict is history's: compare says the same of that run
sb compare --db "$tmp/orin/var/lib/sbcdisk/results.db" --json 1
want=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["runs"][0]["verdict"])' \
	"$tmp/out")
headline orin nvme0n1 "v['text'] == '''$want'''"
sb --sysroot "$tmp/orin"
grep -q "^nvme0n1: run #1: far below this path; its last bench is far below what its path carries; next: sbcdisk list$" \
	"$tmp/out" && ok || fail "orin: the text headline: $(cat "$tmp/out")"
# on a terminal of 80 columns the headline is wrapped, no line is longer
timeout 60 python3 "$src/tests/bench/ptyrun.py" "$tmp" --cols 80 -- ${SBCDISK_RUN:-} "$SBCDISK" \
	--sysroot "$tmp/orin" >/dev/null 2>"$tmp/err"
[ $? != 90 ] && ok || fail "orin at 80 columns: lines longer than the terminal: $(cat "$tmp/err")"
grep -q "^nvme0n1: run #1: far below this path;" "$tmp/tty" && ok ||
	fail "orin at 80 columns: $(cat "$tmp/tty")"
# a run of another drive (another serial) is not this one's
python3 - "$tmp/orin/var/lib/sbcdisk/results.db" <<'PY' || fail "orin: the serial changed"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE runs SET dev_serial = 'OTHER0001'")
db.commit()
PY
sb --sysroot "$tmp/orin" doctor --json
grep -q '"run-far-below"' "$tmp/out" && fail "orin: another drive's run judged this one" || ok
headline orin nvme0n1 'h["run_id"] is None and v is None and h["finding"] == "pcie-link-degraded"'

# CM4: the eMMC at its bus's ceiling (link), the NVMe far below PCIe Gen 2 x1
tree cm4 cm4-emmc-nvme mmcblk0:90.0:10.0 nvme0n1:60.0:20.0 || finish
headline cm4 mmcblk0 'v["limit"] == "link" and h["run_id"] == 1 and
  v["text"].startswith("limited by the link (eMMC")'
headline cm4 nvme0n1 'v["limit"] == "problem" and h["finding"] == "run-far-below" and
  v["expected_bytes_per_s"]["low"] == 400000000'
sb --sysroot "$tmp/cm4" doctor
grep -q "^WARNING \[run-far-below\] nvme0n1" "$tmp/out" && ok || fail "cm4: doctor: $(cat "$tmp/out")"

# VisionFive 2 (seed 002's figures): the NVMe at its slot's PCIe Gen 2 x1 (link, and the
# link's finding an info), the SD card on a bus whose mode is not known: no limit made up
tree vf2 visionfive2-sd-nvme mmcblk1:10.9:2.0 nvme0n1:175.3:30.0 || finish
headline vf2 nvme0n1 'v["limit"] == "link" and h["finding"] == "pcie-link-limited" and
  h["next_step"] is None'
headline vf2 mmcblk1 'h["run_id"] == 1 and v["limit"] is None and v["expected_bytes_per_s"] is None'
sb --sysroot "$tmp/vf2" doctor --json
grep -q '"run-far-below"' "$tmp/out" && fail "vf2: a drive at its link called far below" || ok

# Pi 4 (report 000's USB 2 link): the link's finding before the protocol's, its next step
tree pi4 pi4-sd-jms567-usb2 sda:38.0:5.0 || finish
headline pi4 sda 'v["limit"] == "link" and h["finding"] == "usb-link-slow" and
  h["next_step"].startswith("sbcdisk fix uas 152d:0578")'
headline pi4 mmcblk0 'h["run_id"] is None and h["next_step"] is not None'
# the finding's title goes on mid-sentence after "; ": lower case, but not an acronym's
sb --sysroot "$tmp/pi4"
grep -q "^mmcblk0: no run yet; the system runs from mmcblk0 (an SD card) while sda is attached;" \
	"$tmp/out" && ok || fail "pi4: the text headline: $(cat "$tmp/out")"
finish
