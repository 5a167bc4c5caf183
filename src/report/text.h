/* text.h - plain-text layout shared by the tables and notes that commands print: a column
 * cut with "…" and padded, and text wrapped on spaces. */
#ifndef SBCDISK_REPORT_TEXT_H
#define SBCDISK_REPORT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The characters of s (UTF-8: continuation bytes not counted), and in *cut_at the byte
 * where its (n-1)th character ends: where to put "…" to show it in n characters. */
size_t text_chars(const char *s, size_t n, size_t *cut_at);

/* s in a column of width characters (UTF-8 aware): cut with "…" when longer, followed by
 * the padding and the two spaces between columns unless last. */
void text_put_col(FILE *f, const char *s, size_t width, bool last);

/* first, then text wrapped at cols on spaces; continuation lines start with indent. first
 * should end with a space when text is to follow on the same line. Ends with a newline. */
void text_wrap(FILE *f, const char *indent, const char *first, const char *text, size_t cols);

#endif
