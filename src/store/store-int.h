/* store-int.h - what the store's files share: the handle and its error helpers.
 * Not for use outside src/store/. */
#ifndef SBCDISK_STORE_INT_H
#define SBCDISK_STORE_INT_H

#include <limits.h>

#include "store/sqlite-dl.h"
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
extern const char *const store_name_paths[];
extern const char *const store_model_paths[];
extern const char *const store_serial_paths[];
extern const char *const store_transport_paths[];
/* The first non-empty string of the device object at these paths, or NULL. */
const char *store_device_first(const struct run *r, const char *const *paths);

/* Bind a text (NULL or "" binds NULL); read a text column into dst, sanitized ("" for NULL). */
void store_bind_text(sqlite3_stmt *s, int i, const char *v);
void store_col_text(sqlite3_stmt *s, int i, char *dst, size_t cap);
/* A row's texts: v[0..n) bound to the parameters first, first + 1 ...; the columns first,
 * first + 1 ... read into the buffers of cols[0..n). */
struct store_col {
	char *dst;
	size_t cap;
};
#define STORE_COL(buf) { (buf), sizeof(buf) }
void store_bind_texts(sqlite3_stmt *s, int first, const char *const *v, size_t n);
void store_col_texts(sqlite3_stmt *s, int first, const struct store_col *cols, size_t n);
/* Bind the end of a time range: a date alone (YYYY-MM-DD) takes in its whole day. */
void store_bind_until(sqlite3_stmt *s, int i, const char *until);
/* Bind a figure: a finite number, never negative (no count, size, speed or time is);
 * anything else binds NULL, unknown. */
void store_bind_num(sqlite3_stmt *s, int i, double v);
/* Bind the drive columns dev_name, dev_model, dev_serial, dev_transport (in that order, from
 * first on) from the device document of r. */
void store_bind_drive(sqlite3_stmt *s, int first, const struct run *r);

/* Step s (selecting RUN_COLUMNS) to the end, each row a run appended to out. */
int store_runs_load(struct store *st, sqlite3_stmt *s, struct run_list *out, size_t *found);

/* Give every run stored before schema 5 its digest (in the caller's transaction). */
int store_runs_fill_digests(struct store *st);

/* Set the error sentence for -errno err (detail may be NULL); returns err. */
int store_fail(struct store *st, int err, const char *detail);
/* The same from an SQLite result code. */
int store_fail_db(struct store *st, int rc);

#endif
