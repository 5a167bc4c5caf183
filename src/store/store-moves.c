/* store-moves.c - what `move --apply` did (schema 8): the drive the system left and the one
 * it went to, so that the health check after the reboot can say whether the move took. */
#include <errno.h>
#include <string.h>

#include "common/util.h"
#include "store/sqlite-dl.h"
#include "store/store-int.h"

#define MOVE_COLUMNS                                                                        \
	"id, moved_at, src_name, src_model, src_serial, dst_name, dst_model, dst_serial,"    \
	" tryboot"

void store_move_set_device(struct store_move *m, bool dst, struct json_object *device)
{
	struct run *r = run_new();

	if (!r || !device) {
		run_free(r);
		return;
	}
	r->device = json_object_get(device);
	str_copy(dst ? m->dst_name : m->src_name, sizeof(m->src_name),
		 store_device_first(r, store_name_paths) ?: "");
	str_copy(dst ? m->dst_model : m->src_model, sizeof(m->src_model),
		 store_device_first(r, store_model_paths) ?: "");
	str_copy(dst ? m->dst_serial : m->src_serial, sizeof(m->src_serial),
		 store_device_first(r, store_serial_paths) ?: "");
	run_free(r);
}

int store_move_add(struct store *st, struct store_move *m)
{
	const char *texts[] = { m->moved_at, m->src_name, m->src_model, m->src_serial,
				m->dst_name, m->dst_model, m->dst_serial };
	sqlite3_stmt *s = NULL;
	int rc;

	if (!st->writable)
		return store_fail(st, -EROFS, "opened for reading");
	rc = sqlite3_prepare_v2(
		st->db,
		"INSERT INTO moves (moved_at, src_name, src_model, src_serial, dst_name, dst_model,"
		" dst_serial, tryboot) VALUES (coalesce(?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),"
		" ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id, moved_at",
		-1, &s, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	store_bind_texts(s, 1, texts, ARRAY_SIZE(texts));
	sqlite3_bind_int(s, 8, m->tryboot);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		m->id = sqlite3_column_int64(s, 0);
		store_col_text(s, 1, m->moved_at, sizeof(m->moved_at));
		rc = sqlite3_step(s);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail_db(st, rc);
}

int store_move_latest(struct store *st, struct store_move *m)
{
	const struct store_col texts[] = { STORE_COL(m->moved_at),   STORE_COL(m->src_name),
					   STORE_COL(m->src_model),  STORE_COL(m->src_serial),
					   STORE_COL(m->dst_name),   STORE_COL(m->dst_model),
					   STORE_COL(m->dst_serial) };
	sqlite3_stmt *s = NULL;
	int v = 0, rc;

	memset(m, 0, sizeof(*m));
	if (store_schema_version(st, &v) || v < 8)
		return -ENOENT;
	rc = sqlite3_prepare_v2(st->db, "SELECT " MOVE_COLUMNS " FROM moves ORDER BY id DESC"
				" LIMIT 1", -1, &s, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		m->id = sqlite3_column_int64(s, 0);
		store_col_texts(s, 1, texts, ARRAY_SIZE(texts));
		m->tryboot = sqlite3_column_int(s, 8) != 0;
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? -ENOENT : store_fail_db(st, rc);
}
