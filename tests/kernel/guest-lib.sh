# shellcheck shell=bash
# guest-lib.sh - helpers for the guest scripts of the kernel cases (sourced from $K/run.sh)

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
