/* check.h - will a disk or an image boot: boot/'s check through the disk's mounts, or, where its
 * partitions are not mounted, read through its partition table as clone reads its copy. */
#ifndef SBCDISK_FLOW_CHECK_H
#define SBCDISK_FLOW_CHECK_H

#include <stddef.h>

#include "boot/boot.h"
#include "common/bootcfg-eval.h"
#include "common/sysroot.h"
#include "probe/probe.h"

/*
 * Append the checks of one disk to c: d, a whole disk of inv, or NULL and image, the path of
 * an image file. A disk none of whose partitions is mounted, with a node, is read through
 * its partition table and its boot partition's FAT (clone_boot_check_path()); else (or when
 * no table can be read there) boot_check_disk() judges it from its mounts. config.txt's
 * sections are read for board (NULL: this board) where the files are read so. 0 or -errno.
 */
int flow_check_disk(struct sysroot *sr, const struct inventory *inv, const struct boot_facts *f,
		    const struct blkdev *d, const char *image, const struct config_board *board,
		    struct boot_checks *c);

#endif
