#!/bin/bash
# run-safety.sh - what verify refuses, with one line saying why, and what it leaves behind:
# nothing. The directory part needs no root; the block device part needs loop devices.
. "$(dirname "$0")/lib.sh"

d=$tmp/d
mkdir "$d"

sb verify
expect_rc 2 "no target"
grep_out "which directory or device?" err "no target: says what is missing"
sb verify "$d" "$d"
expect_rc 2 "two targets"
sb verify "$d" --bogus
expect_rc 2 "unknown option"
sb verify "$d" --seed xyz
expect_rc 2 "bad seed"
grep_out "bad seed 'xyz'" err "bad seed message"
sb verify "$d" --size 1k
expect_rc 2 "size too small"
sb verify "$d" --full
expect_rc 2 "--full on a directory"
grep_out "'--full' is for block devices\|--full is for block devices" err "--full message"
echo data >"$tmp/file"
sb verify "$tmp/file"
expect_rc 2 "a regular file"
grep_out "not a directory or a block device" err "regular file message"
check "the file is untouched" [ "$(cat "$tmp/file")" = data ]
sb verify /proc
expect_rc 1 "/proc"
grep_out "stores nothing" err "/proc message"
sb verify "$tmp/none"
expect_rc 1 "missing target"

# a directory: the run with a fixed size and seed passes and leaves nothing
sb --json verify "$d" --size 8m --seed 1f2e3d
expect_rc 0 "directory, 8 MiB"
json_eq "d['seed'], d['written_bytes'], d['read_bytes'], d['sectors']['ok']" \
	"('00000000001f2e3d', 8388608, 8388608, 16384)" "8 MiB: every sector"
json_eq "d['files'], d['real_size_bytes'], d['pass']" "(1, 8388608, True)" "8 MiB: one file"
check "directory: no file left" [ -z "$(ls -A "$d")" ]

# on a terminal: the progress line on stderr, phase by phase; never on stdout
# shellcheck disable=SC2086
tty_run $run "$bin" verify "$d" --size 32m
expect_rc 0 "progress run"
check "progress: writing shown" grep -q "writing  0B of 32M" "$tmp/tty"
check "progress: reading shown" grep -q "reading  0B of 32M" "$tmp/tty"
check "progress: not on stdout" [ "$(grep -c $'\r' "$tmp/out")" = 0 ]
grep_out "pass: every byte written read back" out "progress run: the result on stdout"
# shellcheck disable=SC2086
tty_run $run "$bin" --json verify "$d" --size 32m
check "progress: none with --json" [ "$(grep -c writing "$tmp/tty")" = 0 ]

# our file name taken (a symbolic link, or a file left by someone): refused, untouched
ln -s "$tmp/file" "$d/sbcdisk-verify-0.tmp"
sb verify "$d" --size 1m
expect_rc 1 "a symbolic link in the way"
grep_out "already exists: not overwriting it" err "link message"
check "the link's target is untouched" [ "$(cat "$tmp/file")" = data ]
check "the link is still there" [ -L "$d/sbcdisk-verify-0.tmp" ]
rm "$d/sbcdisk-verify-0.tmp"

# block devices: only with --destructive, never while mounted
[ -z "$run" ] && [ "$(id -u)" = 0 ] && [ -e /dev/loop-control ] || finish
truncate -s 64m "$tmp/disk.img"
loop_attach "$tmp/disk.img"
sb verify "$loop"
expect_rc 2 "block device without --destructive"
grep_out "add --destructive" err "--destructive message"
sb verify "$loop" --destructive --size 1m
expect_rc 2 "--size on a device"
check "nothing written without --destructive" [ "$(du -k "$tmp/disk.img" | cut -f1)" = 0 ]
if command -v mkfs.ext4 >/dev/null; then
	mkfs_mount "$loop" "$tmp/mnt"
	sb verify "$loop" --destructive
	expect_rc 1 "mounted device"
	grep_out "it is mounted on $tmp/mnt" err "mounted message"
	check "the file system is intact" [ -d "$tmp/mnt/lost+found" ]
fi
finish
