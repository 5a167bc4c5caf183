/* capacity-report.h - the result of `sbcdisk verify` as a JSON document and as a table for
 * people. */
#ifndef SBCDISK_REPORT_CAPACITY_REPORT_H
#define SBCDISK_REPORT_CAPACITY_REPORT_H

#include <json-c/json.h>
#include <stdio.h>

#include "bench/capacity.h"

#define CAPACITY_SCHEMA 1

/* The whole document; the caller frees it with json_object_put(). NULL on ENOMEM. */
struct json_object *capacity_result_to_json(const struct capacity_run *run);

/* The summary for people, and the finding's sentence. 0 or -EIO. */
int capacity_table_print(const struct capacity_run *run, FILE *f);

/* One sentence on the finding ("" without one). */
void capacity_finding_text(const struct capacity_run *run, char *buf, size_t cap);

#endif
