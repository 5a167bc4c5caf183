/* bench.c - runs a profile's tests on a target: prepares the test file, repeats each test,
 * drops the page cache where a test reads through it, and turns runs into statistics. */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/stable.h"
#include "common/util.h"

#define SEC 1000000000ull
#define MiB 1048576ull

static uint64_t ramp_for(uint64_t time_ns)
{
	uint64_t r = time_ns / 5;

	return r > SEC ? SEC : r;
}

static bool run_stopped(const struct bench_run *run)
{
	return run->stop && *run->stop;
}

static void run_note(struct bench_run *run, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void run_note(struct bench_run *run, const char *fmt, ...)
{
	char buf[200];
	va_list ap;
	unsigned i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	str_sanitize(buf); /* the cut at 200 bytes may split a character */
	for (i = 0; i < run->nnotes; i++)
		if (!strcmp(run->notes[i], buf))
			return;
	if (run->nnotes < BENCH_MAX_NOTES)
		str_copy(run->notes[run->nnotes++], sizeof(run->notes[0]), buf);
}

/*
 * What a test costs before it measures anything: the psync engine runs one thread per queued
 * I/O (qd 64 × threads 64 made 4096 threads, 15.9 s and 378 MB for a 200 ms test), and every
 * engine keeps qd × threads × bs of buffers. Both have a limit, said in the user's terms.
 */
static int run_check_cost(const struct bench_run *run, char *why, size_t whycap)
{
	unsigned i;

	for (i = 0; i < run->ntests; i++) {
		const struct bench_test *t = &run->tests[i].test;
		const struct bench_engine_ops *e = t->sync_engine && run->engine != &bench_engine_null ?
						       &bench_engine_psync : run->engine;
		uint64_t workers = e->queued ? t->threads : (uint64_t)t->threads * t->qd;
		uint64_t bytes = (uint64_t)t->threads * t->qd * t->bs;

		if (workers > BENCH_MAX_WORKERS) {
			str_fmt(why, whycap, "test '%s' needs %llu threads with the %s engine (one "
				"per queued I/O: qd %u x threads %u); at most %d: lower qd or threads",
				t->name, (unsigned long long)workers, e->name, t->qd, t->threads,
				BENCH_MAX_WORKERS);
			return -EINVAL;
		}
		if (bytes > BENCH_MAX_INFLIGHT_BYTES) {
			str_fmt(why, whycap, "test '%s' keeps %llu MiB in flight (qd %u x threads %u "
				"x bs); at most %llu MiB: lower qd, threads or bs", t->name,
				(unsigned long long)(bytes >> 20), t->qd, t->threads,
				(unsigned long long)(BENCH_MAX_INFLIGHT_BYTES >> 20));
			return -EINVAL;
		}
	}
	return 0;
}

int bench_run_init(struct bench_run *run, const struct bench_opts *o, char *why, size_t whycap)
{
	const struct bench_test *src;
	bool same_runs = true, same_time = true, all_sync;
	unsigned i, n;
	int ret;

	memset(run, 0, sizeof(*run));
	run->target.fd_direct = run->target.fd_buffered = -1;
	if (o->engine) {
		run->engine = bench_engine_find(o->engine);
		if (!run->engine) {
			str_fmt(why, whycap, "unknown engine '%s' (%s)", o->engine,
				bench_engine_names());
			return -EINVAL;
		}
		ret = run->engine->probe();
		if (ret) {
			bench_engine_why_not(run->engine, ret, why, whycap);
			return ret;
		}
	} else {
		char no_uring[96];

		run->engine = bench_engine_pick(no_uring, sizeof(no_uring));
		if (no_uring[0])
			run_note(run, "%s: the psync engine measures instead", no_uring);
	}
	if (o->ncustom) {
		str_copy(run->profile_name, sizeof(run->profile_name), "custom");
		src = o->custom;
		n = o->ncustom;
		run->runs = o->runs ? o->runs : 1;
		run->time_ns = o->time_ns ? o->time_ns : 5 * SEC;
		run->interval_ns = o->interval_ns;
		run->file_size = o->size ? o->size : 1024 * MiB;
		for (i = 0; i < n; i++)
			if (src[i].size > run->file_size)
				run->file_size = src[i].size;
	} else {
		run->profile = bench_profile_find(o->profile ? o->profile : "default");
		if (!run->profile) {
			str_fmt(why, whycap, "unknown profile '%s' (see --profile help)", o->profile);
			return -EINVAL;
		}
		str_copy(run->profile_name, sizeof(run->profile_name), run->profile->name);
		src = run->profile->tests;
		n = run->profile->ntests;
		run->runs = o->runs ? o->runs : run->profile->runs;
		run->time_ns = o->time_ns ? o->time_ns : run->profile->time_ns;
		run->interval_ns = o->has_interval ? o->interval_ns : run->profile->interval_ns;
		run->file_size = o->size ? o->size : run->profile->file_size;
		/* The fixed schedule is one option away: --runs N runs every test N times. A best-of
		 * profile's figure is its best run, which more and shorter runs would change. */
		run->early_stop = !o->runs && run->profile->kind == BENCH_PROFILE_PLAIN &&
				  !run->profile->best_of;
		run->file_sized = !o->size;
	}
	run->tests = calloc(n, sizeof(*run->tests));
	if (!run->tests)
		return -ENOMEM;
	run->ntests = n;
	/* One series, one cache to run out: a second pass would write over what the first left
	 * in the drive's cache, and its samples would join the first's. */
	if (run->profile && run->profile->kind == BENCH_PROFILE_SUSTAINED && run->runs > 1) {
		run_note(run, "the sustained profile writes once: --runs does not apply");
		run->runs = 1;
	}
	for (i = 0; i < n; i++) {
		struct bench_test *t = &run->tests[i].test;

		*t = src[i];
		if (!t->runs)
			t->runs = run->runs;
		if (!t->time_ns && !t->size_based)
			t->time_ns = run->time_ns;
		hist_init(&run->tests[i].lat);
	}
	/* Custom tests may each set time= and runs=; where they all agree, so does the run. */
	for (i = 1; i < n; i++) {
		same_runs &= run->tests[i].test.runs == run->tests[0].test.runs;
		same_time &= run->tests[i].test.time_ns == run->tests[0].test.time_ns;
	}
	if (n && same_runs)
		run->runs = run->tests[0].test.runs;
	if (n && same_time && run->tests[0].test.time_ns)
		run->time_ns = run->tests[0].test.time_ns;
	/* The run names the engine that runs its tests: hdparm's reads are read(2), whatever
	 * engine would have been picked. */
	all_sync = n > 0;
	for (i = 0; i < n; i++)
		all_sync &= run->tests[i].test.sync_engine;
	if (all_sync && run->engine != &bench_engine_null && run->engine != &bench_engine_psync) {
		if (o->engine)
			run_note(run, "the %s profile reads with read(2) as hdparm does: --engine %s "
				 "does not apply", run->profile_name, run->engine->name);
		run->engine = &bench_engine_psync;
	}
	ret = run_check_cost(run, why, whycap);
	if (ret)
		return ret;
	run->null_model = o->null_model;
	run->started_at = time(NULL);
	return 0;
}

static bool run_has_writes(const struct bench_run *run)
{
	unsigned i;

	for (i = 0; i < run->ntests; i++)
		if (bench_rw_is_write(run->tests[i].test.rw))
			return true;
	return false;
}

static bool run_reads_file(const struct bench_run *run)
{
	unsigned i;

	for (i = 0; i < run->ntests; i++)
		if (!bench_rw_is_write(run->tests[i].test.rw))
			return true;
	return false;
}

struct tick_ctx {
	struct bench_run *run;
	struct bench_test_result *r;
	const char *phase;
	unsigned runi;
	bool until_known;        /* the run ends when its figure is known (early stop) */
	bool known;              /* ... and it was */
	double rate;             /* bytes/s: the slope of the progress since the warm-up */
	double band;             /* how far the slopes of its two halves differ, relative */
	uint64_t ramp_ns;
	unsigned npts;           /* progress points after the warm-up: (time, bytes) */
	uint64_t pt_ns[BENCH_EARLY_POINTS], pt_bytes[BENCH_EARLY_POINTS];
	uint64_t total_ns;       /* ramp + time; 0 when size-based */
	uint64_t limit;          /* size-based: bytes */
	uint64_t last_bytes;
	uint64_t last_ns;
	uint64_t sample_ns;      /* sustained: shortest series interval; 0 none */
	uint64_t sample_at;      /* the last sample's time */
	uint64_t sample_bytes;
	bool fell;
};

bool bench_series_settled(const struct bench_sample *s, unsigned n, double block_bytes,
			  bool *fell)
{
	double mean = 0, lo = INFINITY, hi = 0, peak = 0, step = 0;
	unsigned i, k = 5;

	if (n < 10)
		return false;
	for (i = 0; i < n; i++)
		peak = fmax(peak, s[i].bw);
	for (i = n - k; i < n; i++) {
		double dt = s[i].t_s - s[i - 1].t_s;

		mean += s[i].bw / k;
		lo = fmin(lo, s[i].bw);
		hi = fmax(hi, s[i].bw);
		if (dt > 0)
			step = fmax(step, block_bytes / dt);
	}
	if (peak - mean > 0.2 * peak + step)
		*fell = true;
	return *fell && mean > 0 && hi - lo <= 0.2 * mean + 2 * step;
}

void bench_series_fall(const struct bench_sample *s, unsigned n, struct bench_fall *f)
{
	double peak = 0, mid, prev = 0;
	unsigned i, j = 0, k = n < 5 ? n : 5;

	f->fast_bw = f->slow_bw = f->end_s = f->end_bytes = 0;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		peak = fmax(peak, s[i].bw);
	for (i = n - k; i < n; i++)
		f->slow_bw += s[i].bw / k;
	mid = (peak + f->slow_bw) / 2;
	for (i = 0; i < n; i++)
		if (s[i].bw >= mid)
			j = i;
	for (i = 0; i <= j; i++) {
		f->end_bytes += s[i].bw * (s[i].t_s - prev);
		prev = s[i].t_s;
	}
	f->end_s = s[j].t_s;
	f->fast_bw = f->end_s > 0 ? f->end_bytes / f->end_s : 0;
}

static bool sample_add(struct tick_ctx *c, uint64_t elapsed_ns, uint64_t bytes)
{
	struct bench_test_result *r = c->r;
	struct bench_sample *s;
	double bw = (double)(bytes - c->sample_bytes) * 1e9 / (double)(elapsed_ns - c->sample_at);

	if (r->nseries >= 86400)
		return false;
	s = realloc(r->series, (r->nseries + 1) * sizeof(*s));
	if (!s)
		return false;
	r->series = s;
	s[r->nseries].t_s = (double)elapsed_ns / 1e9;
	s[r->nseries].bw = bw;
	r->nseries++;
	c->sample_bytes = bytes;
	c->sample_at = elapsed_ns;
	return bench_series_settled(r->series, r->nseries, r->test.bs, &c->fell);
}

/* The early stop's rule on one run's progress from the end of its warm-up: its figure is
 * known when bench_progress_rate()'s two halves agree within BENCH_EARLY_CI. */
static bool early_point(struct tick_ctx *c, uint64_t elapsed_ns, uint64_t bytes)
{
	uint64_t t;

	if (c->known)
		return true; /* the I/O in flight is ending: the figure was judged already */
	if (elapsed_ns < c->ramp_ns)
		return false;
	if (c->npts < BENCH_EARLY_POINTS) {
		c->pt_ns[c->npts] = elapsed_ns;
		c->pt_bytes[c->npts++] = bytes;
	} else {
		c->pt_ns[BENCH_EARLY_POINTS - 1] = elapsed_ns; /* the last point moves on */
		c->pt_bytes[BENCH_EARLY_POINTS - 1] = bytes;
	}
	t = c->pt_ns[c->npts - 1] - c->pt_ns[0];
	if (c->npts < 3 || t < BENCH_EARLY_MIN_NS)
		return false;
	c->rate = bench_progress_rate(c->pt_ns, c->pt_bytes, c->npts, &c->band);
	return c->rate > 0 && c->band <= BENCH_EARLY_CI;
}

/* After a run of a test that stops early: the rate of each second of the run tells a drift;
 * a run whose figure was known, with no drift, ends the test. */
static void early_after_run(struct bench_test_result *r, const struct tick_ctx *c)
{
	double sec[BENCH_EARLY_POINTS];
	unsigned n = bench_progress_rates(c->pt_ns, c->pt_bytes, c->npts, 1000000000ull, sec);

	if (!r->drift)
		r->drift = bench_runs_drift(sec, n, &r->drift_change);
	if (c->known && !r->drift && r->runs_done) {
		r->stopped_early = true;
		r->bw_ci = c->band;
		r->run_bw[r->runs_done - 1] = c->rate; /* the figure whose error was judged */
	}
}

static bool job_tick(void *arg, uint64_t elapsed_ns, uint64_t bytes)
{
	struct tick_ctx *c = arg;
	struct bench_progress p = {
		.phase = c->phase,
		.rw = bench_rw_name(c->r->test.rw),
		.run = c->runi + 1,
		.runs = c->r->test.runs,
		.until_known = c->until_known,
		.attempt = c->run->attempt,
		.left_s = -1,
	};
	bool stop = false;

	if (elapsed_ns > c->last_ns)
		p.bw = (double)(bytes - c->last_bytes) * 1e9 / (double)(elapsed_ns - c->last_ns);
	c->last_bytes = bytes;
	c->last_ns = elapsed_ns;
	if (c->total_ns)
		p.left_s = elapsed_ns < c->total_ns ? (double)(c->total_ns - elapsed_ns) / 1e9 : 0;
	else if (c->limit && p.bw > 0)
		p.left_s = (double)(c->limit > bytes ? c->limit - bytes : 0) / p.bw;
	/* A sample spans a second, or longer until it holds 16 blocks (8 s at most): a slow
	 * card's second holds a handful of 1 MiB writes, too few to tell its rate from noise. */
	if (c->sample_ns && elapsed_ns >= c->sample_at + c->sample_ns &&
	    (bytes - c->sample_bytes >= 16ull * c->r->test.bs ||
	     elapsed_ns >= c->sample_at + 8 * c->sample_ns))
		stop = sample_add(c, elapsed_ns, bytes);
	if (c->until_known && early_point(c, elapsed_ns, bytes))
		stop = c->known = true;
	if (c->run->progress)
		c->run->progress(c->run->progress_arg, &p);
	return stop;
}

/* One sequential pass of incompressible data over [off, off + len) of the test file. */
static int fill_range(struct bench_run *run, struct bench_test_result *r,
		      struct bench_job_result *jr, uint64_t off, uint64_t len)
{
	struct bench_target *t = &run->target;
	struct tick_ctx c = { .run = run, .r = r, .phase = "preparing", .limit = len };
	struct bench_job job = {
		.ops = run->engine,
		.fd = t->fd_direct >= 0 ? t->fd_direct : t->fd_buffered,
		.rw = BENCH_WRITE,
		.bs = MiB,
		.qd = 4,
		.threads = 1,
		.region_off = off,
		.region_bytes = len,
		.limit_bytes = len,
		.seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() ^ off,
		.align = t->align,
		.tick = job_tick,
		.tick_arg = &c,
		.interrupted = run->stop,
	};
	int ret;

	while (job.bs > t->align && (len % job.bs || off % job.bs))
		job.bs >>= 1; /* every byte once: the block divides the range */
	if (!run->engine->queued)
		job.qd = 1; /* psync: one writer keeps the file sequential */
	memset(jr, 0, sizeof(*jr));
	ret = bench_job_run(&job, jr);
	if (!ret && run_stopped(run))
		ret = -EINTR;
	return ret;
}

/*
 * Write the test file once with incompressible data, so reads read real blocks. Where the
 * profile chose the size, the file is made no larger than the drive can write in
 * BENCH_FILL_BUDGET_NS: the first BENCH_FILL_MIN tell its speed, and a slow card gets a file
 * of BENCH_FILL_MIN (the size of Raspberry Pi's SD card test) instead of a minute of writing.
 */
static int run_fill(struct bench_run *run, char *why, size_t whycap)
{
	struct bench_target *t = &run->target;
	struct bench_test_result *r = calloc(1, sizeof(*r));
	struct bench_job_result *jr = calloc(1, sizeof(*jr));
	uint64_t first = t->size, want = t->size;
	int ret;

	if (!r || !jr) {
		ret = -ENOMEM;
		goto out;
	}
	r->test.rw = BENCH_WRITE;
	r->test.runs = 1;
	if (run->file_sized && t->size > BENCH_FILL_MIN)
		first = BENCH_FILL_MIN / t->align * t->align;
	ret = fill_range(run, r, jr, 0, first);
	if (ret)
		goto out;
	if (first < t->size && jr->window_ns) {
		double rate = (double)jr->bytes * 1e9 / (double)jr->window_ns;
		double fits = rate * (double)BENCH_FILL_BUDGET_NS / 1e9;

		if (fits < (double)t->size) {
			char h1[32], h2[32];

			want = fits < (double)first ? first : (uint64_t)fits / MiB * MiB;
			want = want / t->align * t->align;
			size_to_human(want, h1, sizeof(h1));
			size_to_human(t->size, h2, sizeof(h2));
			run_note(run, "test file %s, not %s: the drive writes %.0f MB/s, and %s "
				 "would take %.0f s to write (--size sets it)", h1, h2, rate / 1e6,
				 h2, (double)t->size / rate);
			if (ftruncate(t->fd_buffered, (off_t)want)) {
				ret = -errno;
				goto out;
			}
			t->size = want;
			run->file_size = want;
		}
	}
	if (want > first)
		ret = fill_range(run, r, jr, first, want - first);
	if (!ret && fdatasync(t->fd_buffered))
		ret = -errno;
out:
	if (ret && ret != -EINTR)
		str_fmt(why, whycap, "cannot write the test file: %s", strerror(-ret));
	free(r);
	free(jr);
	return ret;
}

int bench_run_prepare(struct bench_run *run, struct sysroot *sr, const struct bench_opts *o,
		      char *why, size_t whycap)
{
	struct bench_target_opts to = { .destructive = o->destructive,
					.want_writes = run_has_writes(run) };
	struct bench_target *t = &run->target;
	bool nul = run->engine == &bench_engine_null;
	int ret;

	ret = bench_target_open(sr, o->target, &to, t, why, whycap);
	if (ret)
		return ret;
	if (t->in_memory)
		run_note(run, "%s is %s: these figures are the memory's, not a drive's",
			 t->shown, t->in_memory);
	if (t->kind == BENCH_TARGET_DIR) {
		ret = bench_target_create_file(t, run->file_size, why, whycap);
		if (ret)
			return ret;
		if (!nul && run_reads_file(run) && (!run->profile || run->profile->fill)) {
			ret = run_fill(run, why, whycap);
			if (ret)
				return ret;
		}
	} else if (t->kind == BENCH_TARGET_FILE) {
		if (to.want_writes)
			run_note(run, "an existing file is only read: write tests are skipped");
	} else if (to.want_writes && !t->writable) {
		run_note(run, "block device: write tests need --destructive and are skipped");
	}
	if (t->kind != BENCH_TARGET_DIR && t->size < run->file_size)
		run->file_size = t->size;
	if (t->fd_direct < 0)
		run_note(run, "O_DIRECT refused by the filesystem: figures go through the page "
			 "cache");
	if (!t->size) {
		str_fmt(why, whycap, "it is empty");
		return -EINVAL;
	}
	return 0;
}

static void pause_for(struct bench_run *run, uint64_t left)
{
	while (left && !run_stopped(run)) {
		uint64_t step = left > 100000000ull ? 100000000ull : left;
		struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)step };

		nanosleep(&ts, NULL);
		left -= step;
	}
}

/* hdparm -T reads the buffer once before it starts the clock. */
static void preread(int fd, uint64_t len)
{
	void *buf = NULL;

	if (posix_memalign(&buf, 4096, len))
		return;
	(void)!pread(fd, buf, len, 0);
	free(buf);
}

static void result_finish(struct bench_run *run, struct bench_test_result *r)
{
	double sum = 0, var = 0;
	unsigned i, n = r->runs_done;

	if (!n)
		return;
	r->bw_min = r->bw_max = r->run_bw[0];
	for (i = 0; i < n; i++) {
		sum += r->run_bw[i];
		r->bw_min = fmin(r->bw_min, r->run_bw[i]);
		r->bw_max = fmax(r->bw_max, r->run_bw[i]);
	}
	r->bw = sum / n;
	if (n > 1 && r->bw > 0) {
		for (i = 0; i < n; i++)
			var += (r->run_bw[i] - r->bw) * (r->run_bw[i] - r->bw);
		r->bw_cv = sqrt(var / (n - 1)) / r->bw;
	}
	if (run->profile && run->profile->best_of)
		r->bw = r->bw_max;
	r->iops = r->bw / r->test.bs;
	r->unstable = n > 1 && r->bw_cv > BENCH_CV_WARN;
	if (!r->stopped_early)
		r->bw_ci = n > 1 ? bench_runs_ci(r->run_bw, n) : -1;
	if (!r->drift)
		r->drift = bench_runs_drift(r->run_bw, n, &r->drift_change);
	if (r->drift)
		run_note(run, "%s %s %s %.0f %% over its %u runs: the drive drifts (a write cache "
			 "filling, heat?); --profile sustained follows it", r->test.name,
			 bench_rw_name(r->test.rw), r->drift < 0 ? "fell" : "rose",
			 fabs(r->drift_change) * 100, n);
}

static int run_test(struct bench_run *run, struct bench_test_result *r, bool first, char *why,
		    size_t whycap)
{
	struct bench_target *t = &run->target;
	struct bench_test *tt = &r->test;
	struct bench_job_result *jr = calloc(1, sizeof(*jr));
	uint64_t region = tt->size && tt->size < t->size ? tt->size : t->size;
	struct bench_job job = {
		.ops = tt->sync_engine && run->engine != &bench_engine_null ? &bench_engine_psync
									    : run->engine,
		.rw = tt->rw,
		.bs = tt->bs,
		.qd = tt->qd,
		.threads = tt->threads,
		.ramp_ns = tt->no_ramp ? 0 : ramp_for(tt->time_ns),
		.time_ns = tt->time_ns,
		.align = t->align,
		.null_model = run->null_model,
		.tick = job_tick,
		.interrupted = run->stop,
		.end_sync = tt->end_sync && bench_rw_is_write(tt->rw),
	};
	struct tick_ctx c = { .run = run, .r = r, .phase = tt->name };
	bool one_pass;
	unsigned i, max_runs;
	int ret = 0;

	if (!jr)
		return -ENOMEM;
	/* files and the default region: what the profile sized; hdparm -t reads a whole device */
	if (tt->kind == BENCH_TEST_IO && !tt->size && run->file_size < region)
		region = run->file_size;
	if (region < tt->bs) {
		r->skipped = true;
		str_copy(r->skip_reason, sizeof(r->skip_reason),
			 "the target is smaller than the block size");
		free(jr);
		return 0;
	}
	r->direct = !tt->buffered && t->fd_direct >= 0;
	/* direct I/O moves whole logical blocks: 3 KiB on a 4Kn disk fails with EINVAL */
	if (r->direct && t->align > 512 && tt->bs % t->align) {
		r->skipped = true;
		str_fmt(r->skip_reason, sizeof(r->skip_reason),
			"the block size is not a multiple of the target's %u-byte sectors",
			t->align);
		free(jr);
		return 0;
	}
	r->engine = job.ops->name;
	job.fd = r->direct ? t->fd_direct : t->fd_buffered;
	job.region_bytes = region;
	/* A buffered read that came round again would read the page cache, not the device:
	 * it covers the region once at most (hdparm -t stops at the device's end), with no
	 * warm-up that could use up that one pass. hdparm -T reads the cache on purpose. */
	one_pass = !r->direct && !bench_rw_is_write(tt->rw) &&
		   tt->kind != BENCH_TEST_HDPARM_CACHED;
	if (one_pass)
		job.ramp_ns = 0;
	if (tt->size_based || one_pass)
		job.limit_bytes = region;
	if (run->profile && run->profile->kind == BENCH_PROFILE_SUSTAINED) {
		c.sample_ns = SEC;
		r->has_series = true;
	}
	job.tick_arg = &c;
	r->early = run->early_stop && tt->kind == BENCH_TEST_IO && !tt->size_based &&
		   tt->time_ns > BENCH_EARLY_MIN_NS && !r->has_series;
	c.until_known = r->early;
	c.ramp_ns = job.ramp_ns;
	max_runs = tt->runs;
	if (r->early) {
		/* one run as long as the fixed schedule's runs together, which ends when its
		 * figure is known: a run that goes on learns more than a new one that starts over */
		job.time_ns = tt->runs * tt->time_ns;
		max_runs = 1;
	}
	for (i = 0; i < max_runs && !run_stopped(run); i++) {
		c.runi = i;
		c.known = false;
		c.npts = 0;
		c.last_bytes = c.last_ns = c.sample_bytes = c.sample_at = 0;
		c.fell = false;
		c.total_ns = job.time_ns ? job.ramp_ns + job.time_ns : 0;
		c.limit = job.limit_bytes;
		job.seed = (uint64_t)time(NULL) * 7919u + i * 104729u + (uint64_t)getpid();
		if (tt->kind == BENCH_TEST_HDPARM_CACHED) {
			preread(t->fd_buffered, region);
		} else if (tt->buffered) {
			int e = bench_target_drop_cache(t);

			if (e)
				run_note(run, "page cache not flushed: %s refused (%s); use the "
					 "O_DIRECT figures", t->kind == BENCH_TARGET_BLOCKDEV ?
					 "BLKFLSBUF" : "POSIX_FADV_DONTNEED", strerrorname_np(-e));
		}
		/* The interval lies between the cache flush and the clock: between tests, as
		 * CrystalDiskMark pauses, and before every run of a test that settles, as hdparm
		 * waits 3 s before each timing. */
		if (run->interval_ns && job.ops != &bench_engine_null &&
		    (tt->settle || (i == 0 && !first))) {
			struct bench_progress p = { .phase = tt->name, .rw = bench_rw_name(tt->rw),
						    .run = i + 1, .runs = tt->runs,
						    .left_s = (double)run->interval_ns / 1e9,
						    .settling = true, .attempt = run->attempt };

			if (tt->settle && run->progress)
				run->progress(run->progress_arg, &p);
			pause_for(run, run->interval_ns);
			if (run_stopped(run))
				break;
		}
		ret = bench_job_run(&job, jr);
		if (!r->engine_detail[0])
			str_copy(r->engine_detail, sizeof(r->engine_detail), jr->engine_desc);
		if (jr->ios) {
			r->run_bw[r->runs_done++] = jr->bw;
			r->ios += jr->ios;
			r->bytes += jr->bytes;
			r->seconds += (double)jr->window_ns / 1e9;
			hist_merge(&r->lat, &jr->lat);
		}
		r->cpu_user_s += jr->cpu_user_s;
		r->cpu_sys_s += jr->cpu_sys_s;
		if (r->has_series && c.fell) {
			r->fall.fell = true;
			r->fall.settled = jr->stopped && !run_stopped(run) && !jr->error;
			bench_series_fall(r->series, r->nseries, &r->fall);
		}
		if (ret) {
			str_fmt(why, whycap, "%s %s: %s", tt->name, bench_rw_name(tt->rw),
				strerror(-ret));
			break;
		}
		if (r->early)
			early_after_run(r, &c);
		if (r->stopped_early)
			break;
	}
	result_finish(run, r);
	free(jr);
	return ret;
}

static void check_add(struct bench_run *run, const char *name, const char *unit, double req,
		      const struct bench_test_result *r, bool mbps)
{
	struct bench_check *c;

	if (run->nchecks >= BENCH_MAX_CHECKS)
		return;
	c = &run->checks[run->nchecks++];
	str_copy(c->name, sizeof(c->name), name);
	c->unit = unit;
	c->required = req;
	c->has_measured = r && r->runs_done;
	if (c->has_measured)
		c->measured = mbps ? r->bw / 1e6 : r->iops;
	c->pass = c->has_measured && c->measured >= req;
}

/* SD Association application performance classes, with the thresholds of the spec; A1's are
 * the ones Raspberry Pi's SD card test applies. */
static void bench_run_checks(struct bench_run *run)
{
	const struct bench_test_result *rr = NULL, *rw = NULL, *sw = NULL;
	unsigned i;

	run->nchecks = 0;
	if (!run->profile || run->profile->kind != BENCH_PROFILE_SDCARD)
		return;
	for (i = 0; i < run->ntests; i++) {
		const struct bench_test_result *r = &run->tests[i];

		if (r->test.rw == BENCH_RANDREAD)
			rr = r;
		else if (r->test.rw == BENCH_RANDWRITE)
			rw = r;
		else if (r->test.rw == BENCH_WRITE)
			sw = r;
	}
	check_add(run, "A1 random read", "iops", 1500, rr, false);
	check_add(run, "A1 random write", "iops", 500, rw, false);
	check_add(run, "A1 sequential write", "MB/s", 10, sw, true);
	check_add(run, "A2 random read", "iops", 4000, rr, false);
	check_add(run, "A2 random write", "iops", 2000, rw, false);
	check_add(run, "A2 sequential write", "MB/s", 10, sw, true);
}

static int run_tests(struct bench_run *run, bool *first, char *why, size_t whycap)
{
	unsigned i;
	int ret;

	for (i = 0; i < run->ntests; i++) {
		struct bench_test_result *r = &run->tests[i];

		if (run_stopped(run))
			break;
		if (bench_rw_is_write(r->test.rw) && !run->target.writable) {
			r->skipped = true;
			str_copy(r->skip_reason, sizeof(r->skip_reason),
				 run->target.kind == BENCH_TARGET_FILE
					 ? "an existing file is only read"
					 : "write tests on a block device need --destructive");
			continue;
		}
		ret = run_test(run, r, *first, why, whycap);
		*first = false;
		if (ret)
			return ret;
	}
	return 0;
}

/* Forget the figures of an attempt, keep the tests as resolved. */
static void results_clear(struct bench_run *run)
{
	unsigned i;

	for (i = 0; i < run->ntests; i++) {
		struct bench_test_result *r = &run->tests[i];
		struct bench_test t = r->test;

		free(r->series);
		memset(r, 0, sizeof(*r));
		r->test = t;
		hist_init(&r->lat);
	}
}

static bool a1_passed(const struct bench_run *run)
{
	unsigned i;

	for (i = 0; i < run->nchecks; i++)
		if (str_starts(run->checks[i].name, "A1 ") && !run->checks[i].pass)
			return false;
	return true;
}

int bench_run_execute(struct bench_run *run, char *why, size_t whycap)
{
	bool first = true, retry = run->profile && run->profile->kind == BENCH_PROFILE_SDCARD &&
				   run->target.writable;
	int ret;

	for (run->attempt = 1;; run->attempt++) {
		ret = run_tests(run, &first, why, whycap);
		bench_run_checks(run);
		if (ret || run_stopped(run) || !retry || a1_passed(run) ||
		    run->attempt == BENCH_SDCARD_ATTEMPTS)
			break;
		results_clear(run);
	}
	if (run->attempt > 1 && !ret && !run_stopped(run)) {
		if (a1_passed(run))
			run_note(run, "A1 passed on attempt %u; Raspberry Pi's SD card test also "
				 "tries up to %d times", run->attempt, BENCH_SDCARD_ATTEMPTS);
		else
			run_note(run, "A1 not passed in %u attempts, as Raspberry Pi's SD card test "
				 "tries; the figures are the last attempt's", run->attempt);
	}
	if (run_stopped(run)) {
		run->interrupted = true;
		return -EINTR;
	}
	if (!ret)
		run->done = true;
	return ret;
}

void bench_run_release(struct bench_run *run)
{
	unsigned i;

	bench_target_release(&run->target);
	for (i = 0; run->tests && i < run->ntests; i++)
		free(run->tests[i].series);
	free(run->tests);
	run->tests = NULL;
	run->ntests = 0;
}
