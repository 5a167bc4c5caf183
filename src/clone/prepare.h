/* prepare.h - a new data disk: one GPT partition from 1 MiB to the end, aligned to the disk,
 * a file system with a label and a UUID chosen beforehand, and the fstab line that mounts it. */
#ifndef SBCDISK_CLONE_PREPARE_H
#define SBCDISK_CLONE_PREPARE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/sysroot.h"
#include "probe/ref.h"

#define PREPARE_FOUND_MAX 16
#define PREPARE_NOTES_MAX 6
/* nofail: a drive that is missing at boot does not stop the boot (emergency mode); the
 * timeout: systemd waits 10 s for it, not its default 90 s */
#define PREPARE_FSTAB_OPTS "defaults,nofail,x-systemd.device-timeout=10s"

struct inventory;
struct blkdev;

/* A file system the plan can make: its mkfs, its Debian package, the smallest partition
 * it takes, the longest label, fstab's pass number. */
struct prepare_fs {
	const char *name, *mkfs, *package;
	uint64_t min_bytes;
	unsigned label_max;
	unsigned pass;
};
const struct prepare_fs *prepare_fs_find(const char *name);
/* The table of every one, ended by a row with a NULL name. */
extern const struct prepare_fs prepare_fs_table[];
/* Is fs's mkfs on PATH? */
bool prepare_fs_available(const struct prepare_fs *fs);

struct prepare_opts {
	const char *disk;	/* as the user named it */
	const char *mountpoint; /* NULL: /mnt/LABEL */
	const char *fstype;	/* NULL: ext4 */
	const char *label;	/* NULL: "data" */
	bool wipe;		/* what is on the disk may go */
	bool apply;
};

/* Something on the disk that the new table erases. */
struct prepare_found {
	char what[64];	 /* "partition 1 (sdb1)", "the whole disk" */
	char fstype[32]; /* "" none known */
	char label[64];
	uint64_t size;
	bool has_used;
	uint64_t used;
};

struct prepare_plan {
	struct sysroot *sr;
	struct inventory *inv;
	struct probe_ref ref;  /* the disk as the user named it, resolved once */
	const struct blkdev *disk;
	char path[PATH_MAX];   /* the disk's node ("/dev/sdb") */
	char kname[64];
	uint64_t size;
	unsigned lsec, psec;   /* logical and physical sector bytes */
	uint64_t opt_io;       /* the optimal transfer size, 0 when not reported */
	uint64_t align;        /* what the partition's start and size are multiples of */
	uint64_t start, part_size;
	char old_table[8];     /* "dos", "gpt", "" none */
	size_t n_found;
	struct prepare_found found[PREPARE_FOUND_MAX];
	const struct prepare_fs *fs;
	char label[64];
	char mountpoint[PATH_MAX];    /* as the running system sees it */
	char mountpoint_at[PATH_MAX]; /* where it is here (inside --sysroot) */
	char disk_guid[40], part_uuid[40];
	char fs_uuid[40];      /* what the fstab line names: UUID=fs_uuid ("" until mkfs
				* for exfat, whose mkfs takes none) */
	char fstab_line[PATH_MAX + 160];
	char notes[PREPARE_NOTES_MAX][240];
	size_t n_notes;

	/* what happened (apply) */
	bool touched, table_written, fs_made, mounted;
	char part_dev[64];     /* the partition as a device: the kernel's, or a loop device */
	bool part_is_loop;     /* reached by offset through a loop device (no kernel partition) */
	int loop_fd;
};

/*
 * Read the disk and decide the plan: nothing is written. 0; -EINVAL with why for a refusal
 * (the running system's disk, in use, contents without wipe, too small, read-only, 4Kn
 * behind a USB bridge, a file system whose mkfs is missing, a bad label or mount point);
 * -ENOENT (no such disk); another -errno. prepare_plan_release() in every case.
 */
int prepare_plan_make(struct sysroot *sr, const struct prepare_opts *o, struct prepare_plan *p,
		      char *why, size_t whycap);
void prepare_plan_release(struct prepare_plan *p);
/* p->fstab_line from the plan's UUID, mount point and file system. */
void prepare_fstab_line(struct prepare_plan *p);
/* What the new table erases, in words ("" for an empty disk). */
void prepare_plan_lost(const struct prepare_plan *p, char *buf, size_t cap);

/*
 * The disk's part of the plan: the old table wiped, the GPT written (libfdisk), the kernel's
 * partition device waited for (else a loop device over the partition's bytes), the file
 * system made. 0 or -errno with why; p->touched, table_written, fs_made say how far it went.
 */
int prepare_apply_disk(struct prepare_plan *p, char *why, size_t whycap);

/* The mount point made (mkdir -p) and the partition mounted there. 0 or -errno with why. */
int prepare_mount(struct prepare_plan *p, char *why, size_t whycap);

#endif
