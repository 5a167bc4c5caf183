/* stable.c - when a test's figure is known: the 95 % confidence interval of the mean over its
 * runs, and the trend that marks a drifting drive (docs/early-stop.md gives the reasoning). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/stable.h"

/* Student's t, two-sided 95 %, for 1 to 30 degrees of freedom; 1.96 beyond. */
static const double t95[] = {
	0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074,  2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double bench_t95(unsigned df)
{
	if (!df)
		return INFINITY;
	if (df < sizeof(t95) / sizeof(t95[0]))
		return t95[df];
	return 1.96 + 2.4 / df; /* within 0.1 % of the table's tail */
}

double bench_runs_ci(const double *bw, unsigned n)
{
	double mean = 0, var = 0;
	unsigned i;

	if (n < 2)
		return INFINITY;
	for (i = 0; i < n; i++)
		mean += bw[i];
	mean /= n;
	if (mean <= 0)
		return INFINITY;
	for (i = 0; i < n; i++)
		var += (bw[i] - mean) * (bw[i] - mean);
	var /= n - 1;
	return bench_t95(n - 1) * sqrt(var / n) / mean;
}

/* A step (a throttle that changes, a cache that runs out at once) bends no line much, least of
 * all when it comes early in a run: at some split of the figures, the mean before and the mean
 * after differ by more than BENCH_DRIFT_MIN and, surely, by more than the noise: Student's t
 * over the pooled spread beyond twice its 95 % point (twice: the split is the best of n - 1,
 * not given beforehand). */
static bool step_somewhere(const double *bw, unsigned n, double mean)
{
	unsigned k, i;

	for (k = 1; k < n; k++) {
		double m1 = 0, m2 = 0, ss = 0, sp;

		for (i = 0; i < k; i++)
			m1 += bw[i] / k;
		for (i = k; i < n; i++)
			m2 += bw[i] / (n - k);
		if (fabs(m2 - m1) < BENCH_DRIFT_MIN * mean)
			continue;
		for (i = 0; i < n; i++)
			ss += (bw[i] - (i < k ? m1 : m2)) * (bw[i] - (i < k ? m1 : m2));
		sp = sqrt(ss / (n - 2) * (1.0 / k + 1.0 / (n - k)));
		if (!sp || fabs(m2 - m1) / sp >= 2 * bench_t95(n - 2))
			return true;
	}
	return false;
}

/*
 * A least-squares line through (run, figure). The drive drifts when the line's change over the
 * runs is larger than BENCH_DRIFT_MIN of the mean and the slope is surely not zero: its t
 * statistic beyond the 95 % point with n - 2 degrees of freedom. Noise around a level figure
 * gives a small t; a cache that fills, a drive that heats up, a throttle that changes give a
 * large one; so does a step, by step_somewhere().
 */
int bench_runs_drift(const double *bw, unsigned n, double *change)
{
	double mx = (n - 1) / 2.0, my = 0, sxx = 0, sxy = 0, sse = 0, slope, se;
	unsigned i;

	if (change)
		*change = 0;
	if (n < BENCH_DRIFT_RUNS)
		return 0;
	for (i = 0; i < n; i++)
		my += bw[i];
	my /= n;
	if (my <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		sxx += (i - mx) * (i - mx);
		sxy += (i - mx) * (bw[i] - my);
	}
	slope = sxy / sxx;
	for (i = 0; i < n; i++) {
		double e = bw[i] - (my + slope * (i - mx));

		sse += e * e;
	}
	if (change)
		*change = slope * (n - 1) / my;
	if (fabs(slope * (n - 1)) < BENCH_DRIFT_MIN * my)
		return 0;
	se = sqrt(sse / (n - 2) / sxx);
	if (se > 0 && fabs(slope) / se < bench_t95(n - 2) && !step_somewhere(bw, n, my))
		return 0;
	return slope < 0 ? -1 : 1;
}

/* The least-squares slope of the points [from, to): bytes per ns; 0 with fewer than two. */
static double ls_slope(const uint64_t *t, const uint64_t *b, unsigned from, unsigned to)
{
	double mt = 0, mb = 0, sxx = 0, sxy = 0;
	unsigned j, n = to - from;

	if (n < 2)
		return 0;
	for (j = from; j < to; j++) {
		mt += (double)(t[j] - t[from]) / n;
		mb += (double)(b[j] - b[from]) / n;
	}
	for (j = from; j < to; j++) {
		double dt = (double)(t[j] - t[from]) - mt;

		sxx += dt * dt;
		sxy += dt * ((double)(b[j] - b[from]) - mb);
	}
	return sxx > 0 ? sxy / sxx : 0;
}

/*
 * A run's rate is the least-squares slope of its progress (bytes done against the time), not
 * the bytes between its two ends: a drive that serves I/O in bursts (a throttle's time slices,
 * a controller's batches) puts a step at each end, which moves the ends' figure by up to a
 * burst, while a line through all the points crosses the steps and barely moves. The rate is
 * known when the slopes of the first half of the points and of the second half agree: each is
 * an estimate of the same rate from half the time, so the rate of the whole is nearer to the
 * truth than they are to each other; a drift or a burst not yet evened out keeps them apart.
 */
double bench_progress_rate(const uint64_t *t, const uint64_t *b, unsigned n, double *err)
{
	unsigned h = n / 2;
	double all, s1, s2;

	*err = INFINITY;
	if (n < 5)
		return 0;
	all = ls_slope(t, b, 0, n);
	s1 = ls_slope(t, b, 0, h + 1);
	s2 = ls_slope(t, b, h, n);
	if (all <= 0)
		return 0;
	*err = fabs(s1 - s2) / all;
	return all * 1e9;
}

unsigned bench_progress_rates(const uint64_t *t, const uint64_t *b, unsigned n, uint64_t span,
			      double *rate)
{
	unsigned j, k = 0, from = 0;

	for (j = 1; j < n; j++) {
		uint64_t dt = t[j] - t[from];

		if (dt >= span) {
			rate[k++] = (double)(b[j] - b[from]) * 1e9 / (double)dt;
			from = j;
		}
	}
	return k;
}
