/* atomicfile.h - the one atomic file writer (after git's lockfile.c and tempfile.c): a short
 * temporary name beside the target, fsync, rename, directory fsync, and no temporary left. */
#ifndef SBCDISK_COMMON_ATOMICFILE_H
#define SBCDISK_COMMON_ATOMICFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "common/compiler.h"


/* Temporary files are ".sbcdisk-PID-XXXXXX": short whatever the target's name, and a later
 * writer removes those of a process that is gone. */
#define AFILE_TMP_PREFIX ".sbcdisk-"

struct afile_opts {
	mode_t mode;                /* 0: the replaced file's mode, or 0666 & ~umask if new */
	uid_t uid;                  /* (uid_t)-1: the owner of the process */
	gid_t gid;
	const struct stat *protect; /* files (st_dev, st_ino) never to replace: -ETXTBSY */
	size_t n_protect;
	bool locked;                /* the caller holds afile_lock() on the directory */
	/* With backup: the old contents under that name too, created exclusively and
	 * committed with the replacement: both or neither, even after a kill -9 (the next
	 * afile_backup_settle() removes a backup whose replacement did not happen). */
	const char *backup;
	const void *backup_data;
	size_t backup_len;
};
#define AFILE_OPTS_INIT { .uid = (uid_t)-1, .gid = (gid_t)-1 }

/*
 * Take the directory's advisory lock (flock), so two writers never interleave, and remove
 * the temporary files that writers killed before their end left there. wait: block until
 * the lock is free, else -EBUSY at once. 0 or -errno.
 */
int afile_lock(int dirfd, bool wait) MUST_CHECK;
void afile_unlock(int dirfd);

/* Remove the temporary files of processes that are gone. The number removed. */
int afile_clean_stale(int dirfd);

/*
 * Replace (or create) dirfd/name with what fill() writes to the stream it is given (0 or
 * -errno). Refused, with nothing written: a name with '/' (-EINVAL); a symbolic link
 * (-ELOOP), a directory (-EISDIR) or any other file that is not a regular file (-EINVAL);
 * a protected file (-ETXTBSY, "in use"); an existing backup name (-EEXIST). On any failure
 * dirfd/name is untouched and no temporary file is left; a signal (INT, TERM, HUP, QUIT,
 * PIPE) during the write removes the temporary file before the process dies of it.
 */
int afile_commit_at(int dirfd, const char *name, int (*fill)(FILE *f, void *arg), void *arg,
		    const struct afile_opts *o) MUST_CHECK;

/* afile_commit_at() with bytes. */
int afile_replace_at(int dirfd, const char *name, const void *data, size_t len,
		     const struct afile_opts *o) MUST_CHECK;

/* afile_commit_at() on a path ("dir/name" or "name"). */
int afile_write_path(const char *path, int (*fill)(FILE *f, void *arg), void *arg,
		     const struct afile_opts *o) MUST_CHECK;

/*
 * After a kill between the backup's commit and the replacement: dirfd/backup holds exactly
 * the bytes of dirfd/name, so the replacement it was made for did not happen. Remove it
 * then (1), else keep it (0). Call with the lock held. 1, 0 or -errno.
 */
int afile_backup_settle(int dirfd, const char *name, const char *backup) MUST_CHECK;

/* Tests: called at each step of a commit (1 backup written, 2 new contents written,
 * 3 backup committed, 4 target replaced), so that a test can die there. */
extern void (*afile_test_step)(int step);

#endif
