/* html.h - the HTML report: one self-contained file (inline CSS and SVG, no script, nothing
 * fetched) with a panel per run, charts comparing the runs, latencies, facts and verdicts. */
#ifndef SBCDISK_REPORT_HTML_H
#define SBCDISK_REPORT_HTML_H

#include <stdio.h>
#include <time.h>

#include "store/run.h"
#include "store/store.h"

struct html_opts {
	time_t generated_at; /* shown in the header */
	/* the fixes of the runs' drives, oldest first, each marked on the runs' timeline;
	 * fix_run[i] is a run of the drive of fixes[i] */
	const struct store_fix *fixes;
	const int64_t *fix_run;
	size_t n_fixes;
	/* the recorded boot times of the runs' drives (history --boot), fastest first */
	const struct store_boot_group *boots;
	size_t n_boots;
};

/* The whole page for at most COMPARE_RUNS_MAX runs. 0, -E2BIG or -EIO. */
int html_report_write(FILE *f, const struct run_list *l, const struct html_opts *o);

#endif
