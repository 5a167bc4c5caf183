/* blkdev.c - enumerate every block device below /sys/block: disks, partitions, holders, and the
 * per-device facts lsblk shows. Attachment details come from usb.c, nvme.c and mmc.c. */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <unistd.h>
#include <limits.h>
#include <sys/sysmacros.h>

#include "common/log.h"
#include "common/paths.h"
#include "probe/probe-int.h"
#include "common/util.h"

#define PROBE_SLAVES_MAX  64

int probe_attr_str(struct sysroot *sr, const char *dir, const char *name, char *buf, size_t cap)
{
	char path[PATH_MAX];
	int ret;

	if (!cap)
		return -E2BIG;
	buf[0] = '\0';
	if (str_fmt(path, sizeof(path), "%s/%s", dir, name))
		return -ENAMETOOLONG;
	ret = sysroot_read_str(sr, path, buf, cap);
	if (ret < 0) {
		buf[0] = '\0';
		return ret;
	}
	str_sanitize(buf);
	return ret;
}

bool probe_attr_u64(struct sysroot *sr, const char *dir, const char *name, int base, uint64_t *out)
{
	char buf[64];

	if (probe_attr_str(sr, dir, name, buf, sizeof(buf)) < 0)
		return false;
	return parse_u64_base(buf, base, out) == 0;
}

FILE *probe_fopen_regular(struct sysroot *sr, const char *path)
{
	struct stat st;
	FILE *f;
	int fd = sysroot_open_fd(sr, path, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return NULL;
	}
	return f;
}

bool probe_path_up(char *path)
{
	char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return false;
	*slash = '\0';
	return true;
}

const char *probe_path_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

void probe_num_text(double v, char *buf, size_t cap)
{
	if (v >= 0 && v < 1e15 && v == (double)(uint64_t)v)
		str_fmt(buf, cap, "%" PRIu64, (uint64_t)v);
	else
		str_fmt(buf, cap, "%.1f", v);
}

const char *probe_transport_name(enum probe_transport t)
{
	/* clang-format off */
	static const char *const names[] = {
		[PROBE_TRAN_USB] = "usb",	[PROBE_TRAN_NVME] = "nvme", [PROBE_TRAN_MMC] = "mmc",
		[PROBE_TRAN_SATA] = "sata",	[PROBE_TRAN_ATA] = "ata",   [PROBE_TRAN_SCSI] = "scsi",
		[PROBE_TRAN_VIRTIO] = "virtio", [PROBE_TRAN_LOOP] = "loop", [PROBE_TRAN_DM] = "dm",
		[PROBE_TRAN_MD] = "md",		[PROBE_TRAN_NBD] = "nbd",   [PROBE_TRAN_ZRAM] = "zram",
	};
	/* clang-format on */

	if ((size_t)t >= ARRAY_SIZE(names))
		return NULL;
	return names[t];
}

/* True when some component of path starts with prefix and continues with a digit. */
static bool path_has_numbered(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = path;

	while ((p = strchr(p, '/'))) {
		p++;
		if (!strncmp(p, prefix, n) && isdigit((unsigned char)p[n]))
			return true;
	}
	return false;
}

static void blkdev_free(struct blkdev *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n_mountpoints; i++)
		free(d->mountpoints[i]);
	free(d->children);
	free(d->usb);
	free(d->pcie);
	free(d->nvme);
	free(d->mmc);
	free(d->health);
	free(d);
}

void probe_inventory_free(struct inventory *inv)
{
	size_t i;

	if (!inv)
		return;
	for (i = 0; i < inv->n_all; i++)
		blkdev_free(inv->all[i]);
	free(inv->all);
	free(inv->top);
	free(inv);
}

static int inventory_add(struct inventory *inv, struct blkdev *d, size_t *alloc)
{
	if (inv->n_all >= PROBE_DEVICES_MAX)
		return -E2BIG;
	if (inv->n_all == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 32;
		struct blkdev **p = realloc(inv->all, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		inv->all = p;
		*alloc = n;
	}
	inv->all[inv->n_all++] = d;
	return 0;
}

static int blkdev_add_child(struct blkdev *parent, struct blkdev *child)
{
	struct blkdev **p;
	size_t i;

	for (i = 0; i < parent->n_children; i++)
		if (parent->children[i] == child)
			return 0;
	p = realloc(parent->children, (parent->n_children + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	parent->children = p;
	parent->children[parent->n_children++] = child;
	return 0;
}

/* lsblk's names for SCSI peripheral types (device/type). */
static const char *scsi_type_name(uint64_t t)
{
	switch (t) {
	case 0x00:
		return "disk";
	case 0x01:
		return "tape";
	case 0x04:
		return "worm";
	case 0x05:
		return "rom";
	case 0x07:
		return "mo-disk";
	case 0x08:
		return "changer";
	case 0x0c:
		return "raid";
	case 0x0d:
		return "enclosure";
	case 0x0e:
		return "rbc";
	default:
		return NULL;
	}
}

static void blkdev_read_type(struct sysroot *sr, struct blkdev *d)
{
	char buf[128], path[PATH_MAX];
	uint64_t v;

	if (d->is_partition) {
		str_copy(d->type, sizeof(d->type), "part");
		return;
	}
	if (str_starts(d->kname, "loop")) {
		str_copy(d->type, sizeof(d->type), "loop");
		return;
	}
	if (str_starts(d->kname, "dm-")) {
		size_t i;

		/* like lsblk: the dm uuid's prefix ("LVM-...", "CRYPT-...") names the type */
		str_copy(d->type, sizeof(d->type), "dm");
		str_fmt(path, sizeof(path), "%s/dm", d->syspath);
		if (probe_attr_str(sr, path, "uuid", buf, sizeof(buf)) > 0) {
			char *dash = strchr(buf, '-');

			if (dash && dash != buf) {
				*dash = '\0';
				for (i = 0; buf[i]; i++)
					buf[i] = (char)tolower((unsigned char)buf[i]);
				if (str_starts(buf, "part"))
					buf[4] = '\0';
				str_copy(d->type, sizeof(d->type), buf);
			}
		}
		return;
	}
	if (str_starts(d->kname, "md")) {
		str_fmt(path, sizeof(path), "%s/md", d->syspath);
		if (probe_attr_str(sr, path, "level", buf, sizeof(buf)) > 0)
			str_copy(d->type, sizeof(d->type), buf);
		else
			str_copy(d->type, sizeof(d->type), "md");
		return;
	}
	if (probe_attr_u64(sr, d->syspath, "device/type", 10, &v) && scsi_type_name(v)) {
		str_copy(d->type, sizeof(d->type), scsi_type_name(v));
		return;
	}
	str_copy(d->type, sizeof(d->type), "disk");
}

static void blkdev_read_transport(struct blkdev *d)
{
	const char *p = d->syspath;

	if (d->usb)
		d->transport = PROBE_TRAN_USB;
	else if (str_starts(d->kname, "nvme") || strstr(p, "/nvme/") || strstr(p, "/nvme-subsys"))
		d->transport = PROBE_TRAN_NVME;
	else if (strstr(p, "/mmc_host/"))
		d->transport = PROBE_TRAN_MMC;
	else if (str_starts(d->kname, "loop"))
		d->transport = PROBE_TRAN_LOOP;
	else if (str_starts(d->kname, "dm-"))
		d->transport = PROBE_TRAN_DM;
	else if (str_starts(d->kname, "md"))
		d->transport = PROBE_TRAN_MD;
	else if (str_starts(d->kname, "nbd"))
		d->transport = PROBE_TRAN_NBD;
	else if (str_starts(d->kname, "zram"))
		d->transport = PROBE_TRAN_ZRAM;
	else if (path_has_numbered(p, "virtio"))
		d->transport = PROBE_TRAN_VIRTIO;
	else if (path_has_numbered(p, "ata"))
		d->transport = PROBE_TRAN_SATA; /* libata today is SATA; PATA is gone from SBCs */
	else if (path_has_numbered(p, "target") || path_has_numbered(p, "host"))
		d->transport = PROBE_TRAN_SCSI;
}

int probe_text_num_find(const struct probe_text_num *t, size_t n, const char *s, double *out)
{
	char buf[64];
	size_t i;

	if (str_copy(buf, sizeof(buf), s))
		return -EINVAL;
	str_trim(buf);
	for (i = 0; i < n; i++) {
		if (!strcmp(buf, t[i].text)) {
			*out = t[i].value;
			return 0;
		}
	}
	return -EINVAL;
}

int probe_sata_speed_parse(const char *s, double *gbps)
{
	static const struct probe_text_num speeds[] = {
		{ "1.5 Gbps", 1.5 }, { "3.0 Gbps", 3.0 }, { "6.0 Gbps", 6.0 },
	};

	return probe_text_num_find(speeds, ARRAY_SIZE(speeds), s, gbps);
}

/* libata: ".../ataN/host0/..." has the link at "ataN/linkN/ata_link/linkN/sata_spd". */
static void sata_read(struct sysroot *sr, struct blkdev *d)
{
	char path[PATH_MAX], buf[32], num[16];
	const char *port;

	if (str_copy(path, sizeof(path), d->syspath))
		return;
	while (probe_path_up(path)) {
		port = probe_path_base(path);
		if (str_starts(port, "ata") && port[3] >= '0' && port[3] <= '9' &&
		    strspn(port + 3, "0123456789") == strlen(port + 3))
			break;
	}
	if (!str_starts(probe_path_base(path), "ata") ||
	    str_copy(num, sizeof(num), probe_path_base(path) + 3))
		return;
	if (str_fmt(path + strlen(path), sizeof(path) - strlen(path), "/link%s/ata_link/link%s",
		    num, num))
		return;
	if (probe_attr_str(sr, path, "sata_spd", buf, sizeof(buf)) > 0 &&
	    probe_sata_speed_parse(buf, &d->sata_speed_gbps) == 0)
		d->has_sata_speed = true;
}

/* Block sizes are powers of two from 512 bytes to 64 KiB; anything else is not a size. */
static bool is_block_size(uint64_t v)
{
	return v >= 512 && v <= 65536 && !(v & (v - 1));
}

static void queue_read(struct sysroot *sr, const char *syspath, struct probe_queue *q,
		       struct blkdev *d)
{
	char dir[PATH_MAX], buf[256];
	uint64_t v;

	if (str_fmt(dir, sizeof(dir), "%s/queue", syspath))
		return;
	if (probe_attr_u64(sr, dir, "logical_block_size", 10, &v) && is_block_size(v)) {
		q->has_logical_block = true;
		q->logical_block_bytes = (unsigned)v;
	}
	if (probe_attr_u64(sr, dir, "physical_block_size", 10, &v) && is_block_size(v)) {
		q->has_physical_block = true;
		q->physical_block_bytes = (unsigned)v;
	}
	if (probe_attr_u64(sr, dir, "max_sectors_kb", 10, &v) && v <= UINT32_MAX) {
		q->has_max_sectors = true;
		q->max_sectors_kib = (unsigned)v;
	}
	if (probe_attr_u64(sr, dir, "read_ahead_kb", 10, &v) && v <= UINT32_MAX) {
		q->has_read_ahead = true;
		q->read_ahead_kib = (unsigned)v;
	}
	if (probe_attr_u64(sr, dir, "rotational", 10, &v) && v <= 1) {
		d->has_rotational = true;
		d->rotational = v;
	}
	if (probe_attr_str(sr, dir, "scheduler", buf, sizeof(buf)) > 0) {
		char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;

		if (open && close) {
			*close = '\0';
			str_copy(q->scheduler, sizeof(q->scheduler), open + 1);
		} else if (!strchr(buf, ' ')) {
			str_copy(q->scheduler, sizeof(q->scheduler), buf); /* "none" alone */
		}
	}
}

/* The facts every block device has: dev, size, ro, removable, hidden. */
static void blkdev_read_common(struct sysroot *sr, struct blkdev *d)
{
	char buf[64];
	uint64_t v;

	if (probe_attr_str(sr, d->syspath, "dev", buf, sizeof(buf)) > 0) {
		unsigned ma, mi;
		char extra;

		if (sscanf(buf, "%u:%u%c", &ma, &mi, &extra) == 2) {
			d->has_devno = true;
			d->major = ma;
			d->minor = mi;
			str_fmt(d->maj_min, sizeof(d->maj_min), "%u:%u", ma, mi);
		}
	}
	/* "size" is in 512-byte sectors whatever the logical block size */
	if (probe_attr_u64(sr, d->syspath, "size", 10, &v) && v <= UINT64_MAX / 512) {
		d->has_size = true;
		d->size_bytes = v * 512;
	}
	if (probe_attr_u64(sr, d->syspath, "ro", 10, &v) && v <= 1) {
		d->has_read_only = true;
		d->read_only = v;
	}
	if (probe_attr_u64(sr, d->syspath, "hidden", 10, &v) && v == 1)
		d->hidden = true;
}

static void blkdev_read_disk(struct sysroot *sr, struct blkdev *d)
{
	char path[PATH_MAX];
	uint64_t v;

	if (probe_attr_u64(sr, d->syspath, "removable", 10, &v) && v <= 1) {
		d->has_removable = true;
		d->removable = v;
	}
	queue_read(sr, d->syspath, &d->queue, d);
	if (str_fmt(path, sizeof(path), "%s/device", d->syspath) == 0) {
		probe_attr_str(sr, path, "vendor", d->vendor, sizeof(d->vendor));
		probe_attr_str(sr, path, "model", d->model, sizeof(d->model));
		probe_attr_str(sr, path, "rev", d->rev, sizeof(d->rev));
		probe_attr_str(sr, path, "serial", d->serial, sizeof(d->serial));
	}
	if (str_starts(d->kname, "loop")) {
		str_fmt(path, sizeof(path), "%s/loop", d->syspath);
		probe_attr_str(sr, path, "backing_file", d->backing_file, sizeof(d->backing_file));
	}
	if (str_starts(d->kname, "dm-")) {
		char name[128];

		str_fmt(path, sizeof(path), "%s/dm", d->syspath);
		if (probe_attr_str(sr, path, "name", name, sizeof(name)) > 0)
			str_copy(d->name, sizeof(d->name), name);
	}
	probe_usb_fill(sr, d);
	probe_nvme_fill(sr, d);
	probe_mmc_fill(sr, d);
	blkdev_read_transport(d);
	if (d->transport == PROBE_TRAN_SATA)
		sata_read(sr, d);
}

static struct blkdev *blkdev_new(const char *kname, const char *syspath)
{
	struct blkdev *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	str_copy(d->kname, sizeof(d->kname), kname);
	str_sanitize(d->kname);
	str_copy(d->name, sizeof(d->name), d->kname);
	str_copy(d->syspath, sizeof(d->syspath), syspath);
	return d;
}

/* Partitions are the subdirectories of a disk that have a "partition" file. eMMC boot areas
 * (mmcblk0boot0) sit there too but have none: they are disks of their own. */
static int disk_load_partitions(struct sysroot *sr, struct inventory *inv, struct blkdev *disk,
				size_t *alloc)
{
	size_t klen = strlen(disk->kname), n = 0;
	struct dirent *e;
	DIR *dir;
	int ret = 0;

	if (sysroot_opendir(sr, disk->syspath, &dir))
		return 0;
	while ((e = readdir(dir))) {
		char path[PATH_MAX];
		struct blkdev *p;
		uint64_t v;

		if (strncmp(e->d_name, disk->kname, klen) || !e->d_name[klen])
			continue;
		if (n == PROBE_PARTS_MAX) {
			inv->n_left_out++; /* counted (as a partition, maybe), not read */
			continue;
		}
		if (str_fmt(path, sizeof(path), "%s/%s", disk->syspath, e->d_name))
			continue;
		if (!probe_attr_u64(sr, path, "partition", 10, &v))
			continue;
		p = blkdev_new(e->d_name, path);
		if (!p) {
			ret = -ENOMEM;
			break;
		}
		p->is_partition = true;
		p->has_partn = true;
		p->partn = v > UINT32_MAX ? 0 : (unsigned)v;
		p->disk = disk;
		blkdev_read_common(sr, p);
		blkdev_read_type(sr, p);
		p->has_removable = disk->has_removable;
		p->removable = disk->removable;
		p->has_rotational = disk->has_rotational;
		p->rotational = disk->rotational;
		p->queue = disk->queue;
		p->transport = disk->transport;
		ret = inventory_add(inv, p, alloc);
		if (ret) {
			blkdev_free(p);
			break;
		}
		ret = blkdev_add_child(disk, p);
		if (ret)
			break;
		n++;
	}
	closedir(dir);
	return ret;
}

static int name_cmp(const char *a, const char *b)
{
	return strverscmp(a, b);
}

static int blkdev_ptr_cmp(const void *a, const void *b)
{
	const struct blkdev *x = *(const struct blkdev *const *)a;
	const struct blkdev *y = *(const struct blkdev *const *)b;

	/* partitions before holders, then by name */
	if (x->is_partition != y->is_partition)
		return x->is_partition ? -1 : 1;
	return name_cmp(x->name, y->name);
}

/* True when target is from itself or below it (children, depth-limited). */
static bool blkdev_reaches(const struct blkdev *from, const struct blkdev *target, int depth)
{
	size_t i;

	if (from == target)
		return true;
	if (depth <= 0)
		return true; /* too deep to tell: treat as a cycle and do not link */
	for (i = 0; i < from->n_children; i++)
		if (blkdev_reaches(from->children[i], target, depth - 1))
			return true;
	return false;
}

/* Holders (dm, md) become children of every device listed in their slaves/ directory. A link
 * that would close a cycle (a hostile tree where two devices hold each other) is left out, so
 * every device stays reachable from a top-level one and no renderer can loop. */
static int inventory_link_holders(struct sysroot *sr, struct inventory *inv)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < inv->n_all && !ret; i++) {
		struct blkdev *d = inv->all[i];
		char path[PATH_MAX];
		struct dirent *e;
		DIR *dir;
		int n = 0;

		if (d->is_partition)
			continue;
		if (str_fmt(path, sizeof(path), "%s/slaves", d->syspath) ||
		    sysroot_opendir(sr, path, &dir))
			continue;
		while ((e = readdir(dir)) && n < PROBE_SLAVES_MAX) {
			struct blkdev *s;

			if (e->d_name[0] == '.')
				continue;
			n++;
			s = probe_inventory_find(inv, e->d_name);
			if (!s || blkdev_reaches(d, s, 64))
				continue;
			ret = blkdev_add_child(s, d);
			if (ret)
				break;
			if (!d->n_slaves++)
				d->slave = s;
		}
		closedir(dir);
	}
	return ret;
}

static int inventory_load_disks(struct sysroot *sr, struct inventory *inv, const char *base,
				bool filter_partitions)
{
	size_t alloc = 0;
	struct dirent *e;
	DIR *dir;
	int ret;

	ret = sysroot_opendir(sr, base, &dir);
	if (ret)
		return ret;
	while ((e = readdir(dir))) {
		char link[PATH_MAX], canon[PATH_MAX];
		struct blkdev *d;
		uint64_t v;

		if (e->d_name[0] == '.')
			continue;
		if (str_fmt(link, sizeof(link), "%s/%s", base, e->d_name))
			continue;
		ret = sysroot_realpath(sr, link, canon, sizeof(canon));
		if (ret) {
			log_debug("%s: %s", link, strerror(-ret));
			ret = 0;
			continue;
		}
		if (filter_partitions && probe_attr_u64(sr, canon, "partition", 10, &v))
			continue;
		d = blkdev_new(e->d_name, canon);
		if (!d) {
			ret = -ENOMEM;
			break;
		}
		blkdev_read_common(sr, d);
		/* an unused loop device has no backing file and no size: lsblk hides it too */
		if (d->hidden || (str_starts(d->kname, "loop") && d->has_size && !d->size_bytes)) {
			blkdev_free(d);
			continue;
		}
		blkdev_read_disk(sr, d);
		blkdev_read_type(sr, d);
		ret = inventory_add(inv, d, &alloc);
		if (ret) {
			blkdev_free(d);
			break;
		}
		ret = disk_load_partitions(sr, inv, d, &alloc);
		if (ret)
			break;
	}
	if (ret == -E2BIG) {
		/* more devices than we keep: show the first ones, and count the others so that
		 * the commands can say the list is cut (the entry that did not fit, then the rest) */
		inv->n_left_out++;
		while ((e = readdir(dir)))
			if (e->d_name[0] != '.')
				inv->n_left_out++;
		ret = 0;
	}
	closedir(dir);
	return ret;
}

static int inventory_build_top(struct inventory *inv)
{
	size_t i;

	inv->top = calloc(inv->n_all ? inv->n_all : 1, sizeof(*inv->top));
	if (!inv->top)
		return -ENOMEM;
	for (i = 0; i < inv->n_all; i++) {
		struct blkdev *d = inv->all[i];

		if (!d->is_partition && !d->n_slaves)
			inv->top[inv->n_top++] = d;
		if (d->n_children > 1)
			qsort(d->children, d->n_children, sizeof(*d->children), blkdev_ptr_cmp);
	}
	qsort(inv->top, inv->n_top, sizeof(*inv->top), blkdev_ptr_cmp);
	return 0;
}

int probe_inventory_load(struct sysroot *sr, struct inventory **out)
{
	struct inventory *inv;
	size_t i;
	int ret;

	*out = NULL;
	inv = calloc(1, sizeof(*inv));
	if (!inv)
		return -ENOMEM;
	ret = inventory_load_disks(sr, inv, PATH_SYS_BLOCK, false);
	if (ret == -ENOENT || ret == -ENOTDIR)
		ret = inventory_load_disks(sr, inv, PATH_SYS_CLASS_BLOCK, true);
	if (ret == -ENOTDIR)
		ret = -ENOENT;
	if (ret)
		goto fail;
	for (i = 0; i < inv->n_all; i++)
		probe_udev_fill(sr, inv->all[i]);
	ret = inventory_link_holders(sr, inv);
	if (ret)
		goto fail;
	ret = probe_mounts_fill(sr, inv);
	if (ret)
		goto fail;
	probe_board_fill(sr, inv);
	ret = inventory_build_top(inv);
	if (ret)
		goto fail;
	*out = inv;
	return 0;
fail:
	probe_inventory_free(inv);
	return ret;
}

struct blkdev *probe_inventory_find(const struct inventory *inv, const char *name)
{
	size_t i;

	for (i = 0; i < inv->n_all; i++)
		if (!strcmp(inv->all[i]->kname, name))
			return inv->all[i];
	for (i = 0; i < inv->n_all; i++)
		if (!strcmp(inv->all[i]->name, name))
			return inv->all[i];
	return NULL;
}

struct blkdev *probe_inventory_find_devno(const struct inventory *inv, unsigned major,
					  unsigned minor)
{
	size_t i;

	for (i = 0; i < inv->n_all; i++) {
		struct blkdev *d = inv->all[i];

		if (d->has_devno && d->major == major && d->minor == minor)
			return d;
	}
	return NULL;
}

struct blkdev *probe_inventory_find_dev(const struct inventory *inv, dev_t dev)
{
	struct blkdev *d = probe_inventory_find_devno(inv, major(dev), minor(dev));
	size_t i, j;

	for (i = 0; i < inv->n_all && !d; i++)
		for (j = 0; j < inv->all[i]->n_mount_devnos; j++)
			if (inv->all[i]->mount_devnos[j] == dev)
				return inv->all[i];
	return d;
}

struct blkdev *probe_blkdev_whole(struct blkdev *d)
{
	return d && d->disk ? d->disk : d;
}

struct blkdev *probe_blkdev_disk(struct blkdev *d)
{
	int depth;

	d = probe_blkdev_whole(d);
	/* vg-root -> sda3 -> sda; a hostile tree may loop, so the walk is bounded */
	for (depth = 0; d && d->n_slaves == 1 && d->slave && depth < 16; depth++)
		d = probe_blkdev_whole(d->slave);
	return d;
}

static const struct blkdev *whole_c(const struct blkdev *d)
{
	return d->disk ? d->disk : d;
}

const struct probe_usb *probe_blkdev_usb(const struct blkdev *d)
{
	return whole_c(d)->usb;
}

const struct probe_pcie *probe_blkdev_pcie(const struct blkdev *d)
{
	return whole_c(d)->pcie;
}

const struct probe_nvme *probe_blkdev_nvme(const struct blkdev *d)
{
	return whole_c(d)->nvme;
}

const struct probe_mmc *probe_blkdev_mmc(const struct blkdev *d)
{
	return whole_c(d)->mmc;
}
