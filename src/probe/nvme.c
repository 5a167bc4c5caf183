/* nvme.c - the NVMe controller behind a namespace (model, serial, firmware; all space padded)
 * and its PCI function, with or without the multipath "nvme-subsystem" layout. */
#include <ctype.h>
#include <limits.h>

#include "common/paths.h"
#include "probe/probe-int.h"
#include "common/util.h"

static bool is_controller_name(const char *s)
{
	if (strncmp(s, "nvme", 4) || !isdigit((unsigned char)s[4]))
		return false;
	for (s += 4; isdigit((unsigned char)*s); s++)
		;
	return !*s;
}

/* The controller dir: an ancestor "nvmeN" under ".../nvme/", else /sys/class/nvme/nvmeN for the
 * namespace name "nvmeNnM" (multipath puts the namespace under nvme-subsystem). */
static int find_controller(struct sysroot *sr, const struct blkdev *d, char *out, size_t cap)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *s;
	size_t n;

	if (str_copy(path, sizeof(path), d->syspath))
		return -ENAMETOOLONG;
	while (probe_path_up(path)) {
		if (is_controller_name(probe_path_base(path)))
			return str_copy(out, cap, path);
	}
	s = d->kname + 4;
	if (strncmp(d->kname, "nvme", 4) || !isdigit((unsigned char)*s))
		return -ENOENT;
	for (n = 0; isdigit((unsigned char)s[n]); n++)
		;
	if (s[n] != 'n' ||
	    str_fmt(link, sizeof(link), "%s/nvme%.*s", PATH_SYS_CLASS_NVME, (int)n, s))
		return -ENOENT;
	return sysroot_realpath(sr, link, out, cap);
}

void probe_nvme_fill(struct sysroot *sr, struct blkdev *d)
{
	char ctrl[PATH_MAX], fn[PATH_MAX], link[PATH_MAX];
	struct probe_nvme *n;

	if (!str_starts(d->kname, "nvme") || find_controller(sr, d, ctrl, sizeof(ctrl)))
		return;
	n = calloc(1, sizeof(*n));
	if (!n)
		return;
	str_copy(n->controller, sizeof(n->controller), probe_path_base(ctrl));
	probe_attr_str(sr, ctrl, "model", n->model, sizeof(n->model));
	probe_attr_str(sr, ctrl, "serial", n->serial, sizeof(n->serial));
	probe_attr_str(sr, ctrl, "firmware_rev", n->firmware, sizeof(n->firmware));
	probe_attr_str(sr, ctrl, "transport", n->transport, sizeof(n->transport));
	probe_attr_str(sr, ctrl, "state", n->state, sizeof(n->state));
	d->nvme = n;
	if (!d->model[0])
		str_copy(d->model, sizeof(d->model), n->model);
	if (!d->serial[0])
		str_copy(d->serial, sizeof(d->serial), n->serial);
	/* ".../0000:01:00.0/nvme/nvme0": the PCI function is two levels up; else follow device */
	str_copy(fn, sizeof(fn), ctrl);
	if (probe_path_up(fn) && probe_path_up(fn) &&
	    probe_pci_name_is_function(probe_path_base(fn))) {
		d->pcie = probe_pcie_read(sr, fn);
		return;
	}
	if (str_fmt(link, sizeof(link), "%s/device", ctrl) == 0 &&
	    sysroot_realpath(sr, link, fn, sizeof(fn)) == 0)
		d->pcie = probe_pcie_read(sr, fn);
}
