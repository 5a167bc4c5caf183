/* job.c - the runner: one worker per thread keeps its engine's queue full, reads the clock
 * once per reaped batch, and counts only what completes inside the measured window. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench/job.h"
#include "bench/perm.h"
#include "common/util.h"

struct job_shared {
	_Atomic uint64_t next_block; /* sequential jobs share one cursor */
	_Atomic uint64_t issued;     /* I/Os started, for limit_ios */
	atomic_int stop;
	uint64_t limit_ios;          /* 0: none */
	uint64_t nblocks;
	sem_t done;
};

struct worker {
	const struct bench_job *job;
	struct job_shared *sh;
	unsigned depth;
	char *buf;
	uint64_t *start;             /* per slot: when it was queued */
	uint64_t rng;
	struct perm perm;            /* random offsets: each block once per pass */
	uint64_t ios, bytes;
	uint64_t window_ns;
	_Atomic uint64_t progress;   /* bytes completed, ramp included */
	int error;
	char desc[96];
	pthread_t th;
	bool started;
	struct hist lat;
};

static inline uint64_t rng_next(uint64_t *s)
{
	/* splitmix64: fast, full period, good enough to defeat compression and dedup */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void bench_fill_random(void *buf, size_t len, uint64_t *state)
{
	uint64_t *p = buf;
	size_t i, n = len / 8;
	unsigned char *tail;

	for (i = 0; i < n; i++)
		p[i] = rng_next(state);
	tail = (unsigned char *)buf + n * 8;
	for (i = 0; i < len % 8; i++)
		tail[i] = (unsigned char)rng_next(state);
}

static inline uint64_t clock_ns(const struct bench_engine_ops *ops, struct bench_engine *e)
{
	return ops->now_ns ? ops->now_ns(e) : time_now_ns();
}

/* Queue the next I/O in slot; false when the job has issued all it may. */
static inline bool worker_issue(struct worker *w, struct bench_engine *e, unsigned slot,
				uint64_t now)
{
	const struct bench_job *job = w->job;
	struct job_shared *sh = w->sh;
	uint64_t blk;
	bool write = bench_rw_is_write(job->rw);

	if (sh->limit_ios &&
	    atomic_fetch_add_explicit(&sh->issued, 1, memory_order_relaxed) >= sh->limit_ios)
		return false;
	if (bench_rw_is_random(job->rw))
		blk = perm_next(&w->perm, &w->rng);
	else if ((blk = atomic_fetch_add_explicit(&sh->next_block, 1, memory_order_relaxed)) >=
		 sh->nblocks)
		blk %= sh->nblocks; /* a division only once the cursor has wrapped */
	if (write) {
		/* A fresh word in every 4 KiB: no block is ever written twice with one content. */
		char *p = w->buf + (size_t)slot * job->bs;
		uint32_t o;

		for (o = 0; o + 8 <= job->bs; o += 4096)
			*(uint64_t *)(void *)(p + o) = rng_next(&w->rng);
	}
	job->ops->prep(e, slot, write, job->region_off + blk * job->bs, job->bs);
	w->start[slot] = now;
	return true;
}

static void worker_loop(struct worker *w, struct bench_engine *e, struct bench_done *done)
{
	const struct bench_job *job = w->job;
	const struct bench_engine_ops *ops = job->ops;
	uint64_t now, t_meas, deadline, last = 0;
	unsigned slot, inflight = 0, fails = 0;
	bool more = true;

	now = clock_ns(ops, e);
	t_meas = now + job->ramp_ns;
	deadline = job->time_ns ? t_meas + job->time_ns : UINT64_MAX;
	for (slot = 0; slot < w->depth; slot++) {
		if (!worker_issue(w, e, slot, now))
			break;
		inflight++;
	}
	while (inflight) {
		/* Deep queues work in groups of depth/8 (QD32: 4). Waiting for a group instead of
		 * each completion saves wake-ups of this thread, which are paid for on the CPU that
		 * completes the I/O (a loop device's own worker, the interrupt CPU of a real one);
		 * handing refilled slots over a group at a time, instead of all after the batch,
		 * keeps the device from waiting while the rest are prepared. The queue stays at
		 * least 7/8 full. */
		unsigned want = w->depth >= 16 && more ? w->depth / 8 : 1;
		int i, n = ops->submit_wait(e, want < inflight ? want : inflight, done, w->depth);
		unsigned queued = 0;
		uint64_t got = 0;

		if (n < 0) {
			/* keep reaping: the kernel may still write into buffers in flight */
			if (!w->error)
				w->error = n;
			atomic_store(&w->sh->stop, 1);
			more = false;
			if (++fails > 1000)
				break;
			continue;
		}
		now = clock_ns(ops, e);
		more = more && now < deadline && !atomic_load_explicit(&w->sh->stop,
								       memory_order_relaxed);
		if (job->interrupted && *job->interrupted)
			more = false;
		for (i = 0; i < n; i++) {
			slot = done[i].slot;
			inflight--;
			if (done[i].res != (int32_t)job->bs) {
				if (!w->error)
					w->error = done[i].res < 0 ? done[i].res : -EIO;
				atomic_store(&w->sh->stop, 1);
				more = false;
				continue;
			}
			got += job->bs;
			if (now > t_meas && now <= deadline) {
				hist_add(&w->lat, now - w->start[slot]);
				w->ios++;
				w->bytes += job->bs;
				last = now;
			}
			if (more && worker_issue(w, e, slot, now)) {
				inflight++;
				if (ops->submit && want > 1 && ++queued == want && i + 1 < n) {
					ops->submit(e);
					queued = 0;
				}
			}
		}
		if (got)
			atomic_fetch_add_explicit(&w->progress, got, memory_order_relaxed);
	}
	if (last >= t_meas && w->ios) {
		/* the whole window when time ran out, else up to the last completion */
		w->window_ns = (deadline != UINT64_MAX && now >= deadline) ? job->time_ns
									  : last - t_meas;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct bench_job *job = w->job;
	struct bench_engine_cfg cfg = {
		.fd = job->fd,
		.depth = w->depth,
		.buf = w->buf,
		.buf_bytes = job->bs,
		.null_model = job->null_model,
	};
	struct bench_engine *e = NULL;
	struct bench_done *done = calloc(w->depth, sizeof(*done));
	int ret;

	if (!done) {
		w->error = -ENOMEM;
		goto out;
	}
	ret = job->ops->open(&cfg, &e);
	if (ret) {
		w->error = ret;
		goto out;
	}
	if (job->ops->describe)
		str_copy(w->desc, sizeof(w->desc), job->ops->describe(e));
	worker_loop(w, e, done);
out:
	if (w->error)
		atomic_store(&w->sh->stop, 1);
	if (e)
		job->ops->close(e);
	free(done);
	sem_post(&w->sh->done);
	return NULL;
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static int worker_init(struct worker *w, const struct bench_job *job, struct job_shared *sh,
		       unsigned depth, unsigned id)
{
	size_t bytes = (size_t)depth * job->bs;
	void *p = NULL;

	w->job = job;
	w->sh = sh;
	w->depth = depth;
	w->rng = job->seed ^ (0x51ed2701u * (uint64_t)(id + 1));
	hist_init(&w->lat);
	if (posix_memalign(&p, job->align ? job->align : 4096, bytes))
		return -ENOMEM;
	w->buf = p;
	bench_fill_random(w->buf, bytes, &w->rng);
	perm_init(&w->perm, job->region_bytes / job->bs, &w->rng);
	w->start = calloc(depth, sizeof(*w->start));
	return w->start ? 0 : -ENOMEM;
}

/* Wait for the workers, calling the tick function between; returns when all have ended. */
static void job_supervise(const struct bench_job *job, struct job_shared *sh,
			  struct worker *ws, unsigned nw)
{
	uint64_t t0 = time_now_ns(), tick = job->tick_ns ? job->tick_ns : 250000000ull;
	uint64_t next = t0 + tick;
	unsigned finished = 0, i;

	while (finished < nw) {
		struct timespec ts;
		uint64_t now;

		clock_gettime(CLOCK_REALTIME, &ts);
		now = time_now_ns();
		if (next > now) {
			uint64_t d = next - now;

			ts.tv_sec += (time_t)(d / 1000000000ull);
			ts.tv_nsec += (long)(d % 1000000000ull);
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			if (sem_timedwait(&sh->done, &ts) == 0) {
				finished++;
				continue;
			}
		}
		if (job->interrupted && *job->interrupted)
			atomic_store(&sh->stop, 1);
		now = time_now_ns();
		if (now >= next) {
			uint64_t bytes = 0;

			for (i = 0; i < nw; i++)
				bytes += atomic_load_explicit(&ws[i].progress, memory_order_relaxed);
			if (job->tick && job->tick(job->tick_arg, now - t0, bytes))
				atomic_store(&sh->stop, 1);
			next = now + tick;
		}
	}
}

int bench_job_run(const struct bench_job *job, struct bench_job_result *res)
{
	struct job_shared sh = { 0 };
	struct worker *ws = NULL;
	struct rusage ru0, ru1;
	sigset_t block, old;
	unsigned nw, depth, i, started = 0;
	int ret = 0;

	memset(res, 0, offsetof(struct bench_job_result, lat));
	hist_init(&res->lat);
	if (!job->bs || !job->qd || !job->threads || job->region_bytes < job->bs)
		return -EINVAL;
	sh.nblocks = job->region_bytes / job->bs;
	sh.limit_ios = job->limit_bytes ? (job->limit_bytes + job->bs - 1) / job->bs : 0;
	nw = job->ops->queued ? job->threads : job->threads * job->qd;
	depth = job->ops->queued ? job->qd : 1;
	if (sem_init(&sh.done, 0, 0))
		return -errno;
	ws = calloc(nw, sizeof(*ws));
	if (!ws) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nw; i++) {
		ret = worker_init(&ws[i], job, &sh, depth, i);
		if (ret)
			goto out;
	}
	getrusage(RUSAGE_SELF, &ru0);
	/* Signals go to this thread, which tells the workers to stop. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < nw; i++) {
		if (pthread_create(&ws[i].th, NULL, worker_main, &ws[i]))
			break;
		ws[i].started = true;
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (started < nw) {
		atomic_store(&sh.stop, 1);
		ret = -EAGAIN;
	}
	job_supervise(job, &sh, ws, started);
	for (i = 0; i < nw; i++)
		if (ws[i].started)
			pthread_join(ws[i].th, NULL);
	/* Like fio's end_fsync: the data is on the medium before the clock stops (a card or
	 * drive may still hold it in a cache). The null engine has no data and a virtual clock. */
	if (job->end_sync && job->ops != &bench_engine_null && !atomic_load(&sh.stop) &&
	    !(job->interrupted && *job->interrupted)) {
		uint64_t t0 = time_now_ns();

		if (fdatasync(job->fd) && !res->error)
			res->error = -errno;
		res->sync_ns = time_now_ns() - t0;
	}
	getrusage(RUSAGE_SELF, &ru1);
	res->cpu_user_s = tv_s(&ru1.ru_utime) - tv_s(&ru0.ru_utime);
	res->cpu_sys_s = tv_s(&ru1.ru_stime) - tv_s(&ru0.ru_stime);
	for (i = 0; i < nw; i++) {
		struct worker *w = &ws[i];

		res->ios += w->ios;
		res->bytes += w->bytes;
		if (w->window_ns) {
			uint64_t win = w->window_ns + res->sync_ns;

			res->bw += (double)w->bytes * 1e9 / (double)win;
			if (win > res->window_ns)
				res->window_ns = win;
		}
		hist_merge(&res->lat, &w->lat);
		if (w->error && !res->error)
			res->error = w->error;
		if (!res->engine_desc[0] && w->desc[0])
			str_copy(res->engine_desc, sizeof(res->engine_desc), w->desc);
	}
	res->stopped = atomic_load(&sh.stop) || (job->interrupted && *job->interrupted) ||
		       (job->time_ns && res->window_ns < job->time_ns);
	if (!ret && res->error)
		ret = res->error;
out:
	if (ws) {
		for (i = 0; i < nw; i++) {
			free(ws[i].buf);
			free(ws[i].start);
		}
		free(ws);
	}
	sem_destroy(&sh.done);
	return ret;
}
