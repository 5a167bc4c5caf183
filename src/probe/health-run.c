/* health-run.c - run smartctl --json (found on PATH) for each drive and keep its answer.
 * smartmontools does the pass-through through bridges; this only starts it and reads stdout. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/health.h"
#include "common/paths.h"
#include "common/util.h"

#define SMARTCTL_MISSING "smartctl not found (package smartmontools)"

/* stdout of argv into a buffer capped at PROBE_HEALTH_JSON_MAX; -ENOENT when the program is
 * not on PATH. The caller frees *out. */
static int run_capture(char *const argv[], char **out, size_t *len, int *status)
{
	posix_spawn_file_actions_t fa;
	size_t cap = 64 * 1024, n = 0;
	char *buf = NULL, *nb;
	int fds[2] = {-1, -1};
	bool fa_init = false;
	pid_t pid = -1;
	int ret;

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

		if (n == cap) {
			if (cap >= PROBE_HEALTH_JSON_MAX) {
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
	*out = buf;
	*len = n;
	return 0;
}

int probe_health_read(const char *devnode, const char *dtype, struct probe_health *h)
{
	char dt[sizeof(h->device_type)];
	char *argv[] = {"smartctl", "--json", "-a", "-d", dt, (char *)devnode, NULL};
	char *buf = NULL;
	size_t len = 0;
	int status = -1, ret;

	memset(h, 0, sizeof(*h));
	str_copy(dt, sizeof(dt), dtype);
	str_copy(h->device_type, sizeof(h->device_type), dtype);
	ret = run_capture(argv, &buf, &len, &status);
	if (ret == -ENOENT) {
		h->state = PROBE_HEALTH_NO_TOOL;
		str_copy(h->why, sizeof(h->why), SMARTCTL_MISSING);
		return 0;
	}
	if (ret)
		return ret;
	ret = probe_health_parse(buf, len, h);
	free(buf);
	if (ret == -EINVAL) {
		h->state = PROBE_HEALTH_ERROR;
		if (!len)
			str_fmt(h->why, sizeof(h->why), "smartctl printed nothing (exit %d)", status);
		else
			str_fmt(h->why, sizeof(h->why), "smartctl gave no JSON (exit %d); --json "
				"needs smartctl 7.0 or later", status);
		return 0;
	}
	return ret;
}

int probe_inventory_read_health(struct sysroot *sr, struct inventory *inv)
{
	char node[PATH_MAX], path[96];
	bool no_tool = false;
	size_t i;
	int ret;

	for (i = 0; i < inv->n_top; i++) {
		struct blkdev *d = inv->top[i];
		const char *why = NULL, *dtype = probe_health_dtype(d, &why);
		struct probe_health *h;

		if (!dtype && !why)
			continue;
		h = calloc(1, sizeof(*h));
		if (!h)
			return -ENOMEM;
		free(d->health);
		d->health = h;
		if (!dtype) {
			h->state = PROBE_HEALTH_NO_SMART;
			str_copy(h->why, sizeof(h->why), why);
			continue;
		}
		/* one missing smartctl is missing for every drive: do not look again */
		if (no_tool) {
			h->state = PROBE_HEALTH_NO_TOOL;
			str_copy(h->device_type, sizeof(h->device_type), dtype);
			str_copy(h->why, sizeof(h->why), SMARTCTL_MISSING);
			continue;
		}
		if (str_fmt(path, sizeof(path), PATH_DEV_PREFIX "%s", d->kname) < 0 ||
		    sysroot_host_path(sr, path, node, sizeof(node)))
			return -ENAMETOOLONG;
		ret = probe_health_read(node, dtype, h);
		if (ret)
			return ret;
		no_tool = h->state == PROBE_HEALTH_NO_TOOL;
	}
	return 0;
}
