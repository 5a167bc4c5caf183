/* fix-disk.c - the disk or image named by `fix --disk` resolved once: a whole disk that is not
 * mounted or an image file, its boot partition (clone/), its files as fix/'s accessor. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/fix-disk.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/util.h"

static int io_read(void *arg, const char *name, size_t cap, struct sbuf *out)
{
	return clone_bootpart_read(arg, name, cap, out);
}

static int io_write(void *arg, const char *name, const void *data, size_t len)
{
	return clone_bootpart_write(arg, name, data, len);
}

static int io_remove(void *arg, const char *name)
{
	return clone_bootpart_remove(arg, name);
}

static int io_list(void *arg, struct sbuf *out)
{
	return clone_bootpart_list(arg, out);
}

/* The first mount of d or of a partition of it, NULL when none. */
static const char *mounted_part(const struct blkdev *d, const char **part)
{
	size_t i;

	*part = d->kname;
	if (d->n_mountpoints)
		return d->mountpoints[0];
	for (i = 0; i < d->n_children; i++) {
		if (d->children[i]->n_mountpoints) {
			*part = d->children[i]->kname;
			return d->children[i]->mountpoints[0];
		}
	}
	return NULL;
}

int fix_disk_open(struct sysroot *sr, const struct inventory *inv, const char *cmd,
		  const char *arg, struct fix_disk *d)
{
	const struct blkdev *b = NULL;
	const char *base = strrchr(arg, '/'), *part, *mnt;
	char node[PATH_MAX], why[300] = "";
	struct stat st;
	int ret;

	memset(d, 0, sizeof(*d));
	if (!strncmp(arg, PATH_DEV_PREFIX, strlen(PATH_DEV_PREFIX)) || !base)
		b = inv ? probe_inventory_find(inv, base ? base + 1 : arg) : NULL;
	if (b) {
		/* a block device of this system: by its name, through the sysroot */
		if (b->is_partition) {
			log_error("%s: --disk '%s' is a partition: name its whole disk (%s)", cmd, arg,
				  b->disk ? b->disk->kname : "the disk");
			return EXIT_FAIL;
		}
		mnt = mounted_part(b, &part);
		if (mnt) {
			log_error("%s: --disk %s: %s is mounted on %s; its files are edited there by "
				  "the fix without --disk (with --sysroot for another root), or "
				  "unmount it first", cmd, b->kname, part, mnt);
			return EXIT_FAIL;
		}
		str_copy(d->kname, sizeof(d->kname), b->kname);
		if (str_fmt(node, sizeof(node), "%s%s", PATH_DEV_PREFIX, b->kname) ||
		    sysroot_host_path(sr, node, d->path, sizeof(d->path))) {
			log_error("%s: --disk '%s': name too long", cmd, arg);
			return EXIT_FAIL;
		}
	} else if (stat(arg, &st)) {
		log_error("%s: --disk '%s': no such block device or image file", cmd, arg);
		return EXIT_FAIL;
	} else if (!S_ISREG(st.st_mode)) {
		log_error("%s: --disk '%s': not a disk of this system nor an image file", cmd, arg);
		return EXIT_FAIL;
	} else {
		str_copy(d->path, sizeof(d->path), arg); /* an image file */
	}
	ret = clone_bootpart_find(d->path, &d->bp, why, sizeof(why));
	if (ret) {
		log_error("%s: --disk %s: no boot partition found: %s", cmd, arg,
			  why[0] ? why : strerror(-ret));
		return EXIT_FAIL;
	}
	d->files = (struct fix_files){ .read = io_read, .write = io_write, .remove = io_remove,
				       .list = io_list, .arg = &d->bp };
	if (d->kname[0]) { /* the kernel's name of the partition: sda1, mmcblk0p1, loop7p1 */
		size_t l = strlen(d->kname);
		bool digit = l && d->kname[l - 1] >= '0' && d->kname[l - 1] <= '9';

		str_fmt(d->files.where, sizeof(d->files.where), "%s%s%u", d->kname,
			digit ? "p" : "", d->bp.partno);
	} else {
		str_fmt(d->files.where, sizeof(d->files.where), "%s:p%u", base ? base + 1 : arg,
			d->bp.partno);
	}
	return EXIT_OK;
}
