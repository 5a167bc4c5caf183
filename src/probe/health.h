/* health.h - drive health (SMART / NVMe health log) read through smartmontools' smartctl --json.
 * smartctl does the pass-through; we choose its -d type from the attachment and parse its JSON. */
#ifndef SBCDISK_PROBE_HEALTH_H
#define SBCDISK_PROBE_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

enum probe_health_state {
	PROBE_HEALTH_NOT_READ = 0, /* not asked, or not a drive */
	PROBE_HEALTH_OK,	   /* smartctl answered with health data */
	PROBE_HEALTH_NO_SMART,	   /* nothing passes through (bridge, SD card, drive) */
	PROBE_HEALTH_NO_TOOL,	   /* smartctl is not on PATH */
	PROBE_HEALTH_ERROR,	   /* smartctl ran but said an error (message) */
};

/* Everything is unknown unless its has_ flag is set. */
struct probe_health {
	enum probe_health_state state;
	char device_type[32]; /* the -d type used: "sat", "sntrealtek", "nvme"; "" when none */
	char reported_type[32]; /* device.type in smartctl's answer */
	char why[160];	      /* NO_SMART/ERROR: the reason, in the user's terms */
	char message[256];    /* smartctl's first error message, "" when none */
	bool has_exit_status;
	int exit_status;
	bool has_passed, passed;
	bool has_critical_warning;
	unsigned critical_warning; /* NVMe critical warning bits */
	bool has_percentage_used;
	unsigned percentage_used;
	bool has_power_on_hours;
	uint64_t power_on_hours;
	bool has_media_errors;
	uint64_t media_errors;
	bool has_reallocated;
	uint64_t reallocated_sectors;
	bool has_pending;
	uint64_t pending_sectors;
	bool has_unsafe_shutdowns;
	uint64_t unsafe_shutdowns;
	bool has_temperature;
	int temperature_c;
};

#define PROBE_HEALTH_JSON_MAX (4u << 20) /* smartctl -x of a big drive is ~100 KiB */

/*
 * Parse smartctl --json output from a buffer (need not be NUL-terminated). 0 with h filled
 * (state OK when any health value or the overall verdict is known, NO_SMART when smartctl
 * reports an unknown/unsupported bridge or device, ERROR otherwise); -EINVAL when buf is not a
 * JSON object from smartctl. device_type is left as it was.
 */
int probe_health_parse(const char *buf, size_t len, struct probe_health *h);

/* The smartctl -d type for a whole disk, from its attachment: "sat", "sntjmicron",
 * "sntasmedia", "sntrealtek", "nvme"; NULL when none applies, with *why saying so ("SD and
 * eMMC cards have no SMART"); NULL with *why NULL for what is not a drive (loop, dm ...). */
const char *probe_health_dtype(const struct blkdev *d, const char **why);

/*
 * Run `smartctl --json -a -d TYPE DEVNODE` (smartctl found on PATH) for a whole disk and parse
 * it into h. devnode is the device node as the host sees it. 0 with h->state set (NO_TOOL when
 * smartctl is missing); -ENOMEM, -EIO.
 */
int probe_health_read(const char *devnode, const char *dtype, struct probe_health *h);

/* Read the health of every whole drive of inv into d->health (allocated; freed with the
 * inventory). 0 or -ENOMEM. */
int probe_inventory_read_health(struct sysroot *sr, struct inventory *inv);

#endif
