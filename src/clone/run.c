// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c - clone's runs of the file system tools (e2fsprogs, dosfstools, mtools): a program's
 * status and output, and the check, before anything is written, that each one is there. */
#include <errno.h>
#include <string.h>

#include "clone/clone-int.h"
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
	static const struct {
		const char *fs, *prog, *pkg;
	} tools[] = {
		/* cmdline.txt and extlinux.conf read and rewritten, the copy listed and checked */
		{ "vfat", "mtype", "mtools" },	     { "vfat", "mcopy", "mtools" },
		{ "vfat", "mdir", "mtools" },	     { "vfat", "fsck.vfat", "dosfstools" },
		{ "ext", "mke2fs", "e2fsprogs" },    { "ext", "e2fsck", "e2fsprogs" },
		{ "ext", "resize2fs", "e2fsprogs" }, { "ext", "tune2fs", "e2fsprogs" },
#ifndef HAVE_EXT2FS
		{ "ext", "debugfs", "e2fsprogs" },
#endif
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < p->n_parts; i++) {
		const struct clone_part *cp = &p->parts[i];

		if (cp->method == CLONE_BY_NONE)
			continue;
		for (size_t j = 0; j < sizeof(tools) / sizeof(tools[0]); j++) {
			if (strncmp(cp->fstype, tools[j].fs, strlen(tools[j].fs)) ||
			    !spawn_find(tools[j].prog, path, sizeof(path)))
				continue;
			str_fmt(why, whycap, "'%s' not found: install the package %s (the %s "
				"partition p%u needs it); nothing was written", tools[j].prog,
				tools[j].pkg, cp->fstype, cp->partno);
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
