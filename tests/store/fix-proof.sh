#!/bin/bash
# fix-proof.sh - a fix is recorded in the result store and proven by the runs around it: a
# schema 5 database (made by the sbcdisk before schema 6, tests/store/fixtures) is upgraded in
# place and a damaged one refused; on the Pi 4 tree with the JMS567 on uas, `fix` without a
# run before says to bench first, `fix --apply` and `fix undo --apply` are recorded, history
# lists them, and `fix verify` (text and JSON, golden) sets a run imported from before the
# fix next to one from after it, with the UAS resets of the kernel log before and since.
set -u
. "$SBCDISK_SRCDIR/tests/store/lib.sh"

jq() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" \
	"$tmp/out"; }

# --- the database of the previous schema: upgraded in place, every run kept ---
cp "$src/tests/store/fixtures/schema5.db" "$tmp/old.db"
sb history --db "$tmp/old.db" --json
expect_rc 0
jq 'len(d["runs"]) == 18 and d["fixes"] == []' || fail "schema 5 database: runs not read"
python3 - "$tmp/old.db" <<'PY' || fail "schema 5 database not upgraded to the newest (7)"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
v = c.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
cols = [r[1] for r in c.execute("PRAGMA table_info(runs)")]
fixes = c.execute("SELECT count(*) FROM sqlite_master WHERE name = 'fixes'").fetchone()[0]
n = c.execute("SELECT count(*) FROM runs WHERE digest IS NOT NULL").fetchone()[0]
print(f"schema {v}, boot_id column: {'boot_id' in cols}, fixes table: {fixes}, runs: {n}")
sys.exit(0 if v == 8 and "boot_id" in cols and fixes == 1 and n == 18 else 1)
PY
# importing the seeds again finds them all: the digests survived the upgrade
sb history --db "$tmp/old.db" --import "$src/tests/store/fixtures/seed-runs-v1.json"
expect_rc 0
grep -q "imported 0 runs (18 were stored already)" "$tmp/out" || fail "re-import: $(cat "$tmp/out")"
# a damaged copy of the same file is refused as before, and left as it is
head -c 20000 "$src/tests/store/fixtures/schema5.db" >"$tmp/bad.db"
cp "$tmp/bad.db" "$tmp/bad.orig"
sb history --db "$tmp/bad.db"
expect_rc 1
grep -q "not an SQLite database, or it is corrupt" "$tmp/err" || fail "damaged: $(cat "$tmp/err")"
cmp -s "$tmp/bad.db" "$tmp/bad.orig" || fail "the damaged database was changed"

# --- the Pi 4 with the JMS567 on uas, and the kernel log of its UAS resets ---
root=$tmp/root
python3 "$src/tools/mksysroot" "$src/tests/sysroots/pi4-jms567-usb3-uas.desc" "$root" >/dev/null ||
	{ echo "FAIL: mksysroot"; exit 1; }
mkdir -p "$root/dev" "$root/proc/sys/kernel/random"
cp "$src/tests/diag/klog/seed000-jms567-uas-resets-usb3.log" "$root/dev/kmsg"
echo 6c0f3f1e-1111-4a3c-9d1e-0b5e7a0c0001 >"$root/proc/sys/kernel/random/boot_id"
db=$tmp/results.db
on_root() { sb --sysroot "$root" "$@"; }

# a --sysroot tree is not this machine: without --db nothing is recorded or asked
on_root fix uas sda
expect_rc 0
grep -q "No benchmark run" "$tmp/out" && fail "the store was asked for a --sysroot tree"
# no run before: the dry run says how to make one
on_root fix uas sda --db "$db"
expect_rc 0
tr '\n' ' ' <"$tmp/out" | grep -q "No benchmark run of sda (Generic) is stored yet: run 'sbcdisk bench' on the drive before --apply" ||
	fail "dry-run hint: $(tail -4 "$tmp/out")"
[ -e "$db" ] && fail "a dry run created the database"
on_root --json fix uas sda --apply --db "$db"
expect_rc 0
jq 'd["applied"] and d["record"] == {"fix_id": 1, "device": "sda (Generic)", "run_before": False}' ||
	fail "fix --apply --json record: $(cat "$tmp/out")"
on_root fix undo --apply --db "$db"
expect_rc 0
grep -q "Recorded as fix #2 for sda (Generic)." "$tmp/out" || fail "undo not recorded: $(cat "$tmp/out")"
on_root fix verify --db "$db"
expect_rc 0
grep -q "before: no run of sda (Generic) is stored from before the fix" "$tmp/out" &&
	grep -q "Next time, run 'sbcdisk bench' on the drive before 'fix ... --apply'" "$tmp/out" ||
	fail "verify without runs: $(cat "$tmp/out")"

# a run of this drive from before the fix (imported: as another board's history would bring
# it), the fix again, the reboot (a new boot id, a log without resets), a run after it
python3 - "$root" "$tmp" <<'PY' || { echo "FAIL: cannot make the runs"; exit 1; }
import json, subprocess, sys, os
root, tmp = sys.argv[1], sys.argv[2]
run = os.environ.get("SBCDISK_RUN", "").split()
lst = json.loads(subprocess.run(run + [os.environ["SBCDISK"], "--sysroot", root, "list", "--json"],
                                capture_output=True, check=True).stdout)
dev = next(d for d in lst["devices"] if d["name"] == "sda")
def doc(started, figures):
    tests = [{"name": n, "rw": rw, "block_bytes": bs, "queue_depth": qd, "threads": 1,
              "bw_bytes_per_s": mbps * 1e6, "iops": mbps * 1e6 / bs}
             for n, rw, bs, qd, mbps in figures]
    return {"schema": 1, "runs": [{"started_at": started, "profile": "default",
            "engine": "io_uring", "board": lst["board"]["model"], "device": dev,
            "tests": tests}]}
before = [("SEQ1M Q8T1", "read", 1048576, 8, 301.0), ("RND4K Q32T1", "read", 4096, 32, 23.0),
          ("RND4K Q1T1", "read", 4096, 1, 5.1)]
after = [("SEQ1M Q8T1", "read", 1048576, 8, 298.0), ("RND4K Q32T1", "read", 4096, 32, 270.0),
         ("RND4K Q1T1", "read", 4096, 1, 6.4)]
json.dump(doc("2026-01-10T09:00:00Z", before), open(tmp + "/before.json", "w"))
json.dump({"after": after}, open(tmp + "/after-figures.json", "w"))
PY
sb history --db "$db" --import "$tmp/before.json"
expect_rc 0
on_root fix uas sda --apply --db "$db"
expect_rc 0
tr '\n' ' ' <"$tmp/out" | grep -q "Recorded as fix #3 for sda (Generic). After the reboot, the first 'sbcdisk bench'" ||
	fail "fix with a run before: $(tail -4 "$tmp/out")"
on_root fix verify --db "$db"
grep -q "after:  not yet: the fix takes effect after the reboot" "$tmp/out" ||
	fail "verify before the reboot: $(cat "$tmp/out")"
echo 6c0f3f1e-2222-4a3c-9d1e-0b5e7a0c0002 >"$root/proc/sys/kernel/random/boot_id"
head -40 "$src/tests/diag/klog/seed000-jms567-uas-resets-usb3.log" >"$root/dev/kmsg"
sb history --db "$db" --json
python3 - "$tmp" <<'PY' || { echo "FAIL: cannot make the run after"; exit 1; }
import json, sys
tmp = sys.argv[1]
d = json.load(open(tmp + "/out"))
fix = d["fixes"][0]
before = json.load(open(tmp + "/before.json"))
r = before["runs"][0]
r["started_at"] = fix["applied_at"]  # measured after the fix, stored after it
for t, (n, rw, bs, qd, mbps) in zip(r["tests"], json.load(open(tmp + "/after-figures.json"))["after"]):
    t["bw_bytes_per_s"], t["iops"] = mbps * 1e6, mbps * 1e6 / bs
json.dump(before, open(tmp + "/after.json", "w"))
PY
sb history --db "$db" --import "$tmp/after.json"
expect_rc 0
norm() { sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}Z)?/DATE/g' \
	-e 's/sbcdisk-[0-9]{8}-[0-9]{6}(-[2-9])?/sbcdisk-STAMP/g' "$tmp/out" >"$tmp/out.n"
	mv "$tmp/out.n" "$tmp/out"; }
on_root fix verify --db "$db"
expect_rc 0
norm
golden fix-verify.txt
grep -q "RND4K Q32T1 read 23.0 → 270 MB/s" "$tmp/out" &&
	grep -q "UAS resets: 2 before, 0 since" "$tmp/out" || fail "verify: $(cat "$tmp/out")"
on_root --json fix verify --db "$db"
expect_rc 0
jq 'd["run_before"]["id"] == 1 and d["run_after"]["id"] == 2 and d["rebooted"] and
    d["uas_resets"] == {"before": 2, "since": 0} and
    [t["test"] for t in d["tests"]] == ["SEQ1M Q8T1", "RND4K Q32T1", "RND4K Q1T1"] and
    abs(d["tests"][1]["ratio"] - 270 / 23) < 1e-9' || fail "verify --json: $(cat "$tmp/out")"
norm
golden fix-verify.json
on_root fix verify --device nothing-like-it --db "$db"
expect_rc 1
grep -q "fix: no fix is recorded for 'nothing-like-it'" "$tmp/err" || fail "no fix: $(cat "$tmp/err")"

# history lists the fixes among the runs, newest first
sb history --db "$db"
expect_rc 0
norm
golden fix-history.txt
finish
