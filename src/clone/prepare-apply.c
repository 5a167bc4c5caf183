// SPDX-License-Identifier: GPL-2.0-or-later
/* prepare-apply.c - a prepare plan done on the disk: the old table wiped, the GPT written
 * through clone's libfdisk writer, the partition reached as clone reaches one (the kernel's
 * device, else a loop device over its bytes), the file system made, the mount point mounted. */
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "clone/prepare.h"
#include "common/banned.h"
#include "common/util.h"

#define GPT_TYPE_LINUX "0FC63DAF-8483-4772-8E79-3D69D8477DE4"
#define GPT_TYPE_BDATA "EBD0A0A2-B9E5-4433-87C0-68B6B72699C7" /* exFAT, as Windows marks it */

/* The prepare plan as clone's table writer and partition reacher take a target. */
static void as_clone_plan(const struct prepare_plan *pp, struct clone_plan *c)
{
	struct clone_part *cp = &c->parts[0];

	memset(c, 0, sizeof(*c));
	c->sr = pp->sr;
	c->dst_fd = -1;
	c->root = c->boot = c->extlinux_part = -1;
	str_copy(c->dst_path, sizeof(c->dst_path), pp->path);
	str_copy(c->dst_disk, sizeof(c->dst_disk), pp->kname);
	c->dst_exists = true;
	c->dst_size = pp->size;
	c->sector = pp->lsec;
	str_copy(c->dst_label, sizeof(c->dst_label), "gpt");
	str_copy(c->dst_id, sizeof(c->dst_id), pp->disk_guid);
	c->n_parts = 1;
	cp->partno = 1;
	cp->t_start = pp->start;
	cp->t_size = pp->part_size;
	str_copy(cp->gpt_type, sizeof(cp->gpt_type),
		 strcmp(pp->fs->name, "exfat") ? GPT_TYPE_LINUX : GPT_TYPE_BDATA);
	str_copy(cp->t_partuuid, sizeof(cp->t_partuuid), pp->part_uuid);
	str_copy(cp->partlabel, sizeof(cp->partlabel), pp->label);
}

/* mkfs with the plan's label and UUID (ext4: its inode tables and journal written now). */
static int make_fs(struct prepare_plan *p, char *why, size_t whycap)
{
	const char *dev = p->part_dev, *fs = p->fs->name, *l = p->label, *u = p->fs_uuid;
	char uuidopt[64];

	if (!strcmp(fs, "ext4")) {
		const char *a[] = { "mkfs.ext4", "-F", "-q", "-L", l, "-U", u, "-E",
				    "lazy_itable_init=0,lazy_journal_init=0", dev, NULL };
		return clone_run_tool("mkfs.ext4", a, 0, why, whycap);
	}
	if (!strcmp(fs, "f2fs")) {
		const char *a[] = { "mkfs.f2fs", "-f", "-q", "-l", l, "-U", u, dev, NULL };
		return clone_run_tool("mkfs.f2fs", a, 0, why, whycap);
	}
	if (!strcmp(fs, "btrfs")) {
		const char *a[] = { "mkfs.btrfs", "-f", "-q", "-L", l, "-U", u, dev, NULL };
		return clone_run_tool("mkfs.btrfs", a, 0, why, whycap);
	}
	if (!strcmp(fs, "xfs")) {
		const char *a[] = { "mkfs.xfs", "-f", "-q", "-L", l, "-m", uuidopt, dev, NULL };

		str_fmt(uuidopt, sizeof(uuidopt), "uuid=%s", u);
		return clone_run_tool("mkfs.xfs", a, 0, why, whycap);
	}
	{
		const char *a[] = { "mkfs.exfat", "-L", l, dev, NULL };

		return clone_run_tool("mkfs.exfat", a, 0, why, whycap);
	}
}

/* The UUID the new file system has, read back: the fstab line names what is there (exfat's
 * own serial; a mkfs that ignored -U is caught). */
static int fs_uuid_check(struct prepare_plan *p, char *why, size_t whycap)
{
	blkid_probe pr = blkid_new_probe_from_filename(p->part_dev);
	const char *v = NULL;
	int ret = -EIO;

	if (!pr) {
		str_fmt(why, whycap, "cannot read the new file system on %s", p->part_dev);
		return -EIO;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID);
	if (blkid_do_safeprobe(pr) || blkid_probe_lookup_value(pr, "UUID", &v, NULL) || !v) {
		str_fmt(why, whycap, "%s made no file system with a UUID on %s", p->fs->mkfs,
			p->part_dev);
	} else if (p->fs_uuid[0] && strcasecmp(v, p->fs_uuid)) {
		str_fmt(why, whycap, "%s made UUID %s, not the planned %s", p->fs->mkfs, v,
			p->fs_uuid);
	} else {
		str_copy(p->fs_uuid, sizeof(p->fs_uuid), v);
		prepare_fstab_line(p);
		ret = 0;
	}
	blkid_free_probe(pr);
	return ret;
}

/* After the table: the kernel's partition device (given with BLKPG where the kernel parses
 * no table, as clone does), else a loop device over the partition's bytes. */
static int reach_part(struct prepare_plan *p, struct clone_plan *c, int *dfd, char *why,
		      size_t whycap)
{
	struct clone_loop lo;
	int fd, ret;

	if (clone_kparts_add(c, *dfd) == 0) {
		/* mkfs and mount claim the partition: the disk may not be held with O_EXCL */
		fd = open(p->path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			str_fmt(why, whycap, "cannot open '%s': %s", p->path, strerror(-ret));
			return ret;
		}
		close(*dfd);
		*dfd = fd;
		ret = clone_kparts_reread(c, *dfd, why, whycap);
		if (ret)
			return ret;
		str_copy(p->part_dev, sizeof(p->part_dev), c->parts[0].t_dev);
		return 0;
	}
	close(*dfd);
	*dfd = -1;
	ret = clone_loop_attach(p->path, p->start, p->part_size, false, &lo);
	if (ret) {
		str_fmt(why, whycap, "the partition has no device: the kernel gives none for "
			"'%s' and no loop device can be had (%s); load the loop module", p->path,
			strerror(-ret));
		return ret;
	}
	p->loop_fd = lo.fd;
	p->part_is_loop = true;
	str_copy(p->part_dev, sizeof(p->part_dev), lo.name);
	return 0;
}

int prepare_apply_disk(struct prepare_plan *p, char *why, size_t whycap)
{
	static struct clone_plan c;
	int dfd, ret;

	as_clone_plan(p, &c);
	/* O_EXCL: the kernel refuses while anything else (a mount, a holder) has the disk */
	dfd = open(p->path, O_RDWR | O_EXCL | O_CLOEXEC);
	if (dfd < 0) {
		ret = -errno;
		str_fmt(why, whycap, "cannot open '%s': %s", p->path,
			ret == -EBUSY ? "it is in use" : strerror(-ret));
		return ret;
	}
	/* the node still is the disk the plan resolved (not a name made to point elsewhere) */
	ret = probe_ref_check_fd(&p->ref, dfd);
	if (ret) {
		str_fmt(why, whycap, "'%s' is no longer the disk the plan read", p->ref.shown);
		goto out;
	}
	p->touched = true;
	ret = clone_target_wipe(p->path);
	if (ret) {
		str_fmt(why, whycap, "cannot write '%s': %s", p->path, strerror(-ret));
		goto out;
	}
	ret = clone_table_write(&c, why, whycap);
	if (!ret && (fsync(dfd) || ioctl(dfd, BLKFLSBUF, 0)))
		ret = -errno;
	if (ret)
		goto out;
	p->table_written = true;
	ret = reach_part(p, &c, &dfd, why, whycap);
	if (!ret)
		ret = make_fs(p, why, whycap);
	p->fs_made = !ret;
	if (!ret)
		ret = fs_uuid_check(p, why, whycap);
out:
	if (dfd >= 0)
		close(dfd);
	return ret;
}

/* mkdir -p of a path here (inside --sysroot): each missing directory 0755. */
static int mkdir_parents(const char *path)
{
	char buf[PATH_MAX];

	if (str_copy(buf, sizeof(buf), path))
		return -ENAMETOOLONG;
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int prepare_mount(struct prepare_plan *p, char *why, size_t whycap)
{
	int ret = mkdir_parents(p->mountpoint_at);

	if (ret) {
		str_fmt(why, whycap, "cannot make the mount point %s: %s", p->mountpoint,
			strerror(-ret));
		return ret;
	}
	if (mount(p->part_dev, p->mountpoint_at, p->fs->name, 0, NULL)) {
		ret = -errno;
		str_fmt(why, whycap, "cannot mount %s on %s: %s", p->part_dev, p->mountpoint,
			strerror(-ret));
		return ret;
	}
	p->mounted = true;
	return 0;
}
