/* bench-step.h - a quick bench of one disk as a step of a journey (move's step 1, the driver
 * experiment's two benches, prepare's last step): the domain's bench run, not the command. */
#ifndef SBCDISK_FLOW_BENCH_STEP_H
#define SBCDISK_FLOW_BENCH_STEP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/bench.h"
#include "common/sysroot.h"

struct flow_bench_step {
	uint64_t time_ns;		/* each run's measured time, 0 the profile's */
	volatile sig_atomic_t *stop;	/* the journey's stop flag: set, the run ends */
	bench_progress_fn progress;	/* NULL: no progress */
	void *progress_arg;
};

/*
 * bench's quick profile on path (a block device: read only; a directory: a test file made and
 * removed). run is initialised here (also on failure, the results so far kept); the caller
 * shows and stores it and releases it with bench_run_release(). 0; -EINTR when *stop was set;
 * -EINVAL (bench_run_init()'s refusal) or another -errno with why.
 */
int flow_quick_bench(struct sysroot *sr, const char *path, const struct flow_bench_step *s,
		     struct bench_run *run, char *why, size_t cap);

#endif
