/* ref.h - what the user named, resolved once: a disk, a partition, an image file or a
 * directory as one object compared by identity, and the one answer to "may it be written". */
#ifndef SBCDISK_PROBE_REF_H
#define SBCDISK_PROBE_REF_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/compiler.h"
#include "common/sysroot.h"
#include "probe/probe.h"

/*
 * How to use it (bench, verify, clone, move, prepare, fix):
 *
 *	struct probe_ref ref;
 *	char why[512];
 *
 *	ret = probe_ref_resolve(sr, inv, argv[i], PROBE_REF_MAY_BE_NEW, &ref, why, sizeof(why));
 *	if (ret)
 *		... print why, exit 1 (2 for a usage error is the caller's choice) ...
 *	if (probe_ref_same(&src, &dst))           ... "the target is the source"
 *	if (probe_ref_is_running_disk(inv, &src)) ... "the source is the running system's disk"
 *	if (probe_ref_in_use(sr, inv, &dst, why, sizeof(why)))  ... refuse, say why (one line)
 *	fd = open(ref.path, ...); then probe_ref_check_fd(&ref, fd) before writing.
 *
 * Resolve the name once per command and hand the object to every step: never the string
 * again. A name is resolved like this:
 *   - a bare name with no '/' that the inventory knows as a kernel name ("mmcblk0", "sda",
 *     "nvme0n1", "loop3") is that block device; if a file of that name is also in the working
 *     directory the name is ambiguous and refused ("write /dev/sda or ./sda");
 *   - any other name is a path (relative, a symlink, a /dev/disk/by-* link, ...), followed
 *     to what it names. Under --sysroot a name in /dev (or a bare name) is followed inside
 *     the tree, and its device is found in the tree's inventory by its kernel name;
 *   - a path that is not there is an image file to be made (PROBE_REF_NEW) when the caller
 *     allows it (PROBE_REF_MAY_BE_NEW): its identity is then the directory it goes in.
 * Nothing is cut: a name longer than PATH_MAX is refused with -ENAMETOOLONG.
 *
 * The pointers in a probe_ref point into the inventory it was resolved with: free the ref
 * (nothing to free) before the inventory.
 */

enum probe_ref_kind {
	PROBE_REF_NONE = 0,
	PROBE_REF_BLOCK, /* a block device: devno, dev, disk, partn */
	PROBE_REF_FILE,	 /* a regular file: st_dev + st_ino, bytes [off, off + size) */
	PROBE_REF_DIR,	 /* a directory: st_dev + st_ino */
	PROBE_REF_NEW,	 /* a file not there yet: st_dev + st_ino are its directory's */
};

/* probe_ref_resolve() flags */
#define PROBE_REF_MAY_BE_NEW 0x1 /* a path not there is a file to make, not an error */

struct probe_ref {
	enum probe_ref_kind kind;
	char shown[PATH_MAX]; /* the name as the user gave it, made printable */
	char path[PATH_MAX];  /* what to open: "/dev/sda" for "sda" or a by-id link, the
			       * file's path as named (relative stays relative) */
	dev_t devno;	      /* BLOCK: the device number */
	const struct blkdev *dev;  /* BLOCK: the inventory's device, NULL when not there */
	const struct blkdev *disk; /* BLOCK: its whole disk (dev itself for a disk) */
	bool is_partition;	   /* BLOCK: a partition of disk, number partn */
	unsigned partn;
	dev_t st_dev; /* FILE, DIR: the file's; NEW: its directory's */
	ino_t st_ino;
	uint64_t off, size; /* FILE: the bytes it covers (the whole file: 0, its size);
			     * BLOCK: 0 and the size when known */
	const struct blkdev *fs_dev; /* FILE, DIR, NEW: the device of the file system it is on
				      * (NULL for tmpfs, overlay, nfs ...) */
};

/* Resolve name into *ref (see above). 0; -ENOENT (not there, and not allowed to be new),
 * -EINVAL (ambiguous, or neither a block device, a regular file nor a directory),
 * -ENAMETOOLONG, -errno; why says it in one line naming what the user wrote. inv may be NULL
 * (nothing is then known of devices but their numbers). */
MUST_CHECK int probe_ref_resolve(struct sysroot *sr, const struct inventory *inv,
				 const char *name, unsigned flags, struct probe_ref *ref,
				 char *why, size_t whycap);

/* The same object: the same block device (by number), or the same file or directory (by
 * device and inode). Never by name. */
bool probe_ref_same(const struct probe_ref *a, const struct probe_ref *b);
/* Both block devices on one whole disk (a disk and its partition, two partitions). */
bool probe_ref_same_disk(const struct probe_ref *a, const struct probe_ref *b);
/* ref is the disk, or a partition of the disk, that holds the running system's root (through
 * device-mapper or md, the disk below). False when the inventory does not know the root. */
bool probe_ref_is_running_disk(const struct inventory *inv, const struct probe_ref *ref);
/* fd (opened from ref->path) is still the object resolved: 0 or -ESTALE (the name was made
 * to point elsewhere since). */
int probe_ref_check_fd(const struct probe_ref *ref, int fd);

/*
 * The one in-use and overlap oracle: may ref be written? It follows the named device, its
 * partitions and holders, loop devices over it, and every device that is mounted, swap,
 * the running root or held (device-mapper, md), down through partitions, loop devices (their
 * backing file by device and inode, with offset and size limit) and holders to the bytes
 * they reach; two that share bytes are one in use. A file in use through a loop device
 * mounted elsewhere (mount -o loop,offset=...) is found by its inode, whatever its name.
 * 0 when nothing uses it; -EBUSY with why, one line: what holds it ("'x' is in use: loop2
 * over the same file disk.img (bytes from 4 MiB on) is mounted on /mnt"); -EINVAL when it
 * cannot be told (a loop device over something not known, too many layers), with why.
 */
MUST_CHECK int probe_ref_in_use(struct sysroot *sr, const struct inventory *inv,
				const struct probe_ref *ref, char *why, size_t whycap);

/*
 * Which bytes of which disks and files something reaches: a device through its partitions,
 * loop devices and holders; a file, and the file system it is on; a directory or a file not
 * there yet, the file system it is on (and for an overlay, the file systems of its upper,
 * lower and work directories). An extent that is only the file system holding a file is a
 * container: two containers that meet are two files on one file system, not an overlap.
 */
#define PROBE_REACH_MAX 24
struct probe_extent {
	bool file;	/* a regular file (dev, ino), else a block device (dev) */
	bool container; /* reached as the file system a file is on */
	dev_t dev;
	ino_t ino;
	uint64_t off, end; /* [off, end) bytes */
	char what[96];	   /* the file's path or the device's name, "" unknown */
};
struct probe_reach {
	size_t n;
	bool truncated; /* more than PROBE_REACH_MAX, too deep, or a backing not known */
	struct probe_extent e[PROBE_REACH_MAX];
};
/* What ref reaches. 0 or -EINVAL (PROBE_REF_NONE). */
int probe_reach_ref(struct sysroot *sr, const struct inventory *inv, const struct probe_ref *ref,
		    struct probe_reach *r);
/* What a device of the inventory reaches. */
void probe_reach_blkdev(struct sysroot *sr, const struct inventory *inv, const struct blkdev *d,
			struct probe_reach *r);
/* Do a's and b's extents share bytes? The first pair that does in *ea and *eb. */
bool probe_reach_overlap(const struct probe_reach *a, const struct probe_reach *b,
			 const struct probe_extent **ea, const struct probe_extent **eb);

#endif
