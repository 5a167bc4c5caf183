#!/bin/bash
# run-signals.sh - a live clone (the source mounted read-write, copied by files onto the
# target mounted through a loop device) ended by SIGHUP (an ssh session that drops), SIGQUIT,
# SIGPIPE and SIGKILL in the middle of the copy: the system is left with no mount of the
# target and no loop device of it, the target with no partition table, the source as it was.
# The source is read at 4 MB/s (cgroup v1 blkio throttle) so the copy is still going when
# the signal comes. About 40 s.
. "$(dirname "$0")/lib.sh"
clone_need

cg=/sys/fs/cgroup/blkio
if ! [ -w "$cg/cgroup.procs" ] || ! [ -e "$cg/blkio.throttle.read_bps_device" ]; then
	skip "no cgroup v1 blkio throttle to keep the copy running"
fi
mkdir "$cg/sbcdisk-sig.$$" || { fail "mkdir $cg/sbcdisk-sig.$$"; finish; }
cg=$cg/sbcdisk-sig.$$
at_exit "rmdir '$cg'"

# what a killed clone of the old code left: its mounts and loop devices, taken away here
leftovers() {
	local m l
	for m in $(awk -v t="$tmp/mnts/" 'index($5, t) == 1 { print $5 }' /proc/self/mountinfo); do
		umount -l "$m"
	done
	for l in $(losetup -nO NAME -j "$1"); do loop_detach "$l"; done
}

mkimage "$tmp/src.img" dos 400 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
live_part "$tmp/src.img" 400 || { fail "losetup"; finish; }
mnt=$tmp/mnt
mkdir -p "$mnt" "$tmp/mnts"
mount "$part" "$mnt" || { fail "mount the source"; finish; }
at_exit "umount '$mnt'"
head -c $((96 << 20)) /dev/urandom >"$mnt/slow"
slow_sum=$(sum_of "$mnt/slow")
sync
pmm=$(lsblk -dno MAJ:MIN "$part" | tr -d ' ')
echo "$pmm 4000000" >"$cg/blkio.throttle.read_bps_device"
at_exit "echo '$pmm 0' >'$cg/blkio.throttle.read_bps_device'"

: >"$tmp/err" # stop_copy writes tty, not err
for s in HUP QUIT PIPE KILL; do
	tgt=$tmp/$s.img
	# SIGHUP and SIGPIPE: an image the user made before (kept, its table wiped); SIGQUIT and
	# SIGKILL: one the clone makes
	case $s in HUP | PIPE) truncate -s 512M "$tgt" ;; esac
	at_exit "leftovers '$tgt'"
	# only its pages leave the cache: the copy has to read them through the throttle
	python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)" "$mnt/slow"
	TMPDIR=$tmp/mnts stop_copy "SIG$s" "$cg" "copying p2" "$bin" clone "$srcloop" "$tgt" --apply
	# ptyrun exits with what Python makes of a child killed by the signal: 256 - 9
	if [ "$s" = KILL ]; then want=247; else want=$((128 + $(kill -l "$s"))); fi
	expect_rc "$want" "SIG$s in the middle of a live copy (98: slow to stop, 99: never saw it copy)"
	[ "$rc" = "$want" ] || tail -n 5 "$tmp/tty" | sed "s/^/  tty: /"
	# an image the clone made goes again after a stop (SIGKILL gives it no chance); one the
	# user made is kept without a table
	case $s in
	HUP | PIPE)
		grep_out "partition table is wiped" tty "SIG$s: says the target is wiped"
		check "SIG$s: the user's image is kept" test -f "$tgt" ;;
	QUIT)
		grep_out "the image it was making is removed" tty "SIG$s: says the image is removed"
		check "SIG$s: the image it made is gone" test ! -e "$tgt" ;;
	esac
	# the loop device goes once its mount and last opener are gone (udev's probe too)
	udevadm settle 2>/dev/null
	if awk -v t="$tmp/mnts/" 'index($5, t) == 1 { bad = 1; print } END { exit !bad }' \
		/proc/self/mountinfo; then fail "SIG$s: the target is still mounted"
	else ok; fi
	# the kernel detaches an autoclear loop device from a work queue after its last close:
	# a moment after the clone's exit, not at it
	for _ in $(seq 50); do losetup -a | grep -qF "$tgt" || break; sleep 0.1; done
	if losetup -a | grep -F "$tgt"; then fail "SIG$s: a loop device of the target left"
	else ok; fi
	check "SIG$s: no partition table on the target" sh -c "! sfdisk -d '$tgt' >/dev/null 2>&1"
	check "SIG$s: the source's file is the same" test "$(sum_of "$mnt/slow")" = "$slow_sum"
	leftovers "$tgt"
	rm -f "$tgt"
done

echo "$pmm 0" >"$cg/blkio.throttle.read_bps_device"
umount "$mnt" || fail "cannot unmount the source: $(fuser -vm "$mnt" 2>&1 | tail -n 3)"
cleanups=("${cleanups[@]/"umount '$mnt'"/}")
# the source device itself: written only by its own mount (the file made above), never by us
fsck_clean "the source file system" "$part"
finish
