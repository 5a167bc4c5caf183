// SPDX-License-Identifier: GPL-2.0-or-later
/* mount.c - clone's private mounts: detached mounts (fsopen, fsmount) reached through their
 * descriptor, in no mount table, gone when it closes: at exit, on an error, on SIGKILL; and
 * mount(2) on a fresh directory where the kernel has no fsopen (before 5.2). */
#include <errno.h>
#include <linux/mount.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clone/fs.h"
#include "common/banned.h"
#include "common/paths.h"
#include "common/util.h"

static int fsconfig_flag(int fs, const char *key)
{
	return syscall(SYS_fsconfig, fs, FSCONFIG_SET_FLAG, key, NULL, 0) ? -errno : 0;
}

int clone_mount(const char *dev, const char *fstype, bool readonly, char *dir, size_t cap)
{
	unsigned attr = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | (readonly ? MOUNT_ATTR_RDONLY : 0);
	const char *ro_flag = clone_fs_of(fstype)->ro_flag;
	int fs, mfd, ret = 0;

	dir[0] = '\0';
	fs = (int)syscall(SYS_fsopen, fstype, FSOPEN_CLOEXEC);
	if (fs < 0)
		return errno == ENOSYS ? clone_mount_dir(dev, fstype, readonly, dir, cap) : -errno;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "source", dev, 0))
		ret = -errno;
	if (!ret && readonly)
		ret = fsconfig_flag(fs, "ro");
	if (!ret && readonly && ro_flag)
		ret = fsconfig_flag(fs, ro_flag);
	if (!ret && syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		ret = -errno;
	if (ret)
		goto out;
	mfd = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, attr);
	if (mfd < 0) {
		ret = -errno;
		goto out;
	}
	if (str_fmt(dir, cap, "%s/%d", PATH_PROC_SELF_FD, mfd)) {
		close(mfd);
		dir[0] = '\0';
		ret = -ENAMETOOLONG;
	}
out:
	close(fs);
	return ret;
}

void clone_umount(char *dir)
{
	static const char fdpath[] = PATH_PROC_SELF_FD "/";

	if (!str_starts(dir, fdpath)) {
		clone_umount_dir(dir);
		return;
	}
	/* the last reference to a detached mount: it is dissolved, its file system shut down
	 * before the next system call */
	close(atoi(dir + sizeof(fdpath) - 1));
	dir[0] = '\0';
}

int clone_mount_dir(const char *dev, const char *fstype, bool readonly, char *dir, size_t cap)
{
	const char *data = readonly ? clone_fs_of(fstype)->ro_flag : NULL;
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
