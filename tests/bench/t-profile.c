/* t-profile.c - the profiles table, sizes, durations and `--test` specs, good and bad. */
#include <errno.h>

#include "bench/profile.h"
#include "t.h"

static struct bench_test t;
static char why[160];

static int parse(const char *spec)
{
	why[0] = '\0';
	return bench_test_parse(spec, &t, why, sizeof(why));
}

int main(void)
{
	const struct bench_profile *p;
	uint64_t v;
	unsigned i, n = 0;

	/* sizes: binary suffixes, decimal with B */
	T_EQ_INT(bench_parse_size("4k", &v), 0);
	T_EQ_INT(v, 4096);
	T_EQ_INT(bench_parse_size("1M", &v), 0);
	T_EQ_INT(v, 1048576);
	T_EQ_INT(bench_parse_size("1GiB", &v), 0);
	T_EQ_INT(v, 1073741824);
	T_EQ_INT(bench_parse_size("1GB", &v), 0);
	T_EQ_INT(v, 1000000000);
	T_EQ_INT(bench_parse_size("512", &v), 0);
	T_EQ_INT(v, 512);
	T_EQ_INT(bench_parse_size("1.5k", &v), 0);
	T_EQ_INT(v, 1536);
	T_EQ_INT(bench_parse_size("", &v), -EINVAL);
	T_EQ_INT(bench_parse_size("k", &v), -EINVAL);
	T_EQ_INT(bench_parse_size("-4k", &v), -EINVAL);
	T_EQ_INT(bench_parse_size("4x", &v), -EINVAL);
	T_EQ_INT(bench_parse_size("0.3", &v), -EINVAL);
	T_EQ_INT(bench_parse_size("99999999t", &v), -ERANGE);

	/* durations */
	T_EQ_INT(bench_parse_duration("5", &v), 0);
	T_EQ_INT(v, 5000000000ull);
	T_EQ_INT(bench_parse_duration("200ms", &v), 0);
	T_EQ_INT(v, 200000000ull);
	T_EQ_INT(bench_parse_duration("0.2s", &v), 0);
	T_EQ_INT(v, 200000000ull);
	T_EQ_INT(bench_parse_duration("2m", &v), 0);
	T_EQ_INT(v, 120000000000ull);
	T_EQ_INT(bench_parse_duration("5 s", &v), -EINVAL);
	T_EQ_INT(bench_parse_duration("s", &v), -EINVAL);
	T_EQ_INT(bench_parse_duration("5d", &v), -EINVAL);

	/* custom tests */
	T_EQ_INT(parse("rw=randread,bs=4k,qd=32,threads=1,time=5s"), 0);
	T_EQ_STR(t.name, "RND4K Q32T1");
	T_EQ_INT(t.rw, BENCH_RANDREAD);
	T_EQ_INT(t.bs, 4096);
	T_EQ_INT(t.qd, 32);
	T_EQ_INT(t.threads, 1);
	T_EQ_INT(t.time_ns, 5000000000ull);
	T_CHECK(!t.size_based);
	T_EQ_INT(parse("rw=write,bs=1m,qd=8,size=256m"), 0);
	T_EQ_STR(t.name, "SEQ1M Q8T1");
	T_CHECK(t.size_based);
	T_EQ_INT(t.size, 256 << 20);
	T_EQ_INT(parse("rw=read,bs=128k,iodepth=32,numjobs=4,runs=3,direct=0"), 0);
	T_EQ_STR(t.name, "SEQ128K Q32T4");
	T_EQ_INT(t.runs, 3);
	T_CHECK(t.buffered);
	T_EQ_INT(parse(" rw = randwrite , bs = 512 "), 0);
	T_EQ_STR(t.name, "RND512B Q1T1");

	T_EQ_INT(parse("bs=4k"), -EINVAL);
	T_CHECK(strstr(why, "rw=") != NULL);
	T_EQ_INT(parse("rw=randrw"), -EINVAL);
	T_CHECK(strstr(why, "randrw") != NULL);
	T_EQ_INT(parse("rw=read,bs=1000"), -EINVAL);
	T_CHECK(strstr(why, "multiple of 512") != NULL);
	T_EQ_INT(parse("rw=read,bs=128m"), -EINVAL);
	T_EQ_INT(parse("rw=read,qd=0"), -EINVAL);
	T_EQ_INT(parse("rw=read,qd=5000"), -EINVAL);
	T_EQ_INT(parse("rw=read,threads=x"), -EINVAL);
	T_EQ_INT(parse("rw=read,time=0"), -EINVAL);
	T_EQ_INT(parse("rw=read,runs=0"), -EINVAL);
	T_EQ_INT(parse("rw=read,color=blue"), -EINVAL);
	T_CHECK(strstr(why, "unknown key 'color'") != NULL);
	T_EQ_INT(parse("rw=read,bs"), -EINVAL);
	T_EQ_INT(parse("rw=read,,bs=4k"), 0); /* empty items are skipped */
	T_EQ_INT(parse("rw=read,bs=64k,size=4k"), -EINVAL);
	T_EQ_INT(parse("rw=read,direct=2"), -EINVAL);

	/* the table: CrystalDiskMark's default set, every profile sane */
	p = bench_profile_find("default");
	T_CHECK(p != NULL);
	if (p) {
		static const char *const names[] = { "SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1",
						     "RND4K Q1T1" };
		T_EQ_INT(p->ntests, 8);
		for (i = 0; i < p->ntests && i < 8; i++) {
			T_EQ_STR(p->tests[i].name, names[i / 2]);
			T_EQ_INT(bench_rw_is_write(p->tests[i].rw), i % 2);
		}
		T_EQ_INT(p->file_size, 1 << 30);
		T_EQ_INT(p->time_ns, 5000000000ull);
	}
	for (p = bench_profiles; p->name; p++, n++) {
		T_CHECK(p->ntests > 0 && p->ntests <= BENCH_MAX_TESTS);
		T_CHECK(p->help && *p->help);
		T_CHECK(bench_profile_find(p->name) == p);
		for (i = 0; i < p->ntests; i++) {
			const struct bench_test *x = &p->tests[i];

			T_CHECK(x->bs >= 512 && x->bs % 512 == 0 && x->qd && x->threads);
			T_CHECK(x->name[0]);
			T_CHECK(p->time_ns || x->time_ns || x->size_based);
			/* only the SD card test's writes end with fio's end_fsync, as agnostics' do */
			T_EQ_INT(x->end_sync, p->kind == BENCH_PROFILE_SDCARD &&
						      bench_rw_is_write(x->rw));
		}
	}
	T_EQ_INT(n, 10);
	T_CHECK(bench_profile_find("nope") == NULL);
	T_CHECK(bench_engine_find("io_uring") == &bench_engine_uring);
	T_CHECK(bench_engine_find("psync") == &bench_engine_psync);
	T_CHECK(bench_engine_find("null") == &bench_engine_null);
	T_CHECK(bench_engine_find("libaio") == NULL);
	return t_done();
}
