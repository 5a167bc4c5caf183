/* quirks.h - usb-storage quirk flags (US_FL_*, letters) and the kernel's UAS quirk table,
 * shipped as data (data/unusual-uas.tsv, generated into uas-table.c). */
#ifndef SBCDISK_DIAG_QUIRKS_H
#define SBCDISK_DIAG_QUIRKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define US_FL_IGNORE_UAS 0x00800000ULL
#define US_FL_BROKEN_FUA 0x01000000ULL

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

/* "IGNORE_UAS|BROKEN_FUA" for 0x1800000 (unknown bits as "0x..."). Returns 0 or -E2BIG. */
int usfl_decode(uint64_t flags, char *buf, size_t cap);

/* The usb-storage.quirks letter for a flag name or 0. */
char usfl_letter(uint64_t flag);

enum quirks_param_problem {
	QP_OK = 0,
	QP_TOO_LONG,   /* more than 127 characters: the kernel drops the whole list */
	QP_MALFORMED,  /* an entry that is not VID:PID:FLAGS */
	QP_REPEATED,   /* the parameter twice on the command line: only the last one counts */
};

/* Check a kernel command line for its usb-storage.quirks parameter(s). value (may be NULL)
 * gets the last value, at most cap bytes. */
enum quirks_param_problem diag_quirks_cmdline_check(const char *cmdline, char *value, size_t cap);
/* Check one quirks value ("152d:0578:u,174c:55aa:u"). */
enum quirks_param_problem diag_quirks_value_check(const char *value);

#endif
