/* t-stable.c - the early stop's arithmetic: Student's t, the interval over runs, the error of
 * a run's rate from its progress, the rates of its seconds, and the drift that keeps a test
 * from stopping. */
#include <math.h>

#include "bench/stable.h"
#include "t.h"

#define SEC 1000000000ull

/* n points every 250 ms of a drive at rate bytes/s, each point off its line by jitter[i % k] */
static unsigned progress(uint64_t *t, uint64_t *b, unsigned n, double rate, const double *jit,
			 unsigned k)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		t[i] = i * (SEC / 4);
		b[i] = (uint64_t)(rate * (double)t[i] / 1e9 + (k ? jit[i % k] : 0));
	}
	return n;
}

int main(void)
{
	static uint64_t t[64], b[64];
	double level[5] = { 100, 100.5, 99.5, 100.2, 99.8 }, rates[64], change;
	double falling[6] = { 400, 380, 360, 330, 310, 300 }, step[5] = { 40, 40, 20, 20, 20 };
	double rising[6] = { 300, 310, 330, 360, 380, 400 };
	double noisy[6] = { 100, 103, 97, 101, 99, 100 };
	double jit[4] = { 0, 2e5, -2e5, 1e5 }, big[2] = { 0, 4e6 };
	unsigned n;

	/* Student's t at the table's ends and beyond it */
	T_NEAR(bench_t95(1), 12.706, 1e-9);
	T_NEAR(bench_t95(4), 2.776, 1e-9);
	T_NEAR(bench_t95(30), 2.042, 1e-9);
	T_NEAR(bench_t95(200), 1.972, 0.002);
	T_CHECK(isinf(bench_t95(0)));

	/* the interval over runs: t(4) * s / sqrt(5) / mean */
	T_NEAR(bench_runs_ci(level, 5), 2.776 * sqrt(0.145) / sqrt(5) / 100, 1e-6);
	T_CHECK(isinf(bench_runs_ci(level, 1)));

	/* a steady rate: no error at all; jitter of 0.2 MB around 100 MB/s over 5 s: small */
	n = progress(t, b, 21, 100e6, NULL, 0);
	T_NEAR(bench_progress_error(t, b, n), 0, 1e-6);
	n = progress(t, b, 21, 100e6, jit, 4);
	T_CHECK(bench_progress_error(t, b, n) < 0.01);
	T_CHECK(bench_progress_error(t, b, n) > 0.0005);
	/* bursts of 4 MB (a throttle's time slices) around 20 MB/s over 2 s: not known */
	n = progress(t, b, 9, 20e6, big, 2);
	T_CHECK(bench_progress_error(t, b, n) > 0.01);
	/* the same bursts over 15 s: the error shrinks with the time */
	n = progress(t, b, 61, 20e6, big, 2);
	T_CHECK(bench_progress_error(t, b, n) < bench_progress_error(t, b, 9));
	T_CHECK(isinf(bench_progress_error(t, b, 2)));

	/* the rates of whole seconds: 21 points of 250 ms are 5 seconds */
	n = progress(t, b, 21, 100e6, NULL, 0);
	T_EQ_INT(bench_progress_rates(t, b, n, SEC, rates), 5);
	T_NEAR(rates[0], 100e6, 1);
	T_NEAR(rates[4], 100e6, 1);

	/* drift: level and noisy runs do not drift; a falling rate and a step down do */
	T_EQ_INT(bench_runs_drift(level, 5, &change), 0);
	T_EQ_INT(bench_runs_drift(noisy, 6, NULL), 0);
	T_EQ_INT(bench_runs_drift(falling, 6, &change), -1);
	T_CHECK(change < -0.2 && change > -0.35);
	T_EQ_INT(bench_runs_drift(step, 5, &change), -1);
	T_EQ_INT(bench_runs_drift(step, 3, NULL), 0); /* too few to tell */
	T_EQ_INT(bench_runs_drift(rising, 6, &change), 1);
	T_CHECK(change > 0.2);
	return t_done();
}
