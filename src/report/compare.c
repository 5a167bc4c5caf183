/* compare.c - the table the seed authors typed by hand: tests as rows, runs as columns, and
 * how many times faster or slower each run is than the first. */
#include <math.h>

#include "common/util.h"
#include "report/compare.h"
#include "report/text.h"
#include "common/json.h"
#include "store/verdict.h"

/* CrystalDiskMark's order (default and NVMe sets); other tests follow as they appear. */
static const char *const known_order[] = {
	"SEQ1M Q8T1", "SEQ1M Q1T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q32T1", "RND4K Q1T1",
};

static int order_of(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known_order); i++)
		if (!strcmp(name, known_order[i]))
			return (int)i;
	return (int)ARRAY_SIZE(known_order);
}

static struct compare_row *row_get(struct compare *c, const struct run_test *t)
{
	const char *dir = run_test_dir(t);
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].test, t->name) && !strcmp(c->rows[i].dir, dir))
			return &c->rows[i];
	if (c->nrows == ARRAY_SIZE(c->rows))
		return NULL;
	i = c->nrows++;
	memset(&c->rows[i], 0, sizeof(c->rows[i]));
	str_copy(c->rows[i].test, sizeof(c->rows[i].test), t->name);
	str_copy(c->rows[i].dir, sizeof(c->rows[i].dir), dir);
	c->rows[i].iops = isfinite(t->block_bytes) && t->block_bytes <= 65536;
	c->rows[i].memory = run_test_is_memory(t);
	for (size_t k = 0; k < COMPARE_RUNS_MAX; k++)
		c->rows[i].value[k] = c->rows[i].ratio[k] = NAN;
	return &c->rows[i];
}

int compare_build(const struct run_list *l, struct compare *c)
{
	struct compare_row tmp[ARRAY_SIZE(c->rows)];
	size_t i, k, j;
	int rank, pass;

	memset(c, 0, sizeof(*c));
	if (l->n > COMPARE_RUNS_MAX)
		return -E2BIG;
	c->nruns = l->n;
	for (i = 0; i < l->n; i++) {
		const struct run *r = l->runs[i];

		c->runs[i] = r;
		for (k = 0; k < r->ntests; k++) {
			const struct run_test *t = &r->tests[k];
			struct compare_row *row = row_get(c, t);
			double v;

			if (!row || isfinite(row->value[i]))
				continue; /* a repeated test: the first one counts */
			v = row->iops ? run_test_iops(t) : t->bw / 1e6;
			row->value[i] = v;
		}
	}
	/* the known tests by rank, read before write; the others after, as they came */
	j = 0;
	for (rank = 0; rank <= (int)ARRAY_SIZE(known_order); rank++)
		for (pass = 0; pass < 2; pass++)
			for (i = 0; i < c->nrows; i++)
				if (order_of(c->rows[i].test) == rank &&
				    (rank == (int)ARRAY_SIZE(known_order) ?
					     pass == 0 :
					     !strcmp(c->rows[i].dir, "read") == (pass == 0)))
					tmp[j++] = c->rows[i];
	memcpy(c->rows, tmp, j * sizeof(tmp[0]));
	for (i = 0; i < c->nrows; i++)
		for (k = 0; k < c->nruns; k++)
			if (!c->rows[i].memory && c->rows[i].value[0] > 0 &&
			    isfinite(c->rows[i].value[k]))
				c->rows[i].ratio[k] = c->rows[i].value[k] / c->rows[i].value[0];
	return 0;
}

const char *compare_unit(const struct compare_row *row)
{
	return row->iops ? "IOPS" : "MB/s";
}

#define LABEL_W 30
#define COL_W   20
/* "18612 12.97x": a value of up to 6, a space and a ratio of up to 6, and a little room */
#define COL_MIN 14

/* The widths of the label and of a run's column: 30 and 20, or on a terminal too narrow
 * for those, the widest label and what is left for each run (the ratio then follows its
 * value after one space); per: the runs of one block of columns. */
struct cmp_layout {
	size_t lw, cw, per;
	bool compact;
};

/* s cut to w characters (UTF-8 aware), padded (not at the end of a line, when !right and
 * last); control bytes were sanitized before. */
static void put_cell_ex(FILE *f, const char *s, size_t w, bool right, bool last)
{
	size_t chars = 0, bytes = 0, i;

	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (chars == w)
			break;
		chars++;
		bytes = i + 1;
		while (((unsigned char)s[bytes] & 0xc0) == 0x80)
			bytes++;
	}
	if (right)
		fprintf(f, "%*s", (int)(w - chars), "");
	fwrite(s, 1, bytes, f);
	if (!right && !last)
		fprintf(f, "%*s", (int)(w - chars), "");
}

static void put_cell(FILE *f, const char *s, size_t w, bool right)
{
	put_cell_ex(f, s, w, right, false);
}

void compare_num(char *buf, size_t cap, double v, bool integer)
{
	if (!isfinite(v))
		str_copy(buf, cap, "-");
	else if (integer || v >= 1000)
		str_fmt(buf, cap, "%.0f", v);
	else if (v >= 100)
		str_fmt(buf, cap, "%.1f", v);
	else
		str_fmt(buf, cap, "%.2f", v);
}

/* The heads of runs from..to-1 (what: the id, the device, the day and profile, the board) */
static void header_line(FILE *f, const struct compare *c, const struct cmp_layout *ly, int what,
			size_t from, size_t to)
{
	char buf[300];
	size_t k;

	put_cell(f, "", ly->lw, false);
	for (k = from; k < to; k++) {
		const struct run *r = c->runs[k];

		switch (what) {
		case 0:
			str_fmt(buf, sizeof(buf), "#%lld", (long long)r->id);
			break;
		case 1:
			run_device_label(r, buf, sizeof(buf));
			str_sanitize(buf);
			break;
		case 2:
			str_fmt(buf, sizeof(buf), "%.10s %s", r->started_at, r->profile);
			break;
		case 3:
			str_copy(buf, sizeof(buf), *r->board ? r->board : "-");
			break;
		default:
			/* the USB driver of each run: only shown when they differ (fix uas --try) */
			str_fmt(buf, sizeof(buf), "on %s", run_device_str(r, "usb.driver"));
			str_sanitize(buf);
			break;
		}
		fputs("  ", f);
		put_cell_ex(f, buf, ly->cw, false, k + 1 == to);
	}
	fputc('\n', f);
}

/* One value of run k with its ratio to the first run (none in the first column). */
static void value_cell(FILE *f, const struct cmp_layout *ly, size_t k, bool last, double v,
		       double ratio, bool iops)
{
	char cell[64], num[32];

	size_t pad = ly->compact ? 7 : 9; /* " 12.97x", "   12.97x" */

	compare_num(num, sizeof(num), v, iops);
	fputs("  ", f);
	if (k > 0 && isfinite(ratio) && isfinite(v)) {
		str_fmt(cell, sizeof(cell), ly->compact ? "%s %5.2fx" : "%s %7.2fx", num, ratio);
		put_cell(f, cell, ly->cw, true);
	} else if (last) { /* under the values above it, no blanks at the end of the line */
		put_cell(f, num, ly->cw > pad ? ly->cw - pad : 0, true);
	} else {
		str_fmt(cell, sizeof(cell), "%s%*s", num, (int)pad, "");
		put_cell(f, cell, ly->cw, true);
	}
}

static void row_label(const struct compare_row *row, char *buf, size_t cap)
{
	if (row->memory)
		str_fmt(buf, cap, "%s (memory) %s", row->test, compare_unit(row));
	else
		str_fmt(buf, cap, "%s %s %s", row->test, row->dir, compare_unit(row));
}

static bool row_empty(const struct compare *c, const struct compare_row *row)
{
	size_t k;

	for (k = 0; k < c->nruns; k++)
		if (isfinite(row->value[k]))
			return false;
	return true;
}

static bool scores_empty(const struct compare *c)
{
	size_t k;

	for (k = 0; k < c->nruns; k++)
		if (isfinite(verdict_score(c->runs[k])))
			return false;
	return true;
}

static void layout(const struct compare *c, struct cmp_layout *ly)
{
	size_t i, at, w, cols = text_width();
	char label[100];

	*ly = (struct cmp_layout){ .lw = LABEL_W, .cw = COL_W, .per = c->nruns };
	if (!cols || !c->nruns || LABEL_W + c->nruns * (COL_W + 2) <= cols)
		return;
	ly->compact = true;
	ly->lw = text_chars("boot-drive score", 1, &at);
	for (i = 0; i < c->nrows; i++) {
		row_label(&c->rows[i], label, sizeof(label));
		w = text_chars(label, 1, &at);
		if (w > ly->lw)
			ly->lw = w;
	}
	/* every run side by side when each gets COL_MIN; else blocks of as many as fit */
	w = cols > ly->lw ? (cols - ly->lw) / c->nruns : 0;
	if (w >= 2 + COL_MIN) {
		ly->cw = w - 2 < COL_W ? w - 2 : COL_W;
		return;
	}
	ly->cw = COL_MIN;
	ly->per = cols > ly->lw + 2 + COL_MIN ? (cols - ly->lw) / (2 + COL_MIN) : 1;
	/* as few blocks as that takes, the runs shared out evenly: 4 runs as 2 and 2 */
	i = (c->nruns + ly->per - 1) / ly->per;
	ly->per = (c->nruns + i - 1) / i;
	w = cols > ly->lw ? (cols - ly->lw) / ly->per : 0;
	if (cols > ly->lw && w > 2 + COL_MIN)
		ly->cw = w - 2 < COL_W ? w - 2 : COL_W;
}

/* Whether the runs, all on USB with a known driver, were measured on different drivers (uas
 * against usb-storage: fix uas --try). */
static bool drivers_differ(const struct compare *c)
{
	const char *d0 = run_device_str(c->runs[0], "usb.driver"), *d;
	bool differ = false;
	size_t k;

	for (k = 1; d0 && k < c->nruns; k++) {
		d = run_device_str(c->runs[k], "usb.driver");
		if (!d)
			return false;
		differ = differ || strcmp(d, d0);
	}
	return differ;
}

static void print_block(FILE *f, const struct compare *c, const struct cmp_layout *ly,
			size_t from, size_t to)
{
	double s0 = verdict_score(c->runs[0]);
	char label[100];
	size_t i, k;

	for (i = 0; i < 4; i++)
		header_line(f, c, ly, (int)i, from, to);
	if (c->nruns && drivers_differ(c))
		header_line(f, c, ly, 4, from, to);
	for (i = 0; i < c->nrows; i++) {
		const struct compare_row *row = &c->rows[i];

		if (row_empty(c, row))
			continue;
		row_label(row, label, sizeof(label));
		put_cell(f, label, ly->lw, false);
		for (k = from; k < to; k++)
			value_cell(f, ly, k, k + 1 == to, row->value[k], row->ratio[k], row->iops);
		fputc('\n', f);
	}
	if (scores_empty(c))
		return;
	put_cell(f, "boot-drive score", ly->lw, false);
	for (k = from; k < to; k++) {
		double s = verdict_score(c->runs[k]);

		value_cell(f, ly, k, k + 1 == to, s, isfinite(s0) && s0 > 0 ? s / s0 : NAN, true);
	}
	fputc('\n', f);
}

int compare_print(FILE *f, const struct compare *c)
{
	struct cmp_layout ly;
	size_t k;

	layout(c, &ly);
	for (k = 0; k < c->nruns; k += ly.per) {
		if (k)
			fprintf(f, "\n");
		print_block(f, c, &ly, k, k + ly.per < c->nruns ? k + ly.per : c->nruns);
	}
	if (ly.per < c->nruns)
		fprintf(f, "\nThe ratios are to the first run, #%lld.\n", (long long)c->runs[0]->id);
	fputc('\n', f);
	for (k = 0; k < c->nruns; k++) {
		struct verdict v;
		char app[200];

		if (verdict_run(c->runs[k], &v))
			str_copy(v.text, sizeof(v.text), "no figure to judge");
		fprintf(f, "#%lld: %s", (long long)c->runs[k]->id, v.text);
		if (!verdict_app_class(c->runs[k], app, sizeof(app)))
			fprintf(f, "; %s", app);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

struct json_object *compare_to_json(const struct compare *c)
{
	struct json_object *o = json_object_new_object(), *runs = json_object_new_array();
	struct json_object *rows = json_object_new_array();
	char label[200];
	size_t i, k;

	json_add_i64(o, "schema", true, 1);
	for (k = 0; k < c->nruns; k++) {
		const struct run *r = c->runs[k];
		struct json_object *ro = json_object_new_object();
		struct verdict v;
		double s = verdict_score(r);

		json_add_i64(ro, "id", true, r->id);
		json_add_str(ro, "started_at", r->started_at);
		json_add_str(ro, "profile", r->profile);
		json_add_str(ro, "board", *r->board ? r->board : NULL);
		json_add_str(ro, "device", run_device_label(r, label, sizeof(label)));
		json_add_str(ro, "driver", run_device_str(r, "usb.driver"));
		json_add_double(ro, "score", isfinite(s), round(s * 10) / 10);
		json_add_str(ro, "verdict", verdict_run(r, &v) ? NULL : v.text);
		json_object_array_add(runs, ro);
	}
	for (i = 0; i < c->nrows; i++) {
		const struct compare_row *row = &c->rows[i];
		struct json_object *ro = json_object_new_object();
		struct json_object *vals = json_object_new_array(), *ratios = json_object_new_array();

		json_add_str(ro, "test", row->test);
		json_add_str(ro, "rw", row->dir);
		json_add_str(ro, "unit", row->iops ? "iops" : "mb_per_s");
		for (k = 0; k < c->nruns; k++) {
			double v = row->value[k], q = row->ratio[k];

			json_object_array_add(vals, isfinite(v) ?
						json_object_new_double(round(v * 1000) / 1000) : NULL);
			json_object_array_add(ratios, isfinite(q) ?
						json_object_new_double(round(q * 1000) / 1000) : NULL);
		}
		json_object_object_add(ro, "values", vals);
		json_object_object_add(ro, "ratios", ratios);
		json_object_array_add(rows, ro);
	}
	json_object_object_add(o, "runs", runs);
	json_object_object_add(o, "rows", rows);
	return o;
}
