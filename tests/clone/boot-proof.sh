#!/bin/bash
# boot-proof.sh - a clone boots: build a small arm64 image laid out like Raspberry Pi OS
# (tools/mk-pi-image), clone it into a second image, boot the clone in qemu-system-aarch64 with
# the kernel, initramfs and command line read from the clone's own boot partition and the
# original attached too, and check the line the guest's init prints: / is the clone's p2 and
# /etc/fstab resolves on the clone. A copy with a new disk id whose cmdline.txt was not
# rewritten must fail the same check (it mounts the original's root, or finds no root at all).
# Native pass only; 3-6 minutes here: the image in 55-90 s, three boots of 24-90 s under TCG.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
build=${SBCDISK_BUILDDIR:?}
start=$(date +%s)

native_only "the boot proof runs"
[ "$(id -u)" = 0 ] || skip "the boot proof needs root (mkfs, sfdisk)"
for t in qemu-system-aarch64 sfdisk mtype mcopy mkfs.vfat mkfs.ext4 debugfs cpio dpkg-deb \
	apt-get; do
	command -v "$t" >/dev/null || skip "no '$t' (tools/setup test installs it)"
done
# the .debs (kernel, busybox-static) are cached in the build directory, nowhere else
cache=$build/boot-proof-cache
"$src/tools/mk-pi-image" --fetch --cache "$cache" 2>"$tmp/fetch.err" ||
	skip "cannot get the arm64 packages: $(cat "$tmp/fetch.err")"

# boot_timeout: seconds a boot may take before it counts as hung; ~20 s unloaded, 60 s seen
# with the machine busy
boot_timeout=240

# like STRING PATTERN: STRING matches the shell PATTERN (called through check)
# shellcheck disable=SC2254,SC2317 # a pattern, on purpose
like() { case $1 in $2) return 0 ;; *) return 1 ;; esac; }

# part_start IMG N: the byte offset of partition N of IMG
part_start() {
	sfdisk -d "$1" | sed -n "s|^$1$2 : start= *\([0-9]*\),.*|\1|p" | awk '{ print $1 * 512 }'
}
disk_id() { sfdisk --disk-id "$1" | sed 's/^0x//'; }
new_id() {
	local id
	while id=$(od -An -tx4 -N4 /dev/urandom | tr -d ' \n'); [ "$id" = "$(disk_id "$1")" ]; do
		:
	done
	echo "$id"
}

# rewrite_refs IMG OLD NEW: the stand-in for sbcdisk's rewrites: cmdline.txt on p1 (mtools)
# and /etc/fstab on p2 (debugfs on a copy of the partition, spliced back)
rewrite_refs() {
	local img=$1 old=$2 new=$3 p1 p2 sz
	p1=$(part_start "$img" 1) p2=$(part_start "$img" 2)
	mtype -i "$img@@$p1" ::cmdline.txt >"$tmp/cmdline.txt" || return 1
	sed -i "s/PARTUUID=$old-/PARTUUID=$new-/g" "$tmp/cmdline.txt"
	mcopy -o -i "$img@@$p1" "$tmp/cmdline.txt" ::cmdline.txt || return 1
	sz=$(sfdisk -d "$img" | sed -n "s|^${img}2 : .*size= *\([0-9]*\),.*|\1|p")
	dd if="$img" of="$tmp/p2" bs=512 skip=$((p2 / 512)) count="$sz" status=none || return 1
	debugfs -R "dump /etc/fstab $tmp/fstab" "$tmp/p2" 2>/dev/null || return 1
	sed -i "s/PARTUUID=$old-/PARTUUID=$new-/g" "$tmp/fstab"
	debugfs -w -f - "$tmp/p2" >/dev/null 2>&1 <<-EOF || return 1
		cd /etc
		rm fstab
		write $tmp/fstab fstab
		sif fstab mode 0100644
	EOF
	dd if="$tmp/p2" of="$img" bs=512 seek=$((p2 / 512)) conv=notrunc status=none
	rm -f "$tmp/p2"
}

# clone_image SRC DST: `sbcdisk clone SRC DST --apply` once the command exists; until then a
# stand-in that does what it promises for this layout: a copy, a new disk identifier, the
# references rewritten
clone_image() {
	local id
	if "$bin" clone --help >/dev/null 2>&1; then
		cloned_by="sbcdisk clone"
		truncate -s "$(stat -c %s "$1")" "$2"
		timeout 300 "$bin" clone "$1" "$2" --apply >"$tmp/clone.out" 2>&1
		return
	fi
	cloned_by="the stand-in (no 'sbcdisk clone' in this build)"
	cp --sparse=always "$1" "$2" || return 1
	id=$(new_id "$1")
	sfdisk -q --disk-id "$2" "0x$id" >/dev/null 2>&1 || return 1
	rewrite_refs "$2" "$(disk_id "$1")" "$id"
}

# boot_image LOG IMG IMG:SERIAL...: boot IMG's kernel, initramfs and command line, as named by
# its own config.txt and cmdline.txt, with the images attached as virtio disks in the order
# given (SERIAL their serial numbers; IMG read-write, the others read-only); the guest's
# console in LOG
boot_image() {
	local log=$1 img=$2 p1 kernel initrd cmdline disks=() ro a n=0
	shift 2
	p1=$(part_start "$img" 1)
	mtype -i "$img@@$p1" ::config.txt >"$tmp/config.txt" || return 1
	kernel=$(sed -n 's/^kernel=\([^ ]*\).*/\1/p' "$tmp/config.txt" | tr -d '\r')
	initrd=$(sed -n 's/^initramfs \([^ ]*\).*/\1/p' "$tmp/config.txt" | tr -d '\r')
	cmdline=$(mtype -i "$img@@$p1" ::cmdline.txt | tr -d '\r\n')
	[ -n "$kernel" ] && [ -n "$initrd" ] && [ -n "$cmdline" ] || return 1
	mcopy -o -i "$img@@$p1" "::$kernel" "$tmp/kernel" || return 1
	mcopy -o -i "$img@@$p1" "::$initrd" "$tmp/initrd" || return 1
	for a in "$@"; do
		ro=,readonly=on
		[ "${a%%:*}" = "$img" ] && ro=''
		disks+=(-drive "if=none,id=d$n,format=raw,file=${a%%:*}$ro"
			-device "virtio-blk-pci,drive=d$n,serial=${a#*:}")
		n=$((n + 1))
	done
	timeout "$boot_timeout" qemu-system-aarch64 -M virt -cpu cortex-a53 -m 512 -nographic \
		-no-reboot -nic none -kernel "$tmp/kernel" -initrd "$tmp/initrd" -append "$cmdline" \
		"${disks[@]}" </dev/null >"$log" 2>&1
	echo $? >"$log.rc"
}

# verdict LOG SERIAL PARTUUID: "ok" when the guest says / is PARTUUID on the disk with SERIAL
# and its fstab resolves there; else what went wrong, in words
verdict() {
	local line rc
	rc=$(cat "$1.rc")
	line=$(tr -d '\r' <"$1" | grep -a '^SBCDISK-BOOT ' | tail -1)
	if [ -z "$line" ]; then
		if grep -aq 'ALERT!.*does not exist' "$1"; then
			echo "no root: $(tr -d '\r' <"$1" | grep -ao 'ALERT!.*does not exist' | tail -1)"
		elif [ "$rc" = 124 ]; then
			echo "hung: no SBCDISK-BOOT line within ${boot_timeout}s"
		else
			echo "no SBCDISK-BOOT line (qemu exit $rc): $(tr -d '\r' <"$1" | tail -1)"
		fi
		return
	fi
	case " $line " in
	*" serial=$2 "*) ;;
	*) echo "root is not on the $2 disk: $line"; return ;;
	esac
	case " $line " in
	*" partuuid=$3 "*) ;;
	*) echo "root is not PARTUUID=$3: $line"; return ;;
	esac
	case " $line " in
	*" fstab=ok "*) echo ok ;;
	*) echo "fstab does not resolve on the $2 disk: $line" ;;
	esac
}

orig=$tmp/orig.img
t0=$(date +%s)
"$src/tools/mk-pi-image" --cache "$cache" "$orig" >"$tmp/mk.out" 2>&1 ||
	{ fail "mk-pi-image: $(tail -3 "$tmp/mk.out")"; finish; }
echo "image built in $(($(date +%s) - t0)) s: $(cat "$tmp/mk.out")"
oid=$(disk_id "$orig")
sum0=$(sha256sum <"$orig")

# the clone, with the original attached first (where a clone that kept the source's ids
# would lose: the first disk with a PARTUUID wins): / and fstab must be the clone's
clone=$tmp/clone.img
t0=$(date +%s)
clone_image "$orig" "$clone"
rc=$?
echo "cloned by $cloned_by in $(($(date +%s) - t0)) s"
check "clone exits 0 (rc $rc): $(tail -3 "$tmp/clone.out" 2>/dev/null)" [ $rc -eq 0 ]
check "the source is byte-identical after the clone" [ "$(sha256sum <"$orig")" = "$sum0" ]
cid=$(disk_id "$clone")
check "the clone has a disk identifier" [ -n "$cid" ]
check "the clone's disk identifier is new ($cid)" [ "$cid" != "$oid" ]
p1=$(part_start "$orig" 1) q1=$(part_start "$clone" 1)
before=$(mtype -i "$orig@@$p1" ::cmdline.txt) after=$(mtype -i "$clone@@$q1" ::cmdline.txt)
check "cmdline.txt: only root= changed ('$after')" \
	[ "${before/PARTUUID=$oid-02/PARTUUID=$cid-02}" = "$after" ]
t0=$(date +%s)
boot_image "$tmp/boot-clone.log" "$clone" "$orig:orig" "$clone:clone"
v=$(verdict "$tmp/boot-clone.log" clone "$cid-02")
echo "clone: $v ($(($(date +%s) - t0)) s)"
check "the clone boots from its own root with the original attached: $v" [ "$v" = ok ]

# the negative case: a new disk identifier, cmdline.txt and fstab not rewritten. With the
# original attached the clone's kernel mounts the original's root: the check must say so
bad=$tmp/norewrite.img
cp --sparse=always "$orig" "$bad"
sfdisk -q --disk-id "$bad" "0x$(new_id "$orig")" >/dev/null 2>&1
bid=$(disk_id "$bad")
t0=$(date +%s)
boot_image "$tmp/boot-bad.log" "$bad" "$orig:orig" "$bad:norewrite"
v=$(verdict "$tmp/boot-bad.log" norewrite "$bid-02")
echo "not rewritten, original attached: $v ($(($(date +%s) - t0)) s)"
check "a clone whose cmdline.txt was not rewritten fails the check" [ "$v" != ok ]
check "... because its root is the original's p2 ($v)" \
	like "$v" "root is not on the norewrite disk:* partuuid=$oid-02 serial=orig *"

# ... and alone it finds no root at all (rootwait would wait for ever; the initramfs says so)
t0=$(date +%s)
boot_image "$tmp/boot-alone.log" "$bad" "$bad:norewrite"
v=$(verdict "$tmp/boot-alone.log" norewrite "$bid-02")
echo "not rewritten, alone: $v ($(($(date +%s) - t0)) s)"
check "alone, it finds no root ($v)" [ "$v" = "no root: ALERT! PARTUUID=$oid-02 does not exist" ]

[ "$failures" -eq 0 ] || for l in "$tmp"/boot-*.log; do
	echo "--- ${l##*/}"
	tr -d '\r' <"$l" | tail -15
done
echo "boot proof: $(($(date +%s) - start)) s"
finish
