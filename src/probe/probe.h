/* probe.h - the inventory: every block device the kernel shows, and exactly how it is attached.
 * Built once from the sysroot; typed facts (has_ flags for unknowns) that list, doctor and bench
 * share. */
#ifndef SBCDISK_PROBE_H
#define SBCDISK_PROBE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/sysroot.h"
#include "common/usb.h"

/* An empty string ("") in any char array below means unknown. */

enum probe_transport {
	PROBE_TRAN_UNKNOWN = 0,
	PROBE_TRAN_USB,
	PROBE_TRAN_NVME,
	PROBE_TRAN_MMC,
	PROBE_TRAN_SATA,
	PROBE_TRAN_ATA,
	PROBE_TRAN_SCSI,
	PROBE_TRAN_VIRTIO,
	PROBE_TRAN_LOOP,
	PROBE_TRAN_DM,
	PROBE_TRAN_MD,
	PROBE_TRAN_NBD,
	PROBE_TRAN_ZRAM,
};

/* "usb", "nvme", ... or NULL for PROBE_TRAN_UNKNOWN. */
const char *probe_transport_name(enum probe_transport t);

#define PROBE_USB_HUBS_MAX 8 /* USB allows 5 hub tiers below the root */

struct probe_usb_hub {
	char port[USB_PORT_NAME_MAX]; /* "1-1" */
	char vid[8], pid[8];	      /* "2109", "3431" */
	char manufacturer[USB_STRING_MAX];
	char product[USB_STRING_MAX];
	bool has_speed;
	double speed_mbps;   /* USB_SPEED_*_MBPS: 1.5, 12, 480, 5000, 10000, 20000 */
	char usb_version[8]; /* "2.10" (trimmed) */
};

struct probe_usb {
	char port[USB_PORT_NAME_MAX];	    /* USB device dir name: "1-1.3" */
	char interface[USB_IFACE_NAME_MAX]; /* "1-1.3:1.0" */
	bool has_ids;
	uint16_t vid_num, pid_num;
	char vid[8], pid[8]; /* lower-case hex as sysfs prints it */
	char manufacturer[USB_STRING_MAX], product[USB_STRING_MAX], serial[USB_STRING_MAX];
	bool has_speed;
	double speed_mbps;
	char usb_version[8]; /* bcdUSB, "3.00" */
	bool has_usb_version;
	unsigned usb_version_bcd; /* 0x0300 */
	char driver[USB_DRIVER_NAME_MAX]; /* interface driver: "uas", "usb-storage" */
	enum usb_driver driver_kind;	  /* the same as an enum */
	char bridge[128];	  /* from our own bridge table */
	char ids_vendor[128];	  /* names from the system's usb.ids */
	char ids_product[128];
	bool has_max_power;
	unsigned max_power_ma;
	char root_hub[16]; /* "usb2" */
	bool has_root_hub_speed;
	double root_hub_speed_mbps;
	size_t n_hubs; /* from the device upward, root hub excluded */
	struct probe_usb_hub hubs[PROBE_USB_HUBS_MAX];
};

struct probe_pcie {
	char address[32];      /* PCI function: "0004:01:00.0" */
	char port_address[32]; /* the upstream port, "" when none */
	bool has_link_speed, has_link_width, has_max_link_speed, has_max_link_width;
	bool has_port_max_link_speed, has_port_max_link_width;
	double link_speed_gts, max_link_speed_gts, port_max_link_speed_gts;
	unsigned link_width, max_link_width, port_max_link_width;
};

struct probe_nvme {
	char controller[32]; /* "nvme0" */
	char model[64], serial[64], firmware[32];
	char transport[16]; /* "pcie", "tcp", ... */
	char state[32];	    /* "live" */
};

enum probe_mmc_type {
	PROBE_MMC_UNKNOWN = 0,
	PROBE_MMC_SD,
	PROBE_MMC_MMC,
	PROBE_MMC_SDIO,
	PROBE_MMC_SDCOMBO
};

struct probe_mmc {
	char host[32]; /* "mmc0" */
	char card[32]; /* "mmc0:59b4" */
	enum probe_mmc_type type_id;
	char type[16]; /* "SD", "MMC", "SDIO", "SDcombo" */
	char name[32];
	bool has_manfid;
	unsigned manfid_num;
	char manfid[16];       /* "0x000003" */
	char manufacturer[64]; /* from the maker table */
	char oemid[16], date[16], serial[24];
	bool has_speed_class, has_uhs_grade, has_video_class, has_app_class;
	unsigned speed_class; /* 0, 2, 4, 6, 10 */
	unsigned uhs_grade;   /* 0, 1, 3 */
	unsigned video_class; /* 0, 6, 10, 30, 60, 90 */
	unsigned app_class;   /* 0 (none), 1 (A1), 2 (A2) */
	char timing[48];      /* debugfs ios "timing spec": "sd uhs DDR50" */
	bool has_clock;
	uint64_t clock_hz;
	bool has_bus_width;
	unsigned bus_width; /* bits */
};

struct probe_queue {
	bool has_logical_block, has_physical_block, has_max_sectors, has_read_ahead;
	unsigned logical_block_bytes, physical_block_bytes;
	unsigned max_sectors_kib, read_ahead_kib;
	char scheduler[32]; /* the active one, without brackets */
};

struct probe_health;

#define PROBE_MOUNTS_MAX 16

struct blkdev {
	char name[128]; /* shown name: dm/name for device-mapper, else kname */
	char kname[64]; /* kernel name: "sda1", "dm-0" */
	bool has_devno;
	unsigned major, minor;
	char maj_min[24]; /* "8:1" */
	char type[16];	  /* lsblk's TYPE: disk part loop rom lvm crypt dm raid1 ... */
	bool is_partition;
	bool has_partn;
	unsigned partn;
	bool hidden;
	bool has_size;
	uint64_t size_bytes;
	bool has_removable, removable;
	bool has_read_only, read_only;
	bool has_rotational, rotational;
	char model[128], vendor[64], rev[32], serial[128];
	enum probe_transport transport;
	size_t n_mountpoints;
	char *mountpoints[PROBE_MOUNTS_MAX]; /* "[SWAP]" for active swap */
	size_t n_mount_devnos; /* device numbers its mounts report when not its own (btrfs) */
	dev_t mount_devnos[PROBE_MOUNTS_MAX];
	char fstype[32], label[128], uuid[80], partuuid[80];
	struct probe_queue queue;
	char backing_file[512]; /* loop */
	char syspath[PATH_MAX]; /* canonical sysfs directory */
	struct probe_usb *usb;	/* NULL when not on USB (disk level; partitions: see disk) */
	struct probe_pcie *pcie;
	struct probe_nvme *nvme;
	struct probe_mmc *mmc;
	struct probe_health *health; /* NULL unless read (probe/health.h) */
	bool has_sata_speed;	/* negotiated SATA link speed (ata_link sata_spd) */
	double sata_speed_gbps; /* 1.5, 3.0, 6.0 */
	struct blkdev *disk;	/* a partition's whole disk; NULL for whole devices */
	size_t n_children;	/* partitions first, then holders (dm, md) */
	struct blkdev **children;
	size_t n_slaves;      /* devices this one is built on, found in the inventory */
	struct blkdev *slave; /* the first of them */
	bool is_root;	      /* holds "/" */
	bool is_boot;	      /* holds /boot/firmware or /boot */
};

struct probe_board {
	char model[128];  /* device tree model, "" when none */
	char kernel[128]; /* osrelease */
};

/*
 * At most this many block devices (partitions included) are read: a hostile tree cannot make
 * us allocate without end (a struct blkdev is about 6 KiB). Large storage servers have a few
 * thousand; 100 000 entries in /sys/block are a hostile or broken tree.
 */
#define PROBE_DEVICES_MAX 16384
/* Partitions read per disk: the kernel's DISK_MAX_PARTS. More in one disk directory are a
 * hostile tree, and keeping them would crowd the other disks out of PROBE_DEVICES_MAX. */
#define PROBE_PARTS_MAX   256

struct inventory {
	struct probe_board board;
	/* Directory entries not read because a limit above was reached (at least this many;
	 * 0 when the inventory is complete). */
	size_t n_left_out;
	size_t n_all;
	struct blkdev **all; /* every device; owns them */
	size_t n_top;
	struct blkdev **top;  /* whole devices without slaves, sorted by name */
	struct blkdev *root;  /* device holding "/", or NULL */
	struct blkdev *boot;  /* device holding /boot/firmware or /boot, or NULL */
	char cmdline_txt[256]; /* the cmdline.txt fix edits (os_prefix, cmdline= applied), "" unknown */
};

/*
 * Read every block device below the sysroot. 0, -ENOENT when the tree has neither
 * /sys/block nor /sys/class/block (an unusable sysroot), -ENOMEM. Missing or hostile
 * attributes are unknown, never an error. The caller frees *out with probe_inventory_free().
 */
int probe_inventory_load(struct sysroot *sr, struct inventory **out);
void probe_inventory_free(struct inventory *inv);

/* By kernel name ("sda1", "dm-0") or shown name ("vg-root"). NULL when absent. */
struct blkdev *probe_inventory_find(const struct inventory *inv, const char *name);
struct blkdev *probe_inventory_find_devno(const struct inventory *inv, unsigned major,
					  unsigned minor);
/* The device holding a file: pass stat(2)'s st_dev. Also finds the device of a file system
 * whose st_dev is anonymous (btrfs) through mountinfo. NULL for tmpfs, overlay, nfs ... */
struct blkdev *probe_inventory_find_dev(const struct inventory *inv, dev_t dev);
/* The whole disk of a partition, or d itself. */
struct blkdev *probe_blkdev_whole(struct blkdev *d);
/* The disk that holds d's data: the whole disk of a partition, and below device-mapper or md
 * the one disk they are built on. d's whole device when they span several disks. */
struct blkdev *probe_blkdev_disk(struct blkdev *d);
/* What uses a block device: the first use found, and the device it is on. */
enum probe_inuse_what {
	PROBE_INUSE_NONE = 0,
	PROBE_INUSE_ROOT,    /* dev holds "/" */
	PROBE_INUSE_SWAP,    /* dev is active swap */
	PROBE_INUSE_MOUNTED, /* dev is mounted on mountpoint */
	PROBE_INUSE_HELD,    /* dev is held by holder (device-mapper, md) */
};
struct probe_inuse {
	enum probe_inuse_what what;
	const struct blkdev *dev;    /* d, a partition of it, or a device built on it */
	const struct blkdev *holder; /* PROBE_INUSE_HELD: the device built on dev */
	const char *mountpoint;	     /* dev's first mount point ("[SWAP]" for swap), or NULL */
};
/* Is d in use: it, a partition of it, a device built on it (dm, md) or a loop device over any
 * of those, followed 8 layers down? True with *use saying what and where; false with
 * use->what PROBE_INUSE_NONE. The pointers in *use point into inv. */
bool probe_blkdev_in_use(const struct inventory *inv, const struct blkdev *d,
			 struct probe_inuse *use);
/* The attachment facts of d, looking at its disk for a partition (NULL when none). */
const struct probe_usb *probe_blkdev_usb(const struct blkdev *d);
const struct probe_pcie *probe_blkdev_pcie(const struct blkdev *d);
const struct probe_nvme *probe_blkdev_nvme(const struct blkdev *d);
const struct probe_mmc *probe_blkdev_mmc(const struct blkdev *d);

/* One line: "usb 480M uas 152d:0578 JMicron JMS567/JMS578 via hub 2109:3431",
 * "nvme pcie 5.0 GT/s x1 (device max 8 GT/s x4, port max 5 GT/s x1)", "sd SanDisk SL08G
 * 11/2015 class 10 U1 A1". "" when nothing is known; a line that does not fit ends in
 * "...". 0, -ENOMEM or -EINVAL (no room at all). */
MUST_CHECK int probe_blkdev_attachment(const struct blkdev *d, char *buf, size_t cap);
/* The same in a form for an 80-column terminal: "usb3 uas JMS567 152d:0578",
 * "pcie 5GT/s x1 max 8GT/s x4", "sd SanDisk SN64G A2 SDR104". 0 or -errno. */
MUST_CHECK int probe_blkdev_attachment_short(const struct blkdev *d, char *buf, size_t cap);

/*
 * The parsers, public for unit tests and fuzzers. All take a buffer, never a path.
 */

/* "8.0 GT/s PCIe", "8 GT/s", "2.5 GT/s" -> 8.0; "Unknown", garbage -> -EINVAL. */
int probe_pcie_speed_parse(const char *s, double *gts);
/* sysfs USB speed ("480", "1.5", "5000") -> Mbit/s; "unknown", garbage -> -EINVAL. */
int probe_usb_speed_parse(const char *s, double *mbps);
/* ata_link sata_spd ("6.0 Gbps") -> 6.0; "<unknown>", garbage -> -EINVAL. */
int probe_sata_speed_parse(const char *s, double *gbps);
/* bcdUSB text (" 2.10") -> 0x0210 and the trimmed text. */
int probe_usb_version_parse(const char *s, unsigned *bcd, char *text, size_t cap);
/* "896mA" -> 896. */
int probe_usb_power_parse(const char *s, unsigned *ma);
/* True when name is a USB device dir ("1-1.3"), an interface dir ("1-1.3:1.0") or root hub. */
bool probe_usb_name_is_device(const char *name);
bool probe_usb_name_is_interface(const char *name);
bool probe_usb_name_is_root_hub(const char *name);
/* True when name is a PCI function address "dddd:bb:dd.f". */
bool probe_pci_name_is_function(const char *name);

/* The 128 hex digits of the SD Status register into speed/UHS/video/app class. -EINVAL when
 * the text is not 128 hex digits. Fields that read as reserved values stay unknown. */
int probe_mmc_ssr_decode(const char *ssr, struct probe_mmc *m);
/* The debugfs ios text: timing spec, clock, bus width. 0 or -EINVAL when nothing matched. */
int probe_mmc_ios_parse(const char *text, struct probe_mmc *m);
/* SD/MMC manufacturer name by CID MID, or NULL. */
const char *probe_mmc_maker_name(enum probe_mmc_type type, unsigned manfid);

/* Bridge chip name by VID:PID, or NULL (bridges.c). */
const char *probe_bridge_name(uint16_t vid, uint16_t pid);

/* usb.ids lookup from an open stream: vendor and product names ("" when absent). */
int probe_usbids_lookup(FILE *f, uint16_t vid, uint16_t pid, char *vendor, size_t vcap,
			char *product, size_t pcap);

/* One mountinfo line: the device number, the unescaped mount point, the source, the
 * file system type and its super options (escaped as mountinfo has them: overlay's
 * upperdir=, lowerdir=). 0 or -EINVAL. Each field is capped by its capacity ("" for super
 * options that do not fit). */
struct probe_mountinfo_entry {
	unsigned major, minor;
	char mountpoint[4096];
	char root[4096]; /* the directory of the file system mounted there ("/" for all of it) */
	char source[512];
	char fstype[64];
	char super_opts[8192];
};
int probe_mountinfo_parse_line(const char *line, struct probe_mountinfo_entry *e);
/* Undo mountinfo's octal escapes (\040 space, \011 tab, \012 newline, \134 backslash). */
void probe_mount_unescape(char *s);

/* Udev properties of a device: from /run/udev/data ("E:KEY=VALUE") or a KEY=VALUE file. */
struct probe_udev_props {
	char fstype[32], label[128], uuid[80], partuuid[80];
	char model[128], revision[32], serial[128];
	/* which key set a field: a better key replaces a worse one, never the other way */
	unsigned char prio_model, prio_label, prio_uuid, prio_serial;
	bool any; /* some line was understood */
	/* the lines come from a captured tree's /dev/NAME file: read them as lsblk's --sysroot
	 * "file" method does, which takes ID_MODEL and never ID_MODEL_ENC */
	bool dev_file;
};
/* Parse one line into p (lines of both forms are accepted). */
void probe_udev_parse_line(const char *line, struct probe_udev_props *p);
/* Undo udev's \xNN escapes (ID_FS_LABEL_ENC, ID_MODEL_ENC) in place. */
void probe_udev_unhex(char *s);

#endif
