// SPDX-License-Identifier: GPL-2.0-or-later
/* reach.c - which bytes of which disk or file a named object reaches: through partitions,
 * loop devices (their backing file or device, offset and size limit), holders (device-mapper,
 * md), the file system a file lives on and an overlay's directories. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/banned.h"
#include "common/paths.h"
#include "common/util.h"
#include "probe/probe-int.h"
#include "probe/probe.h"
#include "probe/ref.h"

#define REACH_DEPTH_MAX 8
#define REACH_END	UINT64_MAX

struct reach_ctx {
	struct sysroot *sr;
	const struct inventory *inv;
	struct probe_reach *r;
};

static void reach_add(struct reach_ctx *c, bool file, dev_t dev, ino_t ino, uint64_t off,
		      uint64_t end, bool container, const char *what)
{
	struct probe_extent *e;

	if (c->r->n >= PROBE_REACH_MAX) {
		c->r->truncated = true;
		return;
	}
	e = &c->r->e[c->r->n++];
	memset(e, 0, sizeof(*e));
	e->file = file;
	e->dev = dev;
	e->ino = ino;
	e->off = off;
	e->end = end;
	e->container = container;
	str_copy(e->what, sizeof(e->what), what);
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > REACH_END - b ? REACH_END : a + b;
}

static void reach_dev(struct reach_ctx *c, dev_t devno, uint64_t off, uint64_t end,
		      bool container, unsigned depth);
static void reach_anon(struct reach_ctx *c, dev_t devno, unsigned depth);
static void reach_overlay_file(struct reach_ctx *c, dev_t devno, const char *path,
			       uint64_t off, uint64_t end, bool container, unsigned depth);

/* A regular file's bytes [off, end), then the file system that holds it: the device of its
 * st_dev, whole (where on it the file's blocks are is not asked). A file on an overlay is
 * also the file at its place in the overlay's directories. */
static void reach_file(struct reach_ctx *c, dev_t dev, ino_t ino, const char *what,
		       uint64_t off, uint64_t end, bool container, unsigned depth)
{
	reach_add(c, true, dev, ino, off, end, container, what);
	if (!major(dev))
		reach_overlay_file(c, dev, what, off, end, container, depth + 1);
	reach_dev(c, dev, 0, REACH_END, true, depth + 1);
}

/* A loop device's backing: the file's identity from LOOP_GET_STATUS64 (right even when the
 * file was renamed or deleted), a backing block device from its node's device number. */
static void reach_loop(struct reach_ctx *c, const struct blkdev *d, uint64_t off,
		       uint64_t end, bool container, unsigned depth)
{
	struct loop_info64 li;
	char node[80], path[PATH_MAX];
	uint64_t lo_off = 0, limit = 0;
	struct stat st;
	int fd;

	if (str_fmt(node, sizeof(node), "%s%s", PATH_DEV_PREFIX, d->kname))
		return;
	memset(&li, 0, sizeof(li));
	fd = sysroot_open_fd(c->sr, node, O_RDONLY | O_NONBLOCK);
	if (fd >= 0 && ioctl(fd, LOOP_GET_STATUS64, &li) == 0) {
		lo_off = li.lo_offset;
		limit = li.lo_sizelimit;
	} else {
		if (str_fmt(path, sizeof(path), "%s/loop/offset", d->syspath) ||
		    sysroot_read_u64(c->sr, path, &lo_off))
			lo_off = 0;
		if (str_fmt(path, sizeof(path), "%s/loop/sizelimit", d->syspath) ||
		    sysroot_read_u64(c->sr, path, &limit))
			limit = 0;
	}
	if (fd >= 0)
		close(fd);
	if (limit && end > limit)
		end = limit;
	off = add_sat(off, lo_off);
	end = add_sat(end, lo_off);
	if (stat(d->backing_file, &st) == 0 && S_ISBLK(st.st_mode))
		reach_dev(c, st.st_rdev, off, end, container, depth + 1);
	else if (li.lo_inode)
		reach_file(c, (dev_t)li.lo_device, (ino_t)li.lo_inode, d->backing_file, off, end,
			   container, depth);
	else if (stat(d->backing_file, &st) == 0 && S_ISREG(st.st_mode))
		reach_file(c, st.st_dev, st.st_ino, d->backing_file, off, end, container, depth);
	else
		c->r->truncated = true; /* a loop device over something not known */
}

static void reach_dev(struct reach_ctx *c, dev_t devno, uint64_t off, uint64_t end,
		      bool container, unsigned depth)
{
	const struct blkdev *d;
	char path[PATH_MAX];
	uint64_t start;
	bool below = false;

	if (depth > REACH_DEPTH_MAX) {
		c->r->truncated = true;
		return;
	}
	d = probe_inventory_find_dev(c->inv, devno); /* btrfs: by its mounts' numbers */
	if (!d) {
		if (major(devno))
			reach_add(c, false, devno, 0, off, end, container, "");
		else
			reach_anon(c, devno, depth);
		return;
	}
	if (d->has_devno)
		devno = makedev(d->major, d->minor);
	if (d->is_partition && d->disk && d->disk->has_devno) {
		if (str_fmt(path, sizeof(path), "%s/start", d->syspath) ||
		    sysroot_read_u64(c->sr, path, &start)) {
			start = 0; /* not known: the whole disk, the careful guess */
			end = REACH_END;
		}
		start *= 512;
		if (d->has_size && end > d->size_bytes)
			end = d->size_bytes;
		reach_dev(c, makedev(d->disk->major, d->disk->minor), add_sat(off, start),
			  add_sat(end, start), container, depth + 1);
		return;
	}
	if (d->backing_file[0]) {
		reach_loop(c, d, off, end, container, depth);
		return;
	}
	/* a holder (device-mapper, md): where its bytes are on each device below is in
	 * tables not read here, so it reaches each of them whole */
	for (size_t i = 0; i < c->inv->n_all; i++) {
		const struct blkdev *s = c->inv->all[i];

		for (size_t j = 0; j < s->n_children; j++) {
			if (s->children[j] != d || !s->has_devno)
				continue;
			below = true;
			reach_dev(c, makedev(s->major, s->minor), 0, REACH_END, container,
				  depth + 1);
		}
	}
	if (!below)
		reach_add(c, false, devno, 0, off, end, container, d->kname);
}

/* An overlay's directories (upperdir=, lowerdir=a:b, workdir=) in its super options: each
 * one's file system, as a container. Only on the running system: they are its paths. */
static void reach_overlay_dirs(struct reach_ctx *c, char *opts, unsigned depth)
{
	char *save = NULL, *opt;

	for (opt = strtok_r(opts, ",", &save); opt; opt = strtok_r(NULL, ",", &save)) {
		char *v = strchr(opt, '='), *save2 = NULL, *dir;
		struct stat st;

		if (!v)
			continue;
		*v++ = '\0';
		if (strcmp(opt, "upperdir") && strcmp(opt, "lowerdir") && strcmp(opt, "workdir") &&
		    strcmp(opt, "lowerdir+"))
			continue;
		for (dir = strtok_r(v, ":", &save2); dir; dir = strtok_r(NULL, ":", &save2)) {
			probe_mount_unescape(dir);
			if (*dir && stat(dir, &st) == 0)
				reach_dev(c, st.st_dev, 0, REACH_END, true, depth + 1);
			else if (*dir)
				c->r->truncated = true; /* a layer not found: not known */
		}
	}
}

/* The mount table and an entry to parse it into, for a walk of the overlays: 0, or -1 with
 * the answer marked incomplete (*f and *e NULL or to be freed as after a walk). */
static int mountinfo_open(struct reach_ctx *c, FILE **f, struct probe_mountinfo_entry **e)
{
	*f = probe_fopen_regular(c->sr, PATH_PROC_MOUNTINFO);
	*e = malloc(sizeof(**e));
	if (*f && *e)
		return 0;
	c->r->truncated = true;
	return -1;
}

/* A file system on no block device of the inventory: an overlay reaches the file systems
 * of its directories; tmpfs, proc and the like reach no disk. */
static void reach_anon(struct reach_ctx *c, dev_t devno, unsigned depth)
{
	struct probe_mountinfo_entry *e;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (!sysroot_is_live(c->sr))
		return;
	if (mountinfo_open(c, &f, &e))
		goto out;
	while (getline(&line, &cap, f) > 0) {
		if (probe_mountinfo_parse_line(line, e) || makedev(e->major, e->minor) != devno ||
		    strcmp(e->fstype, "overlay"))
			continue;
		if (!e->super_opts[0])
			c->r->truncated = true;
		reach_overlay_dirs(c, e->super_opts, depth);
		break;
	}
out:
	free(line);
	free(e);
	if (f)
		fclose(f);
}

/* path under mnt (a mount of the file system's directory root): that directory's path for
 * it in out ("/a/b"). -ENOENT when path is not under mnt. */
static int overlay_rel(const char *path, const struct probe_mountinfo_entry *e, char *out,
		       size_t cap)
{
	size_t n = strlen(e->mountpoint);
	const char *rest;

	if (!strcmp(e->mountpoint, "/"))
		rest = path;
	else if (!strncmp(path, e->mountpoint, n) && (path[n] == '/' || !path[n]))
		rest = path + n;
	else
		return -ENOENT;
	return str_fmt(out, cap, "%s%s", strcmp(e->root, "/") ? e->root : "", rest);
}

/* The layers of one overlay (its super options) that hold rel as a regular file: each one's
 * file, reached as a file of its own. Upper first; lowers too (the file a reader sees until
 * it is copied up). Returns how many were found. */
static unsigned overlay_layers(struct reach_ctx *c, char *opts, const char *rel, uint64_t off,
			       uint64_t end, bool container, unsigned depth, unsigned *visible)
{
	char *save = NULL, *opt, at[PATH_MAX];
	unsigned found = 0;

	for (opt = strtok_r(opts, ",", &save); opt; opt = strtok_r(NULL, ",", &save)) {
		char *v = strchr(opt, '='), *save2 = NULL, *dir;
		struct stat st;

		if (!v)
			continue;
		*v++ = '\0';
		if (strcmp(opt, "upperdir") && strcmp(opt, "lowerdir") && strcmp(opt, "lowerdir+"))
			continue;
		for (dir = strtok_r(v, ":", &save2); dir; dir = strtok_r(NULL, ":", &save2)) {
			probe_mount_unescape(dir);
			if (!*dir || stat(dir, &st) || !S_ISDIR(st.st_mode))
				continue;
			(*visible)++;
			if (!rel || str_fmt(at, sizeof(at), "%s%s", dir, rel) || stat(at, &st) ||
			    !S_ISREG(st.st_mode))
				continue;
			reach_file(c, st.st_dev, st.st_ino, at, off, end, container, depth + 1);
			found++;
		}
	}
	return found;
}

/* A file on an overlay (named at path, as the mount table spells it): a loop device over
 * /merged/x writes the upper directory's x, which another name (/upper/x) reaches too. Not
 * found in a layer that is there (a deleted file): not known. An overlay whose directories
 * are not visible here (a container's root, made outside it) has no other name here. */
static void reach_overlay_file(struct reach_ctx *c, dev_t devno, const char *path,
			       uint64_t off, uint64_t end, bool container, unsigned depth)
{
	struct probe_mountinfo_entry *e = NULL;
	char canon[PATH_MAX], rel[PATH_MAX], *line = NULL;
	const char *at;
	unsigned found = 0, visible = 0;
	size_t cap = 0;
	FILE *f = NULL;

	if (!sysroot_is_live(c->sr))
		return;
	if (depth > REACH_DEPTH_MAX) {
		c->r->truncated = true;
		return;
	}
	if (mountinfo_open(c, &f, &e))
		goto out;
	if (!realpath(path, canon))
		canon[0] = '\0';
	while (!found && getline(&line, &cap, f) > 0) {
		if (probe_mountinfo_parse_line(line, e) || makedev(e->major, e->minor) != devno ||
		    strcmp(e->fstype, "overlay"))
			continue;
		/* a name outside this mount (or none): the layers are counted, no file found */
		at = canon[0] && !overlay_rel(canon, e, rel, sizeof(rel)) ? rel : NULL;
		found = overlay_layers(c, e->super_opts, at, off, end, container, depth, &visible);
	}
	if (visible && !found)
		c->r->truncated = true;
out:
	free(line);
	free(e);
	if (f)
		fclose(f);
}

int probe_reach_ref(struct sysroot *sr, const struct inventory *inv, const struct probe_ref *ref,
		    struct probe_reach *r)
{
	struct reach_ctx c = { .sr = sr, .inv = inv, .r = r };

	memset(r, 0, sizeof(*r));
	switch (ref->kind) {
	case PROBE_REF_BLOCK:
		reach_dev(&c, ref->devno, 0, REACH_END, false, 0);
		return 0;
	case PROBE_REF_FILE:
		reach_file(&c, ref->st_dev, ref->st_ino, ref->path, ref->off,
			   ref->size ? add_sat(ref->off, ref->size) : REACH_END, false, 0);
		return 0;
	case PROBE_REF_DIR:
	case PROBE_REF_NEW:
		/* a directory, or a file to be made in one: the file system it is on */
		reach_dev(&c, ref->st_dev, 0, REACH_END, true, 0);
		return 0;
	case PROBE_REF_NONE:
		break;
	}
	return -EINVAL;
}

void probe_reach_blkdev(struct sysroot *sr, const struct inventory *inv, const struct blkdev *d,
			struct probe_reach *r)
{
	struct reach_ctx c = { .sr = sr, .inv = inv, .r = r };

	memset(r, 0, sizeof(*r));
	if (d->has_devno)
		reach_dev(&c, makedev(d->major, d->minor), 0, REACH_END, false, 0);
	else
		r->truncated = true;
}

static bool extents_meet(const struct probe_extent *a, const struct probe_extent *b)
{
	if (a->file != b->file || a->dev != b->dev || (a->file && a->ino != b->ino))
		return false;
	return a->off < b->end && b->off < a->end;
}

bool probe_reach_overlap(const struct probe_reach *a, const struct probe_reach *b,
			 const struct probe_extent **ea, const struct probe_extent **eb)
{
	for (size_t i = 0; i < a->n; i++) {
		for (size_t j = 0; j < b->n; j++) {
			/* two files on one file system do not share bytes */
			if (a->e[i].container && b->e[j].container)
				continue;
			if (extents_meet(&a->e[i], &b->e[j])) {
				*ea = &a->e[i];
				*eb = &b->e[j];
				return true;
			}
		}
	}
	return false;
}
