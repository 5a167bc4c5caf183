/* cmd-complete.c - `sbcdisk __complete WHAT [ARG]`, hidden: the lists the bash and zsh
 * completions offer, taken from the program's own tables so that they cannot drift. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bench/profile.h"
#include "cli/cli-store.h"
#include "cli/cli.h"
#include "common/paths.h"
#include "diag/diag.h"
#include "store/store.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: sbcdisk __complete commands|profiles|devices|runs [DB]|findings|"
		   "levels\n"
		   "\nOne word a line, for the shell completions; nothing and exit 0 when\n"
		   "there is nothing to offer (no database, no /sys/block).\n");
}

static void complete_commands(void)
{
	const struct cli_command *c;

	for (c = cli_commands; c->name; c++)
		if (!(c->flags & (CLI_DEFAULT | CLI_HIDDEN)))
			printf("%s\n", c->name);
}

static void complete_profiles(void)
{
	const struct bench_profile *p;

	for (p = bench_profiles; p->name; p++)
		printf("%s\n", p->name);
}

static void complete_findings(void)
{
	const struct diag_rule_info *r;
	size_t i;

	for (i = 0; (r = diag_rule_get(i)); i++)
		printf("%s\n", r->id);
}

static void complete_levels(void)
{
	enum diag_sev s;

	for (s = DIAG_ERROR; s >= DIAG_INFO; s--)
		printf("%s\n", diag_sev_name(s));
}

/* The names in /sys/block (of --sysroot when given). */
static void complete_devices(struct cli_ctx *ctx)
{
	struct sysroot *sr = NULL;
	struct dirent *de;
	DIR *dir = NULL;

	if (sysroot_open(ctx->sysroot_dir, &sr) || sysroot_opendir(sr, PATH_SYS_BLOCK, &dir))
		goto out;
	while ((de = readdir(dir)))
		if (de->d_name[0] != '.')
			printf("%s\n", de->d_name);
out:
	if (dir)
		closedir(dir);
	sysroot_free(sr);
}

/* The stored run ids, newest first; db NULL: the default database. Never creates it. */
static void complete_runs(const char *db)
{
	struct store_filter f = { .limit = 100 };
	struct run_list l = { 0 };
	struct store *st = NULL;
	char path[PATH_MAX], why[200];
	size_t i;

	if (!db) {
		if (store_default_path(path, sizeof(path)))
			return;
		db = path;
	}
	if (store_open(db, STORE_READ, 0, &st, why, sizeof(why)))
		return;
	if (!store_runs_query(st, &f, &l))
		for (i = 0; i < l.n; i++)
			printf("%lld\n", (long long)l.runs[i]->id);
	run_list_release(&l);
	store_close(st);
}

int cmd_complete(struct cli_ctx *ctx, int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	if (!strcmp(what, "-h") || !strcmp(what, "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 3 || (argc > 2 && strcmp(what, "runs")))
		return cli_usage_error(argv[0], "too many arguments");
	if (!strcmp(what, "commands"))
		complete_commands();
	else if (!strcmp(what, "profiles"))
		complete_profiles();
	else if (!strcmp(what, "findings"))
		complete_findings();
	else if (!strcmp(what, "levels"))
		complete_levels();
	else if (!strcmp(what, "devices"))
		complete_devices(ctx);
	else if (!strcmp(what, "runs"))
		complete_runs(argc > 2 && argv[2][0] ? argv[2] : NULL);
	else
		return cli_usage_error(argv[0], "'%s' is not a list to complete", what);
	return EXIT_OK;
}
