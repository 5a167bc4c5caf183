#!/bin/bash
# run-manydevs.sh - a limit that cuts the inventory is said, never silent: a tree with 100 001
# entries in /sys/block (generated here, not committed) gets a notice under the table, a
# "devices_left_out" count in the JSON and a warning instead of "No problems found" in the
# health check; 5000 devices (more than the old limit of 4096, fewer than the limit) are all
# listed, the real disks among them.
# usage: run-manydevs.sh
set -u
. "$(dirname "$0")/lib.sh"
if [ -n "$run" ]; then
	skip "100 001 devices under an emulator ($run) take too long; the native run checks"
fi
tree_build pi4-sd-jms567-usb2

# add_fakes FROM TO: empty device directories ram$FROM..ram$((TO-1)) straight in /sys/block
add_fakes() {
	python3 - "$tmp/root/sys/block" "$1" "$2" <<'PY'
import os, sys
base, a, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(a, b):
    os.mkdir("%s/ram%d" % (base, i))
PY
}

# sb ARGS...: sbcdisk on the tree, bounded
sb() { bin_run 60 --sysroot "$tmp/root" "$@"; }

# jcheck EXPR WHAT: a Python expression on d, the JSON of $tmp/out
jcheck() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
names = [x["name"] for x in d["devices"]]
sys.exit(0 if eval(sys.argv[2]) else 1)' "$tmp/out" "$1" || fail "$2"
}

# 5000 devices and the tree's own two disks: all of them, nothing left out
add_fakes 0 5000
sb list --json
[ "$rc" -eq 0 ] || fail "list --json (5002 devices): exit $rc"
jcheck 'len(names) == 5002' "all 5002 devices are listed"
jcheck '"sda" in names and "mmcblk0" in names' "the real disks are listed"
jcheck 'd.get("devices_left_out") == 0' "devices_left_out is 0 when nothing was left out"
sb list
grep -q "the list is incomplete" "$tmp/out" && fail "a complete list has no notice"

# 100 001 entries: more than any real machine has; what was left out is said
add_fakes 5000 99999
sb list --json
[ "$rc" -eq 0 ] || fail "list --json (100 001 entries): exit $rc"
jcheck 'd.get("devices_left_out", 0) > 0' "devices_left_out counts what was not read"
jcheck 'len(names) + d["devices_left_out"] >= 100001' "listed and left out add up"
sb list
[ "$rc" -eq 0 ] || fail "list (100 001 entries): exit $rc"
tail -n 1 "$tmp/out" | grep -q "^(the list is incomplete: [0-9]* more entries were not read" ||
	fail "the table ends with the notice: $(tail -n 1 "$tmp/out" | head -c 200)"
sb
grep -qx "No problems found." "$tmp/out" && fail "the health check says 'No problems found.'"
grep -q "No problems found in the devices that were read (the list is incomplete)" \
	"$tmp/out" || fail "the health check says the list is incomplete"
grep -q "warning: health: only the first [0-9]* block devices were read" "$tmp/err" ||
	fail "the health check warns on stderr: $(head -c 300 "$tmp/err")"

finish
