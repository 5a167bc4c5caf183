/* engine-uring.c - io_uring through liburing: registered buffers and file, batched submission
 * and reaping, single-issuer rings with deferred task work. */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "bench/engine.h"
#include "common/util.h"

struct bench_engine {
	struct io_uring ring;
	int fd;         /* index 0 when the file is registered */
	unsigned depth;
	char *buf;
	size_t buf_bytes;
	bool fixed_buf;
	bool fixed_file;
	char desc[96];
};

static int uring_probe(void)
{
	struct io_uring ring;
	int ret;

	ret = io_uring_queue_init(2, &ring, 0);
	if (ret)
		return ret;
	io_uring_queue_exit(&ring);
	return 0;
}

/* The newest set of setup flags this kernel accepts; each step drops one it may not know. */
static int uring_ring_init(struct io_uring *ring, unsigned entries)
{
	static const unsigned tries[] = {
#if defined(IORING_SETUP_DEFER_TASKRUN) && defined(IORING_SETUP_SINGLE_ISSUER)
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
#endif
#ifdef IORING_SETUP_COOP_TASKRUN
		IORING_SETUP_COOP_TASKRUN,
#endif
		0,
	};
	size_t i;
	int ret = -EINVAL;

	for (i = 0; i < ARRAY_SIZE(tries); i++) {
		struct io_uring_params p = { .flags = tries[i] };

		ret = io_uring_queue_init_params(entries, ring, &p);
		if (ret != -EINVAL)
			return ret;
	}
	return ret;
}

static int uring_open(const struct bench_engine_cfg *cfg, struct bench_engine **out)
{
	struct bench_engine *e;
	struct iovec *iov = NULL;
	unsigned i, entries = 1;
	int ret;

	*out = NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	while (entries < cfg->depth)
		entries <<= 1;
	ret = uring_ring_init(&e->ring, entries);
	if (ret) {
		free(e);
		return ret;
	}
	e->fd = cfg->fd;
	e->depth = cfg->depth;
	e->buf = cfg->buf;
	e->buf_bytes = cfg->buf_bytes;
	/* Registration is an optimisation: RLIMIT_MEMLOCK or an old kernel may refuse it. */
	if (io_uring_register_files(&e->ring, &cfg->fd, 1) == 0) {
		e->fixed_file = true;
		e->fd = 0;
	}
	iov = calloc(cfg->depth, sizeof(*iov));
	if (iov) {
		for (i = 0; i < cfg->depth; i++) {
			iov[i].iov_base = cfg->buf + (size_t)i * cfg->buf_bytes;
			iov[i].iov_len = cfg->buf_bytes;
		}
		e->fixed_buf = io_uring_register_buffers(&e->ring, iov, cfg->depth) == 0;
		free(iov);
	}
	io_uring_register_ring_fd(&e->ring);
	str_fmt(e->desc, sizeof(e->desc), "io_uring: %s buffers, %s file",
		e->fixed_buf ? "registered" : "unregistered",
		e->fixed_file ? "registered" : "unregistered");
	*out = e;
	return 0;
}

static void uring_prep(struct bench_engine *e, unsigned slot, bool write, uint64_t off,
		       uint32_t len)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&e->ring);
	char *buf = e->buf + (size_t)slot * e->buf_bytes;

	if (!sqe) { /* cannot happen: the ring holds depth entries */
		io_uring_submit(&e->ring);
		sqe = io_uring_get_sqe(&e->ring);
	}
	if (e->fixed_buf) {
		if (write)
			io_uring_prep_write_fixed(sqe, e->fd, buf, len, off, (int)slot);
		else
			io_uring_prep_read_fixed(sqe, e->fd, buf, len, off, (int)slot);
	} else {
		if (write)
			io_uring_prep_write(sqe, e->fd, buf, len, off);
		else
			io_uring_prep_read(sqe, e->fd, buf, len, off);
	}
	if (e->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	sqe->user_data = slot;
}

static int uring_submit_wait(struct bench_engine *e, unsigned min, struct bench_done *done,
			     unsigned max)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	int ret;

	ret = io_uring_submit_and_wait(&e->ring, min);
	if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
		return ret;
	io_uring_for_each_cqe(&e->ring, head, cqe) {
		if (n == max)
			break;
		done[n].slot = (uint32_t)cqe->user_data;
		done[n].res = cqe->res;
		n++;
	}
	io_uring_cq_advance(&e->ring, n);
	return (int)n;
}

static int uring_submit(struct bench_engine *e)
{
	int ret = io_uring_submit(&e->ring);

	return ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY ? ret : 0;
}

static const char *uring_describe(struct bench_engine *e)
{
	return e->desc;
}

static void uring_close(struct bench_engine *e)
{
	if (!e)
		return;
	/* The ring lets go of what is registered in a kernel worker after it is closed, a
	 * moment later; unregistering waits, so the file is free (to unmount, to mkfs) as soon
	 * as sbcdisk has exited. */
	if (e->fixed_file)
		io_uring_unregister_files(&e->ring);
	if (e->fixed_buf)
		io_uring_unregister_buffers(&e->ring);
	io_uring_queue_exit(&e->ring);
	free(e);
}

const struct bench_engine_ops bench_engine_uring = {
	.name = "io_uring",
	.queued = true,
	.probe = uring_probe,
	.open = uring_open,
	.prep = uring_prep,
	.submit_wait = uring_submit_wait,
	.submit = uring_submit,
	.describe = uring_describe,
	.close = uring_close,
};
