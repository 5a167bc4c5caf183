/* fix-proof.h - proof that a fix helped: `fix --apply` is recorded in the result store, and
 * the runs of that drive before and after it are compared (fix verify, the first bench). */
#ifndef SBCDISK_CLI_FIX_PROOF_H
#define SBCDISK_CLI_FIX_PROOF_H

#include <json-c/json.h>
#include <stdbool.h>

#include "cli/cli.h"
#include "cli/doctor-run.h"
#include "common/usbquirks.h"
#include "store/store.h"

/* What a fix wrote, as cmd-fix.c knows it. */
struct fix_proof_what {
	const char *kind;        /* "uas", "pcie-gen", "undo" */
	const char *change;      /* "usb-storage.quirks += 152d:0578:u" */
	const char *file;        /* the boot file */
	const char *disk;        /* the DEVICE the user named, or NULL */
	const struct usb_id *id; /* uas: the bridge, else NULL */
	bool runtime;            /* written to the running kernel too (--now) */
};

/* The outcome of recording (or, for a dry run, of looking): what to tell the user. */
struct fix_proof_note {
	bool store_used;    /* the store was asked */
	int64_t fix_id;     /* 0: not recorded */
	bool run_before;    /* a run of the drive is stored from before the fix */
	char device[160];   /* the drive as the user knows it: "sda (JMicron ...)" */
};

/* Whether fix may use the store: always with --db, and for the running system (a fix of a
 * tree given with --sysroot is not this machine's). */
bool fix_proof_store_wanted(const struct cli_ctx *ctx, const char *db);

/* Record an applied fix (apply) or only look for a run before it (dry run). Prints one line
 * when the store fails; 0 or -errno. */
int fix_proof_record(struct cli_ctx *ctx, const char *db, const struct fix_proof_what *w,
		     bool apply, struct fix_proof_note *n);

/* After bench stored run run_id with profile: when it is the first run of its drive and
 * profile after a fix, print what changed. dr: the doctor's view of the bench (kernel log),
 * may be NULL. */
void fix_proof_after_bench(struct cli_ctx *ctx, struct store *st, int64_t run_id,
			   const char *profile, struct doctor_run *dr);

/* The JSON of a recorded fix (fix verify, history --json). */
struct json_object *fix_proof_fix_json(const struct store_fix *f);

/* `sbcdisk fix verify [--device TEXT] [--profile NAME] [--db PATH]`, its options parsed
 * (db NULL: the default database; f->device the drive); the sysroot open. An exit code. */
int fix_proof_report(struct cli_ctx *ctx, const char *db, const struct store_filter *f,
		     const char *profile);

#endif
