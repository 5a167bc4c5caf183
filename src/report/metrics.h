/* metrics.h - `sbcdisk metrics`: the attachment, the doctor's findings, the log's counts, drive
 * health and the last stored bench figures in the Prometheus text format (node_exporter's
 * textfile collector reads it). */
#ifndef SBCDISK_REPORT_METRICS_H
#define SBCDISK_REPORT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "diag/diag.h"
#include "probe/probe.h"
#include "store/run.h"

/* A label value is cut here (bytes of the sanitised text, before escaping). */
#define METRICS_LABEL_MAX 256

struct metrics_dev {
	const struct blkdev *dev;      /* a whole disk of the inventory */
	bool has_counts;               /* the kernel log was read */
	struct diag_dev_counts counts; /* its last boot's counts for this disk */
	const struct run *last_run;    /* the newest stored run of this drive, or NULL */
};

struct metrics_doc {
	const struct metrics_dev *devs;
	size_t n;
	const struct diag_findings *findings; /* NULL: none computed */
	bool log_read;                        /* the kernel log was read */
	bool store_read;                      /* the result store was read */
	time_t now;                           /* for the age of the stored runs */
};

/* The whole exposition, families in a fixed order, every sample's labels escaped. 0 or -EIO. */
int metrics_write(FILE *f, const struct metrics_doc *m);

/* s as the text of a label value: invalid UTF-8 and control bytes become '?', then '\', '"'
 * and a line feed are escaped as the format requires; at most METRICS_LABEL_MAX bytes of s. */
void metrics_label_put(FILE *f, const char *s);

#endif
