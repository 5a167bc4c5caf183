/* doctor-run.h - what `sbcdisk doctor` and the health check share: read the kernel log and
 * the inventory through the sysroot, hand them to diag, keep the findings. */
#ifndef SBCDISK_CLI_DOCTOR_RUN_H
#define SBCDISK_CLI_DOCTOR_RUN_H

#include "cli/cli.h"
#include "diag/diag.h"
#include "probe/power.h"
#include "probe/probe.h"
#include "report/doctor.h"
#include "store/verdict.h"

struct boot_facts;

/* The newest stored run of one drive of inv.devs, judged as history judges it. */
struct doctor_last_run {
	long long id;      /* 0: no run of it stored (or no store read) */
	bool judged;       /* v is the run's verdict (verdict_run()) */
	struct verdict v;
};
struct boot_checks;

struct doctor_run {
	struct inventory *probe_inv;   /* NULL when the sysroot has no block devices */
	struct diag_inventory inv;
	struct diag_log *log;          /* NULL when no log could be read */
	struct doctor_sources src;
	struct diag_findings findings;
	char log_problem[160];
	char *cmdline, *quirks;
	struct probe_power power;      /* the board's power flags (probe/power.h) */
	struct boot_facts *boot;	 /* the boot layer's facts, NULL when not read */
	struct boot_checks *boot_checks; /* boot check of every disk, NULL when not run */
	struct doctor_last_run *last_runs; /* one per inv.devs, NULL when no store was read */
};

/* kmsg_file: a pasted log ("-" for stdin), or NULL for the system's /dev/kmsg. Prints its own
 * errors ("sbcdisk: CMD: ..."); returns EXIT_OK or EXIT_FAIL. r is released either way by
 * doctor_run_release(). */
int doctor_run_collect(struct cli_ctx *ctx, const char *cmd, const char *kmsg_file,
		       struct doctor_run *r);
void doctor_run_release(struct doctor_run *r);

#endif
