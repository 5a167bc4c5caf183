/* clone.h - moving a system to another disk or an image: the plan (source layout, target
 * layout, how each partition is copied, which names are rewritten), and doing it. */
#ifndef SBCDISK_CLONE_H
#define SBCDISK_CLONE_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bootcfg-eval.h"
#include "common/sysroot.h"
#include "probe/ref.h"

#define CLONE_PARTS_MAX	   16
#define CLONE_REWRITES_MAX 32
#define CLONE_CHECKS_MAX   48
#define CLONE_DIFFS_MAX	   20
#define CLONE_TEXT_MAX	   (256 * 1024) /* cmdline.txt, fstab, extlinux.conf */
#define CLONE_ALIGN	   (4ULL << 20) /* partitions start on 4 MiB */

enum clone_method {
	CLONE_BY_NONE = 0,	 /* nothing to copy (an extended container) */
	CLONE_BY_USED,	 /* what its file system uses (ext: blocks, FAT: clusters), then grown */
	CLONE_BY_WHOLE,	 /* every byte of the partition */
	CLONE_BY_FILES,	 /* a mounted read-write file system: files into a fresh one */
};

const char *clone_method_name(enum clone_method m);

struct clone_fs;

struct clone_part {
	unsigned partno;      /* 1-based, as the table numbers it */
	uint64_t start, size; /* bytes, on the source */
	char fstype[16];      /* "ext4", "vfat", "swap", "" unknown */
	const struct clone_fs *fs; /* how clone treats it: clone_fs_of(fstype) (clone/fs.h) */
	char uuid[40], label[64], partuuid[40], partlabel[80];
	char name[64];	      /* kernel name when the source is a disk ("mmcblk0p2"), else "" */
	unsigned dos_type;    /* DOS: the type byte */
	char gpt_type[40];    /* GPT: the type GUID */
	bool bootable;
	bool has_used;
	uint64_t used;	      /* bytes in use (ext2/3/4) */
	bool journal_dirty;   /* ext: its journal needs recovery (copied whole, replayed on
			       * the copy only) */
	bool fs_errors;	      /* ext: errors recorded on the source */
	bool mounted, mounted_rw;
	char mountpoint[256];
	bool is_root, is_boot;

	/* the target */
	uint64_t t_start, t_size;
	char t_uuid[40], t_partuuid[40];
	char t_dev[64]; /* the kernel's node of the target partition ("/dev/sdb2"), "" none */
	char s_dev[64]; /* the source partition's, when it is not mounted, "" none */
	uint32_t t_vfat_id;
	unsigned t_unit; /* CLONE_BY_FILES onto other sectors: the new file system's sector
			  * (FAT) or block (ext) size; 0: its own choice */
	enum clone_method method;
	uint64_t copy_bytes; /* what the copy reads */

	/* what happened */
	uint64_t copied;
	double copy_s;
	char result[96];
};

struct clone_rewrite {
	char file[32]; /* "cmdline.txt", "/etc/fstab", "extlinux.conf" */
	unsigned line; /* 1-based */
	char before[192], after[192];
	bool done;
};

enum clone_check_state { CLONE_CHECK_PASS, CLONE_CHECK_FAIL, CLONE_CHECK_WARN };

struct clone_check {
	char name[32];
	enum clone_check_state state;
	char detail[512]; /* what was seen */
	char fix[512];	  /* what to do on WARN or FAIL, "" none */
};

struct clone_progress {
	const char *phase; /* "copying p2" */
	uint64_t done, total;
	double bw;	   /* bytes/s so far */
	double left_s;	   /* -1 when unknown */
};

/* What the expected time of the copy is based on. */
struct clone_speed {
	bool has_read, has_write;
	double read_bps, write_bps; /* the source's sequential read, the target's write */
	char read_from[16], write_from[16]; /* "stored" (a bench), "measured" (now), "" */
	char read_at[32], write_at[32];	    /* when a stored bench ran, "" */
	uint64_t measured_bytes;	    /* how much the short read read */
	bool has_time;
	double time_s;
};

struct clone_opts {
	const char *source; /* NULL: the disk that holds the running root */
	const char *target;
	bool apply;
	bool whole;	     /* block copy of everything, layout not interpreted */
	bool has_root_size;
	uint64_t root_size;
	bool verify_full;    /* checksum every file, not a sample */
	bool allow_live_blocks; /* the user's say-so for a block copy of a mounted rw fs */
	struct config_board board; /* with has_board: the board the copy is for, whose */
	bool has_board;            /* config.txt sections are read (else this board) */
};

struct clone_plan {
	/* SOURCE and TARGET resolved once (probe/ref.h): every step and every comparison
	 * takes these, never the names again; src_path and dst_path are their paths */
	struct probe_ref src_ref, dst_ref;
	char src_path[PATH_MAX], dst_path[PATH_MAX];
	char src_disk[64], dst_disk[64]; /* kernel names when disks, else "" */
	char src_own_disk[64]; /* the disk name the source's system gives its root (root=
				* /dev/mmcblk0p2: "mmcblk0"), "" unknown: an image's or a loop
				* device's own names */
	bool src_is_file, dst_is_file, dst_exists;
	uint64_t src_size, dst_size;
	unsigned sector;     /* the source's logical sector size */
	unsigned dst_sector; /* a disk target's (0: an image, 512) */
	char src_label[8], dst_label[8]; /* "dos", "gpt" */
	bool label_changed;		 /* DOS source, GPT target over 2 TiB */
	char src_id[40], dst_id[40];	 /* disk identifier / GUID */
	size_t n_parts;
	struct clone_part parts[CLONE_PARTS_MAX];
	int root, boot; /* indexes in parts, -1 when none */
	bool whole;
	uint64_t need_bytes;  /* the smallest target that holds the layout */
	uint64_t copy_bytes;  /* all that will be read */
	size_t n_rewrites;
	struct clone_rewrite rewrites[CLONE_REWRITES_MAX];
	char cmdline_file[128]; /* the boot partition's command line file as its config.txt
				 * names it (common/bootloc.c): "cmdline.txt" by default */
	char *cmdline_new, *fstab_new, *extlinux_new; /* whole new texts, NULL: unchanged */
	size_t cmdline_len, fstab_len, extlinux_len;
	int extlinux_part;	 /* index of the partition holding extlinux.conf, -1 none */
	char extlinux_path[32]; /* where on it ("/boot/extlinux/extlinux.conf") */
	/* the files written on the target: fstab and extlinux.conf with the symbolic links in
	 * their paths resolved on the source's file system ("/etc/fstab.d/main") */
	char fstab_at[128], extlinux_at[128];
	struct clone_speed speed; /* clone_plan_estimate() */
	char sectors_note[400]; /* the target's sectors differ from the source's: how the
				 * copy is laid out in them, "" when they do not */
	char warnings[4][200];
	size_t n_warnings;

	/* what happened (apply) */
	bool applied;
	double copy_s, window_s;
	bool has_window;
	size_t n_checks;
	struct clone_check checks[CLONE_CHECKS_MAX];
	size_t n_diffs, n_compared;
	uint64_t n_hashed;
	char diffs[CLONE_DIFFS_MAX][200];
	bool wiped; /* stopped: the target's partition table was wiped */
	/* an image target with --apply: open and locked from the plan on (dst_held, dst_fd);
	 * made by the plan (dst_created); removed again after a failure or a stop */
	bool dst_held, dst_created, dst_removed;
	int dst_fd;
	/* a loop device target over an image file: that file locked as an image target is
	 * (one clone per image, by whichever name) while dst_locked */
	bool dst_locked;
	int dst_lock_fd;
	/* what the image is opened by while held: /proc/self/fd/N, the file opened, not what
	 * its name may point at by then (clone_dst()) */
	char dst_io[32];
	bool dst_touched;   /* something was written to the target */
	bool table_written; /* the target's new table is on it */
	bool t_kparts; /* the kernel has the target's partitions as devices (t_dev) */

	struct sysroot *sr; /* clone_plan_make()'s, for the boot check */
	struct config_board board; /* whose config.txt sections are read: --board, or this one */
	/* the block devices as the plan read them (the dry run's stored speeds look the disks
	 * up here); freed by clone_plan_release() */
	struct inventory *inv;

	/* set by the caller before clone_apply() */
	volatile sig_atomic_t *stop;
	void (*progress)(void *arg, const struct clone_progress *p);
	void *progress_arg;
};

/*
 * Read the source and the target and decide the plan. Nothing is written, except that with
 * o->apply an image target is made (empty) when it is not there, and opened and locked for
 * the run (p->dst_held: another clone's plan is refused with -EBUSY). 0; -EINVAL with
 * why set for a refusal (item 2 of the plan's rules) or a layout not understood; another
 * -errno with why for a failure to read. The caller frees with clone_plan_release().
 */
int clone_plan_make(struct sysroot *sr, const struct clone_opts *o, struct clone_plan *p,
		    char *why, size_t whycap);
void clone_plan_release(struct clone_plan *p);

/*
 * The expected time of the copy in p->speed: from the speeds the caller put there (a
 * stored bench of either disk: has_read/has_write, *_from "stored"), else the source's
 * read is measured now with a short direct read (at most 256 MiB or 2 s; nothing is
 * written). The copy is read-bound when the target's write speed is unknown.
 */
void clone_plan_estimate(struct clone_plan *p);

/*
 * Do the plan: the target's table is wiped first and written last, so a stop leaves no
 * table. 0; -EINTR when *p->stop was set (the table is wiped, p->wiped); -errno with why.
 * After a failure or a stop, an image the plan made is removed (p->dst_removed).
 * Verification results are in p->checks and p->diffs; a failed check is not an error here.
 */
int clone_apply(struct clone_plan *p, const struct clone_opts *o, char *why, size_t whycap);

/* The target's partition table region wiped (the first MiB and the last MiB). 0 or -errno. */
int clone_target_wipe(const char *path);

/*
 * The partition-table side, public for the tests: read a table (DOS or GPT) into parts
 * (start, size, types, ids, names). -EINVAL with why for extended partitions or no table.
 */
int clone_table_read(const char *path, struct clone_plan *p, char *why, size_t whycap);
/* Write p's target table (dst_label, dst_id, each part's t_start/t_size/type/partuuid). */
int clone_table_write(const struct clone_plan *p, char *why, size_t whycap);

/*
 * Rewrite the names in text (cmdline.txt, extlinux.conf or fstab) that name a source
 * partition, each to its target's id; one clone_rewrite per change appended to p. The new
 * text in *out (malloc'd, NULL when nothing changed). 0 or -errno.
 */
enum clone_text {
	CLONE_TEXT_FSTAB = 0,
	CLONE_TEXT_CMDLINE = 1, /* cmdline.txt: one line, its root= */
	CLONE_TEXT_EXTLINUX,	/* extlinux.conf: the root= of each APPEND line */
};
int clone_rewrite_text(struct clone_plan *p, const char *file, enum clone_text kind,
		       const char *text, size_t len, char **out, size_t *outlen);

/*
 * The boot partition of a disk or an image whose files are not mounted, as the plan finds
 * it: the first partition whose file system can hold the firmware's files (FAT), reached at
 * its offset through mtools. For `fix --disk` and `boot check` of such a disk.
 */
struct clone_bootpart {
	char path[PATH_MAX]; /* the disk's node or the image file */
	uint64_t off, size;
	unsigned partno;
};
/* 0; -ENOENT with why when no partition holds a FAT file system; -EINVAL, -EIO with why. */
int clone_bootpart_find(const char *path, struct clone_bootpart *bp, char *why, size_t whycap);
/* A file of it (name relative to its root): read (at most cap bytes; out is initialised
 * here), replace or create, remove, and every path one "::/path" a line. 0 or -errno. */
struct sbuf;
int clone_bootpart_read(const struct clone_bootpart *bp, const char *name, size_t cap,
			struct sbuf *out);
int clone_bootpart_write(const struct clone_bootpart *bp, const char *name, const void *data,
			 size_t len);
int clone_bootpart_remove(const struct clone_bootpart *bp, const char *name);
int clone_bootpart_list(const struct clone_bootpart *bp, struct sbuf *out);

/* boot/'s check of the disk or image at path (kernel name disk, "" for an image) read
 * through its partition table and mtools, as clone checks its copy: for a disk whose
 * partitions the kernel has no devices for or that are not mounted; config.txt's sections
 * read for board (NULL: this board). 0 or -errno with why. */
struct boot_facts;
struct boot_checks;
struct inventory;
int clone_boot_check_path(struct sysroot *sr, const char *path, const char *disk,
			  const struct inventory *inv, const struct boot_facts *f,
			  const struct config_board *board, struct boot_checks *c, char *why,
			  size_t whycap);

#endif
