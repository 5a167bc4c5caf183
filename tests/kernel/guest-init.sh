# shellcheck shell=bash
# guest-init.sh - run in the guest's chroot by kinit (tests/kernel/lib.sh copies it into the
# case's share, /run/k): load the storage drivers with modprobe from the unpacked module
# tree (module options on the kernel command line apply, as modprobe reads them there), then
# the case's run.sh, its output in out and its exit status in rc.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LC_ALL=C.UTF-8 K=/run/k
# shellcheck disable=SC1091 # written by kboot
. /run/k/env
export SBCDISK kmods
for m in xhci_pci ehci_pci usb_storage uas sd_mod nvme sdhci_pci mmc_block loop ext4 vfat; do
	modprobe -d "$kmods" "$m" || echo "guest-init: modprobe $m failed"
done >/run/k/modprobe.out 2>&1
# pseudo-terminals (a case shows the tables on one, as a user's ssh session does)
mkdir -p /dev/pts && mount -t devpts -o ptmxmode=0666 devpts /dev/pts
cd /run/k || exit 1
bash /run/k/run.sh >/run/k/out 2>&1
echo $? >/run/k/rc
