/* html-write.c - the one way text reaches the HTML report: html_put() writes its format as
 * markup and escapes every string argument, so no value can become markup or close a quote. */
#include <stdarg.h>

#include "common/util.h"
#include "report/html-int.h"

/* n bytes of s as text: & < > " ' escaped, invalid UTF-8 and control bytes as '?'. */
static void html_esc_n(FILE *f, const char *s, size_t n)
{
	char *copy;
	const char *p;

	copy = strndup(s, n);
	if (!copy) {
		fputc('?', f);
		return;
	}
	str_sanitize(copy);
	for (p = copy; *p; p++) {
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*p, f);
		}
	}
	free(copy);
}

/* One conversion of fmt (at '%'): a number printed as printf does, or a string escaped.
 * Returns where fmt continues. The formats are ours (checked by the compiler), so an
 * unknown conversion is a bug: it prints "?" rather than read an argument it cannot type.
 * snprintf gets one conversion cut out of such a format, with the argument read for exactly
 * its type: the one place a format is not a literal. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static const char *put_conv(FILE *f, const char *fmt, va_list *ap)
{
	char spec[24], num[64];
	const char *p = fmt + 1;
	size_t n;
	int len = 0; /* 0 int, 1 long, 2 long long, 3 size_t */

	if (*p == '%') {
		fputc('%', f);
		return p + 1;
	}
	while (*p && strchr("-+ #0123456789.", *p))
		p++;
	if (*p == 'z') {
		len = 3;
		p++;
	} else if (*p == 'l') {
		len = p[1] == 'l' ? 2 : 1;
		p += len;
	}
	n = (size_t)(p - fmt) + 1;
	if (!*p || n >= sizeof(spec)) {
		fputc('?', f);
		return *p ? p + 1 : p;
	}
	memcpy(spec, fmt, n);
	spec[n] = '\0';
	switch (*p) {
	case 's': {
		const char *s = va_arg(*ap, const char *), *dot = strchr(spec, '.');
		size_t max = dot ? strtoul(dot + 1, NULL, 10) : SIZE_MAX;

		if (s)
			html_esc_n(f, s, max);
		break;
	}
	case 'd':
	case 'i':
		if (len == 0)
			snprintf(num, sizeof(num), spec, va_arg(*ap, int));
		else if (len == 1)
			snprintf(num, sizeof(num), spec, va_arg(*ap, long));
		else if (len == 2)
			snprintf(num, sizeof(num), spec, va_arg(*ap, long long));
		else
			snprintf(num, sizeof(num), spec, va_arg(*ap, ssize_t));
		fputs(num, f);
		break;
	case 'u':
		if (len == 0)
			snprintf(num, sizeof(num), spec, va_arg(*ap, unsigned int));
		else if (len == 1)
			snprintf(num, sizeof(num), spec, va_arg(*ap, unsigned long));
		else if (len == 2)
			snprintf(num, sizeof(num), spec, va_arg(*ap, unsigned long long));
		else
			snprintf(num, sizeof(num), spec, va_arg(*ap, size_t));
		fputs(num, f);
		break;
	case 'f':
	case 'g':
	case 'e':
		snprintf(num, sizeof(num), spec, va_arg(*ap, double));
		fputs(num, f);
		break;
	default:
		fputc('?', f);
	}
	return p + 1;
}
#pragma GCC diagnostic pop

void html_put(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	while (*fmt) {
		const char *pct = strchr(fmt, '%');
		size_t n = pct ? (size_t)(pct - fmt) : strlen(fmt);

		fwrite(fmt, 1, n, f);
		fmt += n;
		if (pct)
			fmt = put_conv(f, fmt, &ap);
	}
	va_end(ap);
}
