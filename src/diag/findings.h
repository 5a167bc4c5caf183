/* findings.h - building findings: the helpers the rules use (internal to diag/).
 * Every text is capped; a finding with the same id and device is extended, not repeated. */
#ifndef SBCDISK_DIAG_FINDINGS_H
#define SBCDISK_DIAG_FINDINGS_H

#include "diag/diag.h"
#include "diag/logsum.h"

/* The finding with this id for this device (device/usb_id may be "" or NULL) in this boot of
 * the log (0-based: the same disk name in two boots is two devices), created when absent.
 * NULL only when out of memory. A new finding gets sev; an existing one keeps the worse of
 * the two. */
struct diag_finding *finding_get(struct diag_findings *out, const char *id, enum diag_sev sev,
				 const char *device, const char *usb_id, int boot);
void finding_title(struct diag_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends a sentence to the explanation, unless the explanation already has it. */
void finding_explain(struct diag_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The evidence lines of one log category (kept in line order, duplicates skipped). */
void finding_evidence_cat(struct diag_finding *f, const struct cat_stat *c);
/* A fact read from the system (line 0). */
void finding_evidence_fact(struct diag_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void finding_fix(struct diag_finding *f, const char *summary);
void finding_fix_cmd(struct diag_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last boot's first; then worst first, by first evidence line, by id. */
void findings_sort(struct diag_findings *out);

#endif
