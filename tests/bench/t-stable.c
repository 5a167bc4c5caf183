/* t-stable.c - the early stop's arithmetic: Student's t, the interval over runs, the error of
 * a run's rate from its progress, the rates of its seconds, and the drift that keeps a test
 * from stopping. */
#include <ctype.h>
#include <math.h>

#include "bench/bench.h"
#include "bench/stable.h"
#include "common/util.h"
#include "report/bench-report.h"
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

/* A latency of seconds (an SD card that stalls) fills a column of 9 with 4770876.5 and runs
 * into its neighbour: no row may show two figures one space apart. */
static void test_wide_latency(void)
{
	static struct bench_test_result r;
	struct bench_run run = { 0 };
	char *buf = NULL, *row;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	unsigned i;

	T_MUST(!f);
	hist_init(&r.lat);
	for (i = 0; i < 100; i++)
		hist_add(&r.lat, i < 90 ? 5200000ull : 4770876500ull + i * 100000000ull);
	r.test = (struct bench_test){ .name = "RND4K Q32T1", .rw = BENCH_RANDWRITE, .bs = 4096,
				      .qd = 32, .threads = 1, .runs = 1 };
	r.runs_done = 1;
	r.run_bw[0] = r.bw = r.bw_min = r.bw_max = 400000;
	r.iops = 97.7;
	r.seconds = 10;
	r.bw_ci = -1;
	run.engine = &bench_engine_null;
	run.tests = &r;
	run.ntests = 1;
	run.runs = 1;
	str_copy(run.profile_name, sizeof(run.profile_name), "sdcard");
	T_EQ_INT(bench_table_print(&run, f), 0);
	fclose(f);
	row = strstr(buf, "\nRND4K Q32T1");
	T_CHECK(row != NULL);
	for (; row && *row && row[1] != '\n'; row++)
		if (isdigit((unsigned char)row[0]) && row[1] == ' ' && isdigit((unsigned char)row[2]))
			T_CHECK(!"two figures one space apart");
	free(buf);
}

int main(void)
{
	static uint64_t t[64], b[64];
	double level[5] = { 100, 100.5, 99.5, 100.2, 99.8 }, rates[64], change;
	double falling[6] = { 400, 380, 360, 330, 310, 300 }, step[5] = { 40, 40, 20, 20, 20 };
	double rising[6] = { 300, 310, 330, 360, 380, 400 };
	double noisy[6] = { 100, 103, 97, 101, 99, 100 };
	double early_step[5] = { 175, 87.5, 87.4, 87.6, 87.5 }, early_noisy[5] = { 104, 99, 101, 98, 100 };
	double jit[4] = { 0, 2e5, -2e5, 1e5 };
	double noise[9] = { 1, 0.7, 1.25, 0.8, 1.0, 1.4, 0.6, 1.2, 0.9 };
	unsigned n, i;
	double err;

	/* Student's t at the table's ends and beyond it */
	T_NEAR(bench_t95(1), 12.706, 1e-9);
	T_NEAR(bench_t95(4), 2.776, 1e-9);
	T_NEAR(bench_t95(30), 2.042, 1e-9);
	T_NEAR(bench_t95(200), 1.972, 0.002);
	T_CHECK(isinf(bench_t95(0)));

	/* the interval over runs: t(4) * s / sqrt(5) / mean */
	T_NEAR(bench_runs_ci(level, 5), 2.776 * sqrt(0.145) / sqrt(5) / 100, 1e-6);
	T_CHECK(isinf(bench_runs_ci(level, 1)));

	/* a steady rate: its rate, no error */
	n = progress(t, b, 21, 100e6, NULL, 0);
	T_NEAR(bench_progress_rate(t, b, n, &err), 100e6, 1);
	T_NEAR(err, 0, 1e-9);
	/* jitter of 0.2 MB around 100 MB/s over 5 s: known within 1 % */
	n = progress(t, b, 21, 100e6, jit, 4);
	T_NEAR(bench_progress_rate(t, b, n, &err), 100e6, 0.5e6);
	T_CHECK(err < 0.01 && err > 0);
	/* a throttle's staircase: 1 MB every 100 ms (10 MB/s), points every 270 ms: the line
	 * through the steps is within 0.5 % where the two ends alone are 1.2 % off; after 3.2 s
	 * its halves still differ by more than 1 %, after 10.8 s no longer */
	for (i = 0; i < 41; i++) {
		t[i] = i * 270000000ull + SEC / 20;
		b[i] = (uint64_t)((t[i] / (SEC / 10)) + 1) * 1000000ull;
	}
	T_NEAR(bench_progress_rate(t, b, 13, &err), 10e6, 0.05e6);
	T_CHECK(err > 0.01);
	T_CHECK(fabs((double)(b[12] - b[0]) * 1e9 / (double)(t[12] - t[0]) - 10e6) > 0.01 * 10e6);
	T_NEAR(bench_progress_rate(t, b, 41, &err), 10e6, 0.02e6);
	T_CHECK(err < 0.01);
	/* noise of +/-30 % each 250 ms around 20 MB/s, 2 s: not known */
	for (i = 0, b[0] = 0; i < 9; i++) {
		t[i] = i * (SEC / 4);
		if (i)
			b[i] = b[i - 1] + (uint64_t)(5e6 * noise[i]);
	}
	bench_progress_rate(t, b, 9, &err);
	T_CHECK(err > 0.03);
	/* a step down in the middle (a cache that ran out): the halves differ */
	for (i = 0; i < 21; i++) {
		t[i] = i * (SEC / 4);
		b[i] = i <= 10 ? i * 25000000ull : 250000000ull + (i - 10) * 12500000ull;
	}
	bench_progress_rate(t, b, 21, &err);
	T_CHECK(err > 0.3);
	T_NEAR(bench_progress_rate(t, b, 4, &err), 0, 0);
	T_CHECK(isinf(err));

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
	/* a throttle halved a second into the run: one second fast, four slow; the line through
	 * them is no sure slope, nor are the halves (2 and 3 seconds) surely apart */
	T_EQ_INT(bench_runs_drift(early_step, 5, &change), -1);
	T_EQ_INT(bench_runs_drift(early_noisy, 5, NULL), 0);
	T_EQ_INT(bench_runs_drift(rising, 6, &change), 1);
	T_CHECK(change > 0.2);
	test_wide_latency();
	return t_done();
}
