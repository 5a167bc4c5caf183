/* util.h - small string, number and path helpers shared by every layer.
 * Every function that writes into a caller's buffer takes its capacity and reports truncation. */
#ifndef SBCDISK_UTIL_H
#define SBCDISK_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define UNUSED __attribute__((unused))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

/* Copy src into dst (capacity cap, always NUL-terminated). 0, or -E2BIG when truncated. */
int str_copy(char *dst, size_t cap, const char *src);
/* Copy src for display: when it does not fit, or cut says it is already a cut text, dst ends
 * in "..." (kept clean UTF-8). */
void str_copy_cut(char *dst, size_t cap, const char *src, bool cut);

/* snprintf into dst; 0, or -E2BIG when the result did not fit (dst then holds a prefix). */
int str_fmt(char *dst, size_t cap, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* Trim ASCII white space at both ends in place; returns s. */
char *str_trim(char *s);

/* True when s starts with prefix. */
bool str_starts(const char *s, const char *prefix);

/* True when s is printable ASCII or valid UTF-8 without control characters. */
bool str_is_clean_utf8(const char *s);

/* Replace every byte that is not printable ASCII / valid UTF-8 by '?' in place. */
void str_sanitize(char *s);
/* s (one line, no newline) on f folded at a space into lines of at most cols characters
 * (colour escapes not counted; a word longer than a line cut), the next lines indented two
 * more than the first; ends with a newline. A terminal's stdout and its messages both. */
void str_fold(FILE *f, const char *s, size_t cols);
/* The same for len bytes of text shown as lines (a file's contents, a diff): tabs, line ends
 * and a CR before a line end stay; other control bytes (C0, DEL, C1), NUL and bytes that are
 * not valid UTF-8 become '?', so the text cannot drive a terminal or break JSON. */
void str_sanitize_text(char *s, size_t len);

/* Strict parsers: the whole string (after trimming white space) must be the number.
 * 0, -EINVAL (not a number) or -ERANGE. */
int parse_u64(const char *s, uint64_t *out);
int parse_u64_base(const char *s, int base, uint64_t *out);
int parse_s64(const char *s, int64_t *out);
int parse_double(const char *s, double *out);

/* Human size with binary units as lsblk prints it ("223.6G", "512B"). */
void size_to_human(uint64_t bytes, char *buf, size_t cap);

/* A monotonic clock in nanoseconds. */
uint64_t time_now_ns(void);

#include "banned.h"

#endif
