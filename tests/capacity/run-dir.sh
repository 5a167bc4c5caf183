#!/bin/bash
# run-dir.sh - a directory's free space, as f3write/f3read check it: ext4 on a lie device
# (reports 1 GiB, wraps onto 256 MiB) is found fake; ext4 on a sound loop device passes; no
# file is left behind, after a finding, or SIGINT or SIGTERM.
. "$(dirname "$0")/lib.sh"
need_fuse

# only lost+found: every file of ours is gone
left_over() { ls -A "$1" | grep -v '^lost+found$'; }

lie_mount lie 1G 256M
loop_attach "$tmp/lie/disk"
mkfs_mount "$loop" "$tmp/liefs"
sb --json verify "$tmp/liefs"
expect_rc 3 "ext4 on a lie device"
json_eq "d['finding'], d['mode'], d['target']['kind']" "('capacity-fake', 'dir', 'dir')" \
	"lie ext4: finding"
json_eq "d['sectors']['overwritten'] > 0 and d['alias_offset_bytes'] is not None" True \
	"lie ext4: overwritten sectors, and where"
json_eq "d['written_bytes'] > 700 * 2**20" True "lie ext4: the free space written"
json_eq "d['real_size_bytes'] <= 256 * 2**20" True "lie ext4: at most the real 256 MiB intact"
json_eq "d['first_bad_offset_bytes'] is not None" True "lie ext4: a first bad offset"
check "lie ext4: no file left" [ -z "$(left_over "$tmp/liefs")" ]
echo "ext4 on the 1 GiB lie: $(python3 -c "import json; d=json.load(open('$tmp/out'))
print(d['real_size_bytes'], 'bytes intact of', d['written_bytes'])")"

truncate -s 256m "$tmp/sound.img"
loop_attach "$tmp/sound.img"
mkfs_mount "$loop" "$tmp/soundfs"
sb --json verify "$tmp/soundfs"
expect_rc 0 "ext4 on a sound loop device"
json_eq "d['pass'], d['finding']" "(True, None)" "sound ext4: passes"
json_eq "d['sectors']['ok'] * 512 == d['written_bytes'] == d['read_bytes'] > 200 * 2**20" True \
	"sound ext4: every byte written read back"
check "sound ext4: no file left" [ -z "$(left_over "$tmp/soundfs")" ]
sb verify "$tmp/soundfs" --size 16m
expect_rc 0 "sound ext4, table"
grep_out "pass: every byte written read back" out "sound ext4: the verdict"

# the file system is full while verify runs; SIGINT and SIGTERM stop it and free it all
for sig in INT TERM; do
	want=130
	[ $sig = TERM ] && want=143
	# shellcheck disable=SC2086
	$run "$bin" --json verify "$tmp/liefs" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	sleep 0.5
	kill -$sig $pid
	wait $pid
	rc=$?
	expect_rc $want "SIG$sig"
	json_eq "d['interrupted']" True "SIG$sig: the document says interrupted"
	check "SIG$sig: no file left" [ -z "$(left_over "$tmp/liefs")" ]
done
finish
