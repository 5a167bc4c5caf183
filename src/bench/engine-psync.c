/* engine-psync.c - the fallback: pread(2)/pwrite(2), one I/O at a time per context.
 * Queue depth N is N worker threads, each with one I/O in flight (ops.queued = false). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench/engine.h"
#include "common/util.h"

struct psync_req {
	uint64_t off;
	uint32_t len;
	bool write;
};

struct bench_engine {
	int fd;
	unsigned depth;
	char *buf;
	size_t buf_bytes;
	unsigned nq;        /* queued, not yet done */
	unsigned *order;    /* slots in queue order */
	struct psync_req *req;
};

static int psync_probe(void)
{
	return 0;
}

static int psync_open(const struct bench_engine_cfg *cfg, struct bench_engine **out)
{
	struct bench_engine *e = calloc(1, sizeof(*e));

	*out = NULL;
	if (!e)
		return -ENOMEM;
	e->fd = cfg->fd;
	e->depth = cfg->depth;
	e->buf = cfg->buf;
	e->buf_bytes = cfg->buf_bytes;
	e->order = calloc(cfg->depth, sizeof(*e->order));
	e->req = calloc(cfg->depth, sizeof(*e->req));
	if (!e->order || !e->req) {
		free(e->order);
		free(e->req);
		free(e);
		return -ENOMEM;
	}
	*out = e;
	return 0;
}

static void psync_prep(struct bench_engine *e, unsigned slot, bool write, uint64_t off,
		       uint32_t len)
{
	e->req[slot] = (struct psync_req){ .off = off, .len = len, .write = write };
	e->order[e->nq++] = slot;
}

/* One whole I/O; a short transfer is continued, as read(2) may stop early. */
static int32_t psync_do(struct bench_engine *e, unsigned slot)
{
	const struct psync_req *r = &e->req[slot];
	char *buf = e->buf + (size_t)slot * e->buf_bytes;
	uint32_t done = 0;

	while (done < r->len) {
		ssize_t n = r->write ? pwrite(e->fd, buf + done, r->len - done, (off_t)(r->off + done))
				     : pread(e->fd, buf + done, r->len - done, (off_t)(r->off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (uint32_t)n;
	}
	return (int32_t)done;
}

static int psync_submit_wait(struct bench_engine *e, unsigned min, struct bench_done *done,
			     unsigned max)
{
	unsigned n = 0, i;

	(void)min;
	for (i = 0; i < e->nq && n < max; i++) {
		done[n].slot = e->order[i];
		done[n].res = psync_do(e, e->order[i]);
		n++;
	}
	e->nq = 0;
	return (int)n;
}

static const char *psync_describe(struct bench_engine *e)
{
	(void)e;
	return "psync: pread/pwrite, one thread per queue slot";
}

static void psync_close(struct bench_engine *e)
{
	if (!e)
		return;
	free(e->order);
	free(e->req);
	free(e);
}

const struct bench_engine_ops bench_engine_psync = {
	.name = "psync",
	.queued = false,
	.probe = psync_probe,
	.open = psync_open,
	.prep = psync_prep,
	.submit_wait = psync_submit_wait,
	.describe = psync_describe,
	.close = psync_close,
};
