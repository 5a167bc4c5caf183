/* cmd-report.c - `sbcdisk report [RUN ...] -o report.html`: stored runs as one self-contained
 * HTML page (inline CSS and SVG charts, no script, nothing fetched). */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli-store.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "common/log.h"
#include "common/util.h"
#include "report/compare.h"
#include "report/html.h"

static struct store_filter filter;
static struct {
	const char *db, *out;
	struct cli_filter runs;
} opt = { .runs = { &filter, COMPARE_RUNS_MAX } };

static const struct cli_option options[] = {
	OPT_STRING('o', "output", "FILE", &opt.out,
		   "write the page to FILE ('-' for stdout); without it, to\n"
		   "stdout when that is a pipe or a file, else to a new file\n"
		   "sbcdisk-report-DATE-TIME.html in the current directory"),
	OPT_DB(&opt.db, "the result database"),
	OPT_DEVICE(&opt.runs, "runs of devices whose name, model, serial or VID:PID has TEXT"),
	OPT_LAST(&opt.runs, "the newest N runs (at most " CLI_STR(COMPARE_RUNS_MAX) ")"),
	OPT_HELP(),
	OPT_END(),
};

static int check(const char *cmd, int argc, char **argv)
{
	(void)argv;
	return cli_filter_check(cmd, &opt.runs, argc - 1);
}

const struct cli_spec report_spec = {
	.usage = "Usage: sbcdisk report [options] [RUN ...]\n"
		 "\nStored runs as one HTML file: a panel per run, charts comparing them test by\n"
		 "test, latencies, how each drive was attached, doctor findings and verdicts,\n"
		 "and the boot times recorded for the same drives ('sbcdisk history --boot').\n"
		 "With no RUN: the newest " CLI_STR(COMPARE_RUNS_MAX)
		 " runs (or those of --device / --last).\n",
	.options = options,
	.help_col = 21,
	.after = "\nThe time shown in the page is SOURCE_DATE_EPOCH when it is set.\n",
	.args_max = -1,
	.check = check,
};

/* "sbcdisk-report-20261206-174700.html": the time of the page, UTC. 0 or -EINVAL. */
static int report_file_name(time_t t, char *buf, size_t cap)
{
	struct tm tm;
	char when[32];

	if (!gmtime_r(&t, &tm) || !strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm))
		return -EINVAL;
	return str_fmt(buf, cap, "sbcdisk-report-%s.html", when) ? -EINVAL : 0;
}

struct page {
	const struct run_list *runs;
	struct html_opts opts;
};

static int write_page(FILE *f, void *arg)
{
	struct page *p = arg;

	return html_report_write(f, p->runs, &p->opts);
}

int cmd_report(struct cli_ctx *ctx, int argc, char **argv)
{
	const char *db = opt.db, *out = opt.out, *epoch = getenv("SOURCE_DATE_EPOCH");
	char name[64];
	struct store_filter f = filter;
	struct run_list l = { 0 };
	struct store *st = NULL;
	struct page page = { .runs = &l };
	struct store_fix *fixes = NULL;
	struct store_boot_group *boots = NULL;
	struct store_boot_filter bf = { 0 };
	int64_t *ids = NULL, *fix_run = NULL;
	uint64_t n;
	int ret;

	page.opts.generated_at = time(NULL);
	if (epoch && parse_u64(epoch, &n) == 0)
		page.opts.generated_at = (time_t)n;
	if (cli_store_open("report", db, STORE_READ, false, &st))
		return EXIT_FAIL;
	ret = cli_select_runs("report", st, argv + 1, argc - 1, &f, &l);
	if (ret)
		goto out;
	if (!l.n) {
		log_error("report: no stored run matches");
		ret = EXIT_FAIL;
		goto out;
	}
	/* the fixes of these drives, marked on their timeline */
	ids = calloc(l.n, sizeof(*ids));
	if (!ids) {
		log_error("report: out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < l.n; i++)
		ids[i] = l.runs[i]->id;
	if (store_fixes_of_runs(st, ids, l.n, &fixes, &fix_run, &page.opts.n_fixes)) {
		ret = cli_store_error("report", st);
		goto out;
	}
	page.opts.fixes = fixes;
	page.opts.fix_run = fix_run;
	/* the boot times of these drives */
	bf.runs = ids;
	bf.n_runs = l.n;
	if (store_boot_groups(st, &bf, &boots, &page.opts.n_boots)) {
		ret = cli_store_error("report", st);
		goto out;
	}
	page.opts.boots = boots;
	/* a page of HTML is no use on a terminal: a file, and where it is */
	if (!out && isatty(STDOUT_FILENO) && report_file_name(page.opts.generated_at, name,
							    sizeof(name)) == 0)
		out = name;
	if (!out)
		out = "-";
	ret = cli_write_file(out, db, write_page, &page);
	if (ret) {
		log_error("report: cannot write '%s': %s", out, cli_write_strerror(ret));
		ret = EXIT_FAIL;
		goto out;
	}
	if (strcmp(out, "-") && (!ctx->quiet || out == name))
		log_line(stderr, "wrote %s (%zu run%s)", out, l.n, l.n == 1 ? "" : "s");
	ret = EXIT_OK;
out:
	free(ids);
	free(fixes);
	free(fix_run);
	free(boots);
	run_list_release(&l);
	store_close(st);
	return ret;
}
