// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c - start a program on PATH with posix_spawnp and read its standard output, capped. */
#include "common/run.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/paths.h"
#include "common/banned.h"

int run_capture(char *const argv[], size_t max, char **out, size_t *len, int *status)
{
	posix_spawn_file_actions_t fa;
	size_t cap = 4096, n = 0;
	char *buf = NULL, *nb;
	int fds[2] = {-1, -1};
	bool fa_init = false;
	pid_t pid = -1;
	int ret;

	*status = -1;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	if (pipe2(fds, O_CLOEXEC)) {
		ret = -errno;
		goto out;
	}
	ret = -posix_spawn_file_actions_init(&fa);
	if (ret)
		goto out;
	fa_init = true;
	if (posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO) ||
	    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, PATH_DEV_NULL, O_WRONLY, 0) ||
	    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, PATH_DEV_NULL, O_RDONLY, 0)) {
		ret = -ENOMEM;
		goto out;
	}
	ret = -posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	if (ret) {
		pid = -1;
		goto out;
	}
	close(fds[1]);
	fds[1] = -1;
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			if (cap >= max) {
				ret = -E2BIG;
				break;
			}
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
		}
		r = read(fds[0], buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -EIO;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	if (pid > 0) {
		int st = 0;

		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	}
	if (fa_init)
		posix_spawn_file_actions_destroy(&fa);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

