/* paths.h - the system paths sbcdisk reads, spelled once, always opened through sysroot.h.
 * No other file spells "/sys" or "/proc" (docs/style.md habit 2). */
#ifndef SBCDISK_PATHS_H
#define SBCDISK_PATHS_H

#define PATH_SYS_BLOCK       "/sys/block"
#define PATH_SYS_CLASS_BLOCK "/sys/class/block"
#define PATH_SYS_DEV_BLOCK   "/sys/dev/block"
#define PATH_SYS_CLASS_NVME  "/sys/class/nvme"
#define PATH_SYS_DEBUG       "/sys/kernel/debug"
#define PATH_PROC_MOUNTINFO  "/proc/self/mountinfo"
#define PATH_PROC_SWAPS      "/proc/swaps"
#define PATH_PROC_CMDLINE    "/proc/cmdline"
#define PATH_PROC_OSRELEASE  "/proc/sys/kernel/osrelease"
#define PATH_PROC_BOOT_ID    "/proc/sys/kernel/random/boot_id"
#define PATH_PROC_STAT       "/proc/stat"
/* The host's: an open descriptor as a path, ours (clone's detached mounts) or a child's (a
 * file named to mtools or debugfs without parsing its path) */
#define PATH_PROC_SELF_FD    "/proc/self/fd"
#define PATH_PROC_DT_MODEL   "/proc/device-tree/model"
#define PATH_DT_REVISION     "/proc/device-tree/system/linux,revision"
#define PATH_DT_SERIAL       "/proc/device-tree/serial-number"
#define PATH_UDEV_DATA       "/run/udev/data"
#define PATH_DEV             "/dev"
#define PATH_DEV_KMSG        "/dev/kmsg"
/* The host's, never the sysroot's: the standard input and error of a program we start. */
#define PATH_DEV_NULL        "/dev/null"
/* The host's: a private directory for the EEPROM configuration handed to rpi-eeprom-config. */
#define PATH_TMP_EEPROM      "/tmp/sbcdisk-eeprom.XXXXXX"
/* The host's: clone's loop devices over a partition's bytes. */
#define PATH_LOOP_CONTROL    "/dev/loop-control"
#define PATH_DEV_LOOP_PREFIX "/dev/loop"
/* Device node prefixes as mount tables name sources ("/dev/sda1", "/dev/mapper/vg-root"). */
#define PATH_DEV_PREFIX      "/dev/"
#define PATH_DEV_MAPPER      "/dev/mapper/"
#define PATH_SYS_BUS_USB_DEVICES "/sys/bus/usb/devices"
#define PATH_SYS_BUS_USB_DRIVERS "/sys/bus/usb/drivers"
#define PATH_BOOT            "/boot"
#define PATH_BOOT_FIRMWARE   "/boot/firmware"
#define PATH_BOOT_FW_CONFIG  "/boot/firmware/config.txt"
#define PATH_BOOT_FW_CMDLINE "/boot/firmware/cmdline.txt"
#define PATH_BOOT_CMDLINE    "/boot/cmdline.txt"
/* Where a disk's extlinux.conf is, as U-Boot's distro boot looks on each partition in turn
 * and a Jetson on its root file system: these paths, in this order (inside a partition). */
#define PATH_EXTLINUX_CONFS  { "/extlinux/extlinux.conf", "/boot/extlinux/extlinux.conf" }
/* os_prefix as the firmware published it (raspi-config reads the same file). */
#define PATH_DT_OS_PREFIX    "/proc/device-tree/chosen/os_prefix"
/* The Raspberry Pi bootloader's facts (device-tree.adoc, "Firmware parameters"). */
#define PATH_DT_BOOTLOADER   "/proc/device-tree/chosen/bootloader"
/* A HAT+ board's EEPROM contents, published by the Pi 5 firmware. */
#define PATH_DT_HAT          "/proc/device-tree/hat"
/* The device-tree path of the bootloader configuration's nvmem node, and where the nodes
 * are; rpi-eeprom-config reads the configuration the same way. */
#define PATH_DT_BLCONFIG     "/proc/device-tree/aliases/blconfig"
#define PATH_DT_BASE         "/sys/firmware/devicetree/base"
#define PATH_SYS_BUS_NVMEM   "/sys/bus/nvmem/devices"
/* Boot loader configurations of boards without the Pi bootloader. */
#define PATH_EXTLINUX_CONF   "/boot/extlinux/extlinux.conf"
#define PATH_GRUB_CFG        "/boot/grub/grub.cfg"
#define PATH_ETC_FSTAB       "/etc/fstab"
/* The running kernel's usb-storage quirks list (root-writable, 127 characters at most). */
#define PATH_USB_STORAGE_QUIRKS "/sys/module/usb_storage/parameters/quirks"
/* the power leg (docs/power.md): the rpi_volt hwmon and the Pi 5 firmware's supply report */
#define PATH_SYS_CLASS_HWMON "/sys/class/hwmon"
#define PATH_DT_POWER        "/proc/device-tree/chosen/power"

/* usb.ids, in the order Debian, Fedora/Arch and older usbutils install it. */
#define PATH_USB_IDS_1 "/usr/share/misc/usb.ids"
#define PATH_USB_IDS_2 "/usr/share/hwdata/usb.ids"
#define PATH_USB_IDS_3 "/var/lib/usbutils/usb.ids"

#endif
