/* main.c - parse the global options and dispatch through the command table; a command's own
 * options are parsed by its table, and the sysroot opened when its flags say so, after that
 * (as git.c's run_builtin does), so that --help and usage errors never need it.
 * Global options may stand before or after the command name (`sbcdisk list --json`). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build-version.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "common/log.h"
#include "common/util.h"

static void print_help(FILE *f)
{
	const struct cli_command *c;

	fprintf(f, "Usage: sbcdisk [global options] [command] [args]\n"
		   "\nStorage inspector, benchmark and doctor for single-board computers.\n"
		   "With no command: %s.\n"
		   "\nCommands:\n", cli_command_default()->summary);
	for (c = cli_commands; c->name; c++)
		if (!(c->flags & (CLI_DEFAULT | CLI_HIDDEN)))
			fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\nGlobal options:\n");
	cli_options_help(f, cli_global_options, 18);
	fprintf(f, "\nExit status: 0 ok, 1 failure, 2 usage, 3 a problem found (a warning or\n"
		   "worse, a disk that will not boot, bytes that do not read back): man 8 sbcdisk,\n"
		   "EXIT STATUS.\n");
}

/* Takes global options out of argv (in place). Returns 0, an exit code to stop with, or
 * CLI_DONE when it printed the version. */
static int parse_globals(struct cli_ctx *ctx, int *argc, char **argv, bool *help)
{
	bool seen_cmd = false, dashdash = false;
	int i, out = 1;

	for (i = 1; i < *argc; i++) {
		const char *a = argv[i];

		if (dashdash || a[0] != '-' || !a[1]) {
			if (!seen_cmd && a[0] != '-')
				seen_cmd = true;
			argv[out++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			argv[out++] = argv[i];
		} else if (!strcmp(a, "--sysroot")) {
			if (i + 1 >= *argc)
				return cli_usage_error(NULL, "option '--sysroot' needs a directory");
			ctx->sysroot_dir = argv[++i];
			if (!*ctx->sysroot_dir)
				return cli_usage_error(NULL, "option '--sysroot' needs a directory");
		} else if (str_starts(a, "--sysroot=")) {
			ctx->sysroot_dir = a + strlen("--sysroot=");
			if (!*ctx->sysroot_dir) /* "" would read this machine, not a tree */
				return cli_usage_error(NULL, "option '--sysroot' needs a directory");
		} else if (!strcmp(a, "--json")) {
			ctx->json = true;
		} else if (!strcmp(a, "--no-color") || !strcmp(a, "--no-colour")) {
			ctx->color = false;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			ctx->quiet = true;
		} else if (!strcmp(a, "--verbose")) {
			ctx->verbose++;
		} else if (a[1] == 'v' && strspn(a + 1, "v") == strlen(a + 1)) {
			ctx->verbose += (int)strlen(a + 1);
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("sbcdisk %s\n", SBCDISK_BUILD_VERSION);
			return CLI_DONE;
		} else if (!seen_cmd && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
			*help = true;
		} else if (!seen_cmd) {
			return cli_usage_error(NULL, "unknown option '%s'", a);
		} else {
			argv[out++] = argv[i]; /* the command's own option */
		}
	}
	argv[out] = NULL;
	*argc = out;
	return 0;
}

int main(int argc, char **argv)
{
	struct cli_ctx ctx = { .color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR") };
	const struct cli_command *cmd = cli_command_default();
	static char health_name[] = "health";
	char *health_argv[] = { health_name, NULL };
	bool help = false;
	int ret;

	ret = parse_globals(&ctx, &argc, argv, &help);
	if (ret == CLI_DONE)
		return EXIT_OK;
	if (ret)
		return ret;
	if (help) {
		print_help(stdout);
		return EXIT_OK;
	}
	log_set_level(ctx.quiet ? LOG_QUIET : ctx.verbose >= 2 ? LOG_DEBUG :
		      ctx.verbose ? LOG_VERBOSE : LOG_NORMAL);

	if (argc > 1) {
		cmd = cli_command_find(argv[1]);
		if (!cmd)
			return cli_usage_error(NULL, "'%s' is not a command", argv[1]);
	}
	if (ctx.json && !(cmd->flags & CLI_JSON))
		return cli_usage_error(cmd->name, "--json is not an option of this command");

	ctx.cmd = cmd;
	cli_term_setup(&ctx);
	if (argc > 1)
		ret = cli_run(&ctx, cmd, argc - 1, argv + 1);
	else
		ret = cli_run(&ctx, cmd, 1, health_argv);
	sysroot_free(ctx.sr);
	if (fflush(stdout) || ferror(stdout) || cli_term_end()) {
		log_error("cannot write the output: %s", strerror(errno));
		return EXIT_FAIL;
	}
	return ret;
}
