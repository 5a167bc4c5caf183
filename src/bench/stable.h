/* stable.h - the stop rule of a test that repeats until its figure is known, and the drift
 * that keeps it from stopping. Pure functions of the runs' figures: the unit tests call them. */
#ifndef SBCDISK_BENCH_STABLE_H
#define SBCDISK_BENCH_STABLE_H

#include <stdbool.h>
#include <stdint.h>

/* A run of a test that stops early ends when its figure is known to +/-1 % (the rates of the
 * two halves of its progress agree within 1 %), after at least 2 s of measuring;
 * the test then takes no more runs. BENCH_EARLY_POINTS progress points a run at the most. */
#define BENCH_EARLY_CI 0.01
#define BENCH_EARLY_MIN_NS 2000000000ull
#define BENCH_EARLY_POINTS 512
/* A change of more than 2 % over the runs, surely not noise, is a drift; four runs at least. */
#define BENCH_DRIFT_MIN 0.02
#define BENCH_DRIFT_RUNS 4

/* A test file the profile sizes is first written to BENCH_FILL_MIN; it grows to the profile's
 * size only as far as the drive writes in BENCH_FILL_BUDGET_NS. */
#define BENCH_FILL_MIN (256ull << 20)
#define BENCH_FILL_BUDGET_NS 8000000000ull

/* Student's t for a two-sided 95 % interval with df degrees of freedom (INFINITY for 0). */
double bench_t95(unsigned df);

/* The half-width of the 95 % confidence interval of the mean of bw[0..n), relative to the
 * mean; INFINITY with fewer than two runs or no figure. */
double bench_runs_ci(const double *bw, unsigned n);

/* -1 when the figures fall over the runs, +1 when they rise, 0 when they do not drift (or
 * when there are too few to tell). *change (may be NULL): the fitted change over the runs,
 * relative to the mean. */
int bench_runs_drift(const double *bw, unsigned n, double *change);

/* A run's progress: points (t[i] ns, b[i] bytes done), i < n, in time order. Its rate in
 * bytes/s, the least-squares slope (0 with fewer than five points), and in *err how far the
 * slopes of its two halves differ, relative to it (INFINITY when unknown). */
double bench_progress_rate(const uint64_t *t, const uint64_t *b, unsigned n, double *err);

/* The rates (bytes/s) of consecutive spans of at least span ns, into rate[] (room for n);
 * returns how many. */
unsigned bench_progress_rates(const uint64_t *t, const uint64_t *b, unsigned n, uint64_t span,
			      double *rate);

#endif
