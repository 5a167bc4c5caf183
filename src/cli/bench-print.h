/* bench-print.h - what `bench` says of a run and how it keeps it, shared by `bench` and move's
 * step 1 so that both say and store it alike. */
#ifndef SBCDISK_CLI_BENCH_PRINT_H
#define SBCDISK_CLI_BENCH_PRINT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "bench/bench.h"
#include "cli/cli.h"

/* The progress line of a run (arg): on, when stderr is a terminal; shown, once a line was
 * put (the caller clears it with "\r\033[K"). */
struct cli_bench_progress {
	bool on;
	bool shown;
};
void cli_bench_progress(void *arg, const struct bench_progress *p);

/*
 * Say what became of run (ret of its prepare and execute with why, sig the signal that
 * stopped it, 0 none): what was measured, the judgement of the drive's path, and the run
 * saved in db unless no_save, its id into *saved (0: not saved; saved may be NULL). The exit
 * status: 0, 1, or 128+N for a stop.
 */
int cli_bench_report(struct cli_ctx *ctx, struct bench_run *run, int ret, const char *why,
		     int sig, const char *db, bool no_save, int64_t *saved);

/*
 * A journey's quick bench of path (flow_quick_bench(): move's step 1, the driver experiment,
 * prepare), with bench's progress line, said and stored as bench says and stores a run. stop
 * is the journey's flag, which its own signal handlers set: the run ends, and the exit status
 * is 128+N. time_ns 0: the profile's. The id it was stored as into *saved, as
 * cli_bench_report(). The exit status as bench's.
 */
int cli_quick_bench(struct cli_ctx *ctx, const char *path, uint64_t time_ns,
		    volatile sig_atomic_t *stop, const char *db, bool no_save, int64_t *saved);

#endif
