/* mounts.c - mount points from /proc/self/mountinfo and active swap from /proc/swaps, and with
 * them which device holds "/" and which the boot partition. */
#include <ctype.h>
#include <limits.h>
#include <sys/sysmacros.h>

#include "common/paths.h"
#include "probe/probe-int.h"
#include "common/util.h"

#define MOUNT_LINE_MAX	16384 /* longer lines (overlay option lists) are skipped */
#define MOUNT_LINES_MAX 100000

void probe_mount_unescape(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			char c = (char)(((r[1] - '0') << 6) | ((r[2] - '0') << 3) | (r[3] - '0'));

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

/* The next space-separated field of *p, NUL-terminated in place; NULL at the end. */
static char *next_field(char **p)
{
	char *s = *p, *start;

	while (*s == ' ')
		s++;
	if (!*s || *s == '\n')
		return NULL;
	start = s;
	while (*s && *s != ' ' && *s != '\n')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return start;
}

int probe_mountinfo_parse_line(const char *line, struct probe_mountinfo_entry *e)
{
	char buf[MOUNT_LINE_MAX], *p = buf, *f[5], *dash, extra;
	unsigned ma, mi;
	int i;

	if (str_copy(buf, sizeof(buf), line))
		return -EINVAL;
	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS */
	for (i = 0; i < 5; i++) {
		f[i] = next_field(&p);
		if (!f[i])
			return -EINVAL;
	}
	if (sscanf(f[2], "%u:%u%c", &ma, &mi, &extra) != 2)
		return -EINVAL;
	for (;;) {
		dash = next_field(&p);
		if (!dash)
			return -EINVAL;
		if (!strcmp(dash, "-"))
			break;
	}
	e->major = ma;
	e->minor = mi;
	if (str_copy(e->mountpoint, sizeof(e->mountpoint), f[4]))
		return -EINVAL;
	probe_mount_unescape(e->mountpoint);
	if (str_copy(e->root, sizeof(e->root), f[3]))
		return -EINVAL;
	probe_mount_unescape(e->root);
	f[0] = next_field(&p);
	f[1] = next_field(&p);
	if (!f[0] || !f[1])
		return -EINVAL;
	str_copy(e->fstype, sizeof(e->fstype), f[0]);
	str_copy(e->source, sizeof(e->source), f[1]);
	probe_mount_unescape(e->source);
	f[2] = next_field(&p);
	if (!f[2] || str_copy(e->super_opts, sizeof(e->super_opts), f[2]))
		e->super_opts[0] = '\0';
	return 0;
}

static int blkdev_add_mountpoint(struct blkdev *d, const char *mnt)
{
	size_t i;

	for (i = 0; i < d->n_mountpoints; i++)
		if (!strcmp(d->mountpoints[i], mnt))
			return 0;
	if (d->n_mountpoints == PROBE_MOUNTS_MAX)
		return 0;
	d->mountpoints[d->n_mountpoints] = strdup(mnt);
	if (!d->mountpoints[d->n_mountpoints])
		return -ENOMEM;
	str_sanitize(d->mountpoints[d->n_mountpoints]);
	d->n_mountpoints++;
	return 0;
}

/* A file system that reports another device number than its device's (btrfs). */
static void blkdev_add_mount_devno(struct blkdev *d, unsigned major, unsigned minor)
{
	dev_t n = makedev(major, minor);
	size_t i;

	if (d->has_devno && d->major == major && d->minor == minor)
		return;
	for (i = 0; i < d->n_mount_devnos; i++)
		if (d->mount_devnos[i] == n)
			return;
	if (d->n_mount_devnos < PROBE_MOUNTS_MAX)
		d->mount_devnos[d->n_mount_devnos++] = n;
}

/* A device node ("sda1" below /dev, "vg-root" below /dev/mapper) -> the device, or NULL. */
static struct blkdev *find_by_node(const struct inventory *inv, const char *node)
{
	if (str_starts(node, PATH_DEV_MAPPER))
		return probe_inventory_find(inv, node + strlen(PATH_DEV_MAPPER));
	if (str_starts(node, PATH_DEV_PREFIX))
		return probe_inventory_find(inv, node + strlen(PATH_DEV_PREFIX));
	return NULL;
}

/* The devices a mount entry stands on: by device number, else by the source
 * ("sdc1:sdc2" below /dev for a multi-device bcachefs). Returns how many were given to fn. */
static void add_unique(struct blkdev **out, int *n, int max, struct blkdev *d)
{
	int i;

	for (i = 0; i < *n; i++)
		if (out[i] == d)
			return;
	if (*n < max)
		out[(*n)++] = d;
}

/* The devices a mount entry stands on: by device number, and by the source, which names all
 * members of a multi-device file system (two nodes joined by ':' for bcachefs). */
static int mount_devices(struct inventory *inv, const struct probe_mountinfo_entry *e,
			 struct blkdev **out, int max)
{
	struct blkdev *d = e->major ? probe_inventory_find_devno(inv, e->major, e->minor) : NULL;
	char src[512], *part, *save = NULL;
	int n = 0;

	if (d)
		add_unique(out, &n, max, d);
	if (!str_starts(e->source, PATH_DEV_PREFIX) || (d && !strchr(e->source, ':')))
		return n;
	str_copy(src, sizeof(src), e->source);
	for (part = strtok_r(src, ":", &save); part; part = strtok_r(NULL, ":", &save)) {
		d = find_by_node(inv, part);
		if (d)
			add_unique(out, &n, max, d);
	}
	return n;
}

static int mounts_read_mountinfo(struct sysroot *sr, struct inventory *inv)
{
	struct probe_mountinfo_entry *e = NULL;
	struct blkdev *boot_fw = NULL, *boot = NULL;
	char *line = NULL;
	size_t cap = 0, lines = 0;
	ssize_t len;
	FILE *f;
	int ret = 0;

	f = probe_fopen_regular(sr, PATH_PROC_MOUNTINFO);
	if (!f)
		return 0; /* no mount facts: unknown */
	e = malloc(sizeof(*e));
	if (!e) {
		ret = -ENOMEM;
		goto out;
	}
	while ((len = getline(&line, &cap, f)) > 0 && lines++ < MOUNT_LINES_MAX) {
		struct blkdev *devs[8];
		int i, n;

		if (len >= MOUNT_LINE_MAX || probe_mountinfo_parse_line(line, e))
			continue;
		n = mount_devices(inv, e, devs, (int)ARRAY_SIZE(devs));
		for (i = 0; i < n && !ret; i++) {
			ret = blkdev_add_mountpoint(devs[i], e->mountpoint);
			blkdev_add_mount_devno(devs[i], e->major, e->minor);
		}
		if (ret)
			break;
		if (!n)
			continue;
		/* the last mount on a path is the one that is visible */
		if (!strcmp(e->mountpoint, "/"))
			inv->root = devs[0];
		else if (!strcmp(e->mountpoint, PATH_BOOT_FIRMWARE))
			boot_fw = devs[0];
		else if (!strcmp(e->mountpoint, PATH_BOOT))
			boot = devs[0];
	}
	inv->boot = boot_fw ? boot_fw : boot;
out:
	free(e);
	free(line);
	fclose(f);
	return ret;
}

static int mounts_read_swaps(struct sysroot *sr, struct inventory *inv)
{
	char buf[SYSROOT_ATTR_MAX * 4], *line, *save = NULL;
	int ret;

	if (sysroot_read(sr, PATH_PROC_SWAPS, buf, sizeof(buf)) <= 0)
		return 0;
	/* "Filename  Type  Size  Used  Priority", then one line per swap area */
	line = strtok_r(buf, "\n", &save);
	for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *name = next_field(&p);
		struct blkdev *d;

		if (!name)
			continue;
		probe_mount_unescape(name);
		d = find_by_node(inv, name);
		if (d) {
			ret = blkdev_add_mountpoint(d, "[SWAP]");
			if (ret)
				return ret;
		}
	}
	return 0;
}

int probe_mounts_fill(struct sysroot *sr, struct inventory *inv)
{
	int ret;

	ret = mounts_read_mountinfo(sr, inv);
	if (ret)
		return ret;
	if (inv->root)
		inv->root->is_root = true;
	if (inv->boot)
		inv->boot->is_boot = true;
	return mounts_read_swaps(sr, inv);
}
