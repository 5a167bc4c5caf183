/* path.h - the storage path model: board host controller, link, protocol, bridge and medium
 * give the expected range of large sequential transfers. Figures and sources: docs/paths.md. */
#ifndef SBCDISK_COMMON_PATH_H
#define SBCDISK_COMMON_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* What is known of one drive's path; NULL strings and NAN numbers are unknown. */
struct path_in {
	const char *board;     /* device-tree model, "Raspberry Pi 4 Model B Rev 1.4" */
	const char *transport; /* "usb" "nvme" "mmc" "sata" ... */
	const char *model;     /* the drive's model */
	const char *bridge;    /* USB bridge chip name, "JMicron JMS567/JMS578" */
	char usb_id[16];       /* "152d:0578", "" unknown */
	const char *usb_driver; /* "uas" or "usb-storage" */
	const char *mmc_type;  /* "SD" "MMC" */
	const char *mmc_timing; /* debugfs ios "timing spec" */
	double usb_speed_mbps;
	double pcie_gts, pcie_width;
	int rotational;        /* 1 spins, 0 does not, -1 unknown */
	bool nvme;             /* an NVMe drive on PCIe */
	/* The best large figure measured on this path (bytes/s) or NAN: a USB link that was not
	 * recorded is known to be faster than USB 2.0 when a figure is beyond what USB 2.0 carries. */
	double best_bw;
};

/* Which part of the path sets its expected range. */
enum path_part {
	PATH_PART_NONE = 0,
	PATH_PART_LINK,     /* the link or the board's host controller */
	PATH_PART_PROTOCOL, /* the driver's protocol on this link (usb-storage BOT on USB 3) */
	PATH_PART_MEDIUM,   /* the kind of drive (a spinning disk, an SD card) */
};

enum path_medium {
	PATH_MEDIUM_UNKNOWN = 0,
	PATH_MEDIUM_HDD,
	PATH_MEDIUM_SATA_SSD,
	PATH_MEDIUM_NVME,
	PATH_MEDIUM_SD,
	PATH_MEDIUM_EMMC,
	PATH_MEDIUM_STICK,
};

struct path_expect {
	double lo, hi;       /* large sequential transfers, bytes/s; NAN when not known */
	double link_ceiling; /* the link's practical ceiling, bytes/s; NAN when not known */
	enum path_part binding;
	enum path_medium medium;
	bool floor_only;     /* the link was not recorded: lo/hi are only what any link gives */
	bool link_inferred;  /* USB speed not recorded, taken from the bridge and the figure */
	char link[48];       /* "USB 3 Gen 1, 5000M", "PCIe Gen 2 x1", "SD DDR50" */
	char protocol[16];   /* "uas", "usb-storage", "" */
	char label[128];     /* "Pi 4 USB 3 Gen 1 (VL805) → JMS567/JMS578 → uas" */
};

/*
 * The expected range for the path in. 0, or -ENODATA when the link is not known at all (no
 * USB speed, no PCIe link, no bus mode, and nothing the board or the figure tells). out is
 * always filled as far as known (its label and medium even on -ENODATA).
 */
int path_expect(const struct path_in *in, struct path_expect *out);

/* "a spinning disk", "a SATA SSD", "an NVMe drive", "an SD card", "an eMMC", "a USB stick",
 * or NULL when unknown. */
const char *path_medium_name(enum path_medium m);

/* The practical ceiling of one link kind (bytes/s, with its name); 0 or -ENODATA. */
int path_usb_ceiling(double speed_mbps, double *bytes_per_s, char *name, size_t cap);
int path_pcie_ceiling(double gts, double width, double *bytes_per_s, char *name, size_t cap);
int path_mmc_ceiling(const char *timing, double *bytes_per_s, char *name, size_t cap);

#endif
