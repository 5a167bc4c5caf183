// SPDX-License-Identifier: GPL-2.0-or-later
/* speed.c - how long the copy will take: the disks' stored bench figures when the caller has
 * them, else a short direct read of the source measured now; and the progress line's rate and
 * time left while it runs. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "common/banned.h"
#include "common/util.h"

#define MEASURE_MAX_BYTES (256ULL << 20)
#define MEASURE_MAX_NS	  (2ULL * 1000000000ULL)
#define MEASURE_BLOCK	  (4U << 20)

/* Where the data to copy mostly is: the root's start, else the biggest partition's. */
static uint64_t measure_offset(const struct clone_plan *p)
{
	const struct clone_part *best = NULL;

	if (p->whole || !p->n_parts)
		return 0;
	if (p->root >= 0)
		return p->parts[p->root].start;
	for (size_t i = 0; i < p->n_parts; i++)
		if (!best || p->parts[i].copy_bytes > best->copy_bytes)
			best = &p->parts[i];
	return best->start;
}

/* A sequential read of the source from off: O_DIRECT where the file system allows it,
 * else through the page cache after asking it to forget the range. */
static int measure_read(const struct clone_plan *p, uint64_t off, double *bps, uint64_t *bytes)
{
	uint64_t done = 0, t0, dt, len = p->src_size > off ? p->src_size - off : 0;
	void *buf = NULL;
	int fd, ret = 0;

	if (len > MEASURE_MAX_BYTES)
		len = MEASURE_MAX_BYTES;
	if (len < MEASURE_BLOCK)
		return -ENODATA;
	fd = open(p->src_path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		fd = open(p->src_path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);
	}
	if (posix_memalign(&buf, 4096, MEASURE_BLOCK)) {
		close(fd);
		return -ENOMEM;
	}
	t0 = time_now_ns();
	while (done < len && time_now_ns() - t0 < MEASURE_MAX_NS) {
		ssize_t r = pread(fd, buf, MEASURE_BLOCK, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ret = r < 0 ? -errno : -ENODATA;
			break;
		}
		done += (uint64_t)r;
	}
	dt = time_now_ns() - t0;
	free(buf);
	close(fd);
	if (!done || !dt)
		return ret ? ret : -ENODATA;
	*bytes = done;
	*bps = (double)done / ((double)dt / 1e9);
	return 0;
}

void clone_plan_estimate(struct clone_plan *p)
{
	struct clone_speed *s = &p->speed;
	double bw;

	if (!s->has_read) {
		uint64_t bytes = 0;

		if (measure_read(p, measure_offset(p), &s->read_bps, &bytes) == 0) {
			s->has_read = true;
			s->measured_bytes = bytes;
			str_copy(s->read_from, sizeof(s->read_from), "measured");
		}
	}
	if (!s->has_read || s->read_bps <= 0)
		return;
	bw = s->read_bps;
	if (s->has_write && s->write_bps > 0 && s->write_bps < bw)
		bw = s->write_bps;
	s->has_time = true;
	s->time_s = (double)p->copy_bytes / bw;
}

void clone_progress_emit(struct clone_plan *p, const char *phase, uint64_t done, uint64_t total,
			 uint64_t t0_ns)
{
	struct clone_progress pr = { .phase = phase, .left_s = -1, .done = done, .total = total };
	double s = (double)(time_now_ns() - t0_ns) / 1e9;

	if (!p->progress)
		return;
	if (s > 0.2) {
		pr.bw = (double)done / s;
		if (pr.bw > 0 && total >= done)
			pr.left_s = (double)(total - done) / pr.bw;
	}
	p->progress(p->progress_arg, &pr);
}
