#!/bin/bash
# run-faults.sh - clone stopped or failing half-way: SIGINT and SIGTERM during the copy (the
# source held to 4 MB/s by the kernel's I/O throttle, cgroup v1 blkio, so that the copy is
# still running when the signal comes) leave the target without a partition table and say
# so; a target without room for the image is refused by the plan; a target that goes away
# mid-copy (its loop device's backing file cut to nothing) is one line and exit 1; the source
# is the same after each. About 60 s.
. "$(dirname "$0")/lib.sh"
clone_need

mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
src_sum=$(sum_of "$tmp/src.img")

# --- a full target: an image file on an 8 MiB tmpfs (the copy writes about 20) ------------
mkdir -p "$tmp/small"
if mount -t tmpfs -o size=8m tmpfs "$tmp/small"; then
	at_exit "umount '$tmp/small'"
	# refused by the plan (issue 26, 3), the dry run too, before anything is written
	for apply in "" --apply; do
		sbc clone "$tmp/src.img" "$tmp/small/dst.img" $apply
		expect_rc 1 "a full target ${apply:-(dry run)}"
		if [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
			grep -Eq "its file system has [0-9.]+M free, the image needs about" "$tmp/err"
		then ok; else fail "full target: one line naming the room needed"; cat "$tmp/err"; fi
		check "full target: no image made" test ! -e "$tmp/small/dst.img"
	done
	check "full target: source untouched" test "$(sum_of "$tmp/src.img")" = "$src_sum"
	umount "$tmp/small"
else
	fail "cannot mount a tmpfs"
fi

# --- signals during the copy ----------------------------------------------------------------
cg=/sys/fs/cgroup/blkio
if ! [ -w "$cg/cgroup.procs" ] || ! [ -e "$cg/blkio.throttle.read_bps_device" ] ||
	! mkdir "$cg/sbcdisk-clone.$$" 2>/dev/null; then
	echo "skip: no cgroup v1 blkio throttle for the signal cases"
	finish
fi
cg=$cg/sbcdisk-clone.$$
at_exit "rmdir '$cg'"
loop_attach "$tmp/src.img"; srcloop=$loopdev
majmin=$(lsblk -dno MAJ:MIN "$srcloop" | tr -d ' ')
echo "$majmin 4000000" >"$cg/blkio.throttle.read_bps_device"
truncate -s 400m "$tmp/t.img"
loop_attach "$tmp/t.img"; tgt=$loopdev
# an old table on the target, as a disk people reuse has
printf 'label: dos\nstart=8192, type=83\n' | sfdisk -q "$tgt" >/dev/null 2>&1

for s in INT TERM; do
	stop_copy "SIG$s" "$cg" "copying p" "$bin" clone "$srcloop" "$tgt" --apply
	want=$((128 + $(kill -l "$s")))
	expect_rc "$want" "SIG$s during the copy"
	grep_out "partition table is wiped" tty "SIG$s: says the target is wiped"
	check "SIG$s: no partition table on the target" sh -c "! sfdisk -d '$tgt' >/dev/null 2>&1"
	check "SIG$s: its first MiB is zero" sh -c \
		"cmp -s -n 1048576 '$tgt' /dev/zero"
	check "SIG$s: source untouched" test "$(sum_of "$srcloop")" = "$src_sum"
	check "SIG$s: no loop device of ours left" sh -c "! losetup -a | grep -q 'offset'.*'$tmp'"
done

# --- the target goes away mid-copy ---------------------------------------------------------
stop_copy "cut:$tmp/t.img:$tgt" "$cg" "copying p" "$bin" clone "$srcloop" "$tgt" --apply
expect_rc 1 "target gone mid-copy"
tr '\r' '\n' <"$tmp/tty" | sed 's/\x1b\[K//g' | grep -v '^copying\|^$' >"$tmp/lines"
if [ "$(wc -l <"$tmp/lines")" -eq 1 ] && grep -q "target '$tgt' went away during the clone" "$tmp/lines"
then ok; else fail "target gone: one line saying so"; cat "$tmp/tty"; fi
check "target gone: source untouched" test "$(sum_of "$srcloop")" = "$src_sum"
check "target gone: no loop device of ours left" sh -c "! losetup -a | grep -q 'offset'.*'$tmp'"
echo "$majmin 0" >"$cg/blkio.throttle.read_bps_device"
finish
