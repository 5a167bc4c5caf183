/* t-verify.c - clone's comparison of the source's and the target's trees: a name on one side
 * only is a difference, on either side and at any depth (a copy whose journal replay made
 * files the source's mount does not show passed before); alike trees have none. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "t.h"

static struct clone_plan plan;
static char top[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	f = fopen(path, "w");
	T_CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static void dir(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	T_MUST(mkdir(path, 0755));
}

/* the two trees compared: the number of differences, the first in first */
static size_t compare(bool full, char *first, size_t cap)
{
	char path[256];
	int s, d;

	memset(&plan, 0, sizeof(plan));
	plan.root = plan.boot = plan.extlinux_part = -1;
	plan.n_parts = 1;
	snprintf(path, sizeof(path), "%s/src", top);
	s = open(path, O_RDONLY | O_DIRECTORY);
	snprintf(path, sizeof(path), "%s/dst", top);
	d = open(path, O_RDONLY | O_DIRECTORY);
	T_MUST(s < 0 || d < 0);
	clone_compare_dirs(&plan, 0, s, d, full);
	close(s);
	close(d);
	snprintf(first, cap, "%s", plan.n_diffs ? plan.diffs[0] : "");
	return plan.n_diffs;
}

int main(void)
{
	char first[256];
	const char *sides[] = { "src", "dst" };

	snprintf(top, sizeof(top), "/tmp/t-clone-verify.XXXXXX");
	T_MUST(mkdtemp(top) == NULL);
	for (int i = 0; i < 2; i++) {
		char rel[64];

		dir(sides[i]);
		snprintf(rel, sizeof(rel), "%s/etc", sides[i]);
		dir(rel);
		snprintf(rel, sizeof(rel), "%s/etc/hostname", sides[i]);
		put(rel, "pi\n");
		snprintf(rel, sizeof(rel), "%s/a.txt", sides[i]);
		put(rel, "same\n");
	}
	T_EQ_INT((int)compare(true, first, sizeof(first)), 0);
	T_CHECK(plan.n_compared == 3);

	/* a file on the target only, below the top */
	put("dst/etc/new.conf", "x\n");
	T_EQ_INT((int)compare(true, first, sizeof(first)), 1);
	T_EQ_STR(first, "/etc/new.conf: only on the target");
	T_EQ_INT((int)compare(false, first, sizeof(first)), 1);

	/* and one on the source only: one of each */
	put("src/b.txt", "b\n");
	T_EQ_INT((int)compare(true, first, sizeof(first)), 2);

	/* the same number of names on each side, different names: both seen */
	put("dst/c.txt", "c\n");
	{
		char path[256];

		snprintf(path, sizeof(path), "%s/dst/etc/new.conf", top);
		unlink(path);
	}
	T_EQ_INT((int)compare(true, first, sizeof(first)), 2);
	T_EQ_STR(first, "/b.txt: missing on the target");
	T_EQ_STR(plan.diffs[1], "/c.txt: only on the target");

	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		T_CHECK(system(cmd) == 0);
	}
	return t_done();
}
