/* t-tree.h - build a small file tree below a temporary root for tests of code that reads a
 * sysroot: files with any bytes, directories made as needed, symlinks, removal at the end. */
#ifndef SBCDISK_T_TREE_H
#define SBCDISK_T_TREE_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"

static char t_root[PATH_MAX];

/* A new empty root "/tmp/NAME.XXXXXX"; exits when it cannot be made. */
static inline const char *t_tree_new(const char *name)
{
	str_fmt(t_root, sizeof(t_root), "/tmp/%s.XXXXXX", name);
	if (!mkdtemp(t_root)) {
		perror(t_root);
		exit(1);
	}
	return t_root;
}

/* mkdir -p root/rel */
static inline void t_tree_mkdirs(const char *rel)
{
	char p[PATH_MAX], *s;

	str_fmt(p, sizeof(p), "%s/%s", t_root, rel);
	for (s = p + strlen(t_root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

/* The directory part of rel, made. */
static inline void t_tree_parent(const char *rel)
{
	char d[PATH_MAX];

	str_copy(d, sizeof(d), rel);
	if (strrchr(d, '/')) {
		*strrchr(d, '/') = '\0';
		t_tree_mkdirs(d);
	}
}

/* root/rel holds exactly n bytes of text (NULs and any other byte allowed). */
static inline void t_tree_put_n(const char *rel, const char *text, size_t n)
{
	char p[PATH_MAX];
	FILE *f;

	t_tree_parent(rel);
	str_fmt(p, sizeof(p), "%s/%s", t_root, rel);
	f = fopen(p, "w");
	if (!f || fwrite(text, 1, n, f) != n) {
		perror(p);
		exit(1);
	}
	fclose(f);
}

static inline void t_tree_put(const char *rel, const char *text)
{
	t_tree_put_n(rel, text, strlen(text));
}

/* root/rel is a symlink whose text is target. */
static inline void t_tree_link(const char *target, const char *rel)
{
	char p[PATH_MAX];

	t_tree_parent(rel);
	str_fmt(p, sizeof(p), "%s/%s", t_root, rel);
	if (symlink(target, p)) {
		perror(p);
		exit(1);
	}
}

/* root/rel as a host path, for mkfifo() and the like. */
static inline const char *t_tree_path(const char *rel, char *buf, size_t cap)
{
	str_fmt(buf, cap, "%s/%s", t_root, rel);
	return buf;
}

static inline void t_tree_remove(void)
{
	char cmd[PATH_MAX + 16];

	str_fmt(cmd, sizeof(cmd), "rm -rf '%s'", t_root);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", t_root);
}

#endif
