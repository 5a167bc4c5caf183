#!/bin/bash
# run-safety.sh - usage errors exit 2 with one clear line; a symlink or an existing file at
# the test file's name is refused and left alone; too little free space is found first.
. "$(dirname "$0")/lib.sh"

d=$tmp/d
mkdir "$d"

# bad options: exit 2 and a message naming the subject
bad() { # expected-text args...
	local want=$1
	shift
	sb bench "$d" "$@"
	expect_rc 2 "bench $*"
	grep_out "$want" err "bench $*"
	check "bench $*: one line and the hint" [ "$(wc -l <"$tmp/err")" -le 2 ]
}
bad "bad test 'rw=foo'" --test rw=foo
bad "rw= is missing" --test bs=4k
bad "unknown key 'colour'" --test rw=read,colour=red
bad "multiple of 512" --test rw=read,bs=1000
bad "bad value '0' for 'qd'" --test rw=read,qd=0
bad "unknown profile 'nope'" --profile nope
# a key given twice is refused, under either of its names
bad "'rw' is given twice" --test rw=read,rw=write
bad "'qd' is given twice" --test rw=read,qd=2,iodepth=4
# what a test costs is bounded before anything starts: psync runs one thread per queued I/O
# (qd 64 x threads 64 took 15.9 s and 378 MB for a 200 ms test); buffers in flight too
bad "needs 4096 threads with the psync engine" --engine psync \
	--test rw=read,qd=64,threads=64,time=200ms
bad "at most 512: lower qd or threads" --engine psync --test rw=read,qd=64,threads=64
bad "keeps 4194304 MiB in flight" --engine null --test rw=read,qd=1024,threads=64,bs=64m
# the largest built-in profile still runs with psync (RND4K Q32T16: 512 threads)
sb bench "$d" --engine null --profile extended --time 10ms
expect_rc 0 "the extended profile with the null engine"
# (sb appends --no-save, which would be taken as the value)
# shellcheck disable=SC2086
$run "$bin" bench "$d" --no-save --profile >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc 2 "bench --profile without a value"
grep_out "option '--profile' needs a value" err "a missing value is named as such"
bad "bad run count '0'" --runs 0
bad "bad time 'soon'" --time soon
bad "bad size '1'" --size 1
bad "unknown engine 'libaio'" --engine libaio --test rw=read
bad "do not go together" --profile quick --test rw=read
bad "unknown option '--frobnicate'" --frobnicate
sb bench "$d" "$tmp" --test rw=read
expect_rc 2 "two targets"
check "nothing was created by the refusals" [ -z "$(ls -A "$d")" ]

sb bench --profile help
expect_rc 0 "--profile help"
for p in default peak real nvme hdparm extended sdcard dd sustained quick; do
	grep_out "^  $p " out "--profile help lists $p"
done
sb bench --help
expect_rc 0 "--help"

# sb_planted CMD ARGS...: sb from a shell that first runs CMD with $f set to the test file
# name that very process will use (sbcdisk-bench-PID.tmp: the shell execs sbcdisk)
sb_planted() {
	local plant=$1
	shift
	# shellcheck disable=SC2016,SC2086 # the script is for the inner shell; $run is a prefix
	timeout 120 bash -c 'f=$0/sbcdisk-bench-$$.tmp; eval "$1"; shift; exec "$@"' "$d" "$plant" \
		$run "$bin" "$@" --no-save >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
export victim=$tmp/victim
planted() { ls "$d"/sbcdisk-bench-*.tmp 2>/dev/null; }

# a symlink at the test file's name: refused, its target never created or written
sb_planted 'ln -s "$victim" "$f"' bench "$d" --test rw=write,bs=4k,time=0.1s --size 1m --engine psync
expect_rc 1 "symlink at the test file"
grep_out "is a symbolic link: refusing" err "symlink refusal message"
rm -f "$d"/sbcdisk-bench-*.tmp
sb_planted 'ln -s "$victim" "$f"' bench "$d/" --test rw=write,bs=4k,time=0.1s --size 1m --engine psync
grep_out "'$(planted)' is a symbolic link" err "a target with a trailing / names the file once"
check "symlink target not created" [ ! -e "$tmp/victim" ]
check "symlink kept" [ -L "$(planted)" ]
rm -f "$d"/sbcdisk-bench-*.tmp
echo precious >"$tmp/victim"
sb_planted 'ln -s "$victim" "$f"' bench "$d" --test rw=write,bs=4k,time=0.1s --size 1m --engine psync
expect_rc 1 "symlink to a file"
check "symlink target unchanged" [ "$(cat "$tmp/victim")" = precious ]
rm -f "$d"/sbcdisk-bench-*.tmp

# an existing regular file at that name is never overwritten
sb_planted 'echo mine >"$f"' bench "$d" --test rw=write,bs=4k,time=0.1s --size 1m --engine psync
expect_rc 1 "existing test file"
grep_out "already exists: not overwriting it" err "existing file message"
check "existing file unchanged" [ "$(cat "$(planted)")" = mine ]
rm -f "$d"/sbcdisk-bench-*.tmp

# a target that is not there, or not a file, directory or device
sb bench "$tmp/missing" --test rw=read,time=0.1s
expect_rc 1 "missing target"
grep_out "sbcdisk: bench: target '$tmp/missing': No such file or directory" err "missing msg"
mkfifo "$tmp/fifo"
sb bench "$tmp/fifo" --test rw=read,time=0.1s
expect_rc 1 "fifo target"
# a path with a newline, an escape sequence and a byte that is not UTF-8: the JSON is still
# UTF-8, the table and an error each keep to one line, and the bytes show as '?'
odd="$tmp/$(printf 'we\nird\033[31m\377')"
mkdir "$odd"
sb bench "$odd" --json --engine psync --size 1m --test rw=read,bs=64k,time=0.1s
expect_rc 0 "an odd directory name"
json "d['target']['path'] == '$tmp/we?ird?[31m?'" "an odd name in JSON"
sb bench "$odd" --engine psync --size 1m --test rw=read,bs=64k,time=0.1s
grep_out "^Target: $tmp/we?ird?\[31m? (dir" out "an odd name in the table, one line"
rmdir "$odd"
sb bench "$odd" --test rw=read,time=0.1s
check "an odd missing target: one line" [ "$(wc -l <"$tmp/err")" -eq 1 ]
grep_out "target '$tmp/we?ird?\[31m?': No such file" err "an odd missing target: shown with '?'"
# a name longer than the kernel takes: named by its start, with its length
long="$tmp/$(printf 'a%.0s' $(seq 5000))"
sb bench "$long" --test rw=read,time=0.1s
expect_rc 1 "a name of 5000 bytes"
check "a name of 5000 bytes: one line" [ "$(wc -l <"$tmp/err")" -eq 1 ]
check "a name of 5000 bytes: a short line" [ "$(wc -c <"$tmp/err")" -lt 200 ]
grep_out "target '$tmp/aaa*\.\.\.': the path is too long ([0-9]* bytes, at most 4095)" err \
	"a name of 5000 bytes: its start and length"

# a directory whose file system stores nothing
sb bench /proc --test rw=read,time=0.1s --size 1m
expect_rc 1 "a directory on /proc"
grep_out "its file system stores nothing" err "/proc message"

# too little free space is found before anything is written
if [ "$(id -u)" = 0 ] && [ -z "$run" ] && mkdir "$tmp/small" &&
	mount -t tmpfs -o size=4m tmpfs "$tmp/small" 2>/dev/null; then
	at_exit "umount '$tmp/small'"
	sb bench "$tmp/small" --test rw=randread,bs=4k,time=0.1s --size 16m --engine psync
	expect_rc 1 "too little free space"
	grep_out "not enough free space" err "free space message"
	check "nothing left on the small fs" [ -z "$(ls -A "$tmp/small")" ]
	umount "$tmp/small"
else
	echo "note: free-space check skipped (needs root and tmpfs)"
fi

finish
