/* quirks.h - the usb-storage `quirks` list: VID:PID:FLAGS entries separated by commas.
 * Read the way drivers/usb/storage/usb.c usb_stor_adjust_quirks() reads it. */
#ifndef SBCDISK_FIX_QUIRKS_H
#define SBCDISK_FIX_QUIRKS_H

#include <stddef.h>
#include <stdint.h>

#include "common/sbuf.h"

/* The kernel keeps the value in char quirks[128]: a longer list is rejected whole. */
#define QUIRKS_VALUE_MAX 127
/* The flag that makes uas let go of a device (US_FL_IGNORE_UAS). */
#define QUIRKS_FLAG_IGNORE_UAS 'u'

struct usb_id {
	uint16_t vid;
	uint16_t pid;
};

/* "152d:0578" (1 to 4 hex digits each, any case, an optional 0x) into id; 0 or -EINVAL. */
int quirks_id_parse(const char *s, struct usb_id *id);

enum quirks_change {
	QUIRKS_SAME,        /* an entry for the device already has the flag */
	QUIRKS_ENTRY_ADDED, /* a new VID:PID:flag entry at the end */
	QUIRKS_FLAG_ADDED,  /* the device's entry got the flag added */
};

struct quirks_merge {
	enum quirks_change change;
	unsigned dups_removed; /* later entries for the same VID:PID: the kernel never used them */
};

/* Merge id:flag into the list val[0..len) and put the result in out (reset first). Other
 * entries, even malformed ones, are kept byte for byte. 0, -ENOMEM or -E2BIG (out's cap). */
int quirks_list_add(const char *val, size_t len, struct usb_id id, char flag, struct sbuf *out,
		    struct quirks_merge *res);

/* True when the list holds an entry for id whose flags include flag (first match, as the
 * kernel decides). */
int quirks_list_has(const char *val, size_t len, struct usb_id id, char flag);

#endif
