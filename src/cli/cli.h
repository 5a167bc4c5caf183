/* cli.h - what every command gets: the global options and the opened sysroot.
 * cli/ is the only layer that prints results, reads argv or chooses exit codes. */
#ifndef SBCDISK_CLI_H
#define SBCDISK_CLI_H

#include <stdbool.h>

#include "common/sysroot.h"

/* Exit codes: stable, part of the public interface (docs/design.md). */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_FINDINGS = 3,
};

/*
 * What a command's option parser returns besides an exit code. Negative, so that none can be
 * taken for an exit code: 0 means go on, a positive value is the exit code to stop with.
 */
enum cli_parse {
	CLI_DONE = -1,     /* the help or the version was printed: exit 0 */
};

/* What a command needs, as git.c's RUN_SETUP: main.c acts on these. */
enum cli_flags {
	CLI_NEED_SYSROOT = 1 << 0, /* reads the system: main.c opens the sysroot before it runs */
	CLI_JSON = 1 << 1,         /* takes the global --json */
	CLI_DEFAULT = 1 << 2,      /* runs when no command is named; not found by name */
	CLI_HIDDEN = 1 << 3,       /* for scripts (the completions): not in --help or the man page */
	CLI_RAW_OUT = 1 << 4,      /* prints a document for programs: never fitted to a terminal */
};

struct cli_command;

struct cli_ctx {
	const char *sysroot_dir; /* NULL for the running system */
	const struct cli_command *cmd; /* the command being run */
	bool json;
	bool color;
	bool quiet;
	int verbose;
	struct sysroot *sr;      /* opened by main.c, for CLI_NEED_SYSROOT commands */
};

struct cli_spec;

struct cli_command {
	const char *name;
	/*
	 * main.c has parsed the options by the spec's table, checked the operands and opened
	 * the sysroot when the flags say so: argv[0] is the command name, argv[1..argc) the
	 * operands. Returns an exit code.
	 */
	int (*run)(struct cli_ctx *ctx, int argc, char **argv);
	const char *summary;
	unsigned flags; /* enum cli_flags */
	const struct cli_spec *spec; /* its help and option table (cli/options.h) */
};

/* The one command table (cli/commands.c). The entry with name NULL ends it. */
extern const struct cli_command cli_commands[];
/* By name; never the CLI_DEFAULT entry. NULL when there is no such command. */
const struct cli_command *cli_command_find(const char *name);
/*
 * Run cmd, as git.c's run_builtin does: its options parsed by its table (argv[0] the command
 * name), its operands checked, the sysroot opened when its flags ask for it and it is not
 * open yet (move runs other commands through this). An exit code.
 */
int cli_run(struct cli_ctx *ctx, const struct cli_command *cmd, int argc, char **argv);
/* The entry that runs when no command is named (the health check). */
const struct cli_command *cli_command_default(void);

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
int cmd_complete(struct cli_ctx *ctx, int argc, char **argv);
int cmd_metrics(struct cli_ctx *ctx, int argc, char **argv);
int cmd_boot(struct cli_ctx *ctx, int argc, char **argv);
int cmd_clone(struct cli_ctx *ctx, int argc, char **argv);
int cmd_move(struct cli_ctx *ctx, int argc, char **argv);
int cmd_prepare(struct cli_ctx *ctx, int argc, char **argv);

/* Their help and option tables (cli/options.h). */
extern const struct cli_spec list_spec, doctor_spec, compare_spec, report_spec, metrics_spec,
	history_spec, bench_spec, verify_spec, clone_spec,
	boot_spec, fix_spec, health_spec,
	complete_spec, move_spec;
extern const struct cli_spec prepare_spec;

/* "sbcdisk: 'CMD': <usage problem>; try 'sbcdisk CMD --help'" and EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The filter's last line out, stdout the real one again. 0 or -EIO. */
int cli_term_end(void);
/* Before a command runs: the renderers' width (report/text.c: COLUMNS, then the terminal's
 * size; 0, nothing cut or folded, when stdout is no terminal, the output is JSON or the
 * command's is for programs) and, on a terminal, stdout through a filter that folds a line
 * longer than the width at a space; without the filter (no memory) nothing is fitted. */
void cli_term_setup(const struct cli_ctx *ctx);
/* The width of the terminal on stderr now (it may have been resized), 0 when it is none:
 * a progress line rewritten in place must stay shorter, or what wraps is never cleared. */
size_t cli_term_err_cols(void);
/* Print first, then text wrapped at TEXT_WRAP_COLS on spaces, to stdout; continuation lines
 * start with indent. first should end with a space when text is to follow on the same line. */
void cli_wrap_print(const char *indent, const char *first, const char *text);
/* Catch SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE with fn, without SA_RESTART, so that
 * a long read, write, sleep or wait ends early and the command can clean up and say so. */
void cli_catch_stop_signals(void (*fn)(int sig));

/* The one-line progress of a long command (clone, verify) on standard error: only on a
 * terminal, never with --json or -q. */
struct cli_progress {
	bool on, shown;
};
void cli_progress_init(struct cli_progress *pr, const struct cli_ctx *ctx);
/* "PHASE  DONE of TOTAL  RATE MB/s  N s left": the sizes when total is known, the rate when
 * bw > 0, the time left when left_s >= 0. */
void cli_progress_show(struct cli_progress *pr, const char *phase, uint64_t done,
		       uint64_t total, double bw, double left_s);
/* Take the line away again (before a message or the result). */
void cli_progress_clear(struct cli_progress *pr);
/* line over the progress line on stderr, cut to one character less than the terminal. */
void cli_progress_put(const char *line);

#endif
