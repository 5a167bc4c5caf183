# shellcheck shell=bash
# guest-lib.sh - helpers for the guest scripts of the kernel cases (sourced from $K/run.sh)

# ok/no DESCRIPTION, t DESCRIPTION CMD...: a check's result as a line of the guest's output,
# "ok: ..." or "FAIL: ...", that kresults (tests/kernel/lib.sh) counts on the host
ok() { echo "ok: $*"; }
no() { echo "FAIL: $*"; }
t() { local d=$1; shift; if "$@"; then ok "$d"; else no "$d"; fi; }

# kparts_same DISK WHAT: the kernel's partitions of DISK are its table's, and have nodes
kparts_same() {
	local want got d
	want=$(sfdisk -d "/dev/$1" |
		sed -n 's|^/dev/\([a-z0-9]*\) : start= *\([0-9]*\), size= *\([0-9]*\).*|\1 \2 \3|p')
	got=$(for d in /sys/block/"$1"/"$1"*; do
		[ -e "$d/start" ] && echo "${d##*/} $(cat "$d/start") $(cat "$d/size")"
	done)
	t "$2: the kernel's partitions are the table's (table '$want', kernel '$got')" \
		test -n "$want" -a "$want" = "$got"
	for d in $(echo "$want" | cut -d' ' -f1); do t "$2: /dev/$d" test -b "/dev/$d"; done
}

# wait_blocks N [SECONDS]: until N disks are there (sd*, nvme*n*, mmcblk*), 60 s at most
wait_blocks() {
	local i=0 n
	while :; do
		n=$(ls -d /sys/block/sd* /sys/block/nvme*n* /sys/block/mmcblk[0-9] 2>/dev/null |
			wc -l)
		[ "$n" -ge "$1" ] && return 0
		[ $i -ge $((${2:-60} * 5)) ] && { echo "wait_blocks: $n of $1 disks"; return 1; }
		sleep 0.2
		i=$((i + 1))
	done
}

# blk_serial SERIAL: the disk whose USB device or NVMe controller has that serial number
blk_serial() {
	local b p s
	for b in /sys/block/*; do
		p=$(readlink -f "$b/device")
		while [ "$p" != / ] && [ -n "$p" ]; do
			# (an NVMe serial number is padded with spaces)
			s=$(cat "$p/serial" 2>/dev/null)
			if [ "${s%% *}" = "$1" ]; then
				echo "${b##*/}"
				return 0
			fi
			p=${p%/*}
		done
	done
	return 1
}
