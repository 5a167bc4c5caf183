// SPDX-License-Identifier: GPL-2.0-or-later
/* fs-ext.c - ext2/3/4 as clone's row: its used blocks read and copied through ext.c
 * (libext2fs), made, repaired, grown and given its new UUID with e2fsprogs. */
#include <errno.h>
#include <string.h>
#include <sys/statvfs.h>

#include "clone/fs.h"
#include "common/banned.h"
#include "common/util.h"

static bool ext_match(const char *t)
{
	return !strcmp(t, "ext2") || !strcmp(t, "ext3") || !strcmp(t, "ext4");
}

static void ext_plan(const struct clone_plan *p, struct clone_part *cp)
{
	struct clone_extinfo ei;

	if (clone_ext_info(p->src_path, cp->start, &ei) == 0) {
		cp->has_used = true;
		cp->used = ei.used;
		cp->fs_errors = ei.has_errors;
		cp->journal_dirty = ei.needs_recovery;
		/* a journal to replay may allocate blocks its bitmaps show free
		 * (a card pulled after a crash): every byte, replayed on the copy */
		cp->method = ei.needs_recovery ? CLONE_BY_WHOLE : CLONE_BY_USED;
		cp->copy_bytes = ei.needs_recovery ? cp->size : ei.used;
	} else {
		cp->method = CLONE_BY_WHOLE;
		cp->copy_bytes = cp->size;
	}
}

static int ext_used(const char *path, uint64_t off, uint64_t *used)
{
	struct clone_extinfo ei;
	int ret = clone_ext_info(path, off, &ei);

	if (!ret)
		*used = ei.used;
	return ret;
}

static unsigned ext_unit(const char *path, uint64_t off)
{
	struct clone_extinfo ei;

	return clone_ext_info(path, off, &ei) == 0 ? (unsigned)ei.block_size : 0;
}

static void ext_new_id(struct clone_part *cp)
{
	clone_uuid_new(cp->t_uuid, sizeof(cp->t_uuid));
}

/* mke2fs for target partition cp on dev: the source's features, inode size, block and
 * cluster size and label, with its new UUID. An e2fsprogs that does not know one of the
 * source's features makes the file system with its own defaults for the type instead. */
static int ext_make(struct clone_plan *p, struct clone_part *cp, const char *dev, char *why,
		    size_t whycap)
{
	struct clone_extinfo ei;
	char bs[16] = "", is[16] = "", cs[16] = "", ni[24] = "", tb[16] = "";
	const char *mk[24];
	size_t n = 0;
	int ret;

	mk[n++] = "mke2fs";
	mk[n++] = "-F";
	mk[n++] = "-q";
	mk[n++] = "-t";
	mk[n++] = cp->fstype;
	if (clone_ext_info(p->src_path, cp->start, &ei) == 0 && ei.features[0]) {
		/* on a target of larger sectors: blocks of at least a sector (plan_sectors) */
		str_fmt(bs, sizeof(bs), "%llu", (unsigned long long)(cp->t_unit > ei.block_size ?
								     cp->t_unit : ei.block_size));
		str_fmt(is, sizeof(is), "%u", ei.inode_size);
		mk[n++] = "-O";
		mk[n++] = ei.features;
		mk[n++] = "-b";
		mk[n++] = bs;
		mk[n++] = "-I";
		mk[n++] = is;
		/* the target is sized to the data: as many inodes per byte as the source, and
		 * never fewer than its files need */
		if (ei.inodes && cp->size) {
			uint64_t n_ino = (uint64_t)((double)ei.inodes * (double)cp->t_size /
						    (double)cp->size), used = ei.inodes_used;
			struct statvfs sv;

			/* mounted, the superblock's free count lags: ask the kernel */
			if (!statvfs(cp->mountpoint, &sv) && sv.f_files >= sv.f_ffree)
				used = sv.f_files - sv.f_ffree;
			if (n_ino < used + used / 4 + 1024)
				n_ino = used + used / 4 + 1024;
			str_fmt(ni, sizeof(ni), "%llu", (unsigned long long)n_ino);
			mk[n++] = "-N";
			mk[n++] = ni;
		}
		if (ei.cluster_size) {
			str_fmt(cs, sizeof(cs), "%u", ei.cluster_size);
			mk[n++] = "-C";
			mk[n++] = cs;
		}
	}
	mk[n++] = "-L";
	mk[n++] = cp->label;
	mk[n++] = "-U";
	mk[n++] = cp->t_uuid;
	mk[n++] = dev;
	mk[n] = NULL;
	ret = clone_run_tool("mke2fs", mk, 0, why, whycap);
	if (ret == -EIO && bs[0]) {
		const char *plain[] = { "mke2fs", "-F", "-q", "-t", cp->fstype, "-L", cp->label,
				  "-U", cp->t_uuid, dev, NULL, NULL, NULL, NULL };

		if (cp->t_unit) { /* the block size is not the tools' choice */
			str_fmt(tb, sizeof(tb), "%u", cp->t_unit);
			plain[9] = "-b";
			plain[10] = tb;
			plain[11] = dev;
		}

		why[0] = '\0';
		ret = clone_run_tool("mke2fs", plain, 0, why, whycap);
	}
	return ret;
}

static int ext_grow(const char *dev, char *why, size_t whycap)
{
	const char *rs[] = { "resize2fs", dev, NULL };

	return clone_run_tool("resize2fs", rs, 0, why, whycap);
}

static int ext_set_id(const struct clone_part *cp, const char *dev, int dfd, char *why,
		      size_t whycap)
{
	const char *tu[] = { "tune2fs", "-U", cp->t_uuid, dev, NULL };

	(void)dfd;
	return cp->t_uuid[0] ? clone_run_tool("tune2fs -U", tu, 0, why, whycap) : 0;
}

const struct clone_fs clone_fs_ext = {
	.name = "ext", .match = ext_match, .can_be_root = true,
	.tools = { { "mke2fs", "e2fsprogs" }, { "e2fsck", "e2fsprogs" },
		   { "resize2fs", "e2fsprogs" }, { "tune2fs", "e2fsprogs" },
#ifndef HAVE_EXT2FS
		   { "debugfs", "e2fsprogs" },
#endif
	},
	/* the plan */
	.plan = ext_plan, .used = ext_used, .unit = ext_unit, .new_id = ext_new_id,
	.read_file = clone_ext_read_file, .resolve = clone_ext_resolve,
	/* the copy, and the finish on the target */
	.copy_used = clone_ext_copy_used, .make = ext_make, .on_device = true,
	.repair = { "e2fsck", "-f", "-p" }, .repair_name = "e2fsck -fp of the copy",
	.grow = ext_grow, .set_id = ext_set_id,
	/* the comparison */
	.ro_flag = "noload", .check = { "e2fsck", "-f", "-n" }, .check_name = "e2fsck -fn",
	.repair_hint = "e2fsck -f", .compare = clone_compare_mounted,
};
