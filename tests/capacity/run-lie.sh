#!/bin/bash
# run-lie.sh - the probe on block devices: a loop device over liefs (reports 64 GiB, wraps onto
# 256 MiB, or onto 200 MiB where no power of two shows it) is found fake with its real size and
# first bad offset; a sound loop device passes, probe and --full.
. "$(dirname "$0")/lib.sh"
need_fuse

# a wrap at a power of two: the common counterfeit
lie_mount lie 64G 256M
loop_attach "$tmp/lie/disk"
start=$(date +%s)
sb --json verify "$loop" --destructive
took=$(($(date +%s) - start))
echo "probe of a 64 GiB lie device wrapping at 256 MiB: ${took} s"
expect_rc 3 "lie device (256 MiB)"
json_eq "d['finding']" capacity-fake "256 MiB: finding"
json_eq "d['size_bytes']" 68719476736 "256 MiB: reported size"
json_eq "d['real_size_bytes']" 268435456 "256 MiB: real size"
json_eq "d['first_bad_offset_bytes']" 268435456 "256 MiB: first bad offset"
json_eq "(d['alias_offset_bytes'], d['alias_of_offset_bytes'])" "(268435456, 0)" \
	"256 MiB: the wrap named"
json_eq "d['mode'], d['pass']" "('probe', False)" "256 MiB: mode and verdict"
check "probe under a minute (issue 16), took ${took} s" [ "$took" -lt 60 ]
lie_loop=$loop

# the same in the table for people
sb verify "$lie_loop" --destructive
expect_rc 3 "lie device, table"
grep_out "finding capacity-fake: it holds 256M, not the 64G it reports" out "table finding"
grep_out "first bad offset   256M (268435456 bytes)" out "table first bad offset"

# a wrap at no power of two: found from where the overwritten sectors came from
lie_mount lie200 64G 200M
loop_attach "$tmp/lie200/disk"
sb --json verify "$loop" --destructive
expect_rc 3 "lie device (200 MiB)"
json_eq "d['finding']" capacity-fake "200 MiB: finding"
json_eq "d['real_size_bytes']" 209715200 "200 MiB: real size"
json_eq "d['first_bad_offset_bytes']" 209715200 "200 MiB: first bad offset"

# --full on a small lie: every block written and read, the overwritten ones counted
lie_mount small 512M 128M
loop_attach "$tmp/small/disk"
sb --json verify "$loop" --destructive --full
expect_rc 3 "lie device --full"
json_eq "d['finding'], d['mode']" "('capacity-fake', 'full')" "--full: finding"
json_eq "d['real_size_bytes']" 0 "--full: the first sectors were overwritten by the last"
json_eq "d['written_bytes']" 536870912 "--full: wrote it all"
json_eq "d['sectors']['ok'] * 512" 134217728 "--full: 128 MiB read back intact"
json_eq "d['sectors']['overwritten'] * 512" 402653184 "--full: the rest overwritten"

# a sound device passes, probe and --full
truncate -s 256m "$tmp/sound.img"
loop_attach "$tmp/sound.img"
sb --json verify "$loop" --destructive
expect_rc 0 "sound loop device"
json_eq "d['finding'], d['pass']" "(None, True)" "sound: no finding"
json_eq "d['real_size_bytes'], d['first_bad_offset_bytes']" "(268435456, None)" "sound: size"
json_eq "d['sectors']['corrupted'] + d['sectors']['changed'] + d['sectors']['overwritten']" 0 \
	"sound: no bad sectors"
sb --json verify "$loop" --destructive --full
expect_rc 0 "sound loop device --full"
json_eq "d['sectors']['ok'], d['written_bytes'], d['read_bytes']" \
	"(524288, 268435456, 268435456)" "sound --full: every sector"
json_eq "d['write_bw_bytes_per_s'] > 0 and d['read_bw_bytes_per_s'] > 0" True "sound: speeds"

# a device that reads one byte back wrong (no wrap): data-corrupt, at that sector
lie_mount flip 64M 64M --flip=40000300
loop_attach "$tmp/flip/disk"
sb --json verify "$loop" --destructive --full
expect_rc 3 "a flipped bit"
json_eq "d['finding'], d['first_bad_offset_bytes']" "('data-corrupt', 40000000)" \
	"flipped bit: data-corrupt at its sector"
json_eq "d['sectors']['changed'], d['sectors']['overwritten'], d['sectors']['corrupted']" \
	"(1, 0, 0)" "flipped bit: one sector changed"
json_eq "d['real_size_bytes']" 40000000 "flipped bit: intact up to it"
finish
