/* sbuf.h - a growable string buffer with a hard cap, for anything outside input can grow
 * (the idea is curl's dynbuf). */
#ifndef SBCDISK_SBUF_H
#define SBCDISK_SBUF_H

#include <stddef.h>

#include "common/compiler.h"

struct sbuf {
	char *buf; /* NUL-terminated; NULL until the first add */
	size_t len;
	size_t alloc;
	size_t cap; /* the most bytes (without the NUL) it may ever hold */
};

#define SBUF_INIT(c)                                                                               \
	{                                                                                          \
		.buf = NULL, .len = 0, .alloc = 0, .cap = (c)                                      \
	}

void sbuf_init(struct sbuf *sb, size_t cap);
/* Frees the memory; the buffer can be used again. */
void sbuf_release(struct sbuf *sb);
void sbuf_reset(struct sbuf *sb);
/* 0, -ENOMEM, or -E2BIG when the cap would be passed (nothing is added then). */
MUST_CHECK int sbuf_add(struct sbuf *sb, const void *data, size_t n);
MUST_CHECK int sbuf_adds(struct sbuf *sb, const char *s);
MUST_CHECK int sbuf_addch(struct sbuf *sb, char c);
MUST_CHECK int sbuf_addf(struct sbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Append everything fd gives until end of file. 0, -EFBIG when it holds more than the cap
 * allows (what fit stays), -ENOMEM, or the read's -errno. */
MUST_CHECK int sbuf_read_fd(struct sbuf *sb, int fd);
/* "" when empty: never NULL. */
const char *sbuf_str(const struct sbuf *sb);
/* Hands the string over; the caller frees it. The buffer is empty afterwards. */
char *sbuf_detach(struct sbuf *sb);

#endif
