/* boot.h - the board's boot facts: which medium the bootloader used, the Raspberry Pi
 * bootloader and its EEPROM configuration, BOOT_ORDER, and whether a disk will boot here.
 *
 * Facts and their sources (raspberrypi/documentation, read at the commits named in the
 * project's research notes):
 *  - BOOT_ORDER nibbles, EEPROM keys: computers/raspberry-pi/eeprom-bootloader.adoc;
 *  - /chosen/bootloader/{boot-mode,partition,tryboot,capabilities,build_timestamp,
 *    update_timestamp,version}, /chosen/bootloader/usb/usb-version and the capability bits:
 *    computers/configuration/device-tree.adoc ("Firmware parameters", "BCM2711 specific
 *    bootloader properties");
 *  - the EEPROM configuration without vcgencmd (aliases/blconfig -> the nvmem device whose
 *    of_node is that node): raspberrypi/rpi-eeprom rpi-eeprom-config read_current_config();
 *  - what raspi-config writes for each order: RPi-Distro/raspi-config do_boot_order().
 *
 * Domain layer: every function returns 0 or -errno and never prints.
 */
#ifndef SBCDISK_BOOT_H
#define SBCDISK_BOOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/sbuf.h"
#include "common/bootcfg-eval.h"
#include "common/sysroot.h"
#include "probe/probe.h"

/* The BOOT_ORDER nibbles (eeprom-bootloader.adoc); /chosen/bootloader/boot-mode uses the
 * same codes. */
enum boot_mode {
	BOOT_MODE_SD_DETECT = 0x0,
	BOOT_MODE_SD = 0x1, /* SD card, or the eMMC of a Compute Module */
	BOOT_MODE_NETWORK = 0x2,
	BOOT_MODE_RPIBOOT = 0x3,
	BOOT_MODE_USB_MSD = 0x4,
	BOOT_MODE_BCM_USB_MSD = 0x5, /* USB 2.0 from the USB-C socket; not on a Pi 5 */
	BOOT_MODE_NVME = 0x6,	     /* CM4, CM5, Pi 5 */
	BOOT_MODE_HTTP = 0x7,
	BOOT_MODE_STOP = 0xe,
	BOOT_MODE_RESTART = 0xf,
};

/* The JSON name ("sd-detect", "sd", "network", "rpiboot", "usb-msd", "bcm-usb-msd", "nvme",
 * "http"); NULL for stop, restart and codes without a meaning. */
const char *boot_mode_name(unsigned mode);
/* Words for people ("SD card", "USB mass storage" ...); NULL as above. */
const char *boot_mode_words(unsigned mode);

enum boot_soc {
	BOOT_SOC_NONE = 0, /* not a Raspberry Pi (or the model is unknown) */
	BOOT_SOC_OLDER_PI, /* a Pi before the 4: no EEPROM bootloader */
	BOOT_SOC_2711,	   /* Pi 4, Pi 400, CM4 */
	BOOT_SOC_2712,	   /* Pi 5, Pi 500, CM5 */
};

/* The SoC family and whether it is a Compute Module, from the device-tree model. */
enum boot_soc boot_soc_from_model(const char *model, bool *compute_module);

#define BOOT_ORDER_MODES_MAX 8

enum boot_then {
	BOOT_THEN_NONE = 0, /* the list ends without 0xe or 0xf: null in JSON */
	BOOT_THEN_RESTART,  /* 0xf: start again from the first mode */
	BOOT_THEN_STOP,	    /* 0xe: stop and show the error pattern */
};

struct boot_order {
	uint32_t value;
	bool is_default; /* BOOT_ORDER absent: the bootloader's default 0xf41 */
	size_t n;
	unsigned char modes[BOOT_ORDER_MODES_MAX]; /* in the order they are tried */
	enum boot_then then;
	bool has_unknown; /* a nibble that is no mode (8-d): the bootloader skips it */
};

/* The default when BOOT_ORDER is empty (eeprom-bootloader.adoc: "0xf41 ... default"). */
#define BOOT_ORDER_DEFAULT 0xf41u

/* Decode value, lowest nibble first, up to 0xe/0xf; leading zero digits are not SD-detect
 * modes (nothing is written there). 0 always. */
void boot_order_decode(uint32_t value, struct boot_order *bo);
/* Parse "0xf461" (the 0x optional, 1 to 8 hex digits; blanks and a "# comment" may follow)
 * and decode it: 0 or -EINVAL. Digits written as 0 count as SD-detect modes. */
int boot_order_parse(const char *text, struct boot_order *bo);
/* "SD card, then NVMe, then USB mass storage, then start again". */
void boot_order_describe(const struct boot_order *bo, char *buf, size_t cap);

/* What a board can boot from: the capabilities bits when the bootloader publishes them. */
#define BOOT_CAP_USB_VL805 (1u << 0)
#define BOOT_CAP_NETWORK (1u << 1)
#define BOOT_CAP_TRYBOOT_AB (1u << 2)
#define BOOT_CAP_TRYBOOT (1u << 3)
#define BOOT_CAP_USB_BCM2711 (1u << 4)
#define BOOT_CAP_RAMDISK (1u << 5)
#define BOOT_CAP_NVME (1u << 6)
#define BOOT_CAP_SECURE_BOOT (1u << 7)
/* The name of capability bit i ("usb-vl805", "network", "tryboot-a-b", "tryboot",
 * "usb-bcm2711", "ramdisk", "nvme", "secure-boot"), NULL past them. */
const char *boot_cap_name(unsigned bit);

/*
 * The order for a list of names ("nvme,usb,sd": sd, usb (usb-msd), nvme, network, http,
 * rpiboot, bcm-usb (bcm-usb-msd); restart added at the end, as raspi-config does). Refused
 * (-EINVAL, why says it in words): an unknown name, a name twice, more than 7, NVMe on a
 * board without it (a Pi 4 or 400; a CM4 whose published capabilities lack NVMe), 5 on a
 * Pi 5.
 */
int boot_order_from_names(const char *list, enum boot_soc soc, bool compute_module,
			  bool has_caps, uint32_t caps, struct boot_order *bo, char *why,
			  size_t cap);

/* The EEPROM configuration: key=value lines; keys of sections other than [all] are kept out
 * (they apply only when their condition holds). */
#define BOOT_EEPROM_TEXT_MAX (64 * 1024)
#define BOOT_EEPROM_KEYS_MAX 64

struct boot_eeprom_key {
	char key[48];
	char value[128];
};

struct boot_eeprom {
	size_t n_keys;
	struct boot_eeprom_key keys[BOOT_EEPROM_KEYS_MAX];
	struct boot_order order; /* BOOT_ORDER, or the default */
	bool bad_order;		 /* BOOT_ORDER present but not a number: the default is shown */
};

/* Parse the text of `vcgencmd bootloader_config` / the blconfig nvmem. 0 always (lines that
 * are not key=value are skipped; keys past BOOT_EEPROM_KEYS_MAX are dropped). */
void boot_eeprom_parse(const char *text, size_t len, struct boot_eeprom *e);
/* The value of key, or NULL. */
const char *boot_eeprom_get(const struct boot_eeprom *e, const char *key);
/* What a key that touches storage means, one sentence; NULL for the others. */
const char *boot_eeprom_key_help(const char *key);

/*
 * The configuration text with BOOT_ORDER set to value, into out (reset first): the BOOT_ORDER
 * line in force is replaced, else one is added at the end of the [all] section (or of the
 * text). Every other line is kept as it is (a missing final newline is added). *line is the
 * 0-based line that changed or was inserted, *replaced whether a line was replaced.
 * 0, -ENOMEM, -E2BIG (out's cap).
 */
int boot_eeprom_set_order(const char *text, size_t len, uint32_t value, struct sbuf *out,
			  size_t *line, bool *replaced);

/*
 * Hand a new EEPROM configuration to the official tool: the text is written to a private
 * temporary file and `rpi-eeprom-config --apply FILE` is run (it stages a signed update for
 * the next reboot; we never write EEPROM images). *output gets what it printed (the caller
 * frees it), *status its exit code. 0; -ENOENT when rpi-eeprom-config is not on PATH.
 */
int boot_eeprom_apply(const char *text, size_t len, char **output, int *status);

/* extlinux.conf: the APPEND line of the DEFAULT label (else the first label), and its root=
 * value into root ("" when it passes none). 0, -ENOENT when no label has an APPEND line. */
int boot_extlinux_root(const char *text, size_t len, char *root, size_t cap);
/* Each APPEND line of extlinux.conf in turn, with the LABEL it belongs to (it.label, ""
 * before the first): its arguments are [*off, *off + *alen) of text. Start with it zeroed.
 * 0; -ENOENT past the last. */
struct boot_extlinux_iter {
	size_t pos;
	char label[64];
};
int boot_extlinux_next_append(const char *text, size_t len, struct boot_extlinux_iter *it,
			      size_t *off, size_t *alen);
/* grub.cfg: the root= of the first "linux" line. 0, -ENOENT. */
int boot_grub_root(const char *text, size_t len, char *root, size_t cap);

enum boot_loader {
	BOOT_LOADER_UNKNOWN = 0,
	BOOT_LOADER_RPI_EEPROM, /* Pi 4/5: the SPI EEPROM bootloader */
	BOOT_LOADER_RPI_FIRMWARE, /* older Pis: bootcode.bin on the SD card */
	BOOT_LOADER_EXTLINUX,   /* U-Boot or a Jetson's cboot/UEFI reading extlinux.conf */
	BOOT_LOADER_GRUB,
};
/* "rpi-eeprom", "rpi-firmware", "extlinux", "grub", NULL for unknown. */
const char *boot_loader_name(enum boot_loader l);

struct boot_facts {
	char model[128];
	enum boot_soc soc;
	bool compute_module;
	enum boot_loader loader;
	char loader_config[128]; /* target path of extlinux.conf / grub.cfg */
	char loader_root[128];	 /* the root= it passes, "" unknown */

	/* /chosen/bootloader */
	bool has_mode, has_partition, has_tryboot, has_usb_version, has_caps;
	unsigned mode, partition, usb_version;
	bool tryboot;
	uint32_t caps;
	bool has_build_time, has_update_time;
	uint64_t build_time, update_time; /* seconds since 1970 */
	char version[64];		  /* the bootloader's git hash, "" unknown */
	bool has_hat;			  /* /proc/device-tree/hat: a HAT+ is fitted (Pi 5) */

	/* the root file system */
	char cmdline_root[128]; /* root= of /proc/cmdline as written, "" none */
	char root_device[64];	/* the partition mounted on / (mountinfo), "" unknown */
	char root_disk[64];

	/* the EEPROM configuration */
	bool has_eeprom;
	char eeprom_source[16]; /* "nvmem", "vcgencmd" */
	char *eeprom_text;	/* owned, NUL-terminated: shown (control bytes and bad UTF-8 as ?) */
	char *eeprom_raw;	/* owned, NUL-terminated: the bytes as read, what a change keeps */
	struct boot_eeprom eeprom;
};

/* Read every fact of the board: device tree, /proc/cmdline, the blconfig nvmem or (on the
 * running system only) `vcgencmd bootloader_config`, extlinux.conf, grub.cfg. Missing facts
 * stay unknown. 0 or -ENOMEM. The caller releases f with boot_facts_release(). */
int boot_facts_read(struct sysroot *sr, const struct inventory *inv, struct boot_facts *f);
void boot_facts_release(struct boot_facts *f);

/* Whether BOOT_ORDER=value is what the board has already: the EEPROM configuration was read
 * and its BOOT_ORDER (or the default when it has none) is value. Then there is nothing to
 * hand to rpi-eeprom-config. false when the configuration is not known. */
bool boot_order_unchanged(const struct boot_facts *f, uint32_t value);

/* The date (UTC, "2023-01-11") of a bootloader timestamp. */
void boot_date(uint64_t t, char *buf, size_t cap);

/*
 * Will a disk boot on this board: the API `boot check` and `clone` (for its target) use.
 *
 *   struct boot_checks c = { 0 };
 *   ret = boot_check_disk(sr, inv, &facts, disk, &c);   // appends this disk's checks
 *   ... c.item[i].result ...
 *   boot_checks_release(&c);
 *
 * disk is a whole disk of inv. Files on its partitions are read through the sysroot where
 * the partition is mounted (the running system's boot partition is); a partition that is not
 * mounted is not read, and its checks say "not mounted: not checked" (WARN). Results are
 * appended in a fixed order; every WARN and FAIL has a fix.
 *
 * Check ids: boot-partition (a FAT first partition), boot-files (config.txt, cmdline.txt, the
 * kernel and the device tree that config.txt and this board select; start4.elf and
 * fixup4.dat on a Pi 4), cmdline-one-line, root-resolves (root= of cmdline.txt names a
 * partition of this disk), fstab-resolves (/, /boot and /boot/firmware entries resolve on
 * this disk), id-unique (no other disk carries one of this disk's PARTUUIDs or UUIDs),
 * bootloader-can (capabilities, or a release at least as new as the one that added this
 * kind of disk), boot-order (BOOT_ORDER reaches this disk, and no other medium that looks
 * bootable is tried first), usb-quirks (the running usb-storage quirks for this bridge are on
 * this disk's cmdline.txt too), pcie-probe (Pi 5, NVMe, no HAT+: PCIE_PROBE=1).
 * Non-Raspberry Pi boards get root-resolves and id-unique only.
 *
 * 0, or -ENOMEM.
 */
enum boot_result {
	BOOT_PASS = 0,
	BOOT_WARN,
	BOOT_FAIL,
};
/* "pass", "warn", "fail". */
const char *boot_result_name(enum boot_result r);

struct boot_check_item {
	char disk[64];
	char id[32];
	enum boot_result result;
	char text[512];
	char fix[512]; /* "" for none (JSON null) */
};

struct boot_checks {
	size_t n, alloc;
	struct boot_check_item *item;
};

int boot_check_disk(struct sysroot *sr, const struct inventory *inv,
		    const struct boot_facts *f, const struct blkdev *disk, struct boot_checks *c);
/*
 * boot_check_disk() for a disk whose partitions are not mounted (clone's target): its files
 * are read through acc, and on a board that is not a Raspberry Pi the disk is judged by what
 * it holds (the Pi firmware's files when its first partition has config.txt, else the root=
 * of its own extlinux.conf). The checks of this board's bootloader and boot order run only on
 * a Pi 4 or 5.
 */
struct boot_disk_access {
	/* A file of part (name relative to its file system's root), as sysroot_read_file():
	 * out is initialised here and holds the bytes on success. 0, -ENOENT, -EFBIG, -errno. */
	int (*read)(void *arg, const struct blkdev *part, const char *name, size_t cap,
		    struct sbuf *out);
	/* Is name a regular file on part? */
	bool (*exists)(void *arg, const struct blkdev *part, const char *name);
	void *arg;
	const char *name; /* where the files are, for the checks' texts ("the copy") */
	const struct config_board *board; /* whose config.txt sections count; NULL: this one */
};
int boot_check_disk_with(struct sysroot *sr, const struct inventory *inv,
			 const struct boot_facts *f, const struct blkdev *disk,
			 const struct boot_disk_access *acc, struct boot_checks *c);
/* The disks `boot check` looks at by default: whole disks with partitions, on USB, NVMe,
 * SD/eMMC, SATA or SCSI (not loop, zram, dm, md, eMMC boot areas). */
bool boot_disk_is_candidate(const struct blkdev *d);
void boot_checks_release(struct boot_checks *c);
/* The worst result of one disk's checks (BOOT_PASS when it has none). */
enum boot_result boot_checks_worst(const struct boot_checks *c, const char *disk);

/* The medium code a disk would boot through (BOOT_MODE_USB_MSD, _NVME, _SD), or -1. */
int boot_disk_mode(const struct blkdev *disk);
/* The minimum bootloader release for a mode on this SoC: 0 and the date and its source, or
 * -ENOENT when there is none (always supported, or never). */
int boot_min_release(enum boot_soc soc, bool compute_module, int mode, const char **date,
		     uint64_t *time, const char **source);

/*
 * This boot's time as systemd measured it (the figures `systemd-analyze` prints), over the
 * system D-Bus (DBUS_SYSTEM_BUS_ADDRESS when set). On a Raspberry Pi the firmware's own time
 * before the kernel is not visible to Linux: it is not counted (firmware and loader are
 * known only where UEFI reports them).
 */
#define BOOT_TIME_UNITS_MAX 10

struct boot_time {
	bool has_firmware, has_loader, has_initrd;
	double firmware_s, loader_s, kernel_s, initrd_s, userspace_s, total_s;
	char target[96];      /* the default target, "" unknown */
	char boot_device[64]; /* the disk holding /, filled by the caller */
	size_t n_units;
	struct {
		char name[128];
		double s;
	} units[BOOT_TIME_UNITS_MAX]; /* the slowest to start, longest first */
};

/* 0; -ENOENT when there is no system bus or no systemd on it; -EINPROGRESS when the boot
 * has not finished yet; -ENOMEM. Only for the running system. */
int boot_time_read(struct boot_time *bt);

/* When this boot began (seconds since 1970): the kernel's btime line of /proc/stat. 0;
 * -ENOENT (-ENODATA) when the file (the line) is not there, -EINVAL when it is no number. */
int boot_started_read(struct sysroot *sr, int64_t *t);

/*
 * The firmware's tryboot for a move (raspberrypi/documentation: config_txt "tryboot.txt" and
 * the [tryboot] filter, raspberry-pi bootflow-2711 "Fail-safe OS updates (TRYBOOT)"): after
 * `reboot '0 tryboot'` the firmware reads tryboot.txt instead of config.txt once; the flag is
 * cleared before the firmware starts, so a crash or reset reads config.txt again. The trial
 * boots the same firmware and kernel from the running boot partition with root= on the copy.
 */
#define BOOT_TRYBOOT_FILE "tryboot.txt"
#define BOOT_TRYBOOT_CMDLINE "cmdline-sbcdisk-trial.txt"
/* Whether this bootloader has tryboot: a Pi 4 or 5 whose published capabilities have the
 * tryboot bit. When not, why says so. */
bool boot_tryboot_offered(const struct boot_facts *f, char *why, size_t cap);
/* The contents of tryboot.txt (config[0..clen), config.txt as it is, then [all] and cmdline=
 * the trial command line) and of the trial command line: cmdline[0..len) (one line) with
 * root= set to root, panic=10 added unless a panic= is there and, with wait_s > 0, a bare
 * rootwait made rootwait=wait_s (a kernel of 6.6 or later then gives up on a root that never
 * appears; a bare rootwait waits for ever). 0, -EINVAL (no root=, more than one line, a bad
 * root), -ENOMEM, -E2BIG. */
int boot_tryboot_files(const char *cmdline, size_t len, const char *config, size_t clen,
		       const char *root, unsigned wait_s, struct sbuf *tryboot,
		       struct sbuf *trial);
/* The rootwait= timeout for the running kernel (osrelease "6.6.51+rpt-rpi-v8"): 30 from 6.6
 * on, which has rootwait=<seconds>; 0 before it or when the release cannot be read. */
unsigned boot_tryboot_rootwait(const char *osrelease);

#endif
