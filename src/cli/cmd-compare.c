/* cmd-compare.c - `sbcdisk compare RUN RUN ...` (or --device, --last N): stored runs side by
 * side, tests as rows, runs as columns, each with its ratio to the first run; then the
 * recorded boot times of the same drives. */
#include <stdio.h>

#include "cli/cli-store.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "common/log.h"
#include "common/util.h"
#include "report/boot-times.h"
#include "report/compare.h"
#include "common/json.h"

static struct store_filter filter;
static struct {
	const char *db;
	struct cli_filter runs;
} opt = { .runs = { &filter, COMPARE_RUNS_MAX } };

static const struct cli_option options[] = {
	OPT_DB(&opt.db, "the result database"),
	OPT_DEVICE(&opt.runs, "the runs of devices whose name, model, serial or VID:PID\n"
		   "has TEXT (oldest first)"),
	OPT_LAST(&opt.runs, "the newest N runs (with --device: of that device), oldest\n"
		 "first; at most " CLI_STR(COMPARE_RUNS_MAX)),
	OPT_JSON("the table as JSON"),
	OPT_HELP(),
	OPT_END(),
};

static int check(const char *cmd, int argc, char **argv)
{
	(void)argv;
	if (argc == 1 && !filter.device && !filter.limit)
		return cli_usage_error(cmd, "name runs, or use --device or --last");
	return cli_filter_check(cmd, &opt.runs, argc - 1);
}

const struct cli_spec compare_spec = {
	.usage = "Usage: sbcdisk compare [options] [RUN ...]\n"
		 "\nStored runs side by side: tests as rows, runs as columns, with the ratio of\n"
		 "each value to the first run's. RUN is an id from 'sbcdisk history'. Then the\n"
		 "boot times recorded for the same drives ('sbcdisk history --boot'), if any.\n",
	.options = options,
	.help_col = 19,
	.args_max = -1,
	.check = check,
};

/* Runs named by id, or chosen by filter (then oldest first, so the baseline is the first). */
int cli_select_runs(const char *cmd, struct store *st, char **ids, int nids,
		    struct store_filter *f, struct run_list *l)
{
	int64_t id[COMPARE_RUNS_MAX];
	int i, ret;

	if (nids > 0) {
		if (nids > COMPARE_RUNS_MAX)
			return cli_usage_error(cmd, "at most %d runs", COMPARE_RUNS_MAX);
		for (i = 0; i < nids; i++)
			if (cli_parse_run_id(ids[i], &id[i]))
				return cli_usage_error(cmd, "'%s' is not a run id", ids[i]);
		ret = store_runs_get(st, id, (size_t)nids, l);
	} else {
		if (!f->limit)
			f->limit = COMPARE_RUNS_MAX;
		ret = store_runs_query(st, f, l);
		for (i = 0; !ret && i < (int)l->n / 2; i++) {
			struct run *t = l->runs[i];

			l->runs[i] = l->runs[l->n - 1 - i];
			l->runs[l->n - 1 - i] = t;
		}
	}
	if (ret)
		return cli_store_error(cmd, st);
	return EXIT_OK;
}

int cmd_compare(struct cli_ctx *ctx, int argc, char **argv)
{
	struct store_filter f = filter;

	return cli_compare_show(ctx, opt.db, argv + 1, argc - 1, &f);
}

int cli_compare_show(struct cli_ctx *ctx, const char *db, char **names, int nnames,
		     struct store_filter *f)
{
	struct run_list l = { 0 };
	struct store *st = NULL;
	struct compare *cmp = NULL;
	struct store_boot_group *boots = NULL;
	struct store_boot_filter bf = { 0 };
	int64_t ids[COMPARE_RUNS_MAX];
	size_t nboots = 0, i;
	bool json = ctx->json;
	int ret;

	if (cli_store_open("compare", db, STORE_READ, false, &st))
		return EXIT_FAIL;
	ret = cli_select_runs("compare", st, names, nnames, f, &l);
	if (ret)
		goto out;
	if (!l.n) {
		log_error("compare: no stored run matches");
		ret = EXIT_FAIL;
		goto out;
	}
	cmp = malloc(sizeof(*cmp));
	if (!cmp || compare_build(&l, cmp)) {
		log_error("compare: out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	/* the boot times of these drives */
	for (i = 0; i < l.n && i < COMPARE_RUNS_MAX; i++)
		ids[i] = l.runs[i]->id;
	bf.runs = ids;
	bf.n_runs = i;
	if (store_boot_groups(st, &bf, &boots, &nboots)) {
		ret = cli_store_error("compare", st);
		goto out;
	}
	if (json) {
		struct json_object *o = compare_to_json(cmp);

		json_object_object_add(o, "boot_times", boot_times_json(boots, nboots));
		ret = json_print(o, stdout) ? EXIT_FAIL : EXIT_OK;
		json_object_put(o);
	} else {
		ret = compare_print(stdout, cmp) ? EXIT_FAIL : EXIT_OK;
		if (!ret && nboots) {
			printf("\nBoot times of these drives:\n");
			ret = boot_times_print(stdout, boots, nboots) ? EXIT_FAIL : EXIT_OK;
		}
	}
out:
	free(boots);
	free(cmp);
	run_list_release(&l);
	store_close(st);
	return ret;
}
