/* config.c - set dtparam=pciex1_gen, usb_max_current_enable or sd_cqe in the section of
 * config.txt a Raspberry Pi 5 reads, through the config.txt model of common/bootcfg.c. */
#include <ctype.h>

#include "fix/config.h"
#include "common/util.h"

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

/* In a dtparam line's comma list, the offset and length of the value of name; false when
 * the line does not set it. */
static bool dtparam_find(const struct config_line *l, const char *name, size_t *voff,
			 size_t *vlen)
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
			if ((size_t)(ne - n) == strlen(name) && !memcmp(n, name, strlen(name))) {
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
	} else if (f.included && !f.none && !f.other &&
		   (!f.model[0] || !strcmp(f.model, "pi5"))) {
		ret = config_line_insert(cfg, cfg->n, "[all]\n", 6);
		fix_note(m, "adds '[all]' and then '%s' at the end of the file: an included file's "
			    "lines stand in place of its include line, so a section filter it leaves "
			    "open would hold there, and [all] ends it (other boards ignore this "
			    "parameter)", setting);
	} else {
		ret = config_line_insert(cfg, cfg->n, "[all]\n", 6);
		fix_note(m, "adds '[all]' and then '%s' at the end of the file: the last section "
			    "there ([%s]) is not read by every Pi 5, and [all] ends it (other boards "
			    "ignore this parameter)", setting,
			 f.none ? "none" : f.model[0] ? f.model : "a condition");
	}
	str_fmt(line, sizeof(line), "%s\n", setting);
	if (!ret)
		ret = config_line_insert(cfg, cfg->n, line, strlen(line));
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
		config_line_text(l, t, sizeof(t));
		if (config_filter_name(t, name, sizeof(name))) {
			config_filter_apply(&f, name);
			continue;
		}
		if (config_line_is_include(t)) {
			fix_note(m, "line %zu includes another file ('%s'); a pciex1_gen setting "
				    "there is not changed, and a later one wins", i + 1, t);
			f.included = true;
		}
		if (!pi5_reads(&f) || !dtparam_find(l, "pciex1_gen", &off, &vlen))
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

/* A line "usb_max_current_enable=V" (blanks around the name and '='): the offset and length
 * of V; false for any other line. */
static bool usb_current_find(const struct config_line *l, size_t *voff, size_t *vlen)
{
	static const char key[] = "usb_max_current_enable";
	const char *s = l->s;
	size_t b = 0, e;

	while (b < l->len && (s[b] == ' ' || s[b] == '\t'))
		b++;
	if (l->len - b < sizeof(key) - 1 || memcmp(s + b, key, sizeof(key) - 1))
		return false;
	b += sizeof(key) - 1;
	while (b < l->len && (s[b] == ' ' || s[b] == '\t'))
		b++;
	if (b >= l->len || s[b] != '=')
		return false;
	for (b++; b < l->len && (s[b] == ' ' || s[b] == '\t'); b++)
		;
	for (e = b; e < l->len && s[e] != '\r' && s[e] != '\n' && s[e] != ' ' && s[e] != '\t' &&
		    s[e] != '#'; e++)
		;
	*voff = b;
	*vlen = e - b;
	return true;
}

/* One setting that only a Raspberry Pi 5 reads: how it is found on a line, whether a value
 * already says what the fix wants, the value it gets in place, the line appended otherwise. */
struct pi5_setting {
	const char *name; /* in the notes */
	bool (*find)(const struct config_line *l, size_t *voff, size_t *vlen);
	bool (*done)(const char *v, size_t len);
	const char *value;
	const char *line;
};

/* Set s where a Pi 5 reads it: each line that sets it otherwise is changed in place, and one
 * line is added where the Pi 5 reads it when none applies to it whatever the filters. */
static int pi5_set(struct config *cfg, const struct pi5_setting *s, struct fix_msgs *m,
		   bool *changed)
{
	struct config_filter f = { 0 };
	char t[256], name[64];
	bool unconditional = false;
	size_t i, off, vlen;
	int ret = 0;

	*changed = false;
	for (i = 0; i < cfg->n && !ret; i++) {
		struct config_line *l = &cfg->line[i];

		if (memchr(l->s, '\0', l->len))
			return fix_refuse(m, -EINVAL, "line %zu holds a NUL byte; repair the file "
						      "by hand first", i + 1);
		config_line_text(l, t, sizeof(t));
		if (config_filter_name(t, name, sizeof(name))) {
			config_filter_apply(&f, name);
			continue;
		}
		if (config_line_is_include(t)) {
			fix_note(m, "line %zu includes another file ('%s'); a %s setting there is "
				    "not changed, and a later one wins", i + 1, t, s->name);
			f.included = true;
		}
		if (!pi5_reads(&f) || !s->find(l, &off, &vlen))
			continue;
		unconditional = unconditional || pi5_reads(&f) == 2;
		if (s->done(l->s + off, vlen)) {
			if (pi5_reads(&f) == 2)
				fix_note(m, "line %zu already sets %s=%s where a Pi 5 reads it",
					 i + 1, s->name, s->value);
			continue;
		}
		ret = line_value_replace(l, off, vlen, s->value);
		*changed = !ret;
		fix_note(m, "line %zu: sets %s to %s in place (under %s%s%s)", i + 1, s->name,
			 s->value, f.model[0] ? "[" : "", f.model[0] ? f.model : "no model filter",
			 f.model[0] ? "]" : "");
	}
	if (ret || unconditional)
		return ret;
	ret = gen_append(cfg, s->line, m);
	*changed = !ret;
	return ret;
}

static bool is_one(const char *v, size_t len)
{
	return len == 1 && v[0] == '1';
}

static bool is_off(const char *v, size_t len)
{
	return (len == 3 && !memcmp(v, "off", 3)) || (len == 1 && v[0] == '0');
}

static bool sd_cqe_find(const struct config_line *l, size_t *voff, size_t *vlen)
{
	return dtparam_find(l, "sd_cqe", voff, vlen);
}

int config_usb_current_set(struct config *cfg, struct fix_msgs *m, bool *changed)
{
	static const struct pi5_setting s = { "usb_max_current_enable", usb_current_find, is_one,
					      "1", "usb_max_current_enable=1" };

	return pi5_set(cfg, &s, m, changed);
}

int config_sd_cqe_off(struct config *cfg, struct fix_msgs *m, bool *changed)
{
	static const struct pi5_setting s = { "sd_cqe", sd_cqe_find, is_off, "off",
					      "dtparam=sd_cqe=off" };

	return pi5_set(cfg, &s, m, changed);
}
