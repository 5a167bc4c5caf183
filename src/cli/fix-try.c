/* fix-try.c - `sbcdisk fix uas DEV --try`: a quick bench on each driver of one USB drive, both
 * stored and compared, the device put back as it was; the plan alone without --now. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/bench-print.h"
#include "cli/cli.h"
#include "cli/cli-store.h"
#include "cli/fix-try.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/util.h"
#include "flow/uas-try.h"

#define TRY_WAIT_S 30 /* how long a disk may take to come back on a driver */

static volatile sig_atomic_t try_signal;

static void on_signal(int sig)
{
	try_signal = sig;
}

/* A quick bench of the disk on the driver it is on now, stored, as bench says it; a signal
 * ends it (try_signal, this experiment's own flag), and the device is then put back. */
static int bench(struct cli_ctx *ctx, const char *disk, const char *db, int64_t *saved)
{
	char dev[80];

	str_fmt(dev, sizeof(dev), "%s%s", PATH_DEV_PREFIX, disk);
	return cli_quick_bench(ctx, dev, 0, &try_signal, db, false, saved);
}

static void print_plan(const struct flow_uas_try_plan *p, const struct fix_try_opts *o)
{
	char s[1024];

	printf("The driver experiment on %s (USB %04x:%04x, interface %s, now on %s):\n",
	       p->disk, p->id.vid, p->id.pid, p->interface, p->driver);
	printf("  1. a quick bench on %s (sbcdisk bench %s%s --profile quick), stored\n",
	       p->driver, PATH_DEV_PREFIX, p->disk);
	printf("  2. %s: '%s' -> '%s'\n", PATH_USB_STORAGE_QUIRKS, p->quirks_before,
	       !strcmp(p->other, "usb-storage") ? p->quirks_with : p->quirks_without);
	printf("     then %s unbound from %s and bound to %s; the disk is awaited for %d s\n",
	       p->interface, p->driver, p->other, TRY_WAIT_S);
	printf("  3. the same quick bench on %s, stored\n", p->other);
	cli_wrap_print("     ", "  4. ", "both runs side by side, by the ids they were stored as "
		       "(as 'sbcdisk compare RUN RUN' shows them)");
	str_fmt(s, sizeof(s), "%s", o->apply ?
		"the winner written into the boot configuration as 'fix uas --apply' does "
		"(nothing to write when uas wins); the device stays on it until the next boot" :
		"the device put back as it was: the quirks parameter restored, the interface "
		"bound to its driver again");
	cli_wrap_print("     ", "  5. ", s);
	if (!strcmp(p->other, "usb-storage"))
		cli_wrap_print("     ", "     ", "If the disk does not come back on usb-storage (a "
			       "bridge without a Bulk-Only interface), it is switched back to uas "
			       "and that is said.");
	if (p->running)
		cli_wrap_print("", "", "Note: this disk holds the running root file system: "
			       "while it is unbound the system cannot read or write it, and "
			       "programs may fail or hang. The experiment runs on it only with "
			       "--running-root; otherwise bench it from another system.");
	if (!p->quirks_loaded)
		cli_wrap_print("", "", "Note: the usb_storage module is not loaded "
			       "(no quirks parameter): load it first (modprobe usb-storage).");
}

/* Back to the first driver; 0 when the disk is there again (said), else EXIT_FAIL (said). */
static int put_back(struct sysroot *sr, const struct flow_uas_try_plan *p)
{
	char why[512] = "", disk[64];
	int ret;

	ret = flow_uas_try_switch(sr, p, p->driver, why, sizeof(why));
	if (ret) {
		log_error("fix: the way back to %s failed: %s; unplug the drive and plug it in "
			  "again", p->driver, why);
		return EXIT_FAIL;
	}
	ret = flow_uas_try_wait(sr, p, p->driver, TRY_WAIT_S, disk, sizeof(disk));
	if (ret) {
		log_error("fix: %s did not come back on %s within %d s: unplug the drive and plug "
			  "it in again", p->interface, p->driver, TRY_WAIT_S);
		return EXIT_FAIL;
	}
	printf("Put back: %s is on %s again as %s; %s is '%s' as before.\n", p->interface,
	       p->driver, disk, PATH_USB_STORAGE_QUIRKS, p->quirks_before);
	return EXIT_OK;
}

/* Both runs (ids: as they were stored) from the store: the figures, the winner. */
static void judge(const struct flow_uas_try_plan *p, const struct fix_try_opts *o,
		  const int64_t ids[2], bool *bot_wins)
{
	struct store *st = NULL;
	double bw[2];
	int ret;

	*bot_wins = false;
	if (cli_store_open("fix", o->db, STORE_READ, false, &st))
		return;
	ret = flow_uas_try_runs(st, p, ids, bw);
	store_close(st);
	if (ret) {
		log_error("fix: the two runs are not in the result store: %s", strerror(-ret));
		return;
	}
	printf("\nLarge sequential reads: %.0f MB/s on %s (run %lld), %.0f MB/s on %s (run "
	       "%lld).\n", bw[0] / 1e6, p->driver, (long long)ids[0], bw[1] / 1e6, p->other,
	       (long long)ids[1]);
	*bot_wins = !strcmp(p->other, "usb-storage") ? bw[1] > bw[0] : bw[0] > bw[1];
	printf("Faster here: %s.\n", (bw[1] > bw[0]) ? p->other : p->driver);
}

int fix_try_run(struct cli_ctx *ctx, const char *dev, const struct fix_try_opts *o,
		bool *apply_uas, struct usb_id *id)
{
	struct flow_uas_try_plan p;
	struct inventory *inv = NULL;
	char why[512] = "", disk[64], names[2][24];
	int64_t ids[2] = { 0, 0 };
	bool bot_wins = false;
	int ret, rc;

	*apply_uas = false;
	ret = probe_inventory_load(ctx->sr, &inv);
	if (ret) {
		log_error("fix: cannot read the block devices: %s", strerror(-ret));
		return EXIT_FAIL;
	}
	ret = flow_uas_try_plan_make(ctx->sr, inv, dev, &p, why, sizeof(why));
	probe_inventory_free(inv);
	if (ret) {
		log_error("fix: --try: %s", why);
		return EXIT_FAIL;
	}
	print_plan(&p, o);
	if (!o->run) {
		cli_wrap_print("", "", "\nDry run: nothing was changed. Run the same command with "
			       "--now to do the experiment (--apply: and write the winner).");
		return EXIT_OK;
	}
	if (p.running && !o->root_ok) {
		log_error("fix: %s holds the running root: not switched without --running-root",
			  p.disk);
		return EXIT_FAIL;
	}
	if (!p.live) {
		log_error("fix: --try switches drivers of the running kernel: not on a --sysroot "
			  "tree");
		return EXIT_FAIL;
	}
	if (!p.quirks_loaded) {
		log_error("fix: the usb_storage module is not loaded: modprobe usb-storage first");
		return EXIT_FAIL;
	}
	try_signal = 0;
	cli_catch_stop_signals(on_signal);
	printf("\n== 1. a quick bench on %s\n", p.driver);
	rc = bench(ctx, p.disk, o->db, &ids[0]);
	if (rc != EXIT_OK || try_signal)
		return rc != EXIT_OK ? rc : 128 + try_signal;
	printf("\n== 2. %s to %s\n", p.interface, p.other);
	ret = flow_uas_try_switch(ctx->sr, &p, p.other, why, sizeof(why));
	if (!ret)
		ret = flow_uas_try_wait(ctx->sr, &p, p.other, TRY_WAIT_S, disk, sizeof(disk));
	if (ret) {
		if (!why[0])
			str_fmt(why, sizeof(why), "no disk appeared on %s within %d s", p.other,
				TRY_WAIT_S);
		printf("%s did not come back on %s: %s.\nSwitching it back to %s.\n", p.disk,
		       p.other, why, p.driver);
		put_back(ctx->sr, &p);
		return EXIT_FAIL;
	}
	printf("%s is on %s as %s.\n", p.interface, p.other, disk);
	printf("\n== 3. the same quick bench on %s\n", p.other);
	rc = try_signal ? 128 + try_signal : bench(ctx, disk, o->db, &ids[1]);
	if (rc == EXIT_OK) {
		struct store_filter f = { 0 };
		char *runs[2] = { names[0], names[1] };

		printf("\n== 4. both runs\n");
		fflush(stdout);
		/* the two runs this experiment stored, not the newest two of the drive */
		str_fmt(names[0], sizeof(names[0]), "%lld", (long long)ids[0]);
		str_fmt(names[1], sizeof(names[1]), "%lld", (long long)ids[1]);
		if (ids[0] && ids[1])
			cli_compare_show(ctx, o->db, runs, 2, &f);
		judge(&p, o, ids, &bot_wins);
	}
	if (o->apply && rc == EXIT_OK && bot_wins && !strcmp(p.other, "usb-storage")) {
		printf("\n== 5. usb-storage won: written into the boot configuration\n");
		*apply_uas = true;
		*id = p.id;
		return EXIT_OK;
	}
	printf("\n== 5. put back\n");
	if (o->apply && rc == EXIT_OK)
		printf("%s won: nothing to write.\n", p.driver);
	ret = put_back(ctx->sr, &p);
	if (rc == EXIT_OK && try_signal)
		rc = 128 + try_signal;
	return rc != EXIT_OK ? rc : ret;
}
