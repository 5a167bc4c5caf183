/* bootfile.h - find cmdline.txt and config.txt the way the Raspberry Pi firmware and
 * raspi-config do, and read, back up and replace them through the sysroot. */
#ifndef SBCDISK_FIX_BOOTFILE_H
#define SBCDISK_FIX_BOOTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "common/sbuf.h"
#include "common/bootloc.h"
#include "common/sysroot.h"
#include "fix/msgs.h"

/* Backups sit beside the file: NAME.sbcdisk-YYYYmmdd-HHMMSS (UTC), "-2".."-9" when a second
 * backup is made within the same second. */
#define BOOT_BACKUP_TAG ".sbcdisk-"

/* boot_loc_find() with notes that say why (os_prefix, cmdline=). 0 or -errno with m->why. */
int boot_locate(struct sysroot *sr, struct boot_loc *loc, struct fix_msgs *m);

struct boot_file {
	char path[PATH_MAX]; /* target path */
	char dir[PATH_MAX];  /* its directory */
	char name[256];      /* its last component */
	struct sbuf data;    /* the bytes, NULs included */
	mode_t mode;
	uid_t uid;
	gid_t gid;
};

/* Read a boot file (a regular file, not a link) of at most cap bytes. 0 or -errno with
 * m->why. boot_file_release() in every case. */
int boot_file_read(struct sysroot *sr, const char *path, size_t cap, struct boot_file *bf,
		   struct fix_msgs *m);
void boot_file_release(struct boot_file *bf);

/* The directory dir opened for boot_file_commit() and afile_lock(). An fd or -errno. */
int boot_dir_open(struct sysroot *sr, const char *dir);

/*
 * Replace bf's file (in the directory dfd, whose afile_lock() the caller holds) with data,
 * mode and owner kept. With old: a dated backup of old is committed with it, its name into
 * backup (empty when none was made). 0 or -errno; on failure neither file changed.
 */
int boot_file_commit(int dfd, struct sysroot *sr, const struct boot_file *bf,
		     const void *data, size_t len, const void *old, size_t old_len, char *backup,
		     size_t cap);

/* The newest backup of dir/name: its name into out (empty when there is none). 0 or -errno. */
int boot_backup_newest(struct sysroot *sr, const char *dir, const char *name, char *out,
		       size_t cap);
/* True when s is YYYYmmdd-HHMMSS with an optional -N: the tail of one of our backups. */
bool boot_backup_is_stamp(const char *s);
/* Remove dir/name (a used backup). 0 or -errno. */
int boot_file_remove(struct sysroot *sr, const char *dir, const char *name);

#endif
