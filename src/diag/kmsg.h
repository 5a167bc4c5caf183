/* kmsg.h - kernel log lines from any form people paste (dmesg, -T, -r, journalctl, quoted,
 * mail-wrapped, CRLF) or from /dev/kmsg records, streamed with bounded memory. */
#ifndef SBCDISK_DIAG_KMSG_H
#define SBCDISK_DIAG_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The kernel's own record limit is 1024 bytes; a pasted line may carry a prefix as well. */
#define KMSG_LINE_MAX 1536

struct kmsg_line {
	const char *text;     /* the line as shown to people: quote prefix and CR removed */
	const char *msg;      /* the kernel message inside text: every prefix removed */
	size_t msg_len;
	unsigned long lineno; /* 1-based line of the input (first line of a wrapped record) */
	double ts;            /* seconds since boot from "[ 12.345678]" or a record, else -1 */
	bool prefixed;        /* a timestamp or syslog prefix was found */
	unsigned long nonblank; /* non-blank input lines read so far */
	unsigned long wrapped;  /* input lines joined to this one (mail wrapping) */
	unsigned long last_lineno; /* the input line of its last piece (lineno when one) */
};

/* Called once per kernel message; a non-zero return stops the reading and is returned. */
typedef int (*kmsg_line_fn)(void *arg, const struct kmsg_line *line);

struct kmsg_reader {
	kmsg_line_fn fn;
	void *arg;
	bool records;          /* input is /dev/kmsg records ("6,12,345,-;msg") */
	unsigned long lineno;  /* lines read so far */
	unsigned long skipped; /* lines that were not kernel messages (comments, noise) */
	unsigned long lines;   /* kernel messages delivered */
	bool seen_prefix;      /* a timestamp or syslog prefix has been seen: wrapping is known */
	/* the line being assembled from the input bytes */
	char cur[KMSG_LINE_MAX + 1];
	size_t cur_len;
	bool cur_overflow;
	/* the last message, held back until the next line shows it was not wrapped */
	char pend[KMSG_LINE_MAX + 1];
	size_t pend_len;
	size_t pend_msg_off;
	unsigned long pend_lineno;
	double pend_ts;
	bool pend_prefixed;
	unsigned long pend_wrapped;
	unsigned long pend_last_lineno;
	unsigned long nonblank;  /* input lines that were not blank */
	bool have_pend;
};

void kmsg_reader_init(struct kmsg_reader *r, kmsg_line_fn fn, void *arg);
/* Feed bytes; lines are delivered as they complete. 0 or the callback's return. */
int kmsg_reader_feed(struct kmsg_reader *r, const char *buf, size_t n);
/* The end of the input: delivers what is still held. */
int kmsg_reader_finish(struct kmsg_reader *r);

/* Whole inputs. 0, the callback's return, or -errno (-EIO on a read error). */
int kmsg_read_buf(const char *buf, size_t n, kmsg_line_fn fn, void *arg);
int kmsg_read_file(FILE *f, kmsg_line_fn fn, void *arg);
/* /dev/kmsg opened O_RDONLY|O_NONBLOCK: records until EAGAIN, never blocks. A regular file
 * (a captured kmsg in a sysroot) is read to its end. */
int kmsg_read_fd(int fd, kmsg_line_fn fn, void *arg);

struct kmsg_prefix {
	bool prefixed;   /* a timestamp or syslog prefix was found */
	double ts;       /* seconds since boot when the prefix shows them, else -1 */
	size_t msg_len;
};

/* Strip every known prefix from one line (no newline): the message start inside line, or
 * NULL when the line is no kernel message (comment, journal marker, empty). */
const char *kmsg_line_parse(const char *line, size_t len, struct kmsg_prefix *out);

/* A message without a prefix that still has a kernel message's form: "driver dev: text"
 * (not "Dec 20 10:30:36 host systemd[1]: text"). */
bool kmsg_looks_kernel(const char *msg);

/* Strip every known prefix from one line (no newline). Returns the message start inside
 * line, or NULL when the line is no kernel message (comment, journal marker, empty).
 * *had_prefix tells whether a timestamp or syslog prefix was found. Exposed for tests. */
const char *kmsg_line_strip(const char *line, size_t len, bool *had_prefix, size_t *msg_len);

#endif
