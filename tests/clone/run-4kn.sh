#!/bin/bash
# run-4kn.sh - a target with 4096-byte logical sectors (a USB bridge presenting 4Kn, issue 34,
# 9), as a loop device with --sector-size 4096: the usual image (FAT of 512-byte sectors,
# ext4 of 1 KiB blocks) cannot be mounted there, so the clone refuses in the dry run, never
# after copying; a read-only target is called read-only, not "no usable copy".
. "$(dirname "$0")/lib.sh"
clone_need

mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
truncate -s 400M "$tmp/t.img"
t4k=$(losetup -f --show --sector-size 4096 "$tmp/t.img" 2>/dev/null) ||
	skip "losetup --sector-size 4096 failed (util-linux or kernel too old)"
at_exit "loop_detach '$t4k'"
[ "$(cat "/sys/block/${t4k#/dev/}/queue/logical_block_size")" = 4096 ] ||
	skip "the loop device did not take 4096-byte sectors"

# the source's 512-byte sectors do not fit it: refused in the dry run, never after a copy
sum0=$(sum_of "$tmp/t.img")
sbc clone "$tmp/src.img" "$t4k"
expect_rc 1 "4Kn target: the dry run refuses"
grep_out "has 4096-byte logical sectors, the source 512" err "4Kn target: the reason"
sbc clone "$tmp/src.img" "$t4k" --apply
expect_rc 1 "4Kn target: --apply refuses before writing"
check "4Kn target: not called without a usable copy" sh -c "! grep -q 'no usable copy' '$tmp/err'"
sbc clone --whole "$tmp/src.img" "$t4k" --apply
expect_rc 1 "4Kn target: --whole refuses too"
check "4Kn target: unchanged" test "$(sum_of "$tmp/t.img")" = "$sum0"

# read-only: said so, before anything is copied
loop_detach "$t4k"
ro=$(losetup -f --show -r "$tmp/t.img") || { fail "losetup -r"; finish; }
at_exit "loop_detach '$ro'"
sum0=$(sum_of "$tmp/t.img")
sbc clone "$tmp/src.img" "$ro" --apply
expect_rc 1 "a read-only target"
grep_out "read-only" err "a read-only target: called read-only"
check "a read-only target: not called without a usable copy" sh -c "! grep -q 'no usable copy' '$tmp/err'"
check "a read-only target: unchanged" test "$(sum_of "$tmp/t.img")" = "$sum0"
finish
