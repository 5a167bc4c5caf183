/* cmd-verify.c - `sbcdisk verify TARGET`: options, signals and the progress line; the work is
 * in bench/verify.c and the output in report/verify-report.c. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/profile.h"
#include "bench/verify.h"
#include "cli/cli.h"
#include "common/log.h"
#include "common/json.h"
#include "report/verify-report.h"
#include "common/util.h"

static volatile sig_atomic_t verify_signal;

static void on_signal(int sig)
{
	verify_signal = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: sbcdisk verify TARGET [options]\n"
		"\nIs the capacity real and does every byte read back?\n"
		"A directory: its free space is filled with files of a seeded pattern, synced,\n"
		"read back from the drive and deleted (as f3write and f3read do).\n"
		"A block device (with --destructive; it is overwritten): blocks written at offsets\n"
		"spread over the whole device find the edge of its real capacity in seconds (as\n"
		"f3probe does); --full then writes and reads all of it.\n"
		"\nOptions:\n"
		"  --destructive    allow writing to a named, unused block device\n"
		"  --full           block device: after the probe, write and read every byte\n"
		"  --size SIZE      directory: write at most SIZE (e.g. 4g), not all the free space\n"
		"  --seed HEX       the pattern's seed (default: random)\n"
		"  -h, --help       this help\n"
		"\nExit status: 0 every byte read back, 3 a finding (capacity-fake: writes wrap,\n"
		"vanish or fail past the real size; data-corrupt: bytes changed), 1 failure,\n"
		"2 usage. A directory on tmpfs passes as RAM: no drive is tested there.\n"
		"With the global --json: one JSON document (schema 1), and no progress line.\n");
}

static void progress_line(void *arg, const struct verify_progress *p)
{
	/* a probe's rate and time left mean nothing: it writes a few blocks far apart */
	bool probing = !strcmp(p->phase, "probing");

	cli_progress_show(arg, p->phase, p->done, p->total, probing ? 0 : p->bw,
			  probing ? -1 : p->left_s);
}

static int parse_opts(int argc, char **argv, struct verify_opts *o, bool *help)
{
	static const struct option lopts[] = {
		{ "destructive", no_argument, NULL, 'D' },
		{ "full", no_argument, NULL, 'F' },
		{ "size", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", lopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			o->destructive = true;
			break;
		case 'F':
			o->full = true;
			break;
		case 's':
			if (bench_parse_size(optarg, &o->size) || o->size < 65536)
				return cli_usage_error("verify", "bad size '%s': e.g. 256m, 4g "
						       "(64k at least)", optarg);
			break;
		case 'S':
			if (parse_u64_base(optarg, 16, &o->seed))
				return cli_usage_error("verify", "bad seed '%s': hexadecimal, "
						       "e.g. 1f2e3d", optarg);
			o->has_seed = true;
			break;
		case 'h':
			*help = true;
			return 0;
		default:
			return cli_option_error("verify", c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error("verify", "which directory or device? e.g. 'sbcdisk verify "
				       "/media/card' or 'sbcdisk verify /dev/sda --destructive'");
	o->target = argv[optind++];
	if (optind < argc)
		return cli_usage_error("verify", "one target only, not '%s'", argv[optind]);
	return 0;
}

static int print_result(struct cli_ctx *ctx, const struct verify_run *run)
{
	struct json_object *doc;
	int ret;

	if (!ctx->json)
		return verify_table_print(run, stdout);
	doc = verify_result_to_json(run);
	if (!doc)
		return -ENOMEM;
	ret = json_print(doc, stdout);
	json_object_put(doc);
	return ret;
}

int cmd_verify(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_progress ps;
	struct verify_opts o = { 0 };
	struct verify_run run;
	bool help = false;
	char why[300] = "";
	int ret, rc = EXIT_OK;

	ret = parse_opts(argc, argv, &o, &help);
	if (ret)
		return ret;
	if (help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (cli_setup(ctx))
		return EXIT_FAIL;
	verify_signal = 0;
	cli_catch_stop_signals(on_signal);
	ret = verify_run_prepare(&run, ctx->sr, &o, why, sizeof(why));
	if (ret) {
		char shown[PATH_MAX];

		str_copy(shown, sizeof(shown), o.target);
		str_sanitize(shown);
		verify_run_release(&run);
		if (ret == -EINVAL)
			return cli_usage_error("verify", "'%s': %s", shown, why);
		log_error("verify: target '%s': %s", shown, why[0] ? why : strerror(-ret));
		return EXIT_FAIL;
	}
	run.stop = &verify_signal;
	cli_progress_init(&ps, ctx);
	run.progress = progress_line;
	run.progress_arg = &ps;
	ret = verify_run_execute(&run, &o, why, sizeof(why));
	cli_progress_clear(&ps);
	if (verify_signal) {
		rc = 128 + verify_signal;
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
	verify_run_release(&run);
	return rc;
}
