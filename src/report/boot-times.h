/* boot-times.h - the recorded boot times per boot device (disk and attachment): the table of
 * `history --boot` and compare, its JSON, and the words about what is not counted. */
#ifndef SBCDISK_REPORT_BOOT_TIMES_H
#define SBCDISK_REPORT_BOOT_TIMES_H

#include <json-c/json.h>
#include <stdio.h>

#include "store/store.h"

/* What no boot time of Linux holds, said wherever boot times are shown. */
#define BOOT_TIMES_NOT_COUNTED                                                              \
	"Not counted: the firmware's own time before the kernel, which Linux cannot see on a " \
	"Raspberry Pi (a stopwatch from power-on sees it)."
/* How the total is counted. */
#define BOOT_TIMES_TOTAL                                                                    \
	"Total: from the kernel's start to systemd's default target, as systemd-analyze "      \
	"counts it."

/* The table, one line per group, then the two notes. 0 or -EIO. */
int boot_times_print(FILE *f, const struct store_boot_group *g, size_t n);
/* The groups as a JSON array: device, dev_name, serial, attachment, boots, first_at,
 * last_at and {mean, min, max} (null when no boot has it) of total_s, kernel_s, initrd_s,
 * userspace_s. */
struct json_object *boot_times_json(const struct store_boot_group *g, size_t n);

#endif
