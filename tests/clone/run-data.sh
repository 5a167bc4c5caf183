#!/bin/bash
# run-data.sh - what clone copies of a source that is not clean: an ext4 whose journal needs
# recovery (a card pulled after a crash: its bitmaps are older than the journal) gives a copy
# with the files as the journal makes them, not zero-filled; a source whose file system has
# errors (ext or FAT) is named as the cause when the copy's check fails; a FAT boot partition
# (FAT32, 16 and 12) is copied by its used clusters only, and its copy is clean with every
# file alike. About 40 s.
. "$(dirname "$0")/lib.sh"
clone_need
for t in debugfs fsfreeze; do command -v $t >/dev/null || skip "$t missing"; done

p2=$((139264 * 512))

# part_start IMG N: the byte offset of partition N of IMG
part_start() {
	echo $(( $(sfdisk -d "$1" | sed -n "s|^$1$2 .*start= *\([0-9]*\).*|\1|p") * 512 ))
}

# mkdirty IMG: a Pi-like image whose p2 was copied while mounted, after its new files were
# fsynced (data in place, metadata in the journal only) and before the kernel wrote the
# metadata home: its journal needs recovery and its bitmaps do not know the new files. The
# image lives on a file system of its own, frozen right after the fsync: what the kernel
# writes home after that waits, and the copy reads the state of the freeze. The files are
# kept in $tmp/orig to compare.
mkdirty() {
	local img=$1 dev outer
	mkdir -p "$tmp/outer" "$tmp/mnt"
	if ! mountpoint -q "$tmp/outer"; then
		truncate -s 300M "$tmp/outer.img"
		mke2fs -q -F -t ext4 "$tmp/outer.img" || return 1
		outer=$(losetup -f --show "$tmp/outer.img") || return 1
		at_exit "loop_detach '$outer'"
		mount "$outer" "$tmp/outer" || return 1
		at_exit "fsfreeze -u '$tmp/outer'; umount '$tmp/outer'"
	fi
	mkimage "$tmp/outer/base.img" dos 200 PARTUUID=0badc0de-02 || return 1
	rm -rf "$tmp/orig" && mkdir -p "$tmp/orig"
	for i in 1 2 3 4; do head -c $((i * 700000)) /dev/urandom >"$tmp/orig/f$i"; done
	dev=$(losetup -f --show -o $p2 --sizelimit $(((200 << 20) - p2)) "$tmp/outer/base.img") ||
		return 1
	at_exit "loop_detach '$dev'"
	mount "$dev" "$tmp/mnt" || return 1
	mkdir "$tmp/mnt/new" && cp "$tmp"/orig/f* "$tmp/mnt/new/" &&
		python3 -c 'import os, sys
for n in sys.argv[1:]:
	fd = os.open(n, os.O_RDONLY); os.fsync(fd); os.close(fd)' "$tmp"/mnt/new/f* "$tmp/mnt/new" &&
		fsfreeze -f "$tmp/outer" &&
		cp --sparse=always "$tmp/outer/base.img" "$img"
	local r=$?
	fsfreeze -u "$tmp/outer" 2>/dev/null
	umount "$tmp/mnt"
	loop_detach "$dev"
	rm -f "$tmp/outer/base.img"
	return $r
}

# the dirty image, checked to be what it should: the journal to replay, the new files unseen
# by a reader that does not replay it (debugfs), seen after e2fsck replays it
made=0
for try in 1 2 3; do
	mkdirty "$tmp/src.img" || { fail "mkdirty"; finish; }
	if dumpe2fs -h "$tmp/src.img?offset=$p2" 2>/dev/null | grep -q needs_recovery &&
		! debugfs -R "stat /new/f1" "$tmp/src.img?offset=$p2" 2>&1 | grep -q Inode:; then
		made=1
		break
	fi
	echo "try $try: the kernel wrote the metadata home before the copy; again"
done
check "a source whose journal needs recovery was made" test "$made" = 1
src_sum=$(sum_of "$tmp/src.img")

sbc --json clone "$tmp/src.img" "$tmp/c.img" --apply --verify full
expect_rc 0 "clone of a source whose journal needs recovery"
check "source untouched (its journal not replayed on it)" test "$(sum_of "$tmp/src.img")" = "$src_sum"
json "[x for x in d['warnings'] if 'journal needs recovery' in x]" \
	"the plan says the journal needs recovery"
t2=$(part_start "$tmp/c.img" 2)
fsck_clean "the copy's p2" "$tmp/c.img?offset=$t2"
for i in 1 2 3 4; do
	rm -f "$tmp/got"
	debugfs -R "dump /new/f$i $tmp/got" "$tmp/c.img?offset=$t2" >/dev/null 2>&1
	if cmp -s "$tmp/got" "$tmp/orig/f$i"; then ok; else
		fail "/new/f$i on the copy is not the file the journal holds ($(
			[ -s "$tmp/got" ] && od -An -tx1 -N16 "$tmp/got" | tr -s ' ' || echo missing))"
	fi
done

# a source with an error e2fsck cannot preen: the copy's check fails, and says it is the
# source's
mkimage "$tmp/bad.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
debugfs -w -R "set_inode_field /home/pi/hello.txt mode 0" "$tmp/bad.img?offset=$p2" \
	>/dev/null 2>&1
bad_sum=$(sum_of "$tmp/bad.img")
sbc clone "$tmp/bad.img" "$tmp/c2.img" --apply
expect_rc 1 "clone of a source with file system errors"
grep_out "source's p2 has errors too" err "the source named as the cause"
check "the bad source untouched" test "$(sum_of "$tmp/bad.img")" = "$bad_sum"

# mkfat IMG BITS MIB: a disk with a FAT(BITS) p1 of MIB MiB at 4 MiB holding a few MiB of
# files (a directory, a fragmented file, cmdline.txt), 60 MiB of a file deleted (its clusters
# free but not zero), and an ext4 root p2 of 40 MiB
mkfat() {
	local img=$1 bits=$2 mib=$3 off=$((4 << 20)) i
	rm -f "$img" && truncate -s $((4 + mib + 41))M "$img"
	printf 'label: dos\nlabel-id: 0x0badc0de\nstart=8192, size=%d, type=c, bootable\ntype=83\n' \
		$((mib * 2048)) | sfdisk -q "$img" >/dev/null || return 1
	mkfs.vfat -F "$bits" -n BOOT --offset 8192 "$img" $((mib * 1024)) >/dev/null 2>&1 ||
		return 1
	rm -rf "$tmp/fat" && mkdir -p "$tmp/fat/sub"
	echo "console=tty1 root=PARTUUID=0badc0de-02 rootwait" >"$tmp/fat/cmdline.txt"
	for i in 1 2 3; do head -c $((i * 400000)) /dev/urandom >"$tmp/fat/k$i.img"; done
	for i in $(seq 1 30); do echo "file $i" >"$tmp/fat/sub/s$i.txt"; done
	local fat="$img@@$off" big=$(( mib > 100 ? 60 : mib / 3 ))
	head -c $((big << 20)) /dev/urandom >"$tmp/big"
	mcopy -i "$fat" "$tmp/big" ::big && mcopy -i "$fat" "$tmp/fat/k1.img" ::k1.img &&
		mdel -i "$fat" ::big && mcopy -i "$fat" "$tmp/fat/k2.img" ::k2.img &&
		mcopy -i "$fat" "$tmp/fat/k3.img" "$tmp/fat/cmdline.txt" ::/ &&
		mcopy -s -i "$fat" "$tmp/fat/sub" ::/ || return 1
	rm -f "$tmp/big"
	mkdir -p "$tmp/rt/etc" && echo "PARTUUID=0badc0de-02 / ext4 defaults 0 1" >"$tmp/rt/etc/fstab"
	mke2fs -q -F -t ext4 -d "$tmp/rt" -E offset=$(( (4 + mib) << 20 )) "$img" 40M
}

# allocated IMG OFF LEN: bytes of the sparse file IMG allocated in [OFF, OFF + LEN)
allocated() {
	python3 - "$@" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
off, end, n = int(sys.argv[2]), int(sys.argv[2]) + int(sys.argv[3]), 0
while off < end:
    try:
        d = os.lseek(fd, off, os.SEEK_DATA)
    except OSError:
        break
    if d >= end:
        break
    h = min(os.lseek(fd, d, os.SEEK_HOLE), end)
    n += h - d
    off = h
print(n)
PY
}

for spec in 32:300 16:200 12:16; do
	bits=${spec%:*} mib=${spec#*:}
	mkfat "$tmp/f.img" "$bits" "$mib" || { fail "mkfat FAT$bits"; continue; }
	rm -f "$tmp/fc.img"
	sbc --json clone "$tmp/f.img" "$tmp/fc.img" --apply --verify full
	expect_rc 0 "clone of FAT$bits"
	# the files are 2.4 MiB and 30 small ones; the FAT's tables (a FAT12/16's root
	# directory too) under a MiB
	used=$(du -sb "$tmp/fat" | cut -f1)
	json "d['partitions'][0]['copied_bytes'] < $used + (2 << 20)" \
		"FAT$bits: p1 copied its used clusters only ($(python3 -c "import json; print(json.load(open('$tmp/out'))['partitions'][0]['copied_bytes'])" 2>/dev/null) bytes, files $used)"
	# its files compared as ext's are (cmdline.txt rewritten, the rest alike)
	json "[c for c in d['checks'] if c['name'] == 'tree p1' and c['state'] == 'PASS' and
		int(c['detail'].split()[0]) == 35]" "FAT$bits: the trees of p1 compared and alike"
	t1=$(part_start "$tmp/fc.img" 1)
	got=$(allocated "$tmp/fc.img" "$t1" $((mib << 20)))
	check "FAT$bits: the target's p1 has $got bytes written, files $used" \
		test "$got" -lt $((used + (3 << 20)))
	dd if="$tmp/fc.img" of="$tmp/p1" bs=1M skip=$((t1 >> 20)) count="$mib" conv=sparse \
		status=none
	if fsck.vfat -n "$tmp/p1" >"$tmp/fsck" 2>&1; then ok; else
		fail "FAT$bits: fsck.vfat -n of the copy:"; tail -n 5 "$tmp/fsck"
	fi
	for f in k1.img k2.img k3.img sub/s1.txt sub/s30.txt; do
		rm -f "$tmp/got"
		mcopy -i "$tmp/p1" "::$f" "$tmp/got" 2>/dev/null
		check "FAT$bits: $f alike on the copy" cmp -s "$tmp/got" "$tmp/fat/$f"
	done
	rm -f "$tmp/fc.img" "$tmp/p1"
done

# a FAT source whose file is longer than its cluster chain: the copy's fsck.vfat -n fails,
# and the check says that the source has the same errors
mkfat "$tmp/e.img" 16 200 || fail "mkfat"
python3 - "$tmp/e.img" $((4 << 20)) <<'PY'
import struct, sys
f = open(sys.argv[1], 'r+b'); base = int(sys.argv[2]); f.seek(base); b = f.read(512)
bps, rs, nf, re, fsz = (struct.unpack_from('<H', b, 11)[0], struct.unpack_from('<H', b, 14)[0],
                        b[16], struct.unpack_from('<H', b, 17)[0], struct.unpack_from('<H', b, 22)[0])
root = base + (rs + nf * fsz) * bps
f.seek(root); d = f.read(re * 32)
at = [i for i in range(0, len(d), 32) if d[i:i + 11] == b'K1      IMG'][0]
f.seek(root + at + 28); f.write(struct.pack('<I', 50 << 20))
PY
sbc --json clone "$tmp/e.img" "$tmp/ec.img" --apply
expect_rc 1 "clone of a FAT source with errors: a failed check"
json "[c for c in d['checks'] if c['name'] == 'fsck p1' and c['state'] == 'FAIL' and
	\"source's p1 has errors too\" in c['fix']]" "the FAT source named as the cause"
rm -f "$tmp/e.img" "$tmp/ec.img"

# a FAT boot sector that lies (a FAT of 2^32 - 1 sectors, a file system larger than its
# partition): not read as a FAT, the partition copied whole, no crash
for lie in "36:\xff\xff\xff\xff" "32:\xff\xff\xff\x7f"; do
	mkfat "$tmp/h.img" 32 300 || { fail "mkfat"; break; }
	printf "${lie#*:}" | dd of="$tmp/h.img" bs=1 seek=$(( (4 << 20) + ${lie%%:*} )) \
		conv=notrunc status=none
	sbc --json clone "$tmp/h.img" "$tmp/hc.img"
	expect_rc 0 "a FAT boot sector that lies at byte ${lie%%:*}: the plan"
	json "d['partitions'][0]['method'] == 'whole' and d['partitions'][0]['used_bytes'] is None" \
		"a FAT boot sector that lies at byte ${lie%%:*}: copied whole"
done

finish
