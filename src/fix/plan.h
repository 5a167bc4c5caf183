/* plan.h - the fixes as plans: what file, its bytes before and after, why; then
 * fix_plan_apply() writes it (backup first) only when asked. */
#ifndef SBCDISK_FIX_PLAN_H
#define SBCDISK_FIX_PLAN_H

#include <stdbool.h>

#include "common/sysroot.h"
#include "fix/bootfile.h"
#include "fix/msgs.h"
#include "common/usbquirks.h"

enum fix_kind { FIX_UAS, FIX_PCIE_GEN, FIX_UNDO, FIX_USB_CURRENT, FIX_SD_CQE, FIX_NVME_APST,
		FIX_FSTAB };

struct fix_plan {
	enum fix_kind kind;
	struct boot_file file;    /* the file to change, with its current bytes */
	struct sbuf after;        /* its bytes after the fix */
	bool changed;
	char restore_from[300];   /* undo: the backup that is put back */
	char backup[300];         /* after fix_plan_apply(): the backup written, if any */
	bool keep_current;        /* undo: the file changed after the fix; keep it as a backup */
	char next_boot[FIX_MSG_MAX];
	struct fix_msgs msgs;     /* notes, and why when a step refuses */
};

/* Plans fill p (fix_plan_release() in every case). 0 or -errno with p->msgs.why. */
int fix_plan_uas(struct sysroot *sr, struct usb_id id, struct fix_plan *p);
int fix_plan_pcie_gen(struct sysroot *sr, int gen, struct fix_plan *p);
/* usb_max_current_enable=1 in config.txt for a Raspberry Pi 5, with the warning it needs. */
int fix_plan_usb_current(struct sysroot *sr, struct fix_plan *p);
/* dtparam=sd_cqe=off for the Raspberry Pi 5 in config.txt: no command queueing on the SD card */
int fix_plan_sd_cqe(struct sysroot *sr, struct fix_plan *p);
/* nvme_core.default_ps_max_latency_us=0 in cmdline.txt: the kernel leaves NVMe APST off */
int fix_plan_nvme_apst(struct sysroot *sr, struct fix_plan *p);
/* The newest backup of cmdline.txt or config.txt, whichever was made last. -ENOENT when
 * there is none. */
int fix_plan_undo(struct sysroot *sr, struct fix_plan *p);

/* The comment line that precedes each fstab line prepare adds (fstab.c). */
#define FIX_FSTAB_TAG "# added by sbcdisk prepare: "
/* /etc/fstab with line appended after FIX_FSTAB_TAG comment (fix_plan_apply() writes it with
 * a dated backup). 0 or -errno with p->msgs.why. */
int fix_plan_fstab(struct sysroot *sr, const char *line, const char *comment,
		   struct fix_plan *p);
/* /etc/fstab's newest backup put back (kind FIX_UNDO; the current file kept as a backup when
 * it holds more than prepare's lines). -ENOENT when there is none. */
int fix_plan_fstab_undo(struct sysroot *sr, struct fix_plan *p);

/* Write the plan under the directory's lock, if the file is still what the plan read: the
 * replacement with a dated backup of the file (undo: only when keep_current); undo then
 * removes the backup it restored. A plan without change writes nothing. 0 or -errno with
 * p->msgs.why (-EBUSY: another run holds the lock); on failure the file is unchanged. */
int fix_plan_apply(struct sysroot *sr, struct fix_plan *p);
void fix_plan_release(struct fix_plan *p);

/* The running kernel's quirks list: merge id:flag into it, and write it when apply. The
 * values before and after go into before/after (capacity USBQ_VALUE_MAX + 1 or more).
 * 0, -ENOENT (usb-storage not loaded), -ENOSPC (would pass 127) with m->why. */
int fix_quirks_now(struct sysroot *sr, struct usb_id id, bool apply, char *before,
		   char *after, size_t cap, bool *changed, struct fix_msgs *m);

/* The USB VID:PID of a block device ("sda", its device node, "sda1"): walks up its sysfs path to
 * the USB device. 0, -ENOENT (no such device), -ENODEV (not on USB) with m->why. */
int fix_usb_id_of_block(struct sysroot *sr, const char *dev, struct usb_id *id,
			struct fix_msgs *m);

#endif
