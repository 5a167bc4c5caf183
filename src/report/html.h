/* html.h - the HTML report: one self-contained file (inline CSS and SVG, no script, nothing
 * fetched) with a panel per run, charts comparing the runs, latencies, facts and verdicts. */
#ifndef SBCDISK_REPORT_HTML_H
#define SBCDISK_REPORT_HTML_H

#include <stdio.h>
#include <time.h>

#include "store/run.h"

struct html_opts {
	time_t generated_at; /* shown in the header */
};

/* The whole page for at most COMPARE_RUNS_MAX runs. 0, -E2BIG or -EIO. */
int html_report_write(FILE *f, const struct run_list *l, const struct html_opts *o);

#endif
