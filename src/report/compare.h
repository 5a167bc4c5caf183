/* compare.h - runs side by side: one row per test and direction, one column per run, each
 * value with its ratio to the first run. Feeds the compare table, its JSON and the charts. */
#ifndef SBCDISK_REPORT_COMPARE_H
#define SBCDISK_REPORT_COMPARE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "store/run.h"

#define COMPARE_RUNS_MAX 8

struct compare_row {
	char test[64];
	char dir[16];       /* "read", "write" */
	bool iops;          /* the unit: IOPS for small blocks, else MB/s */
	bool memory;        /* a figure of memory, not of the drive: shown, never ranked */
	double value[COMPARE_RUNS_MAX]; /* NAN when the run lacks the test */
	double ratio[COMPARE_RUNS_MAX]; /* value / the first run's value; NAN when unknown
					 * or a memory figure */
};

struct compare {
	size_t nruns, nrows;
	const struct run *runs[COMPARE_RUNS_MAX];
	struct compare_row rows[RUN_TESTS_MAX * 2];
};

/* Build the table from at most COMPARE_RUNS_MAX runs (the list keeps owning them).
 * Rows: CrystalDiskMark's order first, then other tests in the order they appear. */
int compare_build(const struct run_list *l, struct compare *c);
/* A figure as people read it: "43.90", "295.0", "16900" (integer: no decimals); "-" when
 * unknown. */
void compare_num(char *buf, size_t cap, double v, bool integer);
/* "MB/s" or "IOPS" */
const char *compare_unit(const struct compare_row *row);
/* The table for a terminal: rows with no figure left out; on a terminal too narrow for
 * every run, the runs in blocks of columns, each block with its heads. 0 or -EIO. */
int compare_print(FILE *f, const struct compare *c);
/* {"schema": 1, "runs": [...], "rows": [...]} */
struct json_object *compare_to_json(const struct compare *c);

#endif
