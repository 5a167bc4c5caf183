/* probe-int.h - what the probe files share among themselves; not for other layers.
 * Attribute reads that turn every failure into "unknown" and every string into clean text. */
#ifndef SBCDISK_PROBE_INT_H
#define SBCDISK_PROBE_INT_H

#include "probe/probe.h"

/* Read dir/name trimmed and sanitised into buf; "" and a negative errno when unknown. */
int probe_attr_str(struct sysroot *sr, const char *dir, const char *name, char *buf, size_t cap);
/* Decimal (base 10) or any base (0 accepts 0x) number; false when unknown. */
bool probe_attr_u64(struct sysroot *sr, const char *dir, const char *name, int base, uint64_t *out);
/* "a/b/c" -> "a/b" in place; false when there is no parent left. */
bool probe_path_up(char *path);
/* Last component of a path. */
const char *probe_path_base(const char *path);

/* fopen a regular file without blocking on a FIFO; NULL when it is none. */
FILE *probe_fopen_regular(struct sysroot *sr, const char *path);

/* The link facts of the PCI function at fn (canonical sysfs dir), or NULL. */
struct probe_pcie *probe_pcie_read(struct sysroot *sr, const char *fn);

void probe_usb_fill(struct sysroot *sr, struct blkdev *d);
void probe_nvme_fill(struct sysroot *sr, struct blkdev *d);
void probe_mmc_fill(struct sysroot *sr, struct blkdev *d);
void probe_udev_fill(struct sysroot *sr, struct blkdev *d);
int probe_mounts_fill(struct sysroot *sr, struct inventory *inv);
void probe_board_fill(struct sysroot *sr, struct inventory *inv);
void probe_usbids_names(struct sysroot *sr, struct probe_usb *u);

/* A fixed attribute value and the number it stands for ("480" -> 480, "6.0 Gbps" -> 6.0). */
struct probe_text_num {
	const char *text;
	double value;
};

/* The number of the entry whose text equals s (trimmed); -EINVAL when none does. */
int probe_text_num_find(const struct probe_text_num *t, size_t n, const char *s, double *out);

/* Speeds as text: 480 -> "480", 1.5 -> "1.5", 2.5 GT/s -> "2.5", 8 -> "8". */
void probe_num_text(double v, char *buf, size_t cap);

#endif
