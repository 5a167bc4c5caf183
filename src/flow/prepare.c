// SPDX-License-Identifier: GPL-2.0-or-later
/* prepare.c - the prepare journey: clone/'s disk steps, fix/'s fstab writer, the mount and the
 * store's record, in that order, each step's failure named for the caller to say. */
#include <errno.h>
#include <string.h>

#include "common/banned.h"
#include "common/paths.h"
#include "common/util.h"
#include "flow/prepare.h"

static int fail(struct flow_prepare *r, enum flow_prepare_step step, int ret, const char *why)
{
	r->step = step;
	str_copy(r->why, sizeof(r->why), why && why[0] ? why : strerror(-ret));
	return ret;
}

static int fstab_add(struct sysroot *sr, const struct prepare_plan *p, struct flow_prepare *r)
{
	struct fix_plan fp;
	char comment[200];
	int ret;

	str_fmt(comment, sizeof(comment), "%s '%s' on %s", p->fs->name, p->label, p->kname);
	ret = fix_plan_fstab(sr, p->fstab_line, comment, &fp);
	if (!ret)
		ret = fix_plan_apply(sr, &fp);
	if (ret)
		fail(r, FLOW_PREPARE_FSTAB, ret, fp.msgs.why);
	else
		str_copy(r->backup, sizeof(r->backup), fp.backup);
	fix_plan_release(&fp);
	return ret;
}

/* The prepare kept as fixes are (kind, what changed, the file, the drive). */
static int record(struct store *st, const char *kind, const char *change,
		  struct json_object *device, int64_t *id, char *why, size_t whycap)
{
	struct store_fix f = { .uas_resets = -1 };
	int ret;

	str_copy(f.kind, sizeof(f.kind), kind);
	str_copy_cut(f.change, sizeof(f.change), change, true);
	str_copy(f.file, sizeof(f.file), PATH_ETC_FSTAB);
	if (device)
		store_fix_set_device(&f, device);
	ret = store_fix_add(st, &f);
	if (ret)
		str_copy(why, whycap, store_strerror(st));
	else
		*id = f.id;
	return ret;
}

int flow_prepare_apply(struct sysroot *sr, struct prepare_plan *p, struct store *st,
		       struct json_object *device, struct flow_prepare *r)
{
	char why[512] = "", change[256];
	int ret, mret;

	memset(r, 0, sizeof(*r));
	r->step = FLOW_PREPARE_DONE;
	ret = prepare_apply_disk(p, why, sizeof(why));
	if (ret)
		return fail(r, FLOW_PREPARE_DISK, ret, why);
	ret = fstab_add(sr, p, r);
	if (ret)
		return ret;
	mret = prepare_mount(p, why, sizeof(why));
	if (mret)
		fail(r, FLOW_PREPARE_MOUNT, mret, why);
	if (st) {
		str_fmt(change, sizeof(change), "%s '%s' UUID=%s on %s at %s", p->fs->name,
			p->label, p->fs_uuid, p->kname, p->mountpoint);
		ret = record(st, "prepare", change, device, &r->record_id, why, sizeof(why));
		if (ret && !mret)
			return fail(r, FLOW_PREPARE_RECORD, ret, why);
	}
	return mret;
}

int flow_prepare_undo(struct sysroot *sr, bool apply, struct store *st, struct fix_plan *fp)
{
	char why[256];
	int64_t id;
	int ret;

	ret = fix_plan_fstab_undo(sr, fp);
	if (ret || !apply)
		return ret;
	ret = fix_plan_apply(sr, fp);
	if (!ret && st &&
	    record(st, "undo", "prepare undo: " PATH_ETC_FSTAB " put back", NULL, &id, why,
		   sizeof(why)))
		return fix_refuse(&fp->msgs, -EIO, "%s was put back but not recorded: %s",
				  PATH_ETC_FSTAB, why);
	return ret;
}
