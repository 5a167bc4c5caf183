/* fix-disk.c - the disk or image named by `fix --disk` resolved once: a whole disk that is not
 * mounted or an image file, its boot partition (clone/), its files as fix/'s accessor. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/fix-disk.h"
#include "common/atomicfile.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/util.h"
#include "probe/ref.h"

static int io_read(void *arg, const char *name, size_t cap, struct sbuf *out)
{
	return clone_bootpart_read(arg, name, cap, out);
}

static int io_write(void *arg, const char *name, const void *data, size_t len)
{
	return clone_bootpart_write(arg, name, data, len);
}

static int io_remove(void *arg, const char *name)
{
	return clone_bootpart_remove(arg, name);
}

static int io_list(void *arg, struct sbuf *out)
{
	return clone_bootpart_list(arg, out);
}

/* A mounted boot partition: its files through the sysroot below d->mnt. */
static int mnt_path(const struct fix_disk *d, const char *name, char *out, size_t cap)
{
	return str_fmt(out, cap, "%s/%s", d->mnt, name) ? -ENAMETOOLONG : 0;
}

static int mnt_read(void *arg, const char *name, size_t cap, struct sbuf *out)
{
	struct fix_disk *d = arg;
	char path[PATH_MAX];
	int ret = mnt_path(d, name, path, sizeof(path));

	return ret ? ret : sysroot_read_file(d->sr, path, cap, out);
}

/* The directory of path and its last component, for the atomic writer. */
static int mnt_split(const struct fix_disk *d, const char *name, char *dir, size_t cap,
		     const char **base)
{
	char path[PATH_MAX];
	const char *slash;
	int ret = mnt_path(d, name, path, sizeof(path));

	if (ret)
		return ret;
	slash = strrchr(path, '/');
	*base = name + (strrchr(name, '/') ? strrchr(name, '/') - name + 1 : 0);
	return str_fmt(dir, cap, "%.*s", (int)(slash - path), path) ? -ENAMETOOLONG : 0;
}

static int mnt_write(void *arg, const char *name, const void *data, size_t len)
{
	struct afile_opts o = AFILE_OPTS_INIT;
	struct fix_disk *d = arg;
	char dir[PATH_MAX];
	const char *base;
	int dfd, ret = mnt_split(d, name, dir, sizeof(dir), &base);

	if (ret)
		return ret;
	dfd = boot_dir_open(d->sr, dir);
	if (dfd < 0)
		return dfd;
	ret = afile_lock(dfd, false);
	if (!ret)
		ret = afile_replace_at(dfd, base, data, len, &o);
	close(dfd);
	return ret;
}

static int mnt_remove(void *arg, const char *name)
{
	struct fix_disk *d = arg;
	char dir[PATH_MAX];
	const char *base;
	int ret = mnt_split(d, name, dir, sizeof(dir), &base);

	return ret ? ret : boot_file_remove(d->sr, dir, base);
}

/* The partition's top directory, one "::/name" a line as mdir -/ -b gives it. */
static int mnt_list(void *arg, struct sbuf *out)
{
	struct fix_disk *d = arg;
	struct dirent *e;
	DIR *dir = NULL;
	int ret;

	sbuf_init(out, 1 << 20);
	ret = sysroot_opendir(d->sr, d->mnt, &dir);
	if (ret)
		goto out;
	while (!ret && (e = readdir(dir)))
		if (e->d_name[0] != '.')
			ret = sbuf_addf(out, "::/%s\n", e->d_name);
	closedir(dir);
out:
	if (ret)
		sbuf_release(out);
	return ret;
}

/* The first mount of d or of a partition of it, NULL when none. */
static const char *mounted_part(const struct blkdev *d, const char **part)
{
	size_t i;

	*part = d->kname;
	if (d->n_mountpoints)
		return d->mountpoints[0];
	for (i = 0; i < d->n_children; i++) {
		if (d->children[i]->n_mountpoints) {
			*part = d->children[i]->kname;
			return d->children[i]->mountpoints[0];
		}
	}
	return NULL;
}

/* d's FAT partition is mounted: its mount point into fd->mnt. */
static bool boot_mounted(const struct blkdev *b, struct fix_disk *fd)
{
	size_t i;

	for (i = 0; i < b->n_children; i++) {
		const struct blkdev *c = b->children[i];

		if (c->n_mountpoints && c->mountpoints[0][0] == '/' &&
		    (!strcmp(c->fstype, "vfat") || !strcmp(c->fstype, "msdos"))) {
			str_copy(fd->mnt, sizeof(fd->mnt), c->mountpoints[0]);
			return true;
		}
	}
	return false;
}

static int disk_open(struct sysroot *sr, const struct inventory *inv, const char *cmd,
		     const char *arg, struct fix_disk *d);

/* The disk's config.txt is read for this board: the drive is about to boot it. */
int fix_disk_open(struct sysroot *sr, const struct inventory *inv, const char *cmd,
		  const char *arg, struct fix_disk *d)
{
	int ret = disk_open(sr, inv, cmd, arg, d);

	if (ret == EXIT_OK)
		config_board_read(sr, &d->files.board);
	return ret;
}

/* The disk or image written through its table (its boot partition not mounted here): the
 * one in-use oracle, which also sees a loop device over the same file and bytes mounted
 * (mount -o loop,offset=...) or held elsewhere. True, said, when something uses it. */
static bool disk_in_use(struct sysroot *sr, const struct inventory *inv, const char *cmd,
			const char *arg, const struct probe_ref *ref)
{
	char why[512];
	int ret;

	if (!sysroot_is_live(sr))
		return false; /* a captured tree's devices are no one's */
	ret = probe_ref_in_use(sr, inv, ref, why, sizeof(why));
	if (!ret)
		return false;
	log_error("%s: --disk %s%s: %s", cmd, arg, ret == -EBUSY ? " is in use" : "", why);
	return true;
}

static int disk_open(struct sysroot *sr, const struct inventory *inv, const char *cmd,
		     const char *arg, struct fix_disk *d)
{
	const struct blkdev *b = NULL;
	const char *base = strrchr(arg, '/'), *part, *mnt;
	char node[PATH_MAX], why[PATH_MAX + 300] = "";
	struct probe_ref ref;
	int ret;

	memset(d, 0, sizeof(*d));
	/* resolved once, by what the name points to: a /dev/disk/by-* link, a symlink, a bare
	 * kernel name or an image file (never by its last component) */
	ret = probe_ref_resolve(sr, inv, arg, 0, &ref, why, sizeof(why));
	if (ret == -ENOENT) {
		log_error("%s: --disk '%s': no such block device or image file", cmd, arg);
		return EXIT_FAIL;
	}
	if (ret) {
		log_error("%s: --disk: %s", cmd, why);
		return EXIT_FAIL;
	}
	if (ref.kind == PROBE_REF_BLOCK)
		b = ref.dev;
	if (ref.kind == PROBE_REF_BLOCK && !b) {
		log_error("%s: --disk '%s': not a disk of this system", cmd, arg);
		return EXIT_FAIL;
	}
	if (b) {
		/* a block device of this system: by its name, through the sysroot */
		if (b->is_partition) {
			log_error("%s: --disk '%s' is a partition: name its whole disk (%s)", cmd, arg,
				  b->disk ? b->disk->kname : "the disk");
			return EXIT_FAIL;
		}
		mnt = mounted_part(b, &part);
		if (mnt && boot_mounted(b, d)) {
			d->sr = sr;
			str_copy(d->kname, sizeof(d->kname), b->kname);
			d->files = (struct fix_files){ .read = mnt_read, .write = mnt_write,
						       .remove = mnt_remove, .list = mnt_list,
						       .arg = d };
			str_copy(d->files.where, sizeof(d->files.where), d->mnt);
			return EXIT_OK;
		}
		if (mnt) {
			log_error("%s: --disk %s: %s is mounted on %s, but not its boot partition: "
				  "mount that one, or unmount %s", cmd, b->kname, part, mnt, part);
			return EXIT_FAIL;
		}
		str_copy(d->kname, sizeof(d->kname), b->kname);
		if (str_fmt(node, sizeof(node), "%s%s", PATH_DEV_PREFIX, b->kname) ||
		    sysroot_host_path(sr, node, d->path, sizeof(d->path))) {
			log_error("%s: --disk '%s': name too long", cmd, arg);
			return EXIT_FAIL;
		}
	} else if (ref.kind != PROBE_REF_FILE) {
		log_error("%s: --disk '%s': not a disk of this system nor an image file", cmd, arg);
		return EXIT_FAIL;
	} else {
		str_copy(d->path, sizeof(d->path), ref.path); /* an image file */
	}
	if (disk_in_use(sr, inv, cmd, arg, &ref))
		return EXIT_FAIL;
	ret = clone_bootpart_find(d->path, &d->bp, why, sizeof(why));
	if (ret) {
		log_error("%s: --disk %s: no boot partition found: %s", cmd, arg,
			  why[0] ? why : strerror(-ret));
		return EXIT_FAIL;
	}
	d->files = (struct fix_files){ .read = io_read, .write = io_write, .remove = io_remove,
				       .list = io_list, .arg = &d->bp };
	if (d->kname[0]) { /* the kernel's name of the partition: sda1, mmcblk0p1, loop7p1 */
		size_t l = strlen(d->kname);
		bool digit = l && d->kname[l - 1] >= '0' && d->kname[l - 1] <= '9';

		str_fmt(d->files.where, sizeof(d->files.where), "%s%s%u", d->kname,
			digit ? "p" : "", d->bp.partno);
	} else {
		str_fmt(d->files.where, sizeof(d->files.where), "%s:p%u", base ? base + 1 : arg,
			d->bp.partno);
	}
	return EXIT_OK;
}
