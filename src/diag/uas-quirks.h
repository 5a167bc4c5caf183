/* uas-quirks.h - the kernel's UAS quirk table (which bridges get which US_FL_* flags),
 * shipped as data (data/unusual-uas.tsv, generated into uas-table.c). */
#ifndef SBCDISK_DIAG_UAS_QUIRKS_H
#define SBCDISK_DIAG_UAS_QUIRKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/usbquirks.h"

enum uas_quirk_status {
	UASQ_MAINLINE,   /* UNUSUAL_DEV entry in the kernel's unusual_uas.h */
	UASQ_RULE,       /* a rule in the kernel's uas-detect.h (ASMedia, Seagate, HIKSEMI) */
	UASQ_HISTORICAL, /* an entry older kernels had */
	UASQ_FORK,       /* in a fork's tree only */
	UASQ_PROPOSED,   /* a patch on the mailing list, in no tree checked */
};

struct uas_quirk_entry {
	uint16_t vid, pid;
	bool any_pid;          /* a rule for every product of the vendor */
	const char *vendor, *product;
	uint64_t flags;        /* US_FL_* (0 for conditional rules) */
	const char *letters;   /* the usb-storage.quirks letters for those flags */
	uint16_t bcd_min, bcd_max;
	enum uas_quirk_status status;
};

extern const struct uas_quirk_entry uas_quirk_table[];
extern const size_t uas_quirk_table_len;

/* The most relevant entry for vid:pid: the kernel's own (mainline, rule) before the others.
 * NULL when the device is on no list. */
const struct uas_quirk_entry *uas_quirk_find(unsigned vid, unsigned pid);
const char *uas_quirk_status_name(enum uas_quirk_status s);

#endif
