/* bench-report.h - the result of `sbcdisk bench` as a JSON document (the contract of its
 * issue) and as a CrystalDiskMark-like table; both read one column table (bench-cols.c). */
#ifndef SBCDISK_REPORT_BENCH_H
#define SBCDISK_REPORT_BENCH_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "bench/bench.h"

#define BENCH_SCHEMA 1

/* One numeric figure of a test: header, JSON key, unit, and how to get it. */
struct bench_col {
	const char *header;     /* table header; NULL: JSON only */
	const char *key;        /* JSON key */
	int width, prec;        /* table format */
	bool integer;           /* JSON integer */
	bool (*get)(const struct bench_test_result *r, double *v); /* false: unknown */
	int rank; /* on a narrow terminal the columns of the highest rank are left out first */
};

extern const struct bench_col bench_cols[];
extern const unsigned bench_ncols;

/* The whole document; the caller frees it with json_object_put(). NULL on ENOMEM. */
struct json_object *bench_result_to_json(const struct bench_run *run);

struct run;

/* The table for people. 0 or -EIO. */
int bench_table_print(const struct bench_run *run, FILE *f);
/* The same with the verdict of each figure beside its MB/s (judged: the store's run made of
 * this bench, store/verdict.h; NULL: no verdicts). 0 or -EIO. */
int bench_table_print_judged(const struct bench_run *run, const struct run *judged, FILE *f);
/* Each test of doc (bench_result_to_json() of the bench judged was made of) gains its
 * "verdict" as the table shows it (verdict_test(): limit, ceiling_bytes_per_s,
 * expected_bytes_per_s, text, as history --json's verdicts), or null. */
void bench_json_add_verdicts(struct json_object *doc, const struct run *judged);

#endif
