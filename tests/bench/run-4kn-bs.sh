#!/bin/bash
# run-4kn-bs.sh - a block size that is a multiple of 512 but not of a 4Kn device's 4096-byte
# sectors (a USB bridge presenting 4Kn; here a loop device with --sector-size 4096): the test
# is skipped with its reason, as one smaller than the target is, not ended by EINVAL from the
# first direct I/O; the bytes beside the device's range of its file untouched.
. "$(dirname "$0")/lib.sh"
need_loop

head -c $((12 << 20)) /dev/urandom >"$tmp/z.img"
dev=$(losetup -f --show -o $((4 << 20)) --sizelimit $((4 << 20)) --sector-size 4096 \
	"$tmp/z.img" 2>/dev/null) || skip "losetup --sector-size 4096 failed"
at_exit "loop_detach '$dev'"
[ "$(cat "/sys/block/${dev#/dev/}/queue/logical_block_size")" = 4096 ] ||
	skip "the loop device did not take 4096-byte sectors"
outside() { { head -c $((4 << 20)) "$tmp/z.img"; tail -c $((4 << 20)) "$tmp/z.img"; } | sha256sum; }
sum0=$(outside)

for rw in read write; do
	sb bench "$dev" --destructive --test "rw=$rw,bs=3k,qd=1,threads=1,time=200ms,runs=1"
	expect_rc 0 "bs=3k $rw on a 4Kn device"
	grep_out "SEQ3K Q1T1 .*skipped: the block size is not a multiple of the target's 4096-byte sectors" \
		out "bs=3k $rw: skipped with its reason"
	check "bs=3k $rw: no EINVAL" sh -c "! grep -q 'Invalid argument' '$tmp/err'"
done
# 4k and 8k still run
sb bench "$dev" --destructive --test "rw=write,bs=8k,qd=1,threads=1,time=200ms,runs=1"
expect_rc 0 "bs=8k write on a 4Kn device"
check "bs=8k write: measured" sh -c "! grep -q 'skipped' '$tmp/out'"
check "the bytes beside the device untouched" test "$(outside)" = "$sum0"
finish
