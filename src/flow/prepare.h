/* prepare.h - the prepare journey: a new data disk's plan (clone/prepare.h) done step by step,
 * disk, fstab (fix's writer), mount, the record in the store; on resolved objects, no printing. */
#ifndef SBCDISK_FLOW_PREPARE_H
#define SBCDISK_FLOW_PREPARE_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "clone/prepare.h"
#include "common/sysroot.h"
#include "fix/plan.h"
#include "store/store.h"

enum flow_prepare_step {
	FLOW_PREPARE_DISK,   /* table, partition device, file system */
	FLOW_PREPARE_FSTAB,  /* the line in /etc/fstab, with a backup */
	FLOW_PREPARE_MOUNT,  /* the mount point made and mounted */
	FLOW_PREPARE_RECORD, /* the prepare kept in the store */
	FLOW_PREPARE_DONE,
};

struct flow_prepare {
	enum flow_prepare_step step; /* the step that failed, FLOW_PREPARE_DONE when none */
	char backup[300];	     /* the fstab's dated backup beside it, "" none */
	int64_t record_id;	     /* the store's row, 0 when not recorded */
	char why[512];		     /* why the step failed */
};

/*
 * Do p (prepare_plan_make() with apply): the disk's steps, then the fstab line through fix's
 * writer (dated backup, atomic), the mount, then the record in st (kind "prepare", what was
 * made, device: the disk as `list --json` shows it, may be NULL; st NULL: not recorded).
 * A failed mount is still recorded (the disk and the fstab are done). 0, or -errno with
 * r->step and r->why.
 */
int flow_prepare_apply(struct sysroot *sr, struct prepare_plan *p, struct store *st,
		       struct json_object *device, struct flow_prepare *r);

/* The fstab line of the last prepare taken back: fix_plan_fstab_undo(), and with apply its
 * write and a record ("undo") in st (NULL: not recorded). 0 or -errno with fp->msgs.why;
 * fix_plan_release(fp) in every case. */
int flow_prepare_undo(struct sysroot *sr, bool apply, struct store *st, struct fix_plan *fp);

#endif
