/* atomic.c - the only code that writes boot files. Every failure path removes what it
 * created and leaves the original in place (the boot partition is usually FAT). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix/atomic.h"
#include "common/util.h"

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write, fsync and close fd; 0 or -errno (fd is closed either way). */
static int fill_and_close(int fd, const void *data, size_t len)
{
	int ret = write_all(fd, data, len);

	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int dir_sync(int dirfd)
{
	/* some file systems refuse fsync on a directory: the rename is still done */
	if (fsync(dirfd) && errno != EINVAL && errno != EROFS)
		return -errno;
	return 0;
}

int atomic_create_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode)
{
	int fd, ret;

	if (strchr(name, '/'))
		return -EINVAL;
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	ret = fill_and_close(fd, data, len);
	if (!ret)
		ret = dir_sync(dirfd);
	if (ret)
		unlinkat(dirfd, name, 0);
	return ret;
}

int atomic_replace_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode,
		      uid_t uid, gid_t gid)
{
	char tmp[300];
	int fd = -1, ret, i;

	if (strchr(name, '/'))
		return -EINVAL;
	for (i = 0; i < 100; i++) {
		if (str_fmt(tmp, sizeof(tmp), ".%s.sbcdisk-tmp-%ld-%d", name, (long)getpid(), i))
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    mode & 07777);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		return -errno;
	/* the umask must not narrow the original's mode; FAT ignores both calls */
	if (fchmod(fd, mode & 07777) && errno != EPERM && errno != ENOTSUP) {
		ret = -errno;
		close(fd);
		goto fail;
	}
	if (uid != (uid_t)-1 && fchown(fd, uid, gid) && errno != EPERM && errno != ENOTSUP) {
		ret = -errno;
		close(fd);
		goto fail;
	}
	ret = fill_and_close(fd, data, len);
	if (ret)
		goto fail;
	if (renameat(dirfd, tmp, dirfd, name)) {
		ret = -errno;
		goto fail;
	}
	/* the new contents are in place now: a failing directory fsync must not be reported
	 * as "unchanged" (the caller would drop the backup), so fall back to syncing the
	 * whole file system */
	if (dir_sync(dirfd))
		syncfs(dirfd);
	return 0;
fail:
	unlinkat(dirfd, tmp, 0);
	return ret;
}
