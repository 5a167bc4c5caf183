// SPDX-License-Identifier: GPL-2.0-or-later
/* table.c - the source's partition table read and the target's written, through libfdisk
 * (DOS and GPT), on a whole device or an image file alike. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clone/clone.h"
#include "clone/clone-int.h"
#include "clone/fdisk-dl.h"
#include "common/banned.h"
#include "common/util.h"

/* GPT type GUIDs for partitions that come from a DOS table (a target over 2 TiB). */
#define GPT_TYPE_LINUX "0FC63DAF-8483-4772-8E79-3D69D8477DE4"
#define GPT_TYPE_SWAP  "0657FD6D-A4AB-43C4-84E5-0933C84B4F4F"
#define GPT_TYPE_BDATA "EBD0A0A2-B9E5-4433-87C0-68B6B72699C7" /* FAT the firmware reads */
#define GPT_TYPE_ESP   "C12A7328-F81F-11D2-BA4B-00A0C93EC93B"

static bool dos_type_is_extended(unsigned t)
{
	return t == 0x05 || t == 0x0f || t == 0x85;
}

FDISK_DL_FUNCS(DLIB_DEFINE)
static const struct dlib_sym fdisk_syms[] = { FDISK_DL_FUNCS(DLIB_SYM) };
static struct dlib fdisk_lib = { "libfdisk.so.1", fdisk_syms, ARRAY_SIZE(fdisk_syms), NULL };

int clone_fdisk_load(char *why, size_t whycap)
{
	return dlib_open(&fdisk_lib, why, whycap);
}

static struct fdisk_context *table_open(const char *path, bool readonly, char *why,
					size_t whycap)
{
	struct fdisk_context *cxt;
	int ret;

	if (clone_fdisk_load(why, whycap))
		return NULL;
	cxt = fdisk_new_context();
	if (!cxt) {
		str_fmt(why, whycap, "out of memory");
		return NULL;
	}
	fdisk_disable_dialogs(cxt, 1);
	ret = fdisk_assign_device(cxt, path, readonly);
	if (ret) {
		str_fmt(why, whycap, "cannot open it: %s", strerror(ret < 0 ? -ret : EIO));
		fdisk_unref_context(cxt);
		return NULL;
	}
	return cxt;
}

static void part_from_fdisk(struct fdisk_context *cxt, struct fdisk_partition *pa,
			    struct clone_part *cp, bool gpt)
{
	struct fdisk_parttype *t = fdisk_partition_get_type(pa);
	unsigned ssz = (unsigned)fdisk_get_sector_size(cxt);
	const char *s;

	memset(cp, 0, sizeof(*cp));
	if (fdisk_partition_has_partno(pa))
		cp->partno = (unsigned)fdisk_partition_get_partno(pa) + 1;
	cp->start = (uint64_t)fdisk_partition_get_start(pa) * ssz;
	cp->size = (uint64_t)fdisk_partition_get_size(pa) * ssz;
	if (t && !gpt)
		cp->dos_type = fdisk_parttype_get_code(t);
	if (t && gpt && (s = fdisk_parttype_get_string(t)))
		str_copy(cp->gpt_type, sizeof(cp->gpt_type), s);
	cp->bootable = fdisk_partition_is_bootable(pa) == 1;
	if ((s = fdisk_partition_get_uuid(pa)))
		str_copy(cp->partuuid, sizeof(cp->partuuid), s);
	if ((s = fdisk_partition_get_name(pa)))
		str_copy(cp->partlabel, sizeof(cp->partlabel), s);
}

int clone_table_read(const char *path, struct clone_plan *p, char *why, size_t whycap)
{
	struct fdisk_context *cxt;
	struct fdisk_table *tb = NULL;
	struct fdisk_label *lb;
	char *id = NULL;
	bool gpt;
	size_t i, n;
	int ret = 0;

	cxt = table_open(path, true, why, whycap);
	if (!cxt)
		return -EIO;
	if (!fdisk_has_label(cxt)) {
		str_fmt(why, whycap, "it has no partition table (DOS or GPT)");
		ret = -EINVAL;
		goto out;
	}
	lb = fdisk_get_label(cxt, NULL);
	switch (fdisk_label_get_type(lb)) {
	case FDISK_DISKLABEL_DOS:
		gpt = false;
		break;
	case FDISK_DISKLABEL_GPT:
		gpt = true;
		break;
	default:
		str_fmt(why, whycap, "its partition table is '%s', not DOS or GPT",
			fdisk_label_get_name(lb));
		ret = -EINVAL;
		goto out;
	}
	str_copy(p->src_label, sizeof(p->src_label), gpt ? "gpt" : "dos");
	p->sector = (unsigned)fdisk_get_sector_size(cxt);
	if (fdisk_get_disklabel_id(cxt, &id) == 0 && id)
		str_copy(p->src_id, sizeof(p->src_id), id);
	if (fdisk_get_partitions(cxt, &tb) || !tb) {
		str_fmt(why, whycap, "cannot read its partition table");
		ret = -EIO;
		goto out;
	}
	n = fdisk_table_get_nents(tb);
	p->n_parts = 0;
	for (i = 0; i < n; i++) {
		struct fdisk_partition *pa = fdisk_table_get_partition(tb, i);
		struct clone_part *cp;

		if (!pa || !fdisk_partition_has_start(pa) || !fdisk_partition_has_size(pa))
			continue;
		if (fdisk_partition_is_container(pa) || fdisk_partition_is_nested(pa) ||
		    (!gpt && fdisk_partition_get_type(pa) &&
		     dos_type_is_extended(fdisk_parttype_get_code(fdisk_partition_get_type(pa))))) {
			str_fmt(why, whycap, "it has an extended partition (a NOOBS-style layout): "
				"not understood; --whole copies every block as it is");
			ret = -EINVAL;
			goto out;
		}
		if (p->n_parts == CLONE_PARTS_MAX) {
			str_fmt(why, whycap, "it has more than %d partitions", CLONE_PARTS_MAX);
			ret = -EINVAL;
			goto out;
		}
		cp = &p->parts[p->n_parts++];
		part_from_fdisk(cxt, pa, cp, gpt);
		if (!gpt && p->src_id[0] && !cp->partuuid[0]) {
			/* the kernel's PARTUUID of an MBR partition: the disk id and the number */
			unsigned long v = strtoul(p->src_id, NULL, 16);

			str_fmt(cp->partuuid, sizeof(cp->partuuid), "%08lx-%02x", v, cp->partno);
		}
	}
	if (!p->n_parts) {
		str_fmt(why, whycap, "its partition table holds no partition");
		ret = -EINVAL;
	}
out:
	free(id);
	fdisk_unref_table(tb);
	fdisk_unref_context(cxt);
	return ret;
}

static const char *gpt_type_for(const struct clone_part *cp)
{
	if (cp->gpt_type[0])
		return cp->gpt_type;
	switch (cp->dos_type) {
	case 0x82:
		return GPT_TYPE_SWAP;
	case 0xef:
		return GPT_TYPE_ESP;
	case 0x01: case 0x04: case 0x06: case 0x0b: case 0x0c: case 0x0e:
		return GPT_TYPE_BDATA;
	default:
		return GPT_TYPE_LINUX;
	}
}

int clone_table_write(const struct clone_plan *p, char *why, size_t whycap)
{
	bool gpt = !strcmp(p->dst_label, "gpt");
	struct fdisk_context *cxt;
	struct fdisk_label *lb;
	unsigned ssz;
	size_t i;
	int ret;

	cxt = table_open(clone_dst(p), false, why, whycap);
	if (!cxt)
		return -EIO;
	/* the target's own sectors (a 4Kn disk: 4096), the same byte offsets */
	ssz = (unsigned)fdisk_get_sector_size(cxt);
	ret = fdisk_create_disklabel(cxt, p->dst_label);
	if (ret) {
		str_fmt(why, whycap, "cannot create a %s partition table", p->dst_label);
		goto out;
	}
	lb = fdisk_get_label(cxt, NULL);
	ret = fdisk_set_disklabel_id_from_string(cxt, p->dst_id);
	if (ret) {
		str_fmt(why, whycap, "cannot set the disk identifier '%s'", p->dst_id);
		goto out;
	}
	for (i = 0; i < p->n_parts; i++) {
		const struct clone_part *cp = &p->parts[i];
		struct fdisk_partition *pa = fdisk_new_partition();
		struct fdisk_parttype *t;
		size_t partno = 0;

		if (!pa) {
			ret = -ENOMEM;
			goto out;
		}
		t = gpt ? fdisk_label_get_parttype_from_string(lb, gpt_type_for(cp))
			: fdisk_label_get_parttype_from_code(lb, cp->dos_type);
		fdisk_partition_set_partno(pa, cp->partno - 1);
		fdisk_partition_set_start(pa, cp->t_start / ssz);
		fdisk_partition_set_size(pa, cp->t_size / ssz);
		if (t)
			fdisk_partition_set_type(pa, t);
		if (gpt && cp->t_partuuid[0])
			fdisk_partition_set_uuid(pa, cp->t_partuuid);
		if (gpt && cp->partlabel[0])
			fdisk_partition_set_name(pa, cp->partlabel);
		ret = fdisk_add_partition(cxt, pa, &partno);
		fdisk_unref_partition(pa);
		fdisk_unref_parttype(t);
		if (ret) {
			str_fmt(why, whycap, "cannot add partition %u: %s", cp->partno,
				strerror(ret < 0 ? -ret : EINVAL));
			goto out;
		}
		if (!gpt && cp->bootable)
			fdisk_toggle_partition_flag(cxt, partno, DOS_FLAG_ACTIVE);
	}
	ret = fdisk_write_disklabel(cxt);
	if (ret) {
		str_fmt(why, whycap, "cannot write the partition table: %s",
			strerror(ret < 0 ? -ret : EIO));
		goto out;
	}
	ret = fdisk_deassign_device(cxt, 0);
	if (ret)
		str_fmt(why, whycap, "cannot write the partition table: %s",
			strerror(ret < 0 ? -ret : EIO));
out:
	fdisk_unref_context(cxt);
	return ret < 0 ? ret : ret ? -EIO : 0;
}

int clone_target_wipe(const char *path)
{
	static const char zero[64 * 1024];
	uint64_t size = 0, off;
	struct stat st;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (clone_fd_size(fd, &st, &size)) {
		ret = -errno;
		goto out;
	}
	/* the DOS/GPT primary at the start, the GPT backup in the last 33 sectors */
	for (off = 0; off < (1U << 20) && off < size; off += sizeof(zero))
		if (pwrite(fd, zero, sizeof(zero), (off_t)off) != (ssize_t)sizeof(zero)) {
			ret = -EIO;
			goto out;
		}
	for (off = size > (1U << 20) ? size - (1U << 20) : 0; off + sizeof(zero) <= size;
	     off += sizeof(zero))
		if (pwrite(fd, zero, sizeof(zero), (off_t)off) != (ssize_t)sizeof(zero)) {
			ret = -EIO;
			goto out;
		}
	if (fsync(fd))
		ret = -errno;
out:
	close(fd);
	return ret;
}
