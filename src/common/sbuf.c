/* sbuf.c - a growable string buffer with a hard cap.
 * Every append checks the cap before it allocates, so hostile input cannot grow it forever. */
#include <stdarg.h>
#include <unistd.h>

#include "sbuf.h"
#include "util.h"

void sbuf_init(struct sbuf *sb, size_t cap)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	sb->cap = cap;
}

void sbuf_release(struct sbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

static int sbuf_grow(struct sbuf *sb, size_t n)
{
	size_t need, a;
	char *p;

	if (n > sb->cap || sb->len > sb->cap - n)
		return -E2BIG;
	need = sb->len + n + 1;
	if (need <= sb->alloc)
		return 0;
	a = sb->alloc ? sb->alloc : 64;
	while (a < need)
		a *= 2;
	if (a > sb->cap + 1)
		a = sb->cap + 1;
	p = realloc(sb->buf, a);
	if (!p)
		return -ENOMEM;
	sb->buf = p;
	sb->alloc = a;
	return 0;
}

int sbuf_add(struct sbuf *sb, const void *data, size_t n)
{
	int ret = sbuf_grow(sb, n);

	if (ret)
		return ret;
	if (n)
		memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int sbuf_adds(struct sbuf *sb, const char *s)
{
	return sbuf_add(sb, s, strlen(s));
}

int sbuf_addch(struct sbuf *sb, char c)
{
	return sbuf_add(sb, &c, 1);
}

int sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n, ret;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	ret = sbuf_grow(sb, (size_t)n);
	if (ret)
		return ret;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
	return 0;
}

int sbuf_read_fd(struct sbuf *sb, int fd)
{
	char buf[16384];
	ssize_t n;
	int ret;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		ret = sbuf_add(sb, buf, (size_t)n);
		if (ret)
			return ret == -E2BIG ? -EFBIG : ret;
	}
}

const char *sbuf_str(const struct sbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *sbuf_detach(struct sbuf *sb)
{
	char *s = sb->buf;

	if (!s)
		s = calloc(1, 1);
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	return s;
}
