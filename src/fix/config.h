/* config.h - a model of the Raspberry Pi config.txt: lines kept byte for byte, with the
 * conditional filter ([pi4], [pi5], [all], [none], [gpio4=1] ...) in force at each line. */
#ifndef SBCDISK_FIX_CONFIG_H
#define SBCDISK_FIX_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "common/sbuf.h"
#include "fix/fix.h"

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
	bool included;  /* after an include line: a filter the included file leaves open may be
			 * in force (its content is inserted in place), until [all] */
};

/* Split buf into lines. 0, -ENOMEM or -E2BIG (more than CONFIG_LINES_MAX lines). */
int config_parse(const char *buf, size_t len, struct config *cfg);
void config_release(struct config *cfg);
int config_write(const struct config *cfg, struct sbuf *out);

/* The filter in force after line i (i == cfg->n - 1 gives the state at the end). */
void config_filter_at(const struct config *cfg, size_t i, struct config_filter *f);

/* The value of the last "key=value" that applies to every board (no filter, or [all]),
 * trimmed, into out. 0, -ENOENT or -E2BIG. */
int config_get(const struct config *cfg, const char *key, char *out, size_t cap);

/* Set dtparam=pciex1_gen=gen (2 or 3) for the Raspberry Pi 5: replace the settings that
 * apply to a Pi 5, else add one where the Pi 5 reads it. 0 or -EINVAL with m->why. */
int config_pcie_gen_set(struct config *cfg, int gen, struct fix_msgs *m, bool *changed);

#endif
