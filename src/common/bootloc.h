/* bootloc.h - where the boot files are, as the Raspberry Pi firmware and raspi-config find
 * them: /boot/firmware or /boot, os_prefix, and the cmdline= of config.txt. */
#ifndef SBCDISK_COMMON_BOOTLOC_H
#define SBCDISK_COMMON_BOOTLOC_H

#include <limits.h>
#include <stdbool.h>

#include "common/sysroot.h"

struct boot_loc {
	char fw_dir[32];        /* the firmware directory: Bookworm's or the older one */
	char cmdline[PATH_MAX]; /* target path of cmdline.txt, os_prefix and cmdline= applied */
	char config[PATH_MAX];  /* target path of config.txt */
	bool has_config;        /* config.txt exists there */
	char prefix[128];       /* the os_prefix in force, "" for none */
	char cmdline_set[128];  /* the cmdline= of config.txt, "" when it sets none */
};

/*
 * Decide where the boot files are. The firmware's published os_prefix (device tree) wins
 * over config.txt's. 0; -EINVAL when the command line file (prefix and name, kept in loc)
 * would leave the firmware directory; -ENAMETOOLONG.
 */
int boot_loc_find(struct sysroot *sr, struct boot_loc *loc);

/*
 * The command line file's name inside a boot partition whose config.txt holds config[0..len)
 * (NULL: none): its os_prefix and cmdline= applied, "cmdline.txt" by default. For a disk that
 * is not running (no firmware's word on the prefix). 0; -EINVAL when the name would leave
 * the partition; -ENAMETOOLONG.
 */
int boot_loc_cmdline_name(const char *config, size_t len, char *name, size_t cap);

#endif
