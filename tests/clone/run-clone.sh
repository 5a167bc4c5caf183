#!/bin/bash
# run-clone.sh - sbcdisk clone on Raspberry Pi OS-like, Jetson-like and VisionFive 2-like
# images and loop devices: the dry-run plan and its JSON, DOS and GPT, 2, 3 and 4
# partitions, the rewrites of root= (cmdline.txt, extlinux.conf) and fstab in their
# spellings, new ids everywhere, boot/'s checks of the copy, GPT over 2 TiB, unaligned
# sources; the source's checksum is the same after every run. About 60 s.
. "$(dirname "$0")/lib.sh"
clone_need

p1off=$((8192 * 512)) p2off=$((139264 * 512))
fat() { mtype -i "$1@@$p1off" "::$2"; }
export -f fat 2>/dev/null; export p1off
fstab_of() { debugfs -R 'cat /etc/fstab' "$1?offset=$2" 2>/dev/null; }

# --- DOS, two partitions, image to a new image file --------------------------------------
mkimage "$tmp/src.img" dos 300 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
before=$(sum_of "$tmp/src.img")
sbc --json clone "$tmp/src.img" "$tmp/dst.img"
expect_rc 0 "dry run"
check "dry run writes nothing" test ! -e "$tmp/dst.img"
json "d['schema'] == 1 and not d['applied'] and d['source']['label'] == 'dos'" "dry-run JSON"
json "[p['method'] for p in d['partitions']] == ['used blocks', 'used blocks']" "methods"
json "d['partitions'][1]['used_bytes'] < d['partitions'][1]['size_bytes'] // 2" "used bytes"
json "d['target']['disk_id'] != '0x0badc0de'" "a new disk id"
json "[r['file'] for r in d['rewrites']] == ['cmdline.txt', '/etc/fstab', '/etc/fstab']" \
	"the rewrites listed"
json "d['rewrites'][0]['before'] == 'root=PARTUUID=0badc0de-02'" "root= before"
json "d['expected']['source_read_from'] == 'measured' and d['expected']['source_read_measured_bytes'] > 0 and d['expected']['time_s'] > 0" \
	"dry run: the expected time, from a read of the source measured now"
json "d['expected']['target_write_from'] is None and d['expected']['target_write_bw_bytes_per_s'] is None" \
	"dry run: the target's write speed unknown (an image file, nothing stored)"
sbc clone "$tmp/src.img" "$tmp/dst.img"
grep_out "dry run: nothing written" out "the table says dry run"
grep_out "expected time: about .*measured now.*target write speed unknown" out \
	"the table says the expected time and what it is based on"
grep_out "used blocks" out "the table names the method"

sbc --json clone "$tmp/src.img" "$tmp/dst.img" --root-size 400m --apply
expect_rc 0 "apply DOS image to a new image"
json "d['applied'] and all(c['state'] == 'PASS' for c in d['checks'])" "every check passes"
json "len(d['checks']) >= 8" "the checks ran"
json "all(r['done'] for r in d['rewrites'])" "every rewrite done"
json "d['partitions'][1]['copied_bytes'] < d['partitions'][1]['size_bytes'] // 2" \
	"ext copied by its used blocks"
id=$(python3 -c "import json; print(json.load(open('$tmp/out'))['target']['disk_id'][2:])")
check "source unchanged (DOS)" test "$(sum_of "$tmp/src.img")" = "$before"
check "the target's table has the new id" sh -c "sfdisk -d '$tmp/dst.img' | grep -q 'label-id: 0x$id'"
check "root grown to --root-size" sh -c "sfdisk -d '$tmp/dst.img' | grep -q 'size= *819200, type=83'"
check "cmdline.txt rewritten, other options kept" bash -c \
	"fat '$tmp/dst.img' cmdline.txt | grep -q 'console=tty1 root=PARTUUID=$id-02 rootfstype=ext4 fsck.repair=yes rootwait usb-storage.quirks=152d:0578:u'"
fat "$tmp/dst.img" config.txt >"$tmp/cfg.t"; fat "$tmp/src.img" config.txt >"$tmp/cfg.s"
check "config.txt the same" cmp -s "$tmp/cfg.t" "$tmp/cfg.s"
fstab_of "$tmp/dst.img" $p2off >"$tmp/fstab.t"
fstab_of "$tmp/src.img" $p2off | sed "s/^PARTUUID=0badc0de-0/PARTUUID=$id-0/" >"$tmp/fstab.want"
check "fstab: the two entries rewritten, every other byte kept" cmp -s "$tmp/fstab.t" "$tmp/fstab.want"
check "the comment naming the old id kept" grep -q "names PARTUUID=0badc0de-02 stays" "$tmp/fstab.t"
u_src=$(blkid -p -o value -s UUID -O $p2off "$tmp/src.img")
u_dst=$(blkid -p -o value -s UUID -O $p2off "$tmp/dst.img")
check "a new ext4 UUID" test -n "$u_dst" -a "$u_src" != "$u_dst"
v_src=$(blkid -p -o value -s UUID -O $p1off "$tmp/src.img")
v_dst=$(blkid -p -o value -s UUID -O $p1off "$tmp/dst.img")
check "a new vfat volume id" test -n "$v_dst" -a "$v_src" != "$v_dst"
fsck_clean "the copy" "$tmp/dst.img?offset=$p2off"
check "grown file system" sh -c "dumpe2fs -h '$tmp/dst.img?offset=$p2off' 2>/dev/null |
	grep -q '^Block count: *409600$'"
check "label kept" test "$(blkid -p -o value -s LABEL -O $p2off "$tmp/dst.img")" = rootfs
check "no loop device left" sh -c "! losetup -a | grep -q '$tmp'"

# --- GPT, three partitions, loop device to loop device (whole devices) ------------------
mkimage "$tmp/g.img" gpt 300 PARTUUID=aaaaaaaa-0000-4000-8000-000000000002 p3 ||
	{ fail "mkimage gpt"; finish; }
truncate -s 600m "$tmp/gt.img"
loop_attach "$tmp/g.img"; gsrc=$loopdev
loop_attach "$tmp/gt.img"; gdst=$loopdev
before=$(sum_of "$gsrc")
# the expected time from the disks' last stored benches (source read, target write)
"$bin" -q bench "$gsrc" --test rw=read,bs=1m,qd=8,time=300ms,runs=1 --db "$tmp/db" >/dev/null 2>&1
"$bin" -q bench "$gdst" --destructive --test rw=write,bs=1m,qd=8,time=300ms,runs=1,size=32m \
	--db "$tmp/db" >/dev/null 2>&1
sbc --json clone "$gsrc" "$gdst" --db "$tmp/db"
json "d['expected']['source_read_from'] == 'stored' and d['expected']['target_write_from'] == 'stored' and d['expected']['source_read_bench_at'] and d['expected']['time_s'] > 0" \
	"dry run: the expected time from the stored benches of both disks"
json "abs(d['expected']['time_s'] - d['copy_bytes'] / min(d['expected']['source_read_bw_bytes_per_s'], d['expected']['target_write_bw_bytes_per_s'])) < 1e-6 * d['expected']['time_s']" \
	"the expected time is the bytes to copy at the slower of the two"
sbc clone "$gsrc" "$gdst" --db "$tmp/db"
grep_out "expected time: .*its bench of .*target write .*its bench of" out \
	"the table names the stored benches"
sbc --json clone "$gsrc" "$gdst" --apply
expect_rc 0 "apply GPT loop to loop"
json "d['source']['label'] == 'gpt' and d['target']['label'] == 'gpt'" "GPT kept"
json "all(c['state'] == 'PASS' for c in d['checks'])" "GPT: every check passes"
json "len(set(p['target_partuuid'] for p in d['partitions'])) == 3" "GPT: new GUIDs"
json "not any(p['target_partuuid'].startswith('aaaaaaaa') for p in d['partitions'])" \
	"GPT: no GUID kept"
json "d['partitions'][2]['target_size_bytes'] > d['partitions'][2]['size_bytes']" \
	"the last partition grown"
json "len(d['rewrites']) == 4" "GPT: root= and three fstab entries"
check "source unchanged (GPT loop)" test "$(sum_of "$gsrc")" = "$before"
check "GPT target readable" sh -c "sfdisk -d '$gdst' | grep -q 'label: gpt'"
p3=$(python3 -c "import json; print(json.load(open('$tmp/out'))['partitions'][2]['target_partuuid'])")
check "GPT: PARTUUID in the table" sh -c "sfdisk -d '$gdst' | grep -qi 'uuid=$p3'"

# --- DOS, three partitions (a data partition after the root), image to image ------------
mkimage "$tmp/d3.img" dos 300 PARTUUID=0badc0de-02 p3 || { fail "mkimage dos p3"; finish; }
before=$(sum_of "$tmp/d3.img")
truncate -s 400m "$tmp/d3t.img"
sbc --json clone "$tmp/d3.img" "$tmp/d3t.img" --apply
expect_rc 0 "apply DOS with three partitions"
json "d['target']['label'] == 'dos' and len(d['partitions']) == 3 and all(c['state'] == 'PASS' for c in d['checks'])" \
	"DOS p3: DOS kept, every check passes"
json "[r['file'] for r in d['rewrites']] == ['cmdline.txt', '/etc/fstab', '/etc/fstab', '/etc/fstab']" \
	"DOS p3: root= and the three fstab entries"
json "d['partitions'][2]['target_size_bytes'] > d['partitions'][2]['size_bytes'] and d['partitions'][2]['method'] == 'used blocks'" \
	"DOS p3: the data partition (last) grown"
d3=$(python3 -c "import json; print(json.load(open('$tmp/out'))['target']['disk_id'][2:])")
check "DOS p3: three partitions in the target's table" sh -c \
	"test \$(sfdisk -d '$tmp/d3t.img' | grep -c '^$tmp/d3t.img[0-9]') = 3"
fstab_of "$tmp/d3t.img" $p2off | grep -q "^PARTUUID=$d3-03  /data" &&
	ok || fail "DOS p3: the data partition's fstab entry names the target"
check "DOS p3: source unchanged" test "$(sum_of "$tmp/d3.img")" = "$before"
rm -f "$tmp/d3t.img"

# --- spellings: /dev/mmcblk0p2 root=, UUID= and LABEL= in fstab --------------------------
mkimage "$tmp/n.img" dos 300 /dev/mmcblk0p2 || { fail "mkimage names"; finish; }
sbc --json clone "$tmp/n.img" "$tmp/n2.img"
json "d['rewrites'][0]['before'] == 'root=/dev/mmcblk0p2' and d['rewrites'][0]['after'].startswith('root=PARTUUID=')" \
	"root=/dev/mmcblk0p2 becomes PARTUUID="
mkimage "$tmp/m.img" dos 300 /dev/nvme0n1p2 || { fail "mkimage nvme"; finish; }
sbc --json clone "$tmp/m.img" "$tmp/m2.img"
json "d['rewrites'][0]['before'] == 'root=/dev/nvme0n1p2' and d['rewrites'][0]['after'] == 'root=PARTUUID=' + d['partitions'][1]['target_partuuid']" \
	"root=/dev/nvme0n1p2 becomes PARTUUID="
mkimage "$tmp/w.img" dos 300 /dev/sda7 || { fail "mkimage sda7"; finish; }
sbc --json clone "$tmp/w.img" "$tmp/w2.img"
json "d['rewrites'][0]['file'] == '/etc/fstab' and any('root=/dev/sda7 names no partition' in w for w in d['warnings'])" \
	"a root= naming no source partition is left alone, with a warning"
# boot/'s check of the copy: root= naming nothing is a FAIL with its fix, and exit 1
sbc --json clone "$tmp/w.img" "$tmp/w2.img" --apply
expect_rc 1 "a copy whose root= names nothing fails its boot check"
json "[(c['state'], c['fix'] is not None) for c in d['checks'] if c['name'] == 'root-resolves'] == [('FAIL', True)]" \
	"root-resolves FAIL, with the fix"
json "all('fix' in c for c in d['checks']) and [c['state'] for c in d['checks'] if c['name'] == 'boot-files'] == ['PASS']" \
	"boot/'s checks, each with a fix key"
sbc clone "$tmp/w.img" "$tmp/w3.img" --apply
grep_out "FAIL  root-resolves" out "the table shows the FAIL"
grep_out "fix: set root=PARTUUID=" out "and its fix"
rm -f "$tmp/w2.img" "$tmp/w3.img"

# --- extlinux.conf: a Jetson (on the root file system) -----------------------------------
mkjetson "$tmp/j.img" || { fail "mkjetson"; finish; }
before=$(sum_of "$tmp/j.img")
ext_of() { debugfs -R 'cat /boot/extlinux/extlinux.conf' "$1?offset=1048576" 2>/dev/null; }
sbc --json clone "$tmp/j.img" "$tmp/j2.img"
json "[(r['file'], r['line'], r['before']) for r in d['rewrites']] == [('/boot/extlinux/extlinux.conf', 10, 'root=/dev/mmcblk0p1'), ('/boot/extlinux/extlinux.conf', 14, 'root=PARTUUID=bbbbbbbb-0000-4000-8000-000000000001')]" \
	"Jetson: the dry run lists both APPEND lines naming the source"
json "all(r['after'] == 'root=PARTUUID=' + d['partitions'][0]['target_partuuid'] for r in d['rewrites'])" \
	"Jetson: each becomes the target's PARTUUID"
json "any('root=/dev/nfs names no partition' in w for w in d['warnings'])" \
	"Jetson: the NFS label is left alone, with a warning"
sbc clone "$tmp/j.img" "$tmp/j2.img"
grep_out "+ root=PARTUUID=" out "Jetson: the table shows before and after"
sbc --json clone "$tmp/j.img" "$tmp/j2.img" --apply
expect_rc 0 "Jetson: apply"
json "all(c['state'] == 'PASS' for c in d['checks']) and all(r['done'] for r in d['rewrites'])" \
	"Jetson: every check passes, every rewrite done"
json "any(c['name'] == 'root-resolves' and 'extlinux.conf' in c['detail'] for c in d['checks'])" \
	"Jetson: the boot check read the copy's extlinux.conf"
jp=$(python3 -c "import json; print(json.load(open('$tmp/out'))['partitions'][0]['target_partuuid'])")
ext_of "$tmp/j2.img" >"$tmp/ext.t"
ext_of "$tmp/j.img" | sed -e "s|root=/dev/mmcblk0p1|root=PARTUUID=$jp|" \
	-e "s|root=PARTUUID=bbbbbbbb-0000-4000-8000-000000000001|root=PARTUUID=$jp|" >"$tmp/ext.want"
check "Jetson: extlinux.conf rewritten, every other byte kept" cmp -s "$tmp/ext.t" "$tmp/ext.want"
ext_of "$tmp/j.img" >"$tmp/ext.s"
check "Jetson: the source's extlinux.conf untouched" grep -q 'root=/dev/mmcblk0p1 rw' "$tmp/ext.s"
check "Jetson: source unchanged" test "$(sum_of "$tmp/j.img")" = "$before"
rm -f "$tmp/j2.img"

# --- extlinux.conf: a VisionFive 2 (on a FAT boot partition), 4 partitions, 2 raw --------
mkvf2 "$tmp/v.img" || { fail "mkvf2"; finish; }
before=$(sum_of "$tmp/v.img")
sbc --json clone "$tmp/v.img" "$tmp/v2.img" --apply
expect_rc 0 "VisionFive 2: apply"
json "[p['method'] for p in d['partitions']] == ['whole', 'whole', 'used blocks', 'used blocks']" \
	"VisionFive 2: raw partitions whole, FAT and ext by their used blocks"
json "[(r['file'], r['before']) for r in d['rewrites']] == [('/etc/fstab', 'UUID=33333333-4444-4555-8666-777777777777 / ext4 defaults 0 1'), ('/extlinux/extlinux.conf', 'root=/dev/mmcblk1p4')]" \
	"VisionFive 2: fstab and the extlinux.conf on the boot partition"
json "all(c['state'] == 'PASS' for c in d['checks']) and all(r['done'] for r in d['rewrites'])" \
	"VisionFive 2: every check passes, every rewrite done"
vp=$(python3 -c "import json; print(json.load(open('$tmp/out'))['partitions'][3]['target_partuuid'])")
mtype -i "$tmp/v2.img@@$((16384 * 512))" ::extlinux/extlinux.conf >"$tmp/ext.t"
mtype -i "$tmp/v.img@@$((16384 * 512))" ::extlinux/extlinux.conf |
	sed "s|root=/dev/mmcblk1p4 rw|root=PARTUUID=$vp rw|" >"$tmp/ext.want"
check "VisionFive 2: the last root= rewritten (the kernel's), every other byte kept" \
	cmp -s "$tmp/ext.t" "$tmp/ext.want"
check "VisionFive 2: the raw partitions copied as they are" sh -c \
	"cmp -s -n $((12288 * 512)) -i $((4096 * 512)):$((4096 * 512)) '$tmp/v.img' '$tmp/v2.img'"
check "VisionFive 2: source unchanged" test "$(sum_of "$tmp/v.img")" = "$before"
rm -f "$tmp/v2.img"

# --- GPT for a target over 2 TiB --------------------------------------------------------
truncate -s 3T "$tmp/huge.img"
sbc --json clone "$tmp/src.img" "$tmp/huge.img" --root-size 1g --apply
expect_rc 0 "a 3 TiB target"
json "d['target']['label'] == 'gpt' and d['target']['label_changed']" "over 2 TiB: GPT"
json "any('2 TiB' in w for w in d['warnings'])" "and says so"
json "all(c['state'] == 'PASS' for c in d['checks'])" "3 TiB: every check passes"
check "3 TiB: a GPT table" sh -c "sfdisk -d '$tmp/huge.img' | grep -q 'label: gpt'"
rm -f "$tmp/huge.img"

# --- an unaligned source (partitions at sector 2048+63): 4 MiB-aligned on the target ------
truncate -s 200m "$tmp/u.img"
printf 'label: dos\nstart=2111, size=100000, type=83\n' | sfdisk -q "$tmp/u.img" >/dev/null
mke2fs -q -F -t ext4 -E offset=$((2111 * 512)) "$tmp/u.img" 50000k
sbc --json clone "$tmp/u.img" "$tmp/u2.img" --apply
expect_rc 0 "unaligned source without boot files: done, with a warning"
json "d['partitions'][0]['target_start_bytes'] == 4 << 20" "moved to 4 MiB"
json "[c['state'] for c in d['checks'] if c['name'].startswith('fsck')] == ['PASS']" \
	"unaligned: e2fsck clean"
json "[c['state'] for c in d['checks'] if c['name'] == 'root-resolves'] == ['WARN']" \
	"no config.txt, no extlinux.conf: whether it boots is not known (WARN)"
# --- /etc/fstab a symbolic link (issue 26, 12): absolute, through a linked directory; the
# file it leads to is rewritten on the target, the links are kept --------------------------
mkimage "$tmp/sl.img" dos 200 PARTUUID=0badc0de-02 || fail "mkimage sl"
sl="$tmp/sl.img?offset=$((139264 * 512))"
for c in "mkdir /etc/conf" "link /etc/fstab /etc/conf/fstab" "unlink /etc/fstab" \
	"symlink /etc/alt conf" "symlink /etc/fstab /etc/alt/fstab"; do
	debugfs -w -R "$c" "$sl" >/dev/null 2>&1 || fail "debugfs $c"
done
e2fsck -fy "$sl" >/dev/null 2>&1
sbc --json clone "$tmp/sl.img" "$tmp/sl2.img" --apply
expect_rc 0 "/etc/fstab a symbolic link"
json "all(c['state'] == 'PASS' for c in d['checks'])" "/etc/fstab a link: every check passes"
json "[r['done'] for r in d['rewrites'] if r['file'] == '/etc/fstab'] == [True, True]" \
	"/etc/fstab a link: rewritten"
sl2="$tmp/sl2.img?offset=$((139264 * 512))"
check "/etc/fstab a link: the file it leads to names the target" sh -c \
	"debugfs -R 'cat /etc/conf/fstab' '$sl2' 2>/dev/null | grep -q \"\$(sfdisk --disk-id '$tmp/sl2.img' | sed 's/^0x//')-02\""
check "/etc/fstab a link: still a link" sh -c \
	"debugfs -R 'stat /etc/fstab' '$sl2' 2>/dev/null | grep -q 'Type: symlink'"
rm -f "$tmp/sl.img" "$tmp/sl2.img"

check "no loop device left at the end" sh -c "! losetup -a | grep -q '$tmp/[a-z0-9]*2*\.img.*offset'"
finish
