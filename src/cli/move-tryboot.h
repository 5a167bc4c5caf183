/* move-tryboot.h - move's trial boot: tryboot.txt and the trial command line on the running
 * boot partition, shown as a diff in the dry run and written with backups by --apply. */
#ifndef SBCDISK_CLI_MOVE_TRYBOOT_H
#define SBCDISK_CLI_MOVE_TRYBOOT_H

#include "cli/cli.h"
#include "probe/probe.h"

/* The partition number of the running root (2 for mmcblk0p2), 0 when not known. */
unsigned move_root_partn(const struct inventory *inv);
/* "PARTUUID=..." of partition partn of disk name in a fresh read of the block devices,
 * into buf; -ENOENT when it has none. */
int move_copy_root(struct cli_ctx *ctx, const char *name, unsigned partn, char *buf, size_t cap);

/*
 * Set up the trial boot with root (the copy's root=) for the running kernel (its osrelease):
 * the diff of the two files, then with
 * apply the files written (a backup of any that existed). Prints what it does. 0; -errno
 * when it cannot (why says it in words: then no file was changed).
 */
int move_tryboot(struct cli_ctx *ctx, const char *kernel, const char *root, bool apply,
		 char *why, size_t cap);

#endif
