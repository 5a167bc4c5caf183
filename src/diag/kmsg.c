/* kmsg.c - split any pasted kernel log or /dev/kmsg stream into kernel messages.
 * Memory is two fixed line buffers: a log of any size is read in one pass. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
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
static size_t record_prefix(const char *p, const char *end, uint64_t *usec)
{
	const char *s = p;
	uint64_t v = 0;
	int field;

	for (field = 0; field < 3; field++) {
		if (s >= end || !is_digit(*s))
			return 0;
		v = 0;
		while (s < end && is_digit(*s)) {
			if (v < 1000000000000000ull) /* 31 years up */
				v = v * 10 + (uint64_t)(*s - '0');
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
 * length of the bracket, or 0 when it is no timestamp ("[sda]", "[abd5cf13]", "[drm]").
 * *ts is the seconds since boot for the first form, -1 for the others. */
static size_t ts_bracket(const char *p, const char *end, double *ts)
{
	const char *s, *at = NULL;
	bool digit = false, sep = false, plain = true;

	*ts = -1;
	if (p >= end || *p != '[')
		return 0;
	for (s = p + 1; s < end && s - p < 48; s++) {
		char c = *s;

		if (c == ']')
			break;
		if (c == '@' && !at && digit && is_digit(s[1])) {
			at = s; /* Amlogic vendor kernels: "[    4.476919@2]", the CPU after '@' */
			continue;
		}
		if (at && !is_digit(c))
			return 0;
		if (is_digit(c)) {
			digit = true;
		} else if (c == '.' || c == ':' || c == ' ' || c == '+') {
			sep = true;
			if (c != '.' && c != ' ')
				plain = false;
		} else if (!isalpha((unsigned char)c) && c != ',' && c != '-') {
			return 0;
		} else {
			plain = false;
		}
	}
	if (s >= end || *s != ']' || !digit || !sep)
		return 0;
	if (plain) {
		/* "[  138.145040]": seconds and microseconds since boot */
		const char *q = p + 1;
		double v = 0, scale = 1;

		while (*q == ' ')
			q++;
		while (is_digit(*q))
			v = v * 10 + (*q++ - '0');
		if (*q == '.')
			for (q++; is_digit(*q); q++)
				v += (*q - '0') * (scale /= 10);
		if (q == s || q == at)
			*ts = v;
	}
	return (size_t)(s + 1 - p);
}

/* A CPU or caller tag after the time: "[c0]", "[C7]" (Hardkernel and Samsung vendor
 * kernels), "[    T1]", "[  C3]" (CONFIG_PRINTK_CALLER), "[1:  swapper/0:    1]" (Samsung's
 * Exynos kernels: CPU, task, pid), "(0)[123:kworker/0:1]" (MediaTek's: CPU, pid, task).
 * Its length, or 0. */
static size_t cpu_tag(const char *p, const char *end)
{
	const char *s = p + 1, *close;

	if (end - p < 3)
		return 0;
	if (*p == '(') {
		/* MediaTek: "(CPU)[PID:TASK]" */
		while (s < end && is_digit(*s))
			s++;
		if (s == p + 1 || s + 1 >= end || s[0] != ')' || s[1] != '[' || !is_digit(s[2]))
			return 0;
		close = memchr(s, ']', (size_t)(end - s) < 48 ? (size_t)(end - s) : 48);
		return close && memchr(s, ':', (size_t)(close - s)) ? (size_t)(close + 1 - p) : 0;
	}
	if (*p != '[')
		return 0;
	while (s < end && *s == ' ')
		s++;
	if (s < end && is_digit(*s)) {
		/* Samsung: "[CPU:  TASK:  PID]" */
		while (s < end && is_digit(*s))
			s++;
		if (s >= end || *s != ':')
			return 0;
		close = memchr(s, ']', (size_t)(end - s) < 48 ? (size_t)(end - s) : 48);
		return close && memchr(s + 1, ':', (size_t)(close - s - 1)) ?
			       (size_t)(close + 1 - p) : 0;
	}
	if (s >= end || !strchr("cCtT", *s))
		return 0;
	s++;
	if (s >= end || !is_digit(*s))
		return 0;
	while (s < end && is_digit(*s) && s - p < 16)
		s++;
	return s < end && *s == ']' ? (size_t)(s + 1 - p) : 0;
}

/* What people put in front of a quoted log line, none of it the log's: mail quotes ("> ",
 * ">>"), a diff's "+" and "-" (not journalctl's "-- "), an editor's search results
 * ("Line  528: "). The start of the line behind them. */
static const char *quote_strip(const char *p, const char *end)
{
	for (;;) {
		const char *q;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p < end && (*p == '>' || *p == '+')) {
			p++;
		} else if (p + 1 < end && *p == '-' && p[1] != '-') {
			p++;
		} else if (end - p > 6 && !memcmp(p, "Line ", 5)) {
			for (q = p + 5; q < end && *q == ' '; q++)
				;
			if (q >= end || !is_digit(*q))
				return p;
			while (q < end && is_digit(*q))
				q++;
			if (q >= end || *q != ':')
				return p;
			p = q + 1;
		} else {
			return p;
		}
	}
}

/* After the word "kernel" of a syslog prefix: ": ", "[]: ", "[0]: ", "] " (metalog's
 * "[kernel] ") or RFC 5424's " - - - " / " - - [meta ...] ". The message start or NULL. */
static const char *kernel_tag_tail(const char *k, const char *end, bool bracketed)
{
	const char *q = k + 6;
	int field;

	if (bracketed)
		return q + 1 < end && q[0] == ']' && q[1] == ' ' ? q + 2 : NULL;
	if (q < end && *q == '[') {
		for (q++; q < end && is_digit(*q); q++)
			;
		if (q >= end || *q != ']')
			return NULL;
		q++;
	}
	if (q + 1 < end && q[0] == ':' && q[1] == ' ')
		return q + 2;
	/* RFC 5424: APP-NAME PROCID MSGID STRUCTURED-DATA MSG */
	for (field = 0; field < 2; field++) {
		if (q + 1 >= end || *q != ' ')
			return NULL;
		q++;
		if (*q == '-')
			q++;
		else
			while (q < end && (is_digit(*q) || isalpha((unsigned char)*q)))
				q++;
	}
	if (q + 1 >= end || q[0] != ' ')
		return NULL;
	q++;
	if (*q == '-')
		q++;
	else if (*q == '[')
		q = memchr(q, ']', (size_t)(end - q));
	else
		return NULL;
	if (!q)
		return NULL;
	if (*q == ']')
		q++;
	return q < end && *q == ' ' ? q + 1 : NULL;
}

/* "Jan 29 16:19:28 argon kernel: ", "2023-11-14T23:54:42.190471+00:00 host kernel: ",
 * "kernel: ", "Feb 14 01:11:04 [kernel] ", "2023-12-20 10:30:36 err kernel[]: ",
 * "<6>1 2023-11-14T23:54:42Z host kernel - - - ", "[  138.145040] host kernel: " (timed:
 * a timestamp came before, so no time is needed before the tag). */
static const char *syslog_prefix(const char *p, const char *end, bool timed)
{
	size_t n = (size_t)(end - p);
	const char *k, *tail, *s = p;

	if (n < 8)
		return NULL;
	if (n > 120)
		n = 120;
	while ((k = memmem(s, n - (size_t)(s - p), "kernel", 6))) {
		bool bracketed = k > p && k[-1] == '[';

		s = k + 6;
		if (k > p && k[-1] != ' ' && !bracketed)
			continue;
		tail = kernel_tag_tail(k, end, bracketed);
		if (!tail)
			continue;
		/* a tag after other words needs a time before it: "HH:MM" */
		if (!timed && k > p + (bracketed ? 1 : 0) && !memchr(p, ':', (size_t)(k - p)))
			continue;
		/* ... and no "name: " of a message: "usb 1-1: kernel: ..." is a message */
		if (memmem(p, (size_t)(k - p), ": ", 2))
			continue;
		return tail;
	}
	return NULL;
}

/* A shell prompt with the command glued to the first line: "pi@raspberrypi:~ $ dmesg[" or
 * "root@host:~# dmesg -T[": the position of the first timestamp bracket, else NULL. */
static const char *after_prompt(const char *p, const char *end)
{
	const char *q, *lim = end - p > 160 ? p + 160 : end;
	double ts;

	for (q = p; q + 1 < lim; q++)
		if ((q[0] == '$' || q[0] == '#') && (q[1] == ' ' || q[1] == 'd' || q[1] == 'j'))
			break;
	if (q + 1 >= lim || !memchr(p, '@', (size_t)(q - p)))
		return NULL;
	for (q++; q < lim; q++)
		if (*q == '[' && ts_bracket(q, end, &ts))
			return q;
	return NULL;
}

const char *kmsg_line_parse(const char *line, size_t len, struct kmsg_prefix *out)
{
	const char *p = line, *end = line + len, *q;
	uint64_t usec;
	double ts;
	size_t n;
	int round;

	out->prefixed = false;
	out->ts = -1;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p == '#' || (end - p >= 2 && p[0] == '/' && p[1] == '/'))
		return NULL;
	/* journalctl's "-- Logs begin at ... --" is skipped; its "-- Boot 1a2b... --" is
	 * passed on: a boot begins there */
	if (end - p >= 6 && !memcmp(p, "-- ", 3) && !memcmp(end - 3, " --", 3)) {
		if (end - p < 12 || memcmp(p, "-- Boot ", 8))
			return NULL;
		out->prefixed = true;
		out->msg_len = (size_t)(end - p);
		return p;
	}
	q = after_prompt(p, end);
	if (q)
		p = q;

	n = record_prefix(p, end, &usec);
	if (n) {
		p += n;
		out->prefixed = true;
		out->ts = (double)usec / 1e6;
	}
	/* the prefixes come in several orders ("[ 1.2] host kernel: ", "host kernel: [ 1.2]") */
	for (round = 0; round < 3; round++) {
		const char *start = p;

		if (p < end && *p == '<') {
			for (q = p + 1; q < end && is_digit(*q) && q - p < 6; q++)
				;
			if (q > p + 1 && q < end && *q == '>')
				p = q + 1;
		}
		q = syslog_prefix(p, end, out->ts >= 0);
		if (q)
			p = q;
		/* dmesg -x: "kern  :err   : " */
		if (end - p > 8 && !memcmp(p, "kern", 4) && (p[4] == ' ' || p[4] == ':')) {
			q = memchr(p, ':', (size_t)(end - p) < 24 ? (size_t)(end - p) : 24);
			if (q)
				q = memchr(q + 1, ':', (size_t)(end - q - 1) < 16 ?
							     (size_t)(end - q - 1) : 16);
			if (q)
				p = q + 1;
		}
		while (p < end && *p == ' ')
			p++;
		n = ts_bracket(p, end, &ts);
		if (n) {
			p += n;
			if (ts >= 0)
				out->ts = ts;
			while (p < end && *p == ' ')
				p++;
			p += cpu_tag(p, end);
		}
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == start)
			break;
		out->prefixed = true;
	}
	if (p >= end)
		return NULL;
	out->msg_len = (size_t)(end - p);
	return p;
}

const char *kmsg_line_strip(const char *line, size_t len, bool *had_prefix, size_t *msg_len)
{
	struct kmsg_prefix pre;
	const char *msg = kmsg_line_parse(line, len, &pre);

	*had_prefix = pre.prefixed;
	*msg_len = msg ? pre.msg_len : 0;
	return msg;
}

bool kmsg_looks_kernel(const char *msg)
{
	const char *colon = strstr(msg, ": "), *p;

	if (!isalpha((unsigned char)msg[0]) || !colon || colon - msg > 64)
		return false;
	for (p = msg; p + 5 <= colon; p++)
		if (is_digit(p[0]) && p[1] == ':' && is_digit(p[2]) && is_digit(p[3]) && p[4] == ':')
			return false; /* a time of day: another program's syslog line */
	return true;
}

/* "Jan 11 09:38:32 ..." or "2025-01-11T09:38:32 ...": another program's syslog line, dated,
 * never the tail of a wrapped kernel message. */
static bool dated(const char *p, const char *end)
{
	const char *lim = end - p > 24 ? p + 24 : end, *q;

	if (end - p >= 10 && is_digit(p[0]) && is_digit(p[3]) && p[4] == '-' && p[7] == '-')
		return true;
	if (end - p < 15 || !isupper((unsigned char)p[0]) || !islower((unsigned char)p[1]) ||
	    p[3] != ' ')
		return false;
	for (q = p + 4; q + 5 < lim; q++)
		if (is_digit(q[0]) && is_digit(q[1]) && q[2] == ':' && is_digit(q[3]) &&
		    is_digit(q[4]) && q[5] == ':')
			return true;
	return false;
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
	l.ts = r->pend_ts;
	l.prefixed = r->pend_prefixed;
	l.nonblank = r->nonblank;
	l.wrapped = r->pend_wrapped;
	l.last_lineno = r->pend_last_lineno;
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
	struct kmsg_prefix pre;
	uint64_t usec;
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
	text = quote_strip(text, end);
	if (text < end)
		r->nonblank++;
	msg = kmsg_line_parse(text, (size_t)(end - text), &pre);
	prefixed = pre.prefixed;
	msg_len = msg ? pre.msg_len : 0;
	if (!msg) {
		r->skipped++;
		return deliver_pending(r);
	}
	if (!prefixed && r->seen_prefix && r->have_pend && r->pend_len >= WRAP_MIN_LEN &&
	    !dated(text, end)) {
		/* the tail of a line a mail client wrapped */
		pend_append(r, " ", 1);
		pend_append(r, text, (size_t)(end - text));
		r->pend_wrapped++;
		r->pend_last_lineno = r->lineno;
		return 0;
	}
	ret = deliver_pending(r);
	if (ret)
		return ret;
	if (prefixed)
		r->seen_prefix = true;
	r->pend_len = 0;
	r->pend_lineno = r->lineno;
	r->pend_last_lineno = r->lineno;
	r->pend_ts = pre.ts;
	r->pend_prefixed = prefixed;
	r->pend_wrapped = 0;
	if (record_prefix(text, end, &usec)) {
		/* show a /dev/kmsg record the way dmesg does */
		char head[40];
		int hn = snprintf(head, sizeof(head), "[%5" PRIu64 ".%06" PRIu64 "] ",
				  usec / 1000000, usec % 1000000);

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
