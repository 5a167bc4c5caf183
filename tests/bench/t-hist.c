/* t-hist.c - the latency histogram: every bucket within 1 % of its values, quantiles within
 * 1 % of the exact ones of known distributions, merging, empty histograms. */
#include <math.h>
#include <stdlib.h>

#include "bench/hist.h"
#include "t.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct hist h, h2;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Exact quantile with the same rank rule as hist_quantile(). */
static double exact_q(const uint64_t *v, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * (double)n);

	return (double)v[rank ? rank - 1 : 0];
}

static void check_dist(const char *name, uint64_t *v, size_t n)
{
	static const double qs[] = { 0.01, 0.1, 0.5, 0.9, 0.99, 0.999 };
	double sum = 0;
	size_t i;

	hist_init(&h);
	for (i = 0; i < n; i++) {
		hist_add(&h, v[i]);
		sum += (double)v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	T_EQ_INT(h.count, n);
	T_NEAR(hist_mean(&h), sum / (double)n, 1e-6 * sum / (double)n);
	T_EQ_INT(hist_quantile(&h, 1.0), v[n - 1]);
	T_EQ_INT(hist_quantile(&h, 0.0), v[0]);
	for (i = 0; i < ARRAY_SIZE(qs); i++) {
		double e = exact_q(v, n, qs[i]), got = hist_quantile(&h, qs[i]);

		if (fabs(got - e) > 0.01 * e + 0.5)
			fprintf(stderr, "%s: q%.3f = %.1f, exact %.1f\n", name, qs[i], got, e);
		T_CHECK(fabs(got - e) <= 0.01 * e + 0.5);
	}
}

int main(void)
{
	enum { N = 200000 };
	uint64_t *v = malloc(N * sizeof(*v)), s = 88172645463325252ull, x;
	size_t i;

	if (!v)
		return 1;
	/* bucket bound: the middle of the bucket of x is within 0.5 % of x, everywhere */
	for (x = 1; x < (1ull << 42); x += x / 97 + 1) {
		hist_init(&h);
		hist_add(&h, x);
		hist_add(&h, 1);
		hist_add(&h, 1ull << 43);
		T_CHECK(fabs(hist_quantile(&h, 0.5) - (double)x) <= 0.005 * (double)x + 0.5);
	}
	/* uniform 10 us .. 1 ms */
	for (i = 0; i < N; i++)
		v[i] = 10000 + rng(&s) % 990000;
	check_dist("uniform", v, N);
	/* exponential, mean 200 us */
	for (i = 0; i < N; i++)
		v[i] = (uint64_t)(-200000.0 * log(((double)(rng(&s) % 1000000) + 0.5) / 1e6)) + 1;
	check_dist("exponential", v, N);
	/* log-normal-ish over six decades, as real devices with a slow tail */
	for (i = 0; i < N; i++)
		v[i] = (uint64_t)pow(10.0, 3.0 + 6.0 * (double)(rng(&s) % 1000000) / 1e6);
	check_dist("log-uniform", v, N);
	/* small exact values */
	for (i = 0; i < N; i++)
		v[i] = rng(&s) % 100;
	check_dist("small", v, N);

	/* merge is the sum */
	hist_init(&h);
	hist_init(&h2);
	for (i = 0; i < 1000; i++) {
		hist_add(i % 2 ? &h : &h2, 1000 + i);
	}
	hist_merge(&h, &h2);
	T_EQ_INT(h.count, 1000);
	T_EQ_INT(h.min, 1000);
	T_EQ_INT(h.max, 1999);
	T_NEAR(hist_mean(&h), 1499.5, 1e-9);
	/* empty */
	hist_init(&h2);
	T_EQ_INT(hist_quantile(&h2, 0.5), 0);
	T_EQ_INT(hist_mean(&h2), 0);
	/* clamped beyond the range, still counted with the exact max */
	hist_init(&h);
	hist_add(&h, UINT64_MAX / 2);
	T_EQ_INT(h.count, 1);
	T_CHECK(hist_quantile(&h, 0.5) == (double)(UINT64_MAX / 2));
	free(v);
	return t_done();
}
