// SPDX-License-Identifier: GPL-2.0-or-later
/* check.c - will a disk boot on this board: its boot partition and files, the names its boot
 * files use for the root file system, ids no other disk shares, the bootloader and the boot
 * order. boot check and clone (for its target) call boot_check_disk(). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "boot/boot.h"
#include "common/bootcfg-eval.h"
#include "common/paths.h"
#include "common/rootspec.h"
#include "common/sbuf.h"
#include "common/usbquirks.h"
#include "common/util.h"

#define CMDLINE_MAX 4096
#define FSTAB_MAX (256 * 1024)
#define NOT_MOUNTED "not mounted: not checked"

const char *boot_result_name(enum boot_result r)
{
	return r == BOOT_FAIL ? "fail" : r == BOOT_WARN ? "warn" : "pass";
}

static int add(struct boot_checks *c, const struct blkdev *disk, const char *id,
	       enum boot_result r, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int add(struct boot_checks *c, const struct blkdev *disk, const char *id,
	       enum boot_result r, const char *fix, const char *fmt, ...)
{
	struct boot_check_item *it;
	va_list ap;

	if (c->n == c->alloc) {
		size_t na = c->alloc ? c->alloc * 2 : 16;
		struct boot_check_item *ni = realloc(c->item, na * sizeof(*ni));

		if (!ni)
			return -ENOMEM;
		c->item = ni;
		c->alloc = na;
	}
	it = &c->item[c->n++];
	memset(it, 0, sizeof(*it));
	str_copy(it->disk, sizeof(it->disk), disk->kname);
	str_copy(it->id, sizeof(it->id), id);
	it->result = r;
	va_start(ap, fmt);
	vsnprintf(it->text, sizeof(it->text), fmt, ap);
	va_end(ap);
	str_copy(it->fix, sizeof(it->fix), fix ? fix : "");
	str_sanitize(it->text);
	str_sanitize(it->fix);
	return 0;
}

void boot_checks_release(struct boot_checks *c)
{
	free(c->item);
	memset(c, 0, sizeof(*c));
}

enum boot_result boot_checks_worst(const struct boot_checks *c, const char *disk)
{
	enum boot_result w = BOOT_PASS;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->item[i].disk, disk) && c->item[i].result > w)
			w = c->item[i].result;
	return w;
}

bool boot_disk_is_candidate(const struct blkdev *d)
{
	switch (d->transport) {
	case PROBE_TRAN_USB:
	case PROBE_TRAN_NVME:
	case PROBE_TRAN_MMC:
	case PROBE_TRAN_SATA:
	case PROBE_TRAN_ATA:
	case PROBE_TRAN_SCSI:
	case PROBE_TRAN_VIRTIO:
		break;
	default:
		return false;
	}
	/* eMMC boot areas (mmcblk0boot0) and RPMB are no disks to boot from */
	if (strstr(d->kname, "boot") || strstr(d->kname, "rpmb"))
		return false;
	return !d->is_partition && strcmp(d->type, "disk") == 0;
}

int boot_disk_mode(const struct blkdev *disk)
{
	switch (disk->transport) {
	case PROBE_TRAN_USB:
		return BOOT_MODE_USB_MSD;
	case PROBE_TRAN_NVME:
		return BOOT_MODE_NVME;
	case PROBE_TRAN_MMC:
		return BOOT_MODE_SD;
	default:
		return -1;
	}
}

/* The first release of the bootloader that boots each kind of disk. */
static const struct {
	enum boot_soc soc;
	int cm; /* -1 any board of the SoC, 0 not a Compute Module, 1 a Compute Module */
	int mode;
	const char *date;
	uint64_t time;
	const char *source;
} min_releases[] = {
	{ BOOT_SOC_2711, -1, BOOT_MODE_USB_MSD, "2020-09-03", 1599091200,
	  "raspberrypi/rpi-eeprom release v2020.09.03-138a1, the first production bootloader "
	  "with USB mass storage boot" },
	{ BOOT_SOC_2711, 1, BOOT_MODE_NVME, "2021-07", 1625097600,
	  "raspberrypi/documentation boot-nvme.adoc: CM4 NVMe boot since July 2021" },
	{ BOOT_SOC_2712, -1, BOOT_MODE_NVME, "2023-12-06", 1701820800,
	  "raspberrypi/documentation boot-nvme.adoc: Pi 5 NVMe boot needs a bootloader "
	  "released December 6, 2023 or later" },
};

int boot_min_release(enum boot_soc soc, bool cm, int mode, const char **date, uint64_t *time,
		     const char **source)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(min_releases); i++) {
		if (min_releases[i].soc != soc || min_releases[i].mode != mode ||
		    (min_releases[i].cm >= 0 && min_releases[i].cm != (int)cm))
			continue;
		*date = min_releases[i].date;
		*time = min_releases[i].time;
		*source = min_releases[i].source;
		return 0;
	}
	return -ENOENT;
}

/* What one disk offers the checks: its partitions, the first one's mount point, the boot
 * files read from there. */
struct disk_view {
	struct sysroot *sr;
	const struct boot_disk_access *acc; /* NULL: files through the sysroot's mounts */
	const struct blkdev *disk;
	const struct blkdev *p1;
	const char *boot_mnt; /* where p1's files are (its mount point), NULL: not readable */
	bool has_config, has_cmdline;
	int cmdline_err; /* why it was not read: -ENOENT, -EISDIR, -EINVAL, -EFBIG ... */
	struct config_board board; /* the board config.txt is read for: this one */
	struct sbuf cmdline;
	char cmdline_name[160]; /* as config.txt names it, prefix applied */
	char prefix[128];
	char cfg_why[256]; /* why the command line file is not known (-EAGAIN, -ELOOP ...) */
};

static const struct blkdev *disk_part(const struct blkdev *disk, unsigned n)
{
	size_t i;

	for (i = 0; i < disk->n_children; i++) {
		const struct blkdev *p = disk->children[i];

		if (p->is_partition && p->has_partn && p->partn == n)
			return p;
	}
	return NULL;
}

static const char *part_mnt(const struct blkdev *p)
{
	size_t i;

	for (i = 0; p && i < p->n_mountpoints; i++)
		if (p->mountpoints[i][0] == '/')
			return p->mountpoints[i];
	return NULL;
}

/* mnt + "/" + name as a target path; mnt "/" gives "/name". */
static int mnt_path(const char *mnt, const char *name, char *out, size_t cap)
{
	return str_fmt(out, cap, "%s%s%s", mnt, strcmp(mnt, "/") ? "/" : "", name);
}

/* Where the files of partition p are for v: the caller's access, else its mount point. */
static const char *part_where(const struct disk_view *v, const struct blkdev *p)
{
	if (!p)
		return NULL;
	return v->acc ? v->acc->name : part_mnt(p);
}

/* A file of partition p (name relative to the file system's root), as sysroot_read_file(). */
static int part_read(const struct disk_view *v, const struct blkdev *p, const char *name,
		     size_t cap, struct sbuf *out)
{
	char path[PATH_MAX];
	const char *mnt;

	if (v->acc)
		return v->acc->read(v->acc->arg, p, name, cap, out);
	mnt = part_mnt(p);
	if (!mnt || mnt_path(mnt, name, path, sizeof(path)))
		return -ENOENT;
	return sysroot_read_file(v->sr, path, cap, out);
}

static bool part_has(const struct disk_view *v, const struct blkdev *p, const char *name)
{
	char path[PATH_MAX];
	const char *mnt;
	struct stat st;

	if (v->acc)
		return v->acc->exists(v->acc->arg, p, name);
	mnt = part_mnt(p);
	return mnt && !mnt_path(mnt, name, path, sizeof(path)) &&
	       !sysroot_stat(v->sr, path, &st, true) && S_ISREG(st.st_mode);
}

/* config.txt and its includes, read from the view's first partition */
static int view_src_read(void *arg, const char *name, size_t cap, struct sbuf *out)
{
	const struct disk_view *v = arg;

	return part_read(v, v->p1, name, cap, out);
}

/* A setting of config.txt for this board (common/bootcfg-eval.h); 0 when one applies. */
static int view_get(const struct disk_view *v, const char *key, char *out, size_t cap)
{
	struct config_source src = { .read = view_src_read, .arg = (void *)v };
	struct config_value val;
	int ret;

	if (!v->has_config)
		return -ENOENT;
	ret = config_eval_get(&src, &v->board, key, &val, NULL, 0);
	if (!ret)
		ret = str_copy(out, cap, val.value);
	return ret;
}

static int view_load(struct sysroot *sr, const struct boot_disk_access *acc,
		     const struct blkdev *disk, struct disk_view *v)
{
	struct config_source src = { .read = view_src_read, .arg = v };
	struct config_eval *ev;
	int ret;

	memset(v, 0, sizeof(*v));
	sbuf_init(&v->cmdline, CMDLINE_MAX);
	v->sr = sr;
	v->acc = acc;
	v->disk = disk;
	v->p1 = disk_part(disk, 1);
	v->boot_mnt = part_where(v, v->p1);
	if (!v->boot_mnt)
		return 0;
	if (acc && acc->board)
		v->board = *acc->board;
	else
		config_board_read(sr, &v->board);
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	/* the command line file: config.txt read with the firmware's rules for this board */
	ret = config_eval(&src, &v->board, ev);
	v->has_config = ev->has_config;
	str_copy(v->prefix, sizeof(v->prefix), ev->os_prefix.value);
	if (ret == -ENOMEM) {
		free(ev);
		return ret;
	}
	if (ret) {
		config_eval_explain(ev, ret, v->cfg_why, sizeof(v->cfg_why));
		str_copy(v->cmdline_name, sizeof(v->cmdline_name), "the command line file");
		v->cmdline_err = ret == -EXDEV ? -EXDEV : ret == -EAGAIN ? -EAGAIN : -ELOOP;
		free(ev);
		return 0;
	}
	if (str_copy(v->cmdline_name, sizeof(v->cmdline_name), ev->cmdline_file)) {
		str_copy(v->cmdline_name, sizeof(v->cmdline_name), "the command line file");
		v->cmdline_err = -EXDEV;
	}
	free(ev);
	if (v->cmdline_err)
		return 0;
	ret = part_read(v, v->p1, v->cmdline_name, CMDLINE_MAX, &v->cmdline);
	if (ret == -ENOMEM)
		return ret;
	v->has_cmdline = !ret;
	v->cmdline_err = ret;
	return 0;
}

/* What is wrong with a command line file that was not read: "is missing", "is a directory,
 * not a regular file" ... */
static const char *cmdline_trouble(const struct disk_view *v)
{
	switch (v->cmdline_err) {
	case -EISDIR:
		return "is a directory, not a regular file";
	case -EINVAL:
		return "is not a regular file (a device, a FIFO or a socket)";
	case -EFBIG:
		return "is too large for a kernel command line (over 4 KiB)";
	case -EXDEV:
		return "is named outside the boot partition (config.txt's cmdline= or os_prefix)";
	case -EAGAIN:
	case -ELOOP:
		return v->cfg_why;
	case -ENOENT:
	case 0:
		return "is missing";
	default:
		return "cannot be read";
	}
}

static void view_release(struct disk_view *v)
{
	sbuf_release(&v->cmdline);
}

/* The device trees the firmware loads for a model (the dtb names in the firmware's boot
 * partition; a Pi 5 of stepping D0 loads bcm2712d0-rpi-5-b.dtb). */
static const char *const *model_dtbs(const char *model)
{
	static const char *const pi4[] = { "bcm2711-rpi-4-b.dtb", NULL };
	static const char *const pi400[] = { "bcm2711-rpi-400.dtb", NULL };
	static const char *const cm4[] = { "bcm2711-rpi-cm4.dtb", NULL };
	static const char *const pi5[] = { "bcm2712-rpi-5-b.dtb", "bcm2712d0-rpi-5-b.dtb", NULL };
	static const char *const pi500[] = { "bcm2712-rpi-500.dtb", NULL };
	static const char *const cm5[] = { "bcm2712-rpi-cm5-cm5io.dtb", NULL };

	if (str_starts(model, "Raspberry Pi 400"))
		return pi400;
	if (str_starts(model, "Raspberry Pi 4"))
		return pi4;
	if (str_starts(model, "Raspberry Pi Compute Module 4"))
		return cm4;
	if (str_starts(model, "Raspberry Pi 500"))
		return pi500;
	if (str_starts(model, "Raspberry Pi 5"))
		return pi5;
	if (str_starts(model, "Raspberry Pi Compute Module 5"))
		return cm5;
	return NULL;
}

static int check_partition(struct boot_checks *c, const struct disk_view *v)
{
	const struct blkdev *p1 = v->p1;

	if (!p1)
		return add(c, v->disk, "boot-partition", BOOT_FAIL,
			   "partition the disk with a FAT32 first partition for the boot files "
			   "(e.g. with Raspberry Pi Imager, or sbcdisk clone)",
			   "%s has no first partition", v->disk->kname);
	if (!strcmp(p1->fstype, "vfat"))
		return add(c, v->disk, "boot-partition", BOOT_PASS, NULL,
			   "%s is FAT (vfat)%s%s", p1->kname, p1->label[0] ? ", label " : "",
			   p1->label);
	if (!p1->fstype[0])
		return add(c, v->disk, "boot-partition", BOOT_WARN,
			   "check the partition's file system with 'sudo blkid'",
			   "the file system of %s is not known", p1->kname);
	return add(c, v->disk, "boot-partition", BOOT_FAIL,
		   "the firmware reads only FAT: make the first partition FAT32 and copy the "
		   "boot files there", "%s holds %s, not FAT: the firmware cannot read it",
		   p1->kname, p1->fstype);
}

static int check_files(const struct boot_facts *f, struct boot_checks *c,
		       const struct disk_view *v)
{
	const char *const *dtbs = model_dtbs(f->model);
	char missing[400] = "", kernel[128], dtb[128], name[300], a64[8];
	size_t off = 0;
	bool found;
	int i;

	if (!v->p1)
		return 0;
	if (!v->boot_mnt)
		return add(c, v->disk, "boot-files", BOOT_WARN, "mount it to check (e.g. 'sudo "
			   "mount /dev/PART /mnt') and run 'sbcdisk boot check' again",
			   "%s " NOT_MOUNTED, v->p1->kname);
#define MISSING(n)                                                                          \
	do {                                                                                \
		int w_ = snprintf(missing + off, sizeof(missing) - off, "%s%s", off ? ", " : "", \
				  (n));                                                      \
		if (w_ > 0 && (size_t)w_ < sizeof(missing) - off)                          \
			off += (size_t)w_;                                                  \
	} while (0)
	if (!v->has_config)
		MISSING("config.txt");
	if (!v->has_cmdline && (v->cmdline_err == -ENOENT || !v->cmdline_err))
		MISSING(v->cmdline_name);
	/* the kernel config.txt names, else the firmware's default for the SoC (config_txt
	 * boot.adoc "kernel") */
	if (!view_get(v, "kernel", kernel, sizeof(kernel))) {
		str_fmt(name, sizeof(name), "%s%s", v->prefix, kernel);
		if (!part_has(v, v->p1, name))
			MISSING(name);
	} else {
		static const char *const k2712[] = { "kernel_2712.img", "kernel8.img", NULL };
		static const char *const k2711_64[] = { "kernel8.img", NULL };
		static const char *const k2711[] = { "kernel8.img", "kernel7l.img", NULL };
		const char *const *ks = f->soc == BOOT_SOC_2712 ? k2712 : k2711;

		if (f->soc == BOOT_SOC_2711 && !view_get(v, "arm_64bit", a64, sizeof(a64)) && !strcmp(a64, "1"))
			ks = k2711_64;
		for (found = false, i = 0; ks[i] && !found; i++)
			found = !str_fmt(name, sizeof(name), "%s%s", v->prefix, ks[i]) &&
				part_has(v, v->p1, name);
		if (!found) {
			str_fmt(name, sizeof(name), "%s%s", v->prefix, ks[0]);
			MISSING(name);
		}
	}
	if (!view_get(v, "device_tree", dtb, sizeof(dtb))) {
		str_fmt(name, sizeof(name), "%s%s", v->prefix, dtb);
		if (!part_has(v, v->p1, name))
			MISSING(name);
	} else if (dtbs) {
		for (found = false, i = 0; dtbs[i] && !found; i++)
			found = !str_fmt(name, sizeof(name), "%s%s", v->prefix, dtbs[i]) &&
				part_has(v, v->p1, name);
		if (!found) {
			str_fmt(name, sizeof(name), "%s%s", v->prefix, dtbs[0]);
			MISSING(name);
		}
	}
	/* a Pi 4 loads the GPU firmware from the boot partition; a Pi 5 has it in the EEPROM */
	if (f->soc == BOOT_SOC_2711) {
		if (!part_has(v, v->p1, "start4.elf"))
			MISSING("start4.elf");
		if (!part_has(v, v->p1, "fixup4.dat"))
			MISSING("fixup4.dat");
	}
#undef MISSING
	if (v->cmdline_err == -EAGAIN || v->cmdline_err == -ELOOP)
		/* not known here, which is not the same as broken: said, not guessed */
		return add(c, v->disk, "boot-files", v->cmdline_err == -EAGAIN ? BOOT_WARN :
			   BOOT_FAIL, v->cmdline_err == -EAGAIN ? "set cmdline= outside that "
			   "section, or run 'sbcdisk boot check' on the board itself" : "remove the "
			   "include loop from config.txt", "%s (%s): %s%s%s", v->p1->kname,
			   v->boot_mnt, v->cfg_why, off ? "; it lacks " : "", off ? missing : "");
	if (!v->has_cmdline && v->cmdline_err && v->cmdline_err != -ENOENT)
		return add(c, v->disk, "boot-files", BOOT_FAIL,
			   "replace it with a one-line text file holding the kernel command line",
			   "%s on %s (%s) %s%s%s", v->cmdline_name, v->p1->kname, v->boot_mnt,
			   cmdline_trouble(v), off ? "; it lacks " : "", off ? missing : "");
	if (off)
		return add(c, v->disk, "boot-files", BOOT_FAIL,
			   "copy the missing files from the running system's boot partition "
			   "(or reinstall the raspi-firmware and kernel packages)",
			   "%s (%s) lacks %s", v->p1->kname, v->boot_mnt, missing);
	return add(c, v->disk, "boot-files", BOOT_PASS, NULL,
		   "%s (%s) holds config.txt, %s, the kernel and the device tree for %s%s",
		   v->p1->kname, v->boot_mnt, v->cmdline_name, f->model[0] ? f->model : "this board",
		   f->soc == BOOT_SOC_2711 ? ", start4.elf and fixup4.dat" : "");
}

static int check_one_line(struct boot_checks *c, const struct disk_view *v)
{
	const char *s = sbuf_str(&v->cmdline);
	size_t i, lines = 0;
	bool in_line = false, cr = false;

	if (!v->has_cmdline)
		return 0;
	for (i = 0; i < v->cmdline.len; i++) {
		if (s[i] == '\r')
			cr = true;
		if (s[i] == '\n') {
			in_line = false;
		} else if (!isspace((unsigned char)s[i]) && !in_line) {
			in_line = true;
			lines++;
		}
	}
	if (lines > 1 || cr)
		return add(c, v->disk, "cmdline-one-line", BOOT_FAIL,
			   "join the lines into one, separated by spaces, without carriage returns",
			   "%s has %zu lines%s: the kernel reads only the first", v->cmdline_name,
			   lines, cr ? " and carriage returns (edited on Windows?)" : "");
	if (!lines)
		return add(c, v->disk, "cmdline-one-line", BOOT_FAIL,
			   "write the kernel command line (with root=) into it", "%s is empty",
			   v->cmdline_name);
	return add(c, v->disk, "cmdline-one-line", BOOT_PASS, NULL, "%s is one line",
		   v->cmdline_name);
}

static void part_view(const struct blkdev *d, struct rootspec_part *p)
{
	memset(p, 0, sizeof(*p));
	p->name = d->kname;
	p->partuuid = d->partuuid;
	p->uuid = d->uuid;
	p->label = d->label;
	if (d->has_devno) {
		p->major = d->major;
		p->minor = d->minor;
	}
}

/* Which partition (or whole device) of the inventory a spec names; the first one on disk
 * when several match, else the first anywhere. *count gets how many matched. */
static const struct blkdev *resolve(const struct inventory *inv, const struct rootspec *rs,
				    const struct blkdev *disk, size_t *count)
{
	const struct blkdev *on_disk = NULL, *any = NULL;
	struct rootspec_part p;
	size_t i;

	*count = 0;
	for (i = 0; i < inv->n_all; i++) {
		const struct blkdev *d = inv->all[i];

		if (strcmp(d->type, "part") && strcmp(d->type, "disk"))
			continue;
		part_view(d, &p);
		if (!rootspec_matches(rs, &p))
			continue;
		(*count)++;
		if (!any)
			any = d;
		if (!on_disk && probe_blkdev_whole((struct blkdev *)d) == disk)
			on_disk = d;
	}
	return on_disk ? on_disk : any;
}

static int check_root(const struct inventory *inv, struct boot_checks *c,
		      const struct blkdev *disk, const char *spec, const char *where,
		      const struct blkdev **root)
{
	const struct blkdev *p;
	struct rootspec rs;
	size_t n;

	*root = NULL;
	if (!spec[0])
		return add(c, disk, "root-resolves", BOOT_FAIL, "add root=PARTUUID=<the root "
			   "partition's PARTUUID> to it", "%s has no root=", where);
	if (rootspec_parse(spec, strlen(spec), &rs))
		return add(c, disk, "root-resolves", BOOT_FAIL, "correct root=",
			   "root=%s in %s cannot be read", spec, where);
	if (rs.has_partnroff || rs.kind == ROOTSPEC_OTHER)
		return add(c, disk, "root-resolves", BOOT_WARN, "name the partition by PARTUUID",
			   "root=%s in %s is not resolved here", spec, where);
	p = resolve(inv, &rs, disk, &n);
	if (!p)
		return add(c, disk, "root-resolves", BOOT_FAIL,
			   "set root=PARTUUID=<the PARTUUID of the disk's root partition> "
			   "('lsblk -o NAME,PARTUUID')",
			   "root=%s in %s names no partition that is attached", spec, where);
	/* a working layout (firmware on the SD card, root on USB), but this disk does not boot
	 * on its own; after a copy it is the classic mistake of a clone still naming its source */
	if (probe_blkdev_whole((struct blkdev *)p) != disk)
		return add(c, disk, "root-resolves", BOOT_WARN,
			   "to boot from this disk alone, set root=PARTUUID=<the PARTUUID of this "
			   "disk's root partition>",
			   "root=%s in %s names %s, on another disk: %s boots only with it "
			   "attached", spec, where, p->kname, disk->kname);
	*root = p;
	if (rs.kind == ROOTSPEC_DEVNAME || rs.kind == ROOTSPEC_DEVNUM)
		return add(c, disk, "root-resolves", BOOT_WARN,
			   "use root=PARTUUID=...: kernel names change with the order disks appear",
			   "root=%s in %s is %s today, but a kernel name is not stable", spec, where,
			   p->kname);
	return add(c, disk, "root-resolves", BOOT_PASS, NULL, "root=%s in %s is %s", spec, where,
		   p->kname);
}

static bool fstab_needed(const struct fstab_entry *e)
{
	return (!strcmp(e->dir, "/") || !strcmp(e->dir, PATH_BOOT) ||
		!strcmp(e->dir, PATH_BOOT_FIRMWARE)) &&
	       !strstr(e->opts, "noauto") && !strstr(e->opts, "nofail");
}

static int check_fstab(const struct disk_view *v, const struct inventory *inv,
		       struct boot_checks *c, const struct blkdev *disk, const struct blkdev *root)
{
	const char *mnt = part_where(v, root);
	char path[PATH_MAX], bad[300] = "";
	struct fstab_entry e;
	struct sbuf buf;
	size_t pos = 0, n, off = 0, checked = 0;
	int ret;

	if (!root)
		return 0;
	if (!mnt)
		return add(c, disk, "fstab-resolves", BOOT_WARN, "mount it to check, and run "
			   "'sbcdisk boot check' again", "/etc/fstab on %s " NOT_MOUNTED,
			   root->kname);
	if (mnt_path(v->acc ? "" : mnt, "etc/fstab", path, sizeof(path)))
		return 0;
	ret = part_read(v, root, "etc/fstab", FSTAB_MAX, &buf);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return add(c, disk, "fstab-resolves", BOOT_WARN, "check that the root file "
			   "system has an /etc/fstab", "%s cannot be read (%s)", path,
			   strerror(-ret));
	for (;;) {
		struct rootspec rs;
		const struct blkdev *p;

		ret = rootspec_fstab_next(sbuf_str(&buf), buf.len, &pos, &e);
		if (ret == -ENOENT)
			break;
		if (ret || !fstab_needed(&e))
			continue;
		if (rootspec_parse(e.spec, strlen(e.spec), &rs) || rs.kind == ROOTSPEC_OTHER)
			continue;
		checked++;
		p = resolve(inv, &rs, disk, &n);
		if (p && probe_blkdev_whole((struct blkdev *)p) == disk)
			continue;
		ret = snprintf(bad + off, sizeof(bad) - off, "%s%s (%s: %s)", off ? ", " : "",
			       e.dir, e.spec, p ? "another disk" : "no partition");
		if (ret > 0 && (size_t)ret < sizeof(bad) - off)
			off += (size_t)ret;
	}
	sbuf_release(&buf);
	if (off)
		return add(c, disk, "fstab-resolves", BOOT_FAIL,
			   "name this disk's partitions in its /etc/fstab (PARTUUID= or UUID=)",
			   "%s: %s", path, bad);
	return add(c, disk, "fstab-resolves", BOOT_PASS, NULL,
		   "%s: the %zu entries needed to boot name partitions of %s", path, checked,
		   disk->kname);
}

static bool same_id(const char *a, const char *b)
{
	return a[0] && b[0] && !strcasecmp(a, b);
}

/* Members of one array or multi-device file system share its UUID by design (blkid gives
 * the md array's, the btrfs or ZFS pool's UUID for each member). */
static bool uuid_shared_by_design(const char *fstype)
{
	static const char *const types[] = { "linux_raid_member", "btrfs", "zfs_member",
					      "isw_raid_member", "ddf_raid_member", "ceph" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(fstype, types[i]))
			return true;
	return false;
}

static int check_unique(const struct inventory *inv, struct boot_checks *c,
			const struct blkdev *disk)
{
	char dup[400] = "";
	size_t i, j, off = 0;
	int w;

	for (i = 0; i < disk->n_children; i++) {
		const struct blkdev *p = disk->children[i];

		if (!p->is_partition)
			continue;
		for (j = 0; j < inv->n_all; j++) {
			const struct blkdev *o = inv->all[j];
			const char *what = NULL;

			if ((strcmp(o->type, "part") && strcmp(o->type, "disk")) ||
			    probe_blkdev_whole((struct blkdev *)o) == disk)
				continue;
			if (same_id(p->partuuid, o->partuuid))
				what = "PARTUUID";
			else if (same_id(p->uuid, o->uuid) && !uuid_shared_by_design(p->fstype))
				what = "UUID";
			if (!what)
				continue;
			w = snprintf(dup + off, sizeof(dup) - off, "%s%s and %s share %s %s",
				     off ? "; " : "", p->kname, o->kname, what,
				     !strcmp(what, "UUID") ? p->uuid : p->partuuid);
			if (w > 0 && (size_t)w < sizeof(dup) - off)
				off += (size_t)w;
		}
	}
	if (off)
		return add(c, disk, "id-unique", BOOT_FAIL,
			   "give one disk new ids (a new disk identifier with 'sudo fdisk' x/i, new "
			   "file system UUIDs with tune2fs -U / mlabel -n) and update its "
			   "cmdline.txt and fstab, or detach the other disk: which one the kernel "
			   "takes is chance", "%s", dup);
	return add(c, disk, "id-unique", BOOT_PASS, NULL,
		   "no other attached disk carries a PARTUUID or UUID of %s", disk->kname);
}

static int check_bootloader(const struct boot_facts *f, struct boot_checks *c,
			    const struct blkdev *disk, int mode)
{
	const char *date, *source, *words = mode >= 0 ? boot_mode_words((unsigned)mode) : NULL;
	char have[16];
	uint64_t t;
	uint32_t need = 0;

	if (mode < 0)
		return add(c, disk, "bootloader-can", BOOT_FAIL,
			   "use an SD card, a USB drive or (CM4, CM5, Pi 5) an NVMe drive",
			   "the bootloader cannot boot from a %s disk",
			   probe_transport_name(disk->transport) ?
				   probe_transport_name(disk->transport) : "disk of this kind");
	if (mode == BOOT_MODE_NVME && f->soc == BOOT_SOC_2711 && !f->compute_module)
		return add(c, disk, "bootloader-can", BOOT_FAIL,
			   "put the drive in a USB enclosure: a Pi 4 boots from USB, not NVMe",
			   "a Raspberry Pi 4 or 400 cannot boot from NVMe");
	if (mode == BOOT_MODE_USB_MSD && f->soc == BOOT_SOC_2711)
		need = BOOT_CAP_USB_VL805 | BOOT_CAP_USB_BCM2711;
	if (mode == BOOT_MODE_NVME && f->soc == BOOT_SOC_2711)
		need = BOOT_CAP_NVME;
	if (boot_min_release(f->soc, f->compute_module, mode, &date, &t, &source))
		return add(c, disk, "bootloader-can", BOOT_PASS, NULL,
			   "every bootloader of this board boots from %s", words);
	if (f->has_build_time)
		boot_date(f->build_time, have, sizeof(have));
	if (f->has_caps && need && (f->caps & need))
		return add(c, disk, "bootloader-can", BOOT_PASS, NULL,
			   "the bootloader's capabilities (0x%02x) include %s boot", f->caps, words);
	if ((f->has_caps && need) || (f->has_build_time && f->build_time < t))
		return add(c, disk, "bootloader-can", BOOT_FAIL,
			   "update the bootloader: 'sudo rpi-eeprom-update -a' and reboot (or "
			   "Raspberry Pi Imager > Misc utility images > Bootloader)",
			   "the bootloader (%s%s) cannot boot from %s: that needs %s or later (%s)",
			   f->has_build_time ? "built " : "version unknown",
			   f->has_build_time ? have : "", words, date, source);
	if (f->has_build_time)
		return add(c, disk, "bootloader-can", BOOT_PASS, NULL,
			   "the bootloader (built %s) is at least %s, which added %s boot (%s)",
			   have, date, words, source);
	return add(c, disk, "bootloader-can", BOOT_WARN,
		   "run 'vcgencmd bootloader_version' and compare",
		   "the bootloader's version is not shown here; %s boot needs %s or later (%s)",
		   words, date, source);
}

/* A disk of another kind that the bootloader tries first and that looks bootable: its
 * first partition is FAT. */
static const struct blkdev *earlier_bootable(const struct inventory *inv,
					     const struct blkdev *disk, unsigned mode)
{
	size_t i;

	for (i = 0; i < inv->n_top; i++) {
		const struct blkdev *o = inv->top[i];
		const struct blkdev *p1;
		int m = boot_disk_mode(o);

		if (o == disk || !boot_disk_is_candidate(o))
			continue;
		if (m != (int)mode && !(mode == BOOT_MODE_SD_DETECT && m == BOOT_MODE_SD))
			continue;
		p1 = disk_part(o, 1);
		if (p1 && !strcmp(p1->fstype, "vfat"))
			return o;
	}
	return NULL;
}

static int check_order(const struct inventory *inv, const struct boot_facts *f,
		       struct boot_checks *c, const struct blkdev *disk, int mode)
{
	const struct boot_order *bo = &f->eeprom.order;
	char words[256], fix[256];
	const struct blkdev *o;
	size_t i;

	if (mode < 0)
		return 0;
	if (!f->has_eeprom)
		return add(c, disk, "boot-order", BOOT_WARN,
			   "run 'rpi-eeprom-config' to see BOOT_ORDER",
			   "the EEPROM configuration cannot be read here (no blconfig nvmem node, "
			   "no vcgencmd): the boot order is not known");
	boot_order_describe(bo, words, sizeof(words));
	str_fmt(fix, sizeof(fix), "sbcdisk boot order %s --apply",
		mode == BOOT_MODE_NVME ? "nvme,usb,sd" : mode == BOOT_MODE_USB_MSD ?
		(f->soc == BOOT_SOC_2712 ? "nvme,usb,sd" : "usb,sd") : "sd,usb");
	for (i = 0; i < bo->n; i++) {
		if (bo->modes[i] == mode ||
		    (mode == BOOT_MODE_SD && bo->modes[i] == BOOT_MODE_SD_DETECT))
			break;
		o = earlier_bootable(inv, disk, bo->modes[i]);
		if (o)
			return add(c, disk, "boot-order", BOOT_WARN, fix,
				   "BOOT_ORDER %s0x%x (%s) tries %s first, and %s looks bootable: it "
				   "wins", bo->is_default ? "(default) " : "", bo->value, words,
				   boot_mode_words(bo->modes[i]), o->kname);
	}
	if (i == bo->n)
		return add(c, disk, "boot-order", BOOT_FAIL, fix,
			   "BOOT_ORDER %s0x%x (%s) never tries %s", bo->is_default ? "(default) " : "",
			   bo->value, words, boot_mode_words((unsigned)mode));
	return add(c, disk, "boot-order", BOOT_PASS, NULL, "BOOT_ORDER %s0x%x (%s) reaches %s",
		   bo->is_default ? "(default) " : "", bo->value, words,
		   boot_mode_words((unsigned)mode));
}

static int check_quirks(struct sysroot *sr, struct boot_checks *c, const struct disk_view *v)
{
	const struct probe_usb *u = probe_blkdev_usb(v->disk);
	char running[SYSROOT_ATTR_MAX], value[USBQ_VALUE_MAX + 2], fix[300];
	struct usb_id id;
	int n;

	if (!u || !u->has_ids)
		return 0;
	id.vid = u->vid_num;
	id.pid = u->pid_num;
	n = sysroot_read_str(sr, PATH_USB_STORAGE_QUIRKS, running, sizeof(running));
	if (n < 0 || !usbq_list_has(running, strlen(running), id, USBQ_FLAG_IGNORE_UAS))
		return add(c, v->disk, "usb-quirks", BOOT_PASS, NULL,
			   "the running system uses no usb-storage quirk for %s:%s", u->vid, u->pid);
	if (!v->has_cmdline)
		return add(c, v->disk, "usb-quirks", BOOT_WARN,
			   "mount the first partition and run 'sbcdisk boot check' again",
			   "the running system uses %s:%s:u; %s on %s " NOT_MOUNTED, u->vid, u->pid,
			   v->cmdline_name[0] ? v->cmdline_name : "cmdline.txt", v->disk->kname);
	value[0] = '\0';
	usbq_cmdline_check(sbuf_str(&v->cmdline), value, sizeof(value));
	if (usbq_list_has(value, strlen(value), id, USBQ_FLAG_IGNORE_UAS))
		return add(c, v->disk, "usb-quirks", BOOT_PASS, NULL,
			   "%s carries usb-storage.quirks %s:%s:u, as the running system uses",
			   v->cmdline_name, u->vid, u->pid);
	str_fmt(fix, sizeof(fix), "add %s:%s:u to usb-storage.quirks= in %s/%s", u->vid, u->pid,
		v->boot_mnt, v->cmdline_name);
	return add(c, v->disk, "usb-quirks", BOOT_FAIL, fix,
		   "the running system needs usb-storage.quirks=%s:%s:u for this bridge, but %s on "
		   "%s lacks it: uas would be used at boot", u->vid, u->pid, v->cmdline_name,
		   v->disk->kname);
}

static int check_pcie_probe(const struct boot_facts *f, struct boot_checks *c,
			    const struct blkdev *disk)
{
	const char *probe = f->has_eeprom ? boot_eeprom_get(&f->eeprom, "PCIE_PROBE") : NULL;
	static const char fix[] = "add PCIE_PROBE=1 with 'sudo rpi-eeprom-config --edit' (and "
				  "dtparam=pciex1 in config.txt)";

	if (f->soc != BOOT_SOC_2712 || f->compute_module || disk->transport != PROBE_TRAN_NVME)
		return 0;
	if (f->has_hat)
		return add(c, disk, "pcie-probe", BOOT_PASS, NULL,
			   "a HAT+ is fitted: the bootloader enables PCIe by itself");
	if (probe && !strcmp(probe, "1"))
		return add(c, disk, "pcie-probe", BOOT_PASS, NULL,
			   "no HAT+ is fitted and PCIE_PROBE=1 is set");
	if (!f->has_eeprom)
		return add(c, disk, "pcie-probe", BOOT_WARN, fix,
			   "no HAT+ is fitted and the EEPROM configuration cannot be read: an NVMe "
			   "adapter that is not HAT+ needs PCIE_PROBE=1");
	return add(c, disk, "pcie-probe", BOOT_FAIL, fix,
		   "no HAT+ is fitted and PCIE_PROBE=1 is not set: the bootloader will not look "
		   "for this NVMe drive (pcie.adoc)");
}

/* A board that is not a Raspberry Pi: root= of the disk's own extlinux.conf when its files
 * can be read, else of the loader configuration this system booted with when the disk holds
 * the running root. */
static int check_other(const struct inventory *inv, const struct boot_facts *f,
		       struct boot_checks *c, const struct blkdev *disk, const struct disk_view *v)
{
	static const char *const paths[] = PATH_EXTLINUX_CONFS;
	bool is_root = f->root_disk[0] && !strcmp(f->root_disk, disk->kname);
	const struct blkdev *root = NULL;
	char spec[256], where[200];
	size_t i, j;
	int ret;

	for (i = 0; v && v->acc && i < disk->n_children; i++) {
		const struct blkdev *p = disk->children[i];

		if (!p->is_partition)
			continue;
		for (j = 0; j < ARRAY_SIZE(paths); j++) {
			struct sbuf buf;

			ret = part_read(v, p, paths[j] + 1, FSTAB_MAX, &buf);
			if (ret == -ENOMEM)
				return ret;
			if (ret)
				continue;
			ret = boot_extlinux_root(sbuf_str(&buf), buf.len, spec, sizeof(spec));
			sbuf_release(&buf);
			if (ret)
				spec[0] = '\0';
			str_fmt(where, sizeof(where), "%s on %s", paths[j], p->kname);
			ret = check_root(inv, c, disk, spec, where, &root);
			if (!ret)
				ret = check_fstab(v, inv, c, disk, root);
			return ret ? ret : check_unique(inv, c, disk);
		}
	}
	if (is_root && f->loader_config[0])
		ret = check_root(inv, c, disk, f->loader_root, f->loader_config, &root);
	else if (v && v->acc)
		ret = add(c, disk, "root-resolves", BOOT_WARN,
			  "check by hand how this board boots it (a U-Boot script, GRUB)",
			  "%s holds neither the Raspberry Pi firmware's config.txt on its first "
			  "partition nor an extlinux.conf: whether it boots is not known",
			  disk->kname);
	else
		ret = add(c, disk, "root-resolves", BOOT_WARN,
			  "look at the boot loader configuration on the disk by hand",
			  "this board's boot loader configuration on %s is not read: whether "
			  "it boots is not known", disk->kname);
	return ret ? ret : check_unique(inv, c, disk);
}

int boot_check_disk(struct sysroot *sr, const struct inventory *inv,
		    const struct boot_facts *f, const struct blkdev *disk, struct boot_checks *c)
{
	return boot_check_disk_with(sr, inv, f, disk, NULL, c);
}

int boot_check_disk_with(struct sysroot *sr, const struct inventory *inv,
			 const struct boot_facts *f, const struct blkdev *disk,
			 const struct boot_disk_access *acc, struct boot_checks *c)
{
	const struct blkdev *root = NULL;
	bool board = f->loader == BOOT_LOADER_RPI_EEPROM;
	struct disk_view v;
	char where[200];
	int mode = boot_disk_mode(disk), ret;

	if (!board && !acc)
		return check_other(inv, f, c, disk, NULL);
	ret = view_load(sr, acc, disk, &v);
	if (ret)
		goto out;
	/* read through the caller's access on another board (an image made on a PC): the disk
	 * is judged by what it holds, the Pi firmware's files when p1 has a config.txt */
	if (!board && !v.has_config) {
		ret = check_other(inv, f, c, disk, &v);
		goto out;
	}
	ret = check_partition(c, &v);
	/* a first partition that is not FAT holds no boot files: say it once, and what the
	 * bootloader could do with the disk does not matter */
	if (v.p1 && v.p1->fstype[0] && strcmp(v.p1->fstype, "vfat")) {
		if (!ret)
			ret = check_unique(inv, c, disk);
		goto out;
	}
	if (!ret)
		ret = check_files(f, c, &v);
	if (!ret)
		ret = check_one_line(c, &v);
	if (!ret && v.has_cmdline) {
		char spec[256] = "";
		size_t off, len;

		if (!rootspec_cmdline_root(sbuf_str(&v.cmdline), v.cmdline.len, &off, &len) &&
		    len < sizeof(spec)) {
			memcpy(spec, sbuf_str(&v.cmdline) + off, len);
			spec[len] = '\0';
		}
		str_fmt(where, sizeof(where), "%s", v.cmdline_name);
		ret = check_root(inv, c, disk, spec, where, &root);
		if (!ret)
			ret = check_fstab(&v, inv, c, disk, root);
	} else if (!ret && v.p1) {
		/* no readable cmdline.txt: root= is not known */
		if (v.boot_mnt)
			ret = add(c, disk, "root-resolves", BOOT_WARN, "write cmdline.txt",
				  "%s %s: root= not checked", v.cmdline_name, cmdline_trouble(&v));
		else
			ret = add(c, disk, "root-resolves", BOOT_WARN, "mount the first partition "
				  "and run 'sbcdisk boot check' again", "cmdline.txt " NOT_MOUNTED);
	}
	if (!ret)
		ret = check_unique(inv, c, disk);
	if (!ret && board)
		ret = check_bootloader(f, c, disk, mode);
	if (!ret && board)
		ret = check_order(inv, f, c, disk, mode);
	if (!ret)
		ret = check_quirks(sr, c, &v);
	if (!ret && board)
		ret = check_pcie_probe(f, c, disk);
out:
	view_release(&v);
	return ret;
}
