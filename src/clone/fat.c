// SPDX-License-Identifier: GPL-2.0-or-later
/* fat.c - files on a FAT partition at an offset of a device or an image, through mtools
 * (mtype, mcopy -i IMAGE@@OFFSET: what image builders use where the kernel has no vfat), the
 * volume id in its boot sector, and the copy of what it uses (its used clusters). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "common/banned.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/util.h"

/* An mtools tool run on the FAT at off of image. mtools reads "-i FILE@@OFFSET" by the first
 * "@@" of the argument, so the image is handed over open and named /proc/self/fd/N, a path
 * without "@@"; MTOOLS_SKIP_CHECK (no geometry check of a partition at an offset) is set for
 * that child only. argv holds "-i", NULL; *IMG is filled in. */
static int fat_run(const char *image, uint64_t off, bool rw, const char *argv[], size_t img_at,
		   struct sbuf *out, bool with_stderr, int *status)
{
	static const char *const env[] = { "MTOOLS_SKIP_CHECK=1", NULL };
	struct spawn_extra x = { .env = env };
	char img[64];
	int fd, ret;

	fd = open(image, (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	x.fd = fd;
	x.child_fd = fd == 3 ? 4 : 3;
	if (str_fmt(img, sizeof(img), PATH_PROC_SELF_FD "/%d@@%llu", x.child_fd,
		    (unsigned long long)off)) {
		ret = -ENAMETOOLONG;
		goto out;
	}
	argv[img_at] = img;
	ret = clone_run_ex(argv, &x, out, with_stderr, status);
	argv[img_at] = NULL;
out:
	close(fd);
	return ret;
}

int clone_fat_read(const char *image, uint64_t off, const char *file, size_t cap,
		   struct sbuf *out)
{
	char name[256];
	struct sbuf tmp = SBUF_INIT(cap + 1);
	const char *argv[] = { "mtype", "-i", NULL, name, NULL };
	int ret, status;

	if (str_fmt(name, sizeof(name), "::%s", file))
		return -ENAMETOOLONG;
	ret = fat_run(image, off, false, argv, 2, &tmp, false, &status);
	if (ret)
		goto out;
	if (status) {
		ret = -ENOENT;
		goto out;
	}
	if (tmp.len > cap) {
		ret = -EFBIG;
		goto out;
	}
	ret = sbuf_add(out, tmp.buf ? tmp.buf : "", tmp.len);
out:
	sbuf_release(&tmp);
	return ret;
}

int clone_fat_list(const char *image, uint64_t off, struct sbuf *out)
{
	const char *argv[] = { "mdir", "-/", "-b", "-i", NULL, "::", NULL };
	int ret, status;

	ret = fat_run(image, off, false, argv, 4, out, false, &status);
	return ret ? ret : status ? -EIO : 0;
}

int clone_fat_copy_out(const char *image, uint64_t off, const char *to)
{
	const char *argv[] = { "mcopy", "-s", "-p", "-m", "-n", "-i", NULL, "::/", to, NULL };
	int ret, status;

	ret = fat_run(image, off, false, argv, 6, NULL, false, &status);
	return ret ? ret : status ? -EIO : 0;
}

#define COPY_IN_BATCH 16

int clone_fat_copy_in(const char *image, uint64_t off, const char *from)
{
	const char *argv[COPY_IN_BATCH + 10] = { "mcopy", "-s", "-p", "-m", "-n", "-i", NULL };
	char (*paths)[PATH_MAX] = malloc(COPY_IN_BATCH * sizeof(*paths));
	DIR *d = opendir(from);
	struct dirent *de;
	int ret = 0, status;
	size_t n = 0;

	if (!paths || !d) {
		ret = paths ? -errno : -ENOMEM;
		goto out;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de && errno) {
			ret = -errno;
			break;
		}
		if (de && (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")))
			continue;
		if (de && str_fmt(paths[n], PATH_MAX, "%s/%s", from, de->d_name)) {
			ret = -ENAMETOOLONG;
			break;
		}
		if (de && ++n < COPY_IN_BATCH)
			continue;
		if (n) {
			for (size_t i = 0; i < n; i++)
				argv[7 + i] = paths[i];
			argv[7 + n] = "::/";
			argv[8 + n] = NULL;
			ret = fat_run(image, off, true, argv, 6, NULL, false, &status);
			if (!ret && status)
				ret = -EIO;
			n = 0;
		}
		if (ret || !de)
			break;
	}
out:
	if (d)
		closedir(d);
	free(paths);
	return ret;
}

int clone_fat_write(const char *image, uint64_t off, const char *file, const char *data,
		    size_t len)
{
	char name[256], tmp[PATH_MAX];
	const char *td = getenv("TMPDIR");
	const char *argv[] = { "mcopy", "-o", "-i", NULL, tmp, name, NULL };
	struct sbuf out = SBUF_INIT(4096);
	int fd, ret = 0, status;
	size_t done = 0;

	if (str_fmt(name, sizeof(name), "::%s", file) ||
	    str_fmt(tmp, sizeof(tmp), "%s/sbcdisk-fat-XXXXXX", td && td[0] ? td : "/tmp"))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t r = write(fd, data + done, len - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ret = r < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)r;
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret) {
		ret = fat_run(image, off, true, argv, 3, &out, true, &status);
		if (!ret && status)
			ret = -EIO;
	}
	unlink(tmp);
	sbuf_release(&out);
	return ret;
}

static int put_id(int fd, uint64_t off, uint32_t id)
{
	unsigned char b[4] = { id & 0xff, (id >> 8) & 0xff, (id >> 16) & 0xff, id >> 24 };

	return pwrite(fd, b, 4, (off_t)off) == 4 ? 0 : -EIO;
}

int clone_fat_set_id(int fd, uint64_t off, uint32_t id)
{
	unsigned char bs[512];
	unsigned bps, fatsz16, backup;
	int ret;

	if (pread(fd, bs, sizeof(bs), (off_t)off) != (ssize_t)sizeof(bs))
		return -EIO;
	if (bs[510] != 0x55 || bs[511] != 0xaa)
		return -EINVAL;
	bps = bs[11] | (unsigned)bs[12] << 8;
	fatsz16 = bs[22] | (unsigned)bs[23] << 8;
	if (bps < 512 || bps > 4096)
		return -EINVAL;
	if (fatsz16) /* FAT12/16: the extended BPB's id at 0x27 */
		return bs[38] == 0x29 ? put_id(fd, off + 0x27, id) : -EINVAL;
	if (bs[66] != 0x29) /* FAT32: at 0x43, and in the backup boot sector */
		return -EINVAL;
	ret = put_id(fd, off + 0x43, id);
	backup = bs[50] | (unsigned)bs[51] << 8;
	if (!ret && backup && backup < 32)
		ret = put_id(fd, off + (uint64_t)backup * bps + 0x43, id);
	return ret;
}

static int read_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		got += (size_t)r;
	}
	return 0;
}

/* The layout and the first FAT (malloc'd into *fat, the caller frees it) of the FAT file
 * system at off of fd, a partition of size bytes. */
static int fat_load(int fd, uint64_t off, uint64_t size, struct clone_fatinfo *fi,
		    unsigned char **fat)
{
	unsigned char bs[512];
	int ret;

	*fat = NULL;
	ret = read_full(fd, bs, sizeof(bs), off);
	if (ret)
		return ret;
	ret = clone_fat_layout(bs, sizeof(bs), size, fi);
	if (ret)
		return ret;
	if (fi->fat_bytes > CLONE_FAT_READ_MAX)
		return -EFBIG;
	*fat = malloc(fi->fat_bytes);
	if (!*fat)
		return -ENOMEM;
	ret = read_full(fd, *fat, fi->fat_bytes, off + fi->fat_off);
	if (ret) {
		free(*fat);
		*fat = NULL;
	}
	return ret;
}

int clone_fat_used(const char *path, uint64_t off, uint64_t size, uint64_t *used)
{
	struct clone_fatinfo fi;
	unsigned char *fat = NULL;
	uint64_t roff, rlen;
	uint32_t next = 2;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = fat_load(fd, off, size, &fi, &fat);
	close(fd);
	if (ret)
		return ret;
	*used = fi.data_off;
	while (clone_fat_next_run(&fi, fat, fi.fat_bytes, &next, &roff, &rlen))
		*used += rlen;
	free(fat);
	return 0;
}

/* The metadata (reserved sectors, FATs, FAT12/16's root directory) and the used clusters;
 * the target's other clusters keep what they had: the FAT says they are free, and a
 * directory cluster is zeroed by whoever allocates it. */
int clone_fat_copy_used(struct clone_copier *c, char *why, size_t whycap)
{
	const struct clone_part *cp = c->part;
	struct clone_fatinfo fi;
	unsigned char *fat = NULL;
	uint64_t roff, rlen;
	uint32_t next = 2;
	int ret;

	ret = fat_load(c->sfd, cp->start, cp->size, &fi, &fat);
	if (ret) {
		str_fmt(why, whycap, "cannot read the FAT of p%u: %s", cp->partno, strerror(-ret));
		return ret;
	}
	ret = clone_copy_range(c, cp->start, cp->t_start, fi.data_off, why, whycap);
	while (!ret && clone_fat_next_run(&fi, fat, fi.fat_bytes, &next, &roff, &rlen))
		ret = clone_copy_range(c, cp->start + roff, cp->t_start + roff, rlen, why, whycap);
	free(fat);
	return ret;
}

int clone_fat_remove(const char *image, uint64_t off, const char *file)
{
	char name[256];
	const char *argv[] = { "mdel", "-i", NULL, name, NULL };
	int ret, status;

	if (str_fmt(name, sizeof(name), "::%s", file))
		return -ENAMETOOLONG;
	ret = fat_run(image, off, true, argv, 2, NULL, false, &status);
	return ret ? ret : status ? -ENOENT : 0;
}
