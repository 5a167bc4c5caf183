#!/bin/bash
# fix-proof-bench.sh - the before/after proof with real benches: a loop device stands for the
# JMS567 SSD of the Pi 4 tree (the tree's sda gets the loop device's MAJ:MIN); the run before
# the fix is read through a cgroup v1 blkio throttle (the drive as the UAS resets left it), the
# runs after it are not. bench in the boot of the fix says it takes effect after the reboot;
# the first bench of a profile after the reboot (a new boot id, a log without resets) says
# what changed, the next one does not; fix verify --json agrees; the report, rendered in headless Chromium,
# marks the fix between the runs. Skips (77) without root, loop devices, the blkio throttle,
# or under qemu-user; Chromium missing but installable fails, as in report-render.sh.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

need_loop
cgbase=/sys/fs/cgroup/blkio
[ -w "$cgbase/cgroup.procs" ] || skip "no cgroup v1 blkio hierarchy at $cgbase"
truncate -s 64m "$tmp/disk.img"
loop=$(losetup -f --show "$tmp/disk.img" 2>/dev/null) || skip "losetup failed"
at_exit "loop_detach '$loop'"
cg=$cgbase/sbcdisk-fix-proof-$$
at_exit "rmdir '$cg'"
mm=$(lsblk -dno MAJ:MIN "$loop" | tr -d ' ')
mkdir "$cg" && echo "$mm 4000000" >"$cg/blkio.throttle.read_bps_device" &&
	echo "$mm 250" >"$cg/blkio.throttle.read_iops_device" ||
	skip "cannot set a blkio throttle for $mm"

# the Pi 4 tree with its SSD at the loop device's number
mkdir "$tmp/desc"
cp "$src"/tests/sysroots/*.inc "$src/tests/sysroots/pi4-jms567-usb3-uas.desc" "$tmp/desc/"
sed -i -e "s/ 8:0 / $mm /" -e "s/^udev 8:0 /udev $mm /" -e "s/ID_PART_ENTRY_DISK=8:0/ID_PART_ENTRY_DISK=$mm/" \
	"$tmp/desc/pi4-jms567-usb3.inc"
root=$tmp/root
python3 "$src/tools/mksysroot" "$tmp/desc/pi4-jms567-usb3-uas.desc" "$root" >/dev/null ||
	{ echo "FAIL: mksysroot"; exit 1; }
mkdir -p "$root/dev" "$root/proc/sys/kernel/random"
cp "$src/tests/diag/klog/seed000-jms567-uas-resets-usb3.log" "$root/dev/kmsg"
echo 6c0f3f1e-1111-4a3c-9d1e-0b5e7a0c0001 >"$root/proc/sys/kernel/random/boot_id"
db=$tmp/results.db
bench_args=(--sysroot "$root" bench "$loop" --profile quick --time 300ms --runs 1 --db "$db")
flat() { tr '\n' ' ' <"$tmp/out"; }
# the RND4K Q32T1 read MB/s of the bench table in $tmp/out
q32() { awk '$1 == "RND4K" && $2 == "Q32T1" && $3 == "randread" { print $4 }' "$tmp/out"; }

# before: throttled, as a drive that keeps being reset
sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$SBCDISK" "${bench_args[@]}" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc 0
before=$(q32)
grep -q "saved as run 1" "$tmp/err" || fail "run before not saved: $(cat "$tmp/err")"
# every bench ends with the judgement of the path: far below it, or no large read in time (a
# 1 MiB read through the throttle's 250 IOPS and 4 MB/s, within 300 ms, or not)
flat | tr -s ' ' | grep -Eq "Pi 4 USB 3 Gen 1 \(VL805\) → JMS567/JMS578 → uas, a spinning disk: large reads should reach 80–250 MB/s; (this run measured no large transfer|measured [0-9.]+ MB/s: far below)" ||
	fail "no judgement at the end of the bench before: $(tail -3 "$tmp/out")"
# large reads through the throttle: far below the path, and the experiment is the next step
sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$SBCDISK" --sysroot "$root" \
	bench "$loop" --no-save --test rw=read,bs=1m,qd=1,threads=1,time=1s,size=8m,runs=1 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc 0
flat | tr -s ' ' | grep -q "Pi 4 USB 3 Gen 1 (VL805) → JMS567/JMS578 → uas, a spinning disk: large reads should reach 80–250 MB/s; measured [0-9] MB/s: far below — see doctor: uas-errors; try sbcdisk fix uas sda --try" ||
	fail "no judgement of a slow large read: $(tail -3 "$tmp/out")"
sb --sysroot "$root" fix uas sda --apply --db "$db"
expect_rc 0
flat | grep -q "Recorded as fix #1 for sda (Generic). After the reboot" || fail "fix: $(cat "$tmp/out")"
# the same boot: the fix is not in effect yet
sb "${bench_args[@]}"
expect_rc 0
flat | grep -q "This run is from the boot in which fix uas (usb-storage.quirks += 152d:0578:u) on sda (Generic), .* was written: it takes effect after the reboot" ||
	fail "bench before the reboot: $(tail -4 "$tmp/out")"
# the reboot
echo 6c0f3f1e-2222-4a3c-9d1e-0b5e7a0c0002 >"$root/proc/sys/kernel/random/boot_id"
head -40 "$src/tests/diag/klog/seed000-jms567-uas-resets-usb3.log" >"$root/dev/kmsg"
# first another profile: nothing of it from before the fix, and said so
sb --sysroot "$root" bench "$loop" --test rw=randread,bs=4k,qd=1,time=0.1s --db "$db"
expect_rc 0
flat | grep -q "Since fix uas .*: no run with profile 'custom' is stored from before it, so there is nothing to compare with." ||
	fail "another profile after the reboot: $(tail -4 "$tmp/out")"
sb "${bench_args[@]}"
expect_rc 0
after=$(q32)
grep -q "^Since fix uas (usb-storage.quirks += 152d:0578:u) on sda (Generic), .*" "$tmp/out" &&
	flat | grep -q "(run #1 before it, #4 now, profile quick):" &&
	grep -q "^  UAS resets: 2 before, 0 since$" "$tmp/out" ||
	fail "first bench after the reboot: $(tail -8 "$tmp/out")"
line=$(grep "^  RND4K Q32T1 read " "$tmp/out")
echo "before: $before MB/s, after: $after MB/s; bench says: $line"
python3 -c "import sys; b, a = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if a >= 5 * b else 1)" \
	"$before" "$after" || fail "the throttle did not show: $before → $after MB/s"
[ -n "$line" ] || fail "no RND4K Q32T1 line in the comparison"
# only the first run after the fix says it
sb "${bench_args[@]}"
expect_rc 0
grep -q "^Since fix" "$tmp/out" && fail "a second run after the fix compared again"
sb --sysroot "$root" --json fix verify --profile quick --db "$db"
expect_rc 0
python3 - "$tmp/out" "$before" "$after" <<'PY' || fail "fix verify --json: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
b, a = float(sys.argv[2]), float(sys.argv[3])
t = next(t for t in d["tests"] if t["test"] == "RND4K Q32T1" and t["rw"] == "read")
ok = (d["run_before"]["id"] == 1 and d["run_after"]["id"] == 4 and d["rebooted"] is True
      and d["uas_resets"] == {"before": 2, "since": 0}
      and abs(t["before_bw_bytes_per_s"] / 1e6 - b) < 0.01
      and abs(t["after_bw_bytes_per_s"] / 1e6 - a) < 0.01 and t["ratio"] >= 5)
sys.exit(0 if ok else 1)
PY

# the report marks the fix between run 1 and run 2, rendered by Chromium
sb report --db "$db" -o "$tmp/report.html"
expect_rc 0
if ! command -v chromium >/dev/null; then
	if apt-cache policy chromium 2>/dev/null | grep -q 'Candidate: [0-9]'; then
		fail "chromium is not installed but can be: run tools/setup (apt-get install chromium)"
	else
		echo "no chromium package for this system: the report marker is checked in the HTML only"
	fi
	dom=$tmp/report.html
else
	chrome --dump-dom "file://$tmp/report.html" >"$tmp/dom.html" ||
		fail "chromium: $(tail -3 "$tmp/chrome.err")"
	dom=$tmp/dom.html
fi
python3 - "$dom" <<'PY' || fail "the fix marker in the rendered report"
import re, sys
dom = open(sys.argv[1]).read()
runs = dom[dom.index("<h2") : dom.index("</table>")]
rows = re.findall(r'<tr class="fix-marker" id="fix-(\d+)"|<td><a href="#run-(\d+)">', runs)
order = ["fix" + f if f else r for f, r in rows]
print("runs table:", " ".join(order))
marker = re.search(r'<tr class="fix-marker"[^>]*>(.*?)</tr>', runs).group(1)
ok = order == ["1", "fix1", "2", "3", "4", "5"] and "uas: usb-storage.quirks += 152d:0578:u" in marker
ok = ok and "UAS resets at the time: 2" in marker and "Generic" in marker
ok = ok and not re.search(r"<script", dom, re.I)
sys.exit(0 if ok else 1)
PY
finish
