#!/bin/bash
# run-refuse.sh - what clone refuses, in one line each, with nothing written: a target that
# holds the running system, is mounted (also through a loop device over one of its
# partitions), is swap, is held by device-mapper, is the source, is too small; a source
# mounted read-write; extended (NOOBS) layouts; several root candidates. The source's and
# the target's checksums are the same after each. About 20 s.
. "$(dirname "$0")/lib.sh"
clone_need

mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
src_sum=$(sum_of "$tmp/src.img")

# refused MESSAGE-PART DESCRIPTION [TARGET-TO-CHECKSUM]: the last run failed with one line
# naming the reason, the source is untouched and the target (a file or device) too
refused() {
	expect_rc 1 "$2"
	if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$1" "$tmp/err"; then ok; else
		fail "$2: not one line naming '$1':"; sed 's/^/  err: /' "$tmp/err" | head -3
	fi
	check "$2: nothing on stdout" test ! -s "$tmp/out"
	check "$2: source untouched" test "$(sum_of "$tmp/src.img")" = "$src_sum"
	if [ -n "${3:-}" ]; then
		check "$2: target untouched" test "$(sum_of "$3")" = "$tgt_sum"
	fi
}

truncate -s 400m "$tmp/t.img"
loop_attach "$tmp/t.img"; tgt=$loopdev
tgt_sum=$(sum_of "$tgt")

# the target is the source: the same file, the same device
sbc clone "$tmp/src.img" "$tmp/src.img" --apply
refused "is the source" "target is the source file"
loop_attach "$tmp/src.img"; srcloop=$loopdev
sbc clone "$srcloop" "$srcloop" --apply
refused "is the source" "target is the source device"
# ... reached another way: a loop device over the source file, either way round; two loop
# devices over one file; a loop at an offset inside the source; a loop over that loop (a
# chain); a device-mapper device over the source, either way round
sbc clone "$tmp/src.img" "$srcloop" --apply
refused "is the source, or overlaps it" "target a loop device over the source file"
sbc clone "$srcloop" "$tmp/src.img" --apply
refused "is the source, or overlaps it" "target the file under the source's loop device"
loop_attach "$tmp/src.img"; srcloop2=$loopdev
sbc clone "$srcloop" "$srcloop2" --apply
refused "is the source, or overlaps it" "two loop devices over one file"
loop_detach "$srcloop2"
offloop=$(losetup -f --show -o $((100 << 20)) "$tmp/src.img")
at_exit "loop_detach '$offloop'"
sbc clone "$tmp/src.img" "$offloop" --apply
refused "is the source, or overlaps it" "a loop at an offset inside the source"
chain=$(losetup -f --show "$offloop")
at_exit "loop_detach '$chain'"
sbc clone "$srcloop" "$chain" --apply
refused "is the source, or overlaps it" "a loop device over a loop inside the source"
loop_detach "$chain"
loop_detach "$offloop"
if command -v dmsetup >/dev/null && dmsetup create "sbcdisk-s$$" \
	--table "0 409600 linear $srcloop 0" 2>/dev/null; then
	at_exit "dmsetup remove 'sbcdisk-s$$'"
	sbc clone "$srcloop" "/dev/mapper/sbcdisk-s$$" --apply
	refused "is the source, or overlaps it" "target a device-mapper device over the source"
	sbc clone "/dev/mapper/sbcdisk-s$$" "$tmp/src.img" --apply
	refused "is the source, or overlaps it" "source a device-mapper device over the target"
	dmsetup remove "sbcdisk-s$$"
else
	echo "note: no device-mapper here; the dm overlap is not tested"
fi
# an image on the source's own file system (issue 26, 3): the running root's disk ...
rootdev=$(findmnt -n -o SOURCE / 2>/dev/null)
if [ -b "$rootdev" ] && [ "$(stat -c %d /)" = "$(stat -c %d "$tmp")" ] &&
	[ "$(lsblk -ndo TYPE "$rootdev")" = disk ]; then
	sbc clone / "$tmp/backup.img"
	refused "is on a file system of the source" "clone / to an image on the root"
	check "clone / to an image on the root: no image made" test ! -e "$tmp/backup.img"
else
	echo "note: / is not a whole disk holding $tmp here; 'clone / image' is not tested"
fi

# an image target that is a symbolic link (issue 26, 12): refused by the plan, the dry run
# too, whether the link leads to an image or nowhere
truncate -s 400m "$tmp/real.img"
ln -s real.img "$tmp/link.img"
ln -s nothere.img "$tmp/dangling.img"
for l in link.img dangling.img; do
	for apply in "" --apply; do
		sbc clone "$tmp/src.img" "$tmp/$l" $apply
		refused "is a symbolic link" "target $l ${apply:-(dry run)}"
	done
done
check "a symbolic link target: nothing made where it leads" test ! -e "$tmp/nothere.img"
check "a symbolic link target: the image it leads to untouched" \
	test "$(sum_of "$tmp/real.img")" = "$(head -c $((400 << 20)) /dev/zero | sha256sum | cut -d' ' -f1)"
rm -f "$tmp/real.img" "$tmp/link.img" "$tmp/dangling.img"

# too small
truncate -s 100m "$tmp/small.img"
tgt_sum_save=$tgt_sum; tgt_sum=$(sum_of "$tmp/small.img")
sbc clone "$tmp/src.img" "$tmp/small.img" --apply
refused "too small" "target too small" "$tmp/small.img"
sbc clone "$tmp/src.img" "$tmp/new.img" --root-size 20m --apply
refused "smaller than the root needs" "--root-size below the file system's size"
check "--root-size too small: no image made" test ! -e "$tmp/new.img"
tgt_sum=$tgt_sum_save

# a partition of the target mounted (through a loop device over its offset)
mke2fs -q -F -t ext4 -E offset=$((8 << 20)),lazy_itable_init=0,lazy_journal_init=0 "$tgt" 16m
mkdir -p "$tmp/mnt"
part=$(losetup -f --show -o $((8 << 20)) --sizelimit $((16 << 20)) "$tgt")
at_exit "loop_detach '$part'"
if mount "$part" "$tmp/mnt"; then
	at_exit "umount '$tmp/mnt'"
	tgt_sum=$(sum_of "$tgt")
	sbc clone "$tmp/src.img" "$tgt" --apply
	refused "is mounted on $tmp/mnt" "a partition of the target mounted" "$tgt"
	umount "$tmp/mnt"
else
	fail "cannot mount the target's partition"
fi
# ... or swap
if mkswap -q "$part" >/dev/null && swapon "$part" 2>/dev/null; then
	at_exit "swapoff '$part'"
	# (no checksum of the target here: the kernel may swap to it meanwhile)
	sbc clone "$tmp/src.img" "$tgt" --apply
	refused "is swap" "a partition of the target is swap"
	swapoff "$part"
else
	echo "note: swapon refused here; the swap refusal is not tested"
fi
loop_detach "$part"
# ... or held by device-mapper
if command -v dmsetup >/dev/null && dmsetup create "sbcdisk-t$$" \
	--table "0 8192 linear $tgt 0" 2>/dev/null; then
	at_exit "dmsetup remove 'sbcdisk-t$$'"
	tgt_sum=$(sum_of "$tgt")
	sbc clone "$tmp/src.img" "$tgt" --apply
	refused "is held by" "target held by device-mapper" "$tgt"
	dmsetup remove "sbcdisk-t$$"
else
	echo "note: no device-mapper here; the dm refusal is not tested"
fi
# ... or a loop device over a partition device of the target holds a mounted file system
# (a loop device is no holder of what it is built on: only its backing file names it)
truncate -s 400m "$tmp/tp.img"
if command -v addpart >/dev/null && tp=$(losetup -f --show -P "$tmp/tp.img") &&
	cleanups=("loop_detach '$tp'" "${cleanups[@]}") && addpart "$tp" 1 16384 32768 &&
	over=$(losetup -f --show "${tp}p1"); then
	cleanups=("loop_detach '$over'" "${cleanups[@]}")
	mke2fs -q -F -t ext4 -E lazy_itable_init=0,lazy_journal_init=0 "$over" >/dev/null
	if mount "$over" "$tmp/mnt"; then
		cleanups=("umount '$tmp/mnt'" "${cleanups[@]}")
		tgt_sum_save=$tgt_sum; tgt_sum=$(sum_of "$tp")
		sbc clone "$tmp/src.img" "$tp" --apply
		refused "is mounted on $tmp/mnt" "a loop device over a partition of the target" "$tp"
		tgt_sum=$tgt_sum_save
		umount "$tmp/mnt"
	else
		fail "cannot mount the loop device over the target's partition"
	fi
	loop_detach "$over"
else
	echo "note: no partition devices on loop devices here; a loop over one is not tested"
fi
[ -n "${tp:-}" ] && loop_detach "$tp"
rm -f "$tmp/tp.img"

# the target holds the running system
rootdev=$(findmnt -n -o SOURCE / 2>/dev/null)
if [ -b "$rootdev" ] && dd if="$rootdev" of=/dev/null count=1 status=none 2>/dev/null; then
	sbc clone "$tmp/src.img" "$rootdev" --apply
	if grep -q "is a partition" "$tmp/err"; then
		refused "is a partition" "target is a partition (the root's)"
	else
		refused "holds the running system" "target holds the running system"
	fi
else
	echo "note: / is not on a block device here; the running-system refusal is not tested"
fi

# the source mounted read-write (p2 through a loop device over its offset)
part=$(losetup -f --show -o $((139264 * 512)) --sizelimit $((200 * 1048576 - 139264 * 512)) "$srcloop")
at_exit "loop_detach '$part'"
if mount -o ro,noload "$part" "$tmp/mnt"; then
	at_exit "umount '$tmp/mnt'"
	# ... and an image on a partition of the source mounted through a loop device
	sbc clone "$srcloop" "$tmp/mnt/home/pi/backup.img" --apply
	refused "is on a file system of the source" "an image on the source's mounted p2"
	tgt_sum=$(sum_of "$tgt")
	sbc --json clone "$srcloop" "$tgt"
	expect_rc 0 "a source mounted read-only is fine"
	json "d['partitions'][1]['mounted'] and d['partitions'][1]['method'] == 'used blocks'" \
		"mounted read-only: copied by used blocks"
	umount "$tmp/mnt"
	# read-write (a live root): not a block copy; its files into a fresh ext4, twice
	mount "$part" "$tmp/mnt" && echo changed >"$tmp/mnt/home/pi/live.txt"
	# more than a second before the clone: its second pass then finds no file to copy again
	# (an empty list, which once went to qsort as NULL: UBSan's "null pointer passed")
	sleep 1.2
	sbc --json clone "$srcloop" "$tmp/live.img" --apply
	expect_rc 0 "a source mounted read-write: copied by files"
	json "d['partitions'][1]['method'] == 'files' and d['window_s'] is not None" \
		"mounted read-write: files, and the window reported"
	json "all(c['state'] == 'PASS' for c in d['checks'])" "live copy: every check passes"
	json "d['partitions'][1]['target_size_bytes'] <= d['partitions'][1]['used_bytes'] + (257 << 20)" "live copy: the root sized to its data"
	check "live copy: the new file is on the target" sh -c \
		"debugfs -R 'cat /home/pi/live.txt' '$tmp/live.img?offset=$((139264 * 512))' 2>/dev/null | grep -q changed"
	# two clones to one image at once (issue 26, 8): a second clone, run while the first
	# is between its two passes, is refused in one line and the first one's copy is sound;
	# the image is new (made by the first one's plan), then one that is there already
	for img in live2.img live.img; do
		rm -f "$tmp/live2.img"
		SBCDISK_TEST_BETWEEN_PASSES="env -u SBCDISK_TEST_BETWEEN_PASSES '$bin' clone \
			'$srcloop' '$tmp/$img' --apply >'$tmp/out2' 2>'$tmp/err2'; echo \$? >'$tmp/rc2'" \
			sbc --json clone "$srcloop" "$tmp/$img" --apply
		expect_rc 0 "two clones to $img: the first"
		json "all(c['state'] == 'PASS' for c in d['checks'])" \
			"two clones to $img: the first one's checks pass"
		check "two clones to $img: the second exits 1" test "$(cat "$tmp/rc2")" = 1
		if [ "$(wc -l <"$tmp/err2")" -eq 1 ] && grep -q "being written by another clone" \
			"$tmp/err2"; then ok; else
			fail "two clones to $img: the second not one line naming the lock:"
			sed 's/^/  err: /' "$tmp/err2" | head -3
		fi
		check "two clones to $img: nothing on the second's stdout" test ! -s "$tmp/out2"
	done
	# a clone stopped (issue 26, 12): the image it made is removed
	rm -f "$tmp/live2.img"
	SBCDISK_TEST_BETWEEN_PASSES='kill -TERM $PPID' sbc clone "$srcloop" "$tmp/live2.img" --apply
	expect_rc 143 "SIGTERM between the passes"
	check "SIGTERM between the passes: says the image is removed" \
		grep -q "the image it was making is removed" "$tmp/err"
	check "SIGTERM between the passes: the image made is gone" test ! -e "$tmp/live2.img"
	umount "$tmp/mnt"
else
	fail "cannot mount the source's partition"
fi
loop_detach "$part"
loop_detach "$srcloop"
src_sum=$(sum_of "$tmp/src.img")

# a clone that fails after the copy (issue 26, 12; here tune2fs fails): the image it made
# is removed, an image the user named is kept and the message says what it holds
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "tune2fs: made to fail" >&2\nexit 1\n' >"$tmp/bin/tune2fs"
chmod +x "$tmp/bin/tune2fs"
PATH="$tmp/bin:$PATH" sbc clone "$tmp/src.img" "$tmp/failed.img" --apply
expect_rc 1 "a failed clone to a new image"
if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "made to fail; the image it was making is removed" \
	"$tmp/err"; then ok; else
	fail "a failed clone: not one line saying the image is removed:"
	sed 's/^/  err: /' "$tmp/err" | head -3
fi
check "a failed clone: the image it made is gone" test ! -e "$tmp/failed.img"
truncate -s 300m "$tmp/failed.img"
PATH="$tmp/bin:$PATH" sbc clone "$tmp/src.img" "$tmp/failed.img" --apply
expect_rc 1 "a failed clone to an image that was there"
check "a failed clone to an image that was there: says what it holds" \
	grep -q "made to fail; the target holds no usable copy (no partition table)" "$tmp/err"
check "a failed clone to an image that was there: kept" test -e "$tmp/failed.img"
check "a failed clone: source untouched" test "$(sum_of "$tmp/src.img")" = "$src_sum"

# a NOOBS-style layout (an extended partition with logical ones): refused, --whole copies it
truncate -s 64m "$tmp/noobs.img"
printf 'label: dos\nstart=8192, size=16384, type=c\nstart=24576, type=5\nstart=26624, size=8192, type=c\nstart=36864, type=83\n' |
	sfdisk -q "$tmp/noobs.img" >/dev/null
noobs_sum=$(sum_of "$tmp/noobs.img")
sbc clone "$tmp/noobs.img" "$tmp/n2.img" --apply
refused "extended partition" "NOOBS layout"
check "NOOBS: no image made" test ! -e "$tmp/n2.img"
sbc --json clone "$tmp/noobs.img" "$tmp/n2.img" --whole --apply
expect_rc 0 "NOOBS layout with --whole"
check "--whole: a copy of every byte" test "$(sum_of "$tmp/n2.img")" = "$noobs_sum"

# several root candidates, and root= names none of them
mkimage "$tmp/three.img" dos 200 /dev/nfs p3 || fail "mkimage three"
sbc clone "$tmp/three.img" "$tmp/three2.img"
refused "root candidates" "several root candidates"
mkimage "$tmp/three.img" dos 200 PARTUUID=0badc0de-03 p3 || fail "mkimage three"
sbc --json clone "$tmp/three.img" "$tmp/three2.img"
expect_rc 0 "several ext partitions, root= names one"
json "d['partitions'][2]['root']" "root= settles which is the root"

# usage
sbc clone
expect_rc 2 "no target"
sbc clone a b c
expect_rc 2 "three names"
sbc clone "$tmp/src.img" x.img --verify some
expect_rc 2 "bad --verify"
finish
