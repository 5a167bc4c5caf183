/* cmd-bench.c - `sbcdisk bench [TARGET]`: options, signals and the progress line; the work is
 * in bench/ and the output in report/bench-*.c. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/engine.h"
#include "cli/bench-print.h"
#include "cli/cli-store.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "flow/bench-step.h"
#include "flow/move.h"
#include "common/log.h"
#include "common/sysroot.h"
#include "common/sbuf.h"
#include "report/bench-report.h"
#include "common/json.h"
#include "common/util.h"

static volatile sig_atomic_t bench_signal;

static void on_signal(int sig)
{
	bench_signal = sig;
}

static void profiles_help(void)
{
	const struct bench_profile *p;

	printf("Profiles:\n");
	for (p = bench_profiles; p->name; p++)
		printf("  %-10s %s\n", p->name, p->help);
}

/* One line, rewritten in place (cli_progress_put: never as wide as the terminal). */
void cli_bench_progress(void *arg, const struct bench_progress *p)
{
	struct cli_bench_progress *st = arg;
	struct sbuf sb = SBUF_INIT(1023);
	int ret;

	if (!st->on)
		return;
	ret = sbuf_addf(&sb, "%s %s", p->phase,
			p->rw && strcmp(p->phase, "preparing") ? p->rw : "");
	if (!ret && p->until_known)
		ret = sbuf_addf(&sb, "  run %u (to +/-1 %%)", p->run);
	else if (!ret && p->runs > 1)
		ret = sbuf_addf(&sb, "  run %u/%u", p->run, p->runs);
	if (!ret && p->attempt > 1)
		ret = sbuf_addf(&sb, "  attempt %u/%d at A1", p->attempt, BENCH_SDCARD_ATTEMPTS);
	if (!ret && p->settling)
		ret = sbuf_addf(&sb, "  letting I/O settle for %.0f s first, as hdparm does",
				p->left_s);
	if (!ret && !p->settling)
		ret = sbuf_addf(&sb, "  %.1f MB/s", p->bw / 1e6);
	if (!ret && !p->settling && p->left_s >= 0)
		ret = sbuf_addf(&sb, "  %.0f s left", p->left_s);
	(void)ret; /* a line too long for the buffer is cut as one too long for the screen */
	cli_progress_put(sbuf_str(&sb));
	sbuf_release(&sb);
	st->shown = true;
}

static struct bench_opts bo; /* holds BENCH_MAX_TESTS tests: not on the stack */
static struct {
	const char *db;
	bool no_save;
} opt;

static int opt_test(const char *cmd, void *value, const char *arg)
{
	struct bench_opts *o = value;
	char why[160];

	if (o->ncustom >= BENCH_MAX_TESTS)
		return cli_usage_error(cmd, "at most %d --test options", BENCH_MAX_TESTS);
	if (bench_test_parse(arg, &o->custom[o->ncustom], why, sizeof(why)))
		return cli_usage_error(cmd, "bad test '%s': %s", arg, why);
	o->ncustom++;
	return 0;
}

static int opt_runs(const char *cmd, void *value, const char *arg)
{
	uint64_t n;

	if (parse_u64(arg, &n) || n < 1 || n > BENCH_MAX_RUNS)
		return cli_usage_error(cmd, "bad run count '%s': 1 to %d", arg, BENCH_MAX_RUNS);
	((struct bench_opts *)value)->runs = (unsigned)n;
	return 0;
}

static int opt_time(const char *cmd, void *value, const char *arg)
{
	struct bench_opts *o = value;

	if (bench_parse_duration(arg, &o->time_ns) || !o->time_ns)
		return cli_usage_error(cmd, "bad time '%s': e.g. 5s, 500ms", arg);
	return 0;
}

static int opt_interval(const char *cmd, void *value, const char *arg)
{
	struct bench_opts *o = value;

	if (bench_parse_duration(arg, &o->interval_ns))
		return cli_usage_error(cmd, "bad interval '%s': e.g. 5s, 0", arg);
	o->has_interval = true;
	return 0;
}

static int opt_size(const char *cmd, void *value, const char *arg)
{
	struct bench_opts *o = value;

	if (bench_parse_size(arg, &o->size) || o->size < 65536)
		return cli_usage_error(cmd, "bad size '%s': e.g. 256m, 1g (64k at least)", arg);
	return 0;
}

/* the help of --profile and --engine: the names of the profile and engine tables */
static char profile_help[256], engine_help[128];

static const struct cli_option options[] = {
	OPT_STRING(0, "profile", "NAME", &bo.profile, profile_help),
	OPT_CALLBACK(0, "test", "SPEC", &bo, opt_test,
		     "a custom test, repeatable: rw=randread,bs=4k,qd=32,threads=1,\n"
		     "time=5s,size=1g,runs=3,direct=1"),
	OPT_CALLBACK(0, "runs", "N", &bo, opt_runs,
		     "repeat each test N times (default: until its figure is known to +/-1 %)"),
	OPT_CALLBACK(0, "time", "DUR", &bo, opt_time, "measured time of each run (5s, 500ms)"),
	OPT_CALLBACK(0, "interval", "DUR", &bo, opt_interval,
		     "pause between tests (hdparm: before each disk read, 3 s)"),
	OPT_CALLBACK(0, "size", "SIZE", &bo, opt_size,
		     "test file size (dd, sustained: how much to write)"),
	OPT_STRING(0, "engine", "NAME", &bo.engine, engine_help),
	OPT_BOOL(0, "destructive", &bo.destructive,
		 "allow write tests on a named, unused block device"),
	OPT_DB(&opt.db, "the result database the run is saved in (default:\n"
	       "/var/lib/sbcdisk/results.db as root, else\n"
	       "$XDG_DATA_HOME/sbcdisk/results.db; under --sysroot\n"
	       "the tree's own)"),
	OPT_BOOL(0, "no-save", &opt.no_save, "do not save the run"),
	OPT_HELP(),
	OPT_END(),
};

static int check(const char *cmd, int argc, char **argv)
{
	if (argc > 1)
		bo.target = argv[1];
	if (argc > 2)
		return cli_usage_error(cmd, "one target at most, not '%s'", argv[2]);
	if (bo.profile && bo.ncustom)
		return cli_usage_error(cmd, "--profile and --test do not go together");
	if (bo.profile && !strcmp(bo.profile, "help")) {
		profiles_help();
		return CLI_DONE;
	}
	return 0;
}

static void help_names(void)
{
	const struct bench_engine_ops *e;
	const struct bench_profile *p;
	size_t i, n = 0;

	for (p = bench_profiles; p->name && n < sizeof(profile_help); p++)
		n += (size_t)snprintf(profile_help + n, sizeof(profile_help) - n, "%s, ",
				      p->name);
	if (n >= 2 && n < sizeof(profile_help))
		snprintf(profile_help + n - 2, sizeof(profile_help) - n + 2,
			 " ('--profile help' describes them)");
	cli_help_wrap(profile_help, CLI_HELP_COLS - bench_spec.help_col);
	n = 0;
	for (i = 0; (e = bench_engine_get(i)) && n < sizeof(engine_help); i++)
		n += (size_t)snprintf(engine_help + n, sizeof(engine_help) - n, "%s%s",
				      !i ? "" : bench_engine_get(i + 1) ? ", " : " or ", e->name);
	if (n < sizeof(engine_help))
		snprintf(engine_help + n, sizeof(engine_help) - n,
			 " (default: io_uring where it works)");
}

static void reset(void)
{
	memset(&bo, 0, sizeof(bo));
	memset(&opt, 0, sizeof(opt));
}

const struct cli_spec bench_spec = {
	.usage = "Usage: sbcdisk bench [TARGET] [options]\n"
		 "\nMeasure a directory (a test file is made there), an existing file (read only)\n"
		 "or a block device (read only; writes need --destructive and an unused device).\n"
		 "With no TARGET: a test file in " BENCH_DEFAULT_DIR ".\n",
	.options = options,
	.help_col = 19,
	.after = "\n"
		 "With the global --json: the documented JSON document (schema 1), and no\n"
		 "progress line.\n",
	.args_max = -1,
	.check = check,
	.prepare = help_names,
	.reset = reset,
};

/* The table, or the JSON document (doc: the bench's, printed with its verdicts), with the
 * verdict of each figure when judged (the store's run made of it) is not NULL. */
static int print_result(struct cli_ctx *ctx, const struct bench_run *run, struct json_object *doc,
			const struct run *judged)
{
	struct json_object *own = NULL;
	int ret;

	if (!ctx->json)
		return bench_table_print_judged(run, judged, stdout);
	if (!doc)
		doc = own = bench_result_to_json(run);
	if (!doc)
		return -ENOMEM;
	/* every test has its verdict, null when not judged (or no run could be made) */
	bench_json_add_verdicts(doc, judged);
	ret = json_print(doc, stdout);
	json_object_put(own);
	return ret;
}

struct print_arg {
	struct cli_ctx *ctx;
	const struct bench_run *run;
	struct json_object *doc;
	int ret;
};

static void print_judged(const struct run *judged, void *arg)
{
	struct print_arg *p = arg;
	struct json_object *copy = NULL;

	/* the document saved is the bench's own: the verdicts go into a copy */
	if (p->ctx->json && json_object_deep_copy(p->doc, &copy, NULL)) {
		p->ret = -ENOMEM;
		return;
	}
	p->ret = print_result(p->ctx, p->run, copy, judged);
	json_object_put(copy);
}

/* A complete run: its figures with their verdicts, the judgement of the drive's path (text
 * output), then the run saved unless --no-save. 0, or -errno when printing failed. */
static int finish_result(struct cli_ctx *ctx, const struct bench_run *run, const char *db,
			 bool save, int64_t *saved)
{
	struct json_object *doc = bench_result_to_json(run);
	struct print_arg p = { .ctx = ctx, .run = run, .doc = doc };
	int64_t id = 0;

	if (!doc) {
		log_error("bench: the results were not saved: out of memory");
		return print_result(ctx, run, NULL, NULL);
	}
	if (!cli_bench_finish_print(ctx, db, doc, !ctx->json, save, print_judged, &p, &id) &&
	    save && !ctx->quiet)
		fprintf(stderr, "saved as run %lld (sbcdisk history, compare, report)\n",
			(long long)id);
	if (saved)
		*saved = id;
	json_object_put(doc);
	return p.ret;
}

int cli_bench_report(struct cli_ctx *ctx, struct bench_run *run, int ret, const char *why,
		     int sig, const char *db, bool no_save, int64_t *saved)
{
	int rc = EXIT_OK;

	if (ret && !sig) {
		log_error("bench: target '%s': %s", run->target.shown, why[0] ? why : strerror(-ret));
		rc = EXIT_FAIL;
	}
	if (sig) {
		run->interrupted = true;
		rc = 128 + sig;
	}
	/* what was measured is printed even after an error or a signal; a complete run with the
	 * verdict of each figure, then kept: a store that fails says so once, and the exit
	 * stays 0 (the measurement itself worked and was printed) */
	if (run->ntests && rc == EXIT_OK) {
		if (finish_result(ctx, run, db, !no_save, saved))
			rc = EXIT_FAIL;
	} else if (run->ntests && (sig || run->tests[0].runs_done)) {
		if (print_result(ctx, run, NULL, NULL))
			rc = EXIT_FAIL;
	}
	return rc;
}

int cli_quick_bench(struct cli_ctx *ctx, const char *path, uint64_t time_ns,
		    volatile sig_atomic_t *stop, const char *db, bool no_save, int64_t *saved)
{
	struct cli_bench_progress bp = { .on = isatty(STDERR_FILENO) && !ctx->quiet };
	struct flow_bench_step s = {
		.time_ns = time_ns,
		.stop = stop,
		.progress = cli_bench_progress,
		.progress_arg = &bp,
	};
	struct bench_run run;
	char why[256];
	int ret, rc;

	fflush(stdout);
	ret = flow_quick_bench(ctx->sr, path, &s, &run, why, sizeof(why));
	if (bp.shown)
		fprintf(stderr, "\r\033[K");
	rc = cli_bench_report(ctx, &run, ret, why,
			      *stop ? *stop : ret == -EINTR ? SIGINT : 0, db, no_save, saved);
	bench_run_release(&run);
	return rc;
}

int cmd_bench(struct cli_ctx *ctx, int argc, char **argv)
{
	struct bench_opts *o = &bo;
	struct cli_bench_progress ps = { .on = isatty(STDERR_FILENO) && !ctx->quiet };
	struct bench_run run;
	static char tree_db[PATH_MAX];
	char why[256] = "";
	int ret, rc;

	(void)argc;
	(void)argv;
	ret = bench_run_init(&run, o, why, sizeof(why));
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
	run.progress = cli_bench_progress;
	run.progress_arg = &ps;
	ret = bench_run_prepare(&run, ctx->sr, o, why, sizeof(why));
	if (!ret)
		ret = bench_run_execute(&run, why, sizeof(why));
	if (ps.shown)
		fprintf(stderr, "\r\033[K");
	/* a --sysroot tree is not this machine: its runs go into the tree's store (as move's
	 * and prepare's), where its health check looks, never into this machine's */
	if (!opt.db && !sysroot_is_live(ctx->sr) && !flow_move_store_path(ctx->sr, tree_db,
									   sizeof(tree_db)))
		opt.db = tree_db;
	rc = cli_bench_report(ctx, &run, ret, why, bench_signal, opt.db, opt.no_save, NULL);
	bench_run_release(&run);
	return rc;
}
