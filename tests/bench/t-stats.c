/* t-stats.c - whole runs on the null engine: mean, min, max and spread over runs, the
 * instability flag, best-of profiles, the SD class checks, and the JSON document. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench/bench.h"
#include "report/bench-report.h"
#include "t.h"

struct model {
	uint64_t base;  /* latency of the first run */
	unsigned run;   /* a new engine (seq 0) is a new run */
	bool grow;      /* each run slower than the one before */
	unsigned slow_runs; /* the first runs take `slow` instead */
	uint64_t slow;
};

static uint64_t m_lat(void *arg, uint64_t seq, bool write, uint64_t off)
{
	struct model *m = arg;

	(void)write;
	(void)off;
	if (seq == 0)
		m->run++;
	if (m->run <= m->slow_runs)
		return m->slow;
	return m->grow ? m->base * m->run : m->base;
}

static struct sysroot *sr;
static char dir[] = "/tmp/t-bench-stats.XXXXXX";

static int run_one(struct bench_run *run, struct bench_opts *o)
{
	char why[256] = "";
	int ret;

	o->target = dir;
	o->engine = "null";
	ret = bench_run_init(run, o, why, sizeof(why));
	if (!ret)
		ret = bench_run_prepare(run, sr, o, why, sizeof(why));
	if (!ret)
		ret = bench_run_execute(run, why, sizeof(why));
	if (ret)
		fprintf(stderr, "run: %s (%d)\n", why, ret);
	return ret;
}

int main(void)
{
	static struct bench_opts o;
	struct model m = { .base = 100000, .grow = true };
	struct bench_null_model nm = { .lat_ns = m_lat, .arg = &m };
	struct bench_run run;
	struct json_object *doc, *tests, *t0, *v;
	const struct bench_test_result *r;
	double bw1 = 4096.0 * 10000, mean = 0, var = 0, bws[5];
	char why[160];
	uint64_t ios = 0;
	unsigned i;

	if (!mkdtemp(dir) || sysroot_open(NULL, &sr))
		return 1;

	/* five runs, run i at latency (i+1) * 100 us: rates bw1 / (i+1) */
	memset(&o, 0, sizeof(o));
	T_EQ_INT(bench_test_parse("rw=randread,bs=4k,qd=1,time=1s,runs=5", &o.custom[0], why,
				  sizeof(why)), 0);
	o.ncustom = 1;
	o.size = 16 << 20;
	o.null_model = &nm;
	T_EQ_INT(run_one(&run, &o), 0);
	r = &run.tests[0];
	for (i = 0; i < 5; i++) {
		/* completions at k * lat inside (ramp, ramp + 1 s], the ramp being 0.2 s */
		uint64_t lat = 100000ull * (i + 1);
		uint64_t n = 1200000000ull / lat - 200000000ull / lat;

		bws[i] = 4096.0 * (double)n;
		ios += n;
		mean += bws[i] / 5;
	}
	for (i = 0; i < 5; i++)
		var += (bws[i] - mean) * (bws[i] - mean) / 4;
	T_EQ_INT(r->runs_done, 5);
	for (i = 0; i < 5; i++)
		T_NEAR(r->run_bw[i], bws[i], 1e-3);
	T_NEAR(r->bw, mean, 1e-3);
	T_NEAR(r->bw_min, bws[4], 1e-3);
	T_NEAR(r->bw_max, bw1, 1e-3);
	T_NEAR(r->bw_cv, sqrt(var) / mean, 1e-9);
	T_NEAR(r->iops, mean / 4096, 1e-6);
	T_NEAR(bws[0], bw1, 1e-6);
	T_CHECK(r->unstable);
	T_EQ_INT(r->ios, ios);
	T_EQ_STR(r->engine, "null");
	T_EQ_INT(run.target.kind, BENCH_TARGET_DIR);
	T_CHECK(run.done && !run.interrupted);

	/* the JSON contract */
	doc = bench_result_to_json(&run);
	T_CHECK(doc != NULL);
	T_CHECK(json_object_object_get_ex(doc, "schema", &v) && json_object_get_int(v) == 1);
	T_CHECK(json_object_object_get_ex(doc, "engine", &v) &&
		!strcmp(json_object_get_string(v), "null"));
	T_CHECK(json_object_object_get_ex(doc, "tests", &tests) &&
		json_object_array_length(tests) == 1);
	t0 = json_object_array_get_idx(tests, 0);
	T_CHECK(json_object_object_get_ex(t0, "name", &v) &&
		!strcmp(json_object_get_string(v), "RND4K Q1T1"));
	T_CHECK(json_object_object_get_ex(t0, "bw_bytes_per_s", &v) &&
		llabs(json_object_get_int64(v) - (int64_t)llround(mean)) <= 1);
	T_CHECK(json_object_object_get_ex(t0, "lat_p999_us", &v) &&
		fabs(json_object_get_double(v) - 500.0) <= 5.0);
	T_CHECK(json_object_object_get_ex(t0, "queue_depth", &v) && json_object_get_int(v) == 1);
	T_CHECK(json_object_object_get_ex(doc, "checks", &v) &&
		json_object_array_length(v) == 0);
	json_object_put(doc);
	bench_run_release(&run);
	T_CHECK(access(dir, F_OK) == 0);

	/* peak reports the best run */
	memset(&o, 0, sizeof(o));
	m = (struct model){ .base = 100000, .grow = true };
	o.profile = "peak";
	o.runs = 3;
	o.time_ns = 1000000000ull;
	o.size = 16 << 20;
	o.null_model = &nm;
	T_EQ_INT(run_one(&run, &o), 0);
	T_EQ_INT(run.ntests, 4);
	for (i = 0; i < run.ntests; i++) {
		T_EQ_INT(run.tests[i].runs_done, 3);
		T_NEAR(run.tests[i].bw, run.tests[i].bw_max, 1e-6);
	}
	bench_run_release(&run);

	/* SD classes: 20 ms at QD32 is 1600 IOPS: A1 passes, A2 does not */
	memset(&o, 0, sizeof(o));
	m = (struct model){ .base = 20000000 };
	o.profile = "sdcard";
	o.null_model = &nm;
	T_EQ_INT(run_one(&run, &o), 0);
	T_EQ_INT(run.nchecks, 6);
	for (i = 0; i < run.nchecks; i++) {
		const struct bench_check *c = &run.checks[i];

		T_CHECK(c->has_measured);
		if (!strcmp(c->unit, "iops"))
			T_NEAR(c->measured, 1600, 1);
		T_EQ_INT(c->pass, c->name[1] == '1' || strstr(c->name, "sequential") != NULL);
	}
	T_EQ_INT(m.run, 4); /* passed A1 at once: one attempt of four tests */
	T_EQ_INT(run.nnotes, 0);
	bench_run_release(&run);

	/* like Raspberry Pi's SD card test, up to three attempts until A1 passes: the first
	 * attempt's four tests at 100 ms (320 IOPS) fail, the second passes */
	memset(&o, 0, sizeof(o));
	m = (struct model){ .base = 20000000, .slow_runs = 4, .slow = 100000000 };
	o.profile = "sdcard";
	o.null_model = &nm;
	T_EQ_INT(run_one(&run, &o), 0);
	T_EQ_INT(m.run, 8);
	T_CHECK(run.checks[0].pass && run.checks[1].pass && run.checks[2].pass);
	T_NEAR(run.checks[0].measured, 1600, 1);
	T_EQ_INT(run.tests[3].runs_done, 1); /* the figures are the passing attempt's alone */
	T_EQ_INT(run.nnotes, 1);
	T_CHECK(strstr(run.notes[0], "A1 passed on attempt 2") != NULL);
	bench_run_release(&run);
	/* never passing: three attempts, then the last one's figures */
	m = (struct model){ .base = 100000000 };
	T_EQ_INT(run_one(&run, &o), 0);
	T_EQ_INT(m.run, 12);
	T_CHECK(!run.checks[0].pass && !run.checks[1].pass);
	T_NEAR(run.checks[0].measured, 320, 1);
	T_EQ_INT(run.tests[3].runs_done, 1);
	T_CHECK(run.nnotes == 1 && strstr(run.notes[0], "A1 not passed in 3 attempts") != NULL);
	bench_run_release(&run);

	/* sustained: a fast cache, then a slower steady rate */
	{
		struct bench_sample s[40];
		bool fell = false;
		unsigned n;

		for (n = 0; n < 40; n++) {
			s[n].t_s = n + 1;
			s[n].bw = n < 15 ? 400e6 : 100e6 + (n % 2) * 5e6;
		}
		for (n = 1; n <= 40; n++)
			if (bench_series_settled(s, n, 0, &fell))
				break;
		T_EQ_INT(n, 20); /* five slow samples after the fall */
		T_CHECK(fell);
		fell = false;
		for (n = 0; n < 40; n++)
			s[n].bw = 200e6 + (n % 3) * 10e6; /* steady from the start: never "fell" */
		T_CHECK(!bench_series_settled(s, 40, 0, &fell));
		T_CHECK(!fell);
		for (n = 0; n < 40; n++)
			s[n].bw = n < 10 ? 400e6 : (n % 2 ? 50e6 : 150e6); /* fell, but erratic */
		T_CHECK(!bench_series_settled(s, 40, 0, &fell));

		/* a slow card, 1 MiB blocks sampled each second: 20 a second, then 4 to 6; whole
		 * blocks per sample spread by two steps, which is agreement at this resolution */
		const double mib = 1048576;
		static const int slow[] = { 5, 4, 6, 5, 4, 5, 6, 4, 5, 5 };

		fell = false;
		for (n = 0; n < 40; n++)
			s[n].bw = (n < 5 ? 20 : slow[n % 10]) * mib;
		for (n = 1; n <= 40; n++)
			if (bench_series_settled(s, n, mib, &fell))
				break;
		T_EQ_INT(n, 10);
		T_CHECK(!bench_series_settled(s, 10, 0, &fell)); /* without the step: never */
		/* a steady 2 blocks a second with the odd 3 has not fallen: one step is noise */
		fell = false;
		for (n = 0; n < 40; n++)
			s[n].bw = (n % 7 ? 2 : 3) * mib;
		T_CHECK(!bench_series_settled(s, 40, mib, &fell));
		T_CHECK(!fell);
		T_CHECK(bench_series_settled(s, 40, 0, &fell) || fell); /* which 20 % alone misreads */

		/* where the fast part ends: 15 s at 400 MB/s (6 GB), then about 100 MB/s */
		struct bench_fall fall;

		for (n = 0; n < 40; n++)
			s[n].bw = n < 15 ? 400e6 : 100e6 + (n % 2) * 5e6;
		bench_series_fall(s, 20, &fall);
		T_NEAR(fall.end_s, 15, 1e-9);
		T_NEAR(fall.end_bytes, 6e9, 1);
		T_NEAR(fall.fast_bw, 400e6, 1e-3);
		T_NEAR(fall.slow_bw, 103e6, 1e-3); /* 105, 100, 105, 100, 105 */
		s[17].bw = 300e6; /* a burst after the fall ends the fast part there */
		bench_series_fall(s, 20, &fall);
		T_NEAR(fall.end_s, 18, 1e-9);
		bench_series_fall(s, 0, &fall);
		T_NEAR(fall.end_bytes, 0, 0);
	}

	rmdir(dir);
	sysroot_free(sr);
	return t_done();
}
