/* bootcfg.c - read the Raspberry Pi config.txt as lines and follow its conditional filters
 * the way the firmware does; the edits that use the model live with the fixes. */
#include <ctype.h>

#include "common/bootcfg.h"
#include "common/util.h"

/* Model filters replace each other; see the Raspberry Pi documentation, "Conditional
 * filters". [pi5] also covers the CM5 and the Pi 500. */
static const char *const model_filters[] = {
	"pi0", "pi0w", "pi02", "pi1", "pi2", "pi3", "pi3+", "pi4", "pi400", "pi5", "pi500",
	"pi500+", "cm1", "cm3", "cm3+", "cm4", "cm4s", "cm5",
};

int config_line_insert(struct config *cfg, size_t at, const char *s, size_t len)
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

		ret = config_line_insert(cfg, cfg->n, buf + i, end - i);
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

void config_line_text(const struct config_line *l, char *out, size_t cap)
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

bool config_filter_name(const char *t, char *out, size_t cap)
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

void config_filter_apply(struct config_filter *f, const char *name)
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
		config_line_text(&cfg->line[k], t, sizeof(t));
		if (config_filter_name(t, name, sizeof(name)))
			config_filter_apply(f, name);
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
		config_line_text(&cfg->line[i], t, sizeof(t));
		if (config_filter_name(t, name, sizeof(name))) {
			config_filter_apply(&f, name);
			continue;
		}
		if (f.none || f.other || f.model[0] || !setting_split(t, &k, &v) || strcmp(k, key))
			continue;
		ret = str_copy(out, cap, v);
	}
	return ret;
}
