/* store-fixes.c - what `fix --apply` wrote, and the runs of the same drive before and after
 * it: the proof that a fix helped. A database older than schema 6 simply has no fixes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/sbuf.h"
#include "common/util.h"
#include "store/sqlite-dl.h"
#include "store/store-int.h"
#include "store/store-schema.h"

#define FIX_COLUMNS                                                                         \
	"id, applied_at, kind, change, file, boot_id, runtime, dev_name, dev_model,"         \
	" dev_serial, usb_id, uas_resets, runs_max"
#define FIX_MAX 4096 /* fixes read at once: far more than any board sees */

/* f: the fix; r: a run. A run is after f when stored after it, not measured in the boot it
 * was written in (unless it took effect at once), and before the drive's next fix. */
#define RUN_AFTER_FIX                                                                       \
	"r.id > f.runs_max AND r.started_at >= f.applied_at"                                 \
	" AND (f.runtime OR f.boot_id IS NULL OR r.boot_id IS NULL OR r.boot_id != f.boot_id)" \
	" AND NOT EXISTS (SELECT 1 FROM fixes g WHERE g.id > f.id AND"                       \
	" " STORE_DEV_KEY("g") " = " STORE_DEV_KEY("f") " AND g.runs_max < r.id)"
#define RUN_BEFORE_FIX                                                                      \
	"r.started_at <= f.applied_at AND (r.id <= f.runs_max OR r.started_at < f.applied_at)"

static bool has_fixes(struct store *st)
{
	int v = 0;

	return !store_schema_version(st, &v) && v >= 6;
}

static void fix_load(sqlite3_stmt *s, struct store_fix *f)
{
	const struct store_col texts[] = { STORE_COL(f->applied_at), STORE_COL(f->kind),
					   STORE_COL(f->change), STORE_COL(f->file),
					   STORE_COL(f->boot_id) };
	const struct store_col drive[] = { STORE_COL(f->dev_name), STORE_COL(f->dev_model),
					   STORE_COL(f->dev_serial), STORE_COL(f->usb_id) };

	memset(f, 0, sizeof(*f));
	f->id = sqlite3_column_int64(s, 0);
	store_col_texts(s, 1, texts, ARRAY_SIZE(texts));
	f->runtime = sqlite3_column_int(s, 6) != 0;
	store_col_texts(s, 7, drive, ARRAY_SIZE(drive));
	f->uas_resets = sqlite3_column_type(s, 11) == SQLITE_NULL ? -1 :
			(long)sqlite3_column_int64(s, 11);
	if (f->uas_resets < -1)
		f->uas_resets = -1;
	f->runs_max = sqlite3_column_int64(s, 12);
}

void store_fix_set_device(struct store_fix *f, struct json_object *device)
{
	struct run *r = run_new();
	const char *v, *pid;

	if (!r || !device) {
		run_free(r);
		return;
	}
	r->device = json_object_get(device);
	str_copy(f->dev_name, sizeof(f->dev_name), store_device_first(r, store_name_paths) ?: "");
	str_copy(f->dev_model, sizeof(f->dev_model),
		 store_device_first(r, store_model_paths) ?: "");
	str_copy(f->dev_serial, sizeof(f->dev_serial),
		 store_device_first(r, store_serial_paths) ?: "");
	v = run_device_str(r, "usb.vid");
	pid = run_device_str(r, "usb.pid");
	if (v && pid)
		str_fmt(f->usb_id, sizeof(f->usb_id), "%s:%s", v, pid);
	run_free(r);
}

int store_fix_add(struct store *st, struct store_fix *f)
{
	const char *texts[] = { f->applied_at, f->kind, f->change, f->file, f->boot_id };
	const char *drive[] = { f->dev_name, f->dev_model, f->dev_serial, f->usb_id };
	sqlite3_stmt *s = NULL;
	int rc, ret = 0;

	if (!st->writable)
		return store_fail(st, -EROFS, "opened for reading");
	rc = sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	rc = sqlite3_prepare_v2(
		st->db,
		"INSERT INTO fixes (applied_at, kind, change, file, boot_id, runtime, dev_name,"
		" dev_model, dev_serial, usb_id, uas_resets, runs_max) VALUES"
		" (coalesce(?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')), ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
		" ?9, ?10, ?11, (SELECT coalesce(max(id), 0) FROM runs))"
		" RETURNING id, applied_at, runs_max",
		-1, &s, NULL);
	if (rc != SQLITE_OK)
		goto out;
	store_bind_texts(s, 1, texts, ARRAY_SIZE(texts));
	sqlite3_bind_int(s, 6, f->runtime);
	store_bind_texts(s, 7, drive, ARRAY_SIZE(drive));
	if (f->uas_resets >= 0)
		sqlite3_bind_int64(s, 11, f->uas_resets);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW)
		goto out;
	f->id = sqlite3_column_int64(s, 0);
	store_col_text(s, 1, f->applied_at, sizeof(f->applied_at));
	f->runs_max = sqlite3_column_int64(s, 2);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
out:
	sqlite3_finalize(s);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		ret = store_fail_db(st, rc);
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	}
	return ret;
}

/* Step s to the end, each row a fix (FIX_COLUMNS, then optionally a run id at column 13). */
static int fixes_load(struct store *st, sqlite3_stmt *s, struct store_fix **out,
		      int64_t **of_run, size_t *n)
{
	struct store_fix *v = NULL;
	int64_t *runs = NULL;
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && *n < FIX_MAX) {
		if (*n == alloc) {
			size_t na = alloc ? alloc * 2 : 8;
			struct store_fix *nv = realloc(v, na * sizeof(*v));
			int64_t *nr = of_run ? realloc(runs, na * sizeof(*runs)) : NULL;

			if (nv)
				v = nv;
			if (nr)
				runs = nr;
			if (!nv || (of_run && !nr)) {
				free(v);
				free(runs);
				*n = 0;
				return store_fail(st, -ENOMEM, NULL);
			}
			alloc = na;
		}
		fix_load(s, &v[*n]);
		if (of_run)
			runs[*n] = sqlite3_column_int64(s, 13);
		(*n)++;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		free(v);
		free(runs);
		*n = 0;
		return store_fail_db(st, rc);
	}
	*out = v;
	if (of_run)
		*of_run = runs;
	return 0;
}

int store_fixes_query(struct store *st, const char *device, size_t limit,
		      struct store_fix **out, size_t *n)
{
	sqlite3_stmt *s = NULL;
	int rc, ret;

	*out = NULL;
	*n = 0;
	if (!has_fixes(st))
		return 0;
	rc = sqlite3_prepare_v2(
		st->db,
		"SELECT " FIX_COLUMNS " FROM fixes WHERE"
		" " STORE_DEV_MATCH("?1")
		" ORDER BY applied_at DESC, id DESC LIMIT ?2",
		-1, &s, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	store_bind_text(s, 1, device);
	sqlite3_bind_int64(s, 2, limit ? (int64_t)limit : FIX_MAX);
	ret = fixes_load(st, s, out, NULL, n);
	sqlite3_finalize(s);
	return ret;
}

int store_fixes_of_runs(struct store *st, const int64_t *ids, size_t nids,
			struct store_fix **out, int64_t **of_run, size_t *n)
{
	struct sbuf list = SBUF_INIT(1024 * 1024);
	sqlite3_stmt *s = NULL;
	size_t i;
	int rc, ret = 0;

	*out = NULL;
	*of_run = NULL;
	*n = 0;
	if (!has_fixes(st) || !nids)
		return 0;
	for (i = 0; i < nids && !ret; i++)
		ret = sbuf_addf(&list, "%s%lld", i ? "," : "[", (long long)ids[i]);
	if (!ret)
		ret = sbuf_addf(&list, "]");
	if (ret) {
		sbuf_release(&list);
		return store_fail(st, ret, NULL);
	}
	rc = sqlite3_prepare_v2(
		st->db,
		"SELECT * FROM (SELECT " FIX_COLUMNS ", (SELECT r.id FROM json_each(?1) j"
		" JOIN runs r ON r.id = j.value WHERE " STORE_DEV_KEY("r") " = " STORE_DEV_KEY("f")
		" ORDER BY j.key LIMIT 1) AS of_run FROM fixes f) WHERE of_run IS NOT NULL"
		" ORDER BY applied_at, id LIMIT ?2",
		-1, &s, NULL);
	if (rc != SQLITE_OK) {
		sbuf_release(&list);
		return store_fail_db(st, rc);
	}
	sqlite3_bind_text(s, 1, sbuf_str(&list), (int)list.len, SQLITE_STATIC);
	sqlite3_bind_int(s, 2, FIX_MAX);
	ret = fixes_load(st, s, out, of_run, n);
	sqlite3_finalize(s);
	sbuf_release(&list);
	return ret;
}

int store_fix_before_run(struct store *st, int64_t run_id, struct store_fix *f)
{
	sqlite3_stmt *s = NULL;
	int rc;

	if (!has_fixes(st))
		return -ENOENT;
	rc = sqlite3_prepare_v2(
		st->db,
		"SELECT " FIX_COLUMNS " FROM fixes f WHERE EXISTS (SELECT 1 FROM runs r WHERE"
		" r.id = ?1 AND " STORE_DEV_KEY("r") " = " STORE_DEV_KEY("f") " AND r.id > f.runs_max"
		" AND r.started_at >= f.applied_at) ORDER BY f.id DESC LIMIT 1",
		-1, &s, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	sqlite3_bind_int64(s, 1, run_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		fix_load(s, f);
	sqlite3_finalize(s);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? -ENOENT : store_fail_db(st, rc);
}

/* The one run that the subquery where (over runs r and fixes f, f.id = ?1, profile ?2)
 * picks with order, or NULL. */
static int fix_run(struct store *st, int64_t fix_id, const char *profile, const char *where,
		   const char *order, struct run **out)
{
	struct run_list l = { 0 };
	sqlite3_stmt *s = NULL;
	char sql[2048];
	size_t found;
	int rc, ret;

	*out = NULL;
	ret = str_fmt(sql, sizeof(sql),
		      "SELECT " RUN_COLUMNS " FROM runs WHERE id = (SELECT r.id FROM runs r"
		      " JOIN fixes f ON f.id = ?1 WHERE " STORE_DEV_KEY("r") " = " STORE_DEV_KEY("f")
		      " AND (?2 IS NULL OR r.profile = ?2) AND %s ORDER BY %s LIMIT 1)",
		      where, order);
	if (ret)
		return store_fail(st, ret, "query too long");
	rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	sqlite3_bind_int64(s, 1, fix_id);
	store_bind_text(s, 2, profile);
	ret = store_runs_load(st, s, &l, &found);
	sqlite3_finalize(s);
	if (!ret && l.n) {
		*out = l.runs[0];
		l.runs[0] = NULL;
		l.n = 0;
	}
	run_list_release(&l);
	return ret;
}

int store_fix_runs(struct store *st, const struct store_fix *f, const char *profile,
		   struct run **before, struct run **after)
{
	int ret;

	*before = *after = NULL;
	if (!has_fixes(st))
		return -ENOENT;
	ret = fix_run(st, f->id, profile, RUN_AFTER_FIX, "r.id", after);
	if (!ret)
		ret = fix_run(st, f->id, *after ? (*after)->profile : profile, RUN_BEFORE_FIX,
			      "r.started_at DESC, r.id DESC", before);
	if (ret) {
		run_free(*after);
		*after = NULL;
		return ret;
	}
	return *before || *after ? 0 : -ENOENT;
}

int store_fix_has_run_before(struct store *st, const struct store_fix *f, bool *found)
{
	const char *drive[] = { f->dev_serial, f->dev_model, f->usb_id };
	sqlite3_stmt *s = NULL;
	int rc;

	*found = false;
	/* a fix not stored yet: any run of its drive is from before it */
	rc = sqlite3_prepare_v2(
		st->db,
		"SELECT 1 FROM runs r, (SELECT ?1 AS dev_serial, ?2 AS dev_model, ?3 AS usb_id) f"
		" WHERE " STORE_DEV_KEY("r") " = " STORE_DEV_KEY("f")
		" AND (?4 IS NULL OR r.id <= ?5 OR r.started_at < ?4) LIMIT 1",
		-1, &s, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	store_bind_texts(s, 1, drive, ARRAY_SIZE(drive));
	store_bind_text(s, 4, f->id ? f->applied_at : NULL);
	sqlite3_bind_int64(s, 5, f->runs_max);
	rc = sqlite3_step(s);
	*found = rc == SQLITE_ROW;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_fail_db(st, rc);
}
