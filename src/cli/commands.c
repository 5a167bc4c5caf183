/* commands.c - the one explicit table of commands (the idea is git.c's).
 * Adding a command means a file in cli/ and a line here. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "common/log.h"

const struct cli_command cli_commands[] = {
	{ "list", cmd_list, "every block device and how it is attached" },
	{ "bench", cmd_bench, "measure a directory, a file or a block device" },
	{ "doctor", cmd_doctor, "find what is wrong: kernel log, links, bridges, power" },
	{ "fix", cmd_fix, "write a fix into the boot configuration (dry run by default)" },
	{ "history", cmd_history, "the stored benchmark results" },
	{ "compare", cmd_compare, "stored results side by side" },
	{ "report", cmd_report, "an HTML report with charts and verdicts" },
	{ "verify", cmd_verify, "is the capacity real and does every byte read back" },
	{ NULL, NULL, NULL },
};

const struct cli_command *cli_command_find(const char *name)
{
	const struct cli_command *c;

	for (c = cli_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_error("%s%s%s", cmd ? cmd : "", cmd ? ": " : "", msg);
	fprintf(stderr, "Try 'sbcdisk %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

int cli_option_error(const char *cmd, int c, char **argv)
{
	if (c == ':')
		return cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
	return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}
