/* files.h - the fixes written into another disk's boot partition (the drive about to boot):
 * its files reached through an accessor, with the same plan, diff, dated backup and undo. */
#ifndef SBCDISK_FIX_FILES_H
#define SBCDISK_FIX_FILES_H

#include "common/bootcfg-eval.h"
#include "fix/plan.h"

/* The files of one boot partition that is not mounted (cli/ fills it with clone's FAT
 * access through mtools). Names are relative to the file system's root ("cmdline.txt"). */
struct fix_files {
	/* 0, -ENOENT, -EFBIG (more than cap), -errno; out is initialised here */
	int (*read)(void *arg, const char *name, size_t cap, struct sbuf *out);
	/* replace or create name with data: 0 or -errno */
	int (*write)(void *arg, const char *name, const void *data, size_t len);
	int (*remove)(void *arg, const char *name);
	/* every path, one "::/path" a line (mdir -/ -b): 0 or -errno; out is initialised */
	int (*list)(void *arg, struct sbuf *out);
	void *arg;
	char where[96]; /* how the texts name the partition: "sda1", "pi.img:p1" */
	struct config_board board; /* the board its config.txt is read for (bootcfg-eval.h) */
};

/* The plan of fix kind (FIX_UAS with id, FIX_PCIE_GEN with gen, FIX_USB_CURRENT, FIX_UNDO)
 * on io's partition: the command line file as its own config.txt names it, or its
 * config.txt. p->file.path is where + "/" + the name. 0 or -errno with p->msgs.why;
 * fix_plan_release() in every case. */
int fix_files_plan(const struct fix_files *io, enum fix_kind kind, struct usb_id id, int gen,
		   struct fix_plan *p);
/* Write the plan: the file must still hold what the plan read; a dated backup of it first
 * (NAME.sbcdisk-STAMP beside it), then the new bytes; undo writes the backup's bytes back
 * and removes that backup. 0 or -errno with p->msgs.why. */
int fix_files_apply(const struct fix_files *io, struct fix_plan *p);

#endif
