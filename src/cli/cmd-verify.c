/* cmd-verify.c - `sbcdisk verify TARGET`: options, signals and the progress line; the work is
 * in bench/capacity.c (the capacity check) and the output in report/capacity-report.c. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/profile.h"
#include "bench/capacity.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "common/log.h"
#include "common/json.h"
#include "report/capacity-report.h"
#include "common/util.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void progress_line(void *arg, const struct capacity_progress *p)
{
	/* a probe's rate and time left mean nothing: it writes a few blocks far apart */
	bool probing = !strcmp(p->phase, "probing");

	cli_progress_show(arg, p->phase, p->done, p->total, probing ? 0 : p->bw,
			  probing ? -1 : p->left_s);
}

static struct capacity_opts vo;

static int opt_size(const char *cmd, void *value, const char *arg)
{
	struct capacity_opts *o = value;

	if (bench_parse_size(arg, &o->size) || o->size < 65536)
		return cli_usage_error(cmd, "bad size '%s': e.g. 256m, 4g (64k at least)", arg);
	return 0;
}

static int opt_seed(const char *cmd, void *value, const char *arg)
{
	struct capacity_opts *o = value;

	if (parse_u64_base(arg, 16, &o->seed))
		return cli_usage_error(cmd, "bad seed '%s': hexadecimal, e.g. 1f2e3d", arg);
	o->has_seed = true;
	return 0;
}

static const struct cli_option options[] = {
	OPT_BOOL(0, "destructive", &vo.destructive, "allow writing to a named, unused block device"),
	OPT_BOOL(0, "full", &vo.full, "block device: after the probe, write and read every byte"),
	OPT_CALLBACK(0, "size", "SIZE", &vo, opt_size,
		     "directory: write at most SIZE (e.g. 4g), not all the free space"),
	OPT_CALLBACK(0, "seed", "HEX", &vo, opt_seed, "the pattern's seed (default: random)"),
	OPT_HELP(),
	OPT_END(),
};

static int check(const char *cmd, int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error(cmd, "which directory or device? e.g. 'sbcdisk verify "
				       "/media/card' or 'sbcdisk verify /dev/sda --destructive'");
	vo.target = argv[1];
	if (argc > 2)
		return cli_usage_error(cmd, "one target only, not '%s'", argv[2]);
	return 0;
}

const struct cli_spec verify_spec = {
	.usage = "Usage: sbcdisk verify TARGET [options]\n"
		 "\nIs the capacity real and does every byte read back?\n"
		 "A directory: its free space is filled with files of a seeded pattern, synced,\n"
		 "read back from the drive and deleted (as f3write and f3read do).\n"
		 "A block device (with --destructive; it is overwritten): blocks written at\n"
		 "offsets spread over the whole device find the edge of its real capacity in\n"
		 "seconds (as f3probe does); --full then writes and reads all of it.\n",
	.options = options,
	.help_col = 19,
	.after = "\nExit status: 0 every byte read back, 3 a finding (capacity-fake: writes wrap,\n"
		 "vanish or fail past the real size; data-corrupt: bytes changed), 1 failure,\n"
		 "2 usage. A directory on tmpfs passes as RAM: no drive is tested there.\n"
		 "With the global --json: one JSON document (schema 1), and no progress line.\n",
	.args_max = -1,
	.check = check,
};

static int print_result(struct cli_ctx *ctx, const struct capacity_run *run)
{
	struct json_object *doc;
	int ret;

	if (!ctx->json)
		return capacity_table_print(run, stdout);
	doc = capacity_result_to_json(run);
	if (!doc)
		return -ENOMEM;
	ret = json_print(doc, stdout);
	json_object_put(doc);
	return ret;
}

int cmd_verify(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_progress ps;
	struct capacity_opts *o = &vo;
	struct capacity_run run;
	char why[300] = "";
	int ret, rc = EXIT_OK;

	(void)argc;
	(void)argv;
	stop_signal = 0;
	cli_catch_stop_signals(on_signal);
	ret = capacity_run_prepare(&run, ctx->sr, o, why, sizeof(why));
	if (ret) {
		char shown[PATH_MAX];

		str_copy(shown, sizeof(shown), o->target);
		str_sanitize(shown);
		capacity_run_release(&run);
		if (ret == -EINVAL)
			return cli_usage_error("verify", "'%s': %s", shown, why);
		log_error("verify: target '%s': %s", shown, why[0] ? why : strerror(-ret));
		return EXIT_FAIL;
	}
	run.stop = &stop_signal;
	cli_progress_init(&ps, ctx);
	run.progress = progress_line;
	run.progress_arg = &ps;
	ret = capacity_run_execute(&run, o, why, sizeof(why));
	cli_progress_clear(&ps);
	if (stop_signal) {
		rc = 128 + stop_signal;
	} else if (ret) {
		log_error("verify: target '%s': %s", run.target.shown,
			  why[0] ? why : strerror(-ret));
		rc = EXIT_FAIL;
	} else if (run.finding) {
		rc = EXIT_FINDINGS;
	}
	/* what was found is printed even after an error or a signal */
	if (print_result(ctx, &run))
		rc = EXIT_FAIL;
	capacity_run_release(&run);
	return rc;
}
