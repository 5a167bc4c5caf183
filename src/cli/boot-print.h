/* boot-print.h - what `boot order` says of a new boot order, shared by `boot order` and move's
 * step 4 so that both say it alike. */
#ifndef SBCDISK_CLI_BOOT_PRINT_H
#define SBCDISK_CLI_BOOT_PRINT_H

#include <stdbool.h>

#include "boot/boot.h"
#include "cli/cli.h"
#include "flow/boot-order.h"

/* Print o (flow_order_make() on f) as `boot order` does, text or JSON: the exit status. */
int cli_boot_order_print(struct cli_ctx *ctx, const struct boot_facts *f,
			 const struct flow_order *o, bool apply);

#endif
