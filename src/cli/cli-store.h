/* cli-store.h - what the commands that use the result store share: --db, opening with one
 * clear message, reading a run id list, writing a file atomically. */
#ifndef SBCDISK_CLI_STORE_H
#define SBCDISK_CLI_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "store/store.h"

struct cli_ctx;

/*
 * Open the store at db (NULL: the default path). Prints
 * "sbcdisk: CMD: database 'PATH': <why>" on failure, except for a missing database in
 * STORE_READ mode when missing_ok. Returns 0 or -errno.
 */
int cli_store_open(const char *cmd, const char *db, enum store_mode mode, bool missing_ok,
		   struct store **st);
/* Print the store's last error for CMD. Returns EXIT_FAIL. */
int cli_store_error(const char *cmd, struct store *st);

/* The runs named by ids (in that order), or else those matching f, oldest first (f->limit 0:
 * at most COMPARE_RUNS_MAX). Prints the error; returns an exit code. */
int cli_select_runs(const char *cmd, struct store *st, char **ids, int nids,
		    struct store_filter *f, struct run_list *l);
/* compare's table (its JSON with --json) of the runs named (run ids), else chosen by f
 * (oldest first), from db (NULL: the default), and the boot times of their drives. An exit
 * status. */
int cli_compare_show(struct cli_ctx *ctx, const char *db, char **names, int nnames,
		     struct store_filter *f);

/* A run id: a positive decimal number. 0 or -EINVAL. */
int cli_parse_run_id(const char *s, int64_t *id);

/* Write to path through the atomic writer ("-" is stdout): only a regular file or a new
 * name, never the database db (NULL: the default one) or its -wal/-shm. write() returns 0
 * or -errno. 0 or -errno (cli_write_strerror() says it in the user's terms). */
int cli_write_file(const char *path, const char *db, int (*write)(FILE *f, void *arg),
		   void *arg);
const char *cli_write_strerror(int err);

/* Read a whole file ("-" is stdin) of at most cap bytes; the caller frees *buf. */
int cli_read_file(const char *path, size_t cap, char **buf, size_t *len);

/*
 * Save a bench document (`bench --json`) with the device facts of its target disk, the board,
 * the kernel, the root device and the doctor's findings at this moment. Prints one message
 * when it fails. 0 (*id is the new run) or -errno.
 */
struct cli_ctx;
int cli_bench_save(struct cli_ctx *ctx, const char *db, struct json_object *bench, int64_t *id);
/* The same, with judge: first print the judgement of the drive's path (the run's line of
 * store/verdict.h) on stdout; without save: only that. 0 or -errno. */
int cli_bench_finish(struct cli_ctx *ctx, const char *db, struct json_object *bench, bool judge,
		     bool save, int64_t *id);
/* The same, first calling print with the run made of the bench (NULL when none could be
 * made), so that the figures are shown with their verdicts before the judgement. */
struct run;
typedef void (*cli_bench_print_fn)(const struct run *judged, void *arg);
int cli_bench_finish_print(struct cli_ctx *ctx, const char *db, struct json_object *bench,
			   bool judge, bool save, cli_bench_print_fn print, void *arg, int64_t *id);

#endif
