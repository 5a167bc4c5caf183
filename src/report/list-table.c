/* list-table.c - the `sbcdisk list` tree table through libsmartcols, like lsblk's.
 * Unknown values print as "-"; partitions and holders hang below their disk. */
#include <libsmartcols.h>

#include "common/sbuf.h"
#include "report/list-int.h"
#include "common/util.h"

#define LIST_TABLE_DEPTH_MAX 16
#define LIST_TABLE_LINES_MAX 5000 /* a holder below many slaves is repeated under each */

static int cell_text(const struct list_column *c, const struct blkdev *d, bool bytes,
		     struct sbuf *sb)
{
	struct list_value v;
	char num[64];
	size_t i;

	if (c->type == LIST_MOUNTS) {
		for (i = 0; i < d->n_mountpoints; i++) {
			int ret = i ? sbuf_addch(sb, '\n') : 0;

			if (!ret)
				ret = sbuf_adds(sb, d->mountpoints[i]);
			if (ret)
				return ret;
		}
		return sb->len ? 0 : sbuf_adds(sb, "-");
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
		if (bytes)
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

static int add_line(struct libscols_table *tb, struct libscols_line *parent, const struct blkdev *d,
		    const int *ids, size_t n, bool bytes, int depth, size_t *budget)
{
	struct libscols_line *ln;
	struct sbuf sb = SBUF_INIT(64 * 1024);
	size_t i;
	int ret = 0;

	ln = scols_table_new_line(tb, parent);
	if (!ln)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++) {
		sbuf_reset(&sb);
		cell_text(&list_columns[ids[i]], d, bytes, &sb);
		if (scols_line_set_data(ln, i, sbuf_str(&sb)))
			ret = -ENOMEM;
	}
	sbuf_release(&sb);
	for (i = 0; i < d->n_children && !ret && depth < LIST_TABLE_DEPTH_MAX && *budget; i++) {
		(*budget)--;
		ret = add_line(tb, ln, d->children[i], ids, n, bytes, depth + 1, budget);
	}
	return ret;
}

int list_table_print(const struct inventory *inv, const int *ids, size_t n, bool bytes, FILE *f)
{
	size_t i, budget = LIST_TABLE_LINES_MAX;
	struct libscols_table *tb;
	int ret = 0;

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
		ret = add_line(tb, NULL, inv->top[i], ids, n, bytes, 0, &budget);
	if (!ret && scols_print_table(tb))
		ret = -EIO;
	if (!ret && inv->n_left_out)
		fprintf(f, "(the list is incomplete: %zu more entries were not read; at most %d block "
			   "devices and %d partitions per disk are read)\n", inv->n_left_out,
			PROBE_DEVICES_MAX, PROBE_PARTS_MAX);
out:
	scols_unref_table(tb);
	return ret;
}
