/* bootcfg-eval.c - config.txt evaluated for one board with the firmware's rules: filters by
 * kind, include in place, the last applying setting wins; each rule is cited in docs/config-txt.md. */
#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

#include "common/bootcfg-eval.h"
#include "common/paths.h"
#include "common/util.h"

/* The model filters each board reads (docs/config-txt.md, "Model filters"): a board reads
 * the filter of its family and those of its variant. */
static const struct board_row {
	unsigned type;
	const char *filters; /* space-separated, with a space on either side */
	const char *model;   /* the device tree's model before " Rev" */
} boards[] = {
	{ 0x00, " pi1 ", "Raspberry Pi Model A" },
	{ 0x01, " pi1 ", "Raspberry Pi Model B" },
	{ 0x02, " pi1 ", "Raspberry Pi Model A Plus" },
	{ 0x03, " pi1 ", "Raspberry Pi Model B Plus" },
	{ 0x04, " pi2 ", "Raspberry Pi 2 Model B" },
	{ 0x06, " pi1 cm1 ", "Raspberry Pi Compute Module" },
	{ 0x08, " pi3 ", "Raspberry Pi 3 Model B" },
	{ 0x09, " pi0 ", "Raspberry Pi Zero" },
	{ 0x0a, " pi3 cm3 ", "Raspberry Pi Compute Module 3" },
	{ 0x0c, " pi0 pi0w ", "Raspberry Pi Zero W" },
	{ 0x0d, " pi3 pi3+ ", "Raspberry Pi 3 Model B Plus" },
	{ 0x0e, " pi3 pi3+ ", "Raspberry Pi 3 Model A Plus" },
	{ 0x10, " pi3 pi3+ cm3+ ", "Raspberry Pi Compute Module 3 Plus" },
	{ 0x11, " pi4 ", "Raspberry Pi 4 Model B" },
	{ 0x12, " pi0 pi0w pi02 ", "Raspberry Pi Zero 2 W" },
	{ 0x13, " pi4 pi400 ", "Raspberry Pi 400" },
	{ 0x14, " pi4 cm4 ", "Raspberry Pi Compute Module 4" },
	{ 0x15, " pi4 cm4s ", "Raspberry Pi Compute Module 4S" },
	{ 0x17, " pi5 ", "Raspberry Pi 5 Model B" },
	{ 0x18, " pi5 cm5 ", "Raspberry Pi Compute Module 5" },
	{ 0x19, " pi5 pi500 ", "Raspberry Pi 500" },
	{ 0x1a, " pi5 cm5 ", "Raspberry Pi Compute Module 5 Lite" },
};

/* Every model filter name the documentation lists. */
static const char *const model_names[] = {
	"pi0", "pi0w", "pi02", "pi1", "pi2", "pi3", "pi3+", "pi4", "pi400", "pi5", "pi500",
	"cm0", "cm1", "cm3", "cm3+", "cm4", "cm4s", "cm5",
};

/* Filters of one kind replace each other; the kinds must all hold. */
enum kind { K_MODEL, K_NONE, K_TRYBOOT, K_SERIAL, K_GPIO, K_EDID, K_HDMI, K_OTHER, K_N };

static const struct board_row *board_row(unsigned type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(boards); i++)
		if (boards[i].type == type)
			return &boards[i];
	return NULL;
}

static bool is_model_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(model_names); i++)
		if (!strcmp(name, model_names[i]))
			return true;
	return false;
}

/* A hexadecimal number "0x..." spelled whole; false otherwise. */
static bool hex_parse(const char *s, uint64_t *v)
{
	char *end;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !isxdigit((unsigned char)s[2]))
		return false;
	errno = 0;
	*v = strtoull(s + 2, &end, 16);
	return !errno && !*end;
}

static enum kind filter_kind(const char *name)
{
	uint64_t v;

	if (is_model_name(name) || str_starts(name, "board-type="))
		return K_MODEL;
	if (!strcmp(name, "none"))
		return K_NONE;
	if (!strcmp(name, "tryboot"))
		return K_TRYBOOT;
	if (hex_parse(name, &v))
		return K_SERIAL;
	if (str_starts(name, "gpio"))
		return K_GPIO;
	if (str_starts(name, "edid="))
		return K_EDID;
	if (str_starts(name, "hdmi:"))
		return K_HDMI;
	return K_OTHER;
}

enum config_match config_board_filter(const struct config_board *b, const char *name)
{
	const struct board_row *r;
	char pad[16];
	uint64_t v;

	switch (filter_kind(name)) {
	case K_NONE:
		return CONFIG_MATCH_NO;
	case K_TRYBOOT:
		return b->tryboot ? CONFIG_MATCH_YES : CONFIG_MATCH_NO;
	case K_SERIAL:
		if (!b->has_serial)
			return CONFIG_MATCH_UNKNOWN;
		hex_parse(name, &v);
		return v == b->serial || v == (b->serial & 0xffffffffu) ? CONFIG_MATCH_YES :
									CONFIG_MATCH_NO;
	case K_MODEL:
		if (!strcmp(name, "all"))
			return CONFIG_MATCH_YES;
		if (!b->has_type)
			return CONFIG_MATCH_UNKNOWN;
		if (str_starts(name, "board-type="))
			return hex_parse(name + 11, &v) ? (v == b->type ? CONFIG_MATCH_YES :
									   CONFIG_MATCH_NO) :
							  CONFIG_MATCH_UNKNOWN;
		r = board_row(b->type);
		if (!r)
			return CONFIG_MATCH_UNKNOWN;
		str_fmt(pad, sizeof(pad), " %s ", name);
		return strstr(r->filters, pad) ? CONFIG_MATCH_YES : CONFIG_MATCH_NO;
	default:
		return !strcmp(name, "all") ? CONFIG_MATCH_YES : CONFIG_MATCH_UNKNOWN;
	}
}

int config_board_parse(const char *name, struct config_board *b)
{
	uint64_t v;
	size_t i;

	*b = (struct config_board){ 0 };
	if (hex_parse(name, &v)) {
		if (!board_row((unsigned)v) || v > 0xff)
			return -EINVAL;
		b->type = (unsigned)v;
		b->has_type = true;
		return 0;
	}
	/* the board a filter names alone: the first whose most specific filter it is */
	for (i = 0; i < ARRAY_SIZE(boards); i++) {
		const char *f = boards[i].filters;
		char pad[16];
		size_t n = strlen(f);

		if (str_fmt(pad, sizeof(pad), " %s ", name) || strlen(pad) > n ||
		    strcmp(f + n - strlen(pad), pad))
			continue;
		b->type = boards[i].type;
		b->has_type = true;
		return 0;
	}
	return -EINVAL;
}

int config_board_read(struct sysroot *sr, struct config_board *b)
{
	char model[128], serial[40], *rev;
	uint32_t code;
	size_t i;

	*b = (struct config_board){ 0 };
	/* new-style revision codes (bit 23) carry the type in bits 4-11 */
	if (!sysroot_read_dt_u32(sr, PATH_DT_REVISION, &code) && (code & (1u << 23)) &&
	    board_row((code >> 4) & 0xff)) {
		b->type = (code >> 4) & 0xff;
		b->has_type = true;
	} else if (!sysroot_read_dt_string(sr, PATH_PROC_DT_MODEL, model, sizeof(model))) {
		rev = strstr(model, " Rev ");
		if (rev)
			*rev = '\0';
		for (i = 0; i < ARRAY_SIZE(boards) && !b->has_type; i++)
			if (!strcmp(model, boards[i].model)) {
				b->type = boards[i].type;
				b->has_type = true;
			}
	}
	if (!sysroot_read_dt_string(sr, PATH_DT_SERIAL, serial, sizeof(serial))) {
		char *end;

		errno = 0;
		b->serial = strtoull(serial, &end, 16);
		b->has_serial = !errno && end != serial && !*end;
	}
	return 0;
}

/* config_source over a sysroot directory */
static int dir_read(void *arg, const char *name, size_t cap, struct sbuf *out)
{
	const struct config_source_dir *d = arg;
	char path[PATH_MAX];

	sbuf_init(out, cap);
	if (str_fmt(path, sizeof(path), "%s/%s", d->dir, name))
		return -ENAMETOOLONG;
	return sysroot_read_file(d->sr, path, cap, out);
}

void config_source_dir_init(struct config_source *src, struct config_source_dir *d,
			    struct sysroot *sr, const char *dir)
{
	d->sr = sr;
	str_copy(d->dir, sizeof(d->dir), dir);
	src->read = dir_read;
	src->arg = d;
}

/* A file name from configuration (include, os_prefix, cmdline=) that stays on the
 * partition. */
static bool name_is_safe(const char *s)
{
	const unsigned char *p;

	if (!s[0] || s[0] == '/' || strstr(s, ".."))
		return false;
	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x21 || *p == 0x7f || *p == '\\')
			return false;
	return true;
}

struct walk {
	const struct config_source *src;
	const struct config_board *b;
	enum config_match m[K_N];
	char name[K_N][64];
	char guard[64];          /* an unknown filter around the include being read */
	const char *const *keys;
	struct config_value *val;
	char (*pending)[64];     /* per key: the unknown filter of a later, different value */
	size_t nkeys;
	char stack[CONFIG_INCLUDE_DEPTH_MAX + 1][128];
	unsigned depth;
	char bad_file[128];
	int top_read; /* how reading config.txt itself went */
};

/* Whether the lines here apply, and the filter that makes it unknown. */
static enum config_match walk_match(const struct walk *w, const char **why)
{
	enum config_match r = CONFIG_MATCH_YES;
	size_t k;

	*why = NULL;
	for (k = 0; k < K_N; k++) {
		if (w->m[k] == CONFIG_MATCH_NO)
			return CONFIG_MATCH_NO;
		if (w->m[k] == CONFIG_MATCH_UNKNOWN && !*why) {
			r = CONFIG_MATCH_UNKNOWN;
			*why = w->name[k];
		}
	}
	if (w->guard[0] && !*why) {
		r = CONFIG_MATCH_UNKNOWN;
		*why = w->guard;
	}
	return r;
}

static void walk_filter(struct walk *w, const char *name)
{
	enum kind k;

	if (!strcmp(name, "all")) {
		memset(w->m, 0, sizeof(w->m));
		for (k = 0; k < K_N; k++) {
			w->m[k] = CONFIG_MATCH_YES;
			w->name[k][0] = '\0';
		}
		return;
	}
	k = filter_kind(name);
	w->m[k] = config_board_filter(w->b, name);
	str_fmt(w->name[k], sizeof(w->name[k]), "[%.60s]", name);
}

static void walk_setting(struct walk *w, const char *file, unsigned line, char *t)
{
	const char *why;
	char *eq = strchr(t, '='), *key, *v;
	enum config_match m;
	size_t i;

	if (!eq || t[0] == '#')
		return;
	*eq = '\0';
	key = str_trim(t);
	v = str_trim(eq + 1);
	for (i = 0; i < w->nkeys; i++) {
		struct config_value *cv = &w->val[i];

		if (strcmp(key, w->keys[i]))
			continue;
		m = walk_match(w, &why);
		if (m == CONFIG_MATCH_YES) {
			str_copy(cv->value, sizeof(cv->value), v);
			str_copy(cv->file, sizeof(cv->file), file);
			cv->line = line;
			cv->set = true;
			w->pending[i][0] = '\0';
		} else if (m == CONFIG_MATCH_UNKNOWN && (!cv->set || strcmp(cv->value, v))) {
			str_copy(w->pending[i], sizeof(w->pending[i]), why);
		}
	}
}

static int walk_file(struct walk *w, const char *file);

static int walk_include(struct walk *w, const char *file)
{
	enum config_match before[K_N], m;
	char saved_guard[64];
	const char *why;
	unsigned i;
	int ret;

	m = walk_match(w, &why);
	if (m == CONFIG_MATCH_NO)
		return 0; /* not read: the filters around it do not hold */
	if (!name_is_safe(file)) {
		str_copy(w->bad_file, sizeof(w->bad_file), file);
		return -EXDEV;
	}
	for (i = 0; i <= w->depth; i++)
		if (!strcasecmp(w->stack[i], file)) { /* FAT names ignore case */
			str_copy(w->bad_file, sizeof(w->bad_file), file);
			return -ELOOP;
		}
	if (w->depth >= CONFIG_INCLUDE_DEPTH_MAX) {
		str_copy(w->bad_file, sizeof(w->bad_file), file);
		return -ELOOP;
	}
	memcpy(before, w->m, sizeof(before));
	str_copy(saved_guard, sizeof(saved_guard), w->guard);
	if (m == CONFIG_MATCH_UNKNOWN && !w->guard[0])
		str_copy(w->guard, sizeof(w->guard), why);
	w->depth++;
	str_copy(w->stack[w->depth], sizeof(w->stack[w->depth]), file);
	ret = walk_file(w, file);
	w->depth--;
	if (m == CONFIG_MATCH_UNKNOWN && memcmp(before, w->m, sizeof(before))) {
		/* read or not: which filters hold after it is not known either */
		w->m[K_OTHER] = CONFIG_MATCH_UNKNOWN;
		str_copy(w->name[K_OTHER], sizeof(w->name[K_OTHER]), w->guard);
	}
	str_copy(w->guard, sizeof(w->guard), saved_guard);
	return ret == -ENOENT ? 0 : ret; /* a missing file adds nothing */
}

static int walk_file(struct walk *w, const char *file)
{
	struct config cfg = { 0 };
	struct sbuf raw;
	char t[1024], name[64];
	size_t i;
	int ret;

	ret = w->src->read(w->src->arg, file, CONFIG_FILE_MAX, &raw);
	if (!w->depth)
		w->top_read = ret;
	if (ret) {
		if (ret != -ENOENT)
			str_copy(w->bad_file, sizeof(w->bad_file), file);
		goto out;
	}
	ret = config_parse(sbuf_str(&raw), raw.len, &cfg);
	for (i = 0; i < cfg.n && !ret; i++) {
		config_line_text(&cfg.line[i], t, sizeof(t));
		if (config_filter_name(t, name, sizeof(name)))
			walk_filter(w, name);
		else if (config_line_is_include(t))
			ret = walk_include(w, str_trim(t + 8));
		else
			walk_setting(w, file, (unsigned)i + 1, t);
	}
	if (ret && ret != -ENOENT && !w->bad_file[0])
		str_copy(w->bad_file, sizeof(w->bad_file), file);
out:
	config_release(&cfg);
	sbuf_release(&raw);
	return ret;
}

/* Walk config.txt for the keys; pending[i] names the filter key i depends on. */
static int walk_run(const struct config_source *src, const struct config_board *b,
		    const char *const *keys, struct config_value *val, char (*pending)[64],
		    size_t n, char *bad_file, size_t bcap, bool *read)
{
	struct walk *w = calloc(1, sizeof(*w));
	int ret;

	if (!w)
		return -ENOMEM;
	w->src = src;
	w->b = b;
	w->keys = keys;
	w->val = val;
	w->pending = pending;
	w->nkeys = n;
	walk_filter(w, "all");
	str_copy(w->stack[0], sizeof(w->stack[0]), "config.txt");
	ret = walk_file(w, "config.txt");
	if (bad_file)
		str_copy(bad_file, bcap, w->bad_file);
	if (read)
		*read = !w->top_read;
	free(w);
	return ret;
}

int config_eval(const struct config_source *src, const struct config_board *b,
		struct config_eval *ev)
{
	static const char *const keys[] = { "cmdline", "os_prefix", "kernel" };
	struct config_value val[3] = { { { 0 } } };
	char pending[3][64] = { { 0 } };
	const char *name;
	size_t i;
	int ret;

	*ev = (struct config_eval){ 0 };
	ret = walk_run(src, b, keys, val, pending, 3, ev->bad_file, sizeof(ev->bad_file),
		       &ev->has_config);
	if (ret == -ENOENT)
		ret = 0;
	ev->cmdline = val[0];
	ev->os_prefix = val[1];
	ev->kernel = val[2];
	if (ret)
		return ret;
	for (i = 0; i < 3; i++)
		if (pending[i][0]) {
			str_copy(ev->unknown, sizeof(ev->unknown), pending[i]);
			str_copy(ev->unknown_key, sizeof(ev->unknown_key), keys[i]);
			return -EAGAIN;
		}
	name = ev->cmdline.value[0] ? ev->cmdline.value : "cmdline.txt";
	if (!name_is_safe(name) || (ev->os_prefix.value[0] && !name_is_safe(ev->os_prefix.value)))
		return -EXDEV;
	if (str_fmt(ev->cmdline_file, sizeof(ev->cmdline_file), "%s%s", ev->os_prefix.value,
		    name))
		return -ENAMETOOLONG;
	return 0;
}

int config_eval_get(const struct config_source *src, const struct config_board *b,
		    const char *key, struct config_value *out, char *unknown, size_t ucap)
{
	const char *const keys[] = { key };
	char pending[1][64] = { { 0 } };
	int ret;

	*out = (struct config_value){ { 0 } };
	ret = walk_run(src, b, keys, out, pending, 1, NULL, 0, NULL);
	if (ret)
		return ret;
	if (pending[0][0]) {
		if (unknown)
			str_copy(unknown, ucap, pending[0]);
		return -EAGAIN;
	}
	return out->set ? 0 : -ENOENT;
}

void config_eval_explain(const struct config_eval *ev, int err, char *out, size_t cap)
{
	switch (err) {
	case -EAGAIN:
		str_fmt(out, cap, "config.txt sets %s= under %s, which cannot be known here (a "
			"pin, a monitor, a serial number or a model not known before boot): not "
			"guessing which file the firmware reads", ev->unknown_key, ev->unknown);
		break;
	case -ELOOP:
		str_fmt(out, cap, "config.txt's includes loop or nest deeper than %d files (at "
			"'%s')", CONFIG_INCLUDE_DEPTH_MAX, ev->bad_file);
		break;
	case -EXDEV:
		str_fmt(out, cap, "config.txt names a file outside the boot partition (%s%s)",
			ev->bad_file[0] ? "include " : "cmdline=, os_prefix",
			ev->bad_file[0] ? ev->bad_file : "");
		break;
	default:
		str_fmt(out, cap, "cannot read config.txt%s%s: %s",
			ev->bad_file[0] ? " or its include " : "", ev->bad_file, strerror(-err));
	}
}
