/* clone-print.h - what `clone` says of its plan and of the copy, shared by `clone` and move's
 * step 2 so that both say it alike, refusals byte for byte. */
#ifndef SBCDISK_CLI_CLONE_PRINT_H
#define SBCDISK_CLI_CLONE_PRINT_H

#include <stdbool.h>

#include "cli/cli.h"
#include "clone/clone.h"

/* The progress line of clone_apply(): arg is a struct cli_progress (cli_progress_init()). */
void cli_clone_progress(void *arg, const struct clone_progress *p);

/*
 * Say what became of a clone made with o: planned false, the plan's refusal (ret, why); a
 * dry run, the plan with its expected time (from the last benches stored in db); with
 * o->apply, the copy (ret of clone_apply(), sig the signal that stopped it, 0 none). The
 * exit status: 0, 1, or 128+N for a stop.
 */
int cli_clone_report(struct cli_ctx *ctx, struct clone_plan *plan, const struct clone_opts *o,
		     bool planned, int ret, char *why, int sig, const char *db);

#endif
