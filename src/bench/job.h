/* job.h - one run of one test: worker threads, offsets, the measured window and its figures.
 * Domain code: returns 0 or -errno, never prints. */
#ifndef SBCDISK_BENCH_JOB_H
#define SBCDISK_BENCH_JOB_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "bench/engine.h"
#include "bench/hist.h"

enum bench_rw { BENCH_READ, BENCH_WRITE, BENCH_RANDREAD, BENCH_RANDWRITE };

static inline bool bench_rw_is_write(enum bench_rw rw)
{
	return rw == BENCH_WRITE || rw == BENCH_RANDWRITE;
}

static inline bool bench_rw_is_random(enum bench_rw rw)
{
	return rw == BENCH_RANDREAD || rw == BENCH_RANDWRITE;
}

/* Called by the supervising thread about every tick_ns: time since the start (ramp included)
 * and the bytes done so far. Returning true stops the run (the I/O in flight completes). */
typedef bool (*bench_tick_fn)(void *arg, uint64_t elapsed_ns, uint64_t bytes);

struct bench_job {
	const struct bench_engine_ops *ops;
	int fd;
	enum bench_rw rw;
	uint32_t bs;
	unsigned qd;
	unsigned threads;
	uint64_t region_off;   /* I/O stays in [region_off, region_off + region_bytes) */
	uint64_t region_bytes;
	uint64_t ramp_ns;      /* warm-up, not measured */
	uint64_t time_ns;      /* measured time; 0: until limit_bytes */
	uint64_t limit_bytes;  /* stop after this much I/O was issued; 0: none (wraps around) */
	uint64_t seed;
	size_t align;          /* buffer alignment (O_DIRECT) */
	const struct bench_null_model *null_model;
	bench_tick_fn tick;
	void *tick_arg;
	uint64_t tick_ns;      /* 0: 250 ms */
	bool end_sync;         /* fdatasync(fd) after the last I/O, inside the measured window */
	volatile sig_atomic_t *interrupted; /* set by a signal handler: stop now */
};

struct bench_job_result {
	uint64_t ios;          /* measured I/Os */
	uint64_t bytes;        /* measured bytes */
	double bw;             /* bytes/s: the sum over workers of bytes / window */
	uint64_t window_ns;    /* the longest measured window of a worker */
	uint64_t sync_ns;      /* the end_sync's part of it */
	double cpu_user_s;
	double cpu_sys_s;
	bool stopped;          /* ended by a tick, the limit or an interruption before time_ns */
	int error;             /* 0, or -errno of the first failed I/O */
	char engine_desc[96];
	struct hist lat;       /* completion latency, ns */
};

/* Run the job. 0 or -errno (setup failures, and the first I/O error, which also lands in
 * res->error). res is filled as far as it got. */
int bench_job_run(const struct bench_job *job, struct bench_job_result *res);

/* Fill buf with bytes that do not compress and do not repeat (xoshiro-style generator). */
void bench_fill_random(void *buf, size_t len, uint64_t *state);

#endif
