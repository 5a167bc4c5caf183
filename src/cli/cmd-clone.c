/* cmd-clone.c - `sbcdisk clone [SOURCE] TARGET [--apply]`: options, the stored speeds, the
 * progress line and signals; the work is in clone/, the table and JSON in report/. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <math.h>

#include "bench/profile.h"
#include "cli/cli-store.h"
#include "cli/clone-print.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "clone/clone.h"
#include "common/json.h"
#include "common/log.h"
#include "common/util.h"
#include "probe/probe.h"
#include "report/clone-report.h"
#include "report/list.h"

static volatile sig_atomic_t clone_signal;

static void on_signal(int sig)
{
	clone_signal = sig;
}

void cli_clone_progress(void *arg, const struct clone_progress *p)
{
	cli_progress_show(arg, p->phase, p->done, p->total, p->bw, p->left_s);
}

static struct clone_opts co;
static const char *opt_db;

static int opt_root_size(const char *cmd, void *value, const char *arg)
{
	struct clone_opts *o = value;

	if (bench_parse_size(arg, &o->root_size) || o->root_size < (16ULL << 20))
		return cli_usage_error(cmd, "bad size '%s': e.g. 32g (16m at least)", arg);
	o->has_root_size = true;
	return 0;
}

static int opt_verify(const char *cmd, void *value, const char *arg)
{
	struct clone_opts *o = value;

	if (!strcmp(arg, "full"))
		o->verify_full = true;
	else if (strcmp(arg, "sample"))
		return cli_usage_error(cmd, "bad --verify '%s': full or sample", arg);
	return 0;
}

static int opt_board(const char *cmd, void *value, const char *arg)
{
	struct clone_opts *o = value;

	if (config_board_parse(arg, &o->board))
		return cli_usage_error(cmd, "bad --board '%s': a model filter of config.txt (pi4, "
				       "pi400, cm4, pi5, pi500, cm5 ...) or a board type (0x17)", arg);
	o->has_board = true;
	return 0;
}

static const struct cli_option options[] = {
	OPT_BOOL(0, "apply", &co.apply, "do it (the table is written last; a stop wipes it)"),
	OPT_CALLBACK(0, "root-size", "SIZE", &co, opt_root_size,
		     "the root partition's size (e.g. 32g), not the rest of the disk"),
	OPT_CALLBACK(0, "verify", "full|sample", &co, opt_verify,
		     "compare every file's content, or a sample (default)"),
	OPT_BOOL(0, "whole", &co.whole,
		 "copy every block as it is (layouts clone does not understand);\n"
		 "the copy then shares every id with the source"),
	OPT_BOOL(0, "allow-live-blocks", &co.allow_live_blocks,
		 "copy a file system mounted read-write block by block anyway"),
	OPT_CALLBACK(0, "board", "MODEL", &co, opt_board,
		     "read config.txt's [pi5], [cm4] ... for the board the copy is\n"
		     "for (pi4, pi5, cm5, 0x17 ...; default: this board)"),
	OPT_DB(&opt_db, "the result database whose last bench of each disk gives the\n"
	       "expected time (without one the source's read is measured)"),
	OPT_HELP(),
	OPT_END(),
};

static int check(const char *cmd, int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error(cmd, "which target? e.g. 'sbcdisk clone sda' or "
				       "'sbcdisk clone / backup.img'");
	if (argc == 2) {
		co.target = argv[1];
	} else if (argc == 3) {
		co.source = strcmp(argv[1], "/") ? argv[1] : NULL;
		co.target = argv[2];
	} else {
		return cli_usage_error(cmd, "one source and one target only, not '%s'", argv[3]);
	}
	if (co.whole && co.has_root_size)
		return cli_usage_error(cmd, "--whole copies the layout as it is: no --root-size");
	return 0;
}

static void reset(void)
{
	memset(&co, 0, sizeof(co));
	opt_db = NULL;
}

const struct cli_spec clone_spec = {
	.usage = "Usage: sbcdisk clone [SOURCE] TARGET [--apply] [options]\n"
		 "\nMove a system to another disk, or make a bootable image of it. SOURCE defaults\n"
		 "to the disk that holds the running root; TARGET is a whole disk (sda, nvme0n1,\n"
		 "/dev/loop3) or an image file (created when it does not exist, and removed again\n"
		 "if the clone fails). Without --apply nothing is written: the plan is shown.\n"
		 "\nThe target gets the source's partition table (GPT when it is over 2 TiB), a new\n"
		 "disk id and partition ids, new file system UUIDs; ext2/3/4 is copied by its used\n"
		 "blocks and grown to fill the disk; root= in cmdline.txt and /etc/fstab are\n"
		 "rewritten to the new ids on the target. The source is only read.\n",
	.options = options,
	.help_col = 23,
	.after = "\nExit status: 0 done (or the plan shown), 1 failure or a failed check, 2 usage.\n"
		 "With the global --json: one JSON document (schema 1), and no progress line.\n",
	.args_max = -1,
	.check = check,
	.reset = reset,
};

/* The fastest sequential test (fio's rw "read" or "write") of a run, bytes/s. */
static bool run_seq_bw(const struct run *r, const char *rw, double *bw)
{
	bool found = false;

	for (size_t i = 0; i < r->ntests; i++) {
		const struct run_test *t = &r->tests[i];

		if (strcmp(t->rw, rw) || !isfinite(t->bw) || t->bw <= 0)
			continue;
		if (!found || t->bw > *bw)
			*bw = t->bw;
		found = true;
	}
	return found;
}

/* The last stored bench of a disk (by kernel name), its sequential rw speed. */
static bool disk_stored_bw(struct store *st, const struct inventory *inv, const char *kname,
			   const char *rw, double *bw, char *at, size_t atcap)
{
	const struct blkdev *d = kname[0] ? probe_inventory_find(inv, kname) : NULL;
	struct json_object *dev = d ? list_device_to_json(d) : NULL;
	struct run *r = NULL;
	bool ok = false;

	if (dev && store_run_latest_of(st, dev, &r) == 0 && r && run_seq_bw(r, rw, bw)) {
		str_copy(at, atcap, r->started_at);
		ok = true;
	}
	run_free(r);
	json_object_put(dev);
	return ok;
}

/* The source's read and the target's write speed from their last stored benches. Nothing
 * stored (or no store) is no error: the estimate measures the source instead. */
static void speeds_stored(const char *db, struct clone_plan *p)
{
	struct clone_speed *s = &p->speed;
	struct store *st = NULL;

	if ((!p->src_disk[0] && !p->dst_disk[0]) || !p->inv)
		return;
	if (cli_store_open("clone", db, STORE_READ, true, &st))
		return;
	if (disk_stored_bw(st, p->inv, p->src_disk, "read", &s->read_bps, s->read_at,
			   sizeof(s->read_at))) {
		s->has_read = true;
		str_copy(s->read_from, sizeof(s->read_from), "stored");
	}
	if (disk_stored_bw(st, p->inv, p->dst_disk, "write", &s->write_bps, s->write_at,
			   sizeof(s->write_at))) {
		s->has_write = true;
		str_copy(s->write_from, sizeof(s->write_from), "stored");
	}
	store_close(st);
}

static int print_plan(struct cli_ctx *ctx, const struct clone_plan *p)
{
	struct json_object *doc;
	int ret;

	if (!ctx->json) {
		clone_report_table(p, stdout);
		return fflush(stdout) ? -EIO : 0;
	}
	doc = clone_report_json(p);
	if (!doc)
		return -ENOMEM;
	ret = json_print(doc, stdout);
	json_object_put(doc);
	return ret;
}

/* What a failed clone left, after its reason: the image it made is gone; what a target the
 * user named holds. */
static const char *failed_state(const struct clone_plan *p, int ret)
{
	if (p->dst_removed)
		return "; the image it was making is removed";
	if (ret == -ENODEV) /* the target went away: its message says what it holds */
		return "";
	if (!p->dst_touched)
		return "; nothing was written to the target";
	if (!p->table_written)
		return "; the target holds no usable copy (no partition table)";
	return "; the target has its new table, but the copy was not checked";
}

int cli_clone_report(struct cli_ctx *ctx, struct clone_plan *plan, const struct clone_opts *o,
		     bool planned, int ret, char *why, int sig, const char *db)
{
	int rc = EXIT_OK;
	size_t i;

	if (!planned) {
		str_sanitize(why);
		log_error("clone: %s", why[0] ? why : strerror(-ret));
		return EXIT_FAIL;
	}
	if (!o->apply) {
		speeds_stored(db, plan);
		clone_plan_estimate(plan);
		if (print_plan(ctx, plan))
			rc = EXIT_FAIL;
		if (!ctx->json && !ctx->quiet)
			fprintf(stdout, "dry run: nothing written; --apply to do it\n");
		return rc;
	}
	if (ret == -EINTR || sig) {
		log_error("clone: stopped by a signal; %s", plan->dst_removed ?
			  "the image it was making is removed" : plan->wiped ?
			  "the target's partition table is wiped: it holds no usable copy" :
			  "the target could not be wiped: do not boot from it");
		rc = 128 + (sig ? sig : SIGINT);
	} else if (ret) {
		str_sanitize(why);
		log_error("clone: %s%s", why[0] ? why : strerror(-ret), failed_state(plan, ret));
		rc = EXIT_FAIL;
	}
	if (!ret) {
		for (i = 0; i < plan->n_checks; i++)
			if (plan->checks[i].state == CLONE_CHECK_FAIL)
				rc = EXIT_FAIL;
		if (print_plan(ctx, plan))
			rc = EXIT_FAIL;
	}
	return rc;
}

int cmd_clone(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_progress ps;
	static struct clone_plan plan;
	struct clone_opts o = co;
	const char *db = opt_db;
	char why[400] = "";
	int ret, rc;

	(void)argc;
	(void)argv;
	clone_signal = 0;
	cli_catch_stop_signals(on_signal);
	ret = clone_plan_make(ctx->sr, &o, &plan, why, sizeof(why));
	if (ret || !o.apply) {
		rc = cli_clone_report(ctx, &plan, &o, !ret, ret, why, 0, db);
		clone_plan_release(&plan);
		return rc;
	}
	plan.stop = &clone_signal;
	cli_progress_init(&ps, ctx);
	plan.progress = cli_clone_progress;
	plan.progress_arg = &ps;
	ret = clone_apply(&plan, &o, why, sizeof(why));
	cli_progress_clear(&ps);
	rc = cli_clone_report(ctx, &plan, &o, true, ret, why, clone_signal, db);
	clone_plan_release(&plan);
	return rc;
}
