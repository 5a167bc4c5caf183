/* bootloc.h - where the boot files are, as the Raspberry Pi firmware and raspi-config find
 * them: /boot/firmware or /boot, os_prefix, and the cmdline= of config.txt. */
#ifndef SBCDISK_COMMON_BOOTLOC_H
#define SBCDISK_COMMON_BOOTLOC_H

#include <limits.h>
#include <stdbool.h>

#include "common/bootcfg-eval.h"
#include "common/sysroot.h"

struct boot_loc {
	char fw_dir[32];        /* the firmware directory: Bookworm's or the older one */
	char cmdline[PATH_MAX]; /* target path of cmdline.txt, os_prefix and cmdline= applied */
	char config[PATH_MAX];  /* target path of config.txt */
	bool has_config;        /* config.txt exists there */
	char prefix[128];       /* the os_prefix in force, "" for none */
	char cmdline_set[128];  /* the cmdline= of config.txt, "" when it sets none */
	struct config_board board; /* the board config.txt was read for (this one) */
	char why[256];          /* on failure: what config.txt does that is not followed */
};

/*
 * Decide where the boot files are, with config.txt read for this board (common/bootcfg-eval.h:
 * filters, include). The firmware's published os_prefix (device tree) wins over config.txt's.
 * 0; -EINVAL when the command line file (prefix and name, kept in loc) would leave the
 * firmware directory; -EAGAIN when it depends on a filter that cannot be known offline,
 * -ELOOP for include loops, -ENAMETOOLONG (loc->why says which in every case).
 */
int boot_loc_find(struct sysroot *sr, struct boot_loc *loc);

/*
 * The command line file's name inside a boot partition whose files src reads, config.txt
 * read for board b: its os_prefix and cmdline= applied, "cmdline.txt" by default. For a disk
 * that is not running (no firmware's word on the prefix). 0; -EINVAL when the name would
 * leave the partition; -EAGAIN, -ELOOP, -ENAMETOOLONG or a read error (why says which).
 */
int boot_loc_cmdline_name(const struct config_source *src, const struct config_board *b,
			  char *name, size_t cap, char *why, size_t wcap);

#endif
