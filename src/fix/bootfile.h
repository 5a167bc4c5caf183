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

/* Write a dated backup of bf's current bytes beside it; its name into backup. 0 or -errno. */
int boot_file_backup(struct sysroot *sr, const struct boot_file *bf, char *backup, size_t cap);
/* Replace bf's file with data atomically (mode and owner kept). 0 or -errno. */
int boot_file_replace(struct sysroot *sr, const struct boot_file *bf, const void *data,
		      size_t len);

/* The newest backup of dir/name: its name into out (empty when there is none). 0 or -errno. */
int boot_backup_newest(struct sysroot *sr, const char *dir, const char *name, char *out,
		       size_t cap);
/* Remove dir/name (a used backup). 0 or -errno. */
int boot_file_remove(struct sysroot *sr, const char *dir, const char *name);

#endif
