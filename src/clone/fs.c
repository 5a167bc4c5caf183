// SPDX-License-Identifier: GPL-2.0-or-later
/* fs.c - the table of the file systems clone knows (fs.h): a new one is its file, fs-NAME.c,
 * and its row here, before the row that matches anything. */
#include "clone/fs.h"
#include "common/util.h"

const struct clone_fs *const clone_fs_table[] = { &clone_fs_ext, &clone_fs_vfat, &clone_fs_whole };
const size_t clone_fs_count = ARRAY_SIZE(clone_fs_table);

const struct clone_fs *clone_fs_of(const char *fstype)
{
	size_t i;

	for (i = 0; i + 1 < clone_fs_count; i++)
		if (clone_fs_table[i]->match && clone_fs_table[i]->match(fstype))
			break;
	return clone_fs_table[i];
}

void clone_fs_argv(const char *const cmd[4], const char *dev, const char *argv[CLONE_FS_ARGV_MAX])
{
	size_t n = 0;

	while (n < 4 && cmd[n]) {
		argv[n] = cmd[n];
		n++;
	}
	argv[n++] = dev;
	argv[n] = NULL;
}
