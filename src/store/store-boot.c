/* store-boot.c - boot times (`boot time --record`): one row per boot, and per drive and
 * attachment the count, mean, min and max of each figure (`history --boot`). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "common/sbuf.h"
#include "common/util.h"
#include "store/sqlite-dl.h"
#include "store/store-int.h"
#include "store/store-schema.h"

#define BOOT_GROUPS_MAX 4096 /* groups read at once: far more drives than any board has */
#define BOOT_TIME_MAX_S (7 * 24 * 3600.0) /* a boot longer than a week is no boot time */

static bool has_boot_times(struct store *st)
{
	int v = 0;

	return !store_schema_version(st, &v) && v >= 7;
}

/* The stored time of boot_id, or "" when it has none. */
static int boot_recorded_at(struct store *st, const char *boot_id, char *buf, size_t cap)
{
	sqlite3_stmt *s = NULL;
	int rc;

	if (buf && cap)
		buf[0] = '\0';
	rc = sqlite3_prepare_v2(st->db, "SELECT recorded_at FROM boot_times WHERE boot_id = ?",
				-1, &s, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	sqlite3_bind_text(s, 1, boot_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && buf && cap)
		store_col_text(s, 0, buf, cap);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_fail_db(st, rc);
}

static int boot_insert(struct store *st, const struct store_boot *b, bool *added)
{
	const char *ids[] = { b->boot_id, b->recorded_at };
	const double figures[] = { b->kernel_s, b->initrd_s,   b->userspace_s,
				   b->total_s,	b->firmware_s, b->loader_s };
	const char *where[] = { b->target, b->board, b->kernel, b->root_device };
	struct run *r = run_new();
	char label[RUN_TEXT_MAX], attach[256];
	sqlite3_stmt *s = NULL, *u = NULL;
	int64_t id;
	size_t i;
	int rc;

	if (!r)
		return store_fail(st, -ENOMEM, NULL);
	r->device = b->device; /* borrowed: read through the run helpers only */
	rc = sqlite3_prepare_v2(
		st->db,
		"INSERT INTO boot_times (boot_id, recorded_at, kernel_s, initrd_s, userspace_s,"
		" total_s, firmware_s, loader_s, target, board, kernel, root_device, dev_name,"
		" dev_model, dev_serial, dev_transport, dev_label, attachment, device_json) VALUES"
		" (?1, coalesce(?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')), ?3, ?4, ?5, ?6, ?7, ?8,"
		" ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"
		" ON CONFLICT (boot_id) DO NOTHING",
		-1, &s, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(st->db, "UPDATE boot_times SET " STORE_ATTACH_SET
					" WHERE id = ? AND json_valid(device_json)", -1, &u, NULL);
	if (rc != SQLITE_OK)
		goto out;
	store_bind_texts(s, 1, ids, ARRAY_SIZE(ids));
	for (i = 0; i < ARRAY_SIZE(figures); i++)
		store_bind_num(s, 3 + (int)i, figures[i]);
	store_bind_texts(s, 9, where, ARRAY_SIZE(where));
	store_bind_drive(s, 13, r);
	store_bind_text(s, 17, b->device ? run_device_label(r, label, sizeof(label)) : NULL);
	if (b->device)
		run_attach_summary(r, attach, sizeof(attach));
	store_bind_text(s, 18, b->device ? attach : NULL);
	store_bind_text(s, 19, b->device ? json_object_to_json_string_ext(b->device,
					   JSON_C_TO_STRING_PLAIN) : NULL);
	rc = sqlite3_step(s);
	if (rc != SQLITE_DONE)
		goto out;
	*added = sqlite3_changes(st->db) > 0;
	id = sqlite3_last_insert_rowid(st->db);
	rc = SQLITE_OK;
	if (*added) {
		sqlite3_bind_int64(u, 1, id);
		rc = sqlite3_step(u);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
out:
	sqlite3_finalize(s);
	sqlite3_finalize(u);
	r->device = NULL;
	run_free(r);
	return rc == SQLITE_OK ? 0 : store_fail_db(st, rc);
}

int store_boot_add(struct store *st, const struct store_boot *b, bool *added,
		   char *recorded_at, size_t cap)
{
	int rc, ret;

	*added = false;
	if (!st->writable)
		return store_fail(st, -EROFS, "opened for reading");
	if (!b->boot_id[0])
		return store_fail(st, -EINVAL, "no boot id");
	if (!isfinite(b->total_s) || b->total_s < 0 || b->total_s > BOOT_TIME_MAX_S)
		return store_fail(st, -EINVAL, "the total is not a boot time");
	rc = sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	ret = boot_insert(st, b, added);
	if (!ret)
		ret = boot_recorded_at(st, b->boot_id, recorded_at, cap);
	if (!ret) {
		rc = sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
		if (rc != SQLITE_OK)
			ret = store_fail_db(st, rc);
	}
	if (ret)
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

/* A figure of a group from (count, avg, min, max) at column i; a tampered database may hold
 * anything: what is no time is unknown. */
static void figure_load(sqlite3_stmt *s, int i, struct store_boot_figure *fg)
{
	int64_t n = sqlite3_column_int64(s, i);

	fg->n = n > 0 ? (size_t)n : 0;
	fg->mean = sqlite3_column_double(s, i + 1);
	fg->min = sqlite3_column_double(s, i + 2);
	fg->max = sqlite3_column_double(s, i + 3);
	if (!fg->n || !isfinite(fg->mean) || !isfinite(fg->min) || !isfinite(fg->max) ||
	    fg->min < 0 || fg->min > fg->max) {
		fg->n = 0;
		fg->mean = fg->min = fg->max = NAN;
	}
}

#define FIGURE(c) "count(" c "), avg(" c "), min(" c "), max(" c ")"
/* One drive attached one way: the drive as a run's (STORE_DEV_KEY), else its kernel name. */
#define BOOT_GROUP_KEY                                                                      \
	"coalesce(" STORE_DEV_KEY("b") ", 'n:' || coalesce(b.dev_name, '')),"                \
	" coalesce(b.attachment, '')"

int store_boot_groups(struct store *st, const struct store_boot_filter *f,
		      struct store_boot_group **out, size_t *n)
{
	struct sbuf list = SBUF_INIT(1024 * 1024);
	struct store_boot_group *v = NULL;
	sqlite3_stmt *s = NULL;
	size_t alloc = 0, i;
	int rc, ret = 0;

	*out = NULL;
	*n = 0;
	if (!has_boot_times(st))
		return 0;
	for (i = 0; f->runs && i < f->n_runs && !ret; i++)
		ret = sbuf_addf(&list, "%s%lld", i ? "," : "[", (long long)f->runs[i]);
	if (!ret)
		ret = sbuf_adds(&list, f->runs && f->n_runs ? "]" : f->runs ? "[]" : "");
	if (ret) {
		sbuf_release(&list);
		return store_fail(st, ret, NULL);
	}
	rc = sqlite3_prepare_v2(
		st->db,
		"SELECT g.*, l.dev_label, l.dev_name, l.dev_serial, l.attachment FROM (SELECT"
		" count(*), min(recorded_at), max(recorded_at), max(id) AS last_id,"
		" " FIGURE("total_s") ", " FIGURE("kernel_s") ", " FIGURE("initrd_s") ","
		" " FIGURE("userspace_s") " FROM boot_times b WHERE"
		" " STORE_DEV_MATCH("?1")
		" AND (?2 IS NULL OR recorded_at >= ?2) AND (?3 IS NULL OR recorded_at <= ?3)"
		" AND (?4 IS NULL OR EXISTS (SELECT 1 FROM json_each(?4) j JOIN runs r"
		"  ON r.id = j.value WHERE " STORE_DEV_KEY("r") " = " STORE_DEV_KEY("b") "))"
		" GROUP BY " BOOT_GROUP_KEY ") g JOIN boot_times l ON l.id = g.last_id"
		/* the fastest first: the mean total (column 6), the label, the attachment */
		" ORDER BY 6, 21, 24 LIMIT ?5",
		-1, &s, NULL);
	if (rc != SQLITE_OK) {
		sbuf_release(&list);
		return store_fail_db(st, rc);
	}
	store_bind_text(s, 1, f->device);
	store_bind_text(s, 2, f->since);
	store_bind_until(s, 3, f->until);
	if (f->runs)
		sqlite3_bind_text(s, 4, sbuf_str(&list), (int)list.len, SQLITE_STATIC);
	sqlite3_bind_int(s, 5, BOOT_GROUPS_MAX);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_boot_group *g;

		if (*n == alloc) {
			size_t na = alloc ? alloc * 2 : 8;
			struct store_boot_group *nv = realloc(v, na * sizeof(*v));

			if (!nv) {
				ret = store_fail(st, -ENOMEM, NULL);
				break;
			}
			v = nv;
			alloc = na;
		}
		g = &v[(*n)++];
		memset(g, 0, sizeof(*g));
		g->boots = (size_t)sqlite3_column_int64(s, 0);
		store_col_text(s, 1, g->first_at, sizeof(g->first_at));
		store_col_text(s, 2, g->last_at, sizeof(g->last_at));
		figure_load(s, 4, &g->total);
		figure_load(s, 8, &g->kernel);
		figure_load(s, 12, &g->initrd);
		figure_load(s, 16, &g->userspace);
		store_col_text(s, 20, g->device, sizeof(g->device));
		store_col_text(s, 21, g->dev_name, sizeof(g->dev_name));
		store_col_text(s, 22, g->dev_serial, sizeof(g->dev_serial));
		store_col_text(s, 23, g->attachment, sizeof(g->attachment));
		if (!g->device[0])
			str_copy(g->device, sizeof(g->device), g->dev_name[0] ? g->dev_name : "?");
	}
	if (!ret && rc != SQLITE_DONE)
		ret = store_fail_db(st, rc);
	sqlite3_finalize(s);
	sbuf_release(&list);
	if (ret) {
		free(v);
		*n = 0;
		return ret;
	}
	*out = v;
	return 0;
}
