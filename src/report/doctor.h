/* doctor.h - the doctor's findings as a readable report (worst first, evidence indented,
 * fix last) and as the JSON contract of `sbcdisk doctor --json` (schema 1). */
#ifndef SBCDISK_REPORT_DOCTOR_H
#define SBCDISK_REPORT_DOCTOR_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "diag/diag.h"

#define DOCTOR_JSON_SCHEMA 1

/* What was looked at, for the report's first line. */
struct doctor_sources {
	const char *log_name;      /* PATH_DEV_KMSG, a file name, NULL when no log was read */
	const char *log_problem;   /* why the log could not be read, or NULL */
	unsigned long log_lines;
	unsigned long log_nonblank;      /* lines that were not blank */
	unsigned long log_unrecognised;  /* of those, lines that were no kernel message */
	size_t n_devices;          /* inventory devices looked at */
	bool have_inventory;
};

/* The report; color adds ANSI colours to the severities. 0 or -EIO. */
int doctor_text_print(FILE *f, const struct diag_findings *fs, const struct doctor_sources *src,
		      bool color);
/* The all-clear, saying what it covered: the devices looked at, and the kernel log's lines,
 * or that the log was not read (then no silence of the log is vouched for). */
void doctor_text_all_clear(FILE *f, const struct doctor_sources *src);
/* Only the findings part (the health check prints its own head). */
void doctor_text_findings(FILE *f, const struct diag_findings *fs, bool color);

/* The "findings" array; the caller owns the result (json_object_put). */
struct json_object *doctor_json_findings(const struct diag_findings *fs);
/* The whole document: { "schema": 1, "findings": [...] }. */
struct json_object *doctor_json(const struct diag_findings *fs);

#endif
