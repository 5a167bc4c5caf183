/* target.c - opening what is measured, and the safety rules around it (docs/design.md
 * "Safety"): our own test file only, or a block device nobody uses with --destructive. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench/target.h"
#include "probe/probe.h"
#include "probe/ref.h"
#include "common/util.h"

const char *bench_target_kind_name(enum bench_target_kind k)
{
	static const char *const names[] = { "dir", "file", "blockdev" };

	return names[k];
}

/* Name the device holding dev (a file's st_dev or a node's st_rdev) and its disk, and how
 * the disk is attached, from the probe inventory. */
static void target_describe(struct bench_target *t, const struct inventory *inv, dev_t dev)
{
	struct blkdev *d = inv ? probe_inventory_find_dev(inv, dev) : NULL;

	if (!d)
		return;
	t->has_device = true;
	t->maj = d->major;
	t->min = d->minor;
	str_copy(t->device, sizeof(t->device), d->kname);
	str_copy(t->disk, sizeof(t->disk), probe_blkdev_whole(d)->kname);
	/* only memory can fail it: the result then says nothing of the attachment */
	if (probe_blkdev_attachment(d, t->attachment, sizeof(t->attachment)))
		t->attachment[0] = '\0';
}

static int blockdev_open(struct bench_target *t, struct sysroot *sr,
			 const struct inventory *inv, const struct probe_ref *ref,
			 const struct stat *st, const struct bench_target_opts *o, char *why,
			 size_t whycap)
{
	int flags = O_RDONLY, ret, ssz = 512;
	uint64_t bytes = 0;

	target_describe(t, inv, st->st_rdev);
	if (!t->has_device) {
		t->maj = major(st->st_rdev);
		t->min = minor(st->st_rdev);
	}
	if (o->destructive && o->want_writes) {
		/* the one oracle: its partitions, holders, loop devices over it or over the same
		 * file and bytes, wherever they are mounted, swap or held */
		ret = probe_ref_in_use(sr, inv, ref, why, whycap);
		if (ret)
			return ret == -ENOMEM ? ret : -EBUSY;
		/* O_EXCL on a block device: the kernel refuses while anything else holds it */
		flags = O_RDWR | O_EXCL;
		t->writable = true;
	}
	t->fd_buffered = open(t->path, flags | O_CLOEXEC);
	if (t->fd_buffered < 0) {
		ret = -errno;
		if (ret == -EBUSY)
			str_fmt(why, whycap, "it is in use (exclusive open refused)");
		else
			str_fmt(why, whycap, "cannot open it: %s", strerror(-ret));
		return ret;
	}
	if (probe_ref_check_fd(ref, t->fd_buffered)) {
		str_fmt(why, whycap, "it changed while it was checked: not using it");
		return -ESTALE;
	}
	t->fd_direct = open(t->path, (flags & ~O_EXCL) | O_DIRECT | O_CLOEXEC);
	if (ioctl(t->fd_buffered, BLKGETSIZE64, &bytes)) {
		ret = -errno;
		str_fmt(why, whycap, "cannot read its size: %s", strerror(-ret));
		return ret;
	}
	if (!bytes) {
		str_fmt(why, whycap, "it is empty (size 0): no medium in it, an unattached loop "
			"device, or zram without a disksize");
		return -ENOMEDIUM;
	}
	if (ioctl(t->fd_buffered, BLKSSZGET, &ssz) || ssz < 512)
		ssz = 512;
	t->align = (uint32_t)(ssz < 4096 ? 4096 : ssz);
	t->size = bytes / t->align * t->align;
	return 0;
}

static int target_open_kind(struct bench_target *t, struct sysroot *sr,
			    const struct inventory *inv, const struct probe_ref *ref,
			    const struct stat *st, const struct bench_target_opts *o, char *why,
			    size_t whycap)
{
	if (S_ISDIR(st->st_mode)) {
		t->kind = BENCH_TARGET_DIR;
		t->writable = true;
		target_describe(t, inv, st->st_dev);
		size_t n = strlen(t->path);

		return str_fmt(t->file, sizeof(t->file), "%s%s" BENCH_TEST_FILE_PREFIX "%ld.tmp",
			       t->path, n && t->path[n - 1] == '/' ? "" : "/", (long)getpid())
			       ? -ENAMETOOLONG
			       : 0;
	}
	if (S_ISBLK(st->st_mode)) {
		t->kind = BENCH_TARGET_BLOCKDEV;
		return blockdev_open(t, sr, inv, ref, st, o, why, whycap);
	}
	if (!S_ISREG(st->st_mode)) {
		str_fmt(why, whycap, "not a directory, a regular file or a block device");
		return -EINVAL;
	}
	/* An existing file is only read. */
	t->kind = BENCH_TARGET_FILE;
	target_describe(t, inv, st->st_dev);
	t->fd_buffered = open(t->path, O_RDONLY | O_CLOEXEC);
	if (t->fd_buffered < 0) {
		int ret = -errno;

		str_fmt(why, whycap, "cannot open it: %s", strerror(-ret));
		return ret;
	}
	t->fd_direct = open(t->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	t->size = (uint64_t)st->st_size / t->align * t->align;
	return 0;
}

/* Memory that looks like storage: measuring it measures RAM (a /tmp on tmpfs, zram). */
static const char *target_in_memory(const struct bench_target *t)
{
	struct statfs fs;

	if (t->kind == BENCH_TARGET_BLOCKDEV) {
		if (!strncmp(t->disk, "zram", 4))
			return "zram, compressed RAM";
		if (!strncmp(t->disk, "ram", 3) && t->disk[3] >= '0' && t->disk[3] <= '9')
			return "a RAM disk";
		return NULL;
	}
	if (statfs(t->path, &fs))
		return NULL;
	if (fs.f_type == TMPFS_MAGIC)
		return "on tmpfs";
	if (fs.f_type == (typeof(fs.f_type))RAMFS_MAGIC)
		return "on ramfs";
	return NULL;
}

int bench_target_open(struct sysroot *sr, const char *path, const struct bench_target_opts *o,
		      struct bench_target *t, char *why, size_t whycap)
{
	struct inventory *inv = NULL;
	struct probe_ref *ref;
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd_direct = t->fd_buffered = -1;
	t->align = 4096;
	if (!path)
		path = BENCH_DEFAULT_DIR;
	if (str_copy(t->shown, sizeof(t->shown), path)) {
		/* named by its start: the whole would be pages of the terminal */
		str_fmt(t->shown, sizeof(t->shown), "%.60s...", path);
		str_sanitize(t->shown);
		str_fmt(why, whycap, "the path is too long (%zu bytes, at most %zu)", strlen(path),
			sizeof(t->shown) - 1);
		return -ENAMETOOLONG;
	}
	str_sanitize(t->shown);
	ref = malloc(sizeof(*ref));
	if (!ref)
		return -ENOMEM;
	/* Unknown devices are no error for measuring, only for writing to a device. */
	if (probe_inventory_load(sr, &inv))
		inv = NULL;
	/* resolved once: a bare kernel name, a by-id link, a relative path, a symlink */
	ret = probe_ref_resolve(sr, inv, path, 0, ref, why, whycap);
	if (ret)
		str_copy(t->path, sizeof(t->path), path);
	if (ret && ret != -EINVAL)
		str_fmt(why, whycap, "%s", strerror(-ret));
	/* a device by its node ("sda", a by-id link: /dev/sda); a file or directory as named */
	if (!ret && str_copy(t->path, sizeof(t->path),
			     ref->kind == PROBE_REF_BLOCK ? ref->path : path)) {
		str_fmt(why, whycap, "the path is too long");
		ret = -ENAMETOOLONG;
	}
	if (!ret && stat(t->path, &st)) {
		ret = -errno;
		str_fmt(why, whycap, "%s", strerror(-ret));
	}
	if (!ret)
		ret = target_open_kind(t, sr, inv, ref, &st, o, why, whycap);
	probe_inventory_free(inv);
	free(ref);
	if (!ret)
		t->in_memory = target_in_memory(t);
	return ret;
}

int bench_target_create_file(struct bench_target *t, uint64_t size, char *why, size_t whycap)
{
	struct statfs fs;
	struct stat a, b;
	uint64_t avail, need;
	int ret;

	size = size / t->align * t->align;
	if (!size) {
		str_fmt(why, whycap, "the test file size is too small");
		return -EINVAL;
	}
	if (statfs(t->path, &fs) == 0) {
		if (fs.f_type == (typeof(fs.f_type))RAMFS_MAGIC) {
			/* ramfs has no size and reports none: what it can take is free memory */
			struct sysinfo si;

			avail = sysinfo(&si) ? 0 : (uint64_t)si.freeram * si.mem_unit;
		} else if (!fs.f_blocks) {
			str_fmt(why, whycap, "its file system stores nothing (like /proc or /sys): "
				"choose a directory on the drive to measure");
			return -EROFS;
		} else {
			avail = (uint64_t)fs.f_bavail * (uint64_t)fs.f_frsize;
		}
		need = size + size / 50 + 16 * 1048576ull; /* keep a margin for metadata */
		if (avail < need) {
			char h1[32], h2[32];

			size_to_human(need, h1, sizeof(h1));
			size_to_human(avail, h2, sizeof(h2));
			str_fmt(why, whycap, "not enough free space: the test needs %s, %s is free "
				"(try a smaller --size)", h1, h2);
			return -ENOSPC;
		}
	}
	/* Never follow a link and never reuse a file: both would write what is not ours. */
	t->fd_buffered = open(t->file, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (t->fd_buffered < 0) {
		ret = -errno;
		if (ret == -EEXIST) {
			struct stat l;

			if (lstat(t->file, &l) == 0 && S_ISLNK(l.st_mode))
				str_fmt(why, whycap, "'%s' is a symbolic link: refusing to use it",
					t->file);
			else
				str_fmt(why, whycap, "'%s' already exists: not overwriting it "
					"(remove it if an earlier run left it)", t->file);
		} else {
			str_fmt(why, whycap, "cannot create '%s': %s", t->file, strerror(-ret));
		}
		return ret;
	}
	t->created = true;
	t->fd_direct = open(t->file, O_RDWR | O_DIRECT | O_NOFOLLOW | O_CLOEXEC);
	if (t->fd_direct >= 0 && (fstat(t->fd_direct, &a) || fstat(t->fd_buffered, &b) ||
				  a.st_ino != b.st_ino || a.st_dev != b.st_dev)) {
		close(t->fd_direct); /* replaced between the two opens: do not touch it */
		t->fd_direct = -1;
		str_fmt(why, whycap, "'%s' changed while it was being opened", t->file);
		return -EBUSY;
	}
	/* Unlinked while open: nothing is left behind, whatever ends the process. */
	if (unlink(t->file) == 0)
		t->created = false;
	ret = posix_fallocate(t->fd_buffered, 0, (off_t)size);
	if (ret == ENOSPC) {
		str_fmt(why, whycap, "no space left on the device for the test file");
		return -ENOSPC;
	}
	if (ret && ftruncate(t->fd_buffered, (off_t)size)) {
		ret = -errno;
		str_fmt(why, whycap, "cannot size the test file: %s", strerror(-ret));
		return ret;
	}
	t->size = size;
	return 0;
}

int bench_target_drop_cache(struct bench_target *t)
{
	int fd = t->fd_buffered;

	if (fd < 0)
		return -EBADF;
	if (t->kind == BENCH_TARGET_BLOCKDEV) {
		fsync(fd);
		if (ioctl(fd, BLKFLSBUF, 0))
			return -errno;
		return 0;
	}
	if (t->writable && fdatasync(fd))
		return -errno;
	return -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

void bench_target_release(struct bench_target *t)
{
	if (t->fd_direct >= 0)
		close(t->fd_direct);
	if (t->fd_buffered >= 0)
		close(t->fd_buffered);
	t->fd_direct = t->fd_buffered = -1;
	if (t->created && unlink(t->file) == 0)
		t->created = false;
}
