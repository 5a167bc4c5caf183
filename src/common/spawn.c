// SPDX-License-Identifier: GPL-2.0-or-later
/* spawn.c - start another program and keep its standard output. */
#include "common/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/paths.h"
#include "common/util.h"

static bool is_program(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int spawn_find(const char *name, char *path, size_t cap)
{
	const char *dirs = getenv("PATH"), *p, *end;

	if (!*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		if (str_copy(path, cap, name) < 0)
			return -ENAMETOOLONG;
		return is_program(path) ? 0 : -ENOENT;
	}
	if (!dirs)
		dirs = "/bin:/usr/bin";
	for (p = dirs;; p = end + 1) {
		size_t n;

		end = strchr(p, ':');
		n = end ? (size_t)(end - p) : strlen(p);
		/* an empty entry is the current directory, as execvp() takes it */
		if (str_fmt(path, cap, "%.*s%s%s", (int)n, n ? p : ".", "/", name) >= 0 &&
		    is_program(path))
			return 0;
		if (!end)
			break;
	}
	return -ENOENT;
}

/* Read fd to its end; what fits under out's cap is kept (-E2BIG when some did not). */
static int drain(int fd, struct sbuf *out)
{
	char buf[4096];
	int ret = 0;

	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -EIO;
		if (r == 0)
			return ret;
		if (!out || ret)
			continue;
		ret = sbuf_add(out, buf, (size_t)r);
		if (ret == -E2BIG && out->len < out->cap) /* the part that still fits */
			ret = sbuf_add(out, buf, out->cap - out->len) ? -ENOMEM : -E2BIG;
	}
}

#define SPAWN_ENV_MAX 65536 /* entries of an environment handed on with extra ones */

/* environ with x's entries in place of those of their names, into a new array of pointers
 * (the strings are not copied). NULL with errno. */
static char **env_with(const char *const *extra)
{
	size_t n = 0, k = 0, i, j;
	char **env;

	while (environ[n])
		n++;
	while (extra[k])
		k++;
	if (n + k >= SPAWN_ENV_MAX) {
		errno = E2BIG;
		return NULL;
	}
	env = calloc(n + k + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0, n = 0; environ[i]; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t nl = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
		bool replaced = false;

		for (j = 0; j < k && !replaced; j++)
			replaced = !strncmp(extra[j], environ[i], nl) && extra[j][nl] == '=';
		if (!replaced)
			env[n++] = environ[i];
	}
	for (j = 0; j < k; j++)
		env[n++] = (char *)extra[j]; /* posix_spawn() does not write to them */
	return env;
}

int spawn_run(const char *const argv[], unsigned flags, struct sbuf *out, int *status)
{
	return spawn_run_ex(argv, NULL, flags, out, status);
}

int spawn_run_ex(const char *const argv[], const struct spawn_extra *x, unsigned flags,
		 struct sbuf *out, int *status)
{
	posix_spawn_file_actions_t fa;
	char prog[4096], **env = NULL;
	int fds[2] = {-1, -1};
	bool fa_init = false;
	pid_t pid = -1;
	int ret;

	*status = -1;
	ret = spawn_find(argv[0], prog, sizeof(prog));
	if (ret)
		return ret;
	if (x && x->fd >= 0 && (x->child_fd < 3 || x->child_fd == x->fd))
		return -EINVAL;
	if (x && x->env) {
		env = env_with(x->env);
		if (!env)
			return -errno;
	}
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	ret = -posix_spawn_file_actions_init(&fa);
	if (ret)
		goto out;
	fa_init = true;
	if (posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO) ||
	    ((flags & SPAWN_STDERR)
		     ? posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO)
		     : posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, PATH_DEV_NULL,
							O_WRONLY, 0)) ||
	    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, PATH_DEV_NULL, O_RDONLY, 0) ||
	    (x && x->fd >= 0 && posix_spawn_file_actions_adddup2(&fa, x->fd, x->child_fd))) {
		ret = -ENOMEM;
		goto out;
	}
	/* posix_spawn()'s argv predates const; it does not write to the strings */
	ret = -posix_spawn(&pid, prog, &fa, NULL, (char *const *)argv, env ? env : environ);
	if (ret) {
		pid = -1;
		goto out;
	}
	close(fds[1]);
	fds[1] = -1;
	ret = drain(fds[0], out);
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
	free(env);
	return ret;
}

int spawn_capture(const char *const argv[], size_t max, char **out, size_t *len, int *status)
{
	struct sbuf sb = SBUF_INIT(max);
	int ret;

	*out = NULL;
	*len = 0;
	ret = spawn_run(argv, 0, &sb, status);
	if (ret) {
		sbuf_release(&sb);
		return ret;
	}
	*len = sb.len;
	*out = sbuf_detach(&sb);
	return *out ? 0 : -ENOMEM;
}
