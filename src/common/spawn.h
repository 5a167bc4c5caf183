/* spawn.h - start another program (smartctl, vcgencmd, e2fsck ...) and keep what it prints.
 * The program is looked up on PATH here, before it starts, so "not installed" is an answer
 * and not an exit status: under an emulator (qemu-user) a failed exec in posix_spawnp's
 * child is seen only as exit 127. */
#ifndef SBCDISK_COMMON_SPAWN_H
#define SBCDISK_COMMON_SPAWN_H

#include <stddef.h>

/* The first executable regular file called name in the directories of $PATH (or, without
 * it, the C library's default /bin:/usr/bin); a name with a '/' is taken as it is. 0;
 * -ENOENT when there is none; -ENAMETOOLONG. */
int spawn_find(const char *name, char *path, size_t cap);

/*
 * Run argv (argv[0] looked up with spawn_find()) with standard input and error on /dev/null
 * and keep its standard output, at most max bytes, NUL-terminated in *out (the caller frees
 * it). *status: the exit status, or -1 when a signal ended it. 0; -ENOENT when the program
 * is not installed; -E2BIG when it printed more than max; -errno.
 */
int spawn_capture(const char *const argv[], size_t max, char **out, size_t *len, int *status);

#endif
