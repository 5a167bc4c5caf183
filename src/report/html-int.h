/* html-int.h - what the HTML report's files share: escaping and number formatting.
 * Every string that came from a device or a file goes through html_esc(). */
#ifndef SBCDISK_REPORT_HTML_INT_H
#define SBCDISK_REPORT_HTML_INT_H

#include <stdio.h>

#include "report/compare.h"

/* s with & < > " ' escaped and anything that is not clean UTF-8 replaced: safe in text and
 * in quoted attributes. NULL prints nothing. */
void html_esc(FILE *f, const char *s);

/* One bar chart per compare row (tests as charts, runs as bars). */
void html_charts_write(FILE *f, const struct compare *c);

#endif
