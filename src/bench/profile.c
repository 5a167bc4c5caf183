/* profile.c - the profiles table and the parsers for custom tests, sizes and durations.
 * CrystalDiskMark's sets come from its source (docs/research/anchors.md, section 3). */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "bench/profile.h"
#include "common/util.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)
#define SEC 1000000000ull

#define T(nm, rw_, bs_, qd_, th_) \
	{ .name = nm, .kind = BENCH_TEST_IO, .rw = rw_, .bs = bs_, .qd = qd_, .threads = th_ }
#define RW(nm, seq, bs_, qd_, th_)                                         \
	T(nm, (seq) ? BENCH_READ : BENCH_RANDREAD, bs_, qd_, th_),         \
		T(nm, (seq) ? BENCH_WRITE : BENCH_RANDWRITE, bs_, qd_, th_)

static const struct bench_test t_default[] = {
	RW("SEQ1M Q8T1", 1, 1 * MiB, 8, 1),   RW("SEQ1M Q1T1", 1, 1 * MiB, 1, 1),
	RW("RND4K Q32T1", 0, 4 * KiB, 32, 1), RW("RND4K Q1T1", 0, 4 * KiB, 1, 1),
};
static const struct bench_test t_peak[] = {
	RW("SEQ1M Q8T1", 1, 1 * MiB, 8, 1),
	RW("RND4K Q32T1", 0, 4 * KiB, 32, 1),
};
static const struct bench_test t_real[] = {
	RW("SEQ1M Q1T1", 1, 1 * MiB, 1, 1),
	RW("RND4K Q1T1", 0, 4 * KiB, 1, 1),
};
static const struct bench_test t_nvme[] = {
	RW("SEQ1M Q8T1", 1, 1 * MiB, 8, 1),     RW("SEQ128K Q32T1", 1, 128 * KiB, 32, 1),
	RW("RND4K Q32T16", 0, 4 * KiB, 32, 16), RW("RND4K Q1T1", 0, 4 * KiB, 1, 1),
};
/* The fio job of the seeds: SEQ1M, RND512K, RND4K at QD1, RND4K at QD32. */
static const struct bench_test t_extended[] = {
	RW("SEQ1M Q1T1", 1, 1 * MiB, 1, 1),     RW("RND512K Q1T1", 0, 512 * KiB, 1, 1),
	RW("RND4K Q1T1", 0, 4 * KiB, 1, 1),     RW("RND4K Q32T1", 0, 4 * KiB, 32, 1),
};
static const struct bench_test t_quick[] = {
	RW("SEQ1M Q8T1", 1, 1 * MiB, 8, 1),
	RW("RND4K Q32T1", 0, 4 * KiB, 32, 1),
	RW("RND4K Q1T1", 0, 4 * KiB, 1, 1),
};
/* hdparm -T, -t and -t --direct: read(2) of 2 MiB at QD1, 2 s and 3 s, no warm-up; the
 * profile's interval is hdparm's 3 s pause between flushing and timing each disk read. */
static const struct bench_test t_hdparm[] = {
	{ .name = "cached reads", .kind = BENCH_TEST_HDPARM_CACHED, .rw = BENCH_READ,
	  .bs = 2 * MiB, .qd = 1, .threads = 1, .time_ns = 2 * SEC, .size = 2 * MiB,
	  .buffered = true, .sync_engine = true, .no_ramp = true },
	{ .name = "buffered disk reads", .kind = BENCH_TEST_HDPARM_DISK, .rw = BENCH_READ,
	  .bs = 2 * MiB, .qd = 1, .threads = 1, .time_ns = 3 * SEC, .size_based = true,
	  .buffered = true, .sync_engine = true, .no_ramp = true, .settle = true },
	{ .name = "O_DIRECT disk reads", .kind = BENCH_TEST_HDPARM_DISK, .rw = BENCH_READ,
	  .bs = 2 * MiB, .qd = 1, .threads = 1, .time_ns = 3 * SEC, .size_based = true,
	  .sync_engine = true, .no_ramp = true, .settle = true },
};
/* Raspberry Pi's SD card test (agnostics sd_bench.fio): 256 MiB, QD32, O_DIRECT; the
 * sequential jobs cover the file once, the random ones stop at 10 s or the file's size; the
 * writes are timed up to the end of an fdatasync, as fio times end_fsync=1. */
static const struct bench_test t_sdcard[] = {
	{ .name = "SEQ4M Q32T1", .rw = BENCH_WRITE, .bs = 4 * MiB, .qd = 32, .threads = 1,
	  .size_based = true, .no_ramp = true, .end_sync = true },
	{ .name = "SEQ4M Q32T1", .rw = BENCH_READ, .bs = 4 * MiB, .qd = 32, .threads = 1,
	  .size_based = true, .no_ramp = true },
	{ .name = "RND4K Q32T1", .rw = BENCH_RANDWRITE, .bs = 4 * KiB, .qd = 32, .threads = 1,
	  .time_ns = 10 * SEC, .size_based = true, .no_ramp = true, .end_sync = true },
	{ .name = "RND4K Q32T1", .rw = BENCH_RANDREAD, .bs = 4 * KiB, .qd = 32, .threads = 1,
	  .time_ns = 10 * SEC, .size_based = true, .no_ramp = true },
};
/* dd if=/dev/zero of=FILE oflag=direct bs=128k: one sequential pass, QD1. */
static const struct bench_test t_dd[] = {
	{ .name = "SEQ128K Q1T1", .rw = BENCH_WRITE, .bs = 128 * KiB, .qd = 1, .threads = 1,
	  .size_based = true, .no_ramp = true },
};
static const struct bench_test t_sustained[] = {
	{ .name = "SEQ1M Q8T1", .rw = BENCH_WRITE, .bs = 1 * MiB, .qd = 8, .threads = 1,
	  .size_based = true, .no_ramp = true },
};

#define P(arr) arr, ARRAY_SIZE(arr)

const struct bench_profile bench_profiles[] = {
	{ "default", "CrystalDiskMark's default: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1",
	  BENCH_PROFILE_PLAIN, P(t_default), 1 * GiB, 3, 5 * SEC, 5 * SEC, false, true },
	{ "peak", "CrystalDiskMark's peak: SEQ1M Q8T1, RND4K Q32T1, best of the runs",
	  BENCH_PROFILE_PLAIN, P(t_peak), 1 * GiB, 3, 5 * SEC, 5 * SEC, true, true },
	{ "real", "CrystalDiskMark's real world: SEQ1M Q1T1, RND4K Q1T1, best of the runs",
	  BENCH_PROFILE_PLAIN, P(t_real), 1 * GiB, 3, 5 * SEC, 5 * SEC, true, true },
	{ "nvme", "CrystalDiskMark's NVMe set: SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1",
	  BENCH_PROFILE_PLAIN, P(t_nvme), 1 * GiB, 3, 5 * SEC, 5 * SEC, false, true },
	{ "hdparm", "hdparm -T and -t (buffered, O_DIRECT): 2 MiB reads for 2 s / 3 s, 3 s pause first",
	  BENCH_PROFILE_HDPARM, P(t_hdparm), 1 * GiB, 1, 3 * SEC, 3 * SEC, false, true },
	{ "extended", "a longer fio-style job: SEQ1M Q1, RND512K Q1, RND4K Q1, RND4K Q32",
	  BENCH_PROFILE_PLAIN, P(t_extended), 1 * GiB, 1, 5 * SEC, 0, false, true },
	{ "sdcard", "SD Association A1/A2 classes, measured like Raspberry Pi's SD card test",
	  BENCH_PROFILE_SDCARD, P(t_sdcard), 256 * MiB, 1, 10 * SEC, 0, false, true },
	{ "dd", "dd oflag=direct bs=128k: one sequential O_DIRECT write of --size",
	  BENCH_PROFILE_DD, P(t_dd), 1 * GiB, 1, 0, 0, false, false },
	{ "sustained", "write until --size or until the rate settles after falling (cache end)",
	  BENCH_PROFILE_SUSTAINED, P(t_sustained), 4 * GiB, 1, 0, 0, false, false },
	{ "quick", "a one-minute health figure: SEQ1M Q8, RND4K Q32 and Q1, read and write",
	  BENCH_PROFILE_PLAIN, P(t_quick), 256 * MiB, 1, 5 * SEC, 0, false, true },
	{ NULL, NULL, BENCH_PROFILE_PLAIN, NULL, 0, 0, 0, 0, 0, false, false },
};

const struct bench_profile *bench_profile_find(const char *name)
{
	const struct bench_profile *p;

	for (p = bench_profiles; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

const char *bench_rw_name(enum bench_rw rw)
{
	static const char *const names[] = { "read", "write", "randread", "randwrite" };

	return names[rw];
}

/* The number and its unit suffix; -EINVAL unless s is a non-negative number. */
static int split_number(const char *s, double *v, const char **unit)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s) && *s != '.')
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || !isfinite(*v) || *v < 0)
		return -EINVAL;
	*unit = end;
	return 0;
}

int bench_parse_size(const char *s, uint64_t *out)
{
	static const struct {
		const char *u;
		double mul;
	} units[] = {
		{ "", 1 },	    { "b", 1 },		{ "k", 1024.0 },	 { "kib", 1024.0 },
		{ "m", 1048576.0 }, { "mib", 1048576.0 }, { "g", 1073741824.0 },
		{ "gib", 1073741824.0 }, { "t", 1099511627776.0 }, { "tib", 1099511627776.0 },
		{ "kb", 1e3 },	    { "mb", 1e6 },	{ "gb", 1e9 },		 { "tb", 1e12 },
	};
	const char *unit;
	char low[8];
	double v;
	size_t i;

	if (split_number(s, &v, &unit))
		return -EINVAL;
	for (i = 0; unit[i] && i < sizeof(low) - 1; i++)
		low[i] = (char)tolower((unsigned char)unit[i]);
	if (unit[i])
		return -EINVAL;
	low[i] = '\0';
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(low, units[i].u))
			continue;
		v *= units[i].mul;
		if (v >= 1.8e19)
			return -ERANGE;
		if (v != floor(v))
			return -EINVAL;
		*out = (uint64_t)v;
		return 0;
	}
	return -EINVAL;
}

int bench_parse_duration(const char *s, uint64_t *out)
{
	const char *unit;
	double v, mul;

	if (split_number(s, &v, &unit))
		return -EINVAL;
	if (!*unit || !strcmp(unit, "s"))
		mul = 1e9;
	else if (!strcmp(unit, "ms"))
		mul = 1e6;
	else if (!strcmp(unit, "m") || !strcmp(unit, "min"))
		mul = 60e9;
	else if (!strcmp(unit, "h"))
		mul = 3600e9;
	else
		return -EINVAL;
	if (v * mul >= 1e18)
		return -ERANGE;
	*out = (uint64_t)(v * mul + 0.5);
	return 0;
}

static void size_short(uint64_t b, char *buf, size_t cap)
{
	if (b >= MiB && b % MiB == 0)
		str_fmt(buf, cap, "%lluM", (unsigned long long)(b / MiB));
	else if (b >= KiB && b % KiB == 0)
		str_fmt(buf, cap, "%lluK", (unsigned long long)(b / KiB));
	else
		str_fmt(buf, cap, "%lluB", (unsigned long long)b);
}

void bench_test_name(const struct bench_test *t, char *buf, size_t cap)
{
	char bs[24];

	size_short(t->bs, bs, sizeof(bs));
	str_fmt(buf, cap, "%s%s Q%uT%u", bench_rw_is_random(t->rw) ? "RND" : "SEQ", bs, t->qd,
		t->threads);
}

static int parse_rw(const char *v, enum bench_rw *rw)
{
	static const struct {
		const char *name;
		enum bench_rw rw;
	} names[] = {
		{ "read", BENCH_READ },		{ "seqread", BENCH_READ },
		{ "write", BENCH_WRITE },	{ "seqwrite", BENCH_WRITE },
		{ "randread", BENCH_RANDREAD }, { "randwrite", BENCH_RANDWRITE },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(v, names[i].name)) {
			*rw = names[i].rw;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_count(const char *v, unsigned max, unsigned *out)
{
	uint64_t n;

	if (parse_u64(v, &n) || n < 1 || n > max)
		return -EINVAL;
	*out = (unsigned)n;
	return 0;
}

/* One key=value of a test spec. */
static int test_set(struct bench_test *t, const char *key, const char *v, bool *has_time,
		    char *why, size_t whycap)
{
	uint64_t n;

	if (!strcmp(key, "rw")) {
		if (parse_rw(v, &t->rw))
			goto bad;
	} else if (!strcmp(key, "bs")) {
		if (bench_parse_size(v, &n) || n < 512 || n > 64 * MiB || n % 512) {
			str_fmt(why, whycap, "bs '%s' must be a multiple of 512 from 512 to 64M", v);
			return -EINVAL;
		}
		t->bs = (uint32_t)n;
	} else if (!strcmp(key, "qd") || !strcmp(key, "iodepth")) {
		if (parse_count(v, 1024, &t->qd))
			goto bad;
	} else if (!strcmp(key, "threads") || !strcmp(key, "numjobs")) {
		if (parse_count(v, 64, &t->threads))
			goto bad;
	} else if (!strcmp(key, "time") || !strcmp(key, "runtime")) {
		if (bench_parse_duration(v, &t->time_ns) || !t->time_ns)
			goto bad;
		*has_time = true;
	} else if (!strcmp(key, "size")) {
		if (bench_parse_size(v, &t->size) || !t->size)
			goto bad;
	} else if (!strcmp(key, "runs")) {
		if (parse_count(v, BENCH_MAX_RUNS, &t->runs))
			goto bad;
	} else if (!strcmp(key, "direct")) {
		if (strcmp(v, "0") && strcmp(v, "1"))
			goto bad;
		t->buffered = !strcmp(v, "0");
	} else {
		str_fmt(why, whycap,
			"unknown key '%s' (rw, bs, qd, threads, time, size, runs, direct)", key);
		return -EINVAL;
	}
	return 0;
bad:
	str_fmt(why, whycap, "bad value '%s' for '%s'", v, key);
	return -EINVAL;
}

/* The key's own name, fio's spelling mapped to ours: "iodepth" and "qd" are one key. */
static const char *key_canonical(const char *key)
{
	static const char *const alias[][2] = {
		{ "iodepth", "qd" }, { "numjobs", "threads" }, { "runtime", "time" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(alias); i++)
		if (!strcmp(key, alias[i][0]))
			return alias[i][1];
	return key;
}

int bench_test_parse(const char *spec, struct bench_test *t, char *why, size_t whycap)
{
	char buf[512], *save = NULL, *item;
	const char *seen[16];
	bool has_rw = false, has_time = false;
	size_t nseen = 0, i;

	memset(t, 0, sizeof(*t));
	t->kind = BENCH_TEST_IO;
	t->bs = 4096;
	t->qd = 1;
	t->threads = 1;
	if (str_copy(buf, sizeof(buf), spec)) {
		str_fmt(why, whycap, "too long");
		return -EINVAL;
	}
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '='), *key;

		if (!eq || eq == item || !eq[1]) {
			str_fmt(why, whycap, "'%s' is not key=value", item);
			return -EINVAL;
		}
		*eq = '\0';
		key = str_trim(item);
		/* "rw=read,rw=write" used to keep the last silently: a key given twice is a
		 * mistake the user should see */
		for (i = 0; i < nseen; i++) {
			if (!strcmp(key_canonical(seen[i]), key_canonical(key))) {
				str_fmt(why, whycap, "'%s' is given twice", key_canonical(key));
				return -EINVAL;
			}
		}
		if (test_set(t, key, str_trim(eq + 1), &has_time, why, whycap))
			return -EINVAL;
		if (nseen < ARRAY_SIZE(seen))
			seen[nseen++] = key;
		has_rw = has_rw || !strcmp(key, "rw");
	}
	if (!has_rw) {
		str_fmt(why, whycap, "rw= is missing (read, write, randread, randwrite)");
		return -EINVAL;
	}
	if (t->size && t->size < t->bs) {
		str_fmt(why, whycap, "size is smaller than bs");
		return -EINVAL;
	}
	/* like fio without time_based: a size and no time means one pass over size */
	t->size_based = t->size && !has_time;
	bench_test_name(t, t->name, sizeof(t->name));
	return 0;
}
