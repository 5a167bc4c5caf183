/* hist.c - merging the latency histogram and reading quantiles out of it.
 * Reported values are bucket middles, so the error is half a bucket: at most 0.4 %. */
#include <math.h>
#include <string.h>

#include "bench/hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	if (!src->count)
		return;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

/* Lowest value and width of bucket i. */
static void hist_bucket(unsigned i, double *low, double *width)
{
	unsigned shift;

	if (i < HIST_SUB) {
		*low = i;
		*width = 1;
		return;
	}
	shift = (i - HIST_SUB) / HIST_SUB;
	*low = (double)((uint64_t)(HIST_SUB + (i - HIST_SUB) % HIST_SUB) << shift);
	*width = (double)(1ull << shift);
}

double hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0;
	double low, width, v;
	unsigned i;

	if (!h->count)
		return 0.0;
	if (q <= 0)
		return (double)h->min;
	if (q >= 1)
		return (double)h->max;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank)
			break;
	}
	if (i == HIST_BUCKETS)
		return (double)h->max;
	hist_bucket(i, &low, &width);
	v = width > 1 ? low + width / 2 : low;
	if (v < (double)h->min)
		v = (double)h->min;
	if (v > (double)h->max)
		v = (double)h->max;
	return v;
}
