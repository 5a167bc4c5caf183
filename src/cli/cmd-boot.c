// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd-boot.c - `sbcdisk boot [check [DISK...] | order LIST [--apply]]`: the boot layer's
 * facts and checks, printed by report/boot-report.c; the new boot order handed to
 * rpi-eeprom-config. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "cli/cli.h"
#include "common/json.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/util.h"
#include "report/boot-report.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: sbcdisk boot [options]\n"
		"       sbcdisk boot check [DISK...]\n"
		"       sbcdisk boot order MEDIA [--apply]\n"
		"       sbcdisk boot time\n"
		"\nWhere the board booted from, its bootloader and boot order (read-only).\n"
		"\n  check [DISK...]  will each disk (default: every attached disk) boot on this\n"
		"                   board: PASS/WARN/FAIL with the reason and the fix\n"
		"  order MEDIA      the BOOT_ORDER for MEDIA (e.g. nvme,usb,sd: tried in this\n"
		"                   order, then again) and the change to the EEPROM configuration\n"
		"  time             this boot's kernel, initrd and userspace time (systemd's\n"
		"                   figures, as systemd-analyze prints them), the slowest units\n"
		"                   and the boot device; the firmware's time before the kernel\n"
		"                   is not visible to Linux on a Raspberry Pi\n"
		"\nOptions:\n"
		"  --apply          order: hand the new configuration to 'rpi-eeprom-config\n"
		"                   --apply' (applied at the next reboot)\n"
		"  -h, --help       this help\n"
		"\nExit status: 0 ok; 3 a disk that boot check was asked about will not boot\n"
		"(a FAIL); 1 failure; 2 usage. With the global --json: one JSON document\n"
		"(schema 1).\n");
}

struct boot_opts {
	const char *sub; /* NULL, "check", "order" */
	bool apply;
	int first, argc; /* the operands: argv[first..argc) */
};

static int parse_opts(int argc, char **argv, struct boot_opts *o, bool *help)
{
	static const struct option lopts[] = {
		{ "apply", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", lopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o->apply = true;
			break;
		case 'h':
			*help = true;
			return 0;
		default:
			return cli_option_error("boot", c, argv);
		}
	}
	o->first = optind;
	o->argc = argc;
	if (optind < argc) {
		o->sub = argv[optind];
		o->first++;
		if (strcmp(o->sub, "check") && strcmp(o->sub, "order") && strcmp(o->sub, "time"))
			return cli_usage_error("boot", "unknown subcommand '%s': check, order or "
					       "time", o->sub);
	}
	if (o->apply && (!o->sub || strcmp(o->sub, "order")))
		return cli_usage_error("boot", "--apply goes with 'boot order'");
	if (o->sub && !strcmp(o->sub, "order")) {
		if (o->first >= argc)
			return cli_usage_error("boot", "which boot order? e.g. 'sbcdisk boot order "
					       "nvme,usb,sd'");
		if (o->first + 1 < argc)
			return cli_usage_error("boot", "one list of media, not '%s'",
					       argv[o->first + 1]);
	}
	if (o->sub && !strcmp(o->sub, "time") && o->first < argc)
		return cli_usage_error("boot", "unexpected '%s'", argv[o->first]);
	if (!o->sub && o->first < argc)
		return cli_usage_error("boot", "unexpected '%s'", argv[o->first]);
	return 0;
}

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

/* The device a DISK argument names: "sda" or "/dev/sda". */
static struct blkdev *named_device(const struct inventory *inv, const char *name)
{
	if (str_starts(name, PATH_DEV_PREFIX))
		name += strlen(PATH_DEV_PREFIX);
	return probe_inventory_find(inv, name);
}

static int run_check(struct cli_ctx *ctx, struct inventory *inv, const struct boot_facts *f,
		     char **names, int n)
{
	struct boot_checks c = { 0 };
	int i, ret = 0, rc = EXIT_OK;
	size_t j;

	for (i = 0; i < n; i++) {
		struct blkdev *d = named_device(inv, names[i]);

		if (!d || d->is_partition) {
			log_error("boot check: '%s' is %s", names[i], d ? "a partition: name its "
				  "disk" : "no disk of this system (see 'sbcdisk list')");
			boot_checks_release(&c);
			return EXIT_USAGE;
		}
	}
	if (n) {
		for (i = 0; i < n && !ret; i++)
			ret = boot_check_disk(ctx->sr, inv, f, named_device(inv, names[i]), &c);
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

/* The raspi-config preset that writes this order, or NULL (do_boot_order: B1 SD card boot,
 * B2 NVMe/USB boot, B3 network boot). */
static const char *raspi_config_preset(const struct boot_facts *f, uint32_t v)
{
	bool pi5 = f->soc == BOOT_SOC_2712;

	if (v == (pi5 ? 0xf461u : 0xf41u))
		return "B1";
	if (v == (pi5 ? 0xf146u : 0xf14u))
		return "B2";
	if (v == 0xf21u)
		return "B3";
	return NULL;
}

static void print_manual(const struct boot_facts *f, uint32_t v)
{
	const char *preset = raspi_config_preset(f, v);

	printf("Do it by hand on the board:\n");
	if (preset)
		printf("  sudo raspi-config nonint do_boot_order %s\n", preset);
	printf("  sudo -E rpi-eeprom-config --edit     (set BOOT_ORDER=0x%x, save, reboot)\n",
	       (unsigned)v);
}

static void print_diff(const char *old, const struct sbuf *new, size_t line, bool replaced)
{
	const char *o = old, *n = sbuf_str(new);
	size_t no = 0;

	printf("--- EEPROM configuration (now)\n+++ EEPROM configuration (new)\n");
	for (;;) {
		size_t ol = strcspn(o, "\n"), nl = strcspn(n, "\n");

		if (!*o && !*n)
			break;
		if (no == line) {
			if (replaced && *o)
				printf("-%.*s\n", (int)ol, o);
			printf("+%.*s\n", (int)nl, n);
			n += nl + (n[nl] ? 1 : 0);
			if (replaced) {
				o += ol + (o[ol] ? 1 : 0);
			}
			no++;
			continue;
		}
		if (*o)
			printf(" %.*s\n", (int)ol, o);
		o += ol + (o[ol] ? 1 : 0);
		n += nl + (n[nl] ? 1 : 0);
		no++;
	}
}

static int run_order(struct cli_ctx *ctx, const struct boot_facts *f, const char *list,
		     bool apply)
{
	struct boot_order bo;
	struct sbuf next = SBUF_INIT(BOOT_EEPROM_TEXT_MAX + 64);
	char why[200], now[256], want[256], *out = NULL;
	const char *text = f->has_eeprom ? f->eeprom_text : "";
	size_t line;
	bool replaced;
	int ret, status = -1, rc = EXIT_OK;

	if (boot_order_from_names(list, f->soc, f->compute_module, f->has_caps, f->caps, &bo,
				  why, sizeof(why))) {
		log_error("boot order: '%s': %s", list, why);
		return EXIT_USAGE;
	}
	ret = boot_eeprom_set_order(text, strlen(text), bo.value, &next, &line, &replaced);
	if (ret) {
		log_error("boot order: %s", strerror(-ret));
		sbuf_release(&next);
		return EXIT_FAIL;
	}
	boot_order_describe(&bo, want, sizeof(want));
	if (ctx->json) {
		struct json_object *doc = json_object_new_object(), *modes;
		char hex[16];
		size_t i;

		json_add_i64(doc, "schema", true, BOOT_SCHEMA);
		boot_order_hex(&bo, hex, sizeof(hex));
		json_add_str(doc, "boot_order", hex);
		modes = json_object_new_array();
		for (i = 0; i < bo.n; i++)
			json_object_array_add(modes,
					      json_object_new_string(boot_mode_name(bo.modes[i])));
		json_object_object_add(doc, "modes", modes);
		json_add_str(doc, "text", want);
		boot_order_hex(&f->eeprom.order, hex, sizeof(hex));
		json_add_str(doc, "current", f->has_eeprom ? hex : NULL);
		json_add_str(doc, "config_now", f->has_eeprom ? f->eeprom_text : NULL);
		json_add_str(doc, "config_new", sbuf_str(&next));
		json_add_bool(doc, "applied", true, false);
		ret = json_print(doc, stdout);
		json_object_put(doc);
	} else {
		if (f->has_eeprom) {
			boot_order_describe(&f->eeprom.order, now, sizeof(now));
			printf("BOOT_ORDER now: 0x%x%s (%s)\n", (unsigned)f->eeprom.order.value,
			       f->eeprom.order.is_default ? ", the default" : "", now);
		} else {
			printf("BOOT_ORDER now: not known (the EEPROM configuration cannot be read "
			       "here)\n");
		}
		printf("BOOT_ORDER new: 0x%x (%s)\n", (unsigned)bo.value, want);
		if (f->has_eeprom)
			print_diff(text, &next, line, replaced);
	}
	if (!apply) {
		if (!ctx->json) {
			printf("Dry run: nothing changed. Add --apply to hand it to "
			       "rpi-eeprom-config.\n");
			print_manual(f, bo.value);
		}
		goto out;
	}
	if (!f->has_eeprom) {
		log_error("boot order: the EEPROM configuration cannot be read here, and "
			  "rpi-eeprom-config --apply replaces all of it: not applied");
		print_manual(f, bo.value);
		rc = EXIT_FAIL;
		goto out;
	}
	ret = boot_eeprom_apply(sbuf_str(&next), next.len, &out, &status);
	if (ret == -ENOENT) {
		log_error("boot order: 'rpi-eeprom-config' not found (Raspberry Pi OS package "
			  "rpi-eeprom): not applied");
		print_manual(f, bo.value);
		rc = EXIT_FAIL;
		goto out;
	}
	if (ret) {
		log_error("boot order: cannot run rpi-eeprom-config: %s", strerror(-ret));
		rc = EXIT_FAIL;
		goto out;
	}
	if (out && *out && !ctx->json) {
		str_sanitize_text(out, strlen(out));
		fputs(out, stdout);
	}
	if (status != 0) {
		log_error("boot order: rpi-eeprom-config --apply failed (exit %d)", status);
		rc = EXIT_FAIL;
	} else if (!ctx->json) {
		printf("Applied: BOOT_ORDER=0x%x takes effect after the next reboot.\n",
		       (unsigned)bo.value);
	}
out:
	free(out);
	sbuf_release(&next);
	return rc;
}

static int run_time(struct cli_ctx *ctx, const struct boot_facts *f)
{
	struct boot_time bt;
	struct json_object *doc;
	int ret;

	if (!sysroot_is_live(ctx->sr)) {
		log_error("boot time: systemd's timestamps belong to the running system, not to "
			  "'%s'", sysroot_dir(ctx->sr));
		return EXIT_FAIL;
	}
	ret = boot_time_read(&bt);
	if (ret == -ENOENT) {
		log_error("boot time: no systemd on the system D-Bus: boot times are not known");
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
	if (!ctx->json)
		return boot_report_time(&bt, stdout) ? EXIT_FAIL : EXIT_OK;
	doc = boot_report_json(f, NULL, &bt);
	ret = doc ? json_print(doc, stdout) : -ENOMEM;
	json_object_put(doc);
	return ret ? EXIT_FAIL : EXIT_OK;
}

int cmd_boot(struct cli_ctx *ctx, int argc, char **argv)
{
	struct boot_opts o = { 0 };
	struct inventory *inv = NULL;
	struct boot_facts f;
	bool help = false;
	int ret, rc;

	ret = parse_opts(argc, argv, &o, &help);
	if (ret)
		return ret;
	if (help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (cli_setup(ctx))
		return EXIT_FAIL;
	rc = load(ctx, &inv, &f);
	if (rc)
		return rc;
	if (!o.sub) {
		ret = ctx->json ? print_doc(&f, NULL) : boot_report_table(&f, stdout);
		rc = ret ? EXIT_FAIL : EXIT_OK;
		if (ret)
			log_error("boot: %s", strerror(-ret));
	} else if (!strcmp(o.sub, "time")) {
		rc = run_time(ctx, &f);
	} else if (!strcmp(o.sub, "check")) {
		rc = run_check(ctx, inv, &f, argv + o.first, o.argc - o.first);
	} else {
		rc = run_order(ctx, &f, argv[o.first], o.apply);
	}
	boot_facts_release(&f);
	probe_inventory_free(inv);
	return rc;
}
