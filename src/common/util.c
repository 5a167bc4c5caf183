/* util.c - small string, number and path helpers shared by every layer.
 * Nothing here allocates; every writer is bounded by the caller's capacity. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util.h"

int str_copy(char *dst, size_t cap, const char *src)
{
	size_t n;

	if (!cap)
		return -E2BIG;
	n = strlen(src);
	if (n >= cap) {
		memcpy(dst, src, cap - 1);
		dst[cap - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, n + 1);
	return 0;
}

void str_copy_cut(char *dst, size_t cap, const char *src, bool cut)
{
	if (!cap)
		return;
	if ((str_copy(dst, cap, src) == 0 && !cut) || cap < 4)
		return;
	str_copy(dst, cap - 3, src);
	str_sanitize(dst); /* a character cut in two is no character */
	memcpy(dst + strlen(dst), "...", 4);
}

int str_fmt(char *dst, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(dst, cap, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	return (size_t)n >= cap ? -E2BIG : 0;
}

char *str_trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)s[i]))
		i++;
	if (i)
		memmove(s, s + i, n - i + 1);
	return s;
}

bool str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool str_is_clean_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p);

		if (!n || (n == 1 && (*p < 0x20 || *p == 0x7f)))
			return false;
		p += n;
	}
	return true;
}

void str_sanitize(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p);

		if (!n || (n == 1 && (*p < 0x20 || *p == 0x7f))) {
			*p++ = '?';
			continue;
		}
		p += n;
	}
}

void str_sanitize_text(char *s, size_t len)
{
	unsigned char *p = (unsigned char *)s, *end = p + len;

	while (p < end) {
		size_t n = *p ? utf8_len(p) : 0;

		if (n > 1 && (size_t)(end - p) >= n && !(p[0] == 0xc2 && p[1] < 0xa0)) {
			p += n; /* valid UTF-8 and not a C1 control */
			continue;
		}
		if (n == 1 && (*p == '\t' || *p == '\n' || (*p >= 0x20 && *p != 0x7f) ||
			       (*p == '\r' && p + 1 < end && p[1] == '\n'))) {
			p++;
			continue;
		}
		/* every byte of a bad or control sequence */
		do
			*p++ = '?';
		while (n > 1 && --n && p < end);
	}
}

int parse_u64_base(const char *s, int base, uint64_t *out)
{
	char *end;
	unsigned long long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	return parse_u64_base(s, 10, out);
}

int parse_s64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || !isfinite(v))
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

void size_to_human(uint64_t bytes, char *buf, size_t cap)
{
	static const char units[] = "BKMGTPE";
	uint64_t div = 1;
	int u = 0;
	double v;

	while (u < 6 && bytes >= div * 1024) {
		div *= 1024;
		u++;
	}
	if (u == 0) {
		str_fmt(buf, cap, "%" PRIu64 "B", bytes);
		return;
	}
	v = (double)bytes / (double)div;
	/* lsblk rounds to one decimal and drops a trailing ".0" */
	if (fabs(v - round(v)) < 0.05)
		str_fmt(buf, cap, "%.0f%c", round(v), units[u]);
	else
		str_fmt(buf, cap, "%.1f%c", v, units[u]);
}

uint64_t time_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The characters of s up to end, colour escapes (ESC [ ... m) not counted. */
static size_t fold_chars(const char *s, const char *end)
{
	size_t n = 0;

	while (s < end) {
		if (*s == '\033' && s[1] == '[') {
			s += 2;
			while (s < end && *s != 'm')
				s++;
			s++;
			continue;
		}
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
		s++;
	}
	return n;
}

void str_fold(FILE *f, const char *s, size_t cols)
{
	size_t indent = strspn(s, " "), pad = 0;
	const char *p = s;

	if (indent + 2 < cols / 2)
		indent += 2;
	else
		indent = 0;
	while (fold_chars(p, p + strlen(p)) + pad > cols) {
		const char *q = p, *brk = NULL;

		/* the last space at which what comes before fits */
		while (*q) {
			if (*q == ' ' && q > p && fold_chars(p, q) + pad <= cols)
				brk = q;
			if (fold_chars(p, q) + pad > cols)
				break;
			q++;
		}
		if (!brk) {
			/* one word longer than the line: cut it at the width */
			for (q = p; *q && fold_chars(p, q + 1) + pad <= cols; q++)
				;
			while (((unsigned char)*q & 0xc0) == 0x80)
				q++;
			brk = q;
		}
		fprintf(f, "%*s%.*s\n", (int)pad, "", (int)(brk - p), p);
		p = brk;
		while (*p == ' ')
			p++;
		pad = indent;
		if (!*p)
			return;
	}
	fprintf(f, "%*s%s\n", (int)pad, "", p);
}
