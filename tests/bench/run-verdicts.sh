#!/bin/bash
# run-verdicts.sh - the verdict beside each figure of the bench table and in each test of
# --json: a loop device stands for the JMS567 SSD of the Pi 4 tree (its sda gets the loop
# device's MAJ:MIN), measured on the null engine (figures of its virtual clock). Large
# transfers are judged against the path's range; a small one at the link's ceiling is the
# link's; a small one below it is not judged ("-", limit null); cached reads are memory. At 80
# columns the column is there and no line is longer. Skips without loop devices.
set -u
. "$(dirname "$0")/lib.sh"

need_loop
truncate -s 64m "$tmp/disk.img"
loop=$(losetup -f --show "$tmp/disk.img" 2>/dev/null) || skip "losetup failed"
at_exit "loop_detach '$loop'"
mm=$(lsblk -dno MAJ:MIN "$loop" | tr -d ' ')
mkdir "$tmp/desc"
cp "$src"/tests/sysroots/*.inc "$src/tests/sysroots/pi4-jms567-usb3-uas.desc" "$tmp/desc/"
sed -i -e "s/ 8:0 / $mm /" -e "s/^udev 8:0 /udev $mm /" \
	-e "s/ID_PART_ENTRY_DISK=8:0/ID_PART_ENTRY_DISK=$mm/" "$tmp/desc/pi4-jms567-usb3.inc"
root=$tmp/root
python3 "$src/tools/mksysroot" "$tmp/desc/pi4-jms567-usb3-uas.desc" "$root" >/dev/null ||
	{ echo "FAIL: mksysroot"; exit 1; }
args=(bench "$loop" --engine null --runs 1 --time 100ms --interval 0)

# row TEST RW: the verdict cell of that row (the column after MB/s)
row() { awk -v t="$1" -v rw="$2" '$1 " " $2 == t && $3 == rw { print $5 }' "$tmp/out"; }
sb --sysroot "$root" "${args[@]}"
expect_rc 0
grep -q "^Test  *R/W  *MB/s limit  *MiB/s  *IOPS" "$tmp/out" && ok ||
	fail "no limit column after MB/s: $(cat "$tmp/out")"
[ "$(row "SEQ1M Q8T1" read)" = link ] && ok || fail "SEQ1M Q8T1 read: $(cat "$tmp/out")"
[ "$(row "RND4K Q32T1" randread)" = link ] && ok || fail "RND4K Q32T1 read: $(cat "$tmp/out")"
[ "$(row "RND4K Q1T1" randread)" = - ] && ok || fail "RND4K Q1T1 read judged: $(cat "$tmp/out")"
grep -q "large reads should reach 330–400 MB/s" "$tmp/out" && ok || fail "no judgement line"

sb --sysroot "$root" --json "${args[@]}"
expect_rc 0
python3 - "$tmp/out" <<'PY' && ok || fail "the JSON verdicts: $(cat "$tmp/out")"
import json, sys
t = {(x["name"], x["rw"]): x for x in json.load(open(sys.argv[1]))["tests"]}
v = t[("SEQ1M Q8T1", "read")]["verdict"]
assert v == {"limit": "link", "ceiling_bytes_per_s": 450000000,
             "expected_bytes_per_s": {"low": 330000000, "high": 400000000},
             "text": "limited by the link (USB 3 Gen 1, 5000M)"}, v
v = t[("RND4K Q1T1", "randread")]["verdict"]
assert v["limit"] is None and v["text"].startswith("not judged"), v
assert t[("SEQ1M Q8T1", "write")]["verdict"] is None  # skipped: no figure
PY
# a test file on whatever disk holds $tmp here: every test has its verdict key all the same
sb --json bench "$tmp" --engine null --runs 1 --time 100ms --interval 0 --size 8m
python3 - "$tmp/out" <<'PY' && ok || fail "a test without its verdict: $(cat "$tmp/out")"
import json, sys
t = json.load(open(sys.argv[1]))["tests"]
assert t and all("verdict" in x for x in t), t
PY

# hdparm's cached reads are memory, its disk reads judged against the path
sb --sysroot "$root" bench "$loop" --engine null --profile hdparm --runs 1 --time 100ms \
	--interval 0
grep -Eq "^cached reads +read +[0-9.]+ memory " "$tmp/out" && ok ||
	fail "cached reads not memory: $(cat "$tmp/out")"
grep -Eq "^buffered disk reads +read +[0-9.]+ (link|protocol|device|problem) " "$tmp/out" && ok ||
	fail "disk reads not judged: $(cat "$tmp/out")"
# saved (no --no-save): into the tree's own store, not this machine's (a tree is not this
# machine; it went into this machine's before)
bin_run 120 --sysroot "$root" bench "$loop" --engine null --profile hdparm --runs 1 \
	--time 100ms --interval 0
expect_rc 0
n=$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM runs").fetchone()[0])' \
	"$root/var/lib/sbcdisk/results.db" 2>&1)
check "the run in the tree's store ($n)" test "$n" = 1

# a terminal of 80 columns: the column is shown and nothing is longer
timeout 60 python3 "$src/tests/bench/ptyrun.py" "$tmp" --cols 80 -- $run "$bin" \
	--sysroot "$root" "${args[@]}" --no-save >/dev/null 2>"$tmp/err"
[ $? != 90 ] && ok || fail "at 80 columns: lines longer than the terminal: $(cat "$tmp/err")"
grep -q "^Test  *R/W  *MB/s limit  *IOPS  *+/-%  *secs  *mean us  *CV%$" "$tmp/tty" && ok ||
	fail "at 80 columns: $(cat "$tmp/tty")"
grep -q "^SEQ1M Q8T1  *read  *[0-9.]* link " "$tmp/tty" && ok || fail "at 80: $(cat "$tmp/tty")"
finish
