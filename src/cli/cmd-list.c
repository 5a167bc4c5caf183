/* cmd-list.c - `sbcdisk list`: every block device as a tree, with how each disk is attached.
 * Options: -o/--output COLS (-o help), -b/--bytes; the global --json prints the contract. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli-health.h"
#include "cli/options.h"
#include "common/log.h"
#include "probe/probe.h"
#include "common/json.h"
#include "report/list.h"
#include "common/util.h"

static struct {
	const char *output;
	bool bytes;
	int ids[LIST_COLUMNS_MAX];
	size_t n;
} opt;

static const struct cli_option options[] = {
	OPT_STRING('o', "output", "COLS", &opt.output,
		   "columns to show (comma list; +COLS adds to the defaults;\n"
		   "'-o help' lists them). Not used with --json.\n"
		   "HEALTH, WEAR and TEMP ask smartctl (smartmontools)."),
	OPT_BOOL('b', "bytes", &opt.bytes, "sizes in bytes"),
	OPT_HELP(),
	OPT_END(),
};

/* -o: the columns, or their list for '-o help' */
static int check(const char *cmd, int argc, char **argv)
{
	const char *bad = NULL;
	int ret;

	(void)argc;
	(void)argv;
	opt.n = list_columns_default(opt.ids, LIST_COLUMNS_MAX);
	if (!opt.output)
		return 0;
	if (!strcasecmp(opt.output, "help")) {
		list_columns_help(stdout);
		return CLI_DONE;
	}
	ret = list_columns_parse(opt.output, opt.ids, LIST_COLUMNS_MAX, &opt.n, &bad);
	if (ret == -EINVAL)
		return cli_usage_error(cmd, "unknown column '%s' (see '-o help')",
				       bad ? bad : opt.output);
	if (ret == -ENODATA)
		return cli_usage_error(cmd, "no column in '%s' (see '-o help')", opt.output);
	if (ret)
		return cli_usage_error(cmd, "too many columns in '%s'", opt.output);
	return 0;
}

const struct cli_spec list_spec = {
	.usage = "Usage: sbcdisk list [-o COLS] [-b]\n"
		 "\nEvery block device the kernel shows, as a tree, and how each disk is attached:\n"
		 "USB speed, driver, bridge chip and hubs; PCIe link; SD/eMMC card identity.\n",
	.options = options,
	.help_col = 21,
	.after = "\nWith the global --json: the documented JSON document (schema 1), with each\n"
		 "drive's health from smartctl on the running system.\n",
	.check = check,
};

int cmd_list(struct cli_ctx *ctx, int argc, char **argv)
{
	struct inventory *inv = NULL;
	int *ids = opt.ids, ret;
	size_t n = opt.n;
	bool bytes = opt.bytes;

	(void)argc;
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
		ret = list_table_print(inv, ids, n, bytes, opt.output != NULL, stdout);
	}
	probe_inventory_free(inv);
	if (ret) {
		log_error("%s: cannot print the list: %s", argv[0], strerror(-ret));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
