/* t-diff.c - the unified diff: exact output on known cases, and on random texts the diff
 * applied to the old text gives the new one (checked by a small patch applier here). */
#include "fix/diff.h"
#include "common/util.h"
#include "t.h"

static void expect(const char *a, const char *b, const char *want)
{
	struct sbuf out = SBUF_INIT(1 << 20);

	T_EQ_INT(diff_unified(a, strlen(a), b, strlen(b), "a/f", "b/f", &out), 0);
	T_EQ_STR(sbuf_str(&out), want);
	sbuf_release(&out);
}

/* "@@ -S[,N] +S[,N] @@": the old and the new range (N is 1 when left out). 0 or -1. */
static int hunk_header(const char *p, size_t *as, size_t *an, size_t *bs, size_t *bn)
{
	char *end;

	if (strncmp(p, "@@ -", 4))
		return -1;
	*as = strtoul(p + 4, &end, 10);
	*an = *end == ',' ? strtoul(end + 1, &end, 10) : 1;
	if (strncmp(end, " +", 2))
		return -1;
	*bs = strtoul(end + 2, &end, 10);
	*bn = *end == ',' ? strtoul(end + 1, &end, 10) : 1;
	return strncmp(end, " @@\n", 4) ? -1 : 0;
}

/* Apply a unified diff to a; the result into out. 0, or -1 when the diff does not fit a:
 * a context or removed line that is not a's, or a hunk whose line counts or new start line
 * disagree with its header (what patch(1) would reject). */
static int apply(const char *a, const char *diff, struct sbuf *out)
{
	const char *p = diff, *ap = a, *nl;
	size_t aline = 1, bline = 1, start, an, bs, bn, na, nb;

	sbuf_reset(out);
	p = strstr(p, "\n+++ ");
	if (!p)
		return *diff ? -1 : sbuf_adds(out, a);
	p = strchr(p + 1, '\n') + 1;
	while (*p) {
		if (hunk_header(p, &start, &an, &bs, &bn))
			return -1;
		if (!an)
			start++; /* an empty range names the line before */
		p = strchr(p, '\n') + 1;
		for (; aline < start; aline++, bline++) { /* copy up to the hunk */
			nl = strchr(ap, '\n');
			size_t n = nl ? (size_t)(nl - ap) + 1 : strlen(ap);

			if (sbuf_add(out, ap, n))
				return -1;
			ap += n;
		}
		/* the new range starts where the copied lines end (or, empty, names the line
		 * before) */
		if (bs != (bn ? bline : bline - 1))
			return -1;
		na = nb = 0;
		while (*p == ' ' || *p == '-' || *p == '+' || *p == '\\') {
			char mark = *p;
			const char *e = strchr(p, '\n');
			size_t n = (size_t)(e - p);
			bool last = !strncmp(e + 1, "\\ No newline", 12);

			if (mark == '\\') {
				p = e + 1;
				continue;
			}
			if (mark != '+') { /* must match a's line */
				nl = strchr(ap, '\n');
				size_t alen = nl ? (size_t)(nl - ap) + 1 : strlen(ap);

				if (alen != n - 1 + !last || memcmp(ap, p + 1, n - 1))
					return -1;
				ap += alen;
				aline++;
				na++;
			}
			if (mark != '-') {
				if (sbuf_add(out, p + 1, n - 1) ||
				    (!last && sbuf_addch(out, '\n')))
					return -1;
				bline++;
				nb++;
			}
			p = e + 1;
		}
		if (na != an || nb != bn)
			return -1;
	}
	return sbuf_adds(out, ap) ? -1 : 0;
}

static void random_text(char *buf, size_t cap, unsigned *seed)
{
	size_t n = (size_t)(rand_r(seed) % 12), i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < n && len + 4 < cap; i++) {
		buf[len++] = (char)('a' + rand_r(seed) % 4);
		if (rand_r(seed) % 3)
			buf[len++] = (char)('a' + rand_r(seed) % 3);
		buf[len++] = '\n';
	}
	if (len && rand_r(seed) % 4 == 0)
		len--; /* no newline at the end */
	buf[len] = '\0';
}

static void test_random(void)
{
	struct sbuf d = SBUF_INIT(1 << 20), r = SBUF_INIT(1 << 20);
	unsigned seed = 7;
	char a[128], b[128];
	int i, bad = 0;

	for (i = 0; i < 3000; i++) {
		random_text(a, sizeof(a), &seed);
		random_text(b, sizeof(b), &seed);
		if (diff_unified(a, strlen(a), b, strlen(b), "a/f", "b/f", &d) ||
		    apply(a, sbuf_str(&d), &r) || strcmp(sbuf_str(&r), b)) {
			if (!bad++)
				fprintf(stderr, "a:\n%s\n--\nb:\n%s\n--\ndiff:\n%s\n", a, b,
					sbuf_str(&d));
		}
		if (!strcmp(a, b))
			T_EQ_INT(d.len, 0);
	}
	T_EQ_INT(bad, 0);
	sbuf_release(&d);
	sbuf_release(&r);
}

int main(void)
{
	expect("same\n", "same\n", "");
	expect("root=x\n", "root=x q=1\n", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-root=x\n+root=x q=1\n");
	expect("root=x", "root=x q=1",
	       "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-root=x\n\\ No newline at end of file\n"
	       "+root=x q=1\n\\ No newline at end of file\n");
	expect("1\n2\n3\n4\n5\n", "1\n2\n3\n4\n5\nx\n",
	       "--- a/f\n+++ b/f\n@@ -3,3 +3,4 @@\n 3\n 4\n 5\n+x\n");
	expect("", "x\n", "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n");
	expect("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n",
	       "--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n@@ -8,3 +9,4 @@\n 8\n 9\n 10\n+11\n");
	test_random();
	return t_done();
}
