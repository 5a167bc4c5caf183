/* csv.h - RFC 4180 CSV of stored runs: one row per test, every text field quoted as needed.
 * Text that a spreadsheet would run as a formula (=, +, -, @ first) is defused with a quote. */
#ifndef SBCDISK_REPORT_CSV_H
#define SBCDISK_REPORT_CSV_H

#include <stdio.h>

#include "store/run.h"

/* One field (no separator): quoted when it holds a comma, a quote, CR or LF. */
void csv_field(FILE *f, const char *s);
/* The header and one row per test of every run. 0 or -EIO. */
int csv_write_runs(FILE *f, const struct run_list *l);

#endif
