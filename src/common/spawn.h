/* spawn.h - start another program (smartctl, vcgencmd, e2fsck ...) and keep what it prints.
 * The program is looked up on PATH here, before it starts, so "not installed" is an answer
 * and not an exit status: under an emulator (qemu-user) a failed exec in posix_spawnp's
 * child is seen only as exit 127. */
#ifndef SBCDISK_COMMON_SPAWN_H
#define SBCDISK_COMMON_SPAWN_H

#include <stddef.h>

#include "common/sbuf.h"

/* spawn_run() flags */
#define SPAWN_STDERR 1u /* standard error goes into the output too (else /dev/null) */

/* The first executable regular file called name in the directories of $PATH (or, without
 * it, the C library's default /bin:/usr/bin); a name with a '/' is taken as it is. 0;
 * -ENOENT when there is none; -ENAMETOOLONG. */
int spawn_find(const char *name, char *path, size_t cap);

/*
 * Run argv (argv[0] looked up with spawn_find()), standard input on /dev/null, and append
 * its standard output to out (NULL: read and drop it) up to out's cap; what comes past the
 * cap is read and dropped, so the program runs to its end and its exit status means what it
 * says. *status: the exit status, or -1 when a signal ended it. 0; -E2BIG when output was
 * dropped (out holds the first part); -ENOENT when the program is not installed; -errno.
 */
int spawn_run(const char *const argv[], unsigned flags, struct sbuf *out, int *status);

/* What one child gets beyond spawn_run()'s: environment entries ("NAME=VALUE", NULL-ended,
 * each replacing the inherited one of its name) and a descriptor fd as child_fd (3 or more,
 * not fd itself), so that a path /proc/self/fd/N can name an open file; fd -1 for none. */
struct spawn_extra {
	const char *const *env;
	int fd, child_fd;
};

/* spawn_run() with x (may be NULL): nothing of x touches this process. */
int spawn_run_ex(const char *const argv[], const struct spawn_extra *x, unsigned flags,
		 struct sbuf *out, int *status);

/*
 * spawn_run() into a new buffer: run argv (argv[0] looked up with spawn_find()) with standard input and error on /dev/null
 * and keep its standard output, at most max bytes, NUL-terminated in *out (the caller frees
 * it). *status: the exit status, or -1 when a signal ended it. 0; -ENOENT when the program
 * is not installed; -E2BIG when it printed more than max; -errno.
 */
int spawn_capture(const char *const argv[], size_t max, char **out, size_t *len, int *status);

#endif
