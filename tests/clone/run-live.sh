#!/bin/bash
# run-live.sh - clone of a source mounted read-write (a live root), copied by files: every
# kind of object (hard links, ACLs, user xattrs, a file capability, a sparse file, symlinks,
# device nodes, a FIFO, a socket, setuid, nanosecond times, a nested mount not crossed) with
# every attribute compared; the second pass picks up what changed, was added or removed
# between the passes (SBCDISK_TEST_BETWEEN_PASSES); 33 001 names of one file; a full target,
# SIGINT between the passes and in the middle of the first one. About 40 s.
. "$(dirname "$0")/lib.sh"
clone_need

mkimage "$tmp/src.img" dos 700 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
live_part "$tmp/src.img" 700 || { fail "losetup"; finish; }
mnt=$tmp/mnt
mkdir -p "$mnt" "$tmp/t"
# features mke2fs -t ext4 would not choose: the target must carry them all the same
tune2fs -O large_dir,fast_commit,^huge_file,^dir_nlink "$part" >/dev/null 2>&1 &&
	e2fsck -fy "$part" >/dev/null 2>&1
mount "$part" "$mnt" || { fail "mount the source"; finish; }
at_exit "umount '$mnt'"

# --- the tree: one of everything --------------------------------------------------------
t=$mnt/t
mkdir -p "$t/a/b" "$t/rmdir/sub" "$t/sgid" "$t/nested"
echo one >"$t/a/hl1"
ln "$t/a/hl1" "$t/a/b/hl2"
ln "$t/a/hl1" "$t/hl3"
echo "file with an acl" >"$t/acl"
echo "file with a user xattr" >"$t/ux"
head -c 5000 /dev/urandom >"$t/capfile"
chmod 755 "$t/capfile"
# sparse: 64 MiB with 8 KiB of data in the middle
truncate -s 64M "$t/sparse"
head -c 8192 /dev/urandom | dd of="$t/sparse" bs=4096 seek=4096 conv=notrunc status=none
ln -s a/hl1 "$t/symlink"
ln -s /nowhere/at/all "$t/dangling"
mknod "$t/chr" c 1 3
mknod "$t/blk" b 7 200
mkfifo "$t/fifo"
python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$t/sock"
head -c 3000 /dev/urandom >"$t/suid"
chown 4321:4322 "$t/suid"
chmod 4755 "$t/suid"
chown 1000:1000 "$t/sgid"
chmod 2775 "$t/sgid"
echo in-sgid >"$t/sgid/f"
chown -h 1234:1234 "$t/symlink"
for i in $(seq 1 300); do echo "$i" >"$t/a/b/small$i"; done
# one file with more names than the copy sorts in one batch (32 768): the names of a later
# batch must still be links to the first copy
mkdir "$t/links"
echo "many names" >"$t/links/0"
python3 -c "import os,sys; [os.link(sys.argv[1] + '/0', '%s/%d' % (sys.argv[1], i)) for i in range(1, 33001)]" \
	"$t/links" || fail "making 33 000 hard links"
echo removed >"$t/removed"
echo removed >"$t/rmdir/sub/f"
echo "same size" >"$t/samesize"
echo "grows" >"$t/changed"
python3 - "$t" <<'PY' || fail "setting xattrs"
import os, struct, sys
t = sys.argv[1]
def acl(entries):
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *e) for e in entries)
U = 0xFFFFFFFF
access = acl([(1, 7, U), (2, 6, 1234), (4, 4, U), (8, 5, 2345), (0x10, 7, U), (0x20, 4, U)])
os.setxattr(t + "/acl", "system.posix_acl_access", access)
os.setxattr(t + "/a", "system.posix_acl_default", access)
os.setxattr(t + "/a", "system.posix_acl_access", access)
os.setxattr(t + "/ux", "user.comment", b"hello \x00 binary \xff")
os.setxattr(t + "/a/b", "user.dir", b"on a directory")
os.setxattr(t + "/fifo", "trusted.special", b"on a fifo")
# a file capability (cap_net_raw, effective), raw: VFS_CAP_REVISION_2
os.setxattr(t + "/capfile", "security.capability",
            struct.pack("<IIIII", 0x02000001, 1 << 13, 0, 0, 0))
PY
# nanosecond times, directories' after their contents
for f in a/hl1 ux sparse suid chr fifo sock a/b a sgid; do
	touch -h -d "2021-03-04 05:06:07.123456789" "$t/$f"
done
touch -h -d "2019-01-01 00:00:00.987654321" "$t/symlink"
touch -d "2020-02-02 02:02:02.000000001" "$t/samesize"
# a nested mount: its files must not be copied, its mount point must be there
mount -t tmpfs -o size=4m tmpfs "$t/nested" && at_exit "umount '$t/nested'"
echo "not to be copied" >"$t/nested/inside"
sync

# between the passes: one file grows, one changes keeping its size and mtime, one is added,
# one hard link is added, a file and a directory go
hook="echo more >>'$t/changed'; printf 'SAME SIZE\n' >'$t/samesize'"
hook+="; touch -d '2020-02-02 02:02:02.000000001' '$t/samesize'"
hook+="; echo added >'$t/added'; ln '$t/a/hl1' '$t/hl4'; rm '$t/removed'; rm -r '$t/rmdir'"


SBCDISK_TEST_BETWEEN_PASSES=$hook sbc --json clone "$srcloop" "$tmp/live.img" --apply
expect_rc 0 "a live clone"
cat "$tmp/err"
json "d['partitions'][1]['method'] == 'files' and d['window_s'] is not None" \
	"copied by files, the window reported"
json "all(c['state'] == 'PASS' for c in d['checks'])" "every check passes"
toff=$(python3 -c "import json; print(json.load(open('$tmp/out'))['partitions'][1]['target_start_bytes'])")
tsz=$(python3 -c "import json; print(json.load(open('$tmp/out'))['partitions'][1]['target_size_bytes'])")

# the target file system: the source's features, its label
feat() { dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Filesystem features: *//p' | tr ' ' '\n' |
	grep -v '^needs_recovery$' | sort | tr '\n' ' '; }
fs=$(feat "$tmp/src.img?offset=$p2off") ft=$(feat "$tmp/live.img?offset=$toff")
check "target made with the source's features ($fs)" test -n "$fs" -a "$fs" = "$ft"
check "target keeps the label" test "$(blkid -p -o value -s LABEL -O "$toff" "$tmp/live.img")" = rootfs

tpart=$(losetup -f --show -r -o "$toff" --sizelimit "$tsz" "$tmp/live.img") ||
	{ fail "losetup target"; finish; }
at_exit "loop_detach '$tpart'"
mount -o ro "$tpart" "$tmp/t" || { fail "mount the target"; finish; }
at_exit "umount '$tmp/t'"

# every attribute of every object compared (atime aside: reading the source may move it)
python3 - "$mnt" "$tmp/t" <<'PY' >"$tmp/cmp" 2>&1 || fail "trees differ: $(head -5 "$tmp/cmp")"
import os, stat, sys, hashlib
src, dst = sys.argv[1], sys.argv[2]
bad = []
def attrs(root, rel):
    p = os.path.join(root, rel)
    st = os.lstat(p)
    a = {"mode": st.st_mode, "uid": st.st_uid, "gid": st.st_gid, "mtime": st.st_mtime_ns,
         "nlink": st.st_nlink}
    if not stat.S_ISDIR(st.st_mode):
        a["size"] = st.st_size
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        a["rdev"] = st.st_rdev
    if stat.S_ISLNK(st.st_mode):
        a["link"] = os.readlink(p)
    if stat.S_ISREG(st.st_mode):
        a["sha"] = hashlib.sha256(open(p, "rb").read()).hexdigest()
    a["xattrs"] = {n: os.getxattr(p, n, follow_symlinks=False)
                   for n in sorted(os.listxattr(p, follow_symlinks=False))}
    return a, st
seen = 0
groups = {}
for root, dirs, files in os.walk(src):
    rel = os.path.relpath(root, src)
    if rel == "t/nested":
        dirs[:] = []
        files = []
        if os.listdir(os.path.join(dst, rel)):
            bad.append("the nested mount was crossed")
    for n in [""] + dirs + files:
        r = os.path.normpath(os.path.join(rel, n))
        if r == "t/nested" and n:
            continue
        if r in ("etc", "etc/fstab"):
            continue  # rewritten on the target: checked below
        a, st = attrs(src, r)
        try:
            b, dt = attrs(dst, r)
        except FileNotFoundError:
            bad.append("missing on the target: " + r)
            continue
        seen += 1
        if a != b:
            bad.append("%s: %s" % (r, {k: (a.get(k), b.get(k)) for k in a if a.get(k) != b.get(k)}))
        if st.st_nlink > 1 and not stat.S_ISDIR(st.st_mode):
            groups.setdefault(st.st_ino, set()).add(dt.st_ino)
for root, dirs, files in os.walk(dst):
    for n in dirs + files:
        r = os.path.normpath(os.path.join(os.path.relpath(root, dst), n))
        if not os.path.lexists(os.path.join(src, r)):
            bad.append("only on the target: " + r)
for ino, d in groups.items():
    if len(d) != 1:
        bad.append("hard links split: %s" % d)
if seen < 33330:
    bad.append("only %d objects compared" % seen)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
ok
st_t=$(stat -c %b "$tmp/t/t/sparse") st_s=$(stat -c %b "$t/sparse")
check "the sparse file keeps its hole ($st_t blocks on the target, $st_s on the source)" \
	test "$st_t" -le $((st_s + 16)) -a "$st_t" -lt 1024
check "the capability reads back" sh -c "getcap '$tmp/t/t/capfile' | grep -q cap_net_raw"
check "setuid kept after the owner" test -u "$tmp/t/t/suid" -a "$(stat -c %u "$tmp/t/t/suid")" = 4321
check "second pass: the added file" grep -qx added "$tmp/t/t/added"
check "second pass: the grown file" sh -c "test \"\$(cat '$tmp/t/t/changed')\" = \"\$(printf 'grows\nmore')\""
check "second pass: a change of the same size and mtime (by its ctime)" grep -qx "SAME SIZE" "$tmp/t/t/samesize"
check "second pass: the new hard link" test "$tmp/t/t/hl4" -ef "$tmp/t/t/a/hl1"
check "second pass: the removed file goes" test ! -e "$tmp/t/t/removed"
check "second pass: the removed directory goes" test ! -e "$tmp/t/t/rmdir"
check "33 001 names of one file: one file on the target" \
	test "$(stat -c %h "$tmp/t/t/links/33000")" = 33001 -a "$tmp/t/t/links/33000" -ef "$tmp/t/t/links/0"
check "the nested mount's file not copied" test ! -e "$tmp/t/t/nested/inside" -a -d "$tmp/t/t/nested"
check "the rewritten fstab" grep -q "^PARTUUID=$(python3 -c "import json; print(json.load(open('$tmp/out'))['partitions'][1]['target_partuuid'])") " "$tmp/t/etc/fstab"
umount "$tmp/t"; loop_detach "$tpart"
cleanups=("${cleanups[@]:2}")

# --- a full target: what is added between the passes does not fit ------------------------
# the root is sized to the data plus 256 MiB; 320 MiB more comes in before the second pass
rm -f "$tmp/full.img"
SBCDISK_TEST_BETWEEN_PASSES="dd if=/dev/zero of='$t/huge' bs=1M count=320 status=none" \
	sbc clone "$srcloop" "$tmp/full.img" --apply
expect_rc 1 "a full target"
if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "No space left on device" "$tmp/err"
then ok; else fail "full target: one line naming ENOSPC"; cat "$tmp/err"; fi
check "full target: the image it made is removed" test ! -e "$tmp/full.img"
rm -f "$t/huge" "$tmp/full.img"

# --- SIGINT between the passes: stops at once, the image it made removed ------------------
SBCDISK_TEST_BETWEEN_PASSES='kill -INT $PPID' sbc clone "$srcloop" "$tmp/int.img" --apply
expect_rc 130 "SIGINT during a live copy"
grep_out "the image it was making is removed" err "SIGINT: says the image is removed"
check "SIGINT: the image it made is gone" test ! -e "$tmp/int.img"
# a loop device's autoclear waits for the last opener (udev's probe of it) to close it
udevadm settle 2>/dev/null
if losetup -a | grep "$tmp/[a-z]*\.img.*offset"; then fail "a loop device of ours left"; else ok; fi

# --- SIGINT in the middle of the first pass: the source read at 4 MB/s (the kernel's I/O
# throttle, cgroup v1 blkio) so that the walk is still going when the signal comes ----------
cg=/sys/fs/cgroup/blkio
if [ -w "$cg/cgroup.procs" ] && [ -e "$cg/blkio.throttle.read_bps_device" ] &&
	mkdir "$cg/sbcdisk-live.$$" 2>/dev/null; then
	cg=$cg/sbcdisk-live.$$
	at_exit "rmdir '$cg'"
	head -c $((96 << 20)) /dev/urandom >"$t/slow"
	slow_sum=$(sum_of "$t/slow")
	sync
	# only its pages leave the cache: the copy has to read them through the throttle
	python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)" "$t/slow"
	pmm=$(lsblk -dno MAJ:MIN "$part" | tr -d ' ')
	echo "$pmm 4000000" >"$cg/blkio.throttle.read_bps_device"
	mkdir -p "$tmp/mnts"
	TMPDIR=$tmp/mnts stop_copy SIGINT "$cg" "copying p2" "$bin" clone "$srcloop" "$tmp/walk.img" --apply
	echo "$pmm 0" >"$cg/blkio.throttle.read_bps_device"
	expect_rc 130 "SIGINT in the middle of the walk (98: slow to stop, 99: never saw it copy)"
	grep_out "the image it was making is removed" tty "SIGINT mid-walk: says the image is removed"
	check "SIGINT mid-walk: the image it made is gone" test ! -e "$tmp/walk.img"
	check "SIGINT mid-walk: the target's file system is unmounted" \
		sh -c "! grep -q ' $tmp/mnts/' /proc/mounts && test -z \"\$(ls '$tmp/mnts')\""
	udevadm settle 2>/dev/null
	if losetup -a | grep "$tmp/[a-z]*\.img.*offset"; then fail "SIGINT mid-walk: a loop device of ours left"; else ok; fi
	check "SIGINT mid-walk: the source file read is the same" test "$(sum_of "$t/slow")" = "$slow_sum"
	check "the throttle group removed" rmdir "$cg"
	cleanups=("${cleanups[@]:1}")
else
	echo "skip: no cgroup v1 blkio throttle for SIGINT in the middle of the walk"
fi
umount "$t/nested"
umount "$mnt" || fail "cannot unmount the source: $(fuser -vm "$mnt" 2>&1 | tail -n 3)"
cleanups=("${cleanups[@]:2}")
# the source device itself: written only by its own mount (the tree made above), never by us
fsck_clean "the source file system" "$part"

finish
