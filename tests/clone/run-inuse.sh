#!/bin/bash
# run-inuse.sh - the one in-use oracle (issue 34, 1 and 10): an image whose partition is
# mounted through `mount -o loop,offset=...` (the usual way to edit an image) is in use
# through every other name: a second loop device over the same file is refused by
# bench --destructive, verify --destructive and clone, and so is the image file as clone's
# target; nothing is written. Two clones to one image, one through a loop device over it,
# are refused by the image's lock. With the mount gone, the same target is accepted.
. "$(dirname "$0")/lib.sh"
clone_need

mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage src"; finish; }
mkimage "$tmp/disk.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage disk"; finish; }
mkdir -p "$tmp/mnt"
# read-only: the file system writes nothing of its own, so any change is ours. Mounted
# first: mount(8) refuses a loop device over a file that another one already covers,
# losetup(8) does not
mount -o loop,ro,noload,offset=$((139264 * 512)) "$tmp/disk.img" "$tmp/mnt" ||
	skip "mount -o loop,offset= failed"
at_exit "umount '$tmp/mnt' 2>/dev/null"
loop_attach "$tmp/disk.img" || { fail "losetup"; finish; }
whole=$loopdev
sum0=$(sum_of "$tmp/disk.img")

refused() { # WHAT: exit 1, one line naming the mount and the shared file, disk.img unchanged
	expect_rc 1 "$1"
	if grep -q "over the same file $tmp/disk.img" "$tmp/err" &&
		grep -q "is mounted on $tmp/mnt" "$tmp/err"; then ok; else
		fail "$1: not named the loop device over the same file and its mount:"
		sed 's/^/  err: /' "$tmp/err" | head -3
	fi
	check "$1: disk.img unchanged" test "$(sum_of "$tmp/disk.img")" = "$sum0"
}

sb bench "$whole" --destructive --engine psync --size 1m --test rw=write,bs=4k,time=0.1s
refused "bench --destructive on a loop device over a mounted image"
sb verify "$whole" --destructive --size 4m
refused "verify --destructive on a loop device over a mounted image"
sbc clone "$tmp/src.img" "$whole" --apply
refused "clone to a loop device over a mounted image"
sbc clone "$tmp/src.img" "$tmp/disk.img" --apply
refused "clone to an image mounted through a loop device"
# the same image by a relative name
(cd "$tmp" && sbc clone src.img ./disk.img --apply)
refused "clone to the mounted image by a relative name"

umount "$tmp/mnt"
# two clones to one image (issue 34, 10): another clone holds disk.img's lock (flock, as
# clone_image_hold takes it); a clone to the loop device over it is refused, nothing written
if command -v flock >/dev/null; then
	flock -n "$tmp/disk.img" -c "echo held >'$tmp/held'; sleep 60" &
	holder=$!
	at_exit "kill $holder 2>/dev/null"
	for _ in $(seq 50); do [ -s "$tmp/held" ] && break; sleep 0.1; done
	sbc clone "$tmp/src.img" "$whole" --apply
	expect_rc 1 "a clone to the loop device while another clone holds the image"
	grep_out "being written by another clone" err "two clones: the lock named"
	check "two clones: disk.img unchanged" test "$(sum_of "$tmp/disk.img")" = "$sum0"
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
else
	echo "note: the two-clones case skipped (no flock)"
fi

# nothing uses it now: the same target is planned
sbc clone "$tmp/src.img" "$whole"
expect_rc 0 "the loop device, the image no longer mounted: planned"

# an image source named by a relative path or a symbolic link, its root mounted read-write
# through a loop device over the file (issue 34, 6): found mounted by the file's identity,
# so the root is copied by files, not block by block under a live file system
p2off=$((139264 * 512))
if part=$(losetup -f --show -o $p2off "$tmp/src.img") && at_exit "loop_detach '$part'" &&
	mkdir -p "$tmp/live" && mount "$part" "$tmp/live"; then
	at_exit "umount '$tmp/live' 2>/dev/null"
	ln -s src.img "$tmp/srclink.img"
	for name in src.img ./src.img srclink.img "$tmp/srclink.img"; do
		(cd "$tmp" && sbc --json clone "$name" "$tmp/copy.img")
		expect_rc 0 "source '$name', its root mounted read-write: planned"
		json "d['partitions'][1]['mounted'] and d['partitions'][1]['method'] == 'files'" \
			"source '$name': its mounted root is copied by files"
	done
	# an overlay whose upper directory is on the source: an image in it would be copied
	# into itself
	mkdir -p "$tmp/live/upper" "$tmp/live/work" "$tmp/lower" "$tmp/ov"
	if mount -t overlay overlay -o "lowerdir=$tmp/lower,upperdir=$tmp/live/upper,workdir=$tmp/live/work" \
		"$tmp/ov" 2>/dev/null; then
		at_exit "umount '$tmp/ov' 2>/dev/null"
		sbc clone "$tmp/src.img" "$tmp/ov/backup.img" --apply
		expect_rc 1 "an image target on an overlay whose upper directory is on the source"
		grep_out "is on a file system of the source" err "overlay: the reason"
		check "overlay: no image made" test ! -e "$tmp/ov/backup.img"
		check "overlay: nothing in the upper directory" test ! -e "$tmp/live/upper/backup.img"
		umount "$tmp/ov"
	else
		echo "note: the overlay case skipped (no overlayfs)"
	fi
	umount "$tmp/live"
else
	fail "cannot mount the source's root through a loop device"
fi
finish
