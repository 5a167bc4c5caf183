/* fix-disk.h - `fix --disk DISK` and `boot check` of an unmounted disk: the disk or image a
 * user names resolved once, its boot partition found by clone/, handed to fix/ and boot/. */
#ifndef SBCDISK_CLI_FIX_DISK_H
#define SBCDISK_CLI_FIX_DISK_H

#include <limits.h>

#include "clone/clone.h"
#include "fix/files.h"
#include "probe/probe.h"

struct fix_disk {
	char path[PATH_MAX];  /* the node ("/dev/sda" on the host) or the image file */
	char kname[64];       /* "sda", "" for an image file */
	struct clone_bootpart bp;
	struct fix_files files;
};

/*
 * arg: a whole disk's kernel name ("sda"), its node ("/dev/sda") or an image file. Refused
 * (a message printed, EXIT_FAIL returned): a partition, a disk whose partition is mounted
 * (its files are edited on the mounted file system: without --disk), no boot partition.
 * EXIT_OK with d filled.
 */
int fix_disk_open(struct sysroot *sr, const struct inventory *inv, const char *cmd,
		  const char *arg, struct fix_disk *d);

#endif
