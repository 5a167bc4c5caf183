/* boot-times.c - the boots of each boot device: count, mean, min and max of the total, and
 * the mean of each part, for people and as JSON; one column table feeds both. */
#include <math.h>
#include <stddef.h>

#include "common/json.h"
#include "common/util.h"
#include "report/boot-times.h"
#include "report/text.h"

enum fig_stat { STAT_MEAN, STAT_MIN, STAT_MAX };

/* The number columns: a figure of the group and which of its statistics. */
static const struct boot_col {
	const char *header;
	size_t figure; /* offset of the struct store_boot_figure in the group */
	enum fig_stat stat;
} cols[] = {
	{ "TOTAL s", offsetof(struct store_boot_group, total), STAT_MEAN },
	{ "MIN s", offsetof(struct store_boot_group, total), STAT_MIN },
	{ "MAX s", offsetof(struct store_boot_group, total), STAT_MAX },
	{ "KERNEL s", offsetof(struct store_boot_group, kernel), STAT_MEAN },
	{ "INITRD s", offsetof(struct store_boot_group, initrd), STAT_MEAN },
	{ "USERSPACE s", offsetof(struct store_boot_group, userspace), STAT_MEAN },
};

static const struct store_boot_figure *col_figure(const struct store_boot_group *g,
						  const struct boot_col *c)
{
	return (const struct store_boot_figure *)((const char *)g + c->figure);
}

static double stat_of(const struct store_boot_figure *fg, enum fig_stat s)
{
	if (!fg->n)
		return NAN;
	return s == STAT_MEAN ? fg->mean : s == STAT_MIN ? fg->min : fg->max;
}

/* The table's columns: the device and its attachment, then BOOTS and the cols above. */
static const struct text_col table_cols[] = {
	{ "BOOT DEVICE", 28, false, 1, 14 }, { "ATTACHMENT", 32, false, 6, 12 },
	{ "BOOTS", 5, true, 3, 0 },	     { "TOTAL s", 7, true, 2, 0 },
	{ "MIN s", 7, true, 5, 0 },	     { "MAX s", 7, true, 7, 0 },
	{ "KERNEL s", 8, true, 8, 0 },	     { "INITRD s", 8, true, 9, 0 },
	{ "USERSPACE s", 11, true, 4, 0 },
};

int boot_times_print(FILE *f, const struct store_boot_group *g, size_t n)
{
	char num[ARRAY_SIZE(cols)][32], boots[32];
	const char *cells[ARRAY_SIZE(table_cols)];
	struct text_table t;
	size_t i, k;

	text_table_init(&t, table_cols, ARRAY_SIZE(table_cols), 2);
	text_table_header(&t, f);
	for (i = 0; i < n; i++) {
		cells[0] = g[i].device;
		cells[1] = g[i].attachment[0] ? g[i].attachment : "-";
		str_fmt(boots, sizeof(boots), "%zu", g[i].boots);
		cells[2] = boots;
		for (k = 0; k < ARRAY_SIZE(cols); k++) {
			double v = stat_of(col_figure(&g[i], &cols[k]), cols[k].stat);

			if (isfinite(v))
				str_fmt(num[k], sizeof(num[k]), "%.3f", v);
			else
				str_copy(num[k], sizeof(num[k]), "-");
			cells[3 + k] = num[k];
		}
		text_table_row(&t, f, cells);
	}
	fputc('\n', f);
	text_wrap(f, "", "", BOOT_TIMES_TOTAL " TOTAL, MIN and MAX: over the boots recorded; "
		  "KERNEL, INITRD and USERSPACE: their means.", text_cols(TEXT_WRAP_COLS));
	text_wrap(f, "", "", BOOT_TIMES_NOT_COUNTED, text_cols(TEXT_WRAP_COLS));
	return ferror(f) ? -EIO : 0;
}

/* Seconds to the microsecond: the unit systemd counts in. */
static double usec(double v)
{
	return round(v * 1e6) / 1e6;
}

static void add_figure(struct json_object *o, const char *key, const struct store_boot_figure *fg)
{
	struct json_object *v;

	if (!fg->n) {
		json_add_null(o, key);
		return;
	}
	v = json_object_new_object();
	json_add_i64(v, "boots", true, (int64_t)fg->n);
	json_add_double(v, "mean", true, usec(fg->mean));
	json_add_double(v, "min", true, usec(fg->min));
	json_add_double(v, "max", true, usec(fg->max));
	json_object_object_add(o, key, v);
}

struct json_object *boot_times_json(const struct store_boot_group *g, size_t n)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; a && i < n; i++) {
		struct json_object *o = json_object_new_object();

		json_add_str(o, "device", g[i].device);
		json_add_str(o, "dev_name", g[i].dev_name[0] ? g[i].dev_name : NULL);
		json_add_str(o, "serial", g[i].dev_serial[0] ? g[i].dev_serial : NULL);
		json_add_str(o, "attachment", g[i].attachment[0] ? g[i].attachment : NULL);
		json_add_i64(o, "boots", true, (int64_t)g[i].boots);
		json_add_str(o, "first_at", g[i].first_at);
		json_add_str(o, "last_at", g[i].last_at);
		add_figure(o, "total_s", &g[i].total);
		add_figure(o, "kernel_s", &g[i].kernel);
		add_figure(o, "initrd_s", &g[i].initrd);
		add_figure(o, "userspace_s", &g[i].userspace);
		json_object_array_add(a, o);
	}
	return a;
}
