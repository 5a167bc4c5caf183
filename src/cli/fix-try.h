/* fix-try.h - `sbcdisk fix uas DEV --try`: the driver experiment's plan (dry run) or its run,
 * printed; the journey's steps are flow/uas-try.c's. */
#ifndef SBCDISK_CLI_FIX_TRY_H
#define SBCDISK_CLI_FIX_TRY_H

#include <stdbool.h>

#include "cli/cli.h"
#include "common/usbquirks.h"

struct fix_try_opts {
	bool run;        /* --now (or --apply): do it; else the plan only */
	bool apply;      /* write the winner as `fix uas --apply` does */
	bool root_ok;    /* --running-root: the disk of the running root is allowed */
	const char *db;  /* the result database, NULL the default */
};

/* An exit code; *apply_uas true when the caller is to write the quirk for *id (usb-storage
 * won: the disk may have a new name by now, the USB id is the same). */
int fix_try_run(struct cli_ctx *ctx, const char *dev, const struct fix_try_opts *o,
		bool *apply_uas, struct usb_id *id);

#endif
