/* bootcfg.h - a model of the Raspberry Pi config.txt: lines kept byte for byte, with the
 * conditional filter ([pi4], [pi5], [all], [none], [gpio4=1] ...) in force at each line. */
#ifndef SBCDISK_COMMON_BOOTCFG_H
#define SBCDISK_COMMON_BOOTCFG_H

#include <stdbool.h>
#include <stddef.h>

#include "common/sbuf.h"

#define CONFIG_FILE_MAX (1024 * 1024)
#define CONFIG_LINES_MAX 20000

struct config_line {
	char *s;    /* owned, with its line end ("\n", "\r\n" or none on the last line) */
	size_t len;
};

struct config {
	struct config_line *line;
	size_t n;
	size_t alloc;
};

/* Which boards a line applies to, from the filters above it. */
struct config_filter {
	char model[16]; /* "" = every model, else the model filter ("pi5", "cm4" ...) */
	bool none;      /* after [none]: nothing applies until [all] */
	bool other;     /* a non-model filter ([gpio4=1], [EDID=...], [tryboot] ...) is active */
};

/* Split buf into lines. 0, -ENOMEM or -E2BIG (more than CONFIG_LINES_MAX lines). */
int config_parse(const char *buf, size_t len, struct config *cfg);
void config_release(struct config *cfg);
int config_write(const struct config *cfg, struct sbuf *out);
/* Insert a copy of s[0..len) as line at. 0, -ENOMEM or -E2BIG (too many lines). */
int config_line_insert(struct config *cfg, size_t at, const char *s, size_t len);
/* The line without leading blanks and its line end, into a bounded copy ("" for a line with
 * a NUL byte). */
void config_line_text(const struct config_line *l, char *out, size_t cap);
/* The filter name of a "[...]" line (text from config_line_text()), lower case, or false
 * when the line is not one. */
bool config_filter_name(const char *t, char *out, size_t cap);
/* Apply the filter line [name] to the state f. */
void config_filter_apply(struct config_filter *f, const char *name);

/* The filter in force after line i (i == cfg->n - 1 gives the state at the end). */
void config_filter_at(const struct config *cfg, size_t i, struct config_filter *f);

/* The value of the last "key=value" that applies to every board (no filter, or [all]),
 * trimmed, into out. 0, -ENOENT or -E2BIG. */
int config_get(const struct config *cfg, const char *key, char *out, size_t cap);

#endif
