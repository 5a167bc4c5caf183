// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c - clone's runs of the file system tools (e2fsprogs, dosfstools, mtools): a program's
 * status and output, and the check, before anything is written, that each program the
 * partitions' file systems need (their rows in fs.h) is there. */
#include <errno.h>
#include <string.h>

#include "clone/fs.h"
#include "common/banned.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/util.h"

int clone_run_ex(const char *const argv[], const struct spawn_extra *x, struct sbuf *out,
		 bool with_stderr, int *status)
{
	int ret = spawn_run_ex(argv, x, with_stderr ? SPAWN_STDERR : 0, out, status);

	/* what a tool prints past the cap is not needed: its status and first lines are */
	return ret == -E2BIG ? 0 : ret;
}

int clone_run(const char *const argv[], struct sbuf *out, bool with_stderr, int *status)
{
	return clone_run_ex(argv, NULL, out, with_stderr, status);
}

int clone_tools_check(const struct clone_plan *p, char *why, size_t whycap)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < p->n_parts; i++) {
		const struct clone_part *cp = &p->parts[i];
		const struct clone_fs_tool *t;

		if (cp->method == CLONE_BY_NONE)
			continue;
		for (t = cp->fs->tools; t < cp->fs->tools + CLONE_FS_TOOLS_MAX && t->prog; t++) {
			if (!spawn_find(t->prog, path, sizeof(path)))
				continue;
			str_fmt(why, whycap, "'%s' not found: install the package %s (the %s "
				"partition p%u needs it); nothing was written", t->prog, t->pkg,
				cp->fstype, cp->partno);
			return -ENOENT;
		}
	}
	return 0;
}

void clone_run_last_line(const struct sbuf *out, char *buf, size_t cap)
{
	const char *s = sbuf_str(out);
	size_t end = out->len, start;

	buf[0] = '\0';
	while (end && (s[end - 1] == '\n' || s[end - 1] == ' ' || s[end - 1] == '\r'))
		end--;
	start = end;
	while (start && s[start - 1] != '\n')
		start--;
	if (end - start + 1 < cap)
		cap = end - start + 1;
	if (cap) {
		memcpy(buf, s + start, cap - 1);
		buf[cap - 1] = '\0';
		str_sanitize(buf);
	}
}

int clone_run_tool(const char *what, const char *const argv[], int ok_max, char *why,
		   size_t whycap)
{
	struct sbuf out = SBUF_INIT(64 * 1024);
	char last[160];
	int ret, status;

	ret = clone_run(argv, &out, true, &status);
	if (ret == -ENOENT)
		str_fmt(why, whycap, "%s not found (package e2fsprogs/dosfstools/mtools)", argv[0]);
	else if (ret)
		str_fmt(why, whycap, "cannot run %s: %s", argv[0], strerror(-ret));
	else if (status < 0 || status > ok_max) {
		clone_run_last_line(&out, last, sizeof(last));
		str_fmt(why, whycap, "%s failed (exit %d)%s%s", what, status, last[0] ? ": " : "",
			last);
		ret = -EIO;
	}
	sbuf_release(&out);
	return ret;
}
