/* cmd-prepare.c - `sbcdisk prepare DISK [MOUNTPOINT]` and `prepare undo`: the plan shown (dry
 * run), or done through flow/prepare.c (disk, fstab, mount, record), then the bench step. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/bench-print.h"
#include "cli/cli.h"
#include "cli/cli-store.h"
#include "cli/options.h"
#include "clone/prepare.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/util.h"
#include "fix/plan.h"
#include "flow/move.h"
#include "flow/prepare.h"
#include "probe/probe.h"
#include "report/list.h"
#include "store/store.h"

struct prepare_cli {
	struct prepare_opts o;
	const char *db;
	uint64_t time_ns; /* 0: the quick profile's */
	bool no_bench, undo;
};
static struct prepare_cli pc;

static const struct cli_option options[] = {
	OPT_BOOL(0, "apply", &pc.o.apply, "do it: table, file system, fstab, mount, bench"),
	OPT_BOOL(0, "wipe", &pc.o.wipe,
		 "the disk's table and file systems may be erased (named in the refusal)"),
	OPT_STRING(0, "fs", "TYPE", &pc.o.fstype, "ext4 (default), f2fs, btrfs, xfs or exfat"),
	OPT_STRING(0, "label", "LABEL", &pc.o.label, "the file system's label (default data)"),
	OPT_BOOL(0, "no-bench", &pc.no_bench, "leave out the bench of the new file system"),
	OPT_TIME(&pc.time_ns, "the measured time of each bench run"),
	OPT_DB(&pc.db, "the result database the bench and the record go to"),
	OPT_HELP(),
	OPT_END(),
};

static int check(const char *cmd, int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "undo")) {
		if (argc > 2)
			return cli_usage_error(cmd, "undo takes no operand, not '%s'", argv[2]);
		pc.undo = true;
		return 0;
	}
	if (argc < 2)
		return cli_usage_error(cmd, "which disk? e.g. 'sbcdisk prepare sda'");
	if (argc > 3)
		return cli_usage_error(cmd, "one disk and one mount point only, not '%s'", argv[3]);
	if (!argv[1][0])
		return cli_usage_error(cmd, "an empty disk name");
	pc.o.disk = argv[1];
	pc.o.mountpoint = argc == 3 ? argv[2] : NULL;
	return 0;
}

static void reset(void)
{
	memset(&pc, 0, sizeof(pc));
}

const struct cli_spec prepare_spec = {
	.usage = "Usage: sbcdisk prepare DISK [MOUNTPOINT] [--apply] [options]\n"
		 "       sbcdisk prepare undo [--apply]\n"
		 "\nMake DISK a data drive: a GPT table with one partition from 1 MiB to the end\n"
		 "(aligned to the disk's physical sector and optimal transfer size), a file system\n"
		 "with a label, a line in /etc/fstab by UUID= with nofail and a short device\n"
		 "timeout (a missing drive never stops the boot), mounted on MOUNTPOINT (default\n"
		 "/mnt/LABEL), then a quick read-only bench of it, stored. Without --apply nothing\n"
		 "is written: the plan is shown. A disk that holds the running system or anything\n"
		 "in use is refused; one that holds a table or file systems needs --wipe.\n"
		 "'undo' puts back /etc/fstab as it was before the last prepare (the disk keeps\n"
		 "its new file system).\n",
	.options = options,
	.help_col = 19,
	.after = "\nExit status: 0 done (or the plan shown), 1 failure or a refusal, 2 usage.\n",
	.args_max = -1,
	.check = check,
	.reset = reset,
};

static void sz(uint64_t v, char *buf, size_t cap)
{
	size_to_human(v, buf, cap);
}

/* The disk in one line, with what list shows of its attachment. */
static void print_disk(const struct prepare_plan *p)
{
	const struct blkdev *d = p->disk;
	char s[32];

	sz(p->size, s, sizeof(s));
	printf("disk:        %s  %s  %s%s%s%s  sectors %u/%u", p->path, s,
	       probe_transport_name(d->transport), d->model[0] ? "  \"" : "", d->model,
	       d->model[0] ? "\"" : "", p->lsec, p->psec);
	if (p->opt_io)
		printf(", optimal transfer %llu", (unsigned long long)p->opt_io);
	printf("\n");
}

static void print_fs_choice(const struct prepare_plan *p)
{
	bool first = true;

	printf("             other file systems:");
	for (const struct prepare_fs *f = prepare_fs_table; f->name; f++) {
		if (f == p->fs)
			continue;
		if (prepare_fs_available(f))
			printf("%s %s (--fs %s)", first ? "" : ",", f->name, f->name);
		else
			printf("%s %s (not installed: %s)", first ? "" : ",", f->name, f->package);
		first = false;
	}
	printf("\n");
}

static void print_plan(const struct prepare_plan *p)
{
	char a[32], b[32], lost[1024];

	print_disk(p);
	printf("table:       GPT (new), disk GUID %s\n", p->disk_guid);
	sz(p->start, a, sizeof(a));
	sz(p->part_size, b, sizeof(b));
	printf("partition:   1 from %s (byte %llu) to the end: %s (%llu bytes), aligned to %llu "
	       "bytes, PARTUUID %s\n", a, (unsigned long long)p->start, b,
	       (unsigned long long)p->part_size, (unsigned long long)p->align, p->part_uuid);
	printf("file system: %s, label '%s', UUID %s (%s)\n", p->fs->name, p->label,
	       p->fs_uuid[0] ? p->fs_uuid : "chosen by mkfs", p->fs->mkfs);
	print_fs_choice(p);
	printf("mount point: %s\n", p->mountpoint);
	printf("fstab:       %s\n", p->fstab_line);
	prepare_plan_lost(p, lost, sizeof(lost));
	printf("lost:        %s\n", lost[0] ? lost : "nothing (the disk holds no table and no file "
	       "system)");
	for (size_t i = 0; i < p->n_notes; i++)
		printf("note:        %s\n", p->notes[i]);
}

static volatile sig_atomic_t prepare_signal;

static void on_signal(int sig)
{
	prepare_signal = sig;
}

/* The last step: a quick bench of the new partition, stored, as bench says it. */
static int bench_new(struct cli_ctx *ctx, const struct prepare_cli *c, const char *dev)
{
	printf("\n== a quick bench of the new file system's partition (reads only), stored\n");
	prepare_signal = 0;
	cli_catch_stop_signals(on_signal);
	return cli_quick_bench(ctx, dev, c->time_ns, &prepare_signal, c->db, false, NULL);
}

/* What a failed --apply left on the disk, after its reason. */
static const char *failed_state(const struct prepare_plan *p, const struct flow_prepare *r)
{
	if (!p->touched)
		return "; nothing was written";
	if (!p->table_written)
		return "; the disk's old table is wiped, it has no new one";
	if (!p->fs_made)
		return "; the disk has its new table but no file system";
	if (r->step == FLOW_PREPARE_FSTAB)
		return "; the disk has its new table and file system, " PATH_ETC_FSTAB
		       " is unchanged";
	return "";
}

static int run_apply(struct cli_ctx *ctx, const struct prepare_cli *c, struct prepare_plan *p)
{
	struct json_object *dev = list_device_to_json(p->disk);
	struct store *st = NULL;
	struct flow_prepare r;
	int ret, rc = EXIT_OK;

	if (cli_store_open("prepare: it will not be recorded", c->db, STORE_WRITE, false, &st))
		rc = EXIT_FAIL;
	ret = flow_prepare_apply(ctx->sr, p, st, dev, &r);
	json_object_put(dev);
	if (st)
		store_close(st);
	if (r.step <= FLOW_PREPARE_FSTAB) {
		str_sanitize(r.why);
		log_error("prepare: %s%s", r.why, failed_state(p, &r));
		return EXIT_FAIL;
	}
	printf("Wrote the GPT table and made %s '%s' on %s%s.\n", p->fs->name, p->label,
	       p->part_dev, p->part_is_loop ? " (a loop device over the partition: this kernel "
	       "gives the disk no partition devices)" : "");
	printf("Added to %s: %s\n", PATH_ETC_FSTAB, p->fstab_line);
	if (r.backup[0])
		printf("Its old contents are kept as %s beside it; 'sbcdisk prepare undo --apply' "
		       "puts them back.\n", r.backup);
	if (p->mounted)
		printf("Mounted %s on %s.\n", p->part_dev, p->mountpoint);
	if (r.record_id)
		printf("Recorded as #%lld in the result store.\n", (long long)r.record_id);
	if (ret) {
		str_sanitize(r.why);
		log_error("prepare: %s", r.why);
		return EXIT_FAIL;
	}
	if (!c->no_bench && bench_new(ctx, c, p->part_dev) != EXIT_OK)
		rc = EXIT_FAIL;
	return rc;
}

static int run_undo(struct cli_ctx *ctx, const struct prepare_cli *c)
{
	struct store *st = NULL;
	struct fix_plan fp;
	int ret, rc = EXIT_OK;

	if (c->o.apply &&
	    cli_store_open("prepare: undo will not be recorded", c->db, STORE_WRITE, false, &st))
		rc = EXIT_FAIL;
	ret = flow_prepare_undo(ctx->sr, c->o.apply, st, &fp);
	if (st)
		store_close(st);
	if (ret) {
		log_error("prepare: undo: %s", fp.msgs.why[0] ? fp.msgs.why : strerror(-ret));
		fix_plan_release(&fp);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < fp.msgs.n; i++)
		printf("note: %s\n", fp.msgs.note[i]);
	if (!c->o.apply)
		printf("dry run: nothing written; --apply to put %s/%s back as %s\n", fp.file.dir,
		       fp.restore_from, fp.file.path);
	else
		printf("Restored %s from %s/%s (that backup is removed). The disk keeps its file "
		       "system and stays mounted until it is unmounted.\n", fp.file.path,
		       fp.file.dir, fp.restore_from);
	fix_plan_release(&fp);
	return rc;
}

int cmd_prepare(struct cli_ctx *ctx, int argc, char **argv)
{
	struct prepare_cli c = pc;
	static struct prepare_plan plan;
	static char db[PATH_MAX];
	char why[1024] = "";
	int ret, rc = EXIT_OK;

	(void)argc;
	(void)argv;
	/* without --db: the running system's store, or under --sysroot the tree's (as move) */
	if (!c.db && !flow_move_store_path(ctx->sr, db, sizeof(db)))
		c.db = db;
	if (c.undo)
		return run_undo(ctx, &c);
	ret = prepare_plan_make(ctx->sr, &c.o, &plan, why, sizeof(why));
	if (ret) {
		str_sanitize(why);
		log_error("prepare: %s%s", why[0] ? why : strerror(-ret), "; nothing was written");
		prepare_plan_release(&plan);
		return EXIT_FAIL;
	}
	printf("sbcdisk prepare: %s (%s)\n", plan.path,
	       c.o.apply ? "--apply" : "dry run: nothing is written");
	print_plan(&plan);
	if (!c.o.apply)
		printf("dry run: nothing written; --apply to do it\n");
	else
		rc = run_apply(ctx, &c, &plan);
	prepare_plan_release(&plan);
	return rc;
}
