// SPDX-License-Identifier: GPL-2.0-or-later
/* bootpart.c - the boot partition of a disk or an image that is not mounted: found in its
 * partition table as the plan finds it, its files through mtools at its offset. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "clone/fs.h"
#include "common/banned.h"
#include "common/util.h"

int clone_bootpart_find(const char *path, struct clone_bootpart *bp, char *why, size_t whycap)
{
	struct clone_plan *p = calloc(1, sizeof(*p));
	int fd = -1, ret;
	size_t i;

	memset(bp, 0, sizeof(*bp));
	if (!p)
		return -ENOMEM;
	ret = clone_table_read(path, p, why, whycap);
	if (ret)
		goto out;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		str_fmt(why, whycap, "cannot open it: %s", strerror(errno));
		goto out;
	}
	ret = -ENOENT;
	str_fmt(why, whycap, "none of its %zu partitions holds a FAT file system (the boot "
		"partition)", p->n_parts);
	for (i = 0; i < p->n_parts; i++) {
		struct clone_part *cp = &p->parts[i];

		clone_part_probe(fd, cp);
		cp->fs = clone_fs_of(cp->fstype);
		if (!cp->fs->boot_files)
			continue;
		str_copy(bp->path, sizeof(bp->path), path);
		bp->off = cp->start;
		bp->size = cp->size;
		bp->partno = cp->partno;
		why[0] = '\0';
		ret = 0;
		break;
	}
out:
	if (fd >= 0)
		close(fd);
	free(p);
	return ret;
}

int clone_bootpart_read(const struct clone_bootpart *bp, const char *name, size_t cap,
			struct sbuf *out)
{
	int ret;

	sbuf_init(out, cap + 1);
	ret = clone_fat_read(bp->path, bp->off, name, cap, out);
	if (ret)
		sbuf_release(out);
	return ret;
}

int clone_bootpart_write(const struct clone_bootpart *bp, const char *name, const void *data,
			 size_t len)
{
	return clone_fat_write(bp->path, bp->off, name, data, len);
}

int clone_bootpart_remove(const struct clone_bootpart *bp, const char *name)
{
	return clone_fat_remove(bp->path, bp->off, name);
}

int clone_bootpart_list(const struct clone_bootpart *bp, struct sbuf *out)
{
	int ret;

	sbuf_init(out, 1 << 20);
	ret = clone_fat_list(bp->path, bp->off, out);
	if (ret)
		sbuf_release(out);
	return ret;
}
