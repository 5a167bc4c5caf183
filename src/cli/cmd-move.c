/* cmd-move.c - `sbcdisk move`: the journey from one disk to a faster one as one command: its
 * options, the journey of flow/move.h on the resolved disks, what each step says; dry run first. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "boot/boot.h"
#include "cli/bench-print.h"
#include "cli/boot-print.h"
#include "cli/cli.h"
#include "cli/clone-print.h"
#include "cli/options.h"
#include "common/json.h"
#include "common/log.h"
#include "common/util.h"
#include "flow/move.h"
#include "probe/probe.h"
#include "report/boot-report.h"
#include "report/list.h"
#include "store/store.h"

struct move_opts {
	const char *source, *target, *db;
	uint64_t time_ns; /* 0: the quick profile's */
	struct config_board board;
	bool has_board;
	bool apply, no_bench, no_tryboot, no_copy;
};

static struct move_opts mo;

static int opt_board(const char *cmd, void *value, const char *arg)
{
	struct move_opts *o = value;

	if (config_board_parse(arg, &o->board))
		return cli_usage_error(cmd, "bad --board '%s': a model filter of config.txt (pi4, "
				       "pi400, cm4, pi5, pi500, cm5 ...) or a board type (0x17)", arg);
	o->has_board = true;
	return 0;
}

static const struct cli_option options[] = {
	OPT_BOOL(0, "apply", &mo.apply,
		 "copy, check the copy and set up the trial or the boot order"),
	OPT_BOOL(0, "no-tryboot", &mo.no_tryboot, "set the boot order, not a trial boot"),
	OPT_BOOL(0, "no-copy", &mo.no_copy,
		 "TARGET holds the copy already (an earlier move or clone):\n"
		 "leave out steps 1 and 2"),
	OPT_BOOL(0, "no-bench", &mo.no_bench, "leave out the benches of step 1"),
	OPT_TIME(&mo.time_ns, "the measured time of each bench run (bench's --time)"),
	OPT_CALLBACK(0, "board", "MODEL", &mo, opt_board,
		     "read config.txt's [pi5], [cm4] ... for the board the copy is\n"
		     "for (clone's and the boot check's; default: this board)"),
	OPT_DB(&mo.db, "the result database the benches are stored in (bench's --db)"),
	OPT_HELP(),
	OPT_END(),
};

static int check(const char *cmd, int argc, char **argv)
{
	if (argc == 2) {
		mo.target = argv[1];
	} else if (argc == 3) {
		mo.source = argv[1];
		mo.target = argv[2];
	} else {
		return cli_usage_error(cmd, argc == 1 ? "no TARGET" : "too many arguments");
	}
	return 0;
}

const struct cli_spec move_spec = {
	.usage = "Usage: sbcdisk move [SOURCE] TARGET [--apply] [options]\n"
		 "\nMove the system to TARGET in one go, each step by the command that does it:\n"
		 "  1. a quick bench of SOURCE and TARGET where they are block devices (reads\n"
		 "     only): the before figures, stored in the result database with --apply;\n"
		 "     the dry run measures them and stores nothing\n"
		 "  2. sbcdisk clone SOURCE TARGET: its plan, its checks and its refusals\n"
		 "  3. sbcdisk boot check TARGET: will the copy boot (after --apply)\n"
		 "  4. on a Raspberry Pi 4 or 5 whose bootloader has tryboot, moving the running\n"
		 "     system: the first boot from TARGET as a trial (tryboot.txt and a trial\n"
		 "     command line beside config.txt, backed up as fix does); a failed trial\n"
		 "     starts from the old disk again. Otherwise the boot order that tries TARGET\n"
		 "     first (sbcdisk boot order, through rpi-eeprom-config, only when the order\n"
		 "     changes: an SD card or eMMC target sd,usb, NVMe nvme,sd, USB usb,sd; other\n"
		 "     boards: what to change is said)\n"
		 "  5. what happens at the reboot; with --apply the move is recorded in the result\n"
		 "     database (with --sysroot, the tree's), for the health check after it\n"
		 "SOURCE defaults to the disk that holds the running root. SOURCE and TARGET are\n"
		 "resolved once: a kernel name (mmcblk0), a /dev path or link\n"
		 "(/dev/disk/by-id/...), an image file; a directory is refused. Without --apply\n"
		 "nothing is written to any disk, to the boot configuration or to the result\n"
		 "database (the benches read only). With --sysroot (a captured tree) nothing is\n"
		 "measured.\n",
	.options = options,
	.help_col = 17,
	.after = "\nExit status: 0 done (or the plan shown), 1 failure, a refusal or a move that was\n"
		 "not recorded, 2 usage, 3 the boot check of the copy found a FAIL (--apply),\n"
		 "128+N stopped by signal N (SIGINT, SIGTERM, SIGHUP) between or in a step.\n",
	.args_max = -1,
	.check = check,
};

static volatile sig_atomic_t move_signal;

static void on_signal(int sig)
{
	move_signal = sig;
}

/* rc, or 128+N when signal N came while the move ran (a step's own stop is its rc). */
static int stopped(int rc, const char *before)
{
	if (rc != EXIT_OK || !move_signal)
		return rc;
	fflush(stdout);
	log_error("move: stopped by a signal before %s", before);
	return 128 + move_signal;
}

static void heading(const char *text)
{
	printf("\n== %s\n", text);
}

/* Keep the move in the result store, for the health check after the reboot. */
static int record_move(struct cli_ctx *ctx, const struct move_opts *o,
		       const struct flow_move_plan *p, bool tryboot)
{
	struct store_move m;
	struct store *st = NULL;
	char def[4096], why[256] = "";
	const char *db = o->db;
	int ret;

	if (!db)
		db = flow_move_store_path(ctx->sr, def, sizeof(def)) ? NULL : def;
	ret = db ? store_open(db, STORE_WRITE, STORE_BUSY_MS, &st, why, sizeof(why)) : -ENOENT;
	if (!ret) {
		ret = flow_move_record(st, p, tryboot, list_device_to_json, &m);
		if (ret)
			str_copy(why, sizeof(why), store_strerror(st));
		store_close(st);
	} else if (!db) {
		str_copy(why, sizeof(why), "no result database path");
	}
	if (ret) {
		log_error("move: the move was not recorded: %s", why);
		return EXIT_FAIL;
	}
	printf("Recorded as move #%lld (%s -> %s): after the reboot, `sbcdisk` says whether it "
	       "took.\n", (long long)m.id, m.src_name, m.dst_name);
	return EXIT_OK;
}

static void print_trial(const struct flow_move_trial *t)
{
	size_t i;

	fputs(sbuf_str(&t->diff), stdout);
	for (i = 0; i < 2; i++)
		if (t->backup[i][0])
			printf("Backup of the old %s: %s/%s\n",
			       i ? BOOT_TRYBOOT_FILE : BOOT_TRYBOOT_CMDLINE, t->fw_dir, t->backup[i]);
	if (t->written)
		printf("Written: %s/%s and %s/%s.\n", t->fw_dir, BOOT_TRYBOOT_CMDLINE, t->fw_dir,
		       BOOT_TRYBOOT_FILE);
}

/* Step 4 as a trial boot where the firmware has tryboot and the source is the running disk:
 * *trial says whether it was (else the boot order is the step). */
static int step_trial(struct cli_ctx *ctx, const struct move_opts *o,
		      const struct inventory *inv, const struct flow_move_plan *p, bool *trial)
{
	struct flow_move_trial t;
	char why[512] = "", root[160];
	int ret;

	*trial = false;
	if (!p->pi || o->no_tryboot)
		return EXIT_OK;
	if (!flow_move_trial_possible(ctx->sr, inv, p, why, sizeof(why))) {
		printf("\nNo trial boot (the firmware's tryboot): %s.\n", why);
		return EXIT_OK;
	}
	heading("4. the first boot from the target as a trial (the firmware's tryboot)");
	if (o->apply || o->no_copy) {
		ret = flow_move_copy_root(ctx->sr, p, root, sizeof(root));
		if (ret) {
			printf("No trial boot: the copy's partition %u has no PARTUUID to be read "
			       "(%s).\n", p->root_partn, strerror(-ret));
			return EXIT_OK;
		}
	} else {
		/* the clone gives the copy new ids: known after --apply */
		str_fmt(root, sizeof(root), "PARTUUID=<the-copy's-partition-%u>", p->root_partn);
		printf("Beside config.txt on %s's boot partition (with --apply; the clone sets the "
		       "copy's PARTUUID, shown here as a placeholder):\n", p->source.path);
	}
	ret = flow_move_trial_make(ctx->sr, inv->board.kernel, root, o->apply, &t, why,
				   sizeof(why));
	print_trial(&t);
	flow_move_trial_release(&t);
	if (ret == -EINVAL || (ret && !o->apply)) {
		printf("No trial boot: %s.\n", why);
		return EXIT_OK;
	}
	if (ret) {
		log_error("move: %s", why);
		return EXIT_FAIL;
	}
	*trial = true;
	return EXIT_OK;
}

/* The step's options: the move's stop flag and the progress lines. */
static void step_opts_init(struct cli_ctx *ctx, const struct move_opts *o,
			   struct flow_move_step_opts *so, struct cli_progress *cp)
{
	memset(so, 0, sizeof(*so));
	so->apply = o->apply;
	so->time_ns = o->time_ns;
	so->board = o->has_board ? &o->board : NULL;
	so->stop = &move_signal;
	cli_progress_init(cp, ctx);
	so->clone_progress = cli_clone_progress;
	so->clone_progress_arg = cp;
}

static int bench_both(struct cli_ctx *ctx, const struct move_opts *o,
		      const struct flow_move_plan *p)
{
	const struct probe_ref *d[] = { &p->source, &p->target };
	int i, rc = EXIT_OK;

	heading(p->store_benches ?
			"1. before: a quick bench of the source and the target, stored (reads only)" :
			"1. before: a quick bench of the source and the target, not stored (reads "
			"only)");
	for (i = 0; i < 2 && rc == EXIT_OK; i++) {
		if (!p->bench[i]) {
			printf("%s '%s' is no block device: not measured.\n", i ? "TARGET" : "SOURCE",
			       d[i]->path);
			continue;
		}
		rc = cli_quick_bench(ctx, d[i]->path, o->time_ns, &move_signal, o->db,
				     !p->store_benches, NULL);
		rc = stopped(rc, "the next bench");
	}
	return rc;
}

static int step_clone(struct cli_ctx *ctx, const struct move_opts *o,
		      const struct flow_move_plan *p)
{
	static struct clone_plan plan;
	struct flow_move_step_opts so;
	struct cli_progress cp;
	struct clone_opts co;
	bool copied = false;
	char why[400];
	int ret, rc;

	heading(o->apply ? "2. the clone" : "2. the clone's plan and checks");
	fflush(stdout);
	step_opts_init(ctx, o, &so, &cp);
	ret = flow_move_clone(ctx->sr, p, &so, &plan, &co, &copied, why, sizeof(why));
	cli_progress_clear(&cp);
	rc = cli_clone_report(ctx, &plan, &co, !ret || copied, ret, why,
			      copied && (ret == -EINTR || move_signal) ?
			      (move_signal ? move_signal : SIGINT) : 0, o->db);
	clone_plan_release(&plan);
	return rc;
}

static int step_check(struct cli_ctx *ctx, const struct move_opts *o,
		      const struct flow_move_plan *p)
{
	struct flow_move_checked r;
	char why[300];
	int ret, rc = EXIT_OK;
	size_t j;

	fflush(stdout);
	ret = flow_move_check(ctx->sr, p, o->has_board ? &o->board : NULL, &r, why, sizeof(why));
	if (!ret) {
		if (ctx->json) {
			struct json_object *doc = boot_report_json(&r.facts, &r.checks, NULL);

			ret = doc ? json_print(doc, stdout) : -ENOMEM;
			json_object_put(doc);
		} else {
			ret = boot_report_checks(&r.checks, stdout);
		}
		if (ret)
			str_copy(why, sizeof(why), strerror(-ret));
	}
	if (ret) {
		log_error("boot check: %s", why);
		rc = EXIT_FAIL;
	}
	for (j = 0; rc == EXIT_OK && j < r.checks.n; j++)
		if (r.checks.item[j].result == BOOT_FAIL)
			rc = EXIT_FINDINGS;
	flow_move_checked_release(&r);
	return rc;
}

/* A move into an image file makes a copy to be written elsewhere: nothing boots from it. */
static bool target_is_image(const struct flow_move_plan *p)
{
	return p->target.kind == PROBE_REF_FILE || p->target.kind == PROBE_REF_NEW;
}

static int step_order(struct cli_ctx *ctx, const struct move_opts *o,
		      const struct flow_move_plan *p)
{
	struct flow_order ord;
	struct boot_facts f;
	char why[200];
	int ret, rc;

	heading("4. the boot order that tries the target first");
	if (target_is_image(p)) {
		printf("%s is an image file, no disk: no boot loader starts from it. Write it to "
		       "the drive that is to boot (`sbcdisk clone %s DISK --apply`), then boot from "
		       "that drive.\n", p->target.path, p->target.path);
		return EXIT_OK;
	}
	if (!p->pi) {
		printf("Not a Raspberry Pi: make the board's boot loader start from %s (in U-Boot, "
		       "its boot_targets; in extlinux.conf or the EFI boot order, the entry of the "
		       "copy), and keep the old disk in place until the new one has booted.\n",
		       p->target.path);
		return EXIT_OK;
	}
	if (!p->media) {
		printf("%s is no SD card, eMMC, USB or NVMe drive: no boot order of the bootloader "
		       "tries it.\n", p->target.path);
		return EXIT_OK;
	}
	fflush(stdout);
	ret = flow_move_order(ctx->sr, p, o->apply, &f, &ord, why, sizeof(why));
	if (ret == -EINVAL) {
		log_error("boot order: '%s': %s", p->media, why);
		return EXIT_USAGE;
	}
	if (ret) {
		log_error("boot: %s", why);
		return EXIT_FAIL;
	}
	rc = cli_boot_order_print(ctx, &f, &ord, o->apply);
	flow_order_release(&ord);
	boot_facts_release(&f);
	return rc;
}

static void print_reboot(const struct flow_move_plan *p, bool trial)
{
	const char *media = p->media ? p->media : "usb,sd";
	bool sd = p->media && !strcmp(p->media, "sd,usb");

	heading("5. at the reboot");
	if (target_is_image(p))
		printf("Nothing changes: the board starts as before. The move is not recorded (an "
		       "image is no boot drive); the health check speaks of the drive the image is "
		       "written to once a move onto it is made.\n");
	else if (trial)
		printf("Reboot with:  sudo reboot '0 tryboot'\n"
		       "That one boot reads tryboot.txt instead of config.txt: the firmware and "
		       "kernel of %s, the root file system of the copy on %s. If it fails - "
		       "the root does not come up (the kernel stops and restarts after 10 s; "
		       "a kernel before 6.6 waits for the root for ever: switch it off and on), "
		       "a crash, a reset, a power cut - the next start reads config.txt and the "
		       "board is on %s as before: the firmware clears the tryboot flag before it "
		       "starts. A plain reboot is no trial. If the trial works, `sbcdisk` says "
		       "the move is complete; then `sbcdisk boot order %s --apply` makes the "
		       "board start from the copy for good (its own boot partition is used "
		       "from then on). `sbcdisk bench %s --profile quick` and `sbcdisk compare` "
		       "show the before and after.\n",
		       p->source.path, p->target.path, p->source.path, media, p->target.path);
	else if (p->pi && p->media)
		printf("The bootloader tries %s first (the target); when it finds nothing to boot "
		       "there it goes on to %s, but a copy that starts and then fails does not fall "
		       "back (no tryboot trial was set up). The old disk is left as it was: take the "
		       "new one out (or put the old boot order back) and the board starts from it "
		       "again. After the reboot, `sbcdisk` says where the board booted from; "
		       "`sbcdisk bench %s --profile quick` and `sbcdisk compare` show the before "
		       "and after.\n", p->media_words, sd ? "USB mass storage" : "the SD card",
		       p->target.path);
	else
		printf("%s The old disk is left as it was. After the reboot, `sbcdisk` says where "
		       "the board booted from; `sbcdisk bench %s --profile quick` and `sbcdisk "
		       "compare` show the before and after.\n",
		       p->pi ? "No boot order tries the target: the board starts as before." :
			       "The board starts from the target once its boot loader is set so; take "
			       "the new disk out and it starts from the old one again.",
		       p->target.path);
}

int cmd_move(struct cli_ctx *ctx, int argc, char **argv)
{
	struct move_opts o = mo;
	struct flow_move_opts fo = { .apply = mo.apply, .no_bench = mo.no_bench,
				     .no_tryboot = mo.no_tryboot, .no_copy = mo.no_copy };
	static struct flow_move_plan p;
	struct inventory *inv = NULL;
	char why[PATH_MAX + 128];
	bool trial = false;
	int rc, rec = EXIT_OK, ret;

	(void)argc;
	(void)argv;
	move_signal = 0;
	cli_catch_stop_signals(on_signal);
	ret = probe_inventory_load(ctx->sr, &inv);
	if (ret) {
		log_error("move: cannot read the block devices: %s", strerror(-ret));
		return EXIT_FAIL;
	}
	ret = flow_move_plan_make(ctx->sr, inv, &fo, o.source, o.target, &p, why, sizeof(why));
	if (ret) {
		str_sanitize(why);
		log_error("move: %s", why);
		probe_inventory_free(inv);
		return EXIT_FAIL;
	}
	printf("sbcdisk move: %s -> %s (%s)\n", p.source.kind != PROBE_REF_NONE ?
	       p.source.path : "the running system's disk", p.target.path,
	       !o.apply ? "dry run: nothing is written" :
	       o.no_copy ? "--apply: this sets up the first boot from the target" :
			   "--apply: this copies and sets up the first boot from the target");
	rc = EXIT_OK;
	if (p.bench[0] || p.bench[1])
		rc = stopped(bench_both(ctx, &o, &p), "the clone");
	if (rc == EXIT_OK && !o.no_copy)
		rc = stopped(step_clone(ctx, &o, &p), "the boot check (the copy is made)");
	if (rc == EXIT_OK) {
		heading("3. will the copy boot");
		if (o.apply)
			rc = stopped(step_check(ctx, &o, &p), "step 4");
		else
			printf("After --apply: sbcdisk boot check %s%s.\n", p.target.path,
			       o.no_copy ? "" : " (clone's own checks of the copy are in its plan "
						"above)");
	}
	if (rc == EXIT_OK)
		rc = stopped(step_trial(ctx, &o, inv, &p, &trial), "the boot order");
	if (rc == EXIT_OK && !trial)
		rc = stopped(step_order(ctx, &o, &p), "the move was recorded");
	/* a move that is set up but not recorded still says how to reboot; it is a failure */
	if (rc == EXIT_OK && o.apply && !target_is_image(&p))
		rec = record_move(ctx, &o, &p, trial);
	if (rc == EXIT_OK)
		print_reboot(&p, trial);
	probe_inventory_free(inv);
	if (rc == EXIT_OK && move_signal) {
		/* it came during the record (a busy database) */
		log_error("move: stopped by a signal");
		return 128 + move_signal;
	}
	return rc == EXIT_OK ? rec : rc;
}
