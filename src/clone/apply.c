// SPDX-License-Identifier: GPL-2.0-or-later
/* apply.c - doing the plan: the target's table wiped first and written last (a stop leaves
 * nothing that looks bootable), each partition copied, repaired, grown and given its new id
 * as its file system's row says (fs.h), the names rewritten on the target, then the copy
 * compared with its source. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "clone/fs.h"
#include "common/atomicfile.h"
#include "common/banned.h"
#include "common/util.h"

static bool stopped(const struct clone_plan *p)
{
	return p->stop && *p->stop;
}

static void mark_done(struct clone_plan *p, const char *file)
{
	for (size_t i = 0; i < p->n_rewrites; i++)
		if (!strcmp(p->rewrites[i].file, file))
			p->rewrites[i].done = true;
}

/* What writing file, one of the plan's rewrites, on target partition cp gave: 0 marks it
 * done; else why says so and the error is returned. */
static int rewrite_result(struct clone_plan *p, const struct clone_part *cp, const char *file,
			  int ret, char *why, size_t whycap)
{
	if (ret) {
		str_fmt(why, whycap, "cannot rewrite %s on target p%u: %s", file, cp->partno,
			strerror(-ret));
		return ret;
	}
	mark_done(p, file);
	return 0;
}

/* The directory of rel ("etc/fstab" -> etc) under dir, each step without following a
 * link (a link on the copy points into the running system, not the copy); *name the last
 * component. A descriptor or -errno. */
static int open_parent(const char *dir, const char *rel, const char **name)
{
	char part[PATH_MAX];
	const char *s = rel, *slash;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), nfd;

	while (fd >= 0 && (slash = strchr(s, '/'))) {
		if (slash > s) {
			if (str_fmt(part, sizeof(part), "%.*s", (int)(slash - s), s)) {
				close(fd);
				return -ENAMETOOLONG;
			}
			nfd = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			close(fd);
			fd = nfd;
		}
		s = slash + 1;
	}
	*name = s;
	return fd < 0 ? -errno : fd;
}

/* rel under dir replaced by data atomically, its owner and mode kept. */
static int replace_file(const char *dir, const char *rel, const char *data, size_t len)
{
	struct afile_opts ao = AFILE_OPTS_INIT;
	const char *name;
	struct stat st;
	int fd, ret;

	fd = open_parent(dir, rel, &name);
	if (fd < 0)
		return fd;
	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		ao.uid = st.st_uid;
		ao.gid = st.st_gid;
	}
	ret = afile_replace_at(fd, name, data, len, &ao);
	close(fd);
	return ret;
}

/* A rewritten file of the plan: its name as the plan lists it, where it is written on its
 * file system (symbolic links resolved), its new text. */
struct part_file {
	const char *file, *at, *data;
	size_t len;
};

/* The rewritten files that go on cp's file system: /etc/fstab on the root, the command line
 * on the boot partition, extlinux.conf where it is; how many. */
static size_t part_files(const struct clone_plan *p, const struct clone_part *cp,
			 struct part_file f[3])
{
	int i = (int)(cp - p->parts);
	size_t n = 0;

	if (i == p->root && p->fstab_new)
		f[n++] = (struct part_file){ "/etc/fstab", p->fstab_at, p->fstab_new,
					     p->fstab_len };
	if (i == p->boot && p->cmdline_new)
		f[n++] = (struct part_file){ p->cmdline_file, p->cmdline_file, p->cmdline_new,
					     p->cmdline_len };
	if (i == p->extlinux_part && p->extlinux_new)
		f[n++] = (struct part_file){ p->extlinux_path, p->extlinux_at, p->extlinux_new,
					     p->extlinux_len };
	return n;
}

static bool has_rewrites(const struct clone_plan *p, const struct clone_part *cp)
{
	struct part_file f[3];

	return part_files(p, cp, f) > 0;
}

/* cp's rewritten files replaced on the target: through its row's write_file, or under dir
 * where it is mounted, atomically, owner and mode kept. */
static int files_write(struct clone_plan *p, const struct clone_part *cp, const char *dir,
		       char *why, size_t whycap)
{
	struct part_file f[3];
	size_t n = part_files(p, cp, f);
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++)
		ret = rewrite_result(p, cp, f[i].file, cp->fs->write_file ?
				     cp->fs->write_file(clone_dst(p), cp->t_start, f[i].at,
							f[i].data, f[i].len) :
				     replace_file(dir, f[i].at + 1, f[i].data, f[i].len),
				     why, whycap);
	return ret;
}

struct files_progress {
	struct clone_plan *p;
	struct clone_part *cp;
	const char *phase;
	uint64_t t0_ns;
};

static void files_progress_show(void *arg, uint64_t bytes)
{
	struct files_progress *fp = arg;

	clone_progress_emit(fp->p, fp->phase, bytes, fp->cp->used, fp->t0_ns);
}

/* For the tests: a command run between the two passes (changes the source, or stops us). */
static void between_passes(void)
{
	const char *cmd = getenv("SBCDISK_TEST_BETWEEN_PASSES");
	const char *argv[] = { "sh", "-c", cmd, NULL };
	int status;

	if (cmd && cmd[0])
		clone_run(argv, NULL, false, &status);
}

static int64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Where a write to the target failed for want of room: the file system that holds the image
 * (its loop device's writes fail under the target's file system, which sees only I/O errors)
 * or the target's file system under dir. */
static void full_cause(const struct clone_plan *p, const struct clone_part *cp, const char *dir,
		       char *why, size_t whycap)
{
	size_t len = strlen(why);
	char idir[PATH_MAX];
	struct statvfs sv;

	if (p->dst_is_file && !clone_path_dir(p->dst_path, idir, sizeof(idir)) &&
	    !statvfs(idir, &sv) && (uint64_t)sv.f_bavail * sv.f_frsize < (1U << 20))
		str_fmt(why + len, whycap - len, "; target full: the file system that holds "
			"'%s' has no room left", p->dst_path);
	else if (dir[0] && !statvfs(dir, &sv) && (uint64_t)sv.f_bavail * sv.f_frsize < (1U << 20))
		str_fmt(why + len, whycap - len, "; target full: p%u of the target has no room "
			"left", cp->partno);
}

/* A device's writes on it and its cache dropped: what is read next comes from the device. */
static int dev_flush(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) || ioctl(fd, BLKFLSBUF, 0))
		ret = -errno;
	close(fd);
	return ret;
}

/* What was written to the target's file system, on its device: syncfs on a descriptor
 * opened before the writes reports every writeback error since (a write that failed in the
 * background, long after its write() returned). */
static int files_sync(const struct clone_plan *p, const struct clone_part *cp, int fd,
		      const char *dir, char *why, size_t whycap)
{
	int ret;

	if (!syncfs(fd))
		return 0;
	ret = -errno;
	str_fmt(why, whycap, "cannot write the copy of p%u to the target: %s", cp->partno,
		strerror(-ret));
	full_cause(p, cp, dir, why, whycap);
	return ret;
}

/* A file system mounted read-write: a fresh one made with its features and label, its files
 * copied (clone_tree_copy: hard links, ACLs, xattrs, capabilities, sparse files, specials,
 * owners, modes, times; one file system), then a second pass for what changed during the
 * first, right before fstab is rewritten; the window is that last stretch to the end. */
static int files_finish(struct clone_plan *p, struct clone_part *cp, char *why, size_t whycap)
{
	struct files_progress fp = { .p = p, .cp = cp };
	struct clone_tree tr = { .src = cp->mountpoint, .stop = p->stop,
				 .progress = files_progress_show, .progress_arg = &fp };
	char dir[PATH_MAX] = "", sdir[PATH_MAX] = "", phase[48];
	struct clone_loop lo, slo = { .fd = -1 };
	uint64_t t0 = time_now_ns(), tw = t0;
	bool live = cp->mounted && cp->mountpoint[0] == '/';
	int dfd = -1, ret;

	ret = clone_part_attach(p, cp, true, false, &lo);
	if (ret) {
		str_fmt(why, whycap, "cannot set up a loop device over target p%u: %s",
			cp->partno, strerror(-ret));
		return ret;
	}
	if (!live) {
		/* not mounted (a file system remade in the target's sectors): read from a
		 * read-only mount of its own, once, as nothing changes it */
		ret = clone_part_attach(p, cp, false, true, &slo);
		if (!ret)
			ret = clone_mount(slo.name, cp->fstype, true, sdir, sizeof(sdir));
		if (ret) {
			str_fmt(why, whycap, "cannot mount source p%u read-only: %s", cp->partno,
				strerror(-ret));
			goto out;
		}
		tr.src = sdir;
	}
	ret = cp->fs->make(p, cp, lo.name, why, whycap);
	if (ret)
		goto out;
	ret = clone_mount(lo.name, cp->fstype, false, dir, sizeof(dir));
	if (ret) {
		str_fmt(why, whycap, "cannot mount target p%u: %s", cp->partno, strerror(-ret));
		goto out;
	}
	tr.dst = dir;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		ret = -errno;
		str_fmt(why, whycap, "cannot open target p%u: %s", cp->partno, strerror(-ret));
		goto out;
	}
	str_fmt(phase, sizeof(phase), "copying p%u", cp->partno);
	fp.phase = phase;
	/* a second early: the kernel stamps ctimes from a coarse clock */
	tr.since_ns = wall_ns() - 1000000000LL;
	for (int pass = 0; pass < (live ? 2 : 1) && !ret && !stopped(p); pass++) {
		if (pass) {
			between_passes();
			if (stopped(p))
				break;
		}
		tw = time_now_ns();
		fp.t0_ns = tw;
		tr.pass = pass;
		ret = clone_tree_copy(&tr, why, whycap);
		cp->copied += tr.bytes;
		if (ret && ret != -EINTR)
			full_cause(p, cp, dir, why, whycap);
		if (!ret && !stopped(p))
			ret = files_sync(p, cp, dfd, dir, why, whycap);
	}
	if (!ret && has_rewrites(p, cp) && !stopped(p))
		ret = files_write(p, cp, dir, why, whycap);
	if (!ret && !stopped(p))
		ret = files_sync(p, cp, dfd, dir, why, whycap);
	if (!ret && !stopped(p)) {
		p->has_window = live; /* a source nothing changes has no window */
		p->window_s = (double)(time_now_ns() - tw) / 1e9;
		cp->copy_s = (double)(time_now_ns() - t0) / 1e9;
		p->copy_s += cp->copy_s; /* "copied in": the files too, not only the blocks */
	}
out:
	if (dfd >= 0)
		close(dfd);
	clone_umount(dir);
	/* the checks read the device, not what its cache kept of the writes (a partition
	 * device of the kernel stays, with its cache, after this) */
	if (!ret && !stopped(p) && (ret = dev_flush(lo.name))) {
		str_fmt(why, whycap, "cannot write the copy of p%u to the target: %s",
			cp->partno, strerror(-ret));
		full_cause(p, cp, "", why, whycap);
	}
	clone_loop_detach(&lo);
	clone_umount(sdir);
	clone_loop_detach(&slo);
	return ret;
}

/* The copy's e2fsck failed: whether the source has the same errors, after why. */
static void blame_source(struct clone_plan *p, const struct clone_part *cp, char *why,
			 size_t whycap)
{
	char res[400];
	size_t len = strlen(why);

	if (clone_fsck_source(p, cp, res, sizeof(res)) >= 0)
		str_fmt(why + len, whycap - len, "; %s", res);
}

/* A file system copied by its blocks, on the target: repaired, grown to its partition, given
 * its new id and its rewritten files, each as its row says (on a device: its partition's
 * own, or a loop device over it; else at its offset of dfd). */
static int blocks_finish(struct clone_plan *p, struct clone_part *cp, int dfd, char *why,
			 size_t whycap)
{
	const struct clone_fs *fs = cp->fs;
	struct clone_loop lo = { .fd = -1 };
	char dir[PATH_MAX] = "";
	int ret = 0;

	if (fs->on_device) {
		ret = clone_part_attach(p, cp, true, false, &lo);
		if (ret) {
			str_fmt(why, whycap, "cannot set up a loop device over target p%u: %s",
				cp->partno, strerror(-ret));
			return ret;
		}
	}
	if (fs->repair[0]) {
		const char *argv[CLONE_FS_ARGV_MAX];

		clone_fs_argv(fs->repair, lo.name, argv);
		ret = clone_run_tool(fs->repair_name, argv, 1, why, whycap);
		if (ret == -EIO)
			blame_source(p, cp, why, whycap);
	}
	if (!ret && fs->grow && cp->t_size > cp->size && !stopped(p))
		ret = fs->grow(lo.name, why, whycap);
	if (!ret && fs->set_id && !stopped(p))
		ret = fs->set_id(cp, lo.name, dfd, why, whycap);
	if (!ret && has_rewrites(p, cp) && !stopped(p)) {
		if (!fs->write_file)
			ret = clone_mount(lo.name, cp->fstype, false, dir, sizeof(dir));
		if (ret)
			str_fmt(why, whycap, "cannot mount target p%u: %s", cp->partno,
				strerror(-ret));
		else
			ret = files_write(p, cp, dir, why, whycap);
	}
	clone_umount(dir);
	clone_loop_detach(&lo);
	return ret;
}

/* A file system remade without a mount in the target's sectors (its row's copy_files), then
 * finished as a block copy is: its new id, its rewritten files. What was written through
 * the partition's device is flushed, and the disk's cache dropped, before those writes
 * through the disk. */
static int remade_finish(struct clone_plan *p, struct clone_part *cp, int dfd, char *why,
			 size_t whycap)
{
	struct clone_loop lo;
	uint64_t t0 = time_now_ns();
	int ret;

	ret = clone_part_attach(p, cp, true, false, &lo);
	if (ret) {
		str_fmt(why, whycap, "cannot set up a loop device over target p%u: %s",
			cp->partno, strerror(-ret));
		return ret;
	}
	ret = cp->fs->copy_files(p, cp, lo.name, why, whycap);
	if (!ret && (ret = dev_flush(lo.name)))
		str_fmt(why, whycap, "cannot write the copy of p%u to the target: %s",
			cp->partno, strerror(-ret));
	clone_loop_detach(&lo);
	if (!ret && !p->dst_is_file && ioctl(dfd, BLKFLSBUF, 0)) {
		ret = -errno;
		str_fmt(why, whycap, "cannot write the target: %s", strerror(-ret));
	}
	cp->copy_s = (double)(time_now_ns() - t0) / 1e9;
	p->copy_s += cp->copy_s;
	return ret ? ret : blocks_finish(p, cp, dfd, why, whycap);
}

static int open_target(struct clone_plan *p, char *why, size_t whycap)
{
	int fd;

	if (p->dst_held) {
		/* the plan's open file: its lock stays while either is open */
		fd = fcntl(p->dst_fd, F_DUPFD_CLOEXEC, 0);
		if (fd >= 0 && p->dst_created && ftruncate(fd, (off_t)p->dst_size)) {
			int e = errno;

			close(fd);
			errno = e;
			fd = -1;
		}
	} else if (!p->dst_exists) {
		fd = open(p->dst_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 && ftruncate(fd, (off_t)p->dst_size)) {
			int e = errno;

			close(fd);
			unlink(p->dst_path);
			errno = e;
			fd = -1;
		}
	} else if (p->dst_is_file) {
		fd = open(p->dst_path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	} else {
		/* O_EXCL: the kernel refuses while anything else holds the disk */
		fd = open(p->dst_path, O_RDWR | O_EXCL | O_CLOEXEC);
	}
	if (fd < 0) {
		int e = errno;

		str_fmt(why, whycap, "cannot open target '%s': %s", p->dst_path,
			e == EBUSY ? "it is in use" : strerror(e));
		return -e;
	}
	return fd;
}

/* The disk held no more by O_EXCL: mke2fs, e2fsck and mount claim its partitions for
 * themselves, which the kernel refuses while another holds the whole disk. */
static int open_shared(struct clone_plan *p, int *dfd, char *why, size_t whycap)
{
	int fd = open(p->dst_path, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		str_fmt(why, whycap, "cannot open target '%s': %s", p->dst_path, strerror(e));
		return -e;
	}
	close(*dfd);
	*dfd = fd;
	return 0;
}

static int copy_all(struct clone_plan *p, int sfd, int dfd, char *why, size_t whycap)
{
	struct clone_copier c = { .sfd = sfd, .dfd = dfd, .src_path = p->src_path, .p = p,
				  .total = p->copy_bytes, .t0_ns = time_now_ns() };
	struct clone_part whole = { .partno = 0 };
	int ret = 0;

	if (p->whole) {
		c.part = &whole;
		ret = clone_copy_range(&c, 0, 0, p->src_size, why, whycap);
		goto out;
	}
	for (size_t i = 0; i < p->n_parts && !ret; i++) {
		struct clone_part *cp = &p->parts[i];
		uint64_t t0 = time_now_ns();

		c.part = cp;
		if (cp->method == CLONE_BY_USED)
			ret = cp->fs->copy_used(&c, why, whycap);
		else if (cp->method == CLONE_BY_WHOLE)
			ret = clone_copy_range(&c, cp->start, cp->t_start, cp->size, why, whycap);
		cp->copy_s = (double)(time_now_ns() - t0) / 1e9;
		c.done_before += cp->copied;
	}
out:
	if (ret) {
		char ignored[8];

		clone_copier_end(&c, ignored, sizeof(ignored));
	} else {
		ret = clone_copier_end(&c, why, whycap);
	}
	if (!ret && fdatasync(dfd)) {
		ret = -errno;
		str_fmt(why, whycap, "cannot write the target: %s", strerror(-ret));
	}
	p->copy_s = (double)(time_now_ns() - c.t0_ns) / 1e9;
	return ret;
}

/* A disk target that went away (unplugged: no size, or another device now) or shrank (a
 * loop device whose backing file was cut) under the copy: what failed then is not the
 * target being full or the source being bad, and the message says so. */
static bool target_still_there(const struct clone_plan *p, int dfd, uint64_t *size)
{
	struct stat st, now;

	*size = 0;
	return clone_fd_size(dfd, &st, size) == 0 && *size >= p->dst_size &&
	       stat(p->dst_path, &now) == 0 && now.st_rdev == st.st_rdev;
}

static bool target_gone(const struct clone_plan *p, int dfd, char *why, size_t whycap)
{
	uint64_t size = 0;
	char a[32], b[32];
	int i;

	if (p->dst_is_file)
		return false;
	/* the I/O errors of a pulled disk come before the kernel takes its size away (the
	 * SCSI layer, then the block layer): asked at once, a pulled disk looks present.
	 * Only on the error path, so a real write error waits 2 s more. */
	for (i = 0; i < 20; i++) {
		if (!target_still_there(p, dfd, &size))
			break;
		if (i == 19)
			return false;
		clone_nap();
	}
	size_to_human(size, a, sizeof(a));
	size_to_human(p->dst_size, b, sizeof(b));
	str_fmt(why, whycap, "target '%s' went away during the clone (%s now, %s before): it holds "
		"no usable copy; the source is untouched", p->dst_path, size ? a : "no size", b);
	return true;
}

static int apply_run(struct clone_plan *p, const struct clone_opts *o, char *why, size_t whycap)
{
	int sfd = -1, dfd, ret;
	size_t i;

	dfd = open_target(p, why, whycap);
	if (dfd < 0)
		return dfd;
	sfd = open(p->src_path, O_RDONLY | O_CLOEXEC);
	if (sfd < 0) {
		ret = -errno;
		str_fmt(why, whycap, "cannot open source '%s': %s", p->src_path, strerror(-ret));
		goto out;
	}
	p->dst_touched = true;
	ret = clone_target_wipe(clone_dst(p));
	if (ret) {
		str_fmt(why, whycap, "cannot write the target: %s", strerror(-ret));
		goto out;
	}
	ret = copy_all(p, sfd, dfd, why, whycap);
	/* a disk: its partitions' own devices, not loop devices (the loop driver may not be
	 * there); an image, or a disk that has no partitions, loop devices */
	if (!ret && !p->whole && !stopped(p) && clone_kparts_add(p, dfd) == 0)
		ret = open_shared(p, &dfd, why, whycap);
	for (i = 0; !ret && !p->whole && i < p->n_parts && !stopped(p); i++) {
		struct clone_part *cp = &p->parts[i];

		if (cp->method == CLONE_BY_FILES && cp->fs->copy_files)
			ret = remade_finish(p, cp, dfd, why, whycap);
		else if (cp->method == CLONE_BY_FILES)
			ret = files_finish(p, cp, why, whycap);
		else if (cp->method != CLONE_BY_NONE)
			ret = blocks_finish(p, cp, dfd, why, whycap);
		if (!ret)
			str_fmt(cp->result, sizeof(cp->result), "copied");
	}
	if (!ret && !p->whole && !stopped(p)) {
		/* what went through the partitions' devices is not in the disk's own cache,
		 * which the boot check reads: its stale pages go */
		if (!p->dst_is_file && (fsync(dfd) || ioctl(dfd, BLKFLSBUF, 0))) {
			ret = -errno;
			str_fmt(why, whycap, "cannot write the target: %s", strerror(-ret));
		}
		if (!ret)
			ret = clone_table_write(p, why, whycap);
		if (!ret)
			ret = fsync(dfd) ? -errno : 0;
		p->table_written = !ret;
		if (!ret)
			ret = clone_kparts_reread(p, dfd, why, whycap);
	}
	if (!ret && p->whole && !stopped(p))
		clone_kparts_reread(p, dfd, why, whycap);
	if (!ret && stopped(p))
		ret = -EINTR;
	if (!ret) {
		p->applied = true;
		ret = clone_compare(p, o, why, whycap);
	}
out:
	if (ret && ret != -EINTR && !stopped(p) && target_gone(p, dfd, why, whycap))
		ret = -ENODEV;
	if ((ret == -EINTR || stopped(p)) && clone_target_wipe(clone_dst(p)) == 0) {
		p->wiped = true;
		ret = -EINTR;
	}
	if (ret && !p->applied)
		clone_kparts_drop(p, dfd);
	if (sfd >= 0)
		close(sfd);
	close(dfd);
	return ret;
}

int clone_apply(struct clone_plan *p, const struct clone_opts *o, char *why, size_t whycap)
{
	int ret = apply_run(p, o, why, whycap);

	/* an image this clone made holds nothing of use after a failure or a stop */
	if (ret)
		clone_image_remove(p);
	return ret;
}
