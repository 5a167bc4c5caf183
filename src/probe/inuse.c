/* inuse.c - is a block device in use: the one answer that bench (before it writes to a
 * device) and clone (before it writes a target) both ask, read from the inventory. */
#include <string.h>

#include "common/paths.h"
#include "common/util.h"
#include "probe/probe.h"

#define INUSE_DEPTH_MAX 8 /* layers followed: partitions, holders, loops over loops */

/* d itself: the running system, swap, or a mount point (the first one). */
static bool inuse_own(const struct blkdev *d, struct probe_inuse *use)
{
	if (!d->is_root && !d->n_mountpoints)
		return false;
	use->dev = d;
	use->mountpoint = d->n_mountpoints ? d->mountpoints[0] : NULL;
	if (d->is_root || !strcmp(use->mountpoint, "/"))
		use->what = PROBE_INUSE_ROOT;
	else if (!strcmp(use->mountpoint, "[SWAP]"))
		use->what = PROBE_INUSE_SWAP;
	else
		use->what = PROBE_INUSE_MOUNTED;
	return true;
}

static bool inuse_walk(const struct inventory *inv, const struct blkdev *d, unsigned depth,
		       struct probe_inuse *use)
{
	char node[sizeof(PATH_DEV_PREFIX) + sizeof(d->kname)];
	size_t i;

	if (depth > INUSE_DEPTH_MAX)
		return false;
	if (inuse_own(d, use))
		return true;
	for (i = 0; i < d->n_children; i++) {
		const struct blkdev *c = d->children[i];

		if (!c->is_partition) {
			use->what = PROBE_INUSE_HELD;
			use->dev = d;
			use->holder = c;
			return true;
		}
		if (inuse_walk(inv, c, depth + 1, use))
			return true;
	}
	/* a loop device names what it is built on only in its backing file: it is no holder */
	if (!inv || str_fmt(node, sizeof(node), "%s%s", PATH_DEV_PREFIX, d->kname))
		return false;
	for (i = 0; i < inv->n_all; i++) {
		const struct blkdev *l = inv->all[i];

		if (l->backing_file[0] && !strcmp(l->backing_file, node) &&
		    inuse_walk(inv, l, depth + 1, use))
			return true;
	}
	return false;
}

bool probe_blkdev_in_use(const struct inventory *inv, const struct blkdev *d,
			 struct probe_inuse *use)
{
	*use = (struct probe_inuse){ 0 };
	return inuse_walk(inv, d, 0, use);
}
