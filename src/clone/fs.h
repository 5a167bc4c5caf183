/* fs.h - the file systems clone knows, one row each (fs-ext.c, fs-vfat.c, fs-whole.c): what
 * the plan, the copy, the finish on the target and the comparison do with each kind. */
#ifndef SBCDISK_CLONE_FS_H
#define SBCDISK_CLONE_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clone/clone-int.h"

#define CLONE_FS_TOOLS_MAX 8

/* A program a file system needs, and the Debian package that has it. */
struct clone_fs_tool {
	const char *prog, *pkg;
};

/* A NULL operation is one that does not apply to the file system; what the steps do then
 * is said on each. */
struct clone_fs {
	const char *name;			/* "ext", "vfat", "whole" */
	bool (*match)(const char *fstype);	/* blkid's type is this; NULL: any */
	struct clone_fs_tool tools[CLONE_FS_TOOLS_MAX]; /* ended by a NULL prog */
	bool boot_files;  /* can hold the firmware's files (config.txt, cmdline.txt): the first
			   * partition of such a file system is the boot partition */
	bool can_be_root; /* can be the running system's root (root=, /etc/fstab) */
	bool live_blocks; /* mounted read-write, still copied by blocks (a boot partition, barely
			   * written); else refused without --allow-live-blocks */

	/* plan: how cp is copied: its method, used and copy bytes. */
	void (*plan)(const struct clone_plan *p, struct clone_part *cp);
	/* plan: the bytes in use on a mounted read-write one, for a copy of its files; with make
	 * (else such a file system is refused). */
	int (*used)(const char *path, uint64_t off, uint64_t *used);
	/* plan: the file system's own unit at off of path, in bytes (FAT: its bytes per sector,
	 * ext: its block size): one smaller than the target's sectors makes it copied by its
	 * files into a fresh one (plan_sectors). NULL or 0: not known, copied as planned. */
	unsigned (*unit)(const char *path, uint64_t off);
	/* plan: the copy's new file system id in cp->t_uuid; NULL: the id is the source's. */
	void (*new_id)(struct clone_part *cp);
	/* A file of the file system at off of image (a device or a file), at most cap bytes;
	 * -ENOENT when it is not there. NULL: no file of it is read or rewritten. */
	int (*read_file)(const char *image, uint64_t off, const char *file, size_t cap,
			 struct sbuf *out);
	/* A file's own path, its symbolic links resolved inside it; NULL: it has no links. */
	int (*resolve)(const char *image, uint64_t off, const char *file, char *out, size_t cap);
	/* A file replaced at off of image; NULL: written through a mount of it. */
	int (*write_file)(const char *image, uint64_t off, const char *file, const char *data,
			  size_t len);
	/* Every path, one "::/path" a line, to look names up in; NULL: read_file says. */
	int (*list)(const char *image, uint64_t off, struct sbuf *out);

	/* apply: the copy of what it uses (CLONE_BY_USED). */
	int (*copy_used)(struct clone_copier *c, char *why, size_t whycap);
	/* apply: a fresh one like cp's source on dev, for a copy of its files (CLONE_BY_FILES). */
	int (*make)(struct clone_plan *p, struct clone_part *cp, const char *dev, char *why,
		    size_t whycap);
	/* apply: a fresh one on dev with cp->t_unit-byte sectors and the source's files copied
	 * into it without a mount (the kernel may have no driver for it), for CLONE_BY_FILES
	 * of an unmounted one; NULL: made by make and copied between mounts. */
	int (*copy_files)(struct clone_plan *p, struct clone_part *cp, const char *dev,
			  char *why, size_t whycap);
	/* apply: its tools work on a device (a partition's own, or a loop device over it), not
	 * at an offset of the target. */
	bool on_device;
	/* apply: the copy repaired, the device appended ({ "e2fsck", "-f", "-p" }, exit 1 is
	 * success), and as a failure names it; NULL: none. */
	const char *repair[4];
	const char *repair_name;
	/* apply: the copy grown to its partition's size; NULL: it keeps its size. */
	int (*grow)(const char *dev, char *why, size_t whycap);
	/* apply: the copy given cp's new id (on dev, or at cp->t_start of dfd). NULL: none. */
	int (*set_id)(const struct clone_part *cp, const char *dev, int dfd, char *why,
		      size_t whycap);

	/* compare: what a read-only mount takes so that it writes nothing (ext: "noload", its
	 * journal not replayed); NULL: "ro" is enough. */
	const char *ro_flag;
	/* compare: the read-only check, the device appended ({ "e2fsck", "-f", "-n" }); as
	 * messages name it ("e2fsck -fn"); the repair a user runs on the source. NULL: none. */
	const char *check[4];
	const char *check_name, *repair_hint;
	/* compare: the copy's tree against the source's. NULL: not compared. */
	void (*compare)(struct clone_plan *p, struct clone_part *cp, bool full);
};

/* A command of a row (repair, check) with the device appended, in argv. */
#define CLONE_FS_ARGV_MAX 6
void clone_fs_argv(const char *const cmd[4], const char *dev, const char *argv[CLONE_FS_ARGV_MAX]);

extern const struct clone_fs clone_fs_ext, clone_fs_vfat, clone_fs_whole;

/* Every row, the one that matches anything last. */
extern const struct clone_fs *const clone_fs_table[];
extern const size_t clone_fs_count;

/* The row for blkid's type fstype ("ext4", "vfat", "swap", ""): never NULL. */
const struct clone_fs *clone_fs_of(const char *fstype);

#endif
