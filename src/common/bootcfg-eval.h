/* bootcfg-eval.h - what the Raspberry Pi firmware makes of config.txt for one board: its
 * conditional filters, include, and the settings that name the boot files (docs/config-txt.md). */
#ifndef SBCDISK_COMMON_BOOTCFG_EVAL_H
#define SBCDISK_COMMON_BOOTCFG_EVAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bootcfg.h"
#include "common/sbuf.h"
#include "common/sysroot.h"

/* include nesting the reader follows (config.txt itself is depth 0) */
#define CONFIG_INCLUDE_DEPTH_MAX 8

/* The board a config.txt is read for: what decides every filter that can be known offline. */
struct config_board {
	unsigned type;   /* the revision code's board type: 0x11 Pi 4B, 0x17 Pi 5, 0x18 CM5 ... */
	bool has_type;   /* false: the model is unknown, and so is every model filter */
	uint64_t serial; /* the board's serial number ([0x...] filter) */
	bool has_serial; /* false: a serial filter cannot be evaluated */
	bool tryboot;    /* the boot after "reboot '0 tryboot'": [tryboot] holds */
};

/* This board, from the device tree through the sysroot: the revision code
 * (system/linux,revision), else the model string; the serial number. 0 (has_type false when
 * neither is published or the model is not a Raspberry Pi the table knows). */
int config_board_read(struct sysroot *sr, struct config_board *b);

/* A board named by a model filter ("pi5", "cm4", "pi400" ...) or a board type ("0x17"), for
 * a copy meant for another board. 0 or -EINVAL for a name that picks no one board. */
int config_board_parse(const char *name, struct config_board *b);

/* What a filter is for a board. */
enum config_match {
	CONFIG_MATCH_NO,
	CONFIG_MATCH_YES,
	CONFIG_MATCH_UNKNOWN, /* depends on what cannot be known offline ([gpio4=1], [EDID=..]) */
};

/* Whether the filter [name] (lower case, as config_filter_name() gives it) holds for b,
 * alone. "all" is YES. */
enum config_match config_board_filter(const struct config_board *b, const char *name);

/* How the files of one boot partition are read: name is relative to the partition ("config.txt",
 * "extra.txt"); 0 or -errno (-ENOENT when missing), out initialised by the callee as
 * sysroot_read_file() does. */
struct config_source {
	int (*read)(void *arg, const char *name, size_t cap, struct sbuf *out);
	void *arg;
};

/* A config_source over a directory of the sysroot (the mounted boot partition). */
struct config_source_dir {
	struct sysroot *sr;
	char dir[PATH_MAX];
};
void config_source_dir_init(struct config_source *src, struct config_source_dir *d,
			    struct sysroot *sr, const char *dir);

/* A setting as the firmware uses it for one board. */
struct config_value {
	char value[256]; /* trimmed; "" when unset */
	bool set;        /* some line that applies sets it */
	char file[128];  /* the file that holds that line ("config.txt", "extra.txt") */
	unsigned line;   /* its line number there, from 1 */
};

/* What config.txt makes the firmware load on one board. */
struct config_eval {
	struct config_value cmdline;   /* cmdline= */
	struct config_value os_prefix; /* os_prefix= */
	struct config_value kernel;    /* kernel= */
	/* the command line file the firmware reads, relative to the boot partition: os_prefix
	 * and cmdline= applied, "cmdline.txt" by default */
	char cmdline_file[PATH_MAX];
	bool has_config;     /* config.txt was there and read */
	/* on -EAGAIN: the filter the answer depends on ("[gpio4=1]") and the setting */
	char unknown[64];
	char unknown_key[32];
	/* on -ELOOP, -E2BIG or a read error: the file at fault */
	char bad_file[128];
};

/*
 * Read config.txt (and what it includes) through src as the firmware does on board b: [all]
 * resets every filter, a filter replaces the one of its kind in force, filters of different
 * kinds must all hold; "include FILE" (relative to the partition) inserts FILE's lines where
 * it stands when the filters there hold, a missing FILE is skipped.
 *   0                 ev filled (config.txt missing: has_config false, the defaults)
 *   -EAGAIN           cmdline=, os_prefix or kernel depends on a filter that cannot be
 *                     evaluated (ev->unknown, ev->unknown_key): say so, do not guess
 *   -ELOOP            an include loop, or nesting deeper than CONFIG_INCLUDE_DEPTH_MAX
 *   -EXDEV            the command line file would leave the boot partition
 *   -ENAMETOOLONG, -E2BIG (a file over CONFIG_FILE_MAX), -ENOMEM, another read error
 */
int config_eval(const struct config_source *src, const struct config_board *b,
		struct config_eval *ev);

/* Any other setting (last line that applies to b wins), through includes: 0, -ENOENT when
 * no applying line sets it, -EAGAIN (unknown names the filter, when not NULL), or an error
 * of config_eval(). */
int config_eval_get(const struct config_source *src, const struct config_board *b,
		    const char *key, struct config_value *out, char *unknown, size_t ucap);

/* One line of a message for a config_eval() failure, e.g. "cmdline= is set under [gpio4=1],
 * which cannot be known before boot". */
void config_eval_explain(const struct config_eval *ev, int err, char *out, size_t cap);

#endif
