// SPDX-License-Identifier: GPL-2.0-or-later
/* fs-vfat.c - FAT as clone's row: the boot partition's file system, read, written and
 * listed through mtools (fat.c), its used clusters copied, given a new volume id. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "clone/fs.h"
#include "common/banned.h"
#include "common/util.h"

static bool vfat_match(const char *t)
{
	return !strcmp(t, "vfat");
}

static void vfat_plan(const struct clone_plan *p, struct clone_part *cp)
{
	if (clone_fat_used(p->src_path, cp->start, cp->size, &cp->used) == 0) {
		/* its metadata and used clusters (a FAT it cannot read: whole) */
		cp->has_used = true;
		cp->method = CLONE_BY_USED;
		cp->copy_bytes = cp->used;
	} else {
		cp->method = CLONE_BY_WHOLE;
		cp->copy_bytes = cp->size;
	}
}

static void vfat_new_id(struct clone_part *cp)
{
	clone_random(&cp->t_vfat_id, sizeof(cp->t_vfat_id));
	str_fmt(cp->t_uuid, sizeof(cp->t_uuid), "%04X-%04X", cp->t_vfat_id >> 16,
		cp->t_vfat_id & 0xffff);
}

static int vfat_set_id(const struct clone_part *cp, const char *dev, int dfd, char *why,
		       size_t whycap)
{
	int ret = clone_fat_set_id(dfd, cp->t_start, cp->t_vfat_id);

	(void)dev;
	if (ret) {
		str_fmt(why, whycap, "cannot set the volume id of target p%u", cp->partno);
		return ret;
	}
	return fsync(dfd) ? -errno : 0;
}

const struct clone_fs clone_fs_vfat = {
	.name = "vfat", .match = vfat_match, .boot_files = true, .live_blocks = true,
	/* cmdline.txt and extlinux.conf read and rewritten, the copy listed and checked */
	.tools = { { "mtype", "mtools" }, { "mcopy", "mtools" }, { "mdir", "mtools" },
		   { "fsck.vfat", "dosfstools" } },
	/* the plan; files read and written at its offset, through mtools */
	.plan = vfat_plan, .new_id = vfat_new_id, .read_file = clone_fat_read,
	.write_file = clone_fat_write, .list = clone_fat_list,
	/* the copy, and the finish on the target */
	.copy_used = clone_fat_copy_used, .set_id = vfat_set_id,
	/* the comparison */
	.check = { "fsck.vfat", "-n" }, .check_name = "fsck.vfat -n", .repair_hint = "fsck.vfat -a",
	.compare = clone_compare_fat,
};
