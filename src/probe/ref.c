// SPDX-License-Identifier: GPL-2.0-or-later
/* ref.c - a name the user gave, resolved once into a block device, a file or a directory
 * (probe/ref.h), compared by identity; and the one in-use and overlap oracle for writers. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/banned.h"
#include "common/paths.h"
#include "common/util.h"
#include "probe/probe.h"
#include "probe/ref.h"

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A block device of the inventory (or only a number when the inventory lacks it). */
static void ref_set_block(struct probe_ref *ref, const struct inventory *inv, dev_t devno,
			  const struct blkdev *d)
{
	ref->kind = PROBE_REF_BLOCK;
	if (!d && inv)
		d = probe_inventory_find_devno(inv, major(devno), minor(devno));
	ref->devno = d && d->has_devno ? makedev(d->major, d->minor) : devno;
	ref->dev = d;
	ref->disk = d ? probe_blkdev_whole((struct blkdev *)d) : NULL;
	if (d && d->is_partition) {
		ref->is_partition = true;
		ref->partn = d->has_partn ? d->partn : 0;
	}
	if (d && d->has_size)
		ref->size = d->size_bytes;
}

/* In a captured tree: name (a bare kernel name or a path in the tree's /dev) followed inside
 * the tree to a device the tree's inventory knows. 0, or -ENOENT when the tree has none. */
static int ref_in_tree(struct sysroot *sr, const struct inventory *inv, const char *name,
		       struct probe_ref *ref)
{
	char in[PATH_MAX], canon[PATH_MAX];
	const struct blkdev *d;

	if (!inv)
		return -ENOENT;
	if (strchr(name, '/')) {
		if (str_copy(in, sizeof(in), name))
			return -ENAMETOOLONG;
	} else if (str_fmt(in, sizeof(in), "%s%s", PATH_DEV_PREFIX, name)) {
		return -ENAMETOOLONG;
	}
	/* a link followed inside the tree (/dev/disk/by-id/X -> ../../sda) */
	if (sysroot_realpath(sr, in, canon, sizeof(canon)) || !str_starts(canon, PATH_DEV_PREFIX))
		canon[0] = '\0';
	d = canon[0] ? probe_inventory_find(inv, base_of(canon)) : NULL;
	/* a link to a node the tree does not hold: the kernel name it points to */
	if (!d && !canon[0] && sysroot_readlink(sr, in, canon, sizeof(canon)) > 0)
		d = probe_inventory_find(inv, base_of(canon));
	/* /dev/NAME or /dev/mapper/NAME without a node in the tree */
	if (!d && (!strchr(in + strlen(PATH_DEV_PREFIX), '/') || str_starts(in, PATH_DEV_MAPPER)))
		d = probe_inventory_find(inv, base_of(in));
	if (!d || !d->has_devno)
		return -ENOENT;
	ref_set_block(ref, inv, makedev(d->major, d->minor), d);
	str_fmt(ref->path, sizeof(ref->path), "%s%s", PATH_DEV_PREFIX, d->kname);
	return 0;
}

/* A bare name ("sda"): the device /dev/NAME when there is one (the running system's), else
 * -ENOENT. */
static int ref_bare_device(struct sysroot *sr, const struct inventory *inv, const char *name,
			   struct probe_ref *ref)
{
	char node[PATH_MAX];
	struct stat st;

	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return -ENOENT;
	if (!sysroot_is_live(sr))
		return ref_in_tree(sr, inv, name, ref);
	if (str_fmt(node, sizeof(node), "%s%s", PATH_DEV_PREFIX, name))
		return -ENAMETOOLONG;
	if (sysroot_stat(sr, node, &st, true) || !S_ISBLK(st.st_mode))
		return -ENOENT;
	ref_set_block(ref, inv, st.st_rdev, NULL);
	str_copy(ref->path, sizeof(ref->path), node);
	return 0;
}

/* A path on this machine, followed: a block device, a regular file or a directory. */
static int ref_path(struct sysroot *sr, const struct inventory *inv, const char *name,
		    unsigned flags, struct probe_ref *ref, char *why, size_t whycap)
{
	char canon[PATH_MAX], dir[PATH_MAX], *slash;
	struct stat st;
	int ret;

	/* a name in a captured tree's /dev (a by-id link there) is the tree's device; one the
	 * tree has not, this machine's (a real device looked up in the tree's inventory) */
	if (!sysroot_is_live(sr) && str_starts(name, PATH_DEV_PREFIX) &&
	    !ref_in_tree(sr, inv, name, ref))
		return 0;
	if (stat(name, &st)) {
		ret = -errno;
		if (ret != -ENOENT || !(flags & PROBE_REF_MAY_BE_NEW)) {
			str_fmt(why, whycap, "'%s': %s", ref->shown,
				ret == -ENOENT ? "no such disk, file or directory" : strerror(-ret));
			return ret;
		}
		/* not there: a file to make, in the directory it names */
		if (str_copy(dir, sizeof(dir), name))
			return -ENAMETOOLONG;
		slash = strrchr(dir, '/');
		if (!slash)
			str_copy(dir, sizeof(dir), ".");
		else if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
		if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
			ret = errno ? -errno : -ENOTDIR;
			str_fmt(why, whycap, "'%s': its directory '%s' is not there", ref->shown,
				dir);
			return ret == -ENOENT ? -ENOENT : -ENOTDIR;
		}
		ref->kind = PROBE_REF_NEW;
		ref->st_dev = st.st_dev;
		ref->st_ino = st.st_ino;
		ref->fs_dev = inv ? probe_inventory_find_dev(inv, st.st_dev) : NULL;
		str_copy(ref->path, sizeof(ref->path), name);
		return 0;
	}
	if (S_ISBLK(st.st_mode)) {
		ref_set_block(ref, inv, st.st_rdev, NULL);
		/* by-id and other links: the node itself, as the kernel names it */
		if (ref->dev && sysroot_is_live(sr) &&
		    !str_fmt(canon, sizeof(canon), "%s%s", PATH_DEV_PREFIX, ref->dev->kname) &&
		    !stat(canon, &st) && S_ISBLK(st.st_mode) && st.st_rdev == ref->devno)
			str_copy(ref->path, sizeof(ref->path), canon);
		else if (!realpath(name, canon) || str_copy(ref->path, sizeof(ref->path), canon))
			str_copy(ref->path, sizeof(ref->path), name);
		return 0;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		str_fmt(why, whycap, "'%s' is not a disk, a regular file or a directory",
			ref->shown);
		return -EINVAL;
	}
	ref->kind = S_ISREG(st.st_mode) ? PROBE_REF_FILE : PROBE_REF_DIR;
	ref->st_dev = st.st_dev;
	ref->st_ino = st.st_ino;
	ref->off = 0;
	ref->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	ref->fs_dev = inv ? probe_inventory_find_dev(inv, st.st_dev) : NULL;
	/* the object itself, whatever link or relative name led to it */
	if (!realpath(name, canon) || str_copy(ref->path, sizeof(ref->path), canon))
		str_copy(ref->path, sizeof(ref->path), name);
	return 0;
}

int probe_ref_resolve(struct sysroot *sr, const struct inventory *inv, const char *name,
		      unsigned flags, struct probe_ref *ref, char *why, size_t whycap)
{
	struct stat st;

	memset(ref, 0, sizeof(*ref));
	if (!name || !*name) {
		str_fmt(why, whycap, "an empty name names nothing");
		return -EINVAL;
	}
	if (strlen(name) >= sizeof(ref->path)) {
		str_fmt(why, whycap, "the name is too long (%zu bytes, at most %zu)",
			strlen(name), sizeof(ref->path) - 1);
		return -ENAMETOOLONG;
	}
	str_copy(ref->shown, sizeof(ref->shown), name);
	str_sanitize(ref->shown);
	if (!strchr(name, '/') && !ref_bare_device(sr, inv, name, ref)) {
		if (!lstat(name, &st)) {
			memset(ref, 0, sizeof(*ref));
			str_fmt(why, whycap, "'%s' is both a disk and a file in this directory: "
				"write /dev/%s for the disk or ./%s for the file", name, name,
				name);
			return -EINVAL;
		}
		str_copy(ref->shown, sizeof(ref->shown), name);
		str_sanitize(ref->shown);
		return 0;
	}
	memset(ref, 0, sizeof(*ref));
	str_copy(ref->shown, sizeof(ref->shown), name);
	str_sanitize(ref->shown);
	return ref_path(sr, inv, name, flags, ref, why, whycap);
}

bool probe_ref_same(const struct probe_ref *a, const struct probe_ref *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case PROBE_REF_BLOCK:
		return a->devno == b->devno;
	case PROBE_REF_FILE:
	case PROBE_REF_DIR:
		return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
	case PROBE_REF_NEW:
		return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
		       !strcmp(base_of(a->path), base_of(b->path));
	case PROBE_REF_NONE:
		break;
	}
	return false;
}

bool probe_ref_same_disk(const struct probe_ref *a, const struct probe_ref *b)
{
	if (a->kind != PROBE_REF_BLOCK || b->kind != PROBE_REF_BLOCK)
		return false;
	if (a->disk && b->disk)
		return a->disk == b->disk;
	return a->devno == b->devno;
}

bool probe_ref_is_running_disk(const struct inventory *inv, const struct probe_ref *ref)
{
	if (!inv || !inv->root || ref->kind != PROBE_REF_BLOCK || !ref->dev)
		return false;
	return probe_blkdev_disk((struct blkdev *)ref->dev) == probe_blkdev_disk(inv->root);
}

int probe_ref_check_fd(const struct probe_ref *ref, int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	switch (ref->kind) {
	case PROBE_REF_BLOCK:
		return S_ISBLK(st.st_mode) && st.st_rdev == ref->devno ? 0 : -ESTALE;
	case PROBE_REF_FILE:
		return S_ISREG(st.st_mode) && st.st_dev == ref->st_dev &&
			       st.st_ino == ref->st_ino
			       ? 0
			       : -ESTALE;
	case PROBE_REF_DIR:
		return S_ISDIR(st.st_mode) && st.st_dev == ref->st_dev &&
			       st.st_ino == ref->st_ino
			       ? 0
			       : -ESTALE;
	case PROBE_REF_NEW:
	case PROBE_REF_NONE:
		break;
	}
	return -ESTALE;
}

/* The first non-partition child of d (device-mapper, md built on it), or NULL. */
static const struct blkdev *holder_of(const struct blkdev *d)
{
	for (size_t i = 0; i < d->n_children; i++)
		if (!d->children[i]->is_partition)
			return d->children[i];
	return NULL;
}

/* What u (a device that is used) is used as: "is mounted on /mnt", "is swap" ... */
static void use_of(const struct blkdev *u, char *buf, size_t cap)
{
	const struct blkdev *h;

	if (u->is_root)
		str_copy(buf, cap, "holds the running system (mounted on /)");
	else if (u->n_mountpoints && !strcmp(u->mountpoints[0], "[SWAP]"))
		str_copy(buf, cap, "is swap");
	else if (u->n_mountpoints)
		str_fmt(buf, cap, "is mounted on %s", u->mountpoints[0]);
	else if ((h = holder_of(u)))
		str_fmt(buf, cap, "is held by %s", h->name);
	else
		str_copy(buf, cap, "is held open exclusively (mounted in another mount namespace, "
			 "or by another program)");
}

/* A loop device the mount table here does not show in use, that the kernel still refuses
 * an exclusive open: mounted in another mount namespace (a container, a service's private
 * mounts), or a partition of it is, or another program holds it. Only on this machine. */
static bool loop_claimed(struct sysroot *sr, const struct blkdev *u)
{
	char node[sizeof(PATH_DEV_PREFIX) + sizeof(u->kname)];
	int fd;

	if (!u->backing_file[0] || !sysroot_is_live(sr) ||
	    str_fmt(node, sizeof(node), "%s%s", PATH_DEV_PREFIX, u->kname))
		return false;
	fd = sysroot_open_fd(sr, node, O_RDONLY | O_EXCL | O_NONBLOCK);
	if (fd >= 0)
		close(fd);
	return fd == -EBUSY;
}

static void say_walk(const struct probe_ref *ref, const struct probe_inuse *use, char *why,
		     size_t whycap)
{
	const char *it = use->dev == ref->dev ? "it" : use->dev->kname;

	switch (use->what) {
	case PROBE_INUSE_ROOT:
		str_fmt(why, whycap, "it holds the running system (%s is mounted on /)",
			use->dev->kname);
		break;
	case PROBE_INUSE_SWAP:
		str_fmt(why, whycap, "%s is swap", use->dev->kname);
		break;
	case PROBE_INUSE_MOUNTED:
		str_fmt(why, whycap, "%s is mounted on %s", it, use->mountpoint);
		break;
	case PROBE_INUSE_NONE: /* not with true */
	case PROBE_INUSE_HELD:
		str_fmt(why, whycap, "%s is held by %s", use->dev->kname, use->holder->name);
		break;
	}
}

static void say_overlap(const struct blkdev *u, const struct probe_extent *et,
			const struct probe_extent *eu, char *why, size_t whycap)
{
	char how[PATH_MAX / 2], at[32];
	uint64_t from = et->off > eu->off ? et->off : eu->off;

	use_of(u, how, sizeof(how));
	size_to_human(from, at, sizeof(at));
	if (eu->file)
		str_fmt(why, whycap, "%s, over the same file %s (its bytes from %s on), %s",
			u->kname, eu->what[0] ? eu->what : "(unnamed)", at, how);
	else if (eu->container)
		str_fmt(why, whycap, "%s %s, and its backing file is on %s", u->kname, how,
			eu->what[0] ? eu->what : "it");
	else
		str_fmt(why, whycap, "%s, on the same bytes of %s (from %s on), %s", u->kname,
			eu->what[0] ? eu->what : "the disk", at, how);
}

/* A swap file that rt reaches (the file, or a loop device over it): the kernel lists it in
 * /proc/swaps as "file" and refuses writes to it (EIO through a loop device). Only on this
 * machine: a tree's /proc/swaps names files of another one. */
static bool swap_file_reached(struct sysroot *sr, const struct probe_ref *ref,
			      const struct probe_reach *rt, char *why, size_t whycap)
{
	char buf[SYSROOT_ATTR_MAX * 4], *line, *save = NULL;

	if (!sysroot_is_live(sr) || sysroot_read(sr, PATH_PROC_SWAPS, buf, sizeof(buf)) <= 0)
		return false;
	/* "Filename  Type  Size  Used  Priority": the name escaped (octal), padded with spaces */
	line = strtok_r(buf, "\n", &save);
	for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *type = strchr(line, ' ');
		struct stat st;
		size_t i;

		if (!type)
			continue;
		*type++ = '\0';
		type += strspn(type, " \t");
		if (strncmp(type, "file", 4))
			continue;
		probe_mount_unescape(line);
		if (sysroot_stat(sr, line, &st, true))
			continue;
		for (i = 0; i < rt->n; i++) {
			if (rt->e[i].file && rt->e[i].dev == st.st_dev && rt->e[i].ino == st.st_ino) {
				if (ref->kind == PROBE_REF_FILE)
					str_fmt(why, whycap, "it is active swap (/proc/swaps)");
				else
					str_fmt(why, whycap, "it is over the file %s, which is "
						"active swap (/proc/swaps)", line);
				return true;
			}
		}
	}
	return false;
}

int probe_ref_in_use(struct sysroot *sr, const struct inventory *inv,
		     const struct probe_ref *ref, char *why, size_t whycap)
{
	struct probe_reach *rt = NULL, *ru = NULL;
	const struct probe_extent *et, *eu;
	struct probe_inuse use;
	size_t i, n = 0;
	int ret = 0;

	if (ref->kind == PROBE_REF_DIR || ref->kind == PROBE_REF_NEW)
		return 0; /* nothing is written over: a file is made in it */
	if (!inv || (ref->kind == PROBE_REF_BLOCK && !ref->dev)) {
		str_fmt(why, whycap, "cannot tell whether it is in use: not writing to it");
		return -EINVAL;
	}
	if (ref->kind == PROBE_REF_BLOCK && probe_blkdev_in_use(inv, ref->dev, &use)) {
		say_walk(ref, &use, why, whycap);
		return -EBUSY;
	}
	rt = malloc(sizeof(*rt));
	ru = malloc(sizeof(*ru));
	if (!rt || !ru) {
		ret = -ENOMEM;
		goto out;
	}
	ret = probe_reach_ref(sr, inv, ref, rt);
	if (ret)
		goto out;
	/* writing it writes its own bytes, never the file system its file is on */
	for (i = 0; i < rt->n; i++)
		if (!rt->e[i].container)
			rt->e[n++] = rt->e[i];
	rt->n = n;
	if (rt->truncated) {
		str_fmt(why, whycap, "cannot tell whether it is in use: it reaches through loop "
			"devices or holders not followed to their end");
		ret = -EINVAL;
		goto out;
	}
	for (i = 0; i < inv->n_all; i++) {
		const struct blkdev *u = inv->all[i];

		if (!u->is_root && !u->n_mountpoints && !holder_of(u) &&
		    (u == ref->dev || !loop_claimed(sr, u)))
			continue;
		probe_reach_blkdev(sr, inv, u, ru);
		if (probe_reach_overlap(rt, ru, &et, &eu)) {
			say_overlap(u, et, eu, why, whycap);
			ret = -EBUSY;
			goto out;
		}
	}
	if (swap_file_reached(sr, ref, rt, why, whycap))
		ret = -EBUSY;
out:
	free(rt);
	free(ru);
	return ret;
}
