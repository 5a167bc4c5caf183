/* fix-disk.h - `fix --disk DISK` and `boot check` of an unmounted disk: the disk or image a
 * user names resolved once, its boot partition found by clone/, handed to fix/ and boot/. */
#ifndef SBCDISK_CLI_FIX_DISK_H
#define SBCDISK_CLI_FIX_DISK_H

#include <limits.h>

#include "clone/clone.h"
#include "fix/files.h"
#include "probe/probe.h"

struct fix_disk {
	struct sysroot *sr;
	char mnt[PATH_MAX];   /* where its boot partition is mounted (target path), "" none */
	char path[PATH_MAX];  /* the node ("/dev/sda" on the host) or the image file */
	char kname[64];       /* "sda", "" for an image file */
	struct clone_bootpart bp;
	struct fix_files files;
};

/*
 * arg: a whole disk's kernel name ("sda"), its node ("/dev/sda") or an image file. A disk
 * whose FAT partition is mounted is edited there (through the sysroot, the atomic writer);
 * else its boot partition is found in its table and reached through mtools. Refused (a
 * message printed, EXIT_FAIL returned): a partition, another partition of it mounted, no
 * boot partition.
 * EXIT_OK with d filled.
 */
int fix_disk_open(struct sysroot *sr, const struct inventory *inv, const char *cmd,
		  const char *arg, struct fix_disk *d);

#endif
