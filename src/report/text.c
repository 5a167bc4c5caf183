/* text.c - plain-text layout: columns and wrapped text (text.h). */
#include <string.h>

#include "report/text.h"

size_t text_chars(const char *s, size_t n, size_t *cut_at)
{
	size_t chars = 0, i;

	*cut_at = 0;
	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (chars == n - 1)
			*cut_at = i;
		chars++;
	}
	return chars;
}

void text_put_col(FILE *f, const char *s, size_t width, bool last)
{
	size_t cut_at, chars = text_chars(s, width, &cut_at);

	if (chars > width) {
		fwrite(s, 1, cut_at, f);
		fputs("…", f);
		chars = width;
	} else {
		fputs(s, f);
	}
	if (!last)
		fprintf(f, "%*s", (int)(width - chars + 2), "");
}

void text_wrap(FILE *f, const char *indent, const char *first, const char *text, size_t cols)
{
	size_t col = strlen(first), ilen = strlen(indent), w;
	bool line_start = true; /* nothing of text on this line yet */
	const char *p = text;

	fputs(first, f);
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		w = strcspn(p, " ");
		if (!line_start && col + 1 + w > cols) {
			fprintf(f, "\n%s", indent);
			col = ilen;
		} else if (!line_start) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += w;
		p += w;
		line_start = false;
	}
	fputc('\n', f);
}
