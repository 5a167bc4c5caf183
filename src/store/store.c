/* store.c - opening the result store: where it lives, WAL, busy timeout, migrations, and
 * one clear sentence for every way it can fail. A bad database is never deleted or rebuilt. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "common/dlib.h"
#include "common/util.h"
#include "store/sqlite-dl.h"
#include "store/store-int.h"
#include "store/store-schema.h"

int store_default_path(char *buf, size_t cap)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (geteuid() == 0)
		return str_copy(buf, cap, STORE_SYSTEM_PATH);
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
	case -ELIBACC:
		what = "the result store needs SQLite";
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

void store_bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v && *v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

void store_bind_texts(sqlite3_stmt *s, int first, const char *const *v, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		store_bind_text(s, first + (int)k, v[k]);
}

void store_bind_until(sqlite3_stmt *s, int i, const char *until)
{
	char end[40];

	if (until && strlen(until) == 10 && !str_fmt(end, sizeof(end), "%sT23:59:60Z", until))
		store_bind_text(s, i, end);
	else
		store_bind_text(s, i, until);
}

void store_bind_num(sqlite3_stmt *s, int i, double v)
{
	if (isfinite(v) && v >= 0)
		sqlite3_bind_double(s, i, v);
	else
		sqlite3_bind_null(s, i);
}

void store_bind_drive(sqlite3_stmt *s, int first, const struct run *r)
{
	const char *v[] = { store_device_first(r, store_name_paths),
			    store_device_first(r, store_model_paths),
			    store_device_first(r, store_serial_paths),
			    store_device_first(r, store_transport_paths) };

	store_bind_texts(s, first, v, ARRAY_SIZE(v));
}

void store_col_text(sqlite3_stmt *s, int i, char *dst, size_t cap)
{
	const unsigned char *v = sqlite3_column_text(s, i);

	str_copy(dst, cap, v ? (const char *)v : "");
	str_sanitize(dst);
}

void store_col_texts(sqlite3_stmt *s, int first, const struct store_col *cols, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		store_col_text(s, first + (int)k, cols[k].dst, cols[k].cap);
}

const char *store_strerror(const struct store *st)
{
	return st->err;
}

const char *store_warning(const struct store *st)
{
	return st->warning[0] ? st->warning : NULL;
}

static const char *file_type_name(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a regular file";
}

void store_close(struct store *st)
{
	if (!st)
		return;
	if (st->db) /* else SQLite may not even be loaded */
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

/* SQLite is opened with the store, not at start: `list`, `bench --no-save` and the health
 * check without a database never load it (docs/startup.md). */
SQLITE_DL_FUNCS(DLIB_DEFINE)
static const struct dlib_sym sqlite_syms[] = { SQLITE_DL_FUNCS(DLIB_SYM) };
static struct dlib sqlite_lib = { "libsqlite3.so.0", sqlite_syms, ARRAY_SIZE(sqlite_syms),
				  NULL };

int store_sqlite_load(char *why, size_t whycap)
{
	return dlib_open(&sqlite_lib, why, whycap);
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

/* The oldest schema the reads work on as it is (the attachment columns of schema 3). */
#define STORE_READ_SCHEMA 3

/* A database this program may use: a version it knows, or no table at all. */
static int check_version(struct store *st, int version)
{
	char d[96];

	if (version <= STORE_SCHEMA_VERSION)
		return 0;
	str_fmt(d, sizeof(d), "its schema %d is newer than this program's %d", version,
		STORE_SCHEMA_VERSION);
	return store_fail(st, -EPROTO, d);
}

/* Size of path+suffix: -ENOENT when absent. */
static int companion_size(const struct store *st, const char *suffix, off_t *size)
{
	char p[PATH_MAX + 16];
	struct stat sb;

	if (str_fmt(p, sizeof(p), "%s%s", st->path, suffix))
		return -ENAMETOOLONG;
	if (lstat(p, &sb))
		return -errno;
	*size = sb.st_size;
	return 0;
}

/*
 * Open for reading without creating anything: a WAL database needs its -shm index to read
 * the -wal, and SQLite creates the index when it is missing (with the database's mode, so a
 * 0444 database got 0444 companions that stopped every later writer, and on a full disk the
 * read failed). When there is no -shm no writer has the database open and everything is in
 * the main file, which is then opened immutable; a -wal left with data and no index (a
 * writer that died on a medium now read-only) is said, not hidden.
 */
static int open_read_conn(struct store *st, int busy_ms, int *version, bool locking)
{
	char uri[PATH_MAX + 32];
	off_t wal = 0, shm = 0;
	bool has_shm = companion_size(st, "-shm", &shm) == 0;
	int ret;

	if (companion_size(st, "-wal", &wal))
		wal = 0;
	if (has_shm || locking) {
		ret = open_db(st, st->path, SQLITE_OPEN_READONLY, busy_ms);
		if (!ret)
			ret = store_schema_get(st->db, version);
		if (ret != -EACCES && ret != -EROFS)
			return ret;
		/* an index we may not read: the main file alone */
		sqlite3_close(st->db);
		st->db = NULL;
		st->err[0] = '\0';
	}
	if (wal > 0)
		str_fmt(st->warning, sizeof(st->warning),
			"'%s-wal' holds changes that cannot be read without writing beside the "
			"database: runs may be missing", st->path);
	ret = immutable_uri(st->path, uri, sizeof(uri));
	if (!ret)
		ret = open_db(st, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, busy_ms);
	if (!ret)
		ret = store_schema_get(st->db, version);
	if ((ret == -EBADMSG || ret == -EIO) && companion_size(st, "-shm", &shm) == 0) {
		/* a writer came meanwhile and is rewriting the file: read through its index */
		sqlite3_close(st->db);
		st->db = NULL;
		st->err[0] = st->warning[0] = '\0';
		ret = open_db(st, st->path, SQLITE_OPEN_READONLY, busy_ms);
		if (!ret)
			ret = store_schema_get(st->db, version);
	}
	return ret;
}

/* Refusals of an existing file come first, before anything is written to it. */
static int open_checked(struct store *st, int busy_ms, int *version, bool locking)
{
	int ret = open_read_conn(st, busy_ms, version, locking);

	if (ret == -EPROTO)
		return store_fail(st, ret, "it holds tables but no schema_migrations table");
	if (ret)
		return st->err[0] ? ret : store_fail_db(st, sqlite3_errcode(st->db));
	return check_version(st, *version);
}

/* The whole file read once: a writer adds nothing to a damaged database (where an insert
 * that reaches a broken page spreads the damage), as a reader that meets it refuses it. */
static int check_intact(struct store *st)
{
	sqlite3_stmt *s = NULL;
	const unsigned char *v;
	int rc, ret = 0;

	rc = sqlite3_prepare_v2(st->db, "PRAGMA quick_check(1)", -1, &s, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		v = sqlite3_column_text(s, 0);
		if (!v || strcmp((const char *)v, "ok"))
			ret = store_fail(st, -EBADMSG, "SQLite's quick_check finds it damaged");
	} else if (rc != SQLITE_DONE) {
		ret = store_fail_db(st, rc);
	}
	sqlite3_finalize(s);
	return ret;
}

static int open_write(struct store *st, int busy_ms, bool exists)
{
	sqlite3_stmt *s = NULL;
	int ret, rc, version = 0;

	if (exists) {
		/* a foreign, corrupt or newer file is refused as it is (journal_mode=WAL below
		 * would rewrite its header); read with locks, as other writers may be at work */
		ret = open_checked(st, busy_ms, &version, true);
		if (!ret)
			ret = check_intact(st);
		sqlite3_close(st->db);
		st->db = NULL;
		st->warning[0] = '\0';
		if (ret)
			return ret;
	}
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

static int open_read(struct store *st, int busy_ms)
{
	int ret, version = 0;

	ret = open_checked(st, busy_ms, &version, false);
	if (ret || version == STORE_SCHEMA_VERSION)
		return ret;
	/* An older database is migrated once, then read like any other. */
	sqlite3_close(st->db);
	st->db = NULL;
	st->warning[0] = '\0';
	ret = open_write(st, busy_ms, true);
	sqlite3_close(st->db);
	st->db = NULL;
	if ((ret == -EROFS || ret == -EACCES || ret == -ENOSPC) && version >= STORE_READ_SCHEMA) {
		/* what cannot be migrated here (read-only, another user's, a full disk) is still
		 * read as it is: a read must not need to write */
		char d[sizeof(st->warning)];

		str_fmt(d, sizeof(d), "schema %d was not brought to %d (%s): read as it is", version,
			STORE_SCHEMA_VERSION, st->err);
		st->err[0] = '\0';
		ret = open_read_conn(st, busy_ms, &version, false);
		if (!st->warning[0])
			str_copy(st->warning, sizeof(st->warning), d);
		return ret;
	}
	if (ret) {
		char d[sizeof(st->err)];

		str_fmt(d, sizeof(d), "schema %d needs a migration: %s", version, st->err);
		str_copy(st->err, sizeof(st->err), d);
		return ret;
	}
	return open_read_conn(st, busy_ms, &version, false);
}

/* The directory a new database goes into must take it: said in those words. */
static int check_new(struct store *st)
{
	char dir[PATH_MAX], *slash;
	struct statvfs vfs;
	int ret;

	ret = mkdir_parents(st->path);
	str_copy(dir, sizeof(dir), st->path);
	slash = strrchr(dir, '/');
	if (!slash)
		str_copy(dir, sizeof(dir), ".");
	else
		slash[slash == dir ? 1 : 0] = '\0';
	if (ret == -EROFS || (!ret && !statvfs(dir, &vfs) && (vfs.f_flag & ST_RDONLY))) {
		str_fmt(st->err, sizeof(st->err), "cannot create it: the directory '%s' is on a "
			"read-only file system", dir);
		return -EROFS;
	}
	if (!ret && access(dir, W_OK))
		ret = -errno;
	if (ret) {
		str_fmt(st->err, sizeof(st->err), "cannot create it in '%s': %s", dir,
			strerror(-ret));
		return ret == -ENOSPC ? -ENOSPC : -EACCES;
	}
	return 0;
}

/*
 * The database is a regular file, or does not exist yet; so are its -wal, -shm and -journal
 * files. A FIFO hung the open, a device got a "-journal" beside it in /dev.
 */
static int check_files(struct store *st, bool *exists)
{
	static const char *const companions[] = { "-wal", "-shm", "-journal" };
	char p[PATH_MAX + 16];
	struct stat sb;
	size_t i;

	*exists = false;
	if (!st->path[0]) {
		str_copy(st->err, sizeof(st->err), "an empty path names no database");
		return -EINVAL;
	}
	if (stat(st->path, &sb)) {
		if (errno == ENOENT)
			return 0;
		return store_fail(st, -EACCES, strerror(errno));
	}
	if (!S_ISREG(sb.st_mode)) {
		str_fmt(st->err, sizeof(st->err), "not a regular file (%s): a database is a file",
			file_type_name(sb.st_mode));
		return -EINVAL;
	}
	*exists = true;
	for (i = 0; i < ARRAY_SIZE(companions); i++) {
		str_fmt(p, sizeof(p), "%s%s", st->path, companions[i]);
		if (lstat(p, &sb) == 0 && !S_ISREG(sb.st_mode)) {
			str_fmt(st->err, sizeof(st->err), "'%s' is not a regular file (%s): not "
				"touching the database", p, file_type_name(sb.st_mode));
			return -EINVAL;
		}
	}
	return 0;
}

int store_open(const char *path, enum store_mode mode, int busy_ms, struct store **out,
	       char *why, size_t why_cap)
{
	struct store *st = calloc(1, sizeof(*st));
	bool exists;
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
	ret = check_files(st, &exists);
	if (!ret && !exists && !st->writable)
		ret = store_fail(st, -ENOENT, "no results have been stored yet");
	else if (!ret && !exists)
		ret = check_new(st);
	if (!ret) {
		char lib[160];

		if (store_sqlite_load(lib, sizeof(lib)))
			ret = store_fail(st, -ELIBACC, lib);
	}
	if (!ret)
		ret = st->writable ? open_write(st, busy_ms, exists) : open_read(st, busy_ms);
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
