/* store.h - the result store: benchmark runs in SQLite, with a versioned schema.
 * Writes are transactions in WAL mode; reads open the database read-only. */
#ifndef SBCDISK_STORE_H
#define SBCDISK_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/run.h"

struct store;

/* The newest schema this program writes (store-schema.c holds every migration). */
#define STORE_SCHEMA_VERSION 8
/* How long a write waits for another process's lock: a writer holds it for milliseconds, but
 * on a loaded 2-core board 200 benches saving at once waited more than 3 s (bench-concurrent
 * lost 2 of 200 runs with 3000). */
#define STORE_BUSY_MS 10000

enum store_mode {
	STORE_READ,  /* read-only; the file must exist (-ENOENT otherwise) */
	STORE_WRITE, /* created with its directory when missing, migrated to the newest schema */
};

/* The default database: /var/lib/sbcdisk/results.db for root, else
 * $XDG_DATA_HOME/sbcdisk/results.db ($HOME/.local/share when XDG_DATA_HOME is unset). */
int store_default_path(char *buf, size_t cap);
/* root's database, also where a captured tree keeps its own (below its sysroot) */
#define STORE_SYSTEM_PATH "/var/lib/sbcdisk/results.db"

/*
 * Open path: a regular file, or for STORE_WRITE a name that does not exist yet. Nothing is
 * written before the file is known to be a database of ours, and a read writes nothing at
 * all. 0, or -errno with a sentence in why: -EINVAL (an empty path, or not a regular file),
 * -ENOENT (read: no database yet), -EBUSY (locked), -EROFS (read-only), -EBADMSG (not a
 * database or corrupt: left untouched), -EPROTO (a newer schema, or not sbcdisk's
 * database), -ENOSPC, -EACCES, -EIO.
 * busy_ms: 0 for STORE_BUSY_MS. The caller closes *out.
 */
int store_open(const char *path, enum store_mode mode, int busy_ms, struct store **out,
	       char *why, size_t why_cap);
void store_close(struct store *st);

/* The last error of st as a sentence ("database is locked by another process"). */
const char *store_strerror(const struct store *st);

/* What the open database may not show (unmerged changes that a read could not merge
 * without writing), as a sentence; NULL when nothing. */
const char *store_warning(const struct store *st);

/* The schema version of the open database. */
int store_schema_version(struct store *st, int *version);

enum store_add {
	STORE_ADD_NEW,    /* new measurements: each is a run of its own, however alike */
	STORE_ADD_IMPORT, /* runs from a file: a run stored already (the same document) is not
			   * stored again */
};

/*
 * Add runs in one transaction: all or none. ids (may be NULL) receives the new id of each
 * run, or for STORE_ADD_IMPORT the id a run was stored under before, and then dup[i] (may be
 * NULL) is true. The same run is the same whole document (run_digest()), so an import of ten
 * identical runs into a database that holds three of them adds seven.
 */
int store_runs_add(struct store *st, struct run *const *runs, size_t n, enum store_add how,
		   int64_t *ids, bool *dup);

/* The next run to store (the store frees it), in *r. 0 or -errno. */
typedef int (*store_next_fn)(void *arg, struct run **r);
/* store_runs_add() for n runs that next() gives one at a time: an import of any size holds
 * one run in memory, not all of them. */
int store_runs_add_from(struct store *st, size_t n, store_next_fn next, void *arg,
			enum store_add how, int64_t *ids, bool *dup);

struct store_filter {
	const char *device;  /* substring of name, model, serial or VID:PID; NULL for any */
	const char *profile; /* exact; NULL for any */
	const char *since;   /* "YYYY-MM-DD" or a full time; NULL for any */
	const char *until;   /* inclusive: a date means the whole day */
	size_t limit;        /* 0 for all */
};

/* Runs matching f, newest first, appended to out. */
int store_runs_query(struct store *st, const struct store_filter *f, struct run_list *out);
/* The runs with these ids, in this order. -ENOENT names the first missing id in the error. */
int store_runs_get(struct store *st, const int64_t *ids, size_t n, struct run_list *out);

/*
 * What `fix --apply` (and `fix undo --apply`) wrote, kept so that the runs after it can be
 * compared with the runs before it. The drive is known by the columns a run has: serial and
 * model, else model and USB id, else the USB id.
 */
#define STORE_FIX_TEXT_MAX 256
struct store_fix {
	int64_t id;                      /* 0 until stored */
	char applied_at[32];             /* "2026-11-30T10:00:00Z"; "" on add: now */
	char kind[16];                   /* "uas", "pcie-gen", "undo" */
	char change[STORE_FIX_TEXT_MAX]; /* "usb-storage.quirks=152d:0578:u" */
	char file[STORE_FIX_TEXT_MAX];   /* the boot file written */
	char boot_id[40];                /* the boot it was written in; "" unknown */
	bool runtime;                    /* in effect at once (--now), not after a reboot */
	char dev_name[64];
	char dev_model[RUN_TEXT_MAX];
	char dev_serial[RUN_TEXT_MAX];
	char usb_id[16];                 /* "152d:0578" */
	long uas_resets;                 /* UAS resets in the kernel log of that boot; -1 unknown */
	int64_t runs_max;                /* the newest run id when it was written */
};

/* Fill the drive columns of f from a DEVICE object of `list --json` the way a run's are
 * filled; a usb_id set already is kept when the device has none. */
void store_fix_set_device(struct store_fix *f, struct json_object *device);
/* Store f (its id, applied_at and runs_max are set). 0 or -errno. */
int store_fix_add(struct store *st, struct store_fix *f);
/* The fixes, newest first (at most limit, 0 for all), whose drive matches device (as
 * store_filter's device; NULL for any): *out is allocated (the caller frees it), n set.
 * A database too old to hold fixes gives none. */
int store_fixes_query(struct store *st, const char *device, size_t limit,
		      struct store_fix **out, size_t *n);
/* The fixes of the drives of these runs (a fix's drive is that of some run in ids): in
 * *of_run[i] the first of ids with that drive. Oldest first. */
int store_fixes_of_runs(struct store *st, const int64_t *ids, size_t nids,
			struct store_fix **out, int64_t **of_run, size_t *n);
/* The newest fix of the drive of run run_id that was written before the run: 0, or -ENOENT. */
int store_fix_before_run(struct store *st, int64_t run_id, struct store_fix *f);
/*
 * The runs around fix f with profile (NULL: the profile of the first run after it): *before
 * the last run of its drive before it, *after the first one after it (a later boot, unless
 * the fix took effect at once) and before the drive's next fix. Each NULL when there is
 * none; the caller frees them. -ENOENT when neither exists.
 */
int store_fix_runs(struct store *st, const struct store_fix *f, const char *profile,
		   struct run **before, struct run **after);
/* Whether a run of f's drive is stored from before f (*found). */
int store_fix_has_run_before(struct store *st, const struct store_fix *f, bool *found);

/*
 * The newest run of the drive that device (the DEVICE object of `list --json`) describes:
 * the same serial when it has one, else the same model and name. *out (the caller frees it)
 * is NULL when there is none. 0 or -errno.
 */
int store_run_latest_of(struct store *st, struct json_object *device, struct run **out);

/*
 * One boot's time as systemd measured it (`boot time --record`), stored once per boot: the
 * boot id is the key. The disk holding / is kept as `list` saw it, with the drive columns a
 * run has (serial and model, else model and USB id) and its attachment in words
 * (run_attach_summary()): history --boot groups the boots by that drive and attachment.
 */
struct store_boot {
	char boot_id[40];      /* /proc/sys/kernel/random/boot_id; must be set */
	char recorded_at[32];  /* "" on add: now */
	double kernel_s, initrd_s, userspace_s, total_s; /* NAN unknown; initrd_s NAN: none */
	double firmware_s, loader_s; /* NAN: not known (on a Raspberry Pi, always) */
	char target[96];
	char board[RUN_TEXT_MAX];
	char kernel[RUN_TEXT_MAX];
	char root_device[64];        /* the partition mounted on / */
	struct json_object *device;  /* the DEVICE object of its disk (borrowed), or NULL */
};

/* Store b unless its boot is stored already: then *added is false and recorded_at (may be
 * NULL) says when it was. 0 or -errno (-EINVAL: no boot id, or a total that is no time). */
int store_boot_add(struct store *st, const struct store_boot *b, bool *added,
		   char *recorded_at, size_t cap);

/* count, mean, min and max of one figure over the boots that have it (n 0: none has). */
struct store_boot_figure {
	size_t n;
	double mean, min, max;
};

/* The boots of one drive attached one way. */
struct store_boot_group {
	char device[RUN_TEXT_MAX];     /* as run_device_label(): the model, else "sda (usb)" */
	char dev_name[64];             /* of the newest boot */
	char dev_serial[RUN_TEXT_MAX];
	char attachment[256];          /* as run_attach_summary(): "usb 5000M uas 152d:0578" */
	char first_at[32], last_at[32];
	size_t boots;
	struct store_boot_figure total, kernel, initrd, userspace;
};

struct store_boot_filter {
	const char *device;    /* substring of name, model, serial or VID:PID; NULL for any */
	const char *since;     /* recorded at or after; NULL for any */
	const char *until;     /* inclusive: a date means the whole day */
	const int64_t *runs;   /* only the drives of these runs (NULL: any drive) */
	size_t n_runs;
};

/* The groups, the fastest (mean total) first: *out is allocated (the caller frees it).
 * A database too old to hold boot times gives none. */
int store_boot_groups(struct store *st, const struct store_boot_filter *f,
		      struct store_boot_group **out, size_t *n);

/*
 * What `move --apply` did: the drive the system was copied from and the one it was copied
 * to, each by the columns a run has (name, model, serial), filled from the DEVICE objects of
 * `list --json`.
 */
struct store_move {
	int64_t id;           /* 0 until stored */
	char moved_at[32];    /* "" on add: now */
	char src_name[64], src_model[RUN_TEXT_MAX], src_serial[RUN_TEXT_MAX];
	char dst_name[64], dst_model[RUN_TEXT_MAX], dst_serial[RUN_TEXT_MAX];
	bool tryboot;         /* the first boot was set up as the firmware's trial */
};

/* Fill the source (dst false) or target columns of m from a DEVICE object. */
void store_move_set_device(struct store_move *m, bool dst, struct json_object *device);
/* Store m (its id and moved_at are set). 0 or -errno. */
int store_move_add(struct store *st, struct store_move *m);
/* The newest move: 0, or -ENOENT when none is stored (or the database is too old). */
int store_move_latest(struct store *st, struct store_move *m);

#endif
