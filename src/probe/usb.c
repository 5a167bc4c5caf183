/* usb.c - walk from a block device's sysfs path up to its USB interface, device, hubs and root
 * hub (docs/research/sysfs-facts.md section 1), reading each one's attributes. */
#include <ctype.h>
#include <limits.h>

#include "probe/probe-int.h"
#include "common/util.h"

/* "N-P[.P...]": bus number, '-', dot-separated port numbers. */
static const char *usb_device_name_end(const char *s)
{
	if (!isdigit((unsigned char)*s))
		return NULL;
	while (isdigit((unsigned char)*s))
		s++;
	if (*s++ != '-')
		return NULL;
	for (;;) {
		if (!isdigit((unsigned char)*s))
			return NULL;
		while (isdigit((unsigned char)*s))
			s++;
		if (*s != '.')
			return s;
		s++;
	}
}

bool probe_usb_name_is_device(const char *name)
{
	const char *end = usb_device_name_end(name);

	return end && !*end;
}

bool probe_usb_name_is_interface(const char *name)
{
	const char *s = usb_device_name_end(name);

	/* "<device>:<config>.<interface>" */
	if (!s || *s++ != ':' || !isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	if (*s++ != '.' || !isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	return !*s;
}

bool probe_usb_name_is_root_hub(const char *name)
{
	const char *s = name + 3;

	if (strncmp(name, "usb", 3) || !isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	return !*s;
}

int probe_usb_speed_parse(const char *s, double *mbps)
{
	/* what the kernel prints; "unknown" and anything else stay unknown */
	static const struct probe_text_num speeds[] = {
		{ "1.5", USB_SPEED_LOW_MBPS },	   { "12", USB_SPEED_FULL_MBPS },
		{ "480", USB_SPEED_HIGH_MBPS },	   { "5000", USB_SPEED_SUPER_MBPS },
		{ "10000", USB_SPEED_SUPER2_MBPS }, { "20000", USB_SPEED_SUPER22_MBPS },
		{ "40000", 40000 },		   { "80000", 80000 }, /* USB4 */
	};

	return probe_text_num_find(speeds, ARRAY_SIZE(speeds), s, mbps);
}

int probe_usb_version_parse(const char *s, unsigned *bcd, char *text, size_t cap)
{
	char buf[32], *dot;
	size_t n;

	if (str_copy(buf, sizeof(buf), s))
		return -EINVAL;
	str_trim(buf);
	/* "%2x.%02x" of bcdUSB: one or two digits, a dot, two digits (BCD, read as hex) */
	dot = strchr(buf, '.');
	n = dot ? (size_t)(dot - buf) : 0;
	if (n < 1 || n > 2 || strlen(dot + 1) != 2 || strspn(buf, "0123456789abcdefABCDEF") != n ||
	    strspn(dot + 1, "0123456789abcdefABCDEF") != 2)
		return -EINVAL;
	*bcd = (unsigned)(strtoul(buf, NULL, 16) << 8 | strtoul(dot + 1, NULL, 16));
	return str_copy(text, cap, buf);
}

int probe_usb_power_parse(const char *s, unsigned *ma)
{
	char buf[32];
	uint64_t v;
	size_t n;

	if (str_copy(buf, sizeof(buf), s))
		return -EINVAL;
	str_trim(buf);
	n = strlen(buf);
	if (n < 3 || strcmp(buf + n - 2, "mA"))
		return -EINVAL;
	buf[n - 2] = '\0';
	if (parse_u64(buf, &v) || v > 100000)
		return -EINVAL;
	*ma = (unsigned)v;
	return 0;
}

static void read_speed(struct sysroot *sr, const char *dir, bool *has, double *mbps)
{
	char buf[32];

	if (probe_attr_str(sr, dir, "speed", buf, sizeof(buf)) > 0 &&
	    probe_usb_speed_parse(buf, mbps) == 0)
		*has = true;
}

static void read_version(struct sysroot *sr, const char *dir, char *text, size_t cap, unsigned *bcd,
			 bool *has)
{
	char buf[32];
	unsigned v;

	if (probe_attr_str(sr, dir, "version", buf, sizeof(buf)) > 0 &&
	    probe_usb_version_parse(buf, &v, text, cap) == 0) {
		if (bcd)
			*bcd = v;
		if (has)
			*has = true;
	} else {
		text[0] = '\0';
	}
}

/* A 4-digit hex id attribute ("152d"); false when garbage. */
static bool read_id(struct sysroot *sr, const char *dir, const char *name, char *text, size_t cap,
		    uint16_t *num)
{
	char buf[16];
	uint64_t v;

	if (probe_attr_str(sr, dir, name, buf, sizeof(buf)) != 4 || parse_u64_base(buf, 16, &v) ||
	    v > 0xffff) {
		text[0] = '\0';
		return false;
	}
	*num = (uint16_t)v;
	str_fmt(text, cap, "%04x", (unsigned)v);
	return true;
}

static void hub_read(struct sysroot *sr, const char *dir, struct probe_usb_hub *h)
{
	uint16_t v;

	str_copy(h->port, sizeof(h->port), probe_path_base(dir));
	read_id(sr, dir, "idVendor", h->vid, sizeof(h->vid), &v);
	read_id(sr, dir, "idProduct", h->pid, sizeof(h->pid), &v);
	probe_attr_str(sr, dir, "manufacturer", h->manufacturer, sizeof(h->manufacturer));
	probe_attr_str(sr, dir, "product", h->product, sizeof(h->product));
	read_speed(sr, dir, &h->has_speed, &h->speed_mbps);
	read_version(sr, dir, h->usb_version, sizeof(h->usb_version), NULL, NULL);
}

static void device_read(struct sysroot *sr, const char *dir, struct probe_usb *u)
{
	char buf[32];
	uint16_t vid, pid;

	str_copy(u->port, sizeof(u->port), probe_path_base(dir));
	if (read_id(sr, dir, "idVendor", u->vid, sizeof(u->vid), &vid) &&
	    read_id(sr, dir, "idProduct", u->pid, sizeof(u->pid), &pid)) {
		u->has_ids = true;
		u->vid_num = vid;
		u->pid_num = pid;
	} else {
		u->vid[0] = u->pid[0] = '\0';
	}
	probe_attr_str(sr, dir, "manufacturer", u->manufacturer, sizeof(u->manufacturer));
	probe_attr_str(sr, dir, "product", u->product, sizeof(u->product));
	probe_attr_str(sr, dir, "serial", u->serial, sizeof(u->serial));
	read_speed(sr, dir, &u->has_speed, &u->speed_mbps);
	read_version(sr, dir, u->usb_version, sizeof(u->usb_version), &u->usb_version_bcd,
		     &u->has_usb_version);
	if (probe_attr_str(sr, dir, "bMaxPower", buf, sizeof(buf)) > 0 &&
	    probe_usb_power_parse(buf, &u->max_power_ma) == 0)
		u->has_max_power = true;
}

void probe_usb_fill(struct sysroot *sr, struct blkdev *d)
{
	char path[PATH_MAX], link[PATH_MAX];
	struct probe_usb *u = NULL;
	bool found = false;

	if (str_copy(path, sizeof(path), d->syspath))
		return;
	/* the interface is the first ancestor named like "2-1:1.0" */
	while (probe_path_up(path)) {
		if (probe_usb_name_is_interface(probe_path_base(path))) {
			found = true;
			break;
		}
		if (probe_usb_name_is_root_hub(probe_path_base(path)))
			return;
	}
	if (!found)
		return;
	u = calloc(1, sizeof(*u));
	if (!u)
		return;
	str_copy(u->interface, sizeof(u->interface), probe_path_base(path));
	/* an interface without a driver (none bound, or the link unreadable) has none */
	if (str_fmt(link, sizeof(link), "%s/driver", path) < 0 ||
	    sysroot_link_basename(sr, link, u->driver, sizeof(u->driver)) < 0)
		u->driver[0] = '\0';
	str_sanitize(u->driver);
	u->driver_kind = usb_driver_parse(u->driver);
	if (!probe_path_up(path) || !probe_usb_name_is_device(probe_path_base(path))) {
		free(u);
		return;
	}
	device_read(sr, path, u);
	/* every USB device above it is a hub, up to the root hub "usbN" */
	while (probe_path_up(path)) {
		const char *base = probe_path_base(path);

		if (probe_usb_name_is_root_hub(base)) {
			str_copy(u->root_hub, sizeof(u->root_hub), base);
			read_speed(sr, path, &u->has_root_hub_speed, &u->root_hub_speed_mbps);
			break;
		}
		if (!probe_usb_name_is_device(base))
			break;
		if (u->n_hubs < PROBE_USB_HUBS_MAX)
			hub_read(sr, path, &u->hubs[u->n_hubs++]);
	}
	if (u->has_ids) {
		const char *bridge = probe_bridge_name(u->vid_num, u->pid_num);

		if (bridge)
			str_copy(u->bridge, sizeof(u->bridge), bridge);
		probe_usbids_names(sr, u);
	}
	d->usb = u;
}
