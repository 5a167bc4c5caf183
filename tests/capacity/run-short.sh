#!/bin/bash
# run-short.sh - devices that store less than they report without wrapping: a loop device
# whose backing file lies on a 48 MiB tmpfs takes writes up to there, then fails them with
# ENOSPC. --full finds it a capacity fake (exit 3) with its real size, where it was exit 1
# "No space left on device"; so do the probe and --full where writes fail at every address
# past 48 MiB. A directory on tmpfs passes, and says that it tested RAM.
. "$(dirname "$0")/lib.sh"
need_loop

mkdir -p "$tmp/small"
mount -t tmpfs -o size=48m tmpfs "$tmp/small" || skip "cannot mount a tmpfs"
at_exit "umount '$tmp/small'"
truncate -s 256m "$tmp/small/back"
loop_attach "$tmp/small/back"

sb --json verify "$loop" --destructive --full
expect_rc 3 "writes fail past 48 MiB"
json_eq "d['finding'], d['mode'], d['pass']" "('capacity-fake', 'full', False)" "short: finding"
json_eq "d['size_bytes']" 268435456 "short: reported size"
json_eq "40 * 2**20 < d['real_size_bytes'] <= 48 * 2**20" True "short: real size near 48 MiB"
json_eq "d['real_size_bytes'] <= d['write_failed_offset_bytes'] <= 49 * 2**20" True \
	"short: where writes failed"
json_eq "d['first_bad_offset_bytes'] == d['real_size_bytes']" True "short: first bad offset"
grep -q "No space left" "$tmp/err" && fail "short: the failed write ended the run: $(cat "$tmp/err")"
sb verify "$loop" --destructive --full
expect_rc 3 "short, table"
grep_out "finding capacity-fake: it holds .*, not the 256M it reports; writes from .* on fail (No space left on device)" \
	out "short: the table says where writes fail"

# the same tmpfs filled by the backing file's first 48 MiB: writes there overwrite, writes
# above fail at any address, the probe's spread blocks too (it was exit 1 "cannot probe it")
mkdir -p "$tmp/full"
mount -t tmpfs -o size=48m tmpfs "$tmp/full" || skip "cannot mount a tmpfs"
at_exit "umount '$tmp/full'"
truncate -s 256m "$tmp/full/back"
dd if=/dev/zero of="$tmp/full/back" bs=1M count=48 conv=notrunc status=none
loop_attach "$tmp/full/back"
sb --json verify "$loop" --destructive
expect_rc 3 "writes refused above 48 MiB, probe"
json_eq "d['finding'], d['mode'], d['real_size_bytes']" "('capacity-fake', 'probe', 50331648)" \
	"refused, probe: finding and real size"
sb --json verify "$loop" --destructive --full
expect_rc 3 "writes refused above 48 MiB, --full"
json_eq "d['finding'], d['real_size_bytes'], d['write_failed_offset_bytes']" \
	"('capacity-fake', 50331648, 50331648)" "refused, --full: finding, real size, where"

# a directory on tmpfs: a pass, of RAM
mkdir -p "$tmp/ram"
mount -t tmpfs -o size=16m tmpfs "$tmp/ram" || skip "cannot mount a tmpfs"
at_exit "umount '$tmp/ram'"
sb --json verify "$tmp/ram" --size 4m
expect_rc 0 "tmpfs directory"
json_eq "d['pass'], d['in_memory']" "(True, True)" "tmpfs: a pass, in memory"
sb verify "$tmp/ram" --size 4m
grep_out "pass, of RAM: .*no drive was tested" out "tmpfs: the table says RAM was tested"
mkdir -p "$tmp/disk"
sb --json verify "$tmp/disk" --size 4m
if [ "$(stat -f -c %T "$tmp/disk")" != tmpfs ]; then
	json_eq "d['pass'], d['in_memory']" "(True, False)" "a directory on a drive: not in memory"
fi
finish
