#!/bin/bash
# run-reach.sh - the overlap check when it cannot follow a target to its end: a chain of loop
# devices over loop devices deeper than it follows, whose bottom is the source, is refused in
# one line (it cannot tell), and nothing is written.
. "$(dirname "$0")/lib.sh"
clone_need

mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
src_sum=$(md5sum <"$tmp/src.img")
# chain_detach: the chain's layers from the top down, each only while it still backs onto
# the layer below it (loop_detach looks through one loop device only)
chain=()
chain_detach() {
	local i
	for ((i = ${#chain[@]} - 1; i > 0; i--)); do
		[ "$(losetup -nO BACK-FILE "${chain[i]}" 2>/dev/null)" = "${chain[i - 1]}" ] &&
			losetup -d "${chain[i]}"
	done
	[ ${#chain[@]} -gt 0 ] && loop_detach "${chain[0]}"
	chain=()
}
at_exit "chain_detach"
# twelve layers: the source image, a loop device over it, one over that ...
below=$tmp/src.img
for i in $(seq 1 12); do
	below=$(losetup -f --show "$below") || { fail "losetup layer $i"; finish; }
	chain+=("$below")
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
chain_detach

# two loop devices over one file that was then deleted (its backing shows "(deleted)"): the
# file is still known by its inode, and the two overlap
cp "$tmp/src.img" "$tmp/gone.img"
loop_attach "$tmp/gone.img" || { fail "losetup gone 1"; finish; }
gone1=$loopdev
loop_attach "$tmp/gone.img" || { fail "losetup gone 2"; finish; }
gone2=$loopdev
rm "$tmp/gone.img"
gone_sum=$(md5sum <"$gone1")
sbc clone "$gone1" "$gone2" --apply
expect_rc 1 "two loop devices over one deleted file"
grep_out "overlaps" err "two loop devices over one deleted file: refused as overlapping"
check "two loop devices over one deleted file: untouched" \
	test "$(md5sum <"$gone1")" = "$gone_sum"
finish
