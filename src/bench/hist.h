/* hist.h - latency histogram: log-linear buckets (128 per power of two, so a bucket is at most
 * 0.8 % of its value wide), exact count, sum, min and max. */
#ifndef SBCDISK_BENCH_HIST_H
#define SBCDISK_BENCH_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_MSB 42 /* values up to 2^43 ns (2.4 hours); larger ones are clamped */
#define HIST_BUCKETS (HIST_SUB + (HIST_MAX_MSB - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t sum;   /* ns */
	uint64_t min;
	uint64_t max;
	uint64_t b[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_merge(struct hist *dst, const struct hist *src);
/* Mean in ns (0 when empty). */
double hist_mean(const struct hist *h);
/* The value at quantile q (0..1), in ns: the middle of its bucket, within [min, max]. */
double hist_quantile(const struct hist *h, double q);

static inline unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb > HIST_MAX_MSB)
		return HIST_BUCKETS - 1;
	shift = msb - HIST_SUB_BITS;
	return HIST_SUB + shift * HIST_SUB + (unsigned)((v >> shift) - HIST_SUB);
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->b[hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

#endif
