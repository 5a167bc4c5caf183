/* bench-cols.c - the figures of a benchmark test, described once for the table and the JSON.
 * Units are exact: MB/s is 10^6 bytes/s, MiB/s 2^20, JSON carries bytes/s and microseconds. */
#include <math.h>

#include "common/util.h"
#include "report/bench-report.h"

static bool has_runs(const struct bench_test_result *r)
{
	return r->runs_done > 0;
}

static bool has_lat(const struct bench_test_result *r)
{
	return r->lat.count > 0;
}

#define GETTER(fn, cond, expr)                                                \
	static bool fn(const struct bench_test_result *r, double *v)          \
	{                                                                     \
		if (!(cond))                                                  \
			return false;                                         \
		*v = (expr);                                                  \
		return true;                                                  \
	}

GETTER(get_mbps, has_runs(r), r->bw / 1e6)
GETTER(get_mibps, has_runs(r), r->bw / 1048576.0)
GETTER(get_iops, has_runs(r), r->iops)
GETTER(get_bw, has_runs(r), round(r->bw))
GETTER(get_bw_min, has_runs(r), round(r->bw_min))
GETTER(get_bw_max, has_runs(r), round(r->bw_max))
GETTER(get_cv, has_runs(r), r->bw_cv)
GETTER(get_cv_pct, has_runs(r) && r->runs_done > 1, r->bw_cv * 100)
GETTER(get_ci_pct, has_runs(r) && r->bw_ci >= 0 && isfinite(r->bw_ci),
       r->bw_ci * 100)
GETTER(get_seconds_shown, has_runs(r), r->seconds)
GETTER(get_lat_mean, has_lat(r), hist_mean(&r->lat) / 1e3)
GETTER(get_lat_p50, has_lat(r), hist_quantile(&r->lat, 0.50) / 1e3)
GETTER(get_lat_p90, has_lat(r), hist_quantile(&r->lat, 0.90) / 1e3)
GETTER(get_lat_p99, has_lat(r), hist_quantile(&r->lat, 0.99) / 1e3)
GETTER(get_lat_p999, has_lat(r), hist_quantile(&r->lat, 0.999) / 1e3)
GETTER(get_lat_max, has_lat(r), (double)r->lat.max / 1e3)
GETTER(get_cpu_user, true, r->cpu_user_s)
GETTER(get_cpu_sys, true, r->cpu_sys_s)
GETTER(get_seconds, has_runs(r), r->seconds)

const struct bench_col bench_cols[] = {
	{ "MB/s", NULL, 9, 2, false, get_mbps, 1 },
	{ "MiB/s", NULL, 10, 2, false, get_mibps, 9 },
	{ "IOPS", NULL, 9, 1, false, get_iops, 2 },
	{ "+/-%", "bw_ci95_pct", 5, 1, false, get_ci_pct, 3 },
	{ "secs", NULL, 5, 1, false, get_seconds_shown, 5 },
	{ NULL, "bw_bytes_per_s", 0, 0, true, get_bw },
	{ NULL, "bw_bytes_per_s_min", 0, 0, true, get_bw_min },
	{ NULL, "bw_bytes_per_s_max", 0, 0, true, get_bw_max },
	{ NULL, "bw_cv", 0, 0, false, get_cv },
	{ NULL, "iops", 0, 0, false, get_iops },
	{ "mean us", "lat_mean_us", 9, 1, false, get_lat_mean, 6 },
	{ "p50", "lat_p50_us", 9, 1, false, get_lat_p50, 8 },
	{ "p90", "lat_p90_us", 9, 1, false, get_lat_p90, 11 },
	{ "p99", "lat_p99_us", 9, 1, false, get_lat_p99, 7 },
	{ "p99.9", "lat_p999_us", 9, 1, false, get_lat_p999, 12 },
	{ "max", "lat_max_us", 9, 1, false, get_lat_max, 10 },
	/* how far the runs differ: shown at 80 columns, "-" for a single run */
	{ "CV%", NULL, 5, 1, false, get_cv_pct, 4 },
	{ NULL, "cpu_user_s", 0, 0, false, get_cpu_user },
	{ NULL, "cpu_sys_s", 0, 0, false, get_cpu_sys },
	{ NULL, "measured_s", 0, 0, false, get_seconds },
};

const unsigned bench_ncols = ARRAY_SIZE(bench_cols);
