# shellcheck shell=bash
# lib.sh - shared by the capacity check's test scripts: tests/lib.sh, plus lie devices (liefs
# over FUSE), loop devices and file systems on them, torn down in reverse order (at_exit: the
# file system, then the loop device, then FUSE). Sourced.
# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

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
	at_exit "umount -l '$tmp/$1'; kill $pid; wait $pid"
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
	at_exit "loop_detach '$loop'"
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
	at_exit "umount '$2'"
}

# json_eq EXPR VALUE DESCRIPTION: the expression on d equals the value, or both are shown
json_eq() {
	local got
	got=$(python3 -c "import json; d=json.load(open('$tmp/out')); print(($1))" 2>&1)
	if [ "$got" = "$2" ]; then ok; else fail "$3: $1 is '$got', expected '$2'"; fi
}
