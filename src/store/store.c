/* store.c - opening the result store: where it lives, WAL, busy timeout, migrations, and
 * one clear sentence for every way it can fail. A bad database is never deleted or rebuilt. */
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "store/store-priv.h"
#include "store/store-schema.h"

int store_default_path(char *buf, size_t cap)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (geteuid() == 0)
		return str_copy(buf, cap, "/var/lib/sbcdisk/results.db");
	if (xdg && xdg[0] == '/')
		return str_fmt(buf, cap, "%s/sbcdisk/results.db", xdg);
	if (!home || home[0] != '/')
		return -ENOENT;
	return str_fmt(buf, cap, "%s/.local/share/sbcdisk/results.db", home);
}

int store_fail(struct store *st, int err, const char *detail)
{
	const char *what;

	switch (err) {
	case -EBUSY:
		what = "the database is locked by another process";
		break;
	case -EROFS:
		what = "the database is read-only";
		break;
	case -EBADMSG:
		what = "not an SQLite database, or it is corrupt (it was left as it is)";
		break;
	case -ENOSPC:
		what = "the disk is full (nothing was stored)";
		break;
	case -EACCES:
		what = "cannot open the database";
		break;
	case -EPROTO:
		what = "not a database of this sbcdisk";
		break;
	case -ENOMEM:
		what = "out of memory";
		break;
	default:
		what = "database error";
		break;
	}
	if (detail && *detail)
		str_fmt(st->err, sizeof(st->err), "%s: %s", what, detail);
	else
		str_copy(st->err, sizeof(st->err), what);
	return err;
}

int store_fail_db(struct store *st, int rc)
{
	int err = store_sqlite_errno(rc);

	if ((rc & 0xff) == SQLITE_IOERR || (rc & 0xff) == SQLITE_CANTOPEN) {
		/* the system's reason says more: a full disk shows up as an I/O error */
		int sys = sqlite3_system_errno(st->db);

		if (sys == ENOSPC || sys == EDQUOT)
			err = -ENOSPC;
		else if (sys == EROFS)
			err = -EROFS;
	}

	/* SQLite's own words add something only for the unexpected cases */
	return store_fail(st, err, err == -EIO || err == -EACCES ? sqlite3_errmsg(st->db) : NULL);
}

const char *store_strerror(const struct store *st)
{
	return st->err;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	free(st);
}

static int mkdir_parents(const char *path)
{
	char dir[PATH_MAX];
	char *p;

	if (str_copy(dir, sizeof(dir), path))
		return -ENAMETOOLONG;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int exec(struct store *st, const char *sql)
{
	int rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_fail_db(st, rc);
}

/* Bring the schema to the newest version inside one write transaction. */
static int store_migrate(struct store *st)
{
	int ret, version = 0;

	ret = exec(st, "BEGIN IMMEDIATE");
	if (ret)
		return ret;
	ret = store_schema_get(st->db, &version);
	if (ret == -EPROTO) {
		store_fail(st, ret, "it holds tables but no schema_migrations table");
	} else if (ret) {
		store_fail_db(st, sqlite3_errcode(st->db));
	} else if (version > STORE_SCHEMA_VERSION) {
		char d[96];

		str_fmt(d, sizeof(d), "its schema %d is newer than this program's %d", version,
			STORE_SCHEMA_VERSION);
		ret = store_fail(st, -EPROTO, d);
	} else if (version < STORE_SCHEMA_VERSION) {
		ret = store_schema_migrate(st->db, version, STORE_SCHEMA_VERSION);
		if (ret)
			store_fail_db(st, sqlite3_errcode(st->db));
		else if (version < 5)
			ret = store_runs_fill_digests(st);
	}
	if (!ret)
		ret = exec(st, "COMMIT");
	if (ret)
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

static int open_db(struct store *st, const char *name, int flags, int busy_ms)
{
	int rc;

	rc = sqlite3_open_v2(name, &st->db, flags, NULL);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, busy_ms);
	return 0;
}

static int open_write(struct store *st, int busy_ms)
{
	sqlite3_stmt *s = NULL;
	int ret, rc;

	ret = mkdir_parents(st->path);
	if (ret)
		return store_fail(st, ret == -EROFS ? -EROFS : -EACCES, strerror(-ret));
	ret = open_db(st, st->path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, busy_ms);
	if (ret)
		return ret;
	if (sqlite3_db_readonly(st->db, "main") == 1)
		return store_fail(st, -EROFS, NULL);
	/* The pragma reads the header: a file that is not a database fails here. */
	rc = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode=WAL", -1, &s, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW || rc == SQLITE_DONE)
			rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_OK)
		return store_fail_db(st, rc);
	ret = exec(st, "PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL");
	if (ret)
		return ret;
	return store_migrate(st);
}

/* "file:" URI of path with the characters URIs reserve escaped. */
static int immutable_uri(const char *path, char *buf, size_t cap)
{
	size_t n = 0;
	int ret = str_copy(buf, cap, "file:");

	for (n = strlen(buf); !ret && *path; path++) {
		if (n + 4 >= cap)
			return -E2BIG;
		if (*path == '?' || *path == '#' || *path == '%')
			n += (size_t)snprintf(buf + n, cap - n, "%%%02X", (unsigned char)*path);
		else
			buf[n++] = *path;
	}
	buf[n] = '\0';
	return ret ? ret : str_fmt(buf + n, cap - n, "?immutable=1");
}

static int open_read(struct store *st, int busy_ms)
{
	char uri[PATH_MAX + 32];
	int ret, version = 0;

	if (access(st->path, F_OK))
		return store_fail(st, -ENOENT, "no results have been stored yet");
	ret = open_db(st, st->path, SQLITE_OPEN_READONLY, busy_ms);
	if (!ret)
		ret = store_schema_get(st->db, &version);
	if (ret == -EACCES || ret == -EROFS) {
		/* WAL needs its -shm file; on a read-only medium nobody else can write */
		sqlite3_close(st->db);
		st->db = NULL;
		ret = immutable_uri(st->path, uri, sizeof(uri));
		if (!ret)
			ret = open_db(st, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, busy_ms);
		if (!ret)
			ret = store_schema_get(st->db, &version);
	}
	if (ret == -EPROTO)
		return store_fail(st, ret, "it holds tables but no schema_migrations table");
	if (ret)
		return st->err[0] ? ret : store_fail_db(st, sqlite3_errcode(st->db));
	if (version > STORE_SCHEMA_VERSION) {
		char d[96];

		str_fmt(d, sizeof(d), "its schema %d is newer than this program's %d", version,
			STORE_SCHEMA_VERSION);
		return store_fail(st, -EPROTO, d);
	}
	if (version < STORE_SCHEMA_VERSION) {
		/* An older database is migrated once, then read like any other. */
		sqlite3_close(st->db);
		st->db = NULL;
		ret = open_write(st, busy_ms);
		sqlite3_close(st->db);
		st->db = NULL;
		if (ret) {
			char d[sizeof(st->err)];

			str_fmt(d, sizeof(d), "schema %d needs a migration: %s", version, st->err);
			str_copy(st->err, sizeof(st->err), d);
			return ret;
		}
		ret = open_db(st, st->path, SQLITE_OPEN_READONLY, busy_ms);
	}
	return ret;
}

int store_open(const char *path, enum store_mode mode, int busy_ms, struct store **out,
	       char *why, size_t why_cap)
{
	struct store *st = calloc(1, sizeof(*st));
	int ret;

	*out = NULL;
	if (!st) {
		str_copy(why, why_cap, "out of memory");
		return -ENOMEM;
	}
	if (str_copy(st->path, sizeof(st->path), path)) {
		ret = store_fail(st, -EACCES, "the path is too long");
		goto out;
	}
	st->writable = mode == STORE_WRITE;
	if (busy_ms <= 0)
		busy_ms = STORE_BUSY_MS;
	ret = st->writable ? open_write(st, busy_ms) : open_read(st, busy_ms);
out:
	if (ret) {
		str_copy(why, why_cap, st->err);
		store_close(st);
		return ret;
	}
	*out = st;
	return 0;
}

int store_schema_version(struct store *st, int *version)
{
	int ret = store_schema_get(st->db, version);

	return ret ? store_fail_db(st, sqlite3_errcode(st->db)) : 0;
}
