#!/bin/bash
# run-swapfile.sh - a file in use as swap (/proc/swaps lists it as "file") is in use: bench
# --destructive and verify --destructive on a loop device over it, and clone to the file,
# are refused in one line naming the swap, and write nothing (the kernel refuses writes to an
# active swap file; through a loop device they failed as "Input/output error"). Once swapoff
# has run, the same loop device is written.
. "$(dirname "$0")/lib.sh"
clone_need
command -v swapon >/dev/null && command -v mkswap >/dev/null || skip "swapon missing (util-linux)"

dd if=/dev/zero of="$tmp/swap.img" bs=1M count=256 status=none
chmod 600 "$tmp/swap.img"
mkswap "$tmp/swap.img" >/dev/null || { fail "mkswap"; finish; }
swapon "$tmp/swap.img" 2>/dev/null || skip "no swap on a file here (the file system of $tmp)"
at_exit "swapoff '$tmp/swap.img' 2>/dev/null"
check "the file is listed as swap" grep -q "^$tmp/swap.img .*file" /proc/swaps
loop_attach "$tmp/swap.img" || { fail "losetup"; finish; }
sum0=$(sum_of "$tmp/swap.img")

refused() { refused_unchanged "$1" "$2" "$tmp/swap.img" "$sum0"; }

sb bench "$loopdev" --destructive --engine psync --size 1m --test rw=write,bs=4k,time=0.1s \
	--no-save
refused "bench --destructive over a swap file" \
	"it is over the file $tmp/swap.img, which is active swap (/proc/swaps)"
sb verify "$loopdev" --destructive
refused "verify --destructive over a swap file" "which is active swap"
mkimage "$tmp/src.img" dos 200 PARTUUID=0badc0de-02 || { fail "mkimage src"; finish; }
sbc clone "$tmp/src.img" "$tmp/swap.img" --apply
refused "clone to a swap file" "it is active swap (/proc/swaps)"

swapoff "$tmp/swap.img"
sb verify "$loopdev" --destructive
expect_rc 0 "verify --destructive once the swap is off"
finish
