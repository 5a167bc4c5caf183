// SPDX-License-Identifier: GPL-2.0-or-later
/* plan.c - what clone will do: the source's layout and file systems, the refusals, the
 * target's layout and new ids, and the names to rewrite. Reads only; writes nothing. */
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "boot/boot.h"
#include "clone/fs.h"
#include "common/banned.h"
#include "common/bootcfg-eval.h"
#include "common/bootloc.h"
#include "common/kcmdline.h"
#include "common/paths.h"
#include "common/rootspec.h"
#include "common/util.h"
#include "probe/probe.h"
#include "probe/ref.h"

#define TIB2	       (2ULL << 40)
#define ROOT_SLACK_MIN (256ULL << 20) /* free room left on a root grown to fit its data */

const char *clone_method_name(enum clone_method m)
{
	static const char *const names[] = { "none", "used blocks", "whole", "files" };

	return names[m];
}

/* "sda" -> "/dev/sda" when there is such a device; a path, or a file here, stays. */
/* The file system at [start, start + size) of fd: type, UUID, label (libblkid). */
void clone_part_probe(int fd, struct clone_part *cp)
{
	blkid_probe pr = blkid_new_probe();
	const char *v;

	if (!pr)
		return;
	if (blkid_probe_set_device(pr, fd, (blkid_loff_t)cp->start, (blkid_loff_t)cp->size))
		goto out;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID |
					      BLKID_SUBLKS_LABEL);
	if (blkid_do_safeprobe(pr))
		goto out;
	if (!blkid_probe_lookup_value(pr, "TYPE", &v, NULL))
		str_copy(cp->fstype, sizeof(cp->fstype), v);
	if (!blkid_probe_lookup_value(pr, "UUID", &v, NULL))
		str_copy(cp->uuid, sizeof(cp->uuid), v);
	if (!blkid_probe_lookup_value(pr, "LABEL", &v, NULL))
		str_copy(cp->label, sizeof(cp->label), v);
	str_sanitize(cp->label);
out:
	blkid_free_probe(pr);
}

/* Mount state of a source partition from one device of the inventory that holds it. */
static void part_mounted_by(struct clone_part *cp, const struct blkdev *d, bool live)
{
	size_t i;

	for (i = 0; i < d->n_mountpoints; i++) {
		struct statvfs sv;

		cp->mounted = true;
		str_copy(cp->mountpoint, sizeof(cp->mountpoint), d->mountpoints[i]);
		if (!strcmp(d->mountpoints[i], "[SWAP]")) {
			cp->mounted_rw = true;
			continue;
		}
		/* unknown on a captured tree: read-write, the careful guess */
		if (!live || statvfs(d->mountpoints[i], &sv) || !(sv.f_flag & ST_RDONLY)) {
			cp->mounted_rw = true;
			return;
		}
	}
	if (d->is_root)
		cp->is_root = true;
}

/* The source partition's own device, for verify's read-only mount, when the kernel's
 * partition is where the table says and nothing has it mounted. */
static void part_dev(struct sysroot *sr, const struct blkdev *c, struct clone_part *cp)
{
	char attr[PATH_MAX];
	uint64_t start;

	if (!sysroot_is_live(sr) || c->n_mountpoints ||
	    str_fmt(attr, sizeof(attr), "%s/start", c->syspath) ||
	    sysroot_read_u64(sr, attr, &start) || start * 512 != cp->start ||
	    str_fmt(cp->s_dev, sizeof(cp->s_dev), "%s%s", PATH_DEV_PREFIX, c->kname) ||
	    access(cp->s_dev, F_OK))
		cp->s_dev[0] = '\0';
}

/* Loop devices over the source's bytes (a file or a device, by identity, whatever name it
 * was given, through other loop devices too): a partition of it mounted through one. */
static void loops_over(struct sysroot *sr, const struct inventory *inv, struct clone_plan *p)
{
	struct probe_reach *rs = malloc(sizeof(*rs)), *r = malloc(sizeof(*r));
	size_t i, j, k, m;

	if (!rs || !r || probe_reach_ref(sr, inv, &p->src_ref, rs))
		goto out;
	for (i = 0; i < inv->n_all; i++) {
		const struct blkdev *d = inv->all[i];

		if (!d->backing_file[0] || (p->src_ref.kind == PROBE_REF_BLOCK &&
					    d == p->src_ref.dev))
			continue;
		probe_reach_blkdev(sr, inv, d, r);
		for (k = 0; k < r->n; k++) {
			const struct probe_extent *e = &r->e[k];

			for (m = 0; m < rs->n; m++) {
				const struct probe_extent *se = &rs->e[m];

				if (e->container || se->container || e->file != se->file ||
				    e->dev != se->dev || (e->file && e->ino != se->ino) ||
				    e->off < se->off)
					continue;
				for (j = 0; j < p->n_parts; j++)
					if (p->parts[j].start == e->off - se->off)
						part_mounted_by(&p->parts[j], d,
								sysroot_is_live(sr));
			}
		}
	}
out:
	free(rs);
	free(r);
}

/* The one in-use oracle (probe/ref.h): the target, a partition of it, a device built on it,
 * a loop device over it or over the same file and bytes, mounted, swap or held: -EINVAL with
 * the reason, the target named as the user did. */
static bool image_locked(const struct probe_ref *ref)
{
	int fd = open(ref->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	bool held;

	if (fd < 0)
		return false;
	held = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

static int target_check_unused(struct sysroot *sr, const struct inventory *inv,
			       const struct probe_ref *ref, char *why, size_t whycap)
{
	char what[400];
	int ret;

	ret = probe_ref_in_use(sr, inv, ref, what, sizeof(what));
	if (!ret)
		return 0;
	/* another clone's loop device over the image is held: its lock says whose it is */
	if (ret == -EBUSY && ref->kind == PROBE_REF_FILE && image_locked(ref))
		str_fmt(why, whycap, "target '%s' is being written by another clone (it holds the "
			"image's lock): not writing to it", ref->shown);
	else if (ret == -EBUSY && str_starts(what, "it holds"))
		str_fmt(why, whycap, "'%s' %s", ref->shown, what + 3);
	else if (ret == -EBUSY)
		str_fmt(why, whycap, "'%s' is in use: %s", ref->shown, what);
	else
		str_fmt(why, whycap, "target '%s': %s", ref->shown, what);
	return -EINVAL;
}

static int open_side(const char *path, bool must_exist, struct stat *st, uint64_t *size,
		     char *why, size_t whycap, const char *role)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		if (e == ENOENT && !must_exist)
			return -ENOENT;
		str_fmt(why, whycap, "%s '%s': %s", role, path,
			e == ENOENT ? "no such disk or file" : strerror(e));
		return -e;
	}
	if (clone_fd_size(fd, st, size)) {
		str_fmt(why, whycap, "%s '%s' is not a disk or an image file", role, path);
		close(fd);
		return -EINVAL;
	}
	close(fd);
	return 0;
}

/* The source, resolved once: the one named, or the disk that holds the running root. */
static int source_resolve(struct sysroot *sr, const struct inventory *inv,
			  const struct clone_opts *o, struct clone_plan *p, char *why,
			  size_t whycap)
{
	char name[PATH_MAX], what[PATH_MAX + 128];
	int ret;

	if (o->source) {
		ret = probe_ref_resolve(sr, inv, o->source, 0, &p->src_ref, what, sizeof(what));
	} else if (!inv->root) {
		str_fmt(why, whycap, "cannot tell which disk holds the running system: name the "
			"SOURCE");
		return -EINVAL;
	} else {
		str_copy(name, sizeof(name), probe_blkdev_disk(inv->root)->kname);
		ret = probe_ref_resolve(sr, inv, name, 0, &p->src_ref, what, sizeof(what));
	}
	if (ret) {
		str_fmt(why, whycap, "source %s", what);
		return -EINVAL;
	}
	if (str_copy(p->src_path, sizeof(p->src_path), p->src_ref.path))
		return -ENAMETOOLONG;
	return 0;
}

/* The target, resolved once: a disk by any of its names, an image file (to be made). */
static int target_resolve(struct sysroot *sr, const struct inventory *inv,
			  const struct clone_opts *o, struct clone_plan *p, char *why,
			  size_t whycap)
{
	char what[PATH_MAX + 128];
	struct stat st;

	/* an image is written only where it is named, never through a link (O_NOFOLLOW); a
	 * link to a disk (/dev/disk/by-id/...) is how disks are named */
	if (!lstat(o->target, &st) && S_ISLNK(st.st_mode) &&
	    (stat(o->target, &st) || !S_ISBLK(st.st_mode))) {
		str_fmt(why, whycap, "target '%s' is a symbolic link: name the image file itself",
			o->target);
		return -EINVAL;
	}
	if (probe_ref_resolve(sr, inv, o->target, PROBE_REF_MAY_BE_NEW, &p->dst_ref, what,
			      sizeof(what))) {
		str_fmt(why, whycap, "target %s", what);
		return -EINVAL;
	}
	if (p->dst_ref.kind == PROBE_REF_DIR) {
		str_fmt(why, whycap, "target '%s' is a directory: name a disk or an image file",
			o->target);
		return -EINVAL;
	}
	if (p->dst_ref.kind == PROBE_REF_NEW || p->dst_ref.kind == PROBE_REF_FILE) {
		/* the name as given: the image is made there (O_NOFOLLOW) */
		if (str_copy(p->dst_path, sizeof(p->dst_path), o->target))
			return -ENAMETOOLONG;
	} else if (str_copy(p->dst_path, sizeof(p->dst_path), p->dst_ref.path)) {
		return -ENAMETOOLONG;
	}
	return 0;
}

static void extent_name(const struct probe_extent *e, char *buf, size_t cap)
{
	if (e->what[0])
		str_copy(buf, cap, e->what);
	else
		str_fmt(buf, cap, "device %u:%u", major(e->dev), minor(e->dev));
}

/* A target whose bytes are the source's, or the other way round, through partitions, loop
 * devices, holders or a file system of the other: refused before anything is read. Either
 * side not there, or not a disk or file, is left to plan_source and plan_target to say. */
static int plan_overlap(struct sysroot *sr, const struct inventory *inv, struct clone_plan *p,
			const struct clone_opts *o, char *why, size_t whycap)
{
	const struct probe_extent *es, *et;
	struct probe_reach rs, rt;
	char name[128], at[32];

	if (probe_reach_ref(sr, inv, &p->src_ref, &rs) ||
	    probe_reach_ref(sr, inv, &p->dst_ref, &rt))
		return 0;
	if (!probe_reach_overlap(&rs, &rt, &es, &et)) {
		if (!rs.truncated && !rt.truncated)
			return 0;
		/* a loop device over something not known, or too many layers: not written */
		str_fmt(why, whycap, "cannot tell whether the target overlaps the source: %s "
			"reaches through loop devices or holders not followed to their end",
			rs.truncated ? p->src_path : o->target);
		return -EINVAL;
	}
	extent_name(es->container ? es : et, name, sizeof(name));
	if (et->container && !es->container)
		str_fmt(why, whycap, "target '%s' is on a file system of the source (on '%s'): the "
			"image would be copied into itself; put it on another disk", o->target,
			name);
	else if (es->container && !et->container)
		str_fmt(why, whycap, "source '%s' is a file on the target (its file system is on "
			"'%s'): writing the target would destroy it", p->src_path, name);
	else {
		size_to_human(es->off > et->off ? es->off : et->off, at, sizeof(at));
		str_fmt(why, whycap, "target '%s' is the source, or overlaps it: both reach '%s' "
			"(its bytes from %s on)", o->target, name, at);
	}
	return -EINVAL;
}

/* The source: its table, file systems, mount state, kernel names. */
static int plan_source(struct sysroot *sr, const struct inventory *inv, const struct clone_opts *o,
		       struct clone_plan *p, char *why, size_t whycap)
{
	const struct blkdev *disk = NULL;
	struct stat st;
	size_t i;
	int fd, ret;

	ret = open_side(p->src_path, true, &st, &p->src_size, why, whycap, "source");
	if (ret)
		return ret == -EINVAL || ret == -ENOENT ? -EINVAL : ret;
	p->src_is_file = S_ISREG(st.st_mode);
	if (!p->src_is_file) {
		const struct blkdev *d = probe_inventory_find_devno(inv, major(st.st_rdev),
								      minor(st.st_rdev));

		if (d && d->is_partition) {
			str_fmt(why, whycap, "source '%s' is a partition: name the whole disk "
				"(e.g. '%s')", p->src_path, d->disk ? d->disk->kname : "sda");
			return -EINVAL;
		}
		disk = d;
		if (d)
			str_copy(p->src_disk, sizeof(p->src_disk), d->kname);
	}
	if (o->whole) {
		p->whole = true;
		p->copy_bytes = p->src_size;
		p->need_bytes = p->src_size;
		return 0;
	}
	ret = clone_table_read(p->src_path, p, why + 0, whycap);
	if (ret) {
		char tmp[300];

		str_copy(tmp, sizeof(tmp), why);
		str_fmt(why, whycap, "source '%s': %s", p->src_path, tmp);
		return -EINVAL;
	}
	fd = open(p->src_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		str_fmt(why, whycap, "source '%s': %s", p->src_path, strerror(errno));
		return -errno;
	}
	for (i = 0; i < p->n_parts; i++) {
		struct clone_part *cp = &p->parts[i];

		clone_part_probe(fd, cp);
		cp->fs = clone_fs_of(cp->fstype);
		if (disk) {
			for (size_t j = 0; j < disk->n_children; j++) {
				const struct blkdev *c = disk->children[j];

				if (c->is_partition && c->has_partn && c->partn == cp->partno) {
					str_copy(cp->name, sizeof(cp->name), c->kname);
					part_mounted_by(cp, c, sysroot_is_live(sr));
					if (c->is_boot)
						cp->is_boot = true;
					part_dev(sr, c, cp);
				}
			}
		}
	}
	close(fd);
	loops_over(sr, inv, p);
	return 0;
}

/* A disk target the copy can be written to: not read-only. Its logical sector size is kept
 * in p->dst_sector: a disk whose sectors differ from the source's (a 4Kn disk, as some USB
 * bridges present) gets the layout in its own sectors (plan_sectors); only --whole, which
 * copies the source's table as it is, is refused here, in the dry run, never after a copy. */
static int target_geometry(struct clone_plan *p, const char *shown, char *why, size_t whycap)
{
	int fd = open(p->dst_path, O_RDONLY | O_CLOEXEC), ro = 0, ssz = 512;
	unsigned src;

	if (fd < 0) {
		str_fmt(why, whycap, "target '%s': %s", shown, strerror(errno));
		return -EINVAL;
	}
	if (ioctl(fd, BLKROGET, &ro))
		ro = 0;
	if (ioctl(fd, BLKSSZGET, &ssz) || ssz < 512)
		ssz = 512;
	close(fd);
	if (ro) {
		str_fmt(why, whycap, "target '%s' is read-only (a write-protect switch, or the "
			"kernel set it so): nothing was written", shown);
		return -EROFS;
	}
	p->dst_sector = (unsigned)ssz;
	if (!p->whole)
		return 0;
	src = 512;
	if (!p->src_is_file) { /* --whole: the source disk's own */
		fd = open(p->src_path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && !ioctl(fd, BLKSSZGET, &ssz) && ssz >= 512)
			src = (unsigned)ssz;
		if (fd >= 0)
			close(fd);
	}
	if (p->dst_sector != src) {
		str_fmt(why, whycap, "target '%s' has %u-byte logical sectors, the source %u: a "
			"copy of every block (--whole) keeps the source's table, which would not "
			"fit them (nothing was written); without --whole the copy is laid out in "
			"the target's sectors", shown, p->dst_sector, src);
		return -EINVAL;
	}
	return 0;
}

static int plan_target(struct sysroot *sr, const struct inventory *inv,
		       const struct clone_opts *o, struct clone_plan *p, char *why, size_t whycap)
{
	const struct probe_ref *t = &p->dst_ref;
	struct stat st;
	int ret;

	ret = open_side(p->dst_path, false, &st, &p->dst_size, why, whycap, "target");
	if (ret == -ENOENT && t->kind == PROBE_REF_NEW) {
		p->dst_is_file = true;
		return 0;
	}
	if (ret)
		return ret == -EINVAL || ret == -ENOENT ? -EINVAL : ret;
	if (S_ISBLK(st.st_mode) ? t->kind != PROBE_REF_BLOCK || st.st_rdev != t->devno
				 : t->kind != PROBE_REF_FILE || st.st_ino != t->st_ino ||
					   st.st_dev != t->st_dev) {
		str_fmt(why, whycap, "target '%s' changed while it was planned: not writing to it",
			o->target);
		return -EINVAL;
	}
	p->dst_exists = true;
	p->dst_is_file = S_ISREG(st.st_mode);
	if (!p->dst_is_file) {
		if (!t->dev) {
			str_fmt(why, whycap, "target '%s': cannot tell whether it is in use: "
				"not writing to it", o->target);
			return -EINVAL;
		}
		if (t->is_partition) {
			const struct blkdev *w = t->disk ? t->disk : t->dev;

			if (probe_ref_same_disk(t, &p->src_ref))
				str_fmt(why, whycap, "target '%s' is a partition of the source",
					o->target);
			else
				str_fmt(why, whycap, "target '%s' is a partition: name the whole "
					"disk ('%s')", o->target, w->kname);
			return -EINVAL;
		}
		str_copy(p->dst_disk, sizeof(p->dst_disk), t->dev->kname);
		ret = target_geometry(p, o->target, why, whycap);
		if (ret)
			return ret;
	}
	/* a disk, or an image file, that something uses: through its partitions, holders,
	 * loop devices over it or over the same file and bytes, wherever they are mounted */
	return target_check_unused(sr, inv, t, why, whycap);
}

/* Which partition is the root, which the boot partition; refuse what is not understood. */
static int plan_roles(struct clone_plan *p, char *why, size_t whycap)
{
	size_t i, n_roots = 0;
	int first_root = -1;

	p->root = p->boot = -1;
	for (i = 0; i < p->n_parts; i++) {
		if (p->parts[i].fs->boot_files && p->boot < 0)
			p->boot = (int)i;
		if (p->parts[i].fs->can_be_root) {
			if (first_root < 0)
				first_root = (int)i;
			n_roots++;
		}
		if (p->parts[i].is_root)
			p->root = (int)i;
	}
	if (p->root < 0 && n_roots == 1)
		p->root = first_root;
	return 0;
	(void)why;
	(void)whycap;
}

/* The root named by cmdline.txt's root=, when several partitions could be it. */
static int plan_root_from_cmdline(struct clone_plan *p, const char *text, size_t len, char *why,
				  size_t whycap)
{
	size_t voff, vlen, i, n_roots = 0;
	struct rootspec rs;

	for (i = 0; i < p->n_parts; i++)
		n_roots += p->parts[i].fs->can_be_root;
	if (p->root >= 0 || n_roots <= 1)
		return 0;
	if (text && !rootspec_cmdline_root(text, kcmdline_first_line(text, len), &voff, &vlen) &&
	    !rootspec_parse(text + voff, vlen, &rs)) {
		for (i = 0; i < p->n_parts; i++) {
			struct clone_part *cp = &p->parts[i];
			struct rootspec_part rp = { .name = cp->name, .partuuid = cp->partuuid,
						    .uuid = cp->uuid, .label = cp->label,
						    .partlabel = cp->partlabel };

			if (cp->fs->can_be_root && rootspec_matches(&rs, &rp)) {
				p->root = (int)i;
				return 0;
			}
		}
	}
	str_fmt(why, whycap, "source '%s' has %zu root candidates (ext partitions) and root= "
		"names none of them: not understood; --whole copies every block as it is",
		p->src_path, n_roots);
	return -EINVAL;
}

static void plan_ids(const struct inventory *inv, struct clone_plan *p)
{
	bool gpt = !strcmp(p->dst_label, "gpt");
	uint32_t id = 0;
	size_t i;

	(void)inv;
	if (gpt) {
		clone_uuid_new(p->dst_id, sizeof(p->dst_id));
	} else {
		while (!id || (p->src_id[0] && id == strtoul(p->src_id, NULL, 16)))
			clone_random(&id, sizeof(id));
		str_fmt(p->dst_id, sizeof(p->dst_id), "0x%08x", id);
	}
	for (i = 0; i < p->n_parts; i++) {
		struct clone_part *cp = &p->parts[i];

		if (gpt)
			clone_uuid_new(cp->t_partuuid, sizeof(cp->t_partuuid));
		else
			str_fmt(cp->t_partuuid, sizeof(cp->t_partuuid), "%08x-%02x", id,
				cp->partno);
		if (cp->fs->new_id)
			cp->fs->new_id(cp);
	}
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* Two sizes for a "too small" message: rounded (200M), or in bytes where rounded they
 * read the same (a target one sector short) */
static void sizes_apart(uint64_t x, uint64_t y, char *a, char *b, size_t cap)
{
	size_to_human(x, a, cap);
	size_to_human(y, b, cap);
	if (strcmp(a, b))
		return;
	str_fmt(a, cap, "%llu bytes", (unsigned long long)x);
	str_fmt(b, cap, "%llu bytes", (unsigned long long)y);
}

/* Where each partition goes and how big it is; the smallest target that holds it. */
static int plan_layout(const struct clone_opts *o, struct clone_plan *p, char *why,
		       size_t whycap)
{
	bool keep = true, gpt;
	uint64_t at = CLONE_ALIGN, tail, end;
	size_t i, last = p->n_parts - 1;

	for (i = 0; i < p->n_parts; i++)
		if (p->parts[i].start % (1U << 20) ||
		    (i && p->parts[i].start < p->parts[i - 1].start + p->parts[i - 1].size))
			keep = false;
	for (i = 0; i < p->n_parts; i++) {
		struct clone_part *cp = &p->parts[i];

		cp->t_start = keep ? cp->start : at;
		cp->t_size = cp->size;
		at = align_up(cp->t_start + cp->t_size, CLONE_ALIGN);
	}
	/* the root, when it is last, grows to the end or to --root-size */
	if (p->root == (int)last) {
		struct clone_part *r = &p->parts[last];
		uint64_t min = r->has_used ? r->used + ROOT_SLACK_MIN : r->size;

		if (r->method == CLONE_BY_USED || r->method == CLONE_BY_WHOLE)
			min = r->size; /* its blocks keep their offsets: never smaller */
		else if (!r->mounted && min > r->size)
			min = r->size; /* remade in the target's sectors: as the source held it */
		if (o->has_root_size) {
			if (o->root_size < min) {
				char a[32], b[32];

				size_to_human(o->root_size, a, sizeof(a));
				size_to_human(min, b, sizeof(b));
				str_fmt(why, whycap, "--root-size %s is smaller than the root needs "
					"(%s%s)", a, b, r->method != CLONE_BY_FILES ?
					", its file system's size: a block copy never shrinks" : "");
				return -EINVAL;
			}
			r->t_size = align_up(o->root_size, 1U << 20);
		} else {
			r->t_size = min;
		}
	}
	gpt = !strcmp(p->src_label, "gpt");
	tail = gpt ? (1U << 20) : 0;
	p->need_bytes = p->parts[last].t_start + p->parts[last].t_size + tail;
	if (!p->dst_exists) {
		p->dst_size = p->need_bytes;
	} else if (p->dst_size < p->need_bytes) {
		char a[32], b[32];

		sizes_apart(p->dst_size, p->need_bytes, a, b, sizeof(a));
		str_fmt(why, whycap, "target '%s' is too small: %s, the layout needs %s",
			o->target, a, b);
		return -EINVAL;
	}
	str_copy(p->dst_label, sizeof(p->dst_label), p->src_label);
	if (!gpt && p->dst_size > TIB2) {
		str_copy(p->dst_label, sizeof(p->dst_label), "gpt");
		p->label_changed = true;
	}
	if (!strcmp(p->dst_label, "gpt"))
		tail = 1U << 20;
	/* grow the last partition to the end of the target: the root unless its size was
	 * given, or a file system after it that grows (a data partition) */
	if ((p->root == (int)last && !o->has_root_size) ||
	    (p->root != (int)last && p->parts[last].method == CLONE_BY_USED &&
	     p->parts[last].fs->grow)) {
		struct clone_part *r = &p->parts[last];

		end = (p->dst_size - tail) / (1U << 20) * (1U << 20);
		if (!strcmp(p->dst_label, "dos") && end > TIB2)
			end = TIB2;
		if (end > r->t_start + r->t_size)
			r->t_size = end - r->t_start;
	}
	return 0;
}

/* Bytes in use on a mounted file system, as the kernel counts them now; 0 when unknown. */
static uint64_t live_used(const char *dir)
{
	struct statvfs sv;

	if (statvfs(dir, &sv) || sv.f_blocks < sv.f_bfree)
		return 0;
	return (uint64_t)(sv.f_blocks - sv.f_bfree) * sv.f_frsize;
}

static int plan_methods(const struct clone_opts *o, struct clone_plan *p, char *why,
			size_t whycap)
{
	size_t i;

	for (i = 0; i < p->n_parts; i++) {
		struct clone_part *cp = &p->parts[i];

		if (cp->mounted_rw && cp->fs->make && cp->mountpoint[0] == '/' &&
		    !o->allow_live_blocks) {
			/* a changing file system: its files, into a fresh one, twice */
			cp->method = CLONE_BY_FILES;
			if (cp->fs->used(p->src_path, cp->start, &cp->used) == 0)
				cp->has_used = true;
			/* mounted, the superblock's free count lags the kernel's */
			if (live_used(cp->mountpoint) > cp->used) {
				cp->has_used = true;
				cp->used = live_used(cp->mountpoint);
			}
			cp->copy_bytes = cp->used;
			p->copy_bytes += cp->copy_bytes;
			continue;
		}
		if (cp->mounted_rw && !o->allow_live_blocks) {
			if (!cp->fs->live_blocks) {
				str_fmt(why, whycap, "source partition %u (%s) is mounted read-write "
					"on %s: a block copy of it would not be consistent; "
					"unmount it, remount it read-only, or give "
					"--allow-live-blocks", cp->partno,
					cp->fstype[0] ? cp->fstype : "unknown", cp->mountpoint);
				return -EINVAL;
			}
		}
		cp->fs->plan(p, cp);
		p->copy_bytes += cp->copy_bytes;
	}
	return 0;
}

/* A target whose logical sectors differ from the source's (a 4Kn disk behind a USB bridge,
 * or a 4Kn source copied to a 512-byte disk): the table counts the target's sectors at the
 * same byte offsets (table.c); a file system whose own unit (FAT's bytes per sector, ext's
 * block) is smaller than the target's sectors cannot be mounted there, so a fresh one is
 * made with units of the target's sector size and the files are copied into it
 * (CLONE_BY_FILES). The plan's note says so in one line. */
static int plan_sectors(struct clone_plan *p, char *why, size_t whycap)
{
	unsigned ss = p->dst_sector ? p->dst_sector : 512, src = p->sector ? p->sector : 512;
	size_t len;

	if (ss == src)
		return 0;
	str_fmt(p->sectors_note, sizeof(p->sectors_note), "the target has %u-byte logical "
		"sectors, the source %u: the table in %u-byte sectors at the same byte offsets",
		ss, src, ss);
	for (size_t i = 0; i < p->n_parts; i++) {
		struct clone_part *cp = &p->parts[i];
		unsigned unit = cp->fs->unit ? cp->fs->unit(p->src_path, cp->start) : 0;

		if (cp->start % ss || cp->size % ss) {
			str_fmt(why, whycap, "target '%s' has %u-byte logical sectors and "
				"source p%u (at %llu bytes, %llu long) is not a whole number of "
				"them: its table could not say where it is (nothing was written)",
				p->dst_path, ss, cp->partno, (unsigned long long)cp->start,
				(unsigned long long)cp->size);
			return -EINVAL;
		}
		if (!unit || unit >= ss || cp->method == CLONE_BY_NONE)
			continue;
		if (!cp->fs->copy_files && !cp->fs->make) {
			str_fmt(why, whycap, "target '%s' has %u-byte logical sectors and "
				"source p%u (%s) has %u-byte units, which cannot be remade: not "
				"copied (nothing was written)", p->dst_path, ss, cp->partno,
				cp->fstype, unit);
			return -EINVAL;
		}
		if (cp->journal_dirty && !cp->mounted) {
			/* its files read from a mount that replays nothing would miss it */
			str_fmt(why, whycap, "target '%s' has %u-byte logical sectors: source p%u "
				"is copied by its files into a new %s, and its journal needs "
				"recovery; repair the source first (e2fsck -f, unmounted); nothing "
				"was written", p->dst_path, ss, cp->partno, cp->fstype);
			return -EINVAL;
		}
		if (cp->method != CLONE_BY_FILES) {
			p->copy_bytes -= cp->copy_bytes;
			cp->method = CLONE_BY_FILES;
			cp->copy_bytes = cp->has_used ? cp->used : cp->size;
			p->copy_bytes += cp->copy_bytes;
		}
		cp->t_unit = ss;
		len = strlen(p->sectors_note);
		str_fmt(p->sectors_note + len, sizeof(p->sectors_note) - len, "; p%u (%s of "
			"%u-byte %s) made anew with %u-byte ones, its files copied", cp->partno,
			cp->fstype, unit, cp->fs->copy_files ? "sectors" : "blocks", cp->t_unit);
	}
	return 0;
}

/* What the plan says of a source ext file system that was not cleanly unmounted or that
 * recorded errors: the copy carries the errors, and it is the source that needs the repair. */
static void plan_ext_warnings(struct clone_plan *p)
{
	for (size_t i = 0; i < p->n_parts && p->n_warnings < 4; i++) {
		const struct clone_part *cp = &p->parts[i];

		if (cp->journal_dirty && cp->method == CLONE_BY_WHOLE)
			str_fmt(p->warnings[p->n_warnings++], sizeof(p->warnings[0]),
				"p%u's journal needs recovery (%s): copied whole, the journal "
				"replayed on the copy only", cp->partno, cp->mounted_rw ?
				"mounted read-write" : "not cleanly unmounted");
		if (cp->fs_errors && p->n_warnings < 4)
			str_fmt(p->warnings[p->n_warnings++], sizeof(p->warnings[0]),
				"p%u's file system recorded errors: the copy has them too; "
				"repair the source first (e2fsck -f, unmounted)", cp->partno);
	}
}

/* The source's extlinux.conf, where U-Boot's distro boot looks (each partition in turn,
 * boot/'s paths) and a Jetson's loader does (the root file system's /boot/extlinux): its
 * text in out, the partition in p->extlinux_part. -ENOENT when there is none. */
static int plan_extlinux_find(struct clone_plan *p, struct sbuf *out)
{
	static const char *const paths[] = PATH_EXTLINUX_CONFS;

	p->extlinux_part = -1;
	for (size_t i = 0; i < p->n_parts; i++) {
		const struct clone_part *cp = &p->parts[i];

		if (!cp->fs->read_file)
			continue;
		for (size_t j = 0; j < ARRAY_SIZE(paths); j++) {
			int ret;

			out->len = 0;
			ret = cp->fs->read_file(p->src_path, cp->start, paths[j], CLONE_TEXT_MAX,
						out);
			if (ret == -ENOMEM)
				return ret;
			if (ret)
				continue;
			p->extlinux_part = (int)i;
			str_copy(p->extlinux_path, sizeof(p->extlinux_path), paths[j]);
			return 0;
		}
	}
	return -ENOENT;
}

/* Where file (read through its links) is on cp's file system: the path written on the
 * target, which is written without following a link (a link there may lead anywhere). */
static int plan_file_at(struct clone_plan *p, const struct clone_part *cp, const char *file,
			char *at, size_t cap, char *why, size_t whycap)
{
	int ret;

	if (!cp->fs->resolve)
		return str_copy(at, cap, file) ? -ENAMETOOLONG : 0; /* FAT has no links */
	ret = cp->fs->resolve(p->src_path, cp->start, file, at, cap);
	if (ret)
		str_fmt(why, whycap, "source p%u: cannot tell which file %s is (%s): it could "
			"not be rewritten on the target", cp->partno, file, strerror(-ret));
	return ret;
}

/* config.txt and its includes, read from the source's boot partition */
struct boot_src {
	const struct clone_plan *p;
	const struct clone_part *cp;
};

static int boot_src_read(void *arg, const char *name, size_t cap, struct sbuf *out)
{
	const struct boot_src *bs = arg;

	sbuf_init(out, cap);
	return bs->cp->fs->read_file(bs->p->src_path, bs->cp->start, name, cap, out);
}

/* The boot files and fstab of the source, and their rewrites for the target. */
static int plan_rewrites(struct clone_plan *p, char *why, size_t whycap)
{
	struct sbuf cmd = SBUF_INIT(CLONE_TEXT_MAX), tab = SBUF_INIT(CLONE_TEXT_MAX);
	struct sbuf ext = SBUF_INIT(CLONE_TEXT_MAX);
	const struct clone_part *boot = p->boot >= 0 ? &p->parts[p->boot] : NULL;
	const struct clone_part *root = p->root >= 0 ? &p->parts[p->root] : NULL;
	int ret = 0;

	if (boot) {
		/* the file the firmware reads: config.txt (and its includes) read for this
		 * board with the firmware's rules, os_prefix and cmdline= applied */
		struct boot_src bs = { .p = p, .cp = boot };
		struct config_source src = { .read = boot_src_read, .arg = &bs };
		char cwhy[256];

		ret = boot_loc_cmdline_name(&src, &p->board, p->cmdline_file,
					    sizeof(p->cmdline_file), cwhy, sizeof(cwhy));
		if (ret == -ENOMEM)
			goto out;
		if (ret) {
			str_fmt(why, whycap, "source '%s': which command line file the firmware "
				"reads is not known: %s%s", p->src_path, cwhy, ret == -EAGAIN &&
				!p->board.has_type ? " (name the board the copy is for with "
				"--board)" : "");
			goto out;
		}
		sbuf_reset(&cmd);
	}
	if (boot &&
	    boot->fs->read_file(p->src_path, boot->start, p->cmdline_file, CLONE_TEXT_MAX,
				&cmd) == 0) {
		ret = plan_root_from_cmdline(p, cmd.buf, cmd.len, why, whycap);
		if (ret)
			goto out;
		ret = clone_rewrite_text(p, p->cmdline_file, CLONE_TEXT_CMDLINE,
					 cmd.buf ? cmd.buf : "", cmd.len, &p->cmdline_new,
					 &p->cmdline_len);
		if (ret)
			goto out;
	} else {
		ret = plan_root_from_cmdline(p, NULL, 0, why, whycap);
		if (ret)
			goto out;
	}
	if (root && root->fs->can_be_root &&
	    root->fs->read_file(p->src_path, root->start, "/etc/fstab", CLONE_TEXT_MAX,
				&tab) == 0) {
		ret = plan_file_at(p, &p->parts[p->root], "/etc/fstab", p->fstab_at,
				   sizeof(p->fstab_at), why, whycap);
		if (!ret)
			ret = clone_rewrite_text(p, "/etc/fstab", CLONE_TEXT_FSTAB,
						 tab.buf ? tab.buf : "", tab.len, &p->fstab_new,
						 &p->fstab_len);
	}
	if (!ret && plan_extlinux_find(p, &ext) == 0) {
		ret = plan_file_at(p, &p->parts[p->extlinux_part], p->extlinux_path,
				   p->extlinux_at, sizeof(p->extlinux_at), why, whycap);
		if (!ret)
			ret = clone_rewrite_text(p, p->extlinux_path, CLONE_TEXT_EXTLINUX,
						 sbuf_str(&ext), ext.len, &p->extlinux_new,
						 &p->extlinux_len);
	}
out:
	sbuf_release(&cmd);
	sbuf_release(&tab);
	sbuf_release(&ext);
	return ret;
}

/* Can the target disk have partition devices (a loop device without partscan cannot)? */
static bool target_has_parts(struct clone_plan *p)
{
	char attr[PATH_MAX];
	uint64_t v;

	if (p->dst_is_file || !p->dst_disk[0])
		return false;
	if (!str_fmt(attr, sizeof(attr), "%s/%s/partscan", PATH_SYS_BLOCK, p->dst_disk) &&
	    !sysroot_read_u64(p->sr, attr, &v))
		return v == 1;
	return !str_fmt(attr, sizeof(attr), "%s/%s/ext_range", PATH_SYS_BLOCK, p->dst_disk) &&
	       !sysroot_read_u64(p->sr, attr, &v) && v > 1;
}

/* Loop devices where there are no partition devices: an image target, and the source's
 * ext partitions that verify mounts. Without the loop driver (a module, its node made by
 * systemd) --apply would fail after the whole copy: it is loaded now (modprobe), or the
 * plan says so. */
static int plan_loops(const struct clone_opts *o, struct clone_plan *p, char *why,
		      size_t whycap)
{
	const char *what = NULL;
	const char *mp[] = { "modprobe", "loop", NULL };
	int ret, status;

	if (!target_has_parts(p))
		what = p->dst_is_file ? "for the image's partitions" :
					"for the target's partitions";
	for (size_t i = 0; !what && i < p->n_parts; i++)
		if (p->parts[i].method == CLONE_BY_USED && !p->parts[i].s_dev[0])
			what = "for the source's partitions";
	if (!what || !sysroot_is_live(p->sr))
		return 0;
	ret = clone_loop_usable();
	if (ret && o->apply && clone_run(mp, NULL, false, &status) == 0 && status == 0)
		ret = clone_loop_usable();
	if (!ret)
		return 0;
	if (o->apply) {
		str_fmt(why, whycap, "loop devices are needed %s and %s: %s; load the loop "
			"driver (modprobe loop)", what, PATH_LOOP_CONTROL, strerror(-ret));
		return -EINVAL;
	}
	if (p->n_warnings < 4)
		str_fmt(p->warnings[p->n_warnings++], sizeof(p->warnings[0]),
			"loop devices are needed %s and %s: %s; --apply loads the loop driver "
			"(modprobe loop)", what, PATH_LOOP_CONTROL, strerror(-ret));
	return 0;
}

int clone_plan_make(struct sysroot *sr, const struct clone_opts *o, struct clone_plan *p,
		    char *why, size_t whycap)
{
	struct inventory *inv = NULL;
	int ret;

	memset(p, 0, sizeof(*p));
	p->sr = sr;
	if (o->has_board)
		p->board = o->board;
	else
		config_board_read(sr, &p->board);
	p->dst_fd = -1;
	p->root = p->boot = p->extlinux_part = -1;
	ret = probe_inventory_load(sr, &inv);
	p->inv = inv;
	if (ret) {
		str_fmt(why, whycap, "cannot read the block devices: %s", strerror(-ret));
		return ret;
	}
	ret = source_resolve(sr, inv, o, p, why, whycap);
	if (!ret)
		ret = target_resolve(sr, inv, o, p, why, whycap);
	if (ret)
		goto out;
	ret = plan_overlap(sr, inv, p, o, why, whycap);
	if (!ret)
		ret = plan_source(sr, inv, o, p, why, whycap);
	if (ret)
		goto out;
	ret = plan_target(sr, inv, o, p, why, whycap);
	if (ret)
		goto out;
	if (p->whole) {
		if (!p->dst_exists)
			p->dst_size = p->src_size;
		if (p->dst_size < p->src_size) {
			char a[32], b[32];

			sizes_apart(p->dst_size, p->src_size, a, b, sizeof(a));
			str_fmt(why, whycap, "target '%s' is too small: %s, the source is %s",
				o->target, a, b);
			ret = -EINVAL;
		}
		goto out;
	}
	ret = plan_roles(p, why, whycap);
	if (!ret)
		ret = plan_methods(o, p, why, whycap);
	if (!ret)
		ret = plan_sectors(p, why, whycap);
	if (!ret) /* before the boot files are read: without mtools they would seem absent */
		ret = clone_tools_check(p, why, whycap);
	if (!ret)
		ret = plan_rewrites(p, why, whycap); /* may settle the root from root= */
	if (ret)
		goto out;
	ret = plan_layout(o, p, why, whycap);
	if (ret)
		goto out;
	plan_ids(inv, p);
	/* the ids are known now: the rewrites again, with them */
	free(p->cmdline_new);
	free(p->fstab_new);
	free(p->extlinux_new);
	p->cmdline_new = p->fstab_new = p->extlinux_new = NULL;
	p->n_rewrites = 0;
	p->n_warnings = 0;
	ret = plan_rewrites(p, why, whycap);
	if (p->label_changed && p->n_warnings < 4)
		str_fmt(p->warnings[p->n_warnings++], sizeof(p->warnings[0]),
			"the target is over 2 TiB: it gets a GPT partition table, not DOS");
	plan_ext_warnings(p);
	if (!ret)
		ret = plan_loops(o, p, why, whycap);
out:
	if (!ret)
		ret = clone_image_check_space(p, o->target, why, whycap);
	/* with --apply, the image is made and locked now, before anything is written */
	if (!ret && o->apply)
		ret = clone_image_hold(p, o->target, why, whycap);
	return ret;
}

void clone_plan_release(struct clone_plan *p)
{
	clone_image_release(p);
	free(p->cmdline_new);
	free(p->fstab_new);
	free(p->extlinux_new);
	p->cmdline_new = p->fstab_new = p->extlinux_new = NULL;
	probe_inventory_free(p->inv);
	p->inv = NULL;
}
