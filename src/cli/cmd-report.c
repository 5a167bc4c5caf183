/* cmd-report.c - `sbcdisk report`: not built yet.
 * Its issue says what it must do. */
#include <stdio.h>

#include "cli/cli.h"

int cmd_report(struct cli_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	(void)argc;
	fprintf(stderr, "sbcdisk: %s: not implemented yet\n", argv[0]);
	return EXIT_FAIL;
}
