# shellcheck shell=dash
# partuuid.sh - shell functions for the boot-proof guest (busybox sh): which partition has a
# PARTUUID, read from the partition table itself as the kernel does. Sourced, not run.
# DOS: "%08x-%02x" of the disk identifier (bytes 440..443) and the partition number;
# GPT: the partition entry's unique GUID. 512-byte sectors, as virtio disks have.

# disk_of NAME: the whole disk a partition NAME (vdb2) belongs to (vdb); NAME for a disk
disk_of() {
	if [ -f "/sys/class/block/$1/partition" ]; then
		basename "$(dirname "$(readlink -f "/sys/class/block/$1")")"
	else
		echo "$1"
	fi
}

# gpt_guid DISK OFFSET: the GUID stored at byte OFFSET of /dev/DISK, in its text form
gpt_guid() {
	# shellcheck disable=SC2046 # sixteen bytes into $1..$16
	set -- $(od -An -tx1 -j "$2" -N16 "/dev/$1")
	[ $# -eq 16 ] || return 1
	echo "$4$3$2$1-$6$5-$8$7-$9${10}-${11}${12}${13}${14}${15}${16}"
}

# partuuid_of NAME: the PARTUUID of partition NAME, lower case
partuuid_of() {
	local n disk sig id lba size
	[ -f "/sys/class/block/$1/partition" ] || return 1
	n=$(cat "/sys/class/block/$1/partition")
	disk=$(disk_of "$1")
	sig=$(od -An -tx1 -j510 -N2 "/dev/$disk" | tr -d ' \n')
	[ "$sig" = 55aa ] || return 1
	if [ "$(od -An -tx1 -j450 -N1 "/dev/$disk" | tr -d ' \n')" = ee ]; then
		# protective MBR: the GPT header is at LBA 1, its entries where it says
		lba=$(od -An -tu8 -j$((512 + 72)) -N8 "/dev/$disk" | tr -d ' \n')
		size=$(od -An -tu4 -j$((512 + 84)) -N4 "/dev/$disk" | tr -d ' \n')
		gpt_guid "$disk" $((lba * 512 + (n - 1) * size + 16)) | tr 'A-F' 'a-f'
		return
	fi
	id=$(od -An -tx4 -j440 -N4 "/dev/$disk" | tr -d ' \n')
	printf '%s-%02x\n' "$id" "$n"
}

# partuuid_find PARTUUID: the names of the partitions that carry it, one a line (none: 1)
partuuid_find() {
	local want p n found=1
	want=$(echo "$1" | tr 'A-F' 'a-f')
	for p in /sys/class/block/*; do
		n=${p##*/}
		[ -f "$p/partition" ] || continue
		if [ "$(partuuid_of "$n")" = "$want" ]; then
			echo "$n"
			found=0
		fi
	done
	return $found
}
