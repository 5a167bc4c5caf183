/* store-int.h - what the store's files share: the handle and its error helpers.
 * Not for use outside src/store/. */
#ifndef SBCDISK_STORE_INT_H
#define SBCDISK_STORE_INT_H

#include <limits.h>
#include <sqlite3.h>

#include "store/store.h"

struct store {
	sqlite3 *db;
	bool writable;
	char path[PATH_MAX];
	char err[320];
	char warning[PATH_MAX + 128]; /* what a read could not see; "" when nothing */
};

/* The columns a run is loaded from (store_runs_load()), in its order. */
#define RUN_COLUMNS                                                                           \
	"id, started_at, profile, engine, board, kernel, boot_device, device_json, target_json," \
	" checks_json, findings_json, source"

/* The device paths the drive columns of a run come from, each first one present wins. */
extern const char *const store_model_paths[];
extern const char *const store_serial_paths[];
/* The first non-empty string of the device object at these paths, or NULL. */
const char *store_device_first(const struct run *r, const char *const *paths);

/* Bind a text (NULL or "" binds NULL); read a text column into dst, sanitized ("" for NULL). */
void store_bind_text(sqlite3_stmt *s, int i, const char *v);
void store_col_text(sqlite3_stmt *s, int i, char *dst, size_t cap);

/* Step s (selecting RUN_COLUMNS) to the end, each row a run appended to out. */
int store_runs_load(struct store *st, sqlite3_stmt *s, struct run_list *out, size_t *found);

/* Give every run stored before schema 5 its digest (in the caller's transaction). */
int store_runs_fill_digests(struct store *st);

/* Set the error sentence for -errno err (detail may be NULL); returns err. */
int store_fail(struct store *st, int err, const char *detail);
/* The same from an SQLite result code. */
int store_fail_db(struct store *st, int rc);

#endif
