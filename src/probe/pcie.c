/* pcie.c - PCIe link facts of a PCI function and of its upstream port (sysfs-facts section 2.2).
 * Both the "8.0 GT/s PCIe" form and the pre-5.7 "8 GT/s" form are read. */
#include <ctype.h>
#include <limits.h>

#include "probe/probe-int.h"
#include "common/util.h"

int probe_pcie_speed_parse(const char *s, double *gts)
{
	char buf[64], *end;
	double v;

	if (str_copy(buf, sizeof(buf), s))
		return -EINVAL;
	str_trim(buf);
	if (!isdigit((unsigned char)buf[0]))
		return -EINVAL; /* "Unknown", "Unknown speed", garbage */
	errno = 0;
	v = strtod(buf, &end);
	if (errno || end == buf || v <= 0 || v > 1000)
		return -EINVAL;
	while (*end == ' ')
		end++;
	if (strcmp(end, "GT/s PCIe") && strcmp(end, "GT/s"))
		return -EINVAL;
	*gts = v;
	return 0;
}

bool probe_pci_name_is_function(const char *name)
{
	/* "dddd:bb:dd.f" (domain may be longer than 4 hex digits on some hosts) */
	const char *s = name;
	int n = 0;

	while (isxdigit((unsigned char)*s)) {
		s++;
		n++;
	}
	if (n < 4 || *s++ != ':')
		return false;
	if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]) || s[2] != ':')
		return false;
	s += 3;
	if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]) || s[2] != '.')
		return false;
	s += 3;
	return *s >= '0' && *s <= '7' && !s[1];
}

static void link_read(struct sysroot *sr, const char *dir, const char *speed_attr,
		      const char *width_attr, bool *has_speed, double *speed, bool *has_width,
		      unsigned *width)
{
	char buf[64];
	uint64_t v;

	if (probe_attr_str(sr, dir, speed_attr, buf, sizeof(buf)) > 0 &&
	    probe_pcie_speed_parse(buf, speed) == 0)
		*has_speed = true;
	/* "0" is what a link that is down reports: unknown, not x0 */
	if (probe_attr_u64(sr, dir, width_attr, 10, &v) && v >= 1 && v <= 32) {
		*has_width = true;
		*width = (unsigned)v;
	}
}

struct probe_pcie *probe_pcie_read(struct sysroot *sr, const char *fn)
{
	char port[PATH_MAX];
	struct probe_pcie *p;

	if (!probe_pci_name_is_function(probe_path_base(fn)))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	str_copy(p->address, sizeof(p->address), probe_path_base(fn));
	link_read(sr, fn, "current_link_speed", "current_link_width", &p->has_link_speed,
		  &p->link_speed_gts, &p->has_link_width, &p->link_width);
	link_read(sr, fn, "max_link_speed", "max_link_width", &p->has_max_link_speed,
		  &p->max_link_speed_gts, &p->has_max_link_width, &p->max_link_width);
	/* the slower end decides: the port above may be capped below the device */
	if (str_copy(port, sizeof(port), fn) == 0 && probe_path_up(port) &&
	    probe_pci_name_is_function(probe_path_base(port))) {
		str_copy(p->port_address, sizeof(p->port_address), probe_path_base(port));
		link_read(sr, port, "max_link_speed", "max_link_width", &p->has_port_max_link_speed,
			  &p->port_max_link_speed_gts, &p->has_port_max_link_width,
			  &p->port_max_link_width);
	}
	return p;
}
