/* kmsg.c - split any pasted kernel log or /dev/kmsg stream into kernel messages.
 * Memory is two fixed line buffers: a log of any size is read in one pass. */
#include <ctype.h>
#include <errno.h>
#include <unistd.h>

#include "diag/kmsg.h"
#include "common/util.h"

/* A mail client wraps only long lines; a short line before an unprefixed one is no wrap. */
#define WRAP_MIN_LEN 60

void kmsg_reader_init(struct kmsg_reader *r, kmsg_line_fn fn, void *arg)
{
	memset(r, 0, sizeof(*r));
	r->fn = fn;
	r->arg = arg;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "6,339,5140900,-;" (a /dev/kmsg record): returns the length of the prefix or 0. */
static size_t record_prefix(const char *p, const char *end, unsigned long *usec)
{
	const char *s = p;
	unsigned long v = 0;
	int field;

	for (field = 0; field < 3; field++) {
		if (s >= end || !is_digit(*s))
			return 0;
		v = 0;
		while (s < end && is_digit(*s)) {
			if (v < 1000000000000UL)
				v = v * 10 + (unsigned long)(*s - '0');
			s++;
		}
		if (s >= end || *s != ',')
			return 0;
		s++;
	}
	*usec = v;
	while (s < end && s - p < 64 && *s != ';')
		s++;
	if (s >= end || *s != ';')
		return 0;
	return (size_t)(s + 1 - p);
}

/* "[ 1472.252634]", "[Mon Mar 14 12:51:11 2022]", "[Aug28 17:07]", "[  +8.063930]": the
 * length of the bracket, or 0 when it is no timestamp ("[sda]", "[abd5cf13]", "[drm]"). */
static size_t ts_bracket(const char *p, const char *end)
{
	const char *s;
	bool digit = false, sep = false;

	if (p >= end || *p != '[')
		return 0;
	for (s = p + 1; s < end && s - p < 48; s++) {
		char c = *s;

		if (c == ']')
			return digit && sep ? (size_t)(s + 1 - p) : 0;
		if (is_digit(c))
			digit = true;
		else if (c == '.' || c == ':' || c == ' ' || c == '+')
			sep = true;
		else if (!isalpha((unsigned char)c) && c != ',' && c != '-')
			return 0;
	}
	return 0;
}

/* "Jan 29 16:19:28 argon kernel: " or "2023-11-14T23:54:42.190471+00:00 host kernel: ". */
static const char *syslog_prefix(const char *p, const char *end)
{
	size_t n = (size_t)(end - p);
	const char *k;

	if (n < 12 || !(isalpha((unsigned char)p[0]) || is_digit(p[0])))
		return NULL;
	if (n > 96)
		n = 96;
	k = memmem(p, n, " kernel: ", 9);
	if (!k)
		return NULL;
	/* the prefix has a time in it: "HH:MM" */
	if (!memchr(p, ':', (size_t)(k - p)))
		return NULL;
	return k + 9;
}

const char *kmsg_line_strip(const char *line, size_t len, bool *had_prefix, size_t *msg_len)
{
	const char *p = line, *end = line + len, *q;
	unsigned long usec;
	size_t n;

	*had_prefix = false;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p == '#' || (end - p >= 2 && p[0] == '/' && p[1] == '/'))
		return NULL;
	/* journalctl's "-- Boot 1a2b... --" and "-- Logs begin at ... --" */
	if (end - p >= 6 && !memcmp(p, "-- ", 3) && !memcmp(end - 3, " --", 3))
		return NULL;

	n = record_prefix(p, end, &usec);
	if (n) {
		p += n;
		*had_prefix = true;
	}
	if (p < end && *p == '<') {
		for (q = p + 1; q < end && is_digit(*q) && q - p < 6; q++)
			;
		if (q > p + 1 && q < end && *q == '>') {
			p = q + 1;
			*had_prefix = true;
		}
	}
	q = syslog_prefix(p, end);
	if (q) {
		p = q;
		*had_prefix = true;
	}
	/* dmesg -x: "kern  :err   : " */
	if (end - p > 8 && !memcmp(p, "kern", 4) && (p[4] == ' ' || p[4] == ':')) {
		q = memchr(p, ':', (size_t)(end - p) < 24 ? (size_t)(end - p) : 24);
		if (q)
			q = memchr(q + 1, ':', (size_t)(end - q - 1) < 16 ? (size_t)(end - q - 1) : 16);
		if (q) {
			p = q + 1;
			*had_prefix = true;
		}
	}
	while (p < end && *p == ' ')
		p++;
	n = ts_bracket(p, end);
	if (n) {
		p += n;
		*had_prefix = true;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end)
		return NULL;
	*msg_len = (size_t)(end - p);
	return p;
}

static int deliver_pending(struct kmsg_reader *r)
{
	struct kmsg_line l;

	if (!r->have_pend)
		return 0;
	r->have_pend = false;
	r->pend[r->pend_len] = '\0';
	l.text = r->pend;
	l.msg = r->pend + r->pend_msg_off;
	l.msg_len = r->pend_len - r->pend_msg_off;
	l.lineno = r->pend_lineno;
	r->lines++;
	return r->fn(r->arg, &l);
}

static void pend_append(struct kmsg_reader *r, const char *s, size_t n)
{
	if (n > KMSG_LINE_MAX - r->pend_len)
		n = KMSG_LINE_MAX - r->pend_len;
	memcpy(r->pend + r->pend_len, s, n);
	r->pend_len += n;
}

static int process_line(struct kmsg_reader *r, char *line, size_t len)
{
	const char *text = line, *end = line + len, *msg;
	unsigned long usec;
	size_t msg_len;
	bool prefixed;
	char *nul;
	int ret;

	r->lineno++;
	/* a NUL inside a line would cut the C string short: make it visible instead */
	for (nul = memchr(line, '\0', len); nul; nul = memchr(nul, '\0', (size_t)(end - nul)))
		*nul = '?';
	while (end > text && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		end--;
	/* /dev/kmsg dictionary lines (" SUBSYSTEM=usb") belong to the record before */
	if (r->records && text < end && *text == ' ') {
		r->skipped++;
		return 0;
	}
	/* mail quoting: "> ", "> > ", ">>" */
	for (;;) {
		while (text < end && (*text == ' ' || *text == '\t'))
			text++;
		if (text < end && *text == '>')
			text++;
		else
			break;
	}
	msg = kmsg_line_strip(text, (size_t)(end - text), &prefixed, &msg_len);
	if (!msg) {
		r->skipped++;
		return deliver_pending(r);
	}
	if (!prefixed && r->seen_prefix && r->have_pend && r->pend_len >= WRAP_MIN_LEN) {
		/* the tail of a line a mail client wrapped */
		pend_append(r, " ", 1);
		pend_append(r, text, (size_t)(end - text));
		return 0;
	}
	ret = deliver_pending(r);
	if (ret)
		return ret;
	if (prefixed)
		r->seen_prefix = true;
	r->pend_len = 0;
	r->pend_lineno = r->lineno;
	if (record_prefix(text, end, &usec)) {
		/* show a /dev/kmsg record the way dmesg does */
		char head[40];
		int hn = snprintf(head, sizeof(head), "[%5lu.%06lu] ", usec / 1000000,
				  usec % 1000000);

		pend_append(r, head, hn > 0 ? (size_t)hn : 0);
		r->pend_msg_off = r->pend_len;
		pend_append(r, msg, msg_len);
	} else {
		pend_append(r, text, (size_t)(end - text));
		r->pend_msg_off = (size_t)(msg - text);
	}
	if (r->pend_msg_off > r->pend_len)
		r->pend_msg_off = r->pend_len;
	r->have_pend = true;
	return 0;
}

int kmsg_reader_feed(struct kmsg_reader *r, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n;
	int ret;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t take = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!r->cur_overflow) {
			size_t room = KMSG_LINE_MAX - r->cur_len;

			if (take > room) {
				/* an over-long line: keep its start, drop the rest */
				memcpy(r->cur + r->cur_len, p, room);
				r->cur_len += room;
				r->cur_overflow = true;
			} else {
				memcpy(r->cur + r->cur_len, p, take);
				r->cur_len += take;
			}
		}
		if (!nl)
			break;
		ret = process_line(r, r->cur, r->cur_len);
		r->cur_len = 0;
		r->cur_overflow = false;
		if (ret)
			return ret;
		p = nl + 1;
	}
	return 0;
}

int kmsg_reader_finish(struct kmsg_reader *r)
{
	int ret = 0;

	if (r->cur_len)
		ret = process_line(r, r->cur, r->cur_len);
	r->cur_len = 0;
	r->cur_overflow = false;
	if (ret)
		return ret;
	return deliver_pending(r);
}

/* A whole input through one reader: next() fills buf with up to cap bytes and returns how
 * many, 0 at the end, or -errno. */
typedef ssize_t (*chunk_fn)(void *src, char *buf, size_t cap);

static int read_all(chunk_fn next, void *src, bool records, kmsg_line_fn fn, void *arg)
{
	struct kmsg_reader *r = malloc(sizeof(*r));
	char *buf = malloc(65536);
	ssize_t n;
	int ret = 0;

	if (!r || !buf) {
		ret = -ENOMEM;
		goto out;
	}
	kmsg_reader_init(r, fn, arg);
	r->records = records;
	while ((n = next(src, buf, 65536)) > 0) {
		ret = kmsg_reader_feed(r, buf, (size_t)n);
		if (ret)
			goto out;
	}
	ret = n < 0 ? (int)n : kmsg_reader_finish(r);
out:
	free(buf);
	free(r);
	return ret;
}

static ssize_t next_file(void *src, char *buf, size_t cap)
{
	size_t n = fread(buf, 1, cap, src);

	return n ? (ssize_t)n : ferror((FILE *)src) ? -EIO : 0;
}

static ssize_t next_fd(void *src, char *buf, size_t cap)
{
	int fd = *(int *)src;

	for (;;) {
		/* each read of /dev/kmsg returns one record, newline included */
		ssize_t n = read(fd, buf, cap);

		if (n >= 0)
			return n;
		if (errno == EINTR || errno == EPIPE)
			continue; /* EPIPE: records were overwritten; go on */
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0; /* the end of the live log */
		return -errno;
	}
}

int kmsg_read_buf(const char *buf, size_t n, kmsg_line_fn fn, void *arg)
{
	struct kmsg_reader *r = malloc(sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	kmsg_reader_init(r, fn, arg);
	ret = kmsg_reader_feed(r, buf, n); /* in one piece: no copy */
	if (!ret)
		ret = kmsg_reader_finish(r);
	free(r);
	return ret;
}

int kmsg_read_file(FILE *f, kmsg_line_fn fn, void *arg)
{
	return read_all(next_file, f, false, fn, arg);
}

int kmsg_read_fd(int fd, kmsg_line_fn fn, void *arg)
{
	return read_all(next_fd, &fd, true, fn, arg);
}
