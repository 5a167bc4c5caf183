// SPDX-License-Identifier: GPL-2.0-or-later
/* fs-vfat.c - FAT as clone's row: the boot partition's file system, read, written and
 * listed through mtools (fat.c), its used clusters copied, given a new volume id. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static unsigned vfat_unit(const char *path, uint64_t off)
{
	unsigned char bs[512];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return 0;
	r = pread(fd, bs, sizeof(bs), (off_t)off);
	close(fd);
	if (r != (ssize_t)sizeof(bs) || bs[510] != 0x55 || bs[511] != 0xaa)
		return 0;
	return bs[11] | (unsigned)bs[12] << 8;
}

/* A fresh FAT on dev with cp->t_unit-byte sectors (mkfs.vfat: the type and cluster size
 * its own choice for the size, the label and the new volume id given), the source's files
 * copied out to a directory and into it through mtools. */
static int vfat_copy_files(struct clone_plan *p, struct clone_part *cp, const char *dev,
			   char *why, size_t whycap)
{
	char ss[16], hid[24], id[16], base[PATH_MAX], files[PATH_MAX + 4];
	const char *td = getenv("TMPDIR");
	const char *mk[16] = { "mkfs.vfat", "-S", ss, "-h", hid, "-i", id };
	size_t n = 7;
	int bfd, ret;

	str_fmt(ss, sizeof(ss), "%u", cp->t_unit ? cp->t_unit : 512);
	str_fmt(hid, sizeof(hid), "%llu", (unsigned long long)(cp->t_start /
							       (cp->t_unit ? cp->t_unit : 512)));
	str_fmt(id, sizeof(id), "%08X", cp->t_vfat_id);
	if (cp->label[0]) {
		mk[n++] = "-n";
		mk[n++] = cp->label;
	}
	mk[n++] = dev;
	mk[n] = NULL;
	ret = clone_run_tool("mkfs.vfat", mk, 0, why, whycap);
	if (ret)
		return ret;
	if (str_fmt(base, sizeof(base), "%s/sbcdisk-fat-XXXXXX", td && td[0] ? td : "/tmp") ||
	    !mkdtemp(base) || (bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		ret = -errno;
		str_fmt(why, whycap, "p%u: no directory to copy its files through: %s",
			cp->partno, strerror(-ret));
		return ret;
	}
	if (mkdirat(bfd, "s", 0700) || str_fmt(files, sizeof(files), "%s/s/", base))
		ret = -EIO;
	if (!ret && (ret = clone_fat_copy_out(p->src_path, cp->start, files)))
		str_fmt(why, whycap, "cannot copy the files of source p%u out (mcopy): %s",
			cp->partno, strerror(-ret));
	else if (!ret && (ret = clone_fat_copy_in(dev, 0, files)))
		str_fmt(why, whycap, "cannot copy the files of p%u onto the target (mcopy): %s",
			cp->partno, strerror(-ret));
	else if (ret)
		str_fmt(why, whycap, "p%u: no directory to copy its files through", cp->partno);
	if (!ret)
		cp->copied = cp->used;
	clone_remove_tree(bfd, "s");
	close(bfd);
	rmdir(base);
	return ret;
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
		   { "fsck.vfat", "dosfstools" }, { "mkfs.vfat", "dosfstools" } },
	/* the plan; files read and written at its offset, through mtools */
	.plan = vfat_plan, .unit = vfat_unit, .new_id = vfat_new_id, .read_file = clone_fat_read,
	.write_file = clone_fat_write, .list = clone_fat_list,
	/* the copy, and the finish on the target */
	.copy_used = clone_fat_copy_used, .copy_files = vfat_copy_files, .set_id = vfat_set_id,
	/* the comparison */
	.check = { "fsck.vfat", "-n" }, .check_name = "fsck.vfat -n", .repair_hint = "fsck.vfat -a",
	.compare = clone_compare_fat,
};
