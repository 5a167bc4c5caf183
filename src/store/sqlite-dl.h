/* sqlite-dl.h - SQLite for the result store, opened when a command first opens the store
 * (store_sqlite_load): the calls below read as sqlite's own, through pointers. */
#ifndef SBCDISK_SQLITE_DL_H
#define SBCDISK_SQLITE_DL_H

#include <sqlite3.h>

#include "common/dlib.h"

#define SQLITE_DL_FUNCS(FN) \
	FN(sqlite3_bind_double) FN(sqlite3_bind_int) FN(sqlite3_bind_int64) FN(sqlite3_bind_null) \
	FN(sqlite3_bind_text) FN(sqlite3_busy_timeout) FN(sqlite3_changes) \
	FN(sqlite3_clear_bindings) FN(sqlite3_close) FN(sqlite3_column_bytes) \
	FN(sqlite3_column_double) FN(sqlite3_column_int) FN(sqlite3_column_int64) \
	FN(sqlite3_column_text) FN(sqlite3_column_type) FN(sqlite3_db_readonly) \
	FN(sqlite3_errcode) FN(sqlite3_errmsg) FN(sqlite3_exec) FN(sqlite3_extended_result_codes) \
	FN(sqlite3_finalize) FN(sqlite3_last_insert_rowid) FN(sqlite3_open) FN(sqlite3_open_v2) \
	FN(sqlite3_prepare_v2) FN(sqlite3_reset) FN(sqlite3_step) FN(sqlite3_system_errno)

SQLITE_DL_FUNCS(DLIB_DECLARE)

#define sqlite3_bind_double (*dl_sqlite3_bind_double)
#define sqlite3_bind_int (*dl_sqlite3_bind_int)
#define sqlite3_bind_int64 (*dl_sqlite3_bind_int64)
#define sqlite3_bind_null (*dl_sqlite3_bind_null)
#define sqlite3_bind_text (*dl_sqlite3_bind_text)
#define sqlite3_busy_timeout (*dl_sqlite3_busy_timeout)
#define sqlite3_changes (*dl_sqlite3_changes)
#define sqlite3_clear_bindings (*dl_sqlite3_clear_bindings)
#define sqlite3_close (*dl_sqlite3_close)
#define sqlite3_column_bytes (*dl_sqlite3_column_bytes)
#define sqlite3_column_double (*dl_sqlite3_column_double)
#define sqlite3_column_int (*dl_sqlite3_column_int)
#define sqlite3_column_int64 (*dl_sqlite3_column_int64)
#define sqlite3_column_text (*dl_sqlite3_column_text)
#define sqlite3_column_type (*dl_sqlite3_column_type)
#define sqlite3_db_readonly (*dl_sqlite3_db_readonly)
#define sqlite3_errcode (*dl_sqlite3_errcode)
#define sqlite3_errmsg (*dl_sqlite3_errmsg)
#define sqlite3_exec (*dl_sqlite3_exec)
#define sqlite3_extended_result_codes (*dl_sqlite3_extended_result_codes)
#define sqlite3_finalize (*dl_sqlite3_finalize)
#define sqlite3_last_insert_rowid (*dl_sqlite3_last_insert_rowid)
#define sqlite3_open (*dl_sqlite3_open)
#define sqlite3_open_v2 (*dl_sqlite3_open_v2)
#define sqlite3_prepare_v2 (*dl_sqlite3_prepare_v2)
#define sqlite3_reset (*dl_sqlite3_reset)
#define sqlite3_step (*dl_sqlite3_step)
#define sqlite3_system_errno (*dl_sqlite3_system_errno)
/* 0, or -ELIBACC/-ELIBBAD with why; store_open calls it first. */
int store_sqlite_load(char *why, size_t whycap);

#endif
