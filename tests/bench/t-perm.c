/* t-perm.c - the random offset order visits every block exactly once per pass, starts a new
 * order for the next pass, and is not the identity. */
#include <stdbool.h>

#include "bench/perm.h"
#include "common/util.h"
#include "t.h"

static void check_pass(uint64_t n, uint64_t seed)
{
	unsigned char *seen = calloc(n, 1);
	uint64_t rng = seed, i, in_place = 0, first_pass0 = 0, dup = 0, out = 0;
	struct perm p;

	perm_init(&p, n, &rng);
	for (i = 0; i < n; i++) {
		uint64_t v = perm_next(&p, &rng);

		if (i == 0)
			first_pass0 = v;
		if (v >= n) {
			out++;
			continue;
		}
		if (seen[v]++)
			dup++;
		in_place += v == i;
	}
	T_EQ_INT(out, 0);
	T_EQ_INT(dup, 0);
	if (n >= 1000)
		T_CHECK(in_place < n / 100); /* a shuffle, not the identity */
	/* the second pass is complete too, in another order */
	memset(seen, 0, n);
	dup = 0;
	{
		uint64_t v0 = 0;

		for (i = 0; i < n; i++) {
			uint64_t v = perm_next(&p, &rng);

			if (i == 0)
				v0 = v;
			if (v < n && seen[v]++)
				dup++;
		}
		T_EQ_INT(dup, 0);
		if (n >= 1000)
			T_CHECK(v0 != first_pass0 || n < 2);
	}
	free(seen);
}

int main(void)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 1000, 4097, 65536, 262144, 300001 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		check_pass(sizes[i], 0x1234 + i);
	return t_done();
}
