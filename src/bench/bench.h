/* bench.h - a whole benchmark: the profile's tests on a target, repeated, with statistics.
 * struct bench_run is the result document that report/ renders and store/ keeps. */
#ifndef SBCDISK_BENCH_BENCH_H
#define SBCDISK_BENCH_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "bench/hist.h"
#include "bench/profile.h"
#include "bench/target.h"

/* A run-to-run spread above this makes a figure "not stable". */
#define BENCH_CV_WARN 0.10

struct bench_sample {
	double t_s;           /* end of the interval, from the start of the test */
	double bw;            /* bytes/s over the interval */
};

/* What the sustained profile's series says about a fast write cache. */
struct bench_fall {
	bool fell;               /* the rate fell below 80 % of its peak */
	bool settled;            /* ... and held at the lower rate, which ended the test */
	double fast_bw;          /* bytes/s up to the end of the fast part */
	double slow_bw;          /* bytes/s of the last five samples */
	double end_s;            /* the fast part's end, from the start of the test */
	double end_bytes;        /* written by then */
};

struct bench_test_result {
	struct bench_test test;  /* as run: time, runs and size resolved */
	const char *engine;      /* the engine that ran it */
	char engine_detail[96];  /* "io_uring: registered buffers, registered file" */
	bool skipped;
	char skip_reason[120];
	unsigned runs_done;
	double run_bw[BENCH_MAX_RUNS];
	uint64_t ios;
	uint64_t bytes;
	double seconds;          /* measured time, all runs */
	double bw;               /* bytes/s: mean of the runs (best of them for peak/real) */
	double bw_min, bw_max, bw_cv;
	double iops;
	bool unstable;           /* bw_cv > BENCH_CV_WARN */
	double bw_ci;            /* 95 % interval of the mean, ± relative to it; < 0 unknown */
	bool early;              /* the test repeated until its figure was known */
	bool stopped_early;      /* ... and stopped before its limit */
	int drift;               /* -1 falling, +1 rising over the runs, 0 level */
	double drift_change;     /* the fitted change over the runs, relative to the mean */
	double cpu_user_s, cpu_sys_s;
	bool direct;             /* O_DIRECT */
	struct hist lat;         /* all runs */
	bool has_series;         /* sustained profile: the rate over time */
	struct bench_sample *series;
	unsigned nseries;
	struct bench_fall fall;  /* sustained: read from the series */
};

struct bench_check {
	char name[40];           /* "A1 random read" */
	const char *unit;        /* "iops", "MB/s" */
	double required;
	double measured;
	bool has_measured;
	bool pass;
};

#define BENCH_MAX_NOTES 8
#define BENCH_MAX_CHECKS 6

struct bench_opts {
	const char *target;       /* NULL: BENCH_DEFAULT_DIR */
	const char *profile;      /* NULL: "default" */
	struct bench_test custom[BENCH_MAX_TESTS];
	unsigned ncustom;
	unsigned runs;            /* 0: the profile's */
	uint64_t time_ns;         /* 0: the profile's */
	uint64_t interval_ns;
	bool has_interval;
	uint64_t size;            /* 0: the profile's */
	const char *engine;       /* NULL: io_uring if it works, else psync */
	bool destructive;
	const struct bench_null_model *null_model; /* tests */
};

struct bench_progress {
	const char *phase;        /* "preparing" or the test's name */
	const char *rw;
	unsigned run, runs;       /* 1-based */
	bool until_known;         /* runs is the most: the test stops when its figure is known */
	double bw;                /* bytes/s of the last interval */
	double left_s;            /* estimate for this test; < 0 unknown */
	bool settling;            /* hdparm's pause before a disk read: left_s is the pause */
	unsigned attempt;         /* sdcard: the attempt at A1, 1-based, of BENCH_SDCARD_ATTEMPTS */
};

/* Raspberry Pi's SD card test runs its job up to three times and stops at the first run that
 * passes A1; the sdcard profile does the same. */
#define BENCH_SDCARD_ATTEMPTS 3

typedef void (*bench_progress_fn)(void *arg, const struct bench_progress *p);

struct bench_run {
	const struct bench_engine_ops *engine;
	const struct bench_profile *profile; /* NULL for custom tests */
	char profile_name[32];
	struct bench_target target;
	uint64_t file_size;
	time_t started_at;
	unsigned runs;
	uint64_t time_ns;
	uint64_t interval_ns;
	bool early_stop;          /* tests repeat until their figure is known (no --runs) */
	bool file_sized;          /* the test file's size was chosen from the drive's speed */
	unsigned ntests;
	struct bench_test_result *tests;
	unsigned nchecks;
	struct bench_check checks[BENCH_MAX_CHECKS];
	unsigned nnotes;
	char notes[BENCH_MAX_NOTES][200];
	bool interrupted;
	bool done;                /* every test ran */
	unsigned attempt;         /* sdcard: the attempt at A1, 1-based */
	/* set by the caller */
	volatile sig_atomic_t *stop;
	bench_progress_fn progress;
	void *progress_arg;
	const struct bench_null_model *null_model;
};

/* Resolve the options into run (profile, tests, engine). 0, or -EINVAL/-ENOENT with a reason
 * in why (a usage error). */
int bench_run_init(struct bench_run *run, const struct bench_opts *o, char *why, size_t whycap);

/* Open the target and create and fill the test file. 0 or -errno with why. */
int bench_run_prepare(struct bench_run *run, struct sysroot *sr, const struct bench_opts *o,
		      char *why, size_t whycap);

/* Run the tests. 0; -EINTR when *stop was set (the results so far are kept); or -errno of an
 * I/O failure with why ("I/O error on vda"). */
int bench_run_execute(struct bench_run *run, char *why, size_t whycap);

/* The sustained profile's stop rule: the rate fell below 80 % of its peak (*fell stays set)
 * and the last five samples agree within 20 % of their mean; the cache has run out. A sample
 * counts whole blocks of block_bytes, so it cannot tell rates closer than one block over its
 * interval (a card writing 5 blocks a second samples 4, 5, 6): the rule allows one such step
 * on the fall and two on the agreement. */
bool bench_series_settled(const struct bench_sample *s, unsigned n, double block_bytes,
			  bool *fell);
/* Where the fast part of a series that fell ends: the last sample at or above the middle of
 * the peak and the last five samples' mean. f->fell and f->settled are the caller's. */
void bench_series_fall(const struct bench_sample *s, unsigned n, struct bench_fall *f);

/* Close the target (removing the test file) and free the results. */
void bench_run_release(struct bench_run *run);

#endif
