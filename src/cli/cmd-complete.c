/* cmd-complete.c - `sbcdisk __complete WHAT [ARG]`, hidden: the lists the bash and zsh
 * completions offer (commands, each command's options, profiles, engines ...), taken from
 * the program's own tables so that they cannot drift. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bench/engine.h"
#include "bench/profile.h"
#include "cli/cli-store.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "common/paths.h"
#include "diag/diag.h"
#include "store/store.h"

static void complete_commands(struct cli_ctx *ctx, const char *arg)
{
	const struct cli_command *c;

	(void)ctx;
	(void)arg;
	for (c = cli_commands; c->name; c++)
		if (!(c->flags & (CLI_DEFAULT | CLI_HIDDEN)))
			printf("%s\n", c->name);
}

static void complete_profiles(struct cli_ctx *ctx, const char *arg)
{
	const struct bench_profile *p;

	(void)ctx;
	(void)arg;
	for (p = bench_profiles; p->name; p++)
		printf("%s\n", p->name);
}

static void complete_findings(struct cli_ctx *ctx, const char *arg)
{
	const struct diag_rule_info *r;
	size_t i;

	(void)ctx;
	(void)arg;
	for (i = 0; (r = diag_rule_get(i)); i++)
		printf("%s\n", r->id);
}

static void complete_levels(struct cli_ctx *ctx, const char *arg)
{
	enum diag_sev s;

	(void)ctx;
	(void)arg;
	for (s = DIAG_ERROR; s >= DIAG_INFO; s--)
		printf("%s\n", diag_sev_name(s));
}

/* The names in /sys/block (of --sysroot when given). */
static void complete_devices(struct cli_ctx *ctx, const char *arg)
{
	struct sysroot *sr = NULL;
	struct dirent *de;
	DIR *dir = NULL;

	(void)arg;
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
static void complete_runs(struct cli_ctx *ctx, const char *db)
{
	struct store_filter f = { .limit = 100 };
	struct run_list l = { 0 };
	struct store *st = NULL;
	char path[PATH_MAX], why[200];
	size_t i;

	(void)ctx;
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

static void complete_engines(struct cli_ctx *ctx, const char *arg)
{
	const struct bench_engine_ops *e;
	size_t i;

	(void)ctx;
	(void)arg;
	for (i = 0; (e = bench_engine_get(i)); i++)
		printf("%s\n", e->name);
}

/* The options of the command named (from its table), or the global ones. */
static void complete_options(struct cli_ctx *ctx, const char *name)
{
	const struct cli_command *c = name ? cli_command_find(name) : NULL;

	(void)ctx;
	if (c)
		cli_options_list(stdout, c->spec->options, false);
	else if (!name)
		cli_options_list(stdout, cli_global_options, false);
}

/* The options that take a value: of the command named, or of every command and the global
 * ones (the words the completions step over with their value). */
static void complete_value_options(struct cli_ctx *ctx, const char *name)
{
	const struct cli_command *c;

	(void)ctx;
	if (name) {
		c = cli_command_find(name);
		if (c)
			cli_options_list(stdout, c->spec->options, true);
		return;
	}
	cli_options_list(stdout, cli_global_options, true);
	for (c = cli_commands; c->name; c++)
		cli_options_list(stdout, c->spec->options, true);
}

/* The lists: each with its name, whether it takes an argument, and what prints it. */
static const struct complete_list {
	const char *name;
	bool arg;
	void (*print)(struct cli_ctx *ctx, const char *arg);
} lists[] = {
	{ "commands", false, complete_commands },
	{ "options", true, complete_options },
	{ "value-options", true, complete_value_options },
	{ "profiles", false, complete_profiles },
	{ "engines", false, complete_engines },
	{ "devices", false, complete_devices },
	{ "runs", true, complete_runs },
	{ "findings", false, complete_findings },
	{ "levels", false, complete_levels },
	{ NULL, false, NULL },
};

static const struct cli_option options[] = {
	OPT_HELP(),
	OPT_END(),
};

static int check(const char *cmd, int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	const struct complete_list *l;

	for (l = lists; l->name && strcmp(l->name, what); l++)
		;
	if (argc > 3 || (argc > 2 && !l->arg))
		return cli_usage_error(cmd, "too many arguments");
	if (!l->name)
		return cli_usage_error(cmd, "'%s' is not a list to complete", what);
	return 0;
}

const struct cli_spec complete_spec = {
	.usage = "Usage: sbcdisk __complete commands|options [CMD]|value-options [CMD]|\n"
		 "       profiles|engines|devices|runs [DB]|findings|levels\n"
		 "\nOne word a line, for the shell completions; nothing and exit 0 when\n"
		 "there is nothing to offer (no database, no /sys/block).\n",
	.options = options,
	.help_col = 14,
	.args_max = -1,
	.check = check,
};

int cmd_complete(struct cli_ctx *ctx, int argc, char **argv)
{
	const struct complete_list *l;

	for (l = lists; strcmp(l->name, argv[1]); l++)
		;
	l->print(ctx, argc > 2 && argv[2][0] ? argv[2] : NULL);
	return EXIT_OK;
}
