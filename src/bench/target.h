/* target.h - what a benchmark runs on: a test file in a directory, an existing file (read
 * only), or a block device (read only unless --destructive and not in use). */
#ifndef SBCDISK_BENCH_TARGET_H
#define SBCDISK_BENCH_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/sysroot.h"

enum bench_target_kind { BENCH_TARGET_DIR, BENCH_TARGET_FILE, BENCH_TARGET_BLOCKDEV };

/* The test file in a directory target: "sbcdisk-bench-PID.tmp", one per process, so benches
 * running side by side in one directory never meet. */
#define BENCH_TEST_FILE_PREFIX "sbcdisk-bench-"
#define BENCH_DEFAULT_DIR "/var/tmp"

struct bench_target {
	enum bench_target_kind kind;
	char path[PATH_MAX];    /* the target as given, or the default directory */
	char shown[PATH_MAX];   /* path for output: '?' for control bytes and bytes not UTF-8 */
	char file[PATH_MAX];    /* the test file (dir targets) */
	int fd_direct;          /* O_DIRECT, or -1 where the filesystem refuses it */
	int fd_buffered;
	bool writable;          /* write tests may run */
	bool created;           /* our test file: unlinked as soon as it is open */
	uint64_t size;          /* usable bytes (a multiple of align) */
	uint32_t align;         /* logical block size: offsets and lengths are multiples */
	bool has_device;
	unsigned maj, min;
	char device[64];        /* "vda", "mmcblk0p2" */
	char disk[64];          /* "vda", "mmcblk0" */
	char attachment[256];   /* how the disk is attached ("usb 5000M uas ..."), "" unknown */
	const char *in_memory;  /* "on tmpfs", "a RAM disk"...: memory, not a drive; or NULL */
};

struct bench_target_opts {
	bool destructive;       /* write tests on a named block device */
	bool want_writes;       /* the profile has write tests */
};

/* Open path (NULL: BENCH_DEFAULT_DIR). For a directory nothing is created yet. 0 or -errno
 * with a reason for people in why. */
int bench_target_open(struct sysroot *sr, const char *path, const struct bench_target_opts *o,
		      struct bench_target *t, char *why, size_t whycap);

/* Create the test file (O_EXCL|O_NOFOLLOW) of size bytes in a directory target, after
 * checking the free space; it is unlinked at once, so it goes away with the process. */
int bench_target_create_file(struct bench_target *t, uint64_t size, char *why, size_t whycap);

/* Drop the target's pages from the page cache: fsync + POSIX_FADV_DONTNEED on files,
 * BLKFLSBUF on block devices. 0 or -errno (-EPERM where the ioctl is refused). */
int bench_target_drop_cache(struct bench_target *t);

/* Close, and unlink the test file if it is still there. Safe to call twice. */
void bench_target_release(struct bench_target *t);

const char *bench_target_kind_name(enum bench_target_kind k);

#endif
