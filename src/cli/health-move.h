/* health-move.h - the health check after `move --apply`: where the board booted from, whether
 * the move took, and the stored runs of the two drives side by side. */
#ifndef SBCDISK_CLI_HEALTH_MOVE_H
#define SBCDISK_CLI_HEALTH_MOVE_H

#include <stdio.h>

#include "cli/cli.h"
#include "probe/probe.h"

struct json_object;

/* Print the move section to out when the result store holds a move (nothing otherwise): the
 * running system's store, or the one a captured tree keeps below --sysroot. */
void health_move_print(struct cli_ctx *ctx, const struct inventory *inv, FILE *out);
/* The same as a "move" object for the health check's JSON; NULL when there is no move. */
struct json_object *health_move_json(struct cli_ctx *ctx, const struct inventory *inv);

#endif
