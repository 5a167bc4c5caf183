// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd-boot.c - `sbcdisk boot [check [DISK...] | order LIST [--apply] | time [--record]]`:
 * the boot layer's facts and checks, printed by report/boot-report.c; the new boot order
 * handed to rpi-eeprom-config; this boot's time, recorded in the result store once per boot. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "boot/boot.h"
#include "cli/boot-print.h"
#include "cli/cli-store.h"
#include "cli/fix-disk.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "common/json.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/util.h"
#include "flow/check.h"
#include "probe/ref.h"
#include "report/boot-report.h"
#include "report/list.h"

/* Set to 1, `boot time` also runs below --sysroot: the figures from the bus that
 * DBUS_SYSTEM_BUS_ADDRESS names, the boot id and the boot device from the tree (tests). */
#define BOOT_TIME_SYSROOT_ENV "SBCDISK_BOOT_TIME_SYSROOT"

struct boot_opts {
	bool apply, record;
	const char *db;  /* --db PATH, or NULL */
};

static struct boot_opts bopt;

static const struct cli_option options[] = {
	OPT_BOOL(0, "apply", &bopt.apply,
		 "order: hand the new configuration to 'rpi-eeprom-config\n"
		 "--apply' (applied at the next reboot)"),
	OPT_BOOL(0, "record", &bopt.record,
		 "time: store this boot's figures and boot device in the result\n"
		 "store, once per boot ('sbcdisk history --boot' shows them);\n"
		 "the unit sbcdisk-boot-time.service runs it on every boot"),
	OPT_DB(&bopt.db, "time --record: the result database (default:\n"
	       "/var/lib/sbcdisk/results.db as root, else\n"
	       "$XDG_DATA_HOME/sbcdisk/results.db)"),
	OPT_HELP(),
	OPT_END(),
};

struct boot_sub;
/* the subcommand named after the options, NULL for the facts alone */
static const struct boot_sub *sub;

static int check(const char *cmd, int argc, char **argv);

static void reset(void)
{
	memset(&bopt, 0, sizeof(bopt));
	sub = NULL;
}

const struct cli_spec boot_spec = {
	.usage = "Usage: sbcdisk boot [options]\n"
		 "       sbcdisk boot check [DISK...]\n"
		 "       sbcdisk boot order MEDIA [--apply]\n"
		 "       sbcdisk boot time [--record [--db PATH]]\n"
		 "\nWhere the board booted from, its bootloader and boot order (read-only).\n"
		 "\n  check [DISK...]  will each disk (default: every attached disk) boot on this\n"
		 "                   board: PASS/WARN/FAIL with the reason and the fix\n"
		 "  order MEDIA      the BOOT_ORDER for MEDIA (e.g. nvme,usb,sd: tried in this\n"
		 "                   order, then again) and the change to the EEPROM configuration\n"
		 "  time             this boot's kernel, initrd and userspace time (systemd's\n"
		 "                   figures, as systemd-analyze prints them), the slowest units\n"
		 "                   and the boot device; the firmware's time before the kernel\n"
		 "                   is not visible to Linux on a Raspberry Pi and is not counted\n",
	.options = options,
	.help_col = 19,
	.after = "\nExit status: 0 ok; 3 a disk that boot check was asked about will not boot\n"
		 "(a FAIL); 1 failure; 2 usage. With the global --json: one JSON document\n"
		 "(schema 1).\n",
	.args_max = -1,
	.check = check,
	.reset = reset,
};

static int load(struct cli_ctx *ctx, struct inventory **inv, struct boot_facts *f)
{
	int ret;

	ret = probe_inventory_load(ctx->sr, inv);
	if (ret == -ENOENT) {
		log_error("boot: unusable sysroot '%s': no /sys/block or /sys/class/block",
			  sysroot_dir(ctx->sr));
		return EXIT_FAIL;
	}
	if (ret) {
		log_error("boot: cannot read the block devices below '%s': %s",
			  sysroot_dir(ctx->sr), strerror(-ret));
		return EXIT_FAIL;
	}
	ret = boot_facts_read(ctx->sr, *inv, f);
	if (ret) {
		log_error("boot: cannot read the boot facts: %s", strerror(-ret));
		probe_inventory_free(*inv);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int print_doc(const struct boot_facts *f, const struct boot_checks *c)
{
	struct json_object *doc = boot_report_json(f, c, NULL);
	int ret = doc ? json_print(doc, stdout) : -ENOMEM;

	json_object_put(doc);
	return ret;
}

/* The device a DISK argument names, resolved (probe/ref.h): "sda", "/dev/sda", a
 * /dev/disk/by-id/ link or any other link to it, inside the sysroot for a captured tree;
 * else a shown name ("vg-root"). */
static struct blkdev *named_device(struct sysroot *sr, const struct inventory *inv,
				   const char *name)
{
	struct probe_ref *ref = malloc(sizeof(*ref));
	struct blkdev *d = NULL;
	char why[128];

	if (ref && !probe_ref_resolve(sr, inv, name, 0, ref, why, sizeof(why)) &&
	    ref->kind == PROBE_REF_BLOCK)
		d = (struct blkdev *)ref->dev;
	free(ref);
	if (d)
		return d;
	if (str_starts(name, PATH_DEV_PREFIX))
		name += strlen(PATH_DEV_PREFIX);
	return probe_inventory_find(inv, name);
}

/* An image file named instead of a disk: a regular file. */
static bool is_image(const char *name)
{
	struct stat st;

	return strchr(name, '/') && !str_starts(name, PATH_DEV_PREFIX) && !stat(name, &st) &&
	       S_ISREG(st.st_mode);
}

static int run_check(struct cli_ctx *ctx, struct inventory *inv, const struct boot_facts *f,
		     char **names, int n)
{
	struct boot_checks c = { 0 };
	int i, ret = 0, rc = EXIT_OK;
	size_t j;

	for (i = 0; i < n; i++) {
		struct blkdev *d = named_device(ctx->sr, inv, names[i]);

		if (!d && is_image(names[i]))
			continue;
		if (!d || d->is_partition) {
			log_error("boot check: '%s' is %s", names[i], d ? "a partition: name its "
				  "disk" : "no disk of this system (see 'sbcdisk list')");
			boot_checks_release(&c);
			return EXIT_USAGE;
		}
	}
	if (n) {
		for (i = 0; i < n && !ret; i++) {
			struct blkdev *d = named_device(ctx->sr, inv, names[i]);

			ret = flow_check_disk(ctx->sr, inv, f, d, names[i], NULL, &c);
		}
	} else {
		for (j = 0; j < inv->n_top && !ret; j++)
			if (boot_disk_is_candidate(inv->top[j]))
				ret = boot_check_disk(ctx->sr, inv, f, inv->top[j], &c);
	}
	if (!ret)
		ret = ctx->json ? print_doc(f, &c) : boot_report_checks(&c, stdout);
	if (ret) {
		log_error("boot check: %s", strerror(-ret));
		rc = EXIT_FAIL;
	}
	for (j = 0; rc == EXIT_OK && j < c.n; j++)
		if (c.item[j].result == BOOT_FAIL)
			rc = EXIT_FINDINGS;
	boot_checks_release(&c);
	return rc;
}

int cli_boot_order_print(struct cli_ctx *ctx, const struct boot_facts *f,
			 const struct flow_order *o, bool apply)
{
	int ret;

	if (ctx->json) {
		struct json_object *doc = boot_report_order_json(f, &o->bo, o->shown);

		ret = doc ? json_print(doc, stdout) : -ENOMEM;
		json_object_put(doc);
	} else {
		ret = boot_report_order(f, &o->bo, o->shown, o->line, o->replaced, stdout);
	}
	(void)ret;
	if (!apply) {
		if (!ctx->json) {
			printf("Dry run: nothing changed. Add --apply to hand it to "
			       "rpi-eeprom-config.\n");
			boot_report_order_manual(f, o->bo.value, stdout);
		}
		return EXIT_OK;
	}
	switch (o->state) {
	case FLOW_ORDER_SHOWN:
		return EXIT_OK;
	case FLOW_ORDER_UNCHANGED:
		if (!ctx->json)
			printf("Unchanged: BOOT_ORDER is 0x%x already; nothing to apply.\n",
			       (unsigned)o->bo.value);
		return EXIT_OK;
	case FLOW_ORDER_NO_EEPROM:
		log_error("boot order: the EEPROM configuration cannot be read here, and "
			  "rpi-eeprom-config --apply replaces all of it: not applied");
		boot_report_order_manual(f, o->bo.value, stdout);
		return EXIT_FAIL;
	case FLOW_ORDER_NO_TOOL:
		log_error("boot order: 'rpi-eeprom-config' not found (Raspberry Pi OS package "
			  "rpi-eeprom): not applied");
		boot_report_order_manual(f, o->bo.value, stdout);
		return EXIT_FAIL;
	case FLOW_ORDER_RUN_FAILED:
		log_error("boot order: cannot run rpi-eeprom-config: %s", strerror(-o->err));
		return EXIT_FAIL;
	case FLOW_ORDER_RAN:
		break;
	}
	if (o->out && *o->out && !ctx->json)
		fputs(o->out, stdout);
	if (o->status != 0) {
		log_error("boot order: rpi-eeprom-config --apply failed (exit %d)", o->status);
		return EXIT_FAIL;
	}
	if (!ctx->json)
		printf("Applied: BOOT_ORDER=0x%x takes effect after the next reboot.\n",
		       (unsigned)o->bo.value);
	return EXIT_OK;
}

static int run_order(struct cli_ctx *ctx, const struct boot_facts *f, const char *list,
		     bool apply)
{
	struct flow_order o;
	char why[200];
	int ret, rc;

	ret = flow_order_make(f, list, apply, &o, why, sizeof(why));
	if (ret == -EINVAL) {
		log_error("boot order: '%s': %s", list, why);
		rc = EXIT_USAGE;
	} else if (ret) {
		log_error("boot order: %s", strerror(-ret));
		rc = EXIT_FAIL;
	} else {
		rc = cli_boot_order_print(ctx, f, &o, apply);
	}
	flow_order_release(&o);
	return rc;
}

/* This boot's id, sanitized; "" when the kernel does not give one. */
static void boot_id_read(struct cli_ctx *ctx, char *buf, size_t cap)
{
	if (sysroot_read_str(ctx->sr, PATH_PROC_BOOT_ID, buf, cap) < 0)
		buf[0] = '\0';
	str_sanitize(buf);
}

/* Store bt, once per boot: the boot id is the key. *doc (JSON) gets "record". */
static int record_time(struct cli_ctx *ctx, const struct inventory *inv,
		       const struct boot_facts *f, const struct boot_time *bt, const char *db,
		       struct json_object *doc)
{
	struct store_boot b = { .initrd_s = NAN, .firmware_s = NAN, .loader_s = NAN };
	struct json_object *dev = NULL, *rec;
	struct blkdev *d = f->root_disk[0] ? probe_inventory_find(inv, f->root_disk) : NULL;
	struct store *st = NULL;
	char when[32] = "";
	bool added = false;
	int rc = EXIT_FAIL;

	boot_id_read(ctx, b.boot_id, sizeof(b.boot_id));
	if (!b.boot_id[0]) {
		log_error("boot time: the kernel gives no boot id (%s): this boot cannot be told "
			  "from another; nothing was recorded", PATH_PROC_BOOT_ID);
		return EXIT_FAIL;
	}
	b.kernel_s = bt->kernel_s;
	if (bt->has_initrd)
		b.initrd_s = bt->initrd_s;
	b.userspace_s = bt->userspace_s;
	b.total_s = bt->total_s;
	if (bt->has_firmware)
		b.firmware_s = bt->firmware_s;
	if (bt->has_loader)
		b.loader_s = bt->loader_s;
	str_copy(b.target, sizeof(b.target), bt->target);
	str_copy(b.board, sizeof(b.board), inv->board.model);
	str_copy(b.kernel, sizeof(b.kernel), inv->board.kernel);
	str_copy(b.root_device, sizeof(b.root_device), f->root_device);
	if (d)
		dev = list_device_to_json(probe_blkdev_whole(d));
	b.device = dev;
	if (cli_store_open("boot time: nothing was recorded", db, STORE_WRITE, false, &st))
		goto out;
	if (store_boot_add(st, &b, &added, when, sizeof(when))) {
		log_error("boot time: nothing was recorded: %s", store_strerror(st));
		goto out;
	}
	rc = EXIT_OK;
	if (doc) {
		rec = json_object_new_object();
		json_add_str(rec, "boot_id", b.boot_id);
		json_add_bool(rec, "stored", true, added);
		json_add_str(rec, "recorded_at", when[0] ? when : NULL);
		json_object_object_add(doc, "record", rec);
	} else if (added) {
		printf("Recorded boot %s (%.3fs from %s) in the result store.\n"
		       "'sbcdisk history --boot' shows the boots of each boot device.\n",
		       b.boot_id, b.total_s, f->root_disk[0] ? f->root_disk : "an unknown disk");
	} else {
		printf("This boot (%s) was recorded at %s already: nothing was changed.\n",
		       b.boot_id, when);
	}
out:
	json_object_put(dev);
	store_close(st);
	return rc;
}

static int run_time(struct cli_ctx *ctx, const struct inventory *inv,
		    const struct boot_facts *f, const struct boot_opts *o)
{
	const char *opt = getenv(BOOT_TIME_SYSROOT_ENV);
	struct json_object *doc = NULL;
	struct boot_time bt;
	int ret, rc;

	if (!sysroot_is_live(ctx->sr) && !(opt && !strcmp(opt, "1"))) {
		log_error("boot time: systemd's timestamps belong to the running system, not to "
			  "'%s'", sysroot_dir(ctx->sr));
		return EXIT_FAIL;
	}
	/* a tree is not this machine: its boots go only where they are sent */
	if (o->record && !o->db && !sysroot_is_live(ctx->sr)) {
		log_error("boot time: a --sysroot tree is not this machine: name the database "
			  "with --db to record its boot");
		return EXIT_FAIL;
	}
	ret = boot_time_read(&bt);
	if (ret == -ENOENT) {
		log_error("boot time: no systemd on the system D-Bus: boot times are not known");
		return EXIT_FAIL;
	}
	if (ret == -ELIBACC || ret == -ELIBBAD) {
		log_error("boot time: libsystemd.so.0 %s: install the package libsystemd0",
			  ret == -ELIBACC ? "cannot be opened" : "lacks the sd-bus calls");
		return EXIT_FAIL;
	}
	if (ret == -EINPROGRESS) {
		log_error("boot time: the boot has not finished yet (systemd has not reached its "
			  "default target): try again later");
		return EXIT_FAIL;
	}
	if (ret) {
		log_error("boot time: %s", strerror(-ret));
		return EXIT_FAIL;
	}
	str_copy(bt.boot_device, sizeof(bt.boot_device), f->root_disk);
	if (!ctx->json) {
		if (boot_report_time(&bt, stdout))
			return EXIT_FAIL;
		return o->record ? record_time(ctx, inv, f, &bt, o->db, NULL) : EXIT_OK;
	}
	doc = boot_report_json(f, NULL, &bt);
	if (!doc) {
		log_error("boot time: out of memory");
		return EXIT_FAIL;
	}
	rc = o->record ? record_time(ctx, inv, f, &bt, o->db, doc) : EXIT_OK;
	if (rc == EXIT_OK && json_print(doc, stdout))
		rc = EXIT_FAIL;
	json_object_put(doc);
	return rc;
}

static int sub_check(struct cli_ctx *ctx, struct inventory *inv, struct boot_facts *f,
		     int argc, char **argv)
{
	return run_check(ctx, inv, f, argv + 1, argc - 1);
}

static int sub_order(struct cli_ctx *ctx, struct inventory *inv, struct boot_facts *f,
		     int argc, char **argv)
{
	(void)inv;
	(void)argc;
	return run_order(ctx, f, argv[1], bopt.apply);
}

static int sub_time(struct cli_ctx *ctx, struct inventory *inv, struct boot_facts *f,
		    int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return run_time(ctx, inv, f, &bopt);
}

/* The subcommands: each with its operands (at least, at most: -1 any number), what is said
 * when one is missing or one too many, and what runs it once the facts are loaded. */
static const struct boot_sub {
	const char *name;
	int args_min, args_max;
	const char *missing, *extra; /* extra: said before the first operand too many */
	int (*run)(struct cli_ctx *ctx, struct inventory *inv, struct boot_facts *f, int argc,
		   char **argv);
} boot_subs[] = {
	{ "check", 0, -1, NULL, NULL, sub_check },
	{ "order", 1, 1, "which boot order? e.g. 'sbcdisk boot order nvme,usb,sd'",
	  "one list of media, not", sub_order },
	{ "time", 0, 0, NULL, "unexpected", sub_time },
	{ NULL, 0, 0, NULL, NULL, NULL },
};

static const struct boot_sub *boot_sub_find(const char *name)
{
	const struct boot_sub *b;

	for (b = boot_subs; b->name; b++)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

/* argv[1] the subcommand, argv[2..argc) its operands */
static int check(const char *cmd, int argc, char **argv)
{
	int nargs = argc - 2;

	sub = argc > 1 ? boot_sub_find(argv[1]) : NULL;
	if (argc > 1 && !sub)
		return cli_usage_error(cmd, "unknown subcommand '%s': check, order or time",
				       argv[1]);
	if (bopt.apply && (!sub || strcmp(sub->name, "order")))
		return cli_usage_error(cmd, "--apply goes with 'boot order'");
	if (bopt.record && (!sub || strcmp(sub->name, "time")))
		return cli_usage_error(cmd, "--record goes with 'boot time'");
	if (bopt.db && !bopt.record)
		return cli_usage_error(cmd, "--db goes with 'boot time --record'");
	if (sub && nargs < sub->args_min)
		return cli_usage_error(cmd, "%s", sub->missing);
	if (sub && sub->args_max >= 0 && nargs > sub->args_max)
		return cli_usage_error(cmd, "%s '%s'", sub->extra, argv[2 + sub->args_max]);
	return 0;
}

int cmd_boot(struct cli_ctx *ctx, int argc, char **argv)
{
	struct inventory *inv = NULL;
	struct boot_facts f;
	int ret, rc;

	rc = load(ctx, &inv, &f);
	if (rc)
		return rc;
	if (!sub) {
		ret = ctx->json ? print_doc(&f, NULL) : boot_report_table(&f, stdout);
		rc = ret ? EXIT_FAIL : EXIT_OK;
		if (ret)
			log_error("boot: %s", strerror(-ret));
	} else {
		rc = sub->run(ctx, inv, &f, argc - 1, argv + 1);
	}
	boot_facts_release(&f);
	probe_inventory_free(inv);
	return rc;
}
