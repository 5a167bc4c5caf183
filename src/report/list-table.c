/* list-table.c - the `sbcdisk list` tree table through libsmartcols, like lsblk's.
 * Unknown values print as "-"; partitions and holders hang below their disk. */
#include <libsmartcols.h>

#include "common/sbuf.h"
#include "report/list-int.h"
#include "common/util.h"
#include "report/text.h"

#define LIST_TABLE_DEPTH_MAX 16
#define LIST_TABLE_LINES_MAX 5000 /* a holder below many slaves is repeated under each */

/* How the cells are written: exact sizes; fitted to a terminal (one line a device, the
 * narrow forms where short is set). */
struct cell_mode {
	bool bytes, fit, short_form;
};

static int cell_text(const struct list_column *c, const struct blkdev *d,
		     const struct cell_mode *m, struct sbuf *sb)
{
	struct list_value v;
	char num[1024];
	size_t i;

	if (c->type == LIST_MOUNTS) {
		for (i = 0; i < d->n_mountpoints; i++) {
			int ret = i ? sbuf_addch(sb, m->fit ? ',' : '\n') : 0;

			if (!ret)
				ret = sbuf_adds(sb, d->mountpoints[i]);
			if (ret)
				return ret;
		}
		return sb->len ? 0 : sbuf_adds(sb, "-");
	}
	if (m->short_form && c->table_short) {
		c->table_short(d, num, sizeof(num));
		return sbuf_adds(sb, num);
	}
	if (c->table_text) {
		c->table_text(d, num, sizeof(num));
		return sbuf_adds(sb, num);
	}
	list_value_get(c, d, &v);
	if (!v.known)
		return sbuf_adds(sb, "-");
	switch (c->type) {
	case LIST_STR:
		return sbuf_adds(sb, v.s);
	case LIST_U64:
		return sbuf_addf(sb, "%" PRIu64, v.u);
	case LIST_SIZE:
		if (m->bytes)
			return sbuf_addf(sb, "%" PRIu64, v.u);
		size_to_human(v.u, num, sizeof(num));
		return sbuf_adds(sb, num);
	case LIST_BOOL:
		return sbuf_adds(sb, v.b ? "1" : "0");
	case LIST_MOUNTS:
		break;
	}
	return 0;
}

/* The table's columns: ids, and on a terminal the width of each (0: dropped). */
struct table_cols {
	const int *ids;
	size_t n;
	struct cell_mode mode;
	struct text_fit_col fit[LIST_COLUMNS_MAX];
};

static int add_line(struct libscols_table *tb, struct libscols_line *parent, const struct blkdev *d,
		    const struct table_cols *tc, int depth, size_t *budget)
{
	struct libscols_line *ln;
	struct sbuf sb = SBUF_INIT(64 * 1024);
	size_t i;
	int ret = 0;

	ln = scols_table_new_line(tb, parent);
	if (!ln)
		return -ENOMEM;
	for (i = 0; i < tc->n && !ret; i++) {
		sbuf_reset(&sb);
		cell_text(&list_columns[tc->ids[i]], d, &tc->mode, &sb);
		if (scols_line_set_data(ln, i, sbuf_str(&sb)))
			ret = -ENOMEM;
	}
	sbuf_release(&sb);
	for (i = 0; i < d->n_children && !ret && depth < LIST_TABLE_DEPTH_MAX && *budget; i++) {
		(*budget)--;
		ret = add_line(tb, ln, d->children[i], tc, depth + 1, budget);
	}
	return ret;
}

/* One device a line in the fitted widths, the tree drawn as libsmartcols draws it in ASCII
 * ("|-", "`-"); art holds the ancestors' part ("| " or "  " a level). */
static void fit_line(FILE *f, const struct blkdev *d, const struct table_cols *tc, char *art,
		     size_t depth, bool last, size_t *budget)
{
	struct sbuf sb = SBUF_INIT(64 * 1024);
	size_t i, shown = 0, left = 0, alen = strlen(art);
	char cut[4096];

	for (i = 0; i < tc->n; i++)
		shown += tc->fit[i].width != 0;
	for (i = 0; i < tc->n; i++) {
		const struct list_column *c = &list_columns[tc->ids[i]];

		if (!tc->fit[i].width)
			continue;
		sbuf_reset(&sb);
		/* only memory can fail a cell: it is then shown as far as it got */
		if (!(c->flags & SCOLS_FL_TREE) || !depth ||
		    !sbuf_addf(&sb, "%s%s", art, last ? "`-" : "|-"))
			cell_text(c, d, &tc->mode, &sb);
		str_copy_cut(cut, sizeof(cut), sbuf_str(&sb), false);
		str_sanitize(cut);
		text_put_cell(f, cut, tc->fit[i].width, c->flags & SCOLS_FL_RIGHT, 1,
			      ++left == shown);
	}
	fputc('\n', f);
	sbuf_release(&sb);
	if (depth && alen + 3 < LIST_TABLE_DEPTH_MAX * 2 + 1)
		str_copy(art + alen, 3, last ? "  " : "| ");
	for (i = 0; i < d->n_children && depth < LIST_TABLE_DEPTH_MAX && *budget; i++) {
		(*budget)--;
		fit_line(f, d->children[i], tc, art, depth + 1, i + 1 == d->n_children, budget);
	}
	art[alen] = '\0';
}

static void fit_print(const struct inventory *inv, const struct table_cols *tc, FILE *f)
{
	char art[LIST_TABLE_DEPTH_MAX * 2 + 1] = "";
	size_t i, shown = 0, left = 0, budget = LIST_TABLE_LINES_MAX;

	for (i = 0; i < tc->n; i++)
		shown += tc->fit[i].width != 0;
	for (i = 0; i < tc->n; i++) {
		const struct list_column *c = &list_columns[tc->ids[i]];

		if (tc->fit[i].width)
			text_put_cell(f, c->name, tc->fit[i].width, c->flags & SCOLS_FL_RIGHT, 1,
				      ++left == shown);
	}
	fputc('\n', f);
	for (i = 0; i < inv->n_top; i++)
		fit_line(f, inv->top[i], tc, art, 0, true, &budget);
}

/* The widest cell of each column (the tree's with its 2 characters a level) into natural. */
static void measure(const struct blkdev *d, struct table_cols *tc, int depth, size_t *budget)
{
	struct sbuf sb = SBUF_INIT(64 * 1024);
	size_t i, w, at;

	for (i = 0; i < tc->n; i++) {
		const struct list_column *c = &list_columns[tc->ids[i]];

		sbuf_reset(&sb);
		cell_text(c, d, &tc->mode, &sb);
		w = text_chars(sbuf_str(&sb), 1, &at);
		if (c->flags & SCOLS_FL_TREE)
			w += 2 * (size_t)depth;
		if (w > tc->fit[i].natural)
			tc->fit[i].natural = w;
	}
	sbuf_release(&sb);
	for (i = 0; i < d->n_children && depth < LIST_TABLE_DEPTH_MAX && *budget; i++) {
		(*budget)--;
		measure(d->children[i], tc, depth + 1, budget);
	}
}

static size_t measure_all(const struct inventory *inv, struct table_cols *tc)
{
	size_t i, at, budget = LIST_TABLE_LINES_MAX, total = 0;

	for (i = 0; i < tc->n; i++)
		tc->fit[i].natural = text_chars(list_columns[tc->ids[i]].name, 1, &at);
	for (i = 0; i < inv->n_top; i++)
		measure(inv->top[i], tc, 0, &budget);
	for (i = 0; i < tc->n; i++) {
		double whint = list_columns[tc->ids[i]].whint;

		/* libsmartcols makes a column at least as wide as an absolute hint */
		if (whint >= 1 && tc->fit[i].natural < (size_t)whint)
			tc->fit[i].natural = (size_t)whint;
		total += tc->fit[i].natural + 1;
	}
	return total ? total - 1 : 0;
}

/* Fit the columns to a terminal of cols: the narrow forms when the long ones do not fit
 * (not for columns named with -o), then cut and dropped by rank as lsblk would cut them. */
static void table_fit(const struct inventory *inv, struct table_cols *tc, size_t cols, bool chosen)
{
	size_t i;

	if (measure_all(inv, tc) > cols && !chosen) {
		tc->mode.short_form = true;
		measure_all(inv, tc);
	}
	for (i = 0; i < tc->n; i++) {
		const struct list_column *c = &list_columns[tc->ids[i]];
		size_t at, head = text_chars(c->name, 1, &at);

		tc->fit[i].rank = c->rank ? c->rank : 20;
		tc->fit[i].keep = chosen || (c->flags & SCOLS_FL_TREE);
		tc->fit[i].min = c->min && !(c->flags & SCOLS_FL_TREE) ? c->min : tc->fit[i].natural;
		if (tc->fit[i].min < head)
			tc->fit[i].min = head;
		if (tc->fit[i].min > tc->fit[i].natural)
			tc->fit[i].min = tc->fit[i].natural;
	}
	text_fit(tc->fit, tc->n, 1, cols);
}

int list_table_print(const struct inventory *inv, const int *ids, size_t n, bool bytes,
		     bool chosen, FILE *f)
{
	struct table_cols tc = { .ids = ids, .n = n, .mode = { .bytes = bytes } };
	size_t i, budget = LIST_TABLE_LINES_MAX;
	struct libscols_table *tb;
	int ret = 0;

	if (n > LIST_COLUMNS_MAX)
		return -E2BIG;
	if (text_width()) {
		tc.mode.fit = true;
		table_fit(inv, &tc, text_width(), chosen);
		fit_print(inv, &tc, f);
		goto left_out;
	}
	tb = scols_new_table();
	if (!tb)
		return -ENOMEM;
	scols_table_set_stream(tb, f);
	for (i = 0; i < n; i++) {
		const struct list_column *c = &list_columns[ids[i]];
		struct libscols_column *cl =
		    scols_table_new_column(tb, c->name, c->whint, c->flags);

		if (!cl) {
			ret = -ENOMEM;
			goto out;
		}
		if (c->type == LIST_MOUNTS)
			scols_column_set_wrapfunc(cl, scols_wrapnl_chunksize,
						  scols_wrapnl_nextchunk, NULL);
	}
	for (i = 0; i < inv->n_top && !ret; i++)
		ret = add_line(tb, NULL, inv->top[i], &tc, 0, &budget);
	if (!ret && scols_print_table(tb))
		ret = -EIO;
	scols_unref_table(tb);
left_out:
	if (!ret && inv->n_left_out)
		fprintf(f, "(the list is incomplete: %zu more entries were not read; at most %d block "
			   "devices and %d partitions per disk are read)\n", inv->n_left_out,
			PROBE_DEVICES_MAX, PROBE_PARTS_MAX);
	return ret;
out:
	scols_unref_table(tb);
	return ret;
}
