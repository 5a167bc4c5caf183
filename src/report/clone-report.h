/* clone-report.h - the plan of `sbcdisk clone`, and what --apply did, as a table for people
 * and as a JSON document. */
#ifndef SBCDISK_REPORT_CLONE_H
#define SBCDISK_REPORT_CLONE_H

#include <json-c/json.h>
#include <stdio.h>

#include "clone/clone.h"

/* Source, target, partitions, rewrites, warnings, the expected time; after --apply the copy's
 * time, the checks and the differences. Write errors are the caller's to see (ferror). */
void clone_report_table(const struct clone_plan *p, FILE *f);
/* The same as a document (schema 1); the caller frees it with json_object_put(). NULL on
 * ENOMEM. */
struct json_object *clone_report_json(const struct clone_plan *p);

#endif
