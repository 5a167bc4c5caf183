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
/* The same, right-aligned when right, sep spaces between columns. */
void text_put_cell(FILE *f, const char *s, size_t width, bool right, size_t sep, bool last);

/* The width of the terminal the output is shown on, set once by the command line: 0 when
 * it is not a terminal (a pipe, a file, --json), and then nothing is fitted or cut. */
void text_set_width(size_t cols);
size_t text_width(void);
/* pref, or the terminal's width when it is narrower: where text is wrapped. */
size_t text_cols(size_t pref);
/* The width prose is wrapped at on a wide terminal (notes, findings, messages), one for
 * every command so that their texts line up. */
#define TEXT_WRAP_COLS 92

/* One column of a table to fit into a terminal, as lsblk fits its columns. */
struct text_fit_col {
	size_t natural; /* the widest cell or the header, in characters */
	size_t min;	/* narrowest it may be cut to (natural: never cut, as a tree) */
	int rank;	/* importance: 1 first; cut, then dropped, from the highest */
	bool keep;	/* never dropped (the tree, columns named with -o) */
	size_t width;	/* out: the width to show it in, 0 when it is dropped */
};

/* Fit n columns, sep spaces apart, into cols characters: the least important are cut to
 * their min first, then, while the line is still too long, dropped, least important
 * first. cols 0: every column at its natural width. True when the line fits. */
bool text_fit(struct text_fit_col *c, size_t n, size_t sep, size_t cols);

/* A table of fixed-width columns (history, bench): piped, each at its width; on a terminal,
 * fitted by text_fit() and the last column shown takes what is left of the line. */
#define TEXT_TABLE_COLS_MAX 24
struct text_col {
	const char *header;
	size_t width; /* piped (the last column: its usual width; it is never cut piped) */
	bool right;
	int rank;     /* as in text_fit_col */
	size_t min;   /* 0: never cut */
};

struct text_table {
	const struct text_col *c;
	size_t n, sep;
	size_t w[TEXT_TABLE_COLS_MAX]; /* the widths shown, 0: dropped */
	bool fitted;
};

void text_table_init(struct text_table *t, const struct text_col *c, size_t n, size_t sep);
/* One row: cells[i] for column i (n of them). */
void text_table_row(const struct text_table *t, FILE *f, const char *const *cells);
void text_table_header(const struct text_table *t, FILE *f);
/* The columns before from, then s over the rest of the line (cut at cap piped). */
void text_table_span(const struct text_table *t, FILE *f, const char *const *cells, size_t from,
		     const char *s, size_t cap);

/* s cut to width characters with "…" into buf (UTF-8 aware; buf may be s); buf holds cap
 * bytes. width 0: not cut. */
void text_cut(char *buf, size_t cap, const char *s, size_t width);

/* first, then text wrapped at cols on spaces; continuation lines start with indent. first
 * should end with a space when text is to follow on the same line. Ends with a newline. */
void text_wrap(FILE *f, const char *indent, const char *first, const char *text, size_t cols);

#endif
