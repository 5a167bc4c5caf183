/* verify-report.h - the result of `sbcdisk verify` as a JSON document and as a table for
 * people. */
#ifndef SBCDISK_REPORT_VERIFY_H
#define SBCDISK_REPORT_VERIFY_H

#include <json-c/json.h>
#include <stdio.h>

#include "bench/verify.h"

#define VERIFY_SCHEMA 1

/* The whole document; the caller frees it with json_object_put(). NULL on ENOMEM. */
struct json_object *verify_result_to_json(const struct verify_run *run);

/* The summary for people, and the finding's sentence. 0 or -EIO. */
int verify_table_print(const struct verify_run *run, FILE *f);

/* One sentence on the finding ("" without one). */
void verify_finding_text(const struct verify_run *run, char *buf, size_t cap);

#endif
