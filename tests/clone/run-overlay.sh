#!/bin/bash
# run-overlay.sh - one image file named through an overlay and through its upper directory
# (issue 34, 1 and 6): a loop device over /merged/disk.img writes the upper directory's
# disk.img, which has another device and inode number than the name the overlay shows. With
# the upper file's p2 mounted (mount -o loop,offset=...), bench --destructive and verify
# --destructive on a loop device over the merged name, and clone to the merged name, are
# refused and write nothing; so is verify on a loop device over the upper name while the
# merged name is the one mounted, and a clone from the upper name to the merged one.
. "$(dirname "$0")/lib.sh"
clone_need

mkdir -p "$tmp/lower" "$tmp/upper" "$tmp/work" "$tmp/merged" "$tmp/mnt"
mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage src"; finish; }
mkimage "$tmp/lower/disk.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage disk"; finish; }
mount -t overlay overlay -o "lowerdir=$tmp/lower,upperdir=$tmp/upper,workdir=$tmp/work" \
	"$tmp/merged" 2>/dev/null || skip "no overlayfs here"
at_exit "umount '$tmp/merged' 2>/dev/null"
# copied up, as the first write through the merged name does
python3 -c "import sys; f = open(sys.argv[1], 'r+b'); b = f.read(1); f.seek(0); f.write(b)" \
	"$tmp/merged/disk.img"
check "the image is copied up" test -f "$tmp/upper/disk.img"
p2off=$((139264 * 512))

# read-only: the file system writes nothing of its own, so any change is ours
mount -o loop,ro,noload,offset=$p2off "$tmp/upper/disk.img" "$tmp/mnt" ||
	skip "mount -o loop,offset= failed"
at_exit "umount '$tmp/mnt' 2>/dev/null"
loop_attach "$tmp/merged/disk.img" || { fail "losetup over the merged name"; finish; }
merged=$loopdev
sum0=$(sum_of "$tmp/upper/disk.img")

refused() { # WHAT: exit 1, one line naming the mount, the image unchanged
	expect_rc 1 "$1"
	if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "is mounted on $tmp/mnt" "$tmp/err"; then
		ok
	else
		fail "$1: not one line naming the mount:"; sed 's/^/  err: /' "$tmp/err" | head -3
	fi
	check "$1: the image unchanged" test "$(sum_of "$tmp/upper/disk.img")" = "$sum0"
}

sb bench "$merged" --destructive --engine psync --size 1m --test rw=write,bs=4k,time=0.1s \
	--no-save
refused "bench --destructive on a loop device over the merged name"
sb verify "$merged" --destructive
refused "verify --destructive on a loop device over the merged name"
sbc clone "$tmp/src.img" "$tmp/merged/disk.img" --apply
refused "clone to the image by its merged name"
loop_detach "$merged"
umount "$tmp/mnt"

# the other way round: the merged name mounted, the upper name written
mount -o loop,ro,noload,offset=$p2off "$tmp/merged/disk.img" "$tmp/mnt" ||
	{ fail "mount through the merged name"; finish; }
loop_attach "$tmp/upper/disk.img" || { fail "losetup over the upper name"; finish; }
sb verify "$loopdev" --destructive
refused "verify --destructive on a loop device over the upper name, the merged one mounted"
loop_detach "$loopdev"
umount "$tmp/mnt"

# one file by its two names is the source and the target: not copied into itself
sbc clone "$tmp/upper/disk.img" "$tmp/merged/disk.img"
expect_rc 1 "clone from the upper name to the merged name"
grep_out "is the source, or overlaps it" err "upper to merged: the target is the source"
check "upper to merged: the image unchanged" test "$(sum_of "$tmp/upper/disk.img")" = "$sum0"

# nothing uses it now: the same loop device is written (the oracle does not refuse all)
loop_attach "$tmp/merged/disk.img" || { fail "losetup over the merged name"; finish; }
sb verify "$loopdev" --destructive
expect_rc 0 "verify --destructive over the merged name, nothing mounted"
finish
