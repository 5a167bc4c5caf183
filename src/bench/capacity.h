/* capacity.h - the capacity check (`sbcdisk verify`), is the capacity real and does every byte
 * read back: a seeded pattern written over a directory's free space or a whole block device,
 * read back and judged per sector. */
#ifndef SBCDISK_BENCH_CAPACITY_H
#define SBCDISK_BENCH_CAPACITY_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "bench/target.h"

#define CAPACITY_SECTOR 512
/* Directory mode fills free space with files of this size (the last one smaller), as f3write
 * does; each is unlinked as soon as it is open, so none outlives the process. */
#define CAPACITY_FILE_BYTES (1ull << 30)
#define CAPACITY_FILE_PREFIX "sbcdisk-verify-"
#define CAPACITY_CHUNK (1u << 20)

/* What one 512-byte sector read back as. */
enum capacity_state {
	CAPACITY_OK,          /* the pattern written for this offset */
	CAPACITY_CHANGED,     /* our header for this offset, but the body differs */
	CAPACITY_OVERWRITTEN, /* an intact sector of ours written for another offset: a wrap */
	CAPACITY_CORRUPTED,   /* nothing recognisable (zeros, old data, a read error) */
};

/* Fill len bytes (a multiple of CAPACITY_SECTOR) with the pattern of the sectors at offset. */
void capacity_pattern_fill(void *buf, size_t len, uint64_t offset, uint64_t seed);
/* Judge one sector read from offset; for CAPACITY_OVERWRITTEN *held is the offset whose data
 * it holds. */
enum capacity_state capacity_sector_check(const void *sec, uint64_t offset, uint64_t seed,
					  uint64_t *held);

enum capacity_mode { CAPACITY_MODE_DIR, CAPACITY_MODE_PROBE, CAPACITY_MODE_FULL };

struct capacity_counts {
	uint64_t ok, changed, overwritten, corrupted; /* sectors */
	uint64_t read_errors;                         /* of the corrupted: reads that failed */
};

struct capacity_opts {
	const char *target;
	bool destructive;
	bool full;         /* block device: after the probe, write and read all of it */
	uint64_t size;     /* directory: write at most this many bytes (0: all the free space) */
	bool has_seed;
	uint64_t seed;
};

struct capacity_progress {
	const char *phase; /* "probing", "writing", "reading" */
	uint64_t done, total; /* bytes */
	double bw;         /* bytes/s of the phase so far */
	double left_s;     /* < 0 unknown */
};

typedef void (*capacity_progress_fn)(void *arg, const struct capacity_progress *p);

#define CAPACITY_CAPACITY_FAKE "capacity-fake"
#define CAPACITY_DATA_CORRUPT "data-corrupt"

struct capacity_run {
	enum capacity_mode mode;
	struct bench_target target;
	uint64_t seed;
	time_t started_at;
	uint64_t size_bytes;      /* announced: the device's size, or the free space */
	uint64_t written_bytes, read_bytes;
	double write_s, read_s;
	struct capacity_counts sectors;
	bool has_real_size;
	uint64_t real_size;       /* bytes that hold data: the probe's edge, or the bytes read
				   * back intact */
	bool has_first_bad;
	uint64_t first_bad;       /* offset on the device, or in the files taken in order */
	bool has_alias;
	uint64_t alias_at, alias_of; /* reading alias_at gave the data written for alias_of */
	bool capacity_short;      /* the probe found the edge below the reported size */
	bool has_refused;         /* --full: writes from refused_at on failed (refused_err) */
	uint64_t refused_at;
	int refused_err;          /* -errno */
	bool in_memory;           /* directory mode: on tmpfs or ramfs, RAM and no drive */
	unsigned probe_blocks;    /* blocks the probe wrote */
	unsigned nfiles;
	const char *finding;      /* CAPACITY_CAPACITY_FAKE, CAPACITY_DATA_CORRUPT or NULL */
	bool interrupted;
	bool done;
	/* set by the caller */
	volatile sig_atomic_t *stop;
	capacity_progress_fn progress;
	void *progress_arg;
	/* private */
	int *fds;                 /* directory mode: the files, O_DIRECT where it works */
	int *fds_buffered;
	void *buf;
};

/* Open the target and check it may be written: a directory, or a block device with
 * --destructive that nothing uses. 0 or -errno with a reason in why (-EINVAL: a usage
 * problem). */
int capacity_run_prepare(struct capacity_run *run, struct sysroot *sr,
			 const struct capacity_opts *o, char *why, size_t whycap);

/* Write, read back and judge. 0 (the findings are in run), -EINTR when *stop was set, or
 * -errno with why. */
int capacity_run_execute(struct capacity_run *run, const struct capacity_opts *o, char *why,
			 size_t whycap);

/* Close everything; the files go with their descriptors. Safe to call twice. */
void capacity_run_release(struct capacity_run *run);

const char *capacity_mode_name(enum capacity_mode m);

#endif
