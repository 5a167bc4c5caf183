/* atomic.h - replace a file so that a crash or a full disk leaves either the old or the new
 * contents, never a mix: temporary file beside it, fsync, rename, fsync of the directory. */
#ifndef SBCDISK_FIX_ATOMIC_H
#define SBCDISK_FIX_ATOMIC_H

#include <stddef.h>
#include <sys/types.h>

/* Replace dirfd/name (name has no '/') with data. The new file gets mode (and, best effort,
 * uid/gid when they are not -1). 0 or -errno; on any failure name is untouched and the
 * temporary file is gone. Once the rename is done the result is 0. */
int atomic_replace_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode,
		      uid_t uid, gid_t gid);

/* Create dirfd/name exclusively (O_EXCL, never following a link), write data, fsync it and
 * the directory. 0, -EEXIST or another -errno (then no file is left behind). */
int atomic_create_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode);

#endif
