/* text.c - plain-text layout: columns and wrapped text (text.h). */
#include <string.h>

#include "common/util.h"
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

void text_put_cell(FILE *f, const char *s, size_t width, bool right, size_t sep, bool last)
{
	size_t cut_at, chars = text_chars(s, width, &cut_at);

	if (right && chars < width)
		fprintf(f, "%*s", (int)(width - chars), "");
	if (chars > width) {
		fwrite(s, 1, cut_at, f);
		fputs("…", f);
		chars = width;
	} else {
		fputs(s, f);
	}
	if (!last)
		fprintf(f, "%*s", (int)((right ? 0 : width - chars) + sep), "");
}

void text_put_col(FILE *f, const char *s, size_t width, bool last)
{
	text_put_cell(f, s, width, false, 2, last);
}

static size_t term_cols;

void text_set_width(size_t cols)
{
	term_cols = cols;
}

size_t text_width(void)
{
	return term_cols;
}

size_t text_cols(size_t pref)
{
	return term_cols && term_cols < pref ? term_cols : pref;
}

static size_t fit_total(const struct text_fit_col *c, size_t n, size_t sep)
{
	size_t i, total = 0, shown = 0;

	for (i = 0; i < n; i++) {
		if (!c[i].width)
			continue;
		total += c[i].width;
		shown++;
	}
	return total + (shown ? (shown - 1) * sep : 0);
}

/* The shown column of the highest rank (least important) for which ok() holds, or n. */
static size_t fit_last(const struct text_fit_col *c, size_t n, bool cut)
{
	size_t i, best = n;

	for (i = 0; i < n; i++) {
		if (!c[i].width || (cut ? c[i].width <= c[i].min : c[i].keep))
			continue;
		if (best == n || c[i].rank >= c[best].rank)
			best = i;
	}
	return best;
}

bool text_fit(struct text_fit_col *c, size_t n, size_t sep, size_t cols)
{
	size_t i, total, k;
	bool more = true;

	for (k = 0;; k++) {
		for (i = 0; i < n; i++)
			c[i].width = c[i].natural ? c[i].natural : 1;
		/* the k least important columns dropped */
		for (i = 0; i < k; i++) {
			size_t d = fit_last(c, n, false);

			if (d == n) {
				more = false;
				break;
			}
			c[d].width = 0;
		}
		if (!cols)
			return true;
		while ((total = fit_total(c, n, sep)) > cols) {
			size_t t = fit_last(c, n, true);

			if (t == n)
				break;
			if (c[t].width - c[t].min >= total - cols)
				c[t].width -= total - cols;
			else
				c[t].width = c[t].min;
		}
		if (total <= cols || !more)
			return total <= cols;
	}
}

void text_cut(char *buf, size_t cap, const char *s, size_t width)
{
	size_t cut_at, chars = text_chars(s, width, &cut_at);

	if (!cap)
		return;
	if (chars <= width || !width) {
		if (buf != s)
			str_copy_cut(buf, cap, s, false);
		return;
	}
	if (cut_at + sizeof("…") > cap)
		cut_at = 0;
	memmove(buf, s, cut_at);
	memcpy(buf + cut_at, "…", sizeof("…"));
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

void text_table_init(struct text_table *t, const struct text_col *c, size_t n, size_t sep)
{
	struct text_fit_col fit[TEXT_TABLE_COLS_MAX];
	size_t i, used = 0, last = 0;

	if (n > TEXT_TABLE_COLS_MAX)
		n = TEXT_TABLE_COLS_MAX;
	*t = (struct text_table){ .c = c, .n = n, .sep = sep, .fitted = text_width() != 0 };
	for (i = 0; i < n; i++) {
		fit[i] = (struct text_fit_col){ .natural = c[i].width, .rank = c[i].rank,
						.min = c[i].min ? c[i].min : c[i].width,
						.keep = c[i].rank == 1 };
		t->w[i] = c[i].width;
	}
	if (!t->fitted)
		return;
	text_fit(fit, n, sep, text_width());
	for (i = 0; i < n; i++) {
		t->w[i] = fit[i].width;
		if (fit[i].width) {
			used += fit[i].width + (used ? sep : 0);
			last = i;
		}
	}
	if (used < text_width())
		t->w[last] += text_width() - used;
}

static bool table_last(const struct text_table *t, size_t i)
{
	for (i++; i < t->n; i++)
		if (t->w[i])
			return false;
	return true;
}

void text_table_row(const struct text_table *t, FILE *f, const char *const *cells)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		bool last = table_last(t, i);

		if (!t->w[i])
			continue;
		/* piped, a last column on the left is as long as its text */
		text_put_cell(f, cells[i],
			      last && !t->fitted && !t->c[i].right ? SIZE_MAX / 2 : t->w[i],
			      t->c[i].right, t->sep, last);
	}
	fputc('\n', f);
}

void text_table_header(const struct text_table *t, FILE *f)
{
	const char *cells[TEXT_TABLE_COLS_MAX];
	size_t i;

	for (i = 0; i < t->n; i++)
		cells[i] = t->c[i].header;
	text_table_row(t, f, cells);
}

void text_table_span(const struct text_table *t, FILE *f, const char *const *cells, size_t from,
		     const char *s, size_t cap)
{
	size_t i, rest = 0;

	for (i = 0; i < from && i < t->n; i++)
		if (t->w[i])
			text_put_cell(f, cells[i], t->w[i], t->c[i].right, t->sep, false);
	for (; i < t->n; i++)
		if (t->w[i])
			rest += t->w[i] + (rest ? t->sep : 0);
	text_put_cell(f, s, t->fitted ? rest : cap, false, t->sep, true);
	fputc('\n', f);
}
