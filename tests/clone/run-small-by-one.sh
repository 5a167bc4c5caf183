#!/bin/bash
# run-small-by-one.sh - a target one sector smaller than the source (512-byte and 4096-byte
# sectors, with and without --whole) is refused before anything is written, and the message
# tells the two sizes apart: rounded they are both "200M", so they are given in bytes.
. "$(dirname "$0")/lib.sh"
clone_need

mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
truncate -s $((200 * 1048576 - 512)) "$tmp/t512.img"
sum0=$(sum_of "$tmp/t512.img")
sbc clone "$tmp/src.img" "$tmp/t512.img" --apply
expect_rc 1 "one 512-byte sector short"
grep_out "is too small: 209714688 bytes, the layout needs 209715200 bytes$" err \
	"one 512-byte sector short: the sizes in bytes"
sbc clone --whole "$tmp/src.img" "$tmp/t512.img" --apply
expect_rc 1 "--whole, one sector short"
grep_out "is too small: 209714688 bytes, the source is 209715200 bytes$" err \
	"--whole, one sector short: the sizes in bytes"
check "one sector short: the target unchanged" test "$(sum_of "$tmp/t512.img")" = "$sum0"
# sizes that differ once rounded stay as they were
truncate -s 150M "$tmp/t150.img"
sbc clone "$tmp/src.img" "$tmp/t150.img"
expect_rc 1 "150M"
grep_out "is too small: 150M, the layout needs 200M$" err "150M: rounded sizes"

truncate -s $((200 * 1048576 - 4096)) "$tmp/t4k.img"
t4k=$(losetup -f --show --sector-size 4096 "$tmp/t4k.img" 2>/dev/null) ||
	skip "losetup --sector-size 4096 failed"
at_exit "loop_detach '$t4k'"
sbc clone "$tmp/src.img" "$t4k" --apply
expect_rc 1 "one 4096-byte sector short"
grep_out "is too small: 209711104 bytes, the layout needs 209715200 bytes$" err \
	"one 4096-byte sector short: the sizes in bytes"
finish
