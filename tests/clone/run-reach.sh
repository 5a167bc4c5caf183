#!/bin/bash
# run-reach.sh - the overlap check when it cannot follow a target to its end: a chain of loop
# devices over loop devices deeper than it follows, whose bottom is the source, is refused in
# one line (it cannot tell), and nothing is written.
. "$(dirname "$0")/../bench/lib.sh"
. "$(dirname "$0")/lib.sh"
clone_need

mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
src_sum=$(md5sum <"$tmp/src.img")
# twelve layers: the source image, a loop device over it, one over that ...
below=$tmp/src.img
for i in $(seq 1 12); do
	loop_attach "$below" || { fail "losetup layer $i"; finish; }
	below=$loopdev
done
sbc clone "$tmp/src.img" "$below" --apply
expect_rc 1 "a chain of 12 loop devices over the source"
if [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "cannot tell whether the target overlaps the source" "$tmp/err"; then ok; else
	fail "a chain of 12 loop devices: not one line saying it cannot tell:"
	sed 's/^/  err: /' "$tmp/err" | head -3
fi
check "a chain of 12 loop devices: the source untouched" \
	test "$(md5sum <"$tmp/src.img")" = "$src_sum"
# the other way round: the chain's top as the source, an image as the target
sbc clone "$below" "$tmp/t.img"
expect_rc 1 "the chain's top as the source"
grep_out "cannot tell whether the target overlaps the source" err \
	"the chain's top as the source: says it cannot tell"
finish
