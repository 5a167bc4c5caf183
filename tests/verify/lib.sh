# lib.sh - shared by the verify test scripts: bench's helpers, plus lie devices (liefs over
# FUSE) and loop devices, torn down in reverse order. Sourced.
. "$(dirname "$0")/../bench/lib.sh"

# cleanups run last-in first-out: the file system, then the loop device, then FUSE
cleanup() {
	# a subshell killed before it resets its traps runs this too: only the script cleans up
	[ "$BASHPID" = "$$" ] || return 0
	local i
	for ((i = ${#cleanups[@]} - 1; i >= 0; i--)); do eval "${cleanups[i]}" >/dev/null 2>&1; done
	rm -rf "$tmp"
}

skip() { echo "SKIP: $*"; exit 77; }

# sv ARGS...: run `sbcdisk ARGS`; output in $tmp/out, $tmp/err, the exit status in rc
sv() {
	# shellcheck disable=SC2086 # SBCDISK_RUN is a command prefix, possibly empty
	timeout 120 $run "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

need_loop() {
	[ -z "$run" ] || skip "no loop devices under qemu-user"
	[ "$(id -u)" = 0 ] || skip "loop devices need root"
	command -v losetup >/dev/null || skip "losetup missing (util-linux)"
	[ -e /dev/loop-control ] || skip "no /dev/loop-control: the kernel has no loop devices"
}

need_fuse() {
	need_loop
	[ -n "${SBCDISK_LIEFS:-}" ] || skip "liefs not built: libfuse3-dev missing"
	[ -c /dev/fuse ] || skip "no /dev/fuse: the kernel has no FUSE"
}

# lie_mount NAME SIZE REAL [OPTION]: a liefs mount at $tmp/NAME whose file $tmp/NAME/disk
# reports SIZE and wraps onto REAL bytes kept in a sparse file
lie_mount() {
	mkdir -p "$tmp/$1"
	"$SBCDISK_LIEFS" "$tmp/$1" --size="$2" --real="$3" --backing="$tmp/$1.back" ${4:+"$4"} -f \
		2>"$tmp/$1.log" &
	local pid=$! i
	cleanups+=("umount -l '$tmp/$1'; kill $pid; wait $pid")
	for i in $(seq 50); do
		[ -f "$tmp/$1/disk" ] && return 0
		sleep 0.1
	done
	skip "liefs did not mount: $(head -1 "$tmp/$1.log")"
}

# loop_attach FILE: the loop device over FILE in $loop
loop_attach() {
	loop=$(losetup -f --show "$1" 2>"$tmp/losetup.err") ||
		skip "losetup failed: $(head -1 "$tmp/losetup.err")"
	cleanups+=("loop_detach '$loop'")
}

# mkfs_mount DEV DIR: ext4 laid out for a device that wraps: no journal and no backup
# superblocks (they would land in the middle), every group's tables at the start
mkfs_mount() {
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing (e2fsprogs)"
	mkfs.ext4 -q -F -O ^has_journal,sparse_super2,^resize_inode \
		-E num_backup_sb=0,nodiscard,lazy_itable_init=1 -G 64 -N 256 "$1" >/dev/null ||
		skip "mkfs.ext4 failed"
	mkdir -p "$2"
	mount "$1" "$2" || skip "cannot mount ext4 on $1"
	cleanups+=("umount '$2'")
}

# json_eq EXPR VALUE DESCRIPTION: the expression on d equals the value, or both are shown
json_eq() {
	local got
	got=$(python3 -c "import json; d=json.load(open('$tmp/out')); print(($1))" 2>&1)
	if [ "$got" = "$2" ]; then ok; else fail "$3: $1 is '$got', expected '$2'"; fi
}
