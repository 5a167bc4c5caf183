/* uas-try.h - the driver experiment (`fix uas DEV --try`): one USB drive switched between uas
 * and usb-storage at run time, found again, and put back as it was; no printing. */
#ifndef SBCDISK_FLOW_UAS_TRY_H
#define SBCDISK_FLOW_UAS_TRY_H

#include <limits.h>
#include <stdbool.h>

#include "common/sysroot.h"
#include "common/usbquirks.h"
#include "probe/probe.h"
#include "store/store.h"

#define FLOW_UAS_TRY_QUIRKS_MAX 256

/* The experiment's facts, read before any step: cli/ shows them as the plan. */
struct flow_uas_try_plan {
	char disk[64];		/* the kernel name now: "sda" */
	char interface[64];	/* the USB interface: "2-1:1.0" */
	struct usb_id id;
	char driver[32];	/* its driver now: "uas" (the experiment's first run) */
	char other[32];		/* the one tried: "usb-storage" */
	bool running;		/* the disk holds the running root */
	bool live;		/* the running system, not a captured tree */
	bool quirks_loaded;	/* the usb_storage module's quirks parameter exists */
	char quirks_before[FLOW_UAS_TRY_QUIRKS_MAX]; /* the parameter as it is */
	char quirks_with[FLOW_UAS_TRY_QUIRKS_MAX];   /* with VID:PID:u added */
	char quirks_without[FLOW_UAS_TRY_QUIRKS_MAX]; /* with the u flag of VID:PID taken out */
};

/*
 * Read the plan for the block device dev ("sda", "/dev/sda", a partition counts as its disk)
 * from inv. 0; -ENOENT (no such disk), -ENODEV (not on USB, or its interface has no driver),
 * -EINVAL (a driver other than uas or usb-storage), with why in words.
 */
int flow_uas_try_plan_make(struct sysroot *sr, const struct inventory *inv, const char *dev,
			   struct flow_uas_try_plan *p, char *why, size_t cap);

/*
 * Move the interface to driver to (p->other or p->driver): first the quirks parameter (as it
 * was for the way back; else with VID:PID:u for usb-storage, without it for uas), then the interface unbound from
 * the driver that holds it and bound to to. 0 or -errno with why; the quirks are written
 * before the bind, so a failed bind leaves them for flow_uas_try_switch() back.
 */
int flow_uas_try_switch(struct sysroot *sr, const struct flow_uas_try_plan *p, const char *to,
			char *why, size_t cap);

/*
 * Whether the interface is bound to driver and a disk hangs below it now: its kernel name
 * into disk. 0, -ENOENT (not yet, or never: the caller decides how long to ask), -errno.
 */
int flow_uas_try_find(struct sysroot *sr, const struct flow_uas_try_plan *p, const char *driver,
		      char *disk, size_t cap);

/* flow_uas_try_find() asked once a second for at most seconds. */
int flow_uas_try_wait(struct sysroot *sr, const struct flow_uas_try_plan *p, const char *driver,
		      unsigned seconds, char *disk, size_t cap);

/*
 * The experiment's two runs in st, by the ids they were stored as (ids[0] on the first driver,
 * ids[1] on the tried one): the bytes per second of each one's first sequential read test
 * into bw (0 when it has none). 0; -ENOENT when an id is 0 (not stored) or missing, or its run
 * is not of the drive's VID:PID; -errno.
 */
int flow_uas_try_runs(struct store *st, const struct flow_uas_try_plan *p,
		      const int64_t ids[2], double bw[2]);

#endif
