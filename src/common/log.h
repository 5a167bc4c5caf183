/* log.h - messages for people: errors and warnings on stderr, debug output with -v.
 * Domain code may call log_debug(); only cli/ prints errors (shared/STYLE.md habit 1). */
#ifndef SBCDISK_LOG_H
#define SBCDISK_LOG_H

#include <stdbool.h>

enum log_level { LOG_QUIET = 0, LOG_NORMAL = 1, LOG_VERBOSE = 2, LOG_DEBUG = 3 };

void log_set_level(enum log_level level);
enum log_level log_get_level(void);

/* "sbcdisk: <message>" on stderr. */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "sbcdisk: warning: <message>" unless -q. */
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Shown with -v. */
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Shown with -vv. */
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
