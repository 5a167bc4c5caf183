/* move.h - the move journey: from one disk to a faster one, each step by the domain that does
 * it (bench, clone, boot check, tryboot or boot order, store), on resolved objects; no printing. */
#ifndef SBCDISK_FLOW_MOVE_H
#define SBCDISK_FLOW_MOVE_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "bench/bench.h"
#include "boot/boot.h"
#include "clone/clone.h"
#include "common/bootcfg-eval.h"
#include "common/sbuf.h"
#include "common/sysroot.h"
#include "flow/boot-order.h"
#include "probe/probe.h"
#include "probe/ref.h"
#include "store/store.h"

/*
 * The Raspberry Pi boot media that try target first, as `boot order` takes them: "sd,usb"
 * for an SD card or eMMC (the firmware's SD mode reads both), "nvme,sd" for NVMe,
 * "usb,sd" for a USB drive; NULL when the target is none of these (a loop device, an image
 * file, device-mapper ...): no boot order tries it. target is the resolved disk (a
 * partition counts as its whole disk); NULL gives NULL.
 */
const char *flow_move_media(const struct blkdev *target);

/* The medium flow_move_media() puts first, in words ("the SD card or eMMC", "NVMe",
 * "USB mass storage"); NULL when it gives NULL. */
const char *flow_move_media_words(const struct blkdev *target);

struct flow_move_opts {
	bool apply, no_bench, no_tryboot, no_copy;
};

/* The journey's decisions before any step runs: a document the steps and cli/ read. */
struct flow_move_plan {
	/* SOURCE and TARGET resolved once by probe/ref.h: every step and question takes these,
	 * never the strings again (source.kind PROBE_REF_NONE: no SOURCE, the running disk not
	 * known) */
	struct probe_ref source, target;
	bool live;	/* the running system, not a captured tree */
	bool pi;	/* a Raspberry Pi: its bootloader, tryboot and boot order */
	bool running;	/* source is the disk that holds the running root (probe_ref's answer) */
	bool bench[2];	/* step 1 measures source [0], target [1]: known block devices, live */
	bool store_benches; /* with --apply: the dry run measures, it does not store */
	unsigned root_partn; /* the partition number of the running root, 0 unknown */
	const char *media;   /* flow_move_media() of the target, NULL: no boot order */
	const char *media_words;
};

/*
 * Resolve source (NULL: the disk of the running root) and target (an image file may be new),
 * and decide the steps. 0; -EISDIR when either is a directory (why says which: a move copies
 * to a disk or an image file, and a directory is never measured); what probe_ref_resolve()
 * refuses (an ambiguous bare name, a name too long ...), with its why.
 */
int flow_move_plan_make(struct sysroot *sr, const struct inventory *inv,
			const struct flow_move_opts *o, const char *source, const char *target,
			struct flow_move_plan *p, char *why, size_t cap);

/*
 * Whether step 4 can be the firmware's trial boot: a Pi whose bootloader offers tryboot,
 * moving the running system's disk. false with why in words (then the boot order is step 4).
 */
bool flow_move_trial_possible(struct sysroot *sr, const struct inventory *inv,
			      const struct flow_move_plan *p, char *why, size_t cap);

/* "PARTUUID=..." of partition partn of the target in a fresh read of the block devices (the
 * copy's new ids), into buf; -ENOENT when it has none. */
int flow_move_copy_root(struct sysroot *sr, const struct flow_move_plan *p, char *buf,
			size_t cap);

/* The trial boot's two files beside config.txt: the diff of each, and with apply what was
 * written and the backups made. */
struct flow_move_trial {
	struct sbuf diff;     /* the unified diffs of both files */
	char fw_dir[PATH_MAX];
	char backup[2][256];  /* the backup names made, "" none: the trial cmdline, tryboot.txt */
	bool written;
};

/*
 * Work out (and with apply write) the trial with root (the copy's root=) for the running
 * kernel (its osrelease). 0; -EINVAL when config.txt sets what the trial's cmdline= would meet
 * (os_prefix, cmdline=): no trial; another -errno when it cannot. why says it in words. t is
 * initialised here; the caller releases it with flow_move_trial_release().
 */
int flow_move_trial_make(struct sysroot *sr, const char *kernel, const char *root, bool apply,
			 struct flow_move_trial *t, char *why, size_t cap);
void flow_move_trial_release(struct flow_move_trial *t);

/* The DEVICE object of a disk for the store (cli/ hands report's list_device_to_json: flow
 * and report do not use each other). The caller puts the object. */
typedef struct json_object *(*flow_device_json_fn)(const struct blkdev *d);

/*
 * Record the move in st (opened for writing) for the health check after the reboot: m gets
 * the row. 0 or -errno (store_strerror(st) says why).
 */
int flow_move_record(struct store *st, const struct flow_move_plan *p, bool tryboot,
		     flow_device_json_fn device_json, struct store_move *m);

/* Where the move is recorded without --db: the running system's default store, or the one a
 * captured tree keeps below the sysroot (where the health check of the tree looks). */
int flow_move_store_path(struct sysroot *sr, char *buf, size_t cap);

/* That store, read-only (the health check's moves and runs, doctor's runs): NULL, saying
 * nothing, when there is none or it cannot be read. */
struct store *flow_move_store_open(struct sysroot *sr);

/* What the steps take besides the plan: cli/'s stop flag (a signal handler sets it) and its
 * progress lines; the board the copy is for (NULL: this board). */
struct flow_move_step_opts {
	bool apply;
	uint64_t time_ns; /* each bench run's measured time, 0 the profile's */
	const struct config_board *board;
	volatile sig_atomic_t *stop;
	void (*clone_progress)(void *arg, const struct clone_progress *p);
	void *clone_progress_arg;
};

/* Step 1 is flow_quick_bench() (flow/bench-step.h) on each of p->bench[] (p->source.path,
 * p->target.path): the disks as the move resolved them. */

/*
 * Step 2: clone's plan of the resolved source and target (the running system's disk when
 * the source is not named), checked to be the objects the move resolved, and with apply the
 * copy (clone_apply(): -EINTR when *stop was set); *copied says whether it got to the copy
 * (then ret is the copy's, else the plan's refusal). co gets the options the plan was made
 * with. The caller releases plan with clone_plan_release(), also after a failure. 0 or -errno
 * with why (-ESTALE: a name points elsewhere now).
 */
int flow_move_clone(struct sysroot *sr, const struct flow_move_plan *p,
		    const struct flow_move_step_opts *so, struct clone_plan *plan,
		    struct clone_opts *co, bool *copied, char *why, size_t cap);

/* Step 3: will the copy boot, on a fresh read of the block devices. */
struct flow_move_checked {
	struct inventory *inv;
	struct boot_facts facts;
	bool has_facts;
	struct boot_checks checks; /* the target's checks */
};
/*
 * boot/'s check of the target as `boot check TARGET` makes it (flow/check.h), config.txt read
 * for board (NULL: this board). 0 or -errno with why (-ENODEV: the target is gone). The
 * caller releases r with flow_move_checked_release(), also after a failure.
 */
int flow_move_check(struct sysroot *sr, const struct flow_move_plan *p,
		    const struct config_board *board, struct flow_move_checked *r, char *why,
		    size_t cap);
void flow_move_checked_release(struct flow_move_checked *r);

/*
 * Step 4 on a Raspberry Pi: the boot order that tries the target first (p->media), as `boot
 * order MEDIA [--apply]` makes it. f gets the boot facts (the caller releases them with
 * boot_facts_release() and o with flow_order_release() on success); 0 or -errno with why
 * (-EINVAL: the board cannot take the order).
 */
int flow_move_order(struct sysroot *sr, const struct flow_move_plan *p, bool apply,
		    struct boot_facts *f, struct flow_order *o, char *why, size_t cap);

#endif
