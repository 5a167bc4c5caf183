/* store-runs.c - writing runs (one transaction for any number of them) and reading them back.
 * What the database returns is checked again: a tampered file must not crash the readers. */
#include <errno.h>
#include <math.h>
#include <stddef.h>

#include "common/util.h"
#include "common/json.h"
#include "store/sqlite-dl.h"
#include "store/store-int.h"
#include "store/store-schema.h"

#define TEST_COLUMNS                                                                          \
	"name, rw, block_bytes, queue_depth, threads, runs, ios, bw, bw_min, bw_max, bw_cv,"    \
	" iops, lat_mean_us, lat_p50_us, lat_p90_us, lat_p99_us, lat_p999_us, lat_max_us,"      \
	" cpu_user_s, cpu_sys_s"

/* The numbers of a test in TEST_COLUMNS order (after name and rw). */
static double *test_nums(struct run_test *t, size_t *n)
{
	static const size_t count = 18;

	_Static_assert(offsetof(struct run_test, cpu_sys_s) - offsetof(struct run_test, block_bytes) ==
			       17 * sizeof(double),
		       "run_test numbers are contiguous");
	*n = count;
	return &t->block_bytes;
}

static void bind_json(sqlite3_stmt *s, int i, struct json_object *o)
{
	store_bind_text(s, i, o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : NULL);
}

const char *const store_name_paths[] = { "name", NULL };
const char *const store_model_paths[] = { "model", "nvme.model", "mmc.name", NULL };
const char *const store_serial_paths[] = { "serial", "nvme.serial", "mmc.serial", "usb.serial",
					   NULL };
const char *const store_transport_paths[] = { "transport", NULL };

const char *store_device_first(const struct run *r, const char *const *paths)
{
	const char *s;

	for (; *paths; paths++)
		if ((s = run_device_str(r, *paths)) && *s)
			return s;
	return NULL;
}

static int insert_tests(struct store *st, sqlite3_stmt *s, struct run *r, int64_t id)
{
	size_t i, k, n;
	int rc;

	for (i = 0; i < r->ntests; i++) {
		double *v = test_nums(&r->tests[i], &n);

		sqlite3_reset(s);
		sqlite3_clear_bindings(s);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int(s, 2, (int)i);
		store_bind_text(s, 3, r->tests[i].name);
		store_bind_text(s, 4, r->tests[i].rw);
		for (k = 0; k < n; k++)
			store_bind_num(s, 5 + (int)k, v[k]);
		rc = sqlite3_step(s);
		if (rc != SQLITE_DONE)
			return store_fail_db(st, rc);
	}
	return 0;
}

/* Statements of one store_runs_add() call. */
struct add_stmts {
	sqlite3_stmt *run, *test, *attach, *stored;
};

/*
 * The run an import brings again: the nth run with this digest (n: how many runs before it in
 * the same import have it). The runs stored before the import have the lowest ids, so the
 * nth exists only while the import has brought fewer copies than were stored: ten identical
 * runs exported and imported into a new database are ten runs, imported again none.
 */
static int find_stored(struct store *st, sqlite3_stmt *s, const char *digest, size_t nth,
		       int64_t *existing)
{
	int rc;

	sqlite3_reset(s);
	sqlite3_bind_text(s, 1, digest, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, (int64_t)nth);
	rc = sqlite3_step(s);
	*existing = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_fail_db(st, rc);
}

static int insert_run(struct store *st, sqlite3_stmt *s, sqlite3_stmt *attach, struct run *r,
		      const char *digest, int64_t *id)
{
	const char *texts[] = { r->started_at, r->profile, r->engine,
				r->board,      r->kernel,  r->boot_device };
	int rc;

	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	store_bind_texts(s, 1, texts, ARRAY_SIZE(texts));
	store_bind_drive(s, 7, r);
	bind_json(s, 11, r->device);
	bind_json(s, 12, r->target);
	bind_json(s, 13, r->checks);
	bind_json(s, 14, r->findings);
	store_bind_text(s, 15, r->source);
	store_bind_text(s, 16, digest);
	store_bind_text(s, 17, r->boot_id);
	rc = sqlite3_step(s);
	if (rc != SQLITE_DONE)
		return store_fail_db(st, rc);
	*id = sqlite3_last_insert_rowid(st->db);
	sqlite3_reset(attach);
	sqlite3_bind_int64(attach, 1, *id);
	rc = sqlite3_step(attach);
	return rc == SQLITE_DONE ? 0 : store_fail_db(st, rc);
}

static int prepare_add(struct store *st, struct add_stmts *a)
{
	static const struct {
		size_t off;
		const char *sql;
	} stmts[] = {
		{ offsetof(struct add_stmts, run),
		  "INSERT INTO runs (started_at, profile, engine, board, kernel, boot_device,"
		  " dev_name, dev_model, dev_serial, dev_transport, device_json, target_json,"
		  " checks_json, findings_json, source, digest, boot_id)"
		  " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)" },
		{ offsetof(struct add_stmts, test),
		  "INSERT INTO tests (run_id, seq, " TEST_COLUMNS ") VALUES"
		  " (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)" },
		{ offsetof(struct add_stmts, attach),
		  "UPDATE runs SET " STORE_ATTACH_SET " WHERE id = ? AND json_valid(device_json)" },
		{ offsetof(struct add_stmts, stored),
		  "SELECT id FROM runs WHERE digest = ?1 ORDER BY id LIMIT 1 OFFSET ?2" },
	};
	size_t i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(stmts); i++) {
		rc = sqlite3_prepare_v2(st->db, stmts[i].sql, -1,
					(sqlite3_stmt **)((char *)a + stmts[i].off), NULL);
		if (rc != SQLITE_OK)
			return store_fail_db(st, rc);
	}
	return 0;
}

static void finalize_add(struct add_stmts *a)
{
	sqlite3_finalize(a->run);
	sqlite3_finalize(a->test);
	sqlite3_finalize(a->attach);
	sqlite3_finalize(a->stored);
}

/* Where store_runs_add_from() takes its runs: an array (the caller keeps them), or next(). */
struct run_feed {
	struct run *const *runs;
	store_next_fn next;
	void *arg;
};

static int feed_get(struct store *st, const struct run_feed *f, size_t i, struct run **r)
{
	int ret;

	if (f->runs) {
		*r = f->runs[i];
		return 0;
	}
	ret = f->next(f->arg, r);
	if (!ret && !*r)
		ret = -ENODATA;
	return ret ? store_fail(st, ret, "the runs to store ended early") : 0;
}

static int runs_add(struct store *st, size_t n, const struct run_feed *f, enum store_add how,
		    int64_t *ids, bool *dup)
{
	char(*digest)[RUN_DIGEST_LEN + 1] = calloc(n ? n : 1, sizeof(*digest));
	struct add_stmts a = { 0 };
	size_t i, j, nth;
	int ret, rc;

	if (!digest)
		return store_fail(st, -ENOMEM, NULL);
	rc = sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		free(digest);
		return store_fail_db(st, rc);
	}
	ret = prepare_add(st, &a);
	for (i = 0; i < n && !ret; i++) {
		int64_t id = 0, existing = 0;
		struct run *r = NULL;

		ret = feed_get(st, f, i, &r);
		if (!ret && run_digest(r, digest[i]))
			ret = store_fail(st, -ENOMEM, NULL);
		/* a new measurement is always a new run, however like another it is */
		if (!ret && how == STORE_ADD_IMPORT) {
			for (j = 0, nth = 0; j < i; j++)
				nth += !strcmp(digest[j], digest[i]);
			ret = find_stored(st, a.stored, digest[i], nth, &existing);
		}
		if (!ret && !existing)
			ret = insert_run(st, a.run, a.attach, r, digest[i], &id);
		if (!ret && !existing)
			ret = insert_tests(st, a.test, r, id);
		if (dup)
			dup[i] = existing != 0;
		if (ids)
			ids[i] = existing ? existing : id;
		if (!f->runs)
			run_free(r);
	}
	free(digest);
	if (!ret) {
		rc = sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
		if (rc != SQLITE_OK)
			ret = store_fail_db(st, rc);
	}
	finalize_add(&a);
	if (ret)
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

int store_runs_add(struct store *st, struct run *const *runs, size_t n, enum store_add how,
		   int64_t *ids, bool *dup)
{
	struct run_feed f = { .runs = runs };
	size_t i;
	int ret;

	if (!st->writable)
		return store_fail(st, -EROFS, "opened for reading");
	ret = runs_add(st, n, &f, how, ids, dup);
	for (i = 0; !ret && ids && i < n; i++)
		runs[i]->id = ids[i];
	return ret;
}

int store_runs_add_from(struct store *st, size_t n, store_next_fn next, void *arg,
			enum store_add how, int64_t *ids, bool *dup)
{
	struct run_feed f = { .next = next, .arg = arg };

	if (!st->writable)
		return store_fail(st, -EROFS, "opened for reading");
	return runs_add(st, n, &f, how, ids, dup);
}

/* A stored JSON text, or NULL when absent or not of the expected type. */
static struct json_object *col_json(sqlite3_stmt *s, int i, enum json_type type)
{
	const char *v = (const char *)sqlite3_column_text(s, i);
	struct json_object *o;
	const char *err;

	if (!v || (size_t)sqlite3_column_bytes(s, i) > RUN_JSON_MAX)
		return NULL;
	o = json_parse_buf(v, (size_t)sqlite3_column_bytes(s, i), &err);
	if (o && !json_object_is_type(o, type)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

static int load_tests(struct store *st, struct run *r)
{
	sqlite3_stmt *s = NULL;
	size_t k, n;
	int rc;

	rc = sqlite3_prepare_v2(st->db, "SELECT " TEST_COLUMNS " FROM tests WHERE run_id = ?"
				" ORDER BY seq", -1, &s, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	sqlite3_bind_int64(s, 1, r->id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && r->ntests < RUN_TESTS_MAX) {
		struct run_test *t = &r->tests[r->ntests++];
		double *v = test_nums(t, &n);

		store_col_text(s, 0, t->name, sizeof(t->name));
		store_col_text(s, 1, t->rw, sizeof(t->rw));
		for (k = 0; k < n; k++) {
			v[k] = sqlite3_column_type(s, 2 + (int)k) == SQLITE_NULL ?
				       NAN :
				       sqlite3_column_double(s, 2 + (int)k);
			if (!isfinite(v[k]) || v[k] < 0)
				v[k] = NAN;
		}
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : store_fail_db(st, rc);
}

static int load_run(struct store *st, sqlite3_stmt *s, struct run **out)
{
	struct run *r = run_new();
	int ret;

	*out = NULL;
	if (!r)
		return store_fail(st, -ENOMEM, NULL);
	r->id = sqlite3_column_int64(s, 0);
	store_col_text(s, 1, r->started_at, sizeof(r->started_at));
	store_col_text(s, 2, r->profile, sizeof(r->profile));
	store_col_text(s, 3, r->engine, sizeof(r->engine));
	store_col_text(s, 4, r->board, sizeof(r->board));
	store_col_text(s, 5, r->kernel, sizeof(r->kernel));
	store_col_text(s, 6, r->boot_device, sizeof(r->boot_device));
	r->device = col_json(s, 7, json_type_object);
	r->target = col_json(s, 8, json_type_object);
	r->checks = col_json(s, 9, json_type_array);
	r->findings = col_json(s, 10, json_type_array);
	store_col_text(s, 11, r->source, sizeof(r->source));
	ret = load_tests(st, r);
	if (ret) {
		run_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

/* Step s to the end, loading each row as a run into out. */
int store_runs_load(struct store *st, sqlite3_stmt *s, struct run_list *out, size_t *found)
{
	struct run *r;
	int rc, ret;

	*found = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ret = load_run(st, s, &r);
		if (!ret)
			ret = run_list_push(out, r);
		if (ret)
			return ret == -ENOMEM ? store_fail(st, ret, NULL) : ret;
		(*found)++;
	}
	return rc == SQLITE_DONE ? 0 : store_fail_db(st, rc);
}

int store_runs_fill_digests(struct store *st)
{
	char digest[RUN_DIGEST_LEN + 1];
	struct run_list l = { 0 };
	sqlite3_stmt *s = NULL, *u = NULL;
	size_t i, found;
	int rc, ret;

	rc = sqlite3_prepare_v2(st->db, "SELECT " RUN_COLUMNS " FROM runs WHERE digest IS NULL",
				-1, &s, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(st->db, "UPDATE runs SET digest = ? WHERE id = ?", -1, &u,
					NULL);
	if (rc != SQLITE_OK) {
		ret = store_fail_db(st, rc);
		goto out;
	}
	ret = store_runs_load(st, s, &l, &found);
	for (i = 0; i < l.n && !ret; i++) {
		if (run_digest(l.runs[i], digest)) {
			ret = store_fail(st, -ENOMEM, NULL);
			break;
		}
		sqlite3_reset(u);
		sqlite3_bind_text(u, 1, digest, -1, SQLITE_STATIC);
		sqlite3_bind_int64(u, 2, l.runs[i]->id);
		rc = sqlite3_step(u);
		if (rc != SQLITE_DONE)
			ret = store_fail_db(st, rc);
	}
out:
	sqlite3_finalize(s);
	sqlite3_finalize(u);
	run_list_release(&l);
	return ret;
}

int store_runs_query(struct store *st, const struct store_filter *f, struct run_list *out)
{
	sqlite3_stmt *s = NULL;
	size_t found;
	int rc, ret;

	rc = sqlite3_prepare_v2(
		st->db,
		"SELECT " RUN_COLUMNS " FROM runs WHERE"
		" " STORE_DEV_MATCH("?1")
		" AND (?2 IS NULL OR profile = ?2)"
		" AND (?3 IS NULL OR started_at >= ?3)"
		" AND (?4 IS NULL OR started_at <= ?4)"
		" ORDER BY started_at DESC, id DESC LIMIT ?5",
		-1, &s, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	store_bind_text(s, 1, f->device);
	store_bind_text(s, 2, f->profile);
	store_bind_text(s, 3, f->since);
	store_bind_until(s, 4, f->until);
	sqlite3_bind_int64(s, 5, f->limit ? (int64_t)f->limit : -1);
	ret = store_runs_load(st, s, out, &found);
	sqlite3_finalize(s);
	return ret;
}

int store_runs_get(struct store *st, const int64_t *ids, size_t n, struct run_list *out)
{
	sqlite3_stmt *s = NULL;
	size_t i, found;
	int rc, ret = 0;

	rc = sqlite3_prepare_v2(st->db, "SELECT " RUN_COLUMNS " FROM runs WHERE id = ?", -1, &s,
				NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	for (i = 0; i < n && !ret; i++) {
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, ids[i]);
		ret = store_runs_load(st, s, out, &found);
		if (!ret && !found) {
			char d[48];

			str_fmt(d, sizeof(d), "%lld", (long long)ids[i]);
			str_fmt(st->err, sizeof(st->err), "no run with id %s", d);
			ret = -ENOENT;
		}
	}
	sqlite3_finalize(s);
	return ret;
}

int store_run_latest_of(struct store *st, struct json_object *device, struct run **out)
{
	struct run_list l = { 0 };
	struct run *key = run_new();
	sqlite3_stmt *s = NULL;
	size_t found;
	int rc, ret;

	*out = NULL;
	if (!key)
		return store_fail(st, -ENOMEM, NULL);
	key->device = device; /* borrowed: only read through store_device_first() */
	rc = sqlite3_prepare_v2(
		st->db,
		"SELECT " RUN_COLUMNS " FROM runs WHERE"
		" (?1 IS NOT NULL AND dev_serial = ?1)"
		" OR (?1 IS NULL AND dev_serial IS NULL AND dev_model IS ?2 AND dev_name IS ?3)"
		" ORDER BY started_at DESC, id DESC LIMIT 1",
		-1, &s, NULL);
	if (rc != SQLITE_OK) {
		ret = store_fail_db(st, rc);
		goto out;
	}
	store_bind_text(s, 1, store_device_first(key, store_serial_paths));
	store_bind_text(s, 2, store_device_first(key, store_model_paths));
	store_bind_text(s, 3, store_device_first(key, store_name_paths));
	ret = store_runs_load(st, s, &l, &found);
	if (!ret && l.n) {
		*out = l.runs[0];
		l.runs[0] = NULL;
		l.n = 0;
	}
out:
	key->device = NULL;
	run_free(key);
	sqlite3_finalize(s);
	run_list_release(&l);
	return ret;
}
