/* cmd-history.c - `sbcdisk history`: the stored runs, newest first, as a table, JSON or CSV;
 * --export writes them to a file, --import adds a file's runs (all of them, or none);
 * --boot: the recorded boot times per boot device. */
#include <math.h>
#include <stdio.h>

#include "cli/cli-store.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/fix-proof.h"
#include "common/log.h"
#include "common/util.h"
#include "report/boot-times.h"
#include "report/csv.h"
#include "report/text.h"
#include "common/json.h"
#include "store/verdict.h"

#define IMPORT_MAX_BYTES (64u << 20)

static struct store_filter filter;
static struct {
	const char *db, *export, *import;
	bool csv, boot;
	struct cli_filter runs;
} opt = { .runs = { &filter, 1000000 } };

static const struct cli_option options[] = {
	OPT_DB(&opt.db, "the result database (default: /var/lib/sbcdisk/results.db as\n"
	       "root, else $XDG_DATA_HOME/sbcdisk/results.db)"),
	OPT_DEVICE(&opt.runs, "runs of devices whose name, model, serial or VID:PID has TEXT"),
	OPT_STRING(0, "profile", "NAME", &filter.profile, "runs of this profile"),
	OPT_STRING(0, "since", "DATE", &filter.since,
		   "runs started at or after DATE (2026-11-30 or a full time)"),
	OPT_STRING(0, "until", "DATE", &filter.until,
		   "runs started at or before DATE (the whole day for a date)"),
	OPT_LAST(&opt.runs, "the newest N runs"),
	OPT_JSON("the history JSON (also a global option)"),
	OPT_BOOL(0, "csv", &opt.csv, "CSV, one row per test"),
	OPT_STRING(0, "export", "FILE", &opt.export,
		   "write the selected runs as history JSON to FILE, oldest\n"
		   "first ('-' for stdout)"),
	OPT_STRING(0, "import", "FILE", &opt.import,
		   "add the runs of a history JSON file (all or none)"),
	OPT_BOOL(0, "boot", &opt.boot,
		 "per boot device: the count of boots and the mean, min and max\n"
		 "of the total boot time, the means of kernel, initrd and\n"
		 "userspace (the firmware's time before the kernel is not\n"
		 "visible to Linux on a Raspberry Pi and is not counted)"),
	OPT_HELP(),
	OPT_END(),
};

/* The run table's columns; on a terminal the least important are cut, then dropped. */
static const struct text_col history_cols[] = {
	{ "ID", 4, true, 1, 0 },	     { "STARTED", 16, false, 2, 0 },
	{ "BOARD", 22, false, 8, 12 },	     { "DEVICE", 26, false, 3, 16 },
	{ "ATTACHMENT", 24, false, 6, 12 }, { "PROFILE", 9, false, 7, 8 },
	{ "SCORE", 5, true, 5, 0 },	     { "VERDICT", 52, false, 4, 24 },
};

/* On a terminal narrower than the line above: the day, the attachment in a few words and
 * what limits the figures in one word, so that two runs of one drive on two paths differ. */
static const struct text_col history_cols_short[] = {
	{ "ID", 4, true, 1, 0 },	 { "DATE", 10, false, 2, 0 },
	{ "BOARD", 22, false, 8, 12 },	 { "DEVICE", 26, false, 3, 14 },
	{ "ATTACHMENT", 16, false, 4, 0 }, { "PROFILE", 8, false, 7, 0 },
	{ "SCORE", 5, true, 6, 0 },	 { "LIMIT", 7, false, 5, 0 },
};

/* Whether the full table fits the terminal (or there is none: piped, everything shows). */
static bool history_full_fits(void)
{
	size_t i, need = 0;

	for (i = 0; i < ARRAY_SIZE(history_cols); i++)
		need += history_cols[i].width + (i ? 2 : 0);
	return !text_width() || need <= text_width();
}

/* A fix between the runs: "F2  2026-12-02 00:30  fix uas: usb-storage.quirks += ... (sda)". */
static void print_fix(const struct text_table *t, const struct store_fix *fx)
{
	char num[24], id[24], when[20], what[STORE_FIX_TEXT_MAX * 2 + 64];
	const char *dev = fx->dev_model[0] ? fx->dev_model : fx->dev_name[0] ? fx->dev_name :
			  fx->usb_id[0] ? fx->usb_id : "?";

	str_fmt(num, sizeof(num), "F%lld", (long long)fx->id);
	str_fmt(id, sizeof(id), "%4s", num);
	str_fmt(when, sizeof(when), "%.10s %.5s", fx->applied_at, fx->applied_at + 11);
	str_fmt(what, sizeof(what), "fix %s: %s, %s", fx->kind, fx->change, dev);
	const char *cells[] = { id, when };

	text_table_span(t, stdout, cells, 2, what, 140);
}

/* The fixes that fall in the listed span: newer than the oldest run listed when the list was
 * cut (--last, --profile), within --since/--until; all of the drive otherwise. */
static bool fix_shown(const struct store_fix *fx, const struct store_filter *f,
		      const struct run_list *l)
{
	if (f->since && strcmp(fx->applied_at, f->since) < 0)
		return false;
	if (f->until && strncmp(fx->applied_at, f->until, strlen(f->until)) > 0)
		return false;
	if ((f->limit || f->profile) && l->n &&
	    strcmp(fx->applied_at, l->runs[l->n - 1]->started_at) < 0)
		return false;
	return true;
}

/* Whether fx came after run r: by time, and within one second by the newest run id at fx. */
static bool fix_newer(const struct store_fix *fx, const struct run *r)
{
	int c = strcmp(fx->applied_at, r->started_at);

	return c > 0 || (c == 0 && fx->runs_max >= r->id);
}

static void print_table(const struct run_list *l, const struct store_fix *fx, size_t nfx,
			const struct store_filter *f)
{
	char dev[128], att[256], when[20], id[24], sc[16];
	bool full = history_full_fits();
	struct text_table t;
	size_t i, k = 0;

	if (full)
		text_table_init(&t, history_cols, ARRAY_SIZE(history_cols), 2);
	else
		text_table_init(&t, history_cols_short, ARRAY_SIZE(history_cols_short), 2);
	text_table_header(&t, stdout);
	for (i = 0; i <= l->n; i++) {
		const struct run *r = i < l->n ? l->runs[i] : NULL;

		/* newest first, the fixes among the runs by time */
		for (; k < nfx && (!r || fix_newer(&fx[k], r)); k++)
			if (fix_shown(&fx[k], f, l))
				print_fix(&t, &fx[k]);
		if (!r)
			break;
		double score = verdict_score(r);
		struct verdict v;

		str_copy(sc, sizeof(sc), "-");
		if (isfinite(score))
			str_fmt(sc, sizeof(sc), "%.0f", score);
		if (verdict_run(r, &v))
			str_copy(v.text, sizeof(v.text), "-");
		str_fmt(id, sizeof(id), "%4lld", (long long)r->id);
		str_fmt(when, sizeof(when), "%.10s %.5s", r->started_at, r->started_at + 11);
		run_device_label(r, dev, sizeof(dev));
		str_sanitize(dev);
		if (full) {
			run_attach_summary(r, att, sizeof(att));
		} else {
			when[10] = '\0';
			run_attach_short(r, att, sizeof(att));
			if (strcmp(v.text, "-"))
				str_copy(v.text, sizeof(v.text),
					 verdict_limit_name(v.limit) ? verdict_limit_name(v.limit) :
								       "unknown");
		}
		const char *cells[] = { id, when, *r->board ? r->board : "-", dev, att, r->profile,
					sc, v.text };

		text_table_row(&t, stdout, cells);
	}
}

/* history --json: the runs, and the fixes of their span (not in --export: runs only). */
static int print_json(const struct run_list *l, const struct store_fix *fx, size_t nfx,
		      const struct store_filter *f)
{
	struct json_object *o = run_list_to_json(l), *a = json_object_new_array();
	size_t i;
	int ret;

	for (i = 0; i < nfx; i++)
		if (fix_shown(&fx[i], f, l))
			json_object_array_add(a, fix_proof_fix_json(&fx[i]));
	if (o)
		json_object_object_add(o, "fixes", a);
	else
		json_object_put(a);
	ret = o ? json_print(o, stdout) : -ENOMEM;
	json_object_put(o);
	return ret;
}

static int write_json(FILE *f, void *arg)
{
	struct json_object *o = run_list_to_json(arg);
	int ret = o ? json_print(o, f) : -ENOMEM;

	json_object_put(o);
	return ret;
}

/* "imported 3 runs as 19-21 (15 were stored already)": new runs get consecutive ids. */
static void print_imported(const int64_t *ids, const bool *dup, size_t n)
{
	int64_t first = 0, last = 0;
	size_t i, added = 0;

	for (i = 0; i < n; i++) {
		if (dup[i])
			continue;
		if (!added++)
			first = ids[i];
		last = ids[i];
	}
	printf("imported %zu run%s", added, added == 1 ? "" : "s");
	if (added)
		printf(" as %lld-%lld", (long long)first, (long long)last);
	if (added < n)
		printf(" (%zu %s stored already)", n - added, n - added == 1 ? "was" : "were");
	putchar('\n');
}

struct import_feed {
	struct run_doc *doc;
	char why[300];
};

static int import_next(void *arg, struct run **r)
{
	struct import_feed *f = arg;

	return run_doc_next(f->doc, r, f->why, sizeof(f->why));
}

/* Two passes over the file, one run in memory at a time: every run is checked before the
 * store is opened, then stored in one transaction. */
static int do_import(const char *db, const char *file)
{
	struct import_feed feed;
	struct run_doc doc;
	struct store *st = NULL;
	struct run *r = NULL;
	char *buf = NULL;
	int64_t *ids = NULL;
	bool *dup = NULL;
	size_t len;
	int ret;

	ret = cli_read_file(file, IMPORT_MAX_BYTES, &buf, &len);
	if (ret) {
		log_error("history: cannot read '%s': %s", file,
			  ret == -EFBIG ? "larger than 64 MiB" : strerror(-ret));
		return EXIT_FAIL;
	}
	feed.doc = &doc;
	ret = run_doc_open(&doc, buf, len, feed.why, sizeof(feed.why));
	while (!ret) {
		ret = run_doc_next(&doc, &r, feed.why, sizeof(feed.why));
		if (!r)
			break;
		run_free(r);
	}
	if (ret) {
		log_error("history: import '%s': %s; nothing was imported", file,
			  ret == -ENOMEM ? "out of memory" : feed.why);
		ret = EXIT_FAIL;
		goto out;
	}
	ids = calloc(doc.n ? doc.n : 1, sizeof(*ids));
	dup = calloc(doc.n ? doc.n : 1, sizeof(*dup));
	if (!ids || !dup) {
		log_error("history: import '%s': out of memory; nothing was imported", file);
		ret = EXIT_FAIL;
		goto out;
	}
	if (cli_store_open("history", db, STORE_WRITE, false, &st)) {
		ret = EXIT_FAIL;
		goto out;
	}
	run_doc_rewind(&doc);
	if (store_runs_add_from(st, doc.n, import_next, &feed, STORE_ADD_IMPORT, ids, dup)) {
		log_error("history: import '%s': %s; nothing was imported", file,
			  store_strerror(st));
		ret = EXIT_FAIL;
		goto out;
	}
	print_imported(ids, dup, doc.n);
	ret = EXIT_OK;
out:
	store_close(st);
	free(ids);
	free(dup);
	free(buf);
	return ret;
}

/* 0, or EXIT_USAGE after saying what is wrong with the date of option name. */
static int date_error(const char *name, const char *s)
{
	switch (run_time_check(s, true)) {
	case 0:
		return 0;
	case -EDOM:
		return cli_usage_error("history", "'%s %s': there is no such day or time", name, s);
	default:
		return cli_usage_error("history", "'%s %s': not a date like 2026-11-30", name, s);
	}
}

/* history --boot: the boot times of each boot device. */
static int show_boot(const char *db, const struct store_filter *rf, bool json)
{
	struct store_boot_filter f = { .device = rf->device, .since = rf->since,
				       .until = rf->until };
	struct store_boot_group *g = NULL;
	struct store *st = NULL;
	size_t n = 0;
	int ret;

	ret = cli_store_open("history", db, STORE_READ, true, &st);
	if (ret && ret != -ENOENT)
		return EXIT_FAIL;
	if (st && store_boot_groups(st, &f, &g, &n)) {
		ret = cli_store_error("history", st);
		goto out;
	}
	if (json) {
		struct json_object *o = json_object_new_object();

		json_add_i64(o, "schema", true, 1);
		json_object_object_add(o, "boot_devices", boot_times_json(g, n));
		json_add_str(o, "total", BOOT_TIMES_TOTAL);
		json_add_str(o, "not_counted", BOOT_TIMES_NOT_COUNTED);
		ret = json_print(o, stdout) ? EXIT_FAIL : EXIT_OK;
		json_object_put(o);
	} else if (!n) {
		log_warn("history: no boot times stored%s; 'sbcdisk boot time --record' stores "
			 "one per boot", st && (f.device || f.since || f.until) ? " that match" :
			 " yet");
		ret = EXIT_OK;
	} else {
		ret = boot_times_print(stdout, g, n) ? EXIT_FAIL : EXIT_OK;
	}
out:
	free(g);
	store_close(st);
	return ret;
}

const struct cli_spec history_spec = {
	.usage = "Usage: sbcdisk history [options]\n"
		 "       sbcdisk history --boot [--device TEXT] [--since DATE] [--until DATE]\n"
		 "\nThe stored benchmark runs, newest first. With --boot: the boot times that\n"
		 "'sbcdisk boot time --record' stored, per boot device (disk and attachment).\n",
	.options = options,
	.help_col = 20,
};

int cmd_history(struct cli_ctx *ctx, int argc, char **argv)
{
	struct store_filter f = filter;
	const char *db = opt.db, *export = opt.export, *import = opt.import;
	struct run_list l = { 0 };
	struct store_fix *fx = NULL;
	struct store *st = NULL;
	bool csv = opt.csv, json = ctx->json, boot = opt.boot;
	size_t nfx = 0;
	int ret;

	(void)argc;
	(void)argv;
	if (f.since && (ret = date_error("--since", f.since)))
		return ret;
	if (f.until && (ret = date_error("--until", f.until)))
		return ret;
	if (csv && json)
		return cli_usage_error("history", "--csv and --json exclude each other");
	if (import && (export || csv || json))
		return cli_usage_error("history", "--import takes no other output option");
	if (boot && (import || export || csv || f.profile || f.limit))
		return cli_usage_error("history", "--boot takes --device, --since, --until, --json "
				       "and --db");
	if (boot)
		return show_boot(db, &f, json);
	if (import)
		return do_import(db, import);

	ret = cli_store_open("history", db, STORE_READ, true, &st);
	if (ret && ret != -ENOENT)
		return EXIT_FAIL;
	if (st && (store_runs_query(st, &f, &l) || store_fixes_query(st, f.device, 0, &fx, &nfx))) {
		ret = cli_store_error("history", st);
		goto out;
	}
	if (export) {
		size_t i;

		/* oldest first: an import then gives ids in the same order as here */
		for (i = 0; i < l.n / 2; i++) {
			struct run *t = l.runs[i];

			l.runs[i] = l.runs[l.n - 1 - i];
			l.runs[l.n - 1 - i] = t;
		}
		ret = cli_write_file(export, db, write_json, &l);
		if (ret)
			log_error("history: cannot write '%s': %s", export,
				  cli_write_strerror(ret));
		else if (strcmp(export, "-"))
			log_line(stdout, "exported %zu run%s to %s", l.n, l.n == 1 ? "" : "s",
				 export);
		ret = ret ? EXIT_FAIL : EXIT_OK;
	} else if (json) {
		ret = print_json(&l, fx, nfx, &f) ? EXIT_FAIL : EXIT_OK;
	} else if (csv) {
		ret = csv_write_runs(stdout, &l) ? EXIT_FAIL : EXIT_OK;
	} else {
		if (!l.n && !nfx)
			log_warn("history: no runs stored%s", st ? " that match" : " yet");
		else
			print_table(&l, fx, nfx, &f);
		ret = EXIT_OK;
	}
out:
	run_list_release(&l);
	free(fx);
	store_close(st);
	return ret;
}
