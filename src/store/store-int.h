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

/* Give every run stored before schema 5 its digest (in the caller's transaction). */
int store_runs_fill_digests(struct store *st);

/* Set the error sentence for -errno err (detail may be NULL); returns err. */
int store_fail(struct store *st, int err, const char *detail);
/* The same from an SQLite result code. */
int store_fail_db(struct store *st, int rc);

#endif
