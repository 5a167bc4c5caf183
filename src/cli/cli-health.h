/* cli-health.h - when list, doctor and the health check ask smartctl for drive health, and the
 * one line printed when smartctl is missing. */
#ifndef SBCDISK_CLI_HEALTH_H
#define SBCDISK_CLI_HEALTH_H

#include "cli/cli.h"
#include "probe/probe.h"

/* The environment variable that lets tests read health below --sysroot (a stub smartctl
 * first on PATH); without it health is read only on the running system. */
#define CLI_HEALTH_SYSROOT_ENV "SBCDISK_SMARTCTL_SYSROOT"

/* Read every drive's health into inv when allowed (see above). Never fails the command:
 * a missing smartctl gets one line on stderr naming the package, other trouble one warning. */
void cli_health_load(struct cli_ctx *ctx, struct inventory *inv, const char *cmd);

#endif
