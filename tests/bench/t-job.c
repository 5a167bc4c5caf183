/* t-job.c - the job runner with the null engine: exact I/O counts and rates from a virtual
 * clock, warm-up left out, sequential and random offsets, limits, thread-per-depth engines. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench/job.h"
#include "t.h"

#define SEC 1000000000ull

struct model {
	uint64_t lat;            /* constant latency, or 0: the uniform one below */
	bool shuffle;            /* the uniform latencies in a scrambled order */
	uint64_t n, writes;
	uint64_t off_min, off_max;
	uint64_t misaligned;
	uint64_t bins[16];
	uint64_t *offs;          /* the first noffs offsets */
	size_t noffs, cap;
	uint64_t region_off, region;
	uint32_t bs;
};

static uint64_t m_lat(void *arg, uint64_t seq, bool write, uint64_t off)
{
	struct model *m = arg;

	(void)write;
	(void)off;
	/* uniform over 10..1009 us, every value as often */
	if (m->shuffle) /* 761 is prime to 1000: each block of 1000 is a permutation */
		seq = seq / 1000 * 1000 + seq % 1000 * 761 % 1000;
	return m->lat ? m->lat : 10000 + (seq % 1000) * 1000;
}

static void m_seen(void *arg, bool write, uint64_t off, uint32_t len)
{
	struct model *m = arg;

	m->n++;
	m->writes += write;
	if (off < m->off_min)
		m->off_min = off;
	if (off + len > m->off_max)
		m->off_max = off + len;
	if ((off - m->region_off) % m->bs)
		m->misaligned++;
	m->bins[(off - m->region_off) * 16 / m->region]++;
	if (m->noffs < m->cap)
		m->offs[m->noffs++] = off;
}

static struct bench_job_result res;

static void job_init(struct bench_job *j, struct model *m, const struct bench_null_model *nm,
		     enum bench_rw rw, uint32_t bs, unsigned qd)
{
	memset(j, 0, sizeof(*j));
	j->ops = &bench_engine_null;
	j->fd = -1;
	j->rw = rw;
	j->bs = bs;
	j->qd = qd;
	j->threads = 1;
	j->region_off = 1 << 20;
	j->region_bytes = 64 << 20;
	j->time_ns = SEC;
	j->seed = 42;
	j->null_model = nm;
	m->off_min = UINT64_MAX;
	m->region_off = j->region_off;
	m->region = j->region_bytes;
	m->bs = bs;
}

int main(void)
{
	static uint64_t offs[100000];
	struct model m = { 0 };
	struct bench_null_model nm = { .lat_ns = m_lat, .seen = m_seen, .arg = &m };
	struct bench_engine_ops threaded;
	struct bench_job j;
	unsigned i;

	/* constant 100 us at QD1 for 1 s: 10000 I/Os, 40.96 MB/s at 4 KiB, all latencies 100 us */
	m = (struct model){ .lat = 100000 };
	job_init(&j, &m, &nm, BENCH_RANDREAD, 4096, 1);
	T_EQ_INT(bench_job_run(&j, &res), 0);
	T_EQ_INT(res.ios, 10000);
	T_EQ_INT(res.bytes, 10000 * 4096);
	T_NEAR(res.bw, 4096.0 * 10000, 1e-6);
	T_EQ_INT(res.window_ns, SEC);
	T_NEAR(hist_quantile(&res.lat, 0.5), 100000, 0.5);
	T_NEAR(hist_mean(&res.lat), 100000, 1e-9);
	T_EQ_INT(res.lat.max, 100000);
	T_EQ_INT(m.misaligned, 0);
	T_CHECK(m.off_min >= j.region_off);
	T_CHECK(m.off_max <= j.region_off + j.region_bytes);
	T_EQ_INT(m.writes, 0);

	/* QD32: 32 times the rate, same latency */
	m = (struct model){ .lat = 100000 };
	job_init(&j, &m, &nm, BENCH_RANDREAD, 4096, 32);
	T_EQ_INT(bench_job_run(&j, &res), 0);
	T_EQ_INT(res.ios, 320000);
	T_NEAR(res.bw, 4096.0 * 320000, 1e-3);

	/* warm-up is run but not counted */
	m = (struct model){ .lat = 100000 };
	job_init(&j, &m, &nm, BENCH_READ, 1 << 20, 8);
	j.ramp_ns = SEC / 2;
	T_EQ_INT(bench_job_run(&j, &res), 0);
	T_EQ_INT(res.ios, 80000);
	T_EQ_INT(m.n, 120000); /* the ramp ran too: 15000 batches of 8 */

	/* a uniform latency distribution: known percentiles within 1 % */
	m = (struct model){ .lat = 0 };
	job_init(&j, &m, &nm, BENCH_RANDWRITE, 4096, 1);
	j.time_ns = 100 * SEC;
	T_EQ_INT(bench_job_run(&j, &res), 0);
	T_CHECK(res.ios > 190000 && res.ios < 200000);
	T_NEAR(hist_quantile(&res.lat, 0.50), 509000, 509000 * 0.01);
	T_NEAR(hist_quantile(&res.lat, 0.90), 909000, 909000 * 0.01);
	T_NEAR(hist_quantile(&res.lat, 0.99), 999000, 999000 * 0.01);
	T_NEAR(hist_mean(&res.lat), 509500, 509500 * 0.01);
	T_EQ_INT(res.lat.min, 10000);
	T_EQ_INT(res.lat.max, 1009000);
	T_EQ_INT(m.writes, m.n);

	/* random offsets: aligned, inside the region, spread evenly over it */
	for (i = 0; i < 16; i++) {
		double expect = (double)res.ios / 16;

		T_CHECK(fabs((double)m.bins[i] - expect) < 0.05 * expect);
	}
	T_EQ_INT(m.misaligned, 0);

	/* QD32 reaps completions in groups of 4. The device's own latency is 509.5 us on average;
	 * what is measured may be late by up to three completion intervals (16 us on average
	 * here: +5 % on the mean), and the queue holds 29..32 I/Os instead of 32 */
	m = (struct model){ .lat = 0, .shuffle = true };
	job_init(&j, &m, &nm, BENCH_RANDREAD, 4096, 32);
	j.time_ns = 20 * SEC;
	T_EQ_INT(bench_job_run(&j, &res), 0);
	T_CHECK(hist_mean(&res.lat) > 509500 * 1.02 && hist_mean(&res.lat) < 509500 * 1.06);
	T_CHECK(res.lat.min >= 10000 && res.lat.max < 1009000 * 1.1);
	T_CHECK(res.ios < 20 * 32 * SEC / 509500 && res.ios > 20 * 32 * SEC / 509500 * 0.94);
	T_NEAR(hist_quantile(&res.lat, 0.50), 509000, 509000 * 0.06);

	/* sequential with a size limit: every block once, in order, then it stops */
	m = (struct model){ .lat = 1000, .offs = offs, .cap = 100000 };
	job_init(&j, &m, &nm, BENCH_WRITE, 65536, 4);
	j.time_ns = 0;
	j.limit_bytes = j.region_bytes;
	T_EQ_INT(bench_job_run(&j, &res), 0);
	T_EQ_INT(m.n, 1024);
	T_EQ_INT(res.ios, 1024);
	T_EQ_INT(res.bytes, j.region_bytes);
	for (i = 0; i < m.noffs; i++)
		T_EQ_INT(offs[i], j.region_off + (uint64_t)i * 65536);
	T_EQ_INT(res.window_ns, 1024 / 4 * 1000);

	/* sequential, time-based: wraps around at the end of the region */
	m = (struct model){ .lat = 1000, .offs = offs, .cap = 3000 };
	job_init(&j, &m, &nm, BENCH_READ, 65536, 1);
	j.time_ns = 3000 * 1000;
	T_EQ_INT(bench_job_run(&j, &res), 0);
	T_EQ_INT(offs[1024], j.region_off);
	T_EQ_INT(offs[1025], j.region_off + 65536);

	/* an engine without its own queue: QD8 is 8 threads of one I/O each */
	threaded = bench_engine_null;
	threaded.queued = false;
	m = (struct model){ .lat = 100000 };
	job_init(&j, &m, &nm, BENCH_RANDREAD, 4096, 8);
	nm.seen = NULL; /* the witness is not thread-safe */
	j.ops = &threaded;
	T_EQ_INT(bench_job_run(&j, &res), 0);
	T_EQ_INT(res.ios, 80000);
	T_NEAR(res.bw, 4096.0 * 80000, 1e-3);
	T_EQ_INT(res.window_ns, SEC);

	/* threads x depth */
	j.ops = &bench_engine_null;
	j.threads = 4;
	T_EQ_INT(bench_job_run(&j, &res), 0);
	T_EQ_INT(res.ios, 4 * 80000);

	/* end_sync: the clock runs on through an fdatasync of the target (fio's end_fsync), whose
	 * failure is the run's; /dev/null takes the writes but cannot be synced */
	{
		char path[] = "/tmp/t-job-sync.XXXXXX";
		int fd = mkstemp(path);
		struct bench_job w = { .ops = &bench_engine_psync, .rw = BENCH_WRITE, .bs = 65536,
				       .qd = 1, .threads = 1, .region_bytes = 1 << 20,
				       .limit_bytes = 1 << 20, .seed = 1, .end_sync = true };

		T_CHECK(fd >= 0);
		unlink(path);
		w.fd = fd;
		T_EQ_INT(bench_job_run(&w, &res), 0);
		T_EQ_INT(res.bytes, 1 << 20);
		T_CHECK(res.sync_ns > 0);
		T_CHECK(res.window_ns > res.sync_ns);
		T_NEAR(res.bw, (double)res.bytes * 1e9 / (double)res.window_ns, 1e-9);
		close(fd);
		fd = open("/dev/null", O_WRONLY);
		w.fd = fd;
		T_EQ_INT(bench_job_run(&w, &res), -EINVAL);
		w.end_sync = false;
		T_EQ_INT(bench_job_run(&w, &res), 0);
		T_EQ_INT(res.sync_ns, 0);
		close(fd);
	}

	/* bad jobs */
	j.bs = 0;
	T_EQ_INT(bench_job_run(&j, &res), -EINVAL);
	j.bs = 4096;
	j.region_bytes = 1024;
	T_EQ_INT(bench_job_run(&j, &res), -EINVAL);
	return t_done();
}
