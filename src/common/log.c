/* log.c - messages for people on stderr; stdout carries only results.
 * The level is process-wide, set once from the global options. */
#include <stdarg.h>
#include <stdio.h>

#include "log.h"
#include "util.h"

static enum log_level level = LOG_NORMAL;
static size_t err_cols; /* stderr's terminal width; 0: not a terminal, lines as they are */

void log_set_level(enum log_level l)
{
	level = l;
}

enum log_level log_get_level(void)
{
	return level;
}

void log_set_width(size_t cols)
{
	err_cols = cols;
}

/*
 * One line each: a path or value the user gave (or the system reported) may hold a newline,
 * an escape sequence or bytes that are not UTF-8; they are shown as '?'. A line longer than
 * LOG_LINE_MAX bytes (a 128 KiB argument) is cut at a character boundary and ends in "…".
 */
__attribute__((format(printf, 3, 0)))
static void vlog_to(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	char line[LOG_LINE_MAX + 1];
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	bool cut = n >= (int)sizeof(line);

	if (n < 0)
		return;
	if (cut) {
		size_t end = LOG_LINE_MAX;

		/* do not leave half a UTF-8 sequence: str_sanitize would show it as '?' */
		while (end > 0 && ((unsigned char)line[end] & 0xc0) == 0x80)
			end--;
		line[end] = '\0';
	}
	str_sanitize(line);
	if (f == stderr && err_cols) {
		char all[LOG_LINE_MAX + 64];

		str_fmt(all, sizeof(all), "%s%s%s%s", prefix ? "sbcdisk: " : "", prefix ? prefix : "",
			line, cut ? "…" : "");
		str_fold(f, all, err_cols);
		return;
	}
	fprintf(f, "%s%s%s%s\n", f == stderr && prefix ? "sbcdisk: " : "", prefix ? prefix : "",
		line, cut ? "…" : "");
}

__attribute__((format(printf, 2, 0)))
static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	vlog_to(stderr, prefix, fmt, ap);
}

void log_line(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog_to(f, NULL, fmt, ap);
	va_end(ap);
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
