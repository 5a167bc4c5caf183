/* diff.h - a small unified diff (LCS on lines) for showing what a fix changes.
 * Boot files are short; above DIFF_LINES_MAX changed lines the middle is shown replaced. */
#ifndef SBCDISK_FIX_DIFF_H
#define SBCDISK_FIX_DIFF_H

#include <stddef.h>

#include "common/sbuf.h"

#define DIFF_LINES_MAX 2000

/* The unified diff (3 lines of context) of a into b, labelled "--- label_a" and
 * "+++ label_b", into out (reset first; empty when they are equal). 0, -ENOMEM or -E2BIG. */
int diff_unified(const char *a, size_t alen, const char *b, size_t blen, const char *label_a,
		 const char *label_b, struct sbuf *out);

#endif
