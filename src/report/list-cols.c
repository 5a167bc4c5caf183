/* list-cols.c - the column descriptor table of `sbcdisk list`: header, JSON key, type and help.
 * Names follow lsblk where lsblk has the column, so scripts and eyes need not relearn them. */
#include <ctype.h>
#include <libsmartcols.h>

#include "report/list-int.h"
#include "common/util.h"

static void get_name(const struct blkdev *d, struct list_value *v)
{
	v->s = d->name;
}

static void get_kname(const struct blkdev *d, struct list_value *v)
{
	v->s = d->kname;
}

static void get_majmin(const struct blkdev *d, struct list_value *v)
{
	v->s = d->maj_min;
}

static void get_type(const struct blkdev *d, struct list_value *v)
{
	v->s = d->type;
}

static void get_model(const struct blkdev *d, struct list_value *v)
{
	v->s = d->is_partition ? NULL : d->model;
}

static void get_vendor(const struct blkdev *d, struct list_value *v)
{
	v->s = d->is_partition ? NULL : d->vendor;
}

static void get_rev(const struct blkdev *d, struct list_value *v)
{
	v->s = d->is_partition ? NULL : d->rev;
}

static void get_serial(const struct blkdev *d, struct list_value *v)
{
	v->s = d->is_partition ? NULL : d->serial;
}

static void get_fstype(const struct blkdev *d, struct list_value *v)
{
	v->s = d->fstype;
}

static void get_label(const struct blkdev *d, struct list_value *v)
{
	v->s = d->label;
}

static void get_uuid(const struct blkdev *d, struct list_value *v)
{
	v->s = d->uuid;
}

static void get_partuuid(const struct blkdev *d, struct list_value *v)
{
	v->s = d->partuuid;
}

static void get_sched(const struct blkdev *d, struct list_value *v)
{
	v->s = d->queue.scheduler;
}

static void get_pkname(const struct blkdev *d, struct list_value *v)
{
	v->s = d->disk ? d->disk->kname : NULL;
}

/* lsblk aligns the numbers on the colon: "  8:0  ", "259:1  " */
static void table_majmin(const struct blkdev *d, char *buf, size_t cap)
{
	if (d->has_devno)
		str_fmt(buf, cap, "%3u:%-3u", d->major, d->minor);
	else
		str_copy(buf, cap, "-");
}

static void get_tran(const struct blkdev *d, struct list_value *v)
{
	v->s = probe_transport_name(d->transport);
}

static void get_mountpoint(const struct blkdev *d, struct list_value *v)
{
	v->s = d->n_mountpoints ? d->mountpoints[0] : NULL;
}

static void get_size(const struct blkdev *d, struct list_value *v)
{
	v->known = d->has_size;
	v->u = d->size_bytes;
}

static void get_rm(const struct blkdev *d, struct list_value *v)
{
	v->known = d->has_removable;
	v->b = d->removable;
}

static void get_ro(const struct blkdev *d, struct list_value *v)
{
	v->known = d->has_read_only;
	v->b = d->read_only;
}

static void get_rota(const struct blkdev *d, struct list_value *v)
{
	v->known = d->has_rotational;
	v->b = d->rotational;
}

static void get_logsec(const struct blkdev *d, struct list_value *v)
{
	v->known = d->queue.has_logical_block;
	v->u = d->queue.logical_block_bytes;
}

static void get_physec(const struct blkdev *d, struct list_value *v)
{
	v->known = d->queue.has_physical_block;
	v->u = d->queue.physical_block_bytes;
}

static void get_ra(const struct blkdev *d, struct list_value *v)
{
	v->known = d->queue.has_read_ahead;
	v->u = d->queue.read_ahead_kib;
}

static void get_maxsect(const struct blkdev *d, struct list_value *v)
{
	v->known = d->queue.has_max_sectors;
	v->u = d->queue.max_sectors_kib;
}

static void get_attach(const struct blkdev *d, struct list_value *v)
{
	/* only memory can fail it: the line is then unknown, as for a device attached to
	 * nothing */
	if (probe_blkdev_attachment(d, v->buf, sizeof(v->buf)))
		v->buf[0] = '\0';
	v->s = v->buf;
}

static void table_attach_short(const struct blkdev *d, char *buf, size_t cap)
{
	if (probe_blkdev_attachment_short(d, buf, cap))
		buf[0] = '\0';
	if (!buf[0])
		str_copy(buf, cap, "-");
}

static void get_backing(const struct blkdev *d, struct list_value *v)
{
	v->s = d->backing_file;
}

/* JSON keys that have a column appear in this order in the DEVICE object (the contract's). */
/* clang-format off */
const struct list_column list_columns[] = {
	{ "NAME", "name", LIST_STR, 0.25, SCOLS_FL_TREE | SCOLS_FL_NOEXTREMES,
	  "device name (device-mapper: its name)", get_name, .rank = 1 },
	{ "KNAME", NULL, LIST_STR, 0.2, 0, "internal kernel device name", get_kname },
	{ "PKNAME", NULL, LIST_STR, 0.2, 0, "internal parent kernel device name", get_pkname },
	{ "MAJ:MIN", "maj_min", LIST_STR, 6, 0, "major:minor device number", get_majmin, table_majmin,
	  .rank = 8 },
	{ "TYPE", "type", LIST_STR, 4, 0, "device type (disk, part, loop, rom, lvm, crypt, raid1 ...)",
	  get_type, .rank = 4 },
	{ "SIZE", "size_bytes", LIST_SIZE, 5, SCOLS_FL_RIGHT, "size of the device", get_size, .rank = 2 },
	{ "RM", "removable", LIST_BOOL, 1, SCOLS_FL_RIGHT, "removable device", get_rm, .rank = 10 },
	{ "RO", "read_only", LIST_BOOL, 1, SCOLS_FL_RIGHT, "read-only device", get_ro, .rank = 9 },
	{ "ROTA", "rotational", LIST_BOOL, 1, SCOLS_FL_RIGHT, "rotational device", get_rota },
	{ "MODEL", "model", LIST_STR, 0.1, SCOLS_FL_TRUNC, "device identifier", get_model,
	  .rank = 6, .min = 12 },
	{ "VENDOR", "vendor", LIST_STR, 0.1, SCOLS_FL_TRUNC, "device vendor", get_vendor },
	{ "REV", "rev", LIST_STR, 4, SCOLS_FL_RIGHT, "device revision", get_rev },
	{ "SERIAL", "serial", LIST_STR, 0.1, SCOLS_FL_TRUNC, "disk serial number", get_serial },
	{ "TRAN", "transport", LIST_STR, 6, 0, "device transport type (usb, nvme, mmc, sata ...)",
	  get_tran, .rank = 7 },
	{ "MOUNTPOINT", NULL, LIST_STR, 0.1, SCOLS_FL_TRUNC, "where the device is mounted (the first)",
	  get_mountpoint },
	{ "MOUNTPOINTS", "mountpoints", LIST_MOUNTS, 0.1, SCOLS_FL_WRAP,
	  "all locations where the device is mounted ([SWAP] for swap)", NULL, .rank = 5,
	  .min = 11 },
	{ "FSTYPE", "fstype", LIST_STR, 0.1, SCOLS_FL_TRUNC, "file system type", get_fstype },
	{ "LABEL", "label", LIST_STR, 0.1, 0, "file system label", get_label },
	{ "UUID", "uuid", LIST_STR, 36, 0, "file system UUID", get_uuid },
	{ "PARTUUID", "partuuid", LIST_STR, 36, 0, "partition UUID", get_partuuid },
	{ "LOG-SEC", NULL, LIST_U64, 7, SCOLS_FL_RIGHT, "logical sector size in bytes", get_logsec },
	{ "PHY-SEC", NULL, LIST_U64, 7, SCOLS_FL_RIGHT, "physical sector size in bytes", get_physec },
	{ "RA", NULL, LIST_U64, 3, SCOLS_FL_RIGHT, "read-ahead of the device in KiB", get_ra },
	{ "MAX-SECT", NULL, LIST_U64, 7, SCOLS_FL_RIGHT, "largest request in KiB (max_sectors_kb)",
	  get_maxsect },
	{ "SCHED", NULL, LIST_STR, 0.1, 0, "I/O scheduler name", get_sched },
	{ "BACK-FILE", NULL, LIST_STR, 0.3, 0, "loop device backing file", get_backing },
	{ "ATTACHMENT", NULL, LIST_STR, 0.3, 0,
	  "how a disk is attached: bus, link speed, driver, bridge chip, hubs, card identity",
	  get_attach, .table_short = table_attach_short, .rank = 3, .min = 32 },
	{ "HEALTH", NULL, LIST_STR, 8, 0,
	  "SMART overall verdict through smartctl (PASSED, FAILED, no-smart, error)",
	  list_get_health, NULL, true },
	{ "WEAR", NULL, LIST_U64, 4, SCOLS_FL_RIGHT, "drive life used in percent (smartctl)",
	  list_get_wear, list_table_wear, true },
	{ "TEMP", NULL, LIST_U64, 4, SCOLS_FL_RIGHT, "drive temperature in Celsius (smartctl)",
	  list_get_temp, list_table_temp, true },
};
/* clang-format on */

const size_t list_n_columns = ARRAY_SIZE(list_columns);

static const char *const default_columns[] = {
	"NAME", "MAJ:MIN", "SIZE", "RO", "RM", "TYPE", "TRAN", "MODEL", "MOUNTPOINTS", "ATTACHMENT",
};

void list_value_get(const struct list_column *c, const struct blkdev *d, struct list_value *v)
{
	memset(v, 0, sizeof(*v) - sizeof(v->buf));
	v->buf[0] = '\0';
	v->known = true;
	if (c->get)
		c->get(d, v);
	if ((c->type == LIST_STR) && (!v->s || !*v->s))
		v->known = false;
}

static int column_find(const char *name)
{
	size_t i;

	for (i = 0; i < list_n_columns; i++)
		if (!strcasecmp(list_columns[i].name, name))
			return (int)i;
	return -1;
}

size_t list_columns_default(int *ids, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(default_columns) && n < max; i++)
		ids[n++] = column_find(default_columns[i]);
	return n;
}

int list_columns_parse(const char *spec, int *ids, size_t max, size_t *n, const char **bad)
{
	static char copy[1024];
	char *tok, *save = NULL;

	*n = 0;
	*bad = NULL;
	if (str_copy(copy, sizeof(copy), spec))
		return -E2BIG;
	tok = copy;
	if (*tok == '+') {
		*n = list_columns_default(ids, max);
		tok++;
	}
	for (tok = strtok_r(tok, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int id = column_find(str_trim(tok));

		if (id < 0) {
			*bad = tok;
			return -EINVAL;
		}
		if (*n >= max)
			return -E2BIG;
		ids[(*n)++] = id;
	}
	return *n ? 0 : -ENODATA;
}

void list_columns_help(FILE *f)
{
	size_t i;

	fprintf(f, "Available output columns (-o COL,COL or -o +COL to add to the defaults):\n");
	for (i = 0; i < list_n_columns; i++)
		fprintf(f, "  %11s  %s\n", list_columns[i].name, list_columns[i].help);
}
