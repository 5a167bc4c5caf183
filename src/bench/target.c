/* target.c - opening what is measured, and the safety rules around it (shared/DESIGN.md
 * "Safety"): our own test file only, or a block device nobody uses with --destructive. */
#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench/target.h"
#include "common/paths.h"
#include "common/util.h"

#define MAX_PARTS 128

const char *bench_target_kind_name(enum bench_target_kind k)
{
	static const char *const names[] = { "dir", "file", "blockdev" };

	return names[k];
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

int bench_dev_lookup(struct sysroot *sr, unsigned maj, unsigned min, char *dev, size_t devcap,
		     char *disk, size_t diskcap)
{
	char path[128], real[PATH_MAX], *slash;
	int ret;

	str_fmt(path, sizeof(path), PATH_SYS_DEV_BLOCK "/%u:%u", maj, min);
	ret = sysroot_realpath(sr, path, real, sizeof(real));
	if (ret)
		return ret;
	if (str_copy(dev, devcap, base_name(real)))
		return -E2BIG;
	str_fmt(path, sizeof(path), PATH_SYS_DEV_BLOCK "/%u:%u/partition", maj, min);
	if (!sysroot_exists(sr, path))
		return str_copy(disk, diskcap, dev) ? -E2BIG : 0;
	slash = strrchr(real, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	return str_copy(disk, diskcap, base_name(real)) ? -E2BIG : 0;
}

/* The device and its partitions: MAJ:MIN numbers and names. */
struct devset {
	unsigned n;
	dev_t dev[MAX_PARTS];
	char name[MAX_PARTS][64];
};

static void devset_collect(struct sysroot *sr, const struct bench_target *t, struct devset *s)
{
	char path[PATH_MAX], val[64];
	struct dirent *de;
	DIR *d = NULL;

	s->n = 1;
	s->dev[0] = makedev(t->maj, t->min);
	str_copy(s->name[0], sizeof(s->name[0]), t->device);
	str_fmt(path, sizeof(path), PATH_SYS_DEV_BLOCK "/%u:%u", t->maj, t->min);
	if (sysroot_opendir(sr, path, &d))
		return;
	while ((de = readdir(d)) && s->n < MAX_PARTS) {
		unsigned ma, mi;

		if (de->d_name[0] == '.')
			continue;
		if (sysroot_read_strf(sr, val, sizeof(val), PATH_SYS_DEV_BLOCK "/%u:%u/%s/partition",
				      t->maj, t->min, de->d_name) < 0)
			continue;
		if (sysroot_read_strf(sr, val, sizeof(val), PATH_SYS_DEV_BLOCK "/%u:%u/%s/dev",
				      t->maj, t->min, de->d_name) < 0 ||
		    sscanf(val, "%u:%u", &ma, &mi) != 2)
			continue;
		s->dev[s->n] = makedev(ma, mi);
		str_copy(s->name[s->n], sizeof(s->name[0]), de->d_name);
		s->n++;
	}
	closedir(d);
}

static bool devset_has(const struct devset *s, dev_t d)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (s->dev[i] == d)
			return true;
	return false;
}

/* -EBUSY with the reason when the device or a partition is mounted, swap or held. */
static int blockdev_check_unused(struct sysroot *sr, const struct bench_target *t, char *why,
				 size_t whycap)
{
	struct devset *s = calloc(1, sizeof(*s));
	char line[4096], path[PATH_MAX];
	FILE *f;
	unsigned i;
	int ret = 0;

	if (!s)
		return -ENOMEM;
	devset_collect(sr, t, s);
	f = sysroot_fopen(sr, PATH_PROC_MOUNTINFO);
	while (f && fgets(line, sizeof(line), f)) {
		unsigned ma, mi;
		char mnt[PATH_MAX];

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &ma, &mi, mnt) != 3)
			continue;
		if (!devset_has(s, makedev(ma, mi)))
			continue;
		if (!strcmp(mnt, "/"))
			str_fmt(why, whycap, "it holds the running system (mounted on /)");
		else
			str_fmt(why, whycap, "it is mounted on %s", mnt);
		ret = -EBUSY;
		break;
	}
	if (f)
		fclose(f);
	f = ret ? NULL : sysroot_fopen(sr, PATH_PROC_SWAPS);
	while (f && fgets(line, sizeof(line), f)) {
		char dev[PATH_MAX];

		if (sscanf(line, "%4095s", dev) != 1 || dev[0] != '/')
			continue;
		for (i = 0; i < s->n; i++) {
			if (!strcmp(base_name(dev), s->name[i])) {
				str_fmt(why, whycap, "%s is in use as swap", s->name[i]);
				ret = -EBUSY;
			}
		}
	}
	if (f)
		fclose(f);
	for (i = 0; !ret && i < s->n; i++) {
		DIR *d = NULL;
		struct dirent *de;

		str_fmt(path, sizeof(path), PATH_SYS_DEV_BLOCK "/%u:%u/holders", major(s->dev[i]),
			minor(s->dev[i]));
		if (sysroot_opendir(sr, path, &d))
			continue;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			str_fmt(why, whycap, "%s is held by %s", s->name[i], de->d_name);
			ret = -EBUSY;
			break;
		}
		closedir(d);
	}
	free(s);
	return ret;
}

static int blockdev_open(struct sysroot *sr, struct bench_target *t, const struct stat *st,
			 const struct bench_target_opts *o, char *why, size_t whycap)
{
	int flags = O_RDONLY, ret, ssz = 512;
	uint64_t bytes = 0;

	t->has_device = true;
	t->maj = major(st->st_rdev);
	t->min = minor(st->st_rdev);
	if (bench_dev_lookup(sr, t->maj, t->min, t->device, sizeof(t->device), t->disk,
			     sizeof(t->disk)))
		str_copy(t->device, sizeof(t->device), base_name(t->path));
	if (o->destructive && o->want_writes) {
		ret = blockdev_check_unused(sr, t, why, whycap);
		if (ret)
			return ret;
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
	t->fd_direct = open(t->path, (flags & ~O_EXCL) | O_DIRECT | O_CLOEXEC);
	if (ioctl(t->fd_buffered, BLKGETSIZE64, &bytes) || !bytes) {
		str_fmt(why, whycap, "cannot read its size");
		return -EIO;
	}
	if (ioctl(t->fd_buffered, BLKSSZGET, &ssz) || ssz < 512)
		ssz = 512;
	t->align = (uint32_t)(ssz < 4096 ? 4096 : ssz);
	t->size = bytes / t->align * t->align;
	return 0;
}

int bench_target_open(struct sysroot *sr, const char *path, const struct bench_target_opts *o,
		      struct bench_target *t, char *why, size_t whycap)
{
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd_direct = t->fd_buffered = -1;
	t->align = 4096;
	if (str_copy(t->path, sizeof(t->path), path ? path : BENCH_DEFAULT_DIR)) {
		str_fmt(why, whycap, "the path is too long");
		return -ENAMETOOLONG;
	}
	if (stat(t->path, &st)) {
		ret = -errno;
		str_fmt(why, whycap, "%s", strerror(errno));
		return ret;
	}
	if (S_ISDIR(st.st_mode)) {
		t->kind = BENCH_TARGET_DIR;
		t->writable = true;
		if (major(st.st_dev)) {
			t->has_device = true;
			t->maj = major(st.st_dev);
			t->min = minor(st.st_dev);
			if (bench_dev_lookup(sr, t->maj, t->min, t->device, sizeof(t->device),
					     t->disk, sizeof(t->disk)))
				t->has_device = false;
		}
		return str_fmt(t->file, sizeof(t->file), "%s/%s", t->path, BENCH_TEST_FILE_NAME)
			       ? -ENAMETOOLONG
			       : 0;
	}
	if (S_ISBLK(st.st_mode)) {
		t->kind = BENCH_TARGET_BLOCKDEV;
		return blockdev_open(sr, t, &st, o, why, whycap);
	}
	if (!S_ISREG(st.st_mode)) {
		str_fmt(why, whycap, "not a directory, a regular file or a block device");
		return -EINVAL;
	}
	/* An existing file is only read. */
	t->kind = BENCH_TARGET_FILE;
	if (major(st.st_dev)) {
		t->has_device = true;
		t->maj = major(st.st_dev);
		t->min = minor(st.st_dev);
		if (bench_dev_lookup(sr, t->maj, t->min, t->device, sizeof(t->device), t->disk,
				     sizeof(t->disk)))
			t->has_device = false;
	}
	t->fd_buffered = open(t->path, O_RDONLY | O_CLOEXEC);
	if (t->fd_buffered < 0) {
		ret = -errno;
		str_fmt(why, whycap, "cannot open it: %s", strerror(errno));
		return ret;
	}
	t->fd_direct = open(t->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	t->size = (uint64_t)st.st_size / t->align * t->align;
	return 0;
}

int bench_target_create_file(struct bench_target *t, uint64_t size, char *why, size_t whycap)
{
	struct statvfs vfs;
	struct stat a, b;
	uint64_t avail, need;
	int ret;

	size = size / t->align * t->align;
	if (!size) {
		str_fmt(why, whycap, "the test file size is too small");
		return -EINVAL;
	}
	if (statvfs(t->path, &vfs) == 0) {
		avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
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
