// SPDX-License-Identifier: GPL-2.0-or-later
/* image.c - an image file as clone's target: the free space it needs, its lock (one clone
 * per image at a time, held from the plan to the end), and removing an image clone made
 * when the clone fails or is stopped. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "common/banned.h"
#include "common/paths.h"
#include "common/util.h"
#include "probe/ref.h"

#define IMAGE_SLACK (8ULL << 20)

int clone_path_dir(const char *path, char *dir, size_t cap)
{
	char *slash;

	if (str_copy(dir, cap, path))
		return -ENAMETOOLONG;
	slash = strrchr(dir, '/');
	if (!slash)
		str_copy(dir, cap, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	return 0;
}

/*
 * An image is written sparse (made with ftruncate, only what is copied is written): it
 * takes the bytes copied, plus what mke2fs and resize2fs write (bitmaps, group descriptors;
 * about 2 MiB for a 2 GiB root here), counted as 1/512 of its size and 8 MiB. An image that
 * is there already takes the blocks it has.
 */
int clone_image_check_space(struct clone_plan *p, const char *shown, char *why, size_t whycap)
{
	char dir[PATH_MAX], a[32], b[32], c[32];
	uint64_t need, have, held = 0;
	struct statvfs sv;
	struct stat st;

	if (!p->dst_is_file)
		return 0;
	if (clone_path_dir(p->dst_path, dir, sizeof(dir)))
		return 0;
	if (statvfs(p->dst_exists ? p->dst_path : dir, &sv))
		return 0; /* not known: the copy says ENOSPC if it comes to that */
	need = p->copy_bytes + p->dst_size / 512 + IMAGE_SLACK;
	if (p->dst_exists && stat(p->dst_path, &st) == 0)
		held = (uint64_t)st.st_blocks * 512;
	need = need > held ? need - held : 0;
	/* clone runs as root, which may use the blocks kept for root */
	have = (uint64_t)(geteuid() ? sv.f_bavail : sv.f_bfree) * sv.f_frsize;
	if (have >= need)
		return 0;
	size_to_human(have, a, sizeof(a));
	size_to_human(need, b, sizeof(b));
	size_to_human(p->copy_bytes, c, sizeof(c));
	str_fmt(why, whycap, "target '%s': its file system has %s free, the image needs about %s "
		"(%s copied into a sparse file, and the file systems' metadata)", shown, a, b, c);
	return -ENOSPC;
}

void clone_image_release(struct clone_plan *p)
{
	if (p->dst_locked)
		close(p->dst_lock_fd);
	p->dst_locked = false;
	if (p->dst_held)
		close(p->dst_fd);
	p->dst_held = false;
	p->dst_fd = -1;
	p->dst_io[0] = '\0';
}

/* A block device target over image files (a loop device, through other loop devices too):
 * each file it reaches locked as clone_image_hold locks an image target, so that a clone to
 * the image by its name and one to the loop device over it cannot both write it. */
static int image_lock_backing(struct clone_plan *p, const char *shown, char *why,
			      size_t whycap)
{
	struct probe_reach *r = malloc(sizeof(*r));
	const struct probe_extent *e = NULL;
	struct stat st;
	int fd, ret = 0;

	if (!r)
		return -ENOMEM;
	if (probe_reach_ref(p->sr, p->inv, &p->dst_ref, r))
		goto out;
	for (size_t i = 0; i < r->n && !e; i++)
		if (r->e[i].file && !r->e[i].container)
			e = &r->e[i];
	if (!e)
		goto out;
	fd = open(e->what, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || st.st_dev != e->dev || st.st_ino != e->ino) {
		/* its file renamed or deleted: no other clone can name it either */
		if (fd >= 0)
			close(fd);
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		str_fmt(why, whycap, "target '%s' is being written by another clone (it holds the "
			"lock of %s, the image under it): not writing to it", shown, e->what);
		ret = -EBUSY;
		goto out;
	}
	p->dst_lock_fd = fd;
	p->dst_locked = true;
out:
	free(r);
	return ret;
}

int clone_image_hold(struct clone_plan *p, const char *shown, char *why, size_t whycap)
{
	int fd;

	if (!p->dst_is_file && !p->dst_locked && p->dst_ref.kind == PROBE_REF_BLOCK)
		return image_lock_backing(p, shown, why, whycap);
	if (!p->dst_is_file || p->dst_held)
		return 0;
	fd = -1;
	errno = EEXIST;
	if (!p->dst_exists) {
		fd = open(p->dst_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			p->dst_created = true;
	}
	/* there, or made since the plan looked (by another clone, whose lock says so) */
	if (fd < 0 && errno == EEXIST)
		fd = open(p->dst_path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		str_fmt(why, whycap, "cannot open target '%s': %s", shown, strerror(e));
		return -e;
	}
	/* flock: the lock goes with this open file, so the tools that open the image by its
	 * name (mtools, loop devices) are not locked out; a second clone is */
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		close(fd);
		p->dst_created = false; /* the other clone has it now: not ours to remove */
		if (e == EWOULDBLOCK) {
			str_fmt(why, whycap, "target '%s' is being written by another clone (it "
				"holds the image's lock): not writing to it", shown);
			return -EBUSY;
		}
		str_fmt(why, whycap, "cannot lock target '%s': %s", shown, strerror(e));
		return -e;
	}
	p->dst_fd = fd;
	p->dst_held = true;
	str_fmt(p->dst_io, sizeof(p->dst_io), "%s/%d", PATH_PROC_SELF_FD, fd);
	if (!p->dst_exists && !p->dst_created) {
		str_fmt(why, whycap, "target '%s' was made while the plan was read: not writing "
			"to it", shown);
		clone_image_release(p);
		return -EEXIST;
	}
	return 0;
}

bool clone_image_remove(struct clone_plan *p)
{
	struct stat held, now;

	if (!p->dst_held || !p->dst_created)
		return false;
	/* the name may have been moved or replaced meanwhile: only our file goes */
	if (fstat(p->dst_fd, &held) || lstat(p->dst_path, &now) || held.st_dev != now.st_dev ||
	    held.st_ino != now.st_ino)
		return false;
	if (unlink(p->dst_path))
		return false;
	p->dst_created = false;
	p->dst_removed = true;
	return true;
}

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
