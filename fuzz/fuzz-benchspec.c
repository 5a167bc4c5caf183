/* fuzz-benchspec.c - the bench's argv parsers: `--test rw=...,bs=...` specs, --size and --time
 * values. Any bytes: no crash; a spec that parses is one the engines can run (bs, qd, threads,
 * runs and size in their ranges, a clean name); a refusal always says why. */
#include <stdint.h>
#include <stdlib.h>

#include "bench/profile.h"
#include "common/util.h"

#define SPEC_FUZZ_MAX 4096

static void check(bool ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bench_test t;
	char *s, why[256];
	uint64_t v, again;
	int ret;

	if (!size || size > SPEC_FUZZ_MAX)
		return 0;
	/* the first byte picks the parser; the rest is its argument, NUL-terminated */
	s = malloc(size);
	if (!s)
		abort();
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 3) {
	case 0:
		why[0] = '\0';
		ret = bench_test_parse(s, &t, why, sizeof(why));
		check(!ret || (ret == -EINVAL && why[0]));
		if (ret)
			break;
		check(t.bs >= 512 && t.bs <= 64u << 20 && t.bs % 512 == 0);
		check(t.qd >= 1 && t.qd <= 1024 && t.threads >= 1 && t.threads <= 64);
		check(t.runs <= BENCH_MAX_RUNS && (!t.size || t.size >= t.bs));
		check(t.rw == BENCH_READ || t.rw == BENCH_WRITE || t.rw == BENCH_RANDREAD ||
		      t.rw == BENCH_RANDWRITE);
		check(t.name[0] && str_is_clean_utf8(t.name));
		break;
	case 1:
		ret = bench_parse_size(s, &v);
		check(!ret || ret == -EINVAL || ret == -ERANGE);
		/* the same text gives the same size */
		if (!ret)
			check(!bench_parse_size(s, &again) && again == v);
		break;
	default:
		ret = bench_parse_duration(s, &v);
		check(!ret || ret == -EINVAL || ret == -ERANGE);
		break;
	}
	free(s);
	return 0;
}
