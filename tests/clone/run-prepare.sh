#!/bin/bash
# run-prepare.sh - `prepare` on loop devices, with --sysroot a tree whose /sys, /proc, /dev and
# /run are this machine's (bound in a mount namespace of the test) and whose /etc/fstab is the
# test's: the dry run writes nothing (the disk's bytes and the fstab by sha256); --apply gives
# a GPT with one aligned partition, ext4 with its label, a UUID= nofail line, a mounted file
# system, a stored record and bench; undo; every refusal in one line with nothing written;
# hostile names. The machine's own fstab and mounts are never touched. About 30 s.
. "$(dirname "$0")/lib.sh"
need_loop
command -v unshare >/dev/null || skip "unshare missing"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing"
command -v sfdisk >/dev/null || skip "sfdisk missing"

tree=$tmp/root
mkdir -p "$tree/sys" "$tree/proc" "$tree/dev" "$tree/run" "$tree/etc"
printf 'proc /proc proc defaults 0 0\n# a line of the user'"'"'s own\n' >"$tree/etc/fstab"
fstab_sum=$(sha256sum <"$tree/etc/fstab")

# in_tree CMD...: CMD in a private mount namespace where $tree has the machine's /sys, /proc,
# /dev and /run (so --sysroot $tree sees this kernel's devices but writes the tree's files);
# its mounts end with it. Output in $tmp/out, $tmp/err, status in $rc.
in_tree() {
	timeout 300 unshare -m --propagation unchanged sh -c '
		{ mount --make-rprivate / 2>/dev/null || mount --make-rprivate /dev; } || exit 99
		t=$1; shift
		for d in sys proc dev run; do mount --rbind "/$d" "$t/$d" || exit 98; done
		exec "$@"' sh "$tree" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
prep() { in_tree $run "$bin" --sysroot "$tree" prepare "$@"; }
sum_of() { sha256sum <"$1"; }

# one_line DESC PATTERN: a refusal: status 1, one line on stderr matching PATTERN
one_line() {
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$2" "$tmp/err"; then
		ok
	else
		fail "$1: want status 1 and one line like '$2', got $rc:"; cat "$tmp/err" "$tmp/out"
	fi
}

truncate -s 300M "$tmp/d.img"
d=$(losetup -f --show "$tmp/d.img") || { fail "losetup"; finish; }
at_exit "loop_detach '$d'"
# the partition prepare gives the kernel (BLKPG) would outlive the loop device: taken away
at_exit "delpart '$d' 1 2>/dev/null; delpart '$d' 2 2>/dev/null"
img_sum=$(sum_of "$tmp/d.img")

# --- the dry run writes nothing ------------------------------------------------------------
prep "$d" --db "$tmp/db"
expect_rc 0 "the dry run"
grep_out '^fstab: *UUID=[0-9a-f-]* /mnt/data ext4 defaults,nofail,x-systemd.device-timeout=10s 0 2$' \
	out "the plan shows the fstab line by UUID with nofail"
grep_out '^partition: *1 from 1M (byte 1048576)' out "the plan: one partition from 1 MiB"
grep_out '^lost: *nothing' out "the plan: nothing lost on an empty disk"
grep_out 'lazy_itable_init=0,lazy_journal_init=0' out "the plan names ext4's options"
check "the dry run: the disk's bytes unchanged" test "$(sum_of "$tmp/d.img")" = "$img_sum"
check "the dry run: the fstab unchanged" test "$(sha256sum <"$tree/etc/fstab")" = "$fstab_sum"
check "the dry run: no mount point made" test ! -e "$tree/mnt"
check "the dry run: no store written" test ! -e "$tmp/db"

# --- hostile names ------------------------------------------------------------------------
prep /dev/nmve0n1
one_line "a nonexistent disk (the report's typo)" "'/dev/nmve0n1': no such disk (the disks here: .*$(basename "$d")"
prep "my disk"
one_line "a name with a space" "'my disk': no such disk"
prep "$tmp/d.img"
one_line "an image file" "is not a disk"
ln -s "$d" "$tmp/by-id-link"
prep "$tmp/by-id-link"
expect_rc 0 "a symbolic link to the disk (as /dev/disk/by-id names one)"
prep "$(basename "$d")"
expect_rc 0 "a bare kernel name"
grep_out "^sbcdisk prepare: $d " out "a bare name is resolved to its node"
in_tree sh -c 'cd /dev && exec "$@"' sh $run "$(readlink -f "$bin")" --sysroot "$tree" prepare "./$(basename "$d")"
expect_rc 0 "a relative path"
prep "$d" "/mnt/a b"
one_line "a mount point with a space" "bad mount point"
prep "$d" --label 'x/y'
one_line "a bad label" "bad label"
prep "$d" --fs zfs
one_line "an unknown file system" "unknown file system 'zfs'"
check "the hostile names: the disk's bytes unchanged" test "$(sum_of "$tmp/d.img")" = "$img_sum"

# --- refusals --------------------------------------------------------------------------
root_src=$(findmnt -n -o SOURCE / 2>/dev/null)
root_disk=$(lsblk -n -o PKNAME "$root_src" 2>/dev/null | head -1)
[ -z "$root_disk" ] && [ "$(lsblk -n -d -o TYPE "$root_src" 2>/dev/null)" = disk ] &&
	root_disk=${root_src#/dev/}
if [ -n "$root_disk" ] && [ -b "/dev/$root_disk" ]; then
	prep "/dev/$root_disk"
	one_line "the running system's disk" "holds the running system"
else
	echo "note: the root file system is on no disk here ($root_src): that refusal untested"
fi
truncate -s 10M "$tmp/small.img"
truncate -s 40M "$tmp/whole.img"
w=$(losetup -f --show "$tmp/whole.img") || fail "losetup whole"
at_exit "loop_detach '$w'"
s=$(losetup -f --show "$tmp/small.img") || fail "losetup small"
at_exit "loop_detach '$s'"
prep "$s"
one_line "a disk too small" "is too small: 10M, ext4 needs"
r=$(losetup -f --show -r "$tmp/small.img") || fail "losetup -r"
at_exit "loop_detach '$r'"
prep "$r"
one_line "a read-only disk" "is read-only"
# a holder: a device-mapper device built on the disk
dm=sbcdisk-prepare-$$
if command -v dmsetup >/dev/null &&
	echo "0 1000 linear $d 0" | dmsetup create "$dm" 2>/dev/null; then
	prep "$d"
	dmsetup remove "$dm"
	one_line "a disk a device-mapper device holds" "is in use: .* is held by"
else
	echo "note: no device-mapper here: the held refusal untested"
fi
# a file system on the whole disk, then a DOS table with two: named, sizes, used space
mkfs.ext4 -q -F -L oldfs "$tmp/whole.img" >/dev/null 2>&1
prep "$w"
one_line "a file system without --wipe" "holds the whole disk: ext4 'oldfs' 40M, .* used: --wipe to erase it"
printf 'label: dos\nstart=2048, size=100000, type=83\ntype=c\n' | sfdisk -q "$tmp/d.img" >/dev/null
mkfs.ext4 -q -F -L photos -E offset=$((2048 * 512)) "$tmp/d.img" 50000 >/dev/null 2>&1
img_sum=$(sum_of "$tmp/d.img")
prep "$d"
one_line "a table without --wipe" "holds a dos partition table with partition 1 ($(basename "$d")p1): ext4 'photos' .* used; partition 2"
check "the refusals: the disk's bytes unchanged" test "$(sum_of "$tmp/d.img")" = "$img_sum"
check "the refusals: the fstab unchanged" test "$(sha256sum <"$tree/etc/fstab")" = "$fstab_sum"
prep "$d" --wipe
expect_rc 0 "--wipe: the dry run"
grep_out "^lost: *a dos partition table with partition 1" out "the plan says what is lost"
check "--wipe without --apply: the disk's bytes unchanged" test "$(sum_of "$tmp/d.img")" = "$img_sum"
# a bad --time is a usage error before anything is written (it was bench's error, after the
# disk had been prepared)
prep "$d" --wipe --apply --time 10parsecs --db "$tmp/db"
expect_rc 2 "--apply with a bad --time"
grep_out "bad time '10parsecs'" err "--apply with a bad --time: said"
check "--apply with a bad --time: the disk's bytes unchanged" test "$(sum_of "$tmp/d.img")" = "$img_sum"
check "--apply with a bad --time: the fstab unchanged" test "$(sha256sum <"$tree/etc/fstab")" = "$fstab_sum"

# --- --apply ------------------------------------------------------------------------------
in_tree sh -c '"$@" >"$0/../apply.out" 2>"$0/../apply.err"; echo $? >"$0/../apply.rc"
	findmnt -n -o SOURCE,FSTYPE,TARGET "$0/mnt/data" >"$0/../mounted"
	exec "$1" --sysroot "$0" prepare "$5"' "$tree" $run "$bin" --sysroot "$tree" prepare "$d" \
	--wipe --apply --db "$tmp/db" --time 100ms
# the second run in the same namespace: refused, the new file system is mounted
one_line "a second run while it is mounted" "is in use: .*p1 is mounted on .*/mnt/data"
check "--apply: status 0" test "$(cat "$tmp/apply.rc")" = 0
grep_out "^Mounted .* on /mnt/data" apply.out "--apply says it mounted it"
check "--apply: mounted (in the test's namespace), ext4" grep -q " ext4 *$tree/mnt/data" "$tmp/mounted"
t=$(sfdisk -d "$d" 2>/dev/null)
check "--apply: a GPT table" grep -q '^label: gpt' <<<"$t"
check "--apply: one partition" test "$(grep -c '^/dev/' <<<"$t")" -eq 1
start=$(sed -n 's/.*start= *\([0-9]*\),.*/\1/p' <<<"$t")
check "--apply: the partition starts at 1 MiB" test "$start" = 2048
p=$(in_tree sh -c 'blkid -p -o export "$0" 2>/dev/null || blkid -p -o export -O 1048576 "$1"' \
	"${d}p1" "$d"; cat "$tmp/out")
uuid=$(sed -n 's/^UUID=//p' <<<"$p")
check "--apply: ext4 with its label" grep -q '^LABEL=data$' <<<"$p"
check "--apply: the fstab line names the new UUID with nofail" \
	grep -q "^UUID=$uuid /mnt/data ext4 defaults,nofail,x-systemd.device-timeout=10s 0 2\$" \
	"$tree/etc/fstab"
check "--apply: the user's lines kept" grep -q "^# a line of the user's own" "$tree/etc/fstab"
check "--apply: a dated backup of the fstab" test -f "$(ls "$tree"/etc/fstab.sbcdisk-* | head -1)"
check "--apply: the prepare recorded" test "$(python3 -c "import sqlite3; print(sqlite3.connect('$tmp/db').execute(\"select count(*) from fixes where kind='prepare' and change like '%$uuid%'\").fetchone()[0])")" = 1
check "--apply: the bench stored" test "$(python3 -c "import sqlite3; print(sqlite3.connect('$tmp/db').execute('select count(*) from runs').fetchone()[0])")" = 1
# ext4 made without lazy initialisation: every group's inode table is zeroed already
groups=$(dumpe2fs "${d}p1" 2>/dev/null | grep -c '^Group [0-9]*:')
zeroed=$(dumpe2fs "${d}p1" 2>/dev/null | grep '^Group [0-9]*:' | grep -c 'ITABLE_ZEROED')
check "--apply: every inode table written at mkfs ($zeroed of $groups groups)" \
	test "$groups" -gt 0 -a "$groups" = "$zeroed"

# --- a second run once it is not mounted: it now holds data ----------------------------------
prep "$d"
one_line "a second run: the disk holds data" "holds a gpt partition table with partition 1 ($(basename "$d")p1): ext4 'data'"

# --- undo -------------------------------------------------------------------------------
prep undo
expect_rc 0 "undo: the dry run"
check "undo without --apply: the fstab unchanged" grep -q "^UUID=$uuid" "$tree/etc/fstab"
prep undo --apply --db "$tmp/db"
expect_rc 0 "undo --apply"
check "undo: the fstab as it was" test "$(sha256sum <"$tree/etc/fstab")" = "$fstab_sum"
check "undo: the backup is used up" test -z "$(ls "$tree"/etc/fstab.sbcdisk-* 2>/dev/null)"
prep undo
one_line "undo with nothing to put back" "there is no backup to put back"
# --- the other file systems, where their mkfs is installed ----------------------------------
# each made with its label and the UUID its fstab line names; a kernel without the file
# system (a container's) cannot mount it: then that is the one error
truncate -s 400M "$tmp/o.img"
o=$(losetup -f --show "$tmp/o.img") || fail "losetup o"
at_exit "loop_detach '$o'"
at_exit "delpart '$o' 1 2>/dev/null"
for fs in f2fs btrfs xfs exfat; do
	command -v "mkfs.$fs" >/dev/null || { echo "note: no mkfs.$fs: --fs $fs untested"; continue; }
	prep "$o" "/srv/$fs" --fs "$fs" --label "L$fs" --wipe --apply --no-bench --db "$tmp/db"
	if [ "$rc" -ne 0 ] && ! grep -q "cannot mount .* on /srv/$fs: No such device" "$tmp/err"; then
		fail "--fs $fs: exit $rc"; cat "$tmp/err"
	fi
	p=$(in_tree blkid -p -o export "${o}p1"; cat "$tmp/out")
	u=$(sed -n 's/^UUID=//p' <<<"$p")
	check "--fs $fs: made ($p)" grep -q "^TYPE=$fs\$" <<<"$p"
	check "--fs $fs: its label" grep -q "^LABEL=L$fs\$" <<<"$p"
	check "--fs $fs: the fstab names its UUID ($u)" \
		grep -q "^UUID=$u /srv/$fs $fs defaults,nofail,x-systemd.device-timeout=10s 0 [02]\$" \
		"$tree/etc/fstab"
done

# --- a disk of 4096-byte logical sectors (4Kn) ------------------------------------------------
# planned in its sectors, with the note; the table counts them, the partition at 1 MiB, ext4
# of 4 KiB blocks (a block may not be smaller than a sector)
truncate -s 128M "$tmp/four.img"
f4=$(losetup -f --show --sector-size 4096 "$tmp/four.img" 2>/dev/null) || f4=
if [ -n "$f4" ] && [ "$(cat "/sys/block/${f4#/dev/}/queue/logical_block_size")" = 4096 ]; then
	at_exit "loop_detach '$f4'"
	at_exit "delpart '$f4' 1 2>/dev/null"
	prep "$f4" /mnt/four
	expect_rc 0 "4Kn: the dry run"
	grep_out "^note: *the disk has 4096-byte logical sectors (4Kn): the table counts them" out \
		"4Kn: the plan says so"
	prep "$f4" /mnt/four --apply --no-bench --db "$tmp/db"
	expect_rc 0 "4Kn: --apply"
	t=$(sfdisk -d "$f4" 2>/dev/null)
	check "4Kn: the table in 4096-byte sectors" grep -q '^sector-size: 4096$' <<<"$t"
	check "4Kn: the partition at 1 MiB ($(grep "^$f4" <<<"$t"))" grep -q "^${f4}p1 : start= *256," <<<"$t"
	p4=$(losetup -f --show -r -o 1048576 --sector-size 4096 "$tmp/four.img") || fail "losetup p4"
	at_exit "loop_detach '$p4'"
	check "4Kn: ext4 of 4 KiB blocks" sh -c "dumpe2fs -h '$p4' 2>/dev/null | grep -q '^Block size: *4096$'"
	loop_detach "$p4"
else
	echo "note: no loop device of 4096-byte sectors here: the 4Kn case untested"
fi
finish
