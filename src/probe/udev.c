/* udev.c - file system type, label, UUID, PARTUUID (and the untruncated model) from udev's
 * database /run/udev/data/bMAJ:MIN; libblkid only as the fallback on a live system. */
#include <blkid.h>
#include <ctype.h>
#include <limits.h>
#include <unistd.h>

#include "common/log.h"
#include "common/paths.h"
#include "probe/probe-int.h"
#include "common/util.h"

#define UDEV_FILE_MAX (64 * 1024)

void probe_udev_unhex(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && r[1] == 'x' && isxdigit((unsigned char)r[2]) &&
		    isxdigit((unsigned char)r[3])) {
			char hex[3] = {r[2], r[3], '\0'};
			char c = (char)strtoul(hex, NULL, 16);

			if (c) {
				*w++ = c;
				r += 4;
				continue;
			}
		}
		*w++ = *r++;
	}
	*w = '\0';
}

/* Set field from val when prio beats the key that set it before. */
static void set_field(char *field, size_t cap, unsigned char *have, unsigned char prio,
		      const char *val, bool unhex)
{
	char tmp[512];

	if (*have >= prio || !*val || str_copy(tmp, sizeof(tmp), val))
		return;
	if (unhex)
		probe_udev_unhex(tmp);
	str_trim(tmp);
	str_sanitize(tmp);
	if (!*tmp)
		return;
	/* a value longer than the field is cut; the cut may split a UTF-8 sequence */
	str_copy(field, cap, tmp);
	str_sanitize(field);
	*have = prio;
}

void probe_udev_parse_line(const char *line, struct probe_udev_props *p)
{
	char buf[1024], *val;
	unsigned char none = 0;
	size_t n;

	if (str_starts(line, "E:"))
		line += 2;
	if (str_copy(buf, sizeof(buf), line))
		return;
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	val = strchr(buf, '=');
	if (!val)
		return;
	*val++ = '\0';
	if (!strcmp(buf, "ID_FS_TYPE"))
		set_field(p->fstype, sizeof(p->fstype), &none, 1, val, false);
	else if (!strcmp(buf, "ID_FS_LABEL_ENC"))
		set_field(p->label, sizeof(p->label), &p->prio_label, 2, val, true);
	else if (!strcmp(buf, "ID_FS_LABEL"))
		set_field(p->label, sizeof(p->label), &p->prio_label, 1, val, false);
	else if (!strcmp(buf, "ID_FS_UUID_ENC"))
		set_field(p->uuid, sizeof(p->uuid), &p->prio_uuid, 2, val, true);
	else if (!strcmp(buf, "ID_FS_UUID"))
		set_field(p->uuid, sizeof(p->uuid), &p->prio_uuid, 1, val, false);
	else if (!strcmp(buf, "ID_PART_ENTRY_UUID"))
		set_field(p->partuuid, sizeof(p->partuuid), &none, 1, val, false);
	else if (!strcmp(buf, "ID_MODEL_ENC") && !p->dev_file)
		set_field(p->model, sizeof(p->model), &p->prio_model, 2, val, true);
	else if (!strcmp(buf, "ID_MODEL"))
		/* some udev versions escape ID_MODEL like *_ENC ("WDC\x20WDS500G2B0C") */
		set_field(p->model, sizeof(p->model), &p->prio_model, 1, val, true);
	else if (!strcmp(buf, "ID_REVISION"))
		set_field(p->revision, sizeof(p->revision), &none, 1, val, false);
	else if (!strcmp(buf, "ID_SCSI_SERIAL"))
		set_field(p->serial, sizeof(p->serial), &p->prio_serial, 3, val, false);
	else if (!strcmp(buf, "ID_SERIAL_SHORT"))
		set_field(p->serial, sizeof(p->serial), &p->prio_serial, 2, val, false);
	else if (!strcmp(buf, "ID_SERIAL"))
		set_field(p->serial, sizeof(p->serial), &p->prio_serial, 1, val, false);
	else
		return;
	p->any = true;
}

static int udev_read_props(struct sysroot *sr, const struct blkdev *d, struct probe_udev_props *p)
{
	char path[PATH_MAX], *buf, *line, *save = NULL;
	int ret;

	buf = malloc(UDEV_FILE_MAX);
	if (!buf)
		return -ENOMEM;
	str_fmt(path, sizeof(path), "%s/b%u:%u", PATH_UDEV_DATA, d->major, d->minor);
	ret = sysroot_read(sr, path, buf, UDEV_FILE_MAX);
	/* a captured tree (util-linux's lsblk tests) keeps the properties in a file at the
	 * device node's place; on a real system that is a block device and reads -EINVAL */
	if (ret < 0 && str_fmt(path, sizeof(path), "%s/%s", PATH_DEV, d->kname) == 0) {
		ret = sysroot_read(sr, path, buf, UDEV_FILE_MAX);
		p->dev_file = true;
	}
	if (ret > 0) {
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			probe_udev_parse_line(line, p);
	}
	free(buf);
	return ret < 0 ? ret : 0;
}

/* Only on the running system, only as root, only without udev: what lsblk does. */
static void blkid_fill(struct sysroot *sr, struct blkdev *d)
{
	char node[PATH_MAX];
	const char *v;
	blkid_probe pr;

	if (!sysroot_is_live(sr) || geteuid() != 0 || !d->has_size || !d->size_bytes ||
	    !strcmp(d->type, "rom") || str_fmt(node, sizeof(node), "%s/%s", PATH_DEV, d->kname))
		return;
	pr = blkid_new_probe_from_filename(node);
	if (!pr)
		return;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID |
						  BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	if (blkid_do_safeprobe(pr) == 0) {
		if (!blkid_probe_lookup_value(pr, "TYPE", &v, NULL))
			str_copy(d->fstype, sizeof(d->fstype), v);
		if (!blkid_probe_lookup_value(pr, "LABEL", &v, NULL))
			str_copy(d->label, sizeof(d->label), v);
		if (!blkid_probe_lookup_value(pr, "UUID", &v, NULL))
			str_copy(d->uuid, sizeof(d->uuid), v);
		if (!blkid_probe_lookup_value(pr, "PART_ENTRY_UUID", &v, NULL))
			str_copy(d->partuuid, sizeof(d->partuuid), v);
		str_sanitize(d->fstype);
		str_sanitize(d->label);
		str_sanitize(d->uuid);
		str_sanitize(d->partuuid);
	}
	blkid_free_probe(pr);
}

void probe_udev_fill(struct sysroot *sr, struct blkdev *d)
{
	struct probe_udev_props p = {.any = false};

	if (!d->has_devno)
		return;
	if (udev_read_props(sr, d, &p) < 0) {
		log_debug("%s: no udev data, probing with libblkid", d->kname);
		blkid_fill(sr, d);
		return;
	}
	str_copy(d->fstype, sizeof(d->fstype), p.fstype);
	str_copy(d->label, sizeof(d->label), p.label);
	str_copy(d->uuid, sizeof(d->uuid), p.uuid);
	str_copy(d->partuuid, sizeof(d->partuuid), p.partuuid);
	if (d->is_partition)
		return;
	/* udev keeps the whole inquiry model ("KINGSTON SH103S3240G"); sysfs cuts it at 16 */
	if (p.model[0])
		str_copy(d->model, sizeof(d->model), p.model);
	if (p.revision[0])
		str_copy(d->rev, sizeof(d->rev), p.revision);
	if (p.serial[0])
		str_copy(d->serial, sizeof(d->serial), p.serial);
}
