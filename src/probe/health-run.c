/* health-run.c - run smartctl --json (found on PATH) for each drive and keep its answer.
 * smartmontools does the pass-through through bridges; this only starts it and reads stdout. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/health.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/util.h"

#define SMARTCTL_MISSING "smartctl not found (package smartmontools)"

int probe_health_read(const char *devnode, const char *dtype, struct probe_health *h)
{
	char dt[sizeof(h->device_type)];
	const char *const argv[] = {"smartctl", "--json", "-a", "-d", dt, devnode, NULL};
	char *buf = NULL;
	size_t len = 0;
	int status = -1, ret;

	memset(h, 0, sizeof(*h));
	str_copy(dt, sizeof(dt), dtype);
	str_copy(h->device_type, sizeof(h->device_type), dtype);
	ret = spawn_capture(argv, PROBE_HEALTH_JSON_MAX, &buf, &len, &status);
	if (ret == -ENOENT) {
		h->state = PROBE_HEALTH_NO_TOOL;
		str_copy(h->why, sizeof(h->why), SMARTCTL_MISSING);
		return 0;
	}
	if (ret)
		return ret;
	ret = probe_health_parse(buf, len, h);
	free(buf);
	if (ret == -EINVAL) {
		h->state = PROBE_HEALTH_ERROR;
		if (!len)
			str_fmt(h->why, sizeof(h->why), "smartctl printed nothing (exit %d)", status);
		else
			str_fmt(h->why, sizeof(h->why), "smartctl gave no JSON (exit %d); --json "
				"needs smartctl 7.0 or later", status);
		return 0;
	}
	return ret;
}

int probe_inventory_read_health(struct sysroot *sr, struct inventory *inv)
{
	char node[PATH_MAX], path[96];
	bool no_tool = false;
	size_t i;
	int ret;

	for (i = 0; i < inv->n_top; i++) {
		struct blkdev *d = inv->top[i];
		const char *why = NULL, *dtype = probe_health_dtype(d, &why);
		struct probe_health *h;

		if (!dtype && !why)
			continue;
		h = calloc(1, sizeof(*h));
		if (!h)
			return -ENOMEM;
		free(d->health);
		d->health = h;
		if (!dtype) {
			h->state = PROBE_HEALTH_NO_SMART;
			str_copy(h->why, sizeof(h->why), why);
			continue;
		}
		/* one missing smartctl is missing for every drive: do not look again */
		if (no_tool) {
			h->state = PROBE_HEALTH_NO_TOOL;
			str_copy(h->device_type, sizeof(h->device_type), dtype);
			str_copy(h->why, sizeof(h->why), SMARTCTL_MISSING);
			continue;
		}
		if (str_fmt(path, sizeof(path), PATH_DEV_PREFIX "%s", d->kname) < 0 ||
		    sysroot_host_path(sr, path, node, sizeof(node)))
			return -ENAMETOOLONG;
		ret = probe_health_read(node, dtype, h);
		if (ret)
			return ret;
		no_tool = h->state == PROBE_HEALTH_NO_TOOL;
	}
	return 0;
}
