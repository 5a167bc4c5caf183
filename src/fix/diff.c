/* diff.c - unified diff of two small texts: common ends trimmed, a longest common
 * subsequence on the rest, hunks with three lines of context, GNU diff's header format. */
#include <stdint.h>

#include "fix/diff.h"
#include "common/util.h"

#define CONTEXT 3

struct line {
	const char *s;
	size_t len; /* with its '\n' when it has one */
};

struct lines {
	struct line *v;
	size_t n;
};

enum op_kind { OP_SAME, OP_DEL, OP_ADD };

struct op {
	enum op_kind kind;
	size_t a, b; /* line indexes (0-based) in a and b at this point */
};

static int lines_split(const char *s, size_t len, struct lines *out)
{
	size_t i = 0, n = 0, cap = 16;
	const char *nl;

	out->v = malloc(cap * sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	while (i < len) {
		nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) + 1 : len;

		if (n == cap) {
			struct line *v = realloc(out->v, cap * 2 * sizeof(*v));

			if (!v)
				return -ENOMEM;
			out->v = v;
			cap *= 2;
		}
		out->v[n++] = (struct line){ s + i, end - i };
		i = end;
	}
	out->n = n;
	return 0;
}

static bool line_eq(const struct line *x, const struct line *y)
{
	return x->len == y->len && !memcmp(x->s, y->s, x->len);
}

/* The edit script from a to b: common prefix and suffix, LCS in between. */
static int script_build(const struct lines *a, const struct lines *b, struct op **ops, size_t *nops)
{
	size_t pre = 0, suf = 0, n, m, i, j, k = 0;
	uint32_t *t = NULL;
	struct op *o;

	while (pre < a->n && pre < b->n && line_eq(&a->v[pre], &b->v[pre]))
		pre++;
	while (suf < a->n - pre && suf < b->n - pre &&
	       line_eq(&a->v[a->n - 1 - suf], &b->v[b->n - 1 - suf]))
		suf++;
	n = a->n - pre - suf;
	m = b->n - pre - suf;
	o = malloc((a->n + b->n + 1) * sizeof(*o));
	if (!o)
		return -ENOMEM;
	if (n && m && n <= DIFF_LINES_MAX && m <= DIFF_LINES_MAX) {
		t = calloc((n + 1) * (m + 1), sizeof(*t));
		if (!t) {
			free(o);
			return -ENOMEM;
		}
		/* t[i][j] = LCS length of a[pre+i..] and b[pre+j..] */
		for (i = n; i-- > 0;)
			for (j = m; j-- > 0;)
				t[i * (m + 1) + j] =
					line_eq(&a->v[pre + i], &b->v[pre + j]) ?
						t[(i + 1) * (m + 1) + j + 1] + 1 :
					t[(i + 1) * (m + 1) + j] >= t[i * (m + 1) + j + 1] ?
						t[(i + 1) * (m + 1) + j] :
						t[i * (m + 1) + j + 1];
	}
	for (i = 0; i < pre; i++)
		o[k++] = (struct op){ OP_SAME, i, i };
	i = j = 0;
	while (i < n || j < m) {
		if (t && i < n && j < m && line_eq(&a->v[pre + i], &b->v[pre + j])) {
			o[k++] = (struct op){ OP_SAME, pre + i, pre + j };
			i++, j++;
		} else if (i < n && (j == m || !t ||
				     t[(i + 1) * (m + 1) + j] >= t[i * (m + 1) + j + 1])) {
			o[k++] = (struct op){ OP_DEL, pre + i, pre + j };
			i++;
		} else {
			o[k++] = (struct op){ OP_ADD, pre + i, pre + j };
			j++;
		}
	}
	for (i = 0; i < suf; i++)
		o[k++] = (struct op){ OP_SAME, pre + n + i, pre + m + i };
	free(t);
	*ops = o;
	*nops = k;
	return 0;
}

static int line_put(struct sbuf *out, char mark, const struct line *l)
{
	int ret = sbuf_addch(out, mark);

	if (!ret)
		ret = sbuf_add(out, l->s, l->len);
	if (!ret && (!l->len || l->s[l->len - 1] != '\n'))
		ret = sbuf_adds(out, "\n\\ No newline at end of file\n");
	return ret;
}

/* GNU's range: "start,count", "start" when count is 1, and start is the line before when
 * count is 0. */
static int range_put(struct sbuf *out, char mark, size_t start, size_t count)
{
	if (count == 1)
		return sbuf_addf(out, "%c%zu", mark, start + 1);
	return sbuf_addf(out, "%c%zu,%zu", mark, count ? start + 1 : start, count);
}

static int hunk_put(struct sbuf *out, const struct lines *a, const struct lines *b,
		    const struct op *o, size_t from, size_t to)
{
	size_t i, na = 0, nb = 0;
	int ret;

	for (i = from; i < to; i++) {
		na += o[i].kind != OP_ADD;
		nb += o[i].kind != OP_DEL;
	}
	ret = sbuf_adds(out, "@@ ");
	if (!ret)
		ret = range_put(out, '-', o[from].a, na);
	if (!ret)
		ret = sbuf_addch(out, ' ');
	if (!ret)
		ret = range_put(out, '+', o[from].b, nb);
	if (!ret)
		ret = sbuf_adds(out, " @@\n");
	for (i = from; i < to && !ret; i++)
		ret = o[i].kind == OP_SAME ? line_put(out, ' ', &a->v[o[i].a]) :
		      o[i].kind == OP_DEL  ? line_put(out, '-', &a->v[o[i].a]) :
					     line_put(out, '+', &b->v[o[i].b]);
	return ret;
}

int diff_unified(const char *a, size_t alen, const char *b, size_t blen, const char *label_a,
		 const char *label_b, struct sbuf *out)
{
	struct lines la = { 0 }, lb = { 0 };
	struct op *o = NULL;
	size_t n = 0, i, start, end, last;
	int ret;

	sbuf_reset(out);
	ret = lines_split(a, alen, &la);
	if (!ret)
		ret = lines_split(b, blen, &lb);
	if (!ret)
		ret = script_build(&la, &lb, &o, &n);
	if (ret)
		goto out;
	for (i = 0; i < n && o[i].kind == OP_SAME; i++)
		;
	if (i == n)
		goto out; /* equal */
	ret = sbuf_addf(out, "--- %s\n+++ %s\n", label_a, label_b);
	while (!ret && i < n) {
		/* i is a change; the hunk starts CONTEXT lines before it */
		start = i > CONTEXT ? i - CONTEXT : 0;
		for (last = i; ; ) {
			/* the last change of a run whose gaps are at most 2 * CONTEXT */
			size_t k = last + 1, same = 0;

			while (k < n && o[k].kind == OP_SAME && same <= 2 * CONTEXT)
				k++, same++;
			if (k < n && o[k].kind != OP_SAME && same <= 2 * CONTEXT)
				last = k;
			else
				break;
		}
		end = last + 1 + CONTEXT < n ? last + 1 + CONTEXT : n;
		ret = hunk_put(out, &la, &lb, o, start, end);
		for (i = end; i < n && o[i].kind == OP_SAME; i++)
			;
	}
out:
	free(o);
	free(la.v);
	free(lb.v);
	return ret;
}
