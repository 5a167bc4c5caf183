/* cmd-list.c - `sbcdisk list`: every block device as a tree, with how each disk is attached.
 * Options: -o/--output COLS (-o help), -b/--bytes; the global --json prints the contract. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli-health.h"
#include "common/log.h"
#include "probe/probe.h"
#include "common/json.h"
#include "report/list.h"
#include "common/util.h"

static void list_usage(FILE *f)
{
	fprintf(f,
		"Usage: sbcdisk list [-o COLS] [-b]\n"
		"\nEvery block device the kernel shows, as a tree, and how each disk is attached:\n"
		"USB speed, driver, bridge chip and hubs; PCIe link; SD/eMMC card identity.\n"
		"\nOptions:\n"
		"  -o, --output COLS  columns to show (comma list; +COLS adds to the defaults;\n"
		"                     '-o help' lists them). Not used with --json.\n"
		"                     HEALTH, WEAR and TEMP ask smartctl (smartmontools).\n"
		"  -b, --bytes        sizes in bytes\n"
		"  -h, --help         this help\n"
		"\nWith the global --json: the documented JSON document (schema 1), with each\n"
		"drive's health from smartctl on the running system.\n");
}

int cmd_list(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"bytes", no_argument, NULL, 'b'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int ids[LIST_COLUMNS_MAX];
	size_t n = list_columns_default(ids, LIST_COLUMNS_MAX);
	struct inventory *inv = NULL;
	const char *output = NULL;
	bool bytes = false;
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:bh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'b':
			bytes = true;
			break;
		case 'h':
			list_usage(stdout);
			return EXIT_OK;
		default:
			return cli_option_error(argv[0], c, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
	if (output && !strcasecmp(output, "help")) {
		list_columns_help(stdout);
		return EXIT_OK;
	}
	if (output) {
		const char *bad = NULL;

		ret = list_columns_parse(output, ids, LIST_COLUMNS_MAX, &n, &bad);
		if (ret == -EINVAL)
			return cli_usage_error(argv[0], "unknown column '%s' (see '-o help')",
					       bad ? bad : output);
		if (ret == -ENODATA)
			return cli_usage_error(argv[0], "no column in '%s' (see '-o help')", output);
		if (ret)
			return cli_usage_error(argv[0], "too many columns in '%s'", output);
	}

	if (cli_setup(ctx))
		return EXIT_FAIL;
	ret = probe_inventory_load(ctx->sr, &inv);
	if (ret == -ENOENT) {
		log_error("%s: unusable sysroot '%s': no /sys/block or /sys/class/block", argv[0],
			  sysroot_dir(ctx->sr));
		return EXIT_FAIL;
	}
	if (ret) {
		log_error("%s: cannot read the block devices below '%s': %s", argv[0],
			  sysroot_dir(ctx->sr), strerror(-ret));
		return EXIT_FAIL;
	}
	/* smartctl takes ~100 ms a drive: only when a health column or the JSON asks for it */
	if (ctx->json || list_columns_need_health(ids, n))
		cli_health_load(ctx, inv, argv[0]);
	if (ctx->json) {
		struct json_object *doc = list_inventory_to_json(inv);

		ret = doc ? json_print(doc, stdout) : -ENOMEM;
		json_object_put(doc);
	} else {
		ret = list_table_print(inv, ids, n, bytes, output != NULL, stdout);
	}
	probe_inventory_free(inv);
	if (ret) {
		log_error("%s: cannot print the list: %s", argv[0], strerror(-ret));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
