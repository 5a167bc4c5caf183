/* verdict.h - what limits a figure (the link, the protocol, the device, or a problem), the
 * boot-drive score and the SD application classes. Ranges: docs/paths.md, docs/verdicts.md. */
#ifndef SBCDISK_STORE_VERDICT_H
#define SBCDISK_STORE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/path.h"
#include "store/run.h"

enum verdict_limit {
	VERDICT_UNKNOWN = 0, /* no ceiling known for the attachment */
	VERDICT_LINK,
	VERDICT_DEVICE,
	VERDICT_PROBLEM,
	VERDICT_PROTOCOL, /* the driver's protocol on this link, usb-storage on USB 3 */
	VERDICT_MEMORY,   /* a cached read: memory, never judged against the disk */
};

/* The practical ceiling of the path between the board and the drive. */
struct link_ceiling {
	double bytes_per_s;
	char name[64];   /* "USB 2.0, 480M", "PCIe Gen 3 x4", "SD DDR50" */
	bool floor_only; /* the link is unknown; bytes_per_s is the slowest it can be */
};

struct verdict {
	enum verdict_limit limit;
	double ceiling;            /* the link's practical ceiling, bytes per second, NAN unknown */
	double expect_lo, expect_hi; /* what large transfers reach on this path, NAN unknown */
	char text[160];
};

/* A small-block figure at or above this share of the link's ceiling is limited by the link. */
#define VERDICT_LINK_SHARE 0.70
/* A large-block figure below this share of the path's expected low is far below it. */
#define VERDICT_FAR_SHARE 0.40

/* What the run tells of its path (board, link, driver, bridge, drive), for path_expect(). */
void verdict_path_in(const struct run *r, struct path_in *in);
/* The run's path and its expected range: path_expect() on verdict_path_in(). */
int verdict_path(const struct run *r, struct path_expect *e);
/* Practical ceilings by link (tables in verdict.c). 0, or -ENODATA when unknown. */
int verdict_usb_ceiling(double speed_mbps, struct link_ceiling *c);
int verdict_pcie_ceiling(double gts, double width, struct link_ceiling *c);
int verdict_mmc_ceiling(const char *timing, struct link_ceiling *c);
/* The ceiling for the run's device (usb, then pcie/nvme, then mmc). 0 or -ENODATA. */
int verdict_ceiling(const struct run *r, struct link_ceiling *c);

/* The verdict on one test, the same wherever it is shown (bench's table and JSON, history,
 * compare, the report): only what rests on the path model. A large transfer is judged against
 * the path's range, a memory figure is memory (VERDICT_MEMORY, no range), a small one at the
 * link's ceiling is the link's; a small one below it is paced by the whole path's latency, for
 * which no range is published, and stays unjudged (limit unknown). -ENODATA when the test has
 * no bandwidth. */
int verdict_test(const struct run *r, const struct run_test *t, struct verdict *v);
/* The one line for the run: a problem first, then the link, the protocol, the device (a memory
 * figure never). -ENODATA when no test could be judged. */
int verdict_run(const struct run *r, struct verdict *v);
/* The run's judgement of its large reads as one line: "Pi 4 USB 3 Gen 1 (VL805) → uas: large
 * reads should reach 330–400 MB/s; measured 38 MB/s: far below — try ...". 0 or -ENODATA. */
int verdict_run_line(const struct run *r, char *buf, size_t cap);
/* v's keys added to o: limit, ceiling_bytes_per_s, expected_bytes_per_s {low, high} and
 * text, null where unknown (history --json's verdicts, the bench's, the health check's). */
void verdict_json_add(struct json_object *o, const struct verdict *v);
/* "link", "protocol", "device", "problem", "memory", or NULL for unknown. */
const char *verdict_limit_name(enum verdict_limit l);

/*
 * Boot-drive score: 100 x the weighted geometric mean of the figures over the floor of the SD
 * A1 class (docs/guide.md, "history, compare, report"). NAN unless RND4K Q1T1 read and write exist.
 */
double verdict_score(const struct run *r);

/* SD application class from the bench checks ("A1 met, A2 not met (random write ...)").
 * 0, or -ENODATA when the run has no A1/A2 checks. */
int verdict_app_class(const struct run *r, char *buf, size_t cap);

#endif
