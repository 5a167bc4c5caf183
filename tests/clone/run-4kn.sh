#!/bin/bash
# run-4kn.sh - a target with 4096-byte logical sectors (a USB bridge presenting 4Kn, issue 34,
# 9), as a loop device with --sector-size 4096: the usual image (FAT of 512-byte sectors,
# ext4 of 1 KiB blocks) is planned in the target's sectors and copied: the table in 4096-byte
# sectors at the same byte offsets, a new FAT of 4096-byte sectors and a new ext4 of 4 KiB
# blocks with the files copied, cmdline.txt and fstab naming the new ids; move's dry run too;
# and the copy, a 4Kn disk, cloned back into an image of 512-byte sectors.
# --whole, which keeps the source's table, is still refused; a read-only target is called
# read-only, not "no usable copy".
. "$(dirname "$0")/lib.sh"
clone_need
for t in fsck.fat debugfs dumpe2fs; do command -v "$t" >/dev/null || skip "$t missing"; done

mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
truncate -s 400M "$tmp/t.img"
t4k=$(losetup -f --show --sector-size 4096 "$tmp/t.img" 2>/dev/null) ||
	skip "losetup --sector-size 4096 failed (util-linux or kernel too old)"
at_exit "loop_detach '$t4k'"
[ "$(cat "/sys/block/${t4k#/dev/}/queue/logical_block_size")" = 4096 ] ||
	skip "the loop device did not take 4096-byte sectors"
# the source's own units, what the target cannot mount
check "the source's FAT has 512-byte sectors" sh -c \
	"file -s '$tmp/src.img' >/dev/null; od -An -tu2 -j $((8192 * 512 + 11)) -N2 '$tmp/src.img' | grep -qw 512"
check "the source's ext4 has 1 KiB blocks" sh -c \
	"dumpe2fs -h '$tmp/src.img?offset=$((139264 * 512))' 2>/dev/null | grep -q '^Block size: *1024$'"
src_sum=$(sum_of "$tmp/src.img")

# --whole keeps the source's table: refused in the dry run, never after a copy
sum0=$(sum_of "$tmp/t.img")
sbc clone --whole "$tmp/src.img" "$t4k" --apply
expect_rc 1 "4Kn target: --whole refuses"
grep_out "has 4096-byte logical sectors, the source 512" err "4Kn target: --whole's reason"
check "4Kn target: --whole left it unchanged" test "$(sum_of "$tmp/t.img")" = "$sum0"

# a 1 KiB-block ext4 whose journal needs recovery: its files would be read without it
cp "$tmp/src.img" "$tmp/dirty.img"
debugfs -w -R "feature needs_recovery" "$tmp/dirty.img?offset=$((139264 * 512))" >/dev/null 2>&1
sbc clone "$tmp/dirty.img" "$t4k"
expect_rc 1 "4Kn target: a journal to recover refused"
grep_out "source p2 is copied by its files into a new ext4, and its journal needs recovery" err \
	"4Kn target: the journal's reason"
rm -f "$tmp/dirty.img"

# the dry run: planned, one line saying how
sbc clone "$tmp/src.img" "$t4k"
expect_rc 0 "4Kn target: the dry run plans it"
grep_out "^sectors the target has 4096-byte logical sectors, the source 512: the table in 4096-byte sectors at the same byte offsets; p1 (vfat of 512-byte sectors) made anew with 4096-byte ones, its files copied; p2 (ext4 of 1024-byte blocks) made anew with 4096-byte ones, its files copied$" \
	out "4Kn target: the dry run's line"
check "4Kn target: the dry run wrote nothing" test "$(sum_of "$tmp/t.img")" = "$sum0"

# a 4Kn disk of the source's size holds it too (the root is remade, not grown from its data)
truncate -s 200M "$tmp/t2.img"
t2=$(losetup -f --show --sector-size 4096 "$tmp/t2.img") || { fail "losetup t2"; finish; }
at_exit "loop_detach '$t2'"
sbc clone "$tmp/src.img" "$t2"
expect_rc 0 "4Kn target of the source's size: planned"
loop_detach "$t2"

# move's dry run onto it: clone's plan, with the same line
sbc move "$tmp/src.img" "$t4k" --no-bench
expect_rc 0 "4Kn target: move's dry run"
grep_out "^sectors the target has 4096-byte logical sectors" out "4Kn target: move's dry run says so"

# the copy
sbc clone "$tmp/src.img" "$t4k" --apply
expect_rc 0 "4Kn target: --apply"
[ "$rc" = 0 ] || { cat "$tmp/out" "$tmp/err"; finish; }
grep_out "^  PASS  tree p1 " out "4Kn target: clone's own comparison of p1"
grep_out "^  PASS  tree p2 " out "4Kn target: clone's own comparison of p2"
grep_out "^  PASS  root-resolves " out "4Kn target: boot check's root="
check "4Kn target: no window (the source is not live)" sh -c "! grep -q '^window' '$tmp/out'"
check "4Kn target: the source unchanged" test "$(sum_of "$tmp/src.img")" = "$src_sum"
sfdisk -d "$t4k" >"$tmp/table" 2>&1
grep_out "^sector-size: 4096$" table "the table in 4096-byte sectors"
# 4 MiB and 68 MiB, as on the source, in 4096-byte sectors
grep_out "^$t4k.*1 : start= *1024, size= *16384, type=c, bootable$" table "p1 at 4 MiB, 64 MiB"
grep_out "^$t4k.*2 : start= *17408, size= *84992, type=83$" table "p2 at 68 MiB, to the end"
id=$(sed -n 's/^label-id: 0x//p' "$tmp/table")
check "a new disk id ($id)" test -n "$id" -a "$id" != 0badc0de

# the partitions through loop devices of 4096-byte sectors over their bytes
p1=$(losetup -f --show -r -o $((4 << 20)) --sizelimit $((64 << 20)) --sector-size 4096 "$tmp/t.img") ||
	{ fail "losetup p1"; finish; }
at_exit "loop_detach '$p1'"
p2=$(losetup -f --show -r -o $((68 << 20)) --sizelimit $((332 << 20)) --sector-size 4096 "$tmp/t.img") ||
	{ fail "losetup p2"; finish; }
at_exit "loop_detach '$p2'"
if fsck.fat -n "$p1" >"$tmp/fsck" 2>&1; then ok; else fail "fsck.fat -n of p1:"; cat "$tmp/fsck"; fi
check "p1's FAT has 4096-byte sectors" sh -c "od -An -tu2 -j 11 -N2 '$p1' | grep -qw 4096"
fsck_clean "p2" "$p2"
check "p2's ext4 has 4 KiB blocks" sh -c "dumpe2fs -h '$p2' 2>/dev/null | grep -q '^Block size: *4096$'"

# the files: the FAT's through mtools, the ext4's through debugfs, the same but the rewrites
mkdir -p "$tmp/fs" "$tmp/fd" "$tmp/es" "$tmp/ed"
mcopy -s -n -i "$tmp/src.img@@$((4 << 20))" ::/ "$tmp/fs/" && mcopy -s -n -i "$p1" ::/ "$tmp/fd/" ||
	fail "mcopy out"
check "p1's files the same but cmdline.txt" diff -r -x cmdline.txt "$tmp/fs" "$tmp/fd"
grep_out "root=PARTUUID=$id-02 " fd/cmdline.txt "cmdline.txt names the new PARTUUID"
sp2=$(losetup -f --show -r -o $((68 << 20)) --sizelimit $((132 << 20)) "$tmp/src.img") ||
	{ fail "losetup source p2"; finish; }
at_exit "loop_detach '$sp2'"
debugfs -R "rdump / $tmp/es" "$sp2" >/dev/null 2>&1
debugfs -R "rdump / $tmp/ed" "$p2" >/dev/null 2>&1
check "p2's files the same but fstab" diff -r --no-dereference -x fstab -x lost+found "$tmp/es" "$tmp/ed"
check "p2's big file copied" cmp "$tmp/es/home/pi/big.bin" "$tmp/ed/home/pi/big.bin"
grep_out "^PARTUUID=$id-02 *  /  " ed/etc/fstab "fstab names the new root"
grep_out "^PARTUUID=$id-01 *  /boot/firmware" ed/etc/fstab "fstab names the new boot partition"
# the kernel reads it: ext4 mounted read-only from its 4096-sector loop device
mkdir -p "$tmp/m"
if mount -o ro "$p2" "$tmp/m" 2>"$tmp/mount.err"; then
	check "p2 mounted: hello.txt read" grep -qx hello "$tmp/m/home/pi/hello.txt"
	check "p2 mounted: the hard link kept" test "$(stat -c %h "$tmp/m/home/pi/hello.txt")" = 2
	umount "$tmp/m"
else
	fail "p2 does not mount: $(cat "$tmp/mount.err")"
fi
loop_detach "$p1"
loop_detach "$p2"

# the other way: the copy, a 4Kn disk, read back into an image of 512-byte sectors; its
# table in 512-byte sectors at the same byte offsets, the file systems kept as they are
cp "$tmp/t.img" "$tmp/s4k.img"
s4k=$(losetup -f --show -r --sector-size 4096 "$tmp/s4k.img") || { fail "losetup s4k"; finish; }
at_exit "loop_detach '$s4k'"
sbc clone "$s4k" "$tmp/back.img" --apply
expect_rc 0 "4Kn source: --apply to an image"
grep_out "^sectors the target has 512-byte logical sectors, the source 4096: the table in 512-byte sectors at the same byte offsets$" \
	out "4Kn source: the plan's line"
grep_out "^  PASS  tree p2 " out "4Kn source: clone's own comparison of p2"
sfdisk -d "$tmp/back.img" >"$tmp/table2" 2>&1
grep_out "^sector-size: 512$" table2 "4Kn source: the image's table in 512-byte sectors"
grep_out "back.img1 : start= *8192, size= *131072, type=c, bootable$" table2 "4Kn source: p1 at 4 MiB"
grep_out "back.img2 : start= *139264, size= *679936, type=83$" table2 "4Kn source: p2 at 68 MiB"
loop_detach "$s4k"

# read-only: said so, before anything is copied
loop_detach "$t4k"
ro=$(losetup -f --show -r "$tmp/t.img") || { fail "losetup -r"; finish; }
at_exit "loop_detach '$ro'"
sum0=$(sum_of "$tmp/t.img")
sbc clone "$tmp/src.img" "$ro" --apply
expect_rc 1 "a read-only target"
grep_out "read-only" err "a read-only target: called read-only"
check "a read-only target: not called without a usable copy" sh -c "! grep -q 'no usable copy' '$tmp/err'"
check "a read-only target: unchanged" test "$(sum_of "$tmp/t.img")" = "$sum0"
finish
