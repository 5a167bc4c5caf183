/* run.h - one stored benchmark run: the bench figures plus how the drive was attached.
 * The model behind history, compare and report; converted from and to the history JSON. */
#ifndef SBCDISK_STORE_RUN_H
#define SBCDISK_STORE_RUN_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Caps on what a run may hold: an import file is outside input. */
#define RUN_TESTS_MAX  64
#define RUN_TEXT_MAX   256  /* board, kernel, names, test names */
#define RUN_JSON_MAX   (256 * 1024) /* device / target / checks / findings documents */
#define RUN_IMPORT_MAX 4096 /* runs in one import file */

/* Numbers that may be unknown are NAN when unknown (null in JSON, NULL in SQL). */
struct run_test {
	char name[64];  /* "SEQ1M Q8T1" */
	char rw[16];    /* "read" "write" "randread" "randwrite" ... */
	double block_bytes, queue_depth, threads, runs, ios;
	double bw, bw_min, bw_max, bw_cv, iops; /* bw: bytes per second */
	double lat_mean_us, lat_p50_us, lat_p90_us, lat_p99_us, lat_p999_us, lat_max_us;
	double cpu_user_s, cpu_sys_s;
};

struct run {
	int64_t id;            /* 0 until stored */
	char started_at[32];   /* "2026-11-30T10:00:00Z" */
	char profile[64];
	char engine[32];       /* "" when unknown */
	char board[RUN_TEXT_MAX];
	char kernel[RUN_TEXT_MAX];
	char boot_device[64];
	char source[1024]; /* where an imported run came from; "" for a local bench run */
	char boot_id[40];  /* the boot a local run was measured in; "" unknown. Stored beside
			    * the document, not in it: the before/after of a fix needs it */
	struct json_object *device;   /* the DEVICE object of `list --json`, or NULL */
	struct json_object *target;   /* as in `bench --json`, or NULL */
	struct json_object *checks;   /* array, or NULL */
	struct json_object *findings; /* doctor findings at the time (array), or NULL */
	size_t ntests;
	struct run_test tests[RUN_TESTS_MAX];
};

/* A list of runs; the list owns them. */
struct run_list {
	struct run **runs;
	size_t n, alloc;
};

struct run *run_new(void);
void run_free(struct run *r);
void run_list_release(struct run_list *l);
/* Takes ownership of r (also on failure, when it frees it). 0 or -ENOMEM. */
int run_list_push(struct run_list *l, struct run *r);

/* "YYYY-MM-DDTHH:MM:SSZ", the one time format of the contracts; "YYYY-MM-DD" too when
 * date_ok. */
bool run_time_ok(const char *s, bool date_ok);
/* The same, saying why: -EINVAL (not of that form) or -EDOM (no such day or time, as
 * 2026-02-30). */
int run_time_check(const char *s, bool date_ok);

/* The directions a test may have: read, write, randread, randwrite. */
bool run_rw_ok(const char *rw);

/* Byte strings from devices may hold anything: true when s is a usable UTF-8 text. */
bool run_text_ok(const char *s, size_t cap);
/* Say why a document is refused: the message into why[cap], and -EINVAL. */
int run_fail(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * A run object of the history JSON (`id`, `verdicts` and `score` are ignored: the id is given
 * by the store, verdicts and score are computed from the figures). Everything is checked: types,
 * lengths, ranges. 0, or -EINVAL with the reason in why. *out is freed by the caller.
 */
int run_from_json(struct json_object *o, struct run **out, char *why, size_t why_cap);

/* The whole history document {"schema": 1, "runs": [...]}: all runs or none. */
int run_list_from_json(struct json_object *doc, struct run_list *out, char *why, size_t why_cap);

/*
 * The history document in buf, read run by run without building it whole: members a run
 * does not have are checked as JSON and skipped, known members are size-capped before they
 * are parsed. run_doc_open() checks the whole text, the schema and the count of runs:
 * -EBADMSG (not JSON: why says what and at which byte) or -EINVAL (why says what is wrong).
 * run_doc_next() gives the next run in *out (the caller frees it; NULL after the last), or
 * -EINVAL with "run 3 of 18: ..." in why. buf must outlive d.
 */
struct run_doc {
	const char *base, *first, *next, *end;
	size_t n, i;
};
int run_doc_open(struct run_doc *d, const char *buf, size_t len, char *why, size_t why_cap);
int run_doc_next(struct run_doc *d, struct run **out, char *why, size_t why_cap);
/* Back to the first run. */
void run_doc_rewind(struct run_doc *d);

/*
 * A bench document (`bench --json`) plus what `list` knew: the run to store. device may be
 * NULL; it is copied. 0, -EINVAL (why says what is wrong) or -ENOMEM.
 */
int run_from_bench(struct json_object *bench, struct json_object *device, const char *board,
		   const char *kernel, const char *boot_device, struct run **out, char *why,
		   size_t why_cap);

/* The history JSON of one run, with verdicts and score. NULL on -ENOMEM. */
struct json_object *run_to_json(const struct run *r);
/* {"schema": 1, "runs": [...]} */
struct json_object *run_list_to_json(const struct run_list *l);

/* The SHA-256 (hex) of the run document without its id, verdicts and score: an import that
 * brings a run with a digest that is stored already brings the same run again. */
#define RUN_DIGEST_LEN 64
int run_digest(const struct run *r, char hex[RUN_DIGEST_LEN + 1]);
/* The SHA-256 of len bytes, in hex. */
void run_digest_of(const void *data, size_t len, char hex[RUN_DIGEST_LEN + 1]);

/* Test lookup by name and direction ("read"/"write" match "randread"/"randwrite" too). */
const struct run_test *run_test_find(const struct run *r, const char *name, const char *dir);
/* "read" or "write" (or the rw string when it is neither) */
const char *run_test_dir(const struct run_test *t);
/* IOPS, or bw / block when IOPS is missing; NAN when unknown. */
double run_test_iops(const struct run_test *t);
/* Whether the figure measures memory, not the drive: hdparm -T's "cached reads". */
bool run_test_is_memory(const struct run_test *t);

/* Short human name of the tested device: model, else the name, else "?". */
const char *run_device_label(const struct run *r, char *buf, size_t cap);
/* "usb 480M uas 152d:0578", "nvme pcie 8 GT/s x4", "mmc sd uhs DDR50": how it was attached. */
void run_attach_summary(const struct run *r, char *buf, size_t cap);
/* The same in a few words for a table at 80 columns: "usb3 uas", "usb2", "pcie 5GT/s x1",
 * "sd sdr104", "emmc hs200", "nvme". */
void run_attach_short(const struct run *r, char *buf, size_t cap);
/* String member of the device object (dotted path "usb.driver"); NULL when absent or null. */
const char *run_device_str(const struct run *r, const char *path);
/* Number member (dotted path); NAN when absent or null. */
double run_device_num(const struct run *r, const char *path);

#endif
