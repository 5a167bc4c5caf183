/* cmd-move.c - `sbcdisk move`: the journey from one disk to a faster one as one command, by
 * the commands that do each step (bench, clone, boot check, boot order): dry run by default. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "common/log.h"
#include "common/util.h"
#include "probe/probe.h"

#define MOVE_ARGS_MAX 16

struct move_opts {
	const char *source, *target, *time, *db;
	bool apply, no_bench;
};

static struct move_opts mo;

static const struct cli_option options[] = {
	OPT_BOOL(0, "apply", &mo.apply, "copy, check the copy and set the boot order"),
	OPT_BOOL(0, "no-bench", &mo.no_bench, "leave out the benches of step 1"),
	OPT_STRING(0, "time", "DUR", &mo.time,
		   "the measured time of each bench run (bench's --time)"),
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
		 "  1. a quick bench of SOURCE and TARGET, stored (reads only): the before figures\n"
		 "  2. sbcdisk clone SOURCE TARGET: its plan, its checks and its refusals\n"
		 "  3. sbcdisk boot check TARGET: will the copy boot (after --apply)\n"
		 "  4. the boot order that tries TARGET first (Raspberry Pi: sbcdisk boot order,\n"
		 "     through rpi-eeprom-config; other boards: what to change is said)\n"
		 "  5. what happens at the reboot\n"
		 "SOURCE defaults to the disk that holds the running root. Without --apply nothing\n"
		 "is written to any disk or to the boot configuration (the benches read only).\n",
	.options = options,
	.help_col = 17,
	.after = "\nExit status: 0 done (or the plan shown), 1 failure or a refusal, 2 usage.\n",
	.args_max = -1,
	.check = check,
};

/* Run another command of the table with args (NULL-ended, at most MOVE_ARGS_MAX). */
static int step(struct cli_ctx *ctx, const char *const *args)
{
	char *argv[MOVE_ARGS_MAX + 1];
	int argc = 0;

	while (args[argc] && argc < MOVE_ARGS_MAX) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	fflush(stdout);
	return cli_run(ctx, cli_command_find(argv[0]), argc, argv);
}

static void heading(const char *text)
{
	printf("\n== %s\n", text);
}

/* The disk that holds the running root ("/dev/mmcblk0"), "" when it cannot be told. */
static void root_disk(const struct inventory *inv, char *buf, size_t cap)
{
	struct blkdev *d = inv->root ? probe_blkdev_whole(inv->root) : NULL;

	buf[0] = '\0';
	if (d)
		str_fmt(buf, cap, "/dev/%s", d->kname);
}

/* "usb,sd" or "nvme,sd": the Pi boot order that tries target first. */
static const char *pi_media(const struct inventory *inv, const char *target)
{
	const char *name = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	struct blkdev *d = probe_inventory_find(inv, name);

	return d && d->transport == PROBE_TRAN_NVME ? "nvme,sd" : "usb,sd";
}

static int bench_both(struct cli_ctx *ctx, const struct move_opts *o, const char *source)
{
	const char *paths[] = { source, o->target };
	int i, rc = EXIT_OK;

	heading("1. before: a quick bench of the source and the target, stored (reads only)");
	for (i = 0; i < 2 && rc == EXIT_OK; i++) {
		const char *args[MOVE_ARGS_MAX] = { "bench", paths[i], "--profile", "quick" };
		int n = 4;

		if (o->time) {
			args[n++] = "--time";
			args[n++] = o->time;
		}
		if (o->db) {
			args[n++] = "--db";
			args[n++] = o->db;
		}
		rc = step(ctx, args);
	}
	return rc;
}

int cmd_move(struct cli_ctx *ctx, int argc, char **argv)
{
	struct move_opts o = mo;
	struct inventory *inv = NULL;
	char source[128];
	bool pi;
	int rc;

	(void)argc;
	(void)argv;
	rc = probe_inventory_load(ctx->sr, &inv);
	if (rc) {
		log_error("move: cannot read the block devices: %s", strerror(-rc));
		return EXIT_FAIL;
	}
	if (o.source)
		str_copy_cut(source, sizeof(source), o.source, false);
	else
		root_disk(inv, source, sizeof(source));
	pi = strstr(inv->board.model, "Raspberry Pi") != NULL;
	printf("sbcdisk move: %s -> %s (%s)\n", source[0] ? source : "the running system's disk",
	       o.target, o.apply ? "--apply: this copies and sets the boot order" :
				   "dry run: nothing is written");
	rc = EXIT_OK;
	if (!o.no_bench && source[0])
		rc = bench_both(ctx, &o, source);
	if (rc == EXIT_OK) {
		const char *args[MOVE_ARGS_MAX] = { "clone" };
		int n = 1;

		heading(o.apply ? "2. the clone" : "2. the clone's plan and checks");
		if (source[0])
			args[n++] = source;
		args[n++] = o.target;
		if (o.apply)
			args[n++] = "--apply";
		if (o.db) {
			/* the benches of step 1 give the expected time */
			args[n++] = "--db";
			args[n++] = o.db;
		}
		rc = step(ctx, args);
	}
	if (rc == EXIT_OK) {
		const char *args[] = { "boot", "check", o.target, NULL };

		heading("3. will the copy boot");
		if (o.apply)
			rc = step(ctx, args);
		else
			printf("After --apply: sbcdisk boot check %s (clone's own checks of the copy "
			       "are in its plan above).\n", o.target);
	}
	if (rc == EXIT_OK) {
		const char *args[] = { "boot", "order", pi_media(inv, o.target),
				       o.apply ? "--apply" : NULL, NULL };

		heading("4. the boot order that tries the target first");
		if (pi)
			rc = step(ctx, args);
		else
			printf("Not a Raspberry Pi: make the board's boot loader start from %s (in "
			       "U-Boot, its boot_targets; in extlinux.conf or the EFI boot order, the "
			       "entry of the copy), and keep the old disk in place until the new one "
			       "has booted.\n", o.target);
	}
	if (rc == EXIT_OK) {
		heading("5. at the reboot");
		printf("%s The old disk is left as it was: take the new one out (or put the old "
		       "boot order back) and the board starts from it again. After the reboot, "
		       "`sbcdisk` says where the board booted from; `sbcdisk bench %s --profile "
		       "quick` and `sbcdisk compare` show the before and after.\n",
		       pi ? "The bootloader tries the target first; when it finds nothing to boot "
			    "there it goes on to the SD card, but a copy that starts and then fails "
			    "does not fall back (sbcdisk does not set up the firmware's one-time "
			    "tryboot trial yet)." :
			    "The board starts from the target once its boot loader is set so.",
		       o.target);
	}
	probe_inventory_free(inv);
	return rc;
}
