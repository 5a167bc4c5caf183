/* bench-table.c - the CrystalDiskMark-like table of `sbcdisk bench`, plus hdparm- and dd-style
 * lines for those profiles, the SD class checks, warnings and notes. */
#include <string.h>
#include <time.h>

#include "common/util.h"
#include "bench/stable.h"
#include "report/bench-report.h"
#include "report/text.h"
#include "store/verdict.h"

#define MiB 1048576.0

/* The Test column: as wide as the longest name (hdparm's are long), at least its header. */
static int name_width(const struct bench_run *run)
{
	size_t w = 4;
	unsigned i;

	for (i = 0; i < run->ntests; i++)
		if (strlen(run->tests[i].test.name) > w)
			w = strlen(run->tests[i].test.name);
	return (int)w;
}

/* The verdict beside the MB/s figure: what limits it ("link", "protocol", "device",
 * "problem", "memory"), "-" when not judged. */
#define LIMIT_WIDTH 8
#define LIMIT_RANK 2

/* Which of bench_cols are shown: those with a header, on a terminal as many as fit, by rank
 * (the test's name and R/W always); *limit: the verdict column (when there are verdicts). */
static void cols_fit(int nw, bool judged, bool *show, bool *limit)
{
	struct text_fit_col fit[TEXT_TABLE_COLS_MAX + 3];
	size_t map[TEXT_TABLE_COLS_MAX], n = 3, i;

	fit[0] = (struct text_fit_col){ .natural = (size_t)nw, .min = (size_t)nw, .keep = true };
	fit[1] = (struct text_fit_col){ .natural = 9, .min = 9, .keep = true };
	fit[2] = (struct text_fit_col){ .natural = LIMIT_WIDTH, .min = LIMIT_WIDTH,
					.rank = LIMIT_RANK };
	*limit = judged;
	if (!judged)
		fit[2].natural = fit[2].min = 0;
	for (i = 0; i < bench_ncols; i++) {
		show[i] = bench_cols[i].header != NULL;
		if (!show[i] || n >= TEXT_TABLE_COLS_MAX + 2)
			continue;
		map[n - 3] = i;
		fit[n++] = (struct text_fit_col){ .natural = (size_t)bench_cols[i].width,
						  .min = (size_t)bench_cols[i].width,
						  .rank = bench_cols[i].rank };
	}
	if (!text_width())
		return;
	/* no verdicts: the column takes no room (its separator aside) */
	text_fit(fit, n, 1, text_width() + (judged ? 0 : 1));
	*limit = judged && fit[2].width != 0;
	for (i = 3; i < n; i++)
		show[map[i - 3]] = fit[i].width != 0;
}

/* The verdict of test i of the bench (judged: the store's run made of it, its tests in the
 * same order), or "-" when the path model backs none (verdict_test()). */
static const char *limit_of(const struct run *judged, unsigned i)
{
	struct verdict v;
	const char *name;

	if (!judged || i >= judged->ntests || verdict_test(judged, &judged->tests[i], &v))
		return "-";
	name = verdict_limit_name(v.limit);
	return name ? name : "-";
}

static void print_header(const struct bench_run *run, int nw, const bool *show, bool limit,
			 FILE *f)
{
	const struct bench_target *t = &run->target;
	char size[32];
	unsigned i;

	size_to_human(run->file_size, size, sizeof(size));
	fprintf(f, "sbcdisk bench: profile %s, engine %s\n", run->profile_name, run->engine->name);
	fprintf(f, "Target: %s (%s", t->shown, bench_target_kind_name(t->kind));
	if (t->kind == BENCH_TARGET_DIR)
		fprintf(f, ", test file %s", size);
	if (t->has_device)
		fprintf(f, ", on %s, disk %s", t->device, t->disk[0] ? t->disk : "-");
	else
		fprintf(f, ", device unknown");
	fprintf(f, ")\n");
	if (t->attachment[0])
		fprintf(f, "Attached: %s\n", t->attachment);
	fprintf(f, "* MB/s = 1,000,000 bytes/s, MiB/s = 1,048,576 bytes/s, latency in us\n\n");
	fprintf(f, "%-*s %-9s", nw, "Test", "R/W");
	for (i = 0; i < bench_ncols; i++) {
		if (show[i])
			fprintf(f, " %*s", bench_cols[i].width, bench_cols[i].header);
		if (i == 0 && limit)
			fprintf(f, " %-*s", LIMIT_WIDTH, "limit");
	}
	fputc('\n', f);
}

static void print_row(const struct bench_test_result *r, int nw, const bool *show,
		      const char *limit, FILE *f)
{
	unsigned i;

	fprintf(f, "%-*s %-9s", nw, r->test.name, bench_rw_name(r->test.rw));
	if (r->skipped) {
		char why[512];

		/* one line a test: on a terminal the reason is cut to its width */
		str_fmt(why, sizeof(why), "skipped: %s", r->skip_reason);
		if (text_width() > (size_t)nw + 12)
			text_cut(why, sizeof(why), why, text_width() - (size_t)nw - 11);
		fprintf(f, " %s\n", why);
		return;
	}
	for (i = 0; i < bench_ncols; i++) {
		const struct bench_col *c = &bench_cols[i];
		double v;

		if (i == 1 && limit)
			fprintf(f, " %-*s", LIMIT_WIDTH, limit);
		if (!show[i])
			continue;
		if (c->get(r, &v))
			/* 4770876.5 fills a column of 9 and runs into its neighbour: a figure of
			 * six digits or more drops its decimal */
			fprintf(f, " %*.*f", c->width, v >= 99999.5 ? 0 : c->prec, v);
		else
			fprintf(f, " %*s", c->width, "-");
	}
	fputc('\n', f);
}

/* hdparm's own wording; its "MB" are MiB, so the MB/s figure follows in brackets. */
static void print_hdparm(const struct bench_run *run, FILE *f)
{
	unsigned i;

	fputc('\n', f);
	for (i = 0; i < run->ntests; i++) {
		const struct bench_test_result *r = &run->tests[i];
		double secs = r->seconds, mib = (double)r->bytes / MiB;

		if (!r->runs_done || secs <= 0)
			continue;
		if (r->test.kind == BENCH_TEST_HDPARM_CACHED)
			fprintf(f, " Timing cached reads:   %.0f MB in %5.2f seconds = %.2f MB/sec"
				   "   [%.1f MB/s, a memory figure, not the disk]\n",
				mib, secs, mib / secs, r->bw / 1e6);
		else
			fprintf(f, " Timing %s disk reads: %4.0f MB in %5.2f seconds = %6.2f MB/sec"
				   "   [%.1f MB/s]\n",
				r->direct ? "O_DIRECT" : "buffered", mib, secs, mib / secs,
				r->bw / 1e6);
	}
	fprintf(f, "(hdparm's \"MB\" are MiB; the figures in brackets are MB/s = 10^6 bytes/s)\n");
}

/* dd's human sizes: SI and IEC units, one decimal below 10 ("4.3 GB, 4.0 GiB"). */
static void dd_human(double v, double base, const char *const *units, char *buf, size_t cap)
{
	unsigned u = 0;

	while (v >= base && units[u + 1]) {
		v /= base;
		u++;
	}
	str_fmt(buf, cap, v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
}

static void print_dd(const struct bench_run *run, FILE *f)
{
	static const char *const si[] = { "B", "kB", "MB", "GB", "TB", NULL };
	static const char *const iec[] = { "B", "KiB", "MiB", "GiB", "TiB", NULL };
	const struct bench_test_result *r = &run->tests[0];
	char a[32], b[32];
	double rate;
	unsigned u = 2;

	if (!r->runs_done || r->seconds <= 0)
		return;
	dd_human((double)r->bytes, 1000, si, a, sizeof(a));
	dd_human((double)r->bytes, 1024, iec, b, sizeof(b));
	rate = r->bw / 1e6;
	if (rate >= 1000) {
		rate /= 1000;
		u = 3;
	}
	fprintf(f, "\n%llu bytes (%s, %s) copied, %g s, %.3g %s/s\n", (unsigned long long)r->bytes,
		a, b, r->seconds, rate, si[u]);
}

static void print_series(const struct bench_run *run, const struct bench_test_result *r,
			 FILE *f)
{
	unsigned i, step;
	char written[32];

	if (!r->has_series)
		return;
	if (!r->nseries) {
		if (!run->interrupted)
			fprintf(f, "\nThe write took under a second: too short to see a cache run out "
				"(a larger --size writes further).\n");
		return;
	}
	step = r->nseries > 30 ? (r->nseries + 29) / 30 : 1;
	fprintf(f, "\nWrite rate over time (MB/s):\n");
	for (i = 0; i < r->nseries; i += step)
		fprintf(f, "  %7.1f s %10.1f\n", r->series[i].t_s, r->series[i].bw / 1e6);
	if ((r->nseries - 1) % step)
		fprintf(f, "  %7.1f s %10.1f\n", r->series[r->nseries - 1].t_s,
			r->series[r->nseries - 1].bw / 1e6);
	size_to_human((uint64_t)(r->fall.fell ? r->fall.end_bytes : (double)r->bytes), written,
		      sizeof(written));
	if (run->interrupted)
		return;
	if (r->fall.fell && r->fall.settled)
		fprintf(f, "The rate fell from %.1f to %.1f MB/s after %.0f s (%s written): the "
			"drive's fast write cache ran out there. Stopped once the lower rate "
			"held.\n", r->fall.fast_bw / 1e6, r->fall.slow_bw / 1e6, r->fall.end_s,
			written);
	else if (r->fall.fell)
		fprintf(f, "The rate fell from %.1f MB/s after %.0f s (%s written) and had not "
			"settled by the end.\n", r->fall.fast_bw / 1e6, r->fall.end_s, written);
	else
		fprintf(f, "The rate held over the %s written: no fast cache ran out within it "
			"(a larger --size writes further).\n", written);
}

static void print_checks(const struct bench_run *run, FILE *f)
{
	unsigned i;

	if (!run->nchecks)
		return;
	fprintf(f, "\nSD application performance class (as Raspberry Pi's SD card test):\n");
	for (i = 0; i < run->nchecks; i++) {
		const struct bench_check *c = &run->checks[i];

		fprintf(f, "  %-22s >= %6.0f %-5s ", c->name, c->required, c->unit);
		if (c->has_measured)
			fprintf(f, "%10.1f  %s\n", c->measured, c->pass ? "PASS" : "FAIL");
		else
			fprintf(f, "%10s  -\n", "-");
	}
}

static void print_footer(const struct bench_run *run, FILE *f)
{
	const char *detail = NULL;
	double user = 0, sys = 0;
	char size[32], when[32];
	struct tm tm;
	bool mixed_runs = false, mixed_time = false;
	unsigned i;

	fputc('\n', f);
	for (i = 0; i < run->ntests; i++) {
		const struct bench_test_result *r = &run->tests[i];

		user += r->cpu_user_s;
		sys += r->cpu_sys_s;
		if (r->unstable)
			fprintf(f, "warning: %s %s is not stable: runs differ by %.1f %% (CV), "
				   "%.1f to %.1f MB/s\n",
				r->test.name, bench_rw_name(r->test.rw), r->bw_cv * 100,
				r->bw_min / 1e6, r->bw_max / 1e6);
	}
	for (i = 0; i < run->nnotes; i++)
		fprintf(f, "note: %s\n", run->notes[i]);
	if (run->interrupted)
		fprintf(f, "interrupted: the figures above are what was measured until then\n");
	size_to_human(run->file_size, size, sizeof(size));
	gmtime_r(&run->started_at, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	for (i = 0; i < run->ntests; i++) {
		mixed_runs |= run->tests[i].test.runs != run->runs;
		mixed_time |= run->tests[i].test.time_ns && run->tests[i].test.time_ns != run->time_ns;
	}
	fprintf(f, "Profile: %s  Test: %s ", run->profile_name, size);
	if (run->early_stop)
		fprintf(f, "(each until known to +/-%.0f %%, %.3g s at most) ",
			BENCH_EARLY_CI * 100, (double)run->runs * (double)run->time_ns / 1e9);
	else if (mixed_runs)
		fprintf(f, "(runs per test) ");
	else
		fprintf(f, "(x%u) ", run->runs);
	if (run->early_stop)
		fprintf(f, "[Interval: %.3g s]", (double)run->interval_ns / 1e9);
	else if (mixed_time)
		fprintf(f, "[Measure: per test / Interval: %.3g s]", (double)run->interval_ns / 1e9);
	else if (run->time_ns)
		fprintf(f, "[Measure: %.3g s / Interval: %.3g s]", (double)run->time_ns / 1e9,
			(double)run->interval_ns / 1e9);
	else
		fprintf(f, "[one pass over the size]");
	fprintf(f, "%s\n", run->profile && run->profile->best_of ? "  best of the runs" : "");
	for (i = 0; i < run->ntests && !detail; i++)
		if (run->tests[i].engine_detail[0] && run->tests[i].engine == run->engine->name)
			detail = run->tests[i].engine_detail;
	fprintf(f, "Date: %s  Engine: %s  CPU: %.2f s user, %.2f s system\n", when,
		detail ? detail : run->engine->name, user, sys);
}

int bench_table_print(const struct bench_run *run, FILE *f)
{
	return bench_table_print_judged(run, NULL, f);
}

int bench_table_print_judged(const struct bench_run *run, const struct run *judged, FILE *f)
{
	bool show[TEXT_TABLE_COLS_MAX], limit;
	int nw = name_width(run);
	unsigned i;

	if (bench_ncols > TEXT_TABLE_COLS_MAX)
		return -E2BIG;
	cols_fit(nw, judged != NULL, show, &limit);
	print_header(run, nw, show, limit, f);
	for (i = 0; i < run->ntests; i++)
		print_row(&run->tests[i], nw, show, limit ? limit_of(judged, i) : NULL, f);
	if (run->profile && run->profile->kind == BENCH_PROFILE_HDPARM)
		print_hdparm(run, f);
	if (run->profile && run->profile->kind == BENCH_PROFILE_DD)
		print_dd(run, f);
	for (i = 0; i < run->ntests; i++)
		print_series(run, &run->tests[i], f);
	print_checks(run, f);
	print_footer(run, f);
	return ferror(f) ? -EIO : 0;
}
