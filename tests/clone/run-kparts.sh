#!/bin/bash
# run-kparts.sh - clone onto a disk that has partition devices (here a loop device with
# partscan; this kernel parses no tables, so the code gives the kernel the partitions
# itself, as it must where BLKRRPART cannot): after --apply the kernel shows the new
# partitions at once, where the table has them, and none of the old disk's; with the loop
# driver unusable (/dev/loop-control made /dev/null in a mount namespace of the test) a clone
# between two such disks needs no loop device, and one to an image says so in the plan,
# before anything is written. A real kernel's BLKRRPART: tests/kernel. About 20 s.
. "$(dirname "$0")/lib.sh"
clone_need
command -v addpart >/dev/null || skip "addpart missing"
command -v unshare >/dev/null || skip "unshare missing"

mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
src_sum=$(sum_of "$tmp/src.img")

# kparts_same DEV: the kernel's partitions of DEV are those of its table, start and size,
# and there is a node for each
kparts_same() {
	local k=${1#/dev/} want got
	want=$(sfdisk -d "$1" | sed -n 's|^/dev/\([a-z0-9]*\) : start= *\([0-9]*\), size= *\([0-9]*\).*|\1 \2 \3|p')
	got=$(for d in /sys/block/"$k"/"$k"p*; do
		[ -e "$d/start" ] && echo "${d##*/} $(cat "$d/start") $(cat "$d/size")"
	done)
	if [ -n "$want" ] && [ "$want" = "$got" ]; then ok; else
		fail "$2: the kernel's partitions of $1 are not its table's: table '$want', kernel '$got'"
	fi
	for d in $(echo "$want" | cut -d' ' -f1); do
		check "$2: /dev/$d is there" test -b "/dev/$d"
	done
}

# --- the kernel sees the new table at once, not the old disk's partitions ------------------
truncate -s 400M "$tmp/t.img"
t=$(losetup -f --show -P "$tmp/t.img") || { fail "losetup -P"; finish; }
at_exit "loop_detach '$t'"
# the old disk's partitions, as the kernel had them before the clone
addpart "$t" 1 2048 100000 && addpart "$t" 3 200000 100000 || fail "addpart"
sbc --json clone "$tmp/src.img" "$t" --apply
expect_rc 0 "a clone to a disk with partition devices"
json "all(c['state'] == 'PASS' for c in d['checks'])" "every check passes"
kparts_same "$t" "after --apply"
check "the old disk's partition 3 is gone" test ! -e "/sys/block/${t#/dev/}/${t#/dev/}p3"
uuid=$(python3 -c "import json; print(json.load(open('$tmp/out'))['partitions'][1]['target_uuid'])")
check "the kernel's p2 holds the new file system" \
	test "$(blkid -p -o value -s UUID "${t}p2" 2>/dev/null)" = "$uuid"
fsck_clean "the copy, through its partition device" "${t}p2"
check "the source untouched" test "$(sum_of "$tmp/src.img")" = "$src_sum"

# --- no loop driver ------------------------------------------------------------------------
# noloop CMD...: CMD where /dev/loop-control answers no loop ioctl (this machine's loop driver
# is in use by others: it cannot be unloaded for the test). Where / is no mount point (a
# chroot) unshare cannot make it private; /dev, the bind's parent, is made private instead,
# so the bind never reaches the rest of the machine.
noloop() {
	timeout 300 unshare -m --propagation unchanged sh -c \
		'{ mount --make-rprivate / 2>/dev/null || mount --make-rprivate /dev; } &&
		mount --bind /dev/null /dev/loop-control && exec "$@"' sh "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
srcloop=$(losetup -f --show -P -r "$tmp/src.img") || { fail "losetup -P the source"; finish; }
at_exit "loop_detach '$srcloop'"
addpart "$srcloop" 1 8192 131072 && addpart "$srcloop" 2 139264 270336 || fail "addpart source"
truncate -s 400M "$tmp/t2.img"
t2=$(losetup -f --show -P "$tmp/t2.img") || { fail "losetup -P"; finish; }
at_exit "loop_detach '$t2'"
noloop "$bin" --json clone "$srcloop" "$t2" --apply
expect_rc 0 "no loop driver: a clone between two disks with partition devices"
json "all(c['state'] == 'PASS' for c in d['checks'])" "no loop driver: every check passes"
kparts_same "$t2" "no loop driver"
check "no loop driver: the source untouched" test "$(sum_of "$tmp/src.img")" = "$src_sum"

noloop "$bin" clone "$srcloop" "$tmp/img.img" --apply
expect_rc 1 "no loop driver: a clone to an image"
if [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "loop devices are needed for the image's partitions.*modprobe loop" "$tmp/err"
then ok; else fail "no loop driver, an image: one line naming the loop driver"; cat "$tmp/err"; fi
check "no loop driver, an image: nothing written" test ! -e "$tmp/img.img"
noloop "$bin" clone "$srcloop" "$tmp/img.img"
expect_rc 0 "no loop driver: the dry run"
grep_out "loop devices are needed for the image's partitions" out "the dry run warns"
finish
