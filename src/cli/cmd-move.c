/* cmd-move.c - `sbcdisk move`: the journey from one disk to a faster one as one command, by
 * the commands that do each step (bench, clone, boot check, boot order): dry run by default. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "boot/boot.h"
#include "cli/cli.h"
#include "cli/move-tryboot.h"
#include "cli/options.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/util.h"
#include "probe/probe.h"
#include "report/list.h"
#include "store/store.h"

#define MOVE_ARGS_MAX 16

struct move_opts {
	const char *source, *target, *time, *db;
	bool apply, no_bench, no_tryboot, no_copy;
};

static struct move_opts mo;

static const struct cli_option options[] = {
	OPT_BOOL(0, "apply", &mo.apply,
		 "copy, check the copy and set up the trial or the boot order"),
	OPT_BOOL(0, "no-tryboot", &mo.no_tryboot, "set the boot order, not a trial boot"),
	OPT_BOOL(0, "no-copy", &mo.no_copy,
		 "TARGET holds the copy already (an earlier move or clone):\n"
		 "leave out steps 1 and 2"),
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
		 "  4. on a Raspberry Pi 4 or 5 whose bootloader has tryboot, moving the running\n"
		 "     system: the first boot from TARGET as a trial (tryboot.txt and a trial\n"
		 "     command line beside config.txt, backed up as fix does); a failed trial\n"
		 "     starts from the old disk again. Otherwise the boot order that tries TARGET\n"
		 "     first (sbcdisk boot order, through rpi-eeprom-config; other boards: what\n"
		 "     to change is said)\n"
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
		str_fmt(buf, cap, PATH_DEV_PREFIX "%s", d->kname);
}

/* "usb,sd" or "nvme,sd": the Pi boot order that tries target first. */
static const char *pi_media(const struct inventory *inv, const char *target)
{
	const char *name = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	struct blkdev *d = probe_inventory_find(inv, name);

	return d && d->transport == PROBE_TRAN_NVME ? "nvme,sd" : "usb,sd";
}

static struct json_object *device_json(const struct inventory *inv, const char *path)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct blkdev *d = probe_inventory_find(inv, name);

	return d ? list_device_to_json(d) : NULL;
}

/* Keep the move in the result store, for the health check after the reboot. */
static int record_move(const struct move_opts *o, const struct inventory *inv,
		       const char *source, bool tryboot)
{
	struct json_object *src = device_json(inv, source), *dst = device_json(inv, o->target);
	struct store_move m = { .tryboot = tryboot };
	struct store *st = NULL;
	char def[4096], why[256];
	const char *db = o->db;
	int ret;

	if (!db)
		db = store_default_path(def, sizeof(def)) ? NULL : def;
	ret = db ? store_open(db, STORE_WRITE, STORE_BUSY_MS, &st, why, sizeof(why)) : -ENOENT;
	if (!ret) {
		store_move_set_device(&m, false, src);
		store_move_set_device(&m, true, dst);
		ret = store_move_add(st, &m);
		if (ret)
			str_copy(why, sizeof(why), store_strerror(st));
		store_close(st);
	} else if (!db) {
		str_copy(why, sizeof(why), "no result database path");
	}
	if (ret)
		log_error("move: the move was not recorded: %s", why);
	else
		printf("Recorded as move #%lld (%s -> %s): after the reboot, `sbcdisk` says whether "
		       "it took.\n", (long long)m.id, m.src_name, m.dst_name);
	json_object_put(src);
	json_object_put(dst);
	return ret;
}

/* Step 4 as a trial boot where the firmware has tryboot and the source is the running disk:
 * *trial says whether it was (else the boot order is the step). */
static int step_trial(struct cli_ctx *ctx, const struct move_opts *o,
		      const struct inventory *inv, const char *source, bool pi, bool *trial)
{
	const char *name = strrchr(o->target, '/') ? strrchr(o->target, '/') + 1 : o->target;
	unsigned partn = move_root_partn(inv);
	char running[128], why[512] = "", root[160];
	struct boot_facts f;
	int ret;

	*trial = false;
	if (!pi || o->no_tryboot)
		return EXIT_OK;
	root_disk(inv, running, sizeof(running));
	ret = boot_facts_read(ctx->sr, inv, &f);
	if (ret)
		str_fmt(why, sizeof(why), "the boot facts were not read: %s", strerror(-ret));
	else if (boot_tryboot_offered(&f, why, sizeof(why)) &&
		 (!running[0] || strcmp(running, source) || !partn))
		str_copy(why, sizeof(why), "the source is not the running system's disk");
	boot_facts_release(&f);
	if (why[0]) {
		printf("\nNo trial boot (the firmware's tryboot): %s.\n", why);
		return EXIT_OK;
	}
	heading("4. the first boot from the target as a trial (the firmware's tryboot)");
	if (o->apply || o->no_copy) {
		ret = move_copy_root(ctx, name, partn, root, sizeof(root));
		if (ret) {
			printf("No trial boot: the copy's partition %u has no PARTUUID to be read "
			       "(%s).\n", partn, strerror(-ret));
			return EXIT_OK;
		}
	} else {
		/* the clone gives the copy new ids: known after --apply */
		str_fmt(root, sizeof(root), "PARTUUID=<the-copy's-partition-%u>", partn);
		printf("Beside config.txt on %s's boot partition (with --apply; the clone sets the "
		       "copy's PARTUUID, shown here as a placeholder):\n", source);
	}
	ret = move_tryboot(ctx, inv->board.kernel, root, o->apply, why, sizeof(why));
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
	bool pi, trial = false;
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
	       o.target, !o.apply ? "dry run: nothing is written" :
	       o.no_copy ? "--apply: this sets up the first boot from the target" :
			   "--apply: this copies and sets up the first boot from the target");
	rc = EXIT_OK;
	if (!o.no_bench && !o.no_copy && source[0])
		rc = bench_both(ctx, &o, source);
	if (rc == EXIT_OK && !o.no_copy) {
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
			printf("After --apply: sbcdisk boot check %s%s.\n", o.target,
			       o.no_copy ? "" : " (clone's own checks of the copy are in its plan "
						"above)");
	}
	if (rc == EXIT_OK)
		rc = step_trial(ctx, &o, inv, source, pi, &trial);
	if (rc == EXIT_OK && !trial) {
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
	if (rc == EXIT_OK && o.apply && source[0])
		record_move(&o, inv, source, trial);
	if (rc == EXIT_OK) {
		heading("5. at the reboot");
		if (trial)
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
			       source, o.target, source, pi_media(inv, o.target), o.target);
		else
			printf("%s The old disk is left as it was: take the new one out (or put the "
			       "old boot order back) and the board starts from it again. After the "
			       "reboot, `sbcdisk` says where the board booted from; `sbcdisk bench %s "
			       "--profile quick` and `sbcdisk compare` show the before and after.\n",
			       pi ? "The bootloader tries the target first; when it finds nothing to "
				    "boot there it goes on to the SD card, but a copy that starts and "
				    "then fails does not fall back (no tryboot trial was set up)." :
				    "The board starts from the target once its boot loader is set so.",
			       o.target);
	}
	probe_inventory_free(inv);
	return rc;
}
