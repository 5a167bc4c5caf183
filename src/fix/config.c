/* config.c - read config.txt as lines, follow its conditional filters the way the firmware
 * does, and set dtparam=pciex1_gen in the section a Raspberry Pi 5 reads. */
#include <ctype.h>

#include "fix/config.h"
#include "common/util.h"

/* Model filters replace each other; see the Raspberry Pi documentation, "Conditional
 * filters". [pi5] also covers the CM5 and the Pi 500. */
static const char *const model_filters[] = {
	"pi0", "pi0w", "pi02", "pi1", "pi2", "pi3", "pi3+", "pi4", "pi400", "pi5", "pi500",
	"pi500+", "cm1", "cm3", "cm3+", "cm4", "cm4s", "cm5",
};

static int line_add(struct config *cfg, size_t at, const char *s, size_t len)
{
	struct config_line *n;
	char *copy;

	if (cfg->n >= CONFIG_LINES_MAX)
		return -E2BIG;
	if (cfg->n == cfg->alloc) {
		size_t a = cfg->alloc ? cfg->alloc * 2 : 64;

		n = realloc(cfg->line, a * sizeof(*n));
		if (!n)
			return -ENOMEM;
		cfg->line = n;
		cfg->alloc = a;
	}
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, s, len);
	copy[len] = '\0';
	memmove(cfg->line + at + 1, cfg->line + at, (cfg->n - at) * sizeof(*cfg->line));
	cfg->line[at] = (struct config_line){ .s = copy, .len = len };
	cfg->n++;
	return 0;
}

void config_release(struct config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->n; i++)
		free(cfg->line[i].s);
	free(cfg->line);
	*cfg = (struct config){ 0 };
}

int config_parse(const char *buf, size_t len, struct config *cfg)
{
	size_t i = 0;
	const char *nl;
	int ret = 0;

	*cfg = (struct config){ 0 };
	while (i < len && !ret) {
		nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) + 1 : len;

		ret = line_add(cfg, cfg->n, buf + i, end - i);
		i = end;
	}
	return ret;
}

int config_write(const struct config *cfg, struct sbuf *out)
{
	size_t i;
	int ret = 0;

	sbuf_reset(out);
	for (i = 0; i < cfg->n && !ret; i++)
		ret = sbuf_add(out, cfg->line[i].s, cfg->line[i].len);
	return ret;
}

/* The line without leading blanks and its line end, into a bounded copy. */
static void line_text(const struct config_line *l, char *out, size_t cap)
{
	size_t b = 0, e = l->len, n;

	while (b < e && (l->s[b] == ' ' || l->s[b] == '\t'))
		b++;
	while (e > b && isspace((unsigned char)l->s[e - 1]))
		e--;
	n = e - b < cap - 1 ? e - b : cap - 1;
	memcpy(out, l->s + b, n);
	out[n] = '\0';
	if (memchr(out, '\0', n))
		out[0] = '\0'; /* a NUL byte: not a line we understand */
}

/* The filter name of a "[...]" line, lower case, or false when the line is not one. */
static bool filter_name(const char *t, char *out, size_t cap)
{
	const char *close;
	size_t n, i;

	if (t[0] != '[')
		return false;
	close = strchr(t, ']');
	if (!close)
		return false;
	n = (size_t)(close - t - 1);
	if (n >= cap)
		n = cap - 1;
	for (i = 0; i < n; i++)
		out[i] = (char)tolower((unsigned char)t[1 + i]);
	out[n] = '\0';
	return true;
}

/*
 * "include FILE" inserts the file's content in place of the line (Raspberry Pi documentation,
 * "config.txt", Advanced features, include: "Causes the content of the specified file to be
 * inserted into the current file"). A section filter left open at the end of the included
 * file therefore holds for the lines after the include, until [all] resets every filter.
 */
static bool line_is_include(const char *t)
{
	return str_starts(t, "include ") || str_starts(t, "include\t");
}

static void filter_apply(struct config_filter *f, const char *name)
{
	size_t i;

	if (!strcmp(name, "all")) {
		*f = (struct config_filter){ 0 };
		return;
	}
	if (!strcmp(name, "none")) {
		f->none = true;
		return;
	}
	for (i = 0; i < ARRAY_SIZE(model_filters); i++)
		if (!strcmp(name, model_filters[i])) {
			str_copy(f->model, sizeof(f->model), name);
			return;
		}
	if (str_starts(name, "board-type="))
		str_copy(f->model, sizeof(f->model), "board-type");
	else
		f->other = true;
}

void config_filter_at(const struct config *cfg, size_t i, struct config_filter *f)
{
	char t[256], name[64];
	size_t k;

	*f = (struct config_filter){ 0 };
	for (k = 0; k <= i && k < cfg->n; k++) {
		line_text(&cfg->line[k], t, sizeof(t));
		if (filter_name(t, name, sizeof(name)))
			filter_apply(f, name);
		else if (line_is_include(t))
			f->included = true;
	}
}

/* Splits "key=value" (text already trimmed); false for comments, filters, other lines. */
static bool setting_split(char *t, char **key, char **val)
{
	char *eq;

	if (!t[0] || t[0] == '#' || t[0] == '[')
		return false;
	eq = strchr(t, '=');
	if (!eq)
		return false;
	*eq = '\0';
	*key = str_trim(t);
	*val = str_trim(eq + 1);
	return true;
}

int config_get(const struct config *cfg, const char *key, char *out, size_t cap)
{
	struct config_filter f = { 0 };
	char t[1024], name[64], *k, *v;
	int ret = -ENOENT;
	size_t i;

	for (i = 0; i < cfg->n; i++) {
		line_text(&cfg->line[i], t, sizeof(t));
		if (filter_name(t, name, sizeof(name))) {
			filter_apply(&f, name);
			continue;
		}
		if (f.none || f.other || f.model[0] || !setting_split(t, &k, &v) || strcmp(k, key))
			continue;
		ret = str_copy(out, cap, v);
	}
	return ret;
}

/* Where the Pi 5 reads a line under filter f: 2 always, 1 on some Pi 5 boards or under a
 * condition, 0 never. */
static int pi5_reads(const struct config_filter *f)
{
	bool family = !f->model[0] || !strcmp(f->model, "pi5") || !strcmp(f->model, "cm5") ||
		      !strcmp(f->model, "pi500") || !strcmp(f->model, "pi500+") ||
		      !strcmp(f->model, "board-type");

	if (f->none || !family)
		return 0;
	return (!f->model[0] || !strcmp(f->model, "pi5")) && !f->other && !f->included ? 2 : 1;
}

/* In a dtparam line's comma list, the offset and length of the pciex1_gen value; false when
 * the line does not set it. */
static bool dtparam_gen_find(const struct config_line *l, size_t *voff, size_t *vlen)
{
	const char *s = l->s, *end = l->s + l->len, *p, *e, *eq;
	size_t b = 0;

	while (b < l->len && (s[b] == ' ' || s[b] == '\t'))
		b++;
	if (l->len - b < 8 || memcmp(s + b, "dtparam", 7))
		return false;
	p = s + b + 7;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != '=')
		return false;
	for (p++; p < end; p = e + 1) {
		e = p;
		while (e < end && *e != ',' && *e != '\r' && *e != '\n')
			e++;
		eq = memchr(p, '=', (size_t)(e - p));
		if (eq) {
			const char *n = p, *ne = eq;

			while (n < ne && (*n == ' ' || *n == '\t'))
				n++;
			while (ne > n && (ne[-1] == ' ' || ne[-1] == '\t'))
				ne--;
			if (ne - n == 10 && !memcmp(n, "pciex1_gen", 10)) {
				*voff = (size_t)(eq + 1 - s);
				*vlen = (size_t)(e - eq - 1);
				while (*vlen && (s[*voff + *vlen - 1] == ' ' || s[*voff + *vlen - 1] == '\t'))
					(*vlen)--;
				return true;
			}
		}
		if (e >= end || *e != ',')
			break;
	}
	return false;
}

static int line_value_replace(struct config_line *l, size_t off, size_t vlen, const char *v)
{
	size_t n = strlen(v), len = l->len - vlen + n;
	char *s = malloc(len + 1);

	if (!s)
		return -ENOMEM;
	memcpy(s, l->s, off);
	memcpy(s + off, v, n);
	memcpy(s + off + n, l->s + off + vlen, l->len - off - vlen);
	s[len] = '\0';
	free(l->s);
	l->s = s;
	l->len = len;
	return 0;
}

/* Append the setting at the end, in the [all] state (adding "[all]" when a filter is in
 * force there). A missing final line end is added first. */
static int gen_append(struct config *cfg, const char *setting, struct fix_msgs *m)
{
	struct config_filter f;
	char line[64];
	int ret = 0;

	config_filter_at(cfg, cfg->n ? cfg->n - 1 : 0, &f);
	if (cfg->n && cfg->line[cfg->n - 1].len &&
	    cfg->line[cfg->n - 1].s[cfg->line[cfg->n - 1].len - 1] != '\n') {
		struct config_line *l = &cfg->line[cfg->n - 1];

		ret = line_value_replace(l, l->len, 0, "\n");
		if (ret)
			return ret;
	}
	if (pi5_reads(&f) == 2) {
		fix_note(m, "adds '%s' at the end of the file, where %s", setting,
			 f.model[0] ? "the [pi5] section is in force" :
				      "no filter is in force (it applies to every board; other "
				      "boards ignore this parameter)");
	} else if (f.included && !f.none && !f.other && (!f.model[0] || !strcmp(f.model, "pi5"))) {
		ret = line_add(cfg, cfg->n, "[all]\n", 6);
		fix_note(m, "adds '[all]' and then '%s' at the end of the file: an included file's "
			    "lines stand in place of its include line, so a section filter it leaves "
			    "open would hold there, and [all] ends it (other boards ignore this "
			    "parameter)", setting);
	} else {
		ret = line_add(cfg, cfg->n, "[all]\n", 6);
		fix_note(m, "adds '[all]' and then '%s' at the end of the file: the last section "
			    "there ([%s]) is not read by every Pi 5, and [all] ends it (other boards "
			    "ignore this parameter)", setting,
			 f.none ? "none" : f.model[0] ? f.model : "a condition");
	}
	str_fmt(line, sizeof(line), "%s\n", setting);
	if (!ret)
		ret = line_add(cfg, cfg->n, line, strlen(line));
	return ret;
}

int config_pcie_gen_set(struct config *cfg, int gen, struct fix_msgs *m, bool *changed)
{
	struct config_filter f = { 0 };
	char t[256], name[64], want[4], setting[40];
	bool unconditional = false;
	size_t i, off, vlen;
	int ret = 0;

	*changed = false;
	if (gen != 2 && gen != 3)
		return fix_refuse(m, -EINVAL, "the Raspberry Pi 5 PCIe connector runs at Gen 2 "
					      "or Gen 3 only");
	str_fmt(want, sizeof(want), "%d", gen);
	str_fmt(setting, sizeof(setting), "dtparam=pciex1_gen=%d", gen);
	for (i = 0; i < cfg->n && !ret; i++) {
		struct config_line *l = &cfg->line[i];

		if (memchr(l->s, '\0', l->len))
			return fix_refuse(m, -EINVAL, "line %zu holds a NUL byte; repair the file "
						      "by hand first", i + 1);
		line_text(l, t, sizeof(t));
		if (filter_name(t, name, sizeof(name))) {
			filter_apply(&f, name);
			continue;
		}
		if (line_is_include(t)) {
			fix_note(m, "line %zu includes another file ('%s'); a pciex1_gen setting "
				    "there is not changed, and a later one wins", i + 1, t);
			f.included = true;
		}
		if (!pi5_reads(&f) || !dtparam_gen_find(l, &off, &vlen))
			continue;
		unconditional = unconditional || pi5_reads(&f) == 2;
		if (vlen == strlen(want) && !memcmp(l->s + off, want, vlen)) {
			if (pi5_reads(&f) == 2)
				fix_note(m, "line %zu already sets pciex1_gen=%d where a Pi 5 reads "
					    "it", i + 1, gen);
			continue;
		}
		ret = line_value_replace(l, off, vlen, want);
		*changed = !ret;
		fix_note(m, "line %zu: sets pciex1_gen to %d in place (under %s%s%s)", i + 1, gen,
			 f.model[0] ? "[" : "", f.model[0] ? f.model : "no model filter",
			 f.model[0] ? "]" : "");
	}
	if (ret || unconditional)
		return ret;
	if (gen == 2) {
		if (!*changed)
			fix_note(m, "Gen 2 is the Raspberry Pi 5 default and nothing sets another "
				    "speed: nothing to change");
		return 0;
	}
	ret = gen_append(cfg, setting, m);
	*changed = !ret;
	return ret;
}
