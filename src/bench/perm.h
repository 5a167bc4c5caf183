/* perm.h - random offsets that visit every block once per pass, in a new order each pass.
 * Header-only so the job runner inlines it and the tests can check it directly. */
#ifndef SBCDISK_BENCH_PERM_H
#define SBCDISK_BENCH_PERM_H

#include <stdint.h>

/*
 * A random permutation of [0, n): a 4-round Feistel network over the smallest even number of
 * bits that covers n, walking the cycle until a value below n comes out. Like fio's default
 * random map, a pass reads or writes every block once, in random order, without a bitmap;
 * after a pass the key changes. Repeats within a pass would measure the drive's and the page
 * cache's hits on recently touched blocks instead of the medium.
 */
struct perm {
	uint64_t n, i, half_mask;
	unsigned half_bits;
	uint64_t key[4];
};

static inline uint64_t perm_splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void perm_init(struct perm *p, uint64_t n, uint64_t *rng)
{
	unsigned bits = 2, k;

	while (bits < 64 && (1ull << bits) < n)
		bits++;
	bits += bits & 1;
	p->n = n ? n : 1;
	p->i = 0;
	p->half_bits = bits / 2;
	p->half_mask = (1ull << p->half_bits) - 1;
	for (k = 0; k < 4; k++)
		p->key[k] = perm_splitmix(rng);
}

static inline uint64_t perm_round(uint64_t x, uint64_t key)
{
	x = (x ^ key) * 0x9e3779b97f4a7c15ull;
	return x ^ (x >> 31);
}

static inline uint64_t perm_next(struct perm *p, uint64_t *rng)
{
	uint64_t domain = 1ull << (2 * p->half_bits), v;

	for (;;) {
		uint64_t l, r, t;
		unsigned k;

		if (p->i >= domain)
			perm_init(p, p->n, rng); /* a new pass in a new order */
		v = p->i++;
		l = v >> p->half_bits;
		r = v & p->half_mask;
		for (k = 0; k < 4; k++) {
			t = r;
			r = l ^ (perm_round(r, p->key[k]) & p->half_mask);
			l = t;
		}
		v = (l << p->half_bits) | r;
		if (v < p->n)
			return v;
	}
}

#endif
