// SPDX-License-Identifier: GPL-2.0-or-later
/* kparts.c - the target's partitions as the kernel's own devices: given to the kernel with
 * BLKPG while the copy is finished (the disk has no table yet), the table re-read once it is
 * written (BLKRRPART; BLKPG where the kernel parses none), the device nodes waited for. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/blkpg.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "common/banned.h"
#include "common/paths.h"
#include "common/util.h"

#define KPARTS_TRIES 100 /* of 100 ms: udev's probe holds a new partition a moment */

void clone_nap(void)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* The kernel's name of partition n of disk: sda2, mmcblk0p2, nvme0n1p2, loop3p2. */
static void kpart_name(const char *disk, unsigned n, char *out, size_t cap)
{
	size_t l = strlen(disk);

	str_fmt(out, cap, "%s%s%u", disk, l && isdigit((unsigned char)disk[l - 1]) ? "p" : "", n);
}

/* Start and size in bytes of the kernel's partition n of disk; -ENOENT when there is none. */
static int kpart_read(struct sysroot *sr, const char *disk, unsigned n, uint64_t *start,
		      uint64_t *size)
{
	char name[80], path[PATH_MAX];
	uint64_t s, z;

	kpart_name(disk, n, name, sizeof(name));
	if (str_fmt(path, sizeof(path), "%s/%s/%s/start", PATH_SYS_BLOCK, disk, name) ||
	    sysroot_read_u64(sr, path, &s))
		return -ENOENT;
	if (str_fmt(path, sizeof(path), "%s/%s/%s/size", PATH_SYS_BLOCK, disk, name) ||
	    sysroot_read_u64(sr, path, &z))
		return -ENOENT;
	*start = s * 512;
	*size = z * 512;
	return 0;
}

static int blkpg(int fd, int op, unsigned n, uint64_t start, uint64_t len)
{
	struct blkpg_partition part = { .start = (long long)start, .length = (long long)len,
					.pno = (int)n };
	struct blkpg_ioctl_arg arg = { .op = op, .datalen = sizeof(part), .data = &part };

	/* a partition that someone (udev's probe, blkid) has open cannot go: a moment later */
	for (int i = 0; i < KPARTS_TRIES; i++) {
		if (ioctl(fd, BLKPG, &arg) == 0)
			return 0;
		if (errno != EBUSY)
			return -errno;
		clone_nap();
	}
	return -EBUSY;
}

/* Every partition the kernel has of the target disk taken away (the old disk's). */
static int kparts_clear(struct clone_plan *p, int dfd)
{
	char dir[PATH_MAX], path[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int ret = 0;

	if (str_fmt(dir, sizeof(dir), "%s/%s", PATH_SYS_BLOCK, p->dst_disk))
		return -ENAMETOOLONG;
	ret = sysroot_opendir(p->sr, dir, &d);
	if (ret)
		return ret;
	while (!ret && (e = readdir(d))) {
		uint64_t n;

		if (!str_starts(e->d_name, p->dst_disk) ||
		    str_fmt(path, sizeof(path), "%s/%s/partition", dir, e->d_name) ||
		    sysroot_read_u64(p->sr, path, &n))
			continue;
		ret = blkpg(dfd, BLKPG_DEL_PARTITION, (unsigned)n, 0, 0);
		if (ret == -ENXIO)
			ret = 0;
	}
	closedir(d);
	return ret;
}

/* /dev/NAME once it is the node of the kernel's partition n (devtmpfs makes it at once,
 * udev a moment later). */
static int kpart_node(struct clone_plan *p, unsigned n, char *node, size_t cap)
{
	char name[80], path[PATH_MAX], dev[32];
	unsigned ma, mi;
	struct stat st;

	kpart_name(p->dst_disk, n, name, sizeof(name));
	if (str_fmt(path, sizeof(path), "%s/%s/%s/dev", PATH_SYS_BLOCK, p->dst_disk, name) ||
	    sysroot_read_str(p->sr, path, dev, sizeof(dev)) < 0 ||
	    sscanf(dev, "%u:%u", &ma, &mi) != 2)
		return -ENOENT;
	if (str_fmt(node, cap, "%s%s", PATH_DEV_PREFIX, name))
		return -ENAMETOOLONG;
	for (int i = 0; i < KPARTS_TRIES; i++) {
		if (stat(node, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == makedev(ma, mi))
			return 0;
		clone_nap();
	}
	return -ENOENT;
}

/* Every partition of the plan as the kernel has it, or added (BLKPG); its node in t_dev. */
static int kparts_match(struct clone_plan *p, int dfd, char *why, size_t whycap)
{
	for (size_t i = 0; i < p->n_parts; i++) {
		struct clone_part *cp = &p->parts[i];
		uint64_t s, z;
		int ret = 0;

		if (!cp->t_size)
			continue;
		if (kpart_read(p->sr, p->dst_disk, cp->partno, &s, &z) == 0 &&
		    (s != cp->t_start || z != cp->t_size))
			ret = blkpg(dfd, BLKPG_DEL_PARTITION, cp->partno, 0, 0);
		if (!ret && kpart_read(p->sr, p->dst_disk, cp->partno, &s, &z))
			ret = blkpg(dfd, BLKPG_ADD_PARTITION, cp->partno, cp->t_start, cp->t_size);
		if (ret) {
			str_fmt(why, whycap, "the kernel cannot be given partition %u of '%s': %s",
				cp->partno, p->dst_path, strerror(-ret));
			return ret;
		}
		ret = kpart_node(p, cp->partno, cp->t_dev, sizeof(cp->t_dev));
		if (ret) {
			cp->t_dev[0] = '\0';
			str_fmt(why, whycap, "partition %u of '%s' has no device node in %s (is "
				"devtmpfs or udev running?)", cp->partno, p->dst_path, PATH_DEV);
			return ret;
		}
	}
	return 0;
}

int clone_kparts_add(struct clone_plan *p, int dfd)
{
	char why[8];
	int ret;

	if (p->dst_is_file || !p->dst_disk[0])
		return -EOPNOTSUPP;
	ret = kparts_clear(p, dfd);
	if (!ret)
		ret = kparts_match(p, dfd, why, sizeof(why));
	if (ret) {
		/* EINVAL: a disk that has no partitions (a loop device without partscan) */
		for (size_t i = 0; i < p->n_parts; i++)
			p->parts[i].t_dev[0] = '\0';
		kparts_clear(p, dfd);
		return ret;
	}
	p->t_kparts = true;
	return 0;
}

void clone_kparts_drop(struct clone_plan *p, int dfd)
{
	if (!p->t_kparts)
		return;
	kparts_clear(p, dfd);
	for (size_t i = 0; i < p->n_parts; i++)
		p->parts[i].t_dev[0] = '\0';
	p->t_kparts = false;
}

int clone_kparts_reread(struct clone_plan *p, int dfd, char *why, size_t whycap)
{
	/* --whole: the source's table came with the copy; whatever the kernel makes of it */
	if (p->whole && !p->dst_is_file)
		ioctl(dfd, BLKRRPART);
	if (!p->t_kparts)
		return 0;
	/* the kernel reads the new table itself where it can (the partitions must be closed:
	 * else EBUSY, and the ones given with BLKPG stand); where it parses no table, it drops
	 * them, and BLKPG gives them again */
	ioctl(dfd, BLKRRPART);
	return kparts_match(p, dfd, why, whycap);
}

int clone_part_attach(const struct clone_plan *p, const struct clone_part *cp, bool target,
		      bool readonly, struct clone_loop *lo)
{
	const char *dev = target ? cp->t_dev : cp->s_dev;

	if (dev[0]) {
		lo->fd = -1;
		str_copy(lo->name, sizeof(lo->name), dev);
		return 0;
	}
	if (target)
		return clone_loop_attach(clone_dst(p), cp->t_start, cp->t_size, readonly, lo);
	return clone_loop_attach(p->src_path, cp->start, cp->size, readonly, lo);
}

int clone_loop_usable(void)
{
	int ctl, n, ret = 0;

	ctl = open(PATH_LOOP_CONTROL, O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	if (n < 0)
		ret = -errno;
	close(ctl);
	return ret;
}
