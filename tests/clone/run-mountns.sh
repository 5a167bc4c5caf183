#!/bin/bash
# run-mountns.sh - an image mounted in another mount namespace (a container, a service's
# private mounts: unshare -m here) is not in this process's mount table, but the kernel
# holds its loop device: bench --destructive and verify --destructive on a second loop
# device over the same file, and clone to the file, are refused in one line and write
# nothing. Once that mount is gone, the same loop device is written.
. "$(dirname "$0")/lib.sh"
clone_need
command -v unshare >/dev/null || skip "unshare missing (util-linux)"

truncate -s 256M "$tmp/disk.img"
mke2fs -q -F -t ext4 "$tmp/disk.img" || { fail "mke2fs"; finish; }
mkdir -p "$tmp/mnt"
unshare -m --propagation private sh -c 'mount -o loop,ro,noload "$1" "$2" && : >"$3" &&
	exec sleep 300' sh "$tmp/disk.img" "$tmp/mnt" "$tmp/ready" 2>/dev/null &
holder=$!
at_exit "kill $holder 2>/dev/null"
for _ in $(seq 100); do [ -e "$tmp/ready" ] && break; sleep 0.1; done
[ -e "$tmp/ready" ] || skip "cannot mount in another mount namespace here"
check "the mount is not in this namespace's table" test -z "$(findmnt -n "$tmp/mnt" 2>/dev/null)"
loop_attach "$tmp/disk.img" || { fail "losetup"; finish; }
sum0=$(sum_of "$tmp/disk.img")

refused() { refused_unchanged "$1" "held open exclusively" "$tmp/disk.img" "$sum0"; }

sb bench "$loopdev" --destructive --engine psync --size 1m --test rw=write,bs=4k,time=0.1s \
	--no-save
refused "bench --destructive, the file mounted in another mount namespace"
sb verify "$loopdev" --destructive
refused "verify --destructive, the file mounted in another mount namespace"
mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage src"; finish; }
sbc clone "$tmp/src.img" "$tmp/disk.img" --apply
refused "clone to the file mounted in another mount namespace"

# the namespace gone, its mount and loop device go with it: nothing holds the file now
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
for _ in $(seq 100); do
	[ "$(losetup -j "$tmp/disk.img" | wc -l)" -le 1 ] && break
	sleep 0.1
done
sb verify "$loopdev" --destructive
expect_rc 0 "verify --destructive once nothing holds the file"
finish
