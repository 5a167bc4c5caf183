/* t-helpers.h - what the store tests share: a temporary directory and runs made from JSON.
 * Header-only, included by each test program once. */
#ifndef SBCDISK_T_STORE_HELPERS_H
#define SBCDISK_T_STORE_HELPERS_H

#include <ftw.h>
#include <stdio.h>
#include <unistd.h>

#include "common/json.h"
#include "store/run.h"

static char t_dir[256];

static inline int t_rm(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static inline void t_dir_cleanup(void)
{
	if (t_dir[0])
		nftw(t_dir, t_rm, 8, FTW_DEPTH | FTW_PHYS);
}

static inline const char *t_dir_make(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(t_dir, sizeof(t_dir), "%s/sbcdisk-store-XXXXXX", tmp && *tmp ? tmp : P_tmpdir);
	if (!mkdtemp(t_dir)) {
		perror("mkdtemp");
		exit(1);
	}
	atexit(t_dir_cleanup);
	return t_dir;
}

static inline void t_path(char *buf, size_t cap, const char *name)
{
	snprintf(buf, cap, "%s/%s", t_dir, name);
}

/* A run from a JSON text; exits on a parse error (the test's own text is wrong then). */
static inline struct run *t_run(const char *json)
{
	struct json_object *o = json_tokener_parse(json);
	struct run *r = NULL;
	char why[200];

	if (!o || run_from_json(o, &r, why, sizeof(why))) {
		fprintf(stderr, "bad test run: %s\n%s\n", o ? why : "not JSON", json);
		exit(1);
	}
	json_object_put(o);
	return r;
}

#endif
