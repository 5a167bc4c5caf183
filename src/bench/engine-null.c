/* engine-null.c - no I/O at all: a virtual clock and a latency model, so tests of scheduling,
 * statistics and percentiles get exact, repeatable answers. */
#include <errno.h>
#include <stdlib.h>

#include "bench/engine.h"
#include "common/util.h"

struct null_slot {
	uint64_t due;  /* virtual time of completion */
	uint32_t len;
	bool busy;
};

struct bench_engine {
	unsigned depth;
	uint64_t clock; /* virtual ns */
	uint64_t seq;
	struct bench_null_model model;
	struct null_slot *slots;
};

static uint64_t null_default_lat(void *arg, uint64_t seq, bool write, uint64_t off)
{
	(void)arg;
	(void)seq;
	(void)write;
	(void)off;
	return 20000;
}

static int null_probe(void)
{
	return 0;
}

static int null_open(const struct bench_engine_cfg *cfg, struct bench_engine **out)
{
	struct bench_engine *e = calloc(1, sizeof(*e));

	*out = NULL;
	if (!e)
		return -ENOMEM;
	e->depth = cfg->depth;
	e->clock = 1000000000ull; /* any non-zero origin */
	if (cfg->null_model)
		e->model = *cfg->null_model;
	if (!e->model.lat_ns)
		e->model.lat_ns = null_default_lat;
	e->slots = calloc(cfg->depth, sizeof(*e->slots));
	if (!e->slots) {
		free(e);
		return -ENOMEM;
	}
	*out = e;
	return 0;
}

static void null_prep(struct bench_engine *e, unsigned slot, bool write, uint64_t off,
		      uint32_t len)
{
	struct null_slot *s = &e->slots[slot];

	if (e->model.seen)
		e->model.seen(e->model.arg, write, off, len);
	s->due = e->clock + e->model.lat_ns(e->model.arg, e->seq++, write, off);
	s->len = len;
	s->busy = true;
}

/* Advance the clock to the min-th earliest completion (the earliest when min is 0 or 1, the
 * last when fewer are busy) and return every I/O due by then, as a kernel would. */
static int null_submit_wait(struct bench_engine *e, unsigned min, struct bench_done *done,
			    unsigned max)
{
	uint64_t until = 0; /* every due time is past the clock's non-zero origin */
	unsigned i, n = 0, taken = 0;

	/* step through the distinct due times until min slots are due (or none is left) */
	while (taken < (min ? min : 1)) {
		uint64_t next = UINT64_MAX;
		unsigned ties = 0;

		for (i = 0; i < e->depth; i++) {
			const struct null_slot *s = &e->slots[i];

			if (!s->busy || s->due <= until || s->due > next)
				continue;
			ties = s->due == next ? ties + 1 : 1;
			next = s->due;
		}
		if (!ties)
			break;
		until = next;
		taken += ties;
	}
	if (!taken)
		return 0;
	if (until > e->clock)
		e->clock = until;
	for (i = 0; i < e->depth && n < max; i++) {
		struct null_slot *s = &e->slots[i];

		if (s->busy && s->due <= e->clock) {
			s->busy = false;
			done[n].slot = i;
			done[n].res = (int32_t)s->len;
			n++;
		}
	}
	return (int)n;
}

static uint64_t null_now(struct bench_engine *e)
{
	return e->clock;
}

static const char *null_describe(struct bench_engine *e)
{
	(void)e;
	return "null: no I/O, virtual clock";
}

static void null_close(struct bench_engine *e)
{
	if (!e)
		return;
	free(e->slots);
	free(e);
}

const struct bench_engine_ops bench_engine_null = {
	.name = "null",
	.queued = true,
	.probe = null_probe,
	.open = null_open,
	.prep = null_prep,
	.submit_wait = null_submit_wait,
	.now_ns = null_now,
	.describe = null_describe,
	.close = null_close,
};
