/* profile.h - the tests a profile runs (CrystalDiskMark, hdparm, fio job, SD card classes ...)
 * and the parser of `--test rw=...,bs=...` custom tests, sizes and durations. */
#ifndef SBCDISK_BENCH_PROFILE_H
#define SBCDISK_BENCH_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/job.h"

enum bench_test_kind {
	BENCH_TEST_IO,            /* an ordinary measured test */
	BENCH_TEST_HDPARM_CACHED, /* hdparm -T: one 2 MiB buffer re-read, a memory figure */
	BENCH_TEST_HDPARM_DISK,   /* hdparm -t: sequential 2 MiB reads after a cache flush */
};

struct bench_test {
	char name[40];        /* "SEQ1M Q8T1" */
	enum bench_test_kind kind;
	enum bench_rw rw;
	uint32_t bs;
	unsigned qd;
	unsigned threads;
	uint64_t time_ns;     /* 0: the profile's (or --time) */
	uint64_t size;        /* region of the file, and a size-based test's amount; 0: file */
	bool size_based;      /* stop after `size` bytes (or time_ns, whichever first) */
	unsigned runs;        /* 0: the profile's (or --runs) */
	bool buffered;        /* through the page cache, dropped first */
	bool sync_engine;     /* always psync: hdparm reads with read(2) at QD1 */
	bool no_ramp;
	bool settle;          /* the interval comes before every run, not only the first */
	bool end_sync;        /* a write's clock runs on through an fdatasync (fio end_fsync=1) */
};

enum bench_profile_kind {
	BENCH_PROFILE_PLAIN,
	BENCH_PROFILE_HDPARM,
	BENCH_PROFILE_SDCARD,
	BENCH_PROFILE_DD,
	BENCH_PROFILE_SUSTAINED,
};

struct bench_profile {
	const char *name;
	const char *help;
	enum bench_profile_kind kind;
	const struct bench_test *tests;
	unsigned ntests;
	uint64_t file_size;
	unsigned runs;
	uint64_t time_ns;
	uint64_t interval_ns; /* pause after a test's cache flush, before its clock */
	bool best_of;         /* report the best run (peak, real) instead of the mean */
	bool fill;            /* the test file is written in full before the tests */
};

#define BENCH_MAX_TESTS 32
#define BENCH_MAX_RUNS 100
/* Threads of one test (psync: threads x qd; io_uring: threads). The built-in profiles need
 * 512 at most (RND4K Q32T16 with psync). */
#define BENCH_MAX_WORKERS 512
/* Buffers in flight of one test, qd x threads x bs (SEQ4M Q32T1: 128 MiB). */
#define BENCH_MAX_INFLIGHT_BYTES (1024ull << 20)

const struct bench_profile *bench_profile_find(const char *name);
/* The table, ended by an entry with name NULL. */
extern const struct bench_profile bench_profiles[];

/* "4k", "1M", "1GiB", "512" -> bytes (k/m/g/t are powers of 1024; "kB" etc. powers of 1000).
 * 0, -EINVAL or -ERANGE. */
int bench_parse_size(const char *s, uint64_t *out);
/* "5", "5s", "200ms", "1.5s", "2m" -> ns. 0 or -EINVAL. */
int bench_parse_duration(const char *s, uint64_t *out);

/* Parse "rw=randread,bs=4k,qd=32,threads=1,time=5s,size=...,runs=..." into t.
 * 0, or -EINVAL with a reason in why. */
int bench_test_parse(const char *spec, struct bench_test *t, char *why, size_t whycap);
/* "SEQ1M Q8T1", "RND4K Q32T16". */
void bench_test_name(const struct bench_test *t, char *buf, size_t cap);
const char *bench_rw_name(enum bench_rw rw);

#endif
