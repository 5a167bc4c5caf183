/* log.h - messages for people: errors and warnings on stderr, debug output with -v.
 * Domain code may call log_debug(); only cli/ prints errors (docs/style.md habit 1). */
#ifndef SBCDISK_LOG_H
#define SBCDISK_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The longest message line in bytes; longer ones are cut and end in "…". */
#define LOG_LINE_MAX 1024

enum log_level { LOG_QUIET = 0, LOG_NORMAL = 1, LOG_VERBOSE = 2, LOG_DEBUG = 3 };

void log_set_level(enum log_level level);
enum log_level log_get_level(void);
/* stderr is a terminal of cols columns: a message longer than that is folded at a space,
 * its lines after the first indented (0, the default: one line each, as in a log file). */
void log_set_width(size_t cols);

/* "sbcdisk: <message>" on stderr. */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "sbcdisk: warning: <message>" unless -q. */
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line on f without a prefix, sanitised and capped as the messages above are: for
 * lines that echo what the user gave ("wrote PATH", "try 'sbcdisk CMD --help'"). */
void log_line(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Shown with -v. */
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Shown with -vv. */
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
