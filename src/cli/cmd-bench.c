/* cmd-bench.c - `sbcdisk bench [TARGET]`: options, signals and the progress line; the work is
 * in bench/ and the output in report/bench-*.c. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cli/cli-store.h"
#include "cli/cli.h"
#include "common/log.h"
#include "report/bench-report.h"
#include "common/json.h"
#include "common/util.h"

static volatile sig_atomic_t bench_signal;

static void on_signal(int sig)
{
	bench_signal = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: sbcdisk bench [TARGET] [options]\n"
		"\nMeasure a directory (a test file is made there), an existing file (read only)\n"
		"or a block device (read only; writes need --destructive and an unused device).\n"
		"With no TARGET: a test file in " BENCH_DEFAULT_DIR ".\n"
		"\nOptions:\n"
		"  --profile NAME   default, peak, real, nvme, hdparm, extended, sdcard, dd,\n"
		"                   sustained, quick ('--profile help' describes them)\n"
		"  --test SPEC      a custom test, repeatable: rw=randread,bs=4k,qd=32,threads=1,\n"
		"                   time=5s,size=1g,runs=3,direct=1\n"
		"  --runs N         repeat each test N times\n"
		"  --time DUR       measured time of each run (5s, 500ms)\n"
		"  --interval DUR   pause between tests (hdparm: before each disk read, 3 s)\n"
		"  --size SIZE      test file size (dd, sustained: how much to write)\n"
		"  --engine NAME    io_uring, psync or null (default: io_uring where it works)\n"
		"  --destructive    allow write tests on a named, unused block device\n"
		"  --db PATH        the result database the run is saved in (default:\n"
		"                   /var/lib/sbcdisk/results.db as root, else\n"
		"                   $XDG_DATA_HOME/sbcdisk/results.db)\n"
		"  --no-save        do not save the run\n"
		"  -h, --help       this help\n"
		"\n"
		"With the global --json: the documented JSON document (schema 1), and no\n"
		"progress line.\n");
}

static void profiles_help(void)
{
	const struct bench_profile *p;

	printf("Profiles:\n");
	for (p = bench_profiles; p->name; p++)
		printf("  %-10s %s\n", p->name, p->help);
}

struct progress_state {
	bool on;
	bool shown;
};

static void progress_line(void *arg, const struct bench_progress *p)
{
	struct progress_state *st = arg;

	if (!st->on)
		return;
	fprintf(stderr, "\r\033[K%s %s", p->phase, p->rw && strcmp(p->phase, "preparing") ? p->rw : "");
	if (p->runs > 1)
		fprintf(stderr, "  run %u/%u", p->run, p->runs);
	if (p->attempt > 1)
		fprintf(stderr, "  attempt %u/%d at A1", p->attempt, BENCH_SDCARD_ATTEMPTS);
	if (p->settling) {
		fprintf(stderr, "  letting I/O settle for %.0f s first, as hdparm does", p->left_s);
		fflush(stderr);
		st->shown = true;
		return;
	}
	fprintf(stderr, "  %.1f MB/s", p->bw / 1e6);
	if (p->left_s >= 0)
		fprintf(stderr, "  %.0f s left", p->left_s);
	fflush(stderr);
	st->shown = true;
}

static int parse_opts(int argc, char **argv, struct bench_opts *o, struct cli_store_opts *so,
		      bool *help)
{
	static const struct option lopts[] = {
		{ "profile", required_argument, NULL, 'p' },
		{ "test", required_argument, NULL, 't' },
		{ "runs", required_argument, NULL, 'r' },
		{ "time", required_argument, NULL, 'T' },
		{ "interval", required_argument, NULL, 'i' },
		{ "size", required_argument, NULL, 's' },
		{ "engine", required_argument, NULL, 'e' },
		{ "destructive", no_argument, NULL, 'D' },
		CLI_SAVE_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char why[160];
	uint64_t n;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", lopts, NULL)) != -1) {
		int ret = cli_store_opt("bench", c, optarg, 0, so);

		if (ret != CLI_NOT_MINE) {
			if (ret)
				return ret;
			continue;
		}
		switch (c) {
		case 'p':
			o->profile = optarg;
			break;
		case 't':
			if (o->ncustom >= BENCH_MAX_TESTS)
				return cli_usage_error("bench", "at most %d --test options",
						       BENCH_MAX_TESTS);
			if (bench_test_parse(optarg, &o->custom[o->ncustom], why, sizeof(why)))
				return cli_usage_error("bench", "bad test '%s': %s", optarg, why);
			o->ncustom++;
			break;
		case 'r':
			if (parse_u64(optarg, &n) || n < 1 || n > BENCH_MAX_RUNS)
				return cli_usage_error("bench", "bad run count '%s': 1 to %d",
						       optarg, BENCH_MAX_RUNS);
			o->runs = (unsigned)n;
			break;
		case 'T':
			if (bench_parse_duration(optarg, &o->time_ns) || !o->time_ns)
				return cli_usage_error("bench", "bad time '%s': e.g. 5s, 500ms",
						       optarg);
			break;
		case 'i':
			if (bench_parse_duration(optarg, &o->interval_ns))
				return cli_usage_error("bench", "bad interval '%s': e.g. 5s, 0",
						       optarg);
			o->has_interval = true;
			break;
		case 's':
			if (bench_parse_size(optarg, &o->size) || o->size < 65536)
				return cli_usage_error("bench", "bad size '%s': e.g. 256m, 1g "
						       "(64k at least)", optarg);
			break;
		case 'e':
			o->engine = optarg;
			break;
		case 'D':
			o->destructive = true;
			break;
		case 'h':
			*help = true;
			return 0;
		default:
			return cli_option_error("bench", c, argv);
		}
	}
	if (optind < argc)
		o->target = argv[optind++];
	if (optind < argc)
		return cli_usage_error("bench", "one target at most, not '%s'", argv[optind]);
	if (o->profile && o->ncustom)
		return cli_usage_error("bench", "--profile and --test do not go together");
	return 0;
}

static int print_result(struct cli_ctx *ctx, const struct bench_run *run)
{
	struct json_object *doc;
	int ret;

	if (!ctx->json)
		return bench_table_print(run, stdout);
	doc = bench_result_to_json(run);
	if (!doc)
		return -ENOMEM;
	ret = json_print(doc, stdout);
	json_object_put(doc);
	return ret;
}

static void save_result(struct cli_ctx *ctx, const struct bench_run *run, const char *db)
{
	struct json_object *doc = bench_result_to_json(run);
	int64_t id = 0;

	if (!doc) {
		log_error("bench: the results were not saved: out of memory");
		return;
	}
	if (!cli_bench_save(ctx, db, doc, &id) && !ctx->quiet)
		fprintf(stderr, "saved as run %lld (sbcdisk history, compare, report)\n",
			(long long)id);
	json_object_put(doc);
}

int cmd_bench(struct cli_ctx *ctx, int argc, char **argv)
{
	static struct bench_opts o; /* holds BENCH_MAX_TESTS tests: not on the stack */
	struct progress_state ps = { .on = isatty(STDERR_FILENO) && !ctx->quiet };
	struct bench_run run;
	struct cli_store_opts so = { 0 };
	bool help = false;
	char why[256] = "";
	int ret, rc = EXIT_OK;

	memset(&o, 0, sizeof(o));
	ret = parse_opts(argc, argv, &o, &so, &help);
	if (ret)
		return ret;
	if (help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (o.profile && !strcmp(o.profile, "help")) {
		profiles_help();
		return EXIT_OK;
	}
	if (cli_setup(ctx))
		return EXIT_FAIL;
	ret = bench_run_init(&run, &o, why, sizeof(why));
	if (ret == -EINVAL) {
		bench_run_release(&run);
		return cli_usage_error("bench", "%s", why);
	}
	if (ret) {
		log_error("bench: %s", why);
		bench_run_release(&run);
		return EXIT_FAIL;
	}
	bench_signal = 0;
	cli_catch_stop_signals(on_signal);
	run.stop = &bench_signal;
	run.progress = progress_line;
	run.progress_arg = &ps;
	ret = bench_run_prepare(&run, ctx->sr, &o, why, sizeof(why));
	if (!ret)
		ret = bench_run_execute(&run, why, sizeof(why));
	if (ps.shown)
		fprintf(stderr, "\r\033[K");
	if (ret && !bench_signal) {
		log_error("bench: target '%s': %s", run.target.path, why[0] ? why : strerror(-ret));
		rc = EXIT_FAIL;
	}
	if (bench_signal) {
		run.interrupted = true;
		rc = 128 + bench_signal;
	}
	/* what was measured is printed even after an error or a signal */
	if (run.ntests && (rc == EXIT_OK || bench_signal || run.tests[0].runs_done)) {
		if (print_result(ctx, &run))
			rc = EXIT_FAIL;
	}
	/* A complete run is kept; a store that fails says so once, and the exit stays 0:
	 * the measurement itself worked and was printed. */
	if (rc == EXIT_OK && run.ntests && !so.no_save)
		save_result(ctx, &run, so.db);
	bench_run_release(&run);
	return rc;
}
