/* check.c - will a disk or an image boot: one disk's checks through its mounts or its partition
 * table, for `boot check` and move's step 3 alike. */
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

#include "clone/clone.h"
#include "common/paths.h"
#include "common/util.h"
#include "flow/check.h"

/* Is d or a partition of it mounted? */
static bool disk_mounted(const struct blkdev *d)
{
	size_t i;

	for (i = 0; i < d->n_children; i++)
		if (d->children[i]->n_mountpoints)
			return true;
	return d->n_mountpoints > 0;
}

/* d read through its partition table, or the image: 1 when it was not reachable so (mounted,
 * no node, no table it can read), else 0 or -errno. */
static int check_unmounted(struct sysroot *sr, const struct inventory *inv,
			   const struct boot_facts *f, const struct blkdev *d, const char *image,
			   const struct config_board *board, struct boot_checks *c)
{
	char node[PATH_MAX], path[PATH_MAX], why[300];
	struct stat st;
	int ret;

	if (d) {
		if (disk_mounted(d) || str_fmt(node, sizeof(node), "%s%s", PATH_DEV_PREFIX,
					       d->kname) ||
		    sysroot_stat(sr, node, &st, true) || !S_ISBLK(st.st_mode) ||
		    sysroot_host_path(sr, node, path, sizeof(path)))
			return 1;
	} else if (str_copy(path, sizeof(path), image)) {
		return -ENAMETOOLONG;
	}
	ret = clone_boot_check_path(sr, path, d ? d->kname : "", inv, f, board, c, why,
				    sizeof(why));
	if (ret == -EINVAL || ret == -EIO)
		return 1; /* no partition table it can read */
	return ret;
}

int flow_check_disk(struct sysroot *sr, const struct inventory *inv, const struct boot_facts *f,
		    const struct blkdev *d, const char *image, const struct config_board *board,
		    struct boot_checks *c)
{
	int ret = check_unmounted(sr, inv, f, d, image, board, c);

	if (ret == 1)
		ret = d ? boot_check_disk(sr, inv, f, d, c) : -EINVAL;
	return ret;
}
