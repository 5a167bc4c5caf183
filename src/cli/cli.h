/* cli.h - what every command gets: the global options and the opened sysroot.
 * cli/ is the only layer that prints results, reads argv or chooses exit codes. */
#ifndef SBCDISK_CLI_H
#define SBCDISK_CLI_H

#include <stdbool.h>

#include "common/sysroot.h"

/* Exit codes: stable, part of the public interface (shared/DESIGN.md). */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_FINDINGS = 3,
};

struct cli_ctx {
	const char *sysroot_dir; /* NULL for the running system */
	bool json;
	bool color;
	bool quiet;
	int verbose;
	struct sysroot *sr;      /* opened before the command runs */
};

struct cli_command {
	const char *name;
	/* argv[0] is the command name; getopt_long may be used on it. Returns an exit code. */
	int (*run)(struct cli_ctx *ctx, int argc, char **argv);
	const char *summary;
};

/* The one command table (cli/commands.c). The entry with name NULL ends it. */
extern const struct cli_command cli_commands[];
const struct cli_command *cli_command_find(const char *name);

/* Commands, one file each. */
int cmd_health(struct cli_ctx *ctx, int argc, char **argv);
int cmd_list(struct cli_ctx *ctx, int argc, char **argv);
int cmd_bench(struct cli_ctx *ctx, int argc, char **argv);
int cmd_doctor(struct cli_ctx *ctx, int argc, char **argv);
int cmd_fix(struct cli_ctx *ctx, int argc, char **argv);
int cmd_history(struct cli_ctx *ctx, int argc, char **argv);
int cmd_compare(struct cli_ctx *ctx, int argc, char **argv);
int cmd_report(struct cli_ctx *ctx, int argc, char **argv);
int cmd_verify(struct cli_ctx *ctx, int argc, char **argv);

/* "sbcdisk: 'CMD': <usage problem>; try 'sbcdisk CMD --help'" and EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The usage error for what getopt_long returned as c ('?' or ':', with a ':' leading the
 * option string): "unknown option '-x'" or "option '--db' needs a value". */
int cli_option_error(const char *cmd, int c, char **argv);

#endif
