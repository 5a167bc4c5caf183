// SPDX-License-Identifier: GPL-2.0-or-later
/* prepare.c - the plan of a new data disk: the disk resolved once, every refusal decided
 * before anything is written, the layout aligned, the ids and the fstab line chosen. */
#include <blkid/blkid.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "clone/prepare.h"
#include "common/banned.h"
#include "common/paths.h"
#include "common/rootspec.h"
#include "common/util.h"
#include "probe/probe.h"
#include "probe/ref.h"

#define MIB		 (1ULL << 20)
#define PREPARE_ALIGN_MAX (16 * MIB) /* a larger optimal transfer size is not followed */
#define FSTAB_MAX	 (256 * 1024)

const struct prepare_fs prepare_fs_table[] = {
	{ "ext4", "mkfs.ext4", "e2fsprogs", 16 * MIB, 16, 2 },
	{ "f2fs", "mkfs.f2fs", "f2fs-tools", 64 * MIB, 32, 2 },
	{ "btrfs", "mkfs.btrfs", "btrfs-progs", 128 * MIB, 64, 0 },
	{ "xfs", "mkfs.xfs", "xfsprogs", 320 * MIB, 12, 0 },
	{ "exfat", "mkfs.exfat", "exfatprogs", 8 * MIB, 11, 2 },
	{ NULL, NULL, NULL, 0, 0, 0 },
};

const struct prepare_fs *prepare_fs_find(const char *name)
{
	for (const struct prepare_fs *f = prepare_fs_table; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

bool prepare_fs_available(const struct prepare_fs *fs)
{
	const char *path = getenv("PATH");
	char dir[PATH_MAX], prog[PATH_MAX];

	if (!path || !*path)
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		if (n && n < sizeof(dir)) {
			memcpy(dir, path, n);
			dir[n] = '\0';
			if (!str_fmt(prog, sizeof(prog), "%s/%s", dir, fs->mkfs) &&
			    access(prog, X_OK) == 0)
				return true;
		}
		path += n;
		if (*path == ':')
			path++;
	}
	return false;
}

static void plan_note(struct prepare_plan *p, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void plan_note(struct prepare_plan *p, const char *fmt, ...)
{
	va_list ap;

	if (p->n_notes >= PREPARE_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(p->notes[p->n_notes++], sizeof(p->notes[0]), fmt, ap);
	va_end(ap);
}

/* The disks there are, for a name that is none of them ("sda, nvme0n1"). */
static void disks_list(const struct inventory *inv, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < inv->n_all; i++) {
		const struct blkdev *d = inv->all[i];
		size_t l = strlen(buf);

		if (d->is_partition || (strcmp(d->type, "disk") && strcmp(d->type, "loop")) ||
		    !d->has_size || !d->size_bytes)
			continue;
		if (str_fmt(buf + l, cap - l, "%s%s", n++ ? ", " : "", d->kname))
			break;
	}
}

/* What the user named, resolved once (probe/ref.h): a whole disk of the inventory. Every
 * later question takes the object, never the name again. */
static int plan_disk(struct prepare_plan *p, const char *arg, char *why, size_t whycap)
{
	const struct probe_ref *r = &p->ref;
	char list[256];
	int ret;

	ret = probe_ref_resolve(p->sr, p->inv, arg, 0, &p->ref, why, whycap);
	if (ret == -ENOENT) {
		disks_list(p->inv, list, sizeof(list));
		str_fmt(why, whycap, "'%s': no such disk (the disks here: %s)", r->shown,
			list[0] ? list : "none");
	}
	if (ret)
		return ret;
	if (r->kind != PROBE_REF_BLOCK) {
		str_fmt(why, whycap, "'%s' is not a disk (a block device such as /dev/sda)",
			r->shown);
		return -EINVAL;
	}
	if (!r->dev) {
		str_fmt(why, whycap, "'%s': cannot tell whether it is in use: not writing to it",
			r->shown);
		return -EINVAL;
	}
	if (r->is_partition) {
		str_fmt(why, whycap, "'%s' is a partition: name the whole disk ('%s')", r->shown,
			r->disk ? r->disk->kname : "?");
		return -EINVAL;
	}
	p->disk = r->dev;
	str_copy(p->path, sizeof(p->path), r->path);
	str_copy(p->kname, sizeof(p->kname), r->dev->kname);
	return 0;
}

/* The running system, a mounted, swapped or held partition, anything that reaches its
 * bytes: the one oracle of probe/ (clone asks the same). */
static int plan_unused(struct prepare_plan *p, char *why, size_t whycap)
{
	char what[400];
	int ret;

	if (probe_ref_is_running_disk(p->inv, &p->ref)) {
		str_fmt(why, whycap, "'%s' holds the running system", p->ref.shown);
		return -EINVAL;
	}
	ret = probe_ref_in_use(p->sr, p->inv, &p->ref, what, sizeof(what));
	if (!ret)
		return 0;
	if (ret == -EBUSY && str_starts(what, "it holds"))
		str_fmt(why, whycap, "'%s' %s", p->ref.shown, what + 3);
	else if (ret == -EBUSY)
		str_fmt(why, whycap, "'%s' is in use: %s", p->ref.shown, what);
	else
		str_fmt(why, whycap, "'%s': %s", p->ref.shown, what);
	return -EINVAL;
}

/* Size, sectors, read-only, from the device itself (the inventory may be a captured tree's;
 * the device is what is written). */
static int plan_geometry(struct prepare_plan *p, const char *arg, char *why, size_t whycap)
{
	char attr[PATH_MAX];
	int fd, ro = 0, lsec = 0;
	unsigned psec = 0;
	uint64_t opt = 0;

	fd = open(p->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		str_fmt(why, whycap, "'%s': %s", arg, strerror(errno));
		return -errno;
	}
	if (ioctl(fd, BLKGETSIZE64, &p->size) || ioctl(fd, BLKSSZGET, &lsec) ||
	    ioctl(fd, BLKPBSZGET, &psec) || ioctl(fd, BLKROGET, &ro)) {
		int e = errno;

		close(fd);
		str_fmt(why, whycap, "'%s': cannot read its size: %s", arg, strerror(e));
		return -e;
	}
	close(fd);
	p->lsec = lsec > 0 ? (unsigned)lsec : 512;
	p->psec = psec >= p->lsec ? psec : p->lsec;
	if (ro || (p->disk->has_read_only && p->disk->read_only)) {
		str_fmt(why, whycap, "'%s' is read-only (a write-protect switch, or the kernel "
			"set it so): nothing can be written to it", arg);
		return -EROFS;
	}
	if (!str_fmt(attr, sizeof(attr), "%s/queue/optimal_io_size", p->disk->syspath) &&
	    sysroot_read_u64(p->sr, attr, &opt) == 0 && opt)
		p->opt_io = opt;
	return 0;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* 1 MiB, a multiple of the physical sector, and of the optimal transfer size when reported
 * and sane; one partition from there to the end, the GPT's backup left its last sectors. */
static int plan_layout(struct prepare_plan *p, const char *arg, char *why, size_t whycap)
{
	uint64_t a = MIB, tail, end;
	char s1[32], s2[32];

	if (p->psec > a)
		a = p->psec;
	if (p->opt_io) {
		uint64_t l = a / gcd64(a, p->opt_io) * p->opt_io;

		if (p->opt_io % p->lsec || l > PREPARE_ALIGN_MAX)
			plan_note(p, "the disk reports an optimal transfer size of %llu bytes: "
				  "not followed (the partition is aligned to %llu bytes)",
				  (unsigned long long)p->opt_io, (unsigned long long)a);
		else
			a = l;
	}
	p->align = a;
	p->start = a;
	tail = 33ULL * p->lsec; /* the GPT backup: 32 sectors of entries (at 512) and a header */
	end = p->size > tail ? (p->size - tail) / a * a : 0;
	p->part_size = end > p->start ? end - p->start : 0;
	if (p->part_size < p->fs->min_bytes) {
		size_to_human(p->size, s1, sizeof(s1));
		size_to_human(p->fs->min_bytes + 2 * a, s2, sizeof(s2));
		str_fmt(why, whycap, "'%s' is too small: %s, %s needs %s at least", arg, s1,
			p->fs->name, s2);
		return -EINVAL;
	}
	return 0;
}

/* A disk with 4096-byte logical sectors (4Kn, or a USB bridge that shows the drive so): the
 * table counts in them and the file system's units are at least that (mkfs reads the
 * device's); planned, with a note that the same drive on SATA, NVMe or another bridge (512)
 * shows no partition at all. */
static int plan_sectors(struct prepare_plan *p, const char *arg, char *why, size_t whycap)
{
	if (p->lsec == 512)
		return 0;
	if (p->lsec != 4096) {
		str_fmt(why, whycap, "'%s' has %u-byte sectors: not a disk this can partition",
			arg, p->lsec);
		return -EINVAL;
	}
	plan_note(p, "the disk has 4096-byte logical sectors (4Kn): the table counts them%s",
		  p->disk->transport == PROBE_TRAN_USB ?
		  "; its bridge shows them, so the table is seen only through a bridge that "
		  "shows them too" : "");
	return 0;
}

/* A file system at [off, off + size) of fd (libblkid): type, label. */
static void found_probe(int fd, uint64_t off, uint64_t size, struct prepare_found *f)
{
	blkid_probe pr = blkid_new_probe();
	const char *v;

	if (!pr)
		return;
	if (blkid_probe_set_device(pr, fd, (blkid_loff_t)off, (blkid_loff_t)size))
		goto out;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL);
	if (blkid_do_safeprobe(pr))
		goto out;
	if (!blkid_probe_lookup_value(pr, "TYPE", &v, NULL))
		str_copy(f->fstype, sizeof(f->fstype), v);
	if (!blkid_probe_lookup_value(pr, "LABEL", &v, NULL))
		str_copy(f->label, sizeof(f->label), v);
	str_sanitize(f->label);
	str_sanitize(f->fstype);
out:
	blkid_free_probe(pr);
}

/* The partition table's kind, if any (libblkid's partition probe of the whole disk). */
static void table_kind(int fd, char *out, size_t cap)
{
	blkid_probe pr = blkid_new_probe();
	const char *v;

	out[0] = '\0';
	if (!pr)
		return;
	if (!blkid_probe_set_device(pr, fd, 0, 0)) {
		blkid_probe_enable_superblocks(pr, 0);
		blkid_probe_enable_partitions(pr, 1);
		if (!blkid_do_safeprobe(pr) && !blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL))
			str_copy(out, cap, v);
	}
	blkid_free_probe(pr);
}

/* What is on the disk now: its table and each partition's file system, label, size and used
 * space (ext), or a file system on the whole disk. */
static int plan_contents(struct prepare_plan *p)
{
	static struct clone_plan t;
	char why[200];
	int fd;

	fd = open(p->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	table_kind(fd, p->old_table, sizeof(p->old_table));
	memset(&t, 0, sizeof(t));
	if (p->old_table[0] && clone_table_read(p->path, &t, why, sizeof(why)) == 0) {
		for (size_t i = 0; i < t.n_parts && p->n_found < PREPARE_FOUND_MAX; i++) {
			struct prepare_found *f = &p->found[p->n_found++];
			struct clone_extinfo ei;
			char kn[80];
			size_t l = strlen(p->kname);

			str_fmt(kn, sizeof(kn), "%s%s%u", p->kname,
				l && isdigit((unsigned char)p->kname[l - 1]) ? "p" : "",
				t.parts[i].partno);
			str_fmt(f->what, sizeof(f->what), "partition %u (%s)", t.parts[i].partno, kn);
			f->size = t.parts[i].size;
			found_probe(fd, t.parts[i].start, t.parts[i].size, f);
			if (str_starts(f->fstype, "ext") &&
			    clone_ext_info(p->path, t.parts[i].start, &ei) == 0) {
				f->has_used = true;
				f->used = ei.used;
			}
		}
	} else if (!p->old_table[0]) {
		struct prepare_found f = { .size = p->size };

		struct clone_extinfo ei;

		found_probe(fd, 0, p->size, &f);
		if (str_starts(f.fstype, "ext") && clone_ext_info(p->path, 0, &ei) == 0) {
			f.has_used = true;
			f.used = ei.used;
		}
		if (f.fstype[0]) {
			str_copy(f.what, sizeof(f.what), "the whole disk");
			p->found[p->n_found++] = f;
		}
	}
	close(fd);
	return 0;
}

/* "a dos table with partition 1 (sdb1): ext4 'old' 1.0 GiB, 20 MiB used; ..." */
static void contents_text(const struct prepare_plan *p, char *buf, size_t cap)
{
	size_t l;

	if (p->old_table[0])
		str_fmt(buf, cap, "a %s partition table%s", p->old_table,
			p->n_found ? " with " : " (no partition)");
	else
		buf[0] = '\0';
	for (size_t i = 0; i < p->n_found; i++) {
		const struct prepare_found *f = &p->found[i];
		char sz[32], used[48] = "";

		size_to_human(f->size, sz, sizeof(sz));
		if (f->has_used) {
			char u[32];

			size_to_human(f->used, u, sizeof(u));
			str_fmt(used, sizeof(used), ", %s used", u);
		}
		l = strlen(buf);
		str_fmt(buf + l, cap - l, "%s%s: %s%s%s%s %s%s", i ? "; " : "", f->what,
			f->fstype[0] ? f->fstype : "no file system known",
			f->label[0] ? " '" : "", f->label, f->label[0] ? "'" : "", sz, used);
	}
}

static bool label_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
			return false;
	return true;
}

static bool mountpoint_ok(const char *s)
{
	if (s[0] != '/' || !s[1] || strstr(s, "/../") || strstr(s, "/./") ||
	    str_starts(s, "/..") || strstr(s, "//"))
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == '\\' || *s == 0x7f)
			return false;
	return true;
}

/* The mount point: a clean absolute path that nothing is mounted on, that the fstab does
 * not name yet, and that is an empty directory or not there. */
static int plan_mountpoint(struct prepare_plan *p, const struct prepare_opts *o, char *why,
			   size_t whycap)
{
	struct fstab_entry e;
	struct sbuf tab;
	struct stat st;
	size_t pos = 0;
	int ret;

	if (o->mountpoint)
		str_copy(p->mountpoint, sizeof(p->mountpoint), o->mountpoint);
	else
		str_fmt(p->mountpoint, sizeof(p->mountpoint), "/mnt/%s", p->label);
	if (!mountpoint_ok(p->mountpoint) || strlen(p->mountpoint) > 200) {
		str_fmt(why, whycap, "bad mount point '%s': an absolute path without spaces, "
			"'..' or control characters (200 bytes at most)", p->mountpoint);
		return -EINVAL;
	}
	for (size_t i = 0; i < p->inv->n_all; i++) {
		const struct blkdev *d = p->inv->all[i];

		for (size_t j = 0; j < d->n_mountpoints; j++)
			if (!strcmp(d->mountpoints[j], p->mountpoint)) {
				str_fmt(why, whycap, "the mount point %s is in use: %s is mounted "
					"there", p->mountpoint, d->kname);
				return -EINVAL;
			}
	}
	ret = sysroot_read_file(p->sr, PATH_ETC_FSTAB, FSTAB_MAX, &tab);
	if (ret == 0) {
		while ((ret = rootspec_fstab_next(sbuf_str(&tab), tab.len, &pos, &e)) != -ENOENT)
			if (ret == 0 && !strcmp(e.dir, p->mountpoint)) {
				str_fmt(why, whycap, "%s already has a line for %s (%s): choose another "
					"mount point", PATH_ETC_FSTAB, p->mountpoint, e.spec);
				sbuf_release(&tab);
				return -EINVAL;
			}
		sbuf_release(&tab);
	} else if (ret != -ENOENT) {
		str_fmt(why, whycap, "cannot read %s: %s", PATH_ETC_FSTAB, strerror(-ret));
		return ret;
	}
	if (sysroot_host_path(p->sr, p->mountpoint, p->mountpoint_at, sizeof(p->mountpoint_at)))
		return -ENAMETOOLONG;
	if (lstat(p->mountpoint_at, &st) == 0) {
		DIR *dir;
		struct dirent *de;
		bool empty = true;

		if (!S_ISDIR(st.st_mode)) {
			str_fmt(why, whycap, "the mount point %s is there and is not a directory",
				p->mountpoint);
			return -EINVAL;
		}
		dir = opendir(p->mountpoint_at);
		while (dir && (de = readdir(dir)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				empty = false;
		if (dir)
			closedir(dir);
		if (!empty) {
			str_fmt(why, whycap, "the mount point %s is not empty: its files would be "
				"hidden under the new file system", p->mountpoint);
			return -EINVAL;
		}
	}
	return 0;
}

static int plan_fs(struct prepare_plan *p, const struct prepare_opts *o, char *why,
		   size_t whycap)
{
	const char *name = o->fstype ? o->fstype : "ext4";

	p->fs = prepare_fs_find(name);
	if (!p->fs) {
		str_fmt(why, whycap, "unknown file system '%s' (ext4, f2fs, btrfs, xfs, exfat)",
			name);
		return -EINVAL;
	}
	if (!prepare_fs_available(p->fs)) {
		str_fmt(why, whycap, "%s is not installed: %s needs it (apt install %s)",
			p->fs->mkfs, p->fs->name, p->fs->package);
		return -ENOENT;
	}
	str_copy(p->label, sizeof(p->label), o->label ? o->label : "data");
	if (!label_ok(p->label) || strlen(p->label) > p->fs->label_max) {
		str_fmt(why, whycap, "bad label '%s': letters, digits, '-', '_' and '.', %u at "
			"most for %s", p->label, p->fs->label_max, p->fs->name);
		return -EINVAL;
	}
	return 0;
}

/* The ids the new disk gets, known before it is written, so the dry run shows its fstab
 * line as it will be. */
static void plan_ids(struct prepare_plan *p)
{
	clone_uuid_new(p->disk_guid, sizeof(p->disk_guid));
	clone_uuid_new(p->part_uuid, sizeof(p->part_uuid));
	/* mkfs.exfat (exfatprogs 1.2.0, Debian 12) takes no volume serial: its own, read back
	 * after mkfs */
	if (strcmp(p->fs->name, "exfat"))
		clone_uuid_new(p->fs_uuid, sizeof(p->fs_uuid));
	prepare_fstab_line(p);
}

void prepare_fstab_line(struct prepare_plan *p)
{
	str_fmt(p->fstab_line, sizeof(p->fstab_line), "UUID=%s %s %s %s 0 %u",
		p->fs_uuid[0] ? p->fs_uuid : "<set-by-mkfs>", p->mountpoint, p->fs->name,
		PREPARE_FSTAB_OPTS, p->fs->pass);
}

int prepare_plan_make(struct sysroot *sr, const struct prepare_opts *o, struct prepare_plan *p,
		      char *why, size_t whycap)
{
	char what[1024];
	int ret;

	memset(p, 0, sizeof(*p));
	p->sr = sr;
	p->loop_fd = -1;
	ret = probe_inventory_load(sr, &p->inv);
	if (ret) {
		str_fmt(why, whycap, "cannot read the block devices: %s", strerror(-ret));
		return ret;
	}
	ret = plan_disk(p, o->disk, why, whycap);
	if (!ret)
		ret = plan_unused(p, why, whycap);
	if (!ret)
		ret = plan_geometry(p, o->disk, why, whycap);
	if (!ret)
		ret = plan_fs(p, o, why, whycap);
	if (!ret)
		ret = plan_sectors(p, o->disk, why, whycap);
	if (!ret)
		ret = plan_layout(p, o->disk, why, whycap);
	if (!ret)
		ret = plan_contents(p);
	if (ret)
		return ret;
	if ((p->old_table[0] || p->n_found) && !o->wipe) {
		contents_text(p, what, sizeof(what));
		str_fmt(why, whycap, "'%s' holds %s: --wipe to erase it", o->disk, what);
		return -EINVAL;
	}
	ret = plan_mountpoint(p, o, why, whycap);
	if (ret)
		return ret;
	plan_ids(p);
	if (p->disk->size_bytes > (2ULL << 40))
		plan_note(p, "over 2 TiB: a GPT table is what such a disk needs (a DOS table "
			  "cannot address it)");
	if (!strcmp(p->fs->name, "ext4")) {
		/* mke2fs.conf's inode_ratio: small (< 512 MiB) 4096, big (>= 4 TiB) 32768, else
		 * 16384; 256 bytes an inode */
		uint64_t ratio = p->part_size < 512 * MIB ? 4096 :
				 p->part_size >= (4ULL << 40) ? 32768 : 16384;
		char t[32];

		size_to_human(p->part_size / ratio * 256, t, sizeof(t));
		plan_note(p, "ext4 is made with its inode tables (about %s) and journal written "
			  "now (lazy_itable_init=0,lazy_journal_init=0): mkfs takes longer, and no "
			  "background writes after it spoil the first bench", t);
	}
	return 0;
}

/* The contents the new table erases, for the plan ("" when the disk is empty). */
void prepare_plan_lost(const struct prepare_plan *p, char *buf, size_t cap)
{
	contents_text(p, buf, cap);
}

void prepare_plan_release(struct prepare_plan *p)
{
	if (p->loop_fd >= 0)
		close(p->loop_fd);
	p->loop_fd = -1;
	probe_inventory_free(p->inv);
	p->inv = NULL;
}
