/* cmdline.h - a model of cmdline.txt that writes back exactly the bytes it read.
 * The file is a run of segments, parameters and the white space between them. */
#ifndef SBCDISK_FIX_CMDLINE_H
#define SBCDISK_FIX_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/sbuf.h"
#include "fix/msgs.h"
#include "common/usbquirks.h"

/* Largest cmdline.txt we read (the firmware's own limit is far below). */
#define CMDLINE_FILE_MAX (256 * 1024)

struct cmdline_seg {
	char *s;    /* owned; may hold NUL bytes */
	size_t len;
	bool param; /* a parameter; otherwise white space */
};

struct cmdline {
	struct cmdline_seg *seg;
	size_t n;
	size_t alloc;
};

/* Split buf (any bytes) into segments. 0 or -ENOMEM; cmdline_release() in both cases. */
int cmdline_parse(const char *buf, size_t len, struct cmdline *cl);
void cmdline_release(struct cmdline *cl);
/* The bytes of the model into out (reset first). 0, -ENOMEM or -E2BIG. */
int cmdline_write(const struct cmdline *cl, struct sbuf *out);

/* The first segment after the first line (the firmware passes on only that line; see
 * docs/config-txt.md), cl->n for a file of one line. */
size_t cmdline_line1_end(const struct cmdline *cl);
/* Where the kernel's parameters end: a "--" in the first line (what follows goes to init),
 * else cmdline_line1_end(). */
size_t cmdline_kernel_end(const struct cmdline *cl);

/* 0 when the first line is something we can edit safely: parameters in it, no NUL bytes,
 * balanced quotes (later lines are noted, left alone). Otherwise -EINVAL and m->why says
 * what is wrong. */
int cmdline_check(const struct cmdline *cl, struct fix_msgs *m);

/* The value of the effective (last) usb-storage.quirks / usb_storage.quirks, quotes
 * removed, into out; -ENOENT when there is none. */
int cmdline_quirks_get(const struct cmdline *cl, struct sbuf *out);

/* Add id:flag to the quirks parameter (one parameter, every other byte unchanged).
 * *changed says whether the model differs now. 0, or -EINVAL / -ENOSPC with m->why. */
int cmdline_quirks_add(struct cmdline *cl, struct usb_id id, char flag, struct fix_msgs *m,
		       bool *changed);

#endif
