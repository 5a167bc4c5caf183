/* commands.c - the one explicit table of commands (the idea is git.c's), with what each needs.
 * Adding a command means a file in cli/ and a line here. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "common/log.h"
#include "common/util.h"
#include "report/text.h"

#define GLOBAL(s, l, a, h) { CLI_OPT_GLOBAL, (s), (l), (a), NULL, NULL, (h), 0 }
const struct cli_option cli_global_options[] = {
	GLOBAL(0, "sysroot", "DIR", "read /sys, /proc, /dev, /run and /boot below DIR"),
	GLOBAL(0, "json", NULL, "print JSON (the documented contract) instead of tables"),
	GLOBAL(0, "no-color", NULL, "no colour, even on a terminal"),
	GLOBAL('q', "quiet", NULL, "print only results and errors"),
	GLOBAL('v', "verbose", NULL, "say more (twice: debug)"),
	GLOBAL('h', "help", NULL, "this help; 'sbcdisk COMMAND --help' for a command"),
	GLOBAL('V', "version", NULL, "the version"),
	OPT_END(),
};

const struct cli_command cli_commands[] = {
	{ "(none)", cmd_health, "the devices, how they are attached, and what is wrong",
	  CLI_DEFAULT | CLI_NEED_SYSROOT | CLI_JSON, &health_spec },
	{ "list", cmd_list, "every block device and how it is attached",
	  CLI_NEED_SYSROOT | CLI_JSON, &list_spec },
	{ "bench", cmd_bench, "measure a directory, a file or a block device",
	  CLI_NEED_SYSROOT | CLI_JSON, &bench_spec },
	{ "doctor", cmd_doctor, "find what is wrong: kernel log, links, bridges, power",
	  CLI_NEED_SYSROOT | CLI_JSON, &doctor_spec },
	{ "fix", cmd_fix, "write a fix into the boot configuration (dry run by default)",
	  CLI_NEED_SYSROOT | CLI_JSON, &fix_spec },
	{ "history", cmd_history, "the stored benchmark results", CLI_JSON,
	  &history_spec },
	{ "compare", cmd_compare, "stored results side by side", CLI_JSON, &compare_spec },
	{ "report", cmd_report, "an HTML report with charts and verdicts", CLI_RAW_OUT,
	  &report_spec },
	{ "verify", cmd_verify, "is the capacity real and does every byte read back",
	  CLI_NEED_SYSROOT | CLI_JSON, &verify_spec },
	{ "clone", cmd_clone, "move the system to another disk or an image (dry run by default)",
	  CLI_NEED_SYSROOT | CLI_JSON, &clone_spec },
	{ "move", cmd_move, "clone to a faster disk and boot from it (dry run by default)",
	  CLI_NEED_SYSROOT, &move_spec },
	{ "prepare", cmd_prepare, "a new data drive: table, file system, fstab by UUID, mounted",
	  CLI_NEED_SYSROOT, &prepare_spec },
	{ "boot", cmd_boot, "where the board boots from, will a disk boot, the boot order",
	  CLI_NEED_SYSROOT | CLI_JSON, &boot_spec },
	{ "metrics", cmd_metrics, "Prometheus text for node_exporter's textfile collector",
	  CLI_NEED_SYSROOT | CLI_RAW_OUT, &metrics_spec },
	{ "__complete", cmd_complete, "the lists the shell completions offer",
	  CLI_HIDDEN | CLI_RAW_OUT, &complete_spec },
	{ NULL, NULL, NULL, 0, NULL },
};

const struct cli_command *cli_command_find(const char *name)
{
	const struct cli_command *c;

	for (c = cli_commands; c->name; c++)
		if (!(c->flags & CLI_DEFAULT) && !strcmp(c->name, name))
			return c;
	return NULL;
}

const struct cli_command *cli_command_default(void)
{
	const struct cli_command *c;

	for (c = cli_commands; c->name; c++)
		if (c->flags & CLI_DEFAULT)
			return c;
	return NULL;
}

int cli_run(struct cli_ctx *ctx, const struct cli_command *cmd, int argc, char **argv)
{
	const struct cli_spec *spec = cmd->spec;
	int first, ret;

	if (spec->reset)
		spec->reset();
	ret = cli_options_parse(cmd->name, spec, argc, argv, &first);
	if (ret)
		return ret == CLI_DONE ? EXIT_OK : ret;
	/* the operands follow the command name */
	argv[first - 1] = argv[0];
	argc -= first - 1;
	argv += first - 1;
	if (spec->args_max >= 0 && argc - 1 > spec->args_max)
		return cli_usage_error(cmd->name, "unexpected argument '%s'",
				       argv[spec->args_max + 1]);
	if (spec->check) {
		ret = spec->check(cmd->name, argc, argv);
		if (ret)
			return ret == CLI_DONE ? EXIT_OK : ret;
	}
	if ((cmd->flags & CLI_NEED_SYSROOT) && !ctx->sr) {
		ret = sysroot_open(ctx->sysroot_dir, &ctx->sr);
		if (ret) {
			log_error("cannot use sysroot '%s': %s",
				  ctx->sysroot_dir ? ctx->sysroot_dir : "/", strerror(-ret));
			return EXIT_FAIL;
		}
	}
	return cmd->run(ctx, argc, argv);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	char msg[LOG_LINE_MAX + 2]; /* one more: log_error() sees the cut and marks it */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_error("%s%s%s", cmd ? cmd : "", cmd ? ": " : "", msg);
	log_line(stderr, "Try 'sbcdisk %s%s--help'.", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

void cli_catch_stop_signals(void (*fn)(int sig))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* an ssh session that drops, ^\, a reader of our output gone: the same clean stop */
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

void cli_wrap_print(const char *indent, const char *first, const char *text)
{
	text_wrap(stdout, indent, first, text, text_cols(TEXT_WRAP_COLS));
}

void cli_progress_init(struct cli_progress *pr, const struct cli_ctx *ctx)
{
	pr->on = isatty(STDERR_FILENO) && !ctx->quiet && !ctx->json;
	pr->shown = false;
}

void cli_progress_put(const char *line)
{
	size_t cols = cli_term_err_cols();
	char cut[1024];

	/* a line as wide as the terminal wraps, and its first part is never cleared */
	text_cut(cut, sizeof(cut), line, cols > 1 ? cols - 1 : 79);
	fprintf(stderr, "\r\033[K%s", cut);
	fflush(stderr);
}

void cli_progress_show(struct cli_progress *pr, const char *phase, uint64_t done,
		       uint64_t total, double bw, double left_s)
{
	char d[32], t[32], line[1024];
	size_t n;

	if (!pr->on)
		return;
	str_copy(line, sizeof(line), phase);
	n = strlen(line);
	if (total) {
		size_to_human(done, d, sizeof(d));
		size_to_human(total, t, sizeof(t));
		n += (size_t)snprintf(line + n, sizeof(line) - n, "  %s of %s", d, t);
	}
	if (bw > 0 && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, "  %.1f MB/s", bw / 1e6);
	if (left_s >= 0 && n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "  %.0f s left", left_s);
	cli_progress_put(line);
	pr->shown = true;
}

void cli_progress_clear(struct cli_progress *pr)
{
	if (pr->shown)
		fprintf(stderr, "\r\033[K");
	pr->shown = false;
}
