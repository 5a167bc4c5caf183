/* store-schema.c - every schema version of the result store, as the steps that build it.
 * A database of any earlier version is brought forward step by step, in one transaction. */
#include <errno.h>

#include "common/log.h"
#include "common/util.h"
#include "store/store-schema.h"
#include "store/store.h"

struct migration {
	int version;
	const char *description;
	const char *sql;
};

static const struct migration migrations[] = {
	{ 1, "runs and their tests",
	  "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL,"
	  " description TEXT NOT NULL);"
	  "CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at TEXT NOT NULL,"
	  " profile TEXT NOT NULL, engine TEXT, board TEXT, kernel TEXT, boot_device TEXT,"
	  " dev_name TEXT, dev_model TEXT, dev_serial TEXT, dev_transport TEXT,"
	  " device_json TEXT, target_json TEXT, checks_json TEXT);"
	  "CREATE TABLE tests (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	  " seq INTEGER NOT NULL, name TEXT NOT NULL, rw TEXT NOT NULL, block_bytes REAL,"
	  " queue_depth REAL, threads REAL, runs REAL, ios REAL, bw REAL, bw_min REAL,"
	  " bw_max REAL, bw_cv REAL, iops REAL, lat_mean_us REAL, lat_p50_us REAL,"
	  " lat_p90_us REAL, lat_p99_us REAL, lat_p999_us REAL, lat_max_us REAL,"
	  " PRIMARY KEY (run_id, seq));" },
	{ 2, "doctor findings, import source, CPU time",
	  "ALTER TABLE runs ADD COLUMN findings_json TEXT;"
	  "ALTER TABLE runs ADD COLUMN source TEXT;"
	  "ALTER TABLE tests ADD COLUMN cpu_user_s REAL;"
	  "ALTER TABLE tests ADD COLUMN cpu_sys_s REAL;" },
	{ 3, "attachment columns and indexes",
	  "ALTER TABLE runs ADD COLUMN usb_id TEXT;"
	  "ALTER TABLE runs ADD COLUMN usb_speed_mbps REAL;"
	  "ALTER TABLE runs ADD COLUMN usb_driver TEXT;"
	  "ALTER TABLE runs ADD COLUMN bridge TEXT;"
	  "ALTER TABLE runs ADD COLUMN pcie_link TEXT;"
	  "ALTER TABLE runs ADD COLUMN sd_id TEXT;"
	  "ALTER TABLE runs ADD COLUMN fstype TEXT;"
	  /* fill them for the runs stored before: the device document has it all */
	  "UPDATE runs SET " STORE_ATTACH_SET
	  " WHERE json_valid(device_json);"
	  "CREATE INDEX runs_started ON runs(started_at);"
	  "CREATE INDEX runs_device ON runs(dev_serial, dev_model);" },
	{ 4, "fingerprints: the same run is stored once",
	  "ALTER TABLE runs ADD COLUMN fingerprint TEXT;"
	  "UPDATE runs SET fingerprint = " STORE_FINGERPRINT ";"
	  "CREATE INDEX runs_fingerprint ON runs(fingerprint);" },
	/* The fingerprint ignored the engine and the latencies and made new measurements vanish;
	 * it is no longer written or read. The digests of older runs are filled in by the store
	 * (store_runs_fill_digests()): SQL has no SHA-256. */
	{ 5, "digests: an import skips the runs it brings again, a new run is always kept",
	  "ALTER TABLE runs ADD COLUMN digest TEXT;"
	  "CREATE INDEX runs_digest ON runs(digest);" },
	/* What fix --apply wrote, for the before/after comparison: the device by the columns a
	 * run has (STORE_DEV_KEY), the boot it was written in, and the last run id at the time,
	 * so that a run stored afterwards is known to be after it whatever its clock said. */
	{ 6, "fixes: what fix --apply wrote, when, to which device; the boot of each run",
	  "CREATE TABLE fixes (id INTEGER PRIMARY KEY, applied_at TEXT NOT NULL,"
	  " kind TEXT NOT NULL, change TEXT, file TEXT, boot_id TEXT,"
	  " runtime INTEGER NOT NULL DEFAULT 0, dev_name TEXT, dev_model TEXT, dev_serial TEXT,"
	  " usb_id TEXT, uas_resets INTEGER, runs_max INTEGER NOT NULL DEFAULT 0);"
	  "CREATE INDEX fixes_device ON fixes(dev_serial, dev_model);"
	  "ALTER TABLE runs ADD COLUMN boot_id TEXT;" },
	/* `boot time --record`: one row per boot (its boot id), the disk holding / with the
	 * columns a run has, so that a boot and a run of one drive are known as one drive, and
	 * the attachment in words, by which history --boot groups the boots of a drive. */
	{ 7, "boot times: one row per boot, with the disk it booted from",
	  "CREATE TABLE boot_times (id INTEGER PRIMARY KEY, boot_id TEXT NOT NULL UNIQUE,"
	  " recorded_at TEXT NOT NULL, kernel_s REAL, initrd_s REAL, userspace_s REAL,"
	  " total_s REAL NOT NULL, firmware_s REAL, loader_s REAL, target TEXT, board TEXT,"
	  " kernel TEXT, root_device TEXT, dev_name TEXT, dev_model TEXT, dev_serial TEXT,"
	  " dev_transport TEXT, dev_label TEXT, attachment TEXT, device_json TEXT, usb_id TEXT,"
	  " usb_speed_mbps REAL, usb_driver TEXT, bridge TEXT, pcie_link TEXT, sd_id TEXT,"
	  " fstype TEXT);"
	  "CREATE INDEX boot_times_device ON boot_times(dev_serial, dev_model);" },
	/* `move --apply`: which drive the system was copied from and to, by the columns a run
	 * has, so that the health check after the reboot can tell the move done and show the
	 * stored runs of the two drives side by side. */
	{ 8, "moves: the source and target drives of move --apply, and when",
	  "CREATE TABLE moves (id INTEGER PRIMARY KEY, moved_at TEXT NOT NULL,"
	  " src_name TEXT, src_model TEXT, src_serial TEXT, dst_name TEXT, dst_model TEXT,"
	  " dst_serial TEXT, tryboot INTEGER NOT NULL DEFAULT 0);" },
};

_Static_assert(sizeof(migrations) / sizeof(migrations[0]) == STORE_SCHEMA_VERSION,
	       "one migration per schema version");

int store_sqlite_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return -EBADMSG;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_NOMEM:
		return -ENOMEM;
	default:
		return -EIO;
	}
}

int store_schema_get(sqlite3 *db, int *version)
{
	sqlite3_stmt *st = NULL;
	int rc, ours = 0, tables = 0;

	*version = 0;
	rc = sqlite3_prepare_v2(db,
				"SELECT count(*), count(CASE name WHEN 'schema_migrations' THEN 1 END)"
				" FROM sqlite_master WHERE type = 'table'",
				-1, &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		tables = sqlite3_column_int(st, 0);
		ours = sqlite3_column_int(st, 1);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_OK)
		return store_sqlite_errno(rc);
	if (!tables)
		return 0;
	if (!ours)
		return -EPROTO;
	rc = sqlite3_prepare_v2(db, "SELECT max(version) FROM schema_migrations", -1, &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		*version = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : store_sqlite_errno(rc);
}

int store_schema_migrate(sqlite3 *db, int from, int to)
{
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_OK, v;

	for (v = from + 1; v <= to && v <= STORE_SCHEMA_VERSION; v++) {
		const struct migration *m = &migrations[v - 1];

		log_debug("store: migrating to schema %d (%s)", m->version, m->description);
		rc = sqlite3_exec(db, m->sql, NULL, NULL, NULL);
		if (rc != SQLITE_OK)
			break;
		rc = sqlite3_prepare_v2(db,
					"INSERT INTO schema_migrations (version, applied_at, description)"
					" VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?)",
					-1, &st, NULL);
		if (rc != SQLITE_OK)
			break;
		sqlite3_bind_int(st, 1, m->version);
		sqlite3_bind_text(st, 2, m->description, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		st = NULL;
		if (rc != SQLITE_DONE)
			break;
		rc = SQLITE_OK;
	}
	return rc == SQLITE_OK ? 0 : store_sqlite_errno(rc);
}
