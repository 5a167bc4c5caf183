/* power.c - the board's power facts: the rpi_volt hwmon's under-voltage flag and the Pi 5
 * firmware's report on its supply and USB current limit (probe/power.h has the sources). */
#include <dirent.h>
#include <errno.h>
#include <string.h>

#include "probe/power.h"
#include "common/banned.h"
#include "common/paths.h"
#include "common/util.h"

/* The hwmon device named rpi_volt: its number is not fixed (hwmon0 or hwmon1 ...). */
static void read_hwmon(struct sysroot *sr, struct probe_power *p)
{
	char name[32], path[64];
	struct dirent *e;
	uint64_t v;
	DIR *d;

	if (sysroot_opendir(sr, PATH_SYS_CLASS_HWMON, &d))
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "hwmon", 5) || strlen(e->d_name) > 16)
			continue;
		if (sysroot_read_strf(sr, name, sizeof(name), "%s/%s/name", PATH_SYS_CLASS_HWMON,
				      e->d_name) < 0 || strcmp(name, "rpi_volt"))
			continue;
		if (str_fmt(path, sizeof(path), "%s/%s/in0_lcrit_alarm", PATH_SYS_CLASS_HWMON,
			    e->d_name))
			continue;
		if (sysroot_read_u64(sr, path, &v) || v > 1)
			continue;
		p->has_uv_alarm = true;
		p->uv_alarm = v == 1;
		str_copy(p->uv_path, sizeof(p->uv_path), path);
		break;
	}
	closedir(d);
}

static bool dt_u32(struct sysroot *sr, const char *name, uint32_t *out)
{
	char path[96];

	return !str_fmt(path, sizeof(path), "%s/%s", PATH_DT_POWER, name) &&
	       !sysroot_read_dt_u32(sr, path, out);
}

int probe_power_read(struct sysroot *sr, struct probe_power *p)
{
	memset(p, 0, sizeof(*p));
	read_hwmon(sr, p);
	p->has_max_current = dt_u32(sr, "max_current", &p->max_current_ma);
	p->has_usb_limit = dt_u32(sr, "usb_max_current_enable", &p->usb_max_current_enable);
	p->has_usb_over_current = dt_u32(sr, "usb_over_current_detected", &p->usb_over_current);
	return 0;
}
