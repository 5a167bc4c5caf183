/* cmd-metrics.c - `sbcdisk metrics [--textfile DIR]`: the doctor's view and the last stored
 * bench figures as Prometheus text, on stdout or atomically into node_exporter's textfile dir. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli-store.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/doctor-run.h"
#include "common/log.h"
#include "common/util.h"
#include "report/list.h"
#include "report/metrics.h"

/* node_exporter's textfile collector reads only *.prom; the temporary file is not one. */
#define METRICS_TEXTFILE_NAME "sbcdisk.prom"

static struct {
	const char *dir, *kmsg, *db;
	char path[PATH_MAX];
} opt;

static const struct cli_option options[] = {
	OPT_STRING(0, "textfile", "DIR", &opt.dir,
		   "write DIR/" METRICS_TEXTFILE_NAME " atomically (node_exporter's\n"
		   "--collector.textfile.directory) instead of standard output"),
	OPT_STRING(0, "kmsg", "FILE", &opt.kmsg,
		   "read a saved kernel log instead of /dev/kmsg ('-' for stdin)"),
	OPT_DB(&opt.db, "the result database"),
	OPT_HELP(),
	OPT_END(),
};

struct metrics_run {
	struct doctor_run dr;
	struct metrics_dev *devs;
	size_t n;
	struct metrics_doc doc;
};

static int write_doc(FILE *f, void *arg)
{
	return metrics_write(f, arg);
}

/* The newest stored run of each drive; a store that cannot be read is said, not fatal. */
static void runs_load(const char *db, struct metrics_run *m)
{
	struct store *st = NULL;
	size_t i;
	int ret;

	ret = cli_store_open("metrics", db, STORE_READ, true, &st);
	if (ret == -ENOENT) {
		m->doc.store_read = true; /* nothing stored yet */
		return;
	}
	if (ret)
		return;
	for (i = 0; i < m->n; i++) {
		struct json_object *dev = list_device_to_json(m->devs[i].dev);
		struct run *r = NULL;

		ret = dev ? store_run_latest_of(st, dev, &r) : -ENOMEM;
		json_object_put(dev);
		if (ret) {
			log_warn("metrics: no bench figures: %s", st ? store_strerror(st) :
								       strerror(-ret));
			goto out;
		}
		m->devs[i].last_run = r;
	}
	m->doc.store_read = true;
out:
	store_close(st);
}

static int collect(struct cli_ctx *ctx, const char *kmsg, const char *db, struct metrics_run *m)
{
	struct doctor_run *dr = &m->dr;
	size_t i;

	if (doctor_run_collect(ctx, "metrics", kmsg, dr) != EXIT_OK)
		return EXIT_FAIL;
	if (dr->src.log_problem && !ctx->quiet)
		log_warn("metrics: kernel log not read: %s", dr->src.log_problem);
	m->devs = calloc(dr->inv.n ? dr->inv.n : 1, sizeof(*m->devs));
	if (!m->devs) {
		log_error("metrics: out of memory");
		return EXIT_FAIL;
	}
	for (i = 0; i < dr->inv.n; i++) {
		struct metrics_dev *d = &m->devs[m->n];

		d->dev = probe_inventory_find(dr->probe_inv, dr->inv.devs[i].name);
		if (!d->dev)
			continue;
		d->has_counts = dr->log && !dr->src.log_problem &&
				!diag_dev_counts_get(dr->log, &dr->inv, i, &d->counts);
		m->n++;
	}
	m->doc.devs = m->devs;
	m->doc.n = m->n;
	m->doc.findings = &dr->findings;
	m->doc.log_read = dr->log && !dr->src.log_problem;
	m->doc.now = time(NULL);
	runs_load(db, m);
	return EXIT_OK;
}

static void release(struct metrics_run *m)
{
	size_t i;

	for (i = 0; m->devs && i < m->n; i++)
		run_free((struct run *)m->devs[i].last_run);
	free(m->devs);
	doctor_run_release(&m->dr);
}

/* DIR/sbcdisk.prom: only into an existing directory. */
static int textfile_path(const char *dir, char *path, size_t cap)
{
	struct stat st;

	if (!dir[0])
		return cli_usage_error("metrics", "--textfile needs a directory");
	if (stat(dir, &st)) {
		log_error("metrics: textfile directory '%s': %s", dir, strerror(errno));
		return EXIT_FAIL;
	}
	if (!S_ISDIR(st.st_mode)) {
		log_error("metrics: textfile directory '%s': %s", dir, strerror(ENOTDIR));
		return EXIT_FAIL;
	}
	if (str_fmt(path, cap, "%s/%s", dir, METRICS_TEXTFILE_NAME) < 0) {
		log_error("metrics: textfile directory '%s': %s", dir, strerror(ENAMETOOLONG));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int check(const char *cmd, int argc, char **argv)
{
	(void)cmd;
	(void)argc;
	(void)argv;
	return opt.dir ? textfile_path(opt.dir, opt.path, sizeof(opt.path)) : 0;
}

const struct cli_spec metrics_spec = {
	.usage = "Usage: sbcdisk metrics [--textfile DIR] [--kmsg FILE] [--db PATH]\n"
		 "\nThe drives, how they are attached, the doctor's findings, UAS resets and I/O\n"
		 "errors since boot, drive health (smartctl) and the newest stored bench figures,\n"
		 "in the Prometheus text format.\n",
	.options = options,
	.help_col = 21,
	.check = check,
};

int cmd_metrics(struct cli_ctx *ctx, int argc, char **argv)
{
	const char *dir = opt.dir, *kmsg = opt.kmsg, *db = opt.db;
	struct metrics_run m;
	int ret;

	(void)argc;
	(void)argv;
	memset(&m, 0, sizeof(m));
	ret = collect(ctx, kmsg, db, &m);
	if (ret)
		goto out;
	ret = cli_write_file(dir ? opt.path : "-", db, write_doc, &m.doc);
	if (ret) {
		log_error("metrics: cannot write '%s': %s", dir ? opt.path : "standard output",
			  cli_write_strerror(ret));
		ret = EXIT_FAIL;
		goto out;
	}
	ret = EXIT_OK;
out:
	release(&m);
	return ret;
}
