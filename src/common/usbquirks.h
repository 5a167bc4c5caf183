/* usbquirks.h - the usb-storage `quirks` parameter: VID:PID:FLAGS entries separated by
 * commas, read the way drivers/usb/storage/usb.c usb_stor_adjust_quirks() reads it. */
#ifndef SBCDISK_COMMON_USBQUIRKS_H
#define SBCDISK_COMMON_USBQUIRKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/sbuf.h"

/* The kernel keeps the value in char quirks[128]: a longer list is rejected whole. */
#define USBQ_VALUE_MAX 127
/* The flag that makes uas let go of a device (US_FL_IGNORE_UAS). */
#define USBQ_FLAG_IGNORE_UAS 'u'
/* The parameter's name; '-' and '_' are the same to the kernel. */
#define USBQ_PARAM_NAME "usb-storage.quirks"

/* include/linux/usb_usual.h's flag values that the rules name. */
#define US_FL_IGNORE_UAS 0x00800000ULL
#define US_FL_BROKEN_FUA 0x01000000ULL

struct usb_id {
	uint16_t vid;
	uint16_t pid;
};

/* "quirk flags 0x1800000: IGNORE_UAS|BROKEN_FUA (use usb-storage instead of uas; the bridge
 * ...)": the names and, for the flags met in practice, what they do. 0 or -E2BIG. */
int usbq_flags_explain(uint64_t flags, char *buf, size_t cap);
/* "IGNORE_UAS|BROKEN_FUA" for 0x1800000 (unknown bits as "0x..."). Returns 0 or -E2BIG. */
int usbq_flags_decode(uint64_t flags, char *buf, size_t cap);
/* The usb-storage.quirks letter for a flag or 0. */
char usbq_flag_letter(uint64_t flag);

/* "152d:0578" (1 to 4 hex digits each, any case, an optional 0x) into id; 0 or -EINVAL. */
int usbq_id_parse(const char *s, struct usb_id *id);

enum usbq_problem {
	USBQ_OK = 0,
	USBQ_TOO_LONG,  /* more than 127 characters: the kernel drops the whole list */
	USBQ_MALFORMED, /* an entry that is not VID:PID:FLAGS */
	USBQ_REPEATED,  /* the parameter twice on the command line: only the last one counts */
};

/* Check one quirks value ("152d:0578:u,174c:55aa:u", quotes already removed). */
enum usbq_problem usbq_value_check(const char *value, size_t len);

/* Check a kernel command line (split as the kernel splits it, quotes and all) for its
 * usb-storage.quirks parameter(s). value (may be NULL) gets the last value without its
 * quotes, at most cap bytes. */
enum usbq_problem usbq_cmdline_check(const char *cmdline, char *value, size_t cap);

enum usbq_change {
	USBQ_SAME,        /* an entry for the device already has the flag */
	USBQ_ENTRY_ADDED, /* a new VID:PID:flag entry at the end */
	USBQ_FLAG_ADDED,  /* the device's entry got the flag added */
};

struct usbq_merge {
	enum usbq_change change;
	unsigned dups_removed; /* later entries for the same VID:PID: the kernel never used them */
};

/* Merge id:flag into the list val[0..len) and put the result in out (reset first). Other
 * entries, even malformed ones, are kept byte for byte. 0, -ENOMEM or -E2BIG (out's cap). */
int usbq_list_add(const char *val, size_t len, struct usb_id id, char flag, struct sbuf *out,
		  struct usbq_merge *res);

/* True when the list holds an entry for id whose flags include flag (first match, as the
 * kernel decides). */
bool usbq_list_has(const char *val, size_t len, struct usb_id id, char flag);

/* The list val[0..len) with flag taken out of every entry for id into out (reset first); an
 * entry left without flags is dropped. Other entries are kept byte for byte. 0, -ENOMEM or
 * -E2BIG (out's cap). */
int usbq_list_drop(const char *val, size_t len, struct usb_id id, char flag, struct sbuf *out);

#endif
