/* fuzz-probe.c - the probe text parsers (mountinfo line, udev line, SSR, debugfs ios, PCIe and
 * USB attribute values): any bytes, no crash, and every string they leave is clean UTF-8. */
#include <stdint.h>
#include <stdlib.h>

#include "probe/probe.h"
#include "common/util.h"

#define PROBE_FUZZ_MAX (64 * 1024)

static void check(bool ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_mountinfo_entry *e;
	struct probe_udev_props p = { .any = false };
	struct probe_mmc m = { .has_clock = false };
	unsigned u = 0;
	double d = 0;
	char *s, text[16];
	int which;

	if (!size || size > PROBE_FUZZ_MAX)
		return 0;
	/* the first byte picks the parser; the rest is its input, NUL-terminated */
	which = data[0] % 8;
	s = malloc(size);
	e = malloc(sizeof(*e));
	if (!s || !e)
		abort();
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (which) {
	case 0:
		if (probe_mountinfo_parse_line(s, e) == 0)
			check(strlen(e->mountpoint) < sizeof(e->mountpoint) &&
			      strlen(e->fstype) < sizeof(e->fstype));
		break;
	case 1:
		probe_udev_parse_line(s, &p);
		check(str_is_clean_utf8(p.fstype) && str_is_clean_utf8(p.label) &&
		      str_is_clean_utf8(p.uuid) && str_is_clean_utf8(p.model) &&
		      str_is_clean_utf8(p.serial));
		break;
	case 2:
		if (probe_mmc_ssr_decode(s, &m) == 0)
			check((!m.has_speed_class || m.speed_class <= 10) &&
			      (!m.has_app_class || m.app_class <= 2));
		break;
	case 3:
		probe_mmc_ios_parse(s, &m);
		check(str_is_clean_utf8(m.timing) && (!m.has_bus_width || m.bus_width <= 8));
		break;
	case 4:
		if (probe_pcie_speed_parse(s, &d) == 0)
			check(d > 0 && d <= 1000);
		break;
	case 5:
		if (probe_usb_version_parse(s, &u, text, sizeof(text)) == 0)
			check(u <= 0xffff && strlen(text) <= 5);
		break;
	case 6:
		probe_usb_speed_parse(s, &d);
		probe_usb_power_parse(s, &u);
		break;
	default:
		probe_mount_unescape(s);
		probe_udev_unhex(s);
		break;
	}
	free(e);
	free(s);
	return 0;
}
