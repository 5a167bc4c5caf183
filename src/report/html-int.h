/* html-int.h - what the HTML report's files share: the one writer of the page.
 * Every value reaches the page through html_put(), which escapes it. */
#ifndef SBCDISK_REPORT_HTML_INT_H
#define SBCDISK_REPORT_HTML_INT_H

#include <stdio.h>

#include "report/compare.h"

#include "common/util.h"

/*
 * Write fmt to f. fmt is markup (a constant of ours); every %s argument is text: & < > " '
 * escaped and anything that is not clean UTF-8 replaced, so it is safe in element text and in
 * quoted attributes alike (a precision, %.10s, cuts it first; NULL prints nothing). Numbers
 * (%d %i %u with l, ll or z; %f %g %e) print as printf prints them. No other conversion.
 */
void html_put(FILE *f, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* One bar chart per compare row (tests as charts, runs as bars). */
void html_charts_write(FILE *f, const struct compare *c);

#endif
