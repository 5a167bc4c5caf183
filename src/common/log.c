/* log.c - messages for people on stderr; stdout carries only results.
 * The level is process-wide, set once from the global options. */
#include <stdarg.h>
#include <stdio.h>

#include "log.h"
#include "util.h"

static enum log_level level = LOG_NORMAL;

void log_set_level(enum log_level l)
{
	level = l;
}

enum log_level log_get_level(void)
{
	return level;
}

/* One line each: a path or value the user gave (or the system reported) may hold a newline,
 * an escape sequence or bytes that are not UTF-8; they are shown as '?'. */
static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	char line[4096];

	vsnprintf(line, sizeof(line), fmt, ap);
	str_sanitize(line);
	fprintf(stderr, "sbcdisk: %s%s\n", prefix, line);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	if (level < LOG_NORMAL)
		return;
	va_start(ap, fmt);
	vlog("warning: ", fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	if (level < LOG_VERBOSE)
		return;
	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}

void log_debug(const char *fmt, ...)
{
	va_list ap;

	if (level < LOG_DEBUG)
		return;
	va_start(ap, fmt);
	vlog("debug: ", fmt, ap);
	va_end(ap);
}
