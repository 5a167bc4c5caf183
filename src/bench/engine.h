/* engine.h - the I/O engines behind one small ops struct: io_uring, psync and null.
 * The job runner (job.c) drives them; an engine only queues, submits and reaps. */
#ifndef SBCDISK_BENCH_ENGINE_H
#define SBCDISK_BENCH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bench_engine; /* one per worker thread, opaque */

/* The null engine's model of a device: a latency per I/O, and an optional witness of every
 * I/O it was given (the scheduling tests use it). Both are called from the worker thread. */
struct bench_null_model {
	uint64_t (*lat_ns)(void *arg, uint64_t seq, bool write, uint64_t off);
	void (*seen)(void *arg, bool write, uint64_t off, uint32_t len);
	void *arg;
};

struct bench_engine_cfg {
	int fd;
	unsigned depth;         /* slots: I/Os that may be in flight at once */
	char *buf;              /* depth * buf_bytes, aligned for O_DIRECT; the caller owns it */
	size_t buf_bytes;       /* per slot */
	const struct bench_null_model *null_model; /* null engine only; NULL: 20 us each */
};

/* A finished I/O: its slot and the result (bytes done, or -errno). */
struct bench_done {
	uint32_t slot;
	int32_t res;
};

struct bench_engine_ops {
	const char *name;
	/* true: one context keeps `depth` I/Os in flight; false: one I/O at a time, so the
	 * runner starts one thread per unit of queue depth instead. */
	bool queued;
	/* 0 when the engine can run on this kernel, else -errno (ENOSYS, EPERM ...). */
	int (*probe)(void);
	/* Called from the thread that will use it. 0 or -errno; *out is freed by close. */
	int (*open)(const struct bench_engine_cfg *cfg, struct bench_engine **out);
	/* Queue one I/O of len bytes at off into slot's buffer; sent by the next submit_wait. */
	void (*prep)(struct bench_engine *e, unsigned slot, bool write, uint64_t off, uint32_t len);
	/* Submit what is queued, wait for at least min completions, store up to max of them in
	 * done. Returns how many were stored (0 after a signal), or -errno. */
	int (*submit_wait)(struct bench_engine *e, unsigned min, struct bench_done *done,
			   unsigned max);
	/* Optional: send what is queued now, without waiting or reaping (the runner uses it
	 * to hand refilled slots to the device in groups instead of all at the end). */
	int (*submit)(struct bench_engine *e);
	/* The engine's clock in ns; NULL means CLOCK_MONOTONIC (the null engine's is virtual). */
	uint64_t (*now_ns)(struct bench_engine *e);
	/* A line for -v output: which optimisations are on ("fixed buffers, fixed file"). */
	const char *(*describe)(struct bench_engine *e);
	void (*close)(struct bench_engine *e);
};

extern const struct bench_engine_ops bench_engine_uring;
extern const struct bench_engine_ops bench_engine_psync;
extern const struct bench_engine_ops bench_engine_null;

/* By name ("io_uring", "psync", "null"); NULL when unknown. */
const struct bench_engine_ops *bench_engine_find(const char *name);
/* io_uring where the kernel lets us use it, else psync, and in why the reason io_uring was
 * not taken (empty when it was, or when SBCDISK_NO_IO_URING asked for psync). */
const struct bench_engine_ops *bench_engine_pick(char *why, size_t whycap);
/* Why ops->probe() failed with err, in words a user can act on. */
void bench_engine_why_not(const struct bench_engine_ops *ops, int err, char *why, size_t whycap);
/* The i-th engine of the table, NULL past its end (the completion's list). */
const struct bench_engine_ops *bench_engine_get(size_t i);
/* "io_uring, psync, null" for messages: the table's names. */
const char *bench_engine_names(void);

#endif
