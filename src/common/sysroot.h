/* sysroot.h - the one door to the system: /sys, /proc, /dev, /run, /boot and the device tree.
 * With a sysroot directory every path, symlinks included, stays inside that directory. */
#ifndef SBCDISK_SYSROOT_H
#define SBCDISK_SYSROOT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "common/compiler.h"
#include "common/sbuf.h"

struct sysroot;

/* Largest attribute value we accept (sysfs pages are 4 KiB). */
#define SYSROOT_ATTR_MAX 4096

/* Open dir (NULL or "/" means the running system). 0 or -errno; the caller frees *out. */
int sysroot_open(const char *dir, struct sysroot **out);
void sysroot_free(struct sysroot *sr);

/* "/" for the running system, else the directory given to sysroot_open(). */
const char *sysroot_dir(const struct sysroot *sr);
bool sysroot_is_live(const struct sysroot *sr);

/* Force manual symlink resolution instead of openat2(RESOLVE_IN_ROOT) (tests use it). */
void sysroot_set_manual_resolve(struct sysroot *sr, bool manual);

/*
 * All paths below are absolute paths as seen on the target ("/sys/block/sda/size").
 */

/* Canonical form of path inside the root: symlinks followed (40 at most), ".." stops at the
 * root. 0, -ELOOP, -ENOENT, -ENAMETOOLONG ... */
MUST_CHECK int sysroot_realpath(struct sysroot *sr, const char *path, char *out, size_t cap);

/* Read a regular file into buf (capacity cap, NUL-terminated, NULs inside become '?').
 * Returns the length, -E2BIG when the file holds cap bytes or more, -EINVAL when it is not a
 * regular file, or another -errno. Never blocks on FIFOs. */
MUST_CHECK int sysroot_read(struct sysroot *sr, const char *path, char *buf, size_t cap);

/* sysroot_read() of a one-value attribute, trimmed. -ENODATA when it is empty. */
MUST_CHECK int sysroot_read_str(struct sysroot *sr, const char *path, char *buf, size_t cap);
/* printf-style path variant of sysroot_read_str(). */
MUST_CHECK int sysroot_read_strf(struct sysroot *sr, char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Decimal (or 0x-hex with base 0) numbers. -EINVAL when the value is not a number. */
MUST_CHECK int sysroot_read_u64(struct sysroot *sr, const char *path, uint64_t *out);
MUST_CHECK int sysroot_read_u64_base(struct sysroot *sr, const char *path, int base, uint64_t *out);

/* Text of the symlink path (the link itself is not followed). Returns the length. */
MUST_CHECK int sysroot_readlink(struct sysroot *sr, const char *path, char *buf, size_t cap);
/* Last component of the symlink's target ("uas" for .../driver). */
MUST_CHECK int sysroot_link_basename(struct sysroot *sr, const char *path, char *buf, size_t cap);

/* open(2) inside the root: returns an fd or -errno. O_CLOEXEC is added. */
MUST_CHECK int sysroot_open_fd(struct sysroot *sr, const char *path, int flags);
/* fopen inside the root, read-only; NULL with errno set. */
FILE *sysroot_fopen(struct sysroot *sr, const char *path);
/* opendir inside the root; 0 or -errno. The caller closedir()s *out. */
MUST_CHECK int sysroot_opendir(struct sysroot *sr, const char *path, DIR **out);
/* stat (follow = true) or lstat inside the root. */
MUST_CHECK int sysroot_stat(struct sysroot *sr, const char *path, struct stat *st, bool follow);
bool sysroot_exists(struct sysroot *sr, const char *path);

/* A whole regular file, its bytes as they are (NULs too), at most cap bytes (-EFBIG beyond;
 * -EISDIR, -EINVAL for what is not a regular file). out is initialised here and holds the
 * bytes on success; the caller releases it. 0 or -errno. */
MUST_CHECK int sysroot_read_file(struct sysroot *sr, const char *path, size_t cap,
				 struct sbuf *out);

/*
 * Device-tree properties (/proc/device-tree/...): a string property is a list of
 * NUL-terminated strings, a number property a list of big-endian 32-bit cells. Every length
 * is checked: -ENODATA for an empty property, -EINVAL for cells of the wrong size, -E2BIG
 * when the value does not fit.
 */
/* The first string of a string property (a missing final NUL is tolerated). 0 or -errno. */
MUST_CHECK int sysroot_read_dt_string(struct sysroot *sr, const char *path, char *out, size_t cap);
/* Every cell of a property (at most max) into cells, their number into *count. 0 or -errno. */
MUST_CHECK int sysroot_read_dt_cells(struct sysroot *sr, const char *path, uint32_t *cells,
				     size_t max, size_t *count);
/* A property of exactly one cell. 0 or -errno. */
MUST_CHECK int sysroot_read_dt_u32(struct sysroot *sr, const char *path, uint32_t *out);
/* A property of exactly two cells, the high one first (a 64-bit value). 0 or -errno. */
MUST_CHECK int sysroot_read_dt_u64(struct sysroot *sr, const char *path, uint64_t *out);

/* Host path for a target path, for reporting and for tools that need a real path (a live
 * root returns path itself). 0 or -E2BIG. */
MUST_CHECK int sysroot_host_path(const struct sysroot *sr, const char *path, char *out, size_t cap);

#endif
