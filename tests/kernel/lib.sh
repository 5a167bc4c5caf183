# shellcheck shell=bash
# lib.sh - shared by the kernel cases: boot Debian's own amd64 kernel under qemu-system-x86_64
# (TCG) with chosen storage devices, run a script in the guest and get its output back.
# Sources tests/bench/lib.sh (tests/lib.sh: tmp, src, bin, check, fail, json, skip, finish).
#
# The guest: the kernel from linux-image-amd64's package and an initramfs made from
# busybox-static and the 9p modules (kinit-prepare; kinit is its /init); it mounts this
# machine's root read-only over 9p, chroots into it (so the build's own sbcdisk, fio, lsblk
# and lsusb run there against the guest kernel's sysfs and /dev/kmsg), loads the storage
# drivers with this machine's modprobe from the unpacked modules (so module options on the
# command line apply as on a real system), runs the case's guest script and powers off.
# There is no udev in the guest: /dev is devtmpfs, /run/udev is empty, /tmp and /run are
# tmpfs; guest-lib.sh has helpers for the guest script (wait_blocks, blk_serial).
#
#   kernel_prepare             download and unpack once into $SBCDISK_BUILDDIR/kernel-cache
#                              (a SKIP when qemu or the package cannot be had)
#   qdev ARGS...               add qemu arguments (devices, drives) for the next boot
#   q_xhci ID, q_ehci ID, q_hub BUS PORT (a device behind it: DEV-OPTS port=PORT.N),
#   q_bot ID BUS IMG [DRIVE-OPTS] [DEV-OPTS],
#   q_uas ID BUS IMG [DRIVE-OPTS] [DEV-OPTS], q_nvme ID IMG [SPEED WIDTH] [DRIVE-OPTS],
#   q_sd ID IMG [DRIVE-OPTS]  the usual devices (ID also their serial number, but for
#                              the SD card, which has QEMU's own)
#   kboot NAME [APPEND]        boot with the devices added since the last boot; the guest
#                              runs $tmp/NAME/run.sh (write it before) with $K=/run/k (=
#                              $tmp/NAME on this side, writable) and $SBCDISK; its stdout and
#                              stderr land in $tmp/NAME/out, its exit status in
#                              $tmp/NAME/rc, the console in $tmp/NAME/console. Returns 0 when
#                              the script ran to its end.
#   kout NAME                  the guest script's output, for a failure message
# shellcheck source=tests/bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../bench/lib.sh"
build=${SBCDISK_BUILDDIR:?}
kdir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# kboot_timeout: seconds a boot with its guest script may take; ~40 s alone, more when the
# machine is busy (TCG on two shared cores)
kboot_timeout=${SBCDISK_KBOOT_TIMEOUT:-420}
# the guest's memory, MiB (a machine runs at most two of them at once)
kmem=1024

kernel_prepare() {
	native_only "the kernel cases run"
	[ "$(id -u)" = 0 ] || skip "the kernel cases need root (qemu's 9p export of /)"
	local t
	for t in qemu-system-x86_64 cpio dpkg-deb apt-get depmod modprobe gzip flock; do
		command -v "$t" >/dev/null || skip "no '$t' (tools/setup test installs it)"
	done
	kcache=$build/kernel-cache
	mkdir -p "$kcache"
	# one case prepares, the others beside it wait
	exec 8>"$kcache/.lock"
	flock 8
	"$kdir/kinit-prepare" "$kcache" >"$tmp/prepare.out" 2>&1
	local rc=$?
	flock -u 8
	exec 8>&-
	[ $rc -eq 0 ] || skip "cannot get Debian's amd64 kernel: $(tail -2 "$tmp/prepare.out")"
	kver=$(cat "$kcache/current")
	kimage=$kcache/$kver/vmlinuz kinitrd=$kcache/$kver/initrd.gz kmods=$kcache/$kver/root
	qargs=()
}

# kernel_card: what the clone and move cases start from: the kernel prepared, the image tools
# there, a Raspberry Pi OS-like SD card in $tmp/card.img (256 MiB: QEMU wants an SD card of
# a power of 2; tests/clone/lib.sh's mkimage) and its sum in card_sum
kernel_card() {
	# shellcheck source=tests/clone/lib.sh
	. "$src/tests/clone/lib.sh"
	kernel_prepare
	local t
	for t in sfdisk mkfs.vfat mke2fs mcopy; do
		command -v "$t" >/dev/null || skip "no '$t'"
	done
	export MTOOLS_SKIP_CHECK=1
	mkimage "$tmp/card.img" dos 256 PARTUUID=0badc0de-02 || { fail "mkimage"; finish; }
	card_sum=$(sum_of "$tmp/card.img")
}

qdev() { qargs+=("$@"); }
q_xhci() { qdev -device "qemu-xhci,id=$1,p2=8,p3=8"; }
q_ehci() { qdev -device "usb-ehci,id=$1"; }
q_hub() { qdev -device "usb-hub,bus=$1.0,port=$2"; }
# q_drive ID IMG [OPTS]: a raw drive, no cache (the throttles and timings are the device's)
q_drive() { qdev -drive "if=none,id=$1,format=raw,cache=none,aio=threads,file=$2${3:+,$3}"; }
q_bot() {
	q_drive "d$1" "$3" "${4:-}"
	qdev -device "usb-storage,bus=$2.0,drive=d$1,serial=$1${5:+,$5}"
}
q_uas() {
	q_drive "d$1" "$3" "${4:-}"
	qdev -device "usb-uas,id=u$1,bus=$2.0,serial=$1${5:+,$5}" \
		-device "scsi-hd,bus=u$1.0,scsi-id=0,lun=0,drive=d$1,serial=$1"
}
q_nvme() {
	local bus=''
	if [ -n "${3:-}" ]; then
		qdev -device "pcie-root-port,id=rp$1,chassis=$((${#qargs[@]} + 1)),x-speed=$3,x-width=$4"
		bus=",bus=rp$1"
	fi
	q_drive "d$1" "$2" "${5:-}"
	qdev -device "nvme,drive=d$1,serial=$1$bus"
}
q_sd() {
	q_drive "d$1" "$2" "${3:-}"
	qdev -device sdhci-pci -device "sd-card,drive=d$1"
}

# kboot_qemu NAME APPEND: one boot of the guest with the devices of qargs; qemu's status
kboot_qemu() {
	local d=$tmp/$1
	rm -f "$d/out" "$d/rc"
	timeout "$kboot_timeout" qemu-system-x86_64 -M q35 -m "$kmem" -smp 1 -display none \
		-no-reboot -nic none -serial "file:$d/console" -monitor none \
		-kernel "$kimage" -initrd "$kinitrd" \
		-append "console=ttyS0 panic=-1 loglevel=4 $2" \
		-fsdev "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap" \
		-device virtio-9p-pci,fsdev=root,mount_tag=root \
		-fsdev "local,id=k,path=$d,security_model=none" \
		-device virtio-9p-pci,fsdev=k,mount_tag=k \
		"${qargs[@]}" </dev/null >"$d/qemu.out" 2>&1
}

# kboot NAME [APPEND]: boot with the devices added since the last boot, run $tmp/NAME/run.sh
# in the guest. A guest that stalls (no end within kboot_timeout, its console and output
# shown) is booted once more from its disks as they were before it: under TCG on a loaded
# machine a guest has stalled with its vCPU idle and nothing on its console, in about one
# boot in fifteen with heavy USB I/O; a hang of sbcdisk's own stalls the second boot too.
kboot() {
	local name=$1 append=${2:-} d=$tmp/$1 rc f try
	local -a files=()
	mkdir -p "$d"
	[ -f "$d/run.sh" ] || { fail "kboot $name: no $d/run.sh"; return 1; }
	# the guest's init reads these: the module tree, the binary
	printf 'kmods=%s\nSBCDISK=%s\n' "$kmods" "$bin" >"$d/env"
	cp "$kdir/guest-init.sh" "$kdir/guest-lib.sh" "$d/"
	for f in "${qargs[@]}"; do
		case $f in *,file=*) f=${f#*,file=} files+=("${f%%,*}") ;; esac
	done
	for f in ${files[@]+"${files[@]}"}; do cp --sparse=always "$f" "$f.kboot" || return 1; done
	for try in 1 2; do
		kboot_qemu "$name" "$append"
		rc=$?
		[ -f "$d/rc" ] || [ $rc -ne 124 ] || [ $try = 2 ] && break
		echo "boot $name: no end within ${kboot_timeout}s; its console and output, then" \
			"a second boot from the disks as they were"
		tr -d '\r' <"$d/console" | tail -60
		[ -f "$d/out" ] && tail -5 "$d/out"
		for f in ${files[@]+"${files[@]}"}; do cp --sparse=always "$f.kboot" "$f"; done
	done
	for f in ${files[@]+"${files[@]}"}; do rm -f "$f.kboot"; done
	qargs=()
	if [ ! -f "$d/rc" ]; then
		if [ $rc -eq 124 ]; then
			fail "boot $name: no end within ${kboot_timeout}s, twice"
		else
			fail "boot $name: the guest script did not finish (qemu exit $rc):" \
				"$(tail -3 "$d/qemu.out")"
		fi
		echo "--- console of $name"
		tr -d '\r' <"$d/console" | tail -20
		return 1
	fi
	return 0
}

# kresults NAME LAST: the guest's "ok:" and "FAIL:" lines of boot NAME counted here; LAST,
# the description of its last check, shows the guest script ran to its end; the guest's
# output when anything failed
kresults() {
	local l
	while IFS= read -r l; do
		case $l in
		"ok: "*) ok ;;
		"FAIL: "*) fail "${l#FAIL: }" ;;
		esac
	done <"$tmp/$1/out"
	grep -qxF "ok: $2" "$tmp/$1/out" || fail "the guest script stopped early"
	[ "$failures" = 0 ] || kout "$1" 80
}

kout() { echo "--- guest output of $1"; sed 's/^/  /' "$tmp/$1/out" | tail -"${2:-40}"; }
