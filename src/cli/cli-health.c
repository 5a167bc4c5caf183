/* cli-health.c - read drive health through smartctl for the commands that show it, only on
 * the running system (or below --sysroot when a test opts in), and say when smartctl is missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli-health.h"
#include "common/log.h"
#include "probe/health.h"

void cli_health_load(struct cli_ctx *ctx, struct inventory *inv, const char *cmd)
{
	const char *opt = getenv(CLI_HEALTH_SYSROOT_ENV);
	size_t i;
	int ret;

	if (!inv)
		return;
	if (!sysroot_is_live(ctx->sr) && !(opt && !strcmp(opt, "1")))
		return;
	ret = probe_inventory_read_health(ctx->sr, inv);
	if (ret) {
		log_error("%s: drive health not read: %s", cmd, strerror(-ret));
		return;
	}
	for (i = 0; i < inv->n_top; i++) {
		const struct probe_health *h = inv->top[i]->health;

		if (h && h->state == PROBE_HEALTH_NO_TOOL) {
			if (!ctx->quiet)
				log_line(stderr, "sbcdisk: %s: drive health not read: smartctl "
						 "not found (it comes with the package smartmontools)",
					 cmd);
			return;
		}
	}
}
