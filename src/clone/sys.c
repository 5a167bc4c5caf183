// SPDX-License-Identifier: GPL-2.0-or-later
/* sys.c - the system side of clone: sizes, running e2fsprogs/dosfstools/mtools, loop devices
 * over a partition's bytes (LOOP_CONFIGURE with lo_offset/lo_sizelimit, for kernels or images
 * without partition devices), private mounts, random ids. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "common/banned.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/util.h"

int clone_fd_size(int fd, struct stat *st, uint64_t *size)
{
	if (fstat(fd, st))
		return -1;
	if (S_ISBLK(st->st_mode))
		return ioctl(fd, BLKGETSIZE64, size) ? -1 : 0;
	if (S_ISREG(st->st_mode)) {
		*size = (uint64_t)st->st_size;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

int clone_run_ex(const char *const argv[], const struct spawn_extra *x, struct sbuf *out,
		 bool with_stderr, int *status)
{
	int ret = spawn_run_ex(argv, x, with_stderr ? SPAWN_STDERR : 0, out, status);

	/* what a tool prints past the cap is not needed: its status and first lines are */
	return ret == -E2BIG ? 0 : ret;
}

int clone_run(const char *const argv[], struct sbuf *out, bool with_stderr, int *status)
{
	return clone_run_ex(argv, NULL, out, with_stderr, status);
}

int clone_tools_check(const struct clone_plan *p, char *why, size_t whycap)
{
	static const struct {
		const char *fs, *prog, *pkg;
	} tools[] = {
		/* cmdline.txt and extlinux.conf read and rewritten, the copy listed and checked */
		{ "vfat", "mtype", "mtools" },	     { "vfat", "mcopy", "mtools" },
		{ "vfat", "mdir", "mtools" },	     { "vfat", "fsck.vfat", "dosfstools" },
		{ "ext", "mke2fs", "e2fsprogs" },    { "ext", "e2fsck", "e2fsprogs" },
		{ "ext", "resize2fs", "e2fsprogs" }, { "ext", "tune2fs", "e2fsprogs" },
#ifndef HAVE_EXT2FS
		{ "ext", "debugfs", "e2fsprogs" },
#endif
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < p->n_parts; i++) {
		const struct clone_part *cp = &p->parts[i];

		if (cp->method == CLONE_BY_NONE)
			continue;
		for (size_t j = 0; j < sizeof(tools) / sizeof(tools[0]); j++) {
			if (strncmp(cp->fstype, tools[j].fs, strlen(tools[j].fs)) ||
			    !spawn_find(tools[j].prog, path, sizeof(path)))
				continue;
			str_fmt(why, whycap, "'%s' not found: install the package %s (the %s "
				"partition p%u needs it); nothing was written", tools[j].prog,
				tools[j].pkg, cp->fstype, cp->partno);
			return -ENOENT;
		}
	}
	return 0;
}

void clone_run_last_line(const struct sbuf *out, char *buf, size_t cap)
{
	const char *s = sbuf_str(out);
	size_t end = out->len, start;

	buf[0] = '\0';
	while (end && (s[end - 1] == '\n' || s[end - 1] == ' ' || s[end - 1] == '\r'))
		end--;
	start = end;
	while (start && s[start - 1] != '\n')
		start--;
	if (end - start + 1 < cap)
		cap = end - start + 1;
	if (cap) {
		memcpy(buf, s + start, cap - 1);
		buf[cap - 1] = '\0';
		str_sanitize(buf);
	}
}

int clone_loop_attach(const char *path, uint64_t off, uint64_t size, bool readonly,
		      struct clone_loop *lo)
{
	struct loop_config cfg;
	int ctl, bfd, fd = -1, n, tries, ret = 0;

	lo->fd = -1;
	lo->name[0] = '\0';
	bfd = open(path, (readonly ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (bfd < 0)
		return -errno;
	ctl = open(PATH_LOOP_CONTROL, O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		ret = -errno;
		goto out;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (unsigned)bfd;
	cfg.info.lo_offset = off;
	cfg.info.lo_sizelimit = size;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | (readonly ? LO_FLAGS_READ_ONLY : 0);
	/* direct I/O: the loop device's writes go to its backing device or file without a
	 * second copy in the page cache (a loop over /dev/loopN or an image file has its own),
	 * which made the file copy 1.6x as fast here; refused (EINVAL) where the backing
	 * cannot do it (unaligned offset, older kernels on some file systems): then without */
	cfg.info.lo_flags |= LO_FLAGS_DIRECT_IO;
	/* another program may take the free device between our two calls: try again */
	for (tries = 0; tries < 16; tries++) {
		n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		str_fmt(lo->name, sizeof(lo->name), "%s%d", PATH_DEV_LOOP_PREFIX, n);
		fd = open(lo->name, (readonly ? O_RDONLY : O_RDWR) | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			goto out;
		}
		if (ioctl(fd, LOOP_CONFIGURE, &cfg) == 0) {
			ret = 0;
			break;
		}
		ret = -errno;
		close(fd);
		fd = -1;
		if (ret == -EINVAL && (cfg.info.lo_flags & LO_FLAGS_DIRECT_IO)) {
			cfg.info.lo_flags &= ~(uint32_t)LO_FLAGS_DIRECT_IO;
			continue;
		}
		if (ret != -EBUSY)
			goto out;
	}
	if (fd >= 0)
		lo->fd = fd;
out:
	if (ctl >= 0)
		close(ctl);
	close(bfd);
	if (ret)
		lo->name[0] = '\0';
	return ret;
}

void clone_loop_detach(struct clone_loop *lo)
{
	if (lo->fd >= 0) {
		/* autoclear detaches at the last close; say so at once for tools racing us */
		ioctl(lo->fd, LOOP_CLR_FD, 0);
		close(lo->fd);
	}
	lo->fd = -1;
	lo->name[0] = '\0';
}

int clone_mount_dir(const char *dev, const char *fstype, bool readonly, char *dir, size_t cap)
{
	const char *data = readonly && str_starts(fstype, "ext") ? "noload" : NULL;
	const char *tmp = getenv("TMPDIR");

	if (str_fmt(dir, cap, "%s/sbcdisk-clone-XXXXXX", tmp && tmp[0] ? tmp : "/tmp"))
		return -ENAMETOOLONG;
	if (!mkdtemp(dir))
		return -errno;
	if (mount(dev, dir, fstype, (readonly ? MS_RDONLY : 0) | MS_NOSUID | MS_NODEV, data)) {
		int ret = -errno;

		rmdir(dir);
		dir[0] = '\0';
		return ret;
	}
	return 0;
}

void clone_umount_dir(char *dir)
{
	if (!dir[0])
		return;
	if (umount2(dir, 0))
		umount2(dir, MNT_DETACH);
	rmdir(dir);
	dir[0] = '\0';
}

void clone_progress_emit(struct clone_plan *p, const char *phase, uint64_t done, uint64_t total,
			 uint64_t t0_ns)
{
	struct clone_progress pr = { .phase = phase, .left_s = -1, .done = done, .total = total };
	double s = (double)(time_now_ns() - t0_ns) / 1e9;

	if (!p->progress)
		return;
	if (s > 0.2) {
		pr.bw = (double)done / s;
		if (pr.bw > 0 && total >= done)
			pr.left_s = (double)(total - done) / pr.bw;
	}
	p->progress(p->progress_arg, &pr);
}

void clone_random(void *buf, size_t len)
{
	unsigned char *b = buf;

	while (len) {
		ssize_t r = getrandom(b, len, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			abort(); /* no entropy source at all: no id is safe */
		}
		b += r;
		len -= (size_t)r;
	}
}

void clone_uuid_new(char *out, size_t cap)
{
	unsigned char u[16];

	clone_random(u, sizeof(u));
	u[6] = (unsigned char)((u[6] & 0x0f) | 0x40);
	u[8] = (unsigned char)((u[8] & 0x3f) | 0x80);
	str_fmt(out, cap,
		"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
		u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
		u[14], u[15]);
}
