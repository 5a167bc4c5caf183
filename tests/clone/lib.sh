# lib.sh - shared by the clone test scripts: Pi-like images built without the kernel's help
# (sfdisk, mkfs.vfat --offset, mcopy, mke2fs -d -E offset), loop devices cleaned up on exit.
# Sourced; sources tests/lib.sh (tmp, the checks, at_exit, loop_detach).
# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# Skip unless this can run: root, loop devices, the tools, not under qemu-user.
clone_need() {
	need_loop
	local t
	for t in sfdisk mkfs.vfat mke2fs mcopy mtype e2fsck resize2fs tune2fs; do
		command -v "$t" >/dev/null || skip "$t missing"
	done
	# the test builds without libext2fs (a cross build) copy ext whole: still tested
	export MTOOLS_SKIP_CHECK=1
}

# sbc ARGS...: sb with room for a copy (300 s)
sbc() { bin_run 300 "$@"; }

# mkimage FILE LABEL SIZE_MIB ROOTSPEC [P3]: a Raspberry Pi OS-like image: FAT32 p1 at 4 MiB
# (64 MiB: config.txt, cmdline.txt with root=ROOTSPEC, kernel8.img, a dtb), ext4 p2 (rootfs
# with /etc/fstab naming both by PARTUUID) to the end; P3 adds a third ext4 partition (data).
# DOS disk id 0x0badc0de (GPT: fixed GUIDs) so the texts are known.
mkimage() {
	local img=$1 label=$2 size=$3 rootspec=$4 p3=${5:-}
	local p2size tree="$tmp/tree.$$"
	rm -f "$img"
	truncate -s "${size}M" "$img"
	if [ -n "$p3" ]; then p2size="size=$(( (size - 68 - 32 - 1) * 2048 )),"; else p2size=""; fi
	if [ "$label" = dos ]; then
		{
			echo "label: dos"
			echo "label-id: 0x0badc0de"
			echo "start=8192, size=131072, type=c, bootable"
			echo "start=139264, ${p2size} type=83"
			[ -n "$p3" ] && echo "type=83"
		} | sfdisk -q "$img" >/dev/null || return 1
	else
		{
			echo "label: gpt"
			echo "label-id: 11111111-2222-4333-8444-555555555555"
			echo "start=8192, size=131072, type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7, uuid=aaaaaaaa-0000-4000-8000-000000000001"
			echo "start=139264, ${p2size} type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, uuid=aaaaaaaa-0000-4000-8000-000000000002"
			[ -n "$p3" ] && echo "type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, uuid=aaaaaaaa-0000-4000-8000-000000000003"
		} | sfdisk -q "$img" >/dev/null || return 1
	fi
	local starts sizes
	starts=($(sfdisk -d "$img" | sed -n 's/.*start= *\([0-9]*\).*/\1/p'))
	sizes=($(sfdisk -d "$img" | sed -n 's/.*size= *\([0-9]*\).*/\1/p'))
	local pu1 pu2 pu3
	if [ "$label" = dos ]; then pu1=0badc0de-01 pu2=0badc0de-02 pu3=0badc0de-03
	else pu1=aaaaaaaa-0000-4000-8000-000000000001 pu2=aaaaaaaa-0000-4000-8000-000000000002
		pu3=aaaaaaaa-0000-4000-8000-000000000003; fi
	mkfs.vfat -F 32 -s 1 -n BOOTFS -i 12345678 --offset "${starts[0]}" "$img" \
		$((sizes[0] / 2)) >/dev/null 2>&1 || return 1
	local boot="$tmp/boot.$$"
	mkdir -p "$boot"
	printf 'console=serial0,115200 console=tty1 root=%s rootfstype=ext4 fsck.repair=yes rootwait usb-storage.quirks=152d:0578:u\n' "$rootspec" >"$boot/cmdline.txt"
	printf '[all]\nkernel=kernel8.img\narm_64bit=1\n' >"$boot/config.txt"
	head -c 300000 /dev/urandom >"$boot/kernel8.img"
	head -c 40000 /dev/urandom >"$boot/bcm2711-rpi-4-b.dtb"
	local img_off="$img@@$((starts[0] * 512))"
	mcopy -i "$img_off" "$boot/cmdline.txt" "$boot/config.txt" "$boot/kernel8.img" \
		"$boot/bcm2711-rpi-4-b.dtb" :: || return 1
	rm -rf "$boot"
	rm -rf "$tree"
	mkdir -p "$tree/etc" "$tree/boot/firmware" "$tree/home/pi/sub" "$tree/dev" "$tree/var"
	cat >"$tree/etc/fstab" <<EOT
proc            /proc           proc    defaults          0       0
PARTUUID=$pu1  /boot/firmware  vfat    defaults          0       2
PARTUUID=$pu2  /               ext4    defaults,noatime  0       1
# a comment that names PARTUUID=$pu2 stays as it is
EOT
	[ -n "$p3" ] && printf 'PARTUUID=%s  /data  ext4  defaults  0  2\n' "$pu3" >>"$tree/etc/fstab"
	head -c 2000000 /dev/urandom >"$tree/home/pi/big.bin"
	echo hello >"$tree/home/pi/hello.txt"
	ln "$tree/home/pi/hello.txt" "$tree/home/pi/hardlink.txt"
	ln -s ../hello.txt "$tree/home/pi/sub/link"
	truncate -s 5M "$tree/var/sparse"
	mknod "$tree/dev/null0" c 1 3
	mkfifo "$tree/var/fifo"
	chown 1000:1000 "$tree/home/pi/hello.txt"
	chmod 4755 "$tree/home/pi/big.bin"
	local i
	for i in $(seq 1 200); do echo "$i" >"$tree/home/pi/sub/f$i"; done
	mke2fs -q -F -t ext4 -L rootfs -U 22222222-3333-4444-8555-666666666666 -d "$tree" \
		-E offset=$((starts[1] * 512)) "$img" $((sizes[1] / 2))k || return 1
	rm -rf "$tree"
	if [ -n "$p3" ]; then
		mke2fs -q -F -t ext4 -L data -E offset=$((starts[2] * 512)) "$img" \
			$((sizes[2] / 2))k || return 1
	fi
}

# loop_attach FILE: a loop device over the whole file; registered for cleanup. Sets $loopdev.
loop_attach() {
	loopdev=$(losetup -f --show "$1") || return 1
	at_exit "loop_detach '$loopdev'"
}

# live_part IMG SIZE_MIB: an mkimage image as a disk (a loop device, $srcloop) and its p2
# through a loop device at its offset ($part, $p2off), for a test to mount read-write as a
# running system's root; both registered for cleanup
live_part() {
	loop_attach "$1" || return 1
	srcloop=$loopdev
	p2off=$((139264 * 512))
	part=$(losetup -f --show -o $p2off --sizelimit $(($2 * 1048576 - p2off)) "$srcloop") ||
		return 1
	at_exit "loop_detach '$part'"
}

# fsck_clean WHAT DEV: e2fsck -fn finds DEV (a device, or FILE?offset=N) clean; else the
# failure with what e2fsck said
fsck_clean() {
	if e2fsck -fn "$2" >"$tmp/fsck" 2>&1; then ok; else
		fail "$1: e2fsck -fn not clean:"; tail -n 8 "$tmp/fsck"
	fi
}

# A checksum of a file or device, to prove the source untouched; a device is read around
# its page cache (a loop device over one of its partitions has a cache of its own).
sum_of() {
	if [ -b "$1" ]; then dd if="$1" bs=1M iflag=direct status=none | sha256sum | cut -d' ' -f1
	else sha256sum <"$1" | cut -d' ' -f1; fi
}

# mkjetson FILE: a Jetson-like image (GPT, one ext4 APP partition at 1 MiB whose
# /boot/extlinux/extlinux.conf boots root=/dev/mmcblk0p1, a backup label by PARTUUID, an
# NFS label; fstab names /dev/root).
mkjetson() {
	local img=$1 tree="$tmp/jtree.$$"
	rm -f "$img"
	truncate -s 300M "$img"
	printf 'label: gpt\nlabel-id: 11111111-2222-4333-8444-666666666666\nstart=2048, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, uuid=bbbbbbbb-0000-4000-8000-000000000001, name=APP\n' |
		sfdisk -q "$img" >/dev/null || return 1
	rm -rf "$tree"
	mkdir -p "$tree/boot/extlinux" "$tree/etc"
	cat >"$tree/boot/extlinux/extlinux.conf" <<'EOT'
TIMEOUT 30
DEFAULT primary

MENU TITLE L4T boot options

LABEL primary
      MENU LABEL primary kernel
      LINUX /boot/Image
      INITRD /boot/initrd
      APPEND ${cbootargs} root=/dev/mmcblk0p1 rw rootwait rootfstype=ext4 console=ttyTCU0,115200 usb-storage.quirks=0bda:9210:u

LABEL backup
      LINUX /boot/Image
      APPEND ${cbootargs} root=PARTUUID=bbbbbbbb-0000-4000-8000-000000000001 rw rootwait

LABEL nfs
      LINUX /boot/Image
      APPEND ${cbootargs} root=/dev/nfs rw nfsroot=192.168.1.1:/srv/jetson
EOT
	printf '# <file system> <mount point> <type> <options> <dump> <pass>\n/dev/root / ext4 defaults 0 1\n' >"$tree/etc/fstab"
	head -c 300000 /dev/urandom >"$tree/boot/Image"
	mke2fs -q -F -t ext4 -L APP -d "$tree" -E offset=$((2048 * 512)) "$img" \
		$(( (300 * 1024) - 1024 - 1024 ))k || return 1
	rm -rf "$tree"
}

# mkvf2 FILE: a VisionFive 2-like image (GPT: raw SPL and U-Boot partitions, FAT p3 with
# /extlinux/extlinux.conf booting root=/dev/mmcblk1p4, ext4 p4 whose fstab names it by UUID).
mkvf2() {
	local img=$1 tree="$tmp/vtree.$$" boot="$tmp/vboot.$$"
	rm -f "$img"
	truncate -s 300M "$img"
	{
		echo "label: gpt"
		echo "start=4096, size=4096, type=2E54B353-1271-4842-806F-E436D6AF6985, name=spl"
		echo "start=8192, size=8192, type=BC13C2FF-59E6-4262-A352-B275FD6F7172, name=uboot"
		echo "start=16384, size=131072, type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7, name=boot"
		echo "start=147456, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, name=root"
	} | sfdisk -q "$img" >/dev/null || return 1
	head -c $((4096 * 512)) /dev/urandom | dd of="$img" bs=512 seek=4096 conv=notrunc status=none
	head -c $((8192 * 512)) /dev/urandom | dd of="$img" bs=512 seek=8192 conv=notrunc status=none
	mkfs.vfat -F 16 -n BOOT --offset 16384 "$img" 65536 >/dev/null 2>&1 || return 1
	rm -rf "$boot"; mkdir -p "$boot"
	printf 'default l0\nmenu title U-Boot menu\ntimeout 2\n\nlabel l0\n\tmenu label Debian GNU/Linux bookworm/sid 6.1.31-starfive\n\tlinux /vmlinuz-6.1.31-starfive\n\tinitrd /initrd.img-6.1.31-starfive\n\tfdtdir /dtbs\n\tappend root=/dev/mmcblk1p4 root=/dev/mmcblk1p4 rw console=tty0 console=ttyS0,115200 earlycon rootwait\n' \
		>"$boot/extlinux.conf"
	mmd -i "$img@@$((16384 * 512))" ::extlinux || return 1
	mcopy -i "$img@@$((16384 * 512))" "$boot/extlinux.conf" ::extlinux/extlinux.conf || return 1
	rm -rf "$boot" "$tree"
	mkdir -p "$tree/etc"
	printf 'UUID=33333333-4444-4555-8666-777777777777 / ext4 defaults 0 1\n' >"$tree/etc/fstab"
	mke2fs -q -F -t ext4 -L root -U 33333333-4444-4555-8666-777777777777 -d "$tree" \
		-E offset=$((147456 * 512)) "$img" $(( (300 * 1024) - 147456 / 2 - 1024 ))k || return 1
	rm -rf "$tree"
}

# stop_copy ACTION CGROUP PHASE CMD...: CMD in the cgroup v1 blkio group CGROUP (its throttle
# keeps the copy running long enough), its stderr on a pseudo-terminal; once the progress
# line shows PHASE at some MB/s, ACTION: a signal name (SIGINT, SIGTERM), or cut:FILE:DEV
# (FILE, the target's backing file, cut to nothing and its loop device DEV told, as a disk
# that is pulled). stdout in $tmp/out, the terminal's in $tmp/tty, the exit status in rc:
# 99 when the copy was never seen running, 98 when CMD took more than 15 s to end after
# ACTION (a stop must come between two chunks, not at the end of the copy). tests/bench/ptyrun.py.
stop_copy() {
	timeout 300 python3 "$src/tests/bench/ptyrun.py" "$tmp" "${@:1:3}" -- "${@:4}"
	rc=$?
}

# refused_unchanged WHAT WORDS FILE SUM: a refusal of the in-use check: exit 1, one line on
# stderr with WORDS (a grep pattern), FILE's bytes still SUM (sum_of)
refused_unchanged() {
	expect_rc 1 "$1"
	if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$2" "$tmp/err"; then
		ok
	else
		fail "$1: not one line saying '$2':"; sed 's/^/  err: /' "$tmp/err" | head -3
	fi
	check "$1: the file unchanged" test "$(sum_of "$3")" = "$4"
}
